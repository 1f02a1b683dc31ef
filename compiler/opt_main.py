"""`ember-opt`: an mlir-opt-like driver (upstream + Ember passes) printing IR to stdout, for lit tests."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from compiler.cli import run_guarded
from compiler.diagnostics import UsageError


def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ember-opt", description=__doc__)
    p.add_argument("input", nargs="?", default="-", help="MLIR file ('-' for stdin)")
    p.add_argument("--pass-pipeline", default="", help="textual pipeline, e.g. 'builtin.module(canonicalize,cse)'")
    p.add_argument(
        "--midend",
        metavar="LEVEL",
        type=int,
        choices=(0, 1, 2, 3),
        help="run Ember's midend pipeline of `ember build -OLEVEL` (after --pass-pipeline)",
    )
    p.add_argument("--lower-to-llvm", action="store_true", help="append Ember's lowering to the llvm dialect")
    p.add_argument("--translate", action="store_true", help="print LLVM IR instead of MLIR")
    p.add_argument("--list-passes", action="store_true", help="list Ember's own passes and exit")
    p.add_argument("--split-input-file", action="store_true", help="treat '// -----' separated chunks as modules")
    return p


def _run(args: argparse.Namespace) -> int:
    from compiler import driver
    from compiler.midend import passes, pipeline

    if args.list_passes:
        for name in passes.names():
            ember_pass = passes.lookup(name)
            assert ember_pass is not None
            print(f"{name}: {ember_pass.summary}")
        return 0
    if args.input == "-":
        text, path = sys.stdin.read(), "<stdin>"
    else:
        raw = driver.read_input(args.input)
        assert isinstance(raw, str)
        text, path = raw, args.input
    if args.translate and not args.lower_to_llvm and "llvm." not in text and not args.pass_pipeline:
        raise UsageError("--translate needs llvm-dialect input (add --lower-to-llvm)")
    chunks = text.split("\n// -----\n") if args.split_input_file else [text]
    outputs: list[str] = []
    line_offset = 0
    for chunk in chunks:
        with pipeline.mlir_context():
            # pad with newlines so diagnostics keep the line numbers of the whole file
            module = pipeline.parse_module("\n" * line_offset + chunk, path)
            pipeline.run_pipeline(module, args.pass_pipeline, path)
            if args.midend is not None:
                pipeline.optimise(module, args.midend, path)
            if args.lower_to_llvm:
                pipeline.lower_to_llvm_dialect(module, path)
            outputs.append(pipeline.translate_to_llvm_ir(module, path) if args.translate else str(module))
        line_offset += chunk.count("\n") + 2
    sys.stdout.write("\n// -----\n".join(o.rstrip("\n") for o in outputs) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    return run_guarded(lambda: _run(args), "ember-opt")


if __name__ == "__main__":
    sys.exit(main())
