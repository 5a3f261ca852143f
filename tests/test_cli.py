"""The look-only commands (games, rules, deal, moves, check) and their error paths.

Every bad input must give one line on standard error naming the problem and exit
code 2 (1 for a solution that fails its check), never a traceback.
"""

from __future__ import annotations

import gzip
import importlib.abc
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

import cardtable.__main__
from cardtable import GAMES, Move, State, deal, load_game
from cardtable.cli import files
from cardtable.cli.main import COMMANDS, main
from cardtable.core.cards import card_names, card_symbol
from cardtable.formats import (
    Solution,
    deal_to_dict,
    deal_to_json,
    move_from_dict,
    move_to_json,
    read_deal,
    read_solution,
    replay,
)
from cardtable.interrupts import INTERRUPTED_EXIT
from helpers import GAME_IDS, LUCIE_BLOCKED_AT_START

NO_COLOUR_SETTINGS: dict[str, str | None] = {"FORCE_COLOR": None, "NO_COLOR": None, "TTY_COMPATIBLE": None}
"""Unset, so the user's colour settings do not leak into the tests' expectations."""


def run(*args: str, input: str | None = None, env: dict[str, str | None] | None = None) -> Result:
    """Run ``cardtable ARGS`` in-process, with standard error kept apart."""
    return CliRunner().invoke(main, list(args), input=input, env={**NO_COLOUR_SETTINGS, **(env or {})})


def assert_fails(result: Result, code: int, *words: str) -> None:
    """One line on standard error, starting 'cardtable:', holding each of ``words``."""
    assert result.exit_code == code, (result.output, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("cardtable: ")
    for word in words:
        assert word in lines[0]
    assert "Traceback" not in result.output + result.stderr


def write(tmp_path: Path, text: str, name: str = "deal.json") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def first_moves(state: State, count: int) -> list[Move]:
    """Play the first legal move ``count`` times (a short, legal, reproducible line)."""
    played = []
    for _ in range(count):
        move = min(state.legal_moves, key=move_to_json)
        state.push(move)
        played.append(move)
    return played


def solution_json(start: State, moves: list[Move], result: str = "unknown") -> str:
    return json.dumps(Solution(start, result, moves).to_dict())


def nearly_won() -> State:
    """Alexander the Great with two cards to go: K♥ on t0 and A♠ on t1."""
    up = "A23456789TJQK"
    down = up[::-1]
    piles = {
        "foundation": [
            [r + "H" for r in up[:12]],
            [r + "D" for r in up],
            [r + "C" for r in down],
            [r + "S" for r in down[:12]],
        ],
        "fan": [["KH"], ["AS"]] + [[] for _ in range(10)],
    }
    return read_deal(json.dumps({"game": "alexander-the-great", "piles": piles}))


WINNING_MOVES = [
    move_from_dict({"from": "fan/0", "to": "foundation/0", "card": "KH"}),
    move_from_dict({"from": "fan/1", "to": "foundation/3", "card": "AS"}),
]
"""The two moves that win :func:`nearly_won`."""


# -- games and rules --------------------------------------------------------------


def test_games_lists_every_game_with_its_name_and_summary() -> None:
    result = run("games")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == len(GAMES)
    for game, line in zip(GAMES, lines):
        spec = load_game(game)
        assert line.split()[0] == game
        assert spec.name in line and spec.summary in line


@pytest.mark.parametrize("game", GAME_IDS)
def test_rules_prints_the_specs_rules(game: str) -> None:
    result = run("rules", game)
    assert result.exit_code == 0
    assert result.output == load_game(game).rules


def test_rules_name_the_options_an_id_sets_first() -> None:
    result = run("rules", "alexander-the-great-lucie(redeals=0)")
    assert result.exit_code == 0
    title, rest = load_game("alexander-the-great-lucie").rules.split("\n", 1)
    first, note, _ = result.output.split("\n\n", 2)
    assert first == title and result.output.endswith(rest)
    assert " ".join(note.split("\n")) == (
        "Played with other options: no redeals (instead of 2 redeals). The rules below are written for the"
        " defaults; where the two differ, the options apply."
    )
    assert all(len(line) <= 80 for line in note.split("\n"))
    both = run("rules", "alexander-the-great-lucie(redeal_anytime=yes,redeals=1)").output.split("\n\n")[1]
    assert " ".join(both.split("\n")).startswith(
        "Played with other options: 1 redeal (instead of 2 redeals), redeal at any time (instead of redeal only when stuck)."
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("rules", "klondike"), ("unknown game: 'klondike'", "alexander-the-great")),
        (("rules", "fan(redeals=1)"), ("fan has no option 'redeals'",)),
        (("rules", "alexander-the-great-lucie(redeals=x)"), ("takes a whole number",)),
        (("deal", "Not A Game!", "1"), ("not a game id",)),
        (("moves", "klondike", "1"), ("unknown game",)),
        (("play", "klondike", "1"), ("unknown game",)),
    ],
)
def test_unknown_games_and_options_fail_in_one_line(args: tuple[str, ...], words: tuple[str, ...]) -> None:
    assert_fails(run(*args), 2, *words)


