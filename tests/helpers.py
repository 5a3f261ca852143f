"""Helpers of the core tests: positions from small dicts, an oracle of the rules, a tiny solver.

The oracle (:func:`oracle_moves`, :func:`oracle_after`) is a second reading of
``shared/rules.md``, written here from the rule text with its own card arithmetic
and without the engine's tables, so that the property tests can compare the two.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from cardtable import Card, Move, PileId, State, card_name, load_game, parse_card
from cardtable.core.move import CARD, DEAL, REDEAL
from cardtable.core.rng import SplitMix64
from cardtable.formats import deal_from_dict, deal_to_dict

DATA = Path(__file__).parent / "data"

ALEXANDER = "alexander-the-great"
LUCIE = "alexander-the-great-lucie"
ACEY = "acey-and-kingsley"
FAN = "fan"
GAME_IDS = (ALEXANDER, LUCIE, ACEY, FAN)
LUCIE_BLOCKED_AT_START = 108882  # no card moves at the start: the only move is a redeal

FAST = settings(
    max_examples=40,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
"""Hypothesis settings for the core suite: few examples, no timing, no files, reproducible."""

# Independent card arithmetic (cards.py says: card = suit * 13 + rank - 1).
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


def rank_of(card: Card) -> int:
    return card % 13 + 1


def suit_of(card: Card) -> int:
    return card // 13


def card_of(rank: int, suit: int) -> Card:
    return suit * 13 + rank - 1


def cards(text: str) -> list[Card]:
    """``'7C 8C TD'`` as a list of cards."""
    return [parse_card(word) for word in text.split()]


def names(pile: Sequence[Card]) -> str:
    """A pile as ``'7C 8C TD'``."""
    return " ".join(card_name(c) for c in pile)


def base_id(game: str) -> str:
    return game.split("(", 1)[0].strip()


def full_deck(game: str) -> Counter[Card]:
    return Counter(list(range(52)) * (2 if base_id(game) == ACEY else 1))


# -- positions from small dicts -------------------------------------------------

# (suit, builds up) of each foundation, in order, as the helpers fill them.
FOUNDATION_PLAN: dict[str, tuple[tuple[int, bool], ...]] = {
    ALEXANDER: ((HEARTS, True), (DIAMONDS, True), (CLUBS, False), (SPADES, False)),
    LUCIE: ((CLUBS, True), (DIAMONDS, True), (HEARTS, True), (SPADES, True)),
    FAN: ((CLUBS, True), (DIAMONDS, True), (HEARTS, True), (SPADES, True)),
}
FAN_COUNT = {ALEXANDER: 12, LUCIE: 18, FAN: 18}


def fan_position(
    game: str,
    fans: Sequence[str],
    *,
    fan_count: int | None = None,
    redeals_left: int | None = None,
    seed: int | None = None,
) -> State:
    """A position of a fan game: these fans (bottom first), every other card on the foundations.

    The foundations take, suit by suit, the run from their base that the fans do not
    hold (Alexander: f0 hearts and f1 diamonds up, f2 clubs and f3 spades down; the
    others: f0 clubs, f1 diamonds, f2 hearts, f3 spades, all up from the ace). The
    fans are padded with empty ones to ``fan_count`` (the game's count by default).
    Raises ValueError if some card is neither in a fan nor on a foundation's run.
    """
    base = base_id(game)
    fan_cards = [cards(text) for text in fans]
    count = FAN_COUNT[base] if fan_count is None else fan_count
    fan_cards += [[] for _ in range(count - len(fan_cards))]
    rest = full_deck(game) - Counter(c for fan in fan_cards for c in fan)
    foundations: list[list[str]] = []
    for suit, up in FOUNDATION_PLAN[base]:
        ranks = range(1, 14) if up else range(13, 0, -1)
        run: list[str] = []
        for r in ranks:
            card = card_of(r, suit)
            if not rest[card]:
                break
            rest[card] -= 1
            run.append(card_name(card))
        foundations.append(run)
    left = +rest
    if left:
        raise ValueError(f"cards neither in a fan nor on a foundation run: {names(sorted(left.elements()))}")
    obj: dict[str, Any] = {
        "game": game,
        "piles": {"foundation": foundations, "fan": [[card_name(c) for c in f] for f in fan_cards]},
    }
    if redeals_left is not None:
        obj["redeals_left"] = redeals_left
    if seed is not None:
        obj["seed"] = seed
    return deal_from_dict(obj)


def acey_position(
    *,
    up: Sequence[int] = (13, 13, 13, 13),
    down: Sequence[int] = (13, 13, 13, 13),
    reserve: Sequence[str] = ("", ""),
    tableau: Sequence[str] = ("", "", "", ""),
    stock: str = "",
    waste: str = "",
    rest: str | None = None,
) -> State:
    """An Acey and Kingsley position: foundations of these heights, these piles, the rest under ``rest``.

    ``up`` and ``down`` are the heights of the four ace piles (A, 2, 3...) and the
    four king piles (K, Q, J...): 13 is full, 0 empty. Each foundation card is the
    lowest-numbered copy of its rank still free (clubs first). Cards that are
    neither on a foundation nor listed go, sorted, under the cards of the pile
    named by ``rest`` ('waste', 'stock', 'reserve/1'); without ``rest`` they are an error.
    """
    piles: dict[str, list[list[Card]]] = {
        "reserve": [cards(t) for t in reserve],
        "tableau": [cards(t) for t in tableau],
        "stock": [cards(stock)],
        "waste": [cards(waste)],
    }
    left = full_deck(ACEY) - Counter(c for group in piles.values() for pile in group for c in pile)
    foundations: list[list[Card]] = []
    for height, ranks in [(h, range(1, 14)) for h in up] + [(h, range(13, 0, -1)) for h in down]:
        pile: list[Card] = []
        for r in list(ranks)[:height]:
            card = min((c for c in left if left[c] and rank_of(c) == r), default=None)
            if card is None:
                raise ValueError(f"no card of rank {r} left for a foundation")
            left[card] -= 1
            pile.append(card)
        foundations.append(pile)
    left = +left
    if left:
        if rest is None:
            raise ValueError(f"cards left over: {names(sorted(left.elements()))}")
        group, _, index = rest.partition("/")
        pile = piles[group][int(index or 0)]
        pile[:0] = sorted(left.elements())
    piles["foundation"] = foundations
    return deal_from_dict(
        {
            "game": ACEY,
            "piles": {name: [[card_name(c) for c in p] for p in group] for name, group in piles.items()},
        }
    )


def acey_stuck_position(down: tuple[int, int, int, int] = (13, 13, 13, 13)) -> State:
    """Acey and Kingsley lost with moves left: stock out, tableau full, ace piles at 5 and 4
    (taking a 6 and a 5), no such card on top; only passes between foundations can be made."""
    return acey_position(
        up=(5, 4, 13, 13), down=down, tableau=["7C", "8C", "9C", "TC"], waste="JC", rest="waste"
    )


def card_move(source: str, target: str, card: str) -> Move:
    """``card_move('fan/3', 'foundation/0', '7C')``."""
    return Move.card_move(PileId.parse(source), PileId.parse(target), parse_card(card))


def move_texts(moves: Iterable[Move]) -> set[str]:
    """Moves as their position-free text, for readable comparisons."""
    return {m.text() for m in moves}


# -- the oracle: rules.md read a second time ------------------------------------


def _fits_foundation(game: str, pile: Sequence[Card], index: int, card: Card) -> bool:
    base = base_id(game)
    if base == ACEY:
        if not pile:
            return rank_of(card) == (1 if index < 4 else 13)
        step = 1 if index < 4 else -1
        return len(pile) < 13 and rank_of(card) == rank_of(pile[-1]) + step
    if not pile:  # Lucie and Fan: any ace (Alexander's foundations are never empty)
        return base != ALEXANDER and rank_of(card) == 1
    up = rank_of(pile[0]) == 1
    step = 1 if up else -1
    return suit_of(card) == suit_of(pile[-1]) and rank_of(card) == rank_of(pile[-1]) + step


def _fits_fan(game: str, pile: Sequence[Card], card: Card) -> bool:
    base = base_id(game)
    if base == ACEY:
        return not pile  # the tableau never builds; an empty pile takes anything
    if not pile:
        if base == ALEXANDER:
            return rank_of(card) in (1, 13)
        if base == FAN:
            return rank_of(card) == 13
        return False  # Lucie: an emptied fan stays empty
    top = pile[-1]
    if suit_of(card) != suit_of(top):
        return False
    diff = rank_of(card) - rank_of(top)
    return diff in (-1, 1) if base == ALEXANDER else diff == -1


def oracle_moves(state: State) -> set[Move]:
    """Every legal move of ``state`` by rules.md, computed without the engine's move code."""
    game = state.spec.id
    base = base_id(game)
    deck = full_deck(game)
    found = state.group("foundation")
    if sum(len(p) for p in found) == sum(deck.values()):
        return set()
    fan_group = "tableau" if base == ACEY else "fan"
    fans = state.group(fan_group)
    sources: list[tuple[PileId, list[Card]]] = [(PileId(fan_group, i), p) for i, p in enumerate(fans)]
    if base == ACEY:
        sources += [(PileId("reserve", i), p) for i, p in enumerate(state.group("reserve"))]
        sources += [(PileId("waste", 0), state.group("waste")[0])]
        sources += [(PileId("foundation", i), p) for i, p in enumerate(found)]
    moves: set[Move] = set()
    for source, pile in sources:
        if not pile:
            continue
        card = pile[-1]
        for i, onto in enumerate(found):
            target = PileId("foundation", i)
            if target != source and _fits_foundation(game, onto, i, card):
                moves.add(Move.card_move(source, target, card))
        for i, onto in enumerate(fans):
            target = PileId(fan_group, i)
            if target != source and _fits_fan(game, onto, card):
                moves.add(Move.card_move(source, target, card))
    if base == ACEY and state.group("stock")[0]:
        moves.add(Move.deal())
    blocked = not moves
    if base == LUCIE and state.redeals_left > 0 and any(fans) and (state.spec.redeal_anytime or blocked):
        moves.add(Move.redeal())
    return moves


def oracle_redeal_fans(state: State) -> tuple[tuple[Card, ...], ...]:
    """The fans the next redeal makes, as the engine documents it (state.py, REDEAL_STREAM)."""
    gathered = sorted(c for fan in state.group("fan") for c in fan)
    number = state.spec.redeals - state.redeals_left + 1
    SplitMix64(state.seed + number * 2**32).shuffle(gathered)
    return tuple(tuple(gathered[i : i + 3]) for i in range(0, len(gathered), 3))


def oracle_after(state: State, move: Move) -> dict[str, list[list[Card]]]:
    """The piles, group by group, after ``move`` by rules.md (automatic refill included)."""
    groups = {g.name: [list(p) for p in state.group(g.name)] for g in state.spec.groups}
    if move.kind == DEAL:
        groups["waste"][0].append(groups["stock"][0].pop())
    elif move.kind == REDEAL:
        groups["fan"] = [list(f) for f in oracle_redeal_fans(state)]
    else:
        assert move.source is not None and move.target is not None
        source = groups[move.source.group][move.source.index]
        groups[move.target.group][move.target.index].append(source.pop())
        stock = groups.get("stock", [[]])[0]
        if move.source.group == "tableau" and not source and stock:
            source.append(stock.pop())
    return groups


def canonical(state: State) -> tuple[Any, ...]:
    """What the rules can tell apart: like piles as a multiset, and the redeals left.

    In Acey and Kingsley no rule looks at suits, so cards count by rank alone.
    """
    base = base_id(state.spec.id)
    parts: list[Any] = []
    for group in state.spec.groups:
        piles = [tuple(rank_of(c) if base == ACEY else c for c in p) for p in state.group(group.name)]
        if group.name == "foundation":
            # piles with the same base rank are interchangeable
            by_base: dict[int, list[tuple[Card, ...]]] = {}
            for i, pile in enumerate(piles):
                if base == ACEY:
                    key = 1 if i < 4 else 13
                elif base == ALEXANDER:
                    key = 1 if i < 2 else 13
                else:
                    key = 1
                by_base.setdefault(key, []).append(pile)
            parts.append(tuple(sorted((k, tuple(sorted(v))) for k, v in by_base.items())))
        elif group.name in ("stock", "waste"):
            parts.append(tuple(piles))
        else:
            parts.append(tuple(sorted(piles)))
    parts.append(state.redeals_left)
    return tuple(parts)


def all_cards(state: State) -> Counter[Card]:
    return Counter(c for pile in state.piles for c in pile)


# -- search and play ------------------------------------------------------------


def _move_order(move: Move) -> tuple[int, str]:
    home = move.target is not None and move.target.group == "foundation"
    return (0 if home else 1 if move.kind == CARD else 2, move.text())


def find_win(state: State, max_positions: int = 200_000) -> list[Move] | None:
    """A winning line from ``state`` by depth-first search over positions (None if none found).

    Foundation moves are tried first. Used on small positions only; the state is
    left as it was.
    """
    seen: set[bytes] = set()
    line: list[Move] = []

    def search() -> bool:
        if state.is_won():
            return True
        key = state.key()
        if key in seen or len(seen) >= max_positions:
            return False
        seen.add(key)
        for move in sorted(state.legal_moves, key=_move_order):
            state.push(move)
            line.append(state.peek())
            if search():
                state.pop()
                return True
            line.pop()
            state.pop()
        return False

    return list(line) if search() else None


def position_digest(state: State) -> str:
    """A short digest of a position's deal JSON (formats.md), for pinning positions in one line."""
    text = json.dumps(deal_to_dict(state), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def sorted_moves(state: State) -> list[Move]:
    """The legal moves in an order that does not depend on how the engine generates them."""
    return sorted(state.legal_moves, key=lambda m: (m.text(), m.fans or ()))


def random_play(state: State, seed: int, plies: int) -> list[Move]:
    """Play up to ``plies`` legal moves chosen by ``SplitMix64(seed)``; returns the moves pushed."""
    rng = SplitMix64(seed)
    played: list[Move] = []
    for _ in range(plies):
        moves = sorted_moves(state)
        if not moves:
            break
        state.push(moves[rng.below(len(moves))])
        played.append(state.peek())
    return played


# -- random positions for hypothesis ---------------------------------------------


def _split(rnd: random.Random, items: list[Card], count: int) -> list[list[Card]]:
    """Cut ``items`` into ``count`` piles of random sizes (some may be empty)."""
    cuts = sorted(rnd.randint(0, len(items)) for _ in range(count - 1))
    bounds = [0, *cuts, len(items)]
    return [items[a:b] for a, b in itertools.pairwise(bounds)]


@st.composite
def fan_game_positions(draw: st.DrawFn, game: str) -> State:
    """Any position of a fan game that validation accepts: foundations of random heights, the rest in fans."""
    base = base_id(game)
    rnd = draw(st.randoms(use_true_random=False))
    heights = [draw(st.integers(1 if base == ALEXANDER else 0, 13)) for _ in range(4)]
    # Bias towards the interesting ends: nearly won, and empty fans.
    if draw(st.booleans()):
        heights = [max(h, 13 - draw(st.integers(0, 3))) for h in heights]
    foundations: list[list[Card]] = []
    used: set[Card] = set()
    plan = list(FOUNDATION_PLAN[base])
    if base != ALEXANDER:
        rnd.shuffle(plan)  # any suit may sit on any foundation
    for (suit, up), height in zip(plan, heights):
        ranks = list(range(1, 14) if up else range(13, 0, -1))[:height]
        pile = [card_of(r, suit) for r in ranks]
        used.update(pile)
        foundations.append(pile)
    rest = [c for c in range(52) if c not in used]
    rnd.shuffle(rest)
    redeals = state_redeals = load_game(game).redeals
    if redeals:
        state_redeals = draw(st.integers(0, redeals))
    count = FAN_COUNT[base]
    if state_redeals < redeals:
        count = draw(st.integers(1, count))
    fans = _split(rnd, rest, count)
    if draw(st.booleans()):
        # some empty fans for sure
        fans = _split(rnd, rest, max(1, count // 2)) + [[] for _ in range(count - max(1, count // 2))]
        rnd.shuffle(fans)
    obj: dict[str, Any] = {
        "game": game,
        "piles": {
            "foundation": [[card_name(c) for c in p] for p in foundations],
            "fan": [[card_name(c) for c in p] for p in fans],
        },
    }
    if redeals:  # the seed only matters to redeals, and only games with redeals write it
        obj["redeals_left"] = state_redeals
        obj["seed"] = draw(st.integers(0, 2**31 - 1))
    return deal_from_dict(obj)


@st.composite
def acey_positions(draw: st.DrawFn, lowest: int | None = None, with_stock: bool = True) -> State:
    """Any Acey and Kingsley position that validation accepts; foundations at least ``lowest`` high.

    Without ``lowest``, half the positions have foundations of 10 or more (small
    endgames); without ``with_stock``, the stock is out.
    """
    rnd = draw(st.randoms(use_true_random=False))
    if lowest is None:
        lowest = 10 if draw(st.booleans()) else 0
    heights = [draw(st.integers(lowest, 13)) for _ in range(8)]
    while sum(heights) < 12:  # reserves 26 + stock and waste 66 = 92: at least 12 of 104 are home
        heights[sum(heights) % 8] += 1
    left = full_deck(ACEY)
    foundations: list[list[Card]] = []
    for i, height in enumerate(heights):
        ranks = list(range(1, 14) if i < 4 else range(13, 0, -1))[:height]
        pile: list[Card] = []
        for r in ranks:
            choices = [c for c in sorted(left) if left[c] and rank_of(c) == r]
            card = rnd.choice(choices)
            left[card] -= 1
            pile.append(card)
        foundations.append(pile)
    rest = sorted((+left).elements())
    rnd.shuffle(rest)
    reserve = []
    for i in range(2):
        # the reserves keep what the stock and waste (66 at most) cannot hold
        must = max(0, len(rest) - 66 - (13 if i == 0 else 0))
        n = draw(st.integers(min(must, 13), min(13, len(rest))))
        reserve.append(rest[:n])
        rest = rest[n:]
    stock_size = draw(st.integers(0, min(66, max(0, len(rest) - 4)) if with_stock else 0))
    tableau: list[list[Card]] = []
    for _ in range(4):
        n = 1 if stock_size or (rest and draw(st.booleans())) else 0
        n = min(n, len(rest))
        tableau.append(rest[:n])
        rest = rest[n:]
    stock_size = min(stock_size, len(rest)) if all(tableau) else 0
    stock, waste = rest[:stock_size], rest[stock_size:]
    return deal_from_dict(
        {
            "game": ACEY,
            "piles": {
                "foundation": [[card_name(c) for c in p] for p in foundations],
                "reserve": [[card_name(c) for c in p] for p in reserve],
                "tableau": [[card_name(c) for c in p] for p in tableau],
                "stock": [[card_name(c) for c in stock]],
                "waste": [[card_name(c) for c in waste]],
            },
        }
    )


def positions(game: str) -> st.SearchStrategy[State]:
    """Random valid positions of ``game`` (any stage, including won ones)."""
    return acey_positions() if base_id(game) == ACEY else fan_game_positions(game)
