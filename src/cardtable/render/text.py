"""The layout as rich text: every card of every fan, red cards in red, one pile a line.

``cardtable deal`` and ``cardtable play`` draw with this one function, so what a
player sees while playing is what ``deal`` shows. Each pile line starts with the
pile's code in the terminal notation (``t3``, ``f0``, ``w``), so the picture
doubles as the key to what to type. Cards run bottom to top, left to right: the
last card of a line is the one that plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.console import Console
from rich.text import Text

from cardtable.core.cards import KING, Card, card_symbol, is_red
from cardtable.core.move import PileId
from cardtable.core.notation import pile_code
from cardtable.core.spec import Kind, PileGroup
from cardtable.core.state import State

HEADINGS: Final = {
    "foundation": "Foundations",
    "fan": "Fans",
    "reserve": "Reserves",
    "tableau": "Tableau",
    "stock": "Stock",
    "waste": "Waste",
}
CELL: Final = 4  # "10♦" and a space: cards line up in columns
CODE: Final = 7  # "  t17" and two spaces


def console() -> Console:
    """A console for layouts: colour only on a terminal, no wrapping, no guessed highlights.

    Rich already honours ``NO_COLOR`` and ``FORCE_COLOR``; ``soft_wrap`` keeps a
    long fan on one line when the output goes to a pipe or a narrow window.
    """
    return Console(highlight=False, markup=False, soft_wrap=True)


def layout(state: State) -> Text:
    """The whole position: a title, each pile group in the spec's order, the score."""
    out = Text(_title(state) + "\n")
    for group in state.spec.groups:
        out.append(HEADINGS.get(group.name, group.name.capitalize()) + "\n", style="bold")
        for index, pile in enumerate(state.group(group.name)):
            out.append_text(_pile_line(state, group, PileId(group.name, index), pile))
            out.append("\n")
    out.append(_footer(state))
    return out


def _title(state: State) -> str:
    """Name, options (which the name does not show), deal number and moves so far."""
    spec = state.spec
    parts = [spec.name + (f" [{spec.id[len(spec.base_id) + 1 : -1]}]" if spec.id != spec.base_id else "")]
    if state.deal_number is not None:
        parts.append(f"deal {state.deal_number}")
    moves = len(state.move_stack)
    if moves:
        parts.append(f"{moves} move{'s' if moves != 1 else ''}")
    return " · ".join(parts)


def _pile_line(state: State, group: PileGroup, pid: PileId, pile: Sequence[Card]) -> Text:
    line = Text(f"  {pile_code(state, pid)}".ljust(CODE))
    if group.kind is Kind.FOUNDATION:
        line.append_text(_cell(pile[-1] if pile else None, top=True))
        line.append(_direction(group.bases[pid.index]), style="dim")
    elif group.kind is Kind.STOCK:
        line.append(_count(len(pile)))
    elif group.kind is Kind.WASTE:
        line.append_text(_cell(pile[-1] if pile else None, top=True))
        line.append(f"({_count(len(pile))})" if pile else "", style="dim")
    elif not pile:
        line.append_text(_cell(None, top=True))
    else:
        for position, card in enumerate(pile):
            line.append_text(_cell(card, top=position == len(pile) - 1))
    line.rstrip()
    return line


def _cell(card: Card | None, *, top: bool) -> Text:
    """One card padded to a column; the top card bold, because it is the one that plays."""
    if card is None:
        return Text("--".ljust(CELL), style="dim")
    style = ("red" if is_red(card) else "") + (" bold" if top else "")
    symbol = card_symbol(card)
    return Text.assemble((symbol, style.strip()), " " * (CELL - len(symbol)))


def _direction(base: int) -> str:
    return "down from K" if base == KING else "up from A"


def _count(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _footer(state: State) -> str:
    """How far the game has come, and (in games with redeals) how many are left."""
    line = f"On the foundations: {state.on_foundations()} of {state.spec.deck_size}"
    if state.spec.redeals:
        line += f" · redeals left: {state.redeals_left}"
        if state.can_redeal():
            line += " (a redeal is allowed now)"
    return line