# -- deal ----------------------------------------------------------------------


def pile_lines(output: str) -> dict[str, str]:
    """The layout's pile lines by their code: ``{'t0': '9♣  2♦ ...'}``; a foundation's, its direction and top."""
    lines: dict[str, str] = {}
    for line in output.splitlines():
        if line.startswith(("  up from A", "  down from K")):
            direction, _, row = line.strip().partition("  ")
            cells = row.split()
            lines |= {code: f"{top} {direction}" for code, top in zip(cells[::2], cells[1::2])}
        elif line.startswith("  "):
            code, _, rest = line.strip().partition(" ")
            lines[code] = rest.strip()
    return lines


@pytest.mark.parametrize("game", GAME_IDS)
def test_deal_shows_every_card_of_every_fan_in_order(game: str) -> None:
    state = deal(load_game(game), 42)
    result = run("deal", game, "42")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == f"{state.spec.name} · deal 42"
    lines = pile_lines(result.output)
    fan_group = "tableau" if state.spec.has_group("tableau") else "fan"
    for index, pile in enumerate(state.group(fan_group)):
        assert lines[f"t{index}"].split() == [card_symbol(c) for c in pile]
    for index, pile in enumerate(state.group("foundation")):
        direction = "down from K" if pile and pile[0] % 13 == 12 else "up from A"
        assert lines[f"f{index}"].endswith(direction)


def test_deal_shows_acey_reserves_fully_the_stock_count_and_the_waste_top() -> None:
    state = deal(load_game("acey-and-kingsley"), 5)
    lines = pile_lines(run("deal", "acey-and-kingsley", "5").output)
    for index, pile in enumerate(state.group("reserve")):
        assert lines[f"r{index}"].split() == [card_symbol(c) for c in pile]
    assert lines["s"] == "66 cards"
    assert lines["w"] == "--"
    assert [lines[f"f{i}"].split()[-1] for i in range(8)] == ["A"] * 4 + ["K"] * 4
    assert [lines[f"f{i}"].split()[0] for i in range(8)] == ["A♣", "A♦", "A♥", "A♠", "K♣", "K♦", "K♥", "K♠"]


def test_deal_shows_lucies_redeals_left() -> None:
    output = run("deal", "alexander-the-great-lucie", "1").output
    assert output.splitlines()[-1].endswith("redeals left: 2")
    blocked = run("deal", "alexander-the-great-lucie", str(LUCIE_BLOCKED_AT_START)).output
    assert blocked.splitlines()[-1].endswith("redeals left: 2 (a redeal is allowed now)")
    with_option = run("deal", "alexander-the-great-lucie(redeals=1)", "1").output
    assert with_option.splitlines()[0].endswith("(La Belle Lucie form), redeals=1 · deal 1")
    assert with_option.splitlines()[-1].endswith("redeals left: 1")


def test_deal_colours_red_cards_on_a_colour_terminal() -> None:
    output = run("deal", "fan", "1", env={"FORCE_COLOR": "1", "TERM": "xterm-256color"}).output
    assert "\x1b[31m" in output  # red
    plain = run("deal", "fan", "1").output
    assert "\x1b[" not in plain and "♥" in plain and "♠" in plain


@pytest.mark.parametrize("game", GAME_IDS)
def test_deal_json_is_the_deal_format(game: str) -> None:
    result = run("deal", game, "7", "--json")
    assert result.exit_code == 0
    assert json.loads(result.output) == deal_to_dict(deal(load_game(game), 7))
    assert read_deal(result.output) == deal(load_game(game), 7)


@pytest.mark.parametrize("number", ["1", "2147483647", " 12 "])
def test_deal_numbers_in_range_are_accepted(number: str) -> None:
    assert run("deal", "fan", number, "--json").exit_code == 0


@pytest.mark.parametrize("number", ["0", "2147483648", "abc", "-3", "1.5", "99999999999999999999999", "٣"])
@pytest.mark.parametrize("command", ["deal", "moves", "play"])
def test_bad_deal_numbers_fail_in_one_line(command: str, number: str) -> None:
    assert_fails(run(command, "fan", number), 2, "not a deal number", "1 to 2147483647")


# -- moves ---------------------------------------------------------------------


def legal_lines(state: State) -> set[str]:
    return {move_to_json(move) for move in state.legal_moves}


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("number", [1, 2, 3])
def test_moves_of_a_numbered_deal_are_the_legal_moves_in_byte_order(game: str, number: int) -> None:
    result = run("moves", game, str(number))
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines == sorted(lines, key=lambda line: line.encode())
    assert set(lines) == legal_lines(deal(load_game(game), number))
    assert len(lines) == len(set(lines))
    for line in lines:
        assert deal(load_game(game), number).is_legal(move_from_dict(json.loads(line)))


