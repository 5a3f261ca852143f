"""The JSON API under ``/api``: thin routes over :class:`Plays`, :class:`Solver` and the views.

Every route names its player from the cookie, so a player reaches only their
own plays: another's id is answered 404, as an unknown one is. Errors of the
core become 4xx answers in :mod:`cardtable.server.errors`.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Path, Query, Request
from starlette.concurrency import run_in_threadpool

from cardtable.core.deals import deal, random_deal
from cardtable.core.errors import (
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    UnknownGameError,
    quoted,
)
from cardtable.core.move import Move
from cardtable.core.notation import in_codes, move_text, parse_move
from cardtable.core.spec import OPTION_WORDS
from cardtable.formats import deal_from_dict, move_from_dict
from cardtable.games import GAMES, load_game, shown_name
from cardtable.server.models import (
    GameInfo,
    GameStatsView,
    MoveRequest,
    NewPlay,
    PastPlay,
    PlayView,
    Problem,
    StatsView,
    VerdictView,
)
from cardtable.server.play import Play
from cardtable.server.players import player
from cardtable.server.plays import NotFoundError, Plays, StaleViewError
from cardtable.server.solving import Solver, Verdict
from cardtable.server.view import move_view, play_view
from cardtable.solver.rewind import WayBack
from cardtable.store import game_stats

PLAY_ID: Final = r"^[A-Za-z0-9_-]{1,40}$"

router = APIRouter(prefix="/api")

Refusals = dict[int | str, dict[str, Any]]
NO_PLAY: Final[Refusals] = {404: {"model": Problem, "description": "no such game for this player"}}
REFUSED: Final[Refusals] = {
    409: {
        "model": Problem,
        "description": "the rules refuse it (illegal move, nothing to undo, a stale board)",
    }
}
MALFORMED: Final[Refusals] = {422: {"model": Problem, "description": "the request is malformed"}}
BUSY: Final[Refusals] = {
    503: {"model": Problem, "description": "the solver is busy or its worker stopped; ask again"}
}
CHANGE: Final[Refusals] = NO_PLAY | REFUSED | MALFORMED
"""What a change of a play may be refused with; any request may also meet those of the app's description."""

Player = Annotated[str, Depends(player)]
PlayId = Annotated[str, Path(pattern=PLAY_ID, description="the play's id, as POST /api/plays gave it")]
SeenBoard = Annotated[
    str | None,
    Query(
        max_length=64,
        description="the play's board the page shows: refused (409) if the table has changed since",
    ),
]


def _plays(request: Request) -> Plays:
    plays: Plays = request.app.state.plays
    return plays


def _solver(request: Request) -> Solver:
    solver: Solver = request.app.state.solver
    return solver


PlaysDep = Annotated[Plays, Depends(_plays)]
SolverDep = Annotated[Solver, Depends(_solver)]


@router.get("/games", response_model=list[GameInfo])
def list_games() -> list[GameInfo]:
    """The games this server deals, with their rules."""
    return [
        GameInfo(
            id=s.id,
            name=s.name,
            summary=s.summary,
            rules=s.rules,
            options=list(s.options),
            defaults={option: getattr(s, option) for option in s.options},
            labels={option: OPTION_WORDS[option] for option in s.options},
        )
        for s in GAMES.values()
    ]


@router.post("/plays", response_model=PlayView, status_code=201, responses=MALFORMED | BUSY)
async def new_play(body: NewPlay, who: Player, plays: PlaysDep, solver: SolverDep) -> PlayView:
    """Start a game, its safe cards sent home at once if asked; the player's unfinished game of the same kind is left.

    The game left counts as abandoned, unless no move was made in it by hand
    (at most its deal's autoplay): then it is forgotten.
    """
    spec = load_game(body.game)
    message = None
    if body.position is not None:
        state = deal_from_dict(body.position)
        if state.spec.id != spec.id:
            raise InvalidDealError(
                f"the position is of {state.spec.id!r}, not of {spec.id!r}, the game asked for"
            )
        if state.is_won():  # nothing to play, and a game won without a move would count in the statistics
            raise InvalidDealError("the position is already won: every card is on the foundations")
    elif body.winnable:
        number, message = await solver.winnable_deal(spec, who)
        state = deal(spec, number)
    else:
        state = deal(spec, body.deal if body.deal is not None else random_deal())
    play = await run_in_threadpool(plays.start, who, state, autoplay=body.autoplay)
    return play_view(play, message)


