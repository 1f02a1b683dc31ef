"""Run an Ember program (a shared library) under gpu_host.run_library with a test launcher.

`python tests/launch_probe.py LIB decline OUT.json`: records every launch (kernel, grid,
block, arguments, the PTX's `.entry` parameter types, the parameters gpu_host would pass)
and declines it, so the CPU emulator runs. `... LIB fill OUT.json`: "runs" each launch in
Python instead (every element of every Int buffer argument becomes 7000 + its index) and
accepts it, so the emulator must not run. `... LIB raise OUT.json`: the launcher raises.
"""

from __future__ import annotations

import ctypes
import json
import sys

import offload_compare as compare  # a script in tests/: its own folder is on sys.path

from compiler.offload import gpu_host


def main() -> int:
    lib, mode, out = sys.argv[1:4]
    records: list[dict[str, object]] = []

    def launcher(launch: gpu_host.Launch) -> bool:
        fake_addresses = [0x1000 * (i + 1) if a.is_buffer else None for i, a in enumerate(launch.args)]
        params = gpu_host.kernel_parameters(launch.args, fake_addresses)
        records.append({
            "kernel": launch.kernel,
            "grid": list(launch.grid),
            "block": list(launch.block),
            "args": [{"buffer": bool(a.is_buffer), "size": a.size, "count": a.count, "bits": a.bits} for a in launch.args],
            "entry": compare.entry_signatures(launch.ptx).get(f"ember_kernel_{launch.kernel}"),
            "param_sizes": [ctypes.sizeof(p) for p in params],
        })
        with open(out, "w") as f:  # written at every launch: the program may trap later
            json.dump(records, f)
        if mode == "decline":
            return False
        if mode == "raise":
            raise ValueError("broken launcher")
        for a in launch.args:
            if a.is_buffer and a.size == 8:
                data = (ctypes.c_int64 * a.count).from_address(a.data)
                for i in range(a.count):
                    data[i] = 7000 + i
        return True

    return gpu_host.run_library(lib, launcher)


if __name__ == "__main__":
    sys.exit(main())
