"""Satellites depend inward: the core imports only itself, and no part imports one that stands on it.

The rules (core, then games) know nothing of rendering, records, storage, the
solver, the CLI or the server; each satellite imports the rules and the few parts
its row below names. The CLI, the server and the survey sit on top, so no row
lets anything import them. Every import is absolute, so that none hides from
this table as ``from .. import``.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Final

import pytest

import cardtable

PACKAGE = Path(cardtable.__file__).parent
RULES = ("core", "games")
BELOW: Final = {
    "core": ("core",),
    "games": RULES,
    "formats": RULES,
    "interop": (*RULES, "formats", "interop"),
    "render": (*RULES, "render"),
    "store": (*RULES, "store"),
    "solver": (*RULES, "solver"),
    "playing": (*RULES, "solver"),
}
"""What each part of the package (a folder, or a module such as formats.py) may import from cardtable."""


def sources(part: str) -> list[Path]:
    """The source files of a part: its folder's, or the one module of that name."""
    module = PACKAGE / f"{part}.py"
    return [module] if module.exists() else sorted((PACKAGE / part).rglob("*.py"))


def imports(path: Path) -> list[ast.Import | ast.ImportFrom]:
    return [
        node
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.Import, ast.ImportFrom))
    ]


def cardtable_parts(path: Path) -> set[str]:
    """The parts of cardtable a source file imports: ``core`` for ``cardtable.core.cards``, ``cardtable`` for the package itself."""
    parts: set[str] = set()
    for node in imports(path):
        names = (
            [node.module or ""] if isinstance(node, ast.ImportFrom) else [alias.name for alias in node.names]
        )
        for name in names:
            top, _, rest = name.partition(".")
            if top == "cardtable":
                parts.add(rest.partition(".")[0] or "cardtable")
    return parts


@pytest.mark.parametrize(("part", "path"), [(part, p) for part in BELOW for p in sources(part)], ids=str)
def test_each_part_imports_only_what_lies_below_it(part: str, path: Path) -> None:
    assert cardtable_parts(path) <= set(BELOW[part])


def test_the_table_names_every_part_it_rules() -> None:
    assert all(sources(part) for part in BELOW)


def test_no_module_imports_relatively() -> None:
    relative = [
        f"{path.relative_to(PACKAGE)}:{node.lineno}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for node in imports(path)
        if isinstance(node, ast.ImportFrom) and node.level > 0
    ]
    assert relative == []
