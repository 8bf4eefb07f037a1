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
