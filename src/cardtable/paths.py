"""Where cardtable keeps its databases unless told otherwise: the user's data directory."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import platformdirs


def data_folder() -> Path:
    """cardtable's folder in the user's data directory, e.g. ~/.local/share/cardtable."""
    return platformdirs.user_data_path("cardtable")


def folder_problem(path: Path) -> str | None:
    """Why no database can be made at ``path`` (its folder is missing, or a file), or None if one can.

    cardtable's own data folder is made here when missing, and only it: a
    folder named by ``--db`` must exist, so that a mistyped path is refused
    instead of leaving new folders behind. A symbolic link is followed: the
    database is made where it points.
    """
    folder = Path(os.path.realpath(path)).parent
    if folder == Path(os.path.realpath(data_folder())):  # a home reached through a link is still the home
        with contextlib.suppress(OSError):  # if it cannot be made, what follows says why
            folder.mkdir(parents=True, exist_ok=True)
    if folder.is_dir():
        return None
    return (
        f"{str(folder)!r} is a file, not a folder"
        if folder.exists()
        else f"there is no folder {str(folder)!r}"
    )


def read_only_folder(path: Path) -> str | None:
    """Why no file can be made at ``path`` (its folder, a read-only one), or None; a link's, where it points."""
    folder = Path(os.path.realpath(path)).parent
    if folder.is_dir() and not os.access(folder, os.W_OK):
        return f"its folder {str(folder)!r} is read-only"
    return None


def write_problem(path: Path) -> str | None:
    """Why the database at ``path`` cannot be written (a read-only file, folder or file system), or None.

    SQLite reports both as "unable to open database file" or "attempt to write
    a readonly database", which do not say what to change. It writes its
    journal beside the database, so the folder must take new files too.
    """
    if (folder := read_only_folder(path)) is not None:
        return f"{folder}, and SQLite writes its journal beside the database"
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is read-only"
    return None
