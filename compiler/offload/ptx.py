"""Device MLIR -> LLVM IR -> PTX: the MLIR pipeline, kernel marking and NVPTX codegen.

The device module goes through the same midend and lowering as the host (so a kernel
computes exactly what the CPU emulator computes), then every `llvm.func` that carries
`ember.kernel` gets the upstream `nvvm.kernel` attribute, which MLIR's NVVM translation
turns into LLVM's `ptx_kernel` calling convention (a PTX `.entry`). LLVM's NVPTX
target (the native engine) then writes PTX for each requested `sm_XX`.
"""

from __future__ import annotations

import re

from mlir import ir

from compiler.backend import engine, llvm_stage
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


def ptx_from_llvm_ir(ir_text: str, arch: str, opt_level: int, path: str = "<device>") -> str:
    """Optimise device LLVM IR with LLVM's O<n> pipeline for `arch` and emit PTX text."""
    target = engine.Target.for_triple(NVPTX_TRIPLE, opt_level, arch)
    with llvm_stage.native(ir_text, path) as module:
        module.prepare(target, force_triple=True)
        llvm_stage.optimise(module, target, opt_level)
        return _CALLSEQ.sub("", llvm_stage.emit_assembly(module, target))


#: NVPTX numbers call sequences with a counter that lives as long as the process, so the
#: same module printed after others gets other numbers; the comments go (the PTX then
#: depends on the module only, and objects embedding it are the same at every -j).
_CALLSEQ = re.compile(r"[ \t]*// callseq \d+(?:, \d+)?")
