"""``cardtable play``: the session logic (moves, undo, redo, restart, messages) and scripted games.

The session is driven with strings; the command is driven by piping lines into
it, as a person at a terminal would type them.
"""

from __future__ import annotations

import io
import json
import re
import secrets
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from click.testing import CliRunner, Result
from rich.console import Console

from cardtable import State, deal, load_game
from cardtable.cli.main import main
from cardtable.cli.play import run_session
from cardtable.cli.session import COMMANDS, Reply, Session
from cardtable.cli.solve import unless_stopped, way_back_text
from cardtable.cli.stats import TERMINAL_PLAYER, Scorebook
from cardtable.core.cards import card_name, card_symbol
from cardtable.core.errors import NothingToDoError
from cardtable.formats import read_deal, read_saved_game
from cardtable.interrupts import Terminated
from cardtable.render.text import GLUE, wrap
from cardtable.solver.rewind import WayBack
from cardtable.store import Store
from helpers import acey_position, acey_stuck_position
from test_cli import NO_COLOUR_SETTINGS, script

BYE = "Bye. Play this deal again with: cardtable play"


def plain(text: str) -> str:
    """``text`` as printed: the spaces that hold a typed command on one line (:func:`glued`) plain again."""
    return text.replace(GLUE, " ")


def play(*args: str, lines: list[str]) -> Result:
    """Run ``cardtable play ARGS`` with these lines typed, then end of input."""
    typed = "".join(line + "\n" for line in lines)
    return CliRunner().invoke(main, ["play", *args], input=typed, env=NO_COLOUR_SETTINGS)


def session(game: str, number: int) -> Session:
    return Session(deal(load_game(game), number))


def position(game: str, piles: dict[str, list[list[str]]], **extra: object) -> State:
    """A hand-made position, checked as a deal file would be."""
    return read_deal(json.dumps({"game": game, "piles": piles, **extra}))


def suit_run(suit: str, count: int, *, down: bool = False) -> list[str]:
    """The first ``count`` cards of ``suit`` from its ace up (or from its king down)."""
    ranks = "A23456789TJQK"
    return [rank + suit for rank in (ranks[::-1] if down else ranks)[:count]]


def nearly_won_fan() -> State:
    """Fan, deal 77 in name, with K♠ on t0 and Q♠ on t1 left: ``t1`` then ``t0`` wins."""
    foundations = [suit_run(s, 13) for s in "CDH"] + [suit_run("S", 11)]
    return position("fan", {"foundation": foundations, "fan": [["KS"], ["QS"]] + [[]] * 16}, deal=77)


def lucie_blocked(redeals_left: int) -> State:
    """Lucie with Q♣ under K♣ in the last fan: blocked, so lost unless a redeal is left."""
    foundations = [suit_run("C", 11)] + [suit_run(s, 13) for s in "DHS"]
    piles = {"foundation": foundations, "fan": [["QC", "KC"]]}
    return position("alexander-the-great-lucie", piles, deal=5, redeals_left=redeals_left)


def run_lines(start: Session, lines: list[str]) -> str:
    """The output of :func:`run_session` given these typed lines."""
    typed: Iterator[str] = iter(lines)
    out = Console(file=io.StringIO(), width=120, highlight=False, markup=False, soft_wrap=True)
    run_session(start, lambda prompt: next(typed, None), out)
    assert isinstance(out.file, io.StringIO)
    return out.file.getvalue()


# -- the session ------------------------------------------------------------------


def test_a_move_is_played_and_described() -> None:
    game = session("alexander-the-great", 1)
    card = game.state.group("fan")[1][-1]
    assert game.play("t1 f1") == f"t1 f1: {card_symbol(card)}"
    assert game.moves == 1 and game.state.group("foundation")[1][-1] == card


@pytest.mark.parametrize("text", ["t1f1", "T1 F1", "  t1   f1 ", "t1"])
def test_the_notation_has_short_forms(text: str) -> None:
    game = session("alexander-the-great", 1)
    game.play(text)
    assert (
        game.state.group("foundation")[1][-1] == deal(load_game("alexander-the-great"), 1).group("fan")[1][-1]
    )


def test_a_card_name_plays_that_card() -> None:
    game = session("fan", 1)
    ace = game.state.group("fan")[10][-1]
    assert card_symbol(ace) == "A♠"
    for text in ("as", "AS", "A♠"):
        game = session("fan", 1)
        assert game.handle(text) == Reply("t10 f0: A♠", redraw=True)


def test_an_illegal_move_is_one_line_and_changes_nothing() -> None:
    game = session("alexander-the-great", 1)
    for text in ("t9 f0", "t1 t2", "t99 f0", "zz", "7h", "redeal", "d"):
        reply = game.handle(text)
        assert not reply.redraw and not reply.quit
        assert "\n" not in reply.message and repr(text) in reply.message
    assert game.moves == 0 and game.state == deal(load_game("alexander-the-great"), 1)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("fan/1 foundation/0", "not a move: 'fan/1 foundation/0' (try "),
        (
            '{"from":"fan/1","to":"foundation/0"}',
            """not a move: '{"from":"fan/1","to":"foundation/0"}' (try """,
        ),
        ("save fan/3/x.json", "cannot save to 'fan/3/x.json': "),
    ],
)
def test_a_line_naming_piles_as_formats_md_does_is_quoted_as_typed(line: str, said: str) -> None:
    """Piles are named by code in what the rules say, never in what the player typed."""
    assert session("fan", 3).handle(line).message.startswith(said)


