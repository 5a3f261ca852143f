"""``cardtable play`` as a player sees it on a terminal: widths, Ctrl-C, and the words it uses.

Some tests drive the installed script through a pseudo-terminal of a given
width, since what goes wrong there (a line cut at the window's edge, a second
Ctrl-C) does not show through a pipe.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.console import Console

import cardtable.cli.play as play_module
from cardtable import deal, load_game
from cardtable.cli.main import main
from cardtable.cli.play import PROMPT
from cardtable.cli.session import Session
from cardtable.cli.stats import TERMINAL_PLAYER, stats_table
from cardtable.core.cards import card_symbol
from cardtable.formats import deal_to_dict
from cardtable.interrupts import Terminated
from cardtable.render.text import wrap
from cardtable.solver import draw
from cardtable.store import GameStats, Store
from test_cli import NO_COLOUR_SETTINGS, script
from test_play import BYE, nearly_won_fan

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[=>]")
LIVE_LINE = "solving for a hint"
UNTIL_IT_CLOSES = re.compile(rb"(?!)")  # matches nothing, not even at the start: read until the end
"""The hint's live line, drawn by rich's status display: not a line of the session."""


def play(*args: str, lines: list[str]) -> Result:
    typed = "".join(line + "\n" for line in lines)
    return CliRunner().invoke(main, ["play", *args], input=typed, env=NO_COLOUR_SETTINGS)


# -- on a pseudo-terminal -----------------------------------------------------------


def on_a_terminal(columns: int, *args: str) -> tuple[int, int]:
    """``cardtable ARGS`` on a pseudo-terminal ``columns`` wide, without colour: (its pid, the terminal).

    The width is set by the child on its own terminal before it starts, so the
    program never sees another. Ctrl-C is put back to what a terminal gives: a
    shell starts background jobs with SIGINT ignored, and Python then never
    raises KeyboardInterrupt, so a suite run in the background would otherwise
    see the tests of Ctrl-C fail.
    """
    command = script()
    environment = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES", "FORCE_COLOR"}}
    environment["NO_COLOR"] = "1"
    pid, terminal = pty.fork()
    if pid == 0:  # the child
        try:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
            os.execve(command, [command, *args], environment)
        finally:
            os._exit(127)  # never back into pytest
    return pid, terminal


def read_until(terminal: int, wanted: re.Pattern[bytes], seconds: float = 60) -> bytes:
    """What the terminal shows until it has shown ``wanted`` (or closes, or the time is up)."""
    shown = b""
    deadline = time.monotonic() + seconds
    while not wanted.search(shown) and time.monotonic() < deadline:
        ready, _, _ = select.select([terminal], [], [], 0.2)
        if ready:
            try:
                shown += os.read(terminal, 65536)
            except OSError:  # the child is gone and the terminal closed
                break
    return shown


def exit_code(pid: int, seconds: float = 30) -> int:
    """The child's exit code once it ends; killed, and the test failed, if it has not within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    raise AssertionError(f"cardtable did not end within {seconds} s")


def converse(columns: int, args: list[str], lines: list[str]) -> tuple[list[str], int]:
    """Type each line at its prompt; the lines the terminal shows (escapes removed) and the exit code."""
    pid, terminal = on_a_terminal(columns, *args)
    shown = read_until(terminal, re.compile(rb"> "))
    for line in lines:
        os.write(terminal, line.encode() + b"\r")
        shown += read_until(terminal, re.compile(rb"\n[^\n]*> "))
    shown += read_until(terminal, UNTIL_IT_CLOSES, seconds=1)  # the rest
    code = exit_code(pid)
    os.close(terminal)
    return screen_lines(shown), code


def shown_on_a_terminal(columns: int, args: list[str]) -> tuple[list[str], int]:
    """What a command that asks nothing shows on a terminal ``columns`` wide, and its exit code."""
    pid, terminal = on_a_terminal(columns, *args)
    shown = read_until(terminal, UNTIL_IT_CLOSES)
    code = exit_code(pid)
    os.close(terminal)
    return screen_lines(shown), code


def screen_lines(shown: bytes) -> list[str]:
    text = ESCAPES.sub("", shown.decode("utf-8", errors="replace"))
    return [line for line in re.split(r"\r\n|\n|\r", text) if LIVE_LINE not in line]


