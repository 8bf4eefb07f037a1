import re

import pytest
import yaml
from django.test import Client

from tests.api.conftest import round_body, start_game

pytestmark = pytest.mark.django_db


def test_the_schema_is_served_and_lists_every_operation_and_error_status():
    response = Client().get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    assert {
        "/api/v1/players/", "/api/v1/players/{id}/", "/api/v1/players/{id}/stats/", "/api/v1/games/",
        "/api/v1/games/{id}/", "/api/v1/games/{id}/rounds/", "/api/v1/games/{id}/rounds/{number}/",
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


# POSTs that write nothing (a photo counted): sent again, they do the same again, so no Idempotency-Key.
CHANGE_NOTHING = {"/api/v1/hands/count/"}


def test_the_schema_says_what_the_server_takes_and_answers():
    schema = yaml.safe_load(Client().get("/api/schema/").content)
    components, paths = schema["components"]["schemas"], schema["paths"]
    assert components["PlayerRequest"]["required"] == ["name"]
    assert set(components["PatchedPlayerPatchRequest"]["properties"]) == {"name", "user", "archived"}
    assert components["PatchedScorebookPatchRequest"]["minProperties"] == 1  # a name, a time zone, or both
    assert set(components["PatchedScorebookPatchRequest"]["properties"]) == {"name", "time_zone"}
    assert components["PatchedGameUpdateRequest"]["minProperties"] == 1  # a name, casual, or both
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
            if method == "post" and path not in CHANGE_NOTHING:
                key = next(p for p in operation["parameters"] if p["name"] == "Idempotency-Key")
                assert (key["schema"]["minLength"], key["schema"]["maxLength"]) == (1, 255), path
    created = paths["/api/v1/games/"]["post"]["responses"]["201"]["headers"]
    assert created["ETag"]["required"] and created["Location"]["required"] and "Idempotent-Replayed" in created
    assert paths["/api/v1/live/{token}/"]["get"]["responses"]["429"]["headers"]["Retry-After"]["required"]
    export = paths["/api/v1/export/"]["get"]["responses"]["200"]["content"]
    assert export["application/json"]["schema"] == {"$ref": "#/components/schemas/ExportDocument"}
    assert export["text/csv"]["schema"]["type"] == "string"


# Issue 32, item 7: where Schemathesis found the server and its schema disagreeing.


def published() -> dict:
    return yaml.safe_load(Client().get("/api/schema/").content)


def test_a_game_is_named_id_in_every_path_as_in_api_md_and_its_urls_are_unchanged(app):
    paths = published()["paths"]
    assert not [path for path in paths if "game_pk" in path]
    assert {"/api/v1/games/{id}/rounds/", "/api/v1/games/{id}/rounds/{number}/", "/api/v1/games/{id}/share/",
            "/api/v1/games/{id}/history/", "/api/v1/games/{id}/export/"} <= set(paths)  # fmt: skip
    for path, methods in paths.items():
        for operation in methods.values():
            named = [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"]
            assert sorted(named) == sorted(re.findall(r"\{(\w+)\}", path)), (path, named)
    game = start_game(app)
    assert app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4)).status_code == 201
    assert app.get(f"/api/v1/games/{game['id']}/rounds/1/").json()["number"] == 1


def test_linking_yourself_to_a_second_player_is_a_409_the_schema_lists(app):
    first, second = (app.post("/api/v1/players/", {"name": name}).json()["id"] for name in ("Ann", "Ben"))
    assert app.patch(f"/api/v1/players/{first}/", {"user": "me"}).status_code == 200
    response = app.patch(f"/api/v1/players/{second}/", {"user": "me"})
    assert response.status_code == 409 and response.json()["code"] == "already_linked"
    answers = published()["paths"]["/api/v1/players/{id}/"]["patch"]["responses"]
    assert answers["409"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}


@pytest.mark.parametrize(
    ("path", "field"),
    [("/api/v1/scorebooks/{book}/", "name"), ("/api/v1/scorebooks/{book}/members/{user}/", "role"),
     ("/api/v1/games/{game}/", "name")],
)  # fmt: skip
def test_a_patch_without_a_body_is_a_400_naming_the_field_and_the_schema_requires_the_body(app, path, field):
    game = start_game(app)
    url = path.format(book=game["scorebook"], user=app.user.pk, game=game["id"])
    response = app.patch(url)
    assert response.status_code == 400 and list(response.json()) == [field]
    template = re.sub(r"\{\w+\}", "{id}", path, count=1).replace("{user}", "{user_pk}")
    body = published()["paths"][template]["patch"]["requestBody"]
    assert body["required"] is True


def test_a_players_patch_without_a_body_changes_nothing_as_its_schema_allows(app):
    player = app.post("/api/v1/players/", {"name": "Ann"}).json()
    response = app.patch(f"/api/v1/players/{player['id']}/")
    assert response.status_code == 200 and response.json() == player
    assert not published()["paths"]["/api/v1/players/{id}/"]["patch"]["requestBody"].get("required")


