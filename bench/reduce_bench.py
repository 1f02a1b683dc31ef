"""Reducer benchmark: `ember reduce` vs `llvm-reduce -j2`, same interestingness script, side by side.

The script keeps a generated module whose split build (with a deliberately broken back-end
variant, selectable only from code) leaks formerly local symbols. Run:
    .venv/bin/python bench/reduce_bench.py [--functions 200] [--fault skip-linkage-restore]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import llvm

from fuzz.genmodule import ModuleShape, generate
from fuzz.reduce.engine import lines_of

SCRIPT = """#!{python}
import os
import sys
os.environ["EMBER_INPROCESS_J1"] = "1"  # no worker pool per candidate: the script is the unit of parallelism
from pathlib import Path
from fuzz.reduce import oracle
settings = oracle.Settings(subgraph_cost=50, faults=frozenset({{"{fault}"}}))
sig = oracle.signature(Path(sys.argv[-1]), "split-mismatch", settings)
sys.exit(0 if sig == {wanted!r} else 1)
"""

BUILTIN = """
from fuzz.reduce import command, oracle
settings = oracle.Settings(subgraph_cost=50, faults=frozenset({{"{fault}"}}))
command.reduce_file("{src}", "{out}", prop="split-mismatch", test=None, settings=settings, jobs=2, time_budget=None)
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--functions", type=int, default=30)
    ap.add_argument("--timeout", type=float, default=1200, help="seconds each reducer may take")
    ap.add_argument("--fault", default="skip-linkage-restore")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    from fuzz.reduce import oracle

    with tempfile.TemporaryDirectory(prefix="ember-reduce-bench-") as tmp:
        src = Path(tmp) / "in.ll"
        src.write_text(generate(args.seed, ModuleShape(functions=args.functions)))
        wanted = oracle.signature(src, "split-mismatch", oracle.Settings(subgraph_cost=50, faults=frozenset({args.fault})))
        if wanted is None:
            print("the fault does not show on this module; pick another seed")
            return 1
        script = Path(tmp) / "interesting.py"
        script.write_text(SCRIPT.format(python=sys.executable, fault=args.fault, wanted=wanted))
        script.chmod(0o755)
        ember = str(Path(sys.executable).with_name("ember"))
        tool = str(Path(llvm.__file__).parent / "bin" / "llvm-reduce")
        runs = [
            ("ember reduce -j2 --test", [ember, "reduce", str(src), "-o", f"{tmp}/ember.ll", "--test", str(script), "-j", "2"],
             f"{tmp}/ember.ll"),
            # the built-in property checks candidates in-process (faults are reachable from code only)
            ("ember reduce -j2 (built-in)", [sys.executable, "-c", BUILTIN.format(
                src=str(src), out=f"{tmp}/ember-builtin.ll", fault=args.fault)], f"{tmp}/ember-builtin.ll"),
            ("llvm-reduce -j2 --test", [tool, "-j", "2", f"--test={script}", str(src), "-o", f"{tmp}/llvm.ll"],
             f"{tmp}/llvm.ll"),
        ]
        rows = []
        for name, cmd, out in runs:
            start = time.perf_counter()
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                rows.append((name, time.perf_counter() - start, "timeout"))
                continue
            secs = time.perf_counter() - start
            if proc.returncode != 0:
                rows.append((name, secs, f"failed: {(proc.stderr.strip().splitlines() or ['?'])[-1][:60]}"))
                continue
            rows.append((name, secs, str(lines_of(Path(out).read_text()))))
        print(f"input: {args.functions} functions, {lines_of(src.read_text())} lines; preserved: {wanted}")
        print(f"{'reducer':<30}{'wall s':>9}{'final lines':>13}")
        for name, secs, lines in rows:
            print(f"{name:<30}{secs:>9.1f}{lines:>13}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
