"""The errors cardtable raises, all under one base class.

Messages are lowercase, quote the offending input (with ``!r``, or
:func:`quoted` where it may be long or not a string, :func:`excerpt` for JSON) and say where the problem
is, so that the command line and the server can pass them on verbatim.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

EXCERPT: Final = 40
"""How much of a value a message quotes: enough to recognise it, never a whole deal."""
PATH_WIDTH: Final = 200
"""How much of a file's name (or one word of a command line) a message quotes: a long real path whole,
not a page pasted in its place."""


def excerpt(value: object, width: int = EXCERPT) -> str:
    """``value`` as the JSON it was read from (``{"deal": true}``, not Python's ``{'deal': True}``), cut to
    ``width`` characters with ``...`` if longer."""
    return _cut(json.dumps(value, ensure_ascii=False, default=repr), width)


def quoted(value: object, width: int = EXCERPT) -> str:
    """Input as a message quotes it: a string in quotes, as typed (``'7x'``); anything else as its
    :func:`excerpt` (``null``, ``[["AC"]]``)."""
    return _cut(repr(value), width) if isinstance(value, str) else excerpt(value, width)


def _cut(text: str, width: int) -> str:
    """``text`` cut to ``width``, a lone surrogate (``\\ud800``, which JSON and ``surrogateescape`` let in) written
    as its escape: a message must encode as UTF-8 to reach a terminal or an HTTP client."""
    text = text if len(text) <= width else f"{text[: width - 3]}..."
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class CardtableError(Exception):
    """Base class of every error cardtable raises on purpose."""


def reason(error: BaseException) -> str:
    """What went wrong in the words of the system or the library that said so, in lower case.

    For a message that passes on a file system's or SQLite's complaint:
    ``OSError.strerror`` leaves out the errno and the file name, which the
    message gives its own way.
    """
    words = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return words.lower()


class InvalidCardError(CardtableError, ValueError):
    """A card name that does not parse, such as ``'1X'``."""


class UnknownGameError(CardtableError, ValueError):
    """A game id that is not registered, or options the game does not have."""


class InvalidSpecError(CardtableError, ValueError):
    """A game spec the engine cannot play: raised as the spec is built, so a new game's slip shows on import."""


class InvalidDealError(CardtableError, ValueError):
    """A deal or position that is malformed, has the wrong deck, or cannot arise."""


class InvalidMoveError(CardtableError, ValueError):
    """A move that does not parse (bad JSON shape, bad notation)."""


class AmbiguousMoveError(InvalidMoveError):
    """A move in the notation that names more than one legal move.

    ``places`` are where it could go (``f0 (up)``, ``f4 (down)``): a front end
    whose player did not type the move (a double-click) can offer them in its
    own words, where the message tells a typist what to type.
    """

    def __init__(self, move: str, places: Sequence[str], example: str) -> None:
        super().__init__(
            f"ambiguous move: {move!r} could go to {', '.join(places)}: say which, like {example!r}"
        )
        self.move, self.places, self.example = move, tuple(places), example

    def __reduce__(self) -> tuple[type[AmbiguousMoveError], tuple[str, tuple[str, ...], str]]:
        """Pickled whole, as errors are when they cross from a worker process."""
        return type(self), (self.move, self.places, self.example)


class IllegalMoveError(CardtableError, ValueError):
    """A well-formed move that the rules do not allow in this position.

    ``reason`` says why without quoting the move, for a front end whose player
    did not type one (a double-click); the message quotes the move when it is
    given: ``illegal move: 't0 f0': 9♣ does not go on A♥ (f0 takes 2♥ next)``.
    """

    def __init__(self, reason: str, move: str | None = None) -> None:
        super().__init__(reason if move is None else f"illegal move: {move!r}: {reason}")
        self.reason = reason
        self.move = move

    def __reduce__(self) -> tuple[type[IllegalMoveError], tuple[str, str | None]]:
        """Pickled whole, as errors are when they cross from a worker process."""
        return type(self), (self.reason, self.move)


class InvalidSolutionError(CardtableError, ValueError):
    """A solution record that is malformed (not one whose moves are illegal)."""


class InvalidSaveError(CardtableError, ValueError):
    """A saved game that is malformed, or whose moves do not replay from its deal."""


class InvalidCheckpointError(CardtableError, ValueError):
    """A sweep's checkpoint file that is malformed, cut short, or of another position."""


class UnknownPileError(CardtableError, KeyError):
    """A pile or a group of piles that the game does not have: a lookup that failed, so a KeyError too."""

    def __str__(self) -> str:
        return str(self.args[0])  # not KeyError's repr of the message, in quotes


class NothingToDoError(CardtableError):
    """A request to a game in play that has nothing to act on: undo at the start, redo with
    nothing taken back, autoplay with no safe card, a change to a won or abandoned game."""


class WrongTypeError(CardtableError, TypeError):
    """An argument of the wrong kind, such as a move given as text where a :class:`Move` is wanted.

    A slip in the calling program rather than in its input, hence a
    ``TypeError``; a :class:`CardtableError` all the same, so that its message,
    which says what to give instead, reaches a user as every other does. It
    is raised where the slip would otherwise fail further in, as an
    ``AttributeError`` that names neither the argument nor the fix.
    """


def not_a(wanted: str, value: object, instead: str) -> WrongTypeError:
    """The error for ``value`` given where a ``wanted`` (a class's name) is: ``not a Limit: 30 (int): give ...``.

    ``value`` is quoted as Python writes it (``None``, not JSON's ``null``): the slip is in Python code.
    """
    return WrongTypeError(
        f"not a {wanted}: {_cut(repr(value), EXCERPT)} ({type(value).__name__}): give {instead}"
    )
