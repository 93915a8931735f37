"""Signals of the games app.

``events_appended`` is sent after every committed append of events to a game
(``transaction.on_commit``, so a rolled-back write never sends it), with:

* ``sender``: ``games.models.Game``;
* ``game_id``: the game's UUID;
* ``version``: the game's version after the append (the last event's ``seq``);
* ``events``: the new ``games.models.Event`` rows, in ``seq`` order;
* ``listening``: True / False when the writer knows whether any player of the
  game has a notification channel on (read with the locked row), else None.

Receivers run after the commit and are isolated (``send_robust``): a failing
receiver is logged and never undoes or fails the write.
"""

from django.dispatch import Signal

events_appended = Signal()
