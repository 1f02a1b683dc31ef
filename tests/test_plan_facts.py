"""The split planner's plans, pinned by fingerprint (docs/bench/plan-facts/DESIGN.md, step 0).

The planner moves from facts read in the module's text to facts read from the module in
memory, step by step, each step keeping every plan (and so every object) the same. This
test is that step's oracle: each plan's fingerprint (tests/plan_fingerprint.py: members,
costs, work, every `CutSpec` field, link names, GlobalMerge facts, asm probe) against the
one recorded from the text planner in `tests/data/plan_fingerprints.json`.

Plans are made as `ember build` makes them: the module loaded and prepared as the driver
does before its split (`plan_fingerprint.driver_module`: the live module goes to the plan),
and planned by `split.compile_split` itself, stopped by a plan hook before any worker starts.

Inputs:
- always here: the LLVM IR inputs of lit-tests/ and tests/data (aliases, ifuncs, quoted
  and target-word names, comdats, TLS, GlobalMerge aliases, dead fields), `HOSTILE` below
  (module and inline asm, a variable kept local, serial argument facts), a generated
  module (`fuzz.genmodule`, fixed seed) and a derandomised linkage module with every
  fragment and every kind of name (`fuzz.strategies`), with and without debug info: every
  level -O0..-O3, every mode that plans (subgraph, function, two-level), the default
  `--subgraph-cost` and the harness's fine ones, with and without `-g` where the module
  has debug info;
- the corpus when built (`.cache/corpus/bc/*.bc`, `.cache/corpus/rust/*/module.bc`, else
  skipped with the reason): -O2, subgraph mode (what `--split auto` picks), stripped, by
  default; every level and mode (and `-g` where the module has debug info) with
  `EMBER_PLAN_FINGERPRINTS=full`.

Plans get the live module as the build hands it (every fact read in memory). At -O1/-O2 each
config of the always-here inputs is planned twice: as given, and after the whole-module prefix
the default build runs first (docs/backend.md; key suffix ` prefix`, recorded 2026-11-29 with
the imports of shared locals and the inferred attributes); the corpus's, not yet. The recorded
fingerprints of the always-here inputs were the text planner's (its readers agreed with
memory's on every input until they were deleted, step 7): they stay the oracle.

Each module's entry is keyed by its name and holds the sha256 of its input bytes: where
clang (or Hypothesis) made other bytes than the recording's, the module is skipped with
the reason, not failed.

Record (after a change that is meant to change plans, measured as docs/backend.md says):

    EMBER_RECORD_PLAN_FINGERPRINTS=1 .venv/bin/python -m pytest tests/test_plan_facts.py
    EMBER_RECORD_PLAN_FINGERPRINTS=1 EMBER_PLAN_FINGERPRINTS=full .venv/bin/python -m pytest tests/test_plan_facts.py

A recording run rewrites each module's entry (the configs it planned; an entry whose
input bytes changed is replaced whole) and passes.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from compiler.backend import cut, planner
from compiler.backend.split_mode import SplitMode
from tests import plan_fingerprint as pf

ROOT = pf.ROOT
DATA = ROOT / "tests/data/plan_fingerprints.json"
FULL = os.environ.get("EMBER_PLAN_FINGERPRINTS", "") == "full"
RECORD = os.environ.get("EMBER_RECORD_PLAN_FINGERPRINTS", "") not in ("", "0")

#: `--subgraph-cost` values for the small inputs: the default, and the harness's fine
#: splits (1: about one function per subgraph, up to `MAX_SUBGRAPHS`; 300: a few functions)
SMALL_COSTS: tuple[int | None, ...] = (None, 1, 300)

HOSTILE = r"""
module asm ".globl from_module_asm"
module asm "from_module_asm: ret"
$shared = comdat any
@tls = internal thread_local global i32 0
@tls_alias = internal alias i32, ptr @tls
@table = internal global [2 x ptr] [ptr @one, ptr @two]
@0 = private constant [3 x i8] c"hi\00"
@1 = internal global i32 7
@flag = internal global i32 0
@counter = internal global i64 0
@"quoted name" = internal global i32 3
@days = internal global [4 x i8] c"\1F\1C\1F\1E", align 1
@data = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@data_tail = alias i32, getelementptr (i8, ptr @data, i64 8)
@in_comdat = linkonce_odr global i32 5, comdat($shared)
@llvm.used = appending global [1 x ptr] [ptr @"quoted name"], section "llvm.metadata"

