"""The Redis broker transport, made to survive a Redis restart under a busy worker.

The cause of ``CRITICAL Unrecoverable error: AttributeError: 'NoneType' object
has no attribute 'hostname'`` (issue 18): when the broker connection breaks,
Celery's consumer (``on_connection_error_after_connected``) first *collects*
the connection -- which drops the link from kombu's transport to its
``Connection`` (``transport.client = None``) -- and then closes it. Closing the
Redis channel gives back the messages it delivered but that are not
acknowledged yet (with ``CELERY_TASK_ACKS_LATE`` every task that is running,
and every prefetched one): kombu's ``QoS.restore_unacked`` asks the channel for
a Redis client, the channel's pool is already gone, and building a new one
reads ``self.connection.client.hostname`` -- ``None.hostname``. That is an
``AttributeError``, not one of the connection errors Celery ignores while
closing, so it escapes the consumer and the worker exits. A late
acknowledgement of a task that was running across the outage takes the same
path. It needs a task in flight at the moment of the outage, which is why an
idle worker survived restarts and a busy one did not
(``tests/faults/test_redis_outage.py``'s restart test reproduces it).

The fix: a channel whose connection is gone answers with a Redis
``ConnectionError`` -- a connection error Celery and kombu already handle
(ignored while closing, logged for an acknowledgement) -- instead of
crashing. Nothing is lost by not restoring: a Redis that restarted has lost
its queues anyway (and the service's work lives in the database: the beat
sweep finds overdue deadlines there, the outbox keeps messages), and one that
did not hands unacknowledged messages out again after its visibility
timeout (every task is idempotent).

``pablo.settings`` selects it as ``CELERY_BROKER_TRANSPORT`` for ``redis://`` brokers.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> Any:
        transport = self.connection
        if transport is None or getattr(transport, "client", None) is None:
            raise RedisConnectionError("the broker connection of this channel was closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel
