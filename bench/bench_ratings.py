"""Do the ratings rank true strength? A population of accounts whose moves are made
by bot policies of known strength plays rated games in mixed tables of 2-5.

Each game is played by the bots' pure simulation (``games.bots.play.play_game``:
the services are not what is measured here) and its events go through the
ratings' own path: ``model.finished`` reads the game from its events,
``model.counted`` decides who is rated, ``model.rate`` rates them, in order
(exactly what ``services.ratings_apply`` does with rows of the log). Reported:
Kendall's tau between rating and policy strength, the log-loss of the winner's
prediction on the held-out last 20 % of games against "everyone equal", and
how many games an account needed before it was no longer provisional.

    nice .venv/bin/python bench/bench_ratings.py --games 3000 --ruleset cabo
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import rules
from games.bots import expert
from games.bots.play import play_game
from games.ratings import model

STRENGTH = {"random": 0, "basic": 1, "expert": 2}


class Chance:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def deck(self, round_no, cards):
        deck = list(cards)
        self.rng.shuffle(deck)
        return deck

    def shuffle(self, items):
        out = list(items)
        self.rng.shuffle(out)
        return out

    def choice(self, items):
        return self.rng.choice(list(items))


def kendall_tau(xs: list[float], ys: list[float]) -> float:
    """Tau-b: pairs tied in either list count in neither direction."""
    conc = disc = tx = ty = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            a, b = xs[i] - xs[j], ys[i] - ys[j]
            if a == 0 and b == 0:
                continue
            if a == 0:
                tx += 1
            elif b == 0:
                ty += 1
            elif (a > 0) == (b > 0):
                conc += 1
            else:
                disc += 1
    return (conc - disc) / math.sqrt((conc + disc + tx) * (conc + disc + ty))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--ruleset", default="cabo")
    parser.add_argument("--population", default="6,12,6", help="random,basic,expert accounts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--expert-iterations",
        type=int,
        default=expert.DEFAULT_ITERATIONS,
        help="the expert's rollouts per decision (fewer: a cheaper, weaker expert)",
    )
    args = parser.parse_args()
    expert.DEFAULT_ITERATIONS = args.expert_iterations
    counts = [int(n) for n in args.population.split(",")]
    accounts = [
        (f"{level}-{i}", level) for level, n in zip(STRENGTH, counts, strict=True) for i in range(n)
    ]
    policy = dict(accounts)
    rng = random.Random(args.seed)
    skills = {name: model.Skill() for name, _ in accounts}
    settled: dict[str, int] = {}
    rulebook = rules.get_ruleset(args.ruleset)
    high = min(5, rulebook.max_players_any, len(accounts))
    held_out = int(args.games * 0.8)
    loss = base = 0.0
    start = time.perf_counter()
    for n in range(args.games):
        table = rng.sample(accounts, rng.randint(2, high))
        stream: list[rules.Event] = []
        play_game(
            args.ruleset,
            [level for _, level in table],
            chance=Chance(rng),
            rng=rng,
            stream=stream,
        )
        names = {f"seat{s}": name for s, (name, _) in enumerate(table)}
        names["seat0"] = table[0][0]
        events = [
            (
                e.type,
                e.seat,
                {**e.data, "username": names[e.data["username"]]}
                if e.type == "player_joined"
                else e.data,
            )
            for e in stream
        ]
        game = model.finished(f"g{n}", n + 1, events)
        seats = model.counted(game)
        people = [game.seats[s].username for s in seats]
        before = [skills[p] for p in people]
        if n >= held_out:
            winners = [i for i, s in enumerate(seats) if seats[s] == 1]
            p = model.win_probabilities(before)
            loss -= math.log(sum(p[i] for i in winners))
            base -= math.log(len(winners) / len(people))
        after = model.rate(before, list(seats.values()))
        for name, skill in zip(people, after, strict=True):
            skills[name] = skill
            if name not in settled and not model.provisional(skill.sigma):
                settled[name] = skill.games
    took = time.perf_counter() - start
    names = [name for name, _ in accounts]
    shown = [model.display(skills[x].mu, skills[x].sigma) for x in names]
    tau = kendall_tau(shown, [STRENGTH[policy[x]] for x in names])
    print(f"{args.ruleset}: {args.games} games, population {args.population}, {took:.0f} s")
    for name in sorted(names, key=lambda x: -model.display(skills[x].mu, skills[x].sigma)):
        s = skills[name]
        print(f"  {name:10} {model.display(s.mu, s.sigma):5} mu {s.mu:5.1f} sigma {s.sigma:4.2f}")
    strengths = [STRENGTH[policy[x]] for x in names]
    # The best tau-b a ranking can reach when accounts share their policy: every
    # account of a stronger policy above every weaker one, in any order within one.
    best = kendall_tau([1000 * v + i for i, v in enumerate(strengths)], strengths)
    right = total = 0
    for i in range(len(names)):
        for j in range(len(names)):
            if strengths[i] > strengths[j]:
                total += 1
                right += shown[i] > shown[j]
    print(f"Kendall tau-b(rating, policy) = {tau:.3f} (at most {best:.3f} with tied policies)")
    print(f"stronger policy's account rated higher in {right} of {total} pairs")
    held = args.games - held_out
    print(
        f"held-out {held} games: log-loss {loss / held:.4f} vs everyone equal {base / held:.4f} "
        f"({100 * (1 - loss / base):.1f} % better)"
    )
    if settled:
        games = sorted(settled.values())
        print(
            f"games before not provisional: median {games[len(games) // 2]}, "
            f"max {games[-1]} ({len(settled)} of {len(names)} accounts)"
        )


if __name__ == "__main__":
    main()