@router.get("/plays/current", response_model=PlayView, responses=NO_PLAY | MALFORMED)
def current_play(
    who: Player,
    plays: PlaysDep,
    game: Annotated[str | None, Query(max_length=100, description="only a play of this game")] = None,
) -> PlayView:
    """The game the player acted on last, to resume it (404 if there is none)."""
    if game is not None:
        game = load_game(game).id
    play = plays.current(who, game)
    if play is None:
        raise NotFoundError("no game to resume")
    return play_view(play)


@router.get("/plays/{play_id}", response_model=PlayView, responses=NO_PLAY | MALFORMED)
def get_play(play_id: PlayId, who: Player, plays: PlaysDep) -> PlayView:
    """One of the player's games."""
    return play_view(plays.get(who, play_id))


@router.post("/plays/{play_id}/moves", response_model=PlayView, responses=CHANGE)
def make_move(play_id: PlayId, body: MoveRequest, who: Player, plays: PlaysDep) -> PlayView:
    """Make a move; an illegal one is refused (409) with the rules' reason, and nothing changes.

    The reason names piles by the codes the page labels them with (``t3``, ``f0``), as the terminal does.
    """

    def act(play: Play) -> None:
        play.check_open()  # before the move is read: a won game refuses it as won, not as a bad move
        try:
            move = _text_move(play, body.text) if body.text is not None else move_from_dict(body.move)
        except IllegalMoveError as error:  # the core names piles as formats.md does, the page by code
            raise in_codes(play.state, error) from None
        play.play(move, autoplay=body.autoplay)

    return play_view(plays.change(who, play_id, act, body.board))


REQUESTS: Final = ("undo", "redo", "restart", "autoplay", "hint", "verdict", "solution")
"""Words the page's move box and the terminal take beside moves, which the API asks for as requests of their own."""


def _text_move(play: Play, text: str) -> Move:
    """The move ``text`` names in the terminal notation; a word of :data:`REQUESTS`, or ``help``, is told its request.

    The notation's refusal ends "'help' lists all", as the page's move box and the
    terminal have that word: a client of the API gets its own answer to it.
    """
    words = text.strip().lower()
    first = words.split(maxsplit=1)[0] if words else ""
    where = f"POST /api/plays/{play.record.id}"
    if first in REQUESTS:
        raise InvalidMoveError(
            f"not a move: {quoted(text)} ({first} is a request of its own: {where}/{first})"
        )
    if words == "help":
        raise InvalidMoveError(
            "moves in text: 't3 f1' (pile to pile), 't3' or a card like '7c' (home, or to its one place),"
            f" 'd' (deal), 'redeal'; {', '.join(REQUESTS)} are requests of their own ({where}/WORD);"
            " /docs describes the API"
        )
    return parse_move(play.state, text)


@router.post("/plays/{play_id}/undo", response_model=PlayView, responses=CHANGE)
def undo(
    play_id: PlayId,
    who: Player,
    plays: PlaysDep,
    board: SeenBoard = None,
    times: Annotated[
        int, Query(ge=1, description="how many undos to make at once (a move with its autoplay is one)")
    ] = 1,
) -> PlayView:
    """Take back the latest move (with the autoplay moves it set off), or the latest ``times`` of them."""
    return play_view(plays.change(who, play_id, lambda play: play.undo(times), board))


