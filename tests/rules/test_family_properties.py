"""Property tests of the Pablo-family engine: random legal games, checked after every event.

Per ruleset, hypothesis draws 250 games (seat count, options, a seed for the
players' choices and the shuffles; ``PABLO_TEST_DEPTH`` scales the count:
tests/depth.py). Each game is played through ``rules.act``
and ``rules.timeout`` only, choosing among the views' ``legal_actions`` (plus
random throws, some of them stale or wrong, and calls). After EVERY event:

* every card id of the round is in exactly one place (fields, discard pile,
  draw pile, held card);
* no view -- for each seat and for a non-player -- shows a card code its viewer
  has not seen in the (redacted) event feed of this round, and every redacted
  event shows a card only to the viewers RULES.md lets see it (written here
  per event type, independently of the engine);
* the live state equals a second state folded incrementally from JSON
  round-tripped copies of the stored events.

And each finished round's totals and scores equal the ruleset's formula,
recomputed below from the final fields and the calls (not imported from the
engine); game totals follow the reset rules.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rules
from games.chance import DeckChance
from games.rules import Context, Event, RulesError
from tests.depth import scaled
from tests.rules.table import START

pytestmark = pytest.mark.slow

EXAMPLES = scaled(250)
MAX_ACTIONS = 600  # then the players stop acting and timeouts end the game

PROPS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# --------------------------------------------------------------------------- the rules, again

FACE = {"J": 11, "Q": 12, "K": 13}


def rank(ruleset: str, code: str) -> str:
    if ruleset == "cabo" or code == "JK":
        return code
    return code[:-1]


def value(ruleset: str, code: str) -> int:
    if ruleset == "cabo":
        return int(code)
    r = rank(ruleset, code)
    if ruleset == "pablo":
        if code == "JK":
            return -1
        if code == "KH":
            return 0
        return 1 if r == "A" else FACE.get(r) or int(r)
    if ruleset == "pablo-50":
        if code in ("KH", "KD"):
            return 0
        return -1 if r == "A" else (10 if r in FACE else int(r))
    # tamalou
    if code == "KD":
        return 0
    return 1 if r == "A" else (10 if r in FACE else int(r))


def expected_scores(
    ruleset: str, fields: list[list[str]], callers: list[int], reason: str
) -> list[int]:
    """RULES.md §3-6 "Round score", from the final fields (codes) and the calls."""
    totals = [sum(value(ruleset, c) for c in f) for f in fields]
    n = len(totals)
    low = min(totals)
    if reason == "exhausted":
        callers = []  # scored as if nobody had called
    scores = list(totals)
    if ruleset == "pablo":
        for c in callers:
            if reason == "empty_field":
                scores[c] = 25
            else:
                scores[c] = -20 if all(totals[c] < totals[o] for o in range(n) if o != c) else 25
    elif ruleset == "pablo-50":
        for c in callers:
            if totals[c] > low:
                scores[c] += 10
            elif totals.count(low) > 1:
                scores[c] += 5
    elif ruleset == "tamalou":
        for c in callers:
            strictly = all(totals[c] < totals[o] for o in range(n) if o != c)
            scores[c] = -5 if strictly else totals[c] + 10
    else:  # cabo
        kamikaze = [s for s in range(n) if sorted(int(c) for c in fields[s]) == [12, 12, 13, 13]]
        if kamikaze:
            return [0 if s == kamikaze[0] else 50 for s in range(n)]
        if callers and totals[callers[0]] == low:
            scores[callers[0]] = 0
        else:
            for s in range(n):
                if totals[s] == low:
                    scores[s] = 0
            if callers:
                scores[callers[0]] = totals[callers[0]] + 5
    return scores


def adjusted(ruleset: str, total: int) -> int:
    if ruleset == "pablo-50" and total == 50:
        return 0
    if ruleset == "cabo" and total == 100:
        return 50
    return total


# --------------------------------------------------------------------------- who may see what


def allowed_viewers(ruleset: str, event: Event, seats: int) -> dict[int, set[int | None]]:
    """card id -> the viewers this event may show it to (RULES.md §2-6, API.md Events)."""
    everyone: set[int | None] = {*range(seats), None}
    d, t, actor = event.data, event.type, event.seat
    out: dict[int, set[int | None]] = {}
    if t == "round_started":
        out[4 * seats] = everyone  # the card turned up
        if ruleset == "tamalou":
            for s in range(seats):
                out[4 * s] = out[4 * s + 1] = {s}
    elif t in ("looked", "peeked", "spied"):
        for c in d.get("cards", [d]):
            out[c["card"]] = {actor}
    elif t == "drawn":
        out[d["card"]] = everyone if d["source"] == "discard" else {actor}
    elif t in ("discarded", "thrown"):
        out[d["card"]] = everyone
    elif t == "replaced":
        for o in d["out"]:
            out[o["card"]] = everyone
        out[d["card"]] = everyone if d["open"] else {actor}
    elif t == "swapped" and ruleset == "tamalou":
        out[d["theirs"]["card"]] = {actor}
    elif t == "penalty" and ruleset == "pablo-50":
        out[d["card"]] = {actor}
    elif t == "round_ended":
        for f in d["fields"].values():
            for c in f:
                if c is not None:
                    out[c["card"]] = everyone
    return out


def cards_in(value_: Any) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    if isinstance(value_, list):
        for v in value_:
            found += cards_in(v)
    elif isinstance(value_, dict):
        if "card" in value_ and "code" in value_:
            found.append((value_["card"], value_["code"]))
        for v in value_.values():
            found += cards_in(v)
    return found


# --------------------------------------------------------------------------- the checker


def roundtrip(event: Event) -> Event:
    return Event(event.type, json.loads(json.dumps(event.data)), event.seat)


class Game:
    def __init__(self, ruleset: str, seats: int, options: dict[str, Any], seed: int) -> None:
        self.ruleset = ruleset
        self.seats = seats
        self.rng = random.Random(seed)
        self.chance = DeckChance(random.Random(seed + 1))
        self.now = START
        self.events = rules.create(
            ruleset, seats=seats, options=options, turn_timeout=60, creator="p0"
        )
        self.live = rules.fold(self.events)
        self.mirror = rules.fold([roundtrip(e) for e in self.events])
        self.viewers: list[int | None] = [*range(seats), None]
        self.seen: dict[int | None, dict[int, str]] = {v: {} for v in self.viewers}
        self.callers: list[int] = []
        self.rounds_checked = 0
        #: the views check_state checked, and the state version they are of
        self.views: dict[int | None, Any] = {}
        self.views_of = -1
        for seat in range(1, seats):
            self.store(rules.join(self.live, f"p{seat}", self.ctx))

    @property
    def ctx(self) -> Context:
        return Context(chance=self.chance, now=self.now)

    # -- storing and checking

    def store(self, events: list[Event]) -> None:
        for event in events:
            self.check_event(event)
            rules.apply(self.live, event)
            rules.apply(self.mirror, roundtrip(event))
            assert self.live == self.mirror, f"fold of JSON copies differs after {event.type}"
            self.events.append(event)
            if self.live.status != "waiting":
                self.check_state()

    def check_event(self, event: Event) -> None:
        """The redacted event shows each card only to those allowed; remember what they saw."""
        if event.type == "round_started":
            for v in self.viewers:
                self.seen[v] = {}
            self.callers = []
        if event.type == "called":
            self.callers.append(event.seat)
        if event.type == "round_ended":
            self.check_scores(event)
        allowed = allowed_viewers(self.ruleset, event, self.seats)
        codes = event.data["deck"] if event.type == "round_started" else self.codes
        for v in self.viewers:
            data = rules.event_view(self.live, event, v)
            assert "deck" not in data and "order" not in data
            for card, code in cards_in(data):
                assert v in allowed.get(card, set()), f"{event.type} shows card {card} to {v}"
                assert code == codes[card]
                self.seen[v][card] = code

    @property
    def codes(self) -> list[str]:
        return self.live.codes  # type: ignore[attr-defined,no-any-return]

    def check_state(self) -> None:
        s: Any = self.live
        if s.round == 0:
            return
        places: list[int] = [c for f in s.fields for c in f if c is not None]
        places += s.discard + s.draw + ([s.held] if s.held is not None else [])
        assert sorted(places) == list(range(len(s.codes))), "a card is lost or doubled"
        self.views = {v: rules.view(s, v) for v in self.viewers}
        self.views_of = s.version
        for v in self.viewers:
            self.check_view(v, self.views[v])

    def check_view(self, v: int | None, view: dict[str, Any] | None, recent: Any = ()) -> None:
        assert view is not None
        s: Any = self.live
        seen = self.seen[v]
        for seat, slots in view["fields"].items():
            real = s.fields[int(seat)]
            assert len(slots) == len(real)
            for code, card in zip(slots, real, strict=True):
                if card is None:
                    assert code is None
                elif code != "?":
                    assert seen.get(card) == code, f"view of {v} shows unseen card {card}"
        if view["held"] is not None:
            assert seen.get(s.held) == view["held"], f"view of {v} shows an unseen held card"
        if view["discard"]["top"] is not None:
            assert seen.get(s.discard[-1]) == view["discard"]["top"]
        assert view["deck"]["count"] == len(s.draw)

    def check_scores(self, event: Event) -> None:
        s: Any = self.live  # the state before round_ended
        d = event.data
        fields = [[s.codes[c] for c in f if c is not None] for f in s.fields]
        if self.ruleset == "pablo" and any(not f for f in fields):
            reason = "empty_field"
        elif not s.draw and len(s.discard) <= 1 and s.stage == "draw":
            reason = "exhausted"
        else:
            reason = "call"
            assert self.callers, "a round ended without a call"
        assert d["reason"] == reason
        assert self.callers == s.callers
        totals = [sum(value(self.ruleset, c) for c in f) for f in fields]
        scores = expected_scores(self.ruleset, fields, self.callers, reason)
        assert d["totals"] == {str(i): t for i, t in enumerate(totals)}
        assert d["scores"] == {str(i): x for i, x in enumerate(scores)}
        game = [adjusted(self.ruleset, s.scores[i] + scores[i]) for i in range(self.seats)]
        assert d["game_totals"] == {str(i): t for i, t in enumerate(game)}
        self.rounds_checked += 1

    # -- playing

    def act(self, seat: int, command: dict[str, Any], *, legal: bool) -> bool:
        before = len(self.events)
        try:
            events = rules.act(self.live, seat, command, self.ctx)
        except RulesError:
            assert not legal, f"legal action {command} refused"
            assert len(self.events) == before
            return False
        self.store(events)
        if self.live.options["memory"] == "strict" and self.live.status == "active":
            self.check_view(seat, rules.view(self.live, seat, events), events)
        return True

    def view(self, seat: int) -> Any:
        """The view of ``seat`` now: the one checked after the last event, if any."""
        if self.views_of == self.live.version:
            return self.views[seat]
        return rules.view(self.live, seat)

    def timeout(self) -> None:
        self.now += timedelta(seconds=61)
        key = self.live.turn_key
        assert key is not None
        events = rules.timeout(self.live, key, self.ctx)
        assert events, "a due deadline did nothing"
        self.store(events)
        assert rules.timeout(self.live, key, self.ctx) == [] or self.live.turn_key == key

    def play(self) -> None:
        rng = self.rng
        call_bias = rng.choice([0.3, 0.6, 0.9])
        throw_rate = rng.choice([0.0, 0.1, 0.3])
        for _ in range(MAX_ACTIONS):
            if self.live.status != "active":
                return
            if rng.random() < 0.03:
                self.timeout()
                continue
            options = [
                (seat, a) for seat in range(self.seats) for a in self.view(seat)["legal_actions"]
            ]
            calls = [o for o in options if o[1]["type"] == "call"]
            throws = [o for o in options if o[1]["type"] == "throw"]
            rest = [o for o in options if o[1]["type"] not in ("call", "throw")]
            if calls and rng.random() < call_bias:
                pool = calls
            elif throws and rng.random() < throw_rate:
                pool = throws
            else:
                pool = rest or calls or throws
            if not pool:
                self.timeout()
                continue
            seat, action = rng.choice(pool)
            command = dict(action)
            for name, choices in command.pop("choices", {}).items():
                command[name] = rng.choice(choices)
            if command["type"] == "throw" and command["seat"] != seat and rng.random() < 0.5:
                own = [p for p, c in enumerate(self.live.fields[seat]) if c is not None]  # type: ignore[attr-defined]
                if own:
                    command["give_position"] = rng.choice(own)
            self.act(seat, command, legal=True)
            if throw_rate and rng.random() < 0.05:
                self.stray_throw()
        while self.live.status == "active":  # long game: everyone stops playing
            self.timeout()

    def stray_throw(self) -> None:
        """A throw that may be stale, out of place or onto a closed match: refused or judged."""
        s: Any = self.live
        seat = self.rng.randrange(self.seats)
        target = self.rng.randrange(self.seats)
        command = {
            "type": "throw",
            "seat": target,
            "position": self.rng.randrange(len(s.fields[target]) + 1),
            "onto": s.serial - self.rng.choice([0, 0, 1]),
        }
        self.act(seat, command, legal=False)


def play_game(ruleset: str, seats: int, options: dict[str, Any], seed: int) -> Game:
    game = Game(ruleset, seats, options, seed)
    game.play()
    assert game.live.status in ("finished", "aborted")
    assert rules.fold(game.events) == game.live
    if game.live.status == "finished":
        assert game.rounds_checked == len(game.live.rounds) >= 1  # type: ignore[attr-defined]
    return game


def common(draw: Any, seats: int) -> dict[str, Any]:
    return {
        "start_seat": draw(st.one_of(st.none(), st.integers(0, seats - 1))),
        "memory": draw(st.sampled_from(["assisted", "strict"])),
        "max_timeouts": draw(st.integers(1, 3)),
    }


@st.composite
def pablo_games(draw: Any) -> tuple[int, dict[str, Any], int]:
    seats = draw(st.integers(2, 8))
    options = {
        "jokers": draw(st.sampled_from([1, 2])),
        "forty_two": draw(st.booleans()),
        "minus_sixty_nine": draw(st.booleans()),
        **common(draw, seats),
    }
    return seats, options, draw(st.integers(0, 2**31))


@st.composite
def pablo50_games(draw: Any) -> tuple[int, dict[str, Any], int]:
    seats = draw(st.integers(2, 8))
    options = {"advanced": draw(st.booleans()), **common(draw, seats)}
    return seats, options, draw(st.integers(0, 2**31))


@st.composite
def tamalou_games(draw: Any) -> tuple[int, dict[str, Any], int]:
    decks = draw(st.sampled_from([1, 2]))
    seats = draw(st.integers(2, 6 if decks == 1 else 12))
    options = {"decks": decks, **common(draw, seats)}
    return seats, options, draw(st.integers(0, 2**31))


@st.composite
def cabo_games(draw: Any) -> tuple[int, dict[str, Any], int]:
    seats = draw(st.integers(2, 8))
    return seats, common(draw, seats), draw(st.integers(0, 2**31))


@PROPS
@given(pablo_games())
def test_pablo_random_games(spec: tuple[int, dict[str, Any], int]) -> None:
    play_game("pablo", *spec)


@PROPS
@given(pablo50_games())
def test_pablo50_random_games(spec: tuple[int, dict[str, Any], int]) -> None:
    play_game("pablo-50", *spec)


@PROPS
@given(tamalou_games())
def test_tamalou_random_games(spec: tuple[int, dict[str, Any], int]) -> None:
    play_game("tamalou", *spec)


@PROPS
@given(cabo_games())
def test_cabo_random_games(spec: tuple[int, dict[str, Any], int]) -> None:
    play_game("cabo", *spec)
