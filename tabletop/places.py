"""A player's place in words, in the current language: "2nd of 4", "1er sur 3", "2. von 4"
(the history page and the player page say it alike)."""

from __future__ import annotations

from django.utils.translation import gettext, pgettext


def ordinal(n: int) -> str:
    """``n`` as an ordinal: 1st 2nd 3rd 4th 11th 21st, 1er 2e 21e, 1. 2. 21.

    English picks the suffix by the last digits; French writes "er" for the first
    alone (21e, not 21er), so 1 has a message of its own."""
    if n == 1:
        return pgettext("ordinal of 1 exactly", "%(n)sst") % {"n": n}
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return gettext("%(n)sth") % {"n": n}
    if n % 10 == 1:
        return gettext("%(n)sst") % {"n": n}
    if n % 10 == 2:
        return gettext("%(n)snd") % {"n": n}
    return gettext("%(n)srd") % {"n": n}


def rank_words(rank: int, players: int, *, tied: bool = False) -> str:
    """A rank among players: "1st of 3"; "2nd of 4, shared" when another has it too."""
    words = {"rank": ordinal(rank), "count": players}
    if tied:
        return gettext("%(rank)s of %(count)s, shared") % words
    return gettext("%(rank)s of %(count)s") % words
