"""One option name per concept on the `ember` command line, the older spellings as hidden
aliases, `ember --help` grouped by what a user is doing, and `-g`/`-g0` on IR inputs as
`llc` and `clang -c x.ll` treat them."""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import pytest

from compiler import cli
from fuzz import findings as findings_mod
from fuzz.properties.model import BuildConfig
from tests.conftest import LLVM_BIN

#: argparse destination -> the one option string every command spells it with
CANONICAL = {
    "findings": "--findings",
    "seed": "--seed",
    "time_budget": "--time-budget",
    "jobs": "--jobs",
    "format": "--format",
}

#: (command line with an older spelling, the same with the current one)
ALIASES = [
    (["findings", "list", "--root", "D"], ["findings", "list", "--findings", "D"]),
    (["fuzz", "--max-seconds", "9"], ["fuzz", "--time-budget", "9"]),
    (["symtab", "x.o", "--json"], ["symtab", "x.o", "--format", "json"]),
]


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _visible_options(p: argparse.ArgumentParser) -> dict[str, list[str]]:
    """dest -> the option strings a command's --help shows for it."""
    out: dict[str, list[str]] = {}
    for a in p._actions:
        if a.option_strings and a.help != argparse.SUPPRESS:
            out.setdefault(a.dest, []).extend(a.option_strings)
    return out


def _misnamed(parser: argparse.ArgumentParser) -> list[str]:
    wrong = []
    for name, p in _subparsers(parser).items():
        for dest, strings in _visible_options(p).items():
            long = sorted({s for s in strings if s.startswith("--")})
            if dest in CANONICAL and long != [CANONICAL[dest]]:
                wrong.append(f"ember {name}: {'/'.join(long)} (want {CANONICAL[dest]})")
            for old in ("--root", "--max-seconds"):
                if old in strings:
                    wrong.append(f"ember {name}: {old} is shown")
    return wrong


def test_every_command_spells_a_concept_the_same_way() -> None:
    assert not _misnamed(cli.make_parser())


def test_the_naming_check_sees_a_second_spelling() -> None:
    parser = cli.make_parser()
    _subparsers(parser)["findings"].add_argument("--store", dest="findings")
    _subparsers(parser)["compare"].add_argument("--max-seconds", dest="other")
    assert _misnamed(parser) == ["ember findings: --findings/--store (want --findings)", "ember compare: --max-seconds is shown"]


def test_jobs_has_its_short_form_everywhere() -> None:
    for name, p in _subparsers(cli.make_parser()).items():
        strings = _visible_options(p).get("jobs")
        if strings:
            assert "-j" in strings, name


@pytest.mark.parametrize(("old", "new"), ALIASES, ids=lambda argv: " ".join(argv))
def test_an_older_spelling_still_parses_and_is_hidden(old: list[str], new: list[str]) -> None:
    parser = cli.make_parser()
    assert vars(parser.parse_args(old)) == vars(parser.parse_args(new))
    old_option = next(a for a in old if a.startswith("--"))
    assert old_option not in _subparsers(parser)[old[0]].format_help()


def test_findings_module_takes_the_store_either_way(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "store").mkdir()
    said = []
    for option in ("--findings", "--root"):
        assert findings_mod.main(["list", option, str(tmp_path / "store")]) == 0
        said.append(capsys.readouterr().out)
    assert said[0] == said[1] and said[0].strip()


def test_help_lists_commands_by_what_a_user_does() -> None:
    text = cli.make_parser().format_help()
    headings = [line for line in text.splitlines() if line.endswith(":") and not line.startswith(" ")]
    assert headings[headings.index("build:"):][:4] == ["build:", "test:", "triage:", "measure:"]
    section = {}
    current = ""
    for line in text.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            current = line[:-1]
        elif line.startswith("  ") and current not in ("", "options"):
            section[line.split()[0]] = current
    assert section["build"] == "build" and section["run"] == "build"
    assert section["fuzz"] == "test" and section["verify"] == "test"
    assert section["findings"] == "triage" and section["reduce"] == "triage"
    assert section["bench"] == "measure"
    assert set(section) == set(_subparsers(cli.make_parser())), "every command is listed exactly once"


def test_a_command_no_group_names_is_still_listed() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    sub.add_parser("build", help="b")
    sub.add_parser("newthing", help="n")
    text = cli.grouped_commands(sub)
    assert "build:\n  build" in text and "other:\n  newthing" in text


@pytest.mark.parametrize(("flags", "path", "kept"), [
    ([], "x.ll", True), ([], "x.bc", True), ([], "x.em", False), ([], "x.mlir", False),
    (["-g"], "x.em", True), (["-g0"], "x.ll", False), (["-g", "-g0"], "x.ll", False), (["-g0", "-g"], "x.bc", True),
])
def test_debug_info_default_follows_llc(flags: list[str], path: str, kept: bool) -> None:
    args = cli.make_parser(plugins=False).parse_args(["build", path, *flags])
    assert cli.keeps_debug_info(args.debug_info, args.input) is kept


DEBUG_LL = """\
define i32 @f(i32 %x) !dbg !5 {
  %y = add i32 %x, 1, !dbg !8
  ret i32 %y, !dbg !8
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "t", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 2, column: 3, scope: !5)
"""


def _sections(obj: Path) -> str:
    return subprocess.run([str(LLVM_BIN / "llvm-readelf"), "-S", str(obj)], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("split", ["none", "two-level"])
def test_an_ir_inputs_debug_info_is_kept_unless_g0(ember, tmp_path: Path, split: str) -> None:
    src = tmp_path / "t.ll"
    src.write_text(DEBUG_LL)
    llc = tmp_path / "llc.o"
    subprocess.run([str(LLVM_BIN / "llc"), "-filetype=obj", str(src), "-o", str(llc)], check=True)
    assert ".debug_info" in _sections(llc)  # what llc does, and what `ember build` must match
    for flags, want in (([], True), (["-g"], True), (["-g0"], False)):
        out = tmp_path / f"t{''.join(flags)}.o"
        r = ember("build", str(src), "--split", split, "-j", "2", *flags, "-o", str(out))
        assert r.status == 0, r.stderr
        assert (".debug_info" in _sections(out)) is want, flags


def test_a_findings_reproducer_command_builds_what_the_harness_built() -> None:
    """The harness builds with BuildOptions(debug_info=False): debug info of an IR input is
    dropped, so the command it prints for that build must say -g0."""
    plain, debug = BuildConfig(), BuildConfig(debug=True)
    assert plain.options().debug_info is False
    assert "-g0" in plain.command("input.ll", "out.o").split()
    assert "-g0" in plain.command("input.bc", "out.o").split()
    assert "-g0" not in plain.command("input.em", "out.o").split()  # no DWARF without -g anyway
    assert "-g" in debug.command("input.ll", "out.o").split() and "-g0" not in debug.command("input.ll", "out.o").split()
    args = cli.make_parser(plugins=False).parse_args(plain.command("input.ll", "out.o").split()[1:])
    assert cli.build_options(args, "obj").debug_info is plain.options().debug_info
