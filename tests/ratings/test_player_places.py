"""A player's page and ``GET /api/players/{username}/`` give a place in every recent
game ("2nd of 4", ties shared) and the final count, not only "won" or "lost": Cabo and
the Pablo family name no loser."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.models import Event
from games.ratings import selectors as ratings
from tabletop import places

from .conftest import follow, play


def test_standing_from_recorded_places_and_from_a_result_without_them():
    result = {"winners": [2], "losers": [], "places": [2, 2, 1, 4], "points": [3, 3, 0, 7]}
    assert ratings.standing(result, 0, 4) == {"place": 2, "tied": True, "points": 3}
    assert ratings.standing(result, 2, 4) == {"place": 1, "tied": False, "points": 0}
    assert ratings.standing(result, 3, 4) == {"place": 4, "tied": False, "points": 7}
    older = {"winners": [1], "losers": []}  # recorded before places: nobody lost
    assert ratings.standing(older, 0, 3) == {"place": 2, "tied": True, "points": None}
    assert ratings.standing(older, 1, 3)["place"] == 1
    pablo = {"winners": [0], "losers": [2]}  # Pablo's 42: a loser, last
    assert [ratings.standing(pablo, s, 3)["place"] for s in range(3)] == [1, 2, 3]
    assert ratings.standing(None, 0, 2)["place"] is None


@pytest.mark.django_db
def test_every_recent_game_has_a_place_on_the_api_and_the_page(people, client):
    ann, bob, cid = people
    three = play([bob.user, cid.user, ann.user], seed=2)
    end = Event.objects.get(game_id=three, type="game_finished").data
    follow()
    recent = ann.get("/api/players/ann/").json()["recent"]
    assert len(recent) == 1
    assert recent[0]["place"] == end["places"][2] and recent[0]["seats"] == 3
    assert recent[0]["points"] == end["points"][2]
    assert recent[0]["tied"] is (end["places"].count(end["places"][2]) > 1)
    place, tied = end["places"][2], recent[0]["tied"]
    en = {1: "1st", 2: "2nd", 3: "3rd"}[place]
    words = {
        "en": f"{en} of 3" + (", shared" if tied else ""),
        "fr": ("1er" if place == 1 else f"{place}e") + " sur 3" + (", ex æquo" if tied else ""),
        "de": f"{place}. von 3" + (", geteilt" if tied else ""),
    }
    client.force_login(ann.user)
    for lang, text in words.items():
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
        page = client.get("/players/ann/").content.decode()
        assert text + "<" in page or text + "," in page, (lang, text)
    # (a game recorded before places, with no loser named, as Cabo's: see the test above)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "1st 2nd 3rd 4th 10th 11th 12th 13th 21st 22nd 23rd 101st 111th 112th"),
        ("fr", "1er 2e 3e 4e 10e 11e 12e 13e 21e 22e 23e 101e 111e 112e"),
        ("de", "1. 2. 3. 4. 10. 11. 12. 13. 21. 22. 23. 101. 111. 112."),
    ],
)
def test_places_are_ordinals_in_each_language(lang, expected):
    """ "2nd of 4", not "place 2 of 4": English picks a suffix by the last digits, French
    writes "er" for the first alone (21e), German a full stop."""
    numbers = [1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111, 112]
    with translation.override(lang):
        assert " ".join(places.ordinal(n) for n in numbers) == expected
        shared = places.rank_words(2, 4, tied=True)
        alone = places.rank_words(1, 2)
    assert (alone, shared) == {
        "en": ("1st of 2", "2nd of 4, shared"),
        "fr": ("1er sur 2", "2e sur 4, ex æquo"),
        "de": ("1. von 2", "2. von 4, geteilt"),
    }[lang]