define internal i32 @one() { ret i32 1 }
define internal i32 @two() { ret i32 2 }
define internal ptr @resolve() { ret ptr @one }
@picked = ifunc i32 (), ptr @resolve

define internal i32 @scaled(i32 %x, i32 %k) {
  %m = mul i32 %x, %k
  %f = load i32, ptr @flag
  %r = add i32 %m, %f
  ret i32 %r
}

define internal void @bump() {
  %c = load i64, ptr @counter
  %d = add i64 %c, 1
  store i64 %d, ptr @counter
  ret void
}

define i32 @reads_tls() {
  %v = load i32, ptr @tls_alias
  %w = load i32, ptr @1
  %s = add i32 %v, %w
  call void @bump()
  ret i32 %s
}

define i32 @calls_table(i32 %i) {
  %p = getelementptr [2 x ptr], ptr @table, i32 0, i32 %i
  %f = load ptr, ptr %p
  %r = call i32 %f()
  %q = call i32 @picked()
  %s = add i32 %r, %q
  %t = call i32 @scaled(i32 %s, i32 3)
  call void @bump()
  ret i32 %t
}

define i32 @with_asm(i32 %x) {
  %y = call i32 asm "lea 1($1), $0", "=r,r"(i32 %x)
  %z = call i32 @scaled(i32 %y, i32 3)
  ret i32 %z
}

define linkonce_odr i32 @odr_helper(i32 %x) comdat($shared) {
  %y = load i32, ptr @in_comdat
  %z = add i32 %x, %y
  ret i32 %z
}

define i32 @jumps(i32 %x) {
entry:
  %t = icmp eq i32 %x, 0
  %a = select i1 %t, ptr blockaddress(@jumps, %zero), ptr blockaddress(@jumps, %other)
  indirectbr ptr %a, [label %zero, label %other]
zero:
  ret i32 0
other:
  %q = load i32, ptr @"quoted name"
  %r = call i32 @odr_helper(i32 %q)
  ret i32 %r
}

define ptr @greeting() { ret ptr @0 }

; a table never written: GlobalOpt makes it constant unsplit, every subgraph folds its loads
define i8 @days_in(i32 %m) {
  %p = getelementptr [4 x i8], ptr @days, i32 0, i32 %m
  %d = load i8, ptr %p
  ret i8 %d
}

define i8 @days_in_first() {
  %d = load i8, ptr @days
  ret i8 %d
}

define i32 @main() {
  %a = call i32 @reads_tls()
  %b = call i32 @calls_table(i32 1)
  %c = call i32 @with_asm(i32 %a)
  %d = call i32 @jumps(i32 %b)
  %e = add i32 %c, %d
  %f = call i8 @days_in(i32 %e)
  %g = call i8 @days_in_first()
  %h = add i8 %f, %g
  %i = zext i8 %h to i32
  ret i32 %i
}
"""


@dataclass(frozen=True)
class Input:
    """One module: its name in the JSON file, its bytes (made on demand), its configs."""

    name: str
    load: Callable[[], bytes | str]
    configs: tuple[pf.Config, ...]
    #: built on this machine (may be missing from the recording), not always here
    corpus: bool = False


def _repo_files() -> list[Path]:
    """The LLVM IR inputs of lit-tests/ and tests/data that build (not the ones made to fail)."""
    found = sorted(ROOT.glob("lit-tests/backend/**/*.ll")) + sorted(ROOT.glob("lit-tests/symtab/*.ll"))
    return found + sorted((ROOT / "tests/data").rglob("*.ll"))


@functools.cache
def _genmodule() -> str:
    from fuzz import genmodule

    return genmodule.generate(7, genmodule.ModuleShape(functions=120, globals=6, helper_steps=3))


#: the two generated modules below as first drawn (2026-11-28): Hypothesis draws on constants
#: it finds in the project's own source, so a fixed seed draws another module after an edit
#: of the compiler; the plans are pinned on the stored text (`python -m tests.test_plan_facts`
#: draws and stores them again)
STORED = ROOT / "tests/data/plan-facts"


def _stored(name: str, draw: Callable[[], str]) -> Callable[[], str]:
    """A loader of the stored module `name` (drawn and stored when it is missing)."""

    def load() -> str:
        path = STORED / name
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(draw())
        return path.read_text()

    return load


@functools.cache
def _linkage_module() -> str:
    """The linkage module with a fragment of every feature, its local names renamed by every
    kind of name (`fuzz.strategies.names`), drawn with a fixed seed."""
    from fuzz.strategies import linkage
    from fuzz.strategies import names as names_strategy

    found: list[str] = []

    # a fixed seed, not `derandomize` (which seeds from the function's source: an edit here
    # would draw another module)
    @seed(20261128)
    @settings(max_examples=1, database=None, deadline=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(linkage.linkage_modules(max_fragments=len(linkage.FEATURES), every=True))
    def first(module: linkage.LinkageModule) -> None:
        found.append(module.render())

    first()
    text, _features = names_strategy.renamed(found[0], (names_strategy.NAME_KINDS, 11))
    return text


def _with_debug_info() -> str:
    from fuzz.strategies import debuginfo

    text, _features = debuginfo.decorate(_linkage_module(), 5)
    return text


def _inputs() -> Iterator[Input]:
    small = tuple(pf.matrix(costs=SMALL_COSTS, debug=True, prefix=True))
    for path in _repo_files():
        yield Input(str(path.relative_to(ROOT)), path.read_text, small)
    yield Input("HOSTILE", lambda: HOSTILE, small)
    yield Input("genmodule seed 7", _genmodule, small)
    yield Input("linkage module (every feature, every name kind)", _stored("linkage.ll.txt", _linkage_module), small)
    yield Input("linkage module with debug info", _stored("linkage-debug.ll.txt", _with_debug_info), small)


def _corpus_files() -> list[Path]:
    """The C programs' default builds for their current recipes (the cache also holds their
    `-g` builds and older recipes under the same names: recording those replaced the entry
    of the build CI makes), and the Rust programs' builds, `-g` ones included."""
    from fuzz import corpus

    c_builds = [path for program in corpus.PROGRAMS if (path := corpus.cached_module(program)) is not None]
    return sorted(c_builds) + sorted((ROOT / ".cache/corpus/rust").glob("*/module.bc"))


