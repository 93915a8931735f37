"""The lobby's create form in players' words (issue 19) and never a 500 from it (issue 18).

Only the options that apply to the ruleset, each with a sentence and its default
in words; a refused value keeps the form filled in and shows the API's sentence
beside its field; and whatever a forged POST puts in any field ("²", 5,000
digits, deep JSON) the answer is the form with an error or a new game.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game
from games.services import accounts as account_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann():
    user, _ = account_services.user_register(username="ann", password="secret-pw-1")
    client = Client()
    client.force_login(user)
    return client


def form_html(html: str, ruleset: str) -> str:
    start = html.index(f'data-ruleset="{ruleset}"')
    return html[start : html.index("</form>", start)]


def test_each_ruleset_shows_only_its_options_in_words(ann):
    html = ann.get("/").content.decode()
    skipbo = form_html(html, "skipbo")
    assert 'name="opt_memory"' not in skipbo  # no face-down cards to remember
    assert 'name="opt_stock_size"' in skipbo
    assert "30 cards, 20 with 5\u20136 players" in skipbo
    assert 'name="opt_jokers"' not in skipbo
    cabo = form_html(html, "cabo")
    assert 'name="opt_memory"' in cabo and 'name="opt_stock_size"' not in cabo
    assert "the table keeps showing cards you have seen" in cabo
    assert ">random</option>" in cabo  # who starts: random by default, in words
    # no JSON talk, no "null" left for a player to read
    for text in (skipbo, cabo):
        assert "null" not in text and "seats x" not in text
    # a private game, and who plays each seat beside the creator's
    assert 'name="private"' in cabo
    assert 'name="bot_1"' in cabo and 'name="bot_7"' in cabo and 'name="bot_8"' not in cabo
    assert "a basic bot" in cabo


def test_a_stock_under_5_keeps_the_form_and_says_why_beside_the_field(ann):
    before = Game.objects.count()
    post = {
        "ruleset": "skipbo",
        "seats": "2",
        "turn_amount": "3",
        "turn_unit": "hours",
        "opt_stock_size": "3",
        "bot_1": "basic",
    }
    response = ann.post("/play/new/", post)
    assert response.status_code == 400
    assert Game.objects.count() == before
    html = response.content.decode()
    form = form_html(html, "skipbo")
    row = re.search(r'<div class="field-row has-error"[^>]*>(.*?)</div>', form, re.S)
    assert row is not None, form
    assert 'name="opt_stock_size"' in row.group(1) and 'value="3"' in row.group(1)
    assert "Must be at least 5." in row.group(1)  # the API's sentence, beside the field
    # the rest of what was filled in is still there
    assert re.search(r'name="turn_amount" value="3"', form)
    assert re.search(r'<option value="hours" selected>', form)
    assert re.search(r'<select name="bot_1"[^>]*>.*?<option value="basic" selected>', form, re.S)
    # the same values with a good stock make the game
    response = ann.post("/play/new/", {**post, "opt_stock_size": "5"})
    assert response.status_code == 302
    game = Game.objects.get(pk=response["Location"].split("/")[2])
    assert game.options["stock_size"] == 5 and game.turn_timeout == 3 * 3600
    assert game.status == "active"  # seat 1 was a bot


def test_a_start_seat_beyond_the_players_is_refused_beside_its_field(ann):
    response = ann.post(
        "/play/new/",
        {
            "ruleset": "cabo",
            "seats": "2",
            "turn_amount": "1",
            "turn_unit": "days",
            "opt_start_seat": "5",
        },
    )
    assert response.status_code == 400
    form = form_html(response.content.decode(), "cabo")
    assert re.search(r"data-start-seat>.*?field-error[^>]*>Must be below seats \(2\)", form, re.S)


def test_turn_time_out_of_range_is_said_in_words(ann):
    response = ann.post(
        "/play/new/",
        {"ruleset": "cabo", "seats": "2", "turn_amount": "15", "turn_unit": "days"},
    )
    assert response.status_code == 400
    assert "The time per turn is from 1 minute to 14 days." in response.content.decode()


def test_the_form_has_a_rated_box_ticked_by_default(ann):
    """Issue 26: a game is rated unless its creator says otherwise (API ``rated``)."""
    cabo = form_html(ann.get("/").content.decode(), "cabo")
    box = re.search(r'<input type="checkbox" name="rated"[^>]*>', cabo)
    assert box is not None and "checked" in box.group(0), cabo
    assert "Rated game" in cabo

    def created(**extra):
        post = {"ruleset": "cabo", "seats": "2", "turn_amount": "1", "turn_unit": "days"}
        response = ann.post("/play/new/", {**post, **extra})
        assert response.status_code == 302, response.content.decode()[:2000]
        game = Game.objects.get(pk=response["Location"].split("/")[2])
        return game.events.get(seq=1).data["rated"]

    assert created(rated=["false", "on"]) is True  # ticked: the hidden "false" and the box
    assert created(rated="false") is False  # unticked: the hidden "false" alone
    assert created() is True  # a page without the box: the default


NASTY = st.one_of(
    st.sampled_from(
        [
            "²",
            "9" * 5000,
            "-" + "9" * 5000,
            "[" * 5000 + "]" * 5000,
            '{"a":' * 3000 + "1" + "}" * 3000,
            '"assisted"',
            "null",
            "true",
            "1e309",
            "NaN",
            "0x10",
            " 4 ",
            "",
            "\x00",
            "٣",
        ]
    ),
    st.text(max_size=40),
    st.integers().map(str),
)
FIELDS = [
    "ruleset",
    "seats",
    "turn_amount",
    "turn_unit",
    "opt_stock_size",
    "opt_start_seat",
    "opt_memory",
    "opt_max_timeouts",
    "opt_stand_in",
    "opt_jokers",
    "opt_forty_two",
    "private",
    "rated",
    "bot_1",
    "bot_2",
    "decks",
    "bots",
    "bot_level",
]


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    ruleset=st.sampled_from(["pablo", "cabo", "skipbo", "tamalou", "pablo-50", "nope"]),
    values=st.dictionaries(st.sampled_from(FIELDS), NASTY, max_size=6),
)
def test_no_value_in_any_field_makes_a_500(ann, ruleset, values):
    post = {"ruleset": ruleset, "seats": "2", "turn_amount": "1", "turn_unit": "days", **values}
    response = ann.post("/play/new/", post)
    assert response.status_code in (302, 400), (post, response.status_code)


def test_every_bot_level_is_offered_in_words_and_no_help_contradicts_a_filled_field(ann):
    """Issue 28: the seats offered a basic and a random bot only, the stand-in a bare
    "expert", and "Left empty: random" stood under fields already filled in."""
    html = ann.get("/").content.decode()
    for ruleset in ("pablo", "cabo", "skipbo"):
        form = form_html(html, ruleset)
        seat = re.search(r'<select name="bot_1".*?</select>', form, re.S).group(0)
        assert '<option value="expert">an expert bot (the strongest)</option>' in seat, seat
        assert re.findall(r'<option value="(\w*)"', seat) == ["", "random", "basic", "expert"]
        stand_in = re.search(r'<select name="opt_stand_in".*?</select>', form, re.S).group(0)
        assert ">expert<" not in stand_in and "an expert bot" in stand_in, stand_in
        # "Left empty: ..." only under a box that is shown empty
        for row in re.findall(r'<div class="field-row.*?</div>', form, re.S):
            if "Left empty" in row:
                assert re.search(r'<input[^>]*type="text"(?![^>]*value=)', row), row
