"""Attacks of a stranger (round 3): a bot's refused move is logged without its cards.
The warning held the whole action body -- ``{'type': 'play', 'from': 'hand', 'card':
'7', ...}``, a card of the bot's hand while the game runs -- and the rules' sentence,
which may name it too; logs are read by more people than the players."""

from __future__ import annotations

import logging

import pytest

from games.services import bots as bot_services
from tests.api.conftest import ann, bob, quick_skipbo  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_refused_bot_move_is_logged_without_its_card(quick_skipbo, caplog):  # noqa: F811
    gid, version = quick_skipbo["id"], quick_skipbo["version"]
    # seat 0 holds five 7s (the quick deck); an empty building pile takes only a 1
    body = {"type": "play", "from": "hand", "card": "7", "pile": 3}
    with caplog.at_level(logging.WARNING, logger=bot_services.log.name):
        assert bot_services._bot_append(gid, 0, body, stand_in=False, at=version) == 0
    [record] = [r for r in caplog.records if r.name == bot_services.log.name]
    text = record.getMessage()
    assert "refused" in text and "play" in text
    assert "'7'" not in text and '"7"' not in text and " 7 " not in text, text
