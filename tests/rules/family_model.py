"""A second, independent Pablo family: the rules as RULES.md writes them, nothing of
``games/rules``.

Written from the rules text alone (not from ``games/rules/family/``);
``test_family_model.py`` plays random games through the real engine and compares
the two after every step. It aims to be obviously right rather than fast.

Conventions: a card is its index in the round's dealt deck (two equal codes are
two cards), as the engine names them, so both sides hand the same cards to the
shared reshuffle function. The draw pile is a list, top first; the discard pile
grows at the end. Knowledge: ``known[seat]`` is the set of card ids the seat has
seen this round (face-up cards are added to every seat's set), the ``assisted``
memory view.

Rulesets covered: ``cabo`` (and ``tamalou``, see ``RULESETS``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

JSON = dict[str, Any]


class Refused(Exception):
    pass


class Seen(set[int]):
    """What a seat knows; ``log`` records every card shown to it since it was cleared."""

    def __init__(self) -> None:
        super().__init__()
        self.log: set[int] = set()

    def add(self, card: int) -> None:
        super().add(card)
        self.log.add(card)

    def update(self, *cards: Any) -> None:
        for group in cards:
            for card in group:
                self.add(card)


def cabo_value(code: str) -> int:
    return int(code)


def french_rank(code: str) -> str:
    return code if code == "JK" else code[:-1]


def pablo_value(code: str) -> int:
    if code == "JK":
        return -1
    if code == "KH":
        return 0
    rank = french_rank(code)
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank) or int(rank)


def pablo50_value(code: str) -> int:
    if code in ("KH", "KD"):
        return 0
    rank = french_rank(code)
    if rank == "A":
        return -1
    if rank in ("J", "Q", "K"):
        return 10
    return int(rank)


VALUES = {"cabo": cabo_value}


def tamalou_value(code: str) -> int:
    if code == "KD":
        return 0
    rank = french_rank(code)
    if rank == "A":
        return 1
    if rank in ("J", "Q", "K"):
        return 10
    return int(rank)


class FamilyModel:
    """One game of ``cabo`` or ``tamalou``.

    ``decks(round_no)`` gives each round's dealt deck (codes, deal order);
    ``shuffle(ids)`` a reshuffle's new draw pile; ``choose(seats)`` a random pick.
    """

    def __init__(
        self,
        ruleset: str,
        seats: int,
        decks: Callable[[int], list[str]],
        shuffle: Callable[[list[int]], list[int]],
        choose: Callable[[list[int]], int],
        start_seat: int | None,
        max_timeouts: int = 3,
        options: JSON | None = None,
    ) -> None:
        self.options = options or {}
        self.revealed: tuple[int | None, set[int]] = (None, set())
        assert ruleset in ("cabo", "tamalou", "pablo", "pablo-50")
        self.ruleset = ruleset
        self.seats = seats
        self.decks = decks
        self.shuffle = shuffle
        self.choose = choose
        self.max_timeouts = max_timeouts
        self.totals = [0] * seats
        self.rounds: list[JSON] = []
        self.result: JSON | None = None
        self.status = "active"
        self.timeouts = [0] * seats
        self.absent = [False] * seats
        self.round_no = 0
        first = self.choose(list(range(seats))) if start_seat is None else start_seat
        self.deal(first)
        self.auto_turns()

    # ------------------------------------------------------------------ helpers

    def value(self, card: int) -> int:
        code = self.code[card]
        return {
            "cabo": cabo_value,
            "tamalou": tamalou_value,
            "pablo": pablo_value,
            "pablo-50": pablo50_value,
        }[self.ruleset](code)

    def rank(self, card: int) -> str:
        code = self.code[card]
        return code if self.ruleset == "cabo" else french_rank(code)

    def see_all(self, card: int) -> None:
        for k in self.known:
            k.add(card)
        self.public.add(card)

    def filled(self, seat: int) -> list[int]:
        return [p for p, c in enumerate(self.fields[seat]) if c is not None]

    def field_total(self, seat: int) -> int:
        return sum(self.value(c) for c in self.fields[seat] if c is not None)

    # ------------------------------------------------------------------ a round

    def deal(self, first: int) -> None:
        self.round_no += 1
        self.code = list(self.decks(self.round_no))
        ids = list(range(len(self.code)))
        self.fields: list[list[int | None]] = [
            list(ids[4 * s : 4 * s + 4]) for s in range(self.seats)
        ]
        up = ids[4 * self.seats]
        self.discard: list[int] = [up]
        self.serial = 1
        self.draw: list[int] = ids[4 * self.seats + 1 :]
        self.known: list[Seen] = [Seen() for _ in range(self.seats)]
        self.public: set[int] = set()
        self.see_all(up)
        self.start = first
        self.called_by: list[int] = []
        self.held: int | None = None
        self.held_from: str | None = None
        self.power: str | None = None
        self.stage = "draw"
        self.just_done: int | None = None
        self.match_open = True  # pablo-50: the dealt card opens a match
        self.last_lap = False  # pablo: the first caller's one more turn has begun
        if self.ruleset == "tamalou":
            for s in range(self.seats):
                self.known[s].update(c for c in self.fields[s][:2] if c is not None)
            self.phase = "turn"
            self.turn: int | None = first
            self.looked: set[int] = set(range(self.seats))
        else:
            self.phase = "setup"
            self.turn = None
            self.looked = set()

    def take_from_draw(self) -> int | None:
        """The top of the draw pile, reshuffling first if it is empty; None: no card."""
        if not self.draw:
            rest = self.discard[:-1]
            if not rest:
                return None
            self.discard = self.discard[-1:]
            for k in [*self.known, self.public]:
                k.difference_update(rest)
            self.draw = self.shuffle(sorted(rest))
        return self.draw.pop(0)

    def put_on_discard(self, card: int, by_turn: bool = True) -> None:
        """``card`` goes face up onto the pile; one a turn puts there opens a match."""
        self.discard.append(card)
        self.serial += 1
        self.see_all(card)
        self.match_open = by_turn

    def end_turn(self) -> None:
        assert self.turn is not None
        self.held = None
        self.held_from = None
        self.power = None
        self.just_done = self.turn
        if self.ruleset == "pablo" and self.last_lap and self.turn == self.called_by[0]:
            self.end_round(self.called_by)
            return
        nxt = (self.turn + 1) % self.seats
        if self.ruleset == "pablo":
            if self.called_by and nxt == self.called_by[0]:
                self.last_lap = True
        elif self.called_by and nxt == self.called_by[0]:
            self.end_round(self.called_by)
            return
        self.turn = nxt
        self.stage = "draw"

    def end_round(self, callers: list[int], emptied: bool = False) -> None:
        totals = [self.field_total(s) for s in range(self.seats)]
        scores = self.score(totals, list(callers), emptied)
        for s in range(self.seats):
            self.totals[s] += scores[s]
            if self.ruleset == "cabo" and self.totals[s] == 100:
                self.totals[s] = 50
            if self.ruleset == "pablo-50" and self.totals[s] == 50:
                self.totals[s] = 0
        self.rounds.append(
            {
                "round": self.round_no,
                "totals": {str(s): totals[s] for s in range(self.seats)},
                "scores": {str(s): scores[s] for s in range(self.seats)},
            }
        )
        if self.game_over():
            losers: list[int] = []
            if self.ruleset == "pablo":
                losers = self.pablo_losers()
            rest = [s for s in range(self.seats) if s not in losers]
            low = min((self.totals[s] for s in rest), default=0)
            winners = [s for s in rest if self.totals[s] == low]
            if self.ruleset == "pablo" and self.pablo_m69():
                winners = self.pablo_m69()
            self.result = {"winners": winners, "losers": losers}
            self.status = "finished"
            self.phase = "over"
            self.turn = None
            return
        self.deal(self.next_start(scores, totals))

    def game_over(self) -> bool:
        if self.ruleset == "cabo":
            return any(t > 100 for t in self.totals)
        if self.ruleset == "pablo-50":
            return any(t > 50 for t in self.totals)
        if self.ruleset == "pablo":
            return bool(self.pablo_losers() or self.pablo_m69())
        return any(t >= 100 for t in self.totals)

    def pablo_losers(self) -> list[int]:
        ft = self.options.get("forty_two")
        return [s for s, t in enumerate(self.totals) if t >= 100 or (ft and t == 42)]

    def pablo_m69(self) -> list[int]:
        if not self.options.get("minus_sixty_nine"):
            return []
        return [s for s, t in enumerate(self.totals) if t == -69]

    def kamikaze(self, seat: int) -> bool:
        vals = sorted(self.value(c) for c in self.fields[seat] if c is not None)
        return vals == [12, 12, 13, 13]

    def score(self, totals: list[int], callers: list[int], emptied: bool) -> list[int]:
        n = self.seats
        caller = callers[0] if callers else None
        self.winners_0: list[int] = []
        if self.ruleset == "pablo":
            out = list(totals)
            for c in callers:
                alone = all(totals[c] < totals[s] for s in range(n) if s != c)
                out[c] = -20 if alone and not emptied else 25
            return out
        if self.ruleset == "pablo-50":
            out = list(totals)
            if caller is not None:
                low = min(totals)
                if totals[caller] > low:
                    out[caller] += 10
                elif any(totals[s] == low for s in range(n) if s != caller):
                    out[caller] += 5
            return out
        if self.ruleset == "tamalou":
            out = list(totals)
            if caller is not None:
                others = [totals[s] for s in range(n) if s != caller]
                if all(totals[caller] < t for t in others):
                    out[caller] = -5
                else:
                    out[caller] = totals[caller] + 10
            self.winners_0 = []
            return out
        for s in range(n):
            if self.kamikaze(s):
                self.winners_0 = [s]
                return [0 if o == s else 50 for o in range(n)]
        low = min(totals)
        lowest = [s for s in range(n) if totals[s] == low]
        out = list(totals)
        if caller is None:
            for s in lowest:
                out[s] = 0
            self.winners_0 = lowest
        elif totals[caller] == low:
            out[caller] = 0
            self.winners_0 = [caller]
        else:
            out[caller] = totals[caller] + 5
            for s in lowest:
                out[s] = 0
            self.winners_0 = lowest
        return out

    def next_start(self, scores: list[int], totals: list[int]) -> int:
        if self.ruleset in ("tamalou", "pablo"):
            return (self.start + 1) % self.seats
        if self.ruleset == "pablo-50":
            low = min(totals)
            cands = [s for s in range(self.seats) if totals[s] == low]
        else:
            cands = self.winners_0
        best = min(self.totals[s] for s in cands)
        cands = [s for s in cands if self.totals[s] == best]
        if len(cands) == 1:
            return cands[0]
        return self.choose(sorted(cands))

    # ------------------------------------------------------------------ what a seat may do

    def legal(self, seat: int) -> list[JSON]:
        """Complete action bodies ``seat`` may send now (sorted positions only)."""
        if self.status != "active":
            return []
        if self.phase == "setup":
            if seat in self.looked:
                return []
            return [{"type": "look", "positions": [a, b]} for a, b in combinations(range(4), 2)]
        out: list[JSON] = []
        if self.ruleset != "cabo" and self.may_call_after(seat):
            out.append({"type": "call"})
        out += self.throws(seat)
        if seat != self.turn:
            return out
        mine = self.filled(seat)
        if self.stage == "draw":
            out.append({"type": "draw", "source": "deck"})
            if self.discard and self.ruleset != "pablo-50":
                out.append({"type": "draw", "source": "discard"})
            if self.ruleset == "cabo" and not self.called_by:
                out.append({"type": "call"})
        elif self.stage == "hold":
            if self.ruleset == "cabo" and self.held_from == "discard":
                out += [{"type": "replace", "positions": [p]} for p in mine]
            else:
                out.append({"type": "discard"})
                if self.ruleset == "cabo":
                    sizes = range(1, len(mine) + 1)
                elif self.ruleset in ("pablo", "pablo-50"):
                    sizes = range(1, min(1, len(mine)) + 1)
                else:
                    sizes = range(1, min(4, len(mine)) + 1)
                for k in sizes:
                    out += [
                        {"type": "replace", "positions": list(ps)} for ps in combinations(mine, k)
                    ]
        elif self.stage == "power":
            out += self.power_actions(seat)
        return out

    def throws(self, seat: int) -> list[JSON]:
        """pablo, pablo-50: throws onto the discard top, any seat, any moment of play."""
        if self.ruleset not in ("pablo", "pablo-50") or self.phase != "turn" or not self.discard:
            return []
        if self.ruleset == "pablo-50" and not self.match_open:
            return []
        out: list[JSON] = []
        for s in range(self.seats):
            if self.protected(s) and s != seat:
                continue
            out += [
                {"type": "throw", "seat": s, "position": q, "onto": self.serial}
                for q in self.filled(s)
            ]
        return out

    def protected(self, seat: int) -> bool:
        """pablo-50: the caller's cards, from swaps and others' throws."""
        return self.ruleset == "pablo-50" and seat in self.called_by

    def may_call_after(self, seat: int) -> bool:
        """Right after one's own turn, before the next player draws (pablo: while a
        call stands, others may call too, once each)."""
        if self.ruleset == "pablo":
            if seat in self.called_by:
                return False
        elif self.called_by:
            return False
        return self.phase == "turn" and self.stage == "draw" and self.just_done == seat

    def targets(self, seat: int, swap: bool = False) -> list[int]:
        return [
            s
            for s in range(self.seats)
            if s != seat and self.filled(s) and not (swap and self.protected(s))
        ]

    def power_actions(self, seat: int) -> list[JSON]:
        mine = self.filled(seat)
        out: list[JSON] = []
        if self.power == "peek":
            out += [{"type": "peek", "position": p} for p in mine]
        elif self.power == "spy":
            out += [
                {"type": "spy", "seat": s, "position": q}
                for s in self.targets(seat)
                for q in self.filled(s)
            ]
        if self.power in ("swap", "swap!", "spyswap"):
            out += [
                {"type": "swap", "position": p, "seat": s, "their_position": q}
                for p in mine
                for s in self.targets(seat, swap=True)
                for q in self.filled(s)
            ]
        if self.power == "spyswap":
            out += [
                {"type": "spy", "seat": s, "position": q}
                for s in self.targets(seat)
                for q in self.filled(s)
            ]
        if self.power != "swap!" or not self.can_swap(seat):
            # Open: a mandatory swap that throws made impossible may be skipped (engine)
            out.append({"type": "skip"})
        return out

    def possible(self, seat: int, power: str) -> bool:
        if power == "peek":
            return bool(self.filled(seat))
        if power in ("spy", "spyswap"):
            return bool(self.targets(seat))
        return self.can_swap(seat)

    def can_swap(self, seat: int) -> bool:
        return bool(self.filled(seat)) and bool(self.targets(seat, swap=True))

    def power_of(self, card: int) -> str | None:
        v = self.code[card]
        if self.ruleset == "cabo":
            return {
                "7": "peek",
                "8": "peek",
                "9": "spy",
                "10": "spy",
                "11": "swap",
                "12": "swap",
            }.get(v)
        if self.ruleset == "pablo":
            return {"7": "peek", "8": "spy", "9": "swap!"}.get(french_rank(v))
        if self.ruleset == "pablo-50":
            return {"10": "peek", "J": "spy", "Q": "swap!", "K": "spyswap"}.get(french_rank(v))
        return {"7": "peek", "8": "swap"}.get(french_rank(v))

    # ------------------------------------------------------------------ commands

    def act(self, seat: int, body: JSON) -> None:
        """``seat`` does ``body``; ``Refused`` (and no change) when the rules forbid it."""
        if not self.allowed(seat, body):
            raise Refused(str(body))
        self.timeouts[seat] = 0
        self.absent[seat] = False
        round_no = self.round_no
        self.known[seat].log = set()
        placed = self.held if body["type"] == "replace" else None
        self.do(seat, body)
        # memory "strict": the answer to this action shows the field cards it showed;
        # Open: a replace's answer shows the card it put in the field too (engine)
        shown = self.known[seat].log | ({placed} if placed is not None else set())
        self.auto_turns()  # (absent players' turns: the same answer)
        if self.round_no != round_no:  # a new deal (tamalou: slots 0 and 1 are seen)
            shown = set(self.known[seat].log)
        self.revealed = (seat, shown)

    def allowed(self, seat: int, body: JSON) -> bool:
        legal = self.legal(seat)
        if body in legal:
            return True
        # replace naming the same slots in another order: the held card goes into the first
        if body.get("type") == "look" and isinstance(body.get("positions"), list):
            # two different slots, in any order
            return {"type": "look", "positions": sorted(body["positions"])} in legal
        if body.get("type") == "throw" and "give_position" in body:
            plain = {k: v for k, v in body.items() if k != "give_position"}
            give = body["give_position"]
            return (
                plain in legal
                and body["seat"] != seat
                and isinstance(give, int)
                and 0 <= give < len(self.fields[seat])
                and self.fields[seat][give] is not None
            )
        if body.get("type") == "replace" and isinstance(body.get("positions"), list):
            ps = body["positions"]
            return len(set(ps)) == len(ps) and {"type": "replace", "positions": sorted(ps)} in legal
        return False

    def do(self, seat: int, body: JSON) -> None:
        kind = body["type"]
        if kind == "look":
            self.known[seat].update(self.fields[seat][p] for p in body["positions"])
            self.looked.add(seat)
            if len(self.looked) == self.seats:
                self.phase = "turn"
                self.turn = self.start
                self.stage = "draw"
        elif kind == "call":
            self.called_by.append(seat)
            self.just_done = None
            if self.ruleset == "cabo":
                self.end_turn()
        elif kind == "draw":
            self.just_done = None
            if body["source"] == "discard":
                card = self.discard.pop()
            else:
                got = self.take_from_draw()
                if got is None:
                    self.end_round([])
                    return
                card = got
            self.held = card
            self.held_from = body["source"]
            self.known[seat].add(card)
            self.stage = "hold"
        elif kind == "discard":
            held = self.held
            assert held is not None
            card = held
            from_deck = self.held_from == "deck"
            self.put_on_discard(card)
            self.held = None
            power = self.power_of(card) if from_deck else None
            if self.advanced_q(seat, card):
                power = None
            if power is not None and not self.possible(seat, power):
                # "A mandatory power that cannot be carried out ... is skipped"; Open: the
                # engine skips an optional one that cannot be carried out too
                power = None
            if power is not None:
                self.power = power
                self.stage = "power"
            else:
                self.end_turn()
        elif kind == "replace":
            self.replace(seat, body["positions"])
        elif kind == "peek":
            self.known[seat].add(self.fields[seat][body["position"]])  # type: ignore[arg-type]
            self.end_turn()
        elif kind == "spy":
            self.known[seat].add(self.fields[body["seat"]][body["position"]])  # type: ignore[arg-type]
            if self.power == "spyswap" and self.can_swap(seat):
                self.power = "swap"
            else:  # Open: a swap nobody can take after the K's spy ends the turn (engine)
                self.end_turn()
        elif kind == "swap":
            p, s, q = body["position"], body["seat"], body["their_position"]
            mine, theirs = self.fields[seat][p], self.fields[s][q]
            self.fields[seat][p], self.fields[s][q] = theirs, mine
            if self.ruleset == "tamalou":
                assert theirs is not None
                self.known[seat].add(theirs)
            self.end_turn()
        elif kind == "skip":
            self.end_turn()
        elif kind == "throw":
            self.throw(seat, body)
        else:
            raise AssertionError(kind)

    def throw(self, seat: int, body: JSON) -> None:
        s, q = body["seat"], body["position"]
        card = self.fields[s][q]
        assert card is not None
        top = self.discard[-1]
        if self.rank(card) == self.rank(top):
            self.fields[s][q] = None
            self.put_on_discard(card, by_turn=False)
            give = body.get("give_position")
            if give is not None:
                self.fields[s][q] = self.fields[seat][give]
                self.fields[seat][give] = None
            if self.ruleset == "pablo" and any(not self.filled(o) for o in range(self.seats)):
                self.end_round(self.called_by, emptied=True)
        else:
            self.see_all(card)
            penalty = self.take_from_draw()
            if penalty is not None:
                self.fields[seat].append(penalty)
                if self.ruleset == "pablo-50":
                    self.known[seat].add(penalty)

    def replace(self, seat: int, positions: list[int]) -> None:
        held = self.held
        assert held is not None
        field = self.fields[seat]
        named = [field[p] for p in positions]
        assert all(c is not None for c in named)
        if len(positions) == 1 or len({self.rank(c) for c in named}) == 1:  # type: ignore[arg-type]
            for c in named:
                assert c is not None
                self.put_on_discard(c)
            for p in positions:
                field[p] = None
            field[positions[0]] = held
        else:
            for c in named:
                assert c is not None
                self.see_all(c)
            if self.ruleset == "cabo":
                self.put_on_discard(held)
            else:
                field.append(held)
        self.held = None
        self.end_turn()

    # ------------------------------------------------------------------ timeouts

    def actors(self) -> list[int]:
        if self.status != "active":
            return []
        if self.phase == "setup":
            return [s for s in range(self.seats) if s not in self.looked]
        return [] if self.turn is None else [self.turn]

    def auto(self, seat: int) -> None:
        """RULES.md §8: what the server does for ``seat``."""
        if self.phase == "setup":
            self.do(seat, {"type": "look", "positions": [0, 1]})
        elif self.stage == "draw":
            self.do(seat, {"type": "draw", "source": "deck"})
            if self.status == "active" and self.stage == "hold" and self.turn == seat:
                self.no_power_discard()
        elif self.stage == "hold":
            self.no_power_discard()
        elif self.stage == "power":
            if self.power == "swap!":
                self.auto_swap(seat)
            else:
                self.end_turn()

    def auto_swap(self, seat: int) -> None:
        """The actor's lowest-numbered card with the lowest-numbered card of the first
        seat after the actor that may be targeted."""
        mine = self.filled(seat)
        for k in range(1, self.seats if mine else 1):
            other = (seat + k) % self.seats
            if other in self.targets(seat, swap=True):
                p, q = mine[0], self.filled(other)[0]
                f, g = self.fields[seat], self.fields[other]
                f[p], g[q] = g[q], f[p]
                break
        self.end_turn()

    def advanced_q(self, seat: int, card: int) -> bool:
        """pablo-50 ``advanced``: a Q discarded by a player with no card brings one more
        card from the draw pile into a new slot (instead of its swap). Open: the engine
        shows that card to its owner (docs/rules.md), also on a timed-out discard."""
        if not (
            self.ruleset == "pablo-50"
            and self.options.get("advanced")
            and not self.filled(seat)
            and french_rank(self.code[card]) == "Q"
        ):
            return False
        extra = self.take_from_draw()
        if extra is not None:
            self.fields[seat].append(extra)
            self.known[seat].add(extra)
        return True

    def no_power_discard(self) -> None:
        card = self.held
        assert card is not None
        assert self.turn is not None
        self.put_on_discard(card)
        self.advanced_q(self.turn, card)
        self.held = None
        self.end_turn()

    def timeout(self) -> None:
        """The deadline passes: every seat still to act is acted for."""
        for seat in self.actors():
            if self.status != "active":
                break
            self.timeouts[seat] += 1
            round_no = self.round_no
            self.auto(seat)
            if not self.absent[seat] and self.timeouts[seat] >= self.max_timeouts:
                self.absent[seat] = True
            if self.round_no != round_no:
                break
        if self.status == "active" and all(self.absent):
            self.status = "aborted"
            self.phase = "over"
            self.result = {"winners": [], "losers": []}
            self.turn = None
        self.auto_turns()

    def auto_turns(self) -> None:
        """An absent player's turns are played at once."""
        guard = 0
        while self.status == "active" and guard < 10_000:
            guard += 1
            due = [s for s in self.actors() if self.absent[s]]
            if not due:
                return
            self.auto(due[0])

    # ------------------------------------------------------------------ what a seat sees

    def field_view(self, viewer: int | None, seat: int, answer: bool = False) -> list[str | None]:
        known = self.public if viewer is None else self.known[viewer]
        if self.options.get("memory") == "strict":
            actor, cards = self.revealed
            known = cards if answer and viewer is not None and viewer == actor else set()
        return [
            None if c is None else (self.code[c] if c in known else "?") for c in self.fields[seat]
        ]

    def view(self, viewer: int | None, answer: bool = False) -> JSON:
        """What ``viewer`` sees; ``answer``: in the answer to their own last action."""
        over = self.status != "active"
        held = None
        if self.held is not None and (self.held_from == "discard" or viewer == self.turn):
            held = self.code[self.held]
        out: JSON = {
            "round": self.round_no,
            "phase": self.phase,
            "turn": None if over or self.phase == "setup" else self.turn,
            "stage": None if over else ("look" if self.phase == "setup" else self.stage),
            "held": None if over else held,
            "discard": {
                "top": self.code[self.discard[-1]] if self.discard else None,
                "count": len(self.discard),
                "serial": self.serial,
            },
            "deck": len(self.draw),
            "called_by": list(self.called_by),
            "rounds": self.rounds,
            "result": self.result,
        }
        if not over:
            out["fields"] = {str(s): self.field_view(viewer, s, answer) for s in range(self.seats)}
        return out


def key(body: JSON) -> tuple[Any, ...]:
    """A hashable, order-free form of one action body."""
    if body.get("type") == "replace" and len(body) == 2:
        return ("replace", tuple(body["positions"]))
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in body.items()))


def expand(entries: Sequence[JSON]) -> set[tuple[Any, ...]]:
    """Normalised set of complete bodies from ``legal_actions`` templates (``choices``:
    the cartesian product of each key's values)."""
    from itertools import product

    out: set[tuple[Any, ...]] = set()
    for entry in entries:
        choices = entry.get("choices") or {}
        if entry.get("type") == "replace" and list(choices) == ["positions"] and len(entry) == 2:
            out.update(("replace", tuple(ps)) for ps in choices["positions"])
            continue
        base = [(k, v) for k, v in entry.items() if k != "choices"]
        keys = sorted(choices)
        for values in product(*(choices[k] for k in keys)):
            out.add(key(dict(base + list(zip(keys, values, strict=True)))))
    return out
