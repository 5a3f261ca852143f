"""``cardtable serve``'s mistakes: each is one line and exit code 2, told before any server starts."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import uvicorn
from click.testing import Result

from test_cli import assert_fails, run


@pytest.fixture(autouse=True)
def no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that starts fails the test, rather than running until the test times out."""

    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn.Server, "run", started)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def can_listen_on(port: int) -> bool:
    """Whether the port is free again: nothing that failed is still bound to it."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def serve(*args: str) -> Result:
    return run("serve", *args)


def test_a_corrupt_database_is_one_line_with_exit_code_2(tmp_path: Path) -> None:
    db = tmp_path / "corrupt.sqlite"
    db.write_bytes(b"this is not an SQLite database, whatever its name says. " * 100)
    port = free_port()
    result = serve("--port", str(port), "--db", str(db))
    assert_fails(result, 2, f"cannot open the database {str(db)!r}", "not a database")
    assert can_listen_on(port)


def test_a_database_in_a_file_not_a_folder_is_one_line_with_exit_code_2(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    assert_fails(serve("--port", "0", "--db", str(not_a_folder / "db.sqlite")), 2, "cannot open the database")


def test_a_host_that_is_no_address_is_one_line_with_exit_code_2(tmp_path: Path) -> None:
    result = serve("--host", "999.1.1.1", "--port", "0", "--db", str(tmp_path / "db.sqlite"))
    assert_fails(result, 2, "cannot listen on 999.1.1.1:0")


def test_a_port_in_use_is_one_line_with_exit_code_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = serve("--port", str(port), "--db", str(tmp_path / "db.sqlite"))
    assert_fails(result, 2, f"cannot listen on 127.0.0.1:{port}", "in use")
    assert can_listen_on(port)
