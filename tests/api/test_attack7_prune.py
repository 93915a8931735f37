"""attack7: the prune of stored Idempotency-Key answers (commit 8932236) as a stranger
tries it: the cutoff, empty and many batches, keys of other users and games, a
pruned key reused for another body, prunes racing each other and repeats, the
migration both ways on PostgreSQL and on the embedded SQLite."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Event, IdempotentAnswer
from games.services import games as game_services
from tests.api.conftest import create
from tests.fixtures import SKIPBO_QUICK, SKIPBO_QUICK_OPTIONS
from tests.threads import at_once

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent
STOCK_TO_PILE_0 = {"type": "play", "from": "stock", "pile": 0}
HOUR = 3600


def _store(user, gid: str, key: str, at) -> None:
    IdempotentAnswer.objects.create(user=user, game_id=gid, key=key, status=201, body=b"{}")
    IdempotentAnswer.objects.filter(user=user, game_id=gid, key=key).update(created_at=at)


def _keys() -> set[tuple[str, str]]:
    return set(IdempotentAnswer.objects.values_list("user__username", "key"))


def test_an_answer_exactly_at_the_cutoff_is_kept_a_microsecond_older_is_pruned(
    settings, ann, quick_skipbo
):
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    now = timezone.now()
    gid = quick_skipbo["id"]
    _store(ann.user, gid, "at", now - timedelta(seconds=HOUR))
    _store(ann.user, gid, "past", now - timedelta(seconds=HOUR, microseconds=1))
    assert game_services.idempotent_answers_prune(now=now) == 1
    assert _keys() == {("ann", "at")}


def test_nothing_to_prune_is_one_statement_and_zero(settings):
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    with CaptureQueriesContext(connection) as queries:
        assert game_services.idempotent_answers_prune() == 0
    deletes = [q for q in queries.captured_queries if q["sql"].startswith("DELETE")]
    assert len(deletes) == 1


def test_many_batches_of_one_row_each(settings, ann, quick_skipbo):
    """25 old rows, batch 1: 25 deletes and a 26th that finds none; the young stay."""
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    gid, old = quick_skipbo["id"], timezone.now() - timedelta(seconds=2 * HOUR)
    for n in range(25):
        _store(ann.user, gid, f"old-{n}", old)
    _store(ann.user, gid, "young", timezone.now())
    with CaptureQueriesContext(connection) as queries:
        assert game_services.idempotent_answers_prune(batch=1) == 25
    assert len([q for q in queries.captured_queries if q["sql"].startswith("DELETE")]) == 26
    assert _keys() == {("ann", "young")}


def test_a_batch_exactly_the_count_ends_with_an_empty_statement(settings, ann, quick_skipbo):
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    gid, old = quick_skipbo["id"], timezone.now() - timedelta(seconds=2 * HOUR)
    for n in range(6):
        _store(ann.user, gid, f"old-{n}", old)
    assert game_services.idempotent_answers_prune(batch=3) == 6
    assert not IdempotentAnswer.objects.exists()


@pytest.mark.timeout(20)
@pytest.mark.parametrize("batch", [0, -1])
def test_a_batch_below_one_is_refused_not_a_loop_for_ever(settings, ann, quick_skipbo, batch):
    """Before: ``batch=0`` deleted nothing a statement and never stopped (0 < 0 is
    false); ``-1`` raised Django's "Negative indexing" only by accident."""
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    _store(ann.user, quick_skipbo["id"], "old", timezone.now() - timedelta(seconds=2 * HOUR))
    with pytest.raises(ValueError, match="batch"):
        game_services.idempotent_answers_prune(batch=batch)
    assert _keys() == {("ann", "old")}


def test_the_same_key_of_other_users_and_games_is_pruned_by_its_own_age(
    settings, ann, bob, quick_skipbo
):
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    gid = quick_skipbo["id"]
    now = timezone.now()
    _store(ann.user, gid, "k", now - timedelta(seconds=2 * HOUR))
    _store(bob.user, gid, "k", now - timedelta(seconds=60))
    assert game_services.idempotent_answers_prune() == 1
    assert _keys() == {("bob", "k")}


def test_the_same_key_in_two_games_answers_each_game_and_is_pruned_by_its_own_age(
    settings, ann, bob, quick_skipbo
):
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    other = create(
        ann, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS, decks=[SKIPBO_QUICK]
    )
    other = bob.post(f"/api/games/{other['id']}/join/").json()
    answers = {}
    for game in (quick_skipbo, other):
        body = {**STOCK_TO_PILE_0, "expected_version": game["version"]}
        answers[game["id"]] = ann.act(game["id"], body, HTTP_IDEMPOTENCY_KEY="k")
        assert answers[game["id"]].status_code == 201
    assert answers[quick_skipbo["id"]].content != answers[other["id"]].content
    IdempotentAnswer.objects.filter(game_id=quick_skipbo["id"]).update(
        created_at=timezone.now() - timedelta(seconds=2 * HOUR)
    )
    assert game_services.idempotent_answers_prune() == 1
    [kept] = IdempotentAnswer.objects.all()
    assert str(kept.game_id) == other["id"]
    body = {**STOCK_TO_PILE_0, "expected_version": other["version"]}
    assert ann.act(other["id"], body, HTTP_IDEMPOTENCY_KEY="k").content == (
        answers[other["id"]].content
    )


