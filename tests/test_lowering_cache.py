"""The fuzzing build servers' lowering cache (fuzz/lowering_cache.py, passed to the driver as
`BuildOptions.hooks.lowering`): a long-lived process lowers an Ember program once per -O
level, and a cached build is byte-for-byte the build it stands for."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler import driver
from compiler.hooks import BuildHooks
from fuzz.lowering_cache import LoweringCache

ROOT = Path(__file__).parent.parent
REUSED = "reused this process's earlier lowering"


def _build(path: Path, cache: LoweringCache | None = None, shared: Path | None = None, **options: object) -> tuple[bytes, bool]:
    """Build with the cache as the build server passes it (None: a plain `ember build`)."""
    hooks = BuildHooks(lowering=cache.shared_in(shared)) if cache is not None else None
    result = driver.build(str(path), driver.BuildOptions(hooks=hooks, **options))  # type: ignore[arg-type]
    assert isinstance(result.output, bytes)
    return result.output, any(REUSED in note for note in result.times.notes)


def test_off_without_the_hook(tmp_path: Path) -> None:
    src = Path(shutil.copy(ROOT / "examples" / "primes.em", tmp_path / "p.em"))
    assert not _build(src)[1] and not _build(src)[1]


def test_split_builds_reuse_the_lowering_and_give_the_uncached_bytes(tmp_path: Path) -> None:
    cache = LoweringCache(4)
    src = Path(shutil.copy(ROOT / "examples" / "bank.em", tmp_path / "bank.em"))
    first, reused = _build(src, cache, opt_level=2)
    assert not reused
    modes = ("none", "two-level", "function")
    cached = [_build(src, cache, opt_level=2, split=mode, jobs=1, subgraph_cost=1) for mode in modes]
    assert all(reused for _, reused in cached)
    assert cached[0][0] == first
    for (obj, _), mode in zip(cached, modes, strict=True):
        assert obj == _build(src, opt_level=2, split=mode, jobs=1, subgraph_cost=1)[0], mode


def test_what_the_lowering_depends_on_is_in_the_key(tmp_path: Path) -> None:
    cache = LoweringCache(4)
    src = tmp_path / "p.em"
    shutil.copy(ROOT / "examples" / "primes.em", src)
    _build(src, cache, opt_level=2)
    assert not _build(src, cache, opt_level=0)[1], "another -O level lowers again"
    src.write_text(src.read_text() + "\n# edited\n")
    assert not _build(src, cache, opt_level=2)[1], "an edited program lowers again"
    moved = tmp_path / "q.em"
    shutil.copy(src, moved)
    assert not _build(moved, cache, opt_level=2)[1], "another path (it is in the debug info and diagnostics) lowers again"
    assert _build(moved, cache, opt_level=2)[1]


def test_a_front_end_error_is_never_cached(tmp_path: Path) -> None:
    cache = LoweringCache(4)
    bad = tmp_path / "bad.em"
    bad.write_text("def main() -> Int:\n    return undefined_name\n")
    for _ in range(2):
        with pytest.raises(driver.EmberError, match="undefined_name"):
            _build(bad, cache)


def test_the_cache_keeps_only_the_most_recent_entries(tmp_path: Path) -> None:
    cache = LoweringCache(1)
    a, b = (Path(shutil.copy(ROOT / "examples" / n, tmp_path / n)) for n in ("primes.em", "fibonacci.em"))
    _build(a, cache)
    _build(b, cache)
    assert not _build(a, cache)[1], "the oldest entry was evicted"
    assert _build(a, cache)[1]


def test_processes_share_lowerings_through_a_folder(tmp_path: Path) -> None:
    """A second process (here: a second, empty cache) reuses the file the first left, and
    builds the same bytes as without any cache."""
    src = Path(shutil.copy(ROOT / "examples" / "bank.em", tmp_path / "bank.em"))
    shared = tmp_path / "shared"
    shared.mkdir()
    first, reused = _build(src, LoweringCache(4), shared, split="two-level", jobs=1)
    assert not reused and len(list(shared.glob(".ember-lowered-*.ll"))) == 1
    hooks = BuildHooks(lowering=LoweringCache(4).shared_in(shared))  # a fresh process: nothing in memory
    result = driver.build(str(src), driver.BuildOptions(split="function", jobs=1, hooks=hooks))
    assert any(f"in {shared}" in note for note in result.times.notes)
    assert result.output == _build(src, split="function", jobs=1)[0]
    assert first == _build(src, split="two-level", jobs=1)[0]


def test_an_unwritable_shared_folder_only_costs_the_reuse(tmp_path: Path) -> None:
    src = Path(shutil.copy(ROOT / "examples" / "primes.em", tmp_path / "p.em"))
    obj, _ = _build(src, LoweringCache(4), tmp_path / "does-not-exist")
    assert obj == _build(src)[0]
