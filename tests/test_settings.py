"""Settings from the environment: what a new user's shell or .env may hold."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SHOW = (
    "import django, json; from django.conf import settings as s; "
    "print(json.dumps([s.DATABASES['default']['ENGINE'], str(s.DATABASES['default']['NAME']), "
    "s.CELERY_BROKER_URL]))"
)


def _settings(tmp_path: Path, **env: str) -> list[str]:
    if (ROOT / ".env").exists():
        pytest.skip("a .env file beside manage.py would fill in the variables")
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    clean.update(DJANGO_SETTINGS_MODULE="pablo.settings", PABLO_VAR_DIR=str(tmp_path), **env)
    clean.setdefault("DJANGO_SECRET_KEY", "k" * 50)  # without it (and debug) settings refuse
    out = subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("env", [{}, {"DATABASE_URL": "", "CELERY_BROKER_URL": ""}])
def test_unset_or_empty_means_the_embedded_default(tmp_path, env):
    engine, name, broker = _settings(tmp_path, **env)
    assert engine == "django.db.backends.sqlite3"
    assert name == str(tmp_path / "db.sqlite3")
    assert broker == "filesystem://"


def test_urls_are_taken_as_given(tmp_path):
    engine, name, broker = _settings(
        tmp_path,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/elsewhere",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/7",
    )
    assert (engine, name, broker) == (
        "django.db.backends.postgresql",
        "elsewhere",
        "redis://127.0.0.1:6379/7",
    )
