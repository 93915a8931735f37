"""The ratings' pages in French and German: no English word left on the leaderboard, a
player's page (two games, so its chart is drawn) or the lobby's and history's rating marks."""

from __future__ import annotations

from tests.play.test_i18n import LANGUAGES, client_for, untranslated

from .conftest import follow, play


def test_the_ratings_pages_are_in_french_and_german(people, settings):
    settings.PABLO_LEADERBOARD_MIN_GAMES = 1
    ann, bob, _ = (p.user for p in people)
    for seed in range(2):
        play([ann, bob], seed=seed)
    follow()
    pages = {lang: client_for(ann, lang) for lang in ("en", *LANGUAGES)}
    paths = ["/ratings/?ruleset=skipbo", "/players/ann/", "/players/bob/", "/history/"]
    assert untranslated(pages, paths, {"ann", "bob", "cid"}) == {}
    # French sets a narrow no-break space before ";" between the summary's parts
    summary = pages["fr"].get("/players/ann/").content.decode()
    assert "\u202f; " in summary and " ; " not in summary and "s; " not in summary
