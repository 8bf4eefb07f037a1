"""Work done outside the request, by the worker (`manage.py task_worker`)."""

from django.tasks import task

from .services import ratings


@task
def replay_ratings(scorebook_id: int) -> bool:
    """Replay a scorebook's ratings from the change a request left to this task (ratings.changed);
    False when another task has done it or a later one will."""
    return ratings.catch_up(scorebook_id)
