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

import dataclasses
import enum
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from cardtable.core.cards import ACE, DECK, DECK_SIZE, KING, RANK_OF, Card, Rank, card_name, checked_card
from cardtable.core.errors import InvalidCardError, InvalidSpecError, UnknownPileError, quoted

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

GROUP_KINDS: Final = {
    "foundation": Kind.FOUNDATION,
    "fan": Kind.TABLEAU,
    "reserve": Kind.RESERVE,
    "tableau": Kind.TABLEAU,
    "stock": Kind.STOCK,
    "waste": Kind.WASTE,
}
"""The group names of formats.md, each with the one kind it can be: files, the notation and the browser go by these names."""

_GAME_ID: Final = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


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

    def __post_init__(self) -> None:
        _check_group(self)

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
    stuck_why: str = ""
    """What is left when ``stuck`` says a position is lost, in a player's words (lower case, no full
    stop): the terminal and the page tell it, since its legal moves would make the loss a puzzle."""

    def __post_init__(self) -> None:
        _check_game(self)

    def __repr__(self) -> str:
        """``<GameSpec 'fan': Fan>``: its id and name, not every field (the rules alone run to pages)."""
        return f"<GameSpec {self.id!r}: {self.name}>"

    def group(self, name: str) -> PileGroup:
        """The group with this formats.md name; :class:`UnknownPileError` if the game has none."""
        for group in self.groups:
            if group.name == name:
                return group
        names = ", ".join(group.name for group in self.groups)
        raise UnknownPileError(f"{self.id} has no group {quoted(name)} (its groups: {names})")

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
        return DECK_SIZE * self.decks


def _check_group(group: PileGroup) -> None:
    """Raise InvalidSpecError if the engine could not play ``group`` as written."""
    where = f"pile group {group.name!r}"
    kind = GROUP_KINDS.get(group.name)
    if kind is None:
        raise InvalidSpecError(f"{where}: not a group name of formats.md ({', '.join(GROUP_KINDS)})")
    if group.kind is not kind:
        raise InvalidSpecError(f"{where}: is of kind {kind.value}, not {group.kind.value}")
    if not re.fullmatch("[a-z]", group.code):
        raise InvalidSpecError(f"{where}: its code {group.code!r} must be one lower-case letter")
    if group.count < 1 or (kind in (Kind.STOCK, Kind.WASTE) and group.count != 1):
        one = "exactly 1" if kind in (Kind.STOCK, Kind.WASTE) else "at least 1"
        raise InvalidSpecError(f"{where}: has {group.count} piles; it needs {one}")
    if kind is Kind.FOUNDATION:
        if len(group.bases) != group.count or not set(group.bases) <= {ACE, KING}:
            raise InvalidSpecError(f"{where}: needs a base, ace or king, for each of its {group.count} piles")
        if group.fill:
            raise InvalidSpecError(f"{where}: a foundation's bases say what fills it, not fill")
    elif group.bases:
        raise InvalidSpecError(f"{where}: only foundations have bases")
    if not group.fill <= ANY_RANK:
        raise InvalidSpecError(
            f"{where}: fill holds ranks from 1 to 13 only, not {sorted(group.fill - ANY_RANK)}"
        )


def _check_game(spec: GameSpec) -> None:
    """Raise InvalidSpecError naming the first thing in ``spec`` that the engine could not play."""
    where = f"game {spec.base_id!r}"
    if not _GAME_ID.fullmatch(spec.base_id):
        raise InvalidSpecError(f"{where}: an id is lower-case letters and digits in words joined by '-'")
    if spec.decks < 1:
        raise InvalidSpecError(f"{where}: is played with {spec.decks} decks")
    _check_groups(spec, where)
    _check_deal(spec, where)
    _check_play(spec, where)


def _check_groups(spec: GameSpec, where: str) -> None:
    """Each group once, one foundation group, and a stock only with a waste to deal onto."""
    for field, values in ("name", [g.name for g in spec.groups]), ("code", [g.code for g in spec.groups]):
        twice = sorted({value for value in values if values.count(value) > 1})
        if twice:
            raise InvalidSpecError(f"{where}: two pile groups have the {field} {twice[0]!r}")
    if not spec.has_group("foundation"):
        raise InvalidSpecError(f"{where}: has no foundation group")
    if spec.has_group("stock") != spec.has_group("waste"):
        raise InvalidSpecError(f"{where}: a stock is dealt onto a waste: it needs both or neither")


