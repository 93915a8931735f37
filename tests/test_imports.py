"""The import plan of the project's own packages (games/, pablo/, replays/, play/, tabletop/).

Imports flow one way: ``play, replays -> tabletop, games.services/selectors ->
games.store -> games.rules`` (docs/design.md). Read from the source (``ast``),
without importing anything, this fails on:

* a circle: a module that imports (directly or through others) a module that
  imports it back;
* a circle between rooms: a folder of games/ (``games.services``, ``games.feed``,
  ``games.notifications``...; a module directly in games/ is a room of its own)
  or a top-level package that imports, through any of its modules, a room that
  imports it back -- each room is a layer above the ones it uses;
* an import inside a function, the usual way to hide a circle -- except in
  ``AppConfig.ready``, where Django wants receivers and tasks registered once
  the models are loaded;
* ``games -> pablo``: pablo/ is the HTTP and settings glue around games/;
* ``play <-> replays``: the table and the viewer share what they both draw
  through tabletop/, never through each other; and neither tabletop/ nor
  games/ imports a page;
* ``games.models`` from play/, replays/ or tabletop/: they read through
  ``games.selectors`` and write through ``games.services``;
* a model's write (``X.objects....create/update/delete/...``, ``row.save()``)
  outside the services (``games.services``, ``games.notifications.services``)
  and the stream they write through (``games.store``);
* anything impure in ``games.rules`` or ``games.bots``: they import only each
  other and pure parts of the standard library, and read neither the clock nor
  the global random generator (chance and time are handed in).

Imports under ``if TYPE_CHECKING:`` are for the type checker only and count as
none of these.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = tuple(
    p for p in ("games", "pablo", "replays", "play", "tabletop") if (ROOT / p).is_dir()
)
PURE_PACKAGES = ("games.rules", "games.bots")
#: The standard library a pure module may import: data, types, algorithms -- no I/O,
#: no clock of its own, no threads. (``random`` for the ``random.Random`` a bot is
#: handed; calling the module's global generator is refused below.)
PURE_STDLIB = frozenset(
    {
        "__future__",
        "abc",
        "bisect",
        "collections",
        "copy",
        "dataclasses",
        "datetime",
        "enum",
        "fractions",
        "functools",
        "hashlib",
        "heapq",
        "itertools",
        "math",
        "operator",
        "random",
        "re",
        "statistics",
        "string",
        "types",
        "typing",
    }
)
#: Calls that read the clock or the global random generator.
IMPURE_CALLS = frozenset(
    {
        ("datetime", "now"),
        ("datetime", "utcnow"),
        ("datetime", "today"),
        ("date", "today"),
        ("time", "time"),
        ("time", "monotonic"),
        ("time", "perf_counter"),
    }
)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _absolute(module: str, node: ast.ImportFrom | ast.Import, is_package: bool) -> list[str]:
    """The dotted names an import statement loads (project or not)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        anchor = module.split(".")
        if not is_package:
            anchor = anchor[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    # ``from X import y``: the module X.y if there is one, else X (a name in X)
    return [
        f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
        for alias in node.names
    ]


def _project(module: str, names: list[str]) -> list[str]:
    """The project modules among ``names`` (the longest that each is or lies in)."""
    out = []
    for name in names:
        parts = name.split(".")
        while parts and ".".join(parts) not in MODULES:
            parts.pop()
        target = ".".join(parts)
        # A package is always initialised before its modules: importing it (or a name
        # from it) from inside is no circle.
        if parts and target != module and not module.startswith(target + "."):
            out.append(target)
    return out


@dataclass
class Plan:
    #: module -> project modules it imports at module level (at run time)
    graph: dict[str, set[str]] = field(default_factory=dict)
    #: module -> every dotted name it imports at module level (project or not)
    loads: dict[str, set[str]] = field(default_factory=dict)
    #: "module:line in function(): names" for every import inside a function
    hidden: list[str] = field(default_factory=list)
    #: "module:line: call" for every call of the clock or the global random generator
    calls: dict[str, list[str]] = field(default_factory=dict)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _impure_call(node: ast.Call) -> str | None:
    func = node.func
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value
    name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", None)
    if name == "random" and func.attr != "Random":
        return f"random.{func.attr}()"
    if (name, func.attr) in IMPURE_CALLS:
        return f"{name}.{func.attr}()"
    return None


@cache
def _plan() -> Plan:
    plan = Plan()
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(), str(path))
        is_package = path.name == "__init__.py"
        plan.graph[module] = set()
        plan.loads[module] = set()
        plan.calls[module] = []

        def visit(node: ast.AST, function: str | None, module: str = module,
                  is_package: bool = is_package, path: Path = path) -> None:  # fmt: skip
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _type_checking(child):
                    for other in child.orelse:
                        visit(other, function)
                    continue
                if isinstance(child, ast.Import | ast.ImportFrom):
                    names = _absolute(module, child, is_package)
                    if function is None:
                        plan.loads[module].update(names)
                        plan.graph[module].update(_project(module, names))
                    elif not (path.name == "apps.py" and function == "ready"):
                        plan.hidden.append(f"{module}:{child.lineno} in {function}(): {names}")
                if isinstance(child, ast.Call):
                    call = _impure_call(child)
                    if call is not None:
                        plan.calls[module].append(f"{module}:{child.lineno}: {call}")
                inner = function
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    inner = child.name
                visit(child, inner)

        visit(tree, None)
    return plan


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in graph:
        if v not in index:
            strong(v)
    return out


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _edges(source: str, target: str) -> list[str]:
    """``a -> b`` for every project import from package ``source`` into package ``target``."""
    graph = _plan().graph
    return sorted(
        f"{a} -> {b}"
        for a, targets in graph.items()
        if _in(a, source)
        for b in targets
        if _in(b, target)
    )


