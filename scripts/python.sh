# Sourced by serve.sh and test.sh: sets PYTHON to a Python that may install cardtable.
# That is python3 itself, unless it is a system Python that refuses installs outside a
# virtual environment (PEP 668: Debian's and Ubuntu's do); then it is the Python of a
# virtual environment, .venv, made here the first time (with Debian's python3-venv if
# the system lacks it).
as_root() {  # Debian's packages install as root: sudo asks for the password where the user is not
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
PYTHON=python3
if python3 - <<'PY'
import sys, sysconfig
from pathlib import Path
managed = (Path(sysconfig.get_path("stdlib")) / "EXTERNALLY-MANAGED").exists()
sys.exit(0 if managed and sys.prefix == sys.base_prefix else 1)
PY
then
  if [ ! -x .venv/bin/python3 ]; then
    echo "python3 refuses installs outside a virtual environment: making one in .venv" >&2
    python3 -m venv .venv 2>/dev/null || {
      as_root apt-get update -qq && as_root apt-get install -y -qq python3-venv && python3 -m venv .venv
    }
  fi
  PYTHON=.venv/bin/python3
fi
