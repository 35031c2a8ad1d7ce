from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts.signins import signin_record

        # Every login and registration keeps where it came from (accounts/signins.py).
        user_logged_in.connect(signin_record, dispatch_uid="accounts.signin_record")