def _corpus_inputs() -> Iterator[Input]:
    # (the corpus's plans after the whole-module prefix are not recorded yet; `_corpus_files`
    # takes only the current recipe's build of each C program, so recording them would no
    # longer clash with the `-g` and older builds the cache holds under the same names)
    configs = tuple(pf.matrix(debug=True)) if FULL else (pf.Config(2, SplitMode.SUBGRAPH),)
    for path in _corpus_files():
        # the program's name, not its recipe's digest: other bytes skip, they do not fail (a
        # Rust program's `-g` build is a module of its own: "rust-regex -g")
        name = re.sub(r"-[0-9a-f]{16}(-g)?$", lambda m: " -g" if m.group(1) else "",
                      path.stem if path.parent.name == "bc" else path.parent.name)
        yield Input(name, path.read_bytes, configs, corpus=True)


INPUTS = list(_inputs())
CORPUS = list(_corpus_inputs())


# ------------------------------------------------------------------ the recorded file


def _read() -> dict[str, Any]:
    return json.loads(DATA.read_text()) if DATA.exists() else {}


def _write(name: str, digest: str, now: dict[str, dict[str, object]]) -> None:
    """Merge one module's plans into the file (the whole entry goes when its bytes changed).

    An entry: {"sha256": input bytes, "plans": {config: fingerprint}, "parts": {fingerprint:
    its parts' digests}} (many configs plan alike: each plan's parts are kept once)."""
    data = _read()
    entry = data.get(name)
    if entry is None or entry.get("sha256") != digest:
        entry = {"sha256": digest, "plans": {}, "parts": {}}
    for key, got in now.items():
        entry["plans"][key] = got["fingerprint"]
        entry["parts"][got["fingerprint"]] = got["parts"]
    used = set(entry["plans"].values())
    entry["plans"] = dict(sorted(entry["plans"].items()))
    entry["parts"] = {fp: p for fp, p in sorted(entry["parts"].items()) if fp in used}
    data[name] = entry
    DATA.write_text(_dumps(dict(sorted(data.items()))))


