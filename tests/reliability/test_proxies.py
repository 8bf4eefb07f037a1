"""Behind a proxy, each visitor keeps an address of their own (TRUSTED_PROXY_COUNT)."""

import pytest
from django.test import Client, RequestFactory

from accounts.adapter import AccountAdapter
from scorekeeper.http import links
from scorekeeper.http.proxies import client_address
from tests.api.conftest import app_for, start_game

PROXY = "10.0.0.2"  # the address every request arrives from behind a PaaS router


def address(settings, count: int, forwarded: str | None) -> str:
    settings.TRUSTED_PROXY_COUNT = count
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=PROXY, headers=headers))


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        (0, "203.0.113.5", PROXY),  # no proxy declared: the header is the client's own words
        (1, "203.0.113.5", "203.0.113.5"),  # the router appended the client
        (1, "6.6.6.6, 203.0.113.5", "203.0.113.5"),  # a forged entry on the left is never believed
        (2, "6.6.6.6, 203.0.113.5, 10.0.0.7", "203.0.113.5"),  # two proxies: the second from the right
        (2, "203.0.113.5", PROXY),  # fewer hops than proxies: reached around them, the connection counts
        (1, None, PROXY),
        (1, "", PROXY),
        (1, "not-an-address", PROXY),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_the_client_is_read_that_many_hops_from_the_right_and_never_further(settings, count, forwarded, expected):
    assert address(settings, count, forwarded) == expected


def test_allauth_keys_its_limits_by_the_same_address_and_never_raises(settings):
    settings.TRUSTED_PROXY_COUNT = 2
    adapter = AccountAdapter()
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, headers={"X-Forwarded-For": "203.0.113.5"})
    assert adapter.get_client_ip(request) == PROXY  # allauth's own reading raised ImproperlyConfigured here
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, headers={"X-Forwarded-For": "203.0.113.5, 10.0.0.7"})
    assert adapter.get_client_ip(request) == "203.0.113.5"


@pytest.mark.django_db
def test_behind_a_proxy_each_phone_has_its_own_live_budget_and_forging_buys_nothing(settings, monkeypatch):
    app = app_for("ann@example.com")
    game = start_game(app)
    link = app.post(f"/api/v1/games/{game['id']}/share/").json()
    settings.TRUSTED_PROXY_COUNT, settings.LIVE_REQUESTS_PER_MINUTE = 1, 3
    monkeypatch.setattr(links.time, "time", lambda: 1_800_000_030.0)  # mid-window: no minute rolls over

    def phone(*forwarded):
        return [
            Client(REMOTE_ADDR=PROXY).get(link["api_url"], headers={"X-Forwarded-For": hops}).status_code
            for hops in forwarded
        ]

    assert phone(*["203.0.113.5"] * 4) == [200, 200, 200, 429]
    # The same phone writing a new address on the left each time is still the same phone.
    assert phone("1.1.1.1, 203.0.113.5", "2.2.2.2, 203.0.113.5") == [429, 429]
    assert phone("198.51.100.7") == [200]  # another phone behind the same router


@pytest.mark.django_db
def test_behind_a_proxy_one_visitors_failed_logins_do_not_lock_out_the_others(settings):
    settings.TRUSTED_PROXY_COUNT = 1

    def login(email, client_ip):
        return Client(REMOTE_ADDR=PROXY).post(
            "/_allauth/app/v1/auth/login",
            {"email": email, "password": "wrong-password-1"},
            content_type="application/json",
            headers={"X-Forwarded-For": client_ip},
        )

    # allauth allows 10 failed logins a minute per address (and 5 per account): one address, 10 accounts.
    statuses = [login(f"guess{n}@example.com", "203.0.113.5").status_code for n in range(11)]
    assert statuses[:10] == [400] * 10 and statuses[10] == 429
    assert login("ann@example.com", "198.51.100.7").status_code == 400  # refused for the password, not limited
