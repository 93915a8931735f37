"""A push service stand-in on loopback (RFC 8030/8291/8292), for the tests and the bench.

``PushService`` records every POST, answers the statuses it is given (then
201), and ``open(request)`` does what a real push service and browser do
between them: checks the VAPID JWT (ES256 under the ``k`` key, ``aud`` the
endpoint's origin, not expired) and decrypts the aes128gcm body with the
subscription's private key and auth secret. ``subscription()`` makes a
browser's keys and the body of ``POST /api/me/push/``.
"""

from __future__ import annotations

import json
import os
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from games.notifications.push import b64url, unb64url
from tests.helpers import Receiver


@dataclass
class Device:
    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes

    def body(self) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }


class PushService(Receiver):
    """Receiver with the push protocol: ``statuses`` answered in turn, then 201."""

    def __init__(self, statuses: list[int] | None = None) -> None:
        super().__init__(statuses, default=201)
        self.origin = self.url.rsplit("/", 1)[0]
        self.devices: dict[str, Device] = {}

    def device(self) -> Device:
        path = b64url(os.urandom(12))
        found = Device(
            f"{self.origin}/push/{path}", ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
        )
        self.devices[f"/push/{path}"] = found
        return found

    def open(self, request: dict[str, Any], public_key: str) -> dict[str, Any]:
        """The decrypted payload of a recorded request, after checking its VAPID JWT."""
        headers = request["headers"]
        scheme, _, params = headers["Authorization"].partition(" ")
        assert scheme == "vapid", headers["Authorization"]
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        assert fields["k"] == public_key
        head, claims, signature = fields["t"].split(".")
        assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
        raw = unb64url(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        server = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
        server.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises
        data = json.loads(unb64url(claims))
        assert data["aud"] == self.origin, data
        assert time.time() < data["exp"] <= time.time() + 24 * 3600
        assert data["sub"].startswith(("mailto:", "https:"))
        assert headers["Content-Encoding"] == "aes128gcm"
        device = self.devices[urllib.parse.urlsplit(request["path"]).path]
        plain = http_ece.decrypt(
            request["body"], private_key=device.key, auth_secret=device.auth, version="aes128gcm"
        )
        return json.loads(plain)
