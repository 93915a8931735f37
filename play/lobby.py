"""The lobby: your games (your move first), open games, and the form to start one.

The form is built from ``selectors.ruleset_list()`` (the same data as
``GET /api/rulesets/``): one small form per ruleset, so that each shows its own
options and seat range and works without JavaScript. Its fields become the
API's create body (``create_body``), which the API's own serializer checks.
A ruleset that lists ``bot_levels`` gets a "seats for bots" control: the last
seats are given to bots of the chosen level (``"bots": [{"seat", "level"}]``).
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import QueryDict

from games import selectors
from games.errors import ApplicationError

from .durations import time_left

#: Turn time units offered (seconds each); the API takes 1 s to 14 days.
UNITS = [("minutes", 60), ("hours", 3600), ("days", 86400)]
#: Options shown under "More options" rather than at once.
COMMON = ("start_seat", "memory", "max_timeouts", "stand_in")
LIST_LIMIT = 30


def ruleset_name(ruleset_id: str) -> str:
    for r in _rulesets():
        if r["id"] == ruleset_id:
            return str(r["name"])
    return ruleset_id


_RULESETS: list[dict[str, Any]] = []


def _rulesets() -> list[dict[str, Any]]:
    if not _RULESETS:
        _RULESETS.extend(selectors.ruleset_list())
    return _RULESETS


def _field(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    kind = spec.get("type")
    default = spec.get("default")
    out = {
        "name": name,
        "input": f"opt_{name}",
        "label": name.replace("_", " ").capitalize(),
        "help": spec.get("description", ""),
        "default": default,
    }
    if "enum" in spec:
        out["widget"] = "select"
        out["choices"] = [(json.dumps(v), str(v)) for v in spec["enum"]]
        out["initial"] = json.dumps(default)
    elif kind == "boolean":
        out["widget"] = "checkbox"
    elif kind == "integer":
        out["widget"] = "number"
        out["min"] = spec.get("minimum")
        out["max"] = spec.get("maximum")
        out["nullable"] = spec.get("nullable", False)
        out["initial"] = "" if default is None else default
    else:
        out["widget"] = "text"
        out["initial"] = "" if default is None else default
    return out


def forms() -> list[dict[str, Any]]:
    out = []
    for r in _rulesets():
        fields = [_field(n, s) for n, s in r["options"].items()]
        out.append(
            {
                "id": r["id"],
                "name": r["name"],
                "min": r["min_players"],
                "max": r["max_players"],
                "seat_choices": list(range(r["min_players"], r["max_players"] + 1)),
                "options": [f for f in fields if f["name"] not in COMMON],
                "more": [f for f in fields if f["name"] in COMMON],
                "bot_levels": r.get("bot_levels") or [],
                "bot_seats": list(range(0, r["max_players"])),
            }
        )
    return out


def create_body(post: QueryDict) -> dict[str, Any]:
    """The API's create body from the lobby form's fields."""
    ruleset = post.get("ruleset", "")
    spec = next((r for r in _rulesets() if r["id"] == ruleset), None)
    if spec is None:
        raise ApplicationError("ruleset: pick one of the rulesets offered.")
    body: dict[str, Any] = {"ruleset": ruleset}
    seats = post.get("seats", "")
    body["seats"] = int(seats) if seats.isdigit() else seats
    amount, unit = post.get("turn_amount", "1"), post.get("turn_unit", "days")
    per = dict(UNITS).get(unit)
    if per is None or not amount.isdigit() or int(amount) < 1:
        raise ApplicationError("turn_timeout: give a whole number of minutes, hours or days.")
    body["turn_timeout"] = int(amount) * per
    options: dict[str, Any] = {}
    for name, opt in spec["options"].items():
        raw = post.get(f"opt_{name}")
        kind = opt.get("type")
        if "enum" in opt:
            if raw is not None:
                try:
                    options[name] = json.loads(raw)
                except ValueError:
                    raise ApplicationError(f"options.{name}: pick one of the values.") from None
        elif kind == "boolean":
            options[name] = raw is not None
        elif kind == "integer":
            if raw in (None, ""):
                continue
            if not raw.lstrip("-").isdigit():
                raise ApplicationError(f"options.{name}: must be a whole number.")
            options[name] = int(raw)
        elif raw not in (None, ""):
            options[name] = raw
    body["options"] = options
    bots = post.get("bots", "0")
    level = post.get("bot_level", "")
    if bots.isdigit() and int(bots) > 0 and spec.get("bot_levels"):
        n = body["seats"] if isinstance(body["seats"], int) else 0
        body["bots"] = [{"seat": s, "level": level} for s in range(max(1, n - int(bots)), n)]
    decks = post.get("decks", "").strip()
    if decks and settings.PABLO_ALLOW_STACKED_DECKS:
        try:
            body["decks"] = json.loads(decks)
        except ValueError:
            raise ApplicationError("decks: a JSON list of lists of card codes.") from None
    return body


def context(user: Any) -> dict[str, Any]:
    live = selectors.game_list(user=user, mine=True).exclude(status__in=["finished", "aborted"])
    mine = list(live[:LIST_LIMIT])
    your_move, running, waiting = [], [], []
    for game in mine:
        if game.status == "waiting":
            summary = selectors.game_summary(game=game, user=user)
            waiting.append(_row(summary, game))
            continue
        data = selectors.game_data(game=game, user=user)
        state = data.get("state") or {}
        turn = state.get("turn") or {}
        row = _row(data, game)
        row["time_left"] = time_left(turn.get("deadline"))
        row["deadline"] = turn.get("deadline")
        seat = turn.get("seat")
        names = {p["seat"]: p["username"] for p in data["players"]}
        row["turn_name"] = names.get(seat, "") if seat is not None else "everyone"
        if state.get("legal_actions") and (seat is None or seat == data["you"]):
            your_move.append(row)
        else:
            running.append(row)
    open_games = []
    for game in selectors.game_list(user=user, status="waiting").exclude(seat_set__user=user)[
        :LIST_LIMIT
    ]:
        open_games.append(_row(selectors.game_summary(game=game, user=user), game))
    finished = selectors.game_list(user=user, mine=True, status="finished").count()
    return {
        "your_move": your_move,
        "running": running,
        "waiting": waiting,
        "open_games": open_games,
        "finished": finished,
        "forms": forms(),
        "units": [u for u, _ in UNITS],
        "stacked": settings.PABLO_ALLOW_STACKED_DECKS,
    }


def _row(data: dict[str, Any], game: Any) -> dict[str, Any]:
    players = [p["username"] for p in sorted(data["players"], key=lambda p: p["seat"])]
    return {
        "id": data["id"],
        "ruleset": ruleset_name(data["ruleset"]),
        "players": players,
        "seats": data["seats"],
        "free": data["seats"] - len(players),
        "turn_timeout": _human_timeout(data["turn_timeout"]),
    }


def _human_timeout(seconds: int) -> str:
    for unit, per in reversed(UNITS):
        if seconds % per == 0 and seconds >= per:
            n = seconds // per
            return f"{n} {unit[:-1] if n == 1 else unit}"
    return f"{seconds} s"