@router.post("/plays/{play_id}/redo", response_model=PlayView, responses=CHANGE)
def redo(play_id: PlayId, who: Player, plays: PlaysDep, board: SeenBoard = None) -> PlayView:
    """Make again what the latest undo took back."""
    return play_view(plays.change(who, play_id, Play.redo_group, board))


@router.post("/plays/{play_id}/restart", response_model=PlayView, responses=CHANGE)
def restart(
    play_id: PlayId,
    who: Player,
    plays: PlaysDep,
    board: SeenBoard = None,
    autoplay: Annotated[
        bool,
        Query(
            description="make the deal's autoplay again, if the moves began with it (a line that did not is kept)"
        ),
    ] = False,
) -> PlayView:
    """Back to the deal; redo replays the moves."""
    return play_view(plays.change(who, play_id, lambda play: play.restart(autoplay=autoplay), board))


@router.post("/plays/{play_id}/autoplay", response_model=PlayView, responses=CHANGE)
def autoplay(play_id: PlayId, who: Player, plays: PlaysDep, board: SeenBoard = None) -> PlayView:
    """Send home the cards that can safely go now (none in games where that is not provably safe)."""
    return play_view(plays.change(who, play_id, Play.autoplay, board))


def _mark_assisted(play: Play) -> None:
    if _counts_help(play):
        play.record.assisted = True


def _counts_help(play: Play) -> bool:
    """Whether help counts against the game: not after a win (it gives no move) or once the game is left."""
    return play.status in ("playing", "lost") and not play.left


async def _charge(plays: Plays, who: str, play: Play, charge: Callable[[Play], None]) -> None:
    """Count the solver's help against the game, if its table is still the one the solver answered for.

    The page throws away an answer for a table that has changed meanwhile (a
    move in this tab or another while the solver thought): help thrown away
    costs nothing.
    """
    with suppress(StaleViewError):
        await run_in_threadpool(plays.change, who, play.record.id, charge, play.board)


@router.post(
    "/plays/{play_id}/hint", response_model=VerdictView, responses=NO_PLAY | REFUSED | MALFORMED | BUSY
)
async def hint(play_id: PlayId, who: Player, plays: PlaysDep, solver: SolverDep) -> VerdictView:
    """The first move of a winning line from here, if the solver finds one in a few seconds."""
    play, verdict, way = await _asked(play_id, who, plays, solver, solver.budgets.hint)

    def count(saved: Play) -> None:  # once answered: a hint the busy solver refused costs none
        # A hint asked again on the same table (a page asking twice, a key pressed twice) is one hint.
        if _counts_help(saved) and plays.hint_counts(saved):
            saved.record.hints += 1

    await _charge(plays, who, play, count)
    return _verdict_view(play, verdict, solver.budgets.hint, way, first_only=True, guess=True)


@router.post(
    "/plays/{play_id}/verdict", response_model=VerdictView, responses=NO_PLAY | REFUSED | MALFORMED | BUSY
)
async def verdict(play_id: PlayId, who: Player, plays: PlaysDep, solver: SolverDep) -> VerdictView:
    """Still winnable? Won, unwinnable (proved), or unknown (the budget ran out)."""
    play, found, way = await _asked(play_id, who, plays, solver, solver.budgets.verdict)
    return _verdict_view(play, found, solver.budgets.verdict, way, first_only=True)


@router.post(
    "/plays/{play_id}/solution", response_model=VerdictView, responses=NO_PLAY | REFUSED | MALFORMED | BUSY
)
async def solution(play_id: PlayId, who: Player, plays: PlaysDep, solver: SolverDep) -> VerdictView:
    """The solver's whole winning line from here, for "show me"; a line given marks the game as assisted.

    A verdict with no line (unwinnable, unknown) tells no more than "still
    winnable?", which does not mark the game.
    """
    play, found, way = await _asked(play_id, who, plays, solver, solver.budgets.line)
    if found.moves:
        await _charge(plays, who, play, _mark_assisted)
    return _verdict_view(play, found, solver.budgets.line, way, first_only=False)


