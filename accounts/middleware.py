import json


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