def words(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


@pytest.mark.parametrize("columns", [80, 60, 40])
def test_every_line_fits_the_terminal_and_no_word_is_cut(columns: int) -> None:
    typed = ["help", "hint", "xyz", "t12 f0", "quit", "quit"]
    lines, code = converse(columns, ["play", "alexander-the-great-lucie", "5", "--no-stats"], typed)
    assert code == 0
    too_wide = [line for line in lines if len(line) > columns]
    assert not too_wide, too_wide
    said = words(lines)
    for phrase in (
        "the top card of t3 onto a foundation, or onto the one pile that takes it",
        "(ranks A 2-10 J Q K or T, suits c d h s)",
        "play t12 f0 (A♥): the game can be won (the solver's line takes 83 moves)",
        "not a move: 'xyz' (try 't3 f1', 't3', a card like '7c' or 'redeal'; 'help' lists all)",
        "Not saved: 1 move. Type save [FILE] to keep the game, or quit again to leave without saving",
        "Bye. Play this deal again with: cardtable play alexander-the-great-lucie 5",
    ):
        assert phrase in said, phrase


@pytest.mark.parametrize(
    ("args", "typed"),
    [(["play", "acey-and-kingsley", "13", "--no-stats"], ["q"]), (["deal", "acey-and-kingsley", "13"], [])],
)
def test_acey_reserves_wrap_between_cards_on_a_narrow_terminal(args: list[str], typed: list[str]) -> None:
    lines, code = converse(40, args, typed) if typed else shown_on_a_terminal(40, args)
    assert code == 0
    assert not [line for line in lines if len(line) > 40]
    start = lines.index("Reserves") + 1
    rows = lines[start : lines.index("Tableau", start)]
    reserves = deal(load_game("acey-and-kingsley"), 13).group("reserve")
    expected = ["r0", *map(card_symbol, reserves[0]), "r1", *map(card_symbol, reserves[1])]
    assert " ".join(rows).split() == expected  # every card whole, in order
    assert rows[1].startswith(" " * 7), "a reserve goes on under its first card"


def test_a_second_ctrl_c_during_a_hint_ends_the_session_as_documented(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    pid, terminal = on_a_terminal(80, "play", "acey-and-kingsley", "13", "--db", str(db))
    read_until(terminal, re.compile(rb"> "))
    os.write(terminal, b"\r")  # Enter deals: one move to lose
    read_until(terminal, re.compile(rb"\n> "))
    os.write(terminal, b"hint\r")
    read_until(terminal, re.compile(rb"solving for a hint: [\d,]+ positions"))
    os.kill(pid, signal.SIGINT)
    time.sleep(0.005)
    os.kill(pid, signal.SIGINT)  # while the first is being handled
    shown = read_until(terminal, re.compile(rb"Bye\.[^\n]*\n"))
    code = exit_code(pid)
    os.close(terminal)
    said = words(screen_lines(shown))
    assert "Aborted" not in said
    assert (
        f"Not saved: 1 move. It counts as abandoned in your statistics. {BYE} acey-and-kingsley 13" in said
    ), said
    assert code == 0
    store = Store(db)
    try:
        (record,) = store.finished(TERMINAL_PLAYER)
    finally:
        store.close()
    assert (record.status, len(record.moves), record.hints) == ("abandoned", 1, 1)


class Window(io.StringIO):
    """A terminal, until its window closes: then reading and writing fail with EIO."""

    closed_window = False

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.closed_window:
            raise OSError(errno.EIO, "Input/output error")
        return super().write(text)


@pytest.mark.parametrize("reading", ["fails", "ends"])
def test_a_terminal_that_fails_to_read_or_write_has_hung_up(
    monkeypatch: pytest.MonkeyPatch, reading: str
) -> None:
    """The failure may come before the closed window's SIGHUP is handled: the game ends as that SIGHUP ends it.

    A read may fail, or end (the line editor takes the hang-up for the end of
    input), and then the goodbye fails to print.
    """
    window = Window()

    def read(prompt: str) -> str | None:
        window.closed_window = True
        if reading == "fails":
            raise OSError(errno.EIO, "Input/output error")
        return None

    monkeypatch.setattr(sys, "stdin", window)
    session = Session(deal(load_game("fan"), 3))
    with pytest.raises(Terminated) as ended:
        play_module.run_session(session, read, Console(file=window))
    assert ended.value.exit_code == 128 + signal.SIGHUP
    assert window.getvalue().startswith("Fan · deal 3\n")  # the table was shown before the window closed


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_terminal_closed_or_a_sigterm_keeps_the_game_as_ctrl_c_does(
    tmp_path: Path, signum: int, code: int
) -> None:
    db = tmp_path / "db.sqlite"
    pid, terminal = on_a_terminal(80, "play", "acey-and-kingsley", "13", "--db", str(db))
    read_until(terminal, re.compile(rb"> "))
    os.write(terminal, b"\r")  # Enter deals: one move to keep
    read_until(terminal, re.compile(rb"\n> "))
    if signum == signal.SIGHUP:
        os.close(terminal)  # the window closed: nothing more can be shown
    os.kill(pid, signum)
    assert exit_code(pid) == code  # (what it says as it ends is Ctrl-C's, tested above: a pty may drop it)
    if signum == signal.SIGTERM:
        os.close(terminal)  # only now: closing it sends the SIGHUP of a closed window
    store = Store(db)
    try:
        (record,) = store.finished(TERMINAL_PLAYER)
    finally:
        store.close()
    assert (record.status, len(record.moves)) == ("abandoned", 1)


def test_a_ctrl_c_typed_at_once_after_text_is_not_left_waiting_for_a_key() -> None:
    # readline noticed a signal only while it waited for a key: one that came as it took
    # the typed text waited for the next key (3 of 8 tries here, before signals_reach_the_prompt)
    for _ in range(6):
        pid, terminal = on_a_terminal(80, "play", "fan", "3", "--no-stats")
        read_until(terminal, re.compile(rb"> "))
        os.write(terminal, b"t1 f\x03")
        try:
            assert exit_code(pid, seconds=10) == 0
        finally:
            os.close(terminal)


def test_a_sigterm_while_a_hint_thinks_ends_the_session_not_only_the_hint(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    pid, terminal = on_a_terminal(80, "play", "acey-and-kingsley", "13", "--db", str(db))
    read_until(terminal, re.compile(rb"> "))
    os.write(terminal, b"hint\r")
    read_until(terminal, re.compile(rb"solving for a hint: [\d,]+ positions"))
    os.kill(pid, signal.SIGTERM)
    read_until(terminal, UNTIL_IT_CLOSES)
    os.close(terminal)
    assert exit_code(pid) == 143


def test_an_output_without_the_card_symbols_is_one_line_not_a_traceback() -> None:
    ascii_only = {**os.environ, "PYTHONIOENCODING": "ascii"}
    command = [script(), "play", "fan", "1", "--no-stats"]
    done = subprocess.run(command, input="q\n", capture_output=True, text=True, env=ascii_only)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "cardtable: the output's encoding (ascii) cannot show the card symbols:"
        " use a UTF-8 locale (such as LANG=C.UTF-8) or set PYTHONIOENCODING=utf-8"
    ]


# -- the statistics table --------------------------------------------------------------


def test_the_statistics_fit_80_columns_with_a_long_game_id() -> None:
    long_id = "alexander-the-great-lucie(redeal_anytime=true)"
    table = stats_table(
        [
            GameStats("fan", 12, 5, 2, 3),
            GameStats(long_id, 4, 1, 0, 1),
            GameStats("fan", 1, 1, 1, 1, positions=True),
        ]
    ).splitlines()
    assert max(map(len, table)) <= 80
    assert table == [
        "game                 played    won  win rate  streak  best streak",
        "fan                      12      5     41.7%       2            3",
        long_id,
        "                          4      1     25.0%       0            1",
        "fan (own positions)       1      1    100.0%       1            1",
    ]


def test_a_game_with_options_keeps_cardtable_stats_within_80_columns(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite")
    long_id = "alexander-the-great-lucie(redeal_anytime=true)"
    played = play(long_id, "5", "--db", db, lines=["t12 f3", "q", "q"])
    assert played.exit_code == 0
    table = CliRunner().invoke(main, ["stats", "--db", db], env=NO_COLOUR_SETTINGS)
    assert table.exit_code == 0 and max(map(len, table.output.splitlines())) <= 80
    assert long_id in table.output.splitlines()


# -- the words it uses -----------------------------------------------------------------


def test_a_hint_counts_its_moves_in_good_english_and_names_piles_by_code() -> None:
    game = Session(nearly_won_fan())
    assert wrap(game.hint(), None) == "play t1 f3 (Q♠): the game can be won (the solver's line takes 2 moves)"
    game.play("t1")  # a game under way: "still"
    assert (
        wrap(game.hint(), None)
        == "play t0 f3 (K♠): the game can still be won (the solver's line takes 1 move)"
    )


def test_illegal_moves_name_piles_by_the_codes_the_player_types() -> None:
    game = Session(deal(load_game("acey-and-kingsley"), 13))
    assert game.handle("r0 f0").message == "illegal move: 'r0 f0': J♣ does not go on A♣ (f0 takes a 2 next)"
    assert (
        game.handle("t3 t0").message
        == "illegal move: 't3 t0': t0 holds 4♠: tableau piles never build, only an empty one takes a card"
    )


def test_a_deal_file_without_a_number_is_played_again_from_the_file(tmp_path: Path) -> None:
    state = nearly_won_fan()
    state.deal_number = None
    path = tmp_path / "position.json"
    path.write_text(json.dumps(deal_to_dict(state)), encoding="utf-8")
    result = play(str(path), "--no-stats", lines=["q"])
    assert result.exit_code == 0
    lines = result.output.rstrip().splitlines()
    assert f"fan: play it again with cardtable play {path}. Type help for the moves." in lines
    assert lines[-1].removeprefix(PROMPT) == f"Bye. Play this deal again with: cardtable play {path}"
    assert "no deal number" not in result.output


def test_not_saved_counts_the_moves_since_the_save(tmp_path: Path) -> None:
    save = str(tmp_path / "fan.json")
    result = play("fan", "1", "--no-stats", lines=["t10 f0", f"save {save}", "t1 t6", "q", "q"])
    assert "Not saved: 1 move. Type save [FILE]" in result.output
    resumed = play(save, "--no-stats", lines=["t1 t6", "q", "q"])  # the save's move is not counted
    assert "Not saved: 1 move. Type save [FILE]" in resumed.output
    taken_back = play(save, "--no-stats", lines=["u", "q", "q"])
    assert "Not saved: 1 move taken back. Type save [FILE]" in taken_back.output


def test_save_expands_the_home_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    game = Session(deal(load_game("fan"), 1))
    game.play("t10 f0")
    assert game.save("~/ak.json").startswith(f"saved after 1 move to {tmp_path / 'ak.json'};")
    assert (tmp_path / "ak.json").exists()


def _deals_drawn(monkeypatch: pytest.MonkeyPatch, *numbers: int) -> None:
    """The random deals ``play --winnable`` draws, in order: these, the last one again and again."""
    drawn = iter(numbers)
    monkeypatch.setattr(play_module, "random_deal", lambda: next(drawn, numbers[-1]))


def test_winnable_plays_the_first_deal_drawn_that_the_solver_proves_winnable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _deals_drawn(monkeypatch, 6, 9, 3)  # Fan's deals 6 and 9 are lost, deal 3 is won
    result = play("fan", "--winnable", "--no-stats", lines=["hint", "quit"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Looking for a deal of fan that the solver proves winnable..."
    assert lines[1].startswith("Deal 3 can be won: the solver proved it (3 deals tried, ")
    assert "fan deal 3: play it again with cardtable play fan 3. Type help for the moves." in lines
    assert (
        "the game can be won (the solver's line takes 65 moves)" in result.output
    )  # the line found, remembered
    assert LIVE_LINE not in result.output


@pytest.mark.parametrize(
    ("game", "number", "seconds", "told"),
    [
        ("fan", 6, 1.5, "(3 tried, each proved lost); here is the last, deal 6, which cannot be won."),
        # Acey and Kingsley's deal 13 is undecided after a minute, so surely after 0.05 s.
        (
            "acey-and-kingsley",
            13,
            0.05,
            "(3 tried, 0.05 s each); deal 13 is one the solver could not decide in time.",
        ),
    ],
)
def test_winnable_says_which_deal_it_plays_when_none_drawn_is_proved_winnable(
    monkeypatch: pytest.MonkeyPatch, game: str, number: int, seconds: float, told: str
) -> None:
    monkeypatch.setattr(draw, "TRIES", 3)
    monkeypatch.setattr(draw, "SECONDS", seconds)
    _deals_drawn(monkeypatch, number)
    result = play(game, "--winnable", "--no-stats", lines=["quit"])
    assert result.exit_code == 0, result.output
    assert f"No deal was proved winnable {told}" in " ".join(result.output.split())
    assert f"{game} deal {number}: play it again with cardtable play {game} {number}." in result.output


@pytest.mark.parametrize("args", [["fan", "3"], ["saved.json"]])
def test_winnable_takes_no_deal_number_and_no_file(args: list[str], tmp_path: Path) -> None:
    (tmp_path / "saved.json").write_text("{}")
    with contextlib.chdir(tmp_path):
        result = play(*args, "--winnable", lines=[])
    assert result.exit_code == 2
    assert "--winnable picks a random deal: give GAME alone, not a deal number or a file" in result.output
