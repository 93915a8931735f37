"""What the table page shows: one seat's view turned into cards, choices and buttons.

Everything here reads the game object of ``games.selectors.game_data`` -- the
same redacted view the API answers with -- and nothing else about the cards, so
the page can never show more than ``GET /api/games/{id}/`` shows the same user.

Choices that need several clicks (look at two cards, Cabo's multi-replace, a
swap's two cards, Skip-Bo's card -> pile) are a *selection*: an ordered list
of card references carried in the ``sel`` query parameter. References:

* ``f{seat}.{pos}`` a slot of a Pablo-family field;
* ``h:{code}`` a Skip-Bo hand card, ``st`` the own stock top, ``d{n}`` the own
  discard pile n, ``b{n}`` building pile n.

Every legal action is expanded into complete action bodies, each needing a
set (or, for Skip-Bo, a sequence) of references. A card can be clicked when it
extends the selection towards some body; a body becomes a button when the
selection names exactly its references. Actions that need no choice (draw,
discard, call, skip, throw) are buttons at once. The same rules serve the page
without JavaScript (a card is a link to ``?sel=...``) and with it (the script
fetches the same page's table fragment).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games import rules
from replays.cards import card_html, card_short, kind_of
from replays.describe import CALL_WORD, describe
from replays.frames import STAGE_WORDS

JSON = dict[str, Any]


@dataclass
class Choice:
    """One complete action body and the card references it needs."""

    body: JSON
    refs: tuple[str, ...]
    ordered: bool = False
    label: str = ""
    gift: bool = False  # a throw onto another's card that gives one of yours


@dataclass
class Button:
    label: str
    body: JSON
    kind: str = "main"  # main | quiet | danger
    short: str = ""  # visible text where space is tight (the label stays the name)

    @property
    def action(self) -> str:
        return json.dumps(self.body, separators=(",", ":"), sort_keys=True)


@dataclass
class Pick:
    """A clickable card (or pile) in the current selection state."""

    ref: str
    selectable: bool = False
    selected: bool = False
    sel: str = ""  # the selection after clicking it
    label: str = ""


@dataclass
class Selection:
    refs: list[str]
    choices: list[Choice]
    complete: list[Choice] = field(default_factory=list)

    def covers(self, refs: tuple[str, ...], ordered: bool, picked: list[str]) -> bool:
        if ordered:
            return tuple(picked) == refs[: len(picked)]
        return set(picked) <= set(refs) and len(set(picked)) == len(picked)

    def pick(self, ref: str, label: str = "") -> Pick:
        if ref in self.refs:
            rest = [r for r in self.refs if r != ref]
            return Pick(ref, True, True, ",".join(rest), f"Unpick {label}")
        nxt = [*self.refs, ref]
        ok = any(self.covers(c.refs, c.ordered, nxt) for c in self.choices)
        return Pick(ref, ok, False, ",".join(nxt), f"Pick {label}")


def _ordinal(n: int) -> str:
    return str(n)


def expand(
    legal: list[JSON], you: int | None, names: list[str], kind: str
) -> tuple[list[Choice], list[Button], dict[str, Button]]:
    """(choices needing clicks, buttons needing none, throw buttons by slot ref)."""
    choices: list[Choice] = []
    buttons: list[Button] = []
    throws: dict[str, Button] = {}
    # the own occupied slots, which a throw onto another's card may give away
    # (legal_actions lists a throw for each of them whenever throwing is open)
    own = [a.get("position") for a in legal if a.get("type") == "throw" and a.get("seat") == you]

    def name(seat: Any) -> str:
        if seat == you:
            return "your"
        if isinstance(seat, int) and 0 <= seat < len(names):
            return f"{names[seat]}'s"
        return "a"

    for action in legal:
        t = action.get("type")
        ch = action.get("choices")
        if t == "look" and ch:
            for pair in ch.get("positions", []):
                choices.append(
                    Choice(
                        {"type": "look", "positions": list(pair)},
                        tuple(f"f{you}.{p}" for p in pair),
                        label=f"Look at your slots {pair[0]} and {pair[1]}",
                    )
                )
        elif t == "replace" and ch:
            for positions in ch.get("positions", []):
                slots = " and ".join(str(p) for p in positions)
                choices.append(
                    Choice(
                        {"type": "replace", "positions": list(positions)},
                        tuple(f"f{you}.{p}" for p in positions),
                        label=f"Replace your slot{'s' if len(positions) > 1 else ''} {slots}",
                    )
                )
        elif t == "peek" and ch:
            for p in ch.get("position", []):
                choices.append(
                    Choice(
                        {"type": "peek", "position": p},
                        (f"f{you}.{p}",),
                        label=f"Peek at your slot {p}",
                    )
                )
        elif t == "spy" and ch:
            s = action.get("seat")
            for p in ch.get("position", []):
                choices.append(
                    Choice(
                        {"type": "spy", "seat": s, "position": p},
                        (f"f{s}.{p}",),
                        label=f"Spy on {name(s)} slot {p}",
                    )
                )
        elif t == "swap" and ch:
            s = action.get("seat")
            for p in ch.get("position", []):
                for q in ch.get("their_position", []):
                    choices.append(
                        Choice(
                            {"type": "swap", "position": p, "seat": s, "their_position": q},
                            (f"f{you}.{p}", f"f{s}.{q}"),
                            label=f"Swap your slot {p} with {name(s)} slot {q}",
                        )
                    )
        elif t == "throw":
            s, p = action.get("seat"), action.get("position")
            throws[f"f{s}.{p}"] = Button(
                f"Throw {name(s)} slot {p}", dict(action), "quiet", short="Throw"
            )
            if you is not None and s != you:
                for g in own:
                    choices.append(
                        Choice(
                            {**action, "give_position": g},
                            (f"f{s}.{p}", f"f{you}.{g}"),
                            ordered=True,
                            label=f"Throw {name(s)} slot {p}, giving your slot {g}",
                            gift=True,
                        )
                    )
        elif t == "play":
            src = action.get("from")
            pile = action.get("pile")
            if src == "hand":
                ref, what = f"h:{action.get('card')}", card_short(str(action.get("card")), kind)
                what = f"{what} from your hand"
            elif src == "stock":
                ref, what = "st", "your stock card"
            else:
                d = action.get("discard_pile")
                ref, what = f"d{d}", f"the top of your discard pile {_n(d)}"
            choices.append(
                Choice(
                    dict(action),
                    (ref, f"b{pile}"),
                    ordered=True,
                    label=f"Play {what} onto building pile {_n(pile)}",
                )
            )
        elif t == "end":
            c, d = action.get("card"), action.get("discard_pile")
            choices.append(
                Choice(
                    dict(action),
                    (f"h:{c}", f"d{d}"),
                    ordered=True,
                    label=f"End turn: put {card_short(str(c), kind)} on your discard pile {_n(d)}",
                )
            )
        elif t == "draw":
            src = action.get("source")
            label = "Draw from the deck" if src == "deck" else "Take the discard"
            buttons.append(Button(label, dict(action)))
        elif t == "discard":
            buttons.append(Button("Discard the card you hold", dict(action)))
        elif t == "call":
            buttons.append(Button("Call", dict(action), "danger"))
        elif t == "skip":
            buttons.append(Button("Skip the power", dict(action), "quiet"))
        elif not ch:
            verb = str(t).replace("_", " ").capitalize()
            buttons.append(Button(verb, dict(action)))
    return choices, buttons, throws


def _n(value: Any) -> str:
    """Piles are numbered from 1 for people (building pile 1-4, discard pile 1-4)."""
    return str(value + 1) if isinstance(value, int) else str(value)


def complete(selection: Selection) -> list[Button]:
    out = []
    for c in selection.choices:
        if c.ordered:
            done = tuple(selection.refs) == c.refs
        else:
            done = len(selection.refs) == len(c.refs) and set(selection.refs) == set(c.refs)
        if not done:
            continue
        body = dict(c.body)
        if body.get("type") == "replace":
            # The held card goes into the first slot clicked.
            body["positions"] = [int(r.split(".")[1]) for r in selection.refs]
        out.append(Button(c.label, body))
    return out


def time_left(deadline: str | None, now: datetime | None = None) -> str:
    if not deadline:
        return ""
    try:
        when = datetime.fromisoformat(deadline.replace("Z", "+00:00"))
    except ValueError:
        return ""
    seconds = int((when - (now or timezone.now())).total_seconds())
    return human_seconds(max(0, seconds))


def human_seconds(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} days {hours} h" if hours else f"{days} days"


def recent_words(
    events: list[JSON], names: list[str], kind: str, you: int | None, ruleset: str
) -> list[str]:
    out: list[str] = []
    for e in events:
        event = rules.Event(type=e["type"], data=e["data"] or {}, seat=e["seat"])
        out += describe(event, e["data"] or {}, names, kind, viewer=you, ruleset=ruleset)
    return out


def build(game: JSON, sel: str, events: list[JSON]) -> JSON:
    """The template context of the table for the game object ``game``."""
    state = game.get("state") or {}
    you = game.get("you")
    ruleset = game["ruleset"]
    kind = kind_of(ruleset)
    names = [f"Seat {s}" for s in range(game["seats"])]
    absent = {}
    scores = {}
    for p in game["players"]:
        names[p["seat"]] = p["username"]
        absent[p["seat"]] = p.get("absent")
        scores[p["seat"]] = p.get("score")
    legal = state.get("legal_actions") or []
    choices, buttons, throws = expand(legal, you, names, kind)
    wanted = [r for r in sel.split(",") if r] if sel else []
    known: set[str] = {r for c in choices for r in c.refs}
    wanted = [r for r in dict.fromkeys(wanted) if r in known][:6]
    selection = Selection(wanted, choices)
    # a selection that no choice covers is dropped (e.g. an old link)
    if wanted and not any(selection.covers(c.refs, c.ordered, wanted) for c in choices):
        selection = Selection([], choices)
    buttons = complete(selection) + buttons
    turn = state.get("turn") or {}
    turn_seat = turn.get("seat")
    result = state.get("result")
    rounds = state.get("rounds") or []
    last = rounds[-1] if rounds else None
    ctx: JSON = {
        "kind": kind,
        "ruleset": ruleset,
        "you": you,
        "names": names,
        "phase": state.get("phase"),
        "round": state.get("round"),
        "turn_seat": turn_seat,
        "turn_name": names[turn_seat] if isinstance(turn_seat, int) else "",
        "your_turn": turn_seat is not None and turn_seat == you,
        "stage": turn.get("stage"),
        "stage_words": STAGE_WORDS.get(turn.get("stage") or "", turn.get("stage") or ""),
        "deadline": turn.get("deadline") if game["status"] == "active" else None,
        "time_left": time_left(turn.get("deadline")) if game["status"] == "active" else "",
        "buttons": buttons,
        "selection": selection.refs,
        "sel": ",".join(selection.refs),
        "hint": _hint(legal, selection, kind),
        "words": list(reversed(recent_words(events, names, kind, you, ruleset)))[:8],
        "result": result,
        "rounds": rounds,
        "call_word": CALL_WORD.get(ruleset, "Call"),
        "called_by": [names[s] for s in state.get("called_by") or [] if 0 <= s < len(names)],
    }
    players = []
    for seat in range(game["seats"]):
        players.append(
            {
                "seat": seat,
                "name": names[seat],
                "you": seat == you,
                "on_turn": seat == turn_seat,
                "absent": absent.get(seat, False),
                "score": scores.get(seat),
                "last": (last or {}).get("scores", {}).get(str(seat)),
                "winner": bool(result) and seat in (result.get("winners") or []),
                "loser": bool(result) and seat in (result.get("losers") or []),
                "called": names[seat] in ctx["called_by"],
            }
        )
    # own seat first: the player's own cards are what they look at most
    if you is not None:
        players.sort(key=lambda p: (not p["you"], p["seat"]))
    ctx["players"] = players
    if kind == "skipbo":
        _skipbo(ctx, state, selection, kind)
    else:
        _family(ctx, state, selection, throws, kind)
    return ctx


def _hint(legal: list[JSON], selection: Selection, kind: str) -> str:
    if len(selection.refs) == 1 and any(
        c.gift and c.refs[0] == selection.refs[0] for c in selection.choices
    ):
        return (
            "Click one of your cards to give in exchange if the throw is right, "
            "or click the picked card again to put it back."
        )
    types = {a.get("type") for a in legal if a.get("choices") or a.get("type") in ("play", "end")}
    if not types:
        return ""
    if selection.refs:
        return "Pick the next card, or click a picked card again to put it back."
    if "look" in types:
        return "Click two of your cards to look at them."
    parts = []
    if "replace" in types:
        parts.append("click your card(s) to replace")
    if "peek" in types:
        parts.append("click one of your cards to peek")
    if "spy" in types:
        parts.append("click another player's card to spy")
    if "swap" in types:
        parts.append("click one of yours and one of theirs to swap")
    if "play" in types or "end" in types:
        parts.append("click a card of yours, then the pile it goes on")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


def _family(
    ctx: JSON, state: JSON, selection: Selection, throws: dict[str, Button], kind: str
) -> None:
    fields = state.get("fields") or {}
    # A throw that gives a card starts at the other player's card, through the
    # "Give" link under it: with nothing picked yet, the card itself is a pick
    # only for the other choices (spy, swap), so that in games where throwing
    # is always open the opponents' cards are not all outlined all the time.
    gifts = {c.refs[0] for c in selection.choices if c.gift}
    plain = Selection([], [c for c in selection.choices if not c.gift])
    for p in ctx["players"]:
        slots = []
        for pos, code in enumerate(fields.get(str(p["seat"])) or []):
            ref = f"f{p['seat']}.{pos}"
            whose = "your" if p["you"] else f"{p['name']}'s"
            label = f"{whose} slot {pos}"
            pick = (plain if not selection.refs else selection).pick(ref, label)
            give = None
            if ref in gifts and not selection.refs:
                give = Pick(ref, True, False, ref, f"Throw {label} and give one of your cards")
            slots.append(
                {
                    "pos": pos,
                    "html": card_html(code, kind),
                    "pick": pick if (pick.selectable or pick.selected) else None,
                    "throw": throws.get(ref),
                    "give": give,
                }
            )
        p["slots"] = slots
    discard = state.get("discard") or {}
    top = discard.get("top")
    ctx["discard_html"] = card_html(top, kind) if top else None
    ctx["discard_count"] = discard.get("count", 0)
    ctx["deck_count"] = (state.get("deck") or {}).get("count", 0)
    held = state.get("held")
    ctx["held_html"] = card_html(held, kind) if held else None


def _skipbo(ctx: JSON, state: JSON, selection: Selection, kind: str) -> None:
    you = ctx["you"]
    stock = state.get("stock") or {}
    discards = state.get("discards") or {}
    counts = state.get("hand_counts") or {}
    for p in ctx["players"]:
        seat = str(p["seat"])
        st = stock.get(seat) or {}
        p["stock_html"] = card_html(st.get("top"), kind) if st.get("top") else None
        p["stock_count"] = st.get("count", 0)
        p["stock_pick"] = _live(selection.pick("st", "your stock card")) if p["you"] else None
        piles = []
        for n, pile in enumerate(discards.get(seat) or [[], [], [], []]):
            piles.append(
                {
                    "n": n + 1,
                    "cards": [card_html(c, kind) for c in pile[-4:]],
                    "more": max(0, len(pile) - 4),
                    "pick": _live(selection.pick(f"d{n}", f"your discard pile {n + 1}"))
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
        pick = selection.pick(ref, f"{card_short(code, kind)} from your hand")
        if ref in seen and pick.selected:
            pick = Pick(ref, True, False, pick.sel, pick.label)
        seen.add(ref)
        hand.append({"html": card_html(code, kind), "pick": _live(pick)})
    ctx["hand"] = hand
    building = []
    for n, b in enumerate(state.get("building") or [None] * 4):
        top = None
        if b and b.get("count"):
            top = str(b["next"] - 1)
        building.append(
            {
                "n": n + 1,
                "html": card_html(top, kind) if top else None,
                "next": (b or {}).get("next", 1),
                "count": (b or {}).get("count", 0),
                "pick": _live(selection.pick(f"b{n}", f"building pile {n + 1}")),
            }
        )
    ctx["building"] = building
    ctx["deck_count"] = (state.get("deck") or {}).get("count", 0)


def _live(pick: Pick) -> Pick | None:
    return pick if (pick.selectable or pick.selected) else None


def card_link(pick: Pick | None, html: SafeString) -> SafeString:
    if pick is None:
        return html
    return format_html(
        '<a class="pick{}" href="?sel={}" data-sel="{}" aria-label="{}" aria-pressed="{}">{}</a>',
        " picked" if pick.selected else "",
        pick.sel,
        pick.sel,
        pick.label,
        "true" if pick.selected else "false",
        html,
    )
