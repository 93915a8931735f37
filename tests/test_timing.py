"""The parallel split (tests/timing.py ``layout``): every worker starts on its part of the
long tests, so that none is left with a long tail."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.timing import layout


def shares(order: list[str], workers: int) -> list[list[str]]:
    """What pytest-xdist's worksteal hands each worker first: what is left // workers left."""
    out, left = [], list(order)
    for n in range(workers):
        take = len(left) // (workers - n)
        out.append(left[:take])
        left = left[take:]
    return out


def test_the_long_tests_are_dealt_out_longest_first_to_the_least_loaded_share():
    cost = {f"short{i}": 0.1 for i in range(40)}
    cost |= {"c": 30.0, "a": 50.0, "f": 5.0, "b": 40.0, "e": 10.0, "d": 20.0}
    items = list(cost)  # file order: the long tests last, together, in no order
    order = layout(items, cost, {}, 2, 2.0)
    assert sorted(order) == sorted(items)
    first, second = shares(order, 2)
    assert first[:3] == ["a", "d", "e"] and second[:3] == ["b", "c", "f"]
    assert {i for i in first + second if cost[i] < 2} == {f"short{i}" for i in range(40)}


def test_a_modules_long_tests_with_a_shared_fixture_stay_together_in_parts():
    cost = {f"short{i}": 0.5 for i in range(100)}
    browser = {f"browser{i}": 10.0 for i in range(4)}
    cost |= browser | {"slow": 30.0}
    together = dict.fromkeys(browser, "tests/play/test_browser.py")
    order = layout(list(cost), cost, together, 2, 2.0)
    first, second = shares(order, 2)
    # parts of at most half a worker's work (120 s / 2 / 2): three browser tests, then one
    assert second[:3] == ["browser0", "browser1", "browser2"]
    assert first[:2] == ["slow", "browser3"]


def test_one_worker_keeps_the_order_of_its_share_when_counts_do_not_divide():
    cost = {f"t{i}": 0.1 for i in range(7)} | {"long": 9.0}
    order = layout(list(cost), cost, {}, 3, 2.0)
    assert sorted(order) == sorted(cost)
    assert shares(order, 3)[0][0] == "long"


def test_the_recorder_writes_a_line_per_test_and_the_durations_when_asked(tmp_path):
    """PABLO_TEST_TIMES records; PABLO_TEST_DURATIONS=write merges into durations.json."""
    (tmp_path / "test_sample.py").write_text(
        "import time\n\ndef test_sleeps():\n    time.sleep(0.3)\n\ndef test_fails():\n"
        "    assert False\n"
    )
    times = tmp_path / "times.jsonl"
    root = Path(__file__).resolve().parents[1]
    plugin = (
        "import tests.timing as t, pathlib, sys; "
        f"t.DURATIONS = pathlib.Path({str(tmp_path / 'durations.json')!r})"
    )
    (tmp_path / "conftest.py").write_text(f"{plugin}\npytest_plugins = ['tests.timing']\n")
    env = {
        "PABLO_TEST_TIMES": str(times),
        "PABLO_TEST_DURATIONS": "write",
        "PYTHONPATH": str(root),
        "PATH": "/usr/bin:/bin",
    }
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:django",
         "--rootdir", str(tmp_path), "-c", "/dev/null", str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    records = {
        r["id"].rsplit("::", 1)[1]: r for r in map(json.loads, times.read_text().split("\n")[:-1])
    }
    assert records["test_sleeps"]["outcome"] == "passed"
    assert records["test_fails"]["outcome"] == "failed"
    assert 0.3 <= records["test_sleeps"]["wall"] < 10
    assert records["test_sleeps"]["cpu"] < records["test_sleeps"]["wall"]  # a sleep is waiting
    written = json.loads((tmp_path / "durations.json").read_text())
    assert written[records["test_sleeps"]["id"]] >= 0.3
