"""Languages: the menu's switch, and the words the page scripts say.

The page scripts carry no text of their own language: every page holds its strings as a JSON
data block (`json_script`, which runs nothing, so the CSP stays without inline script), and
`t()` in the scripts looks them up by their English text. A page kept for offline use keeps
its strings with it.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext_noop as _
from django.views import i18n
from django.views.decorators.http import require_POST

# What app.js and offline.js show; `{name}` fields are filled in by the script.
SCRIPT_STRINGS = (
    _("{name}'s tiles"),
    _("{pips} pips"),
    _("holds the 0-0"),
    _("Done"),
    _("Screen lock unavailable"),
    _("Screen stays on"),
    _("Keep the screen on"),
    _("This live link was stopped"),
    _("live"),
    _("reconnecting…"),
    _("out on a double"),
    _("out"),
    _("held the 0-0"),
    _("You may not record rounds in this game (or your session ended: log in again)."),
    _("Log in again to send it."),
    _("The server refused this round ({status})."),
    _("not saved by the server"),
    _("waiting to sync"),
    _("Save anyway"),
    _("Fix"),
    _("Discard"),
    _("Discard the round {double} saved on this phone? It has not reached the server."),
    _("Back online: this page is from {time}."),
    _("Show the latest"),
    _("Offline: last updated {time}."),
    _("Offline."),
    _("Rounds you save wait on this phone."),
    _("A new version is ready."),
    _("Reload"),
    _("Round {number}"),
    _("seat {number}"),
)


def ngettext(singular: str, plural: str) -> tuple[str, str]:
    """Marks a pair for makemessages (xgettext knows the name), translating nothing."""
    return singular, plural


# The ones that depend on a count: the script picks the first form for 1, the second otherwise
# (the rule of both languages offered).
SCRIPT_PLURALS = (
    ngettext("{count} tile", "{count} tiles"),
    ngettext("{count} round waiting to sync.", "{count} rounds waiting to sync."),
    ngettext(
        "{count} round saved on this phone has not reached the server and will be lost. Log out anyway?",
        "{count} rounds saved on this phone have not reached the server and will be lost. Log out anyway?",
    ),
)


def script_strings(request: HttpRequest) -> dict:
    """The context processor behind base.html's strings block."""
    strings = {text: translation.gettext(text) for text in SCRIPT_STRINGS}
    for singular, plural in SCRIPT_PLURALS:
        strings[singular] = [translation.ngettext(singular, plural, 1), translation.ngettext(singular, plural, 2)]
    return {"script_strings": strings}


@require_POST
def set_language(request: HttpRequest):
    """The menu's switch: Django's view sets the cookie and goes back; a signed-in user keeps the
    choice on their account, so it follows them to every phone."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        get_user_model().objects.filter(pk=request.user.pk).update(language=language)
    return response
