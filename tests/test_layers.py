"""The layers' promises: ``core`` is standard library only and never touches
randomness, clocks or I/O; ``net`` never imports the terminal UI."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN_IN_CORE = {
    "random", "secrets", "time", "datetime", "socket", "asyncio", "select", "selectors",
    "ssl", "os", "io", "pathlib", "shutil", "tempfile", "subprocess", "threading",
    "multiprocessing", "urllib", "http", "uuid", "glob", "fileinput", "signal",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def test_core_imports_only_the_standard_library_and_no_chance_clock_or_io():
    files = sorted((ROOT / "core").rglob("*.py"))
    assert files
    for f in files:
        for mod in imports_of(f):
            assert mod in sys.stdlib_module_names or mod == "ankh", f"{f.name} imports {mod}"
            assert mod not in FORBIDDEN_IN_CORE, f"{f.name} imports {mod}"
            if mod == "ankh":
                src = f.read_text()
                assert "ankh.net" not in src and "ankh.tui" not in src, f"{f.name} reaches up a layer"
        tree = ast.parse(f.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{f.name} calls {node.func.id}()"


def test_net_never_imports_textual():
    for f in sorted((ROOT / "net").rglob("*.py")):
        mods = imports_of(f)
        assert "textual" not in mods and "rich" not in mods, f"{f.name} imports the UI toolkit"
        assert "ankh" not in mods or "ankh.tui" not in f.read_text(), f"{f.name} imports ankh.tui"


def test_importing_core_loads_nothing_outside_it():
    code = (
        "import sys; import ankh.core.morpork.setup, ankh.core.morpork.views, ankh.core.morpork.record, "
        "ankh.core.morpork.notation, ankh.core.morpork.bots.random_bot; "
        "print(' '.join(sorted(m for m in sys.modules)))"
    )
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    for bad in ("textual", "rich", "msgpack", "nacl", "cryptography", "zeroconf", "random",
                "socket", "asyncio", "threading", "ankh.net", "ankh.tui"):
        assert bad not in loaded, f"importing ankh.core loaded {bad}"


NETWORK_MODULES = {"asyncio", "socket", "select", "selectors", "ssl", "zeroconf", "ifaddr"}


def test_only_net_io_touches_the_network():
    """The protocol stays sans-I/O: sockets, asyncio and zeroconf live in ``net/io/`` alone."""
    io_dir = ROOT / "net" / "io"
    assert (io_dir / "transport.py").exists() and (io_dir / "discovery.py").exists()
    for f in sorted((ROOT / "net").rglob("*.py")):
        if io_dir in f.parents:
            continue
        bad = imports_of(f) & NETWORK_MODULES
        assert not bad, f"{f.relative_to(ROOT)} imports {', '.join(sorted(bad))}: network code belongs in net/io/"


def test_only_the_simulator_computes_in_a_group_that_hides_nothing():
    """``group.simulated()`` swaps the curve for the simulator's quick group, in which a
    discrete logarithm is a division: no code of a real table may reach it."""
    allowed = {ROOT / "net" / "io" / "sim.py"}
    reached = sorted(str(f.relative_to(ROOT)) for top in ("core", "net", "tui") for f in (ROOT / top).rglob("*.py")
                     if f not in allowed and re.search(r"\bsimulated\(|SimulatedGroup", f.read_text(encoding="utf-8"))
                     and f.name != "group.py")
    assert not reached, f"{reached} reach the simulator's group"
    sim = (ROOT / "net" / "io" / "sim.py").read_text(encoding="utf-8")
    assert sim.count("group.simulated()") == 1 and "group.simulated() if quick else" in sim


# --- two games, one platform ---------------------------------------------------------------

def _games() -> list[str]:
    return sorted(p.name for p in (ROOT / "core").iterdir() if p.is_dir() and (p / "__init__.py").exists())


def _absolute_imports(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved against its package."""
    rel = path.relative_to(ROOT).with_suffix("")
    top = {"core": "ankh.core", "net": "ankh.net", "tui": "ankh.tui"}[rel.parts[0]]
    package = [top, *rel.parts[1:-1]] if rel.name != "__init__" else [top, *rel.parts[1:-1]]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
                out |= {target} | {f"{target}.{a.name}" for a in node.names}
            else:
                out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return out


def _game_modules_in(imports: set[str]) -> set[str]:
    games = _games()
    return {m for m in imports
            if any(m == f"ankh.core.{g}" or m.startswith(f"ankh.core.{g}.") or m == f"ankh.tui.games.{g}"
                   or m.startswith(f"ankh.tui.games.{g}.") for g in games)}


def test_there_are_games_and_a_contract():
    assert "morpork" in _games()
    assert (ROOT / "core" / "game.py").exists()


def test_the_network_layer_knows_no_game():
    """net/ drives every game through ankh.core.game: it imports no game's package."""
    for f in sorted((ROOT / "net").rglob("*.py")):
        bad = _game_modules_in(_absolute_imports(f))
        assert not bad, f"{f.relative_to(ROOT)} imports {', '.join(sorted(bad))}"


def test_the_interface_shell_knows_no_game():
    """The shell (every tui module outside tui/games/) reaches a game only through
    ankh.core.game and ankh.tui.games' registry."""
    games_dir = ROOT / "tui" / "games"
    for f in sorted((ROOT / "tui").rglob("*.py")):
        if games_dir in f.parents:
            continue
        bad = _game_modules_in(_absolute_imports(f))
        assert not bad, f"{f.relative_to(ROOT)} imports {', '.join(sorted(bad))}"


def test_a_game_imports_no_other_game():
    """Each game's rules (core/<game>/) and screens (tui/games/<game>/) are peers:
    neither imports another game's."""
    for g in _games():
        own = {f"ankh.core.{g}", f"ankh.tui.games.{g}"}
        folders = [ROOT / "core" / g, ROOT / "tui" / "games" / g]
        for folder in folders:
            for f in sorted(folder.rglob("*.py")) if folder.exists() else []:
                others = {m for m in _game_modules_in(_absolute_imports(f))
                          if not any(m == o or m.startswith(o + ".") for o in own)}
                assert not others, f"{f.relative_to(ROOT)} imports {', '.join(sorted(others))}"


def test_the_tests_read_nothing_outside_the_repository():
    """A clone of the repository alone passes its tests: no test reaches for the
    project's reference folder beside it (its data is copied into tests/fixtures)."""
    for f in sorted((ROOT / "tests").rglob("*.py")):
        src = f.read_text()
        word = "sha" + "red"  # spelt apart, so that this test does not find itself
        for needle in (f'"{word}"', f"'{word}'", f"{word}/reference", f"../{word}"):
            assert needle not in src, f"{f.relative_to(ROOT)} reads outside the repository ({needle})"
