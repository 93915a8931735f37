"""The import plan of the project's own modules (games/, pablo/, replays/).

* No circle: no module imports (directly or through others) a module that
  imports it back.
* No import inside a function of a project module, the usual way to hide a
  circle -- except in ``AppConfig.ready``, where Django wants receivers and
  tasks registered once the models are loaded.

Read from the source (``ast``), without importing anything.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "pablo", "replays")


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


def _resolve(module: str, node: ast.ImportFrom | ast.Import, is_package: bool) -> list[str]:
    """The project modules an import statement loads."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            anchor = module.split(".")
            if not is_package:
                anchor = anchor[:-1]
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        # ``from X import y``: the module X.y if there is one, else X (a name in X)
        names = [
            f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
            for alias in node.names
        ]
    out = []
    for name in names:
        # the longest project module that the name is or lies in
        parts = name.split(".")
        while parts and ".".join(parts) not in MODULES:
            parts.pop()
        target = ".".join(parts)
        # A package is always initialised before its modules: importing it (or a name
        # from it) from inside is no circle.
        if parts and not module.startswith(target + "."):
            out.append(target)
    return out


def _imports() -> tuple[dict[str, set[str]], list[str]]:
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    hidden: list[str] = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(), str(path))
        is_package = path.name == "__init__.py"

        def visit(node: ast.AST, function: str | None, module: str = module,
                  is_package: bool = is_package, path: Path = path) -> None:  # fmt: skip
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.Import | ast.ImportFrom):
                    targets = [t for t in _resolve(module, child, is_package) if t != module]
                    if function is None:
                        graph[module].update(targets)
                    elif targets and not (path.name == "apps.py" and function == "ready"):
                        hidden.append(f"{module}:{child.lineno} in {function}(): {targets}")
                inner = function
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    inner = child.name
                visit(child, inner)

        visit(tree, None)
    return graph, hidden


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
        for w in graph[v]:
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


def test_the_plan_reads_the_project():
    graph, _ = _imports()
    assert "games.store" in graph["games.services"]
    assert "games.store" in graph["games.selectors"]


def test_no_import_circle():
    graph, _ = _imports()
    assert _cycles(graph) == []


def test_no_function_level_import_of_a_project_module():
    _, hidden = _imports()
    assert hidden == []


def test_the_checker_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
