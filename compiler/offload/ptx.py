"""Device MLIR -> LLVM IR -> PTX: the MLIR pipeline, kernel marking and NVPTX codegen.

The device module goes through the same midend and lowering as the host (so a kernel
computes exactly what the CPU emulator computes), then every `llvm.func` that carries
`ember.kernel` gets the upstream `nvvm.kernel` attribute, which MLIR's NVVM translation
turns into LLVM's `ptx_kernel` calling convention (a PTX `.entry`). llvmlite's NVPTX
target then writes PTX for each requested `sm_XX`.
"""

from __future__ import annotations

import re

import llvmlite.binding as llvm
from mlir import ir

from compiler.backend import llvm_stage
from compiler.midend import pipeline
from compiler.offload.slice import KERNEL_ATTR

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"
#: GPU architectures Ember emits PTX for (Ampere, Hopper).
ARCHS = ("sm_80", "sm_90")


def device_llvm_ir(device_mlir: str, opt_level: int, path: str = "<device>") -> str:
    """Run the midend and lowering on a device module; mark kernels; translate to LLVM IR."""
    with pipeline.mlir_context():
        module = pipeline.parse_module(device_mlir, path)
        pipeline.optimise(module, opt_level, path)
        pipeline.lower_to_llvm_dialect(module, path)
        for op in module.body.operations:
            if op.operation.name == "llvm.func" and KERNEL_ATTR in op.attributes:
                del op.attributes[KERNEL_ATTR]
                op.attributes["nvvm.kernel"] = ir.UnitAttr.get()
        return pipeline.translate_to_llvm_ir(module, path)


def _target_machine(arch: str, opt_level: int) -> llvm.TargetMachine:
    """A fresh NVPTX target machine: one generates code for one module only (see llvm_stage.emit_assembly)."""
    llvm_stage.target_machine(None, opt_level)  # initialises every target
    target = llvm.Target.from_triple(NVPTX_TRIPLE)
    return target.create_target_machine(cpu=arch, opt=opt_level)


def ptx_from_llvm_ir(ir_text: str, arch: str, opt_level: int, path: str = "<device>") -> str:
    """Optimise device LLVM IR with LLVM's O<n> pipeline for `arch` and emit PTX text."""
    tm = _target_machine(arch, opt_level)
    module = llvm_stage.parse_ir(ir_text, path)
    llvm_stage.prepare(module, tm, force_triple=True)
    llvm_stage.optimise(module, tm, opt_level)
    return _CALLSEQ.sub("", llvm_stage.emit_assembly(module, tm))


#: NVPTX numbers call sequences with a counter that lives as long as the process, so the
#: same module printed after others gets other numbers; the comments go (the PTX then
#: depends on the module only, and objects embedding it are the same at every -j).
_CALLSEQ = re.compile(r"[ \t]*// callseq \d+(?:, \d+)?")
