"""The lobby: your games (your move first), open games, and the form to start one.

The form (``play.forms.CreateForm``) is built from ``selectors.games.ruleset_list()``
(the same data as ``GET /api/rulesets/``): one per ruleset, so that each shows
its own options and seat range and works without JavaScript. Its fields become
the API's create body, which the API's own serializer and service check.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext, ngettext

from games.errors import ApplicationError
from games.names import player_name
from games.ratings import selectors as ratings
from games.selectors import games as game_selectors
from tabletop.durations import time_left
from tabletop.layouts import local_name

from .forms import UNITS, CreateForm

LIST_LIMIT = 30
#: Finished games looked at for a rematch offered to the player (the newest).
REMATCH_LOOKBACK = 20


def ruleset_name(ruleset_id: str) -> str:
    for r in _rulesets():
        if r["id"] == ruleset_id:
            return local_name(str(r["name"]))
    return ruleset_id


def _rulesets() -> list[dict[str, Any]]:
    # Asked each time (a hundredth of a millisecond), never kept: the registry is
    # what it is now (a ruleset registered later, as the tests' third one, is offered).
    return game_selectors.ruleset_list()


def forms(bound: CreateForm | None = None) -> list[CreateForm]:
    """One create form per ruleset; ``bound`` (a refused one) replaces its ruleset's."""
    out = []
    for r in _rulesets():
        if bound is not None and bound.ruleset == r["id"]:
            out.append(bound)
        else:
            out.append(CreateForm(r))
    return out


def create_form(post: QueryDict) -> CreateForm | None:
    """The bound create form of the ruleset a POST names (None: no such ruleset)."""
    spec = next((r for r in _rulesets() if r["id"] == post.get("ruleset")), None)
    return None if spec is None else CreateForm(spec, post)


def context(user: Any, bound: CreateForm | None = None) -> dict[str, Any]:
    return {**lists(user), "forms": forms(bound), "forms_bound": bound is not None}


def lists(user: Any) -> dict[str, Any]:
    """The lobby's lists of games (the part the script refreshes)."""
    live = game_selectors.game_list(user=user, mine=True).exclude(
        status__in=["finished", "aborted"]
    )
    mine = list(live[:LIST_LIMIT])
    your_move, running, waiting = [], [], []
    for game in mine:
        if game.status == "waiting":
            summary = game_selectors.game_summary(game=game, user=user)
            waiting.append(_row(summary, game))
            continue
        data = game_selectors.game_data(game=game, user=user)
        state = data.get("state") or {}
        turn = state.get("turn") or {}
        row = _row(data, game)
        row["time_left"] = time_left(turn.get("deadline"))
        row["deadline"] = turn.get("deadline")
        seat = turn.get("seat")
        names = {p["seat"]: player_name(p["username"]) for p in data["players"]}
        row["turn_name"] = names.get(seat, "") if seat is not None else gettext("everyone")
        if state.get("legal_actions") and (seat is None or seat == data["you"]):
            your_move.append(row)
        else:
            running.append(row)
    open_games = []
    for game in game_selectors.game_list(user=user, status="waiting").exclude(seat_set__user=user)[
        :LIST_LIMIT
    ]:
        row = _row(game_selectors.game_summary(game=game, user=user), game)
        # each player's rating in this ruleset (docs/ratings.md)
        known = ratings.current(row["players"], game.ruleset)
        row["rated_players"] = [
            (name, player_name(name), known.get(name)) for name in row["players"]
        ]
        open_games.append(row)
    finished_games = game_selectors.game_list(user=user, mine=True, status="finished")
    finished = finished_games.count()
    # rematches offered: a finished game of yours whose rematch you have no seat in
    rematches = []
    for game in finished_games[:REMATCH_LOOKBACK]:
        summary = game_selectors.game_summary(game=game, user=user)
        new_id = summary.get("rematch")
        if not new_id:
            continue
        try:
            new = game_selectors.game_get(new_id)
        except ApplicationError:
            continue
        if new.status != "waiting" or game_selectors.seat_of(game=new, user=user) is not None:
            continue
        new_summary = game_selectors.game_summary(game=new, user=user)
        row = _row(new_summary, new)
        row["old_id"] = summary["id"]
        row["by"] = player_name((new_summary["players"] or [{"username": ""}])[0]["username"])
        rematches.append(row)
    return {
        "your_move": your_move,
        "running": running,
        "waiting": waiting,
        "open_games": open_games,
        "finished": finished,
        "rematches": rematches,
    }


def _row(data: dict[str, Any], game: Any) -> dict[str, Any]:
    seated = sorted(data["players"], key=lambda p: p["seat"])
    players = [p["username"] for p in seated]
    return {
        "id": data["id"],
        "ruleset": ruleset_name(data["ruleset"]),
        "players": players,
        # as people read them: the viewer is "You", as at the table
        "names": [
            gettext("You") if p["seat"] == data.get("you") else player_name(p["username"])
            for p in seated
        ],
        "bot_accounts": [p["username"] for p in data["players"] if p.get("bot_account")],
        "seats": data["seats"],
        "free": data["seats"] - len(players),
        "turn_timeout": _human_timeout(data["turn_timeout"]),
        "private": bool(data.get("private")),
    }


def _human_timeout(seconds: int) -> str:
    for unit, per in reversed(UNITS):
        if seconds % per == 0 and seconds >= per:
            n = seconds // per
            return UNIT_COUNT[unit](n) % {"n": n}
    return f"{seconds} s"


UNIT_COUNT = {
    "minutes": lambda n: ngettext("%(n)s minute", "%(n)s minutes", n),
    "hours": lambda n: ngettext("%(n)s hour", "%(n)s hours", n),
    "days": lambda n: ngettext("%(n)s day", "%(n)s days", n),
}
