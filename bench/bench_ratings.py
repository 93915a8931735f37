"""Do the ratings rank true strength? A population of accounts whose moves are made
by bot policies of known strength plays rated games in mixed tables of 2-5.

Policies, weakest first (``POLICIES``): ``random`` (a uniformly random legal move),
``sloppy`` (``basic``, but a uniformly random legal move with probability
``--epsilon``), ``basic`` and ``expert`` (``--expert-iterations`` rollouts). Their
order is not assumed: ``--duel`` two-player games between each policy and the next
stronger one (seats alternating) measure it first, in the bench's own output.

``--via services`` (the default): each game is created, joined and played move by
move through the services (``game_create``, ``game_join``, ``game_act``: the
store, its checks, the fair deal), in a database of its own; the ratings follower
rates it from the log (``followers.follow``, what the worker runs after an
append) and the ratings are read back from the ``Rating`` rows. ``--via pure``:
each game is played by the bots' pure simulation and its events go through the
ratings' own path in memory (``model.finished``, ``model.counted``,
``model.rate``: what ``services.ratings_apply`` does with rows of the log) --
the same ratings, without the database's cost per move.

Reported: each account's rating, how many pairs of accounts of different
policies are ordered rightly, Kendall's tau-b between rating and policy, the
log-loss of the winner's prediction on the held-out last 20 % of games against
"everyone equal", how many games an account needed before it was no longer
provisional, and the time per game.

    nice .venv/bin/python bench/bench_ratings.py --games 3000 --ruleset cabo --via pure
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo \\
        nice .venv/bin/python bench/bench_ratings.py --games 300 --ruleset skipbo
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import rules
from games.bots import expert
from games.bots.driver import Unfinished, bots_move, has_off_turn_actions
from games.bots.play import chooser, play_game
from games.chance import DeckChance
from games.ratings import model

#: Weakest first; ``sloppy`` is ``basic`` with a random move at probability epsilon.
POLICIES = ("random", "sloppy", "basic", "expert")
STRENGTH = {name: n for n, name in enumerate(POLICIES)}
#: ``--improvers``: accounts that play ``sloppy`` in the first half of the games and
#: ``basic`` in the second (a player getting better); outside the ordering's pairs.
IMPROVER = "improver"


def policy_at(policy: str, n: int, games: int) -> str:
    """The policy an account of ``policy`` plays in game ``n`` of ``games``."""
    if policy == IMPROVER:
        return "sloppy" if n < games // 2 else "basic"
    return policy


def policy_chooser(policy: str, ruleset: str, epsilon: float) -> Callable[..., Any]:
    if policy != "sloppy":
        return chooser(policy, ruleset)
    careful, careless = chooser("basic", ruleset), chooser("random", ruleset)

    def pick(state: rules.State, seat: int, rng: random.Random) -> Any:
        return (careless if rng.random() < epsilon else careful)(state, seat, rng)

    return pick


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
    both = (conc + disc + tx) * (conc + disc + ty)
    return (conc - disc) / math.sqrt(both) if both else float("nan")  # (no games: all tied)


def pure_places(
    ruleset: str, names: list[str], choosers: list[Any], rng: random.Random, position: int
) -> dict[str, int]:
    """One game of ``names`` (in seat order) in the bots' pure simulation; each rated
    account's place, read from its events by the ratings' own path."""
    stream: list[rules.Event] = []
    play_game(
        ruleset,
        ["basic"] * len(names),
        chance=DeckChance(rng),
        rng=rng,
        stream=stream,
        choosers=choosers,
    )
    seat_names = {f"seat{s}": name for s, name in enumerate(names)}
    events = [
        (
            e.type,
            e.seat,
            {**e.data, "username": seat_names[e.data["username"]]}
            if e.type == "player_joined"
            else e.data,
        )
        for e in stream
    ]
    game = model.finished(f"g{position}", position, events)
    seats = model.counted(game)
    return {game.seats[s].username: place for s, place in seats.items()}


class Pure:
    """Games in the bots' pure simulation, rated in memory by the ratings' own path."""

    def __init__(self, ruleset: str, names: list[str]) -> None:
        self.ruleset = ruleset
        self.skills = {name: model.Skill() for name in names}
        self.position = 0

    def skill(self, names: list[str]) -> list[model.Skill]:
        return [self.skills[name] for name in names]

    def play(self, names: list[str], choosers: list[Any], rng: random.Random) -> dict[str, int]:
        self.position += 1
        return pure_places(self.ruleset, names, choosers, rng, self.position)

    def rate(self, places: dict[str, int]) -> None:
        people = list(places)
        after = model.rate(self.skill(people), list(places.values()))
        self.skills.update(zip(people, after, strict=True))


class Services:
    """Games through the services in a database of their own; the ratings follower
    rates them from the log, and the ratings are read from the ``Rating`` rows."""

    def __init__(self, ruleset: str, names: list[str]) -> None:
        from django.contrib.auth import get_user_model

        from games import followers
        from games.ratings.models import Rating, RatingChange
        from games.selectors import games as selectors
        from games.services import games as services

        self.ruleset, self.Rating, self.RatingChange = ruleset, Rating, RatingChange
        self.services, self.selectors, self.followers = services, selectors, followers
        self.follower = next(f for f in followers.registered() if f.name == "ratings")
        self.off_turn = has_off_turn_actions(rules.get_ruleset(ruleset))
        User = get_user_model()
        self.users = {name: User.objects.create_user(name, password=None) for name in names}

    def skill(self, names: list[str]) -> list[model.Skill]:
        rows = self.Rating.objects.filter(
            ruleset=self.ruleset, user__username__in=names
        ).values_list("user__username", "mu", "sigma", "games")
        found = {name: model.Skill(mu, sigma, games) for name, mu, sigma, games in rows}
        return [found.get(name, model.Skill()) for name in names]

    def play(self, names: list[str], choosers: list[Any], rng: random.Random) -> dict[str, int]:
        """One game of ``names`` (in seat order); each rated account's place."""
        users = [self.users[name] for name in names]
        game = self.services.game_create(user=users[0], ruleset=self.ruleset, seats=len(users))
        for user in users[1:]:
            self.services.game_join(game_id=game.id, user=user)
        while True:
            row = self.selectors.game_get(game.id)
            if row.status != "active":
                break
            state = self.selectors.game_state(game=row)
            seat, body = bots_move(state, choosers, rng, off_turn=self.off_turn)
            self.services.game_act(game_id=game.id, user=users[seat], command=body)
        assert row.status == "finished", row.status
        self.followers.follow(self.follower)
        return dict(
            self.RatingChange.objects.filter(game_id=game.id).values_list("user__username", "place")
        )

    def rate(self, places: dict[str, int]) -> None:
        """(The ratings follower has rated the game already.)"""


