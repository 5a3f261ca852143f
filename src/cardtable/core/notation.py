"""The short move notation people type in the terminal, such as ``t3 f1``.

Each pile has a code: a group letter and an index from 0 (``f0``-``f7`` for the
foundations, ``t0``... for the fans or tableau, ``r0``/``r1`` for the reserves,
``w`` for the waste, ``s`` for the stock). A move is written:

* ``t3 f1`` (or ``t3f1``): the top card of t3 onto f1;
* ``t3 f``: the top card of t3 onto a pile of that group that takes it (a
  foundation first, as below);
* ``t3 f1 7c`` (or ``t3 f1 7♣``, as ``cardtable solve`` prints a line): as
  ``t3 f1``, and the card is checked to be the one on top of t3; so with
  ``t3 f 7c`` and ``t3 7c``;
* ``t3`` or a card name such as ``7c``: that card onto a foundation that takes it,
  or else onto the only pile that takes it;
* ``d`` (or ``deal``): deal a card from the stock onto the waste;
* ``redeal`` (or ``rd``): gather and deal the fans again.

This notation depends on the position (like SAN in chess), so it lives beside
:class:`~cardtable.core.state.State` rather than on :class:`Move`.
"""

from __future__ import annotations

import re
from typing import Final

from cardtable.core.cards import Card, card_symbol, parse_card
from cardtable.core.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    quoted,
)
from cardtable.core.move import CARD, DEAL, PILE_DIGITS, Move, PileId, pile_number
from cardtable.core.spec import Kind, PileGroup
from cardtable.core.state import State

__all__ = ["DEAL_WORDS", "REDEAL_WORDS", "move_text", "parse_move", "pile_code"]
"""The notation itself; the rest words cardtable's messages for the terminal and the page."""

_PILES: Final = re.compile(r"^([a-z])([0-9]*)\s*(?:([a-z])([0-9]*))?$")
_CARD_TO: Final = re.compile(r"^(\S+)\s+([a-z])([0-9]*)$")
"""A card, then where it goes: ``6s t3``, ``6s f``."""
DEAL_WORDS: Final = frozenset({"d", "deal"})
REDEAL_WORDS: Final = frozenset({"redeal", "rd"})


def pile_code(state: State, pile: PileId) -> str:
    """The short code of a pile: ``t3``, ``f0``, ``w``."""
    group = state.spec.group(pile.group)
    return group.code if group.count == 1 and group.kind is not Kind.TABLEAU else f"{group.code}{pile.index}"


def with_codes(state: State, text: str) -> str:
    """``text`` with every pile named as formats.md names it (``fan/3``) named by its code (``t3``).

    The core's messages name piles as the JSON formats and the browser do; the
    terminal, where a player types codes, says them in codes instead.
    """
    names = "|".join(re.escape(group.name) for group in state.spec.groups)

    def code(match: re.Match[str]) -> str:
        pile = PileId(match.group(1), int(match.group(2)))
        return pile_code(state, pile) if state.plan.index(pile) is not None else match.group(0)

    return re.sub(rf"\b({names})/([0-9]+)\b", code, text)


def in_codes(state: State, error: IllegalMoveError) -> IllegalMoveError:
    """``error`` with the piles of its reason named by code (see :func:`with_codes`), its move quoted as given.

    The move is what the player typed, and a message quotes input as it was
    typed, even where it names piles as formats.md does (``fan/1 foundation/0``).
    """
    return IllegalMoveError(with_codes(state, error.reason), error.move)


