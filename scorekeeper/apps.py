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

        from .caches import rule

        # Writes Django and allauth make (a sign-out; a new password, an account switched off or
        # deleted) announce what they changed like the services' own (caches.rule).
        user_logged_out.connect(rule.on_sign_out, dispatch_uid="rule-sign-out")
        post_save.connect(rule.on_account_change, sender=get_user_model(), dispatch_uid="rule-user-saved")
        post_delete.connect(rule.on_account_change, sender=get_user_model(), dispatch_uid="rule-user-deleted")
