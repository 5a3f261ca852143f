#!/usr/bin/env bash
# Install cardtable and play in the browser: `cardtable serve`, with any options given here.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/python.sh
"$PYTHON" -m pip install --quiet --disable-pip-version-check -e .
exec "$PYTHON" -m cardtable serve "$@"