def _dumps(data: dict[str, Any]) -> str:
    """The file's JSON: one line per plan and per parts record (diffs stay readable)."""
    lines = ["{"]
    for i, (name, entry) in enumerate(data.items()):
        lines.append(f" {json.dumps(name)}: {{")
        lines.append(f'  "sha256": {json.dumps(entry["sha256"])},')
        for field in ("plans", "parts"):
            items = [f"   {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in entry[field].items()]
            lines.append(f'  "{field}": {{')
            lines.append(",\n".join(items))
            lines.append("  }" + ("," if field == "plans" else ""))
        lines.append(" }" + ("," if i < len(data) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _check(item: Input) -> None:
    data = item.load()
    digest = pf.input_digest(data)
    now = {config.key: pf.record(plan) for config, plan in pf.plans_for(data, item.configs, item.name)}
    if RECORD:
        _write(item.name, digest, now)
        return
    entry = _read().get(item.name)
    if entry is None and item.corpus:  # a program the recording's corpus did not have
        pytest.skip(f"{item.name}: not recorded (record it: see the module docstring)")
    if entry is None:
        pytest.fail(f"{item.name}: no recorded plans (record them: see the module docstring)")
    if entry["sha256"] != digest:
        pytest.skip(
            f"{item.name}: its input bytes differ from the recording's (sha256 {digest[:16]}, recorded "
            f"{entry['sha256'][:16]}): another clang or generator; re-record to pin it here"
        )
    missing = sorted(set(now) - set(entry["plans"]))
    assert not missing, f"{item.name}: plans not recorded: {missing}"
    changed = {
        key: pf.changed_parts({"parts": entry["parts"][entry["plans"][key]]}, got)
        for key, got in now.items()
        if entry["plans"][key] != got["fingerprint"]
    }
    assert not changed, f"{item.name}: {len(changed)} of {len(now)} plans changed (the parts that differ): {changed}"


@pytest.mark.parametrize("item", INPUTS, ids=lambda i: i.name)
def test_plans_keep_their_fingerprints(item: Input) -> None:
    _check(item)


_NO_CORPUS = pytest.param(
    None, id="no corpus", marks=pytest.mark.skip(reason="the corpus is not built (.cache/corpus/bc, .cache/corpus/rust)")
)


@pytest.mark.parametrize("item", [pytest.param(i, id=i.name) for i in CORPUS] or [_NO_CORPUS])
def test_corpus_plans_keep_their_fingerprints(item: Input) -> None:
    _check(item)


# ------------------------------------------------------------------ the fingerprint itself


def test_the_fingerprint_knows_every_field_of_a_plan() -> None:
    """A field added to a plan, a subgraph or a cut must be judged: does it reach the
    objects? Then hash it (tests/plan_fingerprint.py) and record again."""
    [(_config, plan)] = pf.plans_for(HOSTILE, [pf.Config(2, SplitMode.SUBGRAPH, 1)], "HOSTILE")
    assert {f.name for f in dataclasses.fields(planner.SplitPlan)} == pf.PLAN_FIELDS
    assert set(vars(plan.subgraphs[0])) == pf.SUBGRAPH_FIELDS
    assert {f.name for f in dataclasses.fields(cut.CutSpec)} == pf.CUT_FIELDS


def test_the_same_plan_twice_has_the_same_fingerprint() -> None:
    """Planning is deterministic within a process (across processes: the recorded file)."""
    config = pf.Config(2, SplitMode.SUBGRAPH, 300)
    data = _linkage_module()
    [(_c, first)] = pf.plans_for(data, [config], "linkage")
    [(_c, second)] = pf.plans_for(data, [config], "linkage")
    assert pf.record(first) == pf.record(second)


def test_a_changed_policy_changes_a_fingerprint(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fingerprint sees a plan change: fewer copies of small locals (`copy_cost` 60 -> 10)."""
    configs = pf.matrix(costs=(300,), levels=(2,), modes=(SplitMode.SUBGRAPH,))
    data = _genmodule()
    before = [pf.fingerprint(plan) for _config, plan in pf.plans_for(data, configs, "genmodule")]
    real = planner.plan

    def fewer_copies(text: str, **kwargs: Any) -> planner.SplitPlan:
        return real(text, **{**kwargs, "policy": dataclasses.replace(kwargs["policy"], copy_cost=10)})

    monkeypatch.setattr(planner, "plan", fewer_copies)
    after = [pf.fingerprint(plan) for _config, plan in pf.plans_for(data, configs, "genmodule")]
    assert before != after


def test_canonical_refuses_what_it_cannot_order() -> None:
    """No `repr` fallback: an address in a fingerprint would differ on every run."""
    with pytest.raises(TypeError):
        pf.canonical(object())
    assert pf.canonical({"b": {2, 1}, "a": frozenset()}) == [["a", []], ["b", [1, 2]]]


if __name__ == "__main__":  # draw the stored modules again (then re-record their fingerprints)
    for stored in ("linkage.ll.txt", "linkage-debug.ll.txt"):
        (STORED / stored).unlink(missing_ok=True)
    for item in INPUTS:
        if item.name.startswith("linkage module"):
            item.load()
