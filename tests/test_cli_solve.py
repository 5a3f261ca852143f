"""``cardtable solve`` and ``cardtable hint`` from the command line."""

from __future__ import annotations

import json
import os
import re
import signal
from pathlib import Path
from typing import Final

import pytest

from cardtable import card_symbol, deal, load_game
from cardtable.cli.session import Session
from cardtable.formats import deal_to_json, read_solution, replay
from test_cli import assert_fails, nearly_won, run, write
from test_play_terminal import exit_code, on_a_terminal, read_until


def test_solve_a_numbered_deal_prints_the_verdict_and_the_line() -> None:
    result = run("solve", "fan", "3")
    assert result.exit_code == 0, result.stderr
    first = result.output.splitlines()[0]
    assert first.startswith("fan deal 3: won in 65 moves (")
    assert "1. t6 f0" in result.output


def test_positions_from_files_are_told_apart_by_their_names(tmp_path: Path) -> None:
    start = write(tmp_path, deal_to_json(deal(load_game("fan"), 3)), "start.json")
    near = write(tmp_path, deal_to_json(nearly_won()), "near.json")
    result = run("solve", start, near)
    verdicts = [line for line in result.output.splitlines() if ": won in" in line]
    assert [line.partition(": ")[0] for line in verdicts] == [
        f"{start} (fan deal 3)",
        f"{near} (alexander-the-great)",
    ]


def test_a_game_id_and_a_number_are_a_deal_even_where_files_have_their_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As for moves and hint: './fan' names the file."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, deal_to_json(deal(load_game("fan"), 5)), "fan")
    write(tmp_path, deal_to_json(deal(load_game("fan"), 6)), "3")
    assert run("solve", "fan", "3").output.startswith("fan deal 3: won in 65 moves")
    assert run("hint", "fan", "3").output.startswith("play t6 f0 (A♣ ")
    assert (
        run("moves", "fan", "3").output
        == run("moves", "-", input=deal_to_json(deal(load_game("fan"), 3))).output
    )
    files = run("solve", "./fan", "./3").output
    assert "./fan (fan deal 5): " in files and "./3 (fan deal 6): " in files
    assert_fails(
        run("solve", "fan", "3", "4"), 2, "one deal number after the game: fan 3", "the file 'fan' is ./fan"
    )


def test_solve_json_is_a_solution_that_check_accepts(tmp_path: Path) -> None:
    result = run("solve", "fan", "3", "--json")
    solution = read_solution(result.output)
    assert solution.result == "won"
    assert replay(solution).problem is None
    checked = run("check", write(tmp_path, result.output, "solution.json"))
    assert checked.output == f"ok {len(solution.moves)} moves\n"


def test_solve_several_files_prints_json_lines_in_order(tmp_path: Path) -> None:
    lost = deal(load_game("alexander-the-great"), 2)
    files = [
        write(tmp_path, deal_to_json(nearly_won()), "a.json"),
        write(tmp_path, deal_to_json(lost), "b.json"),
    ]
    result = run("solve", *files, "--json")
    lines = result.output.splitlines()
    assert [json.loads(line)["result"] for line in lines] == ["won", "unwinnable"]
    assert json.loads(lines[1])["deal"]["deal"] == 2
    checked = run("check", write(tmp_path, result.output, "solutions.jsonl"))
    assert checked.output == (
        "ok 2 solutions (1 won, 1 unwinnable), 2 moves; an unwinnable claim is not checked: a replay can prove only a win\n"
    )


def test_a_budget_that_runs_out_says_unknown() -> None:
    result = run("solve", "alexander-the-great-lucie", "1", "--max-states", "3")
    assert "unknown: searched 3 positions before a verdict" in result.output
    record = json.loads(run("solve", "alexander-the-great-lucie", "1", "--max-states", "3", "--json").output)
    assert (record["result"], record["moves"]) == ("unknown", [])
    assert record["stats"]["states"] == 3, "a budget of 3 positions searched 3"
    assert record["stats"]["reason"] == "searched 3 positions", "unknown says why: a budget, not Ctrl-C"


