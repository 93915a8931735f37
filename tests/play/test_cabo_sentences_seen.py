"""Sentences name Cabo's cards in full ("Cabo 7"): over whole two-seat Cabo games, no
seat's sentences -- "Last moves", the live region, the viewer's ``?as=`` -- name a card
that seat's view of the event does not show, in any language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from tabletop.describe import describe
from tabletop.layouts import layout
from tests.replays.games import engine_game

NAMED = re.compile(r"Cabo\s(\d+)")  # a no-break space too


def _codes(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_codes(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(_codes(v) for v in data)) if data else set()
    return set()


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_is_told_no_cabo_card_it_did_not_see(seed, lang):
    t = engine_game("cabo", 2, seed=seed, timeouts=1 if seed == 3 else 0)
    kind = layout("cabo").cards
    names = ["ann", "ben"]
    named_any = 0
    with translation.override(lang):
        for seat in (0, 1):
            for reader in (seat, None):
                views = t.event_views(seat)
                for event, data in zip(t.events, views, strict=True):
                    shown = _codes(data)
                    for text in describe(
                        event, data, names, kind, viewer=seat, ruleset="cabo", reader=reader
                    ):
                        for code in NAMED.findall(text):
                            named_any += 1
                            assert code in shown, (event.type, seat, text, data)
    assert named_any  # the check has something to check


@pytest.mark.parametrize("seed", [1, 7])
def test_the_viewer_as_a_seat_names_no_cabo_card_it_did_not_see(seed):
    """The replay viewer's ``?as=`` sentences, step by step: each names only cards of
    that step's events as the seat saw them."""
    from replays.steps import build_replay

    t = engine_game("cabo", 2, seed=seed)
    replay = build_replay("0" * 32, len(t.events), t.events)
    named_any = 0
    with translation.override("en"):
        for seat in (0, 1):
            views = t.event_views(seat)
            for step in replay.steps[1:]:
                shown = set().union(
                    *(_codes(views[i]) for i in range(step.first, step.event_index + 1))
                )
                for text in replay.sentences(seat, step.number, step.number)[0]:
                    for code in NAMED.findall(text):
                        named_any += 1
                        assert code in shown, (step.number, seat, text)
    assert named_any
