"""The deploy stage's smoke test (`.ci/deploy` runs it): two nodes started from the Procfile.

DEPLOY_NODES holds their two base URLs; the ordinary test run does not collect this folder
(tests/conftest.py). Nothing here touches a database of its own: every check goes through the nodes."""

import os
import shutil

import pytest
from django.conf import settings


@pytest.fixture(scope="session")
def nodes():
    urls = [url for url in os.environ.get("DEPLOY_NODES", "").split(",") if url]
    assert len(urls) == 2, "DEPLOY_NODES names two nodes"
    return urls


@pytest.fixture(scope="session")
def collected_static():
    """Nothing to collect: the nodes serve what the release line collected (tests/conftest.py's
    autouse fixture of this name ran collectstatic for a local server, 5 to 15 s of this stage).
    The empty root tests/settings.py made goes all the same."""
    yield
    shutil.rmtree(settings.STATIC_ROOT, ignore_errors=True)
