"""Whole games through the API, checked by the standalone checker as a player would.

Each ruleset is played to its end by seeded random players (no stacked decks:
every deal comes from the committed generator). The replay is written to a
file and ``fairness_check.py`` runs on it in a subprocess; it must print
``fair``. Then the replay is tampered with -- a card of a deal, two draws
swapped, another server seed, a card an event shows -- and the checker must
say exactly what does not match.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import fairness_check
from games import fairness, rules
from games.bots.driver import drive
from games.models import FairDraw, Game
from games.services import bots as bot_services
from games.services import games as game_services
from tests.api.test_full_games import complete, play_to_the_end
from tests.httpstub import replay_handler, serve
from tests.rules.table import START

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "fairness_check.py"
JSON = dict[str, Any]


def run_checker(tmp_path: Path, replay: JSON, *args: str) -> tuple[int, list[str]]:
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(replay), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(CHECKER), str(path), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,  # not the project: the checker must stand alone
        check=False,
    )
    return done.returncode, done.stdout.splitlines()


def play(
    make_player,
    monkeypatch,
    ruleset: str,
    seats: int,
    options: JSON,
    seed: int,
) -> JSON:
    """A finished game's replay; the players give seeds, the server seed is seeded."""
    rng = random.Random(seed)
    monkeypatch.setattr(game_services, "new_server_seed", lambda: rng.randbytes(32))
    players = [make_player(f"{ruleset}-p{i}") for i in range(seats)]
    created = players[0].post(
        "/api/games/",
        {"ruleset": ruleset, "seats": seats, "options": options, "seed": f"ann's {seed}"},
        format="json",
    )
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    commitment = created.json()["fairness"]["commitment"]
    for i, player in enumerate(players[1:], start=1):
        body = {"seed": "ünï 🂡"} if i == 1 else {}
        assert player.post(f"/api/games/{gid}/join/", body, format="json").status_code == 200
    finished = play_to_the_end(players, gid, rng)
    assert finished["status"] == "finished"
    replay = players[0].get(f"/api/games/{gid}/replay/").json()
    assert replay["fairness"]["commitment"] == commitment
    return replay


def engine_replay(ruleset: str, seats: int, seed: int, call: float = 0.02) -> JSON:
    """A replay of a long game played on the pure engine (fast: no database, no HTTP).

    It stops after three deals and a reshuffle (or at the end): the checker
    needs nothing but the events and the draws, finished or not.

    Every engine call gets a fresh ``FairChance`` that learns the draws so far
    from the list kept here -- as each request of the service does from the
    stored draws. The players seldom call, so rounds run until the draw pile
    is used up and the discard pile is reshuffled.
    """
    rng = random.Random(seed)
    server_seed = rng.randbytes(32)
    seeds = [f"seat {s}" for s in range(seats)]
    draws: list[JSON] = []

    def ctx() -> rules.Context:
        def history() -> fairness.History:
            deals = [d for d in draws if d["kind"] == "deal"]
            last = deals[-1] if deals else None
            return fairness.History(
                next_k=len(draws),
                round=last["round"] if last else None,
                deck=list(last["output"]) if last else None,
            )

        chance = fairness.FairChance(server_seed, seeds, history)
        contexts.append(chance)
        return rules.Context(chance=chance, now=START)

    contexts: list[fairness.FairChance] = []
    events = rules.create(ruleset, seats=seats, options={}, turn_timeout=60, creator="p0")
    state = rules.fold(events)

    def store(new: list[rules.Event]) -> None:
        for event in new:
            rules.apply(state, event)
        events.extend(new)
        draws.extend(contexts.pop().finish())

    for s in range(1, seats):
        store(rules.join(state, f"p{s}", ctx()))

    def enough() -> bool:
        kinds = [d["kind"] for d in draws]
        return state.status != "active" or (kinds.count("deal") >= 3 and "reshuffle" in kinds)

    def next_move() -> tuple[int, JSON]:
        legal = {
            s: [a for a in rules.view(state, s)["legal_actions"] if a["type"] != "throw"]
            for s in range(seats)
        }
        callers = [s for s, acts in legal.items() if any(a["type"] == "call" for a in acts)]
        if callers and rng.random() < call:
            return callers[0], {"type": "call"}
        s, quiet = next(
            (s, [a for a in acts if a["type"] != "call"])
            for s, acts in legal.items()
            if any(a["type"] != "call" for a in acts)
        )
        quiet = [a for a in quiet if a.get("source") != "discard"] or quiet  # use the pile up
        return s, complete(rng.choice(quiet), rng)

    drive(
        finished=enough,
        next_move=next_move,
        act=lambda seat, body: store(rules.act(state, seat, body, ctx())),
        max_actions=20_000,
    )
    return {
        "game": {"ruleset": ruleset, "seats": seats, "status": state.status},
        "events": [
            {"seq": i, "type": e.type, "seat": e.seat, "data": e.data}
            for i, e in enumerate(events, start=1)
        ],
        "fairness": {
            "commitment": fairness.commitment(server_seed),
            "player_seeds": {str(s): seed for s, seed in enumerate(seeds)},
            "server_seed": server_seed.hex(),
            "draws": draws,
        },
    }