@pytest.mark.skipif(shutil.which("sort") is None, reason="needs sort(1)")
def test_moves_order_is_that_of_lc_all_c_sort() -> None:
    output = run("moves", "acey-and-kingsley", "3").output
    env = {**os.environ, "LC_ALL": "C"}
    by_sort = subprocess.run(["sort"], input=output.encode(), capture_output=True, env=env, check=True)
    assert by_sort.stdout.decode() == output


def test_moves_reads_a_deal_file_and_standard_input(tmp_path: Path) -> None:
    state = deal(load_game("acey-and-kingsley"), 9)
    first_moves(state, 5)  # a game in progress, not a starting deal
    text = json.dumps(deal_to_dict(state))
    from_file = run("moves", write(tmp_path, text))
    from_stdin = run("moves", "-", input=text)
    assert from_file.exit_code == from_stdin.exit_code == 0
    assert from_file.output == from_stdin.output
    assert set(from_file.output.splitlines()) == legal_lines(state)


def test_moves_prints_an_allowed_redeal_with_the_fans_it_makes() -> None:
    state = deal(load_game("alexander-the-great-lucie"), LUCIE_BLOCKED_AT_START)
    result = run("moves", "alexander-the-great-lucie", str(LUCIE_BLOCKED_AT_START))
    fans = [card_names(fan) for fan in state.redeal_fans()]
    assert len(fans) == 18 and json.loads(result.output) == {"redeal": fans}
    state.push(move_from_dict(json.loads(result.output)))  # the move as printed is the redeal
    assert [card_names(fan) for fan in state.group("fan")] == fans


def test_moves_of_a_won_position_is_empty(tmp_path: Path) -> None:
    state = nearly_won()
    for move in WINNING_MOVES:
        state.push_checked(move)
    assert state.is_won()
    result = run("moves", write(tmp_path, json.dumps(deal_to_dict(state))))
    assert result.exit_code == 0 and result.output == ""


def edit(change: Callable[[dict[str, Any]], object]) -> str:
    """Deal 1 of Alexander the Great as JSON, after ``change`` has had its way with it."""
    obj = deal_to_dict(deal(load_game("alexander-the-great"), 1))
    change(obj)
    return json.dumps(obj)


def _swap_in(obj: dict[str, Any], card: object) -> None:
    obj["piles"]["fan"][0][0] = card


def _black_ace_home(obj: dict[str, Any]) -> None:
    """Foundation 0's red ace and fan 9's black ace change places."""
    piles = obj["piles"]
    piles["foundation"][0][0], piles["fan"][9][-1] = piles["fan"][9][-1], piles["foundation"][0][0]


BAD_DEALS = [
    ("not json", "malformed deal json at line 1"),
    ("[1, 2]", "a deal must be a json object"),
    ('{"piles": {}}', "missing key 'game'"),
    ('{"game": "fan"}', "missing key 'piles': the deal's cards, pile group by pile group"),
    ("[" * 5000 + "]" * 5000, "nested too deeply"),
    (edit(lambda o: o.update(game="klondike")), "unknown game: 'klondike'"),
    (edit(lambda o: _swap_in(o, "1X")), "fan/0: not a card: '1X'"),
    (edit(lambda o: _swap_in(o, 7)), "fan/0: not a card: 7"),
    (edit(lambda o: _swap_in(o, o["piles"]["fan"][1][0])), "not the alexander-the-great deck: too many"),
    (edit(lambda o: o["piles"]["fan"].pop()), "'fan' has 11 piles; alexander-the-great has 12"),
    (edit(lambda o: o["piles"].update(reserve=[])), "has no pile group 'reserve'"),
    (edit(lambda o: o["piles"].pop("foundation")), "missing pile group 'foundation'"),
    (edit(lambda o: o["piles"].update(fan="AS")), "must be a list of piles"),
    (edit(lambda o: o.update(deal=0)), "'deal' must be a whole number from 1 to 2147483647"),
    (edit(_black_ace_home), "foundation/0 starts with AC; it must start with AH or AD"),
]


@pytest.mark.parametrize(("text", "words"), BAD_DEALS)
def test_malformed_deal_files_fail_in_one_line(tmp_path: Path, text: str, words: str) -> None:
    assert_fails(run("moves", write(tmp_path, text)), 2, words)
    assert_fails(run("moves", "-", input=text), 2, words)


def test_an_impossible_position_fails_in_one_line(tmp_path: Path) -> None:
    obj = deal_to_dict(deal(load_game("acey-and-kingsley"), 1))
    obj["piles"]["waste"][0].append(obj["piles"]["tableau"][0].pop())  # an empty pile, cards in stock
    assert_fails(run("moves", write(tmp_path, json.dumps(obj))), 2, "tableau/0 is empty while the stock")


