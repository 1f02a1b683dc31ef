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
import sys
from pathlib import Path
from fuzz.reduce import oracle
settings = oracle.Settings(subgraph_cost=50, faults=frozenset({{"{fault}"}}))
sig = oracle.signature(Path(sys.argv[-1]), "split-mismatch", settings)
sys.exit(0 if sig == {wanted!r} else 1)
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--functions", type=int, default=200)
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
        rows = []
        start = time.perf_counter()
        ember = str(Path(sys.executable).with_name("ember"))
        subprocess.run([ember, "reduce", str(src), "-o", f"{tmp}/ember.ll", "--test", str(script), "-j", "2"],
                       check=True, capture_output=True)
        rows.append(("ember reduce -j2", time.perf_counter() - start, lines_of(Path(f"{tmp}/ember.ll").read_text())))
        start = time.perf_counter()
        tool = Path(llvm.__file__).parent / "bin" / "llvm-reduce"
        subprocess.run([str(tool), "-j", "2", f"--test={script}", str(src), "-o", f"{tmp}/llvm.ll"],
                       check=True, capture_output=True)
        rows.append(("llvm-reduce -j2", time.perf_counter() - start, lines_of(Path(f"{tmp}/llvm.ll").read_text())))
        print(f"input: {args.functions} functions, {lines_of(src.read_text())} lines; preserved: {wanted}")
        print(f"{'reducer':<20}{'wall s':>9}{'final lines':>13}")
        for name, secs, lines in rows:
            print(f"{name:<20}{secs:>9.1f}{lines:>13}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
