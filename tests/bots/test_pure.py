"""The pure bots: they only ever choose legal actions, and never from hidden cards."""

from __future__ import annotations

import random

import pytest

from games import rules
from games.bots import decide, levels
from games.bots.driver import Unfinished
from games.bots.play import bot_view, play_game
from games.chance import DeckChance
from tests.depth import scaled

FAMILY = ("pablo", "pablo-50", "tamalou", "cabo")
RULESETS = (*FAMILY, "skipbo")
#: ``PABLO_TEST_DEPTH`` scales it (tests/depth.py)
GAMES_PER_RULESET = scaled(1000)
#: each sweep in parts of their own, so that parallel workers share it (pytest-xdist)
PARTS = 4
#: The expert's budget where a test checks what its decision depends on, not how
#: strong it is: every search still samples worlds, plays rollouts and picks (the
#: default, ``expert.DEFAULT_ITERATIONS``, costs four times as much).
EXPERT_BUDGET = {"iterations": 24}


def is_legal(state: rules.State, seat: int, body: dict, legal: list[dict]) -> bool:
    """Is ``body`` one of ``legal`` (a complete body, or a template with its choices filled)?"""
    if body in legal:  # a complete body as listed (the loop below says the same, slower)
        return True
    for action in legal:
        if action["type"] != body.get("type"):
            continue
        choices = action.get("choices") or {}
        fixed = {k: v for k, v in action.items() if k != "choices"}
        extra = set(body) - set(fixed) - set(choices)
        if action["type"] == "throw" and extra == {"give_position"}:
            # optional: one of the thrower's own cards, only with another's card
            own = state.fields[seat]  # type: ignore[attr-defined]
            give = body["give_position"]
            if body["seat"] == seat or not (0 <= give < len(own)) or own[give] is None:
                continue
            extra = set()
        if extra:
            continue
        if any(body.get(k) != v for k, v in fixed.items()):
            continue
        if all(body.get(name) in values for name, values in choices.items()):
            return True
    return False


def legality_check(state: rules.State, seat: int, body: dict) -> None:
    legal = rules.get_ruleset(state.ruleset).legal_actions(state, seat)
    assert is_legal(state, seat, body, legal), (state.ruleset, seat, body, legal)


def test_levels():
    assert levels() == ["random", "basic", "expert"]


@pytest.mark.slow  # 200 s in all: a marker, not an exclusion (CI runs it)
@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("ruleset", RULESETS)
def test_bots_only_choose_legal_actions(ruleset, part):
    """A thousand games per ruleset (5,000 in all, in PARTS parts of distinct seeds),
    every choice against legal_actions."""
    options = {"stock_size": 5} if ruleset == "skipbo" else {}
    mixes = [
        ["random", "random"],
        ["basic", "random"],
        ["basic", "basic", "random"],
        ["random", "basic", "basic", "random"],
    ]
    games = 0
    first = seed = part * 100_000
    wanted = GAMES_PER_RULESET // PARTS
    while games < wanted:
        mix = mixes[seed % len(mixes)]
        seed += 1
        try:
            outcome = play_game(
                ruleset,
                mix,
                chance=DeckChance(random.Random(seed)),
                rng=random.Random(-seed),
                options=options,
                check=legality_check,
                max_actions=20_000,
            )
        except Unfinished:
            continue  # random play may wander; every action up to here was checked
        assert outcome.winners or outcome.losers  # pablo: when all lose, nobody wins
        games += 1
    assert seed - first < 2 * wanted  # random play rarely wanders off


class Enough(Exception):
    pass


def _hidden_shuffled(state: rules.State, seat: int, rng: random.Random) -> rules.State:
    """A copy of ``state`` whose cards unknown to ``seat`` are permuted among themselves."""
    other = state.copy()
    if state.ruleset == "skipbo":
        hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]  # type: ignore[attr-defined]
        hidden += [c for stock in state.stocks for c in stock[:-1]]  # type: ignore[attr-defined]
        hidden += list(state.draw)  # type: ignore[attr-defined]
        codes = list(state.deck)  # type: ignore[attr-defined]
    else:
        known = state.known[seat]  # type: ignore[attr-defined]
        cards = [c for f in state.fields for c in f if c is not None]  # type: ignore[attr-defined]
        hidden = [c for c in cards + list(state.draw) if c not in known]  # type: ignore[attr-defined]
        if state.held is not None and state.held_from == "deck" and state.turn_seat != seat:  # type: ignore[attr-defined]
            hidden.append(state.held)  # type: ignore[attr-defined]
        codes = list(state.codes)  # type: ignore[attr-defined]
    values = [codes[c] for c in hidden]
    rng.shuffle(values)
    for c, v in zip(hidden, values, strict=True):
        codes[c] = v
    if state.ruleset == "skipbo":
        other.deck = codes  # type: ignore[attr-defined]
    else:
        other.codes = codes  # type: ignore[attr-defined]
    return other


@pytest.mark.parametrize("part", range(3))
@pytest.mark.parametrize("ruleset", RULESETS)
def test_hidden_cards_do_not_change_a_decision(ruleset, part):
    """Views of states that differ only in cards the seat never saw: the same decisions
    (30 games per ruleset, in three parts of ten)."""
    options = {"stock_size": 30} if ruleset == "skipbo" else {}
    compared = differed = 0
    for seed in range(part * 10, part * 10 + 10):
        steps: list[rules.State] = []

        def keep(state: rules.State, seat: int, body: dict, steps: list = steps) -> None:
            steps.append(state.copy())
            if len(steps) >= 60:
                raise Enough

        with pytest.raises(Enough):
            play_game(
                ruleset,
                ["basic", "basic"],
                chance=DeckChance(random.Random(seed)),
                rng=random.Random(seed),
                options=options,
                check=keep,
            )
        for state in steps[::7]:
            for seat in range(state.seats):
                twin = _hidden_shuffled(state, seat, random.Random(seed))
                if twin.ruleset != "skipbo" and twin.codes != state.codes:  # type: ignore[attr-defined]
                    differed += 1
                if twin.ruleset == "skipbo" and twin.deck != state.deck:  # type: ignore[attr-defined]
                    differed += 1
                view, twin_view = bot_view(state, seat), bot_view(twin, seat)
                assert view == twin_view
                for level in levels():
                    budget = EXPERT_BUDGET if level == "expert" else {}
                    first = decide(level, ruleset, view, seat, random.Random(seed), **budget)
                    again = decide(level, ruleset, twin_view, seat, random.Random(seed), **budget)
                    assert first == again
                compared += 1
    assert compared > 30 and differed > compared // 2


def test_stand_in_choices_are_the_bot_levels():
    from games.rules import COMMON_OPTIONS

    assert COMMON_OPTIONS["stand_in"].choices == ("rules", *levels())