def duel(ruleset: str, weak: str, strong: str, games: int, epsilon: float, seed: int) -> str:
    """``games`` two-player games of ``weak`` against ``strong`` (pure simulation, seats
    alternating): the stronger policy's share of the points (a win 1, a tie 1/2)."""
    rng = random.Random(seed)
    won = 0.0
    for n in range(games):
        pair = [weak, strong] if n % 2 else [strong, weak]
        outcome = play_game(
            ruleset,
            pair,
            chance=DeckChance(rng),
            rng=rng,
            choosers=[policy_chooser(p, ruleset, epsilon) for p in pair],
        )
        mine = [s for s in outcome.winners if pair[s] == strong]
        won += len(mine) / len(outcome.winners) if outcome.winners else 0.5
    share = won / games
    half = 1.96 * math.sqrt(share * (1 - share) / games)
    return (
        f"  {strong} vs {weak}: {strong} scores {100 * share:.1f} % of {games} games "
        f"(95 % interval {100 * (share - half):.1f}-{100 * (share + half):.1f} %)"
    )


def setup_django() -> Any:
    """A database of the bench's own (created, migrated; dropped by the caller)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + "k" * 50)  # a throwaway key
    import django

    django.setup()
    from django.db import connection

    connection.settings_dict["TEST"]["NAME"] = "bench_pablo_ratings_population"
    old = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    return connection, old


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--ruleset", default="cabo")
    parser.add_argument(
        "--population",
        default="random=6,sloppy=12,basic=6",
        help="policy=accounts,... (policies: " + ", ".join(POLICIES) + ")",
    )
    parser.add_argument("--epsilon", type=float, default=0.5, help="sloppy's random share")
    parser.add_argument("--via", choices=["services", "pure"], default="services")
    parser.add_argument(
        "--duel", type=int, default=400, help="games of each policy against the next stronger"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--expert-iterations",
        type=int,
        default=expert.DEFAULT_ITERATIONS,
        help="the expert's rollouts per decision (fewer: a cheaper, weaker expert)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games (pure)")
    parser.add_argument("--dump", help="write each game's table and places here (JSON lines)")
    parser.add_argument("--replay", help="rate the games of a --dump instead of playing")
    parser.add_argument("--tau", type=float, help="the model's dynamics factor (a trial)")
    parser.add_argument("--beta", type=float, help="the model's performance noise (a trial)")
    parser.add_argument(
        "--gamma",
        choices=["one", "openskill"],
        help="how fast sigma shrinks (a trial): 1 (ours) or openskill's default sigma / c",
    )
    parser.add_argument(
        "--improvers",
        type=int,
        default=0,
        help="accounts playing sloppy in the first half of the games and basic after",
    )
    args = parser.parse_args()
    if args.gamma is not None:
        model.GAMMA_ONE = args.gamma == "one"
    if args.tau is not None:
        model.TAU = args.tau
    if args.beta is not None:
        model.BETA, model._BETA_SQUARED = args.beta, args.beta**2
    if args.replay:
        args.via, args.duel = "pure", 0
        with open(args.replay) as lines:
            args.games = sum(1 for _ in lines)
    expert.DEFAULT_ITERATIONS = args.expert_iterations
    counts = dict(part.split("=") for part in args.population.split(","))
    present = [p for p in POLICIES if int(counts.get(p, 0))]
    accounts = [(f"{p}-{i}", p) for p in present for i in range(int(counts[p]))]
    accounts += [(f"{IMPROVER}-{i}", IMPROVER) for i in range(args.improvers)]
    if args.replay:  # the dump's accounts, whatever --population and --improvers say
        accounts += replayed_accounts(args.replay, {name for name, _ in accounts})
        args.improvers = sum(1 for _, policy in accounts if policy == IMPROVER)
    names = [name for name, _ in accounts]
    print(
        f"{args.ruleset}, via {args.via}: {args.games} games, population {args.population}"
        f"{f' + {args.improvers} improvers' if args.improvers else ''}, "
        f"sloppy: epsilon {args.epsilon}; tau {model.TAU:.4f}, beta {model.BETA:.3f}, "
        f"gamma {'1' if model.GAMMA_ONE else 'sigma / c'}; "
        f"load average {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores"
    )
    if args.duel:
        start = time.perf_counter()
        print(f"head to head, {args.duel} two-player games a pair:")
        for weak, strong in itertools.pairwise(present):
            print(duel(args.ruleset, weak, strong, args.duel, args.epsilon, args.seed))
        print(f"  ({time.perf_counter() - start:.0f} s)")
    database = setup_django() if args.via == "services" else None
    try:
        world = (Services if database else Pure)(args.ruleset, names)
        choosers = {
            p: policy_chooser(p, args.ruleset, args.epsilon)
            for p in playing(dict(accounts).values())
        }
        if args.games:  # (--games 0: the head-to-head alone)
            report(args, world, accounts, choosers)
    finally:
        if database:
            connection, old = database
            connection.close()
            connection.creation.destroy_test_db(old, verbosity=0)


def replayed_accounts(path: str, known: set[str]) -> list[tuple[str, str]]:
    """The accounts of a ``--dump`` that ``known`` lacks, each of the policy its name
    starts with (a dump made with ``--improvers`` or another ``--population``)."""
    extra = []
    with open(path) as lines:
        for line in lines:
            for name in json.loads(line)["table"]:
                policy = name.rsplit("-", 1)[0]
                if name in known:
                    continue
                if policy not in STRENGTH and policy != IMPROVER:
                    raise SystemExit(f"--replay: {name!r} is of no policy")
                known.add(name)
                extra.append((name, policy))
    return extra


def playing(policies: Any) -> set[str]:
    """The policies the accounts of ``policies`` play (an improver plays two)."""
    both = {"sloppy", "basic"}
    return {p for policy in policies for p in (both if policy == IMPROVER else {policy})}


def table_of(seed: int, n: int, ruleset: str, accounts: list) -> tuple[random.Random, list[str]]:
    """Game ``n``'s own random generator and its table: the same whoever plays it."""
    rng = random.Random(f"{seed}/{n}")
    high = min(5, rules.get_ruleset(ruleset).max_players_any, len(accounts))
    return rng, [name for name, _ in rng.sample(accounts, rng.randint(2, high))]


