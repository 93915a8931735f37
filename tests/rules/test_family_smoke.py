"""End-to-end games of the Pablo family through the pure engine (tests/rules/table.py).

Whole games per ruleset, the timeout table of RULES.md §8 (deadline_set on each
new turn, turn_timed_out + the auto action, player_absent after max_timeouts,
player_returned, game_aborted when all are absent), and the draw pile running
out (reshuffle; nothing to reshuffle -> the round ends as if nobody called).
The stacked-deck rule scenarios themselves live in test_pablo*.py, test_tamalou.py
and test_cabo.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import rules
from tests.rules.helpers import status_of
from tests.rules.table import Table

JSON = dict[str, Any]
FAMILY = ("pablo", "pablo-50", "tamalou", "cabo")


def deal(fields: list[list[str]], top: str, draws: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    return [c for f in fields for c in f] + [top, *draws]


def look_all(t: Table) -> None:
    if t.view(None)["phase"] == "setup":
        for seat in range(t.state.seats):
            t.act(seat, {"type": "look", "positions": [0, 1]})


def bot_turn(t: Table, *, call_after: int | None = None) -> None:
    """The player on turn draws from the deck, discards and skips any power."""
    v = t.view(None)
    seat = v["turn"]["seat"]
    kinds = {a["type"] for a in t.view(seat)["legal_actions"]}
    if t.state.ruleset == "cabo" and seat == call_after and "call" in kinds:
        t.act(seat, {"type": "call"})
        return
    t.act(seat, {"type": "draw", "source": "deck"})
    if t.view(None)["turn"]["seat"] != seat or t.view(None)["round"] != v["round"]:
        return  # the round ended on an exhausted pile
    t.act(seat, {"type": "discard"})
    if t.view(seat)["turn"]["stage"] == "power" and t.view(None)["turn"]["seat"] == seat:
        legal = t.view(seat)["legal_actions"]
        if {"type": "skip"} in legal:
            t.act(seat, {"type": "skip"})
        else:  # a mandatory swap: first choice
            a = next(x for x in legal if x["type"] == "swap")
            t.act(
                seat,
                {
                    "type": "swap",
                    "seat": a["seat"],
                    "position": a["choices"]["position"][0],
                    "their_position": a["choices"]["their_position"][0],
                },
            )
    if seat == call_after and {"type": "call"} in t.view(seat)["legal_actions"]:
        t.act(seat, {"type": "call"})


def play_to_the_end(t: Table, caller: int = 0, max_turns: int = 2000) -> None:
    for _ in range(max_turns):
        if t.state.status != "active":
            return
        look_all(t)
        bot_turn(t, call_after=caller)
    raise AssertionError("the game did not end")


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("ruleset", FAMILY)
@pytest.mark.parametrize("seats", [2, 3, 5])
def test_whole_game_ends_with_lowest_totals_winning(ruleset: str, seats: int) -> None:
    t = Table(ruleset, seats=seats, options={"start_seat": 1}, seed=seats)
    play_to_the_end(t, caller=seats - 1)
    assert t.state.status == "finished"
    v = t.view(None)
    assert v["phase"] == "over" and v["legal_actions"] == [] and v["result"] == t.state.result
    totals = t.state.scores
    # every round's scores were added (resets aside) and each round has an entry
    assert [r["round"] for r in v["rounds"]] == list(range(1, len(v["rounds"]) + 1))
    assert t.types().count("round_ended") == len(v["rounds"])
    assert t.types().count("round_started") == len(v["rounds"])
    result = t.state.result
    assert result is not None
    if ruleset == "pablo":
        losers = [s for s, x in enumerate(totals) if x >= 100]
        assert result["losers"] == losers
        rest = [s for s in range(seats) if s not in losers]
        low = min(totals[s] for s in rest) if rest else None
        assert result["winners"] == [s for s in rest if totals[s] == low]
    else:
        assert result["losers"] == []
        assert result["winners"] == [s for s, x in enumerate(totals) if x == min(totals)]
        limit = {"pablo-50": 50, "tamalou": 99, "cabo": 100}[ruleset]
        assert max(totals) > limit
    # at game end every card is face up, for everyone
    for viewer in [*range(seats), None]:
        for slots in t.view(viewer)["fields"].values():
            assert "?" not in slots


def test_every_new_turn_sets_a_deadline_and_setup_sets_one_for_all() -> None:
    t = Table("pablo", seats=3, options={"start_seat": 2}, turn_timeout=60)
    first = [e for e in t.events if e.type == "deadline_set"]
    assert [e.data["key"] for e in first] == ["r1:setup"]
    assert first[0].data["seats"] == [0, 1, 2]
    assert first[0].data["deadline"] == "2026-01-01T00:01:00.000Z"
    look_all(t)
    assert t.events[-1].type == "deadline_set" and t.events[-1].data["key"] == "r1:t1"
    assert t.events[-1].data["seats"] == [2]
    t.act(2, {"type": "draw", "source": "deck"})
    assert "deadline_set" not in t.types(t.events[-1:])  # a stage, not a new turn
    t.act(2, {"type": "discard"})
    if t.view(2)["turn"]["seat"] == 2:  # a power: skip it
        t.act(2, {"type": "skip"})
    keys = [e.data["key"] for e in t.events if e.type == "deadline_set"]
    assert keys == ["r1:setup", "r1:t1", "r1:t2"]
    assert t.view(0)["turn"] == {"seat": 0, "stage": "draw", "deadline": t.state.deadline}


# --------------------------------------------------------------------------- timeouts

F0 = ["5H", "KH", "3S", "QS"]
F1 = ["2C", "8D", "4S", "6D"]


def test_setup_timeout_looks_at_slots_0_and_1_for_whoever_has_not_looked() -> None:
    t = Table("cabo", seats=3, options={"start_seat": 0}, decks=[[str(v) for v in range(13)]])
    t.act(1, {"type": "look", "positions": [2, 3]})
    events = t.timeout()
    assert t.types(events)[:4] == ["turn_timed_out", "looked", "turn_timed_out", "looked"]
    assert [e.seat for e in events if e.type == "turn_timed_out"] == [0, 2]
    assert events[1].data["positions"] == [0, 1]
    assert t.view(0)["fields"]["0"] == ["0", "1", "?", "?"]
    assert t.view(2)["fields"]["2"] == ["8", "9", "?", "?"]
    assert t.view(None)["phase"] == "turn"
    assert t.view(None)["turn"]["seat"] == 0


def test_turn_timeouts_draw_and_discard_without_power_then_discard_held() -> None:
    deck = deal([F0, F1], "10C", ["7C", "JD", "9H"])
    t = Table("pablo", seats=2, options={"start_seat": 0}, decks=[deck])
    look_all(t)
    events = t.timeout()  # seat 0, nothing drawn: draw 7C and discard it, no peek
    assert t.types(events)[:4] == ["turn_timed_out", "drawn", "discarded", "turn_started"]
    assert events[2].data["power"] is None
    assert t.view(None)["discard"]["top"] == "7C"
    assert t.view(None)["turn"] == {"seat": 1, "stage": "draw", "deadline": t.state.deadline}
    t.act(1, {"type": "draw", "source": "deck"})  # JD
    events = t.timeout()  # holding: discard it
    assert t.types(events)[:3] == ["turn_timed_out", "discarded", "turn_started"]
    assert t.view(None)["discard"]["top"] == "JD"
    assert t.state.timeouts == [1, 1]


def test_power_timeouts_skip_an_optional_power_and_auto_swap_a_mandatory_one() -> None:
    deck = deal([F0, F1, ["AS", "2S", "9C", "10H"]], "10C", ["8C", "9D"])
    t = Table("pablo", seats=3, options={"start_seat": 0}, decks=[deck])
    look_all(t)
    t.act(0, {"type": "draw", "source": "deck"})  # 8C: spy, optional
    t.act(0, {"type": "discard"})
    assert t.view(0)["power"] == {"kind": "spy", "optional": True}
    events = t.timeout()
    assert t.types(events)[:3] == ["turn_timed_out", "power_skipped", "turn_started"]
    # seat 1 throws nothing, draws 9D (swap, mandatory) and lets the deadline pass
    t.act(1, {"type": "draw", "source": "deck"})
    t.act(1, {"type": "discard"})
    assert t.view(1)["power"] == {"kind": "swap", "optional": False}
    events = t.timeout()
    swap = events[1]
    assert swap.type == "swapped"
    # own lowest slot (0: 2C) <-> the first seat after seat 1 (seat 2), its lowest slot (0: AS)
    assert (swap.data["position"], swap.data["seat"], swap.data["their_position"]) == (0, 2, 0)
    assert t.view(1)["fields"]["1"][0] == "?"  # blind
    assert t.state.fields[1][0] == 8 and t.state.fields[2][0] == 4  # type: ignore[attr-defined]


def test_auto_swap_passes_over_a_protected_caller_in_pablo50() -> None:
    deck = deal([F0, F1, ["AS", "2S", "9C", "10H"]], "10C", ["3C", "4C", "QD"])
    t = Table("pablo-50", seats=3, options={"start_seat": 1}, decks=[deck])
    look_all(t)
    t.act(1, {"type": "draw", "source": "deck"})
    t.act(1, {"type": "discard"})
    t.act(1, {"type": "call"})  # seat 1 called: protected
    t.act(2, {"type": "draw", "source": "deck"})
    t.act(2, {"type": "discard"})
    t.act(0, {"type": "draw", "source": "deck"})  # QD: swap, mandatory
    t.act(0, {"type": "discard"})
    legal = t.view(0)["legal_actions"]
    assert {a["seat"] for a in legal if a["type"] == "swap"} == {2}
    events = t.timeout()
    swap = next(e for e in events if e.type == "swapped")
    assert (swap.data["seat"], swap.data["their_position"]) == (2, 0)
    assert t.view(None)["round"] == 2  # the turn would return to the caller
    assert t.view(None)["phase"] == "setup"


def test_absent_after_max_timeouts_then_played_at_once_and_returned_on_acting() -> None:
    t = Table("tamalou", seats=3, options={"start_seat": 0, "max_timeouts": 2}, seed=4)
    for _ in range(3):  # seat 0, 1, 2 time out once each
        t.timeout()
    assert t.state.timeouts == [1, 1, 1]
    t.act(0, {"type": "draw", "source": "deck"})  # seat 0 acts: returned, counter cleared
    assert t.types()[-2:] == ["player_returned", "drawn"]
    assert t.state.timeouts[0] == 0
    t.act(0, {"type": "discard"})
    if t.view(0)["turn"]["seat"] == 0:
        t.act(0, {"type": "skip"})
    events = t.timeout()  # seat 1's second timeout: absent
    assert "player_absent" in t.types(events)
    assert t.state.absent == [False, True, False]
    assert next(e for e in events if e.type == "player_absent").seat == 1
    # seat 2 and seat 0 play; seat 1's turn is then played at once, seat 2 is on turn
    for seat in (2, 0):
        t.act(seat, {"type": "draw", "source": "deck"})
        events = t.act(seat, {"type": "discard"})
        if t.view(seat)["turn"]["seat"] == seat:
            events = t.act(seat, {"type": "skip"})
    assert [e.seat for e in events if e.type == "turn_timed_out"] == [1]
    assert t.types(events)[-3:] == ["discarded", "turn_started", "deadline_set"]
    assert t.view(None)["turn"]["seat"] == 2
    # the absent player comes back by acting: a call right after their (auto) turn
    assert {"type": "call"} in t.view(1)["legal_actions"]
    t.act(1, {"type": "call"})
    assert t.types()[-2:] == ["player_returned", "called"]
    assert t.state.absent == [False, False, False]


@pytest.mark.parametrize("ruleset", FAMILY)
def test_a_game_where_everyone_is_absent_is_aborted(ruleset: str) -> None:
    t = Table(ruleset, seats=2, options={"start_seat": 0, "max_timeouts": 1}, seed=1)
    for _ in range(4):
        if t.state.status != "active":
            break
        t.timeout()
    assert t.state.status == "aborted"
    assert t.types()[-1] == "game_aborted"
    assert t.view(None)["result"] == {"winners": [], "losers": []}
    assert t.view(0)["legal_actions"] == []


def test_stale_timeout_key_stores_nothing() -> None:
    t = Table("pablo-50", seats=2, options={"start_seat": 0})
    key = t.state.turn_key
    look_all(t)
    assert key is not None
    assert rules.timeout(t.state, key, t.ctx) == []


# --------------------------------------------------------------------------- draw pile


def test_exhausted_draw_pile_is_reshuffled_and_everybody_forgets_those_cards() -> None:
    t = Table("pablo", seats=2, options={"start_seat": 0}, seed=3)
    look_all(t)
    while t.view(None)["deck"]["count"] > 0:
        bot_turn(t)
    pile = t.view(None)["discard"]
    seat = t.view(None)["turn"]["seat"]
    events = t.act(seat, {"type": "draw", "source": "deck"})
    assert t.types(events)[:2] == ["reshuffled", "drawn"]
    order = events[0].data["order"]
    assert len(order) == pile["count"] - 1
    assert t.view(None)["discard"]["count"] == 1 and t.view(None)["discard"]["top"] == pile["top"]
    assert t.view(None)["discard"]["serial"] == pile["serial"]  # never goes down
    assert t.view(None)["deck"]["count"] == len(order) - 1
    # the new order is never shown; the drawn card only to its drawer
    assert t.event_views(1 - seat)[-2] == {"count": len(order)}
    assert "code" not in t.event_views(1 - seat)[-1]
    # a card that was face up is unknown again once it is back in a field
    t.act(seat, {"type": "replace", "positions": [3]})
    assert t.view(1 - seat)["fields"][str(seat)][3] == "?"
    assert t.view(seat)["fields"][str(seat)][3] != "?"


def test_nothing_left_to_draw_ends_the_round_as_if_nobody_called() -> None:
    # tamalou, 3 players, slots 0 and 1 of every field differ in rank, so every
    # "pair" [0, 1] is wrong: the held card joins the field and the pile never grows.
    fields = [["2S", "3S", "4S", "5S"], ["2H", "3H", "4H", "5H"], ["2D", "3D", "4D", "5D"]]
    t = Table("tamalou", seats=3, options={"start_seat": 0}, decks=[deal(fields, "6C")])
    called = None
    while t.view(None)["round"] == 1:
        seat = t.view(None)["turn"]["seat"]
        events = t.act(seat, {"type": "draw", "source": "deck"})
        if "round_ended" in t.types(events):
            break
        t.act(seat, {"type": "replace", "positions": [0, 1]})
        if called is None and t.view(None)["deck"]["count"] == 1:
            t.act(seat, {"type": "call"})
            called = seat
    ended = next(e for e in t.events if e.type == "round_ended")
    assert ended.data["reason"] == "exhausted"
    assert called is not None
    # scored as if nobody had called: everyone scores their total (no -5 / +10)
    assert ended.data["scores"] == ended.data["totals"]
    assert t.view(None)["rounds"][0]["scores"] == ended.data["totals"]


# --------------------------------------------------------------------------- registry


def test_the_four_rulesets_are_registered_with_their_options() -> None:
    found = {r.id: r for r in rules.rulesets()}
    names = {i: found[i].name for i in FAMILY}
    assert names == {
        "pablo": "Pablo",
        "pablo-50": "Pablo (50)",
        "tamalou": "Tamalou",
        "cabo": "Cabo",
    }
    assert set(found["pablo"].options) == {"jokers", "forty_two", "minus_sixty_nine"}
    assert set(found["pablo-50"].options) == {"advanced"}
    assert set(found["tamalou"].options) == {"decks"}
    assert found["cabo"].options == {}
    assert [found[i].max_players_any for i in FAMILY] == [8, 8, 12, 8]
    assert len(found["pablo"].deck({"jokers": 2})) == 54
    assert len(found["tamalou"].deck({"decks": 2})) == 104


def test_tamalou_seats_beyond_the_decks_are_refused_naming_decks() -> None:
    with pytest.raises(rules.Malformed) as caught:
        rules.create("tamalou", seats=7, options={}, turn_timeout=60, creator="a")
    assert status_of(caught.value) == 400 and "options.decks" in caught.value.detail
    assert rules.create("tamalou", seats=12, options={"decks": 2}, turn_timeout=60, creator="a")
    with pytest.raises(rules.Malformed) as caught:
        rules.create("pablo", seats=2, options={"jokers": 3}, turn_timeout=60, creator="a")
    assert "options.jokers" in caught.value.detail
