"""Attacks on the web pages (forms posted by hand, odd query values), replayed: each
test failed before its fix."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.replays.conftest import replay_cache, stored  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_signed_out_analyse_form_is_sent_to_log_in_not_a_500(stored):  # noqa: F811
    """The viewer's "Analyse this game" form posted signed out reversed an unknown URL
    name ('login' instead of 'play:login'): a 500 instead of the log-in page."""
    game, _t = stored("pablo", 3)
    answer = Client(raise_request_exception=False).post(
        f"/replays/{game.id}/analyse/", {"step": "3", "as": "1"}
    )
    assert answer.status_code == 302, answer.status_code
    assert answer["Location"].startswith("/accounts/login/?next=")
    assert f"%2Freplays%2F{game.id}%2F%3Fstep%3D3%26as%3D1" in answer["Location"]
