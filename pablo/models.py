"""The site has no tables of its own: the outbox's model moved to ``games.models``
(migrations pablo 0002 / games 0006 keep its table)."""
