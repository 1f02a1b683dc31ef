"""Kernel slicing and PTX: per-kernel and all-kernel flows agree, signatures are the
ones the CUDA ABI of the lowered kernels implies, ptxas accepts the PTX (when present)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from compiler.frontend import emit_mlir_text
from compiler.offload import flows, ptxas, ptxlink
from compiler.offload.ptx import ARCHS
from compiler.offload.slice import device_module_text, read_program
from tests import offload_compare as compare

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gpu_kernels.em"

#: Buffer[T] arguments are memref descriptors: allocated and aligned pointers, offset, size, stride.
BUF = [".u64 .ptr", ".u64 .ptr", ".u64", ".u64", ".u64"]
#: The example's kernels and their PTX parameters, written by hand from their Ember signatures.
SIGNATURES = {
    "ember_kernel_saxpy": [".f64", *BUF, *BUF, ".u64"],
    "ember_kernel_vadd": [*BUF, *BUF, *BUF, ".u64"],
    "ember_kernel_block_sum": [*BUF, *BUF, ".u64"],
    "ember_kernel_matmul": [*BUF, *BUF, *BUF, ".u64"],
    "ember_kernel_hash_ints": [*BUF, *BUF, ".u64"],
}

SHARED = """
@noinline
def scale(v: Int, f: Int) -> Int:
    return v * f + f // 3

@kernel
def k1(out: Buffer[Int], flag: Bool, small: Int32, tiny: Int8, w: Float32) -> None:
    i = global_idx_x()
    out[i] = scale(i, 3) + Int(small) + Int(tiny) + Int(w) + (1 if flag else 0)

@kernel
def k2(out: Buffer[Int]) -> None:
    out[thread_idx_y()] = scale(block_idx_z(), 5) + grid_dim_x()

def main() -> None:
    pass
