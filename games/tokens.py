"""The API's tokens: token authentication with a small per-process cache of token -> user.

DRF's ``TokenAuthentication`` reads the token and its user from the database on
every request (~a fifth of a worker's time on an action). Here a token seen in
the last ``TTL`` seconds is answered from memory. A deleted token (a rotated
one, issue 18) is dead at once in every process: its deletion is forgotten
here (``post_delete``) and written to the shared ``default`` cache (Redis, or
files: every process of the service sees it), which each answer from memory
checks first; a cache that cannot be reached sends the lookup to the
database. A user saved (deactivated, renamed, an e-mail address confirmed) is
likewise forgotten at once in *every* process: its save writes the user's
change mark (below) to the shared cache, and an answer from memory read
before that mark (or less than ``MARGIN`` seconds after it) goes to the
database instead -- both marks in one round trip (``stale``). The answer is
DRF's own: 401 for an unknown token or an inactive user.

**The feed's fast path** (``games.feed.fast``: a long poll with nothing new,
answered before Django) needs a token's user without a query, for a client
that polls every ~30 s -- longer than ``TTL``. So every token this class
accepts is also remembered as ``token -> user id`` (``fast_user``) for up to
``FAST_TTL`` seconds from the database read that vouched for it; the fast path
checks two shared marks on *every* poll, in one round trip (``marks``): the
token's revocation mark, and the user's change mark (the wall-clock time in ms
of the user's latest save -- deactivation, password change, log-in -- or
deletion). A revocation mark, a change mark written after (or ``MARGIN``
seconds before) the database read that vouched for the entry, or a cache that
cannot be read send the poll to Django, which reads the database again. Both
marks outlive ``FAST_TTL`` (``REVOKED_FOR``), so an entry never outlives the
mark that would refuse it.

**Vouched for any process** (a feed process restarted, a client sent to another
one). Every database read that accepts a token also writes, beside the marks, a
record ``token-vouched:<keyed digest> -> "<user id>:<wall ms of the read>"`` for
``FAST_TTL`` seconds (``vouch``; the digest is an HMAC of the token under the
``SECRET_KEY``: the raw token is never stored, and the record's key does not
tell the token to whoever reads Redis). The fast path of a process that does not
know a token reads that record (``vouched``) instead of sending the poll to
Django, and remembers it like its own entry, from the record's read time -- so
it expires when the original entry would have. Everything else stays: the same
marks are checked in the same round trip on every poll, and both outlive the
record (``REVOKED_FOR`` > ``FAST_TTL``), so a record never outlives the mark
that refuses it; a record older than ``FAST_TTL`` (a clock ahead) is not used.
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
from django.utils.crypto import salted_hmac
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from games import errors

TTL = 10.0
MAX_TOKENS = 4096
#: Seconds the fast path may trust ``token -> user id`` (from the database read on).
FAST_TTL = 300.0
MAX_FAST = 65536
#: How long a deleted token's (or a changed user's) mark stays in the shared cache:
#: past every process's TTL and FAST_TTL.
REVOKED_FOR = int(FAST_TTL + 60)
#: A change mark this many seconds older than an entry's read still refuses it (a
#: save's mark is written before its transaction commits; clocks of machines differ).
MARGIN = 5.0

log = logging.getLogger(__name__)

#: token -> (expires, user, token, when the database vouched for it: monotonic, wall ms)
_known: dict[str, tuple[float, Any, Token, float, int]] = {}
#: token -> (expires, user id, wall ms of the read): the feed's fast path (see above)
_fast: dict[str, tuple[float, Any, int]] = {}
_lock = threading.Lock()


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        now = time.monotonic()
        hit = _known.get(key)
        if hit is not None and hit[0] > now and not stale(key, hit[1].pk, hit[4]):
            _remember_fast(key, hit[1].pk, hit[3], hit[4])
            return hit[1], hit[2]
        wall = wall_ms()  # (before the read)
        user, token = super().authenticate_credentials(key)
        with _lock:
            if len(_known) >= MAX_TOKENS:
                _known.clear()
            _known[key] = (now + TTL, user, token, now, wall)
        _remember_fast(key, user.pk, now, wall)
        vouch(key, user.pk, wall)
        return user, token


def wall_ms() -> int:
    return int(time.time() * 1000)


def _remember_fast(key: str, user_id: Any, read_at: float, wall: int) -> None:
    with _lock:
        if len(_fast) >= MAX_FAST:
            _fast.clear()
        _fast[key] = (read_at + FAST_TTL, user_id, wall)


def vouched_key(key: str) -> str:
    """The key (of the ``default`` cache, before its prefix) of the record that vouches
    for ``key`` in every process: a keyed digest, never the token."""
    digest = salted_hmac("games.tokens.vouched", key, algorithm="sha256").hexdigest()
    return "token-vouched:" + digest


def vouch(key: str, user_id: Any, wall: int) -> None:
    """Tell every process's fast path that the database accepted ``key`` for ``user_id``
    at ``wall`` (ms; read before the query). A cache that cannot be reached costs only
    the other processes a Django request each."""
    try:
        caches["default"].set(vouched_key(key), f"{user_id}:{wall}", int(FAST_TTL))
    except Exception as exc:
        log.info("could not share a token's acceptance (%s)", exc)


def parse_vouched(value: Any) -> tuple[Any, int] | None:
    """(user id, wall ms of the read) of a record ``vouch`` wrote (bytes or str), or None
    when it is absent, malformed or older than ``FAST_TTL``."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("ascii", "replace")
    user_id, _sep, wall = str(value).rpartition(":")
    try:
        pk = get_user_model()._meta.pk.to_python(user_id)
        read = int(wall)
    except Exception:
        return None
    age = wall_ms() - read
    if pk is None or not -MARGIN * 1000 <= age < FAST_TTL * 1000:
        return None
    return pk, read


