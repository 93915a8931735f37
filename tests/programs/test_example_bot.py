"""clients/python/examples/bot.py plays through the official client against a live
server: two of them, one account each, play a game of every ruleset to its end (any
ruleset: the bot only reads ``legal_actions``), each stopping when its N games have
finished (``--games``), as the account feed tells it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.models import Event, Game
from tests.api.conftest import create
from tests.fixtures import SKIPBO_QUICK_OPTIONS
from tests.poll import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(420)]

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "python"
OPTIONS = {"skipbo": SKIPBO_QUICK_OPTIONS}
RULESETS = ("pablo", "pablo-50", "tamalou", "cabo", "skipbo")


def bot(server, token: str, games: int, seed: int, log: Path) -> subprocess.Popen[bytes]:
    args = [sys.executable, str(CLIENT / "examples" / "bot.py"), "--url", server.url]
    args += ["--token", token, "--games", str(games), "--seed", str(seed)]
    env = {**os.environ, "PYTHONPATH": str(CLIENT), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(args, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def test_two_example_bots_play_every_ruleset_to_the_end(
    asgi_server, ann, bob, followers_inline, tmp_path
):
    ids = []
    for ruleset in RULESETS:
        game = create(ann, ruleset=ruleset, seats=2, options=OPTIONS.get(ruleset, {}))
        assert bob.post(f"/api/games/{game['id']}/join/").status_code == 200
        ids.append(game["id"])
    logs = [tmp_path / "ann.log", tmp_path / "bob.log"]
    bots = [
        bot(asgi_server, player.token, len(ids), seed, log)
        for player, seed, log in zip((ann, bob), (1, 2), logs, strict=True)
    ]
    try:
        wait_for(lambda: all(b.poll() is not None for b in bots), 360, what="the bots to stop")
    finally:
        for b in bots:
            if b.poll() is None:
                b.kill()
        output = "\n".join(f"--- {log.name}\n{log.read_text()[-3000:]}" for log in logs)
    assert [b.returncode for b in bots] == [0, 0], output
    for log in logs:
        assert f"{len(ids)} games finished" in log.read_text(), output
    assert set(Game.objects.filter(id__in=ids).values_list("status", flat=True)) == {"finished"}
    assert not Event.objects.filter(game_id__in=ids, type="turn_timed_out").exists()
