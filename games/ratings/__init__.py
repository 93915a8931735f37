"""Ratings (docs/ratings.md): one openskill rating per person per ruleset, from the
final places of rated games, kept by a follower of the event log and rebuildable
from the events alone (``manage.py ratings --rebuild``).

``model`` is pure (the rating model and which seats count); ``outcomes`` reads a
finished game's events; ``services`` writes (apply, rebuild); ``selectors`` reads
(the leaderboard, a player, a game's changes). The REST views are
``games.api.ratings``; the pages ``replays.players``.
"""