def plural(count: int, word: str) -> str:
    """A count as messages write it: ``1 move``, ``2 moves``, ``2,000 positions``."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def move_text(state: State, move: Move) -> str:
    """A move in the short notation: ``t3 f1``, ``d`` or ``redeal``."""
    if move.kind == CARD:
        assert move.source is not None and move.target is not None
        return f"{pile_code(state, move.source)} {pile_code(state, move.target)}"
    return "d" if move.kind == DEAL else "redeal"


def parse_move(state: State, text: str) -> Move:
    """Parse the short notation into a legal move, or raise saying what is wrong."""
    words = text.strip().lower()
    if words in DEAL_WORDS:
        return _checked(state, Move.deal(), text)
    if words in REDEAL_WORDS:
        return _checked(state, Move.redeal(), text)
    if _is_card(words):
        return _card_move(state, words, text)
    piles, card = _piles_and_card(words)
    match = _PILES.match(piles)
    if match is not None and (match.group(2) or match.group(3) or _single_pile(state, match.group(1))):
        letter, number, to_letter, to_number = match.groups()
        source = _pile(state, letter, number, text)
        if card is not None:
            _check_top(state, source, card, text)
        return _move_to(state, source, text, to_letter, to_number)
    to = _CARD_TO.match(words)
    if to is not None and _is_card(to.group(1)):
        return _card_move(state, to.group(1), text, to.group(2), to.group(3))
    return _card_move(state, words, text)


def _piles_and_card(words: str) -> tuple[str, Card | None]:
    """``words`` split into the piles and the card written after them (``t6 f0 a♣``), or left whole with None.

    ``cardtable solve`` prints each move of a line with the card it moves, so
    that a line replayed by hand can be checked card by card: typed as printed,
    the card is that check.
    """
    parts = words.rsplit(None, 1)
    if len(parts) < 2 or not _is_card(parts[1]) or _is_card(parts[0]):  # 'as kh' is no pile and a card
        return words, None
    return parts[0], parse_card(parts[1])


def _check_top(state: State, source: PileId, card: Card, text: str) -> None:
    """Refuse a move whose card is not the one on top of ``source``; an empty pile or the stock is told later.

    The stock is face down: its top is not named.
    """
    pile = state.pile(source)
    if pile and pile[-1] != card and state.spec.group(source.group).kind is not Kind.STOCK:
        raise IllegalMoveError(
            f"{pile_code(state, source)} holds {card_symbol(pile[-1])} on top, not {card_symbol(card)}", text
        )


def _is_card(words: str) -> bool:
    """Whether ``words`` names a card: ``as`` or ``kh`` would otherwise read as two pile codes."""
    try:
        parse_card(words)
    except InvalidCardError:
        return False
    return True


def _single_pile(state: State, letter: str) -> bool:
    return any(g.code == letter and g.count == 1 for g in state.spec.groups)


def _group(state: State, letter: str, number: str, text: str) -> PileGroup:
    """The group of piles a code's letter names."""
    for group in state.spec.groups:
        if group.code == letter:
            return group
    codes = sorted({g.code for g in state.spec.groups})
    raise InvalidMoveError(
        f"no pile {_code(letter, number)} in {quoted(text)} (piles start with {', '.join(codes)})"
    )


def _code(letter: str, number: str) -> str:
    """A pile's code as typed, for a message: a number longer than any pile's cut short."""
    return letter + (number if len(number) <= PILE_DIGITS else f"{number[:PILE_DIGITS]}...")


def _pile(state: State, letter: str, number: str, text: str) -> PileId:
    """The pile a code names; a group of several piles needs its number."""
    group = _group(state, letter, number, text)
    if not number and group.count > 1:
        raise InvalidMoveError(
            f"say which {group.name} in {quoted(text)}: {letter}0 to {letter}{group.count - 1}"
        )
    index = pile_number(number)
    pile = None if index is None else PileId(group.name, index)
    if pile is None or state.plan.index(pile) is None:
        last = sum(pid.group == group.name for pid in state.plan.ids) - 1
        raise InvalidMoveError(
            f"no pile {_code(letter, number)} in {quoted(text)} ({group.name} piles are {letter}0 to {letter}{last})"
        )
    return pile


def _checked(state: State, move: Move, text: str) -> Move:
    reason = state.why_illegal(move)
    if reason is not None:
        raise IllegalMoveError(reason, text)
    return move


def _card_move(state: State, words: str, text: str, letter: str | None = None, number: str = "") -> Move:
    """The move of the card ``words`` names, from the top of the pile it is on: home, or to the pile ``letter``/``number`` names."""
    try:
        card = parse_card(words)
    except InvalidCardError:
        raise InvalidMoveError(
            f"not a move: {quoted(text)} (try {_examples(state)}; 'help' lists all)"
        ) from None
    sources = [pid for pid, pile in zip(state.plan.ids, state.piles) if pile and pile[-1] == card]
    playable = [pid for pid in sources if state.plan.index(pid) in state.plan.sources]
    if not playable:
        where = (
            "is already home"
            if any(pid.group == "foundation" for pid in sources)
            else "is not on top of a pile that plays"
        )
        raise IllegalMoveError(f"{card_symbol(card)} {where}", text)
    # With two decks the card may top two piles: prefer one off the foundations, and one that can move.
    playable.sort(key=lambda pid: pid.group == "foundation")
    movable = {m.source for m in state.legal_moves if m.kind == CARD}
    source = next((pid for pid in playable if pid in movable), playable[0])
    return _move_to(state, source, text, letter, number)


