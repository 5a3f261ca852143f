"""Reading and writing the JSON deals, moves and solutions of formats.md.

This module is the contract with other tools: it reads and writes exactly the
shapes of ``shared/formats.md`` (and ignores unknown fields), and every problem
in its input becomes an :class:`InvalidDealError`, :class:`InvalidMoveError` or
:class:`InvalidSolutionError` with a message that names it. It also reads and
writes the terminal's saved games (:class:`SavedGame`), which are the project's
own: a solution's shape without a verdict.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Final

from cardtable.core.cards import RANK_OF, Card, card_name, card_names, parse_card
from cardtable.core.deals import MAX_DEAL, MIN_DEAL
from cardtable.core.errors import (
    CardtableError,
    InvalidDealError,
    InvalidMoveError,
    InvalidSaveError,
    InvalidSolutionError,
    excerpt,
)
from cardtable.core.move import CARD, DEAL, Move, PileId
from cardtable.core.notation import plural
from cardtable.core.spec import GameSpec, Kind
from cardtable.core.state import State
from cardtable.core.validate import check_position
from cardtable.games import find_game, load_game

__all__ = [
    "RESULTS",
    "Replay",
    "SavedGame",
    "Solution",
    "deal_from_dict",
    "deal_to_dict",
    "deal_to_json",
    "move_from_dict",
    "move_to_dict",
    "move_to_json",
    "read_deal",
    "read_position",
    "read_saved_game",
    "read_solution",
    "read_solutions",
    "replay",
    "saved_game_from_dict",
    "solutions_in",
]
"""What a program that reads and writes the formats needs; the rest serves cardtable's own commands."""

RESULTS: Final = ("won", "unwinnable", "unknown")
"""A solution's verdicts, as formats.md names them (the solver's :data:`~cardtable.solver.search.STATUSES`)."""


def record_kind(obj: Any) -> str | None:
    """What a file's parsed JSON looks like: ``'deal'``, ``'solution'``, ``'saved game'``, or None if none of them.

    Only the top-level keys are looked at: a deal has ``piles``, a solution a
    ``result``, a saved game its deal whole and its ``moves`` (or ``undone``) but
    no ``result``. A reader given the wrong kind of file then says so, rather
    than complain of a field that the other kind spells differently.
    """
    if not isinstance(obj, dict):
        return None
    if "piles" in obj:
        return "deal"
    if "result" in obj:
        return "solution"
    if isinstance(obj.get("deal"), dict) or "moves" in obj or "undone" in obj:
        return "saved game"
    return None


_NOT_A_DEAL: Final = {
    "solution": "this is a solution, not a deal: 'cardtable check' replays it, 'cardtable play' steps through it",
    "saved game": "this is a saved game, not a deal: 'cardtable play' resumes it",
}


def parse_json(text: str, what: str, error: type[CardtableError]) -> Any:
    """The JSON value of ``text``; any problem is ``error``, naming ``what`` was read ("deal") and where."""
    if isinstance(text, str) and not text.strip():  # says more than "expecting value" at column 1
        raise error(f"no {what or 'json'} in it: it is empty")
    with _reading_json(what, error):
        return json.loads(text)


@contextmanager
def _reading_json(
    what: str, error: type[CardtableError], first_line: int = 1, begins: int | None = None
) -> Iterator[None]:
    """Turn the json module's complaints into ``error``, naming what was being read and where.

    ``first_line`` is the line of the whole text that the text read starts on;
    ``begins``, the line the value being read begins on, named too when the
    fault is on a later line (a record cut short runs into the next one).
    Besides malformed text, the json module refuses numbers of over 4,300
    digits with a plain ValueError, and deep nesting with a RecursionError.
    """
    json_what = f"{what} json" if what else "json"
    try:
        yield
    except json.JSONDecodeError as problem:
        line = first_line + problem.lineno - 1
        said = problem.msg.lower()  # "unterminated string starting at", the place given before it
        said = f"{said.removesuffix(' at')} there" if said.endswith(" at") else said
        said += (
            f" (in the {what or 'value'} that begins at line {begins})"
            if begins is not None and 1 < begins < line  # a record cut short, run into the next
            else ""
        )
        raise error(f"malformed {json_what} at line {line} column {problem.colno}: {said}") from None
    except (TypeError, ValueError) as problem:  # not text; "exceeds the limit (4300 digits) ...; use sys..."
        raise error(f"malformed {json_what}: {str(problem).split(';')[0].lower()}") from None
    except RecursionError:
        raise error(f"malformed {json_what}: nested too deeply") from None


