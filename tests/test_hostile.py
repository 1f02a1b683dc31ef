"""Hostile input, interruption and runaway processes: one test per class of defect.

Nothing lost (no output clobbers an input; devices, FIFOs and symlinks survive `-o`; modes
follow the umask), nothing left behind (no child outlives the driver, whatever signal hits
it and whenever), and no traceback or exit 70 for bad usage or broken findings.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import psutil
import pytest

from compiler.backend import pool
from fuzz import findings
from fuzz.genmodule import ModuleShape, generate
from oracle import symtab
from tests.conftest import ember_subprocess

MAIN_LL = "define i32 @main() {\n  ret i32 0\n}\n"
PROG_EM = "def main() -> Int:\n    print(1)\n    return 0\n"
FORKS_AND_SLEEPS = """declare i32 @fork()
declare i32 @sleep(i32)
define i32 @main() {
  %a = call i32 @fork()
  %b = call i32 @fork()
  %s = call i32 @sleep(i32 SECONDS)
  ret i32 0
}
"""
EMBER = [sys.executable, "-m", "compiler.cli"]


def _argv_id(argv: list[str]) -> str:
    """A readable test id: the command line with placeholders."""
    return " ".join(argv)


def _one_line(stderr: str) -> str:
    """The one error line (argparse's own errors come after its usage lines)."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    if lines and lines[0].startswith("usage:"):
        lines = lines[-1:]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    return lines[0]


@pytest.fixture
def files(tmp_path: Path) -> SimpleNamespace:
    """A module, a program and an interestingness script, each with its bytes recorded."""
    ll = tmp_path / "in.ll"
    ll.write_text(MAIN_LL)
    em = tmp_path / "prog.em"
    em.write_text(PROG_EM)
    script = tmp_path / "t.sh"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    return SimpleNamespace(ll=ll, em=em, script=script, dir=tmp_path)


# ------------------------------------------------------------------ outputs: nothing lost


def _clobber_cases(f: SimpleNamespace) -> list[tuple[list[str], Path]]:
    """(command, the input it must not overwrite) for every command that takes -o."""
    (f.dir / "link.ll").symlink_to(f.ll)
    os.link(f.em, f.dir / "hard.em")
    return [
        (["build", str(f.ll), "-o", str(f.ll)], f.ll),
        (["build", str(f.ll), "--emit", "llvm", "-o", str(f.dir / "link.ll")], f.ll),
        (["build", str(f.em), "--emit", "mlir", "-o", str(f.em)], f.em),
        (["build", str(f.em), "--emit", "asm", "-o", str(f.dir / "hard.em")], f.em),
        (["reduce", str(f.ll), "-o", str(f.ll), "--test", str(f.script)], f.ll),
        (["reduce", str(f.ll), "-o", str(f.script), "--test", str(f.script)], f.script),
        (["reduce", str(f.ll), "-o", str(f.dir / "x"), "--test", str(f.script)], f.ll),  # x.report.txt -> in.ll
    ]


def test_no_output_overwrites_an_input(ember, files: SimpleNamespace) -> None:
    (files.dir / "x.report.txt").symlink_to(files.ll)  # reduce's report would land on the input
    for argv, victim in _clobber_cases(files):
        before = victim.read_bytes()
        r = ember(*argv)
        assert r.status == 2, (argv, r)
        assert "refusing to overwrite" in _one_line(r.stderr), argv
        assert victim.read_bytes() == before, argv


@pytest.mark.parametrize("argv", [["build", "{ll}", "-o", ""], ["reduce", "{ll}", "-o", "", "--test", "{script}"],
                                  ["build", "{ll}", "-o", "{dir}"]], ids=_argv_id)
def test_bad_output_paths_are_usage_errors(ember, files: SimpleNamespace, argv: list[str]) -> None:
    r = ember(*(a.format(**vars(files)) for a in argv))
    assert r.status == 2
    assert _one_line(r.stderr).startswith("ember: error: -o")


def _private_null(directory: Path) -> Path:
    """A character device like /dev/null of our own (a regression must not replace the machine's)."""
    node = directory / "null"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except OSError:
        pytest.skip("cannot create a device node here")
    return node


def test_output_writes_through_devices_fifos_and_symlinks(ember, files: SimpleNamespace) -> None:
    null = _private_null(files.dir)
    r = ember("build", str(files.ll), "-o", str(null))
    assert r.status == 0 and stat.S_ISCHR(os.stat(null).st_mode)
    real = files.dir / "real.s"
    (files.dir / "sym.s").symlink_to(real)
    assert ember("build", str(files.ll), "--emit", "asm", "-o", str(files.dir / "sym.s")).status == 0
    assert (files.dir / "sym.s").is_symlink() and "main:" in real.read_text()
    fifo = files.dir / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    assert ember("build", str(files.ll), "--emit", "asm", "-o", str(fifo)).status == 0
    assert b"main:" in reader.communicate(timeout=30)[0]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    r = ember("build", str(files.ll), "--emit", "llvm", "-o", "-")
    assert r.status == 0 and "define" in r.stdout
    log = files.dir / "log.txt"
    log.write_text("kept\n")
    with log.open("a") as appended:  # `>> log.txt`: /dev/stdout is the descriptor, not a file to replace
        subprocess.run([*EMBER, "build", str(files.ll), "--emit", "llvm", "-o", "/dev/stdout"], stdout=appended, check=True)
    assert log.read_text().startswith("kept\n; ModuleID")


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_outputs_and_findings_follow_the_umask(ember, files: SimpleNamespace, monkeypatch: pytest.MonkeyPatch, umask: int) -> None:
    old = os.umask(umask)
    try:
        out = files.dir / "out.o"
        assert ember("build", str(files.ll), "-o", str(out)).status == 0
        monkeypatch.setattr(findings, "digest_of", lambda report: "0123456789ab")
        monkeypatch.setattr(findings, "_write", lambda tmp, *a, **k: (tmp / "finding.json").write_text("{}"))
        saved = findings.save(SimpleNamespace(classification="test"), root=files.dir / "store")  # type: ignore[arg-type]
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
    assert stat.S_IMODE(saved.stat().st_mode) == 0o777 & ~umask


@pytest.mark.parametrize("argv", [["build", "{ll}", "--emit", "asm", "-o", "-"], ["interp", "{em}"],
                                  ["run", "{em}", "--split", "none"]], ids=_argv_id)
def test_closed_stdout_is_an_error_not_a_crash(files: SimpleNamespace, argv: list[str]) -> None:
    r = subprocess.run([*EMBER, *(a.format(**vars(files)) for a in argv)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1))
    assert r.returncode == 1
    assert "cannot write output" in _one_line(r.stderr)


# ------------------------------------------------------------------ usage and broken inputs: no exit 70


@pytest.mark.parametrize("argv", [
    ["interp", "{em}", "--max-depth", "40000000"],
    ["bench", "--sizes", "abc"],
    ["bench", "--jobs", "0"],
    ["compare", "{ll}", "--candidate", "true"],
    ["compare", "{ll}", "--candidate", "cp {{in}} {{out}}", "--findings", "{ll}"],
    ["fuzz", "--findings", "{ll}", "--examples", "1"],
    ["run", "{em}", "--timeout", "nan"],
    ["run", "{em}", "--timeout", "0"],
    ["run", "{em}", "--timeout", "-1"],
    ["reduce", "{ll}", "-o", "{dir}/r.ll", "--test", "{dir}/missing.sh"],
    ["reduce", "{ll}", "-o", "{dir}/r.ll", "--test", "{dir}/plain.sh"],
    ["reduce", "{ll}", "-o", "{dir}/r.ll", "--test", "{dir}/noshebang.sh"],
    ["reduce", "{ll}", "-o", "-", "--test", "{script}"],
    ["reduce", "{ll}", "-o", "{dir}/r.ll", "--test", "{script}", "--time-budget", "-1"],
    ["build", "{ll}", "--save-pieces", "{ll}", "-o", "{dir}/o.o"],
    ["bench", "--sizes", "99999999999999999999"],
    ["bench", "--corpus", "cjson", "--repeats", "0"],
    ["fuzz", "--time-budget", "nan"],
    ["fuzz", "--max-seconds", "nan"],  # the older spelling
    ["fuzz", "--lanes", "0"],
    ["fuzz", "--lanes", "many"],
    ["findings", "list", "--findings", "{ll}"],
    ["findings", "list", "--root", "{ll}"],  # the older spelling
    ["verify", "--timeout", "-5"],
], ids=_argv_id)
def test_bad_usage_exits_2_with_one_line(files: SimpleNamespace, argv: list[str]) -> None:
    (files.dir / "plain.sh").write_text("#!/bin/sh\nexit 0\n")
    (files.dir / "noshebang.sh").write_bytes(b"\x7fELF garbage")
    (files.dir / "noshebang.sh").chmod(0o755)
    r = ember_subprocess(*(a.format(**vars(files)) for a in argv))
    assert r.returncode == 2, (argv, r.stderr)
    assert "error" in _one_line(r.stderr)


@pytest.mark.parametrize("argv", [["fuzz", "--examples", "1", "--no-database"], ["findings", "list"],
                                  ["compare", "{ll}", "--candidate", "cp {{in}} {{out}}"]], ids=_argv_id)
def test_a_findings_variable_naming_a_file_is_bad_usage_before_any_work(files: SimpleNamespace, argv: list[str]) -> None:
    r = subprocess.run([*EMBER, *(a.format(**vars(files)) for a in argv)], capture_output=True, text=True,
                       env={**os.environ, "EMBER_FINDINGS": str(files.ll)})
    assert r.returncode == 2 and "seed" not in r.stdout, (argv, r.stderr)
    assert _one_line(r.stderr) == f"ember: error: $EMBER_FINDINGS {files.ll}: not a directory"


def test_a_bad_lanes_variable_is_one_line_before_any_work(ember, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBER_CHECK_LANES", "lots")
    r = ember("fuzz", "--examples", "1", "--no-database")
    assert r.status == 1 and "seed" not in r.stdout  # said before the campaign starts
    assert _one_line(r.stderr) == "ember: error: EMBER_CHECK_LANES must be a whole number of at least 1, not 'lots'"


@pytest.mark.parametrize("suffix", [".ll", ".mlir", ".em"])
def test_binary_inputs_are_located_errors(ember, tmp_path: Path, suffix: str) -> None:
    src = tmp_path / f"bin{suffix}"
    src.write_bytes(b"; ok\n\x00\x01garbage")  # LLVM and MLIR would read only up to the NUL
    r = ember("build", str(src), "-o", str(tmp_path / "o.o"))
    assert r.status == 1
    assert _one_line(r.stderr) == f"{src}:2:1: error: not a text file (NUL byte at byte 5)"


def test_run_parses_its_options_before_the_program_arguments(files: SimpleNamespace) -> None:
    from compiler import cli

    ours, theirs = cli.split_program_args(["run", "p.em", "--timeout", "5", "-O0", "--", "-x", "--timeout", "1"])
    args = cli.make_parser().parse_args(ours)
    assert args.timeout == 5 and args.opt_level == 0 and theirs == ["-x", "--timeout", "1"]
    r = ember_subprocess("run", str(files.em), "--timeout", "5", "-O0")
    assert r.returncode == 0 and r.stdout == "1\n", r.stderr


BROKEN_FINDINGS = {
    "empty": b"",
    "binary": b"\x00\xff\xfe\x13",
    "object-less": b"[1, 2]",
    "empty-object": b"{}",
    "invalid": b'{"id": ',
    "missing": None,
}


@pytest.mark.parametrize("kind", sorted(BROKEN_FINDINGS))
def test_broken_findings_are_named_not_crashed_on(ember, tmp_path: Path, kind: str) -> None:
    finding = tmp_path / f"2026-{kind}"
    finding.mkdir()
    content = BROKEN_FINDINGS[kind]
    if content is not None:
        (finding / "finding.json").write_bytes(content)
    for argv in (["findings", "show", str(finding)], ["findings", "reproduce", str(finding)],
                 ["reduce", str(finding), "-o", str(tmp_path / "r.ll")]):
        r = ember(*argv)
        assert r.status == 1, (argv, r)
        assert _one_line(r.stderr).startswith(f"{finding / 'finding.json'}"), argv
    listed = ember("findings", "list", "--findings", str(tmp_path))
    assert listed.status == 0
    assert f"2026-{kind}" in listed.stdout and "CORRUPT" in listed.stdout


GOOD_PLAN = {"opt": 2, "cost": None, "opt_check": False,
             "configs": [{"split": "two-level", "jobs": 1, "opt": 2, "cost": None, "candidate": None, "piece_cost": None}]}
#: finding.json fields as a damaged or hand-edited finding has them, and the words that say what is wrong
MALFORMED_META = {
    "plan-text": ({"plan": "x"}, "plan: expected an object, got text"),
    "plan-null": ({"plan": None}, "plan: expected an object, got null"),
    "configs-text": ({"plan": {**GOOD_PLAN, "configs": "abc"}}, "plan.configs: expected a list, got text"),
    "config-number": ({"plan": {**GOOD_PLAN, "configs": [1]}}, "plan.configs[0]: expected an object, got a number"),
    "opt-text": ({"plan": {**GOOD_PLAN, "opt": "2"}}, "plan.opt: expected an optimisation level 0..3, got '2'"),
    "opt-9": ({"plan": {**GOOD_PLAN, "configs": [{"split": "none", "opt": 9}]}}, "plan.configs[0].opt: expected an optimisation level"),
    "split-bogus": ({"plan": {**GOOD_PLAN, "configs": [{"split": "bogus"}]}}, "plan.configs[0].split: expected one of none,"),
    "jobs-negative": ({"plan": {**GOOD_PLAN, "configs": [{"split": "two-level", "jobs": -3}]}}, "plan.configs[0].jobs: expected a whole"),
    "jobs-bool": ({"plan": {**GOOD_PLAN, "configs": [{"split": "two-level", "jobs": True}]}}, "plan.configs[0].jobs: expected a whole"),
    "unknown-field": ({"plan": {**GOOD_PLAN, "configs": [{"split": "two-level", "bogus": 1}]}}, "plan.configs[0]: unknown field 'bogus'"),
    "candidate-template": ({"plan": {**GOOD_PLAN, "configs": [{"candidate": "cc {in"}]}}, "plan.configs[0].candidate: "),
    "opt-check-text": ({"plan": {**GOOD_PLAN, "opt_check": "no"}}, "plan.opt_check: expected true or false"),
    "faults-number": ({"faults": 5}, "faults: expected a list of names, got 5"),
    "classifications-number": ({"classifications": 3}, "classifications: expected a list of names"),
    "origin-number": ({"origin": 5}, "origin: expected text, got 5"),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED_META))
def test_malformed_finding_fields_are_named_not_crashed_on(ember, tmp_path: Path, kind: str) -> None:
    """Valid JSON with a damaged field: show, reproduce and reduce say which field, list marks it."""
    fields, said = MALFORMED_META[kind]
    finding = tmp_path / f"2026-{kind}"
    finding.mkdir()
    meta = {"schema": 1, "id": finding.name, "classification": "crash", "plan": GOOD_PLAN, "reproduce": "x", **fields}
    (finding / "finding.json").write_text(json.dumps(meta))
    (finding / "input.ll").write_text(MAIN_LL)
    for argv in (["findings", "show", str(finding)], ["findings", "reproduce", str(finding)],
                 ["reduce", str(finding), "-o", str(tmp_path / "r.ll")]):
        r = ember(*argv)
        assert r.status == 1, (argv, r)
        assert _one_line(r.stderr).startswith(f"{finding / 'finding.json'}: error: corrupt finding: {said}"), (argv, r.stderr)
    listed = ember("findings", "list", "--findings", str(tmp_path))
    assert listed.status == 0 and "CORRUPT" in listed.stdout and said in listed.stdout


@pytest.mark.parametrize(("name", "data", "said"), [
    ("random.ll", bytes(range(128, 256)) * 16, ":1:1: error: not UTF-8 text"),
    ("garbage.ll", b"garbage\n", ":1:1: error: expected top-level entity"),
    ("random.bc", bytes(range(256)) * 4, ": error: invalid bitcode"),
    ("missing.ll", None, ": error: no such file"),
])
def test_bench_names_a_bad_input_before_measuring(ember, tmp_path: Path, name: str, data: bytes | None, said: str) -> None:
    src = tmp_path / name
    if data is not None:
        src.write_bytes(data)
    r = ember("bench", str(src), "--sizes", "", "--jobs", "1")
    assert r.status == 1 and r.stdout == ""  # said before the first (serial) build is measured
    assert _one_line(r.stderr).startswith(f"{src}{said}"), r.stderr


@pytest.mark.parametrize("option", ["--json", "--plot"])
def test_bench_refuses_a_report_path_it_could_not_write_at_the_end(ember, files: SimpleNamespace, option: str) -> None:
    where = files.dir / "no-such-dir" / "out"
    r = ember("bench", str(files.ll), "--sizes", "", "--jobs", "1", option, str(where))
    assert r.status == 2 and r.stdout == ""
    assert _one_line(r.stderr) == f"ember: error: {option} {where}: no such directory: {where.parent}"


def test_a_damaged_corpus_source_is_one_located_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The corpus cache (`$EMBER_CORPUS_CACHE`) holds a source that no longer compiles."""
    from compiler.diagnostics import EmberError
    from fuzz import corpus

    if shutil.which(corpus.CLANG) is None:
        pytest.skip(f"{corpus.CLANG} not installed")
    monkeypatch.setattr(corpus, "CACHE", tmp_path)
    (tmp_path / "corpus" / "src" / "broken").mkdir(parents=True)
    (tmp_path / "corpus" / "src" / "broken" / "main.c").write_text("int main(void) { return 0; }\ngarbage {{{\n")
    program = corpus.Program("broken", "test", "corpus/src/broken", ("main.c",))
    with pytest.raises(EmberError) as caught:
        corpus.module_path(program)
    rendered = caught.value.render()
    assert rendered.startswith(f"{tmp_path / 'corpus/src/broken/main.c'}:2:1: error: ") and "\n" not in rendered


def test_reduce_jobs_are_capped(ember, files: SimpleNamespace) -> None:
    r = ember("reduce", str(files.ll), "-o", str(files.dir / "r.ll"), "--test", str(files.script), "-j", "100000")
    assert r.status == 0, r.stderr
    assert f"-j 100000 capped at {pool.MAX_JOBS}" in r.stderr


def test_tv_fails_when_a_public_function_disappears(ember, tmp_path: Path) -> None:
    body = "(%x: i32) -> i32 {\n  return %x : i32\n}\n"
    src = tmp_path / "a.mlir"
    src.write_text(f"func.func @f{body}func.func private @g{body}func.func @h{body}")
    tgt = tmp_path / "b.mlir"
    tgt.write_text(f"func.func @h{body}")
    r = ember("verify", "--tv", str(src), "--target", str(tgt))
    assert r.status == 1 and "WRONG    @f" in r.stdout and "skipped  @g" in r.stdout


def test_deeply_nested_pattern_file_is_a_diagnostic(ember, tmp_path: Path) -> None:
    pat = tmp_path / "deep.pat"
    pat.write_text("deep: " + "addi(" * 3000 + "x, y" + ")" * 3000 + " => x\n")
    r = ember("verify", "--pattern-file", str(pat))
    assert r.status == 1 and "nested more than" in _one_line(r.stderr)


VALID = {".ll": MAIN_LL, ".em": PROG_EM, ".mlir": "func.func @main() -> i32 {\n  %c = arith.constant 0 : i32\n  return %c : i32\n}\n"}


def _hostile_bytes(suffix: str) -> dict[str, bytes]:
    """Broken versions of a valid input: what a careless user or a damaged disk hands us."""
    good = VALID[suffix].encode()
    return {
        "empty": b"",
        "garbage": bytes(range(256)) * 8,
        "non-utf8": good[:10] + b"\xff\xfe\x80" + good[10:],
        "nul": good[:12] + b"\0" + good[12:],
        "truncated": good[: len(good) // 2],
        "bom": b"\xef\xbb\xbf" + good,
        "crlf": good.replace(b"\n", b"\r\n"),
        "elf": Path(sys.executable).read_bytes()[:65536],
        "long-line": b"; " + b"x" * 1_000_000 + b"\n" + good,
    }


def _commands_on(path: Path, out: Path) -> list[list[str]]:
    """Every command that reads a source or module, on `path`."""
    cmds = [["build", str(path), "-o", str(out)], ["build", str(path), "--split", "none", "--emit", "asm", "-o", str(out)],
            ["run", str(path), "--split", "none", "--timeout", "20"]]
    if path.suffix == ".em":
        cmds.append(["interp", str(path)])
    if path.suffix != ".mlir":
        cmds.append(["reduce", str(path), "-o", str(out.with_suffix(path.suffix)), "--property", "crash", "--time-budget", "10"])
    if path.suffix == ".ll":
        cmds += [["symtab", str(path)], ["symdiff", str(path), str(path)]]
    if path.suffix == ".mlir":
        cmds.append(["verify", "--tv", str(path), "--pass-pipeline", "builtin.module(canonicalize)"])
    return cmds


@pytest.mark.parametrize("suffix", sorted(VALID))
def test_every_command_meets_broken_files_with_one_located_line(ember, tmp_path: Path, suffix: str) -> None:
    """Each broken file through each command: it works, or one line naming the file; never exit
    70 or a traceback, and the input is left as it was."""
    cases = {**_hostile_bytes(suffix), "missing": None, "directory": None}
    for kind, data in cases.items():
        path = tmp_path / f"{kind}{suffix}"
        if data is not None:
            path.write_bytes(data)
        elif kind == "directory":
            path.mkdir()
        for argv in _commands_on(path, tmp_path / f"out-{kind}.o"):
            r = ember(*argv)
            what = f"{kind}: ember {' '.join(argv)}"
            assert r.status not in (70,) and "Traceback" not in r.stderr and "internal error" not in r.stderr, (what, r.stderr)
            if r.status not in (0, 1):  # 1: an error or a finding; the rest are the program's own statuses
                assert argv[0] == "run", (what, r.status, r.stderr)
            if r.status == 1 and argv[0] != "reduce" or argv[0] == "reduce" and r.status != 0:
                assert str(path) in _one_line(r.stderr), what
            if data is not None:
                assert path.read_bytes() == data, what


# ------------------------------------------------------------------ processes: nothing left behind


def test_a_pool_broken_while_idle_never_fails_the_next_build(tmp_path: Path) -> None:
    from compiler import driver

    src = tmp_path / "m.ll"
    src.write_text(generate(3, ModuleShape(functions=12)))
    options = driver.BuildOptions(split="two-level", jobs=2)
    first = driver.build(str(src), options).output
    for race in (False, True):  # noticed as broken before the next submit, or not yet
        for pid in pool.worker_pids(2):
            os.kill(pid, signal.SIGKILL)
        if not race:
            time.sleep(0.5)
        assert driver.build(str(src), options).output == first


def test_absurd_job_counts_are_capped(ember, files: SimpleNamespace) -> None:
    r = ember("build", str(files.ll), "-j", "100000", "-o", str(files.dir / "o.o"))
    assert r.status == 0 and f"capped at {pool.MAX_JOBS}" in r.stderr
    assert all(n <= pool.MAX_JOBS for n in pool.pool_sizes())
    assert pool.capped_jobs(100000) == pool.MAX_JOBS and pool.capped_jobs(0) == 1


def test_a_small_build_starts_no_more_workers_than_pieces(ember, files: SimpleNamespace) -> None:
    pool.shutdown()  # a fresh pool for the largest -j, as in a new `ember build`
    r = ember("build", str(files.ll), "--split", "two-level", "-j", str(pool.MAX_JOBS), "-o", str(files.dir / "o.o"))
    assert r.status == 0, r.stderr
    # one function: one subgraph, then the final assembly, one after the other
    assert 1 <= len(pool.worker_pids(pool.MAX_JOBS)) <= 2


def _first_child(pid: int, limit_s: float = 30.0) -> None:
    """Wait until `pid` has started a child (its worker pool)."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        with contextlib.suppress(psutil.NoSuchProcess):
            if psutil.Process(pid).children():
                return
        time.sleep(0.02)


def _descendants(
    pid: int, wait_s: float, until: Callable[[list[psutil.Process]], bool] | None = None
) -> list[psutil.Process]:
    """The process tree under `pid` after `wait_s` seconds (sampled, so late starters count);
    with `until`, as soon as it holds for the tree (`wait_s` is then only the limit, so a
    loaded machine that starts the program late does not fail the test)."""
    seen: dict[int, psutil.Process] = {}
    end = time.monotonic() + wait_s
    while time.monotonic() < end:
        try:
            for child in psutil.Process(pid).children(recursive=True):
                seen.setdefault(child.pid, child)
        except psutil.NoSuchProcess:
            break
        if until is not None and until(list(seen.values())):
            break
        time.sleep(0.05)
    return list(seen.values())


def _processes(pids: list[int]) -> list[psutil.Process]:
    """Those of `pids` that still exist."""
    out = []
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess):
            out.append(psutil.Process(pid))
    return out


