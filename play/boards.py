"""The board of each layout (``tabletop.layouts``): the cards of a view laid out for the table.

``BUILDERS[shape](ctx, state, selection, kind)`` -- the shape of the ruleset's
board kind (``tabletop.layouts.BOARDS``) -- adds to the table's context what
``templates/play/_<board>.html`` draws: every card as HTML
(``tabletop.cards``) with the pick it offers now. A board reads only the
redacted view (``state``), so it can show nothing the viewer may not see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from tabletop.cards import card_html, spoken

from .choices import slot_name
from .selection import Pick, Selection, live

JSON = dict[str, Any]


def fields(ctx: JSON, state: JSON, selection: Selection, kind: str) -> None:
    fields = state.get("fields") or {}
    for p in ctx["players"]:
        slots = []
        for pos, code in enumerate(fields.get(str(p["seat"])) or []):
            ref = f"f{p['seat']}.{pos}"
            where = slot_name(p["seat"], pos, ctx["you"], ctx["names"])
            pick = selection.pick(ref, f"{where}: {spoken(code, kind)}")
            html = card_html(code, kind, where=where)
            slots.append({"pos": pos, "html": html, "pick": live(pick)})
        p["slots"] = slots
    discard = state.get("discard") or {}
    top = discard.get("top")
    ctx["discard_html"] = card_html(top, kind, where=_("discard pile")) if top else None
    ctx["discard_count"] = discard.get("count", 0)
    ctx["deck_count"] = (state.get("deck") or {}).get("count", 0)
    held = state.get("held")
    ctx["held_html"] = card_html(held, kind, where=_("held card")) if held else None


def _discard_pile(player: JSON, n: int) -> str:
    words = {"name": player["name"], "n": n + 1}
    if player["you"]:
        return _("your discard pile %(n)s") % words
    return _("%(name)s's discard pile %(n)s") % words


def piles(ctx: JSON, state: JSON, selection: Selection, kind: str) -> None:
    you = ctx["you"]
    stock = state.get("stock") or {}
    discards = state.get("discards") or {}
    counts = state.get("hand_counts") or {}
    for p in ctx["players"]:
        seat = str(p["seat"])
        st = stock.get(seat) or {}
        top = st.get("top")
        where = _("your stock pile") if p["you"] else _("%(name)s's stock pile") % p
        p["stock_html"] = card_html(top, kind, where=where) if top else None
        p["stock_count"] = st.get("count", 0)
        p["stock_pick"] = (
            live(selection.pick("st", f"{where}: {spoken(top, kind)}")) if p["you"] else None
        )
        piles = []
        for n, pile in enumerate(discards.get(seat) or [[], [], [], []]):
            piles.append(
                {
                    "n": n + 1,
                    "cards": [card_html(c, kind, where=_discard_pile(p, n)) for c in pile[-4:]],
                    "more": max(0, len(pile) - 4),
                    "pick": live(selection.pick(f"d{n}", _discard_pile(p, n)))
                    if p["you"]
                    else None,
                }
            )
        p["piles"] = piles
        p["hand_count"] = counts.get(seat, 0)
    hand = []
    seen: set[str] = set()
    for code in state.get("hand") or [] if you is not None else []:
        ref = f"h:{code}"
        # the card's name as its image says it ("Skip-Bo 12"), not "12": label in name
        pick = selection.pick(ref, _("%(card)s from your hand") % {"card": spoken(code, kind)})
        if ref in seen and pick.selected:
            pick = Pick(ref, True, False, pick.sel, pick.label)
        seen.add(ref)
        hand.append({"html": card_html(code, kind), "pick": live(pick)})
    ctx["hand"] = hand
    building = []
    for n, b in enumerate(state.get("building") or [None] * 4):
        top = None
        if b and b.get("count"):
            top = str(b["next"] - 1)
        building.append(
            {
                "n": n + 1,
                "html": card_html(top, kind, where=_("building pile %(n)s") % {"n": n + 1})
                if top
                else None,
                "next": (b or {}).get("next", 1),
                "count": (b or {}).get("count", 0),
                "pick": live(selection.pick(f"b{n}", _("building pile %(n)s") % {"n": n + 1})),
            }
        )
    ctx["building"] = building
    ctx["deck_count"] = (state.get("deck") or {}).get("count", 0)


Board = Callable[[JSON, JSON, Selection, str], None]

#: One entry per shape of ``tabletop.layouts.BOARDS``.
BUILDERS: dict[str, Board] = {"fields": fields, "piles": piles}
