"""The rules core reads top-down: its modules import each other one way only
(board primitives at the bottom, card texts, events and City Area abilities
above them, the turn and the setup on top), every import is at the top of
its module, and no module is too long to read."""
from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core"
MAX_LINES = 500


def module_name(path: Path) -> str:
    parts = list(path.relative_to(CORE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["ankh", "core", *parts])


def core_files() -> list[Path]:
    files = sorted(CORE.rglob("*.py"))
    assert len(files) > 10
    return files


def imported_modules(path: Path) -> set[str]:
    """The ``ankh.core`` modules ``path`` imports (relative imports resolved)."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module
            names = [f"{target}.{a.name}" for a in node.names]
            out |= {n for n in names if n in ALL_MODULES} or {target}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return {m for m in out if m in ALL_MODULES and m != me}


ALL_MODULES = {module_name(f) for f in core_files()}


def import_graph() -> dict[str, set[str]]:
    return {module_name(f): imported_modules(f) for f in core_files()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_core_modules_import_each_other_one_way_only():
    graph = import_graph()
    assert graph["ankh.core.morpork.setup"] >= {"ankh.core.morpork.turn"}
    assert "ankh.core.morpork.turn" not in graph["ankh.core.morpork.board"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_layers_stand_in_order():
    """Primitives know nothing of what is built on them."""
    graph = import_graph()
    above = {
        "ankh.core.morpork.board": {"ankh.core.morpork.windows", "ankh.core.morpork.effects_hands", "ankh.core.morpork.events",
                            "ankh.core.morpork.abilities", "ankh.core.morpork.turn", "ankh.core.morpork.setup"},
        "ankh.core.morpork.windows": {"ankh.core.morpork.effects_hands", "ankh.core.morpork.events", "ankh.core.morpork.turn"},
        "ankh.core.morpork.events": {"ankh.core.morpork.turn", "ankh.core.morpork.setup"},
        "ankh.core.morpork.abilities": {"ankh.core.morpork.turn"},
        "ankh.core.morpork.effects_board": {"ankh.core.morpork.turn"},
    }
    reach: dict[str, set[str]] = {}

    def reachable(m: str) -> set[str]:
        if m not in reach:
            reach[m] = set()
            for n in graph[m]:
                reach[m] |= {n} | reachable(n)
        return reach[m]

    for low, highs in above.items():
        assert not reachable(low) & highs, f"{low} reaches up to {reachable(low) & highs}"


def test_no_import_inside_a_function_or_class():
    for f in core_files():
        tree = ast.parse(f.read_text())
        top = set(map(id, tree.body))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top:
                raise AssertionError(f"{f.relative_to(CORE)}:{node.lineno} imports inside a block")


def test_no_core_module_is_over_500_lines():
    for f in core_files():
        n = len(f.read_text().splitlines())
        assert n <= MAX_LINES, f"{f.relative_to(CORE)} has {n} lines"
