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

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_lazy, gettext_noop, pgettext_lazy

from games import rules

#: The boards the table and the viewer can lay out: a board kind (``Presentation.board``,
#: and the name of its template on each page: ``play/_<board>.html``,
#: ``replays/_<board>.html``) -> the shape its builders lay out (``play.boards.BUILDERS``,
#: ``replays.frames.BUILDERS``): ``fields``, a row of cards per seat with a deck and a
#: discard pile; ``piles``, a hand, a stock and discard piles per seat around building piles.
BOARDS = {"family": "fields", "skipbo": "piles"}


@dataclass(frozen=True)
class Faces:
    """How ``tabletop.cards`` draws one kind of card codes: plain data, no names to branch on."""

    #: Rank and suit (``7H``, ``JK``: the French cards); otherwise a number per code.
    suited: bool = False
    #: A numbered face's class, and the word before its number in its name ("Cabo 7").
    css: str = ""
    label: str = ""
    #: What a numbered face shows under its number when the rules print no word on it.
    mark: str = ""
    #: A numbered face's colour class: the first whose bound its value does not pass.
    tiers: tuple[tuple[int, str], ...] = ()
    #: Whether sentences name a numbered card by its whole name ("Cabo 7"), not its bare
    #: number: where slots are numbered too, "1 and 2 do not match" read like slots.
    named_in_sentences: bool = False
    #: The wild card's code, its class, its name, its mark and its short form in sentences.
    wild: str = ""
    wild_css: str = ""
    wild_name: Any = ""
    wild_mark: Any = ""
    wild_short: str = ""


#: The families of card codes ``tabletop.cards`` can draw (``Presentation.cards``).
KINDS = {
    "french": Faces(suited=True),
    "cabo": Faces(
        css="cabo",
        label="Cabo",
        mark="cabo",
        tiers=((4, "cabo-low"), (8, "cabo-mid"), (99, "cabo-high")),
        named_in_sentences=True,
    ),
    "skipbo": Faces(
        css="skipbo",
        label="Skip-Bo",
        mark="Skip-Bo",
        tiers=((4, "sb-blue"), (8, "sb-green"), (99, "sb-red")),
        wild="SB",
        wild_css="sb-wild",
        wild_name=gettext_lazy("Skip-Bo wild card"),
        wild_mark=pgettext_lazy("Skip-Bo wild card", "wild"),
        wild_short="Skip-Bo",
    ),
}

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


def shape_of(ruleset: str) -> tuple[str, str]:
    """(board kind, the shape its builders lay out) of ``ruleset``."""
    board = layout(ruleset).board
    return board, BOARDS[board]


def faces(kind: str) -> Faces:
    """How the cards of ``kind`` are drawn (``UnknownRuleset`` for a kind the UI lacks)."""
    try:
        return KINDS[kind]
    except KeyError:
        raise UnknownRuleset(f"no drawing for the cards {kind!r}") from None


def face_words(kind: str) -> dict[str, str]:
    """The words the rules print on the faces of ``kind`` (Cabo's powers), by code."""
    out: dict[str, str] = {}
    for ruleset in rules.rulesets():
        if ruleset.presentation.cards == kind:
            out.update(ruleset.presentation.faces)
    return out


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
