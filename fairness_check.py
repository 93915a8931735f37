#!/usr/bin/env python3
"""Check that a finished Pablo game was dealt fairly -- standard library only.

Usage::

    python3 fairness_check.py replay.json [--commitment HEX]
    python3 fairness_check.py https://host/api/games/<id>/ --token TOKEN [--commitment HEX]
    curl -s ... | python3 fairness_check.py -

It reads the game's replay (``GET /api/games/<id>/replay/``: a file, ``-`` for
standard input, or a game URL plus an API token) and prints ``fair`` (exit
code 0), or one line per thing that does not match (exit code 1); a replay it
cannot read at all gives exit code 2. ``--commitment`` is the commitment you
saw when the game began: without it the checker can only compare the server
seed with the commitment the replay itself shows.

What it checks (docs/fairness.md explains the scheme):

1. ``sha256(server_seed)`` is the commitment.
2. Every draw, recomputed from the server seed, the players' seeds and its
   number ``k``: a deal or reshuffle is the Fisher-Yates shuffle of its input
   (which must be sorted by UTF-8 bytes; a deal's input must be the ruleset's
   whole deck for the game's options); a start seat is the uniform draw.
3. Every draw against the events the game recorded: each round's dealt deck
   is the deal's output, each reshuffled pile is the reshuffle's output, each
   randomly drawn start seat is the start seat drawn, and every card an event
   shows (a discard, a draw, a swap, the cards revealed at a round's end, a
   Skip-Bo stock top, ...) is the card the deal put at that place.

This file deliberately does not import the Pablo project: copy it anywhere.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

VERSION = "pablo-fair/v1"
#: Bounds a replay's header must keep (the rulesets' own are far below): a hostile replay
#: naming 10**12 seats or 10**10 jokers is refused, not built in memory.
MAX_SEATS = 64
MAX_COPIES = 16
#: The largest replay read from a game URL (a long game's replay is a few megabytes).
MAX_ANSWER = 64 * 1024 * 1024

# --------------------------------------------------------------------------- the generator


def draw_stream(server_seed: bytes, seeds: list[str], k: int) -> Iterator[int]:
    """HMAC-SHA256(server_seed, M + ":" + counter) for counter = 0, 1, ...; bytes in a row."""
    m = (VERSION + "\n" + "\n".join(seeds) + "\n" + str(k)).encode("utf-8")
    counter = 0
    while True:
        yield from hmac.new(server_seed, m + b":" + str(counter).encode(), "sha256").digest()
        counter += 1


def below(stream: Iterator[int], n: int) -> int:
    """A uniform integer below n: 4 bytes big-endian, rejecting x >= n * (2**32 // n)."""
    limit = n * (2**32 // n)
    while True:
        x = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if x < limit:
            return x % n


def fisher_yates(stream: Iterator[int], items: list[Any]) -> list[Any]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def utf8_sorted(codes: list[str]) -> list[str]:
    return sorted(codes, key=lambda c: c.encode("utf-8"))


# --------------------------------------------------------------------------- the decks

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def french(decks: int = 1, jokers: int = 0) -> list[str]:
    return [r + s for r in RANKS for s in "SHDC"] * decks + ["JK"] * jokers


def full_deck(ruleset: str, options: dict[str, Any]) -> list[str] | None:
    """One round's whole deck (RULES.md), or None for a ruleset this checker does not know."""
    if ruleset == "pablo":
        return french(jokers=options.get("jokers", 1))
    if ruleset == "pablo-50":
        return french()
    if ruleset == "tamalou":
        return french(decks=options.get("decks", 1))
    if ruleset == "cabo":
        return ["0", "0"] + [str(v) for v in range(1, 13) for _ in range(4)] + ["13", "13"]
    if ruleset == "skipbo":
        return [str(v) for v in range(1, 13) for _ in range(12)] + ["SB"] * 18
    return None


# --------------------------------------------------------------------------- the check


def check(replay: dict[str, Any], commitment: str | None = None) -> list[str]:
    """Every mismatch found in ``replay`` (an empty list: fair)."""
    problems: list[str] = []
    game = replay.get("game") or {}
    fair = replay.get("fairness") or game.get("fairness")
    if not fair:
        return ["no fairness record: a game with stacked decks, or not a replay"]
    events = replay.get("events") or []
    header = next((e["data"] for e in events if e.get("type") == "game_created"), None)
    if header is None:
        return ["the replay has no game_created event"]
    seats = header.get("seats")
    if not _small_int(seats, 1, MAX_SEATS):
        return [f"game_created: seats is {_short(seats)}, not a whole number from 1 to {MAX_SEATS}"]
    ruleset = str(header["ruleset"])
    options = dict(header.get("options") or {})
    for option in ("jokers", "decks"):
        if option in options and not _small_int(options[option], 0, MAX_COPIES):
            return [
                f"game_created: options.{option} is {_short(options[option])}, "
                f"not a whole number from 0 to {MAX_COPIES}"
            ]

    # 1. the commitment
    shown = str(fair.get("commitment") or "")
    if commitment is not None and commitment.strip().lower() != shown.lower():
        problems.append(f"commitment: the replay shows {shown}, you saw {commitment.strip()}")
    try:
        server_seed = bytes.fromhex(str(fair.get("server_seed") or ""))
    except ValueError:
        server_seed = b""
    if len(server_seed) != 32:
        return [*problems, "server_seed: not revealed as 32 bytes of hex"]
    if hashlib.sha256(server_seed).hexdigest() != shown.lower():
        problems.append(
            f"commitment: sha256(server_seed) is {hashlib.sha256(server_seed).hexdigest()}, "
            f"the game committed to {shown}"
        )
    given = fair.get("player_seeds") or {}
    seeds = [str(given.get(str(s), "")) for s in range(seats)]

    # 2. every draw recomputed from its input
    draws = list(fair.get("draws") or [])
    deck = full_deck(ruleset, options)
    for index, d in enumerate(draws):
        k, kind, inp, out = d.get("k"), d.get("kind"), d.get("input"), d.get("output")
        name = f"draw k={k} ({kind}, round {d.get('round')})"
        if k != index:
            problems.append(f"{name}: is number {index} in the list; draws must be k = 0, 1, ...")
        stream = draw_stream(server_seed, seeds, int(k) if isinstance(k, int) else index)
        if kind in ("deal", "reshuffle"):
            if not isinstance(inp, list) or not isinstance(out, list):
                problems.append(f"{name}: input and output must be lists of card codes")
                continue
            if inp != utf8_sorted(inp):
                problems.append(f"{name}: the input is not sorted by UTF-8 bytes")
            if kind == "deal" and deck is not None and inp != utf8_sorted(deck):
                problems.append(f"{name}: the input is not the whole {ruleset} deck")
            expected = fisher_yates(stream, inp)
            if out != expected:
                at = _first_difference(out, expected)
                problems.append(
                    f"{name}: the output differs from the shuffle of its input "
                    f"(first at position {at}: {_at(out, at)!r}, expected {_at(expected, at)!r})"
                )
        elif kind == "start_seat":
            candidates = list(range(seats)) if inp is None else inp
            if not isinstance(candidates, list) or len(candidates) < 2:
                problems.append(f"{name}: the input must be null or at least two seats")
                continue
            expected_seat = candidates[below(stream, len(candidates))]
            if out != expected_seat:
                problems.append(f"{name}: drew seat {out}, the generator gives {expected_seat}")
        else:
            problems.append(f"{name}: unknown kind")

    # 3. the draws against the events
    deals = {d.get("round"): d for d in draws if d.get("kind") == "deal"}
    starts = {d.get("round"): d for d in draws if d.get("kind") == "start_seat"}
    reshuffles = [d for d in draws if d.get("kind") == "reshuffle"]
    if len(deals) != sum(1 for d in draws if d.get("kind") == "deal"):
        problems.append("draws: two deals for one round")
    used_deals: set[Any] = set()
    used_starts: set[Any] = set()
    next_reshuffle = 0
    current: list[str] = []
    round_no = None
    for event in events:
        kind, data, seq = event.get("type"), event.get("data") or {}, event.get("seq")
        where = f"event {seq} ({kind})"
        if kind == "round_started":
            round_no = data.get("round")
            current = list(data.get("deck") or [])
            deal = deals.get(round_no)
            if deal is None:
                problems.append(f"{where}: round {round_no} was dealt without a deal draw")
            else:
                used_deals.add(round_no)
                output = deal.get("output") or []
                if output != current:
                    at = _first_difference(current, output)
                    problems.append(
                        f"{where}: round {round_no}'s dealt deck is not the deal draw's output "
                        f"(first at card {at}: the events show {_at(current, at)!r}, "
                        f"the draw gives {_at(output, at)!r})"
                    )
            drawn = data.get("start_drawn", round_no == 1 and options.get("start_seat") is None)
            start = starts.get(round_no)
            if drawn and start is None:
                problems.append(f"{where}: a random start seat without a start_seat draw")
            elif start is not None:
                used_starts.add(round_no)
                if not drawn:
                    problems.append(f"{where}: a start_seat draw for a start seat not drawn")
                elif start.get("output") != data.get("start_seat"):
                    problems.append(
                        f"{where}: start seat {data.get('start_seat')}, "
                        f"the draw gave {start.get('output')}"
                    )
        elif kind in ("reshuffled", "draw_pile_reshuffled"):
            order = data.get("order") or []
            codes = [_at(current, c) for c in order]
            if next_reshuffle >= len(reshuffles):
                problems.append(f"{where}: a reshuffle without a reshuffle draw")
            else:
                draw = reshuffles[next_reshuffle]
                if draw.get("output") != codes:
                    problems.append(
                        f"{where}: the new pile is not reshuffle draw k={draw.get('k')}'s output"
                    )
                if draw.get("round") != round_no:
                    problems.append(
                        f"{where}: reshuffle draw k={draw.get('k')} is for round "
                        f"{draw.get('round')}, the events are in round {round_no}"
                    )
            next_reshuffle += 1
        for card, code in _shown_cards(data):
            if not 0 <= card < len(current) or current[card] != code:
                problems.append(
                    f"{where}: shows card {card} as {code!r}, the deal put "
                    f"{_at(current, card)!r} there"
                )
    for r in sorted(set(deals) - used_deals, key=str):
        problems.append(f"draw k={deals[r].get('k')} (deal, round {r}): no round_started uses it")
    for r in sorted(set(starts) - used_starts, key=str):
        problems.append(
            f"draw k={starts[r].get('k')} (start_seat, round {r}): no round_started uses it"
        )
    for d in reshuffles[next_reshuffle:]:
        problems.append(f"draw k={d.get('k')} (reshuffle): no reshuffle event uses it")
    return problems


def _small_int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _short(value: Any) -> str:
    """A value of the replay as a line may quote it (at most 60 characters)."""
    text = (
        json.dumps(value) if isinstance(value, str | int | float | bool | None) else "not a number"
    )
    return text if len(text) <= 60 else text[:57] + "..."


def _first_difference(a: list[Any], b: list[Any]) -> int:
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


def _at(items: list[Any], index: Any) -> Any:
    """``items[index]``, or None where there is no such item."""
    ok = isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(items)
    return items[index] if ok else None


def _shown_cards(data: Any) -> Iterator[tuple[int, str]]:
    """Every ``{"card": id, "code": code}`` pair anywhere in an event's data."""
    if isinstance(data, dict):
        card, code = data.get("card"), data.get("code")
        if isinstance(card, int) and not isinstance(card, bool) and isinstance(code, str):
            yield card, code
        for value in data.values():
            yield from _shown_cards(value)
    elif isinstance(data, list):
        for value in data:
            yield from _shown_cards(value)


# --------------------------------------------------------------------------- the command


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urllib.parse.urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    return parts.scheme.lower(), (parts.hostname or "").lower(), port


class _TokenStaysHome(urllib.request.HTTPRedirectHandler):
    """Follow a redirect, but send the token only to the site it was given for.

    urllib copies every header of a request into its redirect: another host, another
    port or ``http://`` after ``https://`` would receive the player's API token.
    """

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and _origin(new.full_url) != _origin(req.full_url):
            new.remove_header("Authorization")
        return new


def load(source: str, token: str | None) -> dict[str, Any]:
    if source.startswith(("http://", "https://")):
        url = source.rstrip("/")
        if not url.endswith("/replay"):
            url += "/replay"
        request = urllib.request.Request(url + "/", headers={"Accept": "application/json"})
        if token:
            request.add_header("Authorization", f"Token {token}")
        opener = urllib.request.build_opener(_TokenStaysHome)
        with opener.open(request, timeout=30) as answer:
            body = answer.read(MAX_ANSWER + 1)
        if len(body) > MAX_ANSWER:
            raise ValueError(f"the answer is longer than {MAX_ANSWER // 2**20} MB")
        return json.loads(body)
    if source == "-":
        return json.load(sys.stdin)
    with open(source, encoding="utf-8") as handle:
        return json.load(handle)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("replay", help="replay JSON file, - for stdin, or the game's URL")
    parser.add_argument("--token", help="API token (with a URL)")
    parser.add_argument("--commitment", help="the commitment you saw when the game began")
    args = parser.parse_args(argv)
    try:
        replay = load(args.replay, args.token)
    except (OSError, ValueError, RecursionError, MemoryError) as error:
        # (RecursionError: JSON nested deeper than the parser goes)
        print(f"cannot read the replay: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    if not isinstance(replay, dict):
        print("cannot read the replay: not a JSON object", file=sys.stderr)
        return 2
    try:
        problems = check(replay, args.commitment)
    except (
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        ArithmeticError,  # (an infinite or huge number where a count belongs)
        RecursionError,  # (an event's data nested near the parser's limit)
        MemoryError,
    ) as error:
        problems = [f"malformed replay: {type(error).__name__}: {str(error)[:200]}"]
    if not problems:
        print("fair")
        return 0
    for problem in problems:
        print(problem)
    return 1


if __name__ == "__main__":
    sys.exit(main())
