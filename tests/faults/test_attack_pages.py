"""Attacks on the web pages (forms posted by hand, odd query values), replayed: each
test failed before its fix."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from tests.api.conftest import ann, bob, create, make_player  # noqa: F401
from tests.fixtures import user
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


@pytest.mark.parametrize("action", ["act", "join", "come-back", "cancel", "rematch"])
def test_a_form_without_csrf_token_tells_nothing_of_a_private_game(ann, bob, action):  # noqa: F811
    """A form posted without its CSRF token to a private game's path was redirected to
    the game's table (302), while an unknown id answered the 403 page: a cross-site
    form (or any stranger) could tell that a private game's id exists."""
    game = create(ann, ruleset="pablo", seats=3, private=True)
    stranger = Client(enforce_csrf_checks=True, raise_request_exception=False)
    stranger.force_login(bob.user)
    seen = stranger.post(f"/play/{game['id']}/{action}/", {})
    unknown = stranger.post(f"/play/{uuid.uuid4()}/{action}/", {})
    assert (seen.status_code, seen.get("Location")) == (unknown.status_code, None)
    assert seen.status_code == 403
    # its player is still brought back to the table, with the sentence
    player = Client(enforce_csrf_checks=True, raise_request_exception=False)
    player.force_login(ann.user)
    back = player.post(f"/play/{game['id']}/{action}/", {})
    assert (back.status_code, back["Location"]) == (302, f"/play/{game['id']}/")


def test_an_expired_join_form_of_an_invite_holder_goes_back_to_the_table_with_it(ann, bob):  # noqa: F811
    """A private game's invite holder whose join form had expired was sent to the
    table without the invite: the unknown game's 404 instead of the table and its Join."""
    game = create(ann, ruleset="pablo", seats=3, private=True)
    holder = Client(enforce_csrf_checks=True, raise_request_exception=False)
    holder.force_login(bob.user)
    answer = holder.post(f"/play/{game['id']}/join/", {"invite": game["invite"]})
    assert answer.status_code == 302
    assert answer["Location"] == f"/play/{game['id']}/?invite={game['invite']}"
    table = holder.get(answer["Location"])
    assert table.status_code == 200 and b"nothing was done" in table.content


def test_a_refused_analyse_form_gets_a_page_with_its_wait_and_the_way_back(stored, settings):  # noqa: F811
    """Over ``PABLO_THROTTLE_ANALYSES`` the viewer's form answered a line of plain text;
    it is a page of the site now (429, ``Retry-After``), in the reader's language."""
    settings.PABLO_THROTTLE_ANALYSES = "0/hour"
    game, _t = stored("pablo", 3)
    reader = Client(raise_request_exception=False)
    reader.force_login(user("dee"))
    for language, words in (("en", "Too many analyses"), ("fr", "Trop d\u2019analyses")):
        answer = reader.post(
            f"/replays/{game.id}/analyse/", {"step": "3"}, HTTP_ACCEPT_LANGUAGE=language
        )
        assert answer.status_code == 429 and int(answer["Retry-After"]) > 0
        assert answer["Content-Type"].startswith("text/html")
        html = answer.content.decode()
        assert words in html and f'href="/replays/{game.id}/?step=3"' in html
        assert "<nav" in html  # the site's header


@pytest.mark.parametrize("step", [None, "", "x", "1e3"])
def test_an_analyse_form_without_a_good_step_keeps_the_invite_of_a_private_game(
    stored,  # noqa: F811
    settings,
    step,
):
    """The invite was kept on the way back only beside a whole-number step: a form
    without one sent an invite holder (redirect, or the 429 page's link) to a 404."""
    from games.models import Game

    settings.PABLO_THROTTLE_ANALYSES = "0/hour"
    game, _t = stored("pablo", 3)
    Game.objects.filter(pk=game.pk).update(private=True, invite="s3cret")
    reader = Client(raise_request_exception=False)
    reader.force_login(user("dee"))
    form = {"invite": "s3cret"} | ({} if step is None else {"step": step})
    answer = reader.post(f"/replays/{game.id}/analyse/", form)
    assert answer.status_code == 429
    assert f'href="/replays/{game.id}/?invite=s3cret"' in answer.content.decode()
    assert reader.get(f"/replays/{game.id}/?invite=s3cret").status_code == 200
    signed_out = Client().post(f"/replays/{game.id}/analyse/", form)
    assert "invite%3Ds3cret" in signed_out["Location"]
