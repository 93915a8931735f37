"""Notifications: "your turn", reminders, "game over" -- by e-mail and signed webhooks.

``receivers`` (after a committed append), ``fanout`` (jobs, fan-out, reminders),
``mail`` (text), ``webhooks`` (transport), ``api`` + ``urls`` (``/api/me/``),
``tasks`` (Celery), ``services`` (the room's writes: reminders, outbox rows).
"""
