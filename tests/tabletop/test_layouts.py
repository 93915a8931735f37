"""Each ruleset's drawing facts (its ``Presentation``, read by tabletop/layouts.py):
complete, and strict about the unknown.

A ruleset whose board or cards the UI cannot draw is an error, never drawn as
some other game (docs/table.md "Adding a ruleset").
"""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import pytest
from django.conf import settings

from games import rules
from games.rules.family.presets import CABO
from play import boards as table_boards
from play import table
from replays import frames
from tabletop import cards, layouts
from tabletop.layouts import BOARDS, KINDS, UnknownRuleset, kind_of, layout

TEMPLATES = Path(settings.BASE_DIR) / "templates"


@pytest.mark.parametrize("ruleset", sorted(r.id for r in rules.rulesets()))
def test_a_layout_names_a_board_and_cards_the_ui_can_draw(ruleset):
    drawn = layout(ruleset)
    assert drawn == rules.get_ruleset(ruleset).presentation
    assert drawn.cards in KINDS
    assert drawn.board in BOARDS
    assert drawn.chart_axis in ("round", "turn")


def test_each_board_is_laid_out_by_the_table_and_the_viewer_with_a_template_each():
    assert set(table_boards.BUILDERS) == set(BOARDS.values())
    assert set(frames.BUILDERS) == set(BOARDS.values())
    for board in BOARDS:
        assert (TEMPLATES / "play" / f"_{board}.html").is_file()
        assert (TEMPLATES / "replays" / f"_{board}.html").is_file()


def test_an_unknown_ruleset_is_an_error_not_a_family_layout():
    with pytest.raises(UnknownRuleset, match="no layout for ruleset 'skat'"):
        layout("skat")
    with pytest.raises(UnknownRuleset):
        kind_of("skat")
    game = {"ruleset": "skat", "seats": 2, "players": [], "status": "active", "state": {}}
    with pytest.raises(UnknownRuleset):
        table.build(game, "", [])


def test_a_ruleset_whose_board_the_ui_lacks_is_an_error(eights):
    # Crazy Eights' hands lie on the family board; the same game on a board of hexes
    odd = copy.copy(rules.get_ruleset(eights))
    odd.id = "hexes"
    odd.presentation = replace(odd.presentation, board="hexes")
    rules.register(odd)
    try:
        assert layout(eights).board in BOARDS
        with pytest.raises(UnknownRuleset, match="board 'hexes'"):
            layout("hexes")
    finally:
        rules.unregister("hexes")


def test_a_cabo_face_names_the_power_the_rules_give_it():
    # the rules print them (Presentation.faces); the pages only draw them
    assert layouts.face_words("cabo") == {rank: kind for rank, (kind, _) in CABO.powers.items()}
    for rank, (kind, _) in CABO.powers.items():
        assert f"Cabo {rank} ({kind})" in cards.card_html(rank, "cabo")
    assert "(" not in cards.card_html("3", "cabo").split("aria-label=")[1].split('"')[1]
