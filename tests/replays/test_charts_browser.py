"""The viewer's charts and its analysis, read by a new player (issue 28) in Chromium:
the totals chart's names whole and told apart, the analysis chart with a legend
and its axes in words, readable at 390 px, and an analysis's progress that moves
by itself."""

from __future__ import annotations

import pytest
from django.conf import settings

from games.bots.analysis import ANALYSER
from games.models import GameAnalysis
from games.selectors.games import game_events
from replays.steps import build_replay

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]

PHONE = {"width": 390, "height": 844}
BOTS = ["basic bot 1", "basic bot 2", "ann"]

#: Every text of an SVG inside its viewBox (nothing cut), and its smallest size on screen.
TEXTS = """(sel) => { const svg = document.querySelector(sel); const box = svg.viewBox.baseVal;
  const scale = svg.getBoundingClientRect().width / box.width;
  return [...svg.querySelectorAll('text')].map(t => { const b = t.getBBox();
    return {text: t.textContent,
            inside: b.x >= box.x - 0.5 && b.x + b.width <= box.x + box.width + 0.5,
            px: parseFloat(getComputedStyle(t).fontSize) * scale}; }); }"""


def test_the_totals_chart_names_every_player_whole(live_server, chromium, stored, artifacts):
    game, _ = stored("pablo", 3, seed=3, names=BOTS)
    for size, viewport in (("desktop", {"width": 1280, "height": 900}), ("390", PHONE)):
        context = chromium.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(f"{live_server.url}/replays/{game.id}/?step=9999")
        legend = page.locator(".scores .chart-legend li").all_inner_texts()
        page.locator(".scores").screenshot(path=str(artifacts / f"totals-chart-{size}.png"))
        for name in BOTS:  # whole, so the two bots are told apart
            assert sum(entry.startswith(f"{name}: ") for entry in legend) == 1, legend
        texts = page.evaluate(TEXTS, "svg.chart")
        assert all(t["inside"] for t in texts), [t for t in texts if not t["inside"]]
        assert "\u2026" not in " ".join(t["text"] for t in texts)
        context.close()


def test_the_totals_charts_words_are_readable_on_a_phone(live_server, chromium, stored, artifacts):
    """At 390 px the totals chart's numbers, its axis and its threshold were about 6 px
    high (a 640-wide drawing shrunk to the phone): at least 10 px, nothing cut."""
    for ruleset in ("pablo", "skipbo"):
        game, _ = stored(ruleset, 3, seed=3, names=BOTS)
        context = chromium.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"{live_server.url}/replays/{game.id}/?step=9999")
        page.locator(".scores").screenshot(path=str(artifacts / f"totals-{ruleset}-390.png"))
        texts = page.evaluate(TEXTS, "svg.chart")
        assert texts and all(t["inside"] and t["px"] >= 10 for t in texts), texts
        context.close()


def test_the_analysis_chart_reads_and_its_progress_moves(live_server, chromium, stored, artifacts):
    game, _ = stored("cabo", 3, seed=4, names=BOTS)
    row = GameAnalysis.objects.create(
        game=game, analyser=ANALYSER, status=GameAnalysis.Status.RUNNING, progress=0.03
    )
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/replays/{game.id}/?step=0&as=1")  # seen by basic bot 2
        assert "3 %" in page.inner_text(".analysis")
        row.progress = 0.5
        row.save()
        page.locator(".analysis", has_text="50 %").wait_for(timeout=10_000)  # no reload
        decisions = [
            {"step": 10_000 + i, "seat": i % 3, "estimate": 20 - i * 0.5, "mark": None}
            for i in range(30)
        ]
        replay = build_replay(str(game.id), game.version, game_events(game))
        marked = next(s for s in replay.steps if s.main is not None and s.number > 2)
        decisions[5].update(step=marked.main + 1, mark="mistake")
        players = [
            {"seat": s, "loss": 1.0, "inaccuracy": 0, "mistake": 0, "blunder": 0, "decisions": 10}
            for s in range(3)
        ]
        row.status, row.progress = GameAnalysis.Status.DONE, 1.0
        row.result = {"analyser": ANALYSER, "decisions": decisions, "players": players}
        row.save()
        page.locator(".analysis svg.analysis-chart").wait_for(timeout=10_000)
        page.locator(".analysis").screenshot(path=str(artifacts / "analysis-chart-390.png"))
        legend = page.locator(".analysis .chart-legend li").all_inner_texts()
        assert legend == BOTS, legend
        caption = page.inner_text(".analysis .chart-caption")
        assert "expected round points" in caption and "lower is better" in caption, caption
        chart = page.locator("svg.analysis-chart")
        assert chart.get_attribute("preserveAspectRatio") in (None, "xMidYMid meet")
        texts = page.evaluate(TEXTS, "svg.analysis-chart")
        assert texts and all(t["inside"] and t["px"] >= 10 for t in texts), texts
        assert not any(":" in t["text"] for t in texts), texts  # no "points: 26" left
        # a marked decision's link keeps "Seen by" (issue 28: a copied link lost it)
        href = page.locator(".analysis-marks a").first.get_attribute("href")
        assert href == f"?step={marked.number}&as=1", href
    finally:
        context.close()