_worker: dict[str, Any] = {}


def _worker_start(args: Any, accounts: list) -> None:
    expert.DEFAULT_ITERATIONS = args.expert_iterations
    policies = {p for _, p in accounts}
    _worker.update(
        args=args,
        accounts=accounts,
        policy=dict(accounts),
        choosers={p: policy_chooser(p, args.ruleset, args.epsilon) for p in playing(policies)},
    )


def _worker_game(n: int) -> tuple[int, list[str], dict[str, int] | str]:
    args, policy, choosers = _worker["args"], _worker["policy"], _worker["choosers"]
    rng, table = table_of(args.seed, n, args.ruleset, _worker["accounts"])
    seated = [choosers[policy_at(policy[x], n, args.games)] for x in table]
    try:
        places = pure_places(args.ruleset, table, seated, rng, n + 1)
    except Unfinished as exc:
        return n, table, str(exc)
    return n, table, places


def played(args: Any, world: Any, accounts: list, choosers: dict) -> Iterator[tuple]:
    """``(n, table, places)`` of each game in order (``places`` a reason when the game
    never ended): played here, in ``--jobs`` processes (pure), or read from ``--replay``."""
    if args.replay:
        with open(args.replay) as lines:
            for line in lines:
                game = json.loads(line)
                yield game["game"], game["table"], game["places"]
        return
    if args.jobs > 1:
        if args.via != "pure":
            raise SystemExit("--jobs needs --via pure (the services' games share one database)")
        with multiprocessing.Pool(args.jobs, _worker_start, (args, accounts)) as pool:
            yield from pool.imap(_worker_game, range(args.games), chunksize=2)
        return
    policy = dict(accounts)
    for n in range(args.games):
        rng, table = table_of(args.seed, n, args.ruleset, accounts)
        seated = [choosers[policy_at(policy[name], n, args.games)] for name in table]
        try:
            places = world.play(table, seated, rng)
        except Unfinished as exc:
            yield n, table, str(exc)
            continue
        yield n, table, places


