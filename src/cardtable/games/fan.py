"""Fan: the classic 18-fan game that other solvers handle, our yardstick."""

from cardtable.core.cards import ACE, KING
from cardtable.core.spec import Build, GameSpec, Kind, PileGroup

RULES = """\
Fan, one deck.

Start: four empty foundations; each takes any ace and then builds UP in suit to
the king. All 52 cards are dealt face up into 18 fans: 17 of 3 and one of 1. The
last card of a fan is its top; only tops move.

Play one card at a time:
- onto a foundation: the next card up of its suit;
- onto another fan: the next LOWER card of the same suit;
- into an empty fan: a king only.
Cards never leave a foundation. There is no redeal.

You win when all 52 cards are on the foundations.
"""

FAN = GameSpec(
    id="fan",
    name="Fan",
    summary="18 fans build down in suit, an empty fan takes a king, no redeal (the solvers' yardstick)",
    rules=RULES,
    decks=1,
    groups=(
        PileGroup("foundation", "f", Kind.FOUNDATION, 4, build=Build(same_suit=True), bases=(ACE,) * 4),
        PileGroup(
            "fan", "t", Kind.TABLEAU, 18, build=Build(down=True, same_suit=True), fill=frozenset({KING})
        ),
    ),
    deal_sizes=(("fan", (3,) * 17 + (1,)),),
)
