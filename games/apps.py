from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # The Celery tasks are registered in every process, not only in a worker's: the services
        # queue them by name (games/shared/enqueue.py) and never import them.
        from games import tasks  # noqa: F401

        # What play does at the moments the domains above it decide, without importing them
        # (docs/architecture.md, "The house by domain"): a match's end settles its ratings, a
        # ranked match left before its first discard is aborted, and every sweep reveals the
        # deals of the days that are over.
        from games.learn.services.daily import daily_reveal
        from games.play.services import clock, core
        from games.ranked import ratings

        core.on_match_over(ratings.on_match_over)
        core.on_leave_ends_match(ratings.a_leave_aborts)
        clock.sweep_also("revealing the deals of past days", daily_reveal)
