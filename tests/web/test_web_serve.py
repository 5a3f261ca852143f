"""``cardtable serve`` itself: its options, a port in use, and the warning beyond loopback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardtable.cli.main import main
from cardtable.cli.serve import exposure_warning
from cardtable.cli.stats import default_db
from web.conftest import SERVE


def test_help_names_the_options() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--allow-host", "--db", "--open"):
        assert option in result.output


def test_the_default_database_is_in_the_user_data_directory() -> None:
    path = default_db()
    assert path.name == "cardtable.sqlite" and "cardtable" in path.parent.parts[-1]


def test_listening_beyond_loopback_says_what_it_exposes(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    command = [sys.executable, "-c", SERVE, "serve", "--host", "0.0.0.0", "--port", "0", "--db", str(db)]
    command += ["--allow-host", "cards.example"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None and process.stdout is not None
        warning = process.stderr.readline()
        served = process.stdout.readline()
        port = served.split()[3].rstrip("/").rsplit(":", 1)[1]
        assert answered(f"http://127.0.0.1:{port}/api/games") == 200
        assert "server" not in headers_of(f"http://127.0.0.1:{port}/"), "no server software named"
        for host, status in [
            ("192.0.2.7", 200),  # any address: no other site can rebind one
            ("cards.example", 200),  # a name given with --allow-host
            (socket.gethostname(), 200),
            ("rebound.example", 400),  # a site's name pointed at this machine: DNS rebinding
        ]:
            assert answered(f"http://127.0.0.1:{port}/api/games", host=f"{host}:{port}") == status, host
    finally:
        process.terminate()
        process.wait(10)
    assert warning.startswith("warning: listening on 0.0.0.0:")
    assert "anyone who can reach it" in warning.lower() and "--host 127.0.0.1" in warning
    assert served.startswith("cardtable: serving at http://0.0.0.0:")
    assert "plain HTTP" in exposure_warning("0.0.0.0", 8000, db)


def headers_of(url: str) -> dict[str, str]:
    """The headers of a GET of ``url``."""
    import httpx2

    return dict(httpx2.get(url, timeout=2).headers)


def answered(url: str, host: str | None = None) -> int:
    """The status of a GET of ``url`` (with a Host header of ``host``), once the server is up to answer it
    (ten seconds at most)."""
    import httpx2

    deadline = time.monotonic() + 10
    headers = {} if host is None else {"host": host}
    while True:
        try:
            return httpx2.get(url, timeout=2, headers=headers).status_code
        except httpx2.TransportError:
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_the_server_answers_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    command = [sys.executable, "-c", SERVE, "serve", "--port", "0", "--db", str(tmp_path / "db.sqlite")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[3]
        assert answered(url + "api/games") == 200
    finally:
        process.send_signal(2)
        assert process.wait(10) == 0


def test_ctrl_c_pressed_twice_stops_the_server_without_a_traceback(tmp_path: Path) -> None:
    """The second Ctrl+C cuts uvicorn's shutdown short, which it used to report as an error, traceback and all."""
    command = [sys.executable, "-c", SERVE, "serve", "--port", "0", "--db", str(tmp_path / "db.sqlite")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[3]
        answered(url + "api/games")  # up: uvicorn has the signals
        process.send_signal(signal.SIGINT)
        process.send_signal(signal.SIGINT)
        out, errors = process.communicate(timeout=30)
        assert process.returncode == 0 and out.strip() == "cardtable: stopped"
        assert "Traceback" not in errors
    finally:
        if process.poll() is None:
            process.kill()


def test_open_waits_for_the_server_then_opens_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    import webbrowser

    from cardtable.cli.serve import _open_when_up

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", opened.append)

    class Started:
        started = True

    _open_when_up(Started(), "http://127.0.0.1:8000/")
    assert opened == ["http://127.0.0.1:8000/"]


def test_open_with_no_browser_says_where_to_go() -> None:
    code = (
        "from cardtable.cli.serve import _open_when_up\n"
        "class Started:\n    started = True\n"
        "_open_when_up(Started(), 'http://127.0.0.1:8000/')\n"
    )
    nowhere = {**os.environ, "BROWSER": "/nonexistent/browser", "DISPLAY": "", "WAYLAND_DISPLAY": ""}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=nowhere, check=True
    )
    assert done.stderr == "cardtable: no web browser to open here: open http://127.0.0.1:8000/ yourself\n"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="looks for left-over workers in /proc")
def test_the_solver_processes_end_with_a_server_killed_outright(tmp_path: Path) -> None:
    import httpx2

    from test_survey_cli import assert_group_ends, group_alive

    command = [sys.executable, "-c", SERVE, "serve", "--port", "0", "--db", str(tmp_path / "db.sqlite")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[3]
        with httpx2.Client(base_url=url, timeout=2) as client:
            play = client.post("api/plays", json={"game": "acey-and-kingsley", "deal": 13}).json()["id"]
            with pytest.raises(httpx2.TimeoutException):  # deal 13 keeps the solver busy for seconds
                client.post(f"api/plays/{play}/verdict", timeout=0.5)
        deadline = time.monotonic() + 30
        while len(group_alive(process.pid)) < 2:  # the server and its solver's worker at least
            assert time.monotonic() < deadline
            time.sleep(0.05)
        process.kill()  # kill -9: no chance to stop its workers
        process.wait(10)
        assert_group_ends(process.pid)
    finally:
        if group_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)


@pytest.mark.parametrize(
    ("signum", "send"),
    [(signal.SIGHUP, os.killpg), (signal.SIGTERM, os.kill)],
    ids=["terminal closed", "kill"],
)
def test_a_closed_terminal_or_a_kill_stops_the_server_and_its_solver_cleanly(
    tmp_path: Path, signum: int, send: Callable[[int, int], None]
) -> None:
    """SIGHUP to the whole command, as a closing terminal sends it (the solver's processes included), or
    SIGTERM to the server alone, as ``kill`` and service managers send it."""
    import httpx2

    command = [sys.executable, "-c", SERVE, "serve", "--port", "0", "--db", str(tmp_path / "db.sqlite")]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[3]
        with httpx2.Client(base_url=url, timeout=30) as client:  # a hint starts the solver's processes
            play = client.post("api/plays", json={"game": "fan", "deal": 3}).json()["id"]
            assert client.post(f"api/plays/{play}/hint").status_code == 200
        send(process.pid, signum)
        _, errors = process.communicate(timeout=30)
        assert process.returncode == 128 + signum
        # no traceback, no leaked semaphore
        assert errors.strip() == f"cardtable: stopped ({signal.Signals(signum).name})"
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
