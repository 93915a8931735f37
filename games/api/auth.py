"""Token authentication with a small per-process cache of token -> user.

DRF's ``TokenAuthentication`` reads the token and its user from the database on
every request (~a fifth of a worker's time on an action). Here a token seen in
the last ``TTL`` seconds is answered from memory. A deleted token is forgotten
at once in this process (``post_delete``) and within ``TTL`` seconds in the
others; a user saved here (deactivated, renamed) is forgotten at once in this
process, likewise. The answer is DRF's own: 401 for an unknown token or an
inactive user.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

TTL = 10.0
MAX_TOKENS = 4096

_known: dict[str, tuple[float, Any, Token]] = {}
_lock = threading.Lock()


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        now = time.monotonic()
        hit = _known.get(key)
        if hit is not None and hit[0] > now:
            return hit[1], hit[2]
        user, token = super().authenticate_credentials(key)
        with _lock:
            if len(_known) >= MAX_TOKENS:
                _known.clear()
            _known[key] = (now + TTL, user, token)
        return user, token


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
    forget(key=instance.key)


def _user_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    forget(user_id=instance.pk)


post_delete.connect(_token_deleted, sender=Token, dispatch_uid="games.api.auth.token")
post_save.connect(_user_saved, sender=get_user_model(), dispatch_uid="games.api.auth.user")