def test_solve_reports_bad_input_in_one_line(tmp_path: Path) -> None:
    assert_fails(run("solve", "klondike", "3"), 2, "unknown game: 'klondike'")
    assert_fails(run("solve", "fan(x=1)", "3"), 2, "fan has no option 'x'")
    assert_fails(run("solve", "missing.json", "other.json"), 2, "cannot read 'missing.json'")
    assert_fails(run("solve", "fan", "0"), 2, "not a deal number")
    assert_fails(run("solve", write(tmp_path, "{nope")), 2, "malformed deal json")
    bad_budget = run("solve", "fan", "3", "--timeout", "-1")
    assert bad_budget.exit_code == 2
    assert "invalid value for '--timeout'" in bad_budget.stderr


def test_a_bad_file_among_several_is_named_and_nothing_is_solved(tmp_path: Path) -> None:
    good = write(tmp_path, deal_to_json(nearly_won()), "good.json")
    bad = write(tmp_path, "{nope", "bad.json")
    result = run("solve", good, bad, "--json")
    assert_fails(result, 2, f"{bad!r}: malformed deal json at line 1 column 2")
    assert result.stdout == ""
    assert_fails(run("solve", "-", input="{nope"), 2, "standard input: malformed deal json")


def test_a_deal_picture_is_not_a_deal_file_and_the_message_says_how_to_write_one(tmp_path: Path) -> None:
    picture = write(tmp_path, run("deal", "acey-and-kingsley", "13").output, "deal13.txt")
    assert_fails(run("hint", picture), 2, "malformed deal json", "cardtable deal GAME N --json")
    assert_fails(run("solve", write(tmp_path, "{nope")), 2, "malformed deal json")
    assert "cardtable deal" not in run("solve", write(tmp_path, "{nope")).stderr


def test_hint_names_a_move_or_says_the_position_is_lost(tmp_path: Path) -> None:
    won = run("hint", write(tmp_path, deal_to_json(nearly_won())))
    assert (
        won.output
        == "play t0 f0 (K♥ fan/0 to foundation/0): the game can be won (the solver's line takes 2 moves)\n"
    )
    lost = run("hint", "alexander-the-great", "2")
    assert lost.output == "no move wins from here: this position cannot be won\n"  # a deal: never could
    unknown = run("hint", "alexander-the-great-lucie", "1", "--max-states", "3")
    assert unknown.output.startswith(
        "try t10 f0 (A♠ fan/10 to foundation/0): the solver's best guess, not proved to win"
        " (searched 3 positions before"
    )


def saved_game(path: Path, game: str, number: int, moves: list[str]) -> str:
    """Play ``moves`` on the deal and save the game at ``path``; the path, for the command line."""
    session = Session(deal(load_game(game), number))
    for text in moves:
        session.play(text)
    session.save(str(path))
    return str(path)


def test_hint_on_a_lost_saved_game_says_how_far_back_it_still_could_be_won(tmp_path: Path) -> None:
    lost = saved_game(tmp_path / "lost.json", "fan", 4, ["t4 t0", "t14 t3", "t0 f1", "t0 t16"])
    assert run("hint", lost).output == (
        "no move wins from here: this position can no longer be won;"
        f" 3 moves back it still could (cardtable play {lost}, then 'undo 3')\n"
    )
    piped = run("hint", "-", input=Path(lost).read_text(encoding="utf-8"))
    assert piped.output.endswith("; 3 moves back it still could (resume the game, then 'undo 3')\n")


def stopped_on_a_terminal(
    args: list[str], live: re.Pattern[bytes], said: re.Pattern[bytes]
) -> tuple[bytes, int]:
    """``cardtable ARGS`` on a terminal, Ctrl-C once ``live`` shows, until ``said``: what it showed, its exit code."""
    pid, terminal = on_a_terminal(80, *args)
    shown = read_until(terminal, live)
    os.kill(pid, signal.SIGINT)
    shown += read_until(terminal, said)
    code = exit_code(pid)
    os.close(terminal)
    return shown, code


