"""How good the solver's guesses are: does the move it names when undecided keep a winnable game winnable?

    python benchmarks/guess.py GAME --deals 1-100 [--guess-states 5000] [--check-states 300000] [--every 5]

A hint that runs out of budget names the solver's best guess (``SolveResult.guess``).
This script measures those guesses where the truth is known: along the winning
line of each deal the solver wins within ``--check-states`` positions, every
``--every`` moves, it takes the positions that ``--guess-states`` positions do
not decide (where a hint with that budget would guess). At each it plays the
guess, and, as a baseline, a legal move drawn at random (seeded by the deal and
the move's number), and solves each position after with ``--check-states``:
still won (the move keeps a win: proved by a line), lost (proved unwinnable),
or undecided. Budgets are in positions, so every machine gives the same counts.
"""

from __future__ import annotations

import argparse
import random

from cardtable import Move, State, deal, load_game
from cardtable.solver import Limit, solve
from deal_args import deal_numbers  # beside this script, so on its path

KINDS = ("guess", "random")


def after(state: State, move: Move, check: Limit) -> str:
    """The verdict on the position that ``move`` leads to."""
    following = state.copy()
    following.push(move)
    return solve(following, check).status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--deals", default="1-100")
    parser.add_argument("--guess-states", type=int, default=5_000, help="positions a guess may take")
    parser.add_argument("--check-states", type=int, default=300_000, help="positions to decide a position")
    parser.add_argument("--every", type=int, default=5, help="look at every Nth position of a winning line")
    parser.add_argument("--verbose", action="store_true", help="print a line per position guessed at")
    args = parser.parse_args()
    spec = load_game(args.game)
    guess_limit, check = Limit(states=args.guess_states), Limit(states=args.check_states)
    counts = {kind: {"won": 0, "unwinnable": 0, "unknown": 0} for kind in KINDS}
    lines = positions = undecided = 0
    for number in deal_numbers(parser, args.deals):
        state = deal(spec, number)
        line = solve(state, check)
        if line.status != "won":
            continue
        lines += 1
        for index, move in enumerate(line.moves):
            if index % args.every == 0:
                positions += 1
                found = solve(state, guess_limit)
                undecided += found.status == "unknown"
                if found.status == "unknown" and found.guess is not None:
                    drawn = random.Random(f"{number}-{index}").choice(list(state.legal_moves))
                    verdicts = [after(state, found.guess, check), after(state, drawn, check)]
                    for kind, verdict in zip(KINDS, verdicts):
                        counts[kind][verdict] += 1
                    if args.verbose:
                        print(f"{number:>8} move {index:>3}: guess {verdicts[0]:<10} random {verdicts[1]}")
            state.push(move)
    guessed = sum(counts["guess"].values())
    print(
        f"{args.game}: {lines} won lines, {positions} positions looked at, {undecided} undecided within"
        f" {args.guess_states:,} positions, {guessed} of them with a guess;"
        f" each move's position after, solved with {args.check_states:,}:"
    )
    for kind in KINDS:
        row = counts[kind]
        print(
            f"  {kind:<7} still won {row['won']:>5}   lost {row['unwinnable']:>5}   undecided {row['unknown']:>5}"
        )


if __name__ == "__main__":
    main()
