"""Alexander the Great, Thomas Warfield's game of the Clover Leaf family."""

from cardtable.core.cards import ACE, CLUBS, DIAMONDS, HEARTS, KING, SPADES, make_card
from cardtable.core.spec import Build, GameSpec, Kind, PileGroup

RULES = """\
Alexander the Great (Thomas Warfield's), one deck.

Start: the ace of hearts and the ace of diamonds begin two foundations that
build UP in suit to the king; the king of clubs and the king of spades begin two
foundations that build DOWN in suit to the ace. The other 48 cards are dealt face
up into 12 fans of 4. The last card of a fan is its top; only tops move.

Play one card at a time:
- onto a foundation: the next card of its suit in its direction;
- onto another fan: one rank higher or one rank lower, same suit (8C takes 7C or 9C);
- into an empty fan: an ace or a king only (in practice AC, AS, KH, KD).
Cards never leave a foundation. There is no redeal.

You win when all 52 cards are on the foundations.
"""

ALEXANDER_THE_GREAT = GameSpec(
    id="alexander-the-great",
    name="Alexander the Great",
    summary="Warfield's game: 12 fans of 4, red aces up and black kings down, fans build up or down in suit",
    rules=RULES,
    decks=1,
    groups=(
        PileGroup(
            "foundation",
            "f",
            Kind.FOUNDATION,
            4,
            build=Build(same_suit=True),
            bases=(ACE, ACE, KING, KING),
        ),
        PileGroup(
            "fan",
            "t",
            Kind.TABLEAU,
            12,
            build=Build(up=True, down=True, same_suit=True),
            fill=frozenset({ACE, KING}),
        ),
    ),
    foundation_starts=(
        make_card(ACE, HEARTS),
        make_card(ACE, DIAMONDS),
        make_card(KING, CLUBS),
        make_card(KING, SPADES),
    ),
    deal_sizes=(("fan", (4,) * 12),),
)
