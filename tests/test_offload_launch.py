"""Launching kernels on a GPU: the PTX embedded in the host object, the runtime's launch
protocol (compiler/runtime/ember_gpu.c) and the GPU host (compiler/offload/gpu_host.py).

Without a GPU the CUDA driver calls cannot run; what is checked here is everything around
them: each kernel's PTX is in the object, a launch reaches the launcher with the right
kernel, configuration and arguments, the parameters the CUDA launcher would pass match
the PTX `.entry` parameter list, a launcher that runs the kernel replaces the emulator,
one that declines leaves it, and `--device gpu` without a GPU is a one-line error. On a
machine with a GPU, `test_gpu_run_equals_the_emulator` runs the kernels there.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from compiler import driver
from compiler.link import link_executable
from compiler.offload import embed, gpu_host, ptxlink
from oracle import runner, symtab
from tests import offload_compare as compare

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "gpu_kernels.em"
PROBE = Path(__file__).resolve().parent / "launch_probe.py"

#: PTX parameter type -> bytes
PARAM_BYTES = {".u8": 1, ".b8": 1, ".u16": 2, ".b16": 2, ".u32": 4, ".b32": 4, ".f32": 4, ".u64": 8, ".b64": 8, ".f64": 8}

ARGS_PROGRAM = """
@kernel
def fill(out: Buffer[Int], flag: Bool, small: Int8, mid: Int32, w: Float32, d: Float64, n: Int) -> None:
    i = global_idx_x()
    if i < n and flag:
        out[i] = Int(small) + Int(mid) + Int(w) + Int(d)

def main() -> None:
    out = Buffer[Int](6)
    fill[(2, 1, 1), (3, 1)](out, True, Int8(-2), Int32(-70000), Float32(1.5), -0.25, 5)
    for i in range(6):
        print(out[i])
