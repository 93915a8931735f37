"""A user's switches per kind of notification and per channel (pure).

``NotificationSettings.kinds`` keeps only what differs from the default, on:
``{"reminder": {"email": false}}``. A channel's own switch (``email_enabled``,
``webhook_enabled``, ``push_enabled``) still turns the whole channel off.
"""

from __future__ import annotations

from typing import Any

KINDS = ("your_turn", "reminder", "game_over", "rematch", "seat_taken")
CHANNELS = ("push", "email", "webhook")

#: a notification's ``event`` (fanout's body) -> its kind
EVENT_KIND = {
    "your_turn": "your_turn",
    "turn_reminder": "reminder",
    "game_finished": "game_over",
    "game_aborted": "game_over",
    "rematch": "rematch",
    "seat_taken": "seat_taken",
}

CHANNEL_SWITCH = {"push": "push_enabled", "email": "email_enabled", "webhook": "webhook_enabled"}

#: The channels that carry each kind. A seat taken is not mailed: the "your turn" it
#: brings when the table fills is, and a mail per join would be noise; a rematch offer
#: is (through the digest's rules and quiet hours, like a game's end).
CHANNELS_OF: dict[str, tuple[str, ...]] = {
    **{kind: CHANNELS for kind in KINDS},
    "seat_taken": ("push", "webhook"),
}


def enabled(prefs: Any, kind: str, channel: str) -> bool:
    """Whether ``prefs`` (a ``NotificationSettings``, or None: the defaults) let ``kind``
    through ``channel`` (the channel's own switch and the kind's)."""
    if channel not in CHANNELS_OF[kind]:
        return False
    if prefs is None:
        return True
    if not getattr(prefs, CHANNEL_SWITCH[channel]):
        return False
    return bool(((prefs.kinds or {}).get(kind) or {}).get(channel, True))


def matrix(stored: dict[str, Any] | None) -> dict[str, dict[str, bool]]:
    """Every kind with the switch of each channel that carries it (the API's ``kinds``)."""
    stored = stored or {}
    return {k: {c: bool((stored.get(k) or {}).get(c, True)) for c in CHANNELS_OF[k]} for k in KINDS}


def merged(stored: dict[str, Any] | None, changes: dict[str, Any]) -> dict[str, Any]:
    """``stored`` with ``changes`` (``{kind: {channel: bool}}``, partial) applied; what is
    on again is dropped, so only the switched-off remain."""
    table = matrix(stored)
    for kind, channels in changes.items():
        for channel, value in (channels or {}).items():
            if channel in table[kind]:  # a channel that does not carry the kind: no switch
                table[kind][channel] = bool(value)
    off = {k: {c: False for c, on in row.items() if not on} for k, row in table.items()}
    return {k: row for k, row in off.items() if row}
