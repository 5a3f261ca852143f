"""A sweep kept in a checkpoint file and taken up again: the same rests to the same verdict, and damaged files refused."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from array import array
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import State, deal
from cardtable.core.errors import InvalidCheckpointError
from cardtable.games import load_game
from cardtable.solver import checkpoint
from cardtable.solver.sweep import Checkpoint, Sweep
from cardtable.solver.updown import Search
from cardtable.solver.wastes import BARE, WasteSets
from helpers import ACEY, FAST, acey_positions

SWEEP_PY = Path(__file__).parent.parent / "benchmarks" / "sweep.py"


class Stop(Exception):
    """Ends a sweep at the pause where its checkpoint was written."""


def outcome(sweep: Sweep) -> tuple[bool, int, int]:
    """What a sweep with no trace ends with: won or not, rests swept, rests swept once the stock is out."""
    return sweep.won, sweep.search.states, sweep.endgame_swept


def run_through(state: State, between: Callable[[Sweep], None] = lambda sweep: None) -> Sweep:
    """A sweep with no trace of the position, ``between`` called at each pause."""
    sweep = Sweep(Search(state), None, trace=False)
    sweep.between = lambda: between(sweep)
    sweep.advance(1 << 62, lambda: None)
    return sweep


def whole(state: State) -> tuple[tuple[bool, int, int], int]:
    """How the sweep of the position ends, never stopped, and how many times it pauses between stock cards or endgame counts."""
    seen: list[int] = []
    sweep = run_through(state, lambda sweep: seen.append(sweep.dealt))
    return outcome(sweep), len(seen)


def kept_at(state: State, pause: int, path: Path) -> None:
    """Sweep the position up to its ``pause``-th pause, keep it in ``path`` there, and stop."""
    met = [0]

    def between(sweep: Sweep) -> None:
        if met[0] == pause:
            checkpoint.write(path, sweep.checkpoint(), seconds=2.5)
            raise Stop
        met[0] += 1

    with pytest.raises(Stop):
        run_through(state, between)


def resumed(state: State, path: Path) -> Sweep:
    """The sweep taken up from ``path``, run to its end."""
    kept, seconds = checkpoint.read(path)
    assert seconds == 2.5
    sweep = Sweep.resumed(Search(state), kept, None)
    sweep.advance(1 << 62, lambda: None)
    return sweep


def test_a_sweep_taken_up_at_any_pause_sweeps_the_same_rests_to_the_same_verdict(tmp_path: Path) -> None:
    # Deal 194 is lost: its sweep goes through the stock phase and an endgame of
    # 52 rests, and pauses 76 times; stopped at each, it must end as if never stopped.
    lost = deal(load_game(ACEY), 194)
    ending, count = whole(lost)
    assert (ending, count) == ((False, 650, 52), 76)
    path = tmp_path / "194.checkpoint"
    for pause in range(count):
        kept_at(lost, pause, path)
        assert outcome(resumed(lost, path)) == ending


@FAST
@given(st.booleans().flatmap(lambda stock: acey_positions(lowest=8, with_stock=stock)), st.data())
def test_a_sweep_taken_up_from_its_checkpoint_ends_as_the_whole_sweep(
    tmp_path_factory: pytest.TempPathFactory, state: State, data: st.DataObject
) -> None:
    ending, count = whole(state)
    if not count:
        return
    path = tmp_path_factory.mktemp("kept") / "sweep.checkpoint"
    kept_at(state, data.draw(st.integers(0, count - 1), label="pause"), path)
    assert outcome(resumed(state, path)) == ending


def a_checkpoint(pause: int = 40) -> Checkpoint:
    """Deal 194's sweep as it stands at its ``pause``-th pause (the 40th is in the stock phase)."""
    met: list[Sweep] = []
    taken: list[Checkpoint] = []

    def between(sweep: Sweep) -> None:
        if len(met) == pause:
            taken.append(sweep.checkpoint())
            raise Stop
        met.append(sweep)

    with pytest.raises(Stop):
        run_through(deal(load_game(ACEY), 194), between)
    return taken[0]


def test_a_checkpoint_file_keeps_every_array_and_count(tmp_path: Path) -> None:
    for pause in (0, 40, 70):  # the first stock card, the stock phase, the endgame
        kept = a_checkpoint(pause)
        path = tmp_path / f"{pause}.checkpoint"
        checkpoint.write(path, kept, seconds=7.25)
        back, seconds = checkpoint.read(path)
        assert seconds == 7.25
        assert (back.root, back.dealt, back.classes, back.counts) == (
            kept.root,
            kept.dealt,
            kept.classes,
            kept.counts,
        )
        assert [list(part) for part in back.sets] == [list(part) for part in kept.sets]
        assert back.levels.keys() == kept.levels.keys()
        for level, (rests, nodes, merged) in kept.levels.items():
            back_rests, back_nodes, back_merged = back.levels[level]
            assert back_merged == merged
            assert all(
                np.array_equal(a, b) for a, b in zip(back_rests + back_nodes, rests + nodes, strict=True)
            )
        assert {stacked: tuple(map(list, both)) for stacked, both in back.waiting.items()} == {
            stacked: tuple(map(list, both)) for stacked, both in kept.waiting.items()
        }
        assert not list(tmp_path.glob("*.partial"))


