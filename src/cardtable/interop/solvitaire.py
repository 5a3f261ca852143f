"""Our deals and rules in the JSON that Solvitaire reads, to compare its verdicts with ours.

Solvitaire (Blake and Gent's C++ solver, GPL) solves a deal file under a rules
file: ``solvitaire --custom-rules RULES.json DEAL.json``. Nothing of its code is
here; these facts about its formats were read from its source (deal_parser.cpp,
rules_parser.cpp, sol_preset_types.cpp, card.cpp, game_state*.cpp):

* A card is a rank ``A 2 … 10 J Q K`` then a suit ``C D H S``. The ten is ``10``:
  Solvitaire reads a rank that is not A, J, Q or K as a number, so our ``T``
  would not parse. A lower-case suit would mean "face down" in games that deal
  face down, so we always write upper case.
* A deal is ``{"tableau piles": [[...], ...], "foundations": [...]}``. Each pile
  lists its cards bottom first, top last (the top is the last card), as ours do.
  ``foundations`` is one flat list: each card goes onto the foundation of its
  suit in the order listed, so we list each of our foundations bottom first.
  The deal must have exactly as many tableau piles as the rules' ``count``; no
  other keys are allowed.
* The rules start from its ``default`` preset and override what the file sets.
  Its tableau always builds **down** (``build policy``: same-suit, red-black,
  any-suit or no-build); ``spaces policy`` says what an empty pile takes (any,
  kings, or no-build: nothing). Its foundations always build **up in suit** from
  one ``base card`` rank shared by all of them; ``removable`` lets their top
  cards go back to the tableau. ``move built group: no`` is one card at a time.
* Its preset ``fan`` sets ``removable: true``; our Fan (rules.md) never lets a
  card leave a foundation, so we never use the preset: :func:`rules_dict`
  writes every rule out in full.

So Solvitaire can express Fan and La Belle Lucie without redeals
(``alexander-the-great-lucie(redeals=0)``), but not redeals of the tableau, fans
that build up (Alexander the Great builds up or down), foundations that build
down from the king, or foundations that ignore suit (Acey and Kingsley). Those
raise :class:`UnsupportedBySolvitaireError` naming every reason.
"""

from __future__ import annotations

import json
from typing import Any, Final

from cardtable.core.cards import ACE, KING, RANK_OF, SUIT_CHARS, SUIT_OF, Card
from cardtable.core.errors import CardtableError
from cardtable.core.spec import ANY_RANK, GameSpec, Kind, PileGroup
from cardtable.core.state import State

RANK_TEXT: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Solvitaire's rank names, ace first: the ten is ``10``, never ``T``."""

VERDICTS: Final = {
    "solved": "won",
    "unsolvable": "unwinnable",
    "timed-out": "unknown",
    "memory-limit-reached": "unknown",
    "terminated": "unknown",
}
"""Solvitaire's outcome words (its ``Solution Type``) mapped to our verdicts."""


class UnsupportedBySolvitaireError(CardtableError, ValueError):
    """A game, or game options, whose rules Solvitaire's rules format cannot state."""


class SolvitaireOutputError(CardtableError, ValueError):
    """Output of Solvitaire that does not read as we expect (another version, a crash)."""


def solvitaire_card(card: Card) -> str:
    """Solvitaire's name for a card: ``'10D'`` for our ``'TD'``, ``'AS'`` for ``'AS'``."""
    return RANK_TEXT[RANK_OF[card] - 1] + SUIT_CHARS[SUIT_OF[card]]


# -- rules -----------------------------------------------------------------------


def _tableau_group(spec: GameSpec) -> PileGroup | None:
    tableaux = [group for group in spec.groups if group.kind is Kind.TABLEAU]
    return tableaux[0] if len(tableaux) == 1 else None


def _why_not(spec: GameSpec) -> list[str]:
    """Every rule of ``spec`` that Solvitaire cannot state; empty if it can state them all."""
    reasons: list[str] = []
    others = [g.name for g in spec.groups if g.kind not in (Kind.FOUNDATION, Kind.TABLEAU)]
    tableau = _tableau_group(spec)
    if spec.decks != 1:
        reasons.append(f"it uses {spec.decks} decks (only one-deck games are mapped)")
    if others:
        reasons.append(f"it has {', '.join(others)} piles (only foundations and fans are mapped)")
    elif tableau is None:
        reasons.append("only games with exactly one group of fans are mapped")
    if spec.redeals:
        reasons.append(f"it allows {spec.redeals} redeals of the fans (solvitaire cannot redeal a tableau)")
    foundations = spec.group("foundation") if spec.has_group("foundation") else None
    if foundations is not None and any(base != ACE for base in foundations.bases):
        reasons.append("foundations build down from a king (solvitaire's build up from one base rank)")
    if foundations is not None and not (foundations.build.same_suit and spec.suits_matter):
        reasons.append("foundations build regardless of suit (solvitaire's follow suit)")
    if tableau is not None:
        reasons += _tableau_reasons(tableau)
    return reasons