@pytest.mark.parametrize("ruleset", ["pablo", "pablo-50", "tamalou", "cabo"])
def test_long_family_games_with_reshuffles_are_fair(ruleset, tmp_path):
    replay = engine_replay(ruleset, 3, seed=5)
    kinds = [d["kind"] for d in replay["fairness"]["draws"]]
    assert kinds.count("deal") >= 2 and "reshuffle" in kinds
    assert fairness_check.check(replay) == []
    if ruleset == "pablo":
        assert run_checker(tmp_path, replay) == (0, ["fair"])


CASES = [
    ("pablo", 3, {}),
    ("pablo-50", 2, {}),
    ("tamalou", 4, {}),
    ("cabo", 3, {}),
    ("skipbo", 3, {"stock_size": 8}),
]


@pytest.mark.parametrize(("ruleset", "seats", "options"), CASES)
def test_every_ruleset_is_fair(make_player, monkeypatch, tmp_path, ruleset, seats, options):
    replay = play(make_player, monkeypatch, ruleset, seats, options, seed=12)
    fair = replay["fairness"]
    server_seed = bytes.fromhex(fair["server_seed"])
    assert hashlib.sha256(server_seed).hexdigest() == fair["commitment"]
    assert replay["game"]["fairness"]["server_seed"] == fair["server_seed"]
    assert "draws" not in replay["game"]["fairness"]
    seeds = {"0": "ann's 12", "1": "ünï 🂡", **{str(s): "" for s in range(2, seats)}}
    assert fair["player_seeds"] == seeds
    draws = fair["draws"]
    assert [d["k"] for d in draws] == list(range(len(draws)))
    kinds = [d["kind"] for d in draws]
    # start_seat is null: round 1's start seat is drawn when the last seat is taken.
    assert "start_seat" in kinds and "deal" in kinds
    assert draws[0]["input"] is None or draws[0]["kind"] == "deal"
    assert FairDraw.objects.filter(game_id=replay["game"]["id"]).count() == len(draws)
    code, out = run_checker(tmp_path, replay)
    assert (code, out) == (0, ["fair"])
    code, out = run_checker(tmp_path, replay, "--commitment", fair["commitment"].upper())
    assert (code, out) == (0, ["fair"])


def test_skipbo_reshuffles_are_fair(make_player, monkeypatch, tmp_path):
    replay = play(make_player, monkeypatch, "skipbo", 2, {"stock_size": 30}, seed=1)
    kinds = [d["kind"] for d in replay["fairness"]["draws"]]
    assert kinds[:2] == ["deal", "start_seat"] and "reshuffle" in kinds
    assert run_checker(tmp_path, replay) == (0, ["fair"])
    bad = copy.deepcopy(replay)
    event = next(
        e for e in bad["events"] if e["type"] == "card_played" and e["data"].get("stock_top")
    )
    event["data"]["stock_top"]["code"] = "SB" if event["data"]["stock_top"]["code"] != "SB" else "1"
    out = mismatches(tmp_path, bad)
    assert any(line.startswith(f"event {event['seq']} (card_played): shows card") for line in out)


@pytest.fixture
def replay(make_player, monkeypatch) -> JSON:
    return engine_replay("pablo", 3, seed=5)


def mismatches(tmp_path: Path, replay: JSON, *args: str) -> list[str]:
    code, out = run_checker(tmp_path, replay, *args)
    assert code == 1, out
    assert out and "fair" not in out
    return out


def first(replay: JSON, kind: str) -> tuple[int, JSON]:
    return next((i, d) for i, d in enumerate(replay["fairness"]["draws"]) if d["kind"] == kind)


def test_a_card_changed_in_a_dealt_round_is_caught(replay, tmp_path):
    bad = copy.deepcopy(replay)
    started = next(e for e in bad["events"] if e["type"] == "round_started")
    deck = started["data"]["deck"]
    j = next(i for i in range(1, len(deck)) if deck[i] != deck[0])
    deck[0], deck[j] = deck[j], deck[0]
    out = mismatches(tmp_path, bad)
    assert any(
        f"event {started['seq']} (round_started): round 1's dealt deck is not the deal "
        "draw's output (first at card 0" in line
        for line in out
    ), out


def test_a_card_changed_in_a_deal_draw_is_caught(replay, tmp_path):
    bad = copy.deepcopy(replay)
    _, deal = first(bad, "deal")
    deal["output"][3] = next(c for c in deal["output"] if c != deal["output"][3])
    out = mismatches(tmp_path, bad)
    name = f"draw k={deal['k']} (deal, round 1)"
    assert any(line.startswith(f"{name}: the output differs from the shuffle") for line in out)
    assert any("round 1's dealt deck is not the deal draw's output" in line for line in out)