def test_undo_and_redo_walk_the_moves() -> None:
    game = session("fan", 1)
    start = game.state.copy()
    game.play("t10 f0")
    after_one = game.state.copy()
    game.play("t1 t6")
    assert game.undo() == "took back t1 t6: 5♠"
    assert game.state == after_one
    assert game.undo() == "took back t10 f0: A♠"
    assert game.state == start
    with pytest.raises(NothingToDoError, match="nothing to undo"):
        game.undo()
    assert game.redo() == "again: t10 f0: A♠"
    assert game.redo() == "again: t1 t6: 5♠"
    with pytest.raises(NothingToDoError, match="nothing to redo"):
        game.redo()


def test_a_new_move_forgets_the_moves_taken_back() -> None:
    game = session("fan", 1)
    game.play("t10 f0")
    game.undo()
    game.play("t1 t6")
    assert game.handle("redo").message == "nothing to redo"


def test_the_move_redo_would_play_keeps_the_rest_of_the_line_as_in_the_browser() -> None:
    game = session("fan", 1)
    game.play("t10 f0")
    game.play("t1 t6")
    game.restart()
    game.play("t10 f0")
    assert game.handle("redo").message == "again: t1 t6: 5♠"


def test_enter_does_not_drop_moves_to_redo_and_d_does() -> None:
    game = session("acey-and-kingsley", 5)
    game.handle("t1 f4")
    game.handle("undo")
    refused = game.handle("")  # a slip of the key must not cost the redo line, which undo cannot bring back
    assert refused.message == "Enter alone would deal and drop the 1 move to redo: type d to deal, or redo"
    assert not refused.redraw and game.moves == 0
    assert game.handle("d").message.startswith("d: ")
    assert game.handle("redo").message == "nothing to redo"  # t1 f4 after the deal: not the line taken back


def test_enter_deals_when_the_next_move_to_redo_is_that_deal_and_keeps_the_rest() -> None:
    game = session("acey-and-kingsley", 5)
    for line in ("d", "d"):
        game.handle(line)
    game.handle("undo 2")
    assert game.handle("").message.startswith("d: ")
    assert game.handle("redo").message.startswith("again: d: ")


def test_restart_takes_everything_back_and_redo_replays_it() -> None:
    game = session("fan", 1)
    game.play("t10 f0")
    game.play("t1 t6")
    end = game.state.copy()
    assert game.restart().startswith("back at the start")
    assert game.state == deal(load_game("fan"), 1) and game.moves == 0
    game.redo()
    game.redo()
    assert game.state == end
    game.restart()
    with pytest.raises(NothingToDoError, match="already at the start"):
        game.restart()


def test_acey_deals_with_d_or_enter_and_reports_the_refill() -> None:
    game = session("acey-and-kingsley", 1)
    stock = list(game.state.group("stock")[0])
    assert game.play("t0 f0") == f"t0 f0: 2♦; the stock refills t0 with {card_symbol(stock[-1])}"
    assert game.handle("d").message == f"d: {card_symbol(stock[-2])} onto the waste"
    assert game.handle("").message == f"d: {card_symbol(stock[-3])} onto the waste"
    assert len(game.state.group("stock")[0]) == 63
    game.restart()
    assert game.state == deal(load_game("acey-and-kingsley"), 1)


def test_enter_does_nothing_without_a_stock_to_deal() -> None:
    game = session("fan", 1)
    assert game.handle("   ") == Reply()
    assert game.moves == 0


def test_a_lucie_redeal_is_announced_played_and_undone() -> None:
    game = session("alexander-the-great-lucie", 2988)
    game.play("t2 t4")
    assert game.status() is None
    game.play("t2 t1")
    blocked = game.state.copy()
    assert game.status() == "No card can move: type redeal to gather and deal the fans again (2 left)."
    message = game.play("redeal")
    assert message.startswith("redeal: the fans are dealt again into") and message.endswith("(1 redeal left)")
    assert game.state.redeals_left == 1
    redealt = game.state.copy()
    game.undo()
    assert game.state == blocked
    game.redo()
    assert game.state == redealt


def test_status_tells_a_win_and_a_loss() -> None:
    won = Session(nearly_won_fan())
    won.play("qs")
    won.play("t0")
    assert won.status() == "You won fan deal 77 in 2 moves!"
    lost = Session(lucie_blocked(0))
    assert lost.status() == (
        "No move is left: alexander-the-great-lucie deal 5 is lost after 0 moves. Quit to leave it."
    )


def test_help_names_this_games_piles_and_moves() -> None:
    assert "f0-f3 foundations, t0-t11 fans" in session("alexander-the-great", 1).help()
    acey = session("acey-and-kingsley", 1).help()
    assert "f0-f7 foundations, r0-r1 reserves, t0-t3 tableau, s stock, w waste" in acey
    assert "Enter alone" in acey and "redeal" not in acey
    assert "redeal" in session("alexander-the-great-lucie", 1).help()


def test_moves_lists_the_legal_moves_in_the_notation_never_split_by_wrapping() -> None:
    legal = session("alexander-the-great", 1).legal()
    assert wrap(legal, None) == "Legal moves: t1 f1, t1 t3, t2 t4, t3 t1, t4 t2, t6 t8, t8 t6"
    assert wrap(legal, 24).splitlines() == [
        "Legal moves: t1 f1,",
        "t1 t3, t2 t4, t3 t1,",
        "t4 t2, t6 t8, t8 t6",
    ]


def test_every_command_word_answers() -> None:
    for word in COMMANDS:
        game = session("fan", 1)
        game.play("t10 f0")
        reply = game.handle(word)
        assert reply.message, word


# -- the loop, with scripted input --------------------------------------------------


def test_the_loop_ends_with_the_win() -> None:
    output = run_lines(Session(nearly_won_fan()), ["t1", "help", "t0", "more input is never read"])
    assert output.rstrip().endswith("You won fan deal 77 in 2 moves!")
    assert output.count("Fan · deal 77") == 3  # drawn at the start and after each move


