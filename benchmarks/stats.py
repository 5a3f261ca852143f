"""How long a player's statistics take to read when they have finished many games.

    python benchmarks/stats.py [--plays 50000]

Builds a scratch database holding one player's ``--plays`` finished games of
Fan (each the deal and 30 moves, as a real one holds), then times, best of three,
what the Statistics page reads: the per-game figures from every play's ending
(``Store.endings``, ``game_stats``) and the latest 500 games (``Store.history``).
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cardtable import deal, load_game
from cardtable.formats import deal_to_dict, move_to_dict
from cardtable.store import PlayRecord, Store, game_stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=50_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stats.sqlite"
        _fill(path, args.plays)
        store = Store(path)
        try:
            figures = _best(lambda: game_stats(store.endings("p")))
            history = _best(lambda: store.history("p"))
        finally:
            store.close()
    print(f"{args.plays:,} finished plays: statistics {figures:.3f} s, the latest 500 {history:.3f} s")


def _fill(path: Path, plays: int) -> None:
    """One play stored as the server stores it, then copied in SQL ``plays - 1`` times, a third of them won."""
    state = deal(load_game("fan"), 3)
    start = deal_to_dict(state)
    moves = []
    for _ in range(30):
        move = next(iter(state.legal_moves))
        state.push(move)
        moves.append(move_to_dict(move))
    store = Store(path)
    store.start(PlayRecord("0", "p", "fan", 3, start, moves, status="lost", created=0, updated=0, finished=0))
    store.close()
    with sqlite3.connect(path) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(plays)")]
        made = {
            "id": "CAST(n AS TEXT)",
            "status": "CASE n % 3 WHEN 0 THEN 'won' ELSE 'lost' END",
            "created": "n",
            "updated": "n",
            "finished": "n",
        }
        copied = ", ".join(made.get(column, column) for column in columns)
        db.execute(
            f"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < ?)"
            f" INSERT INTO plays ({', '.join(columns)}) SELECT {copied} FROM plays, x WHERE id = '0'",
            (plays - 1,),
        )


def _best(work: Callable[[], object]) -> float:
    """The least of three timings of ``work``."""
    times = []
    for _ in range(3):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


if __name__ == "__main__":
    main()
