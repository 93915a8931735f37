"""Attacks of a stranger (round 3): addresses Python 3.11's ``is_global`` calls global
but that are not on the public internet. A push endpoint or webhook whose name resolves
to one was accepted and POSTed to (Python 3.11, the image's, says ``is_global`` for
multicast, for the deprecated IPv6 site-local fec0::/10 and for 192.0.0.8)."""

from __future__ import annotations

import ipaddress

import pytest

from games.notifications import push, webhooks
from tests.notifications.test_push_destination import MESSAGE, PAIR, device
from tests.notifications.test_webhook_pinning import BODY, PUBLIC, Connections, FakeDNS

NOT_PUBLIC = [
    "fec0::1",  # IPv6 site-local (RFC 3879, deprecated; routed inside some networks)
    "fec0::a9fe:a9fe",
    "feff:ffff::1",
    "224.0.0.1",  # multicast: a local group, never one host on the internet
    "239.255.255.250",  # SSDP
    "ff02::1",
    "ff05::1:3",
    "::ffff:224.0.0.251",  # mapped multicast (mDNS)
    "2002:e000:1::1",  # 6to4 via a multicast address
    "192.0.0.8",  # IETF protocol assignments (RFC 6890)
    "192.0.0.1",
]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_an_address_off_the_internet_is_not_public(address):
    assert not webhooks.is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", [PUBLIC, "2606:2800:220:1::1", "192.0.2.1"])
def test_public_and_documentation_addresses_keep_their_answer(address):
    expected = ipaddress.ip_address(address).is_global
    assert webhooks.is_public(ipaddress.ip_address(address)) is expected


@pytest.mark.parametrize("address", ["fec0::1", "224.0.0.1", "192.0.0.8"])
def test_a_push_endpoint_resolving_off_the_internet_is_refused(settings, monkeypatch, address):
    settings.PABLO_PUSH_ALLOW_PRIVATE = False
    FakeDNS(monkeypatch, [[PUBLIC, address]])
    connections = Connections(monkeypatch)
    assert push.check_endpoint("https://push.example/send/abc") is not None
    with pytest.raises(webhooks.WebhookRefused):
        push.post(device("https://push.example/send/abc"), MESSAGE, urgent=False, pair=PAIR)
    assert connections.addresses == []


@pytest.mark.parametrize("address", ["fec0::1", "ff05::1:3", "192.0.0.8"])
def test_a_webhook_resolving_off_the_internet_is_refused(settings, monkeypatch, address):
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = False
    FakeDNS(monkeypatch, [[address]])
    connections = Connections(monkeypatch)
    with pytest.raises(webhooks.WebhookRefused):
        webhooks.check_destination("https://hook.example/p")
    assert webhooks.post_webhook("https://hook.example/p", "s", BODY) == 0
    assert connections.addresses == []
