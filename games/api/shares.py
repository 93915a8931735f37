"""Shares of heavy work per account and per address: accounts are cheap.

Heavy work (games/lanes.py) runs in FIFO queues; what keeps one account -- or
the many accounts one address can make -- from filling them is a bound on what
each may have unfinished at once, counted in the database when the work is
asked for:

=========================================  ===========================================
``PABLO_BOT_GAMES``                        games with bots (waiting or active) created
                                           per account (3): bot seats, or a bot as the
                                           absent players' stand-in (``stand_in``)
``PABLO_BOT_GAMES_PER_ADDRESS``            the same per client address (6)
``PABLO_ANALYSES_QUEUED``                  analyses queued or running, asked for per
                                           account (3)
``PABLO_ANALYSES_QUEUED_PER_ADDRESS``      the same per client address (6)
=========================================  ===========================================

(``0`` turns one off.) Over a bound the answer is ``429 throttled`` with
``Retry-After: RETRY_AFTER``. The creation and its check are one transaction:
the new game or analysis is counted with the others under a transaction-level
advisory lock of the account and of the address (PostgreSQL; SQLite writes one
at a time anyway), and one over the bound is rolled back -- requests sent all
at once cannot pass it. The address is kept hashed (``address_key``) on the
game (``created_from``) and the analysis (``requested_from``), given to the
services that make them.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.utils.translation import ngettext
from rest_framework.exceptions import Throttled

from games.api.throttling import client_address
from games.models import Game, GameAnalysis

#: seconds a refused client is told to wait (a game or an analysis ends meanwhile)
RETRY_AFTER = 60
BOT_NAME = " bot "  # every bot's username has it ("<level> bot <seat>"); no person's can


def _too_many_games(n: int, by_account: bool) -> str:
    if by_account:
        text = ngettext(
            "You have %(n)s game with bots going on from your account already; "
            "finish or leave it and retry.",
            "You have %(n)s games with bots going on from your account already; "
            "finish or leave one and retry.",
            n,
        )
    else:
        text = ngettext(
            "You have %(n)s game with bots going on from your address already; "
            "finish or leave it and retry.",
            "You have %(n)s games with bots going on from your address already; "
            "finish or leave one and retry.",
            n,
        )
    return text % {"n": n}


def _too_many_analyses(n: int, by_account: bool) -> str:
    if by_account:
        text = ngettext(
            "%(n)s analysis asked for by your account is still queued or running; retry later.",
            "%(n)s analyses asked for by your account are still queued or running; retry later.",
            n,
        )
    else:
        text = ngettext(
            "%(n)s analysis asked for from your address is still queued or running; retry later.",
            "%(n)s analyses asked for from your address are still queued or running; retry later.",
            n,
        )
    return text % {"n": n}


class Over(Throttled):
    """429 with ``Retry-After``; the web views show their own page for it."""

    def __init__(self, detail: str) -> None:
        super().__init__(wait=RETRY_AFTER, detail=detail)


def address_key(request: Any) -> str:
    return hashlib.sha256(client_address(request).encode()).hexdigest()[:32]


def _limit(name: str) -> int:
    return int(getattr(settings, name, 0) or 0)


def _lock(*keys: str) -> None:
    """Transaction-level advisory locks (PostgreSQL), in a fixed order."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for key in sorted(keys):
            number = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [number])


#: A game with bots: a bot in a seat, or a bot playing the absent players' turns (the
#: option ``stand_in`` other than ``"rules"``: an ``expert`` stand-in's moves are heavy
#: work like an expert seat's). Stand-ins were not counted: one account ran any number
#: of games of its own accounts whose silent seats an expert played.
WITH_BOTS = Q(seat_set__user__username__contains=BOT_NAME) | (
    Q(options__has_key="stand_in") & ~Q(options__stand_in="rules")
)


def _stand_in_bot(options: Any) -> bool:
    return (options or {}).get("stand_in", "rules") != "rules"


def check_game(request: Any, game: Game) -> None:
    """Inside the creation's transaction (the game made with ``created_from`` =
    ``address_key(request)``): raise ``Over``, which rolls the creation back, if it is
    a game with bots (``WITH_BOTS``) over a share."""
    if not (
        _stand_in_bot(game.options)
        or game.seat_set.filter(user__username__contains=BOT_NAME).exists()
    ):
        return
    user, where = request.user, game.created_from
    _lock(f"bot-games:u:{user.pk}", f"bot-games:a:{where}")
    going = Game.objects.filter(WITH_BOTS, status__in=(Game.Status.WAITING, Game.Status.ACTIVE))
    for name, rows, by_account in (
        ("PABLO_BOT_GAMES", going.filter(created_by=user), True),
        ("PABLO_BOT_GAMES_PER_ADDRESS", going.filter(created_from=where), False),
    ):
        most = _limit(name)
        if most and rows.distinct().count() > most:
            raise Over(_too_many_games(most, by_account))


def check_analysis(request: Any, row: GameAnalysis) -> None:
    """Inside the request's transaction (the analysis asked for with ``requested_from``
    = ``address_key(request)``): raise ``Over``, which rolls it back, if the asker is
    over a share."""
    user = request.user
    if row.requested_by_id != user.pk or row.status != GameAnalysis.Status.QUEUED:
        return  # someone else's, or done: nothing new is queued for this asker
    where = row.requested_from
    _lock(f"analyses:u:{user.pk}", f"analyses:a:{where}")
    unfinished = GameAnalysis.objects.filter(
        status__in=(GameAnalysis.Status.QUEUED, GameAnalysis.Status.RUNNING)
    )
    for name, rows, by_account in (
        ("PABLO_ANALYSES_QUEUED", unfinished.filter(requested_by=user), True),
        ("PABLO_ANALYSES_QUEUED_PER_ADDRESS", unfinished.filter(requested_from=where), False),
    ):
        most = _limit(name)
        if most and rows.count() > most:
            raise Over(_too_many_analyses(most, by_account))