# -- deals ---------------------------------------------------------------------


def deal_to_dict(state: State) -> dict[str, Any]:
    """The deal object of formats.md for this position."""
    out: dict[str, Any] = {"game": state.spec.id}
    if state.deal_number is not None:
        out["deal"] = state.deal_number
    piles: dict[str, list[list[str]]] = {}
    for pid, pile in zip(state.plan.ids, state.piles):
        piles.setdefault(pid.group, []).append(card_names(pile))
    out["piles"] = piles
    if _carries_redeals(state.spec):
        out["redeals_left"] = state.redeals_left
        out["seed"] = state.seed
    return out


def deal_to_json(state: State) -> str:
    """The deal as one JSON text."""
    return json.dumps(deal_to_dict(state))


def read_deal(text: str) -> State:
    """Parse a deal file's text into a position, checking it fully."""
    return deal_from_dict(parse_json(text, "deal", InvalidDealError))


def _carries_redeals(spec: GameSpec) -> bool:
    """Whether a deal of the game has ``redeals_left`` and ``seed``: formats.md gives them to the game that redeals,
    the La Belle Lucie form, with whatever options (``redeals=0`` writes ``"redeals_left": 0``)."""
    return bool(spec.redeals) or "redeals" in spec.options


def deal_from_dict(obj: Any) -> State:
    """Build a position from a deal object, or raise InvalidDealError saying why not."""
    if not isinstance(obj, dict):
        raise InvalidDealError(f"a deal must be a json object, not {excerpt(obj)}")
    kind = record_kind(obj)
    if kind in _NOT_A_DEAL:
        raise InvalidDealError(_NOT_A_DEAL[kind])
    game = obj.get("game")
    if "game" not in obj:  # not "..., not null", as if null were given
        raise InvalidDealError("missing key 'game': the deal's game id, such as 'fan'")
    if not isinstance(game, str):
        raise InvalidDealError(f"the deal needs a 'game' id string, not {excerpt(game)}")
    try:
        spec = load_game(game)
    except CardtableError as problem:
        raise InvalidDealError(str(problem)) from None
    number = _optional_int(obj, "deal", low=MIN_DEAL, high=MAX_DEAL, note=FOREIGN_NUMBER)
    redeals_at_all = _carries_redeals(spec)  # to any other game these are unknown fields, ignored
    seed = _optional_int(obj, "seed", low=0, high=2**64 - 1) if redeals_at_all else None  # SplitMix64 state
    redeals_left = _optional_int(obj, "redeals_left", low=0) if redeals_at_all else None
    if "piles" not in obj:  # not "'piles' must be an object ..., not null", as if null were given
        raise InvalidDealError("missing key 'piles': the deal's cards, pile group by pile group")
    groups = _read_groups(obj.get("piles"))
    spec = _with_foundations_as_dealt(spec, groups)
    redeals = spec.redeals if redeals_left is None else redeals_left
    check_position(spec, groups, redeals)
    piles = [pile for group in spec.groups for pile in groups[group.name]]
    if seed is None:
        seed = number or 0
    return State(spec, piles, redeals_left=redeals, seed=seed, deal_number=number)


