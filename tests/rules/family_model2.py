"""A second, independent model of the Pablo family: the rules as written, nothing of the engine.

Written from the rules specification (RULES.md §2-§6 and §8: the project's
docs/rules.md carries the same text) and not from ``games/rules/family/``;
``test_family_model2.py`` plays seeded random games of ``pablo``, ``pablo-50``,
``tamalou`` and ``cabo`` through the real engine and compares the two after
every step. It aims to be obviously right rather than fast: plain lists and
sets, one method per rule.

Conventions of its own: a card is its index in the round's dealt deck (two equal
codes are two cards); the draw pile is a list whose *first* element is the top;
the discard pile grows at the end. What a seat knows is a set of cards per seat
(knowledge follows the card, not the slot); ``public`` holds the cards everyone,
a non-player included, has seen face up.

Where the specification leaves a choice open the model takes the engine's (each
such choice is marked ``Open:`` below and listed in the model5b report).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import combinations
from typing import Any

JSON = dict[str, Any]
FAMILY = ("pablo", "pablo-50", "tamalou", "cabo")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")


class Refused(Exception):
    """The rules forbid the action now (``status`` 409) or ever in this game (400)."""

    def __init__(self, why: str, status: int = 409) -> None:
        super().__init__(why)
        self.status = status


# ---------------------------------------------------------------------- cards


def french() -> list[str]:
    return [rank + suit for rank in RANKS for suit in SUITS]


def deck_of(ruleset: str, options: JSON) -> list[str]:
    """Every card of one round's deck (RULES.md §3-§6 "Deck")."""
    if ruleset == "pablo":
        return french() + ["JK"] * options["jokers"]
    if ruleset == "pablo-50":
        return french()
    if ruleset == "tamalou":
        return french() * options["decks"]
    return [str(v) for v in range(14) for _ in range(2 if v in (0, 13) else 4)]


def max_seats(ruleset: str, options: JSON) -> int:
    if ruleset == "tamalou":
        return 6 if options["decks"] == 1 else 12
    return 8


def rank(code: str) -> str:
    """What matching compares: the code without its suit (cabo: the value itself)."""
    if code == "JK" or code.isdigit():
        return code
    return code[:-1]


def value(ruleset: str, code: str) -> int:
    if ruleset == "cabo":
        return int(code)
    r = rank(code)
    if ruleset == "pablo":
        special = {"KH": 0, "JK": -1}
        faces = {"A": 1, "J": 11, "Q": 12, "K": 13}
    elif ruleset == "pablo-50":
        special = {"KH": 0, "KD": 0}
        faces = {"A": -1, "J": 10, "Q": 10, "K": 10}
    else:
        special = {"KD": 0}
        faces = {"A": 1, "J": 10, "Q": 10, "K": 10}
    if code in special:
        return special[code]
    return faces[r] if r in faces else int(r)


#: power kind -> (optional?, kind) by the rank of a card discarded straight from the draw pile
POWERS: dict[str, dict[str, tuple[str, bool]]] = {
    "pablo": {"7": ("peek", True), "8": ("spy", True), "9": ("swap", False)},
    "pablo-50": {
        "10": ("peek", True),
        "J": ("spy", True),
        "Q": ("swap", False),
        "K": ("spyswap", True),
    },
    "tamalou": {"7": ("peek", True), "8": ("swap", True)},
    "cabo": {
        "7": ("peek", True),
        "8": ("peek", True),
        "9": ("spy", True),
        "10": ("spy", True),
        "11": ("swap", True),
        "12": ("swap", True),
    },
}