def test_a_card_an_event_shows_is_tied_to_the_deal(replay, tmp_path):
    bad = copy.deepcopy(replay)
    event = next(e for e in bad["events"] if e["type"] == "round_ended")
    slot = next(c for c in event["data"]["fields"]["0"] if c)
    slot["code"] = "KS" if slot["code"] != "KS" else "QS"
    out = mismatches(tmp_path, bad)
    assert any(
        line.startswith(f"event {event['seq']} (round_ended): shows card {slot['card']} as ")
        for line in out
    ), out


def test_swapped_draws_are_caught(replay, tmp_path):
    bad = copy.deepcopy(replay)
    draws = bad["fairness"]["draws"]
    draws[0], draws[1] = draws[1], draws[0]
    out = mismatches(tmp_path, bad)
    assert any("is number 0 in the list; draws must be k = 0, 1, ..." in line for line in out)
    # Renumbered to hide the swap, each draw is recomputed under the wrong k.
    for index, draw in enumerate(draws):
        draw["k"] = index
    out = mismatches(tmp_path, bad)
    assert any(line.startswith("draw k=0 (") for line in out), out


def test_a_wrong_server_seed_is_caught(replay, tmp_path):
    bad = copy.deepcopy(replay)
    bad["fairness"]["server_seed"] = "00" * 32
    out = mismatches(tmp_path, bad)
    expected = hashlib.sha256(bytes(32)).hexdigest()
    assert out[0] == (
        f"commitment: sha256(server_seed) is {expected}, the game committed to "
        f"{replay['fairness']['commitment']}"
    )
    assert any("the output differs from the shuffle of its input" in line for line in out)


def test_a_commitment_other_than_the_one_seen_is_caught(replay, tmp_path):
    out = mismatches(tmp_path, replay, "--commitment", "ab" * 32)
    assert out == [
        f"commitment: the replay shows {replay['fairness']['commitment']}, you saw {'ab' * 32}"
    ]


def test_a_changed_player_seed_is_caught(replay, tmp_path):
    bad = copy.deepcopy(replay)
    bad["fairness"]["player_seeds"]["1"] = "something else"
    out = mismatches(tmp_path, bad)
    assert any(line.startswith("draw k=0 (") for line in out), out


def test_a_reshuffle_changed_is_caught(replay, tmp_path):
    bad = copy.deepcopy(replay)
    event = next(e for e in bad["events"] if e["type"] == "reshuffled")
    order = event["data"]["order"]
    order.append(order.pop(0))
    out = mismatches(tmp_path, bad)
    assert any(
        line.startswith(f"event {event['seq']} (reshuffled): the new pile is not reshuffle draw")
        for line in out
    ), out


def test_the_checker_reads_stdin_and_refuses_garbage(replay, tmp_path):
    done = subprocess.run(
        [sys.executable, str(CHECKER), "-"],
        input=json.dumps(replay),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "fair\n")
    done = subprocess.run(
        [sys.executable, str(CHECKER), "-"],
        input="not json",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and "cannot read the replay" in done.stderr


def test_the_checker_does_not_import_the_project():
    source = CHECKER.read_text(encoding="utf-8")
    assert "import games" not in source and "django" not in source.lower().replace("django", "", 0)
    assert "from games" not in source and "import django" not in source


def test_an_aborted_game_reveals_its_seed_and_is_fair(make_player, tmp_path):
    ann, bob = make_player("ann"), make_player("bob")
    body = {"ruleset": "cabo", "seats": 2, "options": {"max_timeouts": 1}}
    gid = ann.post("/api/games/", body, format="json").json()["id"]
    bob.post(f"/api/games/{gid}/join/")
    for _ in range(10):
        game = Game.objects.get(pk=gid)
        if game.status != "active":
            break
        bot_services.game_timeout(game_id=gid, turn_key=game.turn_key)
    assert Game.objects.get(pk=gid).status == "aborted"
    shown = ann.game(gid)["fairness"]
    assert shown["server_seed"] == bytes(Game.objects.get(pk=gid).server_seed).hex()
    replay = ann.get(f"/api/games/{gid}/replay/").json()
    assert replay["fairness"]["draws"]
    assert run_checker(tmp_path, replay) == (0, ["fair"])


def test_the_checker_fetches_a_game_url_with_a_token(replay, tmp_path):
    """``fairness_check.py URL --token T`` asks ``URL/replay/`` with ``Authorization: Token T``."""
    asked: list[tuple[str, str | None]] = []
    body = json.dumps(replay).encode()

    server = serve(replay_handler(body, asked))
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/api/games/abc/"
        done = subprocess.run(
            [sys.executable, str(CHECKER), url, "--token", "t0k"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        server.shutdown()
        server.server_close()
    assert (done.returncode, done.stdout) == (0, "fair\n"), done.stderr
    assert asked == [("/api/games/abc/replay/", "Token t0k")]
