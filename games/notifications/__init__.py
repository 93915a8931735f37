"""Notifications: "your turn", reminders, "game over" -- by e-mail and signed webhooks.

``followers`` (the log's ``notifications`` follower), ``fanout`` (fan-out, reminders),
``mail`` (text), ``webhooks`` (transport), ``api`` + ``urls`` (``/api/me/``),
``tasks`` (Celery), ``services`` (the room's writes: reminders, outbox rows).
"""
