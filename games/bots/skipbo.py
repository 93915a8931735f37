"""The ``basic`` Skip-Bo bot.

It reads its seat's view: its hand, every stock top, every discard pile and
the building piles (``next`` = the value each needs). One decision is one
action; the turn is a series of them. In order of preference (docs/bots.md):

1. play its stock top where it fits;
2. if a building pile can be brought up to its stock card with the cards it
   can reach now (hand, discard tops, Skip-Bo cards as stand-ins), play the
   next card of that path -- so wild cards are spent where they unlock the
   stock;
3. play numbered cards from its discard tops, then from its hand, that fit,
   unless one would hand the next player their stock card;
4. end the turn by discarding: a numbered card (never a Skip-Bo card while it
   has another) onto a discard pile whose top is one higher or equal (runs
   that play off later), else an empty pile, else the pile whose top is
   nearest above; the highest such card first.
"""

from __future__ import annotations

import random

from .common import JSON

WILD = "SB"


def _num(code: str | None) -> int | None:
    if code is None or code == WILD:
        return None
    return int(code)


def decide(view: JSON, seat: int, rng: random.Random) -> JSON | None:
    legal: list[JSON] = view.get("legal_actions") or []
    if not legal:
        return None
    me = str(seat)
    plays = [a for a in legal if a["type"] == "play"]
    hand: list[str] = list(view.get("hand") or [])
    stock = (view.get("stock") or {}).get(me) or {}
    stock_top = stock.get("top")
    discards: list[list[str]] = (view.get("discards") or {}).get(me) or [[], [], [], []]
    building = view.get("building") or [None] * 4
    needs = [1 if b is None else b["next"] for b in building]

    # 1. the stock first
    from_stock = [a for a in plays if a["from"] == "stock"]
    if from_stock:
        if stock_top == WILD:
            # Put a wild stock card where we can go on from it.
            have = {_num(c) for c in hand} | {_num(d[-1]) for d in discards if d}
            return max(from_stock, key=lambda a: (needs[a["pile"]] + 1 in have, needs[a["pile"]]))
        return from_stock[0]

    # 2. a path to the stock card
    target = _num(stock_top)
    if target is not None:
        step = _path_step(plays, hand, discards, needs, target)
        if step is not None:
            return step

    # 3. numbered cards that fit, discard tops first
    danger = _danger(view, seat)
    for source in ("discard", "hand"):
        for a in plays:
            if a["from"] != source:
                continue
            code = a.get("card") if source == "hand" else discards[a["discard_pile"]][-1]
            if code == WILD:
                continue
            if needs[a["pile"]] + 1 in danger:
                continue
            return a

    # 4. end the turn
    return _end(legal, hand, discards)


def _path_step(
    plays: list[JSON], hand: list[str], discards: list[list[str]], needs: list[int], target: int
) -> JSON | None:
    """The first play of the cheapest path bringing a building pile up to ``target``."""
    best: tuple[tuple[int, int], JSON] | None = None
    tops = [d[-1] if d else None for d in discards]
    for pile, need in enumerate(needs):
        if need > target:
            continue
        hand_left = list(hand)
        tops_left = list(tops)
        wilds_used = 0
        first: JSON | None = None
        ok = True
        for value in range(need, target):
            code = str(value)
            if code in tops_left:
                d = tops_left.index(code)
                tops_left[d] = None
                move: JSON = {"type": "play", "from": "discard", "discard_pile": d, "pile": pile}
            elif code in hand_left:
                hand_left.remove(code)
                move = {"type": "play", "from": "hand", "card": code, "pile": pile}
            elif WILD in tops_left:
                d = tops_left.index(WILD)
                tops_left[d] = None
                wilds_used += 1
                move = {"type": "play", "from": "discard", "discard_pile": d, "pile": pile}
            elif WILD in hand_left:
                hand_left.remove(WILD)
                wilds_used += 1
                move = {"type": "play", "from": "hand", "card": WILD, "pile": pile}
            else:
                ok = False
                break
            if first is None:
                first = move
        if not ok or first is None:
            continue
        if first not in plays:
            continue
        cost = (wilds_used, target - need)
        if best is None or cost < best[0]:
            best = (cost, first)
    return None if best is None else best[1]


def _danger(view: JSON, seat: int) -> set[int]:
    """Values that are the next player's stock top: do not bring a pile up to them."""
    stocks = view.get("stock") or {}
    seats = len(stocks)
    if seats < 2:
        return set()
    nxt = stocks.get(str((seat + 1) % seats)) or {}
    value = _num(nxt.get("top"))
    return set() if value is None else {value}


def _end(legal: list[JSON], hand: list[str], discards: list[list[str]]) -> JSON:
    ends = [a for a in legal if a["type"] == "end"]
    if len(ends) == 1 and "card" not in ends[0]:
        return ends[0]

    def score(a: JSON) -> tuple[float, ...]:
        code = a["card"]
        value = _num(code)
        pile = discards[a["discard_pile"]]
        top = _num(pile[-1]) if pile else None
        if value is None:
            return (-100.0,)  # a wild card is discarded only when nothing else is left
        if top is not None and top == value + 1:
            fit = 5.0
        elif top is not None and top == value:
            fit = 4.0
        elif not pile:
            fit = 3.0
        elif top is not None and top > value:
            fit = 2.0 - (top - value) / 12
        else:
            fit = 0.0 - (value - (top or 0)) / 12
        return (fit, value)

    return max(ends, key=score)