@pytest.mark.parametrize("command", ["moves", "check"])
def test_unreadable_files_fail_in_one_line(tmp_path: Path, command: str) -> None:
    missing = str(tmp_path / "nope.json")
    assert_fails(run(command, missing), 2, f"cannot read {missing!r}", "no such file")
    assert_fails(run(command, str(tmp_path)), 2, "cannot read", "directory")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00junk")
    assert_fails(run(command, str(binary)), 2, "not UTF-8 text")


NUL_NAME = "a\x00b.json"
"""A name no file system takes: Python's file functions raise ValueError for it, not an OSError."""
NO_NUL = "a file name cannot hold a null character"


@pytest.mark.parametrize("command", ["moves", "check", "hint", "solve", "play"])
def test_a_file_read_whose_name_holds_a_null_character_is_refused_in_one_line(command: str) -> None:
    assert_fails(run(command, NUL_NAME), 2, f"cannot read {NUL_NAME!r}: {NO_NUL}")


@pytest.mark.parametrize(
    "command", [["stats"], ["play", "fan", "1"], ["serve"], ["survey", "fan", "--deals", "1-2"]]
)
def test_a_database_whose_name_holds_a_null_character_is_refused_in_one_line(command: list[str]) -> None:
    assert_fails(run(*command, "--db", NUL_NAME), 2, f"invalid value for '--db': {NUL_NAME!r}: {NO_NUL}")


def test_a_game_id_alone_is_read_as_a_file_with_a_hint() -> None:
    assert_fails(run("moves", "fan"), 2, "cannot read 'fan'", "give the game and a number: fan 42")


# -- the wrong kind of file ----------------------------------------------------------


def a_solution_a_save_and_a_deal(tmp_path: Path) -> tuple[str, str, str]:
    """Files of each kind for fan deal 3: a solution, a game saved after one move, and the deal."""
    start = deal(load_game("fan"), 3)
    solution = write(tmp_path, solution_json(start, first_moves(start.copy(), 3)), "solution.json")
    save = str(tmp_path / "save.json")
    assert (
        "saved after 1 move" in run("play", "fan", "3", "--no-stats", input=f"t6 f3\nsave {save}\nq\n").output
    )
    return solution, save, write(tmp_path, json.dumps(deal_to_dict(start)), "deal.json")


def assert_short_one_line(result: Result, *words: str) -> None:
    """One line naming the problem, and no whole JSON object quoted in it (not one card of a deal)."""
    assert_fails(result, 2, *words)
    assert len(result.stderr) < 200 and not re.search(r"'[2-9TJQKA][CDHS]'", result.stderr), result.stderr


@pytest.mark.parametrize("command", [["solve"], ["moves"], ["hint"], ["solve", "--json"]])
def test_a_solution_given_for_a_deal_is_called_what_it_is(tmp_path: Path, command: list[str]) -> None:
    solution, _, _ = a_solution_a_save_and_a_deal(tmp_path)
    assert_short_one_line(
        run(*command, solution),
        f"{solution!r}: this is a solution, not a deal",
        "'cardtable check' replays it",
    )


@pytest.mark.parametrize("command", ["solve", "moves", "hint", "play"])
def test_a_file_of_several_solutions_is_told_as_one_for_a_command_that_reads_one_deal(
    tmp_path: Path, command: str
) -> None:
    deals = [write(tmp_path, deal_to_json(deal(load_game("fan"), n)), f"{n}.json") for n in (1, 2)]
    several = write(tmp_path, run("solve", "--json", *deals).output, "solutions.jsonl")
    assert_fails(
        run(command, several, input="q\n"),
        2,
        f"{several!r}: several json values one after another (solutions, one a line, as 'cardtable solve"
        " --json' writes them; 'cardtable check' replays them), where a deal file holds one deal",
    )
    two_deals = write(tmp_path, "\n".join(Path(name).read_text() for name in deals), "deals.json")
    assert_fails(run(command, two_deals, input="q\n"), 2, "several json values one after another (deals)")


def test_a_saved_game_is_asked_about_where_its_moves_left_it(tmp_path: Path) -> None:
    _, save, _ = a_solution_a_save_and_a_deal(tmp_path)  # fan deal 3 after t6 f3
    after = deal(load_game("fan"), 3)
    after.push(next(m for m in after.legal_moves if m.text().startswith("fan/6 foundation/3")))
    moves = run("moves", save)
    assert moves.exit_code == 0
    assert moves.output == run("moves", write(tmp_path, json.dumps(deal_to_dict(after)), "after.json")).output
    assert run("hint", save).output.startswith("play ")
    solved = run("solve", save, "--json")
    assert solved.exit_code == 0 and read_solution(solved.output).deal == after
    assert replay(read_solution(solved.output)).problem is None


