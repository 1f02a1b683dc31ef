"""The split back end's task cache (a reduction's candidates reuse compiled subgraphs) gives the
objects of a fresh build, byte for byte, and never a piece of another candidate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from compiler import driver
from compiler.backend import split
from compiler.hooks import BuildHooks
from fuzz import properties
from fuzz.genmodule import ModuleShape, generate
from fuzz.strategies import FuzzCase
from fuzz.task_cache import TaskFiles

#: a line of the exported `exp_9` (called from `main`) in generated module 4
_FUNCTION, _LINE = "define i64 @exp_9(", "  %acc.next = add i64 %v9, 7\n"


def _candidates(tmp_path: Path) -> tuple[Path, Path]:
    """Two candidates of one reduction: the same module but for one constant in one function,
    each in a folder of its own under the same file name (as the reducer's checks write them)."""
    a = generate(4, ModuleShape(functions=60))
    at = a.index(_LINE, a.index(_FUNCTION))
    assert at < a.index("\n}\n", a.index(_FUNCTION))
    b = a[:at] + _LINE.replace(", 7\n", ", 8\n") + a[at + len(_LINE):]
    paths = []
    for name, text in (("a", a), ("b", b)):
        (tmp_path / name).mkdir()
        paths.append(tmp_path / name / "input.ll")
        paths[-1].write_text(text)
    return paths[0], paths[1]


def _build(path: Path, mode: str, cache: TaskFiles | None, *, split_prefix: bool = True) -> tuple[bytes, list[str]]:
    options = driver.BuildOptions(opt_level=2, split=mode, jobs=1, subgraph_cost=50, time_report=True,
                                  hooks=BuildHooks(tasks=cache) if cache is not None else None, split_prefix=split_prefix)
    result = driver.build(str(path), options)
    assert isinstance(result.output, bytes)
    return result.output, result.times.notes


@pytest.mark.parametrize("mode", ["two-level", "subgraph"])
def test_cached_builds_are_the_fresh_builds_and_never_stale(tmp_path: Path, mode: str) -> None:
    a, b = _candidates(tmp_path)
    fresh_a, _ = _build(a, mode, None)
    fresh_b, _ = _build(b, mode, None)
    assert fresh_a != fresh_b  # the one changed function shows in the object

    # at -O2 a task has two halves, each cached: optimised, then its code after the dead-code step
    phases = 2
    cache = TaskFiles(tmp_path / "tasks")
    assert _build(a, mode, cache)[0] == fresh_a
    assert (cache.hits, cache.misses) == (0, 14 * phases)  # nothing to reuse yet: every subgraph compiled
    cached_b, notes = _build(b, mode, cache)
    # the changed function's subgraphs are compiled again (a stale piece of `a` would be `fresh_a`'s
    # code in `b`'s object): its home, and main's, which imports it (after the whole-module
    # prefix it is small enough to inline); the other 12 are reused
    assert cached_b == fresh_b
    assert (cache.hits, cache.misses) == (12 * phases, 16 * phases)
    assert "split tasks: 12 of 14 reused from the harness's task cache" in notes
    assert _build(a, mode, cache)[0] == fresh_a  # and back: every subgraph of `a` is in the cache
    assert (cache.hits, cache.misses) == (26 * phases, 16 * phases)


def _rename_main(module: Any) -> None:
    """An optimised-subgraph hook (`BuildHooks.optimised`) whose work shows in the object."""
    for value in module.definitions():
        if value.name == "main":
            value.rename("hooked_main")


def test_a_cached_task_never_hides_an_optimised_hook(tmp_path: Path) -> None:
    """The hook runs in the second phase, after the optimised subgraph the first phase cached:
    both keys name it, so a cache filled without it gives the hooked build its own objects."""
    a, _ = _candidates(tmp_path)
    cache = TaskFiles(tmp_path / "tasks")
    plain, _ = _build(a, "two-level", cache)

    def hooked(tasks: TaskFiles | None) -> bytes:
        options = driver.BuildOptions(opt_level=2, split="two-level", jobs=1, subgraph_cost=50,
                                      hooks=BuildHooks(optimised=(_rename_main,), tasks=tasks))
        out = driver.build(str(a), options).output
        assert isinstance(out, bytes)
        return out

    fresh = hooked(None)
    assert fresh != plain
    assert hooked(cache) == fresh


def test_the_key_names_the_file_not_its_folder() -> None:
    """Code generation reads only the input's file name (`.file`), so the folder may differ; nothing else may."""
    def key(text: str, k: int = 0, members: tuple[str, ...] = ("f",), level2: bool = True, **config: Any) -> str:
        return split.task_key(text, list(members), k, split.BackendConfig(**config), level2)

    body = "define i64 @f() {\n  ret i64 1\n}\n"
    here = f'source_filename = "/tmp/ember-check-1/input.ll"\n{body}'
    assert key(here) == key(f'source_filename = "/tmp/ember-check-2/input.ll"\n{body}')
    assert key(here) == key(f'source_filename = "input.ll"\n{body}')
    different = [
        key(f'source_filename = "/tmp/ember-check-1/other.ll"\n{body}'),
        key(here.replace("ret i64 1", "ret i64 2")),
        key(here, k=1),
        key(here, members=("f", "g")),
        key(here, level2=False),
        key(here, opt_level=1),
        key(here, piece_cost=7),
        key(here, worker_hooks=(print,)),
        key(here, optimised_hooks=(print,)),
    ]
    assert key(here) not in different and len(set(different)) == len(different)


def test_checks_sharing_a_cache_report_the_fresh_objects(tmp_path: Path) -> None:
    """Through the build servers, as a reduction runs its checks: the same objects as without the cache."""
    a, b = _candidates(tmp_path)
    plan = properties.CheckPlan(2, 50, (properties.BuildConfig("two-level", 1, 2, 50),), opt_check=False)
    tasks = tmp_path / "tasks"

    def objects(path: Path, cache: Path | None) -> dict[str, bytes | None]:
        report = properties.check(FuzzCase(path.read_text(), None, "reduce"), plan, task_cache=cache, lanes=1)
        assert report.ok, report.diff_text()
        return {label: outcome.obj for label, outcome in report.builds.items()}

    assert objects(a, tasks) == objects(a, None)
    files = len(list(tasks.glob("task-*")))
    # each of the 14 subgraphs optimised, and its code (after the dead-code step) generated:
    # up to two files each (the second half is keyed by its bitcode and dead set)
    assert 14 < files <= 28
    cached_b = objects(b, tasks)
    # only the changed function's two subgraphs (its home, and main's, which imports it) were compiled
    assert len(list(tasks.glob("task-*"))) == files + 4
    assert cached_b == objects(b, None) != objects(a, None)


def test_one_cache_across_split_modes_gives_each_modes_fresh_object(tmp_path: Path) -> None:
    """A reduction's checks share one cache across configurations (split modes, piece costs):
    the second half of a task (codegen of an optimised subgraph) is keyed by how it is cut in
    pieces too, so a two-level build never gets the subgraph mode's whole-subgraph objects
    (or the other way round) when the optimised bitcode is the same."""
    a, _b = _candidates(tmp_path)
    # without the whole-module prefix this module's subgraphs are large enough for two-level mode
    # to cut them in several pieces, so the two modes' objects differ (with it they are the same)
    fresh = {mode: _build(a, mode, None, split_prefix=False)[0] for mode in ("subgraph", "two-level")}
    assert fresh["subgraph"] != fresh["two-level"]
    cache = TaskFiles(tmp_path / "tasks")
    for mode in ("subgraph", "two-level", "subgraph"):
        assert _build(a, mode, cache, split_prefix=False)[0] == fresh[mode], mode
