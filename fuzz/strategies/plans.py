"""The Hypothesis strategy for check plans: which split configurations to compare with the
reference, at which -O, -j and split costs."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from hypothesis import strategies as st

from compiler.backend import split_mode
from fuzz.properties.model import PIECE_COSTS, BuildConfig, CheckPlan

#: configurations as swarm features: the default campaign builds one plan in DEBUG_ONE_IN with
#: `-g` (its LLVM IR programs get generated debug info, `fuzz.strategies.debuginfo`) and one in
#: CROSS_ONE_IN for AArch64 where the cross tools and QEMU are installed (`fuzz.cross`); chosen
#: so that `ember fuzz` stays about a minute (docs/fuzzing.md, "Coverage")
DEBUG_ONE_IN = 6
CROSS_ONE_IN = 8


@st.composite
def check_plans(
    draw: st.DrawFn,
    modes: Iterable[str] = split_mode.SPLITTING,
    jobs: tuple[int, ...] = (1, 2),
    opt_levels: tuple[int, ...] = (2, 0, 1, 3),
    max_cost: int = 200,
    opt_check: bool = True,
    determinism: bool = True,
    candidate: str | None = None,
    debug: bool | None = False,
    target: str | None = None,
    debug_one_in: int = DEBUG_ONE_IN,
    swarm_target: str | None = None,
    swarm_target_runs: bool = False,
    cross_one_in: int = CROSS_ONE_IN,
) -> CheckPlan:
    """The -O level, a small split cost (many subgraphs), a level-2 piece cost, a -j per mode, one -j pair;
    `-g` for every build when `debug` (None: drawn, one plan in `debug_one_in`); every build for
    `target` (None: the host). With `swarm_target` (and no `target`), one plan in `cross_one_in`
    is drawn for it, and built for it when `swarm_target_runs` (its programs can run here): the
    draws are the same on every machine, only what a plan builds differs."""
    opt = draw(st.sampled_from(opt_levels), label="opt")
    cost = draw(st.integers(1, max_cost), label="split cost")
    # generated programs are far below the planner's piece cost (planner.LEVEL2_PIECE_COST):
    # small piece costs make level 2 cut them
    piece = draw(st.one_of(st.none(), st.sampled_from(PIECE_COSTS)), label="level-2 piece cost")
    configs = [BuildConfig(mode, draw(st.sampled_from(jobs)), opt, cost, piece_cost=piece) for mode in modes]
    if determinism and len(set(jobs)) > 1 and configs:
        base = configs[draw(st.integers(0, len(configs) - 1))]
        other = next(j for j in jobs if j != base.jobs)
        configs.append(BuildConfig(base.split, other, opt, cost, piece_cost=piece))
    g = draw(st.integers(0, debug_one_in - 1), label="-g") == debug_one_in - 1 if debug is None else debug
    if target is None and swarm_target is not None:
        crossed = draw(st.integers(0, cross_one_in - 1), label="target") == cross_one_in - 1
        target = swarm_target if crossed and swarm_target_runs else None
    if g:
        configs = [dataclasses.replace(c, debug=True) for c in configs]
    if target is not None:
        configs = [dataclasses.replace(c, target=target) for c in configs]
    if candidate is not None:
        configs.append(BuildConfig(opt=opt, candidate=candidate))
    return CheckPlan(opt, cost, tuple(configs), opt_check, g, target)
