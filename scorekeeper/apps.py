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

        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_delete, post_save

        from . import polls

        # A session signed out, or its user changed (a new password, switched off, deleted), is no
        # longer let through by the polls' shortcut.
        user_logged_out.connect(polls.on_sign_out, dispatch_uid="polls-sign-out")
        post_save.connect(polls.on_user_change, sender=get_user_model(), dispatch_uid="polls-user-saved")
        post_delete.connect(polls.on_user_change, sender=get_user_model(), dispatch_uid="polls-user-deleted")
