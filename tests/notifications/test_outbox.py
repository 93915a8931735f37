"""The outbox (games/outbox/): a message the broker refuses is kept, then sent once."""

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
