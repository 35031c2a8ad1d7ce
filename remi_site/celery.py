"""The Celery application. Its settings are the Django settings prefixed with CELERY_."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

app = Celery("remi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
