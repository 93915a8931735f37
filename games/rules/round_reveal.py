"""The round's reveal: every card of a finished round, face up, for everyone.

When a round of the Pablo family ends every field card is turned face up
(docs/rules.md; the ``round_ended`` event carries them all). ``round_reveal``
turns that event into the ``reveal`` object the rules' ``view`` shows every
viewer -- players and non-players alike, since nothing in it is hidden any
more -- until the next round ends:

```
{"round": 1, "reason": "call" | "empty_field" | "exhausted",
 "fields": {seat: [{"code", "value"} | null per slot]},
 "calls": [{"seat", "succeeded": true | false | null}],   # in calling order
 "totals": {seat: n}, "scores": {seat: n}, "game_totals": {seat: n},
 "winners": [seat, ...], "kamikaze": seat}   # (cabo, only when it happened)
```

``totals``: the sum of each field's values; ``scores``: the round's points
(what was added to the game total); ``game_totals``: the totals after the
round (after any reset); ``winners``: the round's lowest totals (cabo: who
scored 0). A call *succeeded* when it earned the caller what a call is for
(docs/rules.md): in ``pablo``, ``pablo-50`` and ``tamalou`` a total strictly
lower than every other player's (and in ``pablo`` not a round ended by an
empty field); in ``cabo`` the lowest total, ties included (or the kamikaze
hand). A round that ended on an exhausted draw pile is scored as if nobody
called: its calls show ``succeeded: null``. ``kamikaze`` names the ``cabo`` seat whose
field held exactly 12, 12, 13 and 13 (it scored 0 and everyone else 50, calls or
not); the key is absent in every other round.

Pure: no Django, no clock, no random.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .events import JSON
from .family.presets import kamikaze_seat


def call_succeeded(
    ruleset: str, seat: int, totals: dict[str, int], winners: Sequence[int], reason: str
) -> bool | None:
    """Whether the call of ``seat`` succeeded (None: the call did not count)."""
    if reason == "exhausted":
        return None
    if ruleset == "cabo":
        return seat in winners
    if ruleset == "pablo" and reason == "empty_field":
        return False
    own = totals[str(seat)]
    return all(own < total for other, total in totals.items() if other != str(seat))


def round_reveal(
    ruleset: str, callers: Sequence[int], ended: JSON, value: Callable[[str], int]
) -> JSON:
    """The reveal of the round that ``ended`` (a ``round_ended`` event's data)."""
    totals = {str(k): v for k, v in ended["totals"].items()}
    shown = {
        "round": ended["round"],
        "reason": ended["reason"],
        "fields": {
            str(seat): [
                None if card is None else {"code": card["code"], "value": value(card["code"])}
                for card in slots
            ]
            for seat, slots in ended["fields"].items()
        },
        "calls": [
            {
                "seat": seat,
                "succeeded": call_succeeded(
                    ruleset, seat, totals, ended["winners"], ended["reason"]
                ),
            }
            for seat in callers
        ],
        "totals": totals,
        "scores": {str(k): v for k, v in ended["scores"].items()},
        "game_totals": {str(k): v for k, v in ended["game_totals"].items()},
        "winners": list(ended["winners"]),
    }
    if ruleset == "cabo":
        fields = shown["fields"]
        seat = kamikaze_seat(
            [[card["value"] for card in fields[str(s)] if card] for s in range(len(fields))]
        )
        if seat is not None:
            shown["kamikaze"] = seat
    return shown


def shown(reveal: JSON | None) -> JSON | None:
    """The reveal as ``view`` hands it out: a copy (views never share the state's data).

    Every view of a game after its first round carries the reveal, so this copy
    follows the shape ``round_reveal`` builds instead of walking it as any data
    (``state.clone``: four times slower, half the cost of a family ``view``).
    """
    if reveal is None:
        return None
    return {
        **reveal,
        "fields": {
            seat: [None if card is None else card.copy() for card in slots]
            for seat, slots in reveal["fields"].items()
        },
        "calls": [call.copy() for call in reveal["calls"]],
        "totals": reveal["totals"].copy(),
        "scores": reveal["scores"].copy(),
        "game_totals": reveal["game_totals"].copy(),
        "winners": reveal["winners"][:],
    }