def test_check_says_a_deal_or_a_save_is_not_a_solution(tmp_path: Path) -> None:
    _, save, deal_file = a_solution_a_save_and_a_deal(tmp_path)
    assert_short_one_line(
        run("check", deal_file),
        f"{deal_file!r}: this looks like a deal, not a solution",
        "under 'deal', with 'result' and 'moves'",
    )
    assert_short_one_line(run("check", save), f"{save!r}: this is a saved game, not a solution")


def test_a_record_whose_deal_is_a_number_says_so(tmp_path: Path) -> None:
    _, save, _ = a_solution_a_save_and_a_deal(tmp_path)
    obj = json.loads(Path(save).read_text(encoding="utf-8"))
    obj["deal"] = 1
    path = write(tmp_path, json.dumps(obj), "numbered.json")
    words = "its 'deal' must be a deal object (with 'game' and 'piles'), not 1"
    assert_short_one_line(run("play", path), f"{path!r}: ", words)
    obj["result"] = "won"
    assert_short_one_line(
        run("check", write(tmp_path, json.dumps(obj), "numbered.json")), f"{path!r}: ", words
    )


def test_a_long_value_is_quoted_as_a_short_excerpt(tmp_path: Path) -> None:
    obj = deal_to_dict(deal(load_game("fan"), 3))
    obj["deal"] = {"game": "fan", "piles": obj["piles"]}
    assert_short_one_line(
        run("moves", write(tmp_path, json.dumps(obj))), "'deal' must be a whole number", "..."
    )
    obj["deal"], obj["game"] = 3, ["fan"] * 100
    assert_short_one_line(run("moves", write(tmp_path, json.dumps(obj))), "needs a 'game' id string", "...")


def test_play_names_the_file_in_its_errors(tmp_path: Path) -> None:
    _, save, _ = a_solution_a_save_and_a_deal(tmp_path)
    obj = json.loads(Path(save).read_text(encoding="utf-8"))
    obj["moves"][0]["card"] = "KS"
    Path(save).write_text(json.dumps(obj), encoding="utf-8")
    assert_short_one_line(run("play", save), f"{save!r}: move 1 (")
    obj["deal"]["piles"]["fan"].pop()
    Path(save).write_text(json.dumps(obj), encoding="utf-8")
    assert_short_one_line(run("play", save), f"{save!r}: its deal: 'fan' has 17 piles")
    deal_file = write(tmp_path, json.dumps({"game": "fan", "piles": {}}))
    assert_short_one_line(run("play", deal_file), f"{deal_file!r}: missing pile group")


# -- check ---------------------------------------------------------------------


def test_check_accepts_a_legal_line_of_play(tmp_path: Path) -> None:
    start = deal(load_game("alexander-the-great"), 1)
    moves = first_moves(start.copy(), 4)
    text = solution_json(start, moves)
    assert run("check", write(tmp_path, text)).output == "ok 4 moves\n"
    result = run("check", "-", input=text)
    assert result.exit_code == 0 and result.output == "ok 4 moves\n"


def test_check_accepts_a_won_solution(tmp_path: Path) -> None:
    start = nearly_won()
    text = solution_json(start, WINNING_MOVES, "won")
    result = run("check", write(tmp_path, text))
    assert result.exit_code == 0 and result.output == "ok 2 moves\n"


def test_check_replays_redeals_and_deals(tmp_path: Path) -> None:
    for game, number in [("alexander-the-great-lucie", LUCIE_BLOCKED_AT_START), ("acey-and-kingsley", 2)]:
        start = deal(load_game(game), number)
        played = start.copy()
        first_moves(played, 6)
        text = solution_json(start, played.move_stack)
        assert run("check", write(tmp_path, text)).output == "ok 6 moves\n"


def test_check_names_the_first_illegal_move(tmp_path: Path) -> None:
    start = deal(load_game("alexander-the-great"), 1)
    obj = json.loads(solution_json(start, first_moves(start.copy(), 4)))
    obj["moves"][2]["card"] = "KS"  # not the top card of its pile
    result = run("check", write(tmp_path, json.dumps(obj)))
    assert result.exit_code == 1
    line = result.output.strip()
    assert line.startswith("not ok: move 3 (") and "is illegal: the top of" in line
    assert json.dumps(obj["moves"][2]) in line


def test_check_quotes_a_lone_surrogate_as_its_escape(tmp_path: Path) -> None:
    start = deal(load_game("alexander-the-great"), 1)
    obj = json.loads(solution_json(start, first_moves(start.copy(), 4)))
    obj["moves"][2]["to"] = "\ud800/0"  # JSON lets one in; no UTF-8 output could write it as it is
    result = run("check", write(tmp_path, json.dumps(obj)))
    assert result.exit_code == 1, result.stderr
    assert result.output.startswith("not ok: move 3 (") and "there is no pile \\ud800/0" in result.output


