"""Name lookups of webhook and push destinations, shared by every account: one account's
names served by a slow DNS server must not hold another account's lookups.

The lookups ran on four threads per process, one queue for everyone: four names of a
stranger's slow domain (unthrottled ``PUT /api/me/webhook/``, or the stranger's own
deliveries in a notifications worker) took the four threads for the resolver's 10-30 s,
and every other account's lookup waited in the queue until ``PABLO_WEBHOOK_TIMEOUT``
and failed: its webhook and pushes were not delivered, its device not subscribed."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Any

import pytest

from games.notifications import push, webhooks

REAL = socket.getaddrinfo


@pytest.fixture
def slow_domain(monkeypatch, settings):
    """Names under ``slow.example`` answer when the test ends; others at once (loopback)."""
    settings.PABLO_WEBHOOK_TIMEOUT = 1.0
    release = threading.Event()
    running: dict[str, Any] = {"now": 0, "most": 0, "threads": []}
    lock = threading.Lock()

    def fake(host, port, *args, **kwargs):
        if str(host).rstrip(".").endswith("slow.example"):
            with lock:
                running["now"] += 1
                running["most"] = max(running["most"], running["now"])
            try:
                release.wait(10)
            finally:
                with lock:
                    running["now"] -= 1
            raise socket.gaierror("timed out")
        return REAL("127.0.0.1", port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    yield running
    release.set()
    for thread in running["threads"]:  # (none of them reaches the next test)
        thread.join(5)


def _stranger_looks_up(running: dict[str, Any], names: list[str]) -> None:
    threads = running["threads"]
    for name in names:

        def one(name: str = name) -> None:
            with contextlib.suppress(OSError):
                webhooks.lookup(name, 443)

        thread = threading.Thread(target=one, daemon=True)
        thread.start()
        threads.append(thread)
    time.sleep(0.2)  # their lookups are running (or waiting) now


def test_a_strangers_slow_names_hold_no_other_names_lookup(slow_domain):
    _stranger_looks_up(slow_domain, [f"h{i}.slow.example" for i in range(12)])
    started = time.monotonic()
    found = webhooks.lookup("hooks.good.example", 443)  # raised TimeoutError
    assert found and time.monotonic() - started < 0.5
    # the stranger's domain holds at most a couple of threads, whatever its names
    assert slow_domain["most"] <= webhooks.ZONE_LOOKUPS


def test_one_name_looked_up_at_once_is_looked_up_once(slow_domain):
    _stranger_looks_up(slow_domain, ["same.slow.example"] * 6)
    assert slow_domain["most"] == 1


def test_another_accounts_device_is_checked_while_a_strangers_names_are_slow(slow_domain, settings):
    settings.PABLO_PUSH_ALLOW_PRIVATE = True  # the good name answers loopback here
    _stranger_looks_up(slow_domain, [f"push{i}.slow.example" for i in range(8)])
    started = time.monotonic()
    assert push.check_endpoint("https://push.good.example/x") is None  # "does not resolve"
    assert time.monotonic() - started < 0.5


@pytest.mark.parametrize(
    ("host", "zone"),
    [
        ("a.b.slow.example", "slow.example"),
        ("HOOKS.Slack.com.", "slack.com"),
        ("x.y.example.co.uk", "example.co.uk"),
        ("push.example.de", "example.de"),
        ("localhost", "localhost"),
        ("93.184.216.34", "93.184.216.34"),
        ("0177.0.0.1", "0177.0.0.1"),
        ("::ffff:127.0.0.1", "::ffff:7f00:1"),
    ],
)
def test_the_zone_of_a_name(host, zone):
    assert webhooks.lookup_zone(host) == zone


def test_a_lookup_asked_after_an_answer_is_a_new_one(monkeypatch, settings):
    """The lookup thread gave its answer, then took the name out of the lookups in
    flight: a lookup asked in between (the next delivery, the next test) was given the
    former answer, whatever the name resolves to now."""
    import concurrent.futures

    settings.PABLO_WEBHOOK_TIMEOUT = 2.0
    answers = iter(["192.0.2.1", "192.0.2.2"])
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, port, *a, **k: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", (next(answers), port))
    ])  # fmt: skip
    real = concurrent.futures.Future.set_result

    def slowly(future, result):  # the thread paused right after answering
        real(future, result)
        time.sleep(0.3)

    monkeypatch.setattr(concurrent.futures.Future, "set_result", slowly)
    first = webhooks.lookup("again.example", 443)
    second = webhooks.lookup("again.example", 443)
    assert [first[0][4][0], second[0][4][0]] == ["192.0.2.1", "192.0.2.2"]
