"""The one table from a board kind to the UI; the rest of a ruleset's drawing facts are its own.

The web table (``play``) and the replay viewer (``replays``) ask ``layout(ruleset)``
-- the ruleset's ``Presentation`` (``games.rules``) -- which cards to draw
(``cards``: the family of card codes, ``tabletop.cards``), which board to lay them
on (``board``: ``play/_<board>.html`` and ``replays/_<board>.html``, built by
``play.boards`` and ``replays.frames``), what a call is called and where the
viewer's chart draws the end of the game. No page names a ruleset.

A ruleset the rules do not know, or whose board the UI cannot lay out, is an
error (``UnknownRuleset``), never silently drawn as some other game: a new
ruleset whose board is one of ``BOARDS`` needs nothing in the UI; a new board is
a template per page and an entry here (docs/table.md "Adding a ruleset").
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

from games import rules

#: The boards the table and the viewer can lay out (a template of each per page).
BOARDS = ("family", "skipbo")
#: The families of card codes ``tabletop.cards`` can draw.
KINDS = ("french", "cabo", "skipbo")

Layout = rules.Presentation


class UnknownRuleset(LookupError):
    """The UI cannot draw this ruleset (the rules do not know it, or not its board)."""


def layout(ruleset: str) -> Layout:
    """How the pages show ``ruleset``; ``UnknownRuleset`` when they cannot."""
    try:
        drawn = rules.get_ruleset(ruleset).presentation
    except rules.Malformed:
        raise UnknownRuleset(
            f"no layout for ruleset {ruleset!r}: the rules do not know it"
        ) from None
    if drawn.board not in BOARDS or drawn.cards not in KINDS:
        raise UnknownRuleset(
            f"no layout for ruleset {ruleset!r}: board {drawn.board!r} or cards "
            f"{drawn.cards!r} unknown to tabletop.layouts"
        )
    return drawn


def kind_of(ruleset: str) -> str:
    """The family of card codes of ``ruleset`` (``tabletop.cards`` draws them)."""
    return layout(ruleset).cards


#: The rules' names of the rulesets and the words of their presentation, for the
#: catalogues: each language says them its own way (Tamalou stays Tamalou).
RULE_WORDS = (
    gettext_noop("Pablo"),
    gettext_noop("Pablo (50)"),
    gettext_noop("Tamalou"),
    gettext_noop("Cabo"),
    gettext_noop("Skip-Bo"),
    gettext_noop("game ends at 100"),
    gettext_noop("game ends above 50"),
    gettext_noop("game ends above 100"),
    gettext_noop("an empty stock wins"),
    gettext_noop("point"),
    gettext_noop("points"),
    gettext_noop("card left in stock"),
    gettext_noop("cards left in stock"),
)


def local_name(name: str) -> str:
    """A ruleset's name, or a word of its presentation, as the current language says it."""
    return gettext(name)
