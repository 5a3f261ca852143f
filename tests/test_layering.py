"""The rules never import their satellites: core and games depend on nothing else of cardtable, the solver only on them."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Final

import pytest

import cardtable

PACKAGE = Path(cardtable.__file__).parent
RULES = ("core", "games")
BELOW: Final = {"core": RULES, "games": RULES, "solver": (*RULES, "solver")}
"""What each part of the package may import from cardtable."""


def cardtable_imports(path: Path) -> set[str]:
    """The cardtable modules a source file imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.split(".")[0] == "cardtable"}


@pytest.mark.parametrize(
    ("part", "path"), sorted((part, p) for part in BELOW for p in (PACKAGE / part).glob("*.py")), ids=str
)
def test_the_rules_and_the_solver_import_nothing_above_them(part: str, path: Path) -> None:
    allowed = tuple(f"cardtable.{below}" for below in BELOW[part])
    assert all(name.startswith(allowed) for name in cardtable_imports(path)), cardtable_imports(path)