# Alexander the Great, La Belle Lucie form, deal 4 (lost from its start) to where a hint proves
# the position lost at once, and takes seconds to prove the positions before it lost too
LUCIE_4_LOST: Final = [
    "t4 t0",
    "t7 t17",
    "t0 f0",
    "t2 t13",
    "t6 t7",
    "t4 t1",
    "t4 t17",
    "t2 t11",
    "t9 t1",
    "t6 t14",
    "t0 f0",
    "t0 t6",
    "t16 f0",
    "t0 t10",
    "redeal",
    "t16 t0",
    "t9 t2",
    "t14 t6",
    "t0 f3",
    "t12 t11",
    "t0 f3",
    "t2 f3",
    "t14 f1",
    "t15 t13",
    "t2 f3",
    "t3 t2",
    "t5 f3",
    "t3 t11",
    "t15 t3",
    "t1 t5",
    "t9 t11",
    "t9 t11",
    "redeal",
    "t1 t9",
    "t12 t11",
    "t2 f0",
    "t2 t14",
    "t8 t11",
    "t5 t10",
    "t3 t11",
    "t13 t3",
    "t13 f1",
    "t5 t1",
]


def test_a_look_back_stopped_by_its_position_budget_says_where_and_why(tmp_path: Path) -> None:
    lost = saved_game(tmp_path / "lost.json", "alexander-the-great-lucie", 4, LUCIE_4_LOST)
    said = run("hint", lost, "--max-states", "2000").output
    assert re.search(
        r"; the solver could not tell whether the position \d+ moves back can still be won"
        r" \(searched 2,000 positions\)\n$",
        said,
    ), said


def test_ctrl_c_while_a_hint_looks_back_ends_it_as_interrupted_with_exit_code_130(tmp_path: Path) -> None:
    lost = saved_game(tmp_path / "lost.json", "alexander-the-great-lucie", 4, LUCIE_4_LOST)
    verdict = re.compile(rb"interrupted before the solver found how far back it still could")
    live = re.compile(rb"solving the position \d+ moves? back: [\d,]+ positions")
    shown, code = stopped_on_a_terminal(["hint", lost], live, verdict)
    words = b" ".join(shown.split())  # wrapped to the terminal's width
    assert verdict.search(words), shown
    assert b"no move wins from here: this position can no longer be won;" in words
    assert code == 130


def test_ctrl_c_in_a_terminal_ends_a_long_solve_with_its_cost_and_exit_code_130() -> None:
    # A real terminal (a pseudo-terminal) and a real SIGINT: the live line shows how
    # far the search has got, and Ctrl-C turns it into an 'unknown' verdict, not "Aborted!".
    # No budget, on a deal that outlasts any test.
    verdict = re.compile(rb"deal 13: unknown: interrupted before a verdict \([\d,]+ positions, [\d.]+ s\)")
    live = re.compile(rb"solving acey-and-kingsley deal 13: [\d,]+ positions")
    shown, code = stopped_on_a_terminal(["solve", "acey-and-kingsley", "13"], live, verdict)
    assert verdict.search(shown), shown
    assert code == 130


def test_ctrl_c_during_a_hint_in_play_stops_the_search_not_the_game() -> None:
    # The terminal session keeps no save: Ctrl-C while a hint thinks must not end it.
    pid, terminal = on_a_terminal(80, "play", "acey-and-kingsley", "13")
    read_until(terminal, re.compile(rb"> "))
    os.write(terminal, b"d\nhint\n")
    read_until(terminal, re.compile(rb"solving for a hint: [\d,]+ positions"))
    os.kill(pid, signal.SIGINT)
    stopped = read_until(terminal, re.compile(rb"no hint: interrupted.*\n.*> ", re.DOTALL))
    os.write(terminal, b"quit\nquit\n")  # the second: leave the dealt card unsaved
    code = exit_code(pid)
    os.close(terminal)
    assert b"no hint: interrupted before the solver found a win" in stopped, stopped
    assert b"Aborted" not in stopped
    assert code == 0


def test_a_solved_line_shows_the_fans_each_redeal_deals() -> None:
    result = run("solve", "alexander-the-great-lucie", "1")
    assert result.exit_code == 0
    solution = read_solution(run("solve", "alexander-the-great-lucie", "1", "--json").output)
    board = deal(load_game("alexander-the-great-lucie"), 1)
    redeals = 0
    for number, move in enumerate(solution.moves, 1):
        board.push(move)
        if move.kind == "redeal":
            redeals += 1
            fans = [" ".join(card_symbol(card) for card in fan) for fan in board.group("fan")]
            block = result.output.split(f"{number}. redeal\n", 1)[1].splitlines()
            assert block[0] == "   the fans are now:"
            assert [line.split() for line in block[1 : len(fans) + 1]] == [
                [f"t{i}", *fan.split()] for i, fan in enumerate(fans)
            ]
    assert redeals, "deal 1's line goes through a redeal"


