"""The identifier dimension of the swarm (`fuzz.strategies.names`): legal, unique, and only locals."""

from __future__ import annotations

import subprocess

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.backend import engine
from fuzz.strategies import cases, linkage_cases
from fuzz.strategies.names import NAME_KINDS, TARGET_WORDS, decoded, local_definitions, renamed, spelled

ALL_ON = (NAME_KINDS, 7)


def assembles(module: str) -> str:
    r = subprocess.run([str(engine.tools_dir() / "llvm-as"), "-o", "/dev/null", "-"], input=module.encode(), capture_output=True)
    return r.stderr.decode()


def test_target_words_are_both_targets_real_tables() -> None:
    for word in ("rax", "add", "addq", "xmm0", "str", "ldr", "x0", "xzr", "lsl", ".globl", ".p2align", ".text"):
        assert word in TARGET_WORDS, word
    assert len(TARGET_WORDS) > 1500
    assert not {"printf", "puts", "memcpy", "abs", "div", "main"} & set(TARGET_WORDS)


@given(st.binary(min_size=1, max_size=40).filter(lambda b: b"\x00" not in b))
def test_a_name_is_spelled_and_read_back(name: bytes) -> None:
    assert decoded(spelled(name)) == name


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(cases("llvm-ir"))
def test_renamed_modules_assemble_and_keep_what_the_harness_names(case: object) -> None:
    module = case.module  # type: ignore[attr-defined]
    out, features = renamed(module, ALL_ON)
    assert not assembles(out), (assembles(out), out)
    for name in ("@main(", "@printf(", "declare"):
        assert out.count(name) == module.count(name)
    assert len(local_definitions(out)) == len(local_definitions(module))
    if local_definitions(module):
        assert features


def test_every_kind_appears_in_a_linkage_module() -> None:
    """Every name kind shows in 60 linkage modules (derandomized: a kind drawn in 5% of
    modules is missing from 30 random ones one time in five)."""
    seen: set[str] = set()

    @settings(max_examples=60, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(linkage_cases())
    def collect(case: object) -> None:
        seen.update(case.features)  # type: ignore[attr-defined]

    collect()
    assert {f"names-{k}" for k in NAME_KINDS} <= seen, seen
