"""The registry of games, found by id, with options: ``game(redeals=0)``."""

from __future__ import annotations

import dataclasses
import re
from typing import Final

from cardtable.core.errors import UnknownGameError, quoted
from cardtable.core.spec import GameSpec, option_value_words
from cardtable.games.acey import ACEY_AND_KINGSLEY
from cardtable.games.alexander import ALEXANDER_THE_GREAT
from cardtable.games.fan import FAN
from cardtable.games.lucie import ALEXANDER_THE_GREAT_LUCIE

GAMES: Final[dict[str, GameSpec]] = {
    spec.id: spec for spec in (ALEXANDER_THE_GREAT, ALEXANDER_THE_GREAT_LUCIE, ACEY_AND_KINGSLEY, FAN)
}

_ID_RE: Final = re.compile(r"^\s*([a-z0-9-]+)\s*(?:\((.*)\))?\s*$")


def load_game(game_id: str) -> GameSpec:
    """The spec for ``'alexander-the-great'`` or ``'alexander-the-great-lucie(redeals=0)'``."""
    match = _ID_RE.match(game_id) if isinstance(game_id, str) else None
    if match is None and isinstance(game_id, str) and game_id.count("(") > game_id.count(")"):
        raise UnknownGameError(
            f"not a game id: {quoted(game_id)} (its options need a closing parenthesis:"
            " alexander-the-great-lucie(redeals=0))"
        )
    if match is None:
        raise UnknownGameError(f"not a game id: {quoted(game_id)} (known games: {', '.join(GAMES)})")
    name, arguments = match.groups()
    base = GAMES.get(name)
    if base is None:
        known = ", ".join(GAMES)
        raise UnknownGameError(f"unknown game: {quoted(name)} (known games: {known})")
    if not arguments or not arguments.strip():
        return base
    changes: dict[str, object] = {}
    for part in arguments.split(","):
        key, value = _parse_option(base, part)
        if key in changes:
            raise UnknownGameError(f"option {key!r} of {base.id} is given twice in {quoted(game_id)}")
        changes[key] = value
    spec = dataclasses.replace(base, **changes)  # type: ignore[arg-type]
    changed = ", ".join(_options_as_written(base, spec))
    # the name tells the variant apart wherever it is shown: a title, a row of statistics
    name = f"{base.name}, {changed}" if changed else base.name
    return dataclasses.replace(spec, id=canonical_id(base, spec), name=name)


def find_game(game_id: str) -> GameSpec | None:
    """The spec for ``game_id``, or None when it names no game (for callers that guess)."""
    try:
        return load_game(game_id)
    except UnknownGameError:
        return None


def _parse_option(base: GameSpec, part: str) -> tuple[str, object]:
    key, equals, raw = (s.strip() for s in part.partition("="))
    if not key:  # "(=0)", or a comma too many: "(redeals=0,)"
        what = (
            f"{quoted(part.strip())} names no option"
            if part.strip()
            else "an empty option (a comma too many?)"
        )
        raise UnknownGameError(f"{base.id}: {what} (options: {', '.join(base.options) or 'none'})")
    if key not in base.options:
        allowed = ", ".join(base.options) or "none"
        raise UnknownGameError(f"{base.id} has no option {quoted(key)} (options: {allowed})")
    if not equals or not raw:
        raise UnknownGameError(f"option {key!r} of {base.id} needs a value, like {key}=1")
    default = getattr(base, key)
    if isinstance(default, bool):
        if raw.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise UnknownGameError(f"option {key!r} of {base.id} takes true or false, not {quoted(raw)}")
        return key, raw.lower() in ("true", "1", "yes")
    if not (raw.isascii() and raw.isdigit()) or len(raw.lstrip("0")) > 3 or int(raw) > 100:
        raise UnknownGameError(f"option {key!r} of {base.id} takes a whole number 0-100, not {quoted(raw)}")
    return key, int(raw)


def canonical_id(base: GameSpec, spec: GameSpec) -> str:
    """The id with the options that differ from the defaults, in declared order."""
    changed = ",".join(_options_as_written(base, spec))
    return f"{base.id}({changed})" if changed else base.id


def _options_as_written(base: GameSpec, spec: GameSpec) -> list[str]:
    """The options of ``spec`` that differ from ``base``'s as an id writes them: ``redeal_anytime=true``."""
    return [f"{key}={str(new).lower()}" for key, new, _ in _changed_options(base, spec)]


def _changed_options(base: GameSpec, spec: GameSpec) -> list[tuple[str, int, int]]:
    """The options of ``spec`` that differ from ``base``'s, in declared order: (key, its value, the default).

    Every option is a whole number or a bool, which is one too.
    """
    return [
        (key, getattr(spec, key), getattr(base, key))
        for key in base.options
        if getattr(spec, key) != getattr(base, key)
    ]


def shown_name(spec: GameSpec) -> str:
    """The game's name as the browser shows it: its options in words, not as in its id.

    ``Alexander the Great (La Belle Lucie form), no redeals``, where the name (for the
    command line) says ``redeals=0``; a game not in the registry keeps its name.
    """
    base = GAMES.get(spec.base_id)
    if base is None:
        return spec.name
    words = [option_value_words(key, new) for key, new, _ in _changed_options(base, spec)]
    return ", ".join([base.name, *words])


def options_note(spec: GameSpec) -> str | None:
    """What an id's options change, to read before its rules, which are written for the defaults.

    None for a game played by its defaults, or one not in the registry. The command line and the
    browser both show it, so a player of ``redeals=0`` is not left reading about two redeals as if
    they applied; in words, as :func:`shown_name` names the game ("no redeals (instead of 2
    redeals)"), since the browser's player never typed the id.
    """
    base = GAMES.get(spec.base_id)
    changed = [] if base is None else _changed_options(base, spec)
    changes = ", ".join(
        f"{option_value_words(key, new)} (instead of {option_value_words(key, default)})"
        for key, new, default in changed
    )
    if not changes:
        return None
    return (
        f"Played with other options: {changes}. The rules below are written for the defaults;"
        " where the two differ, the options apply."
    )


__all__ = ["GAMES", "canonical_id", "find_game", "load_game", "options_note", "shown_name"]
