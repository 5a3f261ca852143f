"""The game in play that the terminal and the browser share: undo groups, redo, and the redo line after a move."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import IllegalMoveError, Move, deal, load_game
from cardtable.core.errors import NothingToDoError
from cardtable.core.notation import parse_move
from cardtable.playing import Entry, GameInPlay
from cardtable.solver.prune import safe_home_move
from helpers import ACEY, FAST, GAME_IDS, LUCIE, all_cards, full_deck, sorted_moves


def fan_1() -> GameInPlay:
    return GameInPlay(deal(load_game("fan"), 1))


def test_a_move_that_redo_would_make_keeps_the_rest_of_the_redo_line() -> None:
    game = fan_1()
    first, second = sorted_moves(game.state)[:2]
    game.play(first)
    after = sorted_moves(game.state)[0]
    game.play(after)
    game.undo(2)
    assert [move for move, _ in game.redo] == [first, after]
    game.play(first)  # the move redo would have made
    assert [move for move, _ in game.redo] == [after]
    game.undo()
    game.play(second)  # another: the line was taken back from another position
    assert game.redo == []
    with pytest.raises(NothingToDoError, match="nothing to redo"):
        game.redo_group()


def test_an_autoplay_group_is_undone_and_redone_whole() -> None:
    game = GameInPlay(deal(load_game("fan"), 2))
    game.autoplay()
    sent = game.moves
    assert sent == 3  # fan deal 2 has three cards to send home at once
    assert game.undo_steps() == [sent]
    assert len(game.undo()) == sent and game.moves == 0
    assert [auto for _, auto in game.redo] == [True] * sent, "the deal's autoplay: no move by hand"
    game.redo_group()
    assert game.moves == sent and game.redo == [] and len(game.last) == sent
    assert not game.by_hand, "redone, it is the deal's autoplay still"


def test_autoplay_after_a_move_by_hand_is_an_undo_of_its_own() -> None:
    game, move = fan_deal_with_a_move_that_frees_a_card_home()
    game.play(move)
    game.autoplay()
    sent = game.moves - 1
    assert game.auto == [False, False] + [True] * (sent - 1) and game.undo_steps() == [sent, 1]


def test_a_restart_with_autoplay_makes_the_deals_autoplay_again_if_the_line_began_with_it() -> None:
    game = GameInPlay(deal(load_game("fan"), 2))
    game.autoplay()
    sent = game.last
    game.play(sorted_moves(game.state)[0])
    game.restart(autoplay=True)
    assert game.state.move_stack == sent and game.auto == [True] * len(sent) and len(game.redo) == 1
    with pytest.raises(NothingToDoError, match="already at the start"):
        game.restart(autoplay=True)
    game.undo()  # the player takes the deal's autoplay back, and plays another way
    game.play(sorted_moves(game.state)[0])
    line = game.state.move_stack + [move for move, _ in game.redo]
    game.restart(autoplay=True)
    assert game.moves == 0 and [move for move, _ in game.redo] == line, "kept whole, not cleared"


def test_autoplay_at_the_deal_of_a_game_played_by_hand_leaves_it_played() -> None:
    """Restarted, a game played by hand has its moves on the redo line; autoplay clears the line, not the game."""
    game = GameInPlay(deal(load_game("fan"), 2))
    game.autoplay()
    game.undo()  # the deal's autoplay taken back
    game.play(sorted_moves(game.state)[0])
    game.restart()
    assert game.touched and not game.by_hand
    game.autoplay()  # the A key, or the box ticked
    assert game.redo == [] and game.touched and game.auto[0] is False


def test_autoplay_at_the_deal_that_keeps_the_moves_by_hand_to_redo_is_the_deals_and_a_restart_makes_it() -> (
    None
):
    game = GameInPlay(deal(load_game("fan"), 2))
    game.autoplay()
    sent = game.last
    game.play(sorted_moves(game.state)[0])
    game.restart()  # the box unticked: everything to redo, the move by hand last
    game.autoplay()  # ticked again: the deal's autoplay, redone from the line, which keeps the move by hand
    assert game.auto == [True] * len(sent) and [auto for _, auto in game.redo] == [False]
    with pytest.raises(NothingToDoError, match="already at the start"):  # the table is at the deal's autoplay
        game.restart(autoplay=True)
    game.play(game.redo[0].move)  # the move by hand made again: restarted, the deal's autoplay is made again
    game.restart(autoplay=True)
    assert game.state.move_stack == sent and [auto for _, auto in game.redo] == [False]


def test_undo_counts_groups_and_refuses_more_than_there_are() -> None:
    game = fan_1()
    with pytest.raises(NothingToDoError, match="nothing to undo: this is the start of the deal"):
        game.undo()
    game.play(sorted_moves(game.state)[0])
    with pytest.raises(NothingToDoError, match="cannot undo 2 times: only 1 undo left"):
        game.undo(2)
    assert game.moves == 1  # a refused undo takes nothing back


def test_restart_puts_every_move_on_the_redo_line_in_order() -> None:
    game = fan_1()
    made = []
    for _ in range(3):
        made.append(sorted_moves(game.state)[0])
        game.play(made[-1])
    game.restart()
    assert game.moves == 0 and [move for move, _ in game.redo] == made
    with pytest.raises(NothingToDoError, match="already at the start"):
        game.restart()


def test_a_deal_after_an_undo_clears_a_redo_line_it_would_spoil() -> None:
    """Acey and Kingsley: a card taken back, then a card dealt; the card move may no longer fit."""
    game = GameInPlay(deal(load_game(ACEY), 1))
    card_move = next(move for move in sorted_moves(game.state) if move.kind == "card")
    game.play(card_move)
    game.undo()
    game.play(parse_move(game.state, "d"))
    assert game.redo == []


def test_the_refill_an_action_set_off_is_news_of_that_action_only() -> None:
    game = GameInPlay(deal(load_game(ACEY), 1))
    for _ in range(200):  # play on until a move empties a tableau pile, which the stock refills
        moves = [m for m in sorted_moves(game.state) if m.kind == "card"] or sorted_moves(game.state)
        game.play(moves[0])
        if game.refills:
            break
    assert game.refills, "no refill in 200 moves: pick another deal"
    ((pile, card),) = game.refills
    assert game.last[0].source == pile and game.state.piles[game.state.plan.index(pile)][-1] == card  # type: ignore[index]
    game.undo()
    assert game.refills == []


@pytest.mark.parametrize("game_id", [*GAME_IDS, f"{LUCIE}(redeal_anytime=true)"])
def test_any_sequence_of_actions_keeps_every_card_and_a_redo_line_that_replays(game_id: str) -> None:
    """Moves, autoplay, undo, redo and restart in any order: no card lost, and the redo line always legal."""

    @given(st.integers(1, 5000), st.lists(st.integers(0, 99), min_size=1, max_size=60))
    @settings(FAST, max_examples=15)
    def run(number: int, choices: list[int]) -> None:
        game = GameInPlay(deal(load_game(game_id), number))
        for choice in choices:
            act(game, choice)
            assert all_cards(game.state) == full_deck(game_id)
            assert len(game.auto) == len(game.state.move_stack)
            ahead = game.state.copy()
            for move, _ in game.redo:
                ahead.push_checked(move)  # raises if the redo line went stale

    run()


def act(game: GameInPlay, choice: int) -> None:
    """One action picked by ``choice``: mostly moves, some undos, redos, autoplays and restarts."""
    moves = sorted_moves(game.state)
    try:
        if choice < 60 and moves:
            game.play(moves[choice % len(moves)], autoplay=choice % 2 == 0)
        elif choice < 75:
            game.undo(1 + choice % 2)
        elif choice < 90:
            game.redo_group()
        elif choice < 95:
            game.autoplay()
        else:
            game.restart(autoplay=choice % 2 == 0)
    except NothingToDoError:
        pass


def test_a_game_given_made_moves_replays_them_and_starts_with_no_news() -> None:
    start = deal(load_game("fan"), 1)
    first = sorted_moves(start)[0]
    game = GameInPlay(start, made=[Entry(first, False)], redo=[])
    assert game.moves == 1 and game.last == [] and game.refills == []
    with pytest.raises(IllegalMoveError):
        GameInPlay(deal(load_game("fan"), 1), made=[Entry(Move.redeal(), False)])


def fan_deal_with_a_move_that_frees_a_card_home() -> tuple[GameInPlay, Move]:
    """The first Fan deal with nothing to send home, and a move after which something can go."""
    for number in range(1, 200):
        game = GameInPlay(deal(load_game("fan"), number))
        if safe_home_move(game.state) is not None:
            continue
        for move in sorted_moves(game.state):
            game.state.push(move)
            frees = safe_home_move(game.state) is not None
            game.state.pop()
            if frees:
                return game, move
    raise AssertionError("no such deal in 1-199")


def test_the_move_made_again_by_hand_leaves_its_autoplay_to_a_redo_of_its_own() -> None:
    game, move = fan_deal_with_a_move_that_frees_a_card_home()
    game.play(move, autoplay=True)
    sent = game.moves - 1
    game.undo()
    game.play(move)  # the same move, autoplay off: two actions from here on
    game.redo_group()
    assert game.undo_steps()[:2] == [sent, 1]  # the redo is one undo, the move another


def test_a_stored_redo_line_that_begins_with_an_automatic_move_is_redone_as_an_undo_of_its_own() -> None:
    """What a browser's record could hold before: the autoplay a move made again by hand left behind."""
    start = deal(load_game("fan"), 1)
    first, second = sorted_moves(start)[:2]
    game = GameInPlay(start, made=[Entry(first, False)], redo=[Entry(second, True)])
    game.redo_group()
    assert game.undo_steps() == [1, 1]


def test_moves_made_before_an_error_in_an_action_still_clear_a_redo_line_they_left() -> None:
    game = fan_1()
    first, second = sorted_moves(game.state)[:2]
    game.play(first)
    game.undo()
    with pytest.raises(IllegalMoveError), game.action():
        game.push(second)
        game.push(Move.redeal())  # Fan has no redeal
    assert game.redo == [] and game.moves == 1


@pytest.mark.parametrize("times", [0, -1])
def test_undo_refuses_a_count_below_one(times: int) -> None:
    game = fan_1()
    game.play(sorted_moves(game.state)[0])
    with pytest.raises(NothingToDoError, match="give 1 or more"):
        game.undo(times)
    assert game.moves == 1