def report(args: Any, world: Any, accounts: list, choosers: dict) -> None:
    policy = dict(accounts)
    names = [name for name, _ in accounts]
    settled: dict[str, int] = {}
    #: Each account's skill after each of its games, and the game's number.
    history: dict[str, list[tuple[int, model.Skill]]] = {name: [] for name in names}
    held_out = int(args.games * 0.8)
    loss = base = 0.0
    unfinished: list[str] = []
    dump = open(args.dump, "w") if args.dump else None  # noqa: SIM115 (closed below)
    start = time.perf_counter()
    for n, table, places in played(args, world, accounts, choosers):
        if dump:
            dump.write(json.dumps({"game": n, "table": table, "places": places}) + "\n")
        if isinstance(places, str):  # unrated, like an aborted game; counted and printed
            unfinished.append(f"game {n + 1} ({', '.join(table)}): {places}")
            continue
        before = world.skill(table)
        world.rate(places)
        if n >= held_out and len(places) >= 2:
            # The model's chance of each rated player finishing first, before the game.
            rated = [i for i, name in enumerate(table) if name in places]
            p = model.win_probabilities([before[i] for i in rated])
            winners = [k for k, i in enumerate(rated) if places[table[i]] == 1]
            loss -= math.log(sum(p[k] for k in winners))
            base -= math.log(len(winners) / len(rated))
        for name, skill in zip(table, world.skill(table), strict=True):
            history[name].append((n, skill))
            if name not in settled and not model.provisional(skill.sigma):
                settled[name] = skill.games
        if (n + 1) % max(1, args.games // 10) == 0:
            took = time.perf_counter() - start
            print(f"  {n + 1} games, {took / (n + 1):.3f} s a game", flush=True)
    took = time.perf_counter() - start
    if dump:
        dump.close()
    skills = dict(zip(names, world.skill(names), strict=True))
    print(
        f"{args.games} games in {took:.0f} s ({took / args.games:.3f} s a game), "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for name in sorted(names, key=lambda x: -model.display(skills[x].mu, skills[x].sigma)):
        s = skills[name]
        print(
            f"  {name:10} {model.display(s.mu, s.sigma):5} mu {s.mu:5.1f} sigma {s.sigma:4.2f}"
            f" games {s.games}"
        )
    print(f"{len(unfinished)} games never ended (not rated)", *unfinished, sep="\n  ")
    ordering({x: skills[x] for x in names if policy[x] != IMPROVER}, policy)
    held = args.games - held_out
    if base:
        print(
            f"held-out {held} games: log-loss {loss / held:.4f} "
            f"vs everyone equal {base / held:.4f} ({100 * (1 - loss / base):.1f} % better)"
        )
    else:  # no held-out game rated two players with some of them not first
        print(f"held-out {held} games: none to judge the predictions by")
    if settled:
        games = sorted(settled.values())
        print(
            f"games before not provisional: median {games[len(games) // 2]}, "
            f"max {games[-1]} ({len(settled)} of {len(names)} accounts)"
        )
    accuracy(history, skills, policy)
    if args.improvers:
        tracking(history, skills, policy, args.games // 2)


def ordering(skills: dict[str, model.Skill], policy: dict[str, str]) -> None:
    """How well the shown ratings order the accounts by their policies' strength."""
    names = list(skills)
    shown = [model.display(skills[x].mu, skills[x].sigma) for x in names]
    strengths = [STRENGTH[policy[x]] for x in names]
    tau = kendall_tau(shown, strengths)
    # The best tau-b a ranking can reach when accounts share their policy: every
    # account of a stronger policy above every weaker one, in any order within one.
    best = kendall_tau([1000 * v + i for i, v in enumerate(strengths)], strengths)
    right = wrong = total = 0
    for i in range(len(names)):
        for j in range(len(names)):
            if strengths[i] > strengths[j]:
                total += 1
                right += shown[i] > shown[j]
                wrong += shown[i] < shown[j]
    print(f"Kendall tau-b(rating, policy) = {tau:.3f} (at most {best:.3f} with tied policies)")
    print(f"stronger policy's account rated higher in {right} of {total} pairs")
    # Kendall's tau over the pairs the policies order (Goodman and Kruskal's gamma): the
    # tau that a population of tied policies can bring to 1, where tau-b stops at the bound.
    gamma = (right - wrong) / (right + wrong) if right + wrong else float("nan")
    print(f"Kendall's tau over the pairs of different policies (gamma) = {gamma:.3f}")


#: Games played, in the groups ``accuracy`` reports.
GROUPS = ((1, 5), (6, 10), (11, 20), (21, 40), (41, 100), (101, 10**9))


def accuracy(history: dict, skills: dict[str, model.Skill], policy: dict[str, str]) -> None:
    """How far a rating is from the truth after k games, and whether sigma says so.

    The truth of an account is its policy's strength: the mean final mu of the
    policy's accounts (accounts of one policy are equally strong). For each group of
    games played: the root mean square of mu - truth (the error), and of the error
    in sigmas (about 1 when sigma is honest; above 1, sigma claims too much)."""
    by_policy: dict[str, list[float]] = {}
    for name, skill in skills.items():
        if policy[name] != IMPROVER:
            by_policy.setdefault(policy[name], []).append(skill.mu)
    truth = {p: sum(mus) / len(mus) for p, mus in by_policy.items()}
    errors: dict[tuple, list[tuple[float, float]]] = {group: [] for group in GROUPS}
    for name, steps in history.items():
        if policy[name] == IMPROVER:
            continue
        for _, skill in steps:
            group = next(g for g in GROUPS if g[0] <= skill.games <= g[1])
            errors[group].append((skill.mu - truth[policy[name]], skill.sigma))
    parts = []
    for (low, high), found in errors.items():
        if found:
            error = math.sqrt(sum(e * e for e, _ in found) / len(found))
            z = math.sqrt(sum((e / s) ** 2 for e, s in found) / len(found))
            parts.append(f"{low}-{high if high < 10**9 else ''}: {error:.1f} ({z:.2f})")
    print("error of mu after k games, rms (in sigmas):", ", ".join(parts))


def tracking(history: dict, skills: dict[str, model.Skill], policy: dict, half: int) -> None:
    """How fast a rating follows a player who gets better: the improvers' mean mu,
    k games after they turned from ``sloppy`` to ``basic``, as a share of the way
    from the ``sloppy`` accounts' final mean mu to the ``basic`` ones'."""

    def mean(mus: list[float]) -> float:
        return sum(mus) / len(mus) if mus else float("nan")

    low = mean([s.mu for x, s in skills.items() if policy[x] == "sloppy"])
    high = mean([s.mu for x, s in skills.items() if policy[x] == "basic"])
    after = [
        [skill.mu for n, skill in steps if n >= half]
        for x, steps in history.items()
        if policy[x] == IMPROVER
    ]
    parts = []
    for k in (1, 10, 25, 50, 100, 200):
        mus = [steps[k - 1] for steps in after if len(steps) >= k]
        if mus:
            parts.append(f"{k}: {(mean(mus) - low) / (high - low):.2f}")
    print("improvers, k games after turning from sloppy to basic, share of the way:", *parts)


if __name__ == "__main__":
    main()
