"""The Celery application. Its settings are the Django settings prefixed with CELERY_.

Tasks live in ``games/tasks.py``. A worker that becomes ready (``celery worker``, or the
embedded one of remi_site/embedded.py) queues the start-up sweep, which schedules the move of
every table waiting for a bot: a restarted server resumes every table from the database.
"""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

app = Celery("remi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def resume_tables_on_start(sender: Any = None, **kwargs: Any) -> None:
    # Queue the sweep rather than run it here: the worker runs it like any task (its own
    # database connection, closed afterwards). Several workers starting at once queue several
    # sweeps; the duplicate bot moves they schedule are refused by the version check.
    from games.tasks import resume_tables

    resume_tables.apply_async()