def _move_to(state: State, source: PileId, text: str, letter: str | None, number: str) -> Move:
    """The move of ``source``'s top card to where the player's code says, whether the card was named or its pile.

    No code sends it home, or to its one place; a letter alone (``t``), to its
    one place in that group; a letter and a number (``t3``), or the letter of a
    one-pile group, to that pile.
    """
    if letter is None:
        return _only_move(state, source, text)
    if not number and not _single_pile(state, letter):
        return _only_move(state, source, text, _group(state, letter, "", text).name)
    target = _pile(state, letter, number, text)
    top = state.pile(source)
    if not top:
        raise IllegalMoveError(f"{pile_code(state, source)} is empty", text)
    return _checked(state, Move.card_move(source, target, top[-1]), text)


def _direction(state: State, foundation: PileId) -> str:
    return "up" if state.spec.group(foundation.group).builds_up(foundation.index) else "down"


def _examples(state: State) -> str:
    """Moves to try, as this game has them: 'd' only with a stock, 'redeal' only with redeals."""
    examples = ["'t3 f1'", "'t3'", "a card like '7c'"]
    examples += ["'d'"] if state.plan.stock is not None else []
    examples += ["'redeal'"] if state.spec.redeals else []
    return ", ".join(examples[:-1]) + " or " + examples[-1]


def _only_move(state: State, source: PileId, text: str, group: str | None = None) -> Move:
    """The move of ``source``'s top card (to a pile of ``group``, if given): to a foundation if one takes it, else the one place.

    A card already home moves off only to a place named (``f0 f1``, ``f0 f``,
    ``f0 t3``): sent "home", it has nowhere to go. Where a card can go up on one
    foundation or down on another (Acey and Kingsley), the player is asked which.
    """
    moves = [
        m
        for m in state.legal_moves
        if m.kind == CARD
        and m.source == source
        and (group is None or (m.target is not None and m.target.group == group))
    ]
    if group is None and source.group == "foundation" and state.pile(source):  # "home" means nothing here
        off = f"; to move it off, name both piles, like '{move_text(state, moves[0])}'" if moves else ""
        raise IllegalMoveError(f"{card_symbol(state.pile(source)[-1])} is already home{off}", text)
    if not moves:
        raise _nowhere(state, source, text, group)
    if (home := _home_move(state, source, text, moves)) is not None:
        return home
    return _one_place(state, source, text, moves)


def _nowhere(state: State, source: PileId, text: str, group: str | None) -> IllegalMoveError:
    """Why ``source``'s top card cannot move (to ``group``): the stock, an empty pile, or no place takes it."""
    if state.spec.group(source.group).kind is Kind.STOCK:  # face down: do not name its card
        return IllegalMoveError("the stock is only dealt from, with 'd'", text)
    pile = state.pile(source)
    if not pile:
        return IllegalMoveError(f"{pile_code(state, source)} is empty", text)
    where = "anywhere" if group is None else f"on any {group}"
    return IllegalMoveError(f"{card_symbol(pile[-1])} cannot go {where} now", text)


def _home_move(state: State, source: PileId, text: str, moves: list[Move]) -> Move | None:
    """Of ``moves``, the one home; None if none goes home; AmbiguousMoveError if foundations going both ways take it."""
    home = [m for m in moves if m.target is not None and m.target.group == "foundation"]
    ways = {_direction(state, m.target) for m in home if m.target is not None}
    if len(ways) > 1:  # Acey and Kingsley: up on an ace pile or down on a king pile is the player's choice
        places = [f"{pile_code(state, m.target)} ({_direction(state, m.target)})" for m in home if m.target]
        raise AmbiguousMoveError(text, places, f"{pile_code(state, source)} {places[0].split(' ')[0]}")
    return home[0] if home else None  # foundations that go the same way and take the same card are alike


def _one_place(state: State, source: PileId, text: str, moves: list[Move]) -> Move:
    """The one move of ``moves``, none going home; else the player is asked to name the place."""
    if len(moves) == 1:
        return moves[0]
    if (
        len(state.pile(source)) == 1
        and state.spec.group(source.group).interchangeable
        and all(m.target and m.target.group == source.group and not state.pile(m.target) for m in moves)
    ):
        raise IllegalMoveError(  # a lone card from one empty place to another: the same position
            f"{card_symbol(state.pile(source)[-1])} cannot go home now,"
            " and moving it alone to an empty pile changes nothing",
            text,
        )
    places = [pile_code(state, m.target) for m in moves if m.target is not None]
    raise AmbiguousMoveError(text, places, f"{pile_code(state, source)} {places[0]}")
