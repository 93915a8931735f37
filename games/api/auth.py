"""Token authentication with a small per-process cache of token -> user.

DRF's ``TokenAuthentication`` reads the token and its user from the database on
every request (~a fifth of a worker's time on an action). Here a token seen in
the last ``TTL`` seconds is answered from memory. A deleted token (a rotated
one, issue 18) is dead at once in every process: its deletion is forgotten
here (``post_delete``) and written to the shared ``default`` cache (Redis, or
files: every process of the service sees it), which each answer from memory
checks first; a cache that cannot be reached sends the lookup to the
database. A user saved here (deactivated, renamed) is forgotten at once in
this process and within ``TTL`` seconds in the others. The answer is DRF's
own: 401 for an unknown token or an inactive user.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db.models.signals import post_delete, post_save
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

TTL = 10.0
MAX_TOKENS = 4096
#: How long a deleted token's mark stays in the shared cache: past every process's TTL.
REVOKED_FOR = 10 * TTL

log = logging.getLogger(__name__)

_known: dict[str, tuple[float, Any, Token]] = {}
_lock = threading.Lock()


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        now = time.monotonic()
        hit = _known.get(key)
        if hit is not None and hit[0] > now and not revoked(key):
            return hit[1], hit[2]
        user, token = super().authenticate_credentials(key)
        with _lock:
            if len(_known) >= MAX_TOKENS:
                _known.clear()
            _known[key] = (now + TTL, user, token)
        return user, token


def _mark(key: str) -> str:
    return "token-revoked:" + hashlib.sha256(key.encode()).hexdigest()


def revoked(key: str) -> bool:
    """Whether ``key`` was deleted by any process lately (True when that cannot be known)."""
    try:
        return caches["default"].get(_mark(key)) is not None
    except Exception as exc:  # the cache is away: ask the database instead
        log.debug("token revocations unknown (%s): the database answers", exc)
        return True


def revoke(key: str) -> None:
    """Tell every process that ``key`` is dead (it was deleted or rotated)."""
    forget(key=key)
    try:
        caches["default"].set(_mark(key), 1, REVOKED_FOR)
    except Exception as exc:
        log.warning(
            "could not share a token's revocation (%s): other processes may "
            "accept it for up to %s s",
            exc,
            TTL,
        )


def forget_all() -> None:
    with _lock:
        _known.clear()


def forget(key: str | None = None, user_id: Any = None) -> None:
    with _lock:
        if key is not None:
            _known.pop(key, None)
        if user_id is not None:
            for known, (_, user, _token) in list(_known.items()):
                if user.pk == user_id:
                    _known.pop(known, None)


def _token_deleted(sender: Any, instance: Token, **kwargs: Any) -> None:
    revoke(instance.key)


def _user_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    forget(user_id=instance.pk)


post_delete.connect(_token_deleted, sender=Token, dispatch_uid="games.api.auth.token")
post_save.connect(_user_saved, sender=get_user_model(), dispatch_uid="games.api.auth.user")
