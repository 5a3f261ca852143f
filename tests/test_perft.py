"""Data-file tests after python-chess's perft files: move-tree sizes and fixed random lines.

``data/perft.txt`` pins, for fixed deals of each game, how many move sequences
of each length there are; ``data/lines.txt`` pins the legal-move counts along
pseudo-random lines of play. Both were written once by ``tests/make_data.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from cardtable import State, deal, load_game
from cardtable.core.rng import SplitMix64
from cardtable.formats import deal_from_dict
from helpers import DATA, GAME_IDS, oracle_after, oracle_moves, position_digest, sorted_moves


@dataclass
class PerftCase:
    id: str
    game: str = ""
    deal: int | None = None
    position: str | None = None
    counts: dict[int, int] = field(default_factory=dict)

    def state(self) -> State:
        if self.position is not None:
            state = deal_from_dict(json.loads(self.position))
            assert state.spec.id == self.game
            return state
        assert self.deal is not None
        return deal(load_game(self.game), self.deal)


def read_perft() -> list[PerftCase]:
    cases: list[PerftCase] = []
    for line in (DATA / "perft.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "id":
            cases.append(PerftCase(rest))
        elif word == "game":
            cases[-1].game = rest
        elif word == "deal":
            cases[-1].deal = int(rest)
        elif word == "position":
            cases[-1].position = rest
        elif word == "perft":
            depth, count = rest.split()
            cases[-1].counts[int(depth)] = int(count)
        else:
            raise ValueError(f"perft.txt: unknown line {line!r}")
    return cases


PERFT = read_perft()


def perft_counts(state: State, depth: int) -> list[int]:
    """``counts[d]``: how many move sequences of length ``d`` (``counts[0] == 1``)."""
    counts = [0] * (depth + 1)

    def walk(d: int) -> None:
        counts[d] += 1
        if d == depth:
            return
        for move in list(state.legal_moves):
            state.push(move)
            walk(d + 1)
            state.pop()

    walk(0)
    return counts


def oracle_perft(state: State, depth: int) -> int:
    """The same count, with moves from the oracle and positions rebuilt from its results."""
    if depth == 0:
        return 1
    total = 0
    for move in oracle_moves(state):
        after = oracle_after(state, move)
        piles = [p for g in state.spec.groups for p in after[g.name]]
        redeals = state.redeals_left - (move.kind == "redeal")
        total += oracle_perft(State(state.spec, piles, redeals_left=redeals, seed=state.seed), depth - 1)
    return total


def test_the_file_covers_every_game() -> None:
    assert {load_game(c.game).base_id for c in PERFT} == set(GAME_IDS)
    assert any(c.position for c in PERFT)
    assert all(c.counts for c in PERFT)


@pytest.mark.parametrize("case", PERFT, ids=[c.id for c in PERFT])
def test_perft(case: PerftCase) -> None:
    state = case.state()
    start = state.copy()
    depth = max(case.counts)
    counts = perft_counts(state, depth)
    assert {d: counts[d] for d in case.counts} == case.counts
    assert state == start and state.move_stack == []


@pytest.mark.parametrize("case", PERFT, ids=[c.id for c in PERFT])
def test_perft_by_the_oracle(case: PerftCase) -> None:
    state = case.state()
    for depth in (1, 2):
        if depth in case.counts:
            assert oracle_perft(state, depth) == case.counts[depth]


def test_the_blocked_lucie_tree_ends() -> None:
    case = next(c for c in PERFT if c.id == "lucie-blocked")
    assert case.counts[1] == 1  # only the redeal
    assert case.counts[max(case.counts)] == 0  # every line ends


@dataclass
class LineCase:
    game: str
    deal: int
    seed: int
    counts: list[int]
    final: str


def read_lines() -> list[LineCase]:
    cases: list[LineCase] = []
    header: list[str] = []
    for line in (DATA / "lines.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "line":
            header = rest.split()
        elif word == "counts":
            counts = [int(n) for n in rest.split()]
        elif word == "final":
            cases.append(LineCase(header[0], int(header[1]), int(header[2]), counts, rest))
    return cases


LINES = read_lines()


@pytest.mark.parametrize("case", LINES, ids=[f"{c.game}-{c.deal}" for c in LINES])
def test_random_lines(case: LineCase) -> None:
    state = deal(load_game(case.game), case.deal)
    rng = SplitMix64(case.seed)
    counts: list[int] = []
    plies = len(case.counts) - 1
    for _ in range(plies):
        moves = sorted_moves(state)
        counts.append(len(moves))
        state.push(moves[rng.below(len(moves))])
    counts.append(len(sorted_moves(state)))
    assert counts == case.counts
    assert position_digest(state) == case.final