def _running(p: psutil.Process) -> bool:
    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _names(procs: list[psutil.Process]) -> list[str]:
    """Names of those still running."""
    names = []
    for p in procs:
        with contextlib.suppress(psutil.NoSuchProcess):
            names.append(p.name())
    return names


def _survivors(procs: list[psutil.Process], grace_s: float = 5.0) -> list[psutil.Process]:
    deadline = time.monotonic() + grace_s
    alive = procs
    while alive and time.monotonic() < deadline:
        alive = [p for p in alive if _running(p)]
        time.sleep(0.1)
    return alive


@pytest.fixture(scope="module")
def big_module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.ll"
    path.write_text(generate(1, ModuleShape(functions=600)))
    return path


KILLS = [(signal.SIGINT, 0.4), (signal.SIGTERM, 1.2), (signal.SIGKILL, 0.8), (signal.SIGINT, 2.0), (signal.SIGKILL, 2.5)]


@pytest.mark.parametrize(("sig", "after"), KILLS, ids=[f"{s.name}@{t}s" for s, t in KILLS])
def test_no_child_outlives_a_killed_build(big_module: Path, tmp_path: Path, sig: signal.Signals, after: float) -> None:
    proc = subprocess.Popen([*EMBER, "build", str(big_module), "-j", "2", "-o", str(tmp_path / "o.o")],
                            stderr=subprocess.PIPE, text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    _first_child(proc.pid)  # past Python's start-up (a signal before that is Python's own business)
    tree = _descendants(proc.pid, after)
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=30)
    assert _survivors(tree) == []
    if sig != signal.SIGKILL and proc.returncode != 0:  # (it may have finished first)
        # 130/143 once ember handles the signal; -sig if it came before Python was up
        assert proc.returncode in ({signal.SIGINT: 130, signal.SIGTERM: 143}[sig], -sig)
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
def test_no_child_of_the_program_outlives_ember_run(tmp_path: Path, sig: signal.Signals) -> None:
    src = tmp_path / "forks.ll"
    src.write_text(FORKS_AND_SLEEPS.replace("SECONDS", "300"))
    proc = subprocess.Popen([*EMBER, "run", str(src), "--split", "none", "--timeout", "60"], stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    tree = _descendants(proc.pid, 60.0, until=lambda t: _names(t).count("prog") == 4)  # (a loaded machine links late)
    assert _names(tree).count("prog") == 4  # the program and its three forks are running
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    assert _survivors(tree) == []


def test_orphans_of_a_normal_run_are_killed(tmp_path: Path) -> None:
    """The program returns at once but leaves three forked children sleeping 300 s."""
    src = tmp_path / "forks.ll"
    src.write_text(FORKS_AND_SLEEPS.replace("%s = call i32 @sleep(i32 SECONDS)", "%c = icmp eq i32 %a, 0")
                   .replace("  ret i32 0\n}", "  br i1 %c, label %kid, label %done\nkid:\n  %z = call i32 @sleep(i32 300)\n"
                            "  ret i32 0\ndone:\n  ret i32 0\n}"))
    proc = subprocess.Popen([*EMBER, "run", str(src), "--split", "none"], stderr=subprocess.PIPE, text=True)
    tree = _descendants(proc.pid, 3.0)
    proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert _survivors(tree) == []


@pytest.mark.parametrize("after", [0.02, 0.05, 0.08, 0.1, 0.12, 0.14, 0.17, 0.2, 0.3, 0.5])
def test_ctrl_c_at_any_moment_of_start_up_is_one_line(files: SimpleNamespace, after: float) -> None:
    """While the compiler's modules import, the parser is built or the pool starts: one line, 130.
    Only Python's own start-up, before any of Ember's code runs, is excused (its fatal error)."""
    console_script = Path(sys.executable).parent / "ember"
    proc = subprocess.Popen([str(console_script), "build", str(files.ll), "-o", str(files.dir / "o.o")],
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    # site.py runs the editable install's .pth line before Ember's code; interrupted there it prints
    # "Error processing line 1 of ....pth" and goes on: that is Python's start-up too
    python_starting = ("Fatal Python error", "'import warnings' failed", "Failed checking if argv[0] is an import path entry",
                       "Error processing line")
    if any(m in err for m in python_starting) or proc.returncode == -signal.SIGINT:
        return  # the interpreter was still starting (setting up sys.path), before any of Ember's code
    assert proc.returncode in (0, 130), err
    assert err.strip() in ("", "ember: interrupted"), err


ESCAPES_THE_GROUP = """declare i32 @fork()
declare i32 @setsid()
declare i32 @sleep(i32)
define i32 @main() {
  %a = call i32 @fork()
  %c = icmp eq i32 %a, 0
  br i1 %c, label %kid, label %parent
kid:
  %s = call i32 @setsid()
  %z = call i32 @sleep(i32 300)
  ret i32 0
parent:
  %w = call i32 @sleep(i32 PARENT_SECONDS)
  ret i32 0
}
"""


@pytest.mark.parametrize("how", ["exit", "SIGTERM", "SIGKILL"])
def test_a_child_that_leaves_the_process_group_is_still_killed(tmp_path: Path, how: str) -> None:
    """The program's child calls setsid (out of the group ember kills); it must die all the same,
    when the program returns, and when ember itself is terminated or killed outright."""
    src = tmp_path / "escape.ll"
    src.write_text(ESCAPES_THE_GROUP.replace("PARENT_SECONDS", "2" if how == "exit" else "300"))
    proc = subprocess.Popen([*EMBER, "run", str(src), "--split", "none", "--timeout", "60"], stderr=subprocess.PIPE,
                            text=True)
    tree = _descendants(proc.pid, 60.0, until=lambda t: _names(t).count("prog") == 2)
    assert _names(tree).count("prog") == 2, _names(tree)  # the program and its setsid child
    if how != "exit":
        proc.send_signal(getattr(signal, how))
    proc.communicate(timeout=60)
    assert _survivors(tree) == []


def test_a_hanging_test_script_is_killed_and_said(ember, files: SimpleNamespace) -> None:
    pidfile = files.dir / "pids"
    script = files.dir / "hang.sh"
    script.write_text(f"#!/bin/sh\nsleep 300 &\necho $! >> {pidfile}\nsleep 300\n")
    script.chmod(0o755)
    r = ember("reduce", str(files.ll), "-o", str(files.dir / "r.ll"), "--test", str(script), "--test-timeout", "1")
    assert r.status == 1
    assert "timed out after 1s" in _one_line(r.stderr)
    pids = [int(p) for p in pidfile.read_text().split()]
    assert pids and _survivors(_processes(pids)) == []


# ------------------------------------------------------------------ targets: work end to end, or one line first

EM_MACHINE = {"x86_64": 62, "aarch64": 183, "i686": 3}
TRIPLES = ["aarch64-unknown-linux-gnu", "i686-pc-linux-gnu", "nvptx64-nvidia-cuda", "x86_64-apple-darwin", "bogus-x-y"]


@pytest.mark.parametrize("triple", TRIPLES)
@pytest.mark.parametrize("how", ["module", "--target"])
def test_every_triple_works_in_every_split_mode_or_is_refused(ember, tmp_path: Path, triple: str, how: str) -> None:
    src = tmp_path / "t.ll"
    head = f'target triple = "{triple}"\n' if how == "module" else ""
    src.write_text(head + "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n")
    extra = ["--target", triple] if how == "--target" else []
    for mode in ("none", "subgraph", "two-level"):
        out = tmp_path / f"{mode}.o"
        r = ember("build", str(src), "--split", mode, *extra, "-o", str(out))
        if r.status == 0:
            data = out.read_bytes()
            if "darwin" in triple:  # Mach-O, as the triple asks
                assert data[:4] == b"\xcf\xfa\xed\xfe", (triple, mode)
            else:
                machine = EM_MACHINE[triple.split("-")[0]]
                assert data[:4] == b"\x7fELF" and int.from_bytes(data[18:20], "little") == machine, (triple, mode)
        else:
            assert r.status == 2, (triple, mode, r.stderr)
            assert _one_line(r.stderr).startswith("ember: error:") and triple in r.stderr
            assert not out.exists()


def test_mlir_that_lowers_incompletely_is_a_located_error(ember, tmp_path: Path) -> None:
    src = tmp_path / "fill.mlir"
    src.write_text((Path(__file__).parent.parent / "lit-tests/diagnostics/Inputs/linalg-fill.mlir").read_text())
    r = ember_subprocess("build", str(src), "-o", str(tmp_path / "f.o"))  # it used to segfault: a child
    assert r.returncode == 1
    assert _one_line(r.stderr).startswith(f"{src}:3:8: error: cannot translate to LLVM IR")


# ------------------------------------------------------------------ messages


def test_run_and_interp_agree_on_a_missing_main(ember, tmp_path: Path) -> None:
    src = tmp_path / "nomain.em"
    src.write_text("def f() -> Int:\n    return 1\n")
    said = {cmd: _one_line(ember(cmd, str(src)).stderr) for cmd in ("run", "interp")}
    assert said["run"] == said["interp"] == f"{src}: error: the program has no 'main' function"


def test_long_flat_sums_work_and_deeper_ones_are_located(ember, tmp_path: Path) -> None:
    src = tmp_path / "sum.em"
    src.write_text("def main() -> Int:\n    x = " + " + ".join(["1"] * 500) + "\n    return x\n")
    assert ember("interp", str(src)).status == 500 % 256
    assert ember("build", str(src), "-o", str(tmp_path / "s.o")).status == 0
    src.write_text("def main() -> Int:\n    x = " + " + ".join(["1"] * 40000) + "\n    return x\n")
    r = ember("interp", str(src))
    assert r.status == 1 and "nested too deeply" in _one_line(r.stderr)


def test_fuzz_without_database_writes_no_hypothesis_directory(tmp_path: Path) -> None:
    r = subprocess.run([*EMBER, "fuzz", "--no-database", "--examples", "1", "--time-budget", "5", "--strategy", "callgraph",
                        "--findings", str(tmp_path / "findings")], cwd=tmp_path, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)})
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / ".hypothesis").exists()


