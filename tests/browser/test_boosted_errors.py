"""Links are boosted by htmx (the page swaps in place); an answer that is an error still shows,
as it would without htmx, instead of a tap that seems to do nothing."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Player
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_boosted_link_to_something_gone_shows_the_not_found_page(phone):
    user = UserFactory()
    gone = PlayerFactory(owner=user, name="Gone Soon")
    log_in(phone, user.email)
    phone.goto("/players/")
    link = phone.get_by_role("link", name="Gone Soon")
    expect(link).to_be_visible()
    Player.objects.filter(pk=gone.pk).delete()  # deleted on another phone meanwhile
    with phone.expect_request(lambda request: request.header_value("HX-Request") == "true"):
        link.click()
    expect(phone.locator("main h1")).to_have_text("Not found")
    assert phone.url.endswith(f"/players/{gone.pk}/")
    screenshot(phone, "boosted-404")
