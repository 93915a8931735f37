"""The store's announcement: ``events_appended``, sent after every committed append.

Sent on ``transaction.on_commit`` (a rolled-back write never sends it), with:

* ``sender``: ``games.models.Game``;
* ``game_id``: the game's UUID;
* ``version``: the game's version after the append (the last event's ``seq``);
* ``events``: the new ``games.models.Event`` rows, in ``seq`` order;
* ``state``: the game's state after them -- shared with the store's cache: read
  it, never change it -- so a receiver decides without reading the game.

Receivers run after the commit and are isolated (``send_robust``): a failing
receiver is logged and never undoes or fails the write. With no transaction
open they run inside the writer's request: they must cost nothing when there is
nothing for them to do (no query).

It is a hint, for latency: what must follow every event durably is a follower
of the log (``games.followers``), which this signal only wakes.
"""

from django.dispatch import Signal

events_appended = Signal()
