"""What ``report`` writes beside its database: never over it; ordinary files, or into the pipe or through the link named."""

from __future__ import annotations

import os
import stat
import subprocess
import threading
from pathlib import Path

import pytest

from test_cli import NO_NUL, NUL_NAME, assert_fails, script
from test_survey_cli import run


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("exports") / "fan.sqlite"
    done = run("survey", "fan", "--deals", "1-3", "--workers", "1", "--db", str(db), "--max-states", "20000")
    assert done.exit_code == 0, done.stderr
    return db


@pytest.mark.parametrize("option", ["--solutions", "--csv", "--plot"])
def test_report_will_not_write_over_its_database(results: Path, option: str) -> None:
    before = results.read_bytes()
    other = str(results.parent / ".." / results.parent.name / results.name)  # another path to it
    assert_fails(run("report", "fan", "--db", str(results), option, other), 2, "is the results database")
    assert results.read_bytes() == before


@pytest.mark.parametrize("option", ["--solutions", "--csv", "--plot"])
def test_an_export_whose_name_holds_a_null_character_is_refused_in_one_line(
    results: Path, option: str
) -> None:
    name = NUL_NAME.replace(".json", ".png")
    said = f"cannot write {name!r}: {NO_NUL}; nothing was written"
    assert_fails(run("report", "fan", "--db", str(results), option, name), 2, said)


@pytest.mark.parametrize("companion", ["-wal", "-shm", "-journal"])
def test_report_will_not_write_over_the_files_sqlite_keeps_beside_its_database(
    results: Path, companion: str
) -> None:
    beside = f"{results}{companion}"
    assert_fails(
        run("report", "fan", "--db", str(results), "--csv", beside),
        2,
        f"the results database's {companion} file",
    )
    assert not os.path.exists(beside)


def test_report_will_not_write_two_outputs_to_one_file(results: Path, tmp_path: Path) -> None:
    out = str(tmp_path / "out.jsonl")
    assert_fails(
        run("report", "fan", "--db", str(results), "--solutions", out, "--csv", out), 2, "written over"
    )
    assert not os.path.exists(out)


def test_exports_follow_the_umask_and_keep_a_replaced_file_s_permissions(
    results: Path, tmp_path: Path
) -> None:
    out = tmp_path / "wins.jsonl"
    old = os.umask(0o022)
    try:
        assert run("report", "fan", "--db", str(results), "--solutions", str(out)).exit_code == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o644
        out.chmod(0o640)
        assert run("report", "fan", "--db", str(results), "--solutions", str(out)).exit_code == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o640
    finally:
        os.umask(old)


def test_an_export_through_a_link_replaces_the_file_it_names_and_keeps_the_link(
    results: Path, tmp_path: Path
) -> None:
    target, link = tmp_path / "kept.csv", tmp_path / "link.csv"
    target.write_text("old\n")
    link.symlink_to(target.name)
    assert run("report", "fan", "--db", str(results), "--csv", str(link)).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text().startswith("deal,verdict,")


def test_an_export_to_a_pipe_is_written_into_it_and_leaves_it_a_pipe(results: Path, tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(pipe.read_bytes()))
    reader.start()
    assert run("report", "fan", "--db", str(results), "--csv", str(pipe)).exit_code == 0
    reader.join(timeout=30)
    assert stat.S_ISFIFO(pipe.stat().st_mode)
    assert read and read[0].decode().splitlines()[0].startswith("deal,verdict,")


@pytest.mark.parametrize(
    ("game", "deals", "words"),
    [
        (
            "alexander-the-great",
            "1-3",
            "no deal of alexander-the-great in 1-3 to write: this database holds fan",
        ),
        (
            "fan",
            "500-600",
            "no deal of fan in 500-600 to write: this database holds 3 deals of fan, from 1 to 3",
        ),
    ],
)
def test_an_export_of_nothing_surveyed_is_refused_and_leaves_the_file_as_it_was(
    results: Path, tmp_path: Path, game: str, deals: str, words: str
) -> None:
    kept = tmp_path / "kept.jsonl"
    kept.write_text("the last export\n")
    result = run("report", game, "--db", str(results), "--deals", deals, "--solutions", str(kept))
    assert_fails(result, 2, words)
    assert kept.read_text() == "the last export\n"


def test_an_export_named_dash_goes_to_standard_output_and_the_report_to_standard_error(results: Path) -> None:
    result = run("report", "fan", "--db", str(results), "--csv", "-")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].startswith("deal,verdict,")
    assert "csv            3 deals written to standard output" in result.stderr.splitlines()
    both = run("report", "fan", "--db", str(results), "--csv", "-", "--solutions", "-")
    assert_fails(both, 2, "--csv '-' is the --solutions file too")


def test_an_export_to_standard_output_sent_on_to_a_file_is_added_to_it_not_written_over(
    results: Path, tmp_path: Path
) -> None:
    log = tmp_path / "log.csv"
    log.write_text("the line before\n")
    command = f"cardtable report fan --db {results} --csv /dev/stdout >> {log}"
    done = subprocess.run(
        ["sh", "-c", command], capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"}
    )
    assert done.returncode == 0, done.stderr
    lines = log.read_text().splitlines()
    assert lines[0] == "the line before" and lines[1].startswith("deal,verdict,") and len(lines) == 5
    assert "csv            3 deals written to /dev/stdout" in done.stderr, "the report beside it, not in it"


def test_an_export_that_fails_says_what_was_written_before_it(results: Path, tmp_path: Path) -> None:
    wins, folder = tmp_path / "wins.jsonl", tmp_path / "a-folder"
    folder.mkdir()
    result = run("report", "fan", "--db", str(results), "--solutions", str(wins), "--csv", str(folder))
    assert_fails(result, 2, f"cannot write {str(folder)!r}: is a directory; only {str(wins)!r} was written")
    if Path("/dev/full").exists():
        streamed = run("report", "fan", "--db", str(results), "--solutions", "-", "--csv", "/dev/full")
        assert_fails(
            streamed, 2, "cannot write '/dev/full': no space left on device; only standard output was written"
        )


@pytest.mark.parametrize("option", ["--solutions", "--csv"])
def test_an_export_to_standard_output_stopped_by_a_closed_pipe_ends_quietly_as_every_command_does(
    results: Path, option: str
) -> None:
    reading, writing = os.pipe()
    os.close(reading)  # as after '| head -1' has read its line
    try:
        done = subprocess.run(
            [script(), "report", "fan", "--db", str(results), option, "-"],
            stdout=writing,
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        os.close(writing)
    assert (done.returncode, done.stderr) == (1, "")
