"""A position in a game, with lazy legal moves, push/pop and a search key.

Piles are lists of cards, bottom first, top last, numbered flat as the spec's
groups list them (see :mod:`cardtable.core.spec`). ``push`` trusts its move, as
python-chess's does; ``push_checked`` and the notation parser validate. ``pop``
restores a snapshot of the piles the move touched, which undoes automatic steps
(the stock refilling a tableau pile) and redeals without any reverse logic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple

from cardtable.core.cards import (
    DECK,
    KING,
    RANK_OF,
    RANK_WORDS,
    SUIT_OF,
    Card,
    card_symbol,
    is_card,
    make_card,
)
from cardtable.core.errors import IllegalMoveError, UnknownPileError, not_a, quoted
from cardtable.core.move import CARD, DEAL, REDEAL, Move, PileId
from cardtable.core.plan import Plan, plan_for
from cardtable.core.rng import SplitMix64
from cardtable.core.spec import GameSpec, Kind, PileGroup
from cardtable.core.validate import check_position

REDEAL_STREAM: Final = 1 << 32
"""Redeal ``r`` (1, 2, ...) of a deal with seed ``s`` shuffles with seed ``s + r * 2**32``."""

Fans = tuple[tuple[Card, ...], ...]


class _Snapshot(NamedTuple):
    """What a push changed: enough to restore it, and to name the move afterwards.

    A named tuple rather than a frozen dataclass: the search makes one for every
    move it tries, and a tuple is made in less than half the time.
    """

    move: Move | None  # None for a card move: named lazily from ``saved``
    saved: tuple[tuple[int, tuple[Card, ...]], ...]  # (pile index, its cards before)
    plan: Plan  # the piles before the move: a redeal changes their count, and names the moves before it
    redeals_left: int

    def named_move(self) -> Move:
        """The move this snapshot undoes (card moves save source first, then target)."""
        if self.move is not None:
            return self.move
        (source, cards), (target, _) = self.saved[0], self.saved[1]
        ids = self.plan.ids
        return Move.card_move(ids[source], ids[target], cards[-1])


class State:
    """A position: the piles, the redeals left, and the seed that fixes redeals.

    ``piles`` is the position itself, flat and live, for the solver's sake: read
    it, but change it only through :meth:`push` and :meth:`pop`, which keep the
    snapshots that undo needs. :meth:`pile` and :meth:`group` hand out copies.
    """

    __slots__ = ("_stack", "deal_number", "piles", "plan", "redeals_left", "seed", "spec")

    def __init__(
        self,
        spec: GameSpec,
        piles: Sequence[Sequence[Card]],
        *,
        redeals_left: int | None = None,
        seed: int = 0,
        deal_number: int | None = None,
    ) -> None:
        self.spec = spec
        self.piles: list[list[Card]] = [list(pile) for pile in piles]
        self.redeals_left = spec.redeals if redeals_left is None else redeals_left
        self.seed = seed
        self.deal_number = deal_number
        self.plan: Plan = plan_for(spec, len(self.piles))
        self._stack: list[_Snapshot] = []

    # -- reading the position -------------------------------------------------

    def pile(self, pile: PileId) -> list[Card]:
        """A copy of a named pile's cards, bottom first; :class:`UnknownPileError` if there is no such pile."""
        index = self.plan.index(pile)
        if index is None:
            raise UnknownPileError(f"{self.spec.id} has no pile {quoted(str(pile))} in this position")
        return list(self.piles[index])

    def group(self, name: str) -> list[list[Card]]:
        """Copies of one group's piles, in order; :class:`UnknownPileError` for a group the game does not have."""
        self.spec.group(name)
        return [list(self.piles[i]) for i, pid in enumerate(self.plan.ids) if pid.group == name]

    def on_foundations(self) -> int:
        """How many cards are on the foundations."""
        piles = self.piles
        return sum(len(piles[i]) for i in self.plan.foundations)

    def is_won(self) -> bool:
        """Whether every card is on the foundations."""
        return self.on_foundations() == self.spec.deck_size

    def is_lost(self) -> bool:
        """Whether the game is over without a win: no legal move, redeals included, or none that gets anywhere
        (the game's ``stuck`` hook)."""
        if self.is_won():
            return False
        return not self.legal_moves or (self.spec.stuck is not None and self.spec.stuck(self))

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed so far, oldest first."""
        return [snapshot.named_move() for snapshot in self._stack]

    def ply(self) -> int:
        """How many moves were pushed: ``len(move_stack)`` without naming every move to count them."""
        return len(self._stack)

    def validate(self) -> None:
        """Raise :class:`InvalidDealError` naming the first thing that cannot be in this game, as a deal file's is checked.

        ``State(...)`` trusts its piles, as :meth:`push` trusts its move, since
        the solver makes positions on its hot path; a position made by hand is
        checked here. The checks are those of :mod:`cardtable.core.validate`:
        what play can never change (the deck, the pile counts, foundations built
        in order, piles that never grow, the refill), not whether play reaches it.
        """
        groups: dict[str, list[list[Card]]] = {group.name: [] for group in self.spec.groups}
        for pid, pile in zip(self.plan.ids, self.piles):
            groups[pid.group].append(pile)
        check_position(self.spec, groups, self.redeals_left)

    # -- legal moves ----------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        """A lazy view of the legal moves: iterate, test ``in``, or ``bool()``."""
        return LegalMoves(self)

    def card_moves(self) -> Iterator[tuple[int, int]]:
        """Every card move the piles allow, as flat ``(source, target)`` indices.

        This is the solver's hot path: first the cards each target would take,
        then one look-up per source's top card; no objects per candidate. It
        does not ask whether the game is already won (then no move is legal, and
        :attr:`legal_moves` says so): its callers know, and skip that cost.
        """
        piles = self.piles
        plan = self.plan
        takers, empty_takers = plan.takers, plan.empty_takers
        wanted: dict[Card, list[int]] = {}
        for target in plan.targets:
            onto = piles[target]
            for card in takers[target][onto[-1]] if onto else empty_takers[target]:
                if card in wanted:
                    wanted[card].append(target)
                else:
                    wanted[card] = [target]
        for source in plan.sources:
            pile = piles[source]
            if pile and (targets := wanted.get(pile[-1])):
                for target in targets:
                    if target != source:
                        yield source, target

    def can_deal(self) -> bool:
        """Whether a card can be dealt from the stock."""
        stock = self.plan.stock
        return stock is not None and bool(self.piles[stock]) and not self.is_won()

    def can_redeal(self, blocked: bool | None = None) -> bool:
        """Whether a redeal is allowed now (by default only when nothing else moves).

        A caller that has just generated the other moves passes ``blocked``
        (whether there were none) to save generating them again.
        """
        if self.redeals_left <= 0 or not any(self.piles[self.plan.last_group_start :]):
            return False
        if self.spec.redeal_anytime:
            return True
        if blocked is None:
            blocked = not self.can_deal() and next(self.card_moves(), None) is None
        return blocked

    def _redeal_cards(self) -> list[Card]:
        start = self.plan.last_group_start
        return sorted(card for pile in self.piles[start:] for card in pile)

    def redeal_fans(self) -> Fans:
        """The fans the next redeal deals: the cards sorted, shuffled, dealt in fans of the game's redeal size.

        The shuffle is seeded by the deal's seed and the redeal's number, so the
        same deal and the same play always give the same redeal.
        """
        cards = self._redeal_cards()
        number = self.spec.redeals - self.redeals_left + 1
        SplitMix64(self.seed + number * REDEAL_STREAM).shuffle(cards)
        size = self.spec.redeal_fan_size
        return tuple(tuple(cards[i : i + size]) for i in range(0, len(cards), size))

    def move_at(self, source: int, target: int) -> Move:
        """The :class:`Move` for flat indices from :meth:`card_moves`."""
        ids = self.plan.ids
        return Move.card_move(ids[source], ids[target], self.piles[source][-1])

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here, without generating the other moves."""
        return self.why_illegal(move) is None

    def why_illegal(self, move: Move) -> str | None:
        """None if ``move`` is legal, else a short reason a person can read.

        A ``move`` that is no :class:`Move`, such as its text, is refused with
        :class:`~cardtable.core.errors.WrongTypeError` saying how to make one:
        it is the program's slip, not an illegal move.
        """
        if not isinstance(move, Move):
            raise not_a("Move", move, _move_from(move))
        if self.is_won():
            return "the game is over: every card is on the foundations"
        if move.kind == DEAL:
            if self.plan.stock is None:
                return "this game has no stock"
            return None if self.can_deal() else "the stock is empty"
        if move.kind == REDEAL:
            return self._why_no_redeal(move)
        if move.kind != CARD:
            return f"no move is of the kind {quoted(move.kind)}"
        return self._why_card_move_illegal(move)

    def _why_no_redeal(self, move: Move) -> str | None:
        if self.spec.redeals == 0:
            return "this game has no redeal"
        if self.redeals_left <= 0:
            return "no redeals left"
        if not self.can_redeal():
            return "a redeal is allowed only when no other move is possible"
        if move.fans is not None and move.fans != (dealt := self.redeal_fans()):
            return _other_fans(move.fans, dealt)
        return None

    def _why_card_move_illegal(self, move: Move) -> str | None:
        if move.source is None or move.target is None or move.card is None:
            return "a card move names the pile it leaves, the pile it goes to and its card"
        if not is_card(move.card):  # a Move built directly, not by card_move, which checks its card
            return f"not a card: {move.card!r}"
        source, target = self.plan.index(move.source), self.plan.index(move.target)
        if source is None:
            return f"there is no pile {move.source}"
        if target is None:
            return f"there is no pile {move.target}"
        pile = self.piles[source]
        if not pile:
            return f"{move.source} is empty"
        if source not in self.plan.sources:  # before its top is named: the stock's is face down
            group = self.spec.group(move.source.group)
            return (
                "the stock is only dealt from"
                if group.kind is Kind.STOCK
                else f"cards never leave {group.name} piles"
            )
        if pile[-1] != move.card:
            return f"the top of {move.source} is {card_symbol(pile[-1])}, not {card_symbol(move.card)}"
        if source == target:
            return "a card cannot move onto its own pile"
        onto = self.piles[target]
        card = pile[-1]
        if self.plan.accepts(target, onto[-1] if onto else None, card):
            return None
        pid = self.plan.ids[target]
        if target not in self.plan.targets:
            return f"nothing may be placed on {pid.group} piles"
        if not onto:
            return (
                f"{card_symbol(card)} may not fill the empty {pid}: {_what_fills(self.plan.on_empty[target])}"
            )
        group = self.spec.group(pid.group)
        if group.kind is Kind.TABLEAU and not (group.build.up or group.build.down):
            return f"{pid} holds {card_symbol(onto[-1])}: {pid.group} piles never build, only an empty one takes a card"
        if group.kind is Kind.FOUNDATION:
            return f"{card_symbol(card)} does not go on {card_symbol(onto[-1])} ({pid} {_takes_next(group, pid.index, onto[-1])})"
        return f"{card_symbol(card)} does not go on {card_symbol(onto[-1])} ({pid})"

    # -- making and taking back moves -----------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move``, trusted to be legal (see :meth:`push_checked`)."""
        if move.kind == CARD:
            assert move.source is not None and move.target is not None
            index = self.plan.index
            source, target = index(move.source), index(move.target)
            assert source is not None and target is not None
            self.push_card(source, target)
        elif move.kind == DEAL:
            self._push_deal(move)
        else:
            self._push_redeal(move)

    def push_checked(self, move: Move) -> None:
        """Play ``move`` or raise :class:`IllegalMoveError` saying why not."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(reason, move.text())
        self.push(move)

    def parse_text(self, text: str) -> Move:
        """The legal move ``text`` names, or :class:`IllegalMoveError` (or another
        :class:`~cardtable.core.errors.CardtableError`) saying why there is none.

        ``text`` is either a move as :meth:`Move.text` writes it (``fan/3
        foundation/0 7C``, ``deal``) or the play notation of the terminal and the
        browser's move box (``t3 f0``, ``7c``, ``d``: see
        :mod:`cardtable.core.notation`), as python-chess's ``parse_san`` reads
        what a person writes against the board.
        """
        # The notation reads states, so it can only be imported once this module is.
        from cardtable.core.notation import parse_move

        if not isinstance(text, str):
            raise not_a("move's text", text, _move_from(text))
        if "/" not in text:
            return parse_move(self, text)
        move = Move.from_text(text)
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(reason, text)
        return move

    def push_text(self, text: str) -> Move:
        """Play the move :meth:`parse_text` reads in ``text``, and return it; the position is unchanged if it raises."""
        move = self.parse_text(text)
        self.push(move)
        return move

    def push_card(self, source: int, target: int) -> None:
        """Move the top card of flat pile ``source`` onto ``target`` (trusted)."""
        piles = self.piles
        from_pile, to_pile = piles[source], piles[target]
        saved: tuple[tuple[int, tuple[Card, ...]], ...] = (
            (source, tuple(from_pile)),
            (target, tuple(to_pile)),
        )
        stock = self.plan.stock
        refill = len(from_pile) == 1 and source in self.plan.refills
        if refill and stock is not None and piles[stock]:
            saved += ((stock, tuple(piles[stock])),)
        else:
            refill = False
        self._stack.append(_Snapshot(None, saved, self.plan, self.redeals_left))
        to_pile.append(from_pile.pop())
        if refill:
            assert stock is not None
            from_pile.append(piles[stock].pop())

    def _push_deal(self, move: Move) -> None:
        stock, waste = self.plan.stock, self.plan.waste
        assert stock is not None and waste is not None
        piles = self.piles
        saved = ((stock, tuple(piles[stock])), (waste, tuple(piles[waste])))
        self._stack.append(_Snapshot(move, saved, self.plan, self.redeals_left))
        piles[waste].append(piles[stock].pop())

    def _push_redeal(self, move: Move) -> None:
        fans = move.fans if move.fans is not None else self.redeal_fans()
        start = self.plan.last_group_start
        saved = tuple((i, tuple(self.piles[i])) for i in range(start, len(self.piles)))
        self._stack.append(_Snapshot(Move.redeal(fans), saved, self.plan, self.redeals_left))
        self.piles[start:] = [list(fan) for fan in fans]
        self.redeals_left -= 1
        self.plan = plan_for(self.spec, len(self.piles))

    def pop(self) -> Move:
        """Take back the last move and return it; IndexError if there is none, as python-chess raises.

        :meth:`retract`, the search's, leaves the check out: it never takes back more than it pushed.
        """
        if not self._stack:
            raise IndexError("no move to take back: the move stack is empty")
        return self.retract().named_move()

    def retract(self) -> _Snapshot:
        """Take back the last move without naming it (the search's hot path)."""
        snapshot = self._stack.pop()
        piles = self.piles
        if snapshot.plan is not self.plan:  # a redeal's, or a copy's after pickling: the piles as they were
            count = len(snapshot.plan.ids)
            del piles[count:]
            piles.extend([] for _ in range(count - len(piles)))
            self.plan = snapshot.plan
        for index, cards in snapshot.saved:
            piles[index][:] = cards
        self.redeals_left = snapshot.redeals_left
        return snapshot

    def peek(self) -> Move:
        """The last move pushed; IndexError if there is none."""
        if not self._stack:
            raise IndexError("no move to look at: the move stack is empty")
        return self._stack[-1].named_move()

    def refilled(self) -> Card | None:
        """The card the stock put, on its own, into the pile the last move emptied; None if it put none.

        Front ends tell it (Acey and Kingsley's stock refilling a tableau pile),
        since a player sees the move but not the step the rules took after it.
        """
        if not self._stack or self._stack[-1].move is not None or len(self._stack[-1].saved) < 3:
            return None  # a card move saves its source, its target, and the stock only if it refilled
        return self.piles[self._stack[-1].saved[0][0]][-1]

    # -- identity -------------------------------------------------------------

    def key(self) -> bytes:
        """A canonical, hashable key: equal for positions the rules cannot tell apart.

        Piles of an interchangeable group are sorted, so two positions that differ
        only in the order of their fans (or of like foundations) share a key; in a
        game where suits never matter, cards are keyed by rank alone; empty piles
        that can never take a card again (La Belle Lucie's fans) are left out, and a
        foundation is keyed by its top card, which tells all the cards under it --
        or not at all where the tableau tells what the foundations hold (one-deck
        games with only tableau and foundations, see ``plan._foundations_implied``).
        While a redeal is left, the seed that shuffles it is part of the key: the
        same fans with another seed redeal otherwise, and may be won where these
        are lost.
        """
        parts: list[bytes] = []
        piles = self.piles
        table = self.plan.key_table
        for indices, sort, drop_empty, top_only in self.plan.key_groups:
            if top_only:
                chunk = [bytes(piles[i][-1:]) for i in indices]
            else:
                chunk = [bytes(piles[i]) for i in indices if piles[i] or not drop_empty]
            if table is not None:
                chunk = [pile.translate(table) for pile in chunk]
            if sort:
                chunk.sort()
            parts.append(b"\xff".join(chunk))
        left = self.redeals_left
        parts.append(b"%d:%d" % (left, self.seed) if left else b"\x00")  # no redeal left: no seed to tell
        return b"\xfe".join(parts)

    def copy(self, *, stack: bool = False) -> State:
        """An independent copy; with ``stack=True`` it can also ``pop`` past moves."""
        other = State(
            self.spec,
            self.piles,
            redeals_left=self.redeals_left,
            seed=self.seed,
            deal_number=self.deal_number,
        )
        if stack:
            other._stack = list(self._stack)
        return other

    def __copy__(self) -> State:
        """``copy.copy`` copies as :meth:`copy` does, stack included: never a state sharing its piles."""
        return self.copy(stack=True)

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        """As ``copy.copy``: the spec is frozen and shared, the piles and stack are the copy's own."""
        return self.copy(stack=True)

    def root(self) -> State:
        """A copy of the position before the first move pushed, as python-chess's ``Board.root``."""
        start = self.copy(stack=True)
        while start._stack:
            start.retract()  # as pop, without naming each move on the way
        return start

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (
            self.spec == other.spec
            and self.piles == other.piles
            and self.redeals_left == other.redeals_left
            and self.seed == other.seed
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: hash key() instead

    def __repr__(self) -> str:
        return f"<State {self.spec.id} deal={self.deal_number} moves={len(self._stack)}>"


class LegalMoves:
    """The legal moves of a state, generated on demand (like python-chess's)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __iter__(self) -> Iterator[Move]:
        state = self.state
        if state.is_won():
            return
        blocked = True
        for source, target in state.card_moves():
            blocked = False
            yield state.move_at(source, target)
        if state.can_deal():
            blocked = False
            yield Move.deal()
        if state.can_redeal(blocked):
            yield Move.redeal()

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self.state.is_legal(move)

    def __bool__(self) -> bool:
        return next(iter(self), None) is not None

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"<LegalMoves {', '.join(m.text() for m in self)}>"


def _takes_next(group: PileGroup, index: int, top: Card) -> str:
    """What a foundation takes next, so that a refusal shows which way it builds: ``takes Q♣ next``, ``is complete``."""
    step = 1 if group.builds_up(index) else -1
    following = RANK_OF[top] + step
    if not 1 <= following <= KING:
        return "is complete"
    if group.build.same_suit:
        return f"takes {card_symbol(make_card(following, SUIT_OF[top]))} next"
    return f"takes {_a_rank(following)} next"


def _move_from(value: object) -> str:
    """How to make a :class:`Move` of ``value``: of text, :meth:`State.parse_text`, which reads both forms a move
    is written in; of anything else, ``Move.from_text`` or that."""
    if isinstance(value, str):
        return f"state.parse_text({value!r}) for its Move, or state.push_text({value!r}) to play it"
    return "Move.from_text('fan/1 foundation/0 AS'), or state.parse_text('t1 f0') for the play notation"


def _other_fans(given: Fans, dealt: Fans) -> str:
    """Why a redeal's fans are not the deal's: a card they hold that is not left in the fans, or one they leave
    out, for a writer that got the cards wrong; else the first fan that differs, not every card of them."""
    held, left = Counter(c for fan in given for c in fan), Counter(c for fan in dealt for c in fan)
    if held - left:
        extra = min(held - left)
        return f"the redeal's fans hold {card_symbol(extra)}, {'more often than it is' if left[extra] else 'which is not'} left in the fans"
    if left - held:
        return f"the redeal's fans leave out {card_symbol(min(left - held))}, which is left in the fans"
    if len(given) != len(dealt):
        return f"this deal's redeal makes {len(dealt)} fans, not {len(given)}"
    index = next(i for i, (mine, theirs) in enumerate(zip(given, dealt)) if mine != theirs)
    return (
        f"this deal's redeal makes fan/{index} {' '.join(map(card_symbol, dealt[index]))},"
        f" not {' '.join(map(card_symbol, given[index]))}"
    )


def _what_fills(on_empty: bytes) -> str:
    """What an empty pile takes, from its table: 'it takes no card', 'it takes only an ace or a king'."""
    ranks = sorted({RANK_OF[card] for card in DECK if on_empty[card]})
    if not ranks:
        return "it takes no card"
    return "it takes only " + " or ".join(map(_a_rank, ranks))


def _a_rank(rank: int) -> str:
    """A rank in words with its article: "an ace", "a 7", "an 8"."""
    word = RANK_WORDS[rank - 1]
    return ("an " if word[0] in "a8" else "a ") + word
