"""Attacks on the feed's fast path (games/feed/fast.py), replayed: each test failed
before its fix."""

from __future__ import annotations

import pytest

from tests.feed.conftest import pg_servers  # noqa: F401
from tests.feed.test_fast import Log, feed_path, raw_get
from tests.feed.test_live import started_game, users


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_fast_answer_speaks_the_language_its_request_asked_for(pg_servers):  # noqa: F811
    """The fast path answered every poll with the headers of the first Django answer of
    its shape, ``Content-Language`` included, and ``Accept-Language`` is not part of the
    shape: after a French poll taught them, a German or an English poll was told its
    answer was French."""
    base = pg_servers.feed(PABLO_FEED_DEBUG="1", PABLO_FEED_AUDIT="600")
    log = Log(pg_servers)
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    path = feed_path(game, game.version, 0.3)

    def language(header: str | None) -> str:
        sent = {"Accept-Language": header} if header is not None else {}
        status, headers, _body = raw_get(base, path, token, sent)
        assert status == 200
        return dict((k.lower(), v) for k, v in headers)["content-language"]

    assert language("fr") == "fr"  # through Django: teaches the shape's headers
    before = log.count("FEEDDBG fast answered")
    assert language("de-CH, fr;q=0.5") == "de"
    assert language("en") == "en"
    assert language(None) == "en"
    assert language("fr;q=0, de;q=0.2") == "de"
    assert language("fr") == "fr"
    assert log.count("FEEDDBG fast answered") == before + 5, "all on the fast path"