@pytest.mark.parametrize("mode", ["none", "two-level"])
def test_bad_inline_asm_names_the_input(ember, tmp_path: Path, mode: str) -> None:
    src = tmp_path / "asm.ll"
    src.write_text('module asm "  bogus_instruction %rax"\ndefine i32 @main() {\n  ret i32 0\n}\n')
    r = ember("build", str(src), "--split", mode, "-o", str(tmp_path / "a.o"))
    assert r.status == 1
    assert _one_line(r.stderr) == f"{src}: error: inline asm: invalid instruction mnemonic 'bogus_instruction' (<inline asm>:1:3)"


@pytest.mark.parametrize("mode", ["none", "subgraph"])
def test_good_asm_builds_in_every_mode(ember, tmp_path: Path, mode: str) -> None:
    """Valid module asm and inline asm go into the object (the serial build compiles them in
    its guarded child, the split one checks them first): the asm's own symbols are there."""
    src = tmp_path / "asm.ll"
    src.write_text(
        'module asm ".globl from_module_asm"\nmodule asm "from_module_asm: ret"\n'
        'define void @f() noinline {\n  call void asm sideeffect ".globl from_inline_asm\\0Afrom_inline_asm: nop", ""()\n  ret void\n}\n'
        "define i32 @main() {\n  call void @f()\n  ret i32 0\n}\n"
    )
    r = ember("build", str(src), "--split", mode, "-o", str(tmp_path / "a.o"))
    assert r.status == 0, r.stderr
    defined = {s.name for s in symtab.read_symbols((tmp_path / "a.o").read_bytes()) if s.defined}
    assert {"from_module_asm", "from_inline_asm", "f", "main"} <= defined, defined


