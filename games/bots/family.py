"""The ``basic`` bot of the Pablo family (pablo, pablo-50, tamalou, cabo).

It reads only its seat's view: the fields with the cards it knows (``"?"``
for the others), the discard top, the card it holds, the power pending, the
callers and ``legal_actions``. Card values, ranks and powers come from the
ruleset's preset (``games.rules.family.presets``), so each ruleset's own
values and matching rule are honoured.

Heuristics (docs/bots.md):

* an unknown card is worth the deck's average value (``expected``);
* take the discard top when it would lower its total by a clear margin;
  keep a drawn card when it beats its worst card (a known high one, or an
  unknown one when the drawn card is clearly below average), replacing
  several equal cards at once where the ruleset allows (cabo, tamalou) and it
  knows them; else discard it, using its power;
* peek at its own unknown cards, spy on the unknown cards of the player
  closest to winning, swap its worst card for a better one it knows of (and
  skip an optional swap that would not gain);
* throw a card it knows matches the discard top (its own; another's only
  when it can give away a high card of its own), never one it does not know;
* call when its estimated total is low and below every other player's
  estimate by a margin that grows with the number of cards it does not know
  and with what a wrong call costs in the ruleset (pablo's +25, tamalou's
  +10, pablo-50's +10, cabo's +5); a cabo field of 12, 12, 13, 13
  (kamikaze) is kept and called on.
"""

from __future__ import annotations

import random
from functools import cache

from games.rules.family.presets import PRESETS, Preset

from .common import JSON, find

_PRESETS = {p.id: p for p in PRESETS}


def preset_of(ruleset: str) -> Preset:
    """What makes ``ruleset`` one of the family (the bots tune themselves by it)."""
    return _PRESETS[ruleset]


#: What calling wrongly costs, and how low the estimate must be (per ruleset).
CALL = {
    # ruleset: (highest estimated total to call at, margin below every opponent)
    "pablo": (4.0, 6.0),
    "pablo-50": (8.0, 3.0),
    "tamalou": (6.0, 4.0),
    "cabo": (7.0, 3.0),
}
KAMIKAZE = ["12", "12", "13", "13"]
#: Per unknown own card, the estimate must be this much lower still.
UNKNOWN_MARGIN = 2.0


@cache
def expected(ruleset: str) -> float:
    """The average value of one card of the ruleset's deck (default options)."""
    p = _PRESETS[ruleset]
    deck = p.deck({})
    return sum(p.value(c) for c in deck) / len(deck)


def _value(p: Preset, code: str | None) -> float | None:
    if code is None or code == "?":
        return None
    return float(p.value(code))


def _estimate(p: Preset, field: list[str | None], unknown: float) -> float:
    total = 0.0
    for code in field:
        if code is None:
            continue
        total += unknown if code == "?" else p.value(code)
    return total


def _kamikaze(p: Preset, field: list[str | None]) -> bool:
    if p.id != "cabo":
        return False
    cards = [c for c in field if c is not None]
    return len(cards) == 4 and "?" not in cards and sorted(cards, key=int) == KAMIKAZE


class Table:
    """What the bot reads off its view."""

    def __init__(self, ruleset: str, view: JSON, seat: int) -> None:
        self.p = _PRESETS[ruleset]
        self.view = view
        self.seat = seat
        self.legal: list[JSON] = view.get("legal_actions") or []
        self.fields: dict[int, list[str | None]] = {
            int(s): list(f) for s, f in (view.get("fields") or {}).items()
        }
        self.mine = self.fields.get(seat, [])
        self.e = expected(ruleset)
        self.top = (view.get("discard") or {}).get("top")
        self.callers: list[int] = list(view.get("called_by") or [])

    def est(self, seat: int) -> float:
        return _estimate(self.p, self.fields.get(seat, []), self.e)

    def unknown_own(self) -> list[int]:
        return [i for i, c in enumerate(self.mine) if c == "?"]

    def slot_worth(self, pos: int) -> float:
        v = _value(self.p, self.mine[pos])
        # An unknown card is worth the average, less a little for the risk.
        return self.e - 1.0 if v is None else v

    def others(self) -> list[int]:
        return [s for s in self.fields if s != self.seat]