"""


@pytest.fixture(scope="module")
def both_flows() -> dict[str, dict[str, flows.OffloadResult]]:
    out = {}
    for name, source in (("example", EXAMPLE.read_text()), ("shared", SHARED)):
        mlir = emit_mlir_text(source, f"{name}.em")
        out[name] = {
            flow: flows.compile_kernels(mlir, f"{name}.em", flow, ARCHS, 2, 2) for flow in flows.FLOWS
        }
    return out


def test_entries_and_parameters(both_flows: dict[str, dict[str, flows.OffloadResult]]) -> None:
    for flow in flows.FLOWS:
        result = both_flows["example"][flow]
        assert list(result.ptx) == ["saxpy", "vadd", "block_sum", "matmul", "hash_ints"]
        for name, by_arch in result.ptx.items():
            for arch in ARCHS:
                sigs = compare.entry_signatures(by_arch[arch])
                assert sigs == {f"ember_kernel_{name}": SIGNATURES[f"ember_kernel_{name}"]}
                assert f".target {arch}" in by_arch[arch]
    k1 = both_flows["shared"]["all-kernel"].ptx["k1"]["sm_80"]
    assert compare.entry_signatures(k1) == {"ember_kernel_k1": [*BUF, ".u8", ".u32", ".u8", ".f32"]}


def test_special_registers(both_flows: dict[str, dict[str, flows.OffloadResult]]) -> None:
    ptx = both_flows["example"]["all-kernel"].ptx
    for reg in ("%tid.x", "%ctaid.x", "%ntid.x"):
        assert reg in ptx["saxpy"]["sm_80"]
    assert "%tid.y" in ptx["matmul"]["sm_80"] and "%ctaid.y" in ptx["matmul"]["sm_80"]
    k2 = both_flows["shared"]["per-kernel"].ptx["k2"]["sm_90"]
    for reg in ("%tid.y", "%ctaid.z", "%nctaid.x"):
        assert reg in k2
    assert "%tid.x" not in k2


@pytest.mark.parametrize("program", ["example", "shared"])
def test_flows_give_equivalent_ptx(both_flows: dict[str, dict[str, flows.OffloadResult]], program: str) -> None:
    per, whole = both_flows[program]["per-kernel"], both_flows[program]["all-kernel"]
    assert list(per.ptx) == list(whole.ptx)
    for name in per.ptx:
        for arch in ARCHS:
            a, b = per.ptx[name][arch], whole.ptx[name][arch]
            assert compare.entry_signatures(a) == compare.entry_signatures(b)
            assert compare.normalise_ptx(a) == compare.normalise_ptx(b), f"{name} {arch}"


def test_normalisation_keeps_real_differences() -> None:
    a = ".entry k(\n\t.param .u64 k_param_0\n)\n{\n\tadd.s64 %rd1, %rd2, 1; // callseq 0\n}\n"
    assert compare.normalise_ptx(a) == compare.normalise_ptx(a.replace("callseq 0", "callseq 7"))
    assert compare.normalise_ptx(a) != compare.normalise_ptx(a.replace("add.s64", "sub.s64"))
    assert compare.entry_signatures(a) == {"k": [".u64"]}


def test_slice_holds_kernels_and_callees_only() -> None:
    program = read_program(emit_mlir_text(EXAMPLE.read_text(), "ex.em"), "ex.em")
    device = device_module_text(program, ["ember.hash_ints"])
    assert "@ember_kernel_hash_ints" in device and "@ember.mix" in device  # copied callee
    assert "ember_kernel_saxpy" not in device and "@ember.main" not in device
    assert "ember_put" not in device and "ember.gpu.ctx" not in device  # no host-only code
    assert "nvvm.read.ptx.sreg.tid.x" in device and "llvm.trap" in device
    assert "ember.mix" in program.text and "ember.main" in program.order  # the host keeps its own copy


@pytest.mark.skipif(ptxas.find_ptxas() is None, reason="ptxas (CUDA toolkit) is not installed")
def test_ptxas_accepts_every_kernel(both_flows: dict[str, dict[str, flows.OffloadResult]]) -> None:
    for program in both_flows.values():
        for name, by_arch in program["all-kernel"].ptx.items():
            for arch in ARCHS:
                assert ptxas.check(by_arch[arch], arch) == "", name


@pytest.mark.skipif(ptxas.find_ptxas() is None, reason="ptxas (CUDA toolkit) is not installed")
def test_ptxas_rejects_broken_ptx(both_flows: dict[str, dict[str, flows.OffloadResult]]) -> None:
    ptx = both_flows["example"]["per-kernel"].ptx["saxpy"]["sm_80"]
    assert ptxas.check(ptx.replace("ret;", "ret_not_an_instruction;"), "sm_80") != ""


def test_cli_emit_ptx(tmp_path: Path) -> None:
    out = tmp_path / "k.ptx"
    cmd = [sys.executable, "-m", "compiler.cli", "build", str(EXAMPLE), "--emit", "ptx", "-o", str(out),
           "--offload-flow", "per-kernel", "--gpu-arch", "sm_90", "-O1"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert text.count(".visible .entry ") == 5 and text.count(".target sm_90") == 1  # ONE module
    assert "// ember kernel matmul (sm_90)" in text


def _emit_ptx(source: Path, out: Path | str, flow: str, *extra: str) -> None:
    cmd = [sys.executable, "-m", "compiler.cli", "build", str(source), "--emit", "ptx", "-o", str(out),
           "--offload-flow", flow, *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


KERNEL_EXAMPLES = sorted(p for p in EXAMPLE.parent.glob("*.em") if "@kernel" in p.read_text())


@pytest.mark.skipif(ptxas.find_ptxas() is None, reason="ptxas (CUDA toolkit) is not installed")
@pytest.mark.parametrize("flow", flows.FLOWS)
@pytest.mark.parametrize("example", KERNEL_EXAMPLES, ids=lambda p: p.name)
def test_ptxas_accepts_the_output_file(tmp_path: Path, example: Path, flow: str) -> None:
    out = tmp_path / "k.ptx"
    _emit_ptx(example, out, flow)
    assert ptxas.check(out.read_text(), "sm_80") == ""


@pytest.mark.skipif(ptxas.find_ptxas() is None, reason="ptxas (CUDA toolkit) is not installed")
@pytest.mark.parametrize("flow", flows.FLOWS)
def test_ptxas_accepts_linked_copies_of_a_shared_helper(tmp_path: Path, flow: str) -> None:
    """At -O0 every kernel's module defines `ember_trap` and `scale`: per-kernel, the link renames
    the later copies (all-kernel, the planner already named them apart)."""
    src = tmp_path / "shared.em"
    src.write_text(SHARED)
    out = tmp_path / "k.ptx"
    _emit_ptx(src, out, flow, "-O0", "--gpu-arch", "sm_90")
    text = out.read_text()
    assert ("_$_link_$_1" in text) == (flow == "per-kernel") and text.count(".version") == 1
    assert ptxas.check(text, "sm_90") == ""


def test_concatenated_modules_are_rejected_and_linked_ones_split_back(both_flows: dict[str, dict[str, flows.OffloadResult]]) -> None:
    """The link is needed (two headers, duplicate `.func`s) and `-o DIR/` gets each kernel back."""
    by_kernel = {k: v["sm_80"] for k, v in both_flows["shared"]["per-kernel"].ptx.items()}
    linked = ptxlink.link_ptx(list(by_kernel.items()))
    assert linked.count(".version") == 1 and ptxlink.is_linked(linked)
    parts = ptxlink.split_linked(linked)
    assert list(parts) == ["k1", "k2"]
    for name, ptx in parts.items():
        assert compare.entry_signatures(ptx) == compare.entry_signatures(by_kernel[name])
    if ptxas.find_ptxas() is not None:
        assert ptxas.check("\n".join(by_kernel.values()), "sm_80") != ""
        for ptx in parts.values():
            assert ptxas.check(ptx, "sm_80") == ""


def test_rename_is_whole_identifier_only() -> None:
    text = ".func f(\n.param .b64 f_param_0\n)\n{ call.uni f, (f_param_0); ld.param.b64 %f, [f_param_0]; }"
    renamed = ptxlink.rename_symbols(text, {"f": "f_$_link_$_1"})
    assert ".func f_$_link_$_1(" in renamed and "call.uni f_$_link_$_1," in renamed
    assert "f_param_0" in renamed and "%f," in renamed


def test_cli_emit_ptx_to_a_directory(tmp_path: Path) -> None:
    out = tmp_path / "kernels"
    _emit_ptx(EXAMPLE, f"{out}/", "per-kernel")  # a trailing slash asks for a directory
    files = sorted(p.name for p in out.iterdir())
    assert files == sorted(f"{k}.ptx" for k in ("saxpy", "vadd", "block_sum", "matmul", "hash_ints"))
    for f in out.iterdir():
        assert (f.read_text().count(".entry ")) == 1
        if ptxas.find_ptxas() is not None:
            assert ptxas.check(f.read_text(), "sm_80") == "", f.name


def test_link_renames_a_later_module_variable_and_keeps_extern_declarations() -> None:
    head = ".version 7.0\n.target sm_80\n.address_size 64\n"
    body = (".extern .func vprintf(.param .b64 a);\n.global .align 1 .b8 $str[2] = {65, 0};\n"
            ".visible .entry ember_kernel_K()\n{\n\tmov.u64 %rd1, $str;\n\tret;\n}\n")
    linked = ptxlink.link_ptx([("a (sm_80)", head + body.replace("K", "a")), ("b (sm_80)", head + body.replace("K", "b"))])
    assert linked.count(".global .align 1 .b8 $str[2]") == 1 and "$str_$_link_$_1[2]" in linked
    assert "mov.u64 %rd1, $str_$_link_$_1;" in linked  # the second kernel uses its own copy
    # repeated declarations are legal PTX (ptxas accepts them)
    assert linked.count(".extern .func vprintf") == 2 and "vprintf_$_link" not in linked
    assert ".entry ember_kernel_b(" in linked  # entries are never renamed
