"""Start-up shortcuts of the command line change nothing a user sees (docs/performance.md)."""

from __future__ import annotations

import argparse

import pytest

from savenow.cli.main import _named_subcommand, _parser_for, build_parser, main


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


FULL = build_parser()
NAMES = sorted(_subcommands(FULL))


@pytest.mark.parametrize("name", NAMES)
def test_a_parser_built_for_one_subcommand_is_that_subcommand(name: str) -> None:
    parser = _parser_for([name])
    assert list(_subcommands(parser)) == [name]
    assert _subcommands(parser)[name].format_help() == _subcommands(FULL)[name].format_help()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["search", "x"], "search"),
        (["--lang", "zh", "get", "MEMORY.md"], "get"),
        (["--lang=zh", "list"], "list"),
        (["--help"], None),
        (["--version"], None),
        (["--la", "zh", "list"], None),  # an abbreviation: the full parser decides
        ([], None),
    ],
)
def test_the_subcommand_is_read_as_the_parser_reads_it(argv: list[str], expected: str | None) -> None:
    assert _named_subcommand(argv) == expected


@pytest.mark.parametrize(
    "argv",
    [
        ["serach", "x"],
        ["search", "--max-results", "many", "x"],
        ["compact", "stats"],
        ["objects", "nope"],
        ["--lang", "xx", "search", "x"],
        [],
    ],
)
def test_bad_command_lines_get_the_same_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as built_for_one:
        main(argv)
    one = capsys.readouterr()
    with pytest.raises(SystemExit) as full:
        build_parser().parse_args(argv)
    every = capsys.readouterr()
    assert built_for_one.value.code == full.value.code == 2
    assert one.err == every.err and one.out == every.out


def test_an_unknown_subcommand_lists_the_real_ones(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serach"])
    assert "invalid choice" in capsys.readouterr().err
