"""``cardtable serve``: play in the browser, on a server of your own.

The command opens its database and binds its socket itself before starting
uvicorn, so a database it cannot use, a host that is no address or a port in use
is one clear line (exit code 2, as every mistake of the command line), and
``--port 0`` can print the port the system chose. Only a loopback address is the
default; any other is the user's explicit choice, and the command says what it
exposes.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import signal
import socket
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import Final

import click

from cardtable.cli.stats import db_option, db_path, open_store
from cardtable.core.errors import CardtableError, reason
from cardtable.interrupts import Terminated, signal_handlers
from cardtable.store import Store

LOCAL_NAMES: Final = ("127.0.0.1", "localhost", "::1")


class CannotServeError(CardtableError):
    """``serve`` cannot open its database, or cannot listen where it was asked to."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``, or CannotServeError saying why not (and nothing left open)."""
    sock = None
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        if sock is not None:
            sock.close()
        raise CannotServeError(f"cannot listen on {host}:{port}: {reason(error)}") from None
    sock.set_inheritable(True)
    return sock


def is_loopback(sock: socket.socket) -> bool:
    """Whether the socket listens only on this machine."""
    return ipaddress.ip_address(sock.getsockname()[0].split("%")[0]).is_loopback


def exposure_warning(host: str, port: int, db: Path) -> str:
    """What listening beyond loopback exposes, in words."""
    return (
        f"warning: listening on {host}:{port}, not only on this machine. Anyone who can reach it over"
        f" the network can open the page, play games and add data to {db}. There are no passwords and"
        " the traffic is plain HTTP, so others on the network can read and reuse players' cookies;"
        " nor does it time out slow clients, which a reverse proxy would. It answers to its addresses and"
        " this machine's names (--allow-host adds one). Use --host 127.0.0.1 to keep it local."
    )


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; any other than loopback opens the game to the network.",
)
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port; 0 picks a free one."
)
@click.option(
    "--allow-host",
    "names",
    metavar="NAME",
    multiple=True,
    help="A name the page may be opened by, beyond this machine's own and its addresses (a server"
    " beyond loopback refuses any other name, as a DNS-rebinding site would use). Repeatable.",
)
@db_option("games and statistics")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
def serve(host: str, port: int, names: tuple[str, ...], db: Path | None, open_browser: bool) -> None:
    """Play in the browser: start a local server and print its address."""
    path = db_path(db)
    # the port, then the database: each mistake is told before anything runs, and a server
    # that cannot listen leaves no new database behind
    with bind(host, port) as sock:
        store = open_store(path, CannotServeError)
        try:
            _run(sock, store, host, names, path, open_browser)
        finally:
            store.close()


def machine_names() -> tuple[str, ...]:
    """The names this machine answers to on a network as far as it knows them without asking a name server
    (which may keep the server from starting for seconds): its host name, and that name on the local
    network (``box``, ``box.local``). ``--allow-host`` adds any other."""
    name = socket.gethostname()
    return (name, f"{name.split('.')[0]}.local")


def _run(
    sock: socket.socket, store: Store, host: str, names: tuple[str, ...], path: Path, open_browser: bool
) -> None:
    """Serve the app on the socket until Ctrl+C."""
    import uvicorn

    from cardtable.server.app import create_app

    port = sock.getsockname()[1]
    loopback = is_loopback(sock)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if not loopback:
        click.echo(exposure_warning(host, port, path), err=True)
    allowed = [*LOCAL_NAMES, host, *names, *(() if loopback else machine_names())]
    app = create_app(store, allowed_hosts=allowed, any_address=not loopback)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, server_header=False))
    logging.getLogger("uvicorn.error").addFilter(_no_cancelled_lifespan)
    stopped_by: list[int] = []

    def stop(signum: int, frame: object) -> None:
        """Shut down as uvicorn does on SIGTERM, and remember why.

        A closed terminal's SIGHUP, which uvicorn does not take; a Ctrl+C that
        comes before uvicorn takes its signals (asyncio would otherwise cancel
        the server half started); and the Ctrl+C or SIGTERM uvicorn passes on
        once it has shut down, which would otherwise kill the process before
        the solver's worker processes are let go (Python's resource tracker
        then warns of leaked semaphores).
        """
        stopped_by.append(signum)
        server.should_exit = True

    # from the line that says Ctrl+C stops, it does
    with signal_handlers({signal.SIGINT: stop, signal.SIGHUP: stop, signal.SIGTERM: stop}):
        click.echo(f"cardtable: serving at {url}  (games in {path}; Ctrl+C stops)")
        if open_browser:
            threading.Thread(target=_open_when_up, args=(server, url), daemon=True).start()
        server.run(sockets=[sock])
    for signum in (signal.SIGHUP, signal.SIGTERM):
        if signum in stopped_by:
            with contextlib.suppress(OSError):  # the terminal may be gone
                click.echo(f"cardtable: stopped ({signal.Signals(signum).name})", err=True)
            sys.exit(Terminated(signum).exit_code)
    if signal.SIGINT in stopped_by:
        click.echo("cardtable: stopped")


def _no_cancelled_lifespan(record: logging.LogRecord) -> bool:
    """Leave out the app's lifespan cancelled by a second Ctrl+C, which cuts uvicorn's shutdown short: no error to show.

    uvicorn then leaves the lifespan waiting for its end, asyncio cancels it
    as it closes, and Starlette reports that as a failed shutdown, traceback and all.
    """
    return "CancelledError" not in record.getMessage()


def _open_when_up(server: object, url: str) -> None:
    """Open the page once uvicorn says it has started (give up after ten seconds)."""
    for _ in range(200):
        if getattr(server, "started", False):
            if not webbrowser.open(url):  # no browser here (a server, a container): say so
                click.echo(f"cardtable: no web browser to open here: open {url} yourself", err=True)
            return
        time.sleep(0.05)
