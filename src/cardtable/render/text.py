"""The layout as rich text: every card of every fan, red cards in red, one pile a line (the foundations' tops a line a direction).

``cardtable deal`` and ``cardtable play`` draw with this one function, so what a
player sees while playing is what ``deal`` shows. Each pile starts with its code
in the terminal notation (``t3``, ``f0``, ``w``), so the picture doubles as the
key to what to type. Cards run bottom to top, left to right: the last card of a
line is the one that plays. The foundations, which show only their tops, share
a line for each direction, so that a whole game fits a terminal of 24 lines.

On a terminal every line fits its width: a pile too long for it goes on below,
under its first card, and never splits a card; prose wraps between words
(:func:`wrap`). A file or a pipe gets whole lines, one pile a line, for scripts.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import Final

from rich.console import Console
from rich.text import Text

from cardtable.core.cards import Card, card_symbol, is_red
from cardtable.core.move import PileId
from cardtable.core.notation import pile_code, plural
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
SYMBOLS: Final = "♣♦♥♠·"
"""The characters beyond ASCII that a layout shows."""


def console() -> Console:
    """A console for layouts: colour only on a terminal, no guessed highlights, wrapping only on a terminal.

    Rich already honours ``NO_COLOR`` and ``FORCE_COLOR``. On a terminal rich
    wraps a line too long for the window between words, as the terminal itself
    would cut it anywhere, even inside a card; a pipe or a file keeps each line
    whole (``soft_wrap``), since the window's width means nothing there.

    An output whose encoding cannot take the card symbols (``PYTHONIOENCODING=ascii``)
    raises UnicodeEncodeError here, before anything is printed, rather than
    halfway through a game; the ``cardtable`` command says so in one line.
    """
    out = Console(highlight=False, markup=False)
    out.soft_wrap = not out.is_terminal
    SYMBOLS.encode(out.encoding)
    return out


def fitting_width(out: Console) -> int | None:
    """The width ``out``'s lines must fit: the terminal's, or None where rich keeps lines whole."""
    return None if out.soft_wrap else out.width


def layout(state: State, width: int | None = None) -> Text:
    """The whole position: a title, each pile group in the spec's order, the score.

    With a ``width``, a pile line too long for it goes on in lines of its own,
    indented under its first card, so a card is never cut in two and the codes
    stay alone in their column; the title and the score wrap between words.
    """
    out = Text(wrap(_title(state), width) + "\n")
    for group in state.spec.groups:
        out.append(HEADINGS.get(group.name, group.name.capitalize()) + "\n", style="bold")
        if group.kind is Kind.FOUNDATION:
            out.append_text(_foundations(state, group, width))
            continue
        for index, pile in enumerate(state.group(group.name)):
            out.append_text(_pile_line(state, group, PileId(group.name, index), pile, width))
            out.append("\n")
    out.append(wrap(_footer(state), width))
    return out


def _title(state: State) -> str:
    """Name (with any options), deal number and moves so far."""
    spec = state.spec
    parts = [spec.name]
    if state.deal_number is not None:
        parts.append(f"deal {state.deal_number}")
    moves = state.ply()
    if moves:
        parts.append(plural(moves, "move"))
    return " · ".join(parts)


FOUNDATION_CODE: Final = 3  # "f0" and a space
FOUNDATION_CELL: Final = FOUNDATION_CODE + CELL + 2
"""A foundation's code and top card, and the gap to the next: a row keeps them apart."""


DIRECTIONS: Final = ("up from A", "down from K")
DIRECTION: Final = 2 + max(map(len, DIRECTIONS)) + 2
"""Columns before a row of foundations: the direction they build, indented and padded."""


def _foundations(state: State, group: PileGroup, width: int | None) -> Text:
    """A line for each direction the foundations build, each foundation's code and top card along it."""
    out = Text()
    for up, direction in zip((True, False), DIRECTIONS):
        cells = [
            Text(pile_code(state, PileId(group.name, index)).ljust(FOUNDATION_CODE)).append_text(
                _cell(pile[-1] if pile else None, top=True)
            )
            for index, pile in enumerate(state.group(group.name))
            if group.builds_up(index) == up
        ]
        if cells:
            out.append(f"  {direction}".ljust(DIRECTION), style="dim")
            out.append_text(_row(cells, DIRECTION, FOUNDATION_CELL, width))
            out.append("\n")
    return out


