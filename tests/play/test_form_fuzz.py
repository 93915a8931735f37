"""Issue 18, item 6: the HTML forms never answer 500, whatever their fields hold.

The attack: ``POST /play/{id}/act/`` with ``action="[[[…"`` (a RecursionError
in ``json.loads``), ``version="²"`` (``str.isdigit`` says yes, ``int`` says
no) or a 5,000-digit version (past Python's limit for ``int(str)``). Each
is replayed, then hypothesis throws arbitrary values at every field of the
table's action form and of the other HTML forms (log-in, sign-up, token page,
the replay list's filters and the viewer's stepper) -- all but the lobby's
create form, which has its own. A refused value is the field's sentence on
the page (a message on the table), never a 500.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.services import accounts as account_services
from games.services import games as game_services

pytestmark = pytest.mark.django_db

SKIPBO = {"ruleset": "skipbo", "seats": 2, "options": {"start_seat": 0}}


@pytest.fixture
def table():
    ann, _ = account_services.user_register(username="ann", password="secret-pw")
    bob, _ = account_services.user_register(username="bob", password="secret-pw")
    game = game_services.game_create(user=ann, **SKIPBO)
    game_services.game_join(game_id=game.id, user=bob)
    client = Client()
    client.force_login(ann)
    return client, f"/play/{game.id}/"


def act(client: Client, path: str, **fields: str):
    answer = client.post(path + "act/", fields)
    return answer, [str(m) for m in get_messages(answer.wsgi_request)]


@pytest.mark.parametrize(
    "fields, sentence",
    [
        ({"action": "[" * 100_000}, "JSON object"),
        ({"action": "[" * 5_000 + "]" * 5_000}, "JSON object"),
        ({"action": '{"a":' * 3_000 + "1" + "}" * 3_000}, "JSON object"),
        ({"action": '{"type": "end"}', "version": "²"}, "version"),
        ({"action": '{"type": "end"}', "version": "9" * 5_000}, "version"),
        ({"action": '{"type": "end"}', "version": "-1"}, "version"),
        ({"action": '{"type": "end"}', "version": "\uff11\uff12"}, "version"),
        ({"action": '{"type": "end"}', "key": "k" * 5_000}, ""),
        ({"action": "1" * 5_000}, "JSON object"),
        ({}, "JSON object"),
    ],
)
def test_the_attacks_on_the_action_form(table, fields, sentence):
    client, path = table
    answer, said = act(client, path, **fields)
    assert answer.status_code == 302 and answer["Location"].startswith(path)
    assert len(said) == 1 and sentence in said[0], said
    assert client.get(path).status_code == 200


WEIRD = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        ["²", "٣", "\uff11", "-0", "1e9", "0x1f", " 7", "nan", "", "\x00", "\U0001d7d7"]
    ),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.integers(min_value=1, max_value=6_000).map(lambda n: "9" * n),
    st.integers(min_value=1, max_value=20_000).map(lambda n: "[" * n),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=12,
    ).map(json.dumps),
)
ACTION = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["end", "look", "play", "discard", "draw", "x"])},
        optional={
            "card": WEIRD,
            "positions": st.lists(st.integers(-3, 9), max_size=4),
            "discard_pile": st.integers(-2, 9) | WEIRD,
            "expected_version": st.integers(-1, 10**20) | WEIRD,
        },
    ).map(json.dumps),
    WEIRD,
)
FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(action=ACTION, version=WEIRD, key=WEIRD, extra=WEIRD)
def test_fuzz_the_action_form(table, action, version, key, extra):
    client, path = table
    answer = client.post(
        path + "act/", {"action": action, "version": version, "key": key, "sel": extra}
    )
    assert answer.status_code == 302, answer.status_code


@FUZZ
@given(username=WEIRD, password=WEIRD, other=WEIRD, next_=WEIRD)
def test_fuzz_the_account_forms(username, password, other, next_):
    client = Client()
    for path, data in [
        ("/accounts/login/", {"username": username, "password": password, "next": next_}),
        (
            "/accounts/signup/",
            {"username": username, "password1": password, "password2": other, "next": next_},
        ),
        (f"/accounts/login/?next={next_}", {"username": other, "password": password}),
    ]:
        assert client.post(path, data).status_code < 500, (path, data)


@FUZZ
@given(rotate=WEIRD, ruleset=WEIRD, player=WEIRD, page=WEIRD, step=WEIRD, as_=WEIRD, sel=WEIRD)
def test_fuzz_the_other_forms(table, rotate, ruleset, player, page, step, as_, sel):
    client, path = table
    assert client.post("/accounts/token/", {"rotate": rotate}).status_code == 200
    query = {"ruleset": ruleset, "player": player, "page": page}
    assert client.get("/replays/", query).status_code == 200
    assert client.get(path, {"sel": sel, "partial": as_}).status_code == 200
    answer = client.get(path.replace("/play/", "/replays/"), {"step": step, "as": as_})
    assert answer.status_code in (200, 404)  # the game is not finished: no replay yet
