"""Analysis of a finished game: what each decision cost, by the expert's own search.

Pure, like the bots. ``analyse(events)`` walks a game's events; at every
decision a player made on their turn (Pablo family: draw, discard, replace,
peek, spy, swap, skip a power, call; Skip-Bo: each card played and the
closing discard) it rebuilds that player's own view at that moment -- what
their seat knew then, nothing more (``bot_view`` of the state before the
event) -- and estimates every legal action (``expert.candidates`` with
``wide``: all of them, swaps included) and the one taken by flat Monte Carlo
over determinizations of that view (``expert.search``), the rollouts played
to the round's end. The estimate is the player's expected points for the
round in the Pablo family, their chance to win in Skip-Bo.

``loss`` is how much worse the action taken is than the best one, with the
standard error of that gap (the candidates meet the same sampled worlds, so
the gap is measured world by world). A decision is marked only when the gap
exceeds ``SIGNIFICANCE`` (2) standard errors, and then by its size
(``Marks``): inaccuracy, mistake, blunder. Equivalent actions (peeking at one
unknown card or another) come out level and are never marked.

Not analysed: the setup look (every choice is alike), throws (whether to
throw at a discard is a chance at every version, not a decision that the
event stream records when passed up), a timeout's automatic action, and a
turn with a single legal action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from games.rules import Event, State, get_ruleset
from games.rules import apply as apply_event

from . import expert
from .common import JSON
from .play import bot_view

ANALYSER = "expert-mc/1"
#: Rollouts per decision with the default budget (the setting ``PABLO_ANALYSIS_ITERATIONS``).
DEFAULT_ITERATIONS = 120
SIGNIFICANCE = 2.0


@dataclass(frozen=True)
class Marks:
    """The smallest gap of each mark (Pablo family: points; Skip-Bo: win probability)."""

    inaccuracy: float
    mistake: float
    blunder: float

    def mark(self, loss: float, stderr: float) -> str | None:
        if loss <= SIGNIFICANCE * stderr:
            return None
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None


FAMILY_MARKS = Marks(1.0, 3.0, 6.0)
SKIPBO_MARKS = Marks(0.03, 0.08, 0.15)


def default_marks(ruleset: str) -> Marks:
    return SKIPBO_MARKS if ruleset == "skipbo" else FAMILY_MARKS


# --------------------------------------------------------------------------- decisions


def taken_action(event: Event) -> JSON | None:
    """The action body a decision event records (None: not a decision we analyse)."""
    d = event.data
    t = event.type
    if t == "drawn":
        return {"type": "draw", "source": d["source"]}
    if t == "discarded":
        return {"type": "discard"}
    if t == "replaced":
        return {"type": "replace", "positions": list(d["positions"])}
    if t == "peeked":
        return {"type": "peek", "position": d["position"]}
    if t == "spied":
        return {"type": "spy", "seat": d["seat"], "position": d["position"]}
    if t == "swapped":
        return {
            "type": "swap",
            "position": d["position"],
            "seat": d["seat"],
            "their_position": d["their_position"],
        }
    if t == "power_skipped" and d.get("reason") == "skipped":
        return {"type": "skip"}
    if t == "called":
        return {"type": "call"}
    if t == "card_played":
        body: JSON = {"type": "play", "from": d["from"], "pile": d["pile"]}
        if d["from"] == "hand":
            body["card"] = d["code"]
        elif d["from"] == "discard":
            body["discard_pile"] = d["discard_pile"]
        return body
    if t == "card_discarded":
        return {"type": "end", "card": d["code"], "discard_pile": d["discard_pile"]}
    return None


@dataclass
class Decision:
    step: int  # the event's seq
    seat: int
    state: State  # just before the event
    taken: JSON


def decisions(events: Iterable[tuple[int, Event]]) -> list[Decision]:
    """Every analysable decision of a game, from its ``(seq, event)`` stream."""
    out: list[Decision] = []
    state: Any = None
    auto: int | None = None  # a seat whose turn the server is playing (timeout)
    for seq, event in events:
        if state is None:
            state = get_ruleset(event.data["ruleset"]).initial_state(event.data)
            state.version = 1
            continue
        if event.type == "turn_timed_out":
            auto = event.seat
        elif event.seat is None or event.seat != auto:
            auto = None
        body = taken_action(event) if event.seat is not None and auto is None else None
        if body is not None and state.status == "active":
            out.append(Decision(seq, event.seat, state.copy(), body))  # type: ignore[arg-type]
        apply_event(state, event)
    return out


# --------------------------------------------------------------------------- estimating


def analyse_decision(
    ruleset: str,
    view: JSON,
    seat: int,
    taken: JSON,
    *,
    iterations: int = DEFAULT_ITERATIONS,
    marks: Marks | None = None,
) -> JSON | None:
    """One decision: the best action, the loss of the one taken, its error and mark."""
    actions = expert.candidates(ruleset, view, seat, wide=True)
    if actions is None:
        return None
    actions = [a for a in actions if a is not None]
    key = expert._key(taken)
    if all(expert._key(a) != key for a in actions):
        actions.append(taken)
    if len(actions) < 2:
        return None
    estimates = expert.search(
        ruleset,
        view,
        seat,
        actions,
        iterations=iterations,
        objective=expert.points_objective,
        keep=taken,
    )
    best = expert.best_of(estimates)
    mine = next(e for e in estimates if expert._key(e.action) == key)
    gap, se = expert.paired_gap(best, mine)
    loss = max(0.0, gap)
    if mine is best:
        se = 0.0
    mark = (marks or default_marks(ruleset)).mark(loss, se)
    family = ruleset != "skipbo"
    return {
        "seat": seat,
        "taken": taken,
        "best": best.action,
        "loss": round(loss, 3 if not family else 2),
        "stderr": round(se, 3 if not family else 2) if se != float("inf") else None,
        "mark": mark,
        # What the player saw that the sentences name: the card held, the discard top.
        "context": {"held": view.get("held"), "top": (view.get("discard") or {}).get("top")},
        # The estimate of the action taken: expected round points, or win chance.
        "estimate": round(-mine.mean if family else mine.mean, 3),
    }


def analyse(
    events: Iterable[tuple[int, Event]],
    *,
    iterations: int = DEFAULT_ITERATIONS,
    marks: Marks | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> JSON:
    """Every decision of a finished game, and a summary per player (API.md "Analysis")."""
    stream = list(events)
    ruleset = stream[0][1].data["ruleset"]
    seats = stream[0][1].data["seats"]
    found = decisions(stream)
    rows: list[JSON] = []
    for i, decision in enumerate(found):
        view = bot_view(decision.state, decision.seat)
        row = None
        if view is not None:
            row = analyse_decision(
                ruleset, view, decision.seat, decision.taken, iterations=iterations, marks=marks
            )
        if row is not None:
            rows.append({"step": decision.step, **row})
        if progress is not None:
            progress(i + 1, len(found))
    players = []
    for seat in range(seats):
        mine = [r for r in rows if r["seat"] == seat]
        lost = sum(r["loss"] for r in mine if _significant(r))
        players.append(
            {
                "seat": seat,
                "loss": round(lost, 3),
                "decisions": len(mine),
                **{m: sum(1 for r in mine if r["mark"] == m) for m in MARK_NAMES},
            }
        )
    return {"analyser": ANALYSER, "ruleset": ruleset, "decisions": rows, "players": players}


MARK_NAMES = ("inaccuracy", "mistake", "blunder")


def _significant(row: JSON) -> bool:
    """A gap the estimate can tell from noise (what a player's ``loss`` sums)."""
    return row["stderr"] is not None and row["loss"] > SIGNIFICANCE * row["stderr"]
