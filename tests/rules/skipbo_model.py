"""A second, independent Skip-Bo: the rules as written, nothing of ``games/rules``.

This model is written from the rules text (docs/skipbo.md's rule summary and its
decisions) and not from ``games/rules/skipbo.py``; ``test_skipbo_model.py`` plays
random games through the real engine and compares the two after every step. It
aims to be obviously right rather than fast: plain lists, one method per rule.

Conventions of its own: a stock is a list whose *first* element is the top, the
draw pile too (top first); hands keep the order cards were drawn in; discard and
building piles grow at the end. A card is its index in the dealt deck (two equal
codes are two cards), so the reshuffle function sees the same cards as the engine.

The rules it follows:

- deal: each seat's stock in turn (the first card dealt is the top), then the draw
  pile, top first; hands start empty;
- a turn begins by filling the hand up to five; whenever the hand is empty after a
  play it is filled with five more; a card is drawn from the draw pile, and when
  that is used up the completed stack is shuffled into a new one;
- a building pile starts with a 1 or an SB and takes the next number (an SB for
  any); the twelfth card completes it and it moves to the completed stack;
- plays come from the stock top, the top of one's own discard piles, or the hand;
  a stock play that empties the stock wins at once;
- a turn ends by putting a hand card on one of one's four discard piles; with an
  empty hand the player may stop without one ("end" with no card); with an empty
  hand and nothing to play the turn ends by itself (also right at its start);
- stalemate: when nobody can move, or when as many turns in a row as there are
  seats pass without a card moving, the game ends; the players with the fewest
  stock cards win;
- a timeout puts the first hand card on the first empty discard pile (else pile
  0), or just ends the turn with an empty hand; ``max_timeouts`` in a row mark the
  player absent, whose turns are then played at once that way; when every player
  is absent the game is aborted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

JSON = dict[str, Any]
HAND = 5
PILES = 4
FULL = 12


class Refused(Exception):
    pass


class SkipboModel:
    def __init__(
        self,
        deck: Sequence[str],
        seats: int,
        stock_size: int,
        start_seat: int,
        shuffle: Callable[[list[int]], list[int]],
        max_timeouts: int,
    ) -> None:
        self.code = list(deck)
        self.seats = seats
        self.shuffle = shuffle
        self.max_timeouts = max_timeouts
        ids = list(range(len(deck)))
        self.stocks = [ids[s * stock_size : (s + 1) * stock_size] for s in range(seats)]
        self.draw = ids[seats * stock_size :]
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.discards: list[list[list[int]]] = [[[] for _ in range(PILES)] for _ in range(seats)]
        self.building: list[list[int]] = [[] for _ in range(PILES)]
        self.completed: list[int] = []
        self.status = "active"
        self.result: JSON | None = None
        self.turn: int | None = None
        self.moved = False
        self.quiet_turns = 0
        self.timeouts = [0] * seats
        self.absent = [False] * seats
        self.begin(start_seat)
        self.auto_turns()

    # ------------------------------------------------------------------ rules

    def fits(self, card: int, pile: int) -> bool:
        code = self.code[card]
        return code == "SB" or int(code) == len(self.building[pile]) + 1

    def plays(self, seat: int) -> list[JSON]:
        out: list[JSON] = []
        if self.stocks[seat]:
            top = self.stocks[seat][0]
            out += [
                {"type": "play", "from": "stock", "pile": b}
                for b in range(PILES)
                if self.fits(top, b)
            ]
        for d, pile in enumerate(self.discards[seat]):
            if pile:
                out += [
                    {"type": "play", "from": "discard", "discard_pile": d, "pile": b}
                    for b in range(PILES)
                    if self.fits(pile[-1], b)
                ]
        seen: set[str] = set()
        for card in self.hands[seat]:
            code = self.code[card]
            if code in seen:
                continue
            seen.add(code)
            out += [
                {"type": "play", "from": "hand", "card": code, "pile": b}
                for b in range(PILES)
                if self.fits(card, b)
            ]
        return out

    def legal(self, seat: int) -> list[JSON]:
        if self.status != "active" or seat != self.turn:
            return []
        out = self.plays(seat)
        codes = sorted({self.code[c] for c in self.hands[seat]})
        if not codes:
            return [*out, {"type": "end"}]
        return out + [
            {"type": "end", "card": code, "discard_pile": d} for code in codes for d in range(PILES)
        ]

    def draw_cards(self, seat: int, wanted: int) -> None:
        for _ in range(wanted):
            if not self.draw:
                if not self.completed:
                    return
                self.draw = self.shuffle(self.completed)
                self.completed = []
            self.hands[seat].append(self.draw.pop(0))
            self.moved = True

    def can_move(self, seat: int) -> bool:
        return bool(self.hands[seat]) or bool(self.plays(seat))

    def begin(self, seat: int) -> None:
        self.turn = seat
        self.moved = False
        self.draw_cards(seat, HAND - len(self.hands[seat]))
        if self.can_move(seat):
            return
        if not any(self.can_move(s) for s in range(self.seats)):
            self.stalemate()
            return
        self.end_turn()

    def end_turn(self) -> None:
        assert self.turn is not None
        seat = self.turn
        self.quiet_turns = 0 if self.moved else self.quiet_turns + 1
        if self.quiet_turns >= self.seats:
            self.stalemate()
            return
        self.begin((seat + 1) % self.seats)

    def stalemate(self) -> None:
        fewest = min(len(s) for s in self.stocks)
        self.finish([s for s in range(self.seats) if len(self.stocks[s]) == fewest])

    def finish(self, winners: list[int]) -> None:
        self.status = "finished"
        self.result = {"winners": winners, "losers": []}
        self.turn = None

    def take_from_hand(self, seat: int, code: str) -> int:
        for card in self.hands[seat]:
            if self.code[card] == code:
                self.hands[seat].remove(card)
                return card
        raise Refused(f"no {code} in hand")

    def play(self, seat: int, body: JSON) -> None:
        source, pile = body["from"], body["pile"]
        if source == "stock":
            card = self.stocks[seat].pop(0)
        elif source == "discard":
            card = self.discards[seat][body["discard_pile"]].pop()
        else:
            card = self.take_from_hand(seat, body["card"])
        self.moved = True
        self.building[pile].append(card)
        if len(self.building[pile]) == FULL:
            self.completed += self.building[pile]
            self.building[pile] = []
        if not self.stocks[seat]:
            self.finish([seat])
            return
        if not self.hands[seat]:
            self.draw_cards(seat, HAND)
        if not self.can_move(seat):
            self.end_turn()

    def discard(self, seat: int, code: str, pile: int) -> None:
        card = self.take_from_hand(seat, code)
        self.discards[seat][pile].append(card)
        self.moved = True
        self.end_turn()

    # ------------------------------------------------------------------ commands

    def act(self, seat: int, body: JSON) -> None:
        """``seat`` does ``body``; ``Refused`` (and no change) when the rules forbid it."""
        if self.status != "active" or seat != self.turn:
            raise Refused("not your turn")
        if body not in self.legal(seat):
            raise Refused(str(body))
        self.timeouts[seat] = 0
        self.absent[seat] = False
        if body["type"] == "play":
            self.play(seat, body)
        elif "card" in body:
            self.discard(seat, body["card"], body["discard_pile"])
        else:
            self.end_turn()
        self.auto_turns()

    def timed_out(self, seat: int) -> None:
        self.timeouts[seat] += 1
        hand = self.hands[seat]
        if hand:
            piles = self.discards[seat]
            target = next((d for d in range(PILES) if not piles[d]), 0)
            self.discard(seat, self.code[hand[0]], target)
        else:
            self.end_turn()

    def timeout(self) -> None:
        """The deadline of the turn passes."""
        assert self.turn is not None
        seat = self.turn
        self.timed_out(seat)
        if not self.absent[seat] and self.timeouts[seat] >= self.max_timeouts:
            self.absent[seat] = True
            if all(self.absent):
                self.status = "aborted"
                self.result = {"winners": [], "losers": []}
                self.turn = None
        self.auto_turns()

    def auto_turns(self) -> None:
        """An absent player's turns are played at once."""
        while self.status == "active" and self.turn is not None and self.absent[self.turn]:
            self.timed_out(self.turn)

    # ------------------------------------------------------------------ what anyone sees

    def public(self) -> JSON:
        over = self.status != "active"
        codes = self.code
        return {
            "turn": None if over else self.turn,
            "phase": "over" if over else "turn",
            "result": self.result,
            "hand_counts": {str(s): len(self.hands[s]) for s in range(self.seats)},
            "stock": {
                str(s): {
                    "top": codes[self.stocks[s][0]] if self.stocks[s] else None,
                    "count": len(self.stocks[s]),
                }
                for s in range(self.seats)
            },
            "discards": {
                str(s): [[codes[c] for c in pile] for pile in self.discards[s]]
                for s in range(self.seats)
            },
            "building": [
                {"next": len(p) + 1, "count": len(p), "top": codes[p[-1]]} if p else None
                for p in self.building
            ],
            "deck": len(self.draw),
            "completed": len(self.completed),
        }

    def hand(self, seat: int) -> list[str]:
        return [self.code[c] for c in self.hands[seat]]
