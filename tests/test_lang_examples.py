"""The programs in examples/: interpreted and compiled (-O0, -O2) output equals the expected text.

The expected outputs were computed independently (the same algorithms in plain Python,
whose ints and IEEE doubles print like Ember's), not by either Ember implementation.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lang_helpers import Outcome, assert_same

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

EXPECTED: dict[str, Outcome] = {
    "primes.em": Outcome(
        "primes below 10000 : 1229\nfirst ten: 2 3 5 7 11 13 17 19 23 29\nlargest: 9973\n", 0
    ),
    "fibonacci.em": Outcome(
        "fib(25) = 75025 in 242785 calls\n"
        "fib(90) = 2880067194370816120 in 179 calls\n"
        "fib(92) = 7540113804746346429\n"
        "fib(93) wraps to -6246583658587674878\n",
        0,
    ),
    "higher_order.em": Outcome(
        "integral of x^2 on [0, 1]: 0.33333349999999995\n"
        "integral of x^3 on [0, 2]: 4.000004000000001\n"
        "sqrt(2) by Newton: 1.414213562373095\n"
        "fold: 55\n"
        "fold: 3628800\n",
        0,
    ),
    # kernels on the CPU grid emulator; computed in plain Python by
    # tests/test_offload_emulator.py::expected_example_output (which checks this too)
    "gpu_kernels.em": Outcome(
        "saxpy 750250.0 1.0 1499.5\n"
        "vadd -1683624831032 2147483000 -2147478302\n"
        "block_sum 16 1008.0 19590.0\n"
        "matmul -9.0 -4.125 17.5\n"
        "hash 511855 497 540 540\n",
        0,
    ),
    "bank.em": Outcome(
        "balance: 790 after 3 transactions\nin 10 years: 916.8272517698684\nwithdrawing 10000 ...\n",
        3,
        "ember: trap: assertion failed\n",
    ),
}


def test_every_example_has_an_expected_output() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.em")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example(name: str) -> None:
    source = (EXAMPLES / name).read_text()
    assert assert_same(source, fuel=20_000_000) == EXPECTED[name]
