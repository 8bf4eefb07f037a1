"""Languages: the menu's switch.

The page scripts' words are not here: the scripts (static/scorekeeper/*.js) mark them with `t("...")` and
`tn("...", "...", count)`, their Spanish is in locale/es/LC_MESSAGES/djangojs.po, and each page
loads its language's JavaScript catalogue as a static file (docs/translating.md).
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.views import i18n
from django.views.decorators.http import require_POST


@require_POST
def set_language(request: HttpRequest):
    """The menu's switch: Django's view sets the cookie and goes back; a signed-in user keeps the
    choice on their account, so it follows them to every phone."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        get_user_model().objects.filter(pk=request.user.pk).update(language=language)
    return response
