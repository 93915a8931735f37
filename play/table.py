"""What the table page shows: one seat's view turned into cards, choices and buttons.

Everything here reads the game object of ``games.selectors.games.game_data`` -- the
same redacted view the API answers with -- and nothing else about the cards, so
the page can never show more than ``GET /api/games/{id}/`` shows the same user.

The jobs are apart: ``choices`` expands the legal actions into complete bodies,
``selection`` follows the clicks towards one of them, ``boards`` lays out the
cards of each board (``tabletop.layouts``), ``tabletop.durations`` says times in words;
this module puts them together into the template's context (``build``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import rules
from games.names import player_name
from tabletop.describe import STAGE_WORDS, and_list, describe
from tabletop.durations import time_left
from tabletop.layouts import BOARDS, layout

from .boards import BUILDERS
from .choices import expand
from .selection import Selection, complete, hint

JSON = dict[str, Any]


def recent_words(
    events: list[JSON], names: list[str], kind: str, you: int | None, ruleset: str
) -> list[JSON]:
    """The sentences of ``events`` (as the seat saw them), each with its event's ``seq``:
    the script announces the ones newer than the page it replaces."""
    out: list[JSON] = []
    for e in events:
        event = rules.Event(type=e["type"], data=e["data"] or {}, seat=e["seat"])
        said = describe(
            event, e["data"] or {}, names, kind, viewer=you, ruleset=ruleset, reader=you
        )
        out += [{"seq": e["seq"], "text": text} for text in said]
    return out


def raced(
    events: list[JSON], since: int, names: list[str], kind: str, you: int | None, ruleset: str
) -> str:
    """What a player's refused click says when others moved first (a version conflict):
    the other players' moves after version ``since``, in the table's words."""
    theirs = [e for e in events if e["seq"] > since and e["seat"] not in (None, you)]
    words = recent_words(theirs, names, kind, you, ruleset)
    if not words:
        return _("The game moved on before your move arrived, so it was not made. Choose again.")
    return _("%(moves)s That came first, so your move was not made. Choose again.") % {
        "moves": " ".join(w["text"] for w in words)
    }


def build(game: JSON, sel: str, events: list[JSON]) -> JSON:
    """The template context of the table for the game object ``game``."""
    state = game.get("state") or {}
    you = game.get("you")
    ruleset = game["ruleset"]
    drawn = layout(ruleset)
    kind = drawn.cards
    names = [_("Seat %(seat)s") % {"seat": s} for s in range(game["seats"])]
    absent = {}
    scores = {}
    for p in game["players"]:
        names[p["seat"]] = player_name(p["username"])
        absent[p["seat"]] = p.get("absent")
        scores[p["seat"]] = p.get("score")
    legal = state.get("legal_actions") or []
    choices, buttons = expand(legal, you, names, kind, dict(drawn.verbs))
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
    # the viewer is "you" everywhere on the page: in the bar, the result and the
    # sentences alike; the lists below name the others
    callers = [
        s for s in state.get("called_by") or [] if isinstance(s, int) and 0 <= s < len(names)
    ]
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
        "hint": hint(legal, selection, kind),
        # in the order they happened, numbered as they read: the newest last
        "words": recent_words(events, names, kind, you, ruleset)[-8:],
        "result": result,
        "rounds": rounds,
        "call_word": drawn.call_word,
        "called_by": [names[s] for s in callers if s != you],
        "you_called": you is not None and you in callers,
    }
    changes = {p["seat"]: p.get("rating_change") for p in game["players"]}
    bot_accounts = {p["seat"] for p in game["players"] if p.get("bot_account")}
    players = []
    for seat in range(game["seats"]):
        players.append(
            {
                "seat": seat,
                "name": names[seat],
                # how the page names them: the viewer is "You" wherever they appear
                "shown": _("You") if seat == you else names[seat],
                "you": seat == you,
                "on_turn": seat == turn_seat,
                "absent": absent.get(seat, False),
                "score": scores.get(seat),
                "last": (last or {}).get("scores", {}).get(str(seat)),
                "winner": bool(result) and seat in (result.get("winners") or []),
                "loser": bool(result) and seat in (result.get("losers") or []),
                "called": seat in callers,
                "rating_change": changes.get(seat),  # ratings (docs/ratings.md)
                "bot_account": seat in bot_accounts,  # docs/programs.md
            }
        )
    # own seat first: the player's own cards are what they look at most
    if you is not None:
        players.sort(key=lambda p: (not p["you"], p["seat"]))
    ctx["players"] = players
    ctx["winner_names"] = and_list([p["name"] for p in players if p["winner"] and not p["you"]])
    ctx["you_won"] = any(p["winner"] and p["you"] for p in players)
    ctx["board"] = drawn.board
    ctx["board_template"] = f"play/_{drawn.board}.html"
    BUILDERS[BOARDS[drawn.board]](ctx, state, selection, kind)
    return ctx
