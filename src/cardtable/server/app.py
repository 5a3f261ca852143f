"""The FastAPI application: the API, the page and its static files, the solver's workers.

:func:`create_app` takes everything it needs as arguments (the store, the
executor the solver runs on, its budgets), so tests build apps with a temporary
database and a thread pool, and ``cardtable serve`` with worker processes.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Final

from fastapi import FastAPI, Request
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

import cardtable
from cardtable.games import GAMES
from cardtable.interrupts import exit_with_parent, start_resource_tracker
from cardtable.server import errors
from cardtable.server.api import router
from cardtable.server.guard import Guard
from cardtable.server.players import welcome
from cardtable.server.plays import Plays
from cardtable.server.reference import api_reference
from cardtable.server.solving import Budgets, Solver
from cardtable.store import Store

STATIC: Final = Path(str(files("cardtable.server") / "static"))
ANY_REQUEST: Final = """Besides the refusals each operation lists, any request may be refused with
``400`` (a Host that is not this loopback server's name, or a body that is not readable JSON), ``403``
(a change asked by a page of another origin), ``405`` (a method the path does not take), ``413``
(a body over 64 KiB) or ``500`` (the game database damaged or not writable), each a Problem. A
malformed request's ``422`` also lists every field at fault under ``errors``."""


COMPRESSED_FROM: Final = 1024
"""Bytes from which an answer goes gzipped to a browser that takes it: a smaller one is not worth the work."""


def solver_processes() -> Executor:
    """Worker processes for the solver: started fresh (spawn), never forked from a busy server."""
    workers = max(1, min(2, (os.cpu_count() or 2) - 1))
    start_resource_tracker()  # before the pool, whose queues start it otherwise
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
    )


def create_app(
    store: Store,
    *,
    executor: Executor | Callable[[], Executor] = solver_processes,
    budgets: Budgets | None = None,
    allowed_hosts: Sequence[str] | None = None,
    any_address: bool = False,
) -> FastAPI:
    """The app over ``store``; ``allowed_hosts`` (and, with ``any_address``, any IP address) guard it from DNS
    rebinding: see :mod:`cardtable.server.guard`."""
    solver = Solver(executor, budgets)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        solver.executor.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title="cardtable",
        version=cardtable.__version__,
        summary=f"Play patience games in the browser: {', '.join(spec.name for spec in GAMES.values())}.",
        description=ANY_REQUEST,
        lifespan=lifespan,
        docs_url=None,  # Swagger UI and ReDoc come from a CDN: /docs is our own page instead
        redoc_url=None,
    )
    app.state.plays = Plays(store)
    app.state.solver = solver
    errors.install(app)
    app.include_router(router)
    _pages(app)
    # the page's readable scripts, and a long game's view, cross the network at a third of their size
    app.add_middleware(GZipMiddleware, minimum_size=COMPRESSED_FROM)
    # the last added, the first to see a request
    app.add_middleware(Guard, allowed_hosts=allowed_hosts, any_address=any_address)
    return app


def _pages(app: FastAPI) -> None:
    """The two pages, each visit making sure the browser has its player cookie, and the API's reference."""

    def page(name: str) -> Callable[[Request], FileResponse]:
        def serve(request: Request) -> FileResponse:
            response = FileResponse(STATIC / name)
            welcome(request, response)
            return response

        return serve

    for path, name in (("/", "index.html"), ("/stats", "stats.html")):  # HEAD too, as link checkers ask
        app.api_route(path, methods=["GET", "HEAD"], include_in_schema=False)(page(name))

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    def docs() -> str:
        return api_reference(app.openapi())
