"""The page scripts are ES modules by feature, served as a deploy serves them: collected under the
manifest storage's hashed names (the imports between them hashed too), from this site only (the
CSP runs no inline script), and every one of them kept by the service worker for offline use."""

import json
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from django.conf import settings
from django.templatetags.static import static

from scorekeeper.http import offline

pytestmark = pytest.mark.django_db

SCRIPTS = Path(settings.BASE_DIR) / "scorekeeper/static/scorekeeper"
HASHED = re.compile(r"/static/scorekeeper/([\w-]+)\.[0-9a-f]{12}\.js")
# `import ... from "./x.js"` and `import "./x.js"`, as the scripts write them.
# A module's imports: at the head of a line (import ... from "./x.js";), or loaded when needed (import("./x.js")).
IMPORT = re.compile(r"""(?:^import\s*(?:[^"';]*?\s*from\s*)?|\bimport\()["']([^"']+)["']""", re.MULTILINE)


def served(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"].startswith("text/javascript"), url
    return b"".join(response.streaming_content).decode()


def test_each_page_loads_the_scripts_as_one_module_from_this_site_with_no_inline_script(client):
    page = client.get("/rules/").content.decode()
    app = static("scorekeeper/app.js")
    assert HASHED.fullmatch(app)
    assert f'<script type="module" src="{app}"></script>' in page
    # Every script comes from a file; besides htmx and the words' catalogue, app.js brings in the rest.
    assert all("src=" in attributes for attributes in re.findall(r"<script\b([^>]*)>", page))
    ours = [src for src in re.findall(r'<script[^>]* src="([^"]+)"', page) if src.startswith("/static/scorekeeper/")]
    assert [src for src in ours if "/jsi18n/" not in src] == [app]
    assert "script-src 'self'" in client.get("/rules/")["Content-Security-Policy"]


def test_every_module_app_js_imports_is_served_by_its_hashed_name_and_kept_by_the_worker(client):
    config = json.loads(re.search(r"const CONFIG = (\{.*?\});", client.get("/sw.js").content.decode())[1])
    kept = set(config["precache"])
    seen, waiting = set(), [static("scorekeeper/app.js")]
    while waiting:
        url = waiting.pop()
        if url in seen:
            continue
        seen.add(url)
        assert HASHED.fullmatch(url), url  # the manifest storage's name, the imports' too
        assert url in kept, url
        waiting.extend(urljoin(url, name) for name in IMPORT.findall(served(client, url)))
    # Every script of the app is reached from app.js: none is left out of the page.
    reached = {HASHED.fullmatch(url)[1] for url in seen}
    assert reached == {path.stem for path in SCRIPTS.glob("*.js")}
    assert len(reached) > 10


def test_each_page_script_is_short_and_imports_only_its_neighbours():
    for path in SCRIPTS.glob("*.js"):
        source = path.read_text(encoding="utf-8")
        assert source.count("\n") <= 300, path.name
        for name in IMPORT.findall(source):
            assert re.fullmatch(r"\./[\w-]+\.js", name) and (SCRIPTS / name).is_file(), (path.name, name)


def test_the_worker_keeps_every_page_script():
    assert {Path(name).name for name in offline.SCRIPTS} == {path.name for path in SCRIPTS.glob("*.js")}
    assert {static(name) for name in offline.SCRIPTS} <= set(offline._config()["precache"])
