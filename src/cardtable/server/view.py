"""What the page is sent: a play's table, its legal moves and its standing.

The page never re-derives the rules: it highlights the targets listed in
``legal`` and sends moves back for the server to judge.
"""

from __future__ import annotations

from cardtable.core.cards import card_name, card_names
from cardtable.core.move import CARD, DEAL, Move
from cardtable.core.notation import move_text, pile_code
from cardtable.core.spec import Kind
from cardtable.core.state import State
from cardtable.games import options_note, shown_name
from cardtable.server.models import MoveView, PileView, PlayView, RefillView
from cardtable.server.play import Play
from cardtable.solver.prune import pruner


def move_view(state: State, move: Move) -> MoveView:
    """A move of ``state`` for the page (its notation depends on the position)."""
    if move.kind == CARD:
        assert move.card is not None
        return MoveView(
            kind="card",
            source=str(move.source),
            to=str(move.target),
            card=card_name(move.card),
            text=move_text(state, move),
        )
    return MoveView(kind="deal" if move.kind == DEAL else "redeal", text=move_text(state, move))


def pile_views(state: State) -> list[PileView]:
    """Every pile, bottom card first; the stock face down."""
    views = []
    plan = state.plan
    for index, (pid, cards) in enumerate(zip(plan.ids, state.piles)):
        group = state.spec.group(pid.group)
        up = group.builds_up(pid.index) if group.kind is Kind.FOUNDATION else None
        views.append(
            PileView(
                id=str(pid),
                group=pid.group,
                code=pile_code(state, pid),
                cards=[] if group.kind is Kind.STOCK else card_names(cards),
                count=len(cards),
                base=None if up is None else ("A" if up else "K"),
                direction=None if up is None else ("up" if up else "down"),
                takes=index in plan.targets,
                takes_when_empty=plan.takes_when_empty(index),
            )
        )
    return views


def play_view(play: Play, message: str | None = None) -> PlayView:
    """The whole play as the page shows it."""
    state = play.state
    record = play.record
    return PlayView(
        id=record.id,
        game=state.spec.id,
        name=shown_name(state.spec),
        rules_note=options_note(state.spec),
        deal=record.deal,
        status=play.status,
        stuck=state.spec.stuck_why if play.status == "lost" and state.legal_moves else None,
        version=record.version,
        board=play.board,
        moves=play.moves,
        redo=len(play.redo),
        touched=play.touched,
        by_hand=play.by_hand,
        seconds=round(record.seconds, 1),
        assisted=record.assisted,
        hints=record.hints,
        redeals_left=state.redeals_left if state.spec.redeals else None,
        can_deal=state.can_deal(),
        can_redeal=state.can_redeal(),
        autoplay_safe=pruner(state.spec).safe_home(state),
        piles=pile_views(state),
        legal=[move_view(state, m) for m in state.legal_moves],
        last=[move_view(state, m) for m in play.last],
        refills=[
            RefillView(pile=str(pile), code=pile_code(state, pile), card=card_name(card))
            for pile, card in play.refills
        ],
        message=message,
    )
