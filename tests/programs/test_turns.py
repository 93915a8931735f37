"""GET /api/me/turns/: the games where the caller may act now, soonest deadline first."""

from __future__ import annotations

from tests.api.conftest import SKIPBO_QUICK_OPTIONS, create


def started(first, second, *, start_seat: int, turn_timeout: int) -> str:
    options = {**SKIPBO_QUICK_OPTIONS, "start_seat": start_seat}
    game = create(first, ruleset="skipbo", seats=2, options=options, turn_timeout=turn_timeout)
    answer = second.post(f"/api/games/{game['id']}/join/", {}, format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "active"
    return game["id"]


def test_the_games_waiting_for_me_soonest_deadline_first(ann, bob, cid, anon):
    slow = started(ann, bob, start_seat=0, turn_timeout=86400)
    fast = started(ann, bob, start_seat=0, turn_timeout=3600)
    bobs = started(ann, bob, start_seat=1, turn_timeout=600)
    create(ann, ruleset="skipbo", seats=2)  # still waiting: no turn
    turns = ann.get("/api/me/turns/").json()
    assert [t["game"] for t in turns] == [fast, slow]
    for turn in turns:
        game = ann.game(turn["game"])
        assert turn == {
            "game": game["id"],
            "ruleset": "skipbo",
            "deadline": game["state"]["turn"]["deadline"],
            "version": game["version"],
        }
    assert [t["game"] for t in bob.get("/api/me/turns/").json()] == [bobs]
    assert cid.get("/api/me/turns/").json() == []
    assert anon.get("/api/me/turns/").status_code == 401
