"""Analysis of a finished game: what each decision cost, by the expert's own search.

Pure, like the bots. ``analyse(events)`` walks a game's events; at every
decision a player made on their turn (the events the ruleset's bots name:
``Expert.taken``) it rebuilds that player's own view at that moment -- what
their seat knew then, nothing more (``bot_view`` of the state before the
event) -- and estimates every legal action (``expert.candidates`` with
``wide``: all of them, swaps included) and the one taken by flat Monte Carlo
over determinizations of that view (``expert.search``), the rollouts played
to the round's end. The estimate is the player's expected points for the
round, or their chance to win (the ruleset's ``Expert.unit``).

``loss`` is how much worse the action taken is than the best one, with the
standard error of that gap (the candidates meet the same sampled worlds, so
the gap is measured world by world). A decision is marked only when the gap
exceeds ``SIGNIFICANCE`` (2) standard errors, and then by its size
(``Marks``): inaccuracy, mistake, blunder. Equivalent actions (peeking at one
unknown card or another) come out level and are never marked.

Not analysed: what the ruleset's ``taken`` leaves out (the Pablo family's
setup look and throws), a timeout's automatic action, and a turn with a single
legal action. A ruleset whose bots give the expert no kit is not analysed
(``analysable``).
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
from .strategy import SIGNIFICANCE, Marks, expert_of, levels

__all__ = ["Marks", "analysable", "analyse", "decisions", "default_marks", "unit"]

ANALYSER = "expert-mc/1"
#: Rollouts per decision with the default budget (the setting ``PABLO_ANALYSIS_ITERATIONS``).
DEFAULT_ITERATIONS = 120


def analysable(ruleset: str) -> bool:
    """Whether the analysis can weigh this ruleset's decisions (its bots have an expert)."""
    return "expert" in levels(ruleset)


def default_marks(ruleset: str) -> Marks:
    return expert_of(ruleset).marks


def unit(ruleset: str) -> str:
    """What a decision's ``loss`` and ``estimate`` count: "points" or "chance" (to win)."""
    return expert_of(ruleset).unit


# --------------------------------------------------------------------------- decisions


@dataclass
class Decision:
    step: int  # the event's seq
    seat: int
    state: State  # just before the event
    taken: JSON


def _not_a_decision(event: Event) -> JSON | None:
    return None


def decisions(events: Iterable[tuple[int, Event]]) -> list[Decision]:
    """Every analysable decision of a game, from its ``(seq, event)`` stream."""
    out: list[Decision] = []
    state: Any = None
    taken_action: Callable[[Event], JSON | None] = _not_a_decision
    auto: int | None = None  # a seat whose turn the server is playing (timeout)
    for seq, event in events:
        if state is None:
            state = get_ruleset(event.data["ruleset"]).initial_state(event.data)
            if analysable(state.ruleset):
                taken_action = expert_of(state.ruleset).taken
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
    points = unit(ruleset) == "points"
    return {
        "seat": seat,
        "taken": taken,
        "best": best.action,
        "loss": round(loss, 2 if points else 3),
        "stderr": round(se, 2 if points else 3) if se != float("inf") else None,
        "mark": mark,
        # What the player saw that the sentences name: the card held, the discard top.
        "context": {"held": view.get("held"), "top": (view.get("discard") or {}).get("top")},
        # The estimate of the action taken: expected round points, or win chance.
        "estimate": round(-mine.mean if points else mine.mean, 3),
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
