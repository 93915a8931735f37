"""Attacks on the choice of language (``Accept-Language``), replayed: each test failed
before its fix."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.api.conftest import ann, make_player  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "header",
    ["fr;q=0", "fr;q=0.0, de;q=0", "de;q=0.000", "fr;q=0, en;q=0.1", "fr;q=0,de;q=0"],
)
def test_a_language_refused_with_q_0_is_never_spoken(ann, header):  # noqa: F811
    """RFC 9110 12.4.2: q=0 means "not acceptable". A browser (or a program) that sent
    ``fr;q=0`` got French pages and French ``detail`` sentences."""
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE=header)
    assert page["Content-Language"] == "en", header
    assert b'lang="en"' in page.content
    answer = ann.get(
        "/api/games/00000000-0000-0000-0000-000000000000/", HTTP_ACCEPT_LANGUAGE=header
    )
    assert answer.status_code == 404
    assert answer.json()["detail"] == "No game with this id.", header


def test_a_language_with_some_weight_still_counts(ann):  # noqa: F811
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="fr;q=0, de;q=0.001")
    assert page["Content-Language"] == "de"
    answer = ann.get(
        "/api/games/00000000-0000-0000-0000-000000000000/",
        HTTP_ACCEPT_LANGUAGE="fr;q=0, de;q=0.001",
    )
    assert answer.json()["detail"] == "Keine Partie mit dieser ID."
    # the cookie of the header's switch still wins on pages
    switched = Client(HTTP_ACCEPT_LANGUAGE="fr;q=0")
    switched.cookies["django_language"] = "fr"
    assert switched.get("/")["Content-Language"] == "fr"
