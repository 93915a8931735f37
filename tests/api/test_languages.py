"""The API's ``detail`` follows ``Accept-Language`` (API.md "Languages").

For a sample of every family of refusal -- 400 (DRF's validation and our own
checks), 401, 403, 404, 409 (the rules: ``not_your_turn``, ``stale_discard``;
the store: ``version_conflict``) and 429 -- French and German give the
sentence in that language and English is the default (no header, ``en`` or a
language the site does not speak); the ``code`` never changes.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import caches
from rest_framework.test import APIClient

from tests.api.conftest import create

pytestmark = pytest.mark.django_db

UNKNOWN = "00000000-0000-0000-0000-000000000000"
PABLO_DECK = ["5H", "6H", "7H", "8H", "2S", "3S", "4S", "5S", "5D", "KS", "3D", "4C"]
STOCK_TO_PILE_0 = {"type": "play", "from": "stock", "pile": 0}

#: The languages asked for, and which the answer is in.
ASKED = {None: "en", "en": "en", "fr": "fr", "de": "de", "de-CH,de;q=0.9": "de", "es": "en"}


def answers(call: Any, status: int) -> dict[str, dict[str, Any]]:
    """``call(headers)`` once per language asked for: {language said: body}; every
    answer has ``status`` and the same ``code``, and says its language."""
    out: dict[str, dict[str, Any]] = {}
    for asked, lang in ASKED.items():
        headers = {"HTTP_ACCEPT_LANGUAGE": asked} if asked else {}
        response = call(headers)
        assert response.status_code == status, (asked, response.content)
        assert response.headers["Content-Language"] == lang, asked
        body = response.json()
        assert set(body) == {"code", "detail"}
        if lang in out:
            assert body == out[lang], asked
        out[lang] = body
    assert len({body["code"] for body in out.values()}) == 1, out
    return out


def check(out: dict[str, dict[str, Any]], code: str, **details: str) -> None:
    assert out["en"]["code"] == code
    for lang, detail in details.items():
        assert out[lang]["detail"] == detail, (lang, out[lang]["detail"])
    assert len({body["detail"] for body in out.values()}) == 3, out  # three languages


@pytest.fixture
def pablo_playing(ann, bob) -> str:
    game = create(ann, ruleset="pablo", seats=2, options={"start_seat": 0}, decks=[PABLO_DECK])
    assert bob.post(f"/api/games/{game['id']}/join/").status_code == 200
    ann.ok(game["id"], {"type": "look", "positions": [0, 1]})
    bob.ok(game["id"], {"type": "look", "positions": [2, 3]})
    return game["id"]


# --------------------------------------------------------------------------- 400


def test_drf_validation_sentences(anon):
    out = answers(lambda h: anon.post("/api/auth/token/", {}, format="json", **h), 400)
    check(out, "invalid")
    assert "This field is required." in out["en"]["detail"]
    assert "Ce champ est obligatoire." in out["fr"]["detail"]
    assert "Dieses Feld ist zwingend erforderlich." in out["de"]["detail"]
    assert all(body["detail"].startswith("username: ") for body in out.values())  # the field


def test_the_serializers_own_sentences(ann, quick_skipbo):
    gid = quick_skipbo["id"]
    out = answers(lambda h: ann.act(gid, {"type": "look", "positions": [1, 1]}, **h), 400)
    check(
        out,
        "invalid",
        en="positions: Two different positions are needed.",
        fr="positions: Il faut deux positions différentes.",
        de="positions: Es braucht zwei verschiedene Positionen.",
    )


def test_a_rules_malformed_value(ann):
    body = {"ruleset": "pablo", "seats": 2, "options": {"start_seat": 5}}
    out = answers(lambda h: ann.post("/api/games/", body, format="json", **h), 400)
    check(
        out,
        "invalid_option",
        en="options.start_seat: must be below seats (2).",
        fr="options.start_seat: doit être inférieur à seats (2).",
        de="options.start_seat: muss kleiner als seats (2) sein.",
    )


def test_a_service_refusal_with_parameters(ann):
    body = {"ruleset": "pablo", "seats": 3, "bots": [{"seat": 1}, {"seat": 1}]}
    out = answers(lambda h: ann.post("/api/games/", body, format="json", **h), 400)
    check(
        out,
        "invalid_bots",
        en="bots[1].seat: seat 1 is named twice.",
        fr="bots[1].seat: la place 1 est nommée deux fois.",
        de="bots[1].seat: Platz 1 ist doppelt genannt.",
    )


def test_a_body_that_is_not_json(ann):
    def call(h):
        return ann.post("/api/games/", "{", content_type="application/json", **h)

    check(
        answers(call, 400),
        "parse_error",
        en="The body is not valid JSON.",
        fr="Le corps n'est pas du JSON valide.",
        de="Der Rumpf ist kein gültiges JSON.",
    )


# --------------------------------------------------------------------------- 401, 403, 404


def test_401_an_unknown_token():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token nope")
    out = answers(lambda h: client.get("/api/games/", **h), 401)
    check(out, "authentication_failed", en="Invalid token.")


def test_403_not_a_player(cid, quick_skipbo):
    gid = quick_skipbo["id"]
    out = answers(lambda h: cid.act(gid, STOCK_TO_PILE_0, **h), 403)
    check(
        out,
        "not_a_player",
        en="You are not a player of this game.",
        fr="Tu ne joues pas dans cette partie.",
        de="Du spielst in dieser Partie nicht mit.",
    )


def test_404_no_such_game_and_no_such_path(ann):
    out = answers(lambda h: ann.get(f"/api/games/{UNKNOWN}/", **h), 404)
    check(
        out,
        "not_found",
        en="No game with this id.",
        fr="Aucune partie avec cet identifiant.",
        de="Keine Partie mit dieser ID.",
    )
    out = answers(lambda h: ann.get("/api/nowhere/", **h), 404)
    check(out, "not_found", en="No such API path.")


# --------------------------------------------------------------------------- 409


def test_409_not_your_turn(bob, quick_skipbo):
    gid = quick_skipbo["id"]
    out = answers(lambda h: bob.act(gid, STOCK_TO_PILE_0, **h), 409)
    check(
        out,
        "not_your_turn",
        en="It is seat 0's turn, not yours.",
        fr="C'est au tour de la place 0, pas au tien.",
        de="Platz 0 ist am Zug, nicht du.",
    )


def test_409_stale_discard(bob, pablo_playing):
    throw = {"type": "throw", "seat": 1, "position": 2, "onto": 7}
    out = answers(lambda h: bob.act(pablo_playing, throw, **h), 409)
    check(
        out,
        "stale_discard",
        en="The discard pile has moved on: its top is now number 1.",
        fr="La défausse a changé\u202f: son sommet est maintenant le numéro 1.",
        de="Der Ablagestapel hat sich geändert: Oben liegt jetzt Nummer 1.",
    )


def test_409_version_conflict(ann, quick_skipbo):
    gid, version = quick_skipbo["id"], quick_skipbo["version"]
    body = {**STOCK_TO_PILE_0, "expected_version": version - 1}
    out = answers(lambda h: ann.act(gid, body, **h), 409)
    v, e = version, version - 1
    check(
        out,
        "version_conflict",
        en=f"The game is at version {v}, not {e}; reload it and decide again.",
        fr=f"La partie en est à la version {v}, pas {e}\u202f; recharge-la et décide à nouveau.",
        de=f"Die Partie ist bei Version {v}, nicht {e}; lade sie neu und entscheide noch einmal.",
    )


# --------------------------------------------------------------------------- 429


def test_429_throttled(settings, ann):
    settings.PABLO_THROTTLE_AUTH = "1/min"
    caches["throttle"].clear()
    client = APIClient()
    try:
        assert client.post("/api/auth/token/", {}, format="json").status_code == 400
        out = answers(lambda h: client.post("/api/auth/token/", {}, format="json", **h), 429)
    finally:
        caches["throttle"].clear()
    check(out, "throttled")
    assert "throttled" in out["en"]["detail"]


def test_429_too_many_bot_games(settings, ann):
    settings.PABLO_BOT_GAMES = 1
    body = {"ruleset": "pablo", "seats": 2, "bots": [{"seat": 1}]}
    assert ann.post("/api/games/", body, format="json").status_code == 201
    out = answers(lambda h: ann.post("/api/games/", body, format="json", **h), 429)
    check(out, "throttled")
    # ours, then DRF's "Expected available in 60 seconds." in the same language
    assert out["en"]["detail"].startswith(
        "You have 1 game with bots going on from your account already; "
        "finish or leave it and retry. Expected"
    )
    assert out["fr"]["detail"].startswith(
        "Tu as déjà 1 partie avec des bots en cours depuis ton compte\u202f; "
        "termine-la ou quitte-la, puis réessaie."
    )
    assert out["de"]["detail"].startswith("Du hast schon 1 laufende Partie mit Bots")
    assert "60" in out["fr"]["detail"] and "Expected" not in out["fr"]["detail"]
    assert "60" in out["de"]["detail"] and "Expected" not in out["de"]["detail"]
