"""The `dead-caller` linkage fragment (issue 36's shape): a local reachable only from code that
dies once the whole module is optimised, in another subgraph, naming an external nothing else
names. Split == serial on it; the old split build (`keep-dead-exported-locals`) keeps the
external's undefined symbol."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from compiler import driver
from fuzz import faults
from fuzz.strategies.linkage import DEAD_BECAUSE, DEAD_BECAUSE_DRAWN, LinkageModule, dead_caller
from oracle import symtab

MODES = ("subgraph", "two-level")


def module_for(because: str) -> str:
    """The first fragment the derandomised strategy draws for one reason its calls die."""
    found: list[str] = []

    @settings(max_examples=1, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(dead_caller("k0_", because_from=(because,)))
    def first(fragment: object) -> None:
        found.append(LinkageModule((fragment,)).render())  # type: ignore[arg-type]

    first()
    return found[0]


def undefined(path: Path, split: str, hook_names: frozenset[str] = frozenset()) -> set[str]:
    options = driver.BuildOptions(opt_level=2, split=split, jobs=1, subgraph_cost=1, emit="obj", hooks=faults.hooks_for(hook_names))
    obj = driver.build(str(path), options).output
    assert isinstance(obj, bytes)
    return {s.name for s in symtab.read_symbols(obj) if not s.defined}


def test_the_drawn_reasons_are_the_ones_the_back_end_handles() -> None:
    assert set(DEAD_BECAUSE_DRAWN) < set(DEAD_BECAUSE) and "flag" not in DEAD_BECAUSE_DRAWN


@pytest.mark.parametrize("because", DEAD_BECAUSE_DRAWN)
def test_split_drops_what_serial_drops_and_the_old_build_did_not(because: str, tmp_path: Path) -> None:
    path = tmp_path / "dead.ll"
    path.write_text(module_for(because))
    serial = undefined(path, "none")
    assert "printf" in serial and not serial & {"getppid", "umask", "getpgrp", "sysconf"}, serial
    for mode in MODES:
        assert undefined(path, mode) == serial, mode
        kept = undefined(path, mode, frozenset({faults.KEEP_DEAD_EXPORTED_LOCALS}))
        assert len(kept - serial) == 1, (mode, kept - serial)


def test_a_flag_no_store_sets_kills_the_calls_in_the_split_build_too(tmp_path: Path) -> None:
    path = tmp_path / "dead_flag.ll"
    path.write_text(module_for("flag"))
    assert undefined(path, "subgraph") == undefined(path, "none")