@pytest.mark.parametrize("mode", ["none", "subgraph", "two-level"])
def test_bad_inline_asm_in_one_function_of_many_names_the_input(ember, tmp_path: Path, mode: str) -> None:
    """The split checks only the functions holding asm before its workers start: a bad line
    in one of them (called through a local helper) is still one located line."""
    src = tmp_path / "asm.ll"
    helpers = "".join(f"define internal i32 @h{i}(i32 %x) {{\n  %y = add i32 %x, {i}\n  ret i32 %y\n}}\n" for i in range(40))
    calls = "".join(f"  %c{i} = call i32 @h{i}(i32 %c{i - 1})\n" for i in range(1, 40))
    src.write_text(
        helpers
        + "define internal void @spin() {\n  call void asm sideeffect \"bogus_instruction %rax\", \"\"()\n  ret void\n}\n"
        + f"define i32 @main() {{\n  call void @spin()\n  %c0 = call i32 @h0(i32 1)\n{calls}  ret i32 %c39\n}}\n"
    )
    r = ember("build", str(src), "-O0", "--split", mode, "-o", str(tmp_path / "a.o"))
    assert r.status == 1, r.stderr
    assert _one_line(r.stderr) == f"{src}: error: inline asm: invalid instruction mnemonic 'bogus_instruction' (<inline asm>:1:2)"


