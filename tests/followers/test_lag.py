"""Operators' view of the followers: ``manage.py followers`` and ``/health/ready``."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from games import followers

from .conftest import append, games

pytestmark = pytest.mark.django_db


def _three_events() -> None:
    (game,) = games(1)
    for _ in range(3):
        with transaction.atomic():
            append(game)


def test_manage_py_followers_prints_positions_head_and_lag():
    _three_events()
    followers.follow(next(f for f in followers.registered() if f.name == "bots"))
    out = StringIO()
    call_command("followers", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["follower", "position", "head", "lag", "lag", "s"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    head = followers.head()
    assert rows["bots"][:3] == [str(head), str(head), "0"]
    assert rows["notifications"][:3] == ["0", str(head), "3"]
    out = StringIO()
    call_command("followers", "--catch-up", stdout=out)
    assert all(line.split()[3] == "0" for line in out.getvalue().splitlines()[1:])


def test_ready_answers_503_while_a_follower_is_more_than_a_minute_behind(client):
    _three_events()
    later = timezone.now() + timedelta(seconds=61)
    with mock.patch("django.utils.timezone.now", return_value=later):
        answer = client.get("/health/ready")
    assert answer.status_code == 503
    body = answer.json()
    assert body["code"] == "followers_behind" and "notifications" in body["detail"]
    followers.follow_all()
    with mock.patch("django.utils.timezone.now", return_value=later):
        answer = client.get("/health/ready")
    assert answer.status_code == 200, answer.content
    assert answer.json()["followers"]["bots"] == {"lag": 0, "seconds": 0.0}


def test_ready_under_a_minute_behind_is_ready(client):
    _three_events()
    assert client.get("/health/ready").status_code == 200


def test_every_follower_is_shown_and_has_a_kill_test(client):
    """``manage.py followers`` and ``/health/ready`` list every follower the service
    runs, and each of them is killed mid-batch in ``test_kills``."""
    from .test_kills import CASES

    names = {f.name for f in followers.registered()}
    assert names == {"account_feed", "bots", "deadlines", "notifications", "ratings", "replays"}
    assert {case.name for case in CASES} == names
    out = StringIO()
    call_command("followers", stdout=out)
    assert {line.split()[0] for line in out.getvalue().splitlines()[1:]} == names
    assert set(client.get("/health/ready").json()["followers"]) == names
