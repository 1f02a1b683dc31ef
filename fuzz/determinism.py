"""Generation that depends on the seed alone: Hypothesis' pool of *local* constants switched off.

Hypothesis (6.131 and later, this project pins 6.170) draws about 5% of its integers,
floats and strings from a pool of constants: its own built-in ones plus every literal
in the source of every *local* module found in `sys.modules` when a program is drawn.
So which modules a process happened to import (a pytest selection, an xdist worker,
`ember fuzz` alone, a tree where one literal of the compiler changed) decided what a
fixed-seed campaign generated, and with it the verdict: the power check's `drop-ctors`
campaign drew other programs alone than after the whole test suite had been imported.

`seed_only()` empties the local pool for the duration of a campaign (the built-in
constants belong to the pinned Hypothesis version and stay); `switch_off_local_constants()`
does it for the rest of the process (the pytest session, so ordinary property tests are
reproducible too). Both use Hypothesis internals of the pinned version;
`tests/test_fuzz_determinism.py` checks that the pool really is ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants

_EMPTY = Constants()
#: Hypothesis' own getter of the pool (what a process uses before anything switches it off)
hypothesis_local_constants: Callable[[], Constants] = providers._get_local_constants


def _no_local_constants() -> Constants:
    """The local-constant pool a seed-only draw sees: empty, whatever is imported."""
    return _EMPTY


def _install(getter: Callable[[], Constants]) -> Callable[[], Constants]:
    """Make Hypothesis' providers use `getter` for local constants; returns the previous getter."""
    previous: Callable[[], Constants] = providers._get_local_constants
    providers._get_local_constants = getter
    providers.CONSTANTS_CACHE.cache.clear()  # it holds pools computed with the previous getter
    return previous


@contextmanager
def seed_only() -> Iterator[None]:
    """Draws inside depend on the seed and the strategies only, not on what is imported."""
    previous = _install(_no_local_constants)
    try:
        yield
    finally:
        _install(previous)


def switch_off_local_constants() -> None:
    """`seed_only()` for the rest of this process."""
    _install(_no_local_constants)


def local_constants_active() -> bool:
    """True while Hypothesis mixes constants of imported local modules into its draws."""
    return providers._get_local_constants is not _no_local_constants
