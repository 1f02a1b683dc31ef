"""Kernels on the CPU grid emulator (compiled) equal the reference interpreter, and both
equal outputs computed here in plain Python (the kernels' algorithms, written again).

Covers examples/gpu_kernels.em (saxpy, Int32 vector add with wrap-around, per-block
reduction, 2-D matmul over a 2-D grid, 2-D blocks, a device helper shared with the host)
at -O0, -O2 and with the split back end, plus launch-configuration traps.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from compiler import driver
from tests.lang_helpers import Outcome, assert_same, interpret, run_built

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gpu_kernels.em"


def _f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def _wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _mix(a: int, b: int) -> int:
    return (a * 31 + b) % 1009 + 2 ** (b % 5)


def expected_example_output() -> str:
    """examples/gpu_kernels.em's output, computed without Ember."""
    n = 1000
    x = [i * 0.5 for i in range(n)]
    y = [3.0 * x[i] + 1.0 for i in range(n)]
    s = 0.0
    for v in y:
        s += v
    lines = [f"saxpy {s!r} {y[0]!r} {y[999]!r}"]
    c = [_wrap(_wrap(i * 7, 32) + _wrap(2147483000 - i, 32), 32) for i in range(n)]
    lines.append(f"vadd {sum(c)} {c[0]} {c[999]}")
    blocks = (n + 63) // 64
    partial = []
    for b in range(blocks):
        acc = 0.0
        for j in range(64):
            if b * 64 + j < n:
                acc += x[b * 64 + j]
        partial.append(acc)
    lines.append(f"block_sum {blocks} {partial[0]!r} {partial[-1]!r}")
    m = 10
    ma = [_f32(_f32(i % 7) * 0.25) for i in range(m * m)]
    mb = [_f32(_f32(i % 5) - 1.5) for i in range(m * m)]
    mc = [0.0] * (m * m)
    for row in range(m):
        for col in range(m):
            acc = 0.0
            for k in range(m):
                acc = _f32(acc + _f32(ma[row * m + k] * mb[k * m + col]))
            mc[row * m + col] = acc
    # these products and sums are exact in binary32, so repr() is the shortest form too
    lines.append(f"matmul {mc[0]!r} {mc[11]!r} {mc[99]!r}")
    hs = [_mix(i, i // 3 - 7) for i in range(n)]
    evens = sum(1 for h in hs if h % 2 == 0)
    lines.append(f"hash {sum(hs)} {evens} {hs[500]} {_mix(500, 159)}")
    return "\n".join(lines) + "\n"


def test_example_interpreter_equals_plain_python() -> None:
    got = interpret(EXAMPLE.read_text(), fuel=20_000_000)
    assert got == Outcome(expected_example_output(), 0)


def test_example_emulator_equals_interpreter_O0_O2() -> None:
    assert assert_same(EXAMPLE.read_text(), fuel=20_000_000).stdout == expected_example_output()


def test_example_emulator_split_backend() -> None:
    options = driver.BuildOptions(opt_level=2, split="two-level", jobs=2)
    result = driver.build(str(EXAMPLE), options)
    assert isinstance(result.output, bytes)
    assert run_built(result.output) == Outcome(expected_example_output(), 0)


TRAP = "ember: trap: invalid launch configuration\n"

LAUNCH = """
@kernel
def fill(out: Buffer[Int], v: Int) -> None:
    i = global_idx_x() + global_idx_y() * grid_dim_x() * block_dim_x()
    out[i] = v + block_idx_z() + thread_idx_z()

def main() -> Int:
    out = Buffer[Int](64)
    print("before")
    fill[GRID, BLOCK](out, 5)
    t = 0
    for i in range(64):
        t += out[i]
    print(t)
    return 0
"""


@pytest.mark.parametrize(
    ("grid", "block", "expected"),
    [
        ("(2, 2)", "(16, 1)", Outcome("before\n320\n", 0)),  # 64 threads, each writes 5
        ("0", "64", Outcome("before\n", 3, TRAP)),
        ("1", "(8, 8, 65)", Outcome("before\n", 3, TRAP)),  # block z limit is 64
        ("1", "(64, 32)", Outcome("before\n", 3, TRAP)),  # 2048 threads per block
        ("(1, 65536)", "1", Outcome("before\n", 3, TRAP)),  # grid y limit is 65535
        ("-1", "1", Outcome("before\n", 3, TRAP)),
        ("1", "(64, 1, 1)", Outcome("before\n320\n", 0)),
    ],
)
def test_launch_configuration(grid: str, block: str, expected: Outcome) -> None:
    source = LAUNCH.replace("GRID", grid).replace("BLOCK", block)
    assert assert_same(source, levels=(0,)) == expected


def test_out_of_bounds_in_kernel_traps() -> None:
    source = """
@kernel
def poke(out: Buffer[Int]) -> None:
    out[global_idx_x()] = 1

def main() -> None:
    out = Buffer[Int](10)
    poke[1, 11](out)
"""
    assert assert_same(source, levels=(2,)) == Outcome("", 3, "ember: trap: buffer index out of range\n")
