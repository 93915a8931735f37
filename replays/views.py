"""The replay viewer's pages: the list of finished games and one game at one step.

Everything works with plain links and forms; ``static/replays/replay.js``
only makes stepping faster (arrow keys, no full page load). Only finished and
aborted games can be viewed: any other id is a 404 that says nothing more.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from games import review, rules
from games.api import shares
from games.api.throttling import check_analysis
from games.names import player_name, username_of
from games.selectors import replays as replay_selectors
from games.services import analysis as analysis_services
from tabletop.advice import MARK_WORDS, advice
from tabletop.durations import human_seconds
from tabletop.layouts import layout, local_name

from . import analysis_chart, chart
from .frames import frame
from .steps import game_replay

#: Display names, as the rulesets give them (``GET /api/rulesets/`` shows the same).
RULESET_NAMES = {ruleset.id: ruleset.name for ruleset in rules.rulesets()}

PAGE_SIZE = 20
WINDOW = 6  # steps listed on each side of the current one


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    ruleset = request.GET.get("ruleset", "")
    if ruleset not in RULESET_NAMES:
        ruleset = ""
    player = request.GET.get("player", "").strip()[:150]
    games = replay_selectors.replay_list(
        ruleset=ruleset, player=username_of(player), user=request.user
    )
    page = Paginator(games, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = []
    for game in page.object_list:
        seats = sorted(game.seat_set.all(), key=lambda s: s.seat)
        names = {s.seat: player_name(s.user.username) for s in seats}
        result = game.result or {}
        winners = set(result.get("winners") or [])
        rows.append(
            {
                "game": game,
                "ruleset_name": local_name(RULESET_NAMES.get(game.ruleset, game.ruleset)),
                "players": [
                    {"name": names.get(s, _("Seat %(seat)s") % {"seat": s}), "winner": s in winners}
                    for s in range(game.seats)
                ],
                "winners": [
                    names.get(s, _("Seat %(seat)s") % {"seat": s}) for s in sorted(winners)
                ],
                "date": game.finished_at or game.updated_at,
            }
        )
    keep = {k: v for k, v in (("ruleset", ruleset), ("player", player)) if v}
    return render(
        request,
        "replays/list.html",
        {
            "rows": rows,
            "page": page,
            "rulesets": RULESET_NAMES,
            "ruleset": ruleset,
            "player": player,
            "players": replay_selectors.replay_players(request.user),
            "query": urlencode(keep),
        },
    )


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def _viewable(request: HttpRequest, game_id) -> Any:
    """The finished or aborted game, or the unknown game's 404 -- also for a private game
    the visitor may not see (not a player, no ``?invite=`` of it: ``friends.may_see``)."""
    game = replay_selectors.replay_game(game_id, request.user, _invite(request))
    if game is None:
        raise Http404("No finished game with this id.")
    return game


def _invite(request: HttpRequest) -> str:
    return (request.GET.get("invite") or request.POST.get("invite") or "")[:100]


@require_GET
def game_replay_view(request: HttpRequest, game_id) -> HttpResponse:
    game = _viewable(request, game_id)
    replay = game_replay(game)
    number = _int(request.GET.get("step")) or 0
    number = min(max(number, 0), replay.last)
    perspective = _int(request.GET.get("as"))
    if perspective is not None and not 0 <= perspective < len(replay.names):
        perspective = None
    step = replay.steps[number]
    invite = _invite(request)

    def url(n: int, as_: int | None = perspective) -> str:
        params: dict[str, Any] = {"step": n}
        if as_ is not None:
            params["as"] = as_
        if invite:
            params["invite"] = invite
        return f"?{urlencode(params)}"

    table = frame(replay, step, perspective)
    # A seat's view must not name a card that seat had not seen yet: its list of
    # steps stops at this one (later steps may show cards face up).
    if perspective is None:
        lo, hi = max(0, number - WINDOW), min(replay.last, number + WINDOW)
    else:
        lo, hi = max(0, number - 2 * WINDOW), number
    said = replay.sentences(perspective, lo, hi)
    timeline = [
        {
            "number": s.number,
            "url": url(s.number),
            "text": " ".join(text),
            "current": s.number == number,
            "tags": s.tags,
        }
        for s, text in zip(replay.steps[lo : hi + 1], said, strict=True)
    ]
    jumps = [{"number": n, "label": label, "url": url(n)} for n, label in replay.jumps]
    prev_jump = next((j for j in reversed(jumps) if j["number"] < number), None)
    next_jump = next((j for j in jumps if j["number"] > number), None)
    series = chart.series_for(replay.names, replay.totals_by_round, start=None)
    chart_ = chart.Chart(
        series, threshold=layout(replay.ruleset).threshold, x_label=replay.chart_axis
    )
    svg = chart_.svg(step.chart_x)
    perspectives = [
        {"label": _("All cards"), "url": url(number, None), "active": perspective is None}
    ]
    perspectives += [
        {"label": name, "url": url(number, s), "active": perspective == s, "seat": s}
        for s, name in enumerate(replay.names)
    ]
    context = {
        "game": game,
        "invite": invite,
        "replay": replay,
        "ruleset_name": local_name(RULESET_NAMES.get(replay.ruleset, replay.ruleset)),
        "step": step,
        "number": number,
        "last": replay.last,
        "perspective": perspective,
        "perspective_name": replay.names[perspective] if perspective is not None else "",
        "perspectives": perspectives,
        "sentences": said[number - lo],
        "t": table,
        "timeline": timeline,
        "jumps": jumps,
        "prev_jump": prev_jump,
        "next_jump": next_jump,
        "first_url": url(0),
        "prev_url": url(max(0, number - 1)),
        "next_url": url(min(replay.last, number + 1)),
        "last_url": url(replay.last),
        "chart": svg,
        "chart_legend": chart.legend([(s.name, s.colour, s.values[-1]) for s in series]),
        "chart_rows": [{"name": s.name, "values": s.values[1:], "colour": s.colour} for s in series]
        if replay.chart_axis == "round"
        else [],
        "chart_rounds": list(range(1, len(replay.totals_by_round))),
        "winners": [replay.names[s] for s in replay.result.get("winners") or []],
        "losers": [replay.names[s] for s in replay.result.get("losers") or []],
        "kind": replay.kind,
        **_analysis(game, replay, step, url),
    }
    return render(request, "replays/replay.html", context)


def _analysis(game, replay, step, url) -> dict:
    """The analysis part of the page: the button, the progress, or the marks."""
    row = review.analysis_get(game=game)
    if row is None:
        return {"analysis": None}
    data = review.analysis_data(row)
    if data["status"] != "done":
        return {"analysis": data, "analysis_percent": round(100 * data["progress"])}
    chance = review.analysis_unit(replay.ruleset) == "chance"  # else round points
    decisions = data["decisions"]
    # Steps are numbered by the viewer; a decision names its event's seq (index + 1).
    seq = step.main + 1 if step.main is not None else None
    here = next((d for d in decisions if d["step"] == seq), None)
    step_of = {s.main + 1: s.number for s in replay.steps if s.main is not None}
    marked = [
        {
            "number": step_of.get(d["step"]),
            "mark": d["mark"],
            "label": MARK_WORDS[d["mark"]],
            "name": replay.names[d["seat"]],
            "url": url(step_of[d["step"]]),  # the same "Seen by" and invite
        }
        for d in decisions
        if d["mark"] and d["step"] in step_of
    ]
    players = [
        {
            **p,
            "name": replay.names[p["seat"]],
            "loss_text": f"{p['loss'] * 100:.0f} %" if chance else _points(p["loss"]),
        }
        for p in data["players"]
    ]
    return {
        "analysis": data,
        "analysis_here": here
        and {
            **here,
            "label": MARK_WORDS.get(here["mark"] or "", ""),
            "name": replay.names[here["seat"]],
            "sentence": advice(here, replay.names, replay.kind, chance=chance),
        },
        "analysis_players": players,
        "analysis_marked": marked,
        "analysis_chart": analysis_chart.svg(decisions, replay.names, chance=chance),
        "analysis_legend": analysis_chart.legend(decisions, replay.names),
        "analysis_unit": _("chance to win (higher is better)")
        if chance
        else _("expected round points (lower is better)"),
    }


@require_POST
def game_analyse(request: HttpRequest, game_id) -> HttpResponse:
    """The viewer's "Analyse this game" form: start it, then back to the page."""
    game = _viewable(request, game_id)
    back = reverse("replays:replay", args=[game_id])
    kept = {k: request.POST[k] for k in ("step", "as") if request.POST.get(k)}
    if _int(kept.get("step")) is None or _int(kept.get("as", "0")) is None:
        kept = {}
    if _invite(request):  # without it a private game's way back is a 404
        kept["invite"] = _invite(request)
    if kept:
        back += f"?{urlencode(kept)}"  # the same step, "Seen by" and invite
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{reverse('play:login')}?{urlencode({'next': back})}")
    wait = check_analysis(request)
    if wait is not None:
        return _busy(request, wait, back)
    try:
        with transaction.atomic():
            row = analysis_services.analysis_request(
                game=game, user=request.user, requested_from=shares.address_key(request)
            )
            shares.check_analysis(request, row)
    except shares.Over as over:
        return _busy(request, shares.RETRY_AFTER, back, str(over.detail))
    return HttpResponseRedirect(back)


def _busy(request: HttpRequest, wait: int, back: str, detail: str = "") -> HttpResponse:
    """The 429 page of a refused "Analyse this game" (with ``Retry-After``): why, how
    long to wait, and the way back to the replay."""
    context = {"wait": human_seconds(wait), "back": back, "detail": detail, "nav": "replays"}
    response = render(request, "replays/busy.html", context, status=429)
    response["Retry-After"] = str(wait)
    response["Cache-Control"] = "no-store"
    return response


def _points(loss: float) -> str:
    """A loss in round points, "1 point" or "2 points" (French "0 point") as it is shown."""
    shown = f"{loss:.0f}"
    return ngettext("%(n)s point", "%(n)s points", abs(int(shown))) % {"n": shown}
