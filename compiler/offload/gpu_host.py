"""Run an Ember program whose launches go to a GPU: load the program (linked as a shared
library), install a launcher in its runtime (`ember_gpu_launcher`, compiler/runtime/ember_gpu.c)
and call `main`.

The CUDA launcher uses the driver API through cuda-python, imported only here and only
when a GPU run is asked for (the optional `gpu` extra). Each launch loads the kernel's
embedded PTX (`cuModuleLoadData`, cached per kernel), copies every buffer argument to the
device, launches, synchronises and copies the buffers back. Run as
`python -m compiler.offload.gpu_host LIB`; `ember run --device gpu` does that.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

#: Exit status when the GPU reports an error during a launch (the same as an Ember trap).
TRAP_STATUS = 3
#: Exit status when the launcher itself breaks (an Ember internal error).
INTERNAL_STATUS = 70


class GpuArg(ctypes.Structure):
    """`struct ember_gpu_arg` of the runtime."""

    _fields_ = [
        ("is_buffer", ctypes.c_int64),
        ("size", ctypes.c_int64),
        ("bits", ctypes.c_int64),
        ("data", ctypes.c_void_p),
        ("count", ctypes.c_int64),
    ]


LAUNCHER_TYPE = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int64), ctypes.c_int64, ctypes.POINTER(GpuArg)
)


@dataclass(frozen=True)
class Launch:
    """One launch as the runtime hands it over."""

    kernel: str
    ptx: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    args: tuple[GpuArg, ...]


class Launcher(Protocol):
    """Runs a launch on a device and returns True, or returns False to let the CPU emulator run it."""

    def __call__(self, launch: Launch) -> bool: ...


_SCALAR = {1: ctypes.c_uint8, 2: ctypes.c_uint16, 4: ctypes.c_uint32, 8: ctypes.c_uint64}


def kernel_parameters(args: Sequence[GpuArg], device_addresses: Sequence[int | None]) -> list[ctypes._SimpleCData[Any]]:
    """The kernel's parameter values in `.entry` order: a scalar is one parameter of its own
    size; a buffer is a memref descriptor, five 64-bit parameters (allocated and aligned
    pointer, offset 0, element count, stride 1) with `device_addresses[i]` as both pointers."""
    params: list[ctypes._SimpleCData[Any]] = []
    for arg, address in zip(args, device_addresses, strict=True):
        if arg.is_buffer:
            assert address is not None
            params += [ctypes.c_uint64(address), ctypes.c_uint64(address), ctypes.c_uint64(0)]
            params += [ctypes.c_uint64(arg.count), ctypes.c_uint64(1)]
        else:
            kind = _SCALAR[arg.size]
            params.append(kind(arg.bits & ((1 << (8 * arg.size)) - 1)))
    return params


def gpu_unavailable_reason(arch: str | None = None) -> str | None:
    """Why launches cannot go to a GPU here (None: they can); with `arch` (`sm_80`), also
    when device 0 is older than the PTX's target."""
    try:
        from cuda.bindings import driver
    except ImportError:
        return "cuda-python is not installed (pip install 'ember-compiler[gpu]')"
    try:
        (err,) = driver.cuInit(0)
    except Exception as exc:  # cuda-python raises when libcuda.so cannot be loaded
        return f"no NVIDIA driver ({str(exc).splitlines()[0]})"
    if err != driver.CUresult.CUDA_SUCCESS:
        return f"cuInit failed: {_error_name(err)}"
    err, count = driver.cuDeviceGetCount()
    if err != driver.CUresult.CUDA_SUCCESS or count == 0:
        return "no CUDA device"
    if arch is not None:
        attr = driver.CUdevice_attribute
        _e, dev = driver.cuDeviceGet(0)
        _e, major = driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
        _e, minor = driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
        if major * 10 + minor < int(arch.removeprefix("sm_")):
            return f"device 0 is sm_{major}{minor}, older than the PTX's {arch}"
    return None


def _error_name(err: Any) -> str:
    from cuda.bindings import driver

    _e, name = driver.cuGetErrorName(err)
    return name.decode() if isinstance(name, bytes) else str(err)


class CudaError(Exception):
    """A CUDA driver call failed; `in_kernel` when the kernel itself failed (a device trap)."""

    def __init__(self, message: str, *, in_kernel: bool = False) -> None:
        super().__init__(message)
        self.in_kernel = in_kernel


