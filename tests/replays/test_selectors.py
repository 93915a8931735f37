"""The replay's compact form and its caches (replays/selectors.py), checked against a plain
fold of the events (engine.fold) and the rulesets' own views."""

from __future__ import annotations

import gc
import pickle

import pytest
from django.core.cache import caches

from games.models import Event as EventRow
from games.rules import engine
from games.rules.engine import Event
from replays import describe as words
from replays import selectors
from replays.cards import kind_of
from replays.selectors import CHECKPOINT, Step, Steps, build_replay, game_replay, load_events
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
    state = engine.fold(t.events[:1])
    for index, event in enumerate(t.events):
        if index:
            engine.apply(state, event)
        assert replay.state_after(index) == state, index
    assert replay.events(0, len(t.events)) == t.events


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_a_stream_ending_at_a_checkpoint_boundary(extra):
    # 2 * CHECKPOINT events exactly (and one less, one more): the last checkpoint is the
    # state after the very last event, and no segment follows it.
    events = _game("cabo").events[: 2 * CHECKPOINT + extra]
    replay = build_replay("g", len(events), events)
    assert len(replay.checkpoints) == len(events) // CHECKPOINT + 1
    assert len(replay.segments) == -(-len(events) // CHECKPOINT)
    assert replay.state_after(len(events) - 1) == engine.fold(events)
    assert replay.events(CHECKPOINT - 1, CHECKPOINT + 1) == events[CHECKPOINT - 1 : CHECKPOINT + 1]
    assert replay.events(5, 5) == []


def test_packed_steps_give_every_field_back():
    steps = [
        Step(0, 5, None, 6, None, 1, ("round",), 0, ("ann and ben sit down.",)),
        Step(1, 7, 6, 6, 1, 1, (), 0),
        Step(2, 9, 8, 8, None, 2, ("round", "call", "end"), 3),
        Step(3, 10, 10, 10, 0, 2, ("call",), 3),
    ]
    packed = Steps.of(steps)
    assert len(packed) == 4
    assert list(packed) == steps
    assert packed[-1] == steps[-1]
    assert packed[1:3] == steps[1:3]
    assert pickle.loads(pickle.dumps(packed, pickle.HIGHEST_PROTOCOL))[2] == steps[2]
    with pytest.raises(IndexError):
        packed[4]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_own_step_agrees_with_the_words(ruleset):
    # build_replay numbers the steps with own_step, without describing each event
    events = _game(ruleset, timeouts=1).events
    kind = kind_of(ruleset)
    merged = set()
    for event in events:
        said = words.describe(event, event.data, ["ann", "ben", "cara"], kind, ruleset=ruleset)
        expected = event.type not in words.MERGE_BACK and said != []
        assert words.own_step(event) == expected, (event.type, event.data)
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
    state = engine.fold(t.events[:1])
    for index, event in enumerate(t.events[1:], start=1):
        engine.apply(state, event)
        if index == start or (index > start and event.type == "deadline_set"):
            stock = engine.view(state, None)["stock"]
            expected.append(tuple(stock[str(s)]["count"] for s in range(3)))
    assert replay.totals_by_round == expected
    assert expected[0] == (5, 5, 5)  # stock_size 5


def test_a_built_replay_keeps_few_objects_for_the_garbage_collector():
    t = _game("skipbo")
    replay = build_replay("g", len(t.events), t.events)
    gc.collect()  # tuples of atoms stop being tracked at their first collection
    seen, todo, tracked = set(), [replay], 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or not gc.is_tracked(obj) or isinstance(obj, type):
            continue  # (not into classes: they lead to every module)
        seen.add(id(obj))
        tracked += 1
        todo.extend(gc.get_referents(obj))
    # one Step object per step (and its dict, its words) would be thousands
    assert len(replay.steps) > 100
    assert tracked < 60, tracked


# --------------------------------------------------------------------------- database

db = pytest.mark.django_db


@db
def test_load_events_gives_the_stored_stream(stored):
    game, t = stored("skipbo", 2, options={"stock_size": 5})
    rows = EventRow.objects.filter(game=game).order_by("seq").values_list("type", "data", "seat")
    loaded = load_events(game)
    assert loaded == [Event(kind, data, seat) for kind, data, seat in rows]
    assert len(loaded) == len(t.events)


@db
def test_another_worker_takes_the_replay_from_the_shared_cache(stored, django_assert_num_queries):
    game, _ = stored("cabo", 3)
    first = game_replay(game)
    said = first.sentences(1, 0, first.last)
    selectors._CACHE.clear()  # as in another worker process
    with django_assert_num_queries(0):  # no events loaded, nothing folded
        second = game_replay(game)
    assert second is not first
    assert list(second.steps) == list(first.steps)
    assert second.checkpoints == first.checkpoints
    assert second.said == {}  # words are made per process, on demand
    assert second.sentences(1, 0, second.last) == said


@db
def test_an_unreadable_shared_entry_is_a_miss(stored, django_assert_num_queries):
    game, _ = stored("pablo", 2)
    key = f"replay:{game.id}:{game.version}:{selectors.code_version()}"
    caches[selectors.SHARED_CACHE].set(key, b"not a replay")
    replay = game_replay(game)
    assert replay.last > 0
    selectors._CACHE.clear()
    with django_assert_num_queries(0):  # the rebuilt replay replaced the entry
        assert list(game_replay(game).steps) == list(replay.steps)


@db
def test_the_viewer_works_without_a_shared_cache(client, stored, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    game, _ = stored("tamalou", 2)
    assert client.get(f"/replays/{game.id}/?step=3&as=1").status_code == 200
    assert client.get(f"/replays/{game.id}/?step=4").status_code == 200


@db
def test_building_leaves_the_garbage_collector_as_it_was(stored):
    game, _ = stored("pablo", 2)
    assert gc.isenabled()
    game_replay(game)
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0  # no process-wide gc.freeze()
    selectors._CACHE.clear()
    caches[selectors.SHARED_CACHE].clear()
    gc.disable()
    try:
        game_replay(game)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_game_that_ends_has_its_replay_built_at_once(db, django_capture_on_commit_callbacks):
    """The action that finishes a game builds its replay (replays.signals), so the
    replay's first page is served from the cache, not folded on the request."""
    from unittest import mock

    from django.contrib.auth import get_user_model

    from games import services
    from replays import selectors as replay_selectors

    users = [get_user_model().objects.create_user(username=n, password="pw") for n in "ab"]
    # Skip-Bo, stock 5: seat 0's stock is 1..5 (top first) and wins by playing it out.
    deck = ["1", "2", "3", "4", "5", "9", "9", "9", "9", "9", "7", "7", "7", "7", "7"]
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_create(
            user=users[0],
            ruleset="skipbo",
            seats=2,
            turn_timeout=86400,
            options={"start_seat": 0, "stock_size": 5},
            decks=[deck],
        )
        services.game_join(game_id=game.id, user=users[1])
    built = []
    real = replay_selectors.build_replay

    def spy(*args, **kwargs):
        built.append(args[0])
        return real(*args, **kwargs)

    with mock.patch.object(replay_selectors, "build_replay", spy):
        for _ in range(5):
            with django_capture_on_commit_callbacks(execute=True):
                services.game_act(
                    game_id=game.id,
                    user=users[0],
                    command={"type": "play", "from": "stock", "pile": 0},
                )
        game.refresh_from_db()
        assert game.status == "finished"
        assert built == [str(game.id)]  # built once, by the action that ended the game
        replay_selectors.game_replay(game)
        assert built == [str(game.id)]  # the first page is served from the cache
