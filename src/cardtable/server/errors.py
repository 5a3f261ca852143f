"""Every refusal becomes a 4xx answer with a sentence in ``detail``; a database that cannot be used, a 503 or 500.

The core's errors already say what is wrong and where (style.md), so their text
goes out as it is. SQLite's own errors (a database locked by another program
past the busy timeout, a full disk) leave the stored plays as they were, since
each change is one transaction; where waiting can help the player is told to
try again (503), and otherwise (a damaged or read-only file) a 500 says why
rather than a bare one. Validation errors of pydantic are boiled down to one
line naming the field (or, for malformed JSON, the character), with the full
list kept under ``errors``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardtable.core.errors import (
    AmbiguousMoveError,
    CardtableError,
    IllegalMoveError,
    NothingToDoError,
    quoted,
)
from cardtable.server.plays import NotFoundError, StaleViewError
from cardtable.server.solving import SolverBusyError
from cardtable.server.view import play_view
from cardtable.store import ConflictError, DamagedRecordError

STATUS: Final[tuple[tuple[type[Exception], int], ...]] = (
    (NotFoundError, 404),
    (IllegalMoveError, 409),
    (NothingToDoError, 409),
    (ConflictError, 409),
    (StaleViewError, 409),
    (SolverBusyError, 503),
    (DamagedRecordError, 500),  # not the player's doing: the message says which game
    (CardtableError, 422),  # unknown game, malformed deal or move, bad notation
)


def status_of(error: Exception) -> int:
    """The HTTP status for one of our errors."""
    return next(status for kind, status in STATUS if isinstance(error, kind))


def _problem(
    status: int, detail: str, *, headers: Mapping[str, str] | None = None, **extra: Any
) -> JSONResponse:
    # A message quoting input may hold a lone surrogate that no response could encode: sent as its escape.
    detail = detail.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"detail": detail, **extra}, status_code=status, headers=headers)


async def _ours(request: Request, error: Exception) -> JSONResponse:
    return _problem(status_of(error), str(error), **_parts(error))


def _parts(error: Exception) -> dict[str, Any]:
    """A refusal's parts a front end may use its own way (:class:`Problem`)."""
    if isinstance(error, StaleViewError):
        return {"play": play_view(error.play).model_dump(mode="json", by_alias=True)}
    if isinstance(error, IllegalMoveError):
        return {"reason": error.reason}
    if isinstance(error, AmbiguousMoveError):
        return {"places": list(error.places)}
    return {}


PASSING: Final = ("locked", "busy", "full")
"""Words of SQLite's errors that waiting can mend: another program's lock, a full disk."""
DAMAGED: Final = ("malformed", "not a database", "corrupt")
"""Words of SQLite's errors for a damaged file, which the server's keeper must restore."""


async def _database(request: Request, error: Exception) -> JSONResponse:
    why = str(error).lower()
    if any(word in why for word in PASSING):
        return _problem(503, f"the game database cannot be used just now ({why}): try again")
    if any(word in why for word in DAMAGED):
        return _problem(500, f"the game database is damaged ({why}): the server's keeper must restore it")
    return _problem(500, f"the game database cannot be used ({why}): the server's keeper must see to it")


PLACES: Final = ("body", "query", "path")
"""Where pydantic says a field came from; a message names the field alone."""


def _said(problem: dict[str, Any]) -> tuple[int, str]:
    """One of pydantic's problems in a sentence a player can read, with its status.

    The usual ones are reworded ("must be at least 1", not "Input should be
    greater than or equal to 1"); the rest keep pydantic's words, lower case.
    """
    kind, place, given = problem.get("type"), tuple(problem.get("loc", ())), problem.get("input")
    found = problem.get("ctx")
    context: dict[str, Any] = found if isinstance(found, dict) else {}
    if kind == "json_invalid":  # its place is a character offset, not a field
        why = str(context.get("error", "")).lower()
        return 422, f"malformed json in the request at character {place[-1]}" + (f": {why}" if why else "")
    if place == ("body",) and kind == "missing":
        return 422, "the request needs a JSON object as its body (content-type: application/json)"
    if place == ("body",) and kind in ("model_attributes_type", "dict_type", "model_type"):
        return 422, "the request body must be a JSON object (content-type: application/json)"
    if place == ("path", "play_id"):  # an id no play can have
        return 404, f"no game {quoted(given)}"
    where = ".".join(str(part) for part in place if part not in PLACES)
    words = {
        "missing": "required",
        "extra_forbidden": "not a field of this request",
        "greater_than_equal": f"must be at least {context.get('ge')}",
        "less_than_equal": f"must be at most {context.get('le')}",
        "int_type": f"must be a whole number, not {quoted(given)}",
        "int_parsing": f"must be a whole number, not {quoted(given)}",
        "int_parsing_size": "must be a whole number of at most 4300 digits",
        "bool_type": f"must be true or false, not {quoted(given)}",
        "string_type": f"must be a string, not {quoted(given)}",
        "string_too_short": f"must not be empty, not {quoted(given)}",
        "string_too_long": f"must be at most {context.get('max_length')} characters, not {quoted(given)}",
        "dict_type": f"must be a JSON object, not {quoted(given)}",
        "model_type": f"must be a JSON object, not {quoted(given)}",
    }
    message = words.get(str(kind)) or str(problem.get("msg", "invalid request")).removeprefix("Value error, ")
    message = message[:1].lower() + message[1:]
    return 422, f"{where}: {message}" if where else message


async def _invalid(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = error.errors()
    status, detail = _said(problems[0]) if problems else (422, "invalid request")
    return _problem(
        status, detail, errors=[{"loc": list(p.get("loc", ())), "msg": p.get("msg")} for p in problems]
    )


UNREADABLE_BODY: Final = "There was an error parsing the body"
"""FastAPI's words for a body its JSON reader gave up on (before any field could be named)."""


async def _http(request: Request, error: Exception) -> Response:
    assert isinstance(error, StarletteHTTPException)
    if error.status_code == 400 and error.detail == UNREADABLE_BODY:
        return _problem(
            400,
            "the request body cannot be read as JSON: it is not UTF-8, nests too deeply or holds too long a number",
        )
    if isinstance(error.detail, str):  # Starlette's own words ("Not Found"), lower case as ours are
        detail = HTTP_WORDS.get(error.detail, error.detail[:1].lower() + error.detail[1:])
        return _problem(error.status_code, detail, headers=error.headers)
    return await http_exception_handler(request, error)


HTTP_WORDS: Final = {
    "Not Found": "no such page or operation: /docs lists the API",
    "Method Not Allowed": "this path does not take that method: /docs lists what each takes",
}
"""Starlette's refusals of a path or a method, in a sentence that says where to look."""


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""
    for kind, _ in STATUS:
        app.add_exception_handler(kind, _ours)
    app.add_exception_handler(sqlite3.Error, _database)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http)
