import pytest

from tests.reliability.served import ROOT, manage


@pytest.fixture(scope="session")
def static_root(tmp_path_factory):
    """Collected once per run, as the Procfile's release step does."""
    root = tmp_path_factory.mktemp("static")
    env = {"STATIC_ROOT": str(root), "SECRET_KEY": "collect-only", "PATH": str(ROOT)}
    manage(env, "collectstatic", "--noinput")
    return root
