"""The README and the docs point only at what exists (every relative link, every file they name) and show what is."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from cardtable import GAMES, GameSpec, deal, load_game
from cardtable.render.text import layout
from cardtable.solver import Limit, solve

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
NAMED = re.compile(r"`?((?:docs|benchmarks|src|tests)/[\w./-]+\.(?:md|py|png|txt|csv|gz))`?")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    targets = [t for t in LINK.findall(text) if "://" not in t]
    missing = [t for t in targets if not (page.parent / t).exists()]
    assert not missing, f"{page.name} links to what is not there: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_file_named_in_the_text_exists(page: Path) -> None:
    named = set(NAMED.findall(page.read_text(encoding="utf-8")))
    placeholders = re.compile(r"\*|[A-Z]{3,}")  # benchmarks/results/acey-*, docs/winnability-GAME.png
    missing = sorted(n for n in named if not placeholders.search(n) and not (ROOT / n).exists())
    assert not missing, f"{page.name} names files that are not there: {missing}"


def test_the_terminal_guides_layout_is_the_deal_it_names() -> None:
    text = (ROOT / "docs" / "terminal.md").read_text(encoding="utf-8")
    block = text.split("## Reading the layout", 1)[1].split("```")[1].strip("\n").splitlines()
    title = re.fullmatch(r"Alexander the Great · deal (\d+)", block[0])
    assert title is not None, block[0]
    shown = layout(deal(load_game("alexander-the-great"), int(title[1]))).plain.splitlines()
    assert [line for line in block if line.strip() != "..."] == [line for line in shown if line in block], (
        "the guide's lines are the deal's, in its order"
    )


def test_the_readmes_two_commands_are_scripts_here() -> None:
    block = (ROOT / "README.md").read_text(encoding="utf-8").split("## Two commands", 1)[1].split("```")[1]
    commands = [line.split()[0] for line in block.splitlines()[1:] if line.strip()]
    assert commands == ["./serve.sh", "./test.sh"]
    for command in commands:
        assert os.access(ROOT / command, os.X_OK), f"{command} is not executable"
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().endswith("exec ./test.sh")


def test_the_readmes_table_of_games_has_a_row_for_each_registered_game() -> None:
    table = (ROOT / "README.md").read_text(encoding="utf-8").split("## The games", 1)[1].split("\n\n")[1]
    rows = [line.split("|")[1].strip().strip("`") for line in table.splitlines()[2:]]
    assert rows == list(GAMES), "the README's games are the registry's, in its order"


def test_the_worked_example_of_adding_a_game_builds_deals_and_solves() -> None:
    text = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    code = text.split("## A worked example", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    names: dict[str, object] = {}
    exec(code, names)  # the page's own code, as a reader would paste it
    spec = names["CLOVER_LEAF"]
    assert isinstance(spec, GameSpec) and spec.id == "clover-leaf" and spec.id not in GAMES
    result = solve(deal(spec, 1), Limit(states=100_000))
    assert result.status == "won"
    state = deal(spec, 1)
    for move in result.moves:
        state.push_checked(move)
    assert state.is_won()
