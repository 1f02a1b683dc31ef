"""A fingerprint of the split planner's decisions (`planner.SplitPlan`), and the plans as the
build makes them, for tests/test_plan_facts.py (docs/bench/plan-facts/DESIGN.md, step 0: the
oracle of the planner's move from text facts to facts read from the module in memory).

`fingerprint(plan)` is a sha256 over a canonical JSON of everything in a plan that reaches
the objects; `parts(plan)` hashes the same JSON part by part, so a changed fingerprint
says where it changed. `plans_for(module, configs)` loads a module as `ember build`
does before its split and plans it through `split.compile_split` itself, stopped by a
harness hook (`BuildHooks.plan`) the moment the plan exists: the policy is the build's own.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from compiler import driver
from compiler.backend import cut, engine, llvm_stage, planner, split, split_mode
from compiler.backend.split_mode import SplitMode
from compiler.hooks import BuildHooks

ROOT = Path(__file__).resolve().parent.parent

#: the opt levels and the split modes whose driver plans (`compile_split`); `auto` splits
#: in `policy.SPLIT_MODE` (subgraph) or not at all, so it has no plan of its own
LEVELS = (0, 1, 2, 3)
MODES: tuple[SplitMode, ...] = split_mode.SPLITTING

#: the fields of a plan, its subgraphs and their cuts this fingerprint was written for
#: (`test_plan_facts` fails when one appears or goes: decide whether it reaches the objects)
PLAN_FIELDS = frozenset({"subgraphs", "local_names", "private_names", "order", "work", "dead_when_unused", "merge_facts", "asm_probe"})
SUBGRAPH_FIELDS = frozenset({"index", "members", "cost", "cut", "_text", "_render"})
CUT_FIELDS = frozenset({"keep", "cold", "constants", "declared", "asm", "keepers", "callers", "inferred", "renamed"})
#: cut fields added after the recordings: hashed only where set, so a plan that does not use
#: them keeps its recorded fingerprint (`inferred`: the attributes the whole-module prefix's
#: child infers, which these plans, made without the prefix, never carry; `renamed`: clones
#: named by their clone's name, made only after the prefix)
CUT_FIELDS_WHEN_SET = frozenset({"inferred", "renamed"})


# ------------------------------------------------------------------ the fingerprint


def canonical(value: object) -> object:
    """`value` as JSON data that does not depend on set or dict order, nor on addresses:
    sets and dict items sorted, dataclasses by field name, enums by value, lists in order
    (their order is the planner's). Any other type is an error, never its `repr`."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, Enum):  # before str: SplitMode is a StrEnum
        return canonical(value.value)
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((canonical(v) for v in value), key=_sort_key)
    if isinstance(value, dict):
        return sorted(([canonical(k), canonical(v)] for k, v in value.items()), key=_sort_key)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: canonical(getattr(value, f.name)) for f in sorted(dataclasses.fields(value), key=lambda f: f.name)}
    raise TypeError(f"plan_fingerprint.canonical: no canonical form for {type(value).__qualname__}")


def _canonical_cut(spec: cut.CutSpec) -> dict[str, object]:
    """Every field of the cut (`cut.CutSpec`), so a field added to it counts at once, but those
    of `CUT_FIELDS_WHEN_SET` only where set."""
    return {
        f.name: canonical(getattr(spec, f.name)) for f in dataclasses.fields(cut.CutSpec)
        if f.name not in CUT_FIELDS_WHEN_SET or getattr(spec, f.name)
    }