def _with_foundations_as_dealt(spec: GameSpec, groups: dict[str, list[list[Card]]]) -> GameSpec:
    """The game with its foundations in the order a file gives them (Alexander the Great's king piles first).

    formats.md lets a foundation's first card give its direction, and fixes
    the order only in Acey and Kingsley, whose emptied foundations keep theirs.
    So where no card ever leaves a foundation, each of a file's foundations
    builds the way its first card says, where the file puts it: the position
    keeps the file's numbering, in the moves it is given and in all that is
    said and written of it. The game is the same but for that order. A
    foundation left empty, or first cards that do not fit the game, leave it
    as it is, for the checks to name what is wrong.
    """
    group = next((g for g in spec.groups if g.kind is Kind.FOUNDATION), None)
    piles = groups.get(group.name) if group is not None else None
    if (
        group is None
        or spec.foundation_gives
        or piles is None
        or len(piles) != len(group.bases)
        or not all(piles)
    ):
        return spec
    bases = tuple(RANK_OF[pile[0]] for pile in piles)
    if bases == group.bases or sorted(bases) != sorted(group.bases):
        return spec
    as_dealt = replace(group, bases=bases)
    return replace(
        spec,
        groups=tuple(as_dealt if g is group else g for g in spec.groups),
        foundation_starts=tuple(pile[0] for pile in piles) if spec.foundation_starts else (),
    )


FOREIGN_NUMBER: Final = "cardtable's own numbers: leave 'deal' out of a layout numbered elsewhere"
"""Why a whole deal number out of range is refused: it names one of cardtable's deals, which its redeals and its
"play again" follow, so another program's number cannot stand in for it."""


def _optional_int(
    obj: dict[str, Any], key: str, *, low: int, high: int | None = None, note: str = ""
) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    too_high = high is not None and isinstance(value, int) and value > high
    if isinstance(value, bool) or not isinstance(value, int) or value < low or too_high:
        allowed = f">= {low}" if high is None else f"from {low} to {high}"
        why = f" ({note})" if note and isinstance(value, int) and not isinstance(value, bool) else ""
        raise InvalidDealError(f"{key!r} must be a whole number {allowed}, not {excerpt(value)}{why}")
    return value


def _read_groups(piles: Any) -> dict[str, list[list[Card]]]:
    if not isinstance(piles, dict):
        raise InvalidDealError(f"'piles' must be an object of pile groups, not {excerpt(piles)}")
    groups: dict[str, list[list[Card]]] = {}
    for name, group in piles.items():
        if not isinstance(group, list) or not all(isinstance(p, list) for p in group):
            raise InvalidDealError(f"pile group {name!r} must be a list of piles (lists of cards)")
        groups[name] = [[_read_card(c, f"{name}/{i}") for c in pile] for i, pile in enumerate(group)]
    return groups


def _read_card(text: Any, where: str) -> Card:
    try:
        return parse_card(text)
    except CardtableError as problem:
        raise InvalidDealError(f"{where}: {problem}") from None


# -- moves ---------------------------------------------------------------------


def move_to_dict(move: Move) -> dict[str, Any]:
    """A move as formats.md writes it; a redeal without its fans writes ``null``."""
    if move.kind == CARD:
        assert move.card is not None
        return {"from": str(move.source), "to": str(move.target), "card": card_name(move.card)}
    if move.kind == DEAL:
        return {"deal": "stock"}
    return {"redeal": None if move.fans is None else [card_names(fan) for fan in move.fans]}


def move_to_json(move: Move) -> str:
    """One move as a JSON line."""
    return json.dumps(move_to_dict(move))


