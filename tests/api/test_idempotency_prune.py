"""Stored Idempotency-Key answers are kept PABLO_IDEMPOTENCY_SECONDS, then beat's
prune deletes them in batches; a repeat of a pruned key is a new request."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Event, IdempotentAnswer
from games.services import games as game_services

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent
STOCK_TO_PILE_0 = {"type": "play", "from": "stock", "pile": 0}
HOUR = 3600


def _age(seconds: float, **filters: object) -> None:
    """Make the matching stored answers ``seconds`` old."""
    at = timezone.now() - timedelta(seconds=seconds)
    IdempotentAnswer.objects.filter(**filters).update(created_at=at)


def _answers(ann, gid: str, keys: list[str], seconds: float) -> None:
    """Stored answers ``seconds`` old for ``keys`` (rows as ``game_act`` writes them)."""
    for key in keys:
        IdempotentAnswer.objects.create(user=ann.user, game_id=gid, key=key, status=201, body=b"{}")
    _age(seconds, key__in=keys)


def _keys() -> set[str]:
    return set(IdempotentAnswer.objects.values_list("key", flat=True))


def test_the_prune_deletes_only_answers_older_than_the_setting(settings, ann, quick_skipbo):
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    gid = quick_skipbo["id"]
    _answers(ann, gid, ["old", "older"], HOUR + 60)
    _answers(ann, gid, ["young"], HOUR - 60)
    _answers(ann, gid, ["new"], 0)

    assert game_services.idempotent_answers_prune() == 2
    assert _keys() == {"young", "new"}
    assert game_services.idempotent_answers_prune() == 0  # nothing left to prune
    assert _keys() == {"young", "new"}


def test_the_prune_deletes_in_batches(settings, ann, quick_skipbo):
    """More old rows than a batch: one bounded DELETE a batch until one finds fewer."""
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    gid = quick_skipbo["id"]
    _answers(ann, gid, [f"old-{n}" for n in range(7)], HOUR + 60)
    _answers(ann, gid, ["young-1", "young-2"], 60)

    with CaptureQueriesContext(connection) as queries:
        assert game_services.idempotent_answers_prune(batch=3) == 7
    deletes = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("DELETE")]
    assert len(deletes) == 3  # 3 + 3 + 1 rows
    assert all("LIMIT 3" in sql for sql in deletes)
    assert _keys() == {"young-1", "young-2"}


def test_the_default_batch_is_a_thousand_rows(settings, ann, quick_skipbo):
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    _answers(ann, quick_skipbo["id"], ["old"], HOUR + 60)
    with CaptureQueriesContext(connection) as queries:
        assert game_services.idempotent_answers_prune() == 1
    [delete] = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("DELETE")]
    assert "LIMIT 1000" in delete


def test_a_kept_key_still_answers_and_a_pruned_key_is_a_new_request(settings, ann, quick_skipbo):
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    gid, version = quick_skipbo["id"], quick_skipbo["version"]
    first = ann.act(
        gid, {**STOCK_TO_PILE_0, "expected_version": version}, HTTP_IDEMPOTENCY_KEY="k-1"
    )
    second = ann.act(
        gid, {**STOCK_TO_PILE_0, "expected_version": version + 1}, HTTP_IDEMPOTENCY_KEY="k-2"
    )
    assert (first.status_code, second.status_code) == (201, 201)
    _age(HOUR + 60, key="k-1")
    _age(HOUR - 60, key="k-2")

    assert game_services.idempotent_answers_prune() == 1
    stored = Event.objects.filter(game_id=gid).count()

    # Kept: the first answer again, byte for byte, and nothing new stored.
    again = ann.act(
        gid, {**STOCK_TO_PILE_0, "expected_version": version + 1}, HTTP_IDEMPOTENCY_KEY="k-2"
    )
    assert again.status_code == 201
    assert again.content == second.content
    # Pruned: carried out again as a new request, which no longer applies.
    retried = ann.act(
        gid, {**STOCK_TO_PILE_0, "expected_version": version}, HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert retried.status_code == 409
    assert retried.json()["code"] == "version_conflict"
    assert Event.objects.filter(game_id=gid).count() == stored
    assert _keys() == {"k-2"}


def test_the_prune_is_a_beat_task(settings, ann, quick_skipbo):
    entry = settings.CELERY_BEAT_SCHEDULE["prune-idempotent-answers"]
    assert entry["task"] == "games.prune_idempotent_answers"
    assert entry["schedule"] == settings.PABLO_IDEMPOTENCY_PRUNE_SECONDS
    assert entry["options"]["expires"] > 0
    from pablo.celery import app

    app.loader.import_default_modules()
    task = app.tasks["games.prune_idempotent_answers"]
    settings.PABLO_IDEMPOTENCY_SECONDS = HOUR
    _answers(ann, quick_skipbo["id"], ["old"], HOUR + 60)
    _answers(ann, quick_skipbo["id"], ["young"], 60)
    assert task() == 1
    assert _keys() == {"young"}


SHOW = (
    "import json; from django.conf import settings as s; print(json.dumps(["
    "s.PABLO_IDEMPOTENCY_SECONDS, s.PABLO_IDEMPOTENCY_PRUNE_SECONDS, "
    "s.CELERY_BEAT_SCHEDULE['prune-idempotent-answers']['schedule']]))"
)


def _run_settings(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    if (ROOT / ".env").exists():
        pytest.skip("a .env file beside manage.py would fill in the variables")
    names = ("PABLO_IDEMPOTENCY_SECONDS", "PABLO_IDEMPOTENCY_PRUNE_SECONDS")
    clean = {k: v for k, v in os.environ.items() if k not in names}
    clean.update(DJANGO_SETTINGS_MODULE="pablo.settings", PABLO_VAR_DIR=str(tmp_path), **env)
    clean.setdefault("DJANGO_SECRET_KEY", "k" * 50)
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def _settings(tmp_path: Path, **env: str) -> list[float]:
    out = _run_settings(tmp_path, **env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize(
    "env",
    [
        {"PABLO_IDEMPOTENCY_SECONDS": "-1"},
        {"PABLO_IDEMPOTENCY_SECONDS": "0"},
        {"PABLO_IDEMPOTENCY_SECONDS": "3600"},
        {"PABLO_IDEMPOTENCY_PRUNE_SECONDS": "0"},
        {"PABLO_IDEMPOTENCY_PRUNE_SECONDS": "-5"},
        {"PABLO_IDEMPOTENCY_PRUNE_SECONDS": "604800"},
    ],
)
def test_settings_that_would_forget_answers_too_soon_or_prune_non_stop_are_refused(tmp_path, env):
    out = _run_settings(tmp_path, **env)
    assert out.returncode != 0
    name = next(iter(env))
    assert "ImproperlyConfigured" in out.stderr and f"{name} is" in out.stderr


def test_the_settings_default_to_a_week_and_an_hour(tmp_path):
    assert _settings(tmp_path) == [7 * 24 * 3600, 3600, 3600]
    assert _settings(
        tmp_path, PABLO_IDEMPOTENCY_SECONDS="86400", PABLO_IDEMPOTENCY_PRUNE_SECONDS="600"
    ) == [86400, 600, 600]


def test_the_prune_finds_old_answers_by_an_index_on_created_at():
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, IdempotentAnswer._meta.db_table)
    assert any(c["index"] and c["columns"] == ["created_at"] for c in found.values())
