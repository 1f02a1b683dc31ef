"""`--split auto`, the default: serial where splitting cannot pay, split where it can, and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.backend import policy, pool
from fuzz import genmodule
from tests.conftest import DATA, ember_subprocess

SMALL = DATA / "linkages.ll"


@pytest.mark.parametrize(
    ("kwargs", "mode", "why"),
    [
        ({"opt_level": 0, "jobs": 2, "cost": 10**6}, "none", "-O0"),
        ({"opt_level": 2, "jobs": 1, "cost": 10**6}, "none", "one job"),
        ({"opt_level": 2, "jobs": 2, "cost": policy.MIN_SPLIT_COST - 1}, "none", "would not pay"),
        ({"opt_level": 1, "jobs": 2, "cost": policy.MIN_SPLIT_COST}, "none", "would not pay"),
        ({"opt_level": 2, "jobs": 2, "cost": policy.MIN_SPLIT_COST}, policy.SPLIT_MODE, "-O2, -j2"),
        ({"opt_level": 3, "jobs": 8, "cost": 10**6}, policy.SPLIT_MODE, "-O3, -j8"),
    ],
)
def test_choice(kwargs: dict[str, int], mode: str, why: str) -> None:
    choice = policy.choose(splittable=True, **kwargs)
    assert choice.mode == mode and why in choice.reason


def test_unsplittable_target_builds_serially() -> None:
    choice = policy.choose(opt_level=2, jobs=2, cost=10**6, splittable=False, target="aarch64-linux-gnu")
    assert choice.mode == "none" and "aarch64-linux-gnu" in choice.reason


def test_block_count_is_the_blocks_of_defined_functions() -> None:
    from compiler.backend import engine

    text = "declare i32 @d()\ndefine i32 @f(i1 %c) {\n  br i1 %c, label %a, label %b\na:\n  ret i32 1\nb:\n  ret i32 2\n}\n"
    with engine.Module(text, "t.ll") as module:
        assert module.block_count() == 3


def test_estimate_from_file_size(tmp_path: Path) -> None:
    ll = tmp_path / "m.ll"
    ll.write_text("x" * 2800)
    assert policy.estimated_cost(str(ll)) == 10
    assert policy.estimated_cost(str(tmp_path / "missing.ll")) is None
    assert policy.estimated_cost(str(tmp_path / "p.em")) is None


def test_small_module_default_build_starts_no_worker(ember, tmp_path: Path) -> None:
    pool.shutdown()
    r = ember("build", str(SMALL), "-j", "2", "--time-report", "-o", str(tmp_path / "a.o"))
    assert r.status == 0, r.stderr
    assert "split auto: none" in r.stderr
    assert pool.worker_pids(2) == []


def test_large_module_default_build_splits_with_the_same_symbols(ember, tmp_path: Path) -> None:
    src = tmp_path / "big.ll"
    # about three blocks a function: comfortably past the threshold
    src.write_text(genmodule.generate(3, genmodule.ModuleShape(functions=policy.MIN_SPLIT_COST * 2 // 5, body_ops=24)))
    r = ember("build", str(src), "-j", "2", "--time-report", "-o", str(tmp_path / "auto.o"))
    assert r.status == 0, r.stderr
    assert f"split auto: {policy.SPLIT_MODE}" in r.stderr, r.stderr
    assert ember("build", str(src), "--split", "none", "-o", str(tmp_path / "none.o")).status == 0
    assert ember("symdiff", str(tmp_path / "none.o"), str(tmp_path / "auto.o")).status == 0


def test_aarch64_builds_in_the_default_and_an_explicit_split_mode(ember, tmp_path: Path) -> None:
    r = ember("build", str(SMALL), "--target", "aarch64-linux-gnu", "-o", str(tmp_path / "a.o"))
    assert r.status == 0, r.stderr
    assert (tmp_path / "a.o").read_bytes()[18] == 183  # e_machine EM_AARCH64
    r = ember("build", str(SMALL), "--target", "aarch64-linux-gnu", "--split", "two-level", "-o", str(tmp_path / "b.o"))
    assert r.status == 0, r.stderr
    assert (tmp_path / "b.o").read_bytes()[18] == 183
    assert ember("symdiff", str(tmp_path / "a.o"), str(tmp_path / "b.o")).status == 0


@pytest.mark.parametrize(
    "triple", ["x86_64-apple-darwin", "i686-pc-linux-gnu", "x86_64-unknown-linux-gnux32", "aarch64-unknown-linux-gnu_ilp32"]
)
def test_a_target_the_object_link_cannot_merge_builds_serially_by_default_and_an_explicit_split_is_refused(
    ember, tmp_path: Path, triple: str
) -> None:
    """Mach-O is no ELF; i686 is ELF32 with addends in the section bytes, which the object link
    does not patch, and x32 and AArch64 ILP32 are ELF32 too: each builds serially under `auto`,
    and an explicit split mode is refused."""
    src = tmp_path / "f.ll"  # (no comdat: Mach-O has none)
    src.write_text("define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n")
    r = ember("build", str(src), "--target", triple, "-o", str(tmp_path / "a.o"))
    assert r.status == 0, r.stderr
    notes = [ln for ln in r.stderr.splitlines() if ln.startswith("ember: note:")]
    assert len(notes) == 1 and triple in notes[0] and "serial back end" in notes[0], r.stderr
    assert (tmp_path / "a.o").stat().st_size > 0
    r = ember("build", str(src), "--target", triple, "--split", "two-level", "-o", str(tmp_path / "b.o"))
    assert r.status == 2 and "x86-64 and AArch64 ELF" in r.stderr and triple in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1, r.stderr


COMDAT_MODULE = """$f = comdat any
define linkonce_odr i32 @f() comdat {
  ret i32 1
}
define i32 @g() {
  %r = call i32 @f()
  ret i32 %r
}
"""


@pytest.mark.parametrize("how", ["default", "--split none", "module triple"])
def test_what_llvm_cannot_lower_for_the_target_is_one_line_not_an_abort(tmp_path: Path, how: str) -> None:
    """A COMDAT on MachO: LLVM's code generator ends the process (`LLVM ERROR`, exit 134 before);
    the serial build for a target the split back end does not link generates code in a worker,
    so it is one located line, exit 1, and no object."""
    src = tmp_path / "c.ll"
    src.write_text(('target triple = "x86_64-apple-darwin"\n' if how == "module triple" else "") + COMDAT_MODULE)
    out = tmp_path / "c.o"
    args = ["build", str(src), "-O0", "-o", str(out)]
    target = ["--target", "x86_64-apple-darwin"]
    args += {"default": target, "--split none": [*target, "--split", "none"]}.get(how, [])
    r = ember_subprocess(*args)  # a child: an abort would end pytest
    assert r.returncode == 1, r.stderr
    errors = [ln for ln in r.stderr.splitlines() if not ln.startswith("ember: note:")]
    said = "LLVM cannot generate code for 'x86_64-apple-darwin': MachO doesn't support COMDATs, 'f' cannot be lowered."
    assert errors == [f"{src}: error: {said}"]
    assert not out.exists()
