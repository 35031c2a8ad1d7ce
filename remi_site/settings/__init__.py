"""The site's settings: ``remi_site.settings.base`` (every setting, read from the environment).

``DJANGO_SETTINGS_MODULE=remi_site.settings`` (manage.py, daphne, celery) runs these;
the test runner chooses ``remi_site.settings.test`` (pyproject.toml).
"""

from remi_site.settings.base import *  # noqa: F403