def test_a_solved_line_typed_as_printed_plays_to_the_win_card_by_card() -> None:
    """docs/terminal.md: the card is printed so that a line replayed by hand can be checked card by card."""
    printed = run("solve", "alexander-the-great-lucie", "1").output
    game = Session(deal(load_game("alexander-the-great-lucie"), 1))
    for typed in re.findall(r"\b[0-9]+\. (.+?)(?= {3}|$)", printed, flags=re.MULTILINE):
        reply = game.handle(typed)
        assert reply.redraw, (typed, reply.message)
    assert game.state.is_won()
    wrong = Session(deal(load_game("fan"), 3)).handle("t6 f0 2♣")
    assert wrong.message == "illegal move: 't6 f0 2♣': t6 holds A♣ on top, not 2♣"


def shown_on_a_terminal(columns: int, *args: str) -> list[str]:
    """The lines ``cardtable ARGS`` shows on a terminal ``columns`` wide, once it has ended."""
    pid, terminal = on_a_terminal(columns, *args)
    shown = read_until(terminal, re.compile(rb"(?!)"), seconds=20)  # until the terminal closes
    assert exit_code(pid) == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.decode("utf-8").replace("\r", ""))
    return [line for line in text.split("\n") if line.strip()]


def test_games_rules_and_a_solved_line_fit_a_narrow_terminal_without_splitting_a_word_or_a_move() -> None:
    games = shown_on_a_terminal(50, "games")
    assert all(len(line) <= 50 for line in games)
    assert games[1].startswith(" " * len("alexander-the-great-lucie  ")), "going on under the name"
    rules = shown_on_a_terminal(60, "rules", "acey-and-kingsley")
    assert all(len(line) <= 60 for line in rules)
    assert "- the top of a reserve, a tableau pile, the waste or a" in rules, "a list item filled again"
    assert " ".join(rules).split() == run("rules", "acey-and-kingsley").output.split(), "every word, in order"
    solved = [line for line in shown_on_a_terminal(40, "solve", "fan", "3") if re.match(r"\s*\d+\. ", line)]
    assert all(len(line) <= 40 for line in solved)
    cells = [cell for line in solved for cell in re.split(r"(?<=\S)\s{3,}(?=\d)", line.strip())]
    assert cells[:3] == ["1. t6 f0 A♣", "2. t1 f0 2♣", "3. t9 t6 3♠"], "each move whole, with its card"
    assert len(cells) == 65


def test_a_count_of_positions_may_be_a_power_of_ten_and_anything_else_is_named() -> None:
    assert run("solve", "alexander-the-great-lucie", "1", "--max-states", "3e0").output.startswith(
        run("solve", "alexander-the-great-lucie", "1", "--max-states", "3").output.split("(")[0]
    )
    assert run("solve", "fan", "1", "--max-states", "1e+6").exit_code == 0
    for typed in ("1e19", "1e5000"):  # the second, made an int, would have 5001 digits: too many to print
        assert_fails(
            run("solve", "fan", "1", "--max-states", typed),
            2,
            f"'--max-states': {typed!r} is over the most there can be, 9,223,372,036,854,775,807",
        )
    for typed in ("500k", "1,000", "1.5e0"):
        assert_fails(
            run("solve", "fan", "1", "--max-states", typed),
            2,
            f"'--max-states': {typed!r} is not a whole number (write 500000, or 5e5)",
        )


def test_the_help_of_timeout_says_what_it_times_in_each_command_and_hints_default() -> None:
    hint_help = " ".join(run("hint", "--help").output.split())
    assert (
        "--timeout SECONDS Seconds to think; a saved game that can no longer be won gets as long" in hint_help
    )
    assert "[default: 10.0; x>=0.001]" in hint_help and "each FILE" not in hint_help
    solve_help = " ".join(run("solve", "--help").output.split())
    assert (
        "--timeout SECONDS Seconds for each position solved (each FILE, or the deal); 0: none, as"
        " without it. [0 or x>=0.001]" in solve_help
    )