def decide(ruleset: str, view: JSON, seat: int, rng: random.Random) -> JSON | None:
    t = Table(ruleset, view, seat)
    legal = t.legal
    types = {a["type"] for a in legal}
    if "look" in types:
        look = next(a for a in legal if a["type"] == "look")
        return {"type": "look", "positions": list(look["choices"]["positions"][0])}
    if "throw" in types:
        throw = _throw(t)
        if throw is not None:
            return throw
    if "call" in types and _should_call(t):
        return {"type": "call"}
    stage = (view.get("turn") or {}).get("stage")
    if "draw" in types:
        return _draw(t)
    if stage == "hold" and ("replace" in types or "discard" in types):
        return _hold(t)
    if types & {"peek", "spy", "swap", "skip"}:
        return _power(t)
    return None


# --------------------------------------------------------------------------- throwing


def _throw(t: Table) -> JSON | None:
    p = t.p
    if t.top is None:
        return None
    rank = p.rank(t.top)
    # The cards it knows that match the top, by seat: a throw of any other card is
    # never worth it (the legal throws are every seat's every card, dozens of them).
    matching: dict[int, dict[int, str]] = {
        s: {i: c for i, c in enumerate(f) if c is not None and c != "?" and p.rank(c) == rank}
        for s, f in t.fields.items()
    }
    if not any(matching.values()):
        return None
    # Another's card is worth it only to give away a high card of one's own (which one
    # does not depend on the throw).
    give = max((i for i, c in enumerate(t.mine) if c is not None), key=t.slot_worth, default=None)
    best: tuple[float, JSON] | None = None
    for a in t.legal:
        if a["type"] != "throw":
            continue
        target, pos = a["seat"], a["position"]
        code = matching.get(target, {}).get(pos)
        if code is None:
            continue
        body = {"type": "throw", "seat": target, "position": pos, "onto": a["onto"]}
        if target == t.seat:
            gain = p.value(code) + 0.5  # a card less is worth something in itself
        else:
            if give is None:
                continue
            gain = t.slot_worth(give) - 5.0
            body["give_position"] = give
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, body)
    return None if best is None else best[1]


# --------------------------------------------------------------------------- calling


def long_round(view: JSON) -> float:
    """How far the round has gone past a normal one (0: not yet): a long round makes
    a bot less demanding before it calls -- rounds between careful players must end
    too. (The pile's serial counts every card discarded in the round.)"""
    serial = (view.get("discard") or {}).get("serial") or 0
    return max(0.0, (serial - 20) / 10)


def _should_call(t: Table) -> bool:
    if _kamikaze(t.p, t.mine) and not t.callers:
        return True
    limit, margin = CALL[t.p.id]
    impatience = long_round(t.view)
    limit += impatience
    margin -= impatience
    mine = t.est(t.seat)
    unknown = len(t.unknown_own())
    needed = margin + UNKNOWN_MARGIN * unknown
    others = [t.est(s) for s in t.others()]
    if not others:
        return False
    return mine <= limit + 0.0 and mine + needed <= min(others)


# --------------------------------------------------------------------------- drawing, holding


def _replace_options(t: Table, held: str, single_only: bool) -> list[tuple[float, list[int]]]:
    """(gain, positions) for each way of placing ``held`` in the field."""
    p = t.p
    hv = p.value(held)
    out: list[tuple[float, list[int]]] = []
    occupied = [i for i, c in enumerate(t.mine) if c is not None]
    if _kamikaze(p, t.mine):
        return out
    for i in occupied:
        out.append((t.slot_worth(i) - hv, [i]))
    if p.multi_replace != "none" and not single_only:
        groups: dict[str, list[int]] = {}
        for i in occupied:
            code = t.mine[i]
            if code is not None and code != "?":
                groups.setdefault(p.rank(code), []).append(i)
        top = 4 if p.multi_replace == "pairs" else len(occupied)
        for positions in groups.values():
            if 2 <= len(positions) <= top:
                worth = sum(t.slot_worth(i) for i in positions)
                out.append((worth - hv + 1.0, positions))
    return out


