"""The rating model and which seats of a finished game count: pure, no Django.

A game is described by a ``Finished`` (what ``outcomes`` reads from its events);
``counted`` says which seats are rated and in which places, ``rate`` gives the new
ratings. Versioned by ``VERSION``: a change of the model or of a parameter changes
it, and the stored ratings are rebuilt from the events (``services.ratings_apply``
does so by itself when the stored version differs).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from openskill.models import PlackettLuce

from games.rules.events import places as places_of

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300
#: The shown rating: mu - 3 sigma (only goes up with evidence), scaled so that a
#: newcomer shows 1000 and a typical spread is a few hundred points.
SCALE = 40
BASE = 1000
#: Provisional while sigma is above this (a newcomer starts at 8.33): a median of
#: 36-39 rated games, when mu is within about 3-4 of the truth (bench/README.md).
PROVISIONAL_SIGMA = 3.0
#: openskill's ``gamma``, the share of a game's evidence that shrinks sigma: 1 here,
#: all of it, as TrueSkill does. openskill's default, sigma / c (c the table's spread,
#: 6-10 at tables of 2-5), kept sigma near 2 for good, so every game moved mu as much
#: as the hundredth before it: a rating that forgot all but its last ~100 games.
#: (False: openskill's default, for the bench's trials; docs/ratings.md.)
GAMMA_ONE = True
VERSION = (
    f"openskill-pl/mu={MU}/sigma={SIGMA:.4f}/beta={BETA:.4f}/tau={TAU:.4f}"
    f"/gamma={'1' if GAMMA_ONE else 'sigma-c'}/v2"
)

#: openskill's floor of a variance's shrink factor (its default).
KAPPA = 0.0001
_BETA_SQUARED = BETA**2


def _gamma_one(*_: object) -> float:
    return 1.0


#: The reference ``rate`` follows (the tests compare them).
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA, gamma=_gamma_one)


# NamedTuples, not dataclasses: a rebuild makes a million of them, and a frozen
# dataclass's constructor (one ``object.__setattr__`` a field) was a large share of
# its time.


class Player(NamedTuple):
    """One seat of a finished game, as the events tell it."""

    username: str
    #: A house bot's seat (``player_joined`` with ``bot``): never rated.
    bot: bool
    #: 1 = first; ties share a place.
    place: int
    points: int | None
    #: Turns this seat had, and how many of them a stand-in played (absent or timed out).
    turns: int = 0
    stood_in: int = 0


class Finished(NamedTuple):
    game: str
    ruleset: str
    rated: bool
    #: The ``game_finished`` event's global position (the order games are rated in).
    position: int
    seats: tuple[Player, ...]


class Skill(NamedTuple):
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0


def display(mu: float, sigma: float) -> int:
    return round(BASE + SCALE * (mu - 3 * sigma))


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def counted(game: Finished) -> dict[int, int]:
    """``{seat: place}`` of the seats this game rates; ``{}`` for an unrated game.

    Unrated: created with ``rated: false`` or with stacked decks (both recorded as
    ``rated: false`` in ``game_created``), or fewer than two people (house bots'
    seats never count). A person whose turns were mostly played by a stand-in is
    placed last, below everyone who played (several such share the last place).
    """
    if not game.rated:
        return {}
    people = {s: p for s, p in enumerate(game.seats) if not p.bot}
    if len(people) < 2:
        return {}
    last = 1 + max(p.place for p in people.values())
    keys = [last if 2 * p.stood_in > p.turns else p.place for p in people.values()]
    return dict(zip(people, places_of(keys), strict=True))


def rate(skills: list[Skill], places: list[int]) -> list[Skill]:
    """New skills after one game: Plackett-Luce on the places (ties share a place),
    with ``gamma`` 1.

    The arithmetic of ``openskill``'s ``PlackettLuce.rate`` for one player a team
    (the same operations in the same order: equal to the last bit, which
    ``tests/ratings/test_model.py`` checks against ``openskill`` itself), without its
    objects: openskill makes two rating objects with a fresh UUID each and deep-copies
    the teams for every player of every game, most of what a rebuild of 100,000
    games spent in the model."""
    n = len(skills)
    order = sorted(range(n), key=lambda i: places[i])
    ranks = [int(places[i]) for i in order]
    tau_squared = TAU * TAU
    sigmas = [math.sqrt(skills[i].sigma * skills[i].sigma + tau_squared) for i in order]
    mus = [skills[i].mu for i in order]
    variances = [s**2 for s in sigmas]
    total = 0.0
    for v in variances:
        total += v + _BETA_SQUARED
    c = math.sqrt(total)
    exps = [math.exp(m / c) for m in mus]
    sum_q = [0.0] * n
    for i in range(n):
        for q in range(n):
            if ranks[i] >= ranks[q]:
                sum_q[q] += exps[i]
    ties = [ranks.count(r) for r in ranks]
    out: list[Skill] = [Skill()] * n
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                x = exps[i] / sum_q[q]
                delta += x * (1 - x) / ties[q]
                omega += (1 - x) / ties[q] if q == i else -x / ties[q]
        variance = variances[i]
        omega *= variance / c
        delta *= variance / c**2
        if not GAMMA_ONE:  # openskill's default gamma (the bench's trials)
            delta *= math.sqrt(variance) / c
        share = sigmas[i] ** 2 / variance
        mu = mus[i] + share * omega
        sigma = sigmas[i] * math.sqrt(max(1 - share * delta, KAPPA))
        old = skills[order[i]]
        out[order[i]] = Skill(mu, sigma, old.games + 1)
    return out


def win_probabilities(skills: list[Skill]) -> list[float]:
    """Each player's chance to finish first, by the model (the bench's predictions)."""
    c = math.sqrt(sum(s.sigma**2 + BETA**2 for s in skills))
    weights = [math.exp(s.mu / c) for s in skills]
    total = sum(weights)
    return [w / total for w in weights]


#: The events a finished game's ``Finished`` is read from.
EVENT_TYPES = (
    "game_created",
    "player_joined",
    "deadline_set",
    "turn_timed_out",
    "player_absent",
    "player_returned",
    "game_finished",
)


def finished(game: str, position: int, events: list[tuple[str, int | None, dict]]) -> Finished:
    """A finished game from its events of ``EVENT_TYPES`` (``(type, seat, data)``, in
    order). A seat's turn is a ``deadline_set`` naming it; a stand-in played it when
    the seat was absent then, or when it timed out while present."""
    header: dict = {}
    names: dict[int, tuple[str, bool]] = {}
    turns: dict[int, int] = {}
    stood_in: dict[int, int] = {}
    absent: set[int] = set()
    end: dict = {}
    for kind, seat, data in events:
        if kind == "game_created":
            header = data
        elif kind == "player_joined":
            names[data["seat"]] = (data["username"], "bot" in data)
        elif kind == "deadline_set":
            for s in data.get("seats", []):
                turns[s] = turns.get(s, 0) + 1
                if s in absent:
                    stood_in[s] = stood_in.get(s, 0) + 1
        elif kind == "turn_timed_out" and seat is not None and seat not in absent:
            stood_in[seat] = stood_in.get(seat, 0) + 1
        elif kind == "player_absent" and seat is not None:
            absent.add(seat)
        elif kind == "player_returned" and seat is not None:
            absent.discard(seat)
        elif kind == "game_finished":
            end = data
    count = len(names)
    places = end.get("places") or places_from_result(end, count)
    points = end.get("points") or [None] * count
    return Finished(
        game=game,
        ruleset=header.get("ruleset", ""),
        # Games created before ratings have no ``rated`` in their header: unrated.
        rated=bool(header.get("rated", False)),
        position=position,
        seats=tuple(
            Player(
                username=names[s][0],
                bot=names[s][1],
                place=places[s],
                points=points[s],
                turns=turns.get(s, 0),
                stood_in=stood_in.get(s, 0),
            )
            for s in range(count)
        ),
    )


def places_from_result(end: dict, seats: int) -> list[int]:
    """Places of a ``game_finished`` recorded before it carried them: winners first,
    losers last, the others between."""
    winners, losers = set(end.get("winners", [])), set(end.get("losers", []))
    return places_of([0 if s in winners else 2 if s in losers else 1 for s in range(seats)])
