import re

import pytest
import yaml
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_schema_is_served_and_lists_every_operation_and_error_status():
    response = Client().get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    assert {
        "/api/v1/players/", "/api/v1/players/{id}/", "/api/v1/players/{id}/stats/", "/api/v1/games/",
        "/api/v1/games/{id}/", "/api/v1/games/{game_pk}/rounds/", "/api/v1/games/{game_pk}/rounds/{number}/",
        "/api/v1/leaderboard/",
    } <= set(paths)  # fmt: skip
    documented = {code for path in paths.values() for op in path.values() for code in op.get("responses", {})}
    assert {"200", "201", "204", "400", "401", "404", "409", "412", "422"} <= documented
    assert schema["components"]["securitySchemes"]["SessionToken"]["name"] == "X-Session-Token"


@pytest.mark.parametrize("page", ["/api/docs/", "/api/docs/sign-in/"])
def test_the_docs_pages_load_every_asset_from_the_app_itself(page):
    client = Client()
    response = client.get(page)
    assert response.status_code == 200
    html = response.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets, "the page should load its scripts"
    assert not [a for a in assets if a.startswith(("http:", "https:", "//"))], assets
    assert "fonts.googleapis" not in html
    for asset in assets:
        assert client.get(asset).status_code == 200, asset


def test_sign_in_has_its_own_openapi_document_served_by_allauth():
    response = Client().get("/_allauth/openapi.json")
    assert response.status_code == 200
    spec = response.json()
    assert spec["openapi"].startswith("3.")
    paths = {
        "/_allauth/{client}/v1/auth/login",
        "/_allauth/{client}/v1/auth/signup",
        "/_allauth/{client}/v1/auth/session",
    }
    assert paths <= set(spec["paths"])


def test_the_api_docs_link_to_the_sign_in_document_and_its_browsable_page():
    schema = yaml.safe_load(Client().get("/api/schema/").content)
    assert "(/_allauth/openapi.json)" in schema["info"]["description"]
    assert "(/api/docs/sign-in/)" in schema["info"]["description"]
    client = Client()
    page = client.get("/api/docs/sign-in/")
    assert page.status_code == 200
    script = next(src for src in re.findall(r'src="([^"]+)"', page.content.decode()) if "/api/docs/sign-in/" in src)
    assert "/_allauth/openapi.json" in client.get(script).content.decode()
