"""Same module, same options, same bytes: however many builds the process (and its reused
workers) ran before, and whatever -j is (contract 1, determinism)."""

from __future__ import annotations

import hashlib
import io

from elftools.elf.elffile import ELFFile

from compiler import driver
from compiler.backend import split
from tests.conftest import DATA

#: ELF section flag SHF_GNU_RETAIN ("R" in assembly): the linker must keep the section
SHF_GNU_RETAIN = 0x200000

#: a subgraph whose first level-2 piece holds `llvm.used`: codegen of that piece records
#: `@kept` (by address) as used in the target machine; the later pieces' functions must
#: not inherit it when LLVM reuses the freed memory for them
_USED_SUBGRAPH = "\n".join(
    [
        "@llvm.used = appending global [1 x ptr] [ptr @kept], section \"llvm.metadata\"",
        "define internal void @kept() {\n  ret void\n}",
        *(f"define internal i64 @f{i}(i64 %x) {{\n  %y = add i64 %x, {i}\n  ret i64 %y\n}}" for i in range(40)),
        "define i64 @anchor(i64 %x) {",
        *(f"  %r{i} = call i64 @f{i}(i64 %x)" for i in range(40)),
        "  ret i64 %r39\n}",
        "",
    ]
)


def test_level2_pieces_after_an_llvm_used_piece_are_not_retained() -> None:
    """Found 2026-11-25: a worker generated code for every level-2 piece of a subgraph with one
    target machine, whose ELF object-file lowering keeps the `llvm.used` globals of every module
    it printed as a set of addresses and never forgets them; a later piece's function allocated
    where a freed `llvm.used` function had been came out in its own `.text.<name>` section with
    SHF_GNU_RETAIN (flags "axR"), so objects differed between builds and across -j."""
    members = ["kept", *(f"f{i}" for i in range(40)), "anchor"]
    config = split.BackendConfig(opt_level=0, piece_cost=1)
    outputs = []
    for _ in range(5):
        pieces, _local, _private, _cpu = split.optimise_task(_USED_SUBGRAPH, members, 0, config, True)
        outputs.append([obj for _members, obj, _shared in pieces])
        for piece_members, obj, _shared in pieces:
            assert isinstance(obj, bytes)
            elf = ELFFile(io.BytesIO(obj))
            retained = [sec.name for sec in elf.iter_sections() if sec["sh_flags"] & SHF_GNU_RETAIN]
            assert retained == ([".text.kept"] if "kept" in piece_members else []), (piece_members, retained)
    assert all(out == outputs[0] for out in outputs)


def test_same_bytes_for_repeated_builds_alternating_jobs() -> None:
    """The fuzzer's determinism check, in one process: `special.ember.0` came out in `.text` in
    one build and in a retained `.text.special.ember.0` in another (the pool's workers are reused)."""
    src = DATA / "split_semantics.ll"
    hashes = set()
    for k in range(16):
        options = driver.BuildOptions(opt_level=0, split="two-level", jobs=1 + k % 2, subgraph_cost=1, piece_cost=1)
        out = driver.build(str(src), options).output
        assert isinstance(out, bytes)
        hashes.add(hashlib.sha256(out).hexdigest())
    assert len(hashes) == 1


def test_code_generated_after_an_llvm_used_module_is_as_alone() -> None:
    """The rule the fix rests on, held where code is generated: every module gets its own
    target machine, so a module printed after one holding `llvm.used` comes out as alone."""
    from compiler.backend import llvm_stage

    target = llvm_stage.native_target(None, 0)
    plain = _USED_SUBGRAPH.replace(_USED_SUBGRAPH.splitlines()[0], "")

    def emit(text: str) -> bytes:
        with llvm_stage.native(text, "<m>") as module:
            return llvm_stage.emit_object(module, target)

    alone = emit(plain)
    emit(_USED_SUBGRAPH)
    assert [emit(plain) for _ in range(3)] == [alone] * 3
