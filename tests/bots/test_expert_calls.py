"""Two experts alone at a Cabo table: a round that never ended.

Found by the ratings' population bench (bench/README.md): in a long round each
expert's call search rolled out "not calling yet" with ``basic`` for every seat,
whose impatience makes the seat without the lowest total call and pay 5 points
for it, so waiting always looked better and neither expert ever called (seed 0
below, the bench's own generator: both seats knew every card, 0 + 0 against 1,
for more than 1,000 turns).
The seat with the lowest estimated total now calls in a long round."""

from __future__ import annotations

import random

import pytest

from games.bots.driver import Unfinished
from games.bots.play import play_game
from games.chance import DeckChance


@pytest.mark.slow
def test_two_experts_end_every_round():
    rng = random.Random(0)
    try:
        outcome = play_game(
            "cabo", ["expert", "expert"], chance=DeckChance(rng), rng=rng, max_actions=3000
        )
    except Unfinished as exc:
        pytest.fail(f"the experts' game never ended: {exc}")
    assert outcome.rounds >= 1