def test_the_loop_keeps_a_lost_game_open_for_undo() -> None:
    output = run_lines(Session(lucie_blocked(1)), ["redeal", "u", "q"])
    assert "No card can move: type redeal" in output
    assert "redeal: the fans are dealt again into 1 fan (0 redeals left)" in output
    assert output.rstrip().endswith("Bye.")  # labelled deal 5, but not as dealt: no number plays it again


# -- the command, one scripted game per game ----------------------------------------


def test_alexander_scripted_game() -> None:
    result = play(
        "alexander-the-great", "1", lines=["t1 f1", "t9 f0", "u", "redo", "t2 t4", "restart", "redo", "q"]
    )
    assert result.exit_code == 0
    out = result.output
    assert "t1 f1: 2♦" in out
    assert (
        "illegal move: 't9 f0': A♣ does not go on A♥ (f0 takes 2♥ next)" in out
    )  # in the codes the player types
    assert "took back t1 f1: 2♦" in out and "again: t1 f1: 2♦" in out
    assert "back at the start of the deal" in out
    assert out.count("Alexander the Great · deal 1 · 2 moves") == 1
    assert out.rstrip().endswith(f"{BYE} alexander-the-great 1")


def test_fan_scripted_game() -> None:
    result = play("fan", "1", lines=["as", "t1t6", "t0 t1", "undo", "u", "redo", "restart", "m", "h", "quit"])
    assert result.exit_code == 0
    out = result.output
    assert "t10 f0: A♠" in out and "t1 t6: 5♠" in out
    assert "illegal move: 't0 t1'" in out
    assert "took back t1 t6: 5♠" in out and "took back t10 f0: A♠" in out
    assert "again: t10 f0: A♠" in out and "back at the start of the deal" in out
    assert "Legal moves: " in out and "Commands: undo [N] (u), redo" in out


def test_lucie_scripted_game_with_a_redeal() -> None:
    lines = ["redeal", "t2 t4", "t2 t1", "redeal", "u", "redo", "restart", "q"]
    result = play("alexander-the-great-lucie", "2988", lines=lines)
    assert result.exit_code == 0
    out = result.output
    assert "took back redeal" in out and "again: redeal: the fans are dealt again" in out
    assert "back at the start of the deal" in out and out.rstrip().endswith(
        f"{BYE} alexander-the-great-lucie 2988"
    )
    assert "illegal move: 'redeal': a redeal is allowed only when no other move is possible" in out
    assert "redeals left: 2 (a redeal is allowed now)" in out
    assert "No card can move: type redeal" in out
    assert "(1 redeal left)" in out and out.count("redeals left: 1") == 2


def test_acey_scripted_game_deals_from_the_stock() -> None:
    result = play("acey-and-kingsley", "1", lines=["d", "", "t0 f0", "r0 t1", "u", "redo", "restart", "q"])
    assert result.exit_code == 0
    out = result.output
    assert "  s    66 cards" in out and "  s    64 cards" in out and "  s    63 cards" in out
    assert "d: 9♦ onto the waste" in out and "d: 2♠ onto the waste" in out
    assert "the stock refills t0 with" in out
    assert "illegal move: 'r0 t1'" in out
    assert "took back t0 f0" in out and "again: t0 f0" in out
    assert "back at the start of the deal" in out and out.rstrip().endswith(f"{BYE} acey-and-kingsley 1")


def test_end_of_input_quits_cleanly() -> None:
    result = play("fan", "3", lines=["t0"])
    assert result.exit_code == 0
    assert result.output.rstrip().endswith(f"{BYE} fan 3")


def test_the_replay_hint_quotes_an_id_with_options() -> None:
    result = play("alexander-the-great-lucie(redeal_anytime=true)", "4", lines=["redeal"])
    assert result.exit_code == 0
    assert "cardtable play 'alexander-the-great-lucie(redeal_anytime=true)' 4" in result.output
    assert "(1 redeal left)" in result.output


def test_without_a_number_a_random_deal_is_drawn_and_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrets, "randbelow", lambda n: 41)
    lines = play("fan", lines=[]).output.splitlines()
    footer = next(i for i, line in enumerate(lines) if line.startswith("On the foundations"))
    assert lines[0] == "Fan · deal 42", "the table first, its title naming the deal"
    assert (
        lines[footer + 1] == "fan deal 42: play it again with cardtable play fan 42. Type help for the moves."
    )
    monkeypatch.undo()
    match = re.search(r"deal (\d+):", play("fan", lines=[]).output)
    assert match is not None and 1 <= int(match.group(1)) <= 2**31 - 1


def test_a_lone_card_that_could_only_move_to_an_empty_pile_is_not_asked_where() -> None:
    game = Session(nearly_won_fan())  # K♠ alone on t0, empty fans beside it: any of them is the same position
    assert game.handle("t0").message == (
        "illegal move: 't0': K♠ cannot go home now, and moving it alone to an empty pile changes nothing"
    )
    assert game.handle("t0 t2").message == "t0 t2: K♠"  # named, it goes


