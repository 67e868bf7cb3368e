#!/usr/bin/env bash
# Create bench/.venv: zerosum (editable) plus the peer systems the benchmarks compare with.
#
#   easyAI      PyPI "easyAI"      (Negamax with alpha-beta, optional transposition table)
#   OpenSpiel   PyPI "open-spiel"  (open_spiel.python.algorithms.minimax.alpha_beta_search)
#   aima-python is not on PyPI as an installable package (pip finds no distribution), so
#               it is tried and skipped when absent.
#   sunfish     PyPI "sunfish"     (a chess engine in Python; its console script
#               bench/.venv/bin/sunfish-uci speaks UCI)
#   Stockfish   Debian "stockfish" (apt-get, when missing and this runs as root; Debian
#               installs it as /usr/games/stockfish, which is not on PATH)
#
# Usage: bash bench/setup.sh   (from anywhere; idempotent)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
python="${PYTHON:-python3}"
if [ ! -x "$here/.venv/bin/python" ]; then
    "$python" -m venv "$here/.venv"
fi
pip="$here/.venv/bin/pip"
"$pip" install --quiet --upgrade pip
"$pip" install --quiet -e "$root"
"$pip" install --quiet easyAI open-spiel sunfish
"$pip" install --quiet aima-python 2>/dev/null || echo "aima-python: no installable copy on PyPI; skipped"
"$here/.venv/bin/python" - <<'PY'
import importlib
for name in ("zerosum", "easyAI", "pyspiel"):
    module = importlib.import_module(name)
    print(f"{name:8} ok  {getattr(module, '__version__', '')}")
PY
if [ -x "$here/.venv/bin/sunfish-uci" ]; then
    echo "sunfish  ok  $here/.venv/bin/sunfish-uci"
else
    echo "sunfish: installed without its sunfish-uci script" >&2
    exit 1
fi
if [ ! -x /usr/games/stockfish ] && ! command -v stockfish >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stockfish
    else
        echo "stockfish: not installed; run as root, or: sudo apt-get install stockfish"
    fi
fi
for stockfish in /usr/games/stockfish "$(command -v stockfish || true)"; do
    if [ -x "$stockfish" ]; then
        echo "stockfish ok  $stockfish ($(echo quit | "$stockfish" | head -1))"
        break
    fi
done
