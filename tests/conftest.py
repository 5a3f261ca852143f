"""Fixtures of every test: the user's own data directory is never touched."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def private_data_directory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point the default database (``cardtable play``'s statistics, ``serve``) into a temporary directory.

    Session-wide, so that hypothesis tests see no function-scoped fixture; tests
    that look at the statistics give their own ``--db``.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
        yield
