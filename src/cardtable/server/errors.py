"""Every refusal becomes a 4xx answer with a sentence in ``detail``; a database that cannot be used, a 503.

The core's errors already say what is wrong and where (style.md), so their text
goes out as it is. SQLite's own errors (a database locked by another program
past the busy timeout, a full disk, a damaged file) leave the stored plays as
they were, since each change is one transaction; the player is told to try
again rather than shown a bare 500. Only a bug becomes a 500. Validation
errors of pydantic are boiled down to one line naming the field (or, for
malformed JSON, the character), with the full list kept under ``errors``.
"""

from __future__ import annotations

import sqlite3
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from cardtable.core.errors import CardtableError, IllegalMoveError, NothingToDoError
from cardtable.server.plays import NotFoundError, StaleViewError
from cardtable.server.solving import SolverBusyError
from cardtable.store import ConflictError

STATUS: Final[tuple[tuple[type[Exception], int], ...]] = (
    (NotFoundError, 404),
    (IllegalMoveError, 409),
    (NothingToDoError, 409),
    (ConflictError, 409),
    (StaleViewError, 409),
    (SolverBusyError, 503),
    (CardtableError, 422),  # unknown game, malformed deal or move, bad notation
)


def status_of(error: Exception) -> int:
    """The HTTP status for one of our errors."""
    return next(status for kind, status in STATUS if isinstance(error, kind))


def _problem(status: int, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"detail": detail, **extra}, status_code=status)


async def _ours(request: Request, error: Exception) -> JSONResponse:
    return _problem(status_of(error), str(error))


async def _database(request: Request, error: Exception) -> JSONResponse:
    return _problem(503, f"the game database cannot be used just now ({str(error).lower()}): try again")


async def _invalid(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = error.errors()
    first = problems[0] if problems else {"loc": (), "msg": "invalid request"}
    if first.get("type") == "json_invalid":  # its place is a character offset, not a field
        context = first.get("ctx")
        at, why = first["loc"][-1], str(context.get("error", "") if isinstance(context, dict) else "").lower()
        detail = f"malformed json in the request at character {at}" + (f": {why}" if why else "")
    else:
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = str(first.get("msg", "invalid request")).removeprefix("Value error, ")
        detail = f"{where}: {message}" if where else message
    return _problem(
        422, detail, errors=[{"loc": list(p.get("loc", ())), "msg": p.get("msg")} for p in problems]
    )


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""
    for kind, _ in STATUS:
        app.add_exception_handler(kind, _ours)
    app.add_exception_handler(sqlite3.Error, _database)
    app.add_exception_handler(RequestValidationError, _invalid)
