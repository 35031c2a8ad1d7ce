from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # The Celery tasks are registered in every process, not only in a worker's: the services
        # queue them by name (games/shared/enqueue.py) and never import them.
        from games import tasks  # noqa: F401
