"""Each ruleset's drawing facts, in one table: the UI's whole entry for a ruleset.

The web table (``play``) and the replay viewer (``replays``) ask ``layout(ruleset)``
which cards to draw (``kind``: the family of card codes, ``tabletop.cards``),
which board to lay them on (``board``: ``play/_<board>.html`` and
``replays/_<board>.html``, built by ``play.boards`` and ``replays.frames``),
what a call is called and where the viewer's chart draws the end of the game.

A ruleset missing here is an error (``UnknownRuleset``), never silently drawn
as some other game: a new ruleset whose board is one of ``BOARDS`` needs one
entry below and nothing else in the UI (docs/table.md "Adding a ruleset").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, gettext_lazy, gettext_noop

#: The boards the table and the viewer can lay out (a template of each per page).
BOARDS = ("family", "skipbo")
#: The families of card codes ``tabletop.cards`` can draw.
KINDS = ("french", "cabo", "skipbo")


class UnknownRuleset(LookupError):
    """The UI has no layout for this ruleset (add one to ``LAYOUTS``)."""


@dataclass(frozen=True)
class Layout:
    #: The card codes: "french" (7H, JK), "cabo" (0-13) or "skipbo" (1-12, SB).
    kind: str
    #: Where the cards lie: "family" (a field of slots per seat, a deck and a
    #: discard pile) or "skipbo" (hand, stock, four discard piles, building piles).
    board: str
    #: The viewer's chart: one point per "round", or per "turn".
    chart_axis: str
    #: The end line of the chart: (value, words), or None.
    threshold: tuple[int, str] | None
    #: What a call is called ("Pablo"); "" for a ruleset without calls.
    call_word: str = ""


LAYOUTS: dict[str, Layout] = {
    "pablo": Layout("french", "family", "round", (100, gettext_lazy("game ends at 100")), "Pablo"),
    "pablo-50": Layout(
        "french", "family", "round", (50, gettext_lazy("game ends above 50")), "Pablo"
    ),
    "tamalou": Layout(
        "french", "family", "round", (100, gettext_lazy("game ends at 100")), "Tamalou"
    ),
    "cabo": Layout("cabo", "family", "round", (100, gettext_lazy("game ends above 100")), "Cabo"),
    "skipbo": Layout("skipbo", "skipbo", "turn", (0, gettext_lazy("an empty stock wins"))),
}


def layout(ruleset: str) -> Layout:
    """The layout of ``ruleset``; ``UnknownRuleset`` when the UI has none."""
    try:
        return LAYOUTS[ruleset]
    except KeyError:
        raise UnknownRuleset(
            f"no layout for ruleset {ruleset!r}: add it to tabletop.layouts.LAYOUTS"
        ) from None


def kind_of(ruleset: str) -> str:
    """The family of card codes of ``ruleset`` (``tabletop.cards`` draws them)."""
    return layout(ruleset).kind


#: The rules' names of the rulesets, for the catalogues: each language says them
#: its own way (Tamalou stays Tamalou everywhere).
RULESET_NAMES = (
    gettext_noop("Pablo"),
    gettext_noop("Pablo (50)"),
    gettext_noop("Tamalou"),
    gettext_noop("Cabo"),
    gettext_noop("Skip-Bo"),
)


def local_name(name: str) -> str:
    """A ruleset's name (the rules' ``name``) as the current language says it."""
    return gettext(name)
