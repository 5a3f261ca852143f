"""Game knowledge that lets the search skip work without losing a solution.

Every rule here comes with the argument that it loses no win; tests compare the
pruned search with the plain one on many small positions.

**Safe foundation moves.** In a one-deck game whose foundations and tableau both
build in suit, whose foundations never give a card back and that has no redeal
left, moving a card ``c`` to its foundation never spoils a win. The only cards
that could ever be placed on ``c`` in the tableau are its two suit neighbours.
The one before ``c`` in foundation order is already on the foundation (that is
why ``c`` may go there). The one after ``c`` may be placed on the foundation
itself as soon as ``c`` is there; so may, in turn, every card a winning line
would stack on that one. Replaying a winning line with ``c`` already home, and
those cards sent home instead of onto ``c``'s stack, wins too, and every other
move of the line stays legal because the only piles that differ have lost cards
nobody could play onto.

A redeal shuffles whatever cards are left, so the argument needs more when one
is still to come: that ``c`` goes home before the next redeal in every line. It
does when every card that may be placed on ``c`` in the tableau comes before
``c`` on the foundation (La Belle Lucie: fans build down, foundations up): such
cards are home already, so nothing ever covers ``c``, it stays playable home, and
a redeal, allowed only when no move is left, cannot come while it waits. Where
redeals are allowed at any time, or the tableau builds both ways (Alexander),
the rule waits for the last redeal.

**Stranded cards.** In the same kind of game, a position is lost when some
tableau card can never reach its foundation, even in a relaxed game where every
card that can be uncovered at all is uncovered at whatever moment suits it. The
relaxation is a least fixpoint (see :meth:`Pruner.stranded`); every real line of
play is also a line of the relaxation, so nothing winnable is ever cut. It catches
the classic dead deal (a card above a lower card of its suit, with the cards it
could move onto buried beneath it) and deadlocks spread over several piles.

The search asks only after a move that put a card on the tableau, and after a
move between tableau piles it need not ask when the card could move on at once
in the relaxation (a card it may be placed on is a top, or it may fill a pile
that is empty): see :meth:`Pruner.leaves_at_once` for why nothing is then
stranded. In Alexander that spares three checks in four.

**Lone cards.** Where an emptied tableau pile takes nothing ever again (La Belle
Lucie), moving the only card of a pile onto another pile uncovers nothing and
leaves an inert space; it only covers the card it lands on. When no redeal can
follow, every line from the position after such a move is open from the position
before it too (play the same moves; the lone card still goes home from where it
was), so the search leaves these moves out. While a redeal is still to come
they must stay: a redeal waits until nothing else can move, and covering a card
is a way to stop it from moving, which changes which cards are home when the
redeal comes, and so the redeal itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from cardtable.core.cards import DECK, KING, RANK_OF, SUIT_OF, Card
from cardtable.core.move import Move
from cardtable.core.spec import GameSpec, Kind, PileGroup
from cardtable.core.state import State


class Pruner:
    """The pruning rules for one game, with its tables computed once."""

    def __init__(self, spec: GameSpec, *, enabled: bool = True) -> None:
        tableau = [g for g in spec.groups if g.kind is Kind.TABLEAU]
        self.in_suit = enabled and _builds_in_suit(spec, tableau)
        up = any(g.build.up for g in tableau)
        down = any(g.build.down for g in tableau)
        self.fill: frozenset[int] = frozenset().union(*(g.fill for g in tableau))
        self.inert_spaces = enabled and bool(tableau) and not self.fill
        ascending = _ascending_suits(spec)
        self.children_precede = not (up and down) and all(up != ascending[s] for s in range(4))
        # Masks for Pruner.stranded: a card may be placed on the card of its suit
        # one rank below it (tableau building up: one bit lower) or above it (down).
        self.firsts, self.home_after_lower, self.home_after_higher = _home_order(ascending)
        self.onto_lower = _mask(c for c in DECK if up and RANK_OF[c] > 1)
        self.onto_higher = _mask(c for c in DECK if down and RANK_OF[c] < KING)
        self.fill_mask = _mask(c for c in DECK if RANK_OF[c] in self.fill)

    def lone_moves_idle(self, state: State) -> bool:
        """Whether lone-card moves onto the tableau can be left out (see the module text)."""
        return self.inert_spaces and (state.redeals_left == 0 or state.spec.redeal_anytime)

    def safe_home(self, state: State) -> bool:
        """Whether every move onto a foundation is safe in this position."""
        if not self.in_suit:
            return False
        return state.redeals_left == 0 or (self.children_precede and not state.spec.redeal_anytime)

    def final(self, state: State) -> bool:
        """Whether stranded cards prove a loss here: no redeal can reshuffle them."""
        return self.in_suit and state.redeals_left == 0

    def home_move(self, state: State) -> tuple[int, int] | None:
        """A card move from the tableau onto a foundation, if there is one.

        Used only where foundations never give cards back, so every source is
        a tableau pile.
        """
        piles = state.piles
        plan = state.plan
        takers, empty_takers = plan.takers, plan.empty_takers
        wanted: dict[Card, int] = {}
        for target in plan.foundations:
            onto = piles[target]
            for card in takers[target][onto[-1]] if onto else empty_takers[target]:
                wanted.setdefault(
                    card, target
                )  # the first foundation that takes it, as a double-click chooses
        for source in plan.sources:
            pile = piles[source]
            if pile and (home := wanted.get(pile[-1])) is not None:
                return source, home
        return None

    def goes_home(self, state: State, pile_index: int) -> bool:
        """Whether the top card of this pile may go onto some foundation now."""
        pile = state.piles[pile_index]
        if not pile:
            return False
        card = pile[-1]
        piles, plan = state.piles, state.plan
        return any(
            card in (plan.takers[f][piles[f][-1]] if piles[f] else plan.empty_takers[f])
            for f in plan.foundations
        )

    def leaves_at_once(self, state: State, card: Card) -> bool:
        """Whether ``card``, just moved between tableau piles, may move on at once in the relaxation.

        If so, and the position before the move was not stranded, neither is
        this one. The move took ``card`` off the top of one tableau pile (so the
        earlier relaxation already had it going home), uncovering the card under
        it, and put it on another, covering that pile's top (or an empty pile);
        moves onto the foundations since then only add cards home and uncover
        others. In this position's relaxation ``card`` is uncovered and
        may leave in the first round, and then the card it covers is uncovered
        (or its pile may be emptied) as it was before the move. From there every
        fact of the earlier relaxation holds here too: the starting facts are the
        same or more and each pile's cards lie in the same order below them. So
        every tableau card that could go home before still can.
        """
        piles, kinds = state.piles, state.plan.kinds
        tops = 0
        empty = False
        for pile, kind in zip(piles, kinds):
            if kind is Kind.TABLEAU:
                if pile:
                    tops |= 1 << pile[-1]
                else:
                    empty = True
        if not tops >> card & 1:
            return True  # it went home with the foundation moves that followed
        onto = (tops << 1) & self.onto_lower | (tops >> 1) & self.onto_higher
        if empty:
            onto |= self.fill_mask
        return bool(onto >> card & 1)

    def stranded(self, state: State) -> bool:
        """Whether some tableau card can never reach its foundation (see the module text).

        A least fixpoint over three optimistic facts: a card *can be uncovered*
        when every card above it can leave; it *can go home* when it can be
        uncovered and its foundation predecessor can go home (or is home); it *can
        leave* when it can go home, or a card it may be placed on can be
        uncovered, or its rank fills a pile that can be emptied. Whatever is
        possible in play is possible here, so a card that cannot go home even
        here proves the position lost.

        The facts are bitmasks over the deck (bit ``c`` for card ``c``), so that
        one shift moves a fact along every suit at once: this runs at every
        position that covers a card, and as a work list of single cards it took
        half of the search's time. Each round uncovers, in every pile at once,
        the card under the lowest uncovered one if that one can leave. Asked only
        where :meth:`final` holds: one deck, so a foundation is a run of one suit.
        """
        piles = state.piles
        home = 0
        for i in state.plan.foundations:
            if pile := piles[i]:  # a run of one suit, from its first card to its top
                home |= ((1 << len(pile)) - 1) << min(pile[0], pile[-1])
        under: dict[Card, Card] = {}  # card -> the card under it in its pile; -1 for a bottom card
        lowest = 0  # the lowest card uncovered so far in each pile not yet emptied
        may_empty = False
        for pile, kind in zip(piles, state.plan.kinds):
            if kind is Kind.TABLEAU:
                if pile:
                    under.update(zip(pile[1:], pile))
                    under[pile[0]] = -1
                    lowest |= 1 << pile[-1]
                else:
                    may_empty = True
        uncovered = lowest
        firsts, after_lower, after_higher = self.firsts, self.home_after_lower, self.home_after_higher
        onto_lower, onto_higher = self.onto_lower, self.onto_higher
        while True:
            while (
                grown := uncovered & ~home & (firsts | (home << 1) & after_lower | (home >> 1) & after_higher)
            ):
                home |= grown
            leaving = home | (uncovered << 1) & onto_lower | (uncovered >> 1) & onto_higher
            if may_empty:
                leaving |= self.fill_mask
            ready = lowest & leaving
            if not ready:
                return any(not home >> card & 1 for card in under)
            lowest ^= ready
            while ready:
                bit = ready & -ready
                ready ^= bit
                next_card = under[bit.bit_length() - 1]
                if next_card < 0:
                    may_empty = True
                else:
                    uncovered |= 1 << next_card
                    lowest |= 1 << next_card


def _mask(cards: Iterable[Card]) -> int:
    """The bitmask of ``cards``: bit ``c`` for card ``c``."""
    return sum(1 << card for card in cards)


def _builds_in_suit(spec: GameSpec, tableau: list[PileGroup]) -> bool:
    """Whether the game is one deck built in suit everywhere, with foundations that keep their cards: where the pruning rules of suits hold."""
    return (
        spec.decks == 1
        and not spec.foundation_gives
        and spec.group("foundation").build.same_suit
        and all(g.build.same_suit or not (g.build.up or g.build.down) for g in tableau)
    )


def _home_order(ascending: tuple[bool, bool, bool, bool]) -> tuple[int, int, int]:
    """Masks of the cards that may start a foundation, that go home after the card one rank below, and one rank above.

    Ascending suits put a card home after the one below it (one bit lower),
    descending ones after the one above it (one bit higher), never across a suit.
    """
    first = [1 if ascending[SUIT_OF[c]] else KING for c in DECK]
    # card -> the card that goes home just before it; -1 if it may start a foundation
    before = [-1 if RANK_OF[c] == first[c] else c - 1 if ascending[SUIT_OF[c]] else c + 1 for c in DECK]
    return (
        _mask(c for c in DECK if before[c] < 0),
        _mask(c for c in DECK if before[c] == c - 1),
        _mask(c for c in DECK if before[c] == c + 1),
    )


def _ascending_suits(spec: GameSpec) -> tuple[bool, bool, bool, bool]:
    """Suit -> whether it goes home upwards, from the foundations' bases and starting cards.

    Foundations all of one base rank decide every suit; otherwise each starting
    card tells its suit's direction (Alexander: red aces up, black kings down).
    """
    foundations = spec.group("foundation")
    if len(set(foundations.bases)) == 1:
        return (foundations.builds_up(0),) * 4
    up = [True] * 4
    for index, card in enumerate(spec.foundation_starts):
        up[SUIT_OF[card]] = foundations.builds_up(index)
    return (up[0], up[1], up[2], up[3])


@cache
def pruner(spec: GameSpec) -> Pruner:
    """The solver's knowledge of a game, made once: autoplay asks it what is safe."""
    return Pruner(spec)


def safe_home_move(state: State) -> Move | None:
    """A move to a foundation that provably never spoils a win, or None.

    The proof is the solver's (:meth:`Pruner.safe_home`): in-suit one-deck
    games whose foundations never give a card back, once no redeal can undo
    the argument. Elsewhere (Acey and Kingsley) there is none, and autoplay does nothing.
    """
    rules = pruner(state.spec)
    if not rules.safe_home(state):
        return None
    found = rules.home_move(state)
    return None if found is None else state.move_at(*found)
