"""A player's name as people read it: the one place that turns a username into words.

A house bot's username (``games.bots.bot_name``: ``"basic bot 2"``) is API data and
stays as it is; every page, sentence and notification shows it in the reader's
language instead ("bot simple 2", "einfacher Bot 2"). Anyone else's name is their
username, untouched.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext

from games.bots import LEVELS, bot_level


def _bot_words(level: str) -> str:
    if level == "random":
        return gettext("random bot %(seat)s")
    if level == "expert":
        return gettext("expert bot %(seat)s")
    return gettext("basic bot %(seat)s")


def player_name(username: str | None) -> str:
    """``username`` as a page shows it: a house bot's name in the active language."""
    level = bot_level(username)
    if level is None or username is None:
        return username or ""
    return _bot_words(level) % {"seat": username.rsplit(" ", 1)[-1]}


def username_of(shown: str) -> str:
    """The username of a name as ``player_name`` shows it (a filter typed or picked by
    a reader: "bot simple 1" is ``basic bot 1``); anything else as it is."""
    for level in LEVELS:
        said = re.escape(_bot_words(level) % {"seat": "SEAT"})
        pattern = said.replace("SEAT", r"(\d+)")
        match = re.fullmatch(pattern, shown.strip(), re.IGNORECASE)
        if match:
            return f"{level} bot {match.group(1)}"
    return shown
