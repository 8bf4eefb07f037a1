import json

from django.utils import translation


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
    """A signed-in user's language from the menu wins over the browser's and the cookie: it follows
    them to every phone they sign in on. Token requests to the API keep Accept-Language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = getattr(request.user, "language", "")
        if language and language != request.LANGUAGE_CODE:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
