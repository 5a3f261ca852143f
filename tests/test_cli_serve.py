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
    assert_fails(result, 2, f"cannot open the database {str(db)!r}: it is not an SQLite database")
    assert can_listen_on(port)


def test_a_database_in_a_file_not_a_folder_is_one_line_with_exit_code_2(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    assert_fails(
        serve("--port", "0", "--db", str(not_a_folder / "db.sqlite")),
        2,
        f"cannot open the database {str(not_a_folder / 'db.sqlite')!r}: {str(not_a_folder)!r} is a file, not a folder",
    )


def test_a_database_in_a_missing_folder_is_refused_and_no_folder_is_made(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such"
    for command in (["serve", "--port", "0"], ["play", "fan", "1"], ["survey", "fan", "--deals", "1-2"]):
        result = run(*command, "--db", str(missing / "x.sqlite"), input="t10 f0\nquit\nquit\n")
        said = result.output + result.stderr  # play says it and plays on without statistics
        assert f"there is no folder {str(missing)!r}" in said, (command, said)
        assert not (tmp_path / "no").exists(), command


def test_the_default_data_folder_is_made_when_missing(tmp_path: Path) -> None:
    home: dict[str, str | None] = {"XDG_DATA_HOME": str(tmp_path / "data")}
    result = run("play", "fan", "1", input="t10 f0\nquit\nquit\n", env=home)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "data" / "cardtable" / "cardtable.sqlite").is_file()


def test_a_host_that_is_no_address_is_one_line_with_exit_code_2(tmp_path: Path) -> None:
    result = serve("--host", "999.1.1.1", "--port", "0", "--db", str(tmp_path / "db.sqlite"))
    assert_fails(result, 2, "cannot listen on 999.1.1.1:0")
    assert not (tmp_path / "db.sqlite").exists()


def test_a_port_in_use_is_one_line_with_exit_code_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = serve("--port", str(port), "--db", str(tmp_path / "db.sqlite"))
    assert_fails(result, 2, f"cannot listen on 127.0.0.1:{port}", "in use")
    assert can_listen_on(port)
    assert not (tmp_path / "db.sqlite").exists(), "a server that could not listen made no database"
