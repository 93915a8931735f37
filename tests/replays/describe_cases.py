"""The event types each ruleset emits (their modules' docstrings) and the engine's,
and seeds whose random games emit them all together (tests/replays/test_views.py).
"""

from games import rules

FAMILY = {
    "round_started", "turn_started", "drawn", "discarded", "replaced",
    "called", "round_ended",
}  # fmt: skip
LIFE = {"game_created", "player_joined", "game_started", "turn_timed_out", "player_returned",
        "player_absent", "game_aborted", "game_finished"}  # fmt: skip

ALL_EVENTS = {
    "pablo": FAMILY | LIFE | {"looked", "peeked", "spied", "swapped", "thrown", "penalty",
                              "power_skipped"},
    "pablo-50": FAMILY | LIFE | {"looked", "peeked", "spied", "swapped", "thrown", "power_skipped"},
    "tamalou": FAMILY | LIFE | {"peeked", "swapped", "power_skipped"},
    "cabo": FAMILY | LIFE | {"looked", "peeked", "spied", "swapped", "power_skipped", "reshuffled"},
    "skipbo": LIFE | {"round_started", "turn_started", "cards_drawn", "card_played",
                      "pile_completed", "draw_pile_reshuffled", "card_discarded", "turn_ended"},
}  # fmt: skip
assert LIFE <= rules.ENGINE_EVENTS

SEEDS = {"pablo": [3, 5], "pablo-50": [9, 1], "tamalou": [32, 1], "cabo": [4, 2], "skipbo": [3, 1]}
