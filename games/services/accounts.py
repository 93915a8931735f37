"""Accounts and their API tokens: sign-up, log-in, e-mail confirmation, rotation."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from games import errors
from games.errors import ApplicationError
from games.models import AccountLanguage, AccountName, BotAccount, Seat
from games.notifications import fanout
from games.selectors import account_cache
from games.selectors import accounts as account_selectors
from games.services.notifications import email_confirmations_forget
from games.usernames import clean_username, name_digest, username_problem

JSON = dict[str, Any]

log = logging.getLogger(__name__)


def user_without_login(*, username: str) -> Any:
    """The account ``username`` (created without a usable password if new): a bot's, or
    the simulator's seat 0."""
    users = get_user_model()
    user, created = users.objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


@transaction.atomic
def user_register(*, username: str, password: str) -> tuple[Any, str]:
    """A new account and its API token.

    The name is stored trimmed and NFKC-normalised, and refused when it equals
    an existing name after case folding, mixes scripts or holds invisible
    characters (``games.usernames``).
    """
    users = get_user_model()
    username = clean_username(username)
    problem = username_problem(username)
    if problem:
        raise ApplicationError("username: %(problem)s", "invalid_username", problem=problem)
    if account_selectors.username_taken(username):
        raise ApplicationError(
            "username: A user with that username already exists.", "username_taken"
        )
    try:
        with transaction.atomic():
            user = users.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise ApplicationError(
            "username: A user with that username already exists.", "username_taken"
        ) from None
    token, _ = Token.objects.get_or_create(user=user)
    return user, token.key


def account_name_record(*, user: Any, created: bool) -> None:
    """Store the look of ``user``'s name (``games.accounts``: after every save of an account
    that made it or may have renamed it). ``IntegrityError`` when another account has it:
    the caller's transaction, the account's insert or rename with it, is refused."""
    digest = name_digest(user.get_username())
    if created:
        AccountName.objects.create(user=user, digest=digest)
    else:
        AccountName.objects.update_or_create(user=user, defaults={"digest": digest})


def user_token(*, request: Any, username: str, password: str) -> str:
    """The API token of the account with these credentials (created on first use)."""
    user = authenticate(request=request, username=username, password=password)
    if user is None or not user.is_active:
        raise ApplicationError(
            "Unable to log in with the given username and password.", "invalid_credentials"
        )
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


@transaction.atomic
def email_confirm(*, token: str, apply: bool) -> tuple[Any, str]:
    """The account and address of an e-mail confirmation link; with ``apply``, confirm it.

    Raises ``ApplicationError`` (``invalid_link``) for a link that is forged,
    expired, used, replaced by a later one, or whose account's address changed.
    """
    found = fanout.read_email_confirmation(token, lock=apply)
    if found is None:
        raise ApplicationError(
            "This confirmation link is not valid (or has expired): ask for a new one.",
            "invalid_link",
        )
    user, email = found
    if apply:
        email_confirmations_forget(user)  # used once
        if user.email != email:
            user.email = email
            user.save(update_fields=["email"])
    return user, email


def user_token_rotate(*, user: Any, current: str | None = None) -> str:
    """A new API token for ``user``; the old one is dead at once, in every process.

    ``current``: the token the request came with (the API's rotation). Rotations
    of one account take turns on its row lock; a request whose token another
    rotation replaced meanwhile is refused (``Unauthenticated``, 401): of
    several rotations sent at once with one token, one wins and the others
    learn that token is dead -- never a 500, never an answer with a dead token.
    """
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if current is not None and not Token.objects.filter(user=user, key=current).exists():
            raise errors.Unauthenticated("Invalid token.", "authentication_failed")
        Token.objects.filter(user=user).delete()  # post_delete: games.tokens.revoke
        token = Token.objects.create(user=user)
    return token.key


def user_token_issue(*, user: Any) -> str:
    """The signed-in user's API token, created on first use (the account page's button)."""
    token, _ = Token.objects.get_or_create(user=user)
    return str(token.key)


@transaction.atomic
def bot_account_make(*, user: Any) -> None:
    """Make ``user`` a bot account, for good (docs/programs.md); again is a no-op.

    Only an account that has never sat at a game: otherwise 409 ``has_played``.
    The user's row is locked so that two calls make one row.
    """
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if Seat.objects.filter(user=user).exists():
        raise errors.Conflict(
            "This account has already played: it cannot become a bot.", "has_played"
        )
    BotAccount.objects.get_or_create(user=user)
    account_selectors.bot_accounts_forget(user.username)


def account_language_set(*, user: Any, code: str) -> None:
    """Remember ``code`` (one of ``settings.LANGUAGES``) as ``user``'s language."""
    if code not in dict(settings.LANGUAGES):
        raise ApplicationError(
            "language: %(code)s is not offered.", "invalid_language", code=repr(code)
        )
    AccountLanguage.objects.update_or_create(user=user, defaults={"code": code})
    account_cache.changed(user=user, name="language")  # every device's next page
