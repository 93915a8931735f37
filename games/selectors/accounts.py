"""Accounts: names taken, the API token of the account page."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext

from games.models import AccountLanguage, AccountName, BotAccount
from games.selectors import account_cache
from games.usernames import clean_username, name_digest, username_key, username_problem

JSON = dict[str, Any]


def user_api_token(*, user: Any) -> str | None:
    """The user's API token if one was ever issued (the web table's account page)."""
    token = getattr(user, "auth_token", None)  # the one-to-one of DRF's Token, if any
    return None if token is None else str(token.key)


def username_taken(name: str, *, exclude: Any = None) -> bool:
    """Whether an account's name equals ``name`` by ``username_key`` (trim, NFKC, case fold),
    or has its look (``games.usernames.username_look``). ``exclude``: an account's pk
    that does not count (the account being renamed).

    The database compares ASCII letters case-insensitively (``iexact``); the
    few names with other characters are compared here by their keys, since
    SQLite's and PostgreSQL's case rules are not Unicode's case folding.
    """
    looks = AccountName.objects.filter(digest=name_digest(name)).exclude(user_id=exclude)
    if looks.exists():
        return True  # the same look: the key, or letters that pass for its ASCII ones
    key = username_key(name)
    users = get_user_model().objects.exclude(pk=exclude)
    if users.filter(username__iexact=name).exists():
        return True
    if key.isascii() and users.filter(username__iexact=key).exists():
        return True
    others = users.filter(username__regex=r"[^\x01-\x7f]").values_list("username", flat=True)
    return any(username_key(other) == key for other in others.iterator())


def username_refusal(name: str, *, exclude: Any = None) -> str | None:
    """Why ``name`` may not be an account's new name (the API's rules), or None.

    For the forms that name accounts outside ``services.accounts.user_register`` (the
    admin's): invisible characters, mixed scripts, ASCII lookalikes, or taken.
    """
    problem = username_problem(clean_username(name))
    if problem:
        return problem
    if username_taken(clean_username(name), exclude=exclude):
        return gettext("A user with that username already exists.")
    return None


#: A seated player's name -> (a bot account?, until when, ``time.monotonic``). Only an
#: account that has never sat may become a bot account (``bot_account_make``), so a
#: player's answer does not change; it is still read again after ``BOT_FLAG_SECONDS``,
#: in case a join raced that call. Every action's answer needs it (``players[].bot_account``):
#: read each time, it was a third of ``game_act``'s time (bench/README.md, bench_append).
_BOT_FLAGS: dict[str, tuple[bool, float]] = {}
BOT_FLAG_SECONDS = 300.0
BOT_FLAGS_KEPT = 10_000


def bot_account_names(names: Iterable[str | None]) -> set[str]:
    """Those of ``names``, players who have sat at a game, that are bot accounts (``POST
    /api/me/bot/``): from this process's memory, else one query for those it lacks."""
    now = time.monotonic()
    # a copy of what is known: another thread may clear the shared one meanwhile
    flags = {n: _BOT_FLAGS.get(n, (False, 0.0)) for n in names if n}
    missing = [n for n, (_, until) in flags.items() if until <= now]
    if missing:
        bots = set(
            BotAccount.objects.filter(user__username__in=missing).values_list(
                "user__username", flat=True
            )
        )
        if len(_BOT_FLAGS) >= BOT_FLAGS_KEPT:
            _BOT_FLAGS.clear()
        for name in missing:
            flags[name] = _BOT_FLAGS[name] = (name in bots, now + BOT_FLAG_SECONDS)
    return {n for n, (bot, _) in flags.items() if bot}


def bot_accounts_forget(name: str | None = None) -> None:
    """Forget what ``bot_account_names`` knows of ``name`` (None: of everyone)."""
    if name is None:
        _BOT_FLAGS.clear()
    else:
        _BOT_FLAGS.pop(name, None)


def account_language(*, user: Any) -> str | None:
    """The language ``user`` chose with the header's switch, or None; cached per
    account (``account_cache``): the pages read it on every request."""

    def read() -> str:
        found = AccountLanguage.objects.filter(user=user).values_list("code", flat=True)
        return found.first() or ""

    return account_cache.cached(user=user, name="language", read=read) or None