def test_the_installed_script_plays_from_a_pipe() -> None:
    done = subprocess.run([script(), "play", "fan", "1"], input="as\nxyz\n", capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == ""
    assert "t10 f0: A♠" in done.stdout and "not a move: 'xyz'" in done.stdout
    assert done.stdout.rstrip().endswith(f"{BYE} fan 1")


def test_a_position_without_a_deal_number_has_no_replay_command() -> None:
    state = nearly_won_fan()
    state.deal_number = None
    game = Session(state)
    assert game.replay_command() is None
    assert game.greeting() == "fan. Type help for the moves."
    game.play("t1")
    game.play("t0")
    assert game.status() == "You won fan in 2 moves!"


def test_hint_names_a_winning_move_or_says_the_game_is_lost() -> None:
    assert (
        wrap(Session(nearly_won_fan()).hint(), None)
        == "play t1 f3 (Q♠): the game can be won (the solver's line takes 2 moves)"
    )
    assert (
        Session(lucie_blocked(0)).hint() == "no move wins from here: this position cannot be won"
    )  # no move made
    assert "hint" in COMMANDS


def test_a_lost_position_hints_how_far_back_the_game_could_still_be_won() -> None:
    game = session("fan", 4)
    for text in ["t4 t0", "t14 t3", "t0 f1", "t0 t16"]:
        game.play(text)
    lost = "no move wins from here: this position can no longer be won; "
    assert plain(game.hint()) == lost + "3 moves back it still could ('undo 3' goes there)"
    assert (
        game.handle("undo 3").message == "took back 3 moves: now at move 1 (redo plays them again one by one)"
    )
    assert game.hint().startswith("play ")


def test_a_lost_position_hints_a_restart_or_a_deal_lost_from_its_start() -> None:
    game = session("fan", 1)
    for text in ["t4 t12", "t13 t0", "t16 t7", "t10 t16"]:
        game.play(text)
    assert plain(game.hint()).endswith("; only the start of the game still could ('restart' goes there)")
    game = session("alexander-the-great", 2)
    for text in ["t11 t5", "t7 t4", "t1 t8"]:
        game.play(text)
    assert game.hint().endswith("; nor could any earlier position: the game was lost from its start")


@pytest.mark.parametrize(
    ("way", "text"),
    [
        (WayBack("won", 3), "; 3 moves back it still could ('undo 3' goes there)"),
        (
            WayBack("won", 58, undecided=31),
            "; the position 58 moves back still could ('undo 58' goes there),"
            " and the solver could not tell for the 31 positions between",
        ),
        (
            WayBack("won", 66, undecided=1),
            "; the start of the game still could ('restart' goes there),"
            " and the solver could not tell for the position between",
        ),
    ],
)
def test_a_way_back_past_undecided_positions_says_only_what_is_proved(way: WayBack, text: str) -> None:
    assert plain(way_back_text(way, 66, 10)) == text


@pytest.mark.parametrize("width", [20, 43, 64])
def test_a_way_back_wrapped_keeps_each_command_on_one_line(width: int) -> None:
    said = "cannot be won" + way_back_text(WayBack("won", 3), 66, 10, then="cardtable play lost.json, then")
    lines = wrap(said, width).splitlines()
    assert "'undo 3')" in lines[-1]
    assert any("cardtable play lost.json, then" in line for line in lines)


def test_a_game_with_no_move_left_points_to_the_hint_that_finds_the_way_back() -> None:
    game = session("alexander-the-great", 8)
    for text in ["t11 t5", "t3 t2", "t6 t8", "t1 f0"]:
        game.play(text)
    assert game.status() == (
        "No move is left: alexander-the-great deal 8 is lost after 4 moves."
        " Undo, restart or quit; 'hint' looks for how far back it could still be won."
    )
    assert plain(game.hint()).endswith("; 2 moves back it still could ('undo 2' goes there)")


@pytest.mark.parametrize("line", ["redo 2", "Hint now", "quit now", "stats all", "h x"])
def test_a_command_with_words_it_does_not_take_says_so_not_that_it_is_no_move(line: str) -> None:
    game = session("fan", 4)
    game.play("t4 t0")
    reply = game.handle(line)
    first = line.split()[0].lower()
    assert reply.message == f"{first!r} takes nothing after it: not {line!r}" and not reply.quit
    assert game.moves == 1


def test_undo_with_its_count_run_together_says_how_to_type_it() -> None:
    game = session("fan", 4)
    assert game.handle("u1").message == "not a move: 'u1'; to undo, type 'undo 1'"
    assert game.handle("UNDO3").message == "not a move: 'UNDO3'; to undo, type 'undo 3'"


def test_undo_takes_a_count_and_refuses_more_than_was_played() -> None:
    game = session("fan", 4)
    for text in ["t4 t0", "t14 t3"]:
        game.play(text)
    assert game.handle("undo 3").message == "cannot undo 3 times: only 2 undos left"
    assert game.handle("u x").message == "'undo' takes a count of moves from 1 up, like 'undo 3': not 'u x'"
    assert (
        game.handle("undo 0").message
        == "'undo' takes a count of moves from 1 up, like 'undo 3': not 'undo 0'"
    )
    assert (
        game.handle("undo ²").message
        == "'undo' takes a count of moves from 1 up, like 'undo 3': not 'undo ²'"
    )
    assert game.handle("undo " + "9" * 5000).message.endswith(": not 'undo 999999999999999...")
    assert game.moves == 2
    reply = game.handle("u 2")
    assert (
        reply.redraw
        and reply.message == "took back 2 moves: back at the start (redo plays them again one by one)"
    )
    assert game.moves == 0 and game.handle("redo").message.startswith("again: t4 t0")


def test_a_ctrl_c_between_a_hints_searches_stops_the_hint_and_a_sigterm_the_session() -> None:
    def interrupted(by: KeyboardInterrupt) -> str:
        raise by

    assert unless_stopped(lambda: interrupted(KeyboardInterrupt()), "stopped") == "stopped"
    with pytest.raises(Terminated):
        unless_stopped(lambda: interrupted(Terminated(signal.SIGTERM)), "stopped")


# Alexander the Great deal 1 to where fresh searches sent 5♣ back and forth between t5 and t7 for ever
SEESAW: Final = [
    "t1 f1",
    "t1 f3",
    "t3 f1",
    "t2 t4",
    "t3 t10",
    "t3 f0",
    "t6 t8",
    "t6 t4",
    "t6 f3",
    "t6 f0",
    "t0 t6",
    "t0 t7",
    "t4 t8",
    "t4 t8",
    "t4 t0",
    "t8 t0",
    "t8 t0",
    "t8 t0",
    "t8 t0",
    "t8 t10",
    "t8 f3",
    "t0 f3",
    "t0 f3",
    "t0 f3",
    "t0 f3",
    "t0 f3",
    "t0 f3",
    "t0 t1",
    "t1 t4",
    "t1 t4",
    "t1 f0",
    "t10 f0",
    "t10 f0",
    "t10 f0",
    "t10 f3",
    "t5 f3",
    "t2 t8",
    "t2 f0",
    "t2 t3",
    "t5 t0",
    "t7 t5",
]


def test_a_hint_asked_again_on_the_same_table_counts_once_as_in_the_browser() -> None:
    game = Session(deal(load_game("fan"), 3))
    game.hint()
    game.hint()
    assert game.hints == 1
    game.play("t6 f0")
    game.hint()
    game.undo()
    game.hint()  # the table of the first, with a move to redo: another table, as the browser's board tells
    assert game.hints == 3


def test_hints_followed_lead_along_one_line_to_the_win() -> None:
    game = Session(deal(load_game("alexander-the-great"), 1))
    for text in SEESAW:
        game.play(text)
    first = wrap(game.hint(), None)
    moves = re.fullmatch(
        r"play (t\d+ [tf]\d+) \(.+\): the game can still be won \(the solver.s line takes (\d+) moves\)",
        first,
    )
    assert moves is not None, first
    game.play(moves[1])
    game.undo()
    assert wrap(game.hint(), None) == first  # a position on the line is known, coming back to it too
    for _ in range(int(moves[2])):
        hinted = re.match(r"play (t\d+ [tf]\d+) ", wrap(game.hint(), None))
        assert hinted is not None
        game.play(hinted[1])
    assert game.state.is_won()


# -- save and resume ------------------------------------------------------------------


def resumed_from(path: Path) -> Session:
    return Session.resume(read_saved_game(path.read_text(encoding="utf-8")), str(path))


def test_a_saved_game_resumes_with_its_undo_and_redo(tmp_path: Path) -> None:
    game = session("acey-and-kingsley", 7)
    for line in ["d", "d", "d", "u"]:
        game.handle(line)
    path = tmp_path / "acey.json"
    assert game.save(str(path)) == f"saved after 2 moves to {path}; resume with: cardtable play {path}"
    resumed = resumed_from(path)
    assert resumed.state == game.state and resumed.state.move_stack == game.state.move_stack
    assert resumed.redo() == game.redo()
    assert resumed.state == game.state
    resumed.restart()
    assert resumed.state == deal(load_game("acey-and-kingsley"), 7)


def test_a_lucie_redeal_survives_a_save(tmp_path: Path) -> None:
    game = session("alexander-the-great-lucie", 2988)
    for line in ["t2 t4", "t2 t1", "redeal"]:
        game.play(line)
    game.save(str(tmp_path / "lucie.json"))
    resumed = resumed_from(tmp_path / "lucie.json")
    assert resumed.state == game.state and resumed.state.redeals_left == 1
    resumed.undo()
    game.undo()
    assert resumed.state == game.state


def test_save_alone_names_the_file_after_the_deal_then_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = session("alexander-the-great-lucie(redeals=0)", 3)
    assert "0 moves to alexander-the-great-lucie-redeals-0-3.json;" in game.handle("save").message
    again = game.handle("save").message  # its own file now, so no question asked
    assert "0 moves to alexander-the-great-lucie-redeals-0-3.json;" in again
    fresh = session("alexander-the-great-lucie(redeals=0)", 3)
    assert fresh.handle("save").message == (
        "'alexander-the-great-lucie-redeals-0-3.json' already exists: to replace it, name it"
        " (save alexander-the-great-lucie-redeals-0-3.json), or save elsewhere"
    )
    game.save_path = "elsewhere.json"  # as after resuming from a save there
    assert "to elsewhere.json;" in game.handle("SAVE").message
    assert "to Mine.json;" in game.handle("save Mine.json").message
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "Mine.json",
        "alexander-the-great-lucie-redeals-0-3.json",
        "elsewhere.json",
    ]