class CudaLauncher:
    """Launches through the CUDA driver API on device 0 (primary context)."""

    def __init__(self) -> None:
        from cuda.bindings import driver

        self.driver = driver
        self._check(driver.cuInit(0), "cuInit")
        self.device = self._check(driver.cuDeviceGet(0), "cuDeviceGet")
        self.context = self._check(driver.cuDevicePrimaryCtxRetain(self.device), "cuDevicePrimaryCtxRetain")
        self._check(driver.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
        self.functions: dict[str, Any] = {}

    def _check(self, result: Any, call: str, *, in_kernel: bool = False) -> Any:
        err, *values = result if isinstance(result, tuple) else (result,)
        if err != self.driver.CUresult.CUDA_SUCCESS:
            raise CudaError(f"{call}: {_error_name(err)}", in_kernel=in_kernel)
        return values[0] if len(values) == 1 else (values or None)

    def function(self, kernel: str, ptx: str) -> Any:
        if kernel not in self.functions:
            module = self._check(self.driver.cuModuleLoadData(ptx.encode() + b"\0"), f"loading the PTX of {kernel}")
            entry = f"ember_kernel_{kernel}".encode()
            self.functions[kernel] = self._check(self.driver.cuModuleGetFunction(module, entry), "cuModuleGetFunction")
        return self.functions[kernel]

    def __call__(self, launch: Launch) -> bool:
        d = self.driver
        function = self.function(launch.kernel, launch.ptx)
        # one device copy per host buffer: the same buffer passed twice is one array on the
        # device too (the emulator shares it), and is copied in and back once
        device: dict[int, tuple[int, int]] = {}  # host address -> (device address, bytes)
        addresses: list[int | None] = []
        try:
            for arg in launch.args:
                if not arg.is_buffer:
                    addresses.append(None)
                    continue
                nbytes = arg.count * arg.size
                host = arg.data or 0
                if host not in device or not host:
                    address = int(self._check(d.cuMemAlloc(max(1, nbytes)), "cuMemAlloc"))  # 0 bytes is refused
                    device[host or -address] = (address, nbytes)
                    if nbytes:
                        self._check(d.cuMemcpyHtoD(address, host, nbytes), "cuMemcpyHtoD")
                addresses.append(device[host][0] if host else address)
            params = kernel_parameters(launch.args, addresses)
            pointers = (ctypes.c_void_p * max(1, len(params)))(*[ctypes.addressof(p) for p in params])
            self._check(
                d.cuLaunchKernel(function, *launch.grid, *launch.block, 0, 0, ctypes.addressof(pointers), 0),
                f"launching {launch.kernel}",
                in_kernel=True,
            )
            self._check(d.cuCtxSynchronize(), f"running {launch.kernel}", in_kernel=True)
            for host, (address, nbytes) in device.items():
                if host > 0 and nbytes:
                    self._check(d.cuMemcpyDtoH(host, address, nbytes), "cuMemcpyDtoH")
        finally:
            for address, _n in device.values():
                d.cuMemFree(address)
        return True


def run_library(library: str, launcher: Launcher) -> int:
    """Load the program, install `launcher`, run `main`; its status (an Ember trap or a
    failed launch exits the process itself)."""
    lib = ctypes.CDLL(library)

    def on_launch(name: bytes, ptx: bytes, dims: Any, nargs: int, args: Any) -> int:
        kernel = name.decode(errors="replace")
        try:
            launch = Launch(
                kernel,
                ptx.decode(),
                (dims[0], dims[1], dims[2]),
                (dims[3], dims[4], dims[5]),
                tuple(GpuArg.from_buffer_copy(args[i]) for i in range(nargs)),
            )
            return 1 if launcher(launch) else 0
        except CudaError as exc:
            if exc.in_kernel:  # a device trap ends here; its code is lost on the device
                _fail(f"ember: trap: kernel {kernel} failed on the GPU: {exc}", TRAP_STATUS)
            _fail(f"ember: error: GPU launch of kernel {kernel}: {exc}", INTERNAL_STATUS)
        except BaseException as exc:  # ctypes would print it and return 0: the emulator would run
            _fail(f"ember: error: the GPU launcher failed on kernel {kernel}: {exc!r}", INTERNAL_STATUS)
        return 0  # unreachable

    callback = LAUNCHER_TYPE(on_launch)
    ctypes.c_void_p.in_dll(lib, "ember_gpu_launcher").value = ctypes.cast(callback, ctypes.c_void_p).value
    lib.main.restype = ctypes.c_int
    lib.main.argtypes = []
    status = int(lib.main())
    _flush()
    return status & 0xFF


def _fail(message: str, status: int) -> None:
    _flush()
    print(message, file=sys.stderr)
    sys.stderr.flush()
    os._exit(status)  # no interpreter teardown: the program's stdio is flushed


def _flush() -> None:
    """The program writes through C stdio: flush it before Python reports or exits."""
    ctypes.CDLL(None).fflush(None)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m compiler.offload.gpu_host LIBRARY", file=sys.stderr)
        return 2
    reason = gpu_unavailable_reason()
    if reason is not None:
        print(f"{args[0]}: error: no GPU: {reason}", file=sys.stderr)
        return 1
    try:
        launcher = CudaLauncher()
    except CudaError as exc:
        print(f"{args[0]}: error: no GPU: {exc}", file=sys.stderr)
        return 1
    # behave like the executable: killed by SIGPIPE/SIGXFSZ (output limit), stopped by Ctrl-C
    for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)
    os._exit(run_library(args[0], launcher))
    return 0  # unreachable


if __name__ == "__main__":
    sys.exit(main())