def test_check_fails_a_won_claim_that_does_not_win(tmp_path: Path) -> None:
    start = nearly_won()
    text = solution_json(start, WINNING_MOVES[:1], "won")
    result = run("check", write(tmp_path, text))
    assert result.exit_code == 1
    assert result.output.startswith("not ok: the moves end without a win")


@pytest.mark.parametrize("verdict", ["unwinnable", "unknown"])
def test_check_fails_a_verdict_that_its_own_moves_disprove(tmp_path: Path, verdict: str) -> None:
    text = solution_json(nearly_won(), WINNING_MOVES, verdict)
    result = run("check", write(tmp_path, text))
    assert result.exit_code == 1
    assert result.output == f"not ok: the moves win, so the result is 'won', not {verdict!r}\n"


@pytest.mark.parametrize(
    ("verdict", "after"), [("unwinnable", "; an unwinnable claim is not checked"), ("unknown", "")]
)
def test_check_passes_a_claim_with_no_line_but_says_an_unwinnable_one_is_not_proved(
    tmp_path: Path, verdict: str, after: str
) -> None:
    result = run("check", write(tmp_path, solution_json(nearly_won(), [], verdict)))
    assert result.exit_code == 0
    assert result.output.startswith(f"ok 0 moves{after}")


def test_check_fails_a_solved_deal_relabelled_unwinnable(tmp_path: Path) -> None:
    solved = json.loads(run("solve", "fan", "3", "--json").output)
    assert solved["result"] == "won"
    solved["result"] = "unwinnable"
    result = run("check", write(tmp_path, f"{solution_json(nearly_won(), [])}\n{json.dumps(solved)}\n"))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "not ok: solution 2 (fan deal 3): the moves win, so the result is 'won', not 'unwinnable'",
        "not ok: 1 of 2 solutions",
    ]


def test_check_reads_several_solutions_one_after_another(tmp_path: Path) -> None:
    start = deal(load_game("alexander-the-great"), 1)
    four = solution_json(start, first_moves(start.copy(), 4))
    won = solution_json(nearly_won(), WINNING_MOVES, "won")
    pretty = json.dumps(json.loads(won), indent=2)  # one after another, not only one a line
    result = run("check", write(tmp_path, f"{won}\n{four}\n\n{pretty}\n"))
    assert result.exit_code == 0 and result.output == "ok 3 solutions (2 won, 1 unknown), 8 moves\n"


def test_check_of_several_names_each_that_fails_and_fails(tmp_path: Path) -> None:
    start = deal(load_game("alexander-the-great"), 1)
    good = solution_json(start, first_moves(start.copy(), 4))
    bad = json.loads(good)
    bad["moves"][2]["card"] = "KS"
    short = solution_json(nearly_won(), WINNING_MOVES[:1], "won")
    result = run("check", write(tmp_path, "\n".join([good, json.dumps(bad), good, short])))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("not ok: solution 2 (alexander-the-great deal 1): move 3 (")
    assert lines[1].startswith("not ok: solution 4 (alexander-the-great): the moves end without a win")
    assert lines[2:] == ["not ok: 2 of 4 solutions"]


def test_a_malformed_solution_among_several_is_named_with_its_line_and_the_rest_checked(
    tmp_path: Path,
) -> None:
    good = solution_json(deal(load_game("fan"), 1), [])
    bad = json.loads(good)
    bad["result"] = "maybe"
    checked = run("check", write(tmp_path, f"{good}\n\n{json.dumps(bad)}\n{good}\n"))
    assert checked.exit_code == 1
    assert checked.output.splitlines() == [
        "not ok: solution 2 (line 3): 'result' must be one of won, unwinnable, unknown, not \"maybe\"",
        "not ok: 1 of 3 solutions",
    ]
    alone = write(tmp_path, json.dumps(bad), "alone.json")  # one record that is no solution: no file to check
    assert_fails(run("check", alone), 2, f"{alone!r}: 'result' must be one of")
    assert_fails(run("check", write(tmp_path, f"{good}\n{{\n")), 2, "malformed solution json at line 3")
    broken = run(
        "check", write(tmp_path, f"{good}\n{json.dumps(bad)}\n{{\n{good}\n")
    )  # how those before fared
    assert_fails(broken, 2, "malformed solution json at line 4")
    assert broken.stdout.splitlines()[-1] == (
        "not ok: 1 of the 2 solutions read so far failed, and the rest cannot be read:"
    )
    assert_fails(run("check", "-", input=" \n"), 2, "standard input: no solution in it: it is empty")


def test_check_reads_gzip_from_standard_input_and_refuses_what_cannot_be_a_solution(tmp_path: Path) -> None:
    start = deal(load_game("alexander-the-great"), 1)
    both = f"{solution_json(start, first_moves(start.copy(), 4))}\n{solution_json(nearly_won(), WINNING_MOVES, 'won')}\n"
    packed = CliRunner().invoke(main, ["check", "-"], input=gzip.compress(both.encode()))
    assert packed.exit_code == 0 and packed.output == "ok 2 solutions (1 won, 1 unknown), 6 moves\n"
    endless = run("check", "/dev/zero")  # read a piece at a time: refused at its first character
    assert_fails(endless, 2, "'/dev/zero': malformed solution json at line 1 column 1: expecting value")


