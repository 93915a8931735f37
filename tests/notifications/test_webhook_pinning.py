"""Webhook deliveries connect to the addresses that were checked (no DNS rebinding).

``post_webhook`` resolves the receiver's host once, refuses it when any
address is not public (``PABLO_WEBHOOK_ALLOW_PRIVATE`` off), and connects to
those very addresses, keeping the original ``Host`` header and, for https,
verifying the certificate against the original host name. A hostile DNS
server answering a public address to the check and ``127.0.0.1`` to the
connection must not get the POST into the server's own network.

No database: ``post_webhook`` only reads settings.
"""

from __future__ import annotations

import http.server
import ipaddress
import shutil
import socket
import ssl
import subprocess
import threading
from typing import Any

import pytest

from games.notifications import webhooks
from tests.helpers import Receiver

PUBLIC = "93.184.216.34"
BODY = '{"event":"your_turn","delivery":"d1"}'


class FakeDNS:
    """``socket.getaddrinfo`` answering ``answers[i]`` to the i-th lookup of a name
    (the last answer from then on); IP literals resolve to themselves."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, answers: list[list[str]]) -> None:
        self.answers = answers
        self.lookups: list[str] = []
        self.real = socket.getaddrinfo
        monkeypatch.setattr(socket, "getaddrinfo", self)

    def __call__(self, host: Any, port: Any, family: int = 0, type: int = 0, *a: Any, **k: Any):
        host = host.decode() if isinstance(host, bytes) else host
        try:
            ipaddress.ip_address(host.split("%")[0])
            addresses = [host]
        except ValueError:
            self.lookups.append(host)
            addresses = self.answers[min(len(self.lookups), len(self.answers)) - 1]
        port = int(port or 0)
        infos = []
        for address in addresses:
            if ":" in address:
                infos.append((socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0)))
            else:
                infos.append((socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)))
        return infos


class Connections:
    """``socket.create_connection`` that resolves like the real one (through
    ``socket.getaddrinfo``), records the addresses it would connect to and refuses."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.addresses: list[tuple[str, int]] = []
        monkeypatch.setattr(socket, "create_connection", self)

    def __call__(self, address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        host, port = address[0], address[1]
        for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
            self.addresses.append((info[4][0], info[4][1]))
        raise ConnectionRefusedError("refused by the test")


def test_rebinding_answer_is_never_connected_to(settings, monkeypatch):
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = False
    dns = FakeDNS(monkeypatch, [[PUBLIC], ["127.0.0.1"]])
    connections = Connections(monkeypatch)
    with pytest.raises(webhooks.WebhookFailed) as failed:
        webhooks.post_webhook("http://hook.example:8080/p/secret-token", "s", BODY)
    # One lookup (the checked one); the connection went to its public answer, port
    # from the URL; the rebinding answer 127.0.0.1 was never asked for nor used.
    assert connections.addresses == [(PUBLIC, 8080)]
    assert dns.lookups == ["hook.example"]
    assert "secret-token" not in str(failed.value)  # logged as scheme://host:port only
    assert str(failed.value).startswith("http://hook.example:8080: ")


def test_rebinding_on_retry_is_checked_again(settings, monkeypatch):
    # Each delivery attempt resolves afresh and checks again: the second attempt
    # sees 127.0.0.1 and is refused (0, not retried), without connecting.
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = False
    FakeDNS(monkeypatch, [[PUBLIC], ["127.0.0.1"]])
    connections = Connections(monkeypatch)
    with pytest.raises(webhooks.WebhookFailed):
        webhooks.post_webhook("https://hook.example/p", "s", BODY)
    assert webhooks.post_webhook("https://hook.example/p", "s", BODY) == 0
    assert connections.addresses == [(PUBLIC, 443)]  # https default port


@pytest.mark.parametrize(
    "private",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",  # cloud metadata
        "100.64.0.1",  # carrier-grade NAT
        "0.0.0.0",
        "::1",
        "fe80::1",
        "fc00::1",
        "::ffff:127.0.0.1",  # IPv4-mapped loopback
        # issue 18: IPv6 addresses that embed a private IPv4 address
        "::127.0.0.1",  # IPv4-compatible
        "::10.0.0.1",
        "64:ff9b::7f00:1",  # NAT64 to 127.0.0.1
        "64:ff9b::a9fe:a9fe",  # NAT64 to 169.254.169.254
        "64:ff9b:1::a00:1",  # local-use NAT64
        "2002:7f00:1::1",  # 6to4 via 127.0.0.1
        "2002:c0a8:101::1",  # 6to4 via 192.168.1.1
    ],
)
def test_host_with_any_private_address_is_refused(settings, monkeypatch, private):
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = False
    FakeDNS(monkeypatch, [[PUBLIC, private]])
    connections = Connections(monkeypatch)
    assert webhooks.post_webhook("http://hook.example/p", "s", BODY) == 0
    with pytest.raises(webhooks.WebhookRefused):
        webhooks.check_destination("http://hook.example/p")
    assert connections.addresses == []