def test_save_asks_once_before_replacing_a_file_that_is_not_this_games_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deal.json").write_text(CliRunner().invoke(main, ["deal", "fan", "3", "--json"]).output)
    (tmp_path / "solution.json").write_text(CliRunner().invoke(main, ["solve", "fan", "3", "--json"]).output)
    (tmp_path / "notes.txt").write_text("mine\n")
    other = session("fan", 4)
    other.save("other.json")
    held = {
        "deal.json": "holds a deal, fan deal 3",
        "solution.json": "holds a solution of fan deal 3",
        "other.json": "holds a saved game of fan deal 4",
        "notes.txt": "already exists and holds no saved game",
    }
    kept = {name: (tmp_path / name).read_text() for name in held}
    game = session("fan", 3)
    game.play("t6 f0")
    for name, words in held.items():
        asked = f"{name!r} {words}: type save {name} again at once to replace it, or save elsewhere"
        assert game.handle(f"save {name}").message == asked
        assert game.handle("help").message and game.handle(f"save {name}").message == asked  # not at once
        assert (tmp_path / name).read_text() == kept[name]
        assert game.handle(f"save {name}").message.startswith(f"saved after 1 move to {name};")
        assert read_saved_game((tmp_path / name).read_text()).moves == game.state.move_stack
    game.play("t1 f0")
    assert game.handle("save notes.txt").message.startswith("saved after 2 moves")  # its own save now
    fresh = session("fan", 3)  # a save of the same deal is taken for an earlier save of this game
    assert fresh.handle("save notes.txt").message.startswith("saved after 0 moves")
    resumed = resumed_from(tmp_path / "other.json")  # this game's save, after 1 move
    (tmp_path / "other.json").write_text("changed meanwhile\n")
    assert resumed.handle(f"save {tmp_path / 'other.json'}").message.startswith("saved after 1 move")
    (tmp_path / "solution.json").write_text(kept["solution.json"])  # the file a game is stepped through from
    stepped = play("solution.json", "--no-stats", lines=["redo", "save solution.json", "q", "q"])
    assert "'solution.json' holds a solution of fan deal 3: type save" in stepped.output
    assert (tmp_path / "solution.json").read_text() == kept["solution.json"]