def remember_vouched(key: str, user_id: Any, wall: int) -> None:
    """Remember a record read from the shared cache (``parse_vouched``) as this process's
    own entry: trusted until ``FAST_TTL`` after the read that vouched for it."""
    age = max(0.0, (wall_ms() - wall) / 1000)
    _remember_fast(key, user_id, time.monotonic() - age, wall)


def fast_user(key: str) -> tuple[Any, int] | None:
    """(user id, wall ms of the read) of a token accepted lately (see the docstring),
    or None. The caller must still check the ``marks`` (``refused``)."""
    hit = _fast.get(key)
    if hit is None:
        return None
    if hit[0] <= time.monotonic():
        _fast.pop(key, None)
        return None
    return hit[1], hit[2]


def refused(values: list[Any], read_wall: int) -> bool:
    """Whether the marks' values (``marks``' keys, in order, None when absent) refuse an
    entry read at ``read_wall``."""
    revoked_mark, changed = values
    if revoked_mark is not None:
        return True
    if changed is None:
        return False
    try:
        return int(changed) >= read_wall - MARGIN * 1000
    except (TypeError, ValueError):
        return True


def user_mark(user_id: Any) -> str:
    return f"user-changed:{user_id}"


def marks(key: str, user_id: Any) -> list[str]:
    """The two keys (of the ``default`` cache, before its prefix) whose presence
    refuses the fast path for ``key``: its revocation and its user's change."""
    return [_mark(key), user_mark(user_id)]


def _mark(key: str) -> str:
    return "token-revoked:" + hashlib.sha256(key.encode()).hexdigest()


def stale(key: str, user_id: Any, read_wall: int) -> bool:
    """Whether a remembered ``key -> user`` read at ``read_wall`` may be out of date:
    the token was deleted or its user saved by any process since (one round trip to
    the shared cache: ``marks``), or that cannot be known (the cache is away)."""
    try:
        found = caches["default"].get_many(marks(key, user_id))
    except Exception as exc:  # the cache is away: ask the database instead
        log.debug("token revocations unknown (%s): the database answers", exc)
        return True
    return refused([found.get(name) for name in marks(key, user_id)], read_wall)


def revoke(key: str) -> None:
    """Tell every process that ``key`` is dead (it was deleted or rotated).

    Called inside the deletion's transaction (``post_delete``): when the mark
    cannot be shared, ``Unavailable`` undoes the deletion (503, retry) rather
    than leave other processes -- the feed's fast path trusts a token for up to
    ``FAST_TTL`` -- accepting a token its owner was told is dead.
    """
    forget(key=key)
    try:
        caches["default"].set(_mark(key), 1, REVOKED_FOR)
    except Exception as exc:
        log.warning("could not share a token's revocation (%s): the deletion is undone", exc)
        raise errors.Unavailable(
            "The old token cannot be retired right now; nothing changed, retry in a few seconds."
        ) from None


def forget_all() -> None:
    with _lock:
        _known.clear()
        _fast.clear()


def forget(key: str | None = None, user_id: Any = None) -> None:
    """Forget ``key`` (its record too is no longer read: the caller refused it on a mark,
    which outlives the record) or every entry of ``user_id`` in this process."""
    with _lock:
        if key is not None:
            _known.pop(key, None)
            _fast.pop(key, None)
        if user_id is not None:
            for known, hit in list(_known.items()):
                if hit[1].pk == user_id:
                    _known.pop(known, None)
            for known, fast in list(_fast.items()):
                if fast[1] == user_id:
                    _fast.pop(known, None)


def _token_deleted(sender: Any, instance: Token, **kwargs: Any) -> None:
    revoke(instance.key)


def _user_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A user saved (deactivated, password changed, renamed) or deleted: forgotten
    here, and marked for every process's fast path (``marks``)."""
    forget(user_id=instance.pk)
    try:
        caches["default"].set(user_mark(instance.pk), wall_ms(), REVOKED_FOR)
    except Exception as exc:
        log.warning(
            "could not share a user's change (%s): other processes' feed may "
            "accept their token for up to %s s",
            exc,
            FAST_TTL,
        )


post_delete.connect(_token_deleted, sender=Token, dispatch_uid="games.tokens.token")
post_save.connect(_user_saved, sender=get_user_model(), dispatch_uid="games.tokens.user")
post_delete.connect(_user_saved, sender=get_user_model(), dispatch_uid="games.tokens.gone")
