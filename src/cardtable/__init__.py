"""cardtable: play, solve and study patience games.

The core (:mod:`cardtable.core`) and the games (:mod:`cardtable.games`) hold the
rules; everything else depends on them, never the reverse.

>>> from cardtable import deal, load_game
>>> state = deal(load_game("alexander-the-great"), 1)
>>> len(state.group("fan")), state.is_won()
(12, False)
"""

from cardtable.core.cards import Card, card_name, card_symbol, parse_card, rank, suit
from cardtable.core.deals import deal
from cardtable.core.errors import (
    AmbiguousMoveError,
    CardtableError,
    IllegalMoveError,
    InvalidCardError,
    InvalidDealError,
    InvalidMoveError,
    InvalidSolutionError,
    UnknownGameError,
    UnknownPileError,
    WrongTypeError,
)
from cardtable.core.move import Move, PileId
from cardtable.core.spec import GameSpec
from cardtable.core.state import State
from cardtable.games import GAMES, load_game

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "AmbiguousMoveError",
    "Card",
    "CardtableError",
    "GameSpec",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidMoveError",
    "InvalidSolutionError",
    "Move",
    "PileId",
    "State",
    "UnknownGameError",
    "UnknownPileError",
    "WrongTypeError",
    "card_name",
    "card_symbol",
    "deal",
    "load_game",
    "parse_card",
    "rank",
    "suit",
]
