from allauth.headless.contrib.rest_framework.authentication import XSessionTokenAuthentication
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.exceptions import AuthenticationFailed


class SessionTokenAuthentication(XSessionTokenAuthentication):
    """allauth's app-client token, answering 401 (not 403) for a missing or bad token."""

    keyword = "X-Session-Token"

    def authenticate(self, request):
        token = self.get_session_token(request)
        if token is None:
            return None
        result = super().authenticate(request)
        if result is None:
            raise AuthenticationFailed(_("The session token is invalid or has expired: log in again."))
        return result

    def authenticate_header(self, request):
        return self.keyword


class SessionTokenScheme(OpenApiAuthenticationExtension):
    target_class = SessionTokenAuthentication
    name = "SessionToken"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "X-Session-Token"}
