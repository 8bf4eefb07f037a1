"""The deploy stage's smoke test (`.ci/deploy` runs it): two nodes started from the Procfile.

DEPLOY_NODES holds their two base URLs; the ordinary test run does not collect this folder
(tests/conftest.py). Nothing here touches a database of its own: every check goes through the nodes."""

import os

import pytest


@pytest.fixture(scope="session")
def nodes():
    urls = [url for url in os.environ.get("DEPLOY_NODES", "").split(",") if url]
    assert len(urls) == 2, "DEPLOY_NODES names two nodes"
    return urls
