"""Every write, by room; nothing else in the project writes a model but the
notification worker's bookkeeping (turn reminders, outbox rows), in
``games.notifications.services`` (docs/design.md "One writer" says why).

* ``games``: a game's commands (create, join, come back, act, rebuild), and the
  prune of the actions' stored answers;
* ``bots``: a bot's move and a passed deadline (one by one and in batches);
* ``friends``: cancelling and rematches;
* ``accounts``: accounts and their API tokens;
* ``notifications``: a user's notification settings;
* ``analysis``: a finished game's analysis;
* ``programs``: the account feed's rows (its follower's write).

Services return data (a ``Game`` row, an ``ActionAnswer``); the API renders
it. Commands arrive checked (``games.commands``); refusals are the domain
errors of ``games.errors``.
"""
