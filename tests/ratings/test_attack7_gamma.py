"""attack7: the ratings model's gamma 1 (commit 979a71e) as a stranger tries it: odd
inputs against openskill itself, a change of the model's version under stored ratings
(the follower rebuilds them first), a game ending meanwhile, and the provisional flag
at the threshold on the API and on the pages."""

from __future__ import annotations

import math
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.ratings import model
from games.ratings import services as ratings_services
from games.ratings.model import Skill
from games.ratings.models import Cursor, Rating, RatingChange
from tests.threads import at_once

from .conftest import follow, play
from .test_ratings import snapshot

# ------------------------------------------------------------------------ the model, pure


def _reference(skills: list[Skill], places: list[int]) -> list[tuple[float, float]]:
    teams = [[model.MODEL.create_rating([s.mu, s.sigma])] for s in skills]
    rated = model.MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(t[0].mu, t[0].sigma) for t in rated]


def _odd_cases():
    for n in (2, 6):
        tables = ([1] * n, list(range(1, n + 1)), [1] + [2] * (n - 1), [1] * (n - 1) + [n])
        for sigma in (1e-9, 1e-4, 0.01, 3.0, model.SIGMA, 100.0, 1e4, 1e6):
            for mu in (-1e3, 0.0, model.MU, 1e3):
                for places in tables:
                    # one stronger and one more uncertain player among equals
                    skills = [Skill(mu, sigma) for _ in range(n)]
                    skills[0] = Skill(mu + 5, sigma)
                    skills[-1] = Skill(mu, sigma * 2)
                    yield skills, places


def test_rate_equals_openskill_with_gamma_one_on_odd_tables():
    cases = list(_odd_cases())
    assert len(cases) == 2 * 8 * 4 * 4
    for skills, places in cases:
        ours = model.rate(skills, places)
        assert [(s.mu, s.sigma) for s in ours] == _reference(skills, places), (skills, places)
        for s in ours:
            assert math.isfinite(s.mu) and math.isfinite(s.sigma) and s.sigma > 0, (skills, s)


def test_openskills_reference_is_gamma_one():
    """The reference the tests compare with has ``gamma`` 1: with openskill's default
    gamma the same game shrinks sigma less."""
    from openskill.models import PlackettLuce

    skills, places = [Skill(), Skill(), Skill()], [1, 2, 3]
    default = PlackettLuce(
        mu=model.MU, sigma=model.SIGMA, beta=model.BETA, tau=model.TAU, kappa=model.KAPPA
    )
    teams = [[default.create_rating([s.mu, s.sigma])] for s in skills]
    theirs = default.rate(teams, ranks=[1.0, 2.0, 3.0])
    ours = model.rate(skills, places)
    assert all(o.sigma < t[0].sigma for o, t in zip(ours, theirs, strict=True))


def test_sigma_at_the_kappa_floor_stays_positive_over_many_games():
    """A crowd of near-certain players with every result: sigma never 0 or NaN; tau
    brings it back up to where a game's evidence balances it (about 1.2 here)."""
    skills = [Skill(25 + s, 1e-6) for s in range(6)]
    for n in range(3000):
        places = [1] * 6 if n % 3 == 0 else [1 + (n + s) % 6 for s in range(6)]
        skills = model.rate(skills, places)
    for s in skills:
        assert math.isfinite(s.mu) and 0 < s.sigma < 2
        assert s.sigma >= model.TAU * math.sqrt(model.KAPPA)


# ------------------------------------------------------------- a change of the model version


OLD_VERSION = "openskill-pl/mu=25.0/sigma=8.3333/beta=4.1667/tau=0.0833/v1"
NEW_VERSION = model.VERSION


def _old_model(monkeypatch) -> None:
    monkeypatch.setattr(model, "GAMMA_ONE", False)
    monkeypatch.setattr(model, "VERSION", OLD_VERSION)


def _new_model(monkeypatch) -> None:
    monkeypatch.setattr(model, "GAMMA_ONE", True)
    monkeypatch.setattr(model, "VERSION", NEW_VERSION)


