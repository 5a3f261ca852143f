"""Properties over random positions and random play, checked against the rule oracle in helpers.py.

The positions come from two sources: random play from random deals (what a
player meets) and random valid layouts of any stage (foundations of any height,
empty piles, won positions), which reach corners that play from a deal rarely does.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import IllegalMoveError, Move, PileId, State, deal, load_game
from cardtable.core.deals import MAX_DEAL
from cardtable.formats import deal_from_dict, deal_to_dict
from helpers import (
    ACEY,
    ALEXANDER,
    FAST,
    GAME_IDS,
    LUCIE,
    all_cards,
    canonical,
    full_deck,
    oracle_after,
    oracle_moves,
    positions,
    random_play,
)

GAMES_WITH_OPTIONS = (*GAME_IDS, f"{LUCIE}(redeal_anytime=true)", f"{LUCIE}(redeals=0)")
PLAY = settings(FAST, max_examples=12)
"""Whole games are dearer than single positions: fewer of them."""


def snapshot(state: State) -> tuple[object, ...]:
    return ([list(p) for p in state.piles], state.redeals_left, state.key(), state.plan.ids, state.seed)


def check_against_oracle(state: State) -> None:
    expected = oracle_moves(state)
    assert set(state.legal_moves) == expected
    assert len(state.legal_moves) == len(expected)  # no move listed twice
    assert bool(state.legal_moves) == bool(expected)
    won = sum(len(p) for p in state.group("foundation")) == sum(full_deck(state.spec.id).values())
    assert state.is_won() == won
    assert state.is_lost() == (not won and not expected)


def check_moves_apply(state: State, sample: int = 12) -> None:
    before = snapshot(state)
    moves = sorted(state.legal_moves, key=lambda m: (m.text(), m.fans or ()))
    for move in random.Random(len(moves)).sample(moves, min(sample, len(moves))):
        expected = oracle_after(state, move)
        state.push(move)
        assert {g.name: state.group(g.name) for g in state.spec.groups} == expected
        assert all_cards(state) == full_deck(state.spec.id)
        popped = state.pop()
        assert popped == move or (move.kind == "redeal" and popped.kind == "redeal")
        assert snapshot(state) == before


# -- the engine against the oracle ------------------------------------------------


@pytest.mark.parametrize("game", GAMES_WITH_OPTIONS)
def test_random_positions_have_the_oracles_moves(game: str) -> None:
    @given(positions(game))
    @FAST
    def run(state: State) -> None:
        check_against_oracle(state)
        check_moves_apply(state)

    run()


@pytest.mark.parametrize("game", GAMES_WITH_OPTIONS)
def test_random_play_has_the_oracles_moves(game: str) -> None:
    @given(st.integers(1, MAX_DEAL), st.integers(0, 2**32))
    @PLAY
    def run(number: int, seed: int) -> None:
        state = deal(load_game(game), number)
        rng = random.Random(seed)
        for _ in range(60):
            check_against_oracle(state)
            moves = sorted(state.legal_moves, key=lambda m: m.text())
            if not moves:
                break
            move = rng.choice(moves)
            expected = oracle_after(state, move)
            state.push(move)
            assert {g.name: state.group(g.name) for g in state.spec.groups} == expected

    run()


# -- random play ---------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES_WITH_OPTIONS)
def test_random_play_never_loses_a_card_and_pops_back_to_the_deal(game: str) -> None:
    @given(st.integers(1, MAX_DEAL), st.integers(0, 2**64 - 1))
    @PLAY
    def run(number: int, seed: int) -> None:
        state = deal(load_game(game), number)
        start = deal(load_game(game), number)
        history = [snapshot(state)]
        for move in random_play(state.copy(), seed, 120):
            state.push(move)
            assert all_cards(state) == full_deck(game)
            assert state.redeals_left >= 0
            history.append(snapshot(state))
        # a position read back from its JSON is the same position
        again = deal_from_dict(deal_to_dict(state))
        assert again == state and again.key() == state.key()
        while state.move_stack:
            history.pop()
            state.pop()
            assert snapshot(state) == history[-1]
        assert state == start

    run()


# -- legal, illegal ------------------------------------------------------------------


def all_card_moves(state: State) -> list[Move]:
    """Every move of a top card to another pile, legal or not, plus some with the wrong card."""
    moves = []
    ids = state.plan.ids
    for source, pile in zip(ids, state.piles):
        if not pile:
            continue
        for target in ids:
            if target != source:
                moves.append(Move.card_move(source, target, pile[-1]))
        moves.append(Move.card_move(source, ids[0], (pile[-1] + 1) % 52))
        moves.append(Move.card_move(source, source, pile[-1]))
    moves.append(Move.card_move(ids[0], PileId("cellar", 0), 0))
    moves.append(Move.card_move(PileId(ids[-1].group, len(ids) + 3), ids[0], 0))
    return moves


@pytest.mark.parametrize("game", GAME_IDS)
def test_listed_moves_are_accepted_and_the_rest_refused(game: str) -> None:
    @given(positions(game))
    @FAST
    def run(state: State) -> None:
        legal = set(state.legal_moves)
        before = snapshot(state)
        for move in legal:
            assert state.is_legal(move)
            assert move in state.legal_moves
            assert state.why_illegal(move) is None
            state.push_checked(move)
            state.pop()
        for move in [*all_card_moves(state), Move.deal(), Move.redeal()]:
            if move in legal:
                continue
            assert not state.is_legal(move)
            reason = state.why_illegal(move)
            assert reason
            with pytest.raises(IllegalMoveError) as caught:
                state.push_checked(move)
            assert str(caught.value) == f"illegal move: {move.text()!r}: {reason}"
        assert snapshot(state) == before

    run()


# -- keys --------------------------------------------------------------------------


def permuted(state: State, rnd: random.Random) -> State:
    """The same position with interchangeable piles reordered (fans, reserves, like foundations)."""
    groups = {g.name: [list(p) for p in state.group(g.name)] for g in state.spec.groups}
    for name in ("fan", "tableau", "reserve"):
        if name in groups:
            rnd.shuffle(groups[name])
    found = groups["foundation"]
    if state.spec.base_id in (ALEXANDER, ACEY):
        half = len(found) // 2
        ups, downs = found[:half], found[half:]
        rnd.shuffle(ups)
        rnd.shuffle(downs)
        groups["foundation"] = ups + downs
    else:
        rnd.shuffle(found)
    piles = [p for g in state.spec.groups for p in groups[g.name]]
    return State(state.spec, piles, redeals_left=state.redeals_left, seed=state.seed)


@pytest.mark.parametrize("game", GAME_IDS)
def test_keys_ignore_the_order_of_interchangeable_piles(game: str) -> None:
    @given(positions(game), st.randoms(use_true_random=False))
    @FAST
    def run(state: State, rnd: random.Random) -> None:
        other = permuted(state, rnd)
        assert canonical(other) == canonical(state)
        assert other.key() == state.key()
        assert set(other.legal_moves) == oracle_moves(other)
        assert len(other.legal_moves) == len(state.legal_moves)
        if state.spec.redeals and state.group("fan") and any(state.group("fan")):
            assert other.redeal_fans() == state.redeal_fans()  # so a solver may merge them

    run()


@pytest.mark.parametrize("game", GAME_IDS)
def test_keys_differ_where_the_positions_differ(game: str) -> None:
    @given(positions(game))
    @FAST
    def run(state: State) -> None:
        keys = {canonical(state): state.key()}
        for move in state.legal_moves:
            state.push(move)
            keys.setdefault(canonical(state), state.key())
            assert keys[canonical(state)] == state.key()
            state.pop()
        assert len(set(keys.values())) == len(keys)  # different positions, different keys
        if state.spec.redeals:
            other = state.copy()
            other.redeals_left = (state.redeals_left + 1) % (state.spec.redeals + 1)
            assert other.key() != state.key()

    run()


def test_a_real_difference_changes_the_key() -> None:
    state = deal(load_game(ALEXANDER), 1)
    fans = [list(f) for f in state.group("fan")]
    fans[0][0], fans[1][0] = fans[1][0], fans[0][0]  # swap two buried cards between fans
    other = State(state.spec, state.group("foundation") + fans)
    assert other.key() != state.key()
    fans = [list(f) for f in state.group("fan")]
    fans[0][0], fans[0][1] = fans[0][1], fans[0][0]  # reorder within a fan
    assert State(state.spec, state.group("foundation") + fans).key() != state.key()


def test_acey_keys_tell_the_stock_from_the_waste() -> None:
    state = deal(load_game(ACEY), 1)
    state.push(Move.deal())
    swapped = [list(p) for p in state.piles]
    stock = state.plan.stock
    waste = state.plan.waste
    assert stock is not None and waste is not None
    swapped[stock], swapped[waste] = swapped[waste][::-1], swapped[stock]
    assert State(state.spec, swapped).key() != state.key()
    reversed_stock = [list(p) for p in state.piles]
    reversed_stock[stock].reverse()
    assert State(state.spec, reversed_stock).key() != state.key()


def with_suits(state: State, mapping: dict[int, int]) -> State:
    """The position with every card's suit renamed by ``mapping`` (suit -> suit)."""
    piles = [[mapping[c // 13] * 13 + c % 13 for c in pile] for pile in state.piles]
    return State(state.spec, piles, redeals_left=state.redeals_left, seed=state.seed)


@given(positions(ACEY), st.permutations(range(4)))
@FAST
def test_acey_keys_ignore_suits(state: State, suits: list[int]) -> None:
    # No Acey and Kingsley rule looks at a suit, so renaming suits changes nothing that matters.
    other = with_suits(state, dict(enumerate(suits)))
    assert all_cards(other) == full_deck(ACEY)
    assert other.key() == state.key()
    assert len(other.legal_moves) == len(state.legal_moves)
    assert other.is_won() == state.is_won()


@pytest.mark.parametrize("game", [ALEXANDER, LUCIE, "fan"])
def test_keys_of_one_deck_games_see_suits(game: str) -> None:
    state = deal(load_game(game), 12)
    other = with_suits(state, {0: 3, 1: 2, 2: 1, 3: 0})
    assert other.key() != state.key()