def _draw(t: Table) -> JSON:
    if find(t.legal, "draw", source="discard") and t.top is not None:
        single = t.p.discard_draw_must_replace
        options = _replace_options(t, t.top, single_only=single)
        if options and max(g for g, _ in options) >= 3.0:
            return {"type": "draw", "source": "discard"}
    return {"type": "draw", "source": "deck"}


def _hold(t: Table) -> JSON:
    held = t.view.get("held")
    can_discard = find(t.legal, "discard") is not None
    replace = next((a for a in t.legal if a["type"] == "replace"), None)
    allowed = [list(x) for x in (replace or {}).get("choices", {}).get("positions", [])]
    if held is None or not allowed:
        return {"type": "discard"} if can_discard else {"type": "replace", "positions": allowed[0]}
    p = t.p
    options = [
        (gain, pos) for gain, pos in _replace_options(t, held, single_only=False) if pos in allowed
    ]
    power = p.powers.get(p.rank(held))
    bonus = 0.0
    if power is not None:
        kind = power[0]
        if kind == "peek" and t.unknown_own():
            bonus = 1.5
        elif kind in ("spy", "spy_swap"):
            bonus = 0.5
    # A card that goes onto the discard pile can be matched by everyone: a small cost.
    threshold = 0.5 + bonus
    if options:
        gain, positions = max(options, key=lambda o: (o[0], -len(o[1])))
        if gain > threshold or not can_discard:
            return {"type": "replace", "positions": positions}
    if can_discard:
        return {"type": "discard"}
    return {"type": "replace", "positions": allowed[0]}


# --------------------------------------------------------------------------- powers


def _spy_target(t: Table) -> JSON | None:
    """A spy at an unknown card of the player with the lowest estimate."""
    best: tuple[float, JSON] | None = None
    for a in t.legal:
        if a["type"] != "spy":
            continue
        field = t.fields.get(a["seat"], [])
        unknown = [q for q in a["choices"]["position"] if q < len(field) and field[q] == "?"]
        if not unknown:
            continue
        score = t.est(a["seat"])
        if best is None or score < best[0]:
            best = (score, {"type": "spy", "seat": a["seat"], "position": unknown[0]})
    return None if best is None else best[1]


def _best_swap(t: Table) -> tuple[float, JSON] | None:
    p = t.p
    best: tuple[float, JSON] | None = None
    for a in t.legal:
        if a["type"] != "swap":
            continue
        theirs = t.fields.get(a["seat"], [])
        for mine in a["choices"]["position"]:
            mv = t.slot_worth(mine)
            for q in a["choices"]["their_position"]:
                tv = _value(p, theirs[q] if q < len(theirs) else None)
                gain = mv - (t.e if tv is None else tv)
                if tv is None:
                    gain -= 1.0  # the unknown is a risk
                body = {"type": "swap", "position": mine, "seat": a["seat"], "their_position": q}
                if best is None or gain > best[0]:
                    best = (gain, body)
    return best


def _power(t: Table) -> JSON:
    legal = t.legal
    can_skip = find(legal, "skip") is not None
    peek = next((a for a in legal if a["type"] == "peek"), None)
    if peek is not None:
        unknown = [q for q in peek["choices"]["position"] if t.mine[q] == "?"]
        if unknown:
            return {"type": "peek", "position": unknown[0]}
        if can_skip:
            return {"type": "skip"}
        return {"type": "peek", "position": peek["choices"]["position"][0]}
    spy = _spy_target(t)
    swap = _best_swap(t)
    if spy is not None and (swap is None or swap[0] < 3.0):
        return spy
    if swap is not None and (swap[0] > 0.5 or not can_skip):
        return swap[1]
    if can_skip:
        return {"type": "skip"}
    if swap is not None:
        return swap[1]
    first = next(a for a in legal if a["type"] in ("spy", "peek", "swap"))
    body = {k: v for k, v in first.items() if k != "choices"}
    for name, options in first.get("choices", {}).items():
        body[name] = options[0]
    return body
