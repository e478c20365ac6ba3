# Sourced by scripts/play and scripts/test: make .venv (if missing) and
# install the project into it (again only when pyproject.toml changed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
extras="${1:-}"
py="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
        echo "ankh needs Python 3.11 or newer (found: $("$py" --version 2>&1))" >&2; exit 1; }
    "$py" -m venv "$venv"
fi
stamp="$venv/.installed${extras:+-$extras}"
want="$(cat "$root/pyproject.toml" | "$venv/bin/python" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$root${extras:+[$extras]}"
    echo "$want" > "$stamp"
fi
