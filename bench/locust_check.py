"""After the crowd: nothing lost, and every game's fold equals its projection.

Usage: ``DATABASE_URL=... python bench/locust_check.py RECORD.jsonl``. Reads the
201 answers recorded by bench/locustfile.py and the database:

* lost actions: every event of every 201 a client got is in its game's stream
  with the same seq and type, and no seq was handed out twice (in order, once);
* every game's stream is 1..version with no gap;
* every game's ``Game`` row (the projection: status, version, turn key,
  deadline, result) equals what folding its events gives.

Prints one JSON line and exits 1 on any mismatch.
"""

from __future__ import annotations

import json
import os
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + "k" * 50)  # a throwaway key

import django

django.setup()

from games import rules, store  # noqa: E402
from games.models import Event, Game  # noqa: E402
from games.store import parse_deadline  # noqa: E402


def main(record: str) -> int:
    claimed: dict[str, dict[int, str]] = defaultdict(dict)
    problems: list[str] = []
    answers = 0
    for line in Path(record).read_text().splitlines():
        entry = json.loads(line)
        answers += 1
        for seq, kind in entry["events"]:
            if seq in claimed[entry["game"]]:
                problems.append(f"{entry['game']}: seq {seq} in two 201 answers")
            claimed[entry["game"]][seq] = kind
    games = 0
    for game in Game.objects.all():
        games += 1
        rows = list(Event.objects.filter(game=game).order_by("seq"))
        seqs = [r.seq for r in rows]
        if seqs != list(range(1, len(rows) + 1)) or game.version != len(rows):
            problems.append(f"{game.id}: stream {seqs[:3]}... of {len(rows)}, row v{game.version}")
        stored = {r.seq: r.type for r in rows}
        for seq, kind in claimed.get(str(game.id), {}).items():
            if stored.get(seq) != kind:
                problems.append(f"{game.id}: 201 said seq {seq} {kind}, stream {stored.get(seq)}")
        state = rules.fold(store.to_engine(r) for r in rows)
        folded = (
            state.status,
            state.version,
            state.turn_key or "",
            parse_deadline(state.deadline) if state.status == "active" else None,
            state.result,
        )
        projected = (game.status, game.version, game.turn_key, game.deadline, game.result)
        if folded != projected:
            problems.append(f"{game.id}: fold {folded} != projection {projected}")
    unknown = set(claimed) - {str(g) for g in Game.objects.values_list("id", flat=True)}
    problems += [f"{g}: a 201 for a game that is not stored" for g in unknown]
    summary = {
        "answers_201": answers,
        "events_claimed": sum(len(v) for v in claimed.values()),
        "games": games,
        "finished": Game.objects.filter(status="finished").count(),
        "events_stored": Event.objects.count(),
        "problems": problems[:20],
        "problem_count": len(problems),
    }
    print(json.dumps(summary))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
