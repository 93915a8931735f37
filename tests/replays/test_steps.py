"""The replay and its cache (replays/steps.py), checked against a plain fold of the
events (rules.fold) and the rulesets' own views."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache

from games import rules
from games.models import Event as EventRow
from games.rules import Event
from games.selectors.games import game_events
from replays import steps as selectors
from replays.steps import CHECKPOINT, build_replay, game_replay
from tabletop import describe as words
from tabletop.layouts import kind_of
from tests.factories import UserFactory
from tests.replays.games import engine_game

RULESETS = ["pablo", "pablo-50", "tamalou", "cabo", "skipbo"]
OPTIONS = {"skipbo": {"stock_size": 5}}


def _game(ruleset: str, **kwargs):
    """A finished game of 3 players, long enough to use two checkpoints at least."""
    for seed in range(5, 40):
        t = engine_game(ruleset, 3, seed=seed, options=OPTIONS.get(ruleset, {}), **kwargs)
        if len(t.events) > CHECKPOINT + 1:
            return t
    raise AssertionError(f"no {ruleset} game of {CHECKPOINT + 2} events")


# --------------------------------------------------------------------------- no database


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_state_after_every_event_is_the_fold_of_the_events(ruleset):
    t = _game(ruleset)
    replay = build_replay("g", len(t.events), t.events)
    state = rules.fold(t.events[:1])
    for index, event in enumerate(t.events):
        if index:
            rules.apply(state, event)
        assert replay.state_after(index) == state, index
    assert replay.events_between(0, len(t.events)) == t.events


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_a_stream_ending_at_a_checkpoint_boundary(extra):
    # 2 * CHECKPOINT events exactly (and one less, one more): with 2 * CHECKPOINT the
    # last checkpoint is the state after the very last event.
    events = _game("cabo").events[: 2 * CHECKPOINT + extra]
    replay = build_replay("g", len(events), events)
    assert len(replay.checkpoints) == len(events) // CHECKPOINT + 1
    assert replay.state_after(len(events) - 1) == rules.fold(events)
    for index in range(CHECKPOINT - 2, CHECKPOINT + 2):
        assert replay.state_after(index) == rules.fold(events[: index + 1]), index


def test_a_state_drawn_is_a_private_copy():
    # drawing a step applies events to a copy: the checkpoints stay as they were
    t = _game("pablo")
    replay = build_replay("g", len(t.events), t.events)
    for index in (0, CHECKPOINT - 1, CHECKPOINT + 5, len(t.events) - 1):
        replay.state_after(index).scores.append(99)
        assert replay.state_after(index) == rules.fold(t.events[: index + 1]), index


@pytest.mark.parametrize("ruleset", RULESETS)
def test_own_step_agrees_with_the_words(ruleset):
    # build_replay numbers the steps with own_step, without describing each event
    events = _game(ruleset, timeouts=1).events
    kind = kind_of(ruleset)
    merged = set()
    for event in events:
        said = words.describe(event, event.data, ["ann", "ben", "cara"], kind, ruleset=ruleset)
        merges = event.type in words.MERGE_BACK or rules.get_ruleset(ruleset).merges_back(event)
        expected = not merges and said != []
        assert words.own_step(event, ruleset) == expected, (event.type, event.data)
        if not expected:
            merged.add(event.type)
    assert {"deadline_set", "turn_started"} <= merged
    if ruleset == "skipbo":
        assert "turn_ended" in merged  # a turn ending with its discard


def test_skipbo_chart_points_are_the_stock_counts_of_the_view():
    t = _game("skipbo")
    replay = build_replay("g", len(t.events), t.events)
    start = selectors._start_index(t.events)  # step 0: the stock piles dealt
    expected = []
    state = rules.fold(t.events[:1])
    for index, event in enumerate(t.events[1:], start=1):
        rules.apply(state, event)
        if index < start:
            continue
        stock = rules.view(state, None)["stock"]
        counts = tuple(stock[str(s)]["count"] for s in range(3))
        if index == start or event.type == "deadline_set":
            expected.append(counts)
        elif event.type == "game_finished" and counts != expected[-1]:
            expected.append(counts)  # the end: the winner's stock is empty (issue 19)
    assert replay.totals_by_round == expected
    assert expected[0] == (5, 5, 5)  # stock_size 5
    winners = state.result["winners"]
    assert winners and all(replay.totals_by_round[-1][w] == 0 for w in winners)


# --------------------------------------------------------------------------- database

db = pytest.mark.django_db


@db
def test_load_events_gives_the_stored_stream(stored):
    game, t = stored("skipbo", 2, options={"stock_size": 5})
    rows = EventRow.objects.filter(game=game).order_by("seq").values_list("type", "data", "seat")
    loaded = game_events(game)
    assert loaded == [Event(kind, data, seat) for kind, data, seat in rows]
    assert len(loaded) == len(t.events)


@db
def test_another_worker_takes_the_replay_from_the_shared_cache(stored, django_assert_num_queries):
    game, _ = stored("cabo", 3)
    first = game_replay(game)
    said = first.sentences(1, 0, first.last)
    with django_assert_num_queries(0):  # no events loaded, nothing folded
        second = game_replay(game)
    assert second is not first  # unpickled from the cache, as in another worker process
    assert second.steps == first.steps
    assert second.checkpoints == first.checkpoints
    assert second.sentences(1, 0, second.last) == said
    for index in (0, CHECKPOINT + 3, first.steps[-1].event_index):
        assert second.state_after(index) == first.state_after(index)


@db
def test_an_unreadable_shared_entry_is_a_miss(stored, django_assert_num_queries):
    game, _ = stored("pablo", 2)
    key = f"replay:{game.id}:{game.version}:{selectors.code_version()}"
    cache.set(key, b"not a replay")
    replay = game_replay(game)
    assert replay.last > 0
    with django_assert_num_queries(0):  # the rebuilt replay replaced the entry
        assert game_replay(game).steps == replay.steps


@db
def test_the_viewer_works_without_a_cache(client, stored, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    game, _ = stored("tamalou", 2)
    assert client.get(f"/replays/{game.id}/?step=3&as=1").status_code == 200
    assert client.get(f"/replays/{game.id}/?step=4").status_code == 200


def test_a_game_that_ends_has_its_replay_built_at_once(
    db, followers_inline, django_capture_on_commit_callbacks
):
    """The end of a game has its replay built (the log's ``replays`` follower), so the
    replay's first page is served from the cache, not folded on the request."""
    from unittest import mock

    from games.services import games as game_services
    from replays import steps as replay_selectors

    users = [UserFactory(username=n, password="pw") for n in "ab"]
    # Skip-Bo, stock 5: seat 0's stock is 1..5 (top first) and wins by playing it out.
    deck = ["1", "2", "3", "4", "5", "9", "9", "9", "9", "9", "7", "7", "7", "7", "7"]
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.game_create(
            user=users[0],
            ruleset="skipbo",
            seats=2,
            turn_timeout=86400,
            options={"start_seat": 0, "stock_size": 5},
            decks=[deck],
        )
        game_services.game_join(game_id=game.id, user=users[1])
    built = []
    real = replay_selectors.build_replay

    def spy(*args, **kwargs):
        built.append(args[0])
        return real(*args, **kwargs)

    with mock.patch.object(replay_selectors, "build_replay", spy):
        for _ in range(5):
            with django_capture_on_commit_callbacks(execute=True):
                game_services.game_act(
                    game_id=game.id,
                    user=users[0],
                    command={"type": "play", "from": "stock", "pile": 0},
                )
        game.refresh_from_db()
        assert game.status == "finished"
        assert built == [str(game.id)]  # built once, when the game ended
        replay_selectors.game_replay(game)
        assert built == [str(game.id)]  # the first page is served from the cache


def test_a_seat_sees_what_it_knew_even_in_a_game_that_hid_it_on_screen():
    """``memory: strict`` hides shown cards on the players' screens; the replay through a
    seat's eyes shows what that seat knew (the rules' ``view`` with ``memory="assisted"``),
    the same as in the same game played with ``memory: assisted``."""
    strict = engine_game("pablo", 3, seed=7, options={"memory": "strict"})
    assisted = engine_game("pablo", 3, seed=7, options={"memory": "assisted"})
    assert [e.type for e in strict.events] == [e.type for e in assisted.events]
    shown = build_replay("s", len(strict.events), strict.events)
    same = build_replay("a", len(assisted.events), assisted.events)
    hidden_on_screen = 0
    for step in shown.steps:
        for seat in range(3):
            table, _, _ = selectors.table_views(shown, step, seat)
            expected, _, _ = selectors.table_views(same, step, seat)
            assert (table.get("fields"), table.get("held")) == (
                expected.get("fields"),
                expected.get("held"),
            ), (step.number, seat)
            screen = rules.view(shown.state_at(step), seat) or {}
            hidden_on_screen += screen.get("fields") != table.get("fields")
    assert hidden_on_screen  # the test would see a replay that showed the screen


def test_the_charts_end_labels_are_values_and_the_legend_names_whole():
    from replays.chart import Chart, Series, legend

    svg = str(Chart([Series("basic bot 3", [0, 4, 104], "#000")]).svg())
    assert 'class="end-label" x="322" y="' in svg and 'fill="#000">104</text>' in svg
    assert "basic bot" not in re.sub(r"<title>.*?</title>", "", svg)  # only in tooltips
    html = str(legend([("basic bot 3", "#000", 104), ("basic bot 4", "#111", 7)]))
    assert "basic bot 3: 104</li>" in html and "basic bot 4: 7</li>" in html


def test_the_charts_lines_are_told_apart_without_their_colour():
    """Issue 29 "nothing told by colour alone": each player's line in the totals and the
    analysis charts has its own dash pattern, and its legend entry shows the same one
    (the lines and the legend's swatches differed only by colour)."""
    from replays import analysis_chart
    from replays.chart import PALETTE, Chart, Series, legend

    def dashes(markup, tag):
        found = re.findall(rf"<{tag}\b[^>]*>", markup)
        return [(re.search(r'stroke-dasharray="([^"]*)"', t) or [None, "solid"])[1] for t in found]

    names = ["ann", "ben", "cara", "dan"]
    series = [Series(n, [0, s, 2 * s], PALETTE[s]) for s, n in enumerate(names)]
    lines = dashes(str(Chart(series).svg()), "polyline")
    assert len(set(lines)) == 4, lines
    swatches = dashes(str(legend([(s.name, s.colour, 1) for s in series])), "line")
    assert swatches == lines, (swatches, lines)
    decisions = [{"seat": i % 4, "estimate": i, "mark": None} for i in range(12)]
    drawn = dashes(str(analysis_chart.svg(decisions, names, chance=False)), "polyline")
    assert drawn == lines, drawn
    assert dashes(str(analysis_chart.legend(decisions, names)), "line") == lines
