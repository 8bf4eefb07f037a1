"""Mail goes out through Django's task framework, so a mail server that is down never fails a
sign-up or a password reset: the message waits in the task queue and is tried again."""

import logging
import smtplib
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.tasks import task, task_backends
from django.utils import timezone

logger = logging.getLogger(__name__)


def as_task_data(message: EmailMessage) -> dict:
    """What a queued task needs to rebuild the message (task arguments must be JSON)."""
    return {
        "subject": message.subject,
        "body": message.body,
        "from_email": message.from_email,
        "to": list(message.to),
        "headers": dict(message.extra_headers),
        "alternatives": [[content, mimetype] for content, mimetype in getattr(message, "alternatives", [])],
    }


@task
def send_email(message: dict, attempt: int = 1) -> None:
    email = EmailMultiAlternatives(
        message["subject"], message["body"], message["from_email"], message["to"], headers=message["headers"]
    )
    for content, mimetype in message["alternatives"]:
        email.attach_alternative(content, mimetype)
    try:
        email.send()
    except (OSError, smtplib.SMTPException) as error:
        delays = settings.MAIL_RETRY_SECONDS
        if attempt > len(delays) or not task_backends[send_email.backend].supports_defer:
            # The failed task stays in the database with its message: nothing is dropped silently.
            raise
        wait = delays[attempt - 1]
        logger.warning("Mail to %s failed (%s); try %d in %d s", message["to"], error, attempt + 1, wait)
        send_email.using(run_after=timezone.now() + timedelta(seconds=wait)).enqueue(message, attempt + 1)