def test_bob_never_gets_anns_answer_for_the_same_key(settings, ann, bob, quick_skipbo):
    """ann acts with key k; bob (not on turn) sends k: his own refusal, not ann's answer."""
    gid, version = quick_skipbo["id"], quick_skipbo["version"]
    first = ann.act(gid, {**STOCK_TO_PILE_0, "expected_version": version}, HTTP_IDEMPOTENCY_KEY="k")
    assert first.status_code == 201
    other = bob.act(gid, {**STOCK_TO_PILE_0, "expected_version": version}, HTTP_IDEMPOTENCY_KEY="k")
    assert other.status_code in (400, 403, 409) and other.content != first.content
    assert _keys() == {("ann", "k")}


def test_a_pruned_key_reused_for_another_action_is_carried_out_and_stored_anew(
    settings, ann, quick_skipbo
):
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    gid, version = quick_skipbo["id"], quick_skipbo["version"]
    first = ann.act(gid, {**STOCK_TO_PILE_0, "expected_version": version}, HTTP_IDEMPOTENCY_KEY="k")
    assert first.status_code == 201
    IdempotentAnswer.objects.update(created_at=timezone.now() - timedelta(seconds=2 * HOUR))
    assert game_services.idempotent_answers_prune() == 1
    game = ann.game(gid)
    # another action (a different body), the same key: a new request, not the old answer
    body = {**STOCK_TO_PILE_0, "pile": 1, "expected_version": game["version"]}
    second = ann.act(gid, body, HTTP_IDEMPOTENCY_KEY="k")
    assert second.status_code in (201, 400, 409), second.content
    assert second.content != first.content
    if second.status_code == 201:
        assert second.json()["version"] > first.json()["version"]
        again = ann.act(gid, body, HTTP_IDEMPOTENCY_KEY="k")
        assert again.content == second.content  # the new answer is the one kept
        assert IdempotentAnswer.objects.count() == 1


# --------------------------------------------------------------- on PostgreSQL, at once


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_four_prunes_at_once_delete_each_old_row_once(
    require_postgres, settings, ann, quick_skipbo
):
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    gid, old = quick_skipbo["id"], timezone.now() - timedelta(seconds=2 * HOUR)
    IdempotentAnswer.objects.bulk_create(
        IdempotentAnswer(user=ann.user, game_id=gid, key=f"old-{n}", status=201, body=b"{}")
        for n in range(400)
    )
    IdempotentAnswer.objects.update(created_at=old)
    _store(ann.user, gid, "young", timezone.now())
    counts = at_once(4, lambda _: game_services.idempotent_answers_prune(batch=7))
    # Each row is deleted once; a prune that met rows another deleted stops early,
    # so one more prune finds what is left (none, or the few it left).
    assert sum(counts) + game_services.idempotent_answers_prune() == 400
    assert _keys() == {("ann", "young")}


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_repeats_racing_the_prune_get_the_first_answer_or_a_refusal_never_a_500(
    require_postgres, settings, ann, quick_skipbo
):
    """The key's answer is being pruned while ann repeats it: each repeat gets the first
    answer byte for byte or (once pruned) the refusal of a new request; the game is
    acted on once."""
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    gid, version = quick_skipbo["id"], quick_skipbo["version"]
    body = {**STOCK_TO_PILE_0, "expected_version": version}
    first = ann.act(gid, body, HTTP_IDEMPOTENCY_KEY="race")
    assert first.status_code == 201
    events = Event.objects.filter(game_id=gid).count()
    IdempotentAnswer.objects.update(created_at=timezone.now() - timedelta(seconds=2 * HOUR))

    def repeat() -> list:
        from tests.api.conftest import Player

        client = Player()
        client.credentials(HTTP_AUTHORIZATION=f"Token {ann.token}")
        return [client.act(gid, body, HTTP_IDEMPOTENCY_KEY="race") for _ in range(5)]

    # six threads repeat, the seventh prunes
    done = at_once(
        7, lambda i: repeat() if i < 6 else game_services.idempotent_answers_prune(batch=1)
    )
    answers = [answer for batch in done[:6] for answer in batch]
    assert len(answers) == 30
    for answer in answers:
        if answer.status_code == 201:
            assert answer.content == first.content
        else:
            assert answer.status_code == 409, answer.content
            assert answer.json()["code"] == "version_conflict"
    assert Event.objects.filter(game_id=gid).count() == events
    assert not IdempotentAnswer.objects.exists()


# ------------------------------------------------------------------------- the migration


def _index_on_created_at() -> bool:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, IdempotentAnswer._meta.db_table)
    return any(c["index"] and c["columns"] == ["created_at"] for c in found.values())


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_migration_backwards_and_forwards_on_postgresql(require_postgres):
    assert _index_on_created_at()
    try:
        call_command("migrate", "games", "0017", verbosity=0)
        assert not _index_on_created_at()
    finally:
        call_command("migrate", "games", verbosity=0)
    assert _index_on_created_at()


SQLITE = """
import sqlite3, sys
from django.core.management import call_command
from django.db import connection
def has():
    with connection.cursor() as c:
        found = connection.introspection.get_constraints(c, "games_idempotentanswer")
    return any(v["index"] and v["columns"] == ["created_at"] for v in found.values())
assert connection.vendor == "sqlite", connection.vendor
call_command("migrate", verbosity=0); a = has()
call_command("migrate", "games", "0017", verbosity=0); b = has()
call_command("migrate", "games", verbosity=0); c = has()
print(a, b, c)
"""


def test_the_migration_backwards_and_forwards_on_the_embedded_sqlite(tmp_path):
    if (ROOT / ".env").exists():
        pytest.skip("a .env file beside manage.py would fill in the variables")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "PABLO_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="pablo.settings",
        PABLO_VAR_DIR=str(tmp_path),
        DATABASE_URL="",
        DJANGO_SECRET_KEY="k" * 50,
    )
    code = "import django; django.setup()\n" + SQLITE
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["True", "False", "True"]
