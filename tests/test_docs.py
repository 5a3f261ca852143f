"""The README and the docs point only at what exists: every relative link and every file they name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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
