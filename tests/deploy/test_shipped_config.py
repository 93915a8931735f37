"""Issue 18, item 5: the shipped configurations keep secrets and debug pages in.

* compose set ``DJANGO_SECRET_KEY`` to a public default, with which a
  ``messages`` cookie was forged offline: compose now refuses to start
  without a key, and the settings refuse published keys;
* ``make run`` ran with DEBUG on (URL lists on a 404, tracebacks on a 500,
  webhooks to private addresses) and the README offered ``BIND=0.0.0.0``:
  it now serves with DEBUG off, and debug beyond loopback is refused by
  ``scripts/run.sh`` and by gunicorn itself.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import free_port

ROOT = Path(__file__).resolve().parents[2]
SHOW_KEY = "-c\0import django; django.setup(); from django.conf import settings; print('ok')"


def clean_env(tmp_path: Path, **env: str) -> dict[str, str]:
    if (ROOT / ".env").exists():
        pytest.skip("a .env file beside manage.py would fill in the variables")
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_", "PABLO_CACHE"))
    }
    clean.update(DJANGO_SETTINGS_MODULE="pablo.settings", PABLO_VAR_DIR=str(tmp_path), **env)
    return clean


def run(args: list[str], tmp_path: Path, timeout: float = 60, **env: str):
    return subprocess.run(
        args,
        cwd=ROOT,
        env=clean_env(tmp_path, **env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    "key",
    [
        "change-me-in-production",  # the old compose default
        "django-insecure-9x$w#(ab)k_example-key-from-startproject-0123456789",
        "tests-only-key-" + "k" * 50,
    ],
)
def test_published_secret_keys_are_refused(tmp_path, key):
    for debug in ("0", "1"):
        out = run([sys.executable, *SHOW_KEY.split("\0")], tmp_path, DJANGO_SECRET_KEY=key,
                  DJANGO_DEBUG=debug)  # fmt: skip
        assert out.returncode != 0, out.stdout
        assert "DJANGO_SECRET_KEY is a key published" in out.stderr


def test_a_key_of_ones_own_is_fine(tmp_path):
    out = run([sys.executable, *SHOW_KEY.split("\0")], tmp_path,
              DJANGO_SECRET_KEY="my-own-" + "Zq8" * 20)  # fmt: skip
    assert out.returncode == 0, out.stderr


def test_compose_has_no_default_key_and_refuses_to_start_without_one():
    text = (ROOT / "docker-compose.yml").read_text()
    assert "change-me" not in text
    values = re.findall(r"DJANGO_SECRET_KEY:\s*(.+)", text)
    assert values and all(v.strip('"').startswith("${DJANGO_SECRET_KEY:?") for v in values)
    # a compose that is installed says so itself
    for compose in (["docker", "compose"], ["docker-compose"]):
        try:
            version = subprocess.run(
                [*compose, "version"], capture_output=True, text=True, timeout=30
            )
            if version.returncode != 0:
                continue  # no compose here (docker without its compose plugin)
            out = subprocess.run(
                [*compose, "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],
                env={k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"},
                capture_output=True,
                text=True,
                timeout=30,
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        assert out.returncode != 0 and "DJANGO_SECRET_KEY" in out.stderr, out.stderr


def test_make_run_serves_without_debug_by_default():
    script = (ROOT / "scripts" / "run.sh").read_text()
    assert "DJANGO_DEBUG=${DJANGO_DEBUG:-0}" in script
    readme = (ROOT / "README.md").read_text()
    assert "BIND=0.0.0.0" not in readme


@pytest.mark.parametrize("bind", ["0.0.0.0", "10.1.2.3", "[::]"])
def test_run_sh_refuses_debug_beyond_loopback(tmp_path, bind):
    out = run(["bash", "scripts/run.sh"], tmp_path, timeout=30, DJANGO_DEBUG="1",
              BIND=f"{bind}:8999")  # fmt: skip
    assert out.returncode == 1
    assert "Refusing to listen on" in out.stderr


def test_gunicorn_refuses_debug_beyond_loopback(tmp_path):
    port = free_port()
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    args = [gunicorn, "pablo.wsgi", "--bind", f"0.0.0.0:{port}", "--workers", "1"]
    out = run([*args, "--no-control-socket"], tmp_path, timeout=60, DJANGO_DEBUG="1")
    if "unrecognized arguments" in out.stderr:
        out = run(args, tmp_path, timeout=60, DJANGO_DEBUG="1")
    assert out.returncode != 0
    assert "Refusing to listen on" in out.stdout + out.stderr