def test_a_failed_save_says_why_and_keeps_the_old_file(tmp_path: Path) -> None:
    game = session("fan", 1)
    path = tmp_path / "fan.json"
    game.save(str(path))
    before = path.read_text(encoding="utf-8")
    game.play("t10 f0")
    message = game.handle(f"save {tmp_path / 'no-such-dir' / 'x.json'}").message
    assert message.startswith("cannot save to ") and message.endswith(
        "no such file or directory; nothing was written"
    )
    assert path.read_text(encoding="utf-8") == before and list(tmp_path.iterdir()) == [path]


def test_a_save_whose_name_holds_a_null_character_is_refused_and_the_game_goes_on() -> None:
    said = play("fan", "3", "--no-stats", lines=["t6 f0", "save a\x00b.json", "t1 f0", "q", "q"])
    assert said.exit_code == 0, said.output
    assert (
        "cannot save to 'a\\x00b.json': a file name cannot hold a null character; nothing was written"
        in said.output
    )
    assert "t1 f0: 2♣" in said.output and "Not saved: 2 moves." in said.output


def test_play_resumes_a_saved_game_a_solution_or_a_deal_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "saved.json"
    assert "saved after 1 move" in play("fan", "1", lines=["t10 f0", f"save {saved}", "q"]).output
    result = play(str(saved), lines=["u", "u", "q"])
    assert result.exit_code == 0
    assert "fan deal 1, resumed from " in result.output and "after 1 move: play it again" in result.output
    assert "took back t10 f0: A♠" in result.output and "nothing to undo" in result.output
    packed = tmp_path / "saved.json.gz"
    assert "saved after 1 move" in play("fan", "1", lines=["t10 f0", f"save {packed}", "q"]).output
    assert packed.read_bytes().startswith(b"\x1f\x8b")
    assert "after 1 move: play it again" in play(str(packed), lines=["q"]).output
    solution = tmp_path / "solution.json"
    solution.write_text(CliRunner().invoke(main, ["solve", "fan", "1", "--json"]).output, encoding="utf-8")
    kept = solution.read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    stepped = play(str(solution), lines=["redo", "redo", "save", "q"]).output
    assert f"\nfan deal 1 with the 79 moves of {solution} to step through with redo: play it" in stepped
    assert "again: t10 f0" in stepped and "again: t1 t6" in stepped
    assert "saved after 2 moves to fan-1.json;" in stepped
    assert "You won fan deal 1 in 79 moves!" in play(str(solution), lines=["redo"] * 79).output
    assert solution.read_text(encoding="utf-8") == kept  # a solution is not overwritten
    position_file = tmp_path / "deal.json"
    position_file.write_text(
        CliRunner().invoke(main, ["deal", "fan", "2", "--json"]).output, encoding="utf-8"
    )
    assert "\nfan deal 2: play it again" in play(str(position_file), lines=["q"]).output


def test_a_save_named_dash_is_a_file_of_that_name_not_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    said = play("fan", "1", "--no-stats", lines=["t10 f0", "save -", "q"]).output
    assert '"game": "fan"' not in said and "saved after 1 move to -; resume with: cardtable play ./-" in said
    assert (
        "Go on from the save with: cardtable play ./-;" in said
    )  # 'cardtable play -' would read standard input
    assert read_saved_game((tmp_path / "-").read_text()).moves[0].text() == "fan/10 foundation/0 AS"
    assert "resumed from ./- after 1 move" in play("./-", lines=["q"]).output
    said = play("fan", "1", "--no-stats", lines=["save --help", "q"]).output
    assert "resume with: cardtable play ./--help" in said  # not the option


def test_the_words_of_play_for_files_and_quitting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert play("fan-42", lines=[]).stderr.endswith("and there is no file 'fan-42' to play on from\n")
    (tmp_path / "empty.json").write_text("", encoding="utf-8")
    assert play("empty.json", lines=[]).stderr == (
        "cardtable: 'empty.json': not a saved game, a solution or a deal: no json in it: it is empty\n"
    )
    said = play("fan", "1", "--no-stats", lines=["save .", 'save "my game.json"', "exit"]).output
    assert "cannot save to '.': it is a folder; name a file in it, such as ./fan-1.json" in said
    assert "saved after 0 moves to my game.json; resume with: cardtable play 'my game.json'" in said
    assert said.rstrip().endswith(  # 'exit' quits as 'quit' does, and names the save to go on from
        "Bye. Go on from the save with: cardtable play 'my game.json'; play this deal again with: cardtable play fan 1"
    )
    assert (tmp_path / "my game.json").is_file()


