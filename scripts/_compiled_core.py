"""Builds the compiled rules core into build/compiled-core/ (again only when
its sources changed) and prints that folder, to put on PYTHONPATH ahead of an
editable checkout (as scripts/test and scripts/bench/playouts do).

It is built as a player's install builds it: a wheel (scripts/backend/ankh_build.py),
of which only ankh.core and its shared library are unpacked.  Exits 1, saying
why, if the wheel holds no compiled core (no C compiler, ANKH_PURE set, mypyc
or the compiler failed)."""
import shutil
import subprocess
import sys
import zipfile

from _digest import ROOT, digest

OUT = ROOT / "build" / "compiled-core"
WHEELS = ROOT / "build" / "compiled-wheel"


def build() -> None:
    shutil.rmtree(OUT, ignore_errors=True)
    shutil.rmtree(WHEELS, ignore_errors=True)
    print("compiling the rules core with mypyc (about a minute)", file=sys.stderr, flush=True)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
         "--no-deps", "-v", "-w", str(WHEELS), str(ROOT)],
        capture_output=True, text=True)
    said = [line.strip() for line in built.stderr.splitlines() if line.strip().startswith("ankh:")]
    if built.returncode != 0:
        sys.exit(f"the wheel did not build:\n{built.stderr[-3000:]}")
    (wheel,) = WHEELS.glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = [n for n in z.namelist()
                 if n.startswith("ankh/core/") or n.startswith("ankh_core_")]
        if not any(n.startswith("ankh_core_") and "__mypyc" in n for n in names):
            sys.exit("the wheel holds no compiled core: " + " ".join(said))
        z.extractall(OUT, names)


def main() -> None:
    want = digest(["core"])
    stamp = OUT / ".built-from"
    if not stamp.exists() or stamp.read_text() != want:
        build()
        stamp.write_text(want)
    print(OUT)


if __name__ == "__main__":
    main()
