"""Embed each kernel's PTX in the host module: the `ember_gpu_kernels` table that the
runtime's `ember_gpu_launch` (compiler/runtime/ember_gpu.c) hands to the GPU launcher.

The table is LLVM IR appended to the host module before the back end runs, so split and
unsplit builds see the same globals and produce the same symbol table.
"""

from __future__ import annotations

from compiler.offload import flows
from compiler.offload.slice import read_program

#: The exported globals the runtime reads (weak references there: no table, no GPU).
TABLE = "ember_gpu_kernels"
COUNT = "ember_gpu_kernel_count"


def ir_string(text: str) -> tuple[str, int]:
    """A NUL-terminated LLVM IR `c"..."` literal of `text` (UTF-8) and its length in bytes."""
    data = text.encode("utf-8") + b"\0"
    body = "".join(chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\{b:02X}" for b in data)
    return f'c"{body}"', len(data)


def kernel_table_ir(ptx_by_kernel: dict[str, str]) -> str:
    """Private string constants for each kernel's name and PTX, and the exported table."""
    lines = []
    rows = []
    for i, (name, ptx) in enumerate(ptx_by_kernel.items()):
        for what, text in (("name", name), ("ptx", ptx)):
            literal, n = ir_string(text)
            lines.append(f"@ember.gpu.{what}.{i} = private unnamed_addr constant [{n} x i8] {literal}, align 1")
        rows.append(f"{{ ptr, ptr }} {{ ptr @ember.gpu.name.{i}, ptr @ember.gpu.ptx.{i} }}")
    n = len(rows)
    lines.append(f"@{TABLE} = constant [{n} x {{ ptr, ptr }}] [{', '.join(rows)}], align 8")
    lines.append(f"@{COUNT} = constant i64 {n}, align 8")
    return "\n".join(lines) + "\n"


def has_kernels(mlir_text: str) -> bool:
    """Cheap test before slicing: the frontend marks kernels with the `ember.kernel` attribute."""
    return "ember.kernel" in mlir_text


def embedded_table(
    mlir_text: str, path: str, flow: str, arch: str, opt_level: int, jobs: int
) -> str | None:
    """The table for a program module's kernels (PTX for `arch`), or None without kernels
    (callers test `has_kernels` first, to skip reading the module)."""
    program = read_program(mlir_text, path)
    if not program.kernels:
        return None
    result = flows.compile_program(program, path, flow, (arch,), opt_level, jobs)
    return kernel_table_ir({name: by_arch[arch] for name, by_arch in result.ptx.items()})