def test_a_file_that_starts_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"  # as some Windows editors save UTF-8
    path.write_bytes(b"\xef\xbb\xbf" + deal_to_json(deal(load_game("fan"), 3)).encode())
    result = run("moves", str(path))
    assert result.exit_code == 0 and set(result.output.splitlines()) == legal_lines(deal(load_game("fan"), 3))


def test_a_deal_file_longer_than_any_deal_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_VALUE", 100)
    path = write(tmp_path, deal_to_json(deal(load_game("fan"), 1)))
    assert_fails(run("solve", path), 2, f"cannot read {path!r}: longer than")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda o: o.update(result="maybe"), "'result' must be one of won, unwinnable, unknown"),
        (lambda o: o.update(moves={}), "'moves' must be a list"),
        (lambda o: o["moves"].append({"from": "fan/1"}), "lacks 'to'"),
        (lambda o: o["deal"]["piles"].pop("fan"), "its deal: missing pile group 'fan'"),
    ],
)
def test_malformed_solutions_fail_with_exit_code_2(
    tmp_path: Path, change: Callable[[dict[str, Any]], object], words: str
) -> None:
    obj = json.loads(solution_json(deal(load_game("fan"), 1), []))
    change(obj)
    path = write(tmp_path, json.dumps(obj))
    assert_fails(run("check", path), 2, f"{path!r}: ", words)
    assert_fails(run("check", "-", input="{"), 2, "standard input: malformed solution json")


# -- options ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (["solve", "fan", "3"], "is too short: give 0 for no limit, or at least 0.001 seconds"),
        (["survey", "fan", "--deals", "1-2"], "is too short: give 0 for no limit, or at least 0.001 seconds"),
        (["hint", "fan", "3"], "is too short: give at least 0.001 seconds"),
    ],
)
def test_a_timeout_too_short_to_solve_anything_is_refused_alike_by_solve_and_survey(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], words: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert_fails(run(*command, "--timeout", "1e-9"), 2, words)
    assert list(tmp_path.iterdir()) == []


def test_a_timeout_of_0_is_none_for_solve_as_for_survey_but_hint_needs_one() -> None:
    """A hint that finds the game lost looks back as long again, so it cannot do without a time."""
    assert run("solve", "fan", "3", "--timeout", "0").output.startswith("fan deal 3: won in 65 moves")
    assert_fails(
        run("hint", "fan", "3", "--timeout", "0"), 2, "'0' is too short: give at least 0.001 seconds"
    )


@pytest.mark.parametrize("seconds", ["nan", "NaN", "inf", "-inf", "Infinity"])
@pytest.mark.parametrize(
    "command",
    [
        ["solve", "fan", "3"],
        ["hint", "fan", "3"],
        ["survey", "fan", "--deals", "1-2", "--db", "unused.sqlite"],
    ],
)
def test_a_timeout_that_is_no_number_of_seconds_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], seconds: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run(*command, "--timeout", seconds)
    assert result.exit_code == 2, result.output
    assert "invalid value for '--timeout'" in result.stderr and "not a finite number" in result.stderr
    assert "Traceback" not in result.output and list(tmp_path.iterdir()) == []


# -- the installed script and the architecture --------------------------------------


def script() -> str:
    """The ``cardtable`` console script installed beside this Python."""
    beside = Path(sys.executable).parent / "cardtable"
    found = str(beside) if beside.exists() else shutil.which("cardtable")
    if found is None:
        pytest.skip("the cardtable script is not installed")
    return found


def test_the_installed_script_pipes_a_deal_into_moves() -> None:
    dealt = subprocess.run([script(), "deal", "fan", "3", "--json"], capture_output=True, text=True)
    assert dealt.returncode == 0
    moves = subprocess.run([script(), "moves", "-"], input=dealt.stdout, capture_output=True, text=True)
    assert moves.returncode == 0
    assert set(moves.stdout.splitlines()) == legal_lines(deal(load_game("fan"), 3))


def test_the_installed_script_reads_standard_input_once_compressed_or_not() -> None:
    dealt = subprocess.run([script(), "deal", "fan", "3", "--json"], capture_output=True, check=True).stdout
    packed = subprocess.run([script(), "solve", "-"], input=gzip.compress(dealt), capture_output=True)
    assert packed.returncode == 0 and packed.stdout.startswith(
        b"standard input (fan deal 3): won in 65 moves"
    )
    twice = subprocess.run([script(), "solve", "-", "-"], input=dealt, capture_output=True)
    assert twice.returncode == 2 and twice.stderr.decode().splitlines() == [
        "cardtable: '-' is given more than once: standard input can be read only once"
    ]


