"""Write the pinned data files under ``tests/data`` from the current engine.

Run ``python tests/make_data.py`` only when a change to deals or rules is meant
(and bump the game's ``rules_version``); the tests compare the engine with these
files, so regenerating them silences exactly the failures they exist to raise.
Solutions are searched for only if their file is missing (that can take a minute).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cardtable import State, deal, load_game
from cardtable.formats import Solution, deal_to_dict, deal_to_json

sys.path.insert(0, str(Path(__file__).parent))

from helpers import DATA, GAME_IDS, fan_position, find_win, position_digest, random_play, sorted_moves

GOLDEN_DEALS = (1, 2, 1000)

PERFT_CASES: tuple[tuple[str, str, int], ...] = (
    # (id, game, deal); the depth is the largest whose count stays under PERFT_LIMIT
    ("alexander-1", "alexander-the-great", 1),
    ("alexander-2", "alexander-the-great", 2),
    ("alexander-1000", "alexander-the-great", 1000),
    ("lucie-1", "alexander-the-great-lucie", 1),
    ("lucie-2", "alexander-the-great-lucie", 2),
    ("lucie-1000", "alexander-the-great-lucie", 1000),
    ("lucie-no-redeal-2", "alexander-the-great-lucie(redeals=0)", 2),
    ("lucie-anytime-1", "alexander-the-great-lucie(redeal_anytime=true)", 1),
    ("acey-1", "acey-and-kingsley", 1),
    ("acey-2", "acey-and-kingsley", 2),
    ("acey-1000", "acey-and-kingsley", 1000),
    ("fan-1", "fan", 1),
    ("fan-2", "fan", 2),
    ("fan-1000", "fan", 1000),
)
PERFT_LIMIT = 6000

LINE_CASES: tuple[tuple[str, int, int], ...] = tuple(
    (game, number, seed) for game in GAME_IDS for number, seed in ((1, 7), (2, 11), (1000, 5))
)
LINE_PLIES = 150

SOLUTION_CASES = (("alexander-the-great", 1), ("alexander-the-great-lucie", 2), ("fan", 3))


def perft(state: State, depth: int) -> int:
    """How many move sequences of length ``depth`` there are (leaf positions, counted with repeats)."""
    if depth == 0:
        return 1
    total = 0
    for move in list(state.legal_moves):
        state.push(move)
        total += perft(state, depth - 1)
        state.pop()
    return total


def pretty_deal(obj: dict[str, Any]) -> str:
    """A deal object as JSON with one pile per line."""
    lines = ["{"]
    items = list(obj.items())
    for position, (key, value) in enumerate(items):
        comma = "," if position < len(items) - 1 else ""
        if key != "piles":
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
            continue
        lines.append('  "piles": {')
        groups = list(value.items())
        for g, (name, piles) in enumerate(groups):
            lines.append(f"    {json.dumps(name)}: [")
            lines += [
                f"      {json.dumps(p)}{',' if i < len(piles) - 1 else ''}" for i, p in enumerate(piles)
            ]
            lines.append("    ]" + ("," if g < len(groups) - 1 else ""))
        lines.append("  }" + comma)
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_golden() -> None:
    folder = DATA / "golden"
    folder.mkdir(parents=True, exist_ok=True)
    for game in GAME_IDS:
        for number in GOLDEN_DEALS:
            text = pretty_deal(deal_to_dict(deal(load_game(game), number)))
            (folder / f"{game}-{number}.json").write_text(text)


def blocked_lucie() -> State:
    """A Lucie position after one redeal where no card moves: only the second redeal is legal."""
    fans = ["TC KH", "JD QD QC", "QH KS JC KC KD", ""]
    return fan_position("alexander-the-great-lucie", fans, fan_count=4, redeals_left=1, seed=12345)


def write_perft() -> None:
    out = [
        "# Perft for cardtable, after python-chess's perft files: from each position, the",
        "# number of legal move sequences of each length ('perft N count').",
        "# A position is 'game' plus 'deal' (a deal number) or 'position' (one-line deal JSON).",
        "# Written by tests/make_data.py from the engine and cross-checked against the",
        "# rule oracle in tests/helpers.py by tests/test_perft.py.",
        "",
    ]
    cases: list[tuple[str, str, int | None, State]] = [
        (name, game, number, deal(load_game(game), number)) for name, game, number in PERFT_CASES
    ]
    cases.append(("lucie-blocked", "alexander-the-great-lucie", None, blocked_lucie()))
    for name, game, number, state in cases:
        out.append(f"id {name}")
        out.append(f"game {game}")
        out.append(f"deal {number}" if number is not None else f"position {deal_to_json(state)}")
        depth = 1
        while True:
            count = perft(state, depth)
            if count > PERFT_LIMIT and depth > 1:
                break
            out.append(f"perft {depth} {count}")
            if count == 0:
                break
            depth += 1
        out.append("")
    (DATA / "perft.txt").write_text("\n".join(out))


def write_lines() -> None:
    out = [
        "# Legal-move counts along fixed pseudo-random lines of play.",
        f"# 'line GAME DEAL SEED': from deal DEAL, up to {LINE_PLIES} plies; each ply picks",
        "# SplitMix64(SEED).below(n) among the n legal moves sorted by their text.",
        "# 'counts' lists n before each ply (the last is the count where the line stopped);",
        "# 'final' is tests/helpers.py's position_digest of the last position.",
        "",
    ]
    for game, number, seed in LINE_CASES:
        state = deal(load_game(game), number)
        counts: list[int] = []
        rng_moves = random_play(state.copy(), seed, LINE_PLIES)
        for move in rng_moves:
            counts.append(len(sorted_moves(state)))
            state.push(move)
        counts.append(len(sorted_moves(state)))
        out.append(f"line {game} {number} {seed}")
        out.append("counts " + " ".join(map(str, counts)))
        out.append(f"final {position_digest(state)}")
        out.append("")
    (DATA / "lines.txt").write_text("\n".join(out))


def write_solutions() -> None:
    folder = DATA / "solutions"
    folder.mkdir(parents=True, exist_ok=True)
    for game, number in SOLUTION_CASES:
        path = folder / f"{game}-{number}.json"
        if path.exists():
            continue
        start = deal(load_game(game), number)
        line = find_win(start.copy(), max_positions=500_000)
        if line is None:
            print(f"no win found for {game} deal {number}")
            continue
        solution = Solution(start, "won", line, {})
        path.write_text(json.dumps(solution.to_dict()) + "\n")


def main(parts: list[str]) -> None:
    """Write the named parts (golden, perft, lines, solutions), or all of them."""
    writers = {
        "golden": write_golden,
        "perft": write_perft,
        "lines": write_lines,
        "solutions": write_solutions,
    }
    for name in parts or list(writers):
        writers[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
