from django.apps import AppConfig


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"
    verbose_name = "Chicken Foot"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.utils import translation

        from .rules import text

        # The rules' messages are made in the language of the request that asks for them.
        text.use(translation)

        from django.contrib.auth.signals import user_logged_out

        from . import polls

        # A session signed out is no longer let through by the polls' shortcut.
        user_logged_out.connect(polls.on_sign_out, dispatch_uid="polls-sign-out")