def test_ratings_of_the_old_gamma_are_rebuilt_with_gamma_one_and_equal_a_rebuild(
    people, monkeypatch
):
    monkeypatch.setattr(model, "VERSION", model.VERSION)  # restored after the test
    users = [p.user for p in people]
    _old_model(monkeypatch)
    for seed in range(4):
        play(users[: 2 + seed % 2], seed=seed)
        follow()
    old = snapshot()
    assert Cursor.objects.get().version == OLD_VERSION
    _new_model(monkeypatch)
    late = play(users, seed=7)  # ends under the new model, followed after the rebuild
    follow()
    assert Cursor.objects.get().version == model.VERSION
    new = snapshot()
    assert RatingChange.objects.filter(game_id=late).count() == 3
    assert {r.games for r in Rating.objects.all()} == {5, 3}  # ann, bob 5; cid 3
    # every rating moved: gamma 1 shrinks sigma more than openskill's default did
    old_sigma = {(name, ruleset): sigma for name, ruleset, _, sigma, *_ in old[0]}
    for name, ruleset, _, sigma, *_ in new[0]:
        assert sigma < old_sigma[name, ruleset]
    # the follower's result is what a rebuild from the events gives
    ratings_services.ratings_rebuild()
    assert snapshot() == new


def test_a_game_ending_while_the_version_changes_is_counted_once(people, monkeypatch):
    monkeypatch.setattr(model, "VERSION", model.VERSION)
    users = [p.user for p in people[:2]]
    _old_model(monkeypatch)
    first = play(users)
    follow()
    second = play(users, seed=3)  # ended, not yet followed, under the old model
    _new_model(monkeypatch)
    follow()  # rebuild (first only, up to the cursor), then the second game
    follow()  # and again: nothing new
    assert RatingChange.objects.filter(game_id=first).count() == 2
    assert RatingChange.objects.filter(game_id=second).count() == 2
    assert all(r.games == 2 for r in Rating.objects.all())
    live = snapshot()
    ratings_services.ratings_rebuild()
    assert snapshot() == live


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_games_ending_while_the_version_rebuild_runs_are_each_counted_once(
    require_postgres, people, monkeypatch
):
    """On PostgreSQL, at once: one thread follows (the version's rebuild, under the
    cursor's lock) while another ends two more games and follows too."""
    monkeypatch.setattr(model, "VERSION", model.VERSION)
    users = [p.user for p in people]
    _old_model(monkeypatch)
    games = [play(users[: 2 + seed % 2], seed=seed) for seed in range(4)]
    follow()
    _new_model(monkeypatch)

    def finish() -> list[str]:
        late = [play(users[:2], seed=20 + n) for n in range(2)]
        follow()
        return late

    # one thread follows (the version's rebuild), the other ends two games and follows
    _, late = at_once(2, lambda i: follow() if i == 0 else finish())
    follow()
    assert Cursor.objects.get().version == NEW_VERSION
    for game in games + late:
        assert RatingChange.objects.filter(game_id=game).count() in (2, 3), game
    assert RatingChange.objects.count() == 2 + 3 + 2 + 3 + 2 + 2
    assert {r.user.username: r.games for r in Rating.objects.select_related("user")} == {
        "ann": 6,
        "bob": 6,
        "cid": 2,
    }
    live = snapshot()
    ratings_services.ratings_rebuild()
    assert snapshot() == live


# ----------------------------------------------------------- provisional at the threshold


JUST_ABOVE = math.nextafter(model.PROVISIONAL_SIGMA, math.inf)


@pytest.mark.parametrize(
    ("sigma", "provisional"),
    [(model.PROVISIONAL_SIGMA, False), (JUST_ABOVE, True), (3.0004, True), (2.9996, False)],
)
def test_provisional_is_the_same_on_the_api_and_the_pages(people, settings, sigma, provisional):
    settings.PABLO_LEADERBOARD_MIN_GAMES = 1
    ann = people[0]
    Rating.objects.create(
        user=ann.user,
        ruleset="skipbo",
        mu=30.0,
        sigma=sigma,
        rating=model.display(30.0, sigma),
        games=40,
        last_played_at=timezone.now() - timedelta(hours=1),
    )
    assert Rating.objects.get().sigma == sigma  # stored to the last bit
    [row] = ann.get("/api/ratings/skipbo/").json()["results"]
    assert row["provisional"] is provisional
    me = ann.get("/api/players/ann/").json()["ratings"]["skipbo"]
    assert me["provisional"] is provisional
    client = Client()
    client.force_login(ann.user)
    board = client.get("/ratings/?ruleset=skipbo")
    page = client.get("/players/ann/")
    assert board.status_code == page.status_code == 200
    badge = re.compile(r'class="badge"[^>]*>\s*provisional')
    assert bool(badge.search(board.content.decode())) is provisional
    assert bool(badge.search(page.content.decode())) is provisional
