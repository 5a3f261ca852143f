#!/usr/bin/env bash
# The whole test suite: install, lint, type-check, test. `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/python.sh
"$PYTHON" -m pip install --quiet --disable-pip-version-check -e '.[test]'
"$PYTHON" -m ruff check src tests benchmarks
"$PYTHON" -m ruff format --check src tests benchmarks
"$PYTHON" -m mypy
# The browser tests (tests/web) drive Debian's Chromium; a clean machine does not have it yet.
if [ ! -x /usr/bin/chromium ]; then
  as_root apt-get update -qq && as_root apt-get install -y -qq chromium
fi
status=0
"$PYTHON" -m pytest "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests"
  status=0
fi
exit "$status"
