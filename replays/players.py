"""The ratings' pages: the leaderboards (``/ratings/``) and a player's page
(``/players/{username}/``), with the rating over time drawn by the viewer's chart."""

from __future__ import annotations

from datetime import datetime

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from games import rules
from games.api.ratings import player_data
from games.errors import NotFound
from games.names import player_name
from games.ratings import selectors as ratings
from tabletop.layouts import local_name
from tabletop.places import rank_words

from . import chart

PAGE_SIZE = 50


def _names() -> dict[str, str]:
    """Each ruleset's name in the current language."""
    return {r.id: local_name(r.name) for r in rules.rulesets()}


@require_GET
def leaderboards(request: HttpRequest) -> HttpResponse:
    names = _names()
    ruleset = request.GET.get("ruleset", "")
    if ruleset not in names:
        ruleset = next(iter(names))
    page = Paginator(ratings.leaderboard(ruleset), PAGE_SIZE).get_page(request.GET.get("page"))
    rows = ratings.board_rows(list(page.object_list), page.start_index())
    return render(
        request,
        "replays/ratings.html",
        {
            "rows": rows,
            "page": page,
            "rulesets": names,
            "ruleset": ruleset,
            "ruleset_name": names[ruleset],
            "nav": "ratings",
        },
    )


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    try:
        data = player_data(username, request.user)
    except NotFound as exc:
        raise Http404(exc.detail) from exc
    if data["username"] != username:  # another spelling of the name: its page's address
        return HttpResponseRedirect(reverse("player", args=[data["username"]]))
    names = _names()
    history = ratings.history(ratings.player(username))
    per_ruleset = []
    for ruleset, info in data["ratings"].items():
        points = history.get(ruleset, [])
        places = [p["place"] for p in points]
        scored = [p["points"] for p in points if p["points"] is not None]
        series = [
            chart.Series(player_name(username), [1000] + [p["rating"] for p in points], "#0072B2")
        ]
        per_ruleset.append(
            {
                **info,
                "ruleset": ruleset,
                "name": names.get(ruleset, ruleset),
                "firsts": places.count(1),
                "mean_place": round(sum(places) / len(places), 2) if places else None,
                "mean_points": round(sum(scored) / len(scored), 1) if scored else None,
                "chart": chart.Chart(
                    series,
                    x_label=gettext("rated game"),
                    title=gettext("%(name)s's %(ruleset)s rating after each game")
                    % {"name": player_name(username), "ruleset": names.get(ruleset, ruleset)},
                    from_zero=False,
                    ident=f"chart-{ruleset}",  # one chart per ruleset on the page
                ).svg()
                if len(points) > 1
                else None,
            }
        )
    recent = []
    for game in data["recent"]:
        you = next((p for p in game["players"] if p["username"] == username), None)
        recent.append(
            {
                **game,
                "name": names.get(game["ruleset"], game["ruleset"]),
                "when": datetime.fromisoformat(game["created_at"].replace("Z", "+00:00")),
                "change": you["rating_change"] if you else None,
                # a place in every game (Cabo and the Pablo family have no "loser")
                "won": game["place"] == 1,
                "place_text": rank_words(game["place"], game["seats"], tied=game["tied"])
                if game["place"]
                else None,
            }
        )
    return render(
        request,
        "replays/player.html",
        {"player": data, "per_ruleset": per_ruleset, "recent": recent},
    )
