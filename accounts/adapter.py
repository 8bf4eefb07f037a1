"""allauth, adapted: a refused login says when to try again (and the app API answers 429)."""

import math
import time

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.internal import ratelimit
from django import forms
from django.contrib.sites.shortcuts import get_current_site
from django.core.cache import cache
from django.utils.translation import ngettext

from .tasks import as_task_data, send_email

LOGIN_FAILED = "login_failed"


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        """Every account starts with its personal scorebook (pages and API v1 default to it); one
        made from an invite ("Sign up and join") is a member of its scorebook at once."""
        user = super().save_user(request, user, form, commit)
        if commit:
            from scorekeeper.models import Scorebook
            from scorekeeper.views.scorebooks import join_on_sign_up

            Scorebook.personal_for(user)
            join_on_sign_up(request, user)
        return user

    def get_client_ip(self, request) -> str:
        """The address every login and sign-up limit is kept for: the client's, behind as many
        proxies as TRUSTED_PROXY_COUNT says (allauth's own reading raises when a request has fewer)."""
        from scorekeeper.http.proxies import client_address

        return client_address(request) or "0.0.0.0"

    def send_mail(self, template_prefix, email, context):
        """As allauth does, but queued (accounts.tasks): the request never waits for the mail server."""
        request = self.request
        context = {"request": request, "email": email, "current_site": get_current_site(request), **context}
        send_email.enqueue(as_task_data(self.render_mail(template_prefix, email, context)))

    def pre_authenticate(self, request, **credentials):
        try:
            super().pre_authenticate(request, **credentials)
        except forms.ValidationError as error:
            if error.code != "too_many_login_attempts":
                raise
            wait = self.login_retry_after(request, **credentials)
            request.login_retry_after = wait  # read by LoginRateLimitMiddleware for the app API
            minutes = max(1, math.ceil(wait / 60))
            raise forms.ValidationError(
                ngettext(
                    "Too many failed attempts for this account. Try again in {count} minute.",
                    "Too many failed attempts for this account. Try again in {count} minutes.",
                    minutes,
                ).format(count=minutes),
                code="too_many_login_attempts",
            ) from None

    def login_retry_after(self, request, **credentials) -> int:
        """Seconds until the oldest counted failure leaves the window of every limit that is full."""
        key = self._get_login_attempts_cache_key(request, **credentials)
        now = time.time()
        waits = [0.0]
        for rate in ratelimit.get_rates(app="allauth.account", action=LOGIN_FAILED):
            cache_key = ratelimit.get_cache_key(request, app="allauth.account", action=LOGIN_FAILED, rate=rate, key=key)
            counted = [stamp for stamp in cache.get(cache_key, []) if stamp > now - rate.duration]
            if len(counted) >= rate.amount:
                waits.append(min(counted) + rate.duration - now)
        return max(1, math.ceil(max(waits)))
