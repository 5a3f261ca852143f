"""A game as data: pile groups, how each builds, what fills a space, redeals, stock.

A :class:`GameSpec` is frozen and says everything the rules engine needs; the
engine (:mod:`cardtable.core.state`) has no game-specific code. A new game of the
fan or Aces-and-Kings families is one spec in ``cardtable/games/``.

Conventions every spec follows:

* Piles are numbered flat, group after group in ``groups`` order; within a group
  they are numbered from 0 as in formats.md (``fan/3``).
* Only the last group may change its number of piles: a redeal replaces it with
  the fans it deals. Games with a redeal therefore list that group last.
* A foundation's direction follows from its base rank: an ace pile builds up, a
  king pile builds down. An empty foundation takes only its base rank.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from cardtable.core.cards import ACE, KING, Card, Rank

if TYPE_CHECKING:
    from cardtable.core.state import State


class Kind(enum.Enum):
    """What a pile group is for; the engine treats each kind one way."""

    FOUNDATION = "foundation"
    TABLEAU = "tableau"  # fans and tableau piles: take cards by a build rule
    RESERVE = "reserve"  # gives its top card, never takes one
    STOCK = "stock"  # dealt one card at a time onto the waste
    WASTE = "waste"  # fed only by the stock; its top card plays


@dataclass(frozen=True)
class Build:
    """How a card may go onto a pile's top card: one rank up, down, or either.

    ``same_suit`` asks for the top card's suit; otherwise any suit will do.
    A foundation ignores ``up`` and ``down``: its base rank sets its direction.
    """

    up: bool = False
    down: bool = False
    same_suit: bool = False


NO_BUILD: Final = Build()
ANY_RANK: Final = frozenset(range(ACE, KING + 1))


@dataclass(frozen=True)
class PileGroup:
    """A group of piles that follow the same rules, such as the 12 fans."""

    name: str  # group name of formats.md: foundation, fan, reserve, tableau, stock, waste
    code: str  # one letter in the terminal notation: f, t, r, s, w
    kind: Kind
    count: int  # piles at the start of a game
    build: Build = NO_BUILD
    fill: frozenset[Rank] = frozenset()  # ranks an empty pile takes (foundations: see bases)
    bases: tuple[Rank, ...] = ()  # foundations only: the base rank of each pile
    interchangeable: bool = True  # may the solver treat its piles as a set?

    def builds_up(self, index: int) -> bool:
        """Whether foundation ``index`` builds up: from an ace up, from a king down, as its base says."""
        return self.bases[index] != KING


@dataclass(frozen=True)
class GameSpec:
    """Everything the rules engine needs to know about one game."""

    id: str
    name: str
    summary: str
    rules: str  # the rules in plain words, as `cardtable rules` prints them
    decks: int
    groups: tuple[PileGroup, ...]
    foundation_starts: tuple[Card, ...] = ()  # dealt onto foundations 0, 1, ... first
    deal_sizes: tuple[tuple[str, tuple[int, ...]], ...] = ()  # then the shuffled rest
    foundation_gives: bool = False  # may a foundation's top card move off again?
    suits_matter: bool = True  # False: no rule looks at suits, so positions ignore them
    refill_from_stock: str | None = None  # group whose emptied piles the stock refills
    redeals: int = 0  # how many redeals a game allows
    redeal_anytime: bool = False  # redeal even when other moves exist
    redeal_fan_size: int = 3  # a redeal deals the last group again in piles of this size
    rules_version: int = 1  # bumped whenever a change could alter a deal's verdict
    options: tuple[str, ...] = ()  # fields settable in the id: game(redeals=0)
    stuck: Callable[[State], bool] | None = None
    """A hook for what the data cannot say: whether a position whose moves all go on for ever without
    changing anything (cards passed between foundations) is lost. Without it, only a position with no
    legal move at all is."""

    def group(self, name: str) -> PileGroup:
        """The group with this formats.md name; KeyError if the game has none."""
        for group in self.groups:
            if group.name == name:
                return group
        raise KeyError(name)

    def has_group(self, name: str) -> bool:
        """Whether the game has a group of this name."""
        return any(group.name == name for group in self.groups)

    @property
    def base_id(self) -> str:
        """The id without options: ``alexander-the-great-lucie``."""
        return self.id.split("(", 1)[0]

    @property
    def deck_size(self) -> int:
        """How many cards the game is played with."""
        return 52 * self.decks
