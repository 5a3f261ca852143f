"""How good the solver's guesses are: does the move it names when undecided keep a winnable game winnable?

    python benchmarks/guess.py GAME --deals 1-100 [--guess-states 5000] [--check-states 300000] [--every 5] [--every-move]

A hint that runs out of budget names the solver's best guess (``SolveResult.guess``).
This script measures those guesses where the truth is known: along the winning
line of each deal the solver wins within ``--check-states`` positions, every
``--every`` moves, it takes the positions that ``--guess-states`` positions do
not decide (where a hint with that budget would guess). At each it plays the
guess, and, as a baseline, a legal move drawn at random (seeded by the deal and
the move's number), and solves each position after with ``--check-states``:
still won (the move keeps a win: proved by a line), lost (proved unwinnable),
or undecided. Budgets are in positions, so every machine gives the same counts.

With ``--every-move`` it solves the position after every legal move instead of
one drawn at random: the random row is then what a move drawn at random would
do on average, and a last line looks only at the *contested* positions, those
where some move is proved to lose, the ones where a hint can matter.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field

from cardtable import Move, State, deal, load_game
from cardtable.solver import Limit, solve
from cardtable.solver.search import STATUSES
from deal_args import deal_numbers  # beside this script, so on its path

KINDS = ("guess", "random")


@dataclass
class Tally:
    """The verdicts after the guesses and after moves at random; a random move's are averaged over the moves drawn from."""

    counts: dict[str, dict[str, float]] = field(
        default_factory=lambda: {kind: dict.fromkeys(STATUSES, 0.0) for kind in KINDS}
    )
    contested: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    """The guess's verdicts at the positions where some move drawn from is proved lost."""
    random_loses: float = 0.0
    """The share of moves proved lost, summed over the contested positions."""

    def add(self, guessed: str, others: list[str]) -> None:
        """One position: the verdict after the guess, and after each move a random one is drawn from."""
        self.counts["guess"][guessed] += 1
        for each in STATUSES:
            self.counts["random"][each] += others.count(each) / len(others)
        if "unwinnable" in others:
            self.contested[guessed] += 1
            self.random_loses += others.count("unwinnable") / len(others)

    def show(self, every_move: bool) -> None:
        """The rows; the contested positions only when every move was solved (a single draw says little there)."""
        for kind in KINDS:
            row = self.counts[kind]
            print(
                f"  {kind:<7} still won {row['won']:>7.1f}   lost {row['unwinnable']:>7.1f}"
                f"   undecided {row['unknown']:>7.1f}"
            )
        if every_move:
            print(
                f"  contested (some move proved lost): {sum(self.contested.values())} positions; the guess still won"
                f" {self.contested['won']}, lost {self.contested['unwinnable']}, undecided"
                f" {self.contested['unknown']}; a move at random would lose {self.random_loses:.1f} of them on average"
            )


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
    parser.add_argument(
        "--every-move", action="store_true", help="solve after each legal move, not one at random"
    )
    parser.add_argument("--verbose", action="store_true", help="print a line per position guessed at")
    args = parser.parse_args()
    spec = load_game(args.game)
    guess_limit, check = Limit(states=args.guess_states), Limit(states=args.check_states)
    tally = Tally()
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
                    moves = list(state.legal_moves) if args.every_move else [drawn]
                    verdicts = {each: after(state, each, check) for each in {found.guess, *moves}}
                    tally.add(verdicts[found.guess], [verdicts[each] for each in moves])
                    if args.verbose:
                        told = " ".join(f"{each}:{verdicts[each]}" for each in moves)
                        print(
                            f"{number:>8} move {index:>3}: guess {found.guess} {verdicts[found.guess]:<10} {told}"
                        )
            state.push(move)
    guessed = sum(tally.counts["guess"].values())
    print(
        f"{args.game}: {lines} won lines, {positions} positions looked at, {undecided} undecided within"
        f" {args.guess_states:,} positions, {guessed:.0f} of them with a guess;"
        f" each move's position after, solved with {args.check_states:,}:"
    )
    tally.show(args.every_move)


if __name__ == "__main__":
    main()
