"""The rating model and which seats count (games/ratings/model.py): pure, no database."""

from __future__ import annotations

import random

import pytest

from games import rules
from games.bots.play import play_game
from games.chance import DeckChance
from games.ratings import model
from games.ratings.model import Finished, Player, Skill
from games.rules.events import places as places_of


def game(*seats: Player, rated: bool = True) -> Finished:
    return Finished(game="g", ruleset="cabo", rated=rated, position=1, seats=seats)


def person(name: str, place: int, turns: int = 10, stood_in: int = 0) -> Player:
    return Player(name, False, place, None, turns, stood_in)


def bot(name: str, place: int) -> Player:
    return Player(name, True, place, None, 10, 0)


def test_places_share_ties_and_skip():
    assert rules.events.places([5, 3, 5, 9]) == [2, 1, 2, 4]


def test_every_person_counts_in_their_place():
    assert model.counted(game(person("a", 2), person("b", 1), person("c", 2))) == {
        0: 2,
        1: 1,
        2: 2,
    }


def test_unrated_games_count_nobody():
    assert model.counted(game(person("a", 1), person("b", 2), rated=False)) == {}


def test_house_bots_are_left_out_and_one_person_is_no_rated_game():
    assert model.counted(game(person("a", 2), bot("basic bot 1", 1))) == {}
    # with two people, the bot's seat is dropped and the people keep their order
    assert model.counted(game(bot("x", 1), person("a", 3), person("b", 2))) == {1: 2, 2: 1}


def test_a_person_mostly_played_by_a_stand_in_is_placed_last():
    players = (person("a", 1, turns=10, stood_in=6), person("b", 2), person("c", 3, stood_in=5))
    # a won on the table but a stand-in played 6 of 10 turns; c's half is not "mostly"
    assert model.counted(game(*players)) == {0: 3, 1: 1, 2: 2}


def test_the_winner_goes_up_the_last_down_and_ties_stay_together():
    a, b, c = model.rate([Skill(), Skill(), Skill()], [1, 2, 2])
    assert a.mu > model.MU > b.mu and b.mu == pytest.approx(c.mu)
    assert all(s.sigma < model.SIGMA and s.games == 1 for s in (a, b, c))
    assert model.display(a.mu, a.sigma) > model.display(b.mu, b.sigma)


def test_a_newcomer_is_provisional_until_the_uncertainty_is_small():
    assert model.provisional(model.SIGMA)
    skills = [Skill(), Skill(), Skill()]
    for n in range(60):
        skills = model.rate(skills, [1 + (n + s) % 3 for s in range(3)])
    assert not model.provisional(skills[0].sigma) and skills[0].games == 60


def test_sigma_shrinks_as_the_evidence_says_so_a_long_record_moves_slowly():
    """``gamma`` 1 (docs/ratings.md): after 400 games sigma is near 1, so one game moves
    mu by less than a tenth; openskill's default gamma (sigma / c) left sigma at 1.6 and
    each game moving mu as much as the hundredth game before it."""
    skills = [Skill(), Skill(), Skill()]
    for n in range(400):
        skills = model.rate(skills, [1 + (n + s) % 3 for s in range(3)])
        if n + 1 == 40:
            assert not model.provisional(skills[0].sigma)  # 2.36 (openskill's: 3.91)
    assert skills[0].sigma < 1.1
    first = model.rate(skills, [1, 2, 3])[0]
    assert 0 < first.mu - skills[0].mu < 0.1


def test_the_provisional_threshold():
    assert model.provisional(3.01) and not model.provisional(3.0)


def test_win_probabilities_favour_the_stronger():
    strong, weak = Skill(30, 2), Skill(20, 2)
    p = model.win_probabilities([strong, weak, weak])
    assert sum(p) == pytest.approx(1) and p[0] > 0.5 > p[1] == p[2]


def test_the_version_names_every_parameter():
    for value in (model.MU, model.BETA, model.TAU):
        assert f"{value:.4f}" in model.VERSION or str(value) in model.VERSION
    assert "/gamma=1/" in model.VERSION


# --------------------------------------------------------------------------- from events


@pytest.mark.parametrize("ruleset", ["cabo", "skipbo"])
def test_a_finished_game_is_read_from_its_events(ruleset):
    stream: list[rules.Event] = []
    outcome = play_game(
        ruleset,
        ["basic", "random", "basic"],
        chance=DeckChance(random.Random(3)),
        rng=random.Random(3),
        stream=stream,
    )
    end = stream[-1]
    assert end.type == "game_finished"
    found = model.finished("g", 7, [(e.type, e.seat, e.data) for e in stream])
    assert found.rated and found.ruleset == ruleset and found.position == 7
    assert [p.username for p in found.seats] == ["seat0", "seat1", "seat2"]
    assert [p.points for p in found.seats] == outcome.scores
    assert all(p.place == 1 for s, p in enumerate(found.seats) if s in outcome.winners)
    assert all(p.place > 1 for s, p in enumerate(found.seats) if s not in outcome.winners)
    assert all(p.turns > 0 and p.stood_in == 0 for p in found.seats)


def test_stand_in_turns_are_counted_from_timeouts_and_absence():
    events = [
        ("game_created", 0, {"ruleset": "cabo", "rated": True}),
        ("player_joined", 0, {"seat": 0, "username": "a"}),
        ("player_joined", 1, {"seat": 1, "username": "b"}),
        ("deadline_set", None, {"seats": [0, 1]}),
        ("turn_timed_out", 1, {}),  # b timed out while present: a stand-in's turn
        ("deadline_set", None, {"seats": [1]}),
        ("turn_timed_out", 1, {}),
        ("player_absent", 1, {}),
        ("deadline_set", None, {"seats": [0]}),
        ("deadline_set", None, {"seats": [1]}),  # absent: played for b
        ("turn_timed_out", 1, {}),  # the same turn, not counted twice
        ("player_returned", 1, {}),
        ("deadline_set", None, {"seats": [1]}),
        ("game_finished", None, {"winners": [1], "losers": [0]}),
    ]
    a, b = model.finished("g", 1, events).seats
    assert (a.turns, a.stood_in) == (2, 0) and (b.turns, b.stood_in) == (4, 3)
    # recorded before game_finished carried places: winners first, losers last
    assert (a.place, b.place) == (2, 1)


def test_a_game_created_before_ratings_is_unrated():
    events = [("game_created", 0, {"ruleset": "cabo"}), ("game_finished", None, {"winners": []})]
    assert not model.finished("g", 1, events).rated


def test_rate_is_openskills_plackett_luce_to_the_last_bit():
    """``model.rate`` does openskill's arithmetic without its objects (the rebuild's
    speed): the same floats, ties and stand-in places included."""
    rng = random.Random(26)
    for _ in range(3000):
        n = rng.randint(2, 6)
        skills = [Skill(rng.uniform(5, 45), rng.uniform(0.3, 8.4)) for _ in range(n)]
        places = places_of([rng.randint(0, 3) for _ in range(n)])
        teams = [[model.MODEL.create_rating([s.mu, s.sigma])] for s in skills]
        reference = model.MODEL.rate(teams, ranks=[float(p) for p in places])
        ours = model.rate(skills, places)
        assert [(t[0].mu, t[0].sigma) for t in reference] == [(s.mu, s.sigma) for s in ours]
        assert all(s.games == 1 for s in ours)
