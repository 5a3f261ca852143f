"""Alexander the Great in its La Belle Lucie form: 18 fans, two redeals."""

from cardtable.core.cards import ACE
from cardtable.core.spec import Build, GameSpec, Kind, PileGroup

RULES = """\
Alexander the Great (La Belle Lucie form), one deck.

Start: four empty foundations; each takes any ace and then builds UP in suit to
the king. All 52 cards are dealt face up into 18 fans: 17 of 3 and one of 1. The
last card of a fan is its top; only tops move.

Play one card at a time:
- onto a foundation: the next card up of its suit;
- onto another fan: the next LOWER card of the same suit (7C on 8C).
A fan that empties stays empty for the rest of the game. Cards never leave a
foundation.

Redeal: when no other move is possible and cards are left in the fans, gather the
fan cards, shuffle them and deal them again in fans of 3 (the last fan takes the
1 or 2 left over). Empty fans disappear: the tableau is exactly the new fans.
At most two redeals. The shuffle is fixed by the deal, so a deal number with the
same moves always gives the same redeals.

Options: redeals=N sets how many redeals are allowed (default 2);
redeal_anytime=true allows a redeal whenever one is left, as some programs do.

You win when all 52 cards are on the foundations; you lose when no move and no
redeal is left.
"""

ALEXANDER_THE_GREAT_LUCIE = GameSpec(
    id="alexander-the-great-lucie",
    name="Alexander the Great (La Belle Lucie form)",
    summary="18 fans build down in suit, foundations up from the ace, two redeals when blocked",
    rules=RULES,
    decks=1,
    groups=(
        PileGroup("foundation", "f", Kind.FOUNDATION, 4, build=Build(same_suit=True), bases=(ACE,) * 4),
        PileGroup("fan", "t", Kind.TABLEAU, 18, build=Build(down=True, same_suit=True)),
    ),
    deal_sizes=(("fan", (3,) * 17 + (1,)),),
    redeals=2,
    options=("redeals", "redeal_anytime"),
)