class FamilyModel:
    def __init__(
        self,
        ruleset: str,
        seats: int,
        options: JSON,
        deal: Callable[[int, list[str]], list[str]],
        shuffle: Callable[[list[int]], list[int]],
        choice: Callable[[list[int]], int],
    ) -> None:
        assert ruleset in FAMILY
        self.ruleset = ruleset
        self.seats = seats
        self.options = options
        self.deal_fn = deal
        self.shuffle = shuffle
        self.choice = choice
        self.max_timeouts: int = options.get("max_timeouts", 3)
        #: how often each rarer rule was used (the test checks that its games reach them)
        self.seen: Counter[str] = Counter()
        self.totals = [0] * seats
        self.rounds: list[JSON] = []
        self.status = "active"
        self.result: JSON | None = None
        self.timeouts = [0] * seats
        self.absent = [False] * seats
        self.round_no = 0
        self.round_start = 0
        self.last_round: JSON | None = None
        # round state (set by deal)
        self.code: list[str] = []
        self.fields: list[list[int | None]] = []
        self.draw: list[int] = []
        self.pile: list[int] = []
        self.serial = 0
        self.known: list[set[int]] = []
        #: what the command being done showed each seat (``memory: strict`` shows these)
        self.revealed: list[set[int]] = [set() for _ in range(seats)]
        self.revealed_public: set[int] = set()
        self.public: set[int] = set()
        self.phase = "setup"
        self.looked: set[int] = set()
        self.turn: int | None = None
        self.stage: str | None = None
        self.held: int | None = None
        self.held_from: str | None = None
        self.power: str | None = None  # peek | spy | swap | spyswap | swap-after-spy
        self.power_optional = True
        self.called_by: list[int] = []
        self.window: int | None = None  # the seat that just ended its turn (pablo: may call)
        self.final: int | None = None  # pablo: the first caller, whose next turn is the last
        self.match_open = False
        start = options.get("start_seat")
        first = self.choice(list(range(seats))) if start is None else start
        self.deal(first)
        self.auto()

    # ------------------------------------------------------------------ helpers

    @property
    def rs(self) -> str:
        return self.ruleset

    def val(self, card: int) -> int:
        return value(self.rs, self.code[card])

    def cards_of(self, seat: int) -> list[int]:
        return [p for p, c in enumerate(self.fields[seat]) if c is not None]

    def total(self, seat: int) -> int:
        return sum(self.val(c) for c in self.fields[seat] if c is not None)

    def see(self, seat: int, card: int | None) -> None:
        """``seat`` is shown ``card`` (by the action being done: ``revealed``)."""
        assert card is not None
        self.known[seat].add(card)
        self.revealed[seat].add(card)

    def show_all(self, card: int | None) -> None:
        """Face up: every seat (and a non-player) sees it."""
        assert card is not None
        self.public.add(card)
        self.revealed_public.add(card)
        for seat in range(self.seats):
            self.see(seat, card)

    def put_on_pile(self, card: int) -> None:
        self.pile.append(card)
        self.serial += 1
        self.show_all(card)

    def take_from_draw(self) -> int | None:
        """The top of the draw pile; reshuffles the discard pile (all but its top) when
        empty (RULES.md §2 "Draw pile exhausted"); None when no card is left."""
        if not self.draw:
            if len(self.pile) <= 1:
                self.seen["nothing to draw"] += 1
                return None
            self.seen["reshuffle"] += 1
            under, self.pile = self.pile[:-1], self.pile[-1:]
            self.draw = list(self.shuffle(list(under)))
            gone = set(under)
            for k in self.known:
                k -= gone
            self.public -= gone
        return self.draw.pop(0)

    def has_throwing(self) -> bool:
        return self.rs in ("pablo", "pablo-50")

    # ------------------------------------------------------------------ the round

    def deal(self, start: int) -> None:
        self.round_no += 1
        cards = deck_of(self.rs, self.options)
        self.code = list(self.deal_fn(self.round_no, cards))
        assert sorted(self.code) == sorted(cards)
        n = self.seats
        ids = list(range(len(self.code)))
        self.fields = [list(ids[4 * s : 4 * s + 4]) for s in range(n)]
        self.known = [set() for _ in range(n)]
        self.public = set()
        self.pile = []
        self.serial = 0
        self.put_on_pile(ids[4 * n])
        self.draw = ids[4 * n + 1 :]
        self.held = None
        self.held_from = None
        self.power = None
        self.called_by = []
        self.window = None
        self.final = None
        self.match_open = True  # pablo-50: the dealt card opens a match
        self.round_start = start
        self.looked = set()
        if self.rs == "tamalou":
            for s in range(n):
                self.see(s, self.fields[s][0])
                self.see(s, self.fields[s][1])
            self.begin_play()
        else:
            self.phase = "setup"
            self.turn = None
            self.stage = "look"

    def begin_play(self) -> None:
        self.phase = "turn"
        self.turn = self.round_start
        self.stage = "draw"

    def next_turn(self, seat: int) -> None:
        """``seat`` has completed its turn."""
        self.held = None
        self.held_from = None
        self.power = None
        nxt = (seat + 1) % self.seats
        if self.rs == "pablo":
            if self.final == seat:
                self.end_round("call")
                return
        elif self.called_by and nxt == self.called_by[0]:
            self.end_round("call")
            return
        self.turn = nxt
        self.stage = "draw"
        self.window = seat

    def end_round(self, reason: str) -> None:
        self.seen["round ended: " + reason] += 1
        n = self.seats
        totals = [self.total(s) for s in range(n)]
        callers = [] if reason == "exhausted" else list(self.called_by)
        scores = list(totals)
        winners: list[int] = []  # cabo: who starts next
        if self.rs == "pablo":
            for c in callers:
                lowest = all(totals[c] < totals[o] for o in range(n) if o != c)
                scores[c] = 25 if reason == "empty" or not lowest else -20
        elif self.rs == "pablo-50":
            for c in callers:
                low = min(totals)
                if totals[c] > low:
                    scores[c] += 10
                elif totals.count(low) > 1:
                    scores[c] += 5
        elif self.rs == "tamalou":
            for c in callers:
                lowest = all(totals[c] < totals[o] for o in range(n) if o != c)
                scores[c] = -5 if lowest else totals[c] + 10
        else:
            kamikaze = [
                s
                for s in range(n)
                if sorted(self.code[c] for c in self.fields[s] if c is not None)
                == ["12", "12", "13", "13"]
            ]
            if kamikaze:
                self.seen["kamikaze"] += 1
                scores = [0 if s in kamikaze else 50 for s in range(n)]
                winners = kamikaze
            else:
                low = min(totals)
                lows = [s for s in range(n) if totals[s] == low]
                caller = callers[0] if callers else None
                if caller is None:
                    winners = lows
                elif caller in lows:
                    winners = [caller]
                else:
                    winners = lows
                    scores[caller] = totals[caller] + 5
                for s in winners:
                    scores[s] = 0
        self.rounds.append(
            {
                "round": self.round_no,
                "totals": {str(s): totals[s] for s in range(n)},
                "scores": {str(s): scores[s] for s in range(n)},
            }
        )
        for s in range(n):
            self.totals[s] += scores[s]
            if self.rs == "pablo-50" and self.totals[s] == 50:
                self.totals[s] = 0
                self.seen["reset"] += 1
            if self.rs == "cabo" and self.totals[s] == 100:
                self.totals[s] = 50
                self.seen["reset"] += 1
        self.held = None
        self.held_from = None
        self.power = None
        self.window = None
        if self.game_over():
            return
        self.deal(self.next_start(totals, winners))

    def game_over(self) -> bool:
        t = self.totals
        n = range(self.seats)
        losers: list[int] = []
        winners: list[int]
        if self.rs == "pablo":
            losers = [s for s in n if t[s] >= 100 or (self.options["forty_two"] and t[s] == 42)]
            sixty_nine = [s for s in n if self.options["minus_sixty_nine"] and t[s] == -69]
            if not losers and not sixty_nine:
                return False
            if any(t[s] == 42 for s in losers):
                self.seen["42"] += 1
            if len(losers) == self.seats:
                self.seen["everyone lost"] += 1
            if sixty_nine:
                self.seen["-69"] += 1
                winners = sixty_nine
            else:
                # "the lowest totals among the non-losers": none when everyone lost
                rest = [s for s in n if s not in losers]
                winners = [s for s in rest if t[s] == min(t[r] for r in rest)]
        else:
            limit = {"pablo-50": 50, "tamalou": 99, "cabo": 100}[self.rs]
            if not any(x > limit for x in t):
                return False
            low = min(t)
            winners = [s for s in n if t[s] == low]
        self.finish(winners, losers)
        return True

    def finish(self, winners: list[int], losers: list[int]) -> None:
        self.status = "finished"
        self.phase = "over"
        self.result = {"winners": winners, "losers": losers}
        self.turn = None
        self.stage = None
        for f in self.fields:  # Open: the last round's cards lie face up once the game is over
            for c in f:
                if c is not None:
                    self.show_all(c)

    def next_start(self, totals: list[int], winners: list[int]) -> int:
        if self.rs in ("pablo", "tamalou"):
            return (self.round_start + 1) % self.seats
        if self.rs == "pablo-50":
            low = min(totals)
            tied = [s for s in range(self.seats) if totals[s] == low]
        else:
            tied = winners
        if len(tied) > 1:
            low = min(self.totals[s] for s in tied)
            tied = [s for s in tied if self.totals[s] == low]
        if len(tied) > 1:
            self.seen["start seat drawn"] += 1
        return tied[0] if len(tied) == 1 else self.choice(tied)

    # ------------------------------------------------------------------ what may be done

    def power_of(self, card: int) -> tuple[str, bool] | None:
        return POWERS[self.rs].get(rank(self.code[card]))

    def protected(self, seat: int) -> bool:
        """pablo-50: the caller's cards may not be swapped (nor thrown by others)."""
        return self.rs == "pablo-50" and seat in self.called_by

    def spy_targets(self, actor: int) -> dict[int, list[int]]:
        return {s: self.cards_of(s) for s in range(self.seats) if s != actor and self.cards_of(s)}

    def swap_targets(self, actor: int) -> dict[int, list[int]]:
        if not self.cards_of(actor):
            return {}
        return {s: ps for s, ps in self.spy_targets(actor).items() if not self.protected(s)}

    def power_actions(self, actor: int) -> list[JSON]:
        out: list[JSON] = []
        kind = self.power
        mine = self.cards_of(actor)
        if kind == "peek":
            out += [{"type": "peek", "position": p} for p in mine]
        if kind in ("spy", "spyswap"):
            out += [
                {"type": "spy", "seat": s, "position": p}
                for s, ps in self.spy_targets(actor).items()
                for p in ps
            ]
        if kind in ("swap", "spyswap", "swap-after-spy"):
            out += [
                {"type": "swap", "position": p, "seat": s, "their_position": q}
                for s, qs in self.swap_targets(actor).items()
                for p in mine
                for q in qs
            ]
        if self.power_optional:
            out.append({"type": "skip"})
        return out

    def power_possible(self, actor: int, kind: str) -> bool:
        if kind == "peek":
            return bool(self.cards_of(actor))
        if kind == "spy":
            return bool(self.spy_targets(actor))
        if kind in ("swap", "swap-after-spy"):
            return bool(self.swap_targets(actor))
        return bool(self.spy_targets(actor)) or bool(self.swap_targets(actor))

    def replace_choices(self, seat: int) -> list[list[int]]:
        mine = self.cards_of(seat)
        if self.rs == "tamalou":
            sizes = range(1, 5)
        elif self.rs == "cabo" and self.held_from == "deck":
            sizes = range(1, len(mine) + 1)
        else:
            sizes = range(1, 2)
        return [list(c) for k in sizes for c in combinations(mine, k)]

    def may_call(self, seat: int) -> bool:
        if self.phase != "turn":
            return False
        if self.rs == "cabo":
            return seat == self.turn and self.stage == "draw" and not self.called_by
        if self.window != seat or self.stage != "draw" or seat == self.turn:
            return False
        if self.rs == "pablo":  # several may call; each once
            return seat not in self.called_by
        return not self.called_by

    def throws(self, seat: int) -> list[JSON]:
        if not self.has_throwing() or self.phase != "turn" or not self.pile:
            return []
        if self.rs == "pablo-50" and not self.match_open:
            return []
        out = []
        for s in range(self.seats):
            if s != seat and self.protected(s):
                continue
            for p in self.cards_of(s):
                out.append({"type": "throw", "seat": s, "position": p, "onto": self.serial})
        return out

    def legal(self, seat: int) -> list[JSON]:
        """Every complete action body ``seat`` may send now (throws without ``give_position``)."""
        if self.status != "active":
            return []
        if self.phase == "setup":
            if seat in self.looked:
                return []
            return [{"type": "look", "positions": list(c)} for c in combinations(range(4), 2)]
        out: list[JSON] = []
        if seat == self.turn:
            if self.stage == "draw":
                out.append({"type": "draw", "source": "deck"})
                if self.pile and self.rs != "pablo-50":
                    out.append({"type": "draw", "source": "discard"})
            elif self.stage == "hold":
                if not (self.rs == "cabo" and self.held_from == "discard"):
                    out.append({"type": "discard"})
                out += [{"type": "replace", "positions": ps} for ps in self.replace_choices(seat)]
            elif self.stage == "power":
                out += self.power_actions(seat)
        if self.may_call(seat):
            out.append({"type": "call"})
        out += self.throws(seat)
        return out

    # ------------------------------------------------------------------ commands

    def act(self, seat: int, body: JSON) -> None:
        """``seat`` does ``body``; ``Refused`` (and no change) when the rules forbid it."""
        if self.status != "active":
            raise Refused("game over")
        kind = body["type"]
        if kind == "throw":
            self.check_throw(seat, body)
        else:
            bare = dict(body)
            if kind in ("look", "replace"):  # any order names the same slots
                bare["positions"] = sorted(body["positions"])
                if len(set(body["positions"])) < len(body["positions"]):
                    raise Refused("the same slot twice", 400)
            if bare not in self.legal(seat):
                raise Refused(f"not legal: {body}")
        self.revealed = [set() for _ in range(self.seats)]
        self.revealed_public = set()
        self.timeouts[seat] = 0
        self.absent[seat] = False
        getattr(self, "do_" + kind)(seat, body)
        self.auto()

    def check_throw(self, seat: int, body: JSON) -> None:
        if not self.has_throwing():
            raise Refused("no throwing in this ruleset")
        give = body.get("give_position")
        if give is not None and body["seat"] == seat:
            raise Refused("give_position with one's own card", 400)
        if self.phase != "turn":
            raise Refused("not in play")
        if body["onto"] != self.serial:
            raise Refused("stale onto")
        plain = {k: v for k, v in body.items() if k != "give_position"}
        if plain not in self.throws(seat):
            raise Refused(f"throw not allowed: {body}")
        if give is not None and (give >= len(self.fields[seat]) or self.fields[seat][give] is None):
            raise Refused("give_position: no card there")

    def do_look(self, seat: int, body: JSON) -> None:
        for p in body["positions"]:
            self.see(seat, self.fields[seat][p])
        self.looked.add(seat)
        if len(self.looked) == self.seats:
            self.begin_play()

    def do_draw(self, seat: int, body: JSON) -> None:
        self.window = None
        if body["source"] == "discard":
            self.held = self.pile.pop()
            self.held_from = "discard"
            self.stage = "hold"
            return
        card = self.take_from_draw()
        if card is None:
            self.end_round("exhausted")
            return
        self.held = card
        self.held_from = "deck"
        self.see(seat, card)
        self.stage = "hold"  # with no card left the only choice is to discard it

    def do_discard(self, seat: int, body: JSON) -> None:
        self.discard_held(seat, powers=True)

    def discard_held(self, seat: int, powers: bool) -> None:
        card = self.held
        assert card is not None
        from_deck = self.held_from == "deck"
        self.held = None
        self.put_on_pile(card)
        self.match_open = True
        if (
            self.rs == "pablo-50"
            and self.options["advanced"]
            and not self.cards_of(seat)
            and rank(self.code[card]) == "Q"
        ):
            self.seen["advanced Q"] += 1
            extra = self.take_from_draw()
            if extra is not None:  # Open: seen by them (one draws it), as a wrong throw's
                self.fields[seat].append(extra)
                self.see(seat, extra)
            self.next_turn(seat)
            return
        power = self.power_of(card) if powers and from_deck else None
        if power is not None and not self.power_possible(seat, power[0]):
            self.seen[f"{power[0]} impossible"] += 1
        if power is not None and self.power_possible(seat, power[0]):
            self.seen[f"power {power[0]}"] += 1
            self.power, self.power_optional = power
            self.stage = "power"
            return
        self.next_turn(seat)

    def do_replace(self, seat: int, body: JSON) -> None:
        positions: list[int] = body["positions"]
        card = self.held
        assert card is not None
        self.held = None
        self.see(seat, card)
        mine = self.fields[seat]
        named = [mine[p] for p in positions]
        if len(positions) > 1:
            self.seen["several replaced"] += 1
        if len(positions) > 1 and len({rank(self.code[c]) for c in named}) > 1:  # type: ignore[index]
            self.seen["wrong pair"] += 1
            for c in named:
                self.show_all(c)
            if self.rs == "tamalou":
                mine.append(card)
            else:
                self.put_on_pile(card)
                self.match_open = True
            self.next_turn(seat)
            return
        for p in positions:
            old = mine[p]
            mine[p] = None
            self.put_on_pile(old)  # type: ignore[arg-type]
        mine[positions[0]] = card
        self.match_open = True
        self.next_turn(seat)

    def do_peek(self, seat: int, body: JSON) -> None:
        self.see(seat, self.fields[seat][body["position"]])
        self.next_turn(seat)

    def do_spy(self, seat: int, body: JSON) -> None:
        self.see(seat, self.fields[body["seat"]][body["position"]])
        if self.power == "spyswap" and not self.power_possible(seat, "swap-after-spy"):
            self.seen["spy, no swap left"] += 1
        if self.power == "spyswap" and self.power_possible(seat, "swap-after-spy"):
            self.power = "swap-after-spy"
            return
        self.next_turn(seat)

    def do_swap(self, seat: int, body: JSON) -> None:
        self.seen[f"swap after {self.power}"] += 1
        self.swap(seat, body["position"], body["seat"], body["their_position"])
        self.next_turn(seat)

    def swap(self, seat: int, p: int, other: int, q: int) -> None:
        mine, theirs = self.fields[seat], self.fields[other]
        mine[p], theirs[q] = theirs[q], mine[p]
        if self.rs == "tamalou":
            self.see(seat, mine[p])

    def do_skip(self, seat: int, body: JSON) -> None:
        self.next_turn(seat)

    def do_call(self, seat: int, body: JSON) -> None:
        self.called_by.append(seat)
        self.seen[f"call {len(self.called_by)}"] += 1
        if self.rs == "pablo":
            if self.final is None:
                self.final = seat
            return
        if self.rs == "cabo":
            self.next_turn(seat)

    def do_throw(self, seat: int, body: JSON) -> None:
        target, p = body["seat"], body["position"]
        card = self.fields[target][p]
        assert card is not None
        self.seen[f"throw at {self.stage}"] += 1
        if self.protected(target):
            self.seen["caller throws own"] += 1
        if rank(self.code[card]) == rank(self.code[self.pile[-1]]):
            self.seen["right throw"] += 1
            self.fields[target][p] = None
            self.put_on_pile(card)
            self.match_open = False
            give = body.get("give_position")
            if give is not None and target != seat:
                self.seen["given"] += 1
                self.fields[target][p] = self.fields[seat][give]
                self.fields[seat][give] = None
            if self.rs == "pablo" and any(not self.cards_of(s) for s in range(self.seats)):
                self.end_round("empty")
            return
        self.seen["wrong throw"] += 1
        self.show_all(card)
        penalty = self.take_from_draw()
        if penalty is not None:
            self.fields[seat].append(penalty)
            if self.rs == "pablo-50":
                self.see(seat, penalty)

    # ------------------------------------------------------------------ timeouts

    def actors(self) -> list[int]:
        if self.status != "active":
            return []
        if self.phase == "setup":
            return [s for s in range(self.seats) if s not in self.looked]
        assert self.turn is not None
        return [self.turn]

    def auto_act(self, seat: int) -> None:
        """RULES.md §8: the action taken for ``seat``."""
        if self.phase == "setup":
            self.do_look(seat, {"positions": [0, 1]})
        elif self.stage == "draw":
            self.window = None
            card = self.take_from_draw()
            if card is None:
                self.end_round("exhausted")
                return
            self.held, self.held_from = card, "deck"
            self.see(seat, card)
            self.discard_held(seat, powers=False)
        elif self.stage == "hold":
            self.discard_held(seat, powers=False)
        elif self.stage == "power":
            if not self.power_optional:  # a mandatory swap
                self.seen["auto swap"] += 1
                mine = self.cards_of(seat)
                for k in range(1, self.seats):
                    other = (seat + k) % self.seats
                    theirs = self.swap_targets(seat).get(other)
                    if theirs:
                        self.swap(seat, mine[0], other, theirs[0])
                        break
            self.next_turn(seat)

    def timeout(self) -> None:
        """The deadline passes: every seat the game waits for is acted for."""
        self.revealed = [set() for _ in range(self.seats)]
        self.revealed_public = set()
        for seat in self.actors():
            self.auto_act(seat)
            self.timeouts[seat] += 1
            if not self.absent[seat] and self.timeouts[seat] >= self.max_timeouts:
                self.absent[seat] = True
        if all(self.absent) and self.status == "active":
            self.status = "aborted"
            self.phase = "over"
            self.result = {"winners": [], "losers": []}
            self.turn = None
            self.stage = None
        self.auto()

    def auto(self) -> None:
        """An absent player's turns (and setup looks) are played at once."""
        while self.status == "active":
            waiting = [s for s in self.actors() if self.absent[s]]
            if not waiting:
                return
            self.auto_act(waiting[0])

    # ------------------------------------------------------------------ what a seat sees

    def field_view(
        self, viewer: int | None, strict: bool = False, actor: int | None = None
    ) -> JSON:
        """The fields as ``viewer`` sees them; ``strict`` (memory ``strict``): only what
        the command just done showed them, in the answer to it (viewer == ``actor``)."""
        seen = self.public if viewer is None else self.known[viewer]
        if strict and self.status != "finished":  # a non-player too
            seen = seen & (self.revealed[viewer] if viewer == actor is not None else set())
        return {
            str(s): [None if c is None else (self.code[c] if c in seen else "?") for c in f]
            for s, f in enumerate(self.fields)
        }

    def held_view(self, viewer: int | None) -> str | None:
        if self.held is None:
            return None
        if self.held_from == "discard" or viewer == self.turn:
            return self.code[self.held]
        return None

    def public_view(self) -> JSON:
        over = self.status != "active"
        return {
            "round": self.round_no,
            "phase": self.phase,
            "turn": None if over else self.turn,
            "stage": None if over else self.stage,
            "discard": {
                "top": self.code[self.pile[-1]] if self.pile else None,
                "count": len(self.pile),
                "serial": self.serial,
            },
            "deck": len(self.draw),
            "called_by": list(self.called_by),
            "rounds": self.rounds,
            "result": self.result,
            "scores": list(self.totals),
        }
