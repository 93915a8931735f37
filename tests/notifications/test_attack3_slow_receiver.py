"""Attacks of a stranger (round 3): a webhook or push receiver that answers one byte at
a time. ``PABLO_WEBHOOK_TIMEOUT`` bounded each socket operation, not the delivery: a
receiver dripping its headers (or a host whose many addresses each let the connection
time out) held a notifications worker for as long as it liked -- hours for 64 KiB at a
byte every few seconds -- and a few such accounts stopped every user's notifications.
The whole exchange now ends by ``PABLO_WEBHOOK_TIMEOUT`` (docs/deadlines.md: "each
delivery waits at most ``PABLO_WEBHOOK_TIMEOUT``"). No database."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import pytest

from games.notifications import webhooks
from tests.notifications.test_webhook_pinning import BODY, FakeDNS

DRIP = 0.1  # seconds between two bytes


class Dripper:
    """A TCP receiver on 127.0.0.1 that reads the request, then sends ``head`` at once
    and ``drip`` one byte every ``DRIP`` seconds (until the client goes away)."""

    def __init__(self, head: bytes, drip: bytes) -> None:
        self.head, self.drip = head, drip
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.stop = threading.Event()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self.answer, args=(conn,), daemon=True).start()

    def answer(self, conn: socket.socket) -> None:
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            try:
                conn.sendall(self.head)
                for byte in self.drip:
                    if self.stop.is_set():
                        return
                    conn.sendall(bytes([byte]))
                    time.sleep(DRIP)
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        self.server.close()


@pytest.fixture
def dripper_factory():
    made: list[Dripper] = []

    def make(head: bytes, drip: bytes) -> Dripper:
        made.append(Dripper(head, drip))
        return made[-1]

    yield make
    for d in made:
        d.close()


def test_a_receiver_dripping_its_headers_is_cut_off_at_the_timeout(settings, dripper_factory):
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = True
    settings.PABLO_WEBHOOK_TIMEOUT = 0.5
    # 100 header bytes at 0.1 s each: 10 s, each byte well within the 0.5 s per read
    slow = dripper_factory(b"HTTP/1.1 200 OK\r\n", b"X-Slow: " + b"a" * 90 + b"\r\n\r\n")
    started = time.monotonic()
    with pytest.raises(webhooks.WebhookFailed):
        webhooks.post_webhook(f"http://127.0.0.1:{slow.port}/hook", "s", BODY)
    assert time.monotonic() - started < 2.5


def test_a_receiver_dripping_its_answer_body_keeps_its_status(settings, dripper_factory):
    """The status and headers came in time: the delivery is done (its status), the rest
    of the answer is not waited for."""
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = True
    settings.PABLO_WEBHOOK_TIMEOUT = 0.5
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"
    slow = dripper_factory(head, b"x" * 1000)
    started = time.monotonic()
    assert webhooks.post_webhook(f"http://127.0.0.1:{slow.port}/hook", "s", BODY) == 200
    assert time.monotonic() - started < 2.5


def test_a_host_of_many_silent_addresses_is_given_up_at_the_timeout(settings, monkeypatch):
    """Each address got the whole timeout to connect: 40 silent addresses, 40 timeouts."""
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = False
    settings.PABLO_WEBHOOK_TIMEOUT = 0.5
    FakeDNS(monkeypatch, [[f"93.184.216.{i}" for i in range(1, 41)]])
    tried: list[Any] = []

    def silent(address: Any, timeout: float = 0, *args: Any, **kwargs: Any) -> socket.socket:
        tried.append(address)
        time.sleep(min(timeout, 0.5))
        raise TimeoutError("timed out")

    monkeypatch.setattr(socket, "create_connection", silent)
    started = time.monotonic()
    with pytest.raises(webhooks.WebhookFailed):
        webhooks.post_webhook("http://hook.example/p", "s", BODY)
    assert time.monotonic() - started < 2.0
    assert 1 <= len(tried) < 40


def test_a_connection_made_past_the_deadline_is_given_up(settings, monkeypatch, dripper_factory):
    """The watchdog fired while the connection was being made (no socket to cut yet):
    the connection that came after it must not go on, one byte at a time."""
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = True
    settings.PABLO_WEBHOOK_TIMEOUT = 0.5
    slow = dripper_factory(b"HTTP/1.1 200 OK\r\n", b"X-Slow: " + b"a" * 90 + b"\r\n\r\n")
    real = socket.create_connection

    def late(address: Any, timeout: float = 0, *args: Any, **kwargs: Any) -> socket.socket:
        time.sleep(0.7)  # past the 0.5 s the whole delivery has
        return real(address, 5, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", late)
    started = time.monotonic()
    with pytest.raises(webhooks.WebhookFailed):
        webhooks.post_webhook(f"http://127.0.0.1:{slow.port}/hook", "s", BODY)
    assert time.monotonic() - started < 2.5


def test_a_slow_lookup_leaves_only_what_is_left(settings, monkeypatch, dripper_factory):
    """The name's lookup is part of the attempt: a lookup that took most of the timeout
    left the exchange a whole timeout of its own (twice ``PABLO_WEBHOOK_TIMEOUT`` in all)."""
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = True
    settings.PABLO_WEBHOOK_TIMEOUT = 1.0
    slow = dripper_factory(b"HTTP/1.1 200 OK\r\n", b"X-Slow: " + b"a" * 90 + b"\r\n\r\n")
    real = socket.getaddrinfo

    def slow_dns(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "dns.example":  # (not the connection's own look at 127.0.0.1)
            time.sleep(0.8)
        return real("127.0.0.1", port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", slow_dns)
    started = time.monotonic()
    with pytest.raises(webhooks.WebhookFailed):
        webhooks.post_webhook(f"http://dns.example:{slow.port}/hook", "s", BODY)
    assert time.monotonic() - started < 1.4
