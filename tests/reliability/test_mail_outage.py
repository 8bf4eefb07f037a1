"""With the mail server down, sign-up and password reset still work, and the mail goes out later."""

import pytest
from aiosmtpd.controller import Controller
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from tests.reliability.served import free_port

pytestmark = pytest.mark.django_db(transaction=True)


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.rcpt_tos, envelope.content.decode()))
        return "250 OK"


@pytest.fixture
def smtp_down(settings):
    """SMTP on a loopback port where nothing listens yet; mail queued in the database."""
    port = free_port()
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "timeout": 5},
        }
    }
    settings.MAIL_RETRY_SECONDS = [0, 0, 0]
    return port


def run_worker(*args):
    call_command("db_worker", "--batch", "--no-startup-delay", *args)


def test_sign_up_and_reset_succeed_while_smtp_refuses_and_the_mail_goes_out_when_it_is_back(client, smtp_down):
    response = client.post(
        "/accounts/signup/",
        {"email": "new@example.com", "password1": "domino-night-77", "password2": "domino-night-77"},
    )
    assert response.status_code == 302 and User.objects.filter(email="new@example.com").exists()
    app = client.post(
        "/_allauth/app/v1/auth/signup", {"email": "app@example.com", "password": "domino-night-77"}, "application/json"
    )
    assert app.status_code == 200
    client.logout()
    assert client.post("/accounts/password/reset/", {"email": "new@example.com"}).status_code == 302
    queued = DBTaskResult.objects.count()
    assert queued == 3

    run_worker("--max-tasks", "3")  # each try is refused: the mail waits for another try
    assert DBTaskResult.objects.filter(status="READY").count() == 3
    assert DBTaskResult.objects.filter(status="FAILED").count() == 0

    inbox = Inbox()
    server = Controller(inbox, hostname="127.0.0.1", port=smtp_down)
    server.start()
    try:
        run_worker()
    finally:
        server.stop()
    recipients = sorted(to for tos, _ in inbox.messages for to in tos)
    assert recipients == ["app@example.com", "new@example.com", "new@example.com"]
    assert any("Password Reset" in content for _, content in inbox.messages)
    assert DBTaskResult.objects.filter(status="READY").count() == 0


def test_a_mail_that_never_goes_out_stays_in_the_queue_as_failed(client, smtp_down):
    client.post(
        "/accounts/signup/",
        {"email": "lost@example.com", "password1": "domino-night-77", "password2": "domino-night-77"},
    )
    run_worker()  # three retries, all refused
    failed = DBTaskResult.objects.filter(status="FAILED").get()
    assert failed.args_kwargs["args"][0]["to"] == ["lost@example.com"]  # the message itself is kept
