"""The shuffle is a permutation of its input and (roughly) uniform.

Deterministic seeds throughout: a failure is reproducible, never flaky. The
chi-square bounds are the 0.1 % critical values, so a correct generator fails
them about once in a thousand seed choices -- these seeds pass, and the
classic biased shuffle (j below len instead of below i + 1) fails them by
far (the last test).
"""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games import fairness

KEY = bytes.fromhex("5eed" * 16)
SEEDS = ["ann", "bob", ""]


@settings(max_examples=200, deadline=None)
@given(
    key=st.binary(min_size=32, max_size=32),
    seeds=st.lists(st.text(max_size=64), min_size=1, max_size=12),
    k=st.integers(min_value=0, max_value=10**6),
    items=st.lists(st.sampled_from(["AS", "7H", "10D", "JK", "SB", "12", "0"]), max_size=120),
)
def test_a_shuffle_is_a_permutation_and_repeatable(key, seeds, k, items):
    out = fairness.shuffled(key, seeds, k, items)
    assert Counter(out) == Counter(items)
    assert out == fairness.shuffled(key, seeds, k, items)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(min_value=1, max_value=2**32), k=st.integers(min_value=0, max_value=10**6))
def test_uniform_stays_below_n(n, k):
    assert 0 <= fairness.uniform(KEY, SEEDS, k, n) < n


def chi_square(counts: Counter, cells: list, total: int) -> float:
    expected = total / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def test_every_order_of_four_cards_is_equally_likely():
    cells = list(itertools.permutations("ABCD"))  # 24 orders: 23 degrees of freedom
    total = 24 * 500
    counts = Counter(tuple(fairness.shuffled(KEY, SEEDS, k, list("ABCD"))) for k in range(total))
    assert set(counts) == set(cells)
    assert chi_square(counts, cells, total) < 49.73  # chi2(23), p = 0.001


def test_every_card_lands_on_every_place_equally_often():
    deck = list("ABCDEFG")
    total = 7 * 1000
    places: dict[int, Counter] = {i: Counter() for i in range(len(deck))}
    for k in range(total):
        for place, card in enumerate(fairness.shuffled(KEY, ["x"], k, deck)):
            places[place][card] += 1
    for counts in places.values():
        assert chi_square(counts, deck, total) < 22.46  # chi2(6), p = 0.001


def test_uniform_below_three_is_flat():
    total = 30_000
    counts = Counter(fairness.uniform(KEY, SEEDS, k, 3) for k in range(total))
    assert chi_square(counts, [0, 1, 2], total) < 13.82  # chi2(2), p = 0.001


def test_the_chi_square_catches_a_biased_shuffle():
    """The classic mistake (j below len instead of below i + 1) fails the same test."""

    def naive(k: int) -> tuple:
        draw, out = fairness.Draw(KEY, SEEDS, k), list("ABCD")
        for i in range(len(out) - 1, 0, -1):
            j = draw.below(len(out))
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    cells = list(itertools.permutations("ABCD"))
    total = 24 * 500
    counts = Counter(naive(k) for k in range(total))
    assert chi_square(counts, cells, total) > 49.73
