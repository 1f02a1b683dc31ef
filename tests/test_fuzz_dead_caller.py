"""The `dead-caller` linkage fragment (issue 36's shape): a local reachable only from code that
dies once the whole module is optimised, in another subgraph, naming an external nothing else
names. Split == serial on it, with the whole-module prefix (the default) and without it; the
old split build (`keep-dead-exported-locals`, without the prefix, which would delete the local
first) keeps the external's undefined symbol."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler import driver
from fuzz import faults
from fuzz.strategies.linkage import (
    DEAD_BECAUSE,
    DEAD_BECAUSE_DRAWN,
    DEAD_EXTERNALS,
    Fragment,
    LinkageModule,
    dead_caller,
    dead_capture,
)
from oracle import symtab

MODES = ("subgraph", "two-level")


def first_module(fragments: st.SearchStrategy[Fragment]) -> str:
    """The module of the first fragment the derandomised strategy draws."""
    found: list[str] = []

    @settings(max_examples=1, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(fragments)
    def first(fragment: Fragment) -> None:
        found.append(LinkageModule((fragment,)).render())

    first()
    return found[0]


def module_for(because: str) -> str:
    """The first fragment the derandomised strategy draws for one reason its calls die."""
    return first_module(dead_caller("k0_", because_from=(because,)))


def undefined(
    path: Path, split: str, hook_names: frozenset[str] = frozenset(), *, debug_info: bool = False, split_prefix: bool = True,
) -> set[str]:
    options = driver.BuildOptions(
        opt_level=2, split=split, jobs=1, subgraph_cost=1, emit="obj", hooks=faults.hooks_for(hook_names), debug_info=debug_info,
        split_prefix=split_prefix,
    )
    obj = driver.build(str(path), options).output
    assert isinstance(obj, bytes)
    return {s.name for s in symtab.read_symbols(obj) if not s.defined}


def test_the_drawn_reasons_are_the_ones_the_back_end_handles() -> None:
    assert set(DEAD_BECAUSE_DRAWN) < set(DEAD_BECAUSE) and "flag" not in DEAD_BECAUSE_DRAWN
    assert "inlined" in DEAD_BECAUSE_DRAWN  # the one the default build's own dead-code step must handle


@pytest.mark.parametrize("because", DEAD_BECAUSE_DRAWN)
def test_split_drops_what_serial_drops_and_the_old_build_did_not(because: str, tmp_path: Path) -> None:
    path = tmp_path / "dead.ll"
    path.write_text(module_for(because))
    serial = undefined(path, "none")
    assert "printf" in serial and not serial & {"getppid", "umask", "getpgrp", "sysconf"}, serial
    for mode in MODES:
        assert undefined(path, mode) == serial, mode
        # without the whole-module prefix (which deletes `spawn` before the plan unless only the
        # inliner kills its call) the split's own dead-code step must drop it; the fault plants
        # that step's old behaviour
        assert undefined(path, mode, split_prefix=False) == serial, mode
        for prefix in (False, True) if because == "inlined" else (False,):
            kept = undefined(path, mode, frozenset({faults.KEEP_DEAD_EXPORTED_LOCALS}), split_prefix=prefix)
            assert len(kept - serial) == 1, (mode, prefix, kept - serial)


def test_a_flag_no_store_sets_kills_the_calls_in_the_split_build_too(tmp_path: Path) -> None:
    path = tmp_path / "dead_flag.ll"
    path.write_text(module_for("flag"))
    assert undefined(path, "subgraph") == undefined(path, "none")


#: a private table of two local methods, described in the unit's debug info (a front end's
#: `static` table with `-g`; Rust's vtables), that only the dead local loads from
_TABLE = """
@k0_table = private constant [2 x ptr] [ptr @k0_method, ptr @k0_other], !dbg !10

declare i32 @getpgrp()

define internal i32 @k0_method() noinline {
  %e = call i32 @getppid()
  ret i32 %e
}

define internal i32 @k0_other() noinline {
  %e = call i32 @getpgrp()
  ret i32 %e
}
"""

_TABLE_DEBUG_INFO = """
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!20, !21}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand", isOptimized: true, \
runtimeVersion: 0, emissionKind: FullDebug, globals: !2)
!1 = !DIFile(filename: "dead.c", directory: "/tmp")
!2 = !{!10}
!10 = !DIGlobalVariableExpression(var: !11, expr: !DIExpression())
!11 = distinct !DIGlobalVariable(name: "table", scope: !0, file: !1, line: 3, type: !12, isLocal: true, isDefinition: true)
!12 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!20 = !{i32 7, !"Dwarf Version", i32 5}
!21 = !{i32 2, !"Debug Info Version", i32 3}
"""


def test_a_table_only_dead_code_loads_dies_with_debug_info_too(tmp_path: Path) -> None:
    """The dead local calls through a debug-described private table of two methods: the table
    dies with it and so do the methods and their externals, as GlobalDCE has it serially. Kept
    as a root when the module had debug info, the table kept `UND getppid` and `getpgrp`; left a
    declaration with its `!dbg`, the unit's DWARF named it (`UND k0_table`, or on a temporary
    `Undefined temporary symbol`: rust-markdown -g)."""
    text = module_for("local")
    text = text.replace("declare i32 @getppid()\n", "declare i32 @getppid()\n" + _TABLE)
    call = "  %e = call i32 @getppid()\n  %w = sext i32 %e to i64\n"
    assert text.count(call) == 1
    text = text.replace(call, (
        "  %i = and i64 %x, 1\n  %slot = getelementptr [2 x ptr], ptr @k0_table, i64 0, i64 %i\n"
        "  %m = load ptr, ptr %slot\n  %e = call i32 %m()\n  %w = sext i32 %e to i64\n"
    ))
    path = tmp_path / "dead_table.ll"
    path.write_text(text + _TABLE_DEBUG_INFO)
    serial = undefined(path, "none", debug_info=True)
    assert not serial & {"getppid", "getpgrp", "k0_table"}, serial
    for mode in MODES:
        assert undefined(path, mode, debug_info=True) == serial, mode


def test_dead_capture_is_clean_with_the_prefix_and_caught_without(tmp_path: Path) -> None:
    """The `dead-capture` fragment (std's output capture): its external is called only where
    the whole module's IPSCCP proves nothing runs. The default split build agrees with serial;
    the back end before the whole-module prefix (`skip-whole-module-prefix`) keeps the call."""
    path = tmp_path / "capture.ll"
    path.write_text(first_module(dead_capture("k0_")))
    serial = undefined(path, "none")
    for mode in MODES:
        assert undefined(path, mode) == serial, mode
        kept = undefined(path, mode, frozenset({faults.SKIP_WHOLE_MODULE_PREFIX}))
        assert len(kept - serial) == 1 and (kept - serial) <= set(DEAD_EXTERNALS), (mode, kept - serial)