def test_a_damaged_checkpoint_is_refused_with_its_name_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "194.checkpoint"
    checkpoint.write(path, a_checkpoint())
    whole = path.read_bytes()
    header_end = whole.index(b"\n", len(checkpoint.MAGIC)) + 1
    damaged = [
        ("is not a sweep's checkpoint", b"cardtable sweep checkpoint 0\n" + whole[len(checkpoint.MAGIC) :]),
        ("is damaged or cut short", whole[: header_end - 10]),
        ("is damaged or cut short", whole[: (header_end + len(whole)) // 2]),
        ("is damaged or cut short", whole[:-1]),
        ("holds more than its header says", whole + b"\0"),
    ]
    for words, text in damaged:
        path.write_bytes(text)
        with pytest.raises(InvalidCheckpointError, match=re.escape(f"the checkpoint {str(path)!r} {words}")):
            checkpoint.read(path)
        assert path.read_bytes() == text
    with pytest.raises(
        InvalidCheckpointError, match=r"cannot read the checkpoint '.*nothing-here': no such file"
    ):
        checkpoint.read(tmp_path / "nothing-here")


def test_sets_restored_from_a_checkpoint_find_every_set_again_by_its_tops() -> None:
    # Equal sets must keep one number: naming a restored set's tops again must
    # give back that set, not a new one, whether it has one top or several.
    for pause in (40, 70):
        packed, several, dealt_on = a_checkpoint(pause).sets
        sets = WasteSets.restored(array("q", packed), list(several), array("q", dealt_on))
        count = len(sets)
        for node in range(BARE + 1, count):
            assert sets.node(dict(sets.tops(node))) == node
        assert len(sets) == count
        assert any(len(sets.tops(node)) > 1 for node in range(BARE + 1, count))


def test_a_checkpoint_of_another_position_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidCheckpointError, match="of another position"):
        Sweep.resumed(Search(deal(load_game(ACEY), 48)), a_checkpoint(), None)


def test_a_checkpoint_is_taken_only_at_a_pause_and_with_no_trace() -> None:
    lost = deal(load_game(ACEY), 194)
    with pytest.raises(ValueError, match="only between two stock cards"):
        Sweep(Search(lost), None, trace=False).checkpoint()
    traced = Sweep(Search(lost), None)
    traced.between = traced.checkpoint
    with pytest.raises(ValueError, match="with no trace"):
        traced.advance(1 << 62, lambda: None)


def test_a_checkpoint_that_fails_to_be_written_leaves_the_last_one_whole(tmp_path: Path) -> None:
    path = tmp_path / "194.checkpoint"
    checkpoint.write(path, a_checkpoint())
    before = path.read_bytes()
    broken = dataclasses.replace(a_checkpoint(70), waiting={9: (array("q", [1]), "not an array")})  # type: ignore[dict-item]
    with pytest.raises(AttributeError):
        checkpoint.write(path, broken)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def sweep_py(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SWEEP_PY), *args], capture_output=True, text=True)


def test_the_sweep_benchmark_keeps_its_checkpoint_and_takes_it_up_again(tmp_path: Path) -> None:
    path = tmp_path / "194.checkpoint"
    options = ["--deals", "194", "--room", "0", "--no-trace"]
    plain = sweep_py(*options)
    kept = sweep_py(*options, "--checkpoint", str(path), "--every", "0")
    assert plain.returncode == kept.returncode == 0, kept.stderr
    counts = plain.stdout.split("weight")[0]
    assert counts.split()[:3] == ["194", "unwinnable", "650"]
    assert kept.stdout.split("weight")[0] == counts
    assert f"kept in {str(path)!r}" in kept.stderr
    assert not path.exists()  # the sweep ended: nothing to go on from
    lost = deal(load_game(ACEY), 194)
    kept_at(lost, 60, path)
    taken_up = sweep_py(*options, "--checkpoint", str(path))
    assert taken_up.returncode == 0, taken_up.stderr
    assert taken_up.stdout.split("weight")[0] == counts
    assert f"resumed from {str(path)!r}" in taken_up.stderr
    assert not path.exists()


def test_the_sweep_benchmark_refuses_a_damaged_checkpoint_and_leaves_it(tmp_path: Path) -> None:
    path = tmp_path / "194.checkpoint"
    path.write_bytes(checkpoint.MAGIC + b"{not json\n")
    out = sweep_py("--deals", "194", "--room", "0", "--no-trace", "--checkpoint", str(path))
    assert out.returncode == 2 and not out.stdout
    assert f"the checkpoint {str(path)!r} is damaged or cut short" in out.stderr
    assert "Traceback" not in out.stderr
    assert path.read_bytes() == checkpoint.MAGIC + b"{not json\n"


def test_the_parts_benchmark_goes_on_from_a_checkpoint_and_stops_where_asked(tmp_path: Path) -> None:
    parts = SWEEP_PY.with_name("sweep_parts.py")
    path = tmp_path / "194.checkpoint"
    kept_at(deal(load_game(ACEY), 194), 60, path)
    kept, _ = checkpoint.read(path)

    def run(*args: str) -> list[str]:
        out = subprocess.run([sys.executable, str(parts), *args], capture_output=True, text=True)
        assert out.returncode == 0 and not out.stderr, out.stderr
        return out.stdout.splitlines()[0].split()[:3]

    rests = f"{650 - kept.counts['states']:,}"  # the rests swept after the checkpoint
    assert run("--deals", "194", "--from", str(path)) == ["194", "unwinnable", rests]
    assert run("--deals", "194", "--rests", "100") == ["194", "stopped", "100"]
    assert path.exists()  # read, never written
    for args, said in [
        (["--deals", "194,195", "--from", str(path)], "--from goes on with one deal's sweep"),
        (["--deals", "195", "--from", str(path)], "the checkpoint is of another position"),
        (["--deals", "194", "--from", str(tmp_path / "none")], "cannot read the checkpoint"),
        (["--deals", "194", "--rests", "0"], "--rests must be at least 1, not 0"),
    ]:
        out = subprocess.run([sys.executable, str(parts), *args], capture_output=True, text=True)
        assert out.returncode == 2 and not out.stdout and said in out.stderr
        assert "Traceback" not in out.stderr
