"""A push is sent only where a subscription could be made: the delivery applies the
subscription's filter again -- https only, no ``user@``, every address the host
resolves to public (unless ``PABLO_PUSH_ALLOW_PRIVATE``) -- and connects to the
addresses it checked. A row stored before the filter, or before the operator turned
``PABLO_PUSH_ALLOW_PRIVATE`` off, or a host whose DNS now answers a private address
(rebinding) gets no POST. No database: ``push.post`` reads settings only."""

from __future__ import annotations

import pytest

from games.models import PushSubscription
from games.notifications import push, webhooks
from tests.fixtures import user
from tests.notifications.common import client_for
from tests.notifications.test_webhook_pinning import PUBLIC, Connections, FakeDNS

PAIR = push.make_keys()
MESSAGE = {"kind": "your_turn", "game": "0" * 32, "title": "t", "body": "b", "url": "/"}


def device(endpoint: str) -> PushSubscription:
    keys = push.make_keys()  # any P-256 point will do as the browser's key
    return PushSubscription(
        endpoint=endpoint, p256dh=keys["public_key"], auth=push.b64url(b"0123456789abcdef")
    )


def test_a_public_https_endpoint_is_connected_to_at_its_checked_address(settings, monkeypatch):
    settings.PABLO_PUSH_ALLOW_PRIVATE = False
    FakeDNS(monkeypatch, [[PUBLIC]])
    connections = Connections(monkeypatch)
    with pytest.raises(webhooks.WebhookFailed):  # the test's connection refuses
        push.post(device("https://push.example/send/abc"), MESSAGE, urgent=False, pair=PAIR)
    assert connections.addresses == [(PUBLIC, 443)]


def test_a_rebinding_answer_at_delivery_is_refused_without_connecting(settings, monkeypatch):
    settings.PABLO_PUSH_ALLOW_PRIVATE = False
    dns = FakeDNS(monkeypatch, [["127.0.0.1"]])  # public when subscribed, loopback now
    connections = Connections(monkeypatch)
    with pytest.raises(webhooks.WebhookRefused):
        push.post(device("https://push.example/send/abc"), MESSAGE, urgent=False, pair=PAIR)
    assert dns.lookups == ["push.example"] and connections.addresses == []


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example/send/abc",  # plain http: only with PABLO_PUSH_ALLOW_PRIVATE
        "https://user@push.example/send/abc",  # a browser never gives a user name
        "https://user:secret@push.example/send/abc",
        "https://push.example:0/send/abc",
    ],
)
def test_an_endpoint_the_subscription_refuses_is_refused_at_delivery(
    settings, monkeypatch, endpoint
):
    """``http://`` and ``user@`` endpoints stored earlier were POSTed to (the delivery used
    the webhooks' looser spelling: http allowed, credentials sent as Basic)."""
    settings.PABLO_PUSH_ALLOW_PRIVATE = False
    assert push.check_endpoint(endpoint) is not None  # what the subscription answers
    FakeDNS(monkeypatch, [[PUBLIC]])
    connections = Connections(monkeypatch)
    with pytest.raises(webhooks.WebhookRefused):
        push.post(device(endpoint), MESSAGE, urgent=False, pair=PAIR)
    assert connections.addresses == []


def test_an_ipv6_literal_endpoint_is_refused_not_a_crash_at_delivery(settings, monkeypatch):
    """``https://[2606:…]/`` was subscribed (a public address) and then every delivery
    raised py_vapid's ``VapidException`` (its ``aud`` cannot be an IPv6 literal): the
    worker failed on it again and again. Refused when subscribing; a row stored before
    is refused at delivery, without connecting."""
    settings.PABLO_PUSH_ALLOW_PRIVATE = False
    endpoint = "https://[2606:2800:220:1:248:1893:25c8:1946]/send/abc"
    assert "IPv6" in str(push.check_endpoint(endpoint))
    connections = Connections(monkeypatch)
    with pytest.raises(webhooks.WebhookRefused):
        push.post(device(endpoint), MESSAGE, urgent=False, pair=PAIR)
    assert connections.addresses == []


@pytest.mark.django_db
def test_the_api_names_the_endpoint_field(settings):
    settings.PABLO_PUSH_ALLOW_PRIVATE = False
    body = {"endpoint": "https://[2606:2800:220:1:248:1893:25c8:1946]/send/abc"}
    body["keys"] = {"p256dh": push.make_keys()["public_key"], "auth": push.b64url(b"0" * 16)}
    answer = client_for(user("ann")).post("/api/me/push/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("endpoint:") and "IPv6" in answer.json()["detail"]
    assert not PushSubscription.objects.exists()