def test_a_save_of_an_empty_name_or_an_open_quote_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = session("fan", 1)
    game.save("kept.json")
    game.play("t10 f0")
    for line in ('save ""', "save ''", 'save " "'):
        assert game.handle(line).message == f"{line!r} names no file: give a name, or type save alone"
    assert game.handle('save "a b.json').message == (
        "the quote in 'save \"a b.json' is not closed: quote a name with spaces whole,"
        ' as in save "my game.json"'
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json"]
    assert read_saved_game((tmp_path / "kept.json").read_text()).moves == []  # not saved over either
    assert game.unsaved


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "{not json",
            "'bad.json': not a saved game, a solution or a deal: malformed json at line 1 column 2",
        ),
        (
            "[" + "1" * 5000 + "]",
            "'bad.json': not a saved game, a solution or a deal: malformed json: exceeds the limit",
        ),
        ('{"game": "fan", "deal": {"game": "fan", "deal": 1}, "moves": []}', "its deal: "),
        ("NOT A LIST", "'moves' must be a list of moves"),
        ("MOVES", "move 1 ("),
    ],
)
def test_a_bad_save_file_is_one_line_and_stays_as_it_was(tmp_path: Path, text: str, problem: str) -> None:
    start = json.loads(CliRunner().invoke(main, ["deal", "fan", "1", "--json"]).output)
    bad_move = {"from": "fan/0", "to": "foundation/0", "card": "4D"}
    if text == "NOT A LIST":
        text = json.dumps({"game": "fan", "deal": start, "moves": 3})
    elif text == "MOVES":
        text = json.dumps({"game": "fan", "deal": start, "moves": [bad_move]})
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    result = play(str(path), lines=["q"])
    problem = problem.replace("'bad.json'", repr(str(path)))
    assert result.exit_code == 2 and problem in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert path.read_text(encoding="utf-8") == text


def test_a_save_whose_moves_to_redo_no_longer_fit_opens_without_them_and_says_so(tmp_path: Path) -> None:
    """What an earlier cardtable could write: a deal made with Enter after an undo left the card move to redo."""
    start = json.loads(CliRunner().invoke(main, ["deal", "fan", "1", "--json"]).output)
    fits = {"from": "fan/10", "to": "foundation/0", "card": "AS"}
    stale = {"from": "fan/0", "to": "foundation/0", "card": "4D"}
    text = json.dumps({"game": "fan", "deal": start, "moves": [], "undone": [fits, stale, fits]})
    path = tmp_path / "old.json"
    path.write_text(text, encoding="utf-8")
    result = play(str(path), lines=["redo", "redo", "q"])
    assert result.exit_code == 0
    assert "Of the moves to redo, move 2 (" in result.output
    assert "; it and the 1 move after it are left out." in result.output
    assert "again: t10 f0: A♠" in result.output and "nothing to redo" in result.output
    assert path.read_text(encoding="utf-8") == text
    assert CliRunner().invoke(main, ["hint", str(path)]).exit_code == 0  # the position needs no moves to redo
    solution = tmp_path / "solution.json"  # a solution's line is a claim: refused, not cut short
    solution.write_text(
        json.dumps({"deal": start, "result": "won", "moves": [fits, stale]}), encoding="utf-8"
    )
    refused = play(str(solution), lines=["q"])
    assert refused.exit_code == 2 and "of the moves to redo, move 2 (" in refused.output


def test_play_says_a_folder_is_one_and_that_standard_input_holds_the_lines_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    assert play("adir", lines=[]).stderr == "cardtable: cannot read 'adir': is a directory\n"
    (tmp_path / "-").write_text(CliRunner().invoke(main, ["deal", "fan", "2", "--json"]).output)
    assert play("-", lines=["q"]).stderr == (  # even with a file of that name: ./- names it
        "cardtable: cannot read a game from standard input ('-'): play reads the lines typed from it;"
        " give a file (./- names one called '-')\n"
    )
    assert "fan deal 2: play it again" in play("./-", lines=["q"]).output


def test_play_still_says_an_unknown_game_is_unknown() -> None:
    result = play("klondike", lines=[])
    assert result.exit_code == 2 and "unknown game: 'klondike'" in result.output


# -- auto -------------------------------------------------------------------------------


def test_auto_sends_home_what_is_safe_one_undo_at_a_time() -> None:
    game = session("alexander-the-great", 1)
    assert game.handle("auto").message == (
        "sent home in 3 moves (undo takes back one at a time): t1 f1: 2♦; t1 f3: Q♠; t3 f1: 3♦"
    )
    game.undo()
    assert game.moves == 2
    assert game.handle("auto").message.startswith("sent home in 1 move ")
    assert game.handle("redo").message == "nothing to redo"  # auto's moves are new moves
    assert game.handle("auto").message == "no card can safely go home now"


def test_auto_can_finish_a_game() -> None:
    output = run_lines(Session(nearly_won_fan()), ["auto"])
    assert output.rstrip().endswith("You won fan deal 77 in 2 moves!")


def test_auto_says_why_it_never_moves_in_acey_and_kingsley() -> None:
    assert session("acey-and-kingsley", 3).handle("auto").message == (
        "auto never moves a card in acey-and-kingsley: no move home is provably safe there"
    )


# -- quitting with unsaved moves -------------------------------------------------


def test_quit_asks_once_before_losing_moves_and_any_other_line_resets_it() -> None:
    game = session("fan", 1)
    assert game.handle("q").quit  # nothing played: nothing to lose
    game.play("t10 f0")
    first = game.handle("quit")
    assert not first.quit
    assert first.message == (
        "Not saved: 1 move. Type save [FILE] to keep the game, or quit again to leave without saving."
    ), "no statistics kept in this session: nothing said of them"
    assert not game.handle("help").quit and not game.handle("q").quit  # asked afresh
    assert game.handle("q").quit


def test_quit_leaves_at_once_after_a_save_until_the_next_change(tmp_path: Path) -> None:
    game = session("fan", 1)
    game.play("t10 f0")
    game.save(str(tmp_path / "fan.json"))
    assert game.handle("q").quit
    game.undo()
    assert game.handle("q").message.startswith("Not saved: 1 move taken back.")
    assert resumed_from(tmp_path / "fan.json").handle("q").quit


