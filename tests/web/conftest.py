"""Fixtures of the web tests: an app over a temporary database, a live server, a headless Chromium.

The API tests use FastAPI's TestClient with a thread pool for the solver. The
browser tests start the real ``cardtable serve`` in a subprocess on a free
loopback port, with its own database, and drive Debian's Chromium headless
through Playwright; a fresh browser context per test is a fresh player.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

from cardtable.server.app import create_app
from cardtable.server.solving import Budgets
from cardtable.store import Store

CHROMIUM: Final = Path("/usr/bin/chromium")
CHROMIUM_ARGS: Final = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TEST_BUDGETS: Final = Budgets(hint=3, verdict=3, line=5, per_deal=0.5, deals=8, search=5)
SERVE: Final = "import sys; from cardtable.cli.main import main; sys.exit(main())"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(tmp_path / "cardtable.sqlite")
    yield store
    store.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    """A player's client of an app over a fresh database; ``client.app`` serves others too."""
    with (
        ThreadPoolExecutor(2) as pool,
        TestClient(create_app(store, executor=pool, budgets=TEST_BUDGETS)) as c,
    ):
        yield c


@pytest.fixture
def other(client: TestClient) -> TestClient:
    """A second player (a browser with its own cookie) on the same app."""
    return TestClient(client.app)


@dataclass
class LiveServer:
    """``cardtable serve`` in a subprocess; it can crash and start again on the same port and database."""

    db: Path
    log: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        command = [sys.executable, "-c", SERVE, "serve", "--port", str(self.port), "--db", str(self.db)]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = re.search(r"serving at http://127\.0\.0\.1:(\d+)/", self.log.read_text())
            if found:
                self.port = int(found.group(1))
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"cardtable serve did not start:\n{self.log.read_text()}")

    def crash(self) -> None:
        """Kill the server without warning, as a crash or a power cut of the process would."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("serve")
    server = LiveServer(folder / "cardtable.sqlite", folder / "serve.log")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """Playwright's driver, for one test module: its event loop must not outlive the browser tests."""
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"no {CHROMIUM}: install Debian's chromium (test.sh does) to run the browser tests")
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def page(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    """A new player's tab on the live server, 1280 × 800, failing the test on any script error."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"script errors on the page: {errors}"
