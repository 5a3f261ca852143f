"""Acey and Kingsley: Aces and Kings with the foundations' first cards dealt."""

from cardtable.core.cards import ACE, KING, SUITS, make_card, rank
from cardtable.core.spec import ANY_RANK, GameSpec, Kind, PileGroup
from cardtable.core.state import State

RULES = """\
Acey and Kingsley, two decks (104 cards). Suits never matter.

Start: one ace of each suit begins each of four ace foundations, which build UP
regardless of suit to the king; one king of each suit begins each of four king
foundations, which build DOWN regardless of suit to the ace (13 cards at most).
The other 96 cards are shuffled: two reserves of 13 face-up cards, four tableau
piles of one card, and a stock of 66.

Play one card at a time:
- the top of a reserve, a tableau pile, the waste or a foundation may go onto a
  foundation where it fits;
- the top of a foundation may also move back off: onto another foundation where it
  fits, or onto an empty tableau pile. An emptied ace foundation takes only an
  ace, an emptied king foundation only a king;
- nothing is ever placed on a reserve, and the tableau never builds.
While the stock has cards, a tableau pile that empties is at once refilled with
the top stock card (that is not a move). Once the stock is empty, an empty tableau
pile takes any playable card.

Stock: deal one card at a time onto the waste; one pass only.

You win when all 104 cards are on the foundations. The game is lost when no move
is left but passing cards between foundations, and no such pass can ever let
another card move.
"""


def stuck(state: State) -> bool:
    """Lost, though a foundation's top may always be passed to another: nothing else can ever move.

    Once the stock is out and no tableau pile is empty, a card leaves the
    reserves, the tableau or the waste only for a foundation. Passing tops between
    foundations changes which ranks they take only where an ace pile and a king
    pile meet (ace pile to ``a``, king pile to ``a + 1``: together one card of
    each rank, their boundary free to slide, so they take any rank); otherwise
    a pass swaps the tops of two piles alike, and the ranks taken stay the same.
    So with no meeting pair and no top card of a rank some foundation takes,
    no line of moves ever changes more than the order of the foundations.
    """
    plan, piles = state.plan, state.piles
    if plan.stock is not None and piles[plan.stock]:
        return False  # a deal is left
    if any(not piles[i] for i in plan.refills):
        return False  # an empty tableau pile takes any card
    bases = state.spec.group("foundation").bases
    aces = {rank(piles[i][-1]) if piles[i] else 0 for i, base in zip(plan.foundations, bases) if base == ACE}
    kings = {
        rank(piles[i][-1]) if piles[i] else KING + 1
        for i, base in zip(plan.foundations, bases)
        if base == KING
    }
    if any(a + 1 in kings for a in aces):
        return False  # a meeting pair, which takes any rank
    taken = {a + 1 for a in aces} | {k - 1 for k in kings}
    homes = set(plan.foundations)
    return not any(
        rank(pile[-1]) in taken for i, pile in enumerate(piles) if pile and i not in homes and i != plan.stock
    )


ACEY_AND_KINGSLEY = GameSpec(
    id="acey-and-kingsley",
    name="Acey and Kingsley",
    summary="two decks, 4 ace and 4 king foundations, reserves of 13, a 66-card stock, suits never matter",
    rules=RULES,
    decks=2,
    groups=(
        PileGroup("foundation", "f", Kind.FOUNDATION, 8, bases=(ACE,) * 4 + (KING,) * 4),
        PileGroup("reserve", "r", Kind.RESERVE, 2),
        PileGroup("tableau", "t", Kind.TABLEAU, 4, fill=ANY_RANK),
        PileGroup("stock", "s", Kind.STOCK, 1, interchangeable=False),
        PileGroup("waste", "w", Kind.WASTE, 1, interchangeable=False),
    ),
    foundation_starts=tuple(make_card(ACE, s) for s in SUITS) + tuple(make_card(KING, s) for s in SUITS),
    deal_sizes=(("reserve", (13, 13)), ("tableau", (1, 1, 1, 1)), ("stock", (66,))),
    foundation_gives=True,
    suits_matter=False,
    refill_from_stock="tableau",
    stuck=stuck,
    stuck_why="only passes between foundations are left, and they can never free another card",
)
