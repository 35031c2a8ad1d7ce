"""The test runner asks for a developer's settings: ``DJANGO_DEBUG=1``, unless the environment
already says (issue 34; docs/operations.md, "Production settings, and make run").

The site's settings are production's unless asked otherwise, and production's refuse to start
without a secret key and the allowed hosts (remi_site/settings/base.py). A pytest plugin (``-p
tests.developer_settings`` in pyproject.toml), imported before pytest-django reads the settings
(remi_site/settings/test.py): the settings of the tests are a developer's, as they always were,
and so are those of the servers and workers the tests start, which inherit this environment. A
test that wants production's settings gives its own environment
(tests/site/test_production_settings.py).
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_DEBUG", "1")
