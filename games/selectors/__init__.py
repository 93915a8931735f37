"""Every read, by room: ``games`` (a game as a viewer sees it, game lists, the event
feed, the replay, the rulesets), ``bots`` (the seats bots play), ``replays`` (the
viewer's lists), ``accounts``, ``notifications``, ``friends``.

Read-only: a state comes from the game's stream (``games.store``, which owns
the per-process cache of recent states); nothing here writes a model.

Redaction happens only in the rules (``rules.view`` / ``rules.event_view``);
these modules decide *who* is looking (their seat, or None for a non-player).
"""
