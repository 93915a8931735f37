"""The embedded broker: kombu's file-system transport, made safe for several processes.

``make run`` (no ``CELERY_BROKER_URL``) passes Celery's messages as files in
``var/broker/queue`` (``pablo.settings``). Kombu's transport writes a message
straight into the queue folder: a worker polling at that moment can take the
file while it is still empty and fail to decode it, which stopped the worker's
consumer (found measuring the bots' lag, bench/bench_bot_timing.py). Here a
message is written under a name no reader takes (``….msg.part``) and then
renamed into place, atomically: a reader sees the whole message or nothing.

Chosen by ``CELERY_BROKER_TRANSPORT`` (``pablo.settings``) when the broker URL
is ``filesystem://``; the queue folders and the polling interval are its
transport options there.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        """Put ``payload`` onto ``queue``: written aside, then renamed into the folder."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + ".part"  # "<queue>.msg.part": not a message of any queue
        try:
            with open(partial, "wb") as out:
                out.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    """kombu's file-system transport with atomic writes (``Channel._put``)."""

    Channel = Channel

    #: No host to connect to: the broker is a folder. kombu's virtual transports name
    #: ``localhost``, and its connection pool then warned "No hostname was supplied.
    #: Reverting to default 'localhost'" on the first message ``make run`` sent.
    default_connection_params: dict[str, Any] = {}
