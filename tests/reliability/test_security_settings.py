"""Headers and settings that an audit checks from outside."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from scorekeeper.models import Player

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k" * 20 + "-a-long-random-looking-production-secret-0123456789"


def run_manage(*args, **env):
    clean = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SETTINGS_MODULE", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "SECRET_KEY": STRONG_KEY, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_deploy_checklist_is_clean_with_https_on():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", HTTPS="1", ALLOWED_HOSTS="cf.example.com")
    assert result.returncode == 0, result.stdout + result.stderr


def test_it_refuses_to_start_with_any_host_allowed_when_debug_is_off():
    result = run_manage("check", ALLOWED_HOSTS="*")
    assert result.returncode != 0 and "ALLOWED_HOSTS=* is refused" in result.stderr


def test_https_settings_ask_for_a_year_of_hsts_and_host_only_cookies():
    code = (
        "from django.conf import settings as s;"
        "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SESSION_COOKIE_NAME, s.CSRF_COOKIE_NAME)"
    )
    result = run_manage("shell", "-c", code, HTTPS="1", SECURE_HSTS_SECONDS="3600")
    seconds, subdomains, session, csrf = result.stdout.split()[-4:]  # after the shell's banner
    assert int(seconds) >= 365 * 24 * 3600 and subdomains == "True"
    assert session.startswith("__Host-") and csrf.startswith("__Host-")


@pytest.mark.django_db
def test_every_response_carries_the_content_security_policy(client):
    for url in ("/rules/", "/api/v1/me/", "/api/schema/", "/accounts/login/"):
        policy = client.get(url).headers["Content-Security-Policy"]
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
        assert directives["default-src"] == "'self'"
        assert directives["script-src"].startswith("'self'") and "unsafe" not in directives["script-src"]
        assert directives["object-src"] == directives["base-uri"] == directives["frame-ancestors"] == "'none'"
        assert directives["form-action"] == "'self'"


@pytest.mark.django_db
def test_adding_a_player_never_redirects_to_another_site(client, user):
    client.force_login(user)
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)"):
        response = client.post(reverse("add_player"), {"player-name": f"P{len(target)}", "next": target})
        assert response.status_code == 302 and response["Location"] == reverse("players"), target
    response = client.post(reverse("add_player"), {"player-name": "Local", "next": "/games/new/"})
    assert response["Location"] == "/games/new/"
    assert Player.objects.filter(scorebook__personal_of=user).count() == 5


@pytest.mark.django_db
def test_the_admin_signs_in_through_allauths_login_and_its_limits(client):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    for _ in range(5):
        client.post(reverse("account_login"), {"login": "admin@example.com", "password": "wrong-password"})
    page = client.post(reverse("account_login"), {"login": "admin@example.com", "password": "wrong-password"})
    assert "Try again in" in page.content.decode()


@pytest.mark.django_db
def test_a_csrf_failure_under_allauths_api_is_json():
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post(
        "/_allauth/browser/v1/auth/login", {"email": "a@example.com", "password": "x"}, "application/json"
    )
    assert response.status_code == 403 and response["Content-Type"].startswith("application/json")