# --------------------------------------------------------------------------- the checker itself


def test_the_plan_reads_the_project():
    plan = _plan()
    for package in ("games", "pablo", "replays", "play"):
        assert package in PACKAGES and package in MODULES
    assert "games.rules" in plan.graph["games.selectors.games"]
    assert "games.rules.lifecycle" in plan.graph["games.rules"]
    assert "games.rules.registry" in plan.graph["games.rules.family"]


def test_the_checker_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_checker_sees_through_type_checking_and_finds_impure_calls():
    source = """
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from games.models import Game
else:
    import os
def f():
    return datetime.now(), random.choice([1]), random.Random(3), time.time()
"""
    tree = ast.parse(source)
    guarded = next(n for n in tree.body if isinstance(n, ast.If))
    assert _type_checking(guarded)
    calls = [_impure_call(n) for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert sorted(c for c in calls if c) == ["datetime.now()", "random.choice()", "time.time()"]


# --------------------------------------------------------------------------- the plan


def test_no_import_circle():
    assert _cycles(_plan().graph) == []


def room(module: str) -> str:
    """The room a module lies in: ``games.<child>`` in games/, else its top-level package."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "games" and len(parts) > 1 else parts[0]


def _rooms() -> dict[str, set[str]]:
    """room -> the other rooms its modules import."""
    graph: dict[str, set[str]] = {}
    for a, targets in _plan().graph.items():
        graph.setdefault(room(a), set()).update(room(b) for b in targets if room(b) != room(a))
    return graph


def _room_loops() -> list[str]:
    """Every import between two rooms of one circle (``a -> b``), for the message."""
    loops = _cycles(_rooms())
    return sorted(
        f"{a} -> {b}"
        for a, targets in _plan().graph.items()
        for b in targets
        for loop in loops
        if room(a) in loop and room(b) in loop and room(a) != room(b)
    )


def test_no_import_circle_between_rooms():
    assert _room_loops() == []


def test_the_checker_finds_a_circle_between_rooms():
    assert room("games.services.games") == "games.services"
    assert room("games.outbox") == "games.outbox"
    assert room("play.views") == "play"
    assert _cycles({"games.a": {"games.b"}, "games.b": {"games.a"}}) == [["games.a", "games.b"]]


def test_no_function_level_import():
    assert _plan().hidden == []


def test_games_never_imports_pablo():
    assert _edges("games", "pablo") == []


def test_the_pages_never_import_pablo():
    """pablo/ is glue that nothing imports but Django: the pages' error table is
    ``games.api.exceptions`` (pablo.exceptions only re-wires it into the settings)."""
    found = [e for p in ("play", "replays", "tabletop") for e in _edges(p, "pablo")]
    assert found == []


def test_play_and_replays_never_import_each_other():
    assert _edges("play", "replays") + _edges("replays", "play") == []


def test_the_layers_below_never_import_the_pages():
    """tabletop/ is what the pages share and games/ what they use: neither imports a page."""
    below = [("tabletop", page) for page in ("play", "replays")]
    below += [("games", page) for page in ("play", "replays", "tabletop")]
    assert [edge for source, target in below for edge in _edges(source, target)] == []


def test_the_pages_never_import_the_models():
    found = [
        edge
        for package in ("play", "replays", "tabletop")
        for edge in _edges(package, "games.models")
    ]
    assert found == []


def test_the_rules_and_the_bots_are_pure():
    plan = _plan()
    impure = []
    for module, names in plan.loads.items():
        if not any(_in(module, p) for p in PURE_PACKAGES):
            continue
        for name in names:
            pure = name.split(".")[0] in PURE_STDLIB or any(_in(name, p) for p in PURE_PACKAGES)
            # ``from games import rules``: the package games.rules itself
            if name == "games" or not pure:
                impure.append(f"{module} imports {name}")
        impure += plan.calls[module]
    assert impure == []


#: The writes of a model: a manager's or queryset's (``X.objects....create(...)``) and
#: an instance's (``row.save()``, ``user.set_password()``).
QUERYSET_WRITES = frozenset(
    {"create", "update", "delete", "bulk_create", "bulk_update", "get_or_create",
     "update_or_create", "create_user", "create_superuser"}
)  # fmt: skip
INSTANCE_WRITES = frozenset({"save", "set_password", "set_unusable_password"})
#: Where writes are: the services (and the notification room's and the outbox's own,
#: docs/design.md "One writer"), the stream they write through, the followers'
#: positions, the migrations.
WRITERS = (
    "games.services",
    "games.notifications.services",
    "games.outbox.services",
    "games.ratings.services",
    "games.store",
    "games.followers",
)


def _on_a_manager(node: ast.expr) -> bool:
    """Whether ``node`` (a call's receiver) goes through ``.objects`` (a model's manager)."""
    while True:
        if isinstance(node, ast.Attribute):
            if node.attr == "objects":
                return True
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            return False


def _writes(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        name, receiver = node.func.attr, node.func.value
        if (name in QUERYSET_WRITES and _on_a_manager(receiver)) or (
            name in INSTANCE_WRITES and ast.unparse(receiver) not in MODULE_NAMES
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node.func)}(...)")
    return found


#: ``snapshots.save(...)`` and the like are module functions, not an instance's save.
MODULE_NAMES = frozenset({"snapshots"})


def test_the_only_writes_are_in_services():
    """Every write of a model is a service (docs/design.md "One writer"): nothing outside
    the services (and ``games.store``, which only services call) creates, saves,
    updates or deletes a row -- not a view, a worker, a management command."""
    found = []
    for module, path in sorted(MODULES.items()):
        if any(_in(module, w) for w in WRITERS) or ".migrations" in module:
            continue
        found += [f"{module} {w}" for w in _writes(ast.parse(path.read_text()))]
    assert found == []


def test_the_write_checker_finds_writes():
    source = """
Game.objects.filter(pk=1).update(status="x")
OutboxMessage.objects.create(task="t")
TurnReminder.objects.filter(pk=1).delete()
row.save(update_fields=["a"])
user.set_unusable_password()
digest.update(b"x"); ctx.update(a=1); snapshots.save(1, 2)
"""
    assert [w.split(": ")[1] for w in _writes(ast.parse(source))] == [
        "Game.objects.filter(pk=1).update(...)",
        "OutboxMessage.objects.create(...)",
        "TurnReminder.objects.filter(pk=1).delete(...)",
        "row.save(...)",
        "user.set_unusable_password(...)",
    ]


IMPURE_ROOTS = frozenset({"django", "rest_framework", "celery", "kombu", "redis", "psycopg"})


def _closure(names: set[str]) -> set[str]:
    """Every dotted name loaded, at module level, by importing ``names`` (transitively)."""
    plan = _plan()
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for module in _project("", [name]):
            # a package's __init__ runs first
            parts = module.split(".")
            for i in range(1, len(parts) + 1):
                todo.extend(plan.loads.get(".".join(parts[:i]), ()))
    return seen


def test_the_rules_tests_need_no_django():
    """tests/rules run without a database or settings: nothing they import loads Django."""
    loaded: set[str] = set()
    for path in (ROOT / "tests" / "rules").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                if isinstance(node, ast.ImportFrom) and node.level:
                    continue
                names = _absolute("tests.rules.x", node, False)
                loaded.update(n for n in names if not n.startswith("tests."))
    found = sorted(
        name
        for name in _closure(loaded)
        if name.split(".")[0] in IMPURE_ROOTS or _in(name, "pablo")
    )
    assert found == []
