"""A candidate that LLVM would end the process on is rejected, and the reduction goes on.

LLVM's IR parser verifies a module that carries `!"Debug Info Version", i32 3` and, finding it
broken outside its debug info, exits (`LLVM ERROR: Broken module found, compilation
aborted!`, from `UpgradeDebugInfo`). A delta that runs passes in-process parses its
candidate (`ir/common.with_llvm_passes`), and every candidate is parsed again before its
property runs (`engine.valid_ir`): both used to end `ember reduce` (issue 39: a lifetime
marker on a non-alloca pointer in a Rust module). Each check runs in a child Python so that
the old behaviour shows as a failed test, not as a dead pytest.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: debug info and its version flag: the parser's fatal verification applies
_DEBUG_INFO = """
!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!0}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "t", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!3 = !DIFile(filename: "t.c", directory: "/")
!5 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 1, type: !6, unit: !2, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 1, scope: !5)
"""

#: valid: the lifetime marker is on an alloca
GOOD = (
    """declare void @llvm.lifetime.start.p0(ptr)
declare void @use(ptr)

define void @f(ptr %p, i1 %c) !dbg !5 {
entry:
  %a = alloca i32, align 4
  call void @llvm.lifetime.start.p0(ptr %a), !dbg !8
  br i1 %c, label %then, label %done, !dbg !8

then:
  call void @use(ptr %a), !dbg !8
  br label %done, !dbg !8

done:
  ret void, !dbg !8
}
"""
    + _DEBUG_INFO
)

#: broken outside its debug info: LLVM 22's verifier wants an alloca (or poison) under a
#: lifetime marker, and here it gets a parameter
BROKEN = GOOD.replace("  %a = alloca i32, align 4\n", "").replace("%a", "%p")


def _run(script: str) -> subprocess.CompletedProcess[str]:
    prelude = f"GOOD = {GOOD!r}\nBROKEN = {BROKEN!r}\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _assert_survived(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 0, f"the child died (status {proc.returncode}):\n{proc.stderr[-2000:]}"
    assert "LLVM ERROR" not in proc.stderr
    assert "ok" in proc.stdout.split(), proc.stdout + proc.stderr


def test_the_broken_module_is_broken_only_outside_its_debug_info() -> None:
    # the premise: without the version flag LLVM reports the breakage (no exit), and the good
    # module parses with it
    proc = _run(
        """
        from compiler.backend import llvm_stage
        from compiler.diagnostics import EmberError
        llvm_stage.parse_ir(GOOD, "<good>")
        try:
            llvm_stage.parse_ir(BROKEN.replace('!"Debug Info Version"', '!"Other"'), "<broken>")
        except EmberError as exc:
            assert "lifetime" in str(exc), exc
            print("ok")
        """
    )
    _assert_survived(proc)


def test_a_broken_candidate_is_invalid_not_fatal() -> None:
    proc = _run(
        """
        from fuzz.reduce import engine
        assert engine.valid_ir(GOOD)
        assert not engine.valid_ir(BROKEN)
        print("ok")
        """
    )
    _assert_survived(proc)


def test_a_pass_delta_on_a_broken_module_raises_not_exits() -> None:
    proc = _run(
        """
        from compiler.diagnostics import EmberError
        from fuzz.reduce.ir import branches, simplify_functions
        assert "br i1" not in branches.TO_TRUE.apply(GOOD, set())  # the delta works on GOOD
        for delta in (branches.TO_TRUE, simplify_functions.PASS):
            try:
                delta.apply(BROKEN, set())
            except EmberError as exc:  # what LLVM's verifier says, not its exit
                assert "lifetime" in str(exc), exc
            else:
                raise AssertionError(f"{delta.name} accepted a broken module")
        print("ok")
        """
    )
    _assert_survived(proc)


def test_the_reduction_rejects_the_candidate_and_goes_on() -> None:
    # one delta's candidate drops the alloca (broken, with debug info: LLVM would end the
    # process), the next delta's folds the branch (valid): the reduction keeps the second
    proc = _run(
        """
        from fuzz.reduce import engine
        from fuzz.reduce.ir import branches

        def drop_alloca(text, keep):
            return BROKEN if 0 not in keep else text

        deltas = [
            engine.DeltaPass("drop-alloca", lambda t: ["%a"] if "alloca" in t else [], drop_alloca),
            branches.TO_TRUE,
        ]
        out, stats = engine.reduce_text(GOOD, lambda t: "@use" in t, deltas, jobs=2)
        assert "alloca" in out and "br i1" not in out and "@use" in out, out
        assert stats.accepted >= 1 and stats.candidates > stats.accepted, stats
        print("ok")
        """
    )
    _assert_survived(proc)