def _sort_key(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def _plan_parts(plan: planner.SplitPlan) -> dict[str, object]:
    """The plan's decisions as canonical JSON data, part by part.

    Left out: `Subgraph.text` (the subgraph as text, rendered on demand; it is the same
    piece as `Subgraph.cut`, which tests/test_cut.py pins against it, and the worker gets
    the text only with `-g` or a harness's rewrite; the text path goes in DESIGN.md's step
    7), and `PlanWork.ratio` (derived). `order` is hashed as the names in their order:
    the link reads positions only relative to each other (`split._key`), and the text
    counts non-value entities into the absolute numbers where memory will not."""
    subgraphs = []
    for sg in plan.subgraphs:
        spec = sg.cut
        subgraphs.append(
            {
                "index": sg.index,
                "members": canonical(sg.members),
                "cost": sg.cost,
                # every field of the cut (`cut.CutSpec`), so a field added to it counts at once
                "cut": None if spec is None else _canonical_cut(spec),
            }
        )
    return {
        "work": canonical(plan.work),
        "subgraphs": subgraphs,
        "local_names": canonical(plan.local_names),
        "private_names": canonical(plan.private_names),
        "order": sorted(plan.order, key=lambda n: (plan.order[n], n)),
        "dead_when_unused": canonical(plan.dead_when_unused),
        "merge_facts": canonical(plan.merge_facts),
        # the probe as its cut (`planner.AsmProbe.text` renders the same piece as text)
        "asm_probe": None if plan.asm_probe is None else _canonical_cut(plan.asm_probe.cut),
    }


def _digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def fingerprint(plan: planner.SplitPlan) -> str:
    """sha256 over a canonical JSON of everything in `plan` that reaches the objects."""
    return _digest(_plan_parts(plan))


def parts(plan: planner.SplitPlan) -> dict[str, object]:
    """Short digests of each part of the plan (each subgraph on its own), to say what changed."""
    out: dict[str, object] = {}
    for key, data in _plan_parts(plan).items():
        if key == "subgraphs":
            assert isinstance(data, list)
            out[key] = [_digest(sg)[:12] for sg in data]
        else:
            out[key] = _digest(data)[:12]
    return out


def record(plan: planner.SplitPlan) -> dict[str, object]:
    """What the JSON file keeps of one plan: the fingerprint and its parts' digests."""
    return {"fingerprint": fingerprint(plan), "parts": parts(plan)}


def changed_parts(recorded: dict[str, object], now: dict[str, object]) -> list[str]:
    """The parts (and subgraph indices) whose digests differ between two `record`s."""
    a, b = recorded.get("parts"), now.get("parts")
    assert isinstance(a, dict) and isinstance(b, dict)
    out = []
    for key in sorted(a.keys() | b.keys()):
        if key == "subgraphs" and isinstance(a.get(key), list) and isinstance(b.get(key), list):
            x, y = a[key], b[key]
            if len(x) != len(y):
                out.append(f"subgraphs: {len(x)} recorded, {len(y)} now")
            else:
                out += [f"subgraph {i}" for i, (p, q) in enumerate(zip(x, y, strict=True)) if p != q]
        elif a.get(key) != b.get(key):
            out.append(key)
    return out


# ------------------------------------------------------------------ the plans as the build makes them


@dataclass(frozen=True)
class Config:
    """One plan of a module: opt level, split mode, `--subgraph-cost` (None: the default)
    and `-g` (debug info kept; without it the driver strips it before planning)."""

    level: int
    mode: SplitMode
    cost: int | None = None
    debug: bool = False
    #: the whole-module prefix first, as the default -O1/-O2 build runs it (`--split-prefix on`)
    prefix: bool = False

    @property
    def key(self) -> str:
        key = f"O{self.level} {self.mode} cost={self.cost or 'default'} {'-g' if self.debug else 'stripped'}"
        return f"{key} prefix" if self.prefix else key


def matrix(
    *, costs: Iterable[int | None] = (None,), debug: bool = False, levels: Iterable[int] = LEVELS, modes: Iterable[SplitMode] = MODES,
    prefix: bool = False,
) -> list[Config]:
    """Every level x mode x cost (x `-g` and not, with `debug`; x with the whole-module prefix
    and without, with `prefix`, at the levels it runs at); `function` mode ignores the cost
    (`compile_split` plans it as one subgraph), so it has only the default."""
    out = []
    for level in levels:
        for mode in modes:
            for cost in costs if mode != SplitMode.FUNCTION else (None,):
                for g in (False, True) if debug else (False,):
                    for first in (False, True) if prefix and level in llvm_stage.CUT_LEVELS else (False,):
                        out.append(Config(level, mode, cost, g, first))
    return out


class _Planned(Exception):
    """Raised by the plan hook: the plan exists, the workers need not start."""

    def __init__(self, plan: planner.SplitPlan) -> None:
        super().__init__("planned")
        self.plan = plan


def _stop(plan: planner.SplitPlan) -> planner.SplitPlan:
    raise _Planned(plan)


@dataclass
class DriverModule:
    """What the split driver hands the planner: the live module, its bitcode and module asm
    (the workers' cut source), the triple, and whether the input had debug info."""

    module: engine.Module
    bitcode: tuple[bytes, str]
    triple: str | None
    had_debug: bool
    #: with the whole-module prefix: the pipeline the subgraphs run, and the attributes inferred
    rest: str | None = None
    inferred: dict[str, tuple[tuple[int, str, int], ...]] | None = None


def driver_module(data: bytes | str, name: str, level: int, *, debug: bool, prefix: bool = False) -> DriverModule:
    """The live module as the split driver hands it to the planner, its bitcode, the triple,
    and whether the module had debug info.

    These are the steps of `compiler.driver._build_module` for `ember build -O<level> --split
    <mode> [-g]` of a `.ll`/`.bc` input, with no `--target`: parse and verify
    (`driver.load_llvm_module` calls `llvm_stage.native`), the module's triple or the
    host's, `prepare`, debug info stripped without `-g`, then the driver's own
    `split.prepare_whole_module` (unread table fields, plain names), written as bitcode
    without its module asm (`split.whole_module_bitcode`); with `prefix`, the whole-module
    prefix run first (`driver._whole_module_prefix`: the module parsed back from its bitcode,
    and what FunctionAttrs inferred), as `ember build -O1/-O2` does by default."""
    module = llvm_stage.native(data, name)
    try:
        target = llvm_stage.native_target(module.triple or None, level)
        module.prepare(target, force_triple=False)
        had_debug = module.has_debug_info()
        if not debug:
            module.strip_debug_info()
        split.prepare_whole_module(module, target, level)
        pipeline = llvm_stage.split_pipeline(level, target) if prefix else None
        if pipeline is None:
            return DriverModule(module, split.whole_module_bitcode(module), module.triple or None, had_debug)
        module, bitcode, found = driver._whole_module_prefix(module, pipeline.prefix, target, name, driver.StageTimes())
        return DriverModule(module, bitcode, module.triple or None, had_debug, pipeline.rest, found)
    except BaseException:
        module.close()
        raise


def plan_of(made: DriverModule, config: Config) -> planner.SplitPlan:
    """The plan `split.compile_split` makes of the live module `made` for `config` (it
    builds the policy), stopped before any worker starts (the plan closes the module)."""
    backend = split.BackendConfig(opt_level=config.level, triple=made.triple, in_process=True, pipeline=made.rest)
    try:
        split.compile_split(
            made.module, made.bitcode, config.mode, 1, backend, subgraph_cost=config.cost,
            hooks=BuildHooks(plan=(_stop,)), inferred=made.inferred)
    except _Planned as planned:
        return planned.plan
    raise AssertionError("compile_split returned without planning")


def plans_for(
    module: Path | bytes | str, configs: Iterable[Config] | None = None, name: str | None = None
) -> Iterator[tuple[Config, planner.SplitPlan]]:
    """Each config's plan (every level and mode by default) of `module`, a `.ll`/`.bc` file
    or its contents (LLVM IR text or bitcode), made as the build makes it; `-g` configs are
    skipped when the module has no debug info (the same plan as without). Each plan gets
    the live module as the driver hands it, made afresh (the plan closes it)."""
    if isinstance(module, Path):
        name = name or str(module)
        module = module.read_bytes() if module.suffix == ".bc" else module.read_text()
    data, name = module, name or "<module>"
    for config in matrix(debug=True) if configs is None else configs:
        made = driver_module(data, name, config.level, debug=config.debug, prefix=config.prefix)
        if config.debug and not made.had_debug:
            made.module.close()
            continue
        yield config, plan_of(made, config)


def input_digest(data: bytes | str) -> str:
    """sha256 of an input's bytes (a text input as UTF-8)."""
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()