NAMES = ["", " ", "   ", "\t\n", "\u3000", "\x1c\x1f", "\u2028 \u205f", "\ufeff", "Ann", " Ben ", "\u00a0Cy"]


@pytest.mark.parametrize(
    ("method", "path", "component"),
    [("post", "/api/v1/players/", "PlayerRequest"), ("post", "/api/v1/scorebooks/", "ScorebookRequest"),
     ("patch", "/api/v1/players/{player}/", "PatchedPlayerPatchRequest"),
     ("patch", "/api/v1/scorebooks/{book}/", "PatchedScorebookPatchRequest")],
)  # fmt: skip
def test_a_blank_name_is_a_400_and_the_schema_says_which_names_the_server_takes(app, method, path, component):
    name = published()["components"]["schemas"][component]["properties"]["name"]
    player = app.post("/api/v1/players/", {"name": "Zed"}).json()
    url = path.format(player=player["id"], book=player["scorebook"])
    for index, sent in enumerate(NAMES):
        valid = len(sent) >= name["minLength"] and re.search(name["pattern"], sent) is not None
        response = getattr(app, method)(url, {"name": f"{sent}{index}" if valid else sent})  # each name new
        assert (response.status_code < 300) == valid, (repr(sent), response.status_code, response.content)
        if not valid:
            assert response.status_code == 400 and "name" in response.json(), repr(sent)


def test_the_name_pattern_refuses_exactly_the_characters_a_trim_takes_away():
    from scorekeeper.api.serializers.common import NOT_SPACE

    kept = re.compile(NOT_SPACE)
    for point in range(0x110000):
        character = chr(point)
        assert (kept.fullmatch(character) is not None) == (character.strip() != ""), hex(point)


@pytest.mark.parametrize("path", ["/api/v1/players/", "/api/v1/games/", "/api/v1/leaderboard/", "/api/v1/export/"])
def test_a_repeated_scorebook_parameter_is_a_400_naming_it(app, path):
    book = app.get("/api/v1/scorebooks/").json()["results"][0]["id"]
    assert app.get(f"{path}?scorebook={book}").status_code == 200
    response = app.get(f"{path}?scorebook={book}&scorebook={book}")
    assert response.status_code == 400 and response.json() == {"scorebook": ["Send this parameter once, not 2 times."]}
    spanish = app.get(f"{path}?scorebook={book}&scorebook=2", headers={"Accept-Language": "es"})
    assert spanish.json() == {"scorebook": ["Envía este parámetro una sola vez, no 2 veces."]}


@pytest.mark.parametrize("page", ["1.5", "0", "-1", "one", "", "1&page=1", "1" * 5000])
def test_a_page_that_is_not_one_whole_number_from_1_is_a_400_naming_it(app, page):
    app.post("/api/v1/players/", {"name": "Ann"})
    response = app.get(f"/api/v1/players/?page={page}")
    assert response.status_code == 400 and list(response.json()) == ["page"], response.content


def test_a_page_past_the_last_is_still_a_404_and_a_page_size_of_thousands_of_digits_a_400(app):
    assert app.get("/api/v1/players/?page=1").status_code == 200
    assert app.get("/api/v1/players/?page=2").status_code == 404
    response = app.get(f"/api/v1/players/?page_size={'9' * 5000}")
    assert response.status_code == 400 and list(response.json()) == ["page_size"]


@pytest.mark.parametrize("value", ["abc", "0", "1.5", str(2**53 + 1)])
def test_a_scorebook_parameter_that_is_no_id_is_a_400_naming_it(app, value):
    response = app.get(f"/api/v1/games/?scorebook={value}")
    assert response.status_code == 400 and list(response.json()) == ["scorebook"]
    assert app.get("/api/v1/games/?scorebook=999999").status_code == 404  # an id, of nothing of yours


def test_every_query_parameter_the_schema_lists_sent_twice_is_a_400_naming_it(app):
    """The list comes from the published schema: a parameter added later is checked too."""
    game = start_game(app)
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    ids = {"id": game["id"], "number": 1}
    checked = []
    for path, methods in published()["paths"].items():
        for method, operation in methods.items():
            for parameter in operation.get("parameters", []):
                if parameter["in"] != "query":
                    continue
                owner = {"/players/": game["players"][0]["id"], "/scorebooks/": game["scorebook"]}
                url = path.replace("{id}", str(next((pk for part, pk in owner.items() if part in path), ids["id"])))
                value = parameter["schema"].get("enum", [None])[0] or parameter["schema"].get("minimum", 1)
                if parameter["name"] == "scorebook":
                    value = game["scorebook"]
                name = parameter["name"]
                response = getattr(app, method)(
                    f"{url}?{name}={value}&{name}={value}", **({"body": {}} if method == "post" else {})
                )
                assert response.status_code == 400 and name in response.json(), (method, path, name, response.content)
                checked.append((method, path, name))
    assert len(checked) >= 20, checked
