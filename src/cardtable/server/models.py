"""The API's request and response bodies, checked by pydantic and listed in the OpenAPI schema.

Requests are strict and small: unknown fields and values of another JSON type are refused, strings and lists
have maximum lengths. Moves and positions travel as the JSON objects of
formats.md and are read by :mod:`cardtable.formats`, the one reader of them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cardtable.core.deals import MAX_DEAL, MIN_DEAL
from cardtable.solver.search import Status


class Strict(BaseModel):
    """A request body: unknown fields are an error, not silently ignored, and values have their own JSON types.

    Pydantic's default would read ``"deal": true`` as deal 1 and ``"7"`` as 7:
    a client that sends those has a bug it should hear of.
    """

    model_config = ConfigDict(extra="forbid", strict=True)


class NewPlay(Strict):
    """Start a game: a numbered deal, a random one, a winnable one, or a given position."""

    game: str = Field(
        min_length=1,
        max_length=100,
        description="a game id, options allowed: alexander-the-great-lucie(redeals=0)",
    )
    deal: int | None = Field(None, ge=MIN_DEAL, le=MAX_DEAL, description="deal number; random if absent")
    position: dict[str, Any] | None = Field(
        None, description="a deal object of formats.md (any legal position) to start from"
    )
    winnable: bool = Field(False, description="draw deals until the solver proves one winnable")
    autoplay: bool = Field(
        False,
        description="send home the cards that can safely go as soon as the deal is on the table;"
        " these automatic moves leave the play untouched",
    )

    @model_validator(mode="after")
    def _one_source(self) -> NewPlay:
        if sum((self.deal is not None, self.position is not None, self.winnable)) > 1:
            raise ValueError("give at most one of 'deal', 'position' and 'winnable'")
        return self


class MoveRequest(Strict):
    """A move, as a formats.md object or in the terminal notation (``t3 f1``, ``t3``, ``d``)."""

    move: dict[str, Any] | None = Field(
        None,
        description='a move object of formats.md: {"from": "fan/3", "to": "foundation/0", "card": "7C"},'
        ' {"deal": "stock"} or {"redeal": null}',
    )
    text: str | None = Field(None, min_length=1, max_length=40, description="terminal notation: t3 f1")
    autoplay: bool = Field(False, description="then send home the cards that can safely go")
    board: str | None = Field(
        None,
        max_length=64,
        description="the play's board the move was chosen on: refused (409) if the table has changed since",
    )

    @model_validator(mode="after")
    def _one_form(self) -> MoveRequest:
        if (self.move is None) == (self.text is None):
            raise ValueError("give exactly one of 'move' and 'text'")
        return self


class MoveView(BaseModel):
    """A move as formats.md writes it, plus its terminal notation."""

    kind: Literal["card", "deal", "redeal"]
    source: str | None = Field(default=None, serialization_alias="from")
    to: str | None = None
    card: str | None = None
    text: str = Field(description="the move in terminal notation, such as 't3 f1'")


class RefillView(BaseModel):
    """A card the stock put, on its own, into a pile a move emptied (Acey and Kingsley's tableau)."""

    pile: str = Field(description="formats.md pile name, such as 'tableau/1'")
    code: str = Field(description="the pile's code in the terminal notation, such as 't1'")
    card: str


class PileView(BaseModel):
    """One pile as the page draws it; the stock's cards are face down, so only counted."""

    id: str = Field(description="formats.md pile name, such as 'fan/3'")
    group: str
    code: str = Field(description="the pile's code in the terminal notation, such as 't3'")
    cards: list[str] = Field(description="face-up cards, bottom first; empty for the stock")
    count: int
    base: Literal["A", "K"] | None = Field(None, description="foundations: the rank they start from")
    direction: Literal["up", "down"] | None = None
    takes: bool = Field(description="whether cards may ever be placed on it")
    takes_when_empty: bool = Field(
        description="whether a card may be placed on it when it is empty (a La Belle Lucie fan's place stays empty)"
    )


class PlayView(BaseModel):
    """A play as the page shows it: the table, what may be done, and how it stands."""

    id: str
    game: str
    name: str = Field(
        description="the game's name, its options in words: '…, no redeals' (the id says redeals=0)"
    )
    rules_note: str | None = Field(
        description="what the game id's options change, to show before its rules; null for the defaults"
    )
    deal: int | None
    status: Literal["playing", "won", "lost", "abandoned"]
    stuck: str | None = Field(
        description="a game lost with legal moves left: what is left, in the game's words (null otherwise)"
    )
    version: int = Field(description="bumped by every change: another tab can tell it is behind")
    board: str = Field(
        description="names the table (the cards' places and the moves to redo): send it with a change to have"
        " it refused if stale"
    )
    moves: int
    redo: int
    touched: bool = Field(
        description="whether the player made a move by hand, kept or taken back: a play with none (at most"
        " its deal's autoplay) left unfinished for a new one is forgotten, not counted as abandoned"
    )
    by_hand: bool = Field(
        description="whether a move on the table was made by hand: without one, the table is the deal or its"
        " autoplay, and a restart with autoplay would change nothing"
    )
    seconds: float = Field(description="time spent playing, idle gaps capped")
    assisted: bool = Field(description="'show me' gave a winning line for this game")
    hints: int = Field(description="hints given, one a table however often asked there")
    redeals_left: int | None = Field(description="null in games without a redeal")
    can_deal: bool
    can_redeal: bool
    autoplay_safe: bool = Field(description="whether autoplay may send cards home now")
    piles: list[PileView]
    legal: list[MoveView]
    last: list[MoveView] = Field(description="the moves the latest action made (or took back)")
    refills: list[RefillView] = Field(
        description="what the stock put, on its own, into the piles the latest moves emptied, in order"
    )
    message: str | None = None


class GameInfo(BaseModel):
    """A game the server can deal."""

    id: str
    name: str
    summary: str
    rules: str
    options: list[str]
    defaults: dict[str, bool | int] = Field(
        description="each option's value in the rules as written, as in the id 'alexander-the-great-lucie(redeals=0)'"
    )
    labels: dict[str, str] = Field(description="each option in words, for a form that sets it")


class VerdictView(BaseModel):
    """What the solver found from the current position."""

    status: Status
    moves: list[MoveView] = Field(description="the winning line (for a hint: its first move only)")
    guess: MoveView | None = Field(
        default=None,
        description="a hint's, when unknown: the move the solver found most promising, not proved to win",
    )
    seconds: float
    states: int
    message: str
    undo: int | None = Field(
        default=None,
        description="in a position proved lost: how many undos bring back one the solver proves winnable"
        " (null if it found none, or the position is not lost)",
    )
    at: int = Field(description="the number of moves of the position it answers for")
    board: str = Field(
        description="the play's board (see PlayView) when asked: a page shows the answer only on that table"
    )


class GameStatsView(BaseModel):
    """A player's record at one game."""

    game: str
    name: str = Field(
        description="the game's name, its options in words: '…, no redeals' (the id says redeals=0)"
    )
    played: int
    won: int
    win_rate: float
    current_streak: int
    best_streak: int
    positions: bool = Field(
        description="the games started from positions of the player's own, kept apart from the deals"
    )


class PastPlay(BaseModel):
    """One finished play in the history."""

    id: str
    game: str
    deal: int | None
    status: Literal["playing", "won", "lost", "abandoned"]
    moves: int
    seconds: float
    assisted: bool
    finished: float | None


class StatsView(BaseModel):
    """The statistics page: per game, then the past plays newest first."""

    games: list[GameStatsView]
    history: list[PastPlay]


class Problem(BaseModel):
    """An error: what was wrong, in words for a person."""

    detail: str
    reason: str | None = Field(
        None,
        description="an illegal move: why, without the move that ``detail`` quotes (for a move not typed, a click)",
    )
    places: list[str] | None = Field(
        None, description="a typed move that could be more than one: the piles it could go to, ``f0 (up)``"
    )
    errors: list[dict[str, Any]] | None = Field(
        None, description="a malformed request (422): every field at fault, where (``loc``) and why (``msg``)"
    )
    play: PlayView | None = Field(
        None, description="a change asked for on a stale board (409): the play as it stands now, nothing done"
    )
