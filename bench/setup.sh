#!/usr/bin/env bash
# Create bench/.venv: zerosum (editable) plus the peer systems the benchmarks compare with.
#
#   easyAI      PyPI "easyAI"      (Negamax with alpha-beta, optional transposition table)
#   OpenSpiel   PyPI "open-spiel"  (open_spiel.python.algorithms.minimax.alpha_beta_search)
#   aima-python is not on PyPI as an installable package (pip finds no distribution), so
#               it is tried and skipped when absent.
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
"$pip" install --quiet easyAI open-spiel
"$pip" install --quiet aima-python 2>/dev/null || echo "aima-python: no installable copy on PyPI; skipped"
"$here/.venv/bin/python" - <<'PY'
import importlib
for name in ("zerosum", "easyAI", "pyspiel"):
    module = importlib.import_module(name)
    print(f"{name:8} ok  {getattr(module, '__version__', '')}")
PY