async def _asked(
    play_id: str, who: str, plays: Plays, solver: Solver, budget: float
) -> tuple[Play, Verdict, WayBack | None]:
    """The play, the solver's verdict on it within ``budget`` seconds, and the way back if it is lost after moves.

    A lost game left for a new one is refused first: it is over, and a question would only cost the solver.
    """
    play = await run_in_threadpool(plays.get, who, play_id)
    play.check_not_left()
    found = await solver.verdict(play.state, budget, who)
    return play, found, await _way_back(play, found, solver, who)


async def _way_back(play: Play, found: Verdict, solver: Solver, who: str) -> WayBack | None:
    """In a position proved lost after some moves: how many undos bring back one that can be won."""
    if found.status != "unwinnable" or not play.moves:
        return None
    return await solver.way_back(play.state, play.undo_steps(), solver.budgets.way_back, who)


def _verdict_view(
    play: Play, found: Verdict, budget: float, way: WayBack | None, *, first_only: bool, guess: bool = False
) -> VerdictView:
    """The answer to a question for the solver; ``guess``: a hint's, which names the solver's guess when undecided."""
    guessed = found.guess if guess else None
    state = play.state.copy()
    views = []
    for move in found.moves[:1] if first_only else found.moves:
        views.append(move_view(state, move))
        state.push(move)
    return VerdictView(
        status=found.status,
        moves=views,
        guess=None if guessed is None else move_view(play.state, guessed),
        seconds=round(found.seconds, 3),
        states=found.states,
        message=_verdict_message(play, found, budget, guessed) + _way_back_message(play, way),
        undo=way.undo if way is not None and way.status == "won" else None,
        at=play.moves,
        board=play.board,
    )


def _verdict_message(play: Play, found: Verdict, budget: float, guess: Move | None) -> str:
    if play.state.is_won():
        return "the game is won"
    if found.status == "won":
        return f"winnable: the solver found a win in {len(found.moves)} moves"
    if found.status == "unwinnable":
        return "not winnable from here: the solver proved that no line of play wins"
    undecided = f"unknown: the solver could not decide within {budget:g} s"
    if guess is None:
        return undecided
    return f"{undecided}; its best guess is {move_text(play.state, guess)}, not proved to win"


def _way_back_message(play: Play, way: WayBack | None) -> str:
    """What follows "not winnable from here": how many undos bring back a position that can be won."""
    if way is None:
        return ""
    between = "position" if way.undecided == 1 else f"{way.undecided} positions"
    nearer = f" (the solver could not tell for the {between} between)" if way.undecided else ""
    if way.status == "won" and way.undo == len(play.undo_steps()):
        return (
            f"; {'the start' if nearer else 'only the start'} of the game can still be won: restart{nearer}"
        )
    if way.status == "won":
        times = {1: "once", 2: "twice"}.get(way.undo, f"{way.undo} times")
        return f"; undo {times} and it can still be won{nearer}"
    if way.status == "unwinnable":
        return "; nor could any earlier position: the game was lost from its start"
    return "; the solver stopped before it found how far back it still could"


@router.get("/stats", response_model=StatsView)
def stats(who: Player, plays: PlaysDep) -> StatsView:
    """Played, won, win rate and streaks per game, and the past games, newest first."""
    store = plays.store
    return StatsView(
        games=[
            GameStatsView(
                game=s.game,
                name=_name(s.game),
                played=s.played,
                won=s.won,
                win_rate=round(s.win_rate, 4),
                current_streak=s.current_streak,
                best_streak=s.best_streak,
                positions=s.positions,
            )
            for s in game_stats(store.endings(who))
        ],
        history=[
            PastPlay(
                id=r.id,
                game=r.game,
                deal=r.deal,
                status=r.status,
                moves=len(r.moves),
                seconds=round(r.seconds, 1),
                assisted=r.assisted,
                finished=r.finished,
            )
            for r in store.history(who)
        ],
    )


def _name(game: str) -> str:
    try:
        return shown_name(load_game(game))
    except UnknownGameError:
        return game
