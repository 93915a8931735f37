"""The round's end is a step of the replay, and its frame shows every card (issue 19)."""

from __future__ import annotations

from replays.steps import build_replay, table_views
from tests.rules.helpers import call, discard, draw, look_all, table


def test_the_round_end_step_shows_every_card_to_every_seat():
    # cabo: seat 0 holds 1 2 3 4 (10) and calls; seat 1 holds 5 6 5 6 (22)
    t = table("cabo", [["1", "2", "3", "4"], ["5", "6", "5", "6"]], "0", ["6", "6"])
    look_all(t, (0, 1))
    call(t, 0)
    draw(t, 1)
    discard(t, 1)  # the round ends; round 2 is dealt at once
    replay = build_replay("game", len(t.events), list(t.events))
    end = next(s for s in replay.steps if t.events[s.main or 0].type == "round_ended")
    for seat in (0, 1):
        frame, _, totals = table_views(replay, end, seat)
        assert frame["fields"] == {"0": ["1", "2", "3", "4"], "1": ["5", "6", "5", "6"]}
        assert frame["reveal"]["scores"] == {"0": 0, "1": 22} and totals == [0, 22]
    # the step before it: seat 1 did not know seat 0's last two cards
    before = replay.steps[end.number - 1]
    assert table_views(replay, before, 1)[0]["fields"]["0"][2:] == ["?", "?"]
    # and the next step is the new round's deal
    assert t.events[replay.steps[end.number + 1].main].type == "round_started"
