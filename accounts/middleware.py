import json

from django.conf import settings


class LoginRateLimitMiddleware:
    """allauth's headless login answers a throttled attempt with 400; the API contract wants
    429 and a Retry-After header, which the account adapter worked out."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        wait = getattr(request, "login_retry_after", None)
        if wait is None or response.status_code != 400 or not request.path.startswith("/_allauth/"):
            return response
        body = json.loads(response.content)
        body["status"] = 429
        response.content = json.dumps(body)
        response.status_code = 429
        response.reason_phrase = "Too Many Requests"
        response["Retry-After"] = str(wait)
        return response


class UserLanguageMiddleware:
    """The language kept on an account follows its user to every phone: the answer to a sign-in
    sets the language cookie from the account (`remember_language` below marks the request), and
    LocaleMiddleware reads that cookie from then on. No request reads the database for it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        language = getattr(request, "account_language", "")
        if language:
            set_language_cookie(response, language)
        return response


def set_language_cookie(response, language: str) -> None:
    """The cookie as Django's own language switch sets it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def remember_language(sender, request, user, **kwargs):
    """On sign-in (the `user_logged_in` signal): this request's answer carries the account's language,
    and the page it leads to is already in it."""
    if request is not None and getattr(user, "language", ""):
        request.account_language = user.language
