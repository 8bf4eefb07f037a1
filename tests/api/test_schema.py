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


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_the_schema_says_what_the_server_takes_and_answers():
    schema = yaml.safe_load(Client().get("/api/schema/").content)
    components, paths = schema["components"]["schemas"], schema["paths"]
    assert components["PlayerRequest"]["required"] == ["name"]
    assert set(components["PatchedPlayerPatchRequest"]["properties"]) == {"name", "user"}
    assert components["PatchedScorebookRequest"]["required"] == ["name"]
    assert components["PatchedMemberRoleRequest"]["required"] == ["role"]
    assert components["RoundWriteRequest"]["properties"]["entries"]["minItems"] == 1
    for name, fields in {"Player": {"name", "user"}, "Game": {"status", "tile_set", "finished_at", "rules"},
                         "Entry": {"went_out", "ended_on_double", "double_blank"},
                         "Rules": {"target_score", "extended"}}.items():  # fmt: skip
        assert fields <= set(components[name]["required"]), name
    assert not [node for node in _walk(schema) if "allOf" in node and node.get("nullable")]
    scorebook = next(p for p in paths["/api/v1/games/"]["get"]["parameters"] if p["name"] == "scorebook")
    assert scorebook["schema"]["minimum"] == 1
    for path, methods in paths.items():
        for method, operation in methods.items():
            assert operation["responses"]["400"]["content"]["application/json"]["schema"]["anyOf"], (path, method)
            if method == "post":
                key = next(p for p in operation["parameters"] if p["name"] == "Idempotency-Key")
                assert (key["schema"]["minLength"], key["schema"]["maxLength"]) == (1, 255), path
    created = paths["/api/v1/games/"]["post"]["responses"]["201"]["headers"]
    assert created["ETag"]["required"] and created["Location"]["required"] and "Idempotent-Replayed" in created
    assert paths["/api/v1/live/{token}/"]["get"]["responses"]["429"]["headers"]["Retry-After"]["required"]
    export = paths["/api/v1/export/"]["get"]["responses"]["200"]["content"]
    assert export["application/json"]["schema"] == {"$ref": "#/components/schemas/ExportDocument"}
    assert export["text/csv"]["schema"]["type"] == "string"
