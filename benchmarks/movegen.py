"""Legal-move generation and push/pop speed, per game, as a table.

    python benchmarks/movegen.py [--positions 2000]

Each game plays pseudo-random legal moves from deals 1, 2, 3... (restarting a
deal when it ends) and measures, over the positions it passes through:
* ``gen/s``: full legal-move lists (``list(state.legal_moves)``) per second;
* ``raw/s``: the solver's flat ``card_moves()`` lists per second;
* ``push+pop/s``: a legal move pushed and popped again, per second;
* ``key/s``: canonical search keys per second.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from cardtable import GAMES, State, deal
from cardtable.core.rng import SplitMix64


def sample_positions(game: str, count: int) -> list[State]:
    """``count`` positions met in random play, each an independent copy."""
    spec = GAMES[game]
    rng = SplitMix64(7)
    out: list[State] = []
    number = 1
    state = deal(spec, number)
    while len(out) < count:
        moves = list(state.legal_moves)
        if not moves:
            number += 1
            state = deal(spec, number)
            continue
        state.push(moves[rng.below(len(moves))])
        out.append(state.copy())
    return out


def rate(positions: list[State], work: Callable[[State], object], repeat: int = 3) -> float:
    """Calls of ``work`` per second over the positions (best of ``repeat`` rounds)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for state in positions:
            work(state)
        best = min(best, time.perf_counter() - started)
    return len(positions) / best


def push_pop(state: State) -> None:
    """Push the first legal move and pop it."""
    move = next(iter(state.legal_moves), None)
    if move is not None:
        state.push(move)
        state.pop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'game':<28}{'moves/pos':>10}{'gen/s':>10}{'raw/s':>10}{'push+pop/s':>12}{'key/s':>10}")
    for game in GAMES:
        positions = sample_positions(game, args.positions)
        average = sum(len(list(s.legal_moves)) for s in positions) / len(positions)
        print(
            f"{game:<28}{average:>10.1f}"
            f"{rate(positions, lambda s: list(s.legal_moves)):>10,.0f}"
            f"{rate(positions, lambda s: list(s.card_moves())):>10,.0f}"
            f"{rate(positions, push_pop):>12,.0f}"
            f"{rate(positions, State.key):>10,.0f}"
        )


if __name__ == "__main__":
    main()
