"""The two offload flows: per-kernel (one MLIR pipeline per kernel) and all-kernel (one
MLIR pipeline for every kernel, then the split back end's planner and worker pool compile
one subgraph per kernel to PTX in parallel).

Both return `OffloadResult.ptx[kernel][arch]`: one self-contained PTX module per kernel
(the kernel and private copies of everything it calls), the unit the host loads.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from compiler.backend import planner, pool, split
from compiler.offload import ptx as ptxgen
from compiler.offload.slice import (
    ProgramFunctions,
    device_module_text,
    entry_name,
    kernel_name,
    read_program,
)

FLOWS = ("per-kernel", "all-kernel")


@dataclass
class OffloadResult:
    """PTX per kernel (Ember name) and architecture, plus wall time per stage."""

    ptx: dict[str, dict[str, str]]
    seconds: dict[str, float] = field(default_factory=dict)


def per_kernel(program: ProgramFunctions, archs: tuple[str, ...], opt_level: int, path: str = "<program>") -> OffloadResult:
    """Slice, run the MLIR pipeline and generate PTX for each kernel on its own, serially."""
    out: dict[str, dict[str, str]] = {}
    t0 = time.perf_counter()
    for k in program.kernels:
        ir_text = ptxgen.device_llvm_ir(device_module_text(program, [k], path), opt_level, path)
        out[kernel_name(k)] = {arch: ptxgen.ptx_from_llvm_ir(ir_text, arch, opt_level, path) for arch in archs}
    return OffloadResult(out, {"per-kernel": time.perf_counter() - t0})


def nvptx_task(text: str, archs: tuple[str, ...], opt_level: int) -> dict[str, str]:
    """Worker side of the all-kernel flow: one subgraph (kernels + callee copies) to PTX per arch."""
    return {arch: ptxgen.ptx_from_llvm_ir(text, arch, opt_level, "<device subgraph>") for arch in archs}


def all_kernel(
    program: ProgramFunctions,
    archs: tuple[str, ...],
    opt_level: int,
    jobs: int,
    path: str = "<program>",
    worker_timeout: float = 600.0,
) -> OffloadResult:
    """One device module for every kernel through one MLIR pipeline; then one subgraph per
    kernel (the split planner with every kernel as an anchor) compiled to PTX in workers."""
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    ir_text = ptxgen.device_llvm_ir(device_module_text(program, program.kernels, path), opt_level, path)
    seconds["mlir"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    # a target cost of 1 gives one subgraph per kernel (up to planner.MAX_SUBGRAPHS); device
    # code cannot call into another PTX module, so every local a kernel reaches is copied
    the_plan = split.plan_module(ir_text, planner.PlanPolicy(target_cost=1, copy_closure=True), name=path)
    seconds["split"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    tasks = [(sg.text, (sg.text, archs, opt_level)) for sg in the_plan.subgraphs]
    results = pool.run(jobs, nvptx_task, tasks, worker_timeout, doing="compiling a kernel to PTX")
    seconds["nvptx"] = time.perf_counter() - t0
    out: dict[str, dict[str, str]] = {}
    entries = {entry_name(k): kernel_name(k) for k in program.kernels}
    for sg, result in zip(the_plan.subgraphs, results, strict=True):
        assert isinstance(result, dict)
        for member in sg.members:
            if member in entries:
                out[entries[member]] = result
    ordered = {kernel_name(k): out[kernel_name(k)] for k in program.kernels}
    return OffloadResult(ordered, seconds)


def compile_kernels(
    mlir_text: str, path: str, flow: str, archs: tuple[str, ...], opt_level: int, jobs: int
) -> OffloadResult:
    """Every kernel of a program module to PTX with the chosen flow."""
    return compile_program(read_program(mlir_text, path), path, flow, archs, opt_level, jobs)


def compile_program(
    program: ProgramFunctions, path: str, flow: str, archs: tuple[str, ...], opt_level: int, jobs: int
) -> OffloadResult:
    """`compile_kernels` for a program already read."""
    if flow == "per-kernel":
        return per_kernel(program, archs, opt_level, path)
    return all_kernel(program, archs, opt_level, jobs, path)