def _tableau_reasons(group: PileGroup) -> list[str]:
    reasons = []
    if group.build.up:
        what = "up or down" if group.build.down else "up"
        reasons.append(f"{group.name}s build {what} (solvitaire's tableau builds down only)")
    if group.fill not in (frozenset(), frozenset({KING}), ANY_RANK):
        ranks = " or ".join(RANK_TEXT[r - 1] for r in sorted(group.fill))
        reasons.append(f"an empty {group.name} takes {ranks} (solvitaire: any card, kings, or nothing)")
    return reasons


def check_supported(spec: GameSpec) -> None:
    """Raise :class:`UnsupportedBySolvitaireError` unless Solvitaire can state ``spec``'s rules."""
    reasons = _why_not(spec)
    if reasons:
        raise UnsupportedBySolvitaireError(f"solvitaire cannot play {spec.id}: {'; '.join(reasons)}")


def _build_policy(group: PileGroup) -> str:
    if not group.build.down:
        return "no-build"
    return "same-suit" if group.build.same_suit else "any-suit"


def _spaces_policy(group: PileGroup) -> str:
    if not group.fill:
        return "no-build"
    return "kings" if group.fill == frozenset({KING}) else "any"


def rules_dict(spec: GameSpec) -> dict[str, Any]:
    """Solvitaire's rules object for ``spec``, every field written out (not a preset).

    Writing the defaults too means the file says our rules on its own, whatever
    Solvitaire's ``default`` preset may become.
    """
    check_supported(spec)
    tableau = _tableau_group(spec)
    assert tableau is not None  # check_supported made sure
    return {
        "tableau piles": {
            "count": tableau.count,
            "build policy": _build_policy(tableau),
            "spaces policy": _spaces_policy(tableau),
            "diagonal deal": False,
            "move built group": "no",
            "move built group policy": "same-as-build",
            "face up cards": "all",
        },
        "foundations": {
            "present": True,
            "initial cards": "none",
            "base card": "A",
            "removable": spec.foundation_gives,
            "only complete pile moves": False,
        },
        "hole": {"present": False},
        "cells": {"count": 0, "pre-filled": 0},
        "stock": {"size": 0},
        "reserve": {"size": 0},
        "accordion": {"size": 0},
        "sequences": {"count": 0},
        "max rank": 13,
        "two decks": False,
    }


def rules_json(spec: GameSpec) -> str:
    """The rules object as JSON text, indented for people to read."""
    return json.dumps(rules_dict(spec), indent=2)


# -- deals -------------------------------------------------------------------------


def deal_dict(state: State) -> dict[str, Any]:
    """Solvitaire's deal object for a position: its fans and its foundations' cards.

    Works for any position of a supported game, not only a starting one: the
    foundations list every card already on them, each pile bottom first.
    """
    check_supported(state.spec)
    tableau = _tableau_group(state.spec)
    assert tableau is not None
    return {
        "tableau piles": [[solvitaire_card(c) for c in pile] for pile in state.group(tableau.name)],
        "foundations": [solvitaire_card(c) for pile in state.group("foundation") for c in pile],
    }


def deal_json(state: State) -> str:
    """The deal object as one line of JSON text."""
    return json.dumps(deal_dict(state))


# -- reading its answers -------------------------------------------------------------


def verdict(outcome: str) -> str:
    """Our verdict (won, unwinnable, unknown) for a Solvitaire outcome word such as ``solved``.

    An outcome we do not know maps to ``unknown``: it decided nothing we can use.
    """
    return VERDICTS.get(outcome.strip(), "unknown")


def read_classify_line(line: str) -> tuple[str, int]:
    """Our verdict and Solvitaire's own milliseconds from one line of ``--classify`` output.

    For a deal file the line is ``, OUTCOME, MILLISECONDS, states, …, OUTCOME``:
    an empty first field (the seed, for random deals only), then the outcome and
    the time its search took, not counting start-up and reading the files.
    """
    fields = [field.strip() for field in line.split(",")]
    if len(fields) < 3 or not fields[2].isdigit():
        raise SolvitaireOutputError(f"not a solvitaire --classify line: {line!r:.80}")
    return verdict(fields[1]), int(fields[2])
