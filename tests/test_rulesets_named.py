"""No ruleset is named outside games/rules/ but where this file says (docs/design.md).

Read from the source (``ast``): a ruleset's id as a string, one of its own event
types as a string, an import of a ruleset's module (``games.rules.family``,
``games.rules.skipbo``) or a ``.preset`` anywhere in games/, pablo/, play/,
replays/ and tabletop/ outside games/rules/ is a place that names a ruleset
instead of asking it through its protocol. The exceptions are listed below,
each with its reason; a new one fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

from games import rules

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("games", "pablo", "play", "replays", "tabletop")

#: path -> why it may name rulesets.
ALLOWED = {
    # a ruleset's own bots (docs/design.md "Adding a ruleset", step 2)
    "games/bots/family.py": "the Pablo family's basic bot, tuned per preset",
    "games/bots/family_search.py": "the Pablo family's expert kit",
    "games/bots/skipbo.py": "Skip-Bo's basic bot and expert kit",
    # demo data
    "replays/management/commands/demo.py": "the demo games, one per ruleset",
    # the one table from board kinds to the UI
    "tabletop/layouts.py": "the boards and card kinds the pages can draw, and how",
}


def own_names() -> tuple[set[str], set[str]]:
    """The shipped rulesets' ids, and the event types that are some ruleset's own."""
    ids = {r.id for r in rules.rulesets()}
    events = {t for r in rules.rulesets() for t in r.event_types} - set(rules.ENGINE_EVENTS)
    return ids, events


def findings(path: Path, ids: set[str], events: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    keys = {id(k) for node in ast.walk(tree) if isinstance(node, ast.Dict) for k in node.keys}
    out = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings:
                continue  # prose
            if node.value == "pablo" and path.is_relative_to(ROOT / "pablo"):
                continue  # the project's own app (pablo/), not the ruleset
            if node.value in ids:
                out.append(f"{where} names the ruleset {node.value!r}")
            elif node.value in events and id(node) not in keys:  # not a page's {"called": ..}
                out.append(f"{where} names the ruleset event {node.value!r}")
        elif isinstance(node, ast.Attribute) and node.attr == "preset":
            out.append(f"{where} reads a ruleset's .preset")
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for module in modules:
                if module.startswith(("games.rules.family", "games.rules.skipbo")):
                    out.append(f"{where} imports the ruleset module {module}")
                    break
    return out


def test_no_ruleset_is_named_outside_the_rules():
    ids, events = own_names()
    assert {"skipbo", "cabo", "card_played", "drawn"} <= ids | events  # the scan sees them
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            skipped = ("games/rules/", "games/migrations/", "pablo/migrations/")
            if relative.startswith(skipped) or relative in ALLOWED:
                continue
            found += findings(path, ids, events)
    assert not found, "\n".join(found)


def test_every_exception_is_still_needed():
    """An allowed file that names no ruleset any more leaves the list."""
    ids, events = own_names()
    idle = [name for name in ALLOWED if not findings(ROOT / name, ids, events)]
    assert not idle, idle
