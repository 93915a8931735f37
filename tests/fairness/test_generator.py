"""Known-answer vectors for the fair-deal generator (docs/fairness.md).

The literal values below were computed once with ``independent`` -- a few lines
written from the contract's text alone, not with ``games.fairness`` -- and are
written out so that anyone porting the checker to another language can test
their port against them. Three implementations must agree with them: this
file's, ``games.fairness`` (the server's) and ``fairness_check.py`` (the
players').
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

import pytest

import fairness_check
from games import fairness, rules

K1 = bytes(range(32))  # 000102...1f
S1 = ["alice", "bob"]
K2 = b"\xff" * 32
S2 = ["ünïcödé", "", "🂡 x"]

COMMIT1 = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
COMMIT2 = "af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051"
M1_K0 = b"pablo-fair/v1\nalice\nbob\n0"
#: HMAC-SHA256(K1, M1_K0 + b":0") and (... + b":1"): the first 64 bytes of draw 0's stream.
BLOCK0 = "16b0edd5bb17ea28b5408989bc5cd9fae02183b1877421c1265cd903fe8203e3"
BLOCK1 = "b380f05dc73551821039286acfa1aa34ce2226556596abfa65fea9dcfe98fbfa"
#: The first ten big-endian 32-bit words of draw 0 (K1, S1); words 8-9 come from BLOCK1.
WORDS = [
    380693973,
    3138906664,
    3040905609,
    3160201722,
    3760292785,
    2272534977,
    643619075,
    4269933539,
    3011571805,
    3342160258,
]
#: Draws k = 0..7 (K1, S1), each one uniform integer below 52.
BELOW_52 = [49, 42, 48, 1, 37, 50, 36, 43]
#: Draws k = 0..7 (K2, S2: non-ASCII seeds, an empty one), each one uniform below 3.
BELOW_3 = [1, 0, 1, 0, 0, 1, 1, 0]
#: Draw 3 (K1, S1) as a shuffle of "abcdefghij".
SHUFFLE_10 = ["g", "e", "c", "i", "a", "j", "f", "d", "h", "b"]
#: Draw 0 (K2, S2) as a deal of the Cabo deck (input: its codes sorted by UTF-8 bytes).
CABO_DEAL = [
    "4",
    "9",
    "2",
    "3",
    "5",
    "8",
    "13",
    "0",
    "2",
    "7",
    "11",
    "12",
    "2",
    "10",
    "8",
    "6",
    "7",
    "10",
    "10",
    "4",
    "5",
    "10",
    "1",
    "0",
    "8",
    "2",
    "6",
    "3",
    "13",
    "7",
    "6",
    "7",
    "8",
    "5",
    "9",
    "1",
    "12",
    "9",
    "11",
    "3",
    "1",
    "1",
    "4",
    "4",
    "5",
    "9",
    "12",
    "3",
    "11",
    "12",
    "11",
    "6",
]
#: Rejection: below n = 2**31 + 1, draw 1 (K1, S1) rejects its first word 4184997846
#: (>= n * floor(2**32 / n) = n) and gives the next accepted one.
REJECT_N = 2**31 + 1
REJECT_FIRST = 4184997846
REJECT_VALUE = 1702484097


# --------------------------------------------------------------------------- independent


def independent_words(key: bytes, seeds: list[str], k: int) -> Iterator[int]:
    m = ("pablo-fair/v1\n" + "\n".join(seeds) + "\n" + str(k)).encode()
    buf, counter = b"", 0
    while True:
        buf += hmac.new(key, m + b":" + str(counter).encode(), hashlib.sha256).digest()
        counter += 1
        while len(buf) >= 4:
            yield int.from_bytes(buf[:4], "big")
            buf = buf[4:]


def independent_below(words: Iterator[int], n: int) -> int:
    return next(x % n for x in words if x < n * (2**32 // n))


def independent_shuffle(key: bytes, seeds: list[str], k: int, items: list[str]) -> list[str]:
    words, out = independent_words(key, seeds, k), list(items)
    for i in range(len(out) - 1, 0, -1):
        j = independent_below(words, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def cabo_sorted() -> list[str]:
    deck = ["0", "0"] + [str(v) for v in range(1, 13) for _ in range(4)] + ["13", "13"]
    return sorted(deck, key=lambda c: c.encode("utf-8"))


def test_the_independent_implementation_gives_the_vectors():
    """The vectors are what the contract's text says (guards against a typo in them)."""
    assert hashlib.sha256(K1).hexdigest() == COMMIT1
    assert hashlib.sha256(K2).hexdigest() == COMMIT2
    words = independent_words(K1, S1, 0)
    assert [next(words) for _ in range(10)] == WORDS
    assert [independent_below(independent_words(K1, S1, k), 52) for k in range(8)] == BELOW_52
    assert [independent_below(independent_words(K2, S2, k), 3) for k in range(8)] == BELOW_3
    assert independent_shuffle(K1, S1, 3, list("abcdefghij")) == SHUFFLE_10
    assert independent_shuffle(K2, S2, 0, cabo_sorted()) == CABO_DEAL
    assert next(independent_words(K1, S1, 1)) == REJECT_FIRST >= REJECT_N
    assert independent_below(independent_words(K1, S1, 1), REJECT_N) == REJECT_VALUE