def test_public_host_with_several_addresses_tries_each_checked_one(settings, monkeypatch):
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = False
    FakeDNS(monkeypatch, [[PUBLIC, "2606:2800:220:1::1"], ["127.0.0.1"]])
    connections = Connections(monkeypatch)
    with pytest.raises(webhooks.WebhookFailed):
        webhooks.post_webhook("http://hook.example/p", "s", BODY)
    assert connections.addresses == [(PUBLIC, 80), ("2606:2800:220:1::1", 80)]


def test_unresolvable_host_is_retried(settings, monkeypatch):
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = False

    def fail(*args: Any, **kwargs: Any):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", fail)
    with pytest.raises(webhooks.WebhookFailed):
        webhooks.post_webhook("http://nowhere.example/p", "s", BODY)


def test_pinned_delivery_keeps_host_header_path_and_signature(settings, monkeypatch):
    # Private allowed (as in development): the same path, the name resolved once.
    # Later lookups would answer an unroutable TEST-NET address: the POST still
    # arrives at the local receiver, addressed to the original host name.
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = True
    receiver = Receiver()
    try:
        port = receiver.server.server_address[1]
        dns = FakeDNS(monkeypatch, [["127.0.0.1"], ["203.0.113.9"]])
        url = f"http://u:p%40ss@hook.test:{port}/hook?x=1"
        assert webhooks.post_webhook(url, "secret", BODY) == 200
    finally:
        receiver.close()
    assert dns.lookups == ["hook.test"]
    [got] = receiver.requests
    assert got["path"] == "/hook?x=1"
    assert got["headers"]["Host"] == f"hook.test:{port}"
    assert got["body"] == BODY.encode()
    assert webhooks.verify("secret", got["body"], got["headers"]["X-Pablo-Signature"])
    assert got["headers"]["X-Pablo-Event"] == "your_turn"
    assert got["headers"]["X-Pablo-Delivery"] == "d1"
    # base64("u:p@ss") = "dTpwQHNz"
    assert got["headers"]["Authorization"] == "Basic dTpwQHNz"


# --------------------------------------------------------------------------- https


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A self-signed certificate for ``hook.test`` (key, cert paths)."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a test certificate")
    folder = tmp_path_factory.mktemp("tls")
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
            "-keyout", str(key), "-out", str(cert), "-days", "2",
            "-subj", "/CN=hook.test", "-addext", "subjectAltName=DNS:hook.test",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return str(key), str(cert)


@pytest.fixture
def tls_receiver(certificate):
    """An HTTPS receiver on 127.0.0.1 serving the ``hook.test`` certificate."""
    key, cert = certificate
    seen: list[dict[str, Any]] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            seen.append({"path": self.path, "host": self.headers["Host"]})
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1], seen, cert
    finally:
        server.shutdown()
        server.server_close()


def trusting(monkeypatch, cert: str) -> None:
    monkeypatch.setattr(webhooks, "_tls_context", lambda: ssl.create_default_context(cafile=cert))


def test_https_to_pinned_address_verifies_the_original_host_name(
    settings, monkeypatch, tls_receiver
):
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = True
    port, seen, cert = tls_receiver
    trusting(monkeypatch, cert)
    FakeDNS(monkeypatch, [["127.0.0.1"], ["203.0.113.9"]])
    # Connected to 127.0.0.1, the certificate for hook.test is accepted: it was
    # checked against the URL's host name, not the address.
    assert webhooks.post_webhook(f"https://hook.test:{port}/h", "s", BODY) == 204
    assert seen == [{"path": "/h", "host": f"hook.test:{port}"}]


def test_https_certificate_for_another_name_is_refused(settings, monkeypatch, tls_receiver):
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = True
    port, seen, cert = tls_receiver
    trusting(monkeypatch, cert)
    FakeDNS(monkeypatch, [["127.0.0.1"]])
    with pytest.raises(webhooks.WebhookFailed) as failed:
        webhooks.post_webhook(f"https://other.test:{port}/h", "s", BODY)
    assert "certificate" in str(failed.value).lower()
    assert seen == []


@pytest.mark.parametrize(
    "public", ["64:ff9b::5db8:d822", "2002:5db8:d822::1", "::ffff:93.184.216.34", PUBLIC]
)
def test_ipv6_embedding_a_public_ipv4_is_public(public):
    import ipaddress

    assert webhooks.is_public(ipaddress.ip_address(public))