def move_from_dict(obj: Any) -> Move:
    """Parse one move object of formats.md."""
    if not isinstance(obj, dict):
        raise InvalidMoveError(f"a move must be a json object, not {excerpt(obj, 60)}")
    # a card move's keys set to null are taken as absent, as a writer with one record for every move leaves them
    kinds = (
        ("redeal" in obj) + ("deal" in obj) + any(obj.get(key) is not None for key in ("from", "to", "card"))
    )
    if kinds > 1:  # which was meant cannot be told, and a wrong guess would fail moves later
        raise InvalidMoveError(
            f"move {excerpt(obj, 60)}: it must be a card move, a deal or a redeal, not two of them"
        )
    if "redeal" in obj:
        return Move.redeal(_read_fans(obj["redeal"]))
    if "deal" in obj:
        if obj["deal"] != "stock":
            raise InvalidMoveError(f'a deal move is {{"deal": "stock"}}, not {excerpt(obj, 60)}')
        return Move.deal()
    try:
        source, target, card = obj["from"], obj["to"], obj["card"]
    except KeyError as missing:
        raise InvalidMoveError(f"move {excerpt(obj, 60)} lacks {missing.args[0]!r}") from None
    if not all(isinstance(x, str) for x in (source, target, card)):
        raise InvalidMoveError(f"move {excerpt(obj, 60)}: 'from', 'to' and 'card' must be strings")
    try:
        return Move.card_move(PileId.parse(source), PileId.parse(target), parse_card(card))
    except CardtableError as problem:
        raise InvalidMoveError(f"move {excerpt(obj, 60)}: {problem}") from None


def _read_fans(fans: Any) -> tuple[tuple[Card, ...], ...] | None:
    if fans is None:
        return None
    if not isinstance(fans, list) or not all(isinstance(f, list) for f in fans):
        raise InvalidMoveError("a redeal's fans must be a list of lists of cards")
    try:
        return tuple(tuple(parse_card(c) for c in fan) for fan in fans)
    except CardtableError as problem:
        raise InvalidMoveError(f"redeal: {problem}") from None


# -- solutions -----------------------------------------------------------------


@dataclass
class Solution:
    """A solution record: the deal, the verdict, the moves and free-form stats."""

    deal: State
    result: str
    moves: list[Move]
    stats: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """A verdict formats.md does not know is refused as a file's would be, not written or replayed."""
        if self.result not in RESULTS:
            raise InvalidSolutionError(
                f"'result' must be one of {', '.join(RESULTS)}, not {excerpt(self.result)}"
            )

    def to_dict(self) -> dict[str, Any]:
        """The solution object of formats.md."""
        return {
            "game": self.deal.spec.id,
            "deal": deal_to_dict(self.deal),
            "result": self.result,
            "moves": [move_to_dict(m) for m in self.moves],
            "stats": self.stats,
        }


def read_solution(text: str) -> Solution:
    """Parse a solution file (its moves are not replayed here: see :func:`replay`)."""
    return _solution_from(parse_json(text, "solution", InvalidSolutionError))


def read_position(text: str) -> State:
    """A deal file's position, or a saved game's as its moves left it: what ``solve``, ``hint`` and ``moves`` ask about.

    A player asks whether a saved game can still be won; its moves are
    replayed, and the position they reach keeps its deal number.
    """
    obj = parse_json(text, "deal", InvalidDealError)
    if record_kind(obj) == "saved game":
        return saved_game_from_dict(obj).replayed()
    return deal_from_dict(obj)


def read_solutions(text: str) -> list[Solution]:
    """Parse one solution or several one after another: the JSON Lines of ``cardtable solve --json`` on several deals.

    A file of one solution reads as :func:`read_solution` reads it. With
    several, a problem names the solution and the line it starts on, since a
    checker of thousands must say which one failed.
    """
    return list(solutions_in([text]))


def solutions_in(pieces: Iterable[str]) -> Iterator[Solution]:
    """The solutions of a text given a piece at a time (see :func:`json_values`), each as soon as it is read.

    A survey of a million deals writes gigabytes of solutions: a checker reads
    them this way, holding one at a time. Named as :func:`read_solutions` names
    them, which needs one solution read ahead to know whether there are several.
    """
    for solution in solutions_or_problems(pieces):
        if isinstance(solution, InvalidSolutionError):
            raise solution
        yield solution