"""


def _object(source: Path, **options: object) -> bytes:
    result = driver.build(str(source), driver.BuildOptions(**options))  # type: ignore[arg-type]
    assert isinstance(result.output, bytes)
    return result.output


def _library(obj: bytes, tmp: Path) -> Path:
    (tmp / "prog.o").write_bytes(obj)
    return link_executable([tmp / "prog.o"], tmp / "prog.so", shared=True)


def _probe(lib: Path, mode: str, tmp: Path) -> tuple[runner.RunResult, list[dict]]:
    out = tmp / f"{mode}.json"
    run = runner.run_command([sys.executable, str(PROBE), str(lib), mode, str(out)], limits=runner.Limits(timeout_s=60))
    return run, json.loads(out.read_text()) if out.exists() else []


def _embedded_ptx(obj: bytes, tmp: Path) -> dict[str, str]:
    """Kernel name -> PTX, read back from the object's data (the table's strings)."""
    path = tmp / "embedded.o"
    path.write_bytes(obj)
    with path.open("rb") as f:
        elf = ELFFile(f)
        data = b"".join(s.data() for s in elf.iter_sections() if s.name.startswith(".rodata"))
    ptx = [p.decode() for p in data.split(b"\0") if b".entry ember_kernel_" in p]
    return {text.split(".entry ember_kernel_")[1].split("(")[0]: text for text in ptx}


def test_object_embeds_each_kernels_ptx(tmp_path: Path) -> None:
    obj = _object(EXAMPLE)
    names = {s.name for s in symtab.read_symbols(obj)}
    assert {embed.TABLE, embed.COUNT} <= names
    emitted = driver.build(str(EXAMPLE), driver.BuildOptions(emit="ptx")).output
    assert isinstance(emitted, str)
    by_kernel = ptxlink.split_linked(emitted)
    embedded = _embedded_ptx(obj, tmp_path)
    assert set(embedded) == set(by_kernel) and len(embedded) >= 4
    for name, ptx in embedded.items():
        # the same PTX `--emit ptx` prints (there linked into one module: one header, no banner)
        assert compare.normalise_ptx(ptx) == compare.normalise_ptx(by_kernel[name]), name


def test_split_and_unsplit_objects_have_the_same_symbols_with_the_table() -> None:
    serial = symtab.read_symbols(_object(EXAMPLE))
    split = symtab.read_symbols(_object(EXAMPLE, split="two-level", jobs=2))
    diff = symtab.diff_symbols(serial, split)
    assert diff.clean, diff.render("--split none", "--split two-level")


def test_no_table_without_kernels_or_when_disabled(tmp_path: Path) -> None:
    src = tmp_path / "plain.em"
    src.write_text("def main() -> None:\n    print(1)\n")
    assert embed.TABLE not in {s.name for s in symtab.read_symbols(_object(src))}
    assert embed.TABLE not in {s.name for s in symtab.read_symbols(_object(EXAMPLE, embed_ptx=False))}


def test_declining_launcher_leaves_the_emulator_and_sees_every_launch(tmp_path: Path, ember) -> None:
    lib = _library(_object(EXAMPLE), tmp_path)
    run, launches = _probe(lib, "decline", tmp_path)
    cpu = ember("run", "--device", "cpu", str(EXAMPLE))
    assert run.exit_status == 0, run.stderr
    assert run.stdout.decode() == cpu.stdout  # the emulator ran every kernel
    source = EXAMPLE.read_text()
    launched = [entry["kernel"] for entry in launches]
    assert launched and all(f"{k}[" in source for k in launched)
    for entry in launches:
        sizes = [PARAM_BYTES[t.split()[0]] for t in entry["entry"]]
        assert sizes == entry["param_sizes"], entry["kernel"]  # what cuLaunchKernel would copy


def test_launch_arguments_reach_the_launcher(tmp_path: Path) -> None:
    src = tmp_path / "args.em"
    src.write_text(ARGS_PROGRAM)
    run, launches = _probe(_library(_object(src), tmp_path), "decline", tmp_path)
    assert run.exit_status == 0, run.stderr
    assert run.stdout.decode().split() == ["-70001"] * 5 + ["0"]  # the emulator's result
    (launch,) = launches
    assert launch["kernel"] == "fill" and launch["grid"] == [2, 1, 1] and launch["block"] == [3, 1, 1]
    args = launch["args"]
    assert [a["buffer"] for a in args] == [True] + [False] * 6
    assert args[0]["size"] == 8 and args[0]["count"] == 6
    assert [a["size"] for a in args[1:]] == [1, 1, 4, 4, 8, 8]
    assert [a["bits"] & ((1 << (8 * a["size"])) - 1) for a in args[1:]] == [
        1,
        0xFE,  # Int8(-2)
        (-70000) & 0xFFFFFFFF,
        0x3FC00000,  # Float32(1.5)
        0xBFD0000000000000,  # -0.25
        5,
    ]
    assert launch["entry"] == [".u64 .ptr", ".u64 .ptr", ".u64", ".u64", ".u64", ".u8", ".u8", ".u32", ".f32", ".f64", ".u64"]
    assert launch["param_sizes"] == [8, 8, 8, 8, 8, 1, 1, 4, 4, 8, 8]


def test_launcher_that_runs_the_kernel_replaces_the_emulator(tmp_path: Path) -> None:
    src = tmp_path / "args.em"
    src.write_text(ARGS_PROGRAM)
    run, launches = _probe(_library(_object(src), tmp_path), "fill", tmp_path)
    assert run.exit_status == 0, run.stderr
    assert len(launches) == 1
    # the probe wrote 7000 + i into the live host buffer; the emulator would have written -70001
    assert run.stdout.decode().split() == [str(7000 + i) for i in range(6)]


def test_a_launcher_that_raises_stops_the_program_with_one_line(tmp_path: Path) -> None:
    src = tmp_path / "args.em"
    src.write_text(ARGS_PROGRAM)
    run, _launches = _probe(_library(_object(src), tmp_path), "raise", tmp_path)
    assert run.exit_status == gpu_host.INTERNAL_STATUS and run.stdout == b""  # the emulator did not run instead
    (line,) = run.stderr.decode().strip().splitlines()
    assert line == "ember: error: the GPU launcher failed on kernel fill: ValueError('broken launcher')"


def test_exported_functions_named_like_libc_stay_the_programs(tmp_path: Path) -> None:
    # in the shared library the GPU host loads, `labs` must bind to the program's own
    # definition, not to the libc already loaded in the Python process
    src = tmp_path / "labs.em"
    src.write_text(
        "@export\ndef labs(x: Int) -> Int:\n    return x + 1000\n\n"
        "@kernel\ndef k(out: Buffer[Int]) -> None:\n    out[thread_idx_x()] = 1\n\n"
        "def main() -> None:\n    out = Buffer[Int](1)\n    k[1, 1](out)\n    print(labs(-5), out[0])\n"
    )
    run, _launches = _probe(_library(_object(src, opt_level=0), tmp_path), "decline", tmp_path)  # -O0: not inlined
    assert run.exit_status == 0, run.stderr
    assert run.stdout.decode().split() == ["995", "1"]


def test_buffer_parameters_are_memref_descriptors() -> None:
    arg = gpu_host.GpuArg(is_buffer=1, size=4, count=10)
    scalar = gpu_host.GpuArg(is_buffer=0, size=2, bits=-1)
    params = gpu_host.kernel_parameters([arg, scalar], [0xDEAD000, None])
    assert [p.value for p in params] == [0xDEAD000, 0xDEAD000, 0, 10, 1, 0xFFFF]


def test_cuda_python_is_imported_only_for_gpu_runs(tmp_path: Path) -> None:
    code = (
        "import sys\nfrom compiler import cli, driver\n"
        f"driver.build({str(EXAMPLE)!r}, driver.BuildOptions())\n"
        "assert not any(m == 'cuda' or m.startswith('cuda.') for m in sys.modules), 'cuda imported'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_cuda_launcher_uses_existing_driver_calls() -> None:
    driver_api = pytest.importorskip("cuda.bindings.driver", reason="cuda-python (the gpu extra) is not installed")
    source = Path(gpu_host.__file__).read_text()
    import re

    called = set(re.findall(r"\bd(?:river)?\.(cu[A-Z]\w+)\(", source))
    assert {"cuModuleLoadData", "cuLaunchKernel", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuCtxSynchronize"} <= called
    assert all(hasattr(driver_api, name) for name in called), sorted(n for n in called if not hasattr(driver_api, n))


class _ConvertingDriver:
    """The real cuda-python driver module, called for its argument conversion only: with no
    NVIDIA driver each call converts its arguments (a wrong type raises TypeError) and then
    fails to load libcuda; the call is then recorded and answered with success."""

    def __init__(self, real: object) -> None:
        self.real = real
        self.CUresult = real.CUresult  # type: ignore[attr-defined]
        self.calls: list[str] = []
        ok = real.CUresult.CUDA_SUCCESS  # type: ignore[attr-defined]
        self.answers = {
            "cuMemAlloc": (ok, real.CUdeviceptr(0x10000)),  # type: ignore[attr-defined]
            "cuModuleLoadData": (ok, real.CUmodule()),  # type: ignore[attr-defined]
            "cuModuleGetFunction": (ok, real.CUfunction()),  # type: ignore[attr-defined]
        }
        self.ok = (ok,)

    def __getattr__(self, name: str) -> object:
        fn = getattr(self.real, name)

        def call(*args: object) -> object:
            try:
                fn(*args)
            except Exception as exc:
                if type(exc).__name__ != "DynamicLibNotFoundError":
                    raise
            self.calls.append(name)
            return self.answers.get(name, self.ok)

        return call


def test_cuda_launcher_calls_pass_cuda_pythons_argument_conversion(tmp_path: Path) -> None:
    driver_api = pytest.importorskip("cuda.bindings.driver", reason="cuda-python (the gpu extra) is not installed")
    if gpu_host.gpu_unavailable_reason() is None:
        pytest.skip("a GPU is present: the driver would really run these calls")
    import ctypes

    fake = _ConvertingDriver(driver_api)
    launcher = object.__new__(gpu_host.CudaLauncher)
    launcher.driver = fake
    launcher.functions = {}
    data = (ctypes.c_int64 * 3)(1, 2, 3)
    args = (
        gpu_host.GpuArg(is_buffer=1, size=8, data=ctypes.addressof(data), count=3),
        gpu_host.GpuArg(is_buffer=0, size=1, bits=1),
    )
    ptx = "// ptx\n.visible .entry ember_kernel_k(\n)\n{\n}\n"
    assert launcher(gpu_host.Launch("k", ptx, (2, 1, 1), (4, 1, 1), args))
    assert fake.calls == [
        "cuModuleLoadData",
        "cuModuleGetFunction",
        "cuMemAlloc",
        "cuMemcpyHtoD",
        "cuLaunchKernel",
        "cuCtxSynchronize",
        "cuMemcpyDtoH",
        "cuMemFree",
    ]
    launcher(gpu_host.Launch("k", ptx, (2, 1, 1), (4, 1, 1), args))
    assert fake.calls.count("cuModuleLoadData") == 1  # the module is loaded once per kernel
    # the same buffer passed twice is one device array, copied in and back once
    fake.calls.clear()
    launcher(gpu_host.Launch("k", ptx, (1, 1, 1), (1, 1, 1), (args[0], args[0], args[1])))
    assert [fake.calls.count(c) for c in ("cuMemAlloc", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemFree")] == [1, 1, 1, 1]


def test_device_gpu_without_a_gpu_is_a_one_line_error(ember) -> None:
    reason = gpu_host.gpu_unavailable_reason()
    if reason is None:
        pytest.skip("a GPU is present: test_gpu_run_equals_the_emulator covers it")
    r = ember("run", "--device", "gpu", str(EXAMPLE))
    assert r.status == 1
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith(f"{EXAMPLE}: error: no GPU: ")
    auto = ember("run", str(EXAMPLE))  # auto falls back to the emulator
    assert auto.status == 0 and auto.stdout == ember("run", "--device", "cpu", str(EXAMPLE)).stdout


def test_gpu_run_equals_the_emulator(ember) -> None:
    reason = gpu_host.gpu_unavailable_reason()
    if reason is not None:
        pytest.skip(f"no GPU here: {reason}")
    gpu = ember("run", "--device", "gpu", str(EXAMPLE))
    cpu = ember("run", "--device", "cpu", str(EXAMPLE))
    reference = ember("interp", str(EXAMPLE))
    assert gpu.status == 0, gpu.stderr
    assert gpu.stdout == cpu.stdout == reference.stdout


def test_objects_with_kernels_are_the_same_bytes_every_time_and_at_every_j(tmp_path: Path) -> None:
    # NVPTX numbers `// callseq N` comments with a process-wide counter: the embedded PTX
    # (and so the object) must not depend on what the process compiled before
    src = tmp_path / "calls.em"
    src.write_text(
        "def h(a: Int) -> Int:\n    return a * 3\n\n"
        "@kernel\ndef k(out: Buffer[Int], n: Int) -> None:\n    i = global_idx_x()\n    if i < n:\n        out[i] = h(i)\n\n"
        "def main() -> None:\n    out = Buffer[Int](4)\n    k[1, 4](out, 4)\n    print(out[3])\n"
    )
    first = _object(src, opt_level=0, split="subgraph", jobs=1, subgraph_cost=1)
    assert b"call.uni" in first  # the helper is called, not inlined, at -O0
    again = _object(src, opt_level=0, split="subgraph", jobs=1, subgraph_cost=1)
    parallel = _object(src, opt_level=0, split="subgraph", jobs=2, subgraph_cost=1)
    assert first == again == parallel
