"""The one filter of webhook and Web Push destinations, against every spelling of a
forbidden one: ports out of 1-65535 (``:0`` is not the default port), credentials in a
push endpoint, loopback written as a decimal, octal, short, hexadecimal, IPv6 or
IPv4-mapped literal, ``localhost`` with a trailing dot. No DNS: the literals are
numeric and the names are refused before any lookup."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from rest_framework.test import APIClient

from games.models import NotificationSettings, PushSubscription
from games.notifications import push, webhooks
from tests.fixtures import user

PUBLIC = "93.184.216.34"  # a global address: allowed, and numeric (no lookup)
PAIR = push.make_keys()


def _keys() -> dict[str, str]:
    device = push.make_keys()  # any P-256 point will do as the browser's key
    return {"p256dh": device["public_key"], "auth": push.b64url(b"0123456789abcdef")}


@pytest.mark.parametrize(
    "url",
    [
        f"https://{PUBLIC}:0/push",  # was read as the default port, 443
        f"https://{PUBLIC}:00/push",
        f"https://{PUBLIC}:65536/push",
        f"https://{PUBLIC}:99999/push",
        f"https://{PUBLIC}:-1/push",
        f"https://{PUBLIC}:+443/push",
        f"https://{PUBLIC}:0x1bb/push",
        f"https://{PUBLIC}:\u0664\u0664\u0663/push",  # Arabic-Indic digits
        "https://:443/push",
        "https:///push",
        "https://./push",
        f"ftp://{PUBLIC}/push",
    ],
)
def test_malformed_destinations_are_refused_before_any_lookup(url):
    with pytest.raises(webhooks.WebhookMalformed):
        webhooks.split_destination(url)
    with pytest.raises(webhooks.WebhookRefused):
        webhooks.resolve_destination(url, allow_private=True)


def test_ports_in_range_and_the_defaults():
    assert webhooks.split_destination(f"https://{PUBLIC}/p") == ("https", PUBLIC, 443)
    assert webhooks.split_destination(f"http://{PUBLIC}/p") == ("http", PUBLIC, 80)
    assert webhooks.split_destination(f"https://{PUBLIC}:1/p")[2] == 1
    assert webhooks.split_destination(f"https://{PUBLIC}:65535/p")[2] == 65535
    assert webhooks.split_destination(f"https://u:p@{PUBLIC}/p")[1] == PUBLIC  # webhooks: Basic
    with pytest.raises(webhooks.WebhookMalformed):
        webhooks.split_destination(f"https://u@{PUBLIC}/p", credentials=False)


@pytest.mark.parametrize(
    "url",
    [
        "http://2130706433/",  # 127.0.0.1, decimal
        "http://0177.0.0.1/",  # octal
        "http://0x7f000001/",  # hexadecimal
        "http://017700000001/",
        "http://127.1/",
        "http://0/",  # 0.0.0.0
        "http://[::1]/",
        "http://[::ffff:7f00:1]/",  # IPv4-mapped, hexadecimal spelling
        "http://[::ffff:169.254.169.254]/",
        "http://[fe80::1]/",  # link-local
        "http://localhost./",
        "http://LOCALHOST/",
        "http://metadata.localhost/",
        f"http://u:p@127.0.0.1:8080/{PUBLIC}",
    ],
)
def test_every_spelling_of_a_private_address_is_refused(url):
    with pytest.raises(webhooks.WebhookRefused):
        webhooks.resolve_destination(url, allow_private=False)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "endpoint",
    [
        f"https://{PUBLIC}:0/push/1",
        f"https://{PUBLIC}:65536/push/1",
        f"https://someone@{PUBLIC}/push/1",
        f"https://fcm.googleapis.com@{PUBLIC}/push/1",
        "https://[::ffff:127.0.0.1]/push/1",
        "https://localhost./push/1",
    ],
)
def test_push_endpoints_spelled_wrong_are_400(settings, endpoint):
    settings.PABLO_PUSH_ALLOW_PRIVATE = False
    c = APIClient()
    c.force_authenticate(user("ann"))
    answer = c.post("/api/me/push/", {"endpoint": endpoint, "keys": _keys()}, format="json")
    assert answer.status_code == 400, answer.content
    assert set(answer.json()) == {"code", "detail"}
    assert not PushSubscription.objects.exists()
    good = f"https://{PUBLIC}/push/1"
    ok = c.post("/api/me/push/", {"endpoint": good, "keys": _keys()}, format="json")
    assert ok.status_code == 201, ok.content


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["https://example.org:0/hook", "https://example.org:70000/h"])
def test_webhook_with_a_port_out_of_range_is_400(url):
    ann = user("ann")
    c = APIClient()
    c.force_authenticate(ann)
    answer = c.put("/api/me/webhook/", {"url": url}, format="json")
    assert answer.status_code == 400, answer.content
    assert set(answer.json()) == {"code", "detail"}
    assert not NotificationSettings.objects.filter(user=ann).exclude(webhook_url="").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/hook",
        "https://[::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://10.0.0.7/hook",
        "https://localhost/hook",
        "https://a.localhost/hook",
    ],
)
def test_a_webhook_on_a_private_address_is_400_when_registered(settings, url):
    """It was registered (200, a secret shown) and only every delivery was refused: the
    owner was never told. ``PABLO_WEBHOOK_ALLOW_PRIVATE`` off, as on a public server."""
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = False
    ann = user("ann")
    c = APIClient()
    c.force_authenticate(ann)
    answer = c.put("/api/me/webhook/", {"url": url}, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["detail"].startswith("url:")
    assert not NotificationSettings.objects.filter(user=ann).exclude(webhook_url="").exists()
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = True  # a local receiver, for development
    assert c.put("/api/me/webhook/", {"url": url}, format="json").status_code == 200


@pytest.mark.django_db
def test_a_webhook_on_a_public_address_or_a_name_not_resolving_yet_is_kept(settings, monkeypatch):
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = False
    c = APIClient()
    c.force_authenticate(user("ann"))
    answer = c.put("/api/me/webhook/", {"url": f"https://{PUBLIC}/h"}, format="json")
    assert answer.status_code == 200, answer.content

    def no_answer(*args, **kwargs):
        raise socket.gaierror("no such name (yet)")

    monkeypatch.setattr(socket, "getaddrinfo", no_answer)
    answer = c.put("/api/me/webhook/", {"url": "https://hooks.example/h"}, format="json")
    assert answer.status_code == 200, answer.content  # a delivery resolves it again


@pytest.mark.django_db
def test_a_name_whose_dns_answers_slowly_holds_no_request_beyond_the_timeout(settings, monkeypatch):
    """A stranger's hostname served by a slow DNS server: the lookup ran inside the
    request, unbounded (a resolver's own timeouts are 10-30 s), so many such requests
    held every web worker. Now each is answered within ``PABLO_WEBHOOK_TIMEOUT``."""
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = False
    settings.PABLO_PUSH_ALLOW_PRIVATE = False
    settings.PABLO_WEBHOOK_TIMEOUT = 0.5
    release = threading.Event()

    def slow(*args, **kwargs):
        release.wait(5)  # (the test lets every lookup go at its end)
        raise socket.gaierror("timed out")

    monkeypatch.setattr(socket, "getaddrinfo", slow)
    c = APIClient()
    c.force_authenticate(user("ann"))
    try:
        started = time.monotonic()
        hook = c.put("/api/me/webhook/", {"url": "https://slow.example/h"}, format="json")
        device = c.post("/api/me/push/", {
            "endpoint": "https://slow.example/push/1",
            "keys": _keys(),
        }, format="json")  # fmt: skip
        took = time.monotonic() - started
    finally:
        release.set()
    assert hook.status_code == 200  # kept: each delivery resolves it again
    assert device.status_code == 400 and "resolve" in device.json()["detail"]
    assert took < 2.5, took