def test_interp_streams_what_a_program_prints(ember, tmp_path: Path) -> None:
    from oracle import interp

    src = "def main() -> Int:\n    i = 0\n    while i < 20000:\n        print(i, i, i)\n        i += 1\n    return 0\n"
    chunks: list[bytes] = []
    result = interp.run_source(src, "loud.em", stream=interp.StreamedOutput(chunks.append))
    assert result.stdout == b"" and result.exit_status == 0
    assert len(chunks) > 3 and max(map(len, chunks)) < 2 * interp.StreamedOutput.CHUNK  # passed on, not kept
    assert b"".join(chunks) == interp.run_source(src, "loud.em").stdout
    (tmp_path / "loud.em").write_text(src)
    assert ember("interp", str(tmp_path / "loud.em")).stdout.encode() == b"".join(chunks)


def test_ctrl_c_stops_a_parallel_reduce_at_once(big_module: Path, tmp_path: Path) -> None:
    script = tmp_path / "slow.sh"
    script.write_text('#!/bin/sh\nsleep 5 && grep -q define "$1"\n')
    script.chmod(0o755)
    out = tmp_path / "r.ll"
    proc = subprocess.Popen([*EMBER, "reduce", str(big_module), "-o", str(out), "--test", str(script), "-j", "2"],
                            stderr=subprocess.PIPE, text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # the input checked (5 s), then two candidates running
    tree = _descendants(proc.pid, 60.0, until=lambda t: _names(t).count("sleep") >= 2)
    assert _names(tree).count("sleep") >= 2
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and time.monotonic() - start < 2.0, err
    assert err.splitlines()[-1] == "ember: interrupted" and "Traceback" not in err
    assert _survivors(tree) == [] and out.exists()  # the best result so far is kept


# ------------------------------------------------------------------ what the workers print

#: x86 functions (their `target-features` name x86 features) and, in a subgraph of its own, a
#: call LLVM cannot select for x86: the split's workers die on it
X86_ATTRIBUTES = """
define i32 @f(i32 %a) #0 {
  %y = add i32 %a, 1
  ret i32 %y
}
define i32 @g(i32 %a) #0 {
  %y = mul i32 %a, 3
  ret i32 %y
}
attributes #0 = { "target-cpu"="x86-64" "target-features"="+sse2,+cx8" }
"""
CANNOT_SELECT = """
declare i32 @llvm.amdgcn.workitem.id.x()
define i32 @f() {
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  ret i32 %x
}
define i32 @g(i32 %a) {
  %y = add i32 %a, 1
  ret i32 %y
}
"""


@pytest.mark.parametrize("mode", ["subgraph", "two-level"])
def test_workers_keep_llvm_warnings_to_themselves(tmp_path: Path, mode: str) -> None:
    """Cross-compiling x86 functions for AArch64, LLVM warns of every x86 feature: the serial
    build drops what its child printed on success, and so do the split's workers."""
    src = tmp_path / "x86.ll"
    src.write_text(X86_ATTRIBUTES)
    serial = ember_subprocess("build", str(src), "-O2", "--split", "none", "--target", "aarch64-linux-gnu", "-o", str(tmp_path / "s.o"))
    split = ember_subprocess("build", str(src), "-O2", "--split", mode, "--split-cost", "1", "-j", "2",
                             "--target", "aarch64-linux-gnu", "-o", str(tmp_path / "p.o"))
    assert serial.returncode == 0 and split.returncode == 0, split.stderr
    assert serial.stderr == "" and split.stderr == ""


@pytest.mark.parametrize("mode", ["subgraph", "two-level"])
def test_a_worker_llvm_ends_is_one_line_with_llvm_s_words(tmp_path: Path, mode: str) -> None:
    src = tmp_path / "cannot.ll"
    src.write_text(CANNOT_SELECT)
    r = ember_subprocess("build", str(src), "-O2", "--split", mode, "--split-cost", "1", "-j", "2", "-o", str(tmp_path / "p.o"))
    assert r.returncode == 1
    line = _one_line(r.stderr)
    assert "worker process crashed" in line and "LLVM said: Cannot select: intrinsic %llvm.amdgcn.workitem.id.x" in line
    assert Path(line.split(": error:", 1)[0]).exists()  # the piece is saved
