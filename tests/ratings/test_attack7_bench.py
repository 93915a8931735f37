"""attack7: bench/bench_ratings.py's new flags, quick runs (pure, no database).

Before: ``--replay`` of a dump made with ``--improvers`` stopped at a ``KeyError``
unless the run's flags were given again, and the held-out report divided by zero when
no held-out game could judge the predictions (all unfinished, or all tied first)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
BENCH = ROOT / "bench" / "bench_ratings.py"


def _bench(*args: str) -> str:
    env = {**os.environ, "DJANGO_DEBUG": "1"}
    out = subprocess.run(
        [sys.executable, str(BENCH), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def _results(text: str) -> list[str]:
    """The report without its timings."""
    return [
        line
        for line in text.splitlines()
        if not any(t in line for t in ("games, ", "games in", "load average"))
    ]


def test_a_dump_with_improvers_replays_to_the_same_report_without_the_flags(tmp_path):
    dump = tmp_path / "games.jsonl"
    played = _bench(
        "--via", "pure", "--games", "60", "--improvers", "2", "--duel", "0", "--dump", str(dump)
    )
    assert "improver-0" in played and "improvers, k games after" in played
    assert sum(1 for _ in dump.open()) == 60
    replayed = _bench("--replay", str(dump))
    assert _results(replayed) == _results(played)
    # a trial of openskill's gamma on the same games runs too
    assert "gamma sigma / c" in _bench("--replay", str(dump), "--gamma", "openskill")


@pytest.mark.parametrize(
    "places",
    ["never ended", {"random-0": 1, "random-1": 1}],
    ids=["unfinished", "tied-first"],
)
def test_a_held_out_part_with_nothing_to_judge_is_said_so(tmp_path, places):
    dump = tmp_path / "games.jsonl"
    dump.write_text(
        json.dumps({"game": 0, "table": ["random-0", "random-1"], "places": places}) + "\n"
    )
    assert "held-out 1 games: none to judge the predictions by" in _bench("--replay", str(dump))


def test_a_replay_of_accounts_of_no_policy_says_so(tmp_path):
    dump = tmp_path / "games.jsonl"
    table = {"game": 0, "table": ["random-0", "wizard-1"], "places": {"random-0": 1}}
    dump.write_text(json.dumps(table) + "\n")
    out = subprocess.run(
        [sys.executable, str(BENCH), "--replay", str(dump)],
        cwd=ROOT,
        env={**os.environ, "DJANGO_DEBUG": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 1 and "'wizard-1' is of no policy" in out.stderr
