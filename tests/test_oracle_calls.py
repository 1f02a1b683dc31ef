"""`oracle.calls`: call edges read from llvm-objdump, on hand-made objdump text and a real object."""

from __future__ import annotations

from pathlib import Path

from compiler import driver
from oracle import calls

# llvm-objdump -d -r --no-show-raw-insn of a relocatable x86-64 object (abridged)
TEXT = """
0000000000000000 <helper>:
       0:      \tleaq\t0x3(%rdi), %rax
       4:      \tretq

0000000000000010 <a>:
      10:      \tcallq\t0x0 <helper>
      15:      \tjmp\t0x20 <a+0x10>
      1a:      \tcallq\t0x1f <a+0xf>
\t\t000000000000001b:  R_X86_64_PLT32\tprintf-0x4
      1f:      \tcallq\t*%rax
      21:      \tjmp\t0x26 <a+0x16>
\t\t0000000000000022:  R_X86_64_PLT32\tb-0x4

0000000000000030 <b.ember.1>:
      30:      \tcallq\t0x0 <helper>
"""


def test_call_edges_from_text() -> None:
    assert calls.call_edges(TEXT) == {("a", "helper"), ("a", "printf"), ("a", "b"), ("b", "helper")}


def test_calls_to_in_a_real_object(tmp_path: Path) -> None:
    src = tmp_path / "m.ll"
    src.write_text(
        "define internal i64 @h(i64 %x) noinline {\n  %y = mul i64 %x, 7\n  ret i64 %y\n}\n"
        "define i64 @f(i64 %x) {\n  %r = call i64 @h(i64 %x)\n  %s = add i64 %r, 1\n  ret i64 %s\n}\n"
        "define i64 @g(i64 %x) {\n  ret i64 %x\n}\n"
    )
    obj = driver.build(str(src), driver.BuildOptions(opt_level=2)).output
    assert isinstance(obj, bytes)
    assert calls.calls_to(obj, "h") == {"f"}
    assert calls.calls_to(obj, "g") == set()