# --------------------------------------------------------------------------- the server's


def test_server_commitment_message_and_stream():
    assert fairness.commitment(K1) == COMMIT1
    assert fairness.commitment(K2) == COMMIT2
    assert fairness.message(S1, 0) == M1_K0
    stream = fairness.stream(K1, S1, 0)
    assert bytes(next(stream) for _ in range(64)).hex() == BLOCK0 + BLOCK1
    draw = fairness.Draw(K1, S1, 0)
    assert [draw.uint32() for _ in range(10)] == WORDS


def test_server_uniform_shuffle_and_rejection():
    assert [fairness.uniform(K1, S1, k, 52) for k in range(8)] == BELOW_52
    assert [fairness.uniform(K2, S2, k, 3) for k in range(8)] == BELOW_3
    assert fairness.shuffled(K1, S1, 3, list("abcdefghij")) == SHUFFLE_10
    assert fairness.sort_codes(cabo_sorted()[::-1]) == cabo_sorted()
    assert fairness.shuffled(K2, S2, 0, cabo_sorted()) == CABO_DEAL
    assert fairness.uniform(K1, S1, 1, REJECT_N) == REJECT_VALUE


def test_server_fair_chance_numbers_its_draws():
    history = fairness.History(next_k=3)
    chance = fairness.FairChance(K1, list(S1), lambda: history)
    assert chance.shuffle(list("jihgfedcba")) == SHUFFLE_10  # sorted first, then draw 3
    assert chance.choice([0, 1]) == fairness.uniform(K1, S1, 4, 2)
    assert chance.choice([1]) == 1  # one candidate: no draw
    deck = chance.deck(2, cabo_sorted()[::-1])
    assert deck == fairness.shuffled(K1, S1, 5, cabo_sorted())
    draws = chance.finish()
    assert [(d["k"], d["kind"], d["round"]) for d in draws] == [
        (3, "reshuffle", None),
        (4, "start_seat", 2),  # a start seat drawn before a deal belongs to that deal
        (5, "deal", 2),
    ]
    assert draws[1]["input"] is None and draws[1]["output"] in (0, 1)


def test_server_reshuffle_of_card_ids_sorts_by_code():
    deck = ["7H", "2S", "7H", "AS", "10D"]
    history = fairness.History(next_k=0, round=4, deck=deck)
    chance = fairness.FairChance(K1, list(S1), lambda: history)
    ids = chance.shuffle([4, 2, 0, 1])
    [draw] = chance.finish()
    assert draw["input"] == ["10D", "2S", "7H", "7H"]
    assert draw["output"] == fairness.shuffled(K1, S1, 0, draw["input"])
    assert [deck[i] for i in ids] == draw["output"]
    assert sorted(ids) == [0, 1, 2, 4] and draw["round"] == 4


# --------------------------------------------------------------------------- the players'


def test_checker_generator():
    stream = fairness_check.draw_stream(K1, S1, 0)
    assert bytes(next(stream) for _ in range(64)).hex() == BLOCK0 + BLOCK1
    below = fairness_check.below
    assert [below(fairness_check.draw_stream(K1, S1, k), 52) for k in range(8)] == BELOW_52
    assert [below(fairness_check.draw_stream(K2, S2, k), 3) for k in range(8)] == BELOW_3
    assert below(fairness_check.draw_stream(K1, S1, 1), REJECT_N) == REJECT_VALUE
    shuffle = fairness_check.fisher_yates
    assert shuffle(fairness_check.draw_stream(K1, S1, 3), list("abcdefghij")) == SHUFFLE_10
    assert shuffle(fairness_check.draw_stream(K2, S2, 0), cabo_sorted()) == CABO_DEAL


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("pablo", {"jokers": 1}),
        ("pablo", {"jokers": 2}),
        ("pablo-50", {}),
        ("tamalou", {"decks": 1}),
        ("tamalou", {"decks": 2}),
        ("cabo", {}),
        ("skipbo", {}),
    ],
)
def test_checker_knows_every_rulesets_deck(ruleset, options):
    rulebook = rules.get_ruleset(ruleset)
    clean = rules.validate_options(rulebook, rulebook.min_players, options)
    assert sorted(fairness_check.full_deck(ruleset, clean)) == sorted(rulebook.deck(clean))
