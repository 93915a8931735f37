"""The outbox (pablo/outbox.py): a message the broker refuses is kept, then sent once."""

from __future__ import annotations

import pytest
from kombu.exceptions import OperationalError

from games import outbox
from games.models import OutboxMessage
from games.notifications.tasks import deliver_email

pytestmark = pytest.mark.django_db


def test_a_refused_message_is_kept_and_flushed_once_the_broker_is_back(monkeypatch):
    sent = []
    broker_up = [False]

    def publish(task, args, kwargs, options):  # what apply_async would do
        if not broker_up[0]:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        sent.append((task.name, args, kwargs, options))

    monkeypatch.setattr(outbox, "_publish", publish)
    job = {"game_id": "g", "version": 3, "kind": "your_turn"}
    assert outbox.send(deliver_email, kwargs=job) is False  # no exception for the caller
    assert outbox.send(deliver_email, kwargs={**job, "version": 4}) is False
    assert OutboxMessage.objects.count() == 2 and sent == []
    assert outbox.flush() == 0  # still away: kept, attempt counted
    assert OutboxMessage.objects.count() == 2
    assert OutboxMessage.objects.order_by("id").first().attempts == 1
    broker_up[0] = True
    assert outbox.flush() == 2
    assert [s[2]["version"] for s in sent] == [3, 4]  # in order
    assert OutboxMessage.objects.count() == 0
    assert outbox.flush() == 0 and len(sent) == 2  # once
    assert outbox.send(deliver_email, kwargs=job) is True  # the usual path: straight through
    assert OutboxMessage.objects.count() == 0 and len(sent) == 3


def test_a_claimed_message_is_done_once_and_republished_while_unclaimed(monkeypatch, settings):
    sent = []
    monkeypatch.setattr(outbox, "_publish", lambda task, a, kw, o: sent.append(kw))
    job = {"game_id": "g", "version": 3, "kind": "your_turn"}
    assert outbox.send(deliver_email, kwargs=job, claim=True) is True
    row = OutboxMessage.objects.get()
    assert sent == [{**job, "outbox_id": row.pk}] and row.published_at is not None
    settings.PABLO_OUTBOX_GRACE = 3600
    assert outbox.flush() == 0  # published a moment ago: its task has time to claim it
    settings.PABLO_OUTBOX_GRACE = 0
    assert outbox.flush() == 1  # not claimed in time: published again, row kept
    assert sent[-1] == {**job, "outbox_id": row.pk} and OutboxMessage.objects.count() == 1
    with outbox.claimed(row.pk) as mine:  # the first copy to run does the work
        assert mine
    with outbox.claimed(row.pk) as mine:  # every other copy finds it done
        assert not mine
    assert OutboxMessage.objects.count() == 0
    with outbox.claimed(None) as mine:  # a message sent without a claim
        assert mine


def test_a_task_that_fails_inside_its_claim_leaves_the_message(monkeypatch):
    monkeypatch.setattr(outbox, "_publish", lambda *a: None)
    outbox.send(deliver_email, kwargs={"game_id": "g"}, claim=True)
    row = OutboxMessage.objects.get()
    with pytest.raises(RuntimeError), outbox.claimed(row.pk):
        raise RuntimeError("killed")
    assert OutboxMessage.objects.filter(pk=row.pk).exists()  # rolled back with the work
