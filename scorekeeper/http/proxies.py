"""The client's address, behind as many proxies as the deploy says stand in front of the app.

Each proxy appends the address it was reached from to X-Forwarded-For, so with N trusted proxies
the client is the N-th entry from the right; anything further left was written by the client and
is never believed. With no proxy (the default) the connection's own address is the client. The
login limits (allauth, through accounts.adapter) and the live view's budget both read it here.
"""

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    connection = request.META.get("REMOTE_ADDR", "")
    count = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return connection
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [hop for hop in hops if hop]
    if len(hops) < count:  # not through every proxy (reached directly): only the connection is known
        return connection
    try:
        return str(ipaddress.ip_address(hops[-count]))
    except ValueError:  # a proxy never writes this; do not key anything on it
        return connection