def test_the_installed_script_reports_errors_in_one_line() -> None:
    for args, words in [
        (["deal", "fan", "0"], "not a deal number: '0'"),
        (["moves", "/nonexistent"], "cannot read"),
    ]:
        done = subprocess.run([script(), *args], capture_output=True, text=True)
        assert done.returncode == 2
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1 and words in done.stderr and "Traceback" not in done.stderr


class InterruptedImport(importlib.abc.MetaPathFinder):
    """A finder that stands for a Ctrl-C arriving while Python loads the command line."""

    def find_spec(self, fullname: str, path: object, target: object = None) -> None:
        if fullname == "cardtable.cli.main":
            raise KeyboardInterrupt


def test_a_ctrl_c_while_the_command_line_loads_ends_as_an_interrupt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delitem(sys.modules, "cardtable.cli.main")
    monkeypatch.setattr(sys, "meta_path", [InterruptedImport(), *sys.meta_path])
    with pytest.raises(SystemExit) as stop:
        cardtable.__main__.run()
    assert stop.value.code == INTERRUPTED_EXIT
    assert capsys.readouterr() == ("", "cardtable: interrupted\n")


def test_python_dash_m_cardtable_runs_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "cardtable", "games"], capture_output=True, text=True)
    assert done.returncode == 0 and "acey-and-kingsley" in done.stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full, a device that is always full")
@pytest.mark.parametrize("args", [["deal", "fan", "3"], ["games"], ["solve", "fan", "3", "--json"]])
def test_output_that_cannot_be_written_is_one_line_not_a_traceback(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([script(), *args], stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2
    assert done.stderr == "cardtable: cannot write the output: no space left on device\n"


@pytest.mark.parametrize(
    ("args", "printed_first"),
    [(["deal", "fan", "3"], ""), (["hint", "-"], ""), (["solve", "fan", "3"], "fan deal 3: won in 65 moves")],
)
def test_the_commands_that_print_cards_refuse_alike_an_output_that_cannot_show_them(
    args: list[str], printed_first: str
) -> None:
    """click.echo alone would write UTF-8 to an ASCII output; cardtable gives its advice instead."""
    ascii_only = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run(
        [script(), *args],
        input=deal_to_json(deal(load_game("fan"), 3)),
        capture_output=True,
        text=True,
        env=ascii_only,
    )
    assert (
        done.returncode == 2
        and done.stdout.startswith(printed_first)
        and "\N{BLACK CLUB SUIT}" not in done.stdout
    )
    assert done.stderr.splitlines() == [
        "cardtable: the output's encoding (ascii) cannot show the card symbols:"
        " use a UTF-8 locale (such as LANG=C.UTF-8) or set PYTHONIOENCODING=utf-8"
    ]


def test_a_closed_pipe_still_ends_quietly() -> None:
    reading, writing = os.pipe()
    os.close(reading)  # whatever the command writes meets a broken pipe
    try:
        done = subprocess.run([script(), "games"], stdout=writing, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(writing)
    assert done.returncode == 1 and done.stderr == ""


def test_the_core_never_imports_the_render_or_cli_modules() -> None:
    code = (
        "import sys, cardtable, cardtable.formats, cardtable.core.notation;"
        "bad = [m for m in sys.modules if m.startswith(('cardtable.render', 'cardtable.cli'))];"
        "print(bad)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@click.command()
def stopped_while_loading() -> None:
    """Stands for a command whose module a Ctrl-C interrupts before the command can take it as its own."""
    raise KeyboardInterrupt


def test_a_ctrl_c_no_command_took_is_one_line_and_exit_130(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(COMMANDS, "stopped", ("test_cli", "stopped_while_loading"))
    result = CliRunner().invoke(main, ["stopped"])
    assert (result.exit_code, result.stderr, result.stdout) == (130, "cardtable: interrupted\n", "")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play"], "cardtable: missing argument 'GAME|FILE' (see 'cardtable play --help')"),
        (
            ["survey", "fan", "--workers", "0"],
            "cardtable: invalid value for '--workers': 0 is not in the range x>=1",
        ),
        (["nosuch"], "cardtable: no such command 'nosuch' (see 'cardtable --help')"),
        (["--bogus"], "cardtable: no such option '--bogus' (see 'cardtable --help')"),
    ],
)
def test_clicks_refusals_are_one_line_too(args: list[str], said: str) -> None:
    result = CliRunner().invoke(main, args, prog_name="cardtable")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(said), result.stderr


def test_the_command_alone_shows_its_help() -> None:
    """As click shows it: the one refusal that is not one line."""
    result = CliRunner().invoke(main, [], prog_name="cardtable")
    assert result.output.startswith("Usage: cardtable [OPTIONS] COMMAND [ARGS]...")
