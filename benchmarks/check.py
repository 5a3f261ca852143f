"""How fast ``cardtable check`` replays a large file of solutions, and how much memory it takes.

    python benchmarks/check.py [--copies 20] [--source FILE]

Writes ``--copies`` copies of a file of solutions one after another (by
default the 513 Acey and Kingsley wins of the survey's unknowns kept in
``benchmarks/results``, about 11 KB each), checks the result in a child process, and prints the
solutions, the file's size, the wall time and the child's peak memory. A
survey of a million deals writes gigabytes of solutions, so the peak should
stay the same however many copies there are: ``check`` holds one solution at a
time.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cardtable.cli.files import text_pieces

RESULTS = Path(__file__).parent / "results"
SOURCE = RESULTS / "acey-and-kingsley-survey-unknowns-60s-e0bbdf6-solutions.jsonl.gz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--source", type=Path, default=SOURCE)
    args = parser.parse_args()
    text = "".join(text_pieces(str(args.source)))
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "solutions.jsonl"
        with path.open("w", encoding="utf-8") as file:
            for _ in range(args.copies):
                file.write(text)
        command = [sys.executable, "-c", "from cardtable.cli.main import main; main()", "check", str(path)]
        began = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - began
        size = path.stat().st_size
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
    print(f"source   {args.source.name} x {args.copies}")
    print(f"file     {size / 2**20:.1f} MiB")
    print(f"check    {done.stdout.strip() or done.stderr.strip()} (exit {done.returncode})")
    print(f"seconds  {seconds:.2f}")
    print(f"peak     {peak / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
