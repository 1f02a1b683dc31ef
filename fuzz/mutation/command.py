"""`ember mutants`: apply each mutant of the suite, run a fixed-seed campaign on it, print the kill table."""

from __future__ import annotations

import sys

from compiler import outputs
from compiler.diagnostics import UsageError
from fuzz.mutation import run
from fuzz.mutation.mutants import BY_NAME, MUTANTS, Mutant


def select(only: str | None) -> list[Mutant]:
    """The mutants named in `only` (comma-separated), or all of them."""
    if not only:
        return list(MUTANTS)
    names = [n for n in only.split(",") if n]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        raise UsageError(f"unknown mutant '{unknown[0]}' (ember mutants --list shows them)")
    return [BY_NAME[n] for n in names]


def list_mutants() -> str:
    return "\n".join(f"{m.name:<40} {m.path:<44} {m.strategy:<9} {m.mistake}" for m in MUTANTS)


def main(only: str | None, *, seed: int, examples: int, timeout_s: float, json_out: str | None) -> int:
    """Run the chosen mutants one after the other; exit 0 when every one was killed, 1 otherwise."""
    chosen = select(only)
    for mutant in chosen:
        run.check_applies(mutant)  # every row applies before any campaign starts
    if json_out is not None:
        outputs.check_output(json_out, [])
    print(f"{len(chosen)} mutants, campaign per mutant: --seed {seed} --examples {examples}", flush=True)
    print(f"{'mutant':<40} {'strategy':<9} {'killed':<7} {'programs':>8} {'seconds':>8}  classification / note", flush=True)
    outcomes = []
    for mutant in chosen:
        o = run.run_mutant(mutant, seed=seed, examples=examples, timeout_s=timeout_s)
        outcomes.append(o)
        programs = "-" if o.programs is None else str(o.programs)
        print(f"{o.mutant:<40} {mutant.strategy:<9} {'yes' if o.killed else 'NO':<7} {programs:>8} {o.seconds:>8.1f}  "
              f"{o.classification or ''}{'  ' + o.note if o.note else ''}", flush=True)
        if json_out is not None:  # after every mutant: an interrupted run keeps what it measured
            outputs.write_output(json_out, run.outcome_json(outcomes))
    killed = [o for o in outcomes if o.killed]
    counts = sorted(o.programs for o in killed if o.programs is not None)
    median = counts[len(counts) // 2] if counts else None
    print(f"kill rate: {len(killed)}/{len(outcomes)} ({100 * len(killed) / max(1, len(outcomes)):.0f}%) within "
          f"{examples} programs; programs to kill: median {median}, max {counts[-1] if counts else None}", flush=True)
    survivors = [o.mutant for o in outcomes if not o.killed]
    if survivors:
        print("survived: " + ", ".join(survivors), file=sys.stderr)
    return 0 if not survivors else 1
