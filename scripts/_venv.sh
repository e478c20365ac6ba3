# Sourced by scripts/play, scripts/test and scripts/i18n: make a virtual
# environment (if missing) and install the project into it, again only when
# what it is installed from changed.
#   _venv.sh EXTRAS           .venv/: an editable install, pure Python (tests, tools)
#   _venv.sh EXTRAS regular   .venv-play/: a regular install (the player's), whose
#                             rules core is compiled with mypyc where it can be
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
extras="${1:-}"
mode="${2:-editable}"
venv="$root/.venv"
[ "$mode" = editable ] || venv="$root/.venv-play"
py="${PYTHON:-python3}"
pip_install() { "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@"; }
if [ ! -x "$venv/bin/python" ]; then
    "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
        echo "ankh needs Python 3.11 or newer (found: $("$py" --version 2>&1))" >&2; exit 1; }
    "$py" -m venv "$venv"
fi
stamp="$venv/.installed${extras:+-$extras}"
if [ "$mode" = editable ]; then
    want="$("$venv/bin/python" "$root/scripts/_digest.py")"
else
    want="$("$venv/bin/python" "$root/scripts/_digest.py" --sources core net tui)"
fi
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    if [ "$mode" = editable ]; then
        pip_install -e "$root${extras:+[$extras]}"
    else
        echo "ankh: installing into .venv-play/, compiling the rules core where a C compiler is present (a minute or two, once for each change of the sources)" >&2
        pip_install "$root${extras:+[$extras]}" || {
            echo "ankh: that install failed; installing with the pure-Python rules core" >&2
            ANKH_PURE=1 pip_install "$root${extras:+[$extras]}"; }
        if "$venv/bin/python" -c 'import sys, ankh.core.morpork.state as s; sys.exit(s.__file__.endswith(".py"))'; then
            echo "ankh: the rules core is compiled" >&2
        else
            why="its compile failed (.venv-play/bin/pip install -v . says why)"
            command -v "${CC:-cc}" >/dev/null || command -v gcc >/dev/null || why="no C compiler"
            [ -z "${ANKH_PURE:-}" ] || why="ANKH_PURE is set"
            echo "ankh: the rules core runs as pure Python: $why" >&2
        fi
    fi
    echo "$want" > "$stamp"
fi
