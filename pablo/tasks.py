"""The site's Celery tasks (autodiscovered): the outbox flush (``pablo.outbox``)."""

from celery import shared_task

from pablo import outbox


@shared_task(name="pablo.flush_outbox", ignore_result=True)
def flush_outbox() -> int:
    return outbox.flush()
