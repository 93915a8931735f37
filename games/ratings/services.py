"""Every write of the ratings: the follower's step and the rebuild.

Both run under the ``Cursor`` row's lock, so a game that ends while the ratings
are being rebuilt is counted once: the rebuild replays the games up to the
cursor's position, the follower only those after it (docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Event

from . import model, outcomes
from .models import Cursor, Rating, RatingChange

#: Games read and rated per step of a rebuild.
REBUILD_BATCH = 5000


@transaction.atomic
def ratings_apply(events: Iterable[Any]) -> int:
    """Rate the games whose ``game_finished`` is among ``events`` and after the cursor
    (idempotent: a position already applied is skipped); the number of games read.
    A cursor of another model version is first rebuilt under the current one."""
    cursor = _locked_cursor()
    if cursor.version != model.VERSION:
        _rebuild(cursor)
    ends = [e for e in events if e.type == "game_finished" and e.position > cursor.position]
    if not ends:
        return 0
    _rate(outcomes.read(ends), {str(e.game_id): e.created_at for e in ends})
    cursor.position = max(e.position for e in ends)
    cursor.save(update_fields=["position"])
    return len(ends)


@transaction.atomic
def ratings_rebuild() -> int:
    """Every rating again from the events up to the cursor; the number of games read."""
    return _rebuild(_locked_cursor())


def _locked_cursor() -> Cursor:
    Cursor.objects.get_or_create(pk=1)
    return Cursor.objects.select_for_update().get(pk=1)


def _rebuild(cursor: Cursor) -> int:
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    ends = Event.objects.filter(type="game_finished", position__lte=cursor.position)
    done, after = 0, 0
    while True:
        batch = list(ends.filter(position__gt=after).order_by("position")[:REBUILD_BATCH])
        if not batch:
            break
        _rate(outcomes.read(batch), {str(e.game_id): e.created_at for e in batch})
        done += len(batch)
        after = batch[-1].position
    cursor.version = model.VERSION
    cursor.save(update_fields=["version"])
    return done


def _rate(games: Sequence[model.Finished], ended: dict[str, Any]) -> None:
    """Rate ``games`` in their order, from the stored ratings of their people
    (``ended``: each game's end, by id)."""
    counted = [(g, model.counted(g)) for g in games]
    names = {g.seats[s].username for g, seats in counted for s in seats}
    users = dict(get_user_model().objects.filter(username__in=names).values_list("username", "pk"))
    keys = {(users[g.seats[s].username], g.ruleset) for g, seats in counted for s in seats}
    stored = {
        (r.user_id, r.ruleset): r
        for r in Rating.objects.filter(
            user_id__in={u for u, _ in keys}, ruleset__in={r for _, r in keys}
        )
    }
    changes: list[RatingChange] = []
    touched: dict[tuple[int, str], Rating] = {}
    for game, seats in counted:
        if not seats:
            continue
        at = ended[game.game]
        people = [(s, users[game.seats[s].username]) for s in seats]
        rows = [stored.get((u, game.ruleset)) for _, u in people]
        before = [model.Skill(r.mu, r.sigma, r.games) if r else model.Skill() for r in rows]
        after = model.rate(before, [seats[s] for s, _ in people])
        for (seat, user), old, new, row in zip(people, before, after, rows, strict=True):
            rating = model.display(new.mu, new.sigma)
            if row is None:
                row = stored[(user, game.ruleset)] = Rating(user_id=user, ruleset=game.ruleset)
            row.mu, row.sigma, row.games = new.mu, new.sigma, new.games
            row.rating, row.last_played_at = rating, at
            touched[(user, game.ruleset)] = row
            changes.append(
                RatingChange(
                    game_id=game.game,
                    user_id=user,
                    ruleset=game.ruleset,
                    seat=seat,
                    place=seats[seat],
                    points=game.seats[seat].points,
                    position=game.position,
                    at=at,
                    mu=new.mu,
                    sigma=new.sigma,
                    before=model.display(old.mu, old.sigma),
                    after=rating,
                )
            )
    Rating.objects.bulk_create(
        touched.values(),
        update_conflicts=True,
        unique_fields=["user", "ruleset"],
        update_fields=["mu", "sigma", "rating", "games", "last_played_at"],
    )
    RatingChange.objects.bulk_create(changes)