def _check_play(spec: GameSpec, where: str) -> None:
    """The refill, the redeals and the options name things the engine has."""
    refill = spec.refill_from_stock
    if refill is not None and not (
        spec.has_group("stock") and spec.has_group(refill) and spec.group(refill).kind is Kind.TABLEAU
    ):
        raise InvalidSpecError(f"{where}: refill_from_stock {refill!r} is not a tableau group fed by a stock")
    if spec.redeals < 0 or spec.redeal_fan_size < 1:
        raise InvalidSpecError(
            f"{where}: redeals must be 0 or more and redeal_fan_size 1 or more,"
            f" not {spec.redeals} and {spec.redeal_fan_size}"
        )
    if spec.redeals and spec.groups[-1].kind is not Kind.TABLEAU:
        raise InvalidSpecError(
            f"{where}: a redeal deals the last pile group again, so it must be fans or tableau"
        )
    if (spec.stuck is None) == bool(spec.stuck_why):
        raise InvalidSpecError(
            f"{where}: a stuck hook and its stuck_why, the words a player is told, go together"
        )
    fields = {field.name for field in dataclasses.fields(GameSpec)}
    unknown = [option for option in spec.options if option not in fields]
    if unknown:
        raise InvalidSpecError(f"{where}: option {unknown[0]!r} is not a field of a game spec")
    for table, name in ((OPTION_WORDS, "OPTION_WORDS"), (OPTION_VALUE_WORDS, "OPTION_VALUE_WORDS")):
        unworded = [option for option in spec.options if option not in table]
        if unworded:
            raise InvalidSpecError(f"{where}: option {unworded[0]!r} has no words for players in {name}")


OPTION_WORDS: Final = {
    "redeals": "redeals allowed",
    "redeal_anytime": "redeal whenever one is left, not only when no other move is possible",
}
"""What each field a game id may set means, in words a player reads beside its box (the browser's Rules dialog)."""

OPTION_VALUE_WORDS: Final = {
    "redeals": ("no redeals", "1 redeal", "{} redeals"),
    "redeal_anytime": ("redeal only when stuck", "redeal at any time"),
}
"""How a game's name in the browser tells an option's value, short: the words for false or 0, for true or 1,
and for a number beyond (``{}`` the number), as in "Alexander the Great (La Belle Lucie form), no redeals"."""


def option_value_words(option: str, value: int) -> str:
    """An option's value in a player's words: ``option_value_words("redeals", 0) == "no redeals"``."""
    words = OPTION_VALUE_WORDS[option]
    return words[min(int(value), len(words) - 1)].format(int(value))  # a bool is 0 or 1


def _check_deal(spec: GameSpec, where: str) -> None:
    """Every card dealt once: the foundation starts on their bases, then the deal's piles, the whole deck."""
    foundations = spec.group("foundation")
    if len(spec.foundation_starts) > foundations.count:
        raise InvalidSpecError(
            f"{where}: {len(spec.foundation_starts)} foundation starts for {foundations.count} foundations"
        )
    for index, (card, base) in enumerate(zip(spec.foundation_starts, foundations.bases)):
        try:
            checked_card(card)  # RANK_OF[-52] is an ace all the same
        except InvalidCardError as error:
            raise InvalidSpecError(f"{where}: foundation {index}'s start is {error}") from None
        if RANK_OF[card] != base:
            raise InvalidSpecError(f"{where}: foundation {index} starts with {card_name(card)}, not its base")
    starts = Counter(spec.foundation_starts)
    extra = starts - Counter(DECK * spec.decks)
    if extra:
        card = min(extra)
        holds = (
            "its deck holds each card once"
            if spec.decks == 1
            else f"its decks hold each card {spec.decks} times"
        )
        raise InvalidSpecError(
            f"{where}: foundation starts hold {card_name(card)} {starts[card]} times; {holds}"
        )
    for name, sizes in spec.deal_sizes:
        if not spec.has_group(name) or spec.group(name).kind is Kind.FOUNDATION:
            raise InvalidSpecError(
                f"{where}: deals to {name!r}, which is not one of its piles off the foundations"
            )
        if len(sizes) != spec.group(name).count:
            raise InvalidSpecError(
                f"{where}: deals {len(sizes)} sizes to its {spec.group(name).count} {name} piles"
            )
        negative = next((index for index, size in enumerate(sizes) if size < 0), None)
        if negative is not None:
            raise InvalidSpecError(
                f"{where}: deals {sizes[negative]} cards to {name}/{negative}; a pile is dealt 0 cards or more"
            )
    dealt = len(spec.foundation_starts) + sum(sum(sizes) for _, sizes in spec.deal_sizes)
    if dealt != spec.deck_size:
        raise InvalidSpecError(f"{where}: deals {dealt} cards, not the {spec.deck_size} of its decks")
