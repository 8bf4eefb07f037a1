"""Django's makemessages, knowing the names the page scripts mark their words with.

The page scripts (static/scorekeeper/*.js) say `t("English {name}", {name: ...})` and `tn("{count} tile", "{count} tiles",
count)` (i18n.js's, over Django's JavaScript catalogue). With `-d djangojs` this
command hands xgettext those two names besides Django's, so the strings land in
locale/<lang>/LC_MESSAGES/djangojs.po. The `django` domain is extracted as Django does it.
"""

from django.core.management.commands import makemessages

SCRIPT_KEYWORDS = ["--keyword=t", "--keyword=tn:1,2"]


class Command(makemessages.Command):
    def handle(self, *args, **options):
        if options["domain"] == "djangojs":
            self.xgettext_options = [*self.xgettext_options, *SCRIPT_KEYWORDS]
        super().handle(*args, **options)
