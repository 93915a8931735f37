"""One step of a replay as template context: the table with every card already HTML.

The views (``rules.view`` / ``rules.reveal``) decide what is visible; this
module only lays it out, and -- in the all-cards view -- marks each face-up
card that the acting seat did not know at that moment (their own view shows
``"?"`` there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.safestring import SafeString

from tabletop.cards import card_html
from tabletop.describe import STAGE_WORDS
from tabletop.layouts import shape_of

from .steps import Replay, Step, table_views

JSON = dict[str, Any]


def frame(replay: Replay, step: Step, perspective: int | None) -> JSON:
    table, actor_view, totals = table_views(replay, step, perspective)
    actor = step.actor
    if actor is None and actor_view is not None:
        actor = (table.get("turn") or {}).get("seat")
    actor_name = replay.names[actor] if actor is not None and perspective is None else ""
    turn = table.get("turn") or {}
    common = {
        "round": table.get("round"),
        "phase": table.get("phase"),
        "turn_seat": turn.get("seat"),
        "turn_name": replay.names[turn["seat"]]
        if isinstance(turn.get("seat"), int) and 0 <= turn["seat"] < len(replay.names)
        else "",
        "stage": STAGE_WORDS.get(turn.get("stage") or "", turn.get("stage") or ""),
        "deck_count": (table.get("deck") or {}).get("count"),
        "actor": actor,
        "actor_name": actor_name,
        "marking": bool(actor_view is not None and actor_name),
    }
    board, shape = shape_of(replay.ruleset)
    common.update(BUILDERS[shape](replay, table, actor_view, actor_name, perspective, actor))
    common["board"], common["template"] = board, f"replays/_{board}.html"
    for seat in common["seats"]:
        seat["total"] = totals[seat["seat"]] if seat["seat"] < len(totals) else 0
    return common


def _mark(code: Any, theirs: Any, kind: str, actor_name: str) -> SafeString:
    unknown = bool(actor_name) and code not in (None, "?") and theirs in ("?", None, "")
    return card_html(code, kind, unknown_to=actor_name if unknown else "")


def _fields(
    replay: Replay,
    table: JSON,
    actor_view: JSON | None,
    actor_name: str,
    perspective: int | None,
    actor: int | None,
) -> JSON:
    kind = replay.kind
    fields = table.get("fields") or {}
    their_fields = (actor_view or {}).get("fields") or {}
    called = list(table.get("called_by") or [])
    turn_seat = (table.get("turn") or {}).get("seat")
    rounds = table.get("rounds") or []
    last_round = rounds[-1] if rounds else None
    held = table.get("held")
    seats = []
    for seat, name in enumerate(replay.names):
        slots = fields.get(str(seat)) or []
        theirs = their_fields.get(str(seat)) or []
        cards = []
        for pos, code in enumerate(slots):
            if actor_view is None:
                cards.append(card_html(code, kind))
            else:
                mine = theirs[pos] if pos < len(theirs) else None
                cards.append(_mark(code, mine, kind, actor_name))
        seat_held = None
        if held and seat == turn_seat:
            if actor_view is None:
                seat_held = card_html(held, kind, size="held")
            else:
                seat_held = _mark(held, actor_view.get("held"), kind, actor_name)
        seats.append(
            {
                "seat": seat,
                "name": name,
                "cards": cards,
                "held": seat_held,
                "on_turn": seat == turn_seat,
                "called": (called.index(seat) + 1) if seat in called else None,
                "winner": seat in (replay.result.get("winners") or []),
                "loser": seat in (replay.result.get("losers") or []),
                "last_total": (last_round or {}).get("totals", {}).get(str(seat)),
                "last_score": (last_round or {}).get("scores", {}).get(str(seat)),
            }
        )
    discard = table.get("discard") or {}
    top = discard.get("top")
    return {
        "seats": seats,
        "discard_top": card_html(top, kind) if top else None,
        "discard_count": discard.get("count", 0),
        "rounds_done": rounds,
        "called_by": [replay.names[s] for s in called if 0 <= s < len(replay.names)],
    }


def _piles(
    replay: Replay,
    table: JSON,
    actor_view: JSON | None,
    actor_name: str,
    perspective: int | None,
    actor: int | None,
) -> JSON:
    kind = replay.kind
    building = []
    for pile in table.get("building") or []:
        if not pile:
            building.append({"top": None, "count": 0, "next": 1})
            continue
        top_value = int(pile.get("next", 1)) - 1
        building.append(
            {
                "top": card_html(str(top_value), kind) if top_value >= 1 else None,
                "count": pile.get("count", 0),
                "next": pile.get("next"),
            }
        )
    hands = table.get("hands") or {}
    counts = table.get("hand_counts") or {}
    stock = table.get("stock") or {}
    discards = table.get("discards") or {}
    turn_seat = (table.get("turn") or {}).get("seat")
    seats = []
    for seat, name in enumerate(replay.names):
        key = str(seat)
        if perspective is not None:
            hand_codes = (table.get("hand") or []) if seat == perspective else None
        else:
            hand_codes = hands.get(key)
        count = int(counts.get(key, len(hand_codes or [])))
        if hand_codes is None:
            hand = [card_html("?", kind) for _ in range(count)]
        elif actor_view is not None and actor_name and seat != actor:
            hand = [card_html(c, kind, unknown_to=actor_name) for c in hand_codes]
        else:
            hand = [card_html(c, kind) for c in hand_codes]
        st = stock.get(key) or {}
        piles = []
        for pile in (discards.get(key) or [[], [], [], []])[:4]:
            piles.append([card_html(c, kind, size="pile") for c in pile])
        while len(piles) < 4:
            piles.append([])
        seats.append(
            {
                "seat": seat,
                "name": name,
                "hand": hand,
                "hand_count": count,
                "stock_top": card_html(st["top"], kind) if st.get("top") else None,
                "stock_count": st.get("count", 0),
                "piles": piles,
                "on_turn": seat == turn_seat,
                "winner": seat in (replay.result.get("winners") or []),
            }
        )
    return {"seats": seats, "building": building}


Board = Callable[[Replay, JSON, JSON | None, str, int | None, int | None], JSON]

#: One entry per shape of ``tabletop.layouts.BOARDS``.
BUILDERS: dict[str, Board] = {"fields": _fields, "piles": _piles}
