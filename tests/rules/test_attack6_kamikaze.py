"""attack6: ``reveal.kamikaze`` with stacked cabo decks (what held)."""

from __future__ import annotations

from games import rules
from tests.rules.helpers import call, deal, discard, draw, look_all, replace, table


def replaced_first(second: list[str], drawn: str) -> dict:
    """Seat 0 (0 1 1 2) calls; seat 1 (``second``) replaces its first card with the
    ``drawn`` one, which ends the round: the reveal, as a non-player sees it."""
    t = table("cabo", [["0", "1", "1", "2"], second], "3", [drawn, "6"])
    look_all(t)
    call(t, 0)
    draw(t, 1)
    replace(t, 1, 0)
    return t.view(None)["reveal"]


def test_a_field_that_held_a_kamikaze_earlier_but_changed_is_none():
    # seat 1 starts with 12 13 12 13, then swaps its first card for a drawn 6
    r = replaced_first(["12", "13", "12", "13"], "6")
    assert "kamikaze" not in r
    assert r["totals"] == {"0": 4, "1": 44}
    assert r["calls"] == [{"seat": 0, "succeeded": True}]


def test_a_field_that_becomes_a_kamikaze_during_the_round_is_named():
    # seat 1 starts with 6 13 12 13 and swaps the 6 for a drawn 12
    r = replaced_first(["6", "13", "12", "13"], "12")
    assert r["kamikaze"] == 1 and r["scores"] == {"0": 50, "1": 0}


def test_three_players_the_last_seat_and_the_views_of_everyone():
    fields = [["0", "1", "1", "2"], ["5", "5", "5", "5"], ["13", "12", "13", "12"]]
    t = table("cabo", fields, "3", ["6", "6", "6"])
    look_all(t)
    call(t, 0)
    for seat in (1, 2):
        draw(t, seat)
        discard(t, seat)
    views = [t.view(v)["reveal"] for v in (0, 1, 2, None)]
    assert all(v == views[0] for v in views)
    assert views[0]["kamikaze"] == 2
    assert views[0]["scores"] == {"0": 50, "1": 50, "2": 0}


def test_the_kamikaze_seat_is_the_caller():
    t = table("cabo", [["12", "12", "13", "13"], ["0", "0", "1", "1"]], "3", ["6", "6"])
    look_all(t)
    call(t, 0)
    draw(t, 1)
    discard(t, 1)
    r = t.view(1)["reveal"]
    assert r["kamikaze"] == 0
    assert r["calls"] == [{"seat": 0, "succeeded": True}]
    assert r["scores"] == {"0": 0, "1": 50}


def test_the_final_round_keeps_the_kamikaze_in_the_finished_view():
    # round 1: seat 0 calls with 13 13 12 11 = 49 against 0 0 1 1: fails, 54;
    # round 2 (seat 1 starts, the winner): seat 1 holds a kamikaze and calls: 54 + 50 > 100
    r1 = [["13", "13", "12", "11"], ["0", "0", "1", "1"]]
    r2 = [["0", "1", "1", "2"], ["12", "13", "12", "13"]]
    t = table("cabo", r1, "3", ["6", "6"], later=[deal(r2, "3", ["6", "6"])])
    look_all(t)
    call(t, 0)
    draw(t, 1)
    discard(t, 1)
    assert t.view(None)["reveal"]["game_totals"] == {"0": 54, "1": 0}
    look_all(t)
    call(t, 1)
    draw(t, 0)
    discard(t, 0)
    assert t.state.status == "finished", t.state.status
    for viewer in (0, 1, None):
        r = t.view(viewer)["reveal"]
        assert r["kamikaze"] == 1 and r["round"] == 2
        assert r["calls"] == [{"seat": 1, "succeeded": True}]
        assert r["game_totals"] == {"0": 104, "1": 0}


def test_rules_module_loads():
    assert rules


def test_the_replay_step_and_strict_memory_carry_the_kamikaze():
    fields = [["0", "1", "1", "2"], ["12", "13", "12", "13"]]
    for options in ({}, {"memory": "strict"}):
        t = table("cabo", fields, "3", ["6", "6"], options=options)
        look_all(t)
        call(t, 0)
        draw(t, 1)
        discard(t, 1)
        index = next(i for i, e in enumerate(t.events) if e.type == "round_ended")
        at_end = rules.fold(t.events[: index + 1])
        for seat in (0, 1, None):
            assert rules.view(at_end, seat)["reveal"]["kamikaze"] == 1
            assert t.view(seat)["reveal"]["kamikaze"] == 1
        assert rules.view(rules.fold(t.events[:index]), 0)["reveal"] is None


def test_a_field_with_an_empty_slot_is_no_kamikaze():
    # seat 1: 12 13 6 6 swaps both 6s for a drawn 13: 12 13 13 and an empty slot
    t = table("cabo", [["0", "1", "1", "2"], ["12", "13", "6", "6"]], "3", ["13", "6"])
    look_all(t)
    call(t, 0)
    draw(t, 1)
    replace(t, 1, 2, 3)
    r = t.view(None)["reveal"]
    assert r["fields"]["1"][3] is None
    assert "kamikaze" not in r and r["totals"]["1"] == 38
