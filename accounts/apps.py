from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from .middleware import remember_language

        user_logged_in.connect(remember_language, dispatch_uid="accounts.remember_language")