def solutions_or_problems(pieces: Iterable[str]) -> Iterator[Solution | InvalidSolutionError]:
    """As :func:`solutions_in`, but a record that is JSON and yet no solution comes as its problem, and reading goes on.

    A checker of thousands should tell every bad record, not stop at the first.
    Text that is not JSON still raises: where the next record starts is unknown.
    """
    values = json_values(pieces, "solution", InvalidSolutionError)
    first = next(values)
    second = next(values, None)
    if second is None:
        yield _solution_or_problem(first[0])
        return
    for number, (obj, line) in enumerate(itertools.chain((first, second), values), 1):
        found = _solution_or_problem(obj)
        if isinstance(found, InvalidSolutionError):
            found = InvalidSolutionError(f"solution {number} (line {line}): {found}")
        yield found


def _solution_or_problem(obj: Any) -> Solution | InvalidSolutionError:
    try:
        return _solution_from(obj)
    except InvalidSolutionError as problem:
        return problem


_VALUE_STARTS: Final = frozenset('{["-0123456789tfn')

MAX_VALUE: Final = 64 * 2**20
"""The most characters one JSON value may take: far more than any deal, solution or save
(a solution of Acey and Kingsley takes about 11 KB), and a bound on what a reader holds."""


def json_values(pieces: Iterable[str], what: str, error: type[CardtableError]) -> Iterator[tuple[Any, int]]:
    """The JSON values of a text given a piece at a time, with white space between, each with its line.

    Only the value being read is held, never the whole text. A piece may end
    anywhere, even inside a string: a value that fails to parse counts as cut
    short, and more is read, unless a line break follows the point of failure,
    since no JSON token spans one. A value is tried again only once its text
    has doubled, so a large value pretty-printed over many pieces costs linear
    time. ``error`` says what is wrong, with the line of the whole text.
    """
    decoder, source = json.JSONDecoder(), iter(pieces)
    text, at = "", 0  # what is held, from the start of a line on; where the next value starts
    counted, line = 0, 1  # the line at ``counted``, a point in ``text`` not after ``at``
    tried, ended, found = 0, False, False
    while True:
        at = _after_space(text, at)
        if at == len(text) and ended:
            break
        if at < len(text) and (ended or len(text) - at >= 2 * tried):
            first = line - text.count("\n", 0, counted)  # the line ``text`` starts on
            with _reading_json(what, error, first, first + text.count("\n", 0, at)):
                value = _decoded(decoder, text, at, ended)
            if value is not None:
                line, counted = line + text.count("\n", counted, at), at
                yield value[0], line
                at, tried, found = value[1], 0, True
                continue
            tried = len(text) - at
        if len(text) - at > MAX_VALUE:
            line, counted = line + text.count("\n", counted, at), at
            raise error(
                f"a {what} at line {line} runs past {MAX_VALUE // 2**20} MiB: far more than one can be"
            )
        cut = text.rfind("\n", 0, at) + 1  # before reading on, forget the whole lines read
        if cut > counted:
            line, counted = line + text.count("\n", counted, cut), cut
        text, at, counted = text[cut:], at - cut, counted - cut
        piece = next(source, None)
        ended = piece is None
        text += piece or ""
    if not found:
        raise error(f"no {what} in it: it is empty")


def _decoded(decoder: json.JSONDecoder, text: str, at: int, ended: bool) -> tuple[Any, int] | None:
    """The value at ``at`` and where it ends, or None if the text may just be cut short.

    JSONDecodeError if it is wrong whatever follows.
    """
    try:
        obj, end = decoder.raw_decode(text, at)
    except json.JSONDecodeError as problem:
        cut_short = problem.pos > at or text[at] in _VALUE_STARTS  # not, if nothing could begin a value here
        if cut_short and not ended and text.find("\n", problem.pos) == -1:
            return None
        raise
    # a number or a word at the very end may go on in the next piece; a closed object or list cannot
    if not ended and end == len(text) and text[end - 1] not in "]}":
        return None
    return obj, end


_NOT_JSON_SPACE: Final = re.compile(r"[^ \t\n\r]")
"""Anything but what JSON counts as white space, which may come between values."""


def _after_space(text: str, at: int) -> int:
    """Where the white space from ``at`` on ends: the next value, or the end of the text."""
    found = _NOT_JSON_SPACE.search(text, at)
    return len(text) if found is None else found.start()


