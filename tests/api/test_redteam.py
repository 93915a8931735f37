"""A hostile or careless client: bodies that once were 500s, and hidden information
that must not leak through any door (answers, errors, the feed, the replay, lists).

Every error answer is ``{"code", "detail"}``; no answer ever names a card its
reader did not see.
"""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from tests.api.conftest import create

pytestmark = pytest.mark.django_db


def _error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json"), response.content
    body = response.json()
    assert set(body) == {"code", "detail"}, body
    if code is not None:
        assert body["code"] == code, body
    return body


@pytest.fixture
def pablo2(ann, bob):
    # ann 5H 6H 7H 8H, bob 2S 3S 4S 5S, discard 10D; draw pile KS, 3D, ...
    deck = ["5H", "6H", "7H", "8H", "2S", "3S", "4S", "5S", "10D", "KS", "3D"]
    game = create(ann, ruleset="pablo", seats=2, options={"start_seat": 0}, decks=[deck])
    bob.post(f"/api/games/{game['id']}/join/")
    return game["id"]


# --------------------------------------------------------------------------- hostile bodies


RAW_BODIES = [
    pytest.param("[" * 100_000 + "]" * 100_000, id="deeply-nested-array"),
    pytest.param(
        '{"type": "call", "x": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}",
        id="deeply-nested-object",
    ),
    pytest.param('{"type": "peek", "position": NaN}', id="nan"),
    pytest.param('{"type": "peek", "position": 1e400}', id="float-overflow"),
    pytest.param('{"type": "peek", "position": ' + "9" * 5000 + "}", id="5000-digit-int"),
    pytest.param('\ufeff{"type": "call"}', id="bom"),
    pytest.param("   ", id="whitespace"),
]


@pytest.mark.parametrize("raw", RAW_BODIES)
def test_hostile_json_is_a_400_with_the_error_shape(ann, pablo2, raw):
    response = ann.generic(
        "POST", f"/api/games/{pablo2}/actions/", raw.encode(), content_type="application/json"
    )
    _error(response, 400)
    assert ann.game(pablo2)["version"] == 6  # nothing stored


def test_invalid_utf8_is_a_400(ann, pablo2):
    response = ann.generic(
        "POST", f"/api/games/{pablo2}/actions/", b'{"type": "look\xff"}', "application/json"
    )
    _error(response, 400, "parse_error")


def test_an_unknown_charset_is_a_400(ann, pablo2):
    response = ann.generic(
        "POST",
        f"/api/games/{pablo2}/actions/",
        b'{"type": "call"}',
        content_type="application/json; charset=no-such-charset",
    )
    assert response.status_code in (400, 409), response.content
    assert set(response.json()) == {"code", "detail"}


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_body_over_the_upload_limit_is_a_json_400(ann, pablo2):
    # Django answers an HTML page for this (RequestDataTooBig); the API answers its shape.
    body = json.dumps({"type": "call", "pad": "x" * 5000})
    response = ann.generic(
        "POST", f"/api/games/{pablo2}/actions/", body, content_type="application/json"
    )
    _error(response, 400, "body_too_large")
    response = ann.generic("POST", "/api/games/", body, content_type="application/json")
    _error(response, 400, "body_too_large")


@pytest.mark.parametrize(
    "content_type,body",
    [
        ("application/x-www-form-urlencoded", "email_enabled=0"),
        ("multipart/form-data; boundary=xx", '--xx\r\nContent-Disposition: form-data; name="a"'),
        ("text/plain", '{"email_enabled": false}'),
    ],
)
def test_notification_settings_take_json_only(ann, content_type, body):
    response = ann.generic("PATCH", "/api/me/notifications/", body, content_type=content_type)
    _error(response, 400, "parse_error")


def test_a_page_beyond_the_last_is_a_json_404_and_documented(ann):
    _error(ann.get("/api/games/?page=99999999999999999999"), 404, "not_found")
    schema = ann.get("/api/schema/?format=json").json()
    assert "404" in schema["paths"]["/api/games/"]["get"]["responses"]
