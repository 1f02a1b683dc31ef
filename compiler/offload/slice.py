"""Slice kernels out of the program's MLIR module into a device module for NVPTX.

A device module holds the chosen `@kernel` functions (found by their `ember.kernel`
attribute) and every function they call, transitively (copied: the host keeps its own).
The host-side index helpers (`@ember.gpu.tid.x`, which read the CPU emulator's context)
are replaced by definitions reading the PTX special registers with the upstream `nvvm`
dialect, and `ember_trap` by a device definition (`llvm.trap`: the launch fails).
Kernels become public `ember_kernel_<name>` entries; `nvvm.kernel` is attached after
lowering (it is only legal on `llvm.func`), see compiler/offload/ptx.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from compiler.diagnostics import EmberError, Location
from compiler.midend import pipeline

#: Attribute the frontend puts on every kernel's `func.func`.
KERNEL_ATTR = "ember.kernel"
#: Prefix of device entry names (PTX identifiers cannot contain '.').
ENTRY_PREFIX = "ember_kernel_"
_SREG = ("tid", "ctaid", "ntid", "nctaid")
_INTERNAL = "llvm.linkage = #llvm.linkage<internal>"


@dataclass(frozen=True)
class ProgramFunctions:
    """The program module's functions: text, callees and which are kernels, in module order."""

    order: list[str]
    text: dict[str, str]
    callees: dict[str, list[str]]
    kernels: list[str]  # host symbols, e.g. "ember.saxpy"


def entry_name(host_symbol: str) -> str:
    """`ember.saxpy` -> `ember_kernel_saxpy` (the PTX `.entry` name)."""
    return ENTRY_PREFIX + host_symbol.split(".", 1)[-1]


def kernel_name(host_symbol: str) -> str:
    """`ember.saxpy` -> `saxpy` (the Ember name)."""
    return host_symbol.split(".", 1)[-1]


def _device_index_helper(symbol: str) -> str:
    _, _, reg, axis = symbol.split(".")
    return "\n".join([
        f"func.func private @{symbol}() -> (i64) attributes {{{_INTERNAL}, passthrough = [\"alwaysinline\"]}} {{",
        f"  %r = nvvm.read.ptx.sreg.{reg}.{axis} : i32",
        "  %v = arith.extui %r : i32 to i64",
        "  return %v : i64",
        "}",
    ])


#: On the device a trap ends the launch with an error (the code is not transported yet).
_DEVICE_TRAP = "\n".join([
    f'func.func private @ember_trap(%code: i64) attributes {{{_INTERNAL}, passthrough = ["noreturn", "cold", "nounwind"]}} {{',
    '  llvm.call_intrinsic "llvm.trap"() : () -> ()',
    "  return",
    "}",
])


def _is_device_index(symbol: str) -> bool:
    parts = symbol.split(".")
    return len(parts) == 4 and parts[:2] == ["ember", "gpu"] and parts[2] in _SREG and parts[3] in ("x", "y", "z")


def read_program(mlir_text: str, path: str) -> ProgramFunctions:
    """Parse the program module and index its functions (kernels renamed for the device)."""
    with pipeline.mlir_context():
        module = pipeline.parse_module(mlir_text, path)
        order: list[str] = []
        text: dict[str, str] = {}
        callees: dict[str, list[str]] = {}
        kernels: list[str] = []
        for op in module.body.operations:
            if op.operation.name != "func.func":
                continue
            name = ir.StringAttr(op.attributes["sym_name"]).value
            calls: list[str] = []

            def visit(inner: ir.Operation, calls: list[str] = calls) -> ir.WalkResult:
                if inner.name == "func.call":
                    calls.append(ir.FlatSymbolRefAttr(inner.attributes["callee"]).value)
                return ir.WalkResult.ADVANCE

            op.operation.walk(visit)
            if KERNEL_ATTR in op.attributes:
                kernels.append(name)
                op.attributes["sym_name"] = ir.StringAttr.get(entry_name(name))
                if "sym_visibility" in op.attributes:
                    del op.attributes["sym_visibility"]
                if "llvm.linkage" in op.attributes:
                    del op.attributes["llvm.linkage"]
            order.append(name)
            text[name] = op.operation.get_asm(assume_verified=True)
            callees[name] = list(dict.fromkeys(calls))
    return ProgramFunctions(order, text, callees, kernels)


def device_module_text(program: ProgramFunctions, kernels: list[str], path: str = "<program>") -> str:
    """MLIR text of the device module for `kernels` (host symbols): kernels plus callees."""
    unknown = [k for k in kernels if k not in program.kernels]
    if unknown:
        raise EmberError(f"'{unknown[0]}' is not a kernel of this program", Location(path))
    seen: dict[str, None] = {}
    stack = list(kernels)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen[name] = None
        stack.extend(c for c in program.callees.get(name, []) if c not in seen)
    parts: list[str] = []
    for name in sorted(n for n in seen if _is_device_index(n)):
        parts.append(_device_index_helper(name))
    if "ember_trap" in seen:
        parts.append(_DEVICE_TRAP)
    for name in program.order:  # module order: the same in both flows
        if name in seen and not _is_device_index(name) and name != "ember_trap":
            parts.append(program.text[name])
    for name in seen:
        if name not in program.text and not _is_device_index(name) and name != "ember_trap":
            raise EmberError(f"kernel code calls '{name}', which has no definition for the GPU", Location(path))
    return "\n".join(parts) + "\n"