def _solution_from(obj: Any) -> Solution:
    """A parsed solution object, checked for shape."""
    if record_kind(obj) == "saved game" and "undone" in obj:
        raise InvalidSolutionError(
            "this is a saved game, not a solution: it has no 'result' ('cardtable play' resumes it)"
        )
    deal, moves = _read_record(obj, "solution", InvalidSolutionError)
    if "result" not in obj:
        raise InvalidSolutionError(f"it has no 'result': give one of {', '.join(RESULTS)}")
    result = obj["result"]
    if result not in RESULTS:
        raise InvalidSolutionError(f"'result' must be one of {', '.join(RESULTS)}, not {excerpt(result)}")
    if result == "won" and "moves" not in obj:
        raise InvalidSolutionError("it has no 'moves': a won solution lists the moves that win")
    stats = obj.get("stats")
    return Solution(deal, result, moves, stats if isinstance(stats, dict) else {})


def _read_record(obj: Any, what: str, error: type[CardtableError]) -> tuple[State, list[Move]]:
    """The deal and the moves of a solution or a saved game, checked for shape (not replayed)."""
    if not isinstance(obj, dict):
        raise error(f"a {what} must be a json object, not {excerpt(obj)}")
    if record_kind(obj) == "deal":
        besides = " with 'result' and 'moves'" if what == "solution" else " with 'moves'"
        raise error(
            f"this looks like a deal, not a {what}: a {what} holds its deal whole under 'deal',{besides}"
        )
    if "deal" not in obj:
        raise error(f"it has no 'deal': a {what} holds its deal whole (with 'game' and 'piles') under 'deal'")
    if "game" in obj and not isinstance(obj["deal"], dict) and not {"result", "moves", "undone"} & obj.keys():
        # a deal file's 'deal' is its number, not a deal object: the file lacks its piles
        raise error(f"this looks like a deal without its 'piles', not a {what}")
    if not isinstance(obj["deal"], dict):
        raise error(f"its 'deal' must be a deal object (with 'game' and 'piles'), not {excerpt(obj['deal'])}")
    try:
        deal = deal_from_dict(obj["deal"])
    except InvalidDealError as problem:
        raise error(f"its deal: {problem}") from None
    game = obj.get("game", deal.spec.id)
    spec = find_game(game) if isinstance(game, str) else None
    if spec is None:
        raise error(f"'game' is {excerpt(game)}, no game cardtable knows (its deal is of {deal.spec.id})")
    if spec.id != deal.spec.id:
        raise error(f"'game' is {excerpt(game)} but its deal is of {deal.spec.id}")
    return deal, _read_moves(obj, "moves", error)


def _read_moves(obj: dict[str, Any], key: str, error: type[CardtableError]) -> list[Move]:
    moves = obj.get(key, [])
    if not isinstance(moves, list):
        raise error(f"{key!r} must be a list of moves")
    read = []
    for number, move in enumerate(moves, 1):  # numbered from 1, as a replay numbers them
        try:
            read.append(move_from_dict(move))
        except InvalidMoveError as problem:
            said = str(problem)  # "move {...}: why" becomes "move 3 {...}: why"
            said = f" {said.removeprefix('move ')}" if said.startswith("move ") else f": {said}"
            where = "" if key == "moves" else "of the moves to redo, "
            raise error(f"{where}move {number}{said}") from None
    return read


@dataclass(frozen=True)
class Replay:
    """What replaying a solution found: how many moves were legal, and the first problem."""

    legal_moves: int
    problem: str | None
    final: State