def _pile_line(state: State, group: PileGroup, pid: PileId, pile: Sequence[Card], width: int | None) -> Text:
    """The pile's code, then its cards (or its top or count); a long run of cards fitted to ``width``."""
    line = Text(f"  {pile_code(state, pid)}".ljust(CODE))
    if group.kind is Kind.STOCK:
        line.append_text(Text(plural(len(pile), "card")) if pile else _cell(None, top=True))
    elif group.kind is Kind.WASTE:
        line.append_text(_cell(pile[-1] if pile else None, top=True))
        line.append(f"({plural(len(pile), 'card')})" if pile else "", style="dim")
    elif not pile:
        line.append_text(_cell(None, top=True))
        plan = state.plan
        if not plan.takes_when_empty(plan.ids.index(pid)):  # the browser draws it closed
            line.append("takes no card", style="dim")
    else:
        line.append_text(_cards(pile, width))
    line.rstrip()
    return line


def _cards(pile: Sequence[Card], width: int | None) -> Text:
    """Every card, bottom first, after the code: rows of as many as fit in ``width``."""
    return _row(
        [_cell(card, top=position == len(pile) - 1) for position, card in enumerate(pile)], CODE, CELL, width
    )


def _row(cells: list[Text], indent: int, size: int, width: int | None) -> Text:
    """Cells of ``size`` columns after ``indent`` ones: as many a line as fit in ``width``, the later lines indented."""
    # A line's last cell loses its trailing spaces, so n cells take at most indent + n * size - 1 columns.
    per_row = len(cells) if width is None else max(1, (width - indent + 1) // size)
    out = Text()
    for start in range(0, len(cells), per_row):
        if start:
            out.rstrip()
            out.append("\n" + " " * indent)
        for cell in cells[start : start + per_row]:
            out.append_text(cell.copy().append(" " * (size - cell.cell_len)))
    out.rstrip()
    return out


def _cell(card: Card | None, *, top: bool) -> Text:
    """One card padded to a column; the top card bold, because it is the one that plays."""
    if card is None:
        return Text("--".ljust(CELL), style="dim")
    style = ("red" if is_red(card) else "") + (" bold" if top else "")
    symbol = card_symbol(card)
    return Text.assemble((symbol, style.strip()), " " * (CELL - len(symbol)))


GLUE: Final = "\u00a0"
"""A space :func:`wrap` never breaks at, and prints as a plain space: what holds ``t3 f1`` together."""


def glued(text: str) -> str:
    """``text`` with its spaces made :data:`GLUE`, so that :func:`wrap` keeps it on one line."""
    return text.replace(" ", GLUE)


def wrap(text: str, width: int | None) -> str:
    """``text`` with each of its lines wrapped between words to ``width`` columns (None: left whole).

    A line of a two-column list (``  t3       the top card of t3 ...``) goes on
    under its second column, other indented lines under their indent. Words are
    never broken, not even at hyphens (``f0-f3``), nor words :func:`glued`
    together (a move, ``t3 f1``): one longer than the width (a path) stands
    alone on its line, folded at the edge. Glued words come out with plain
    spaces, wrapped or not, so that what is copied from the screen can be typed.
    """
    if width is not None:
        text = "\n".join(_wrapped_line(line, width) for line in text.split("\n"))
    return text.replace(GLUE, " ")


def reflow(text: str, width: int | None) -> str:
    """Text written in lines of 80 columns, its paragraphs and ``- `` list items filled again to ``width`` (None: as it is).

    Wrapping each line alone would leave a short line after each of the
    original ones; the browser reflows the rules the same way.
    """
    if width is None:
        return text
    paragraphs = []
    for paragraph in text.strip("\n").split("\n\n"):
        blocks: list[tuple[bool, str]] = []
        for line in paragraph.split("\n"):
            item = line.startswith("- ")
            if not blocks or item or (blocks[-1][0] and not line.startswith(" ")):
                blocks.append((item, line.removeprefix("- ")))
            else:
                blocks[-1] = (blocks[-1][0], f"{blocks[-1][1]} {line.strip()}")
        paragraphs.append("\n".join(_filled(words, width, item) for item, words in blocks))
    return "\n\n".join(paragraphs)


def _filled(text: str, width: int, item: bool) -> str:
    marker = "- " if item else ""
    return textwrap.fill(
        marker + text,
        width,
        subsequent_indent=" " * len(marker),
        break_long_words=False,
        break_on_hyphens=False,
    )


_SECOND_COLUMN: Final = re.compile(r"^(\s+\S.*?\s{2,})(?=\S)")


def _wrapped_line(line: str, width: int) -> str:
    if len(line) <= width:
        return line
    column = _SECOND_COLUMN.match(line)
    indent = " " * len(column.group(1) if column else line[: len(line) - len(line.lstrip())])
    return textwrap.fill(
        line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )


def _footer(state: State) -> str:
    """How far the game has come, and (in games with redeals) how many are left."""
    line = f"On the foundations: {state.on_foundations()} of {state.spec.deck_size}"
    if state.spec.redeals:
        line += f" · redeals left: {state.redeals_left}"
        if state.can_redeal():
            line += " (a redeal is allowed now)"
    return line