def test_end_of_input_says_what_was_not_saved() -> None:
    output = run_lines(session("fan", 1), ["t10 f0", "t1 t6", "u"])
    assert output.rstrip().endswith(f"Not saved: 1 move and 1 move taken back.\n{BYE} fan 1")


def test_end_of_input_says_how_the_game_counts_where_statistics_are_kept(tmp_path: Path) -> None:
    said = play("fan", "3", "--db", str(tmp_path / "db.sqlite"), lines=["t6 f0"])
    assert said.exit_code == 0, said.output
    assert "Not saved: 1 move. It counts as abandoned in your statistics." in said.output
    unkept = play("fan", "3", "--no-stats", lines=["t6 f0"])
    assert "Not saved: 1 move.\n" in unkept.output and "counts as" not in unkept.output


# -- what the statistics keep -------------------------------------------------------


def test_a_game_taken_back_to_its_start_is_kept_as_abandoned_with_its_redo_line(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite")
    assert play("fan", "3", "--db", db, lines=["q"]).exit_code == 0  # nothing played: not kept
    taken_back = play("fan", "3", "--db", db, lines=["t6 f3", "undo", "q", "q"])
    assert taken_back.exit_code == 0 and "Not saved: 1 move taken back." in taken_back.output
    store = Store(db)
    try:
        (record,) = store.finished(TERMINAL_PLAYER)
    finally:
        store.close()
    card = deal(load_game("fan"), 3).group("fan")[6][-1]
    assert (record.deal, record.status, record.moves) == (3, "abandoned", [])
    assert record.redo == [{"from": "fan/6", "to": "foundation/3", "card": card_name(card)}]


def test_a_kept_game_holds_its_redo_line_next_move_first(tmp_path: Path) -> None:
    game = session("fan", 1)
    for line in ["t10 f0", "t1 t6", "restart"]:
        game.handle(line)
    game.scorebook = Scorebook.open(tmp_path / "db.sqlite")
    try:
        assert game.keep() == "abandoned"
        (record,) = game.scorebook.store.finished(TERMINAL_PLAYER)
    finally:
        game.scorebook.close()
    assert record.moves == [] and [m["from"] for m in record.redo] == ["fan/10", "fan/1"]


def test_a_saved_game_whose_moves_win_opens_won(tmp_path: Path) -> None:
    game = Session(nearly_won_fan())
    for line in ["t1", "t0"]:
        game.handle(line)
    path = tmp_path / "won.json"
    game.save(str(path))
    result = play(str(path), "--no-stats", lines=[])
    assert result.exit_code == 0 and result.output.rstrip().endswith("You won fan deal 77 in 2 moves!")


def test_an_acey_game_with_only_foundation_passes_left_says_it_is_lost() -> None:
    assert Session(acey_stuck_position()).status() == (
        "Only passes between foundations are left, and they can never free another card:"
        " acey-and-kingsley is lost after 0 moves. Quit to leave it."
    )


def test_undoing_a_move_that_set_off_a_refill_says_the_card_goes_back_to_the_stock() -> None:
    game = session("acey-and-kingsley", 5)
    assert game.handle("t1 f4").message == "t1 f4: Q♥; the stock refills t1 with 6♥"
    assert game.handle("undo").message == "took back t1 f4: Q♥; 6♥ goes back to the stock"
    assert game.handle("r0 f0").message.startswith("illegal move")  # nothing taken back: no stock card named
    assert game.handle("d").message.startswith("d: ")
    assert game.handle("undo").message == "took back d: 6♥ onto the waste"


def test_enter_alone_with_the_stock_out_says_so() -> None:
    game = Session(acey_position(up=(5, 13, 13, 13), tableau=["6D", "9C", "TC", "JC"], rest="waste"))
    assert game.handle("").message == "the stock is empty: Enter alone deals only while it has cards"
    assert session("fan", 1).handle("").message == ""  # no stock: a blank line is just a blank line


def test_a_terminal_gone_in_the_middle_of_a_line_still_keeps_the_game(tmp_path: Path) -> None:
    game = session("fan", 1)
    game.handle("t10 f0")
    game.scorebook = Scorebook.open(tmp_path / "db.sqlite")

    def gone(prompt: str) -> str | None:
        raise OSError(5, "Input/output error")  # what reading a closed terminal gives

    out = Console(file=io.StringIO(), width=120, highlight=False, markup=False, soft_wrap=True)
    try:
        with pytest.raises(OSError, match="Input/output error"):
            run_session(game, gone, out)
        (record,) = game.scorebook.store.finished(TERMINAL_PLAYER)
    finally:
        game.scorebook.close()
    assert (record.status, len(record.moves)) == ("abandoned", 1)


def test_a_redeal_written_without_its_fans_is_not_told_as_unsaved_when_stepped_through_and_back() -> None:
    """formats.md lets a file leave a redeal's fans out; the same redeal deals the same fans."""
    from cardtable.formats import Solution, saved_game_from_dict
    from cardtable.solver import Limit, solve

    start = deal(load_game("alexander-the-great-lucie"), 3)
    result = solve(start, Limit(seconds=60))
    solution = Solution(start, result.status, result.moves).to_dict()
    for move in solution["moves"]:
        if "redeal" in move:
            move["redeal"] = None
    saved = saved_game_from_dict(solution)
    game = Session.resume(type(saved)(saved.deal, [], saved.moves), "lucie-3.json", save_there=False)
    through = next(i for i, move in enumerate(result.moves, 1) if move.kind == "redeal")
    for _ in range(through):
        game.handle("redo")
    game.handle(f"undo {through}")
    assert not game.unsaved and game.outcome() is None