def replay(solution: Solution) -> Replay:
    """Replay a solution's moves from its deal and hold them to its verdict.

    A ``won`` solution's moves must end in a win; an ``unwinnable`` or
    ``unknown`` one's must not, since moves that win prove the verdict wrong.
    """
    played = _replay_moves(solution.deal, solution.moves)
    if played.problem is not None:
        return played
    state, won = played.final, played.final.is_won()
    if solution.result == "won" and not won:
        left = state.spec.deck_size - state.on_foundations()
        return Replay(
            len(solution.moves),
            f"the moves end without a win ({plural(left, 'card')} off the foundations)",
            state,
        )
    if solution.result != "won" and won:
        return Replay(
            len(solution.moves), f"the moves win, so the result is 'won', not {solution.result!r}", state
        )
    return played


def _replay_moves(start: State, moves: list[Move]) -> Replay:
    """Play ``moves`` from a copy of ``start``, stopping at the first illegal one; no verdict to meet."""
    state = start.copy()
    for number, move in enumerate(moves, 1):
        reason = state.why_illegal(move)
        if reason is not None:
            return Replay(
                number - 1, f"move {number} ({excerpt(move_to_dict(move), 80)}) is illegal: {reason}", state
            )
        state.push(move)
    return Replay(len(moves), None, state)


# -- saved games ----------------------------------------------------------------


@dataclass
class SavedGame:
    """A game in progress as ``cardtable play`` saves it: its deal, the moves played, the moves taken back.

    Shaped like a solution without a verdict, so that a solution file opens
    too (``cardtable play`` puts its line up for redo): ``game``, ``deal`` (the deal the game started
    from, whole), ``moves``, and ``undone``, the moves ``redo`` would play again,
    the next one first. Keeping the deal and the moves rather than the position
    reached is what lets undo go back past the save.

    ``play`` names the game in the statistics: every ending of a game resumed
    from this save, however often, is the one game's, the latest ending its result.
    """

    deal: State
    moves: list[Move]
    undone: list[Move] = field(default_factory=list)
    play: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The saved game as a JSON object."""
        return {
            "game": self.deal.spec.id,
            "deal": deal_to_dict(self.deal),
            "moves": [move_to_dict(m) for m in self.moves],
            "undone": [move_to_dict(m) for m in self.undone],
            **({"play": self.play} if self.play is not None else {}),
        }

    def replayed(self) -> State:
        """The position reached, its moves on its stack; InvalidSaveError if a move played is illegal.

        The moves are replayed as solutions are (:func:`replay`), but with no
        verdict to meet: a saved game may end in a win. The moves to redo do
        not make the position: see :meth:`redo_line`.
        """
        played = _replay_moves(self.deal, self.moves)
        if played.problem is not None:
            raise InvalidSaveError(played.problem)
        return played.final

    def redo_line(self, position: State) -> tuple[list[Move], str | None]:
        """The moves to redo that replay from ``position`` (where :meth:`replayed` ends), and why the next does not, if one does not.

        A save by an earlier cardtable could hold moves to redo that no longer
        fit its position: a deal made with Enter after an undo did not drop them.
        """
        redone = _replay_moves(position, self.undone)
        problem = None if redone.problem is None else f"of the moves to redo, {redone.problem}"
        return self.undone[: redone.legal_moves], problem


def read_saved_game(text: str) -> SavedGame:
    """Parse a saved game, or a solution file (its verdict ignored); its moves are replayed by :meth:`SavedGame.replayed`."""
    return saved_game_from_dict(parse_json(text, "saved game", InvalidSaveError))


def saved_game_from_dict(obj: Any) -> SavedGame:
    """A saved game (or a solution, its verdict ignored) from its parsed JSON: :func:`read_saved_game` without the parsing."""
    deal, moves = _read_record(obj, "saved game", InvalidSaveError)
    play = obj.get("play")
    if play is not None and not (isinstance(play, str) and re.fullmatch(PLAY_NAME, play)):
        raise InvalidSaveError(
            f"'play' must name a game in 1 to 40 letters, digits, '-' or '_', not {excerpt(play)}"
        )
    return SavedGame(deal, moves, _read_moves(obj, "undone", InvalidSaveError), play)


PLAY_NAME: Final = r"[A-Za-z0-9_-]{1,40}"
"""A saved game's ``play``: the id its statistics row has, as the server names its plays."""
