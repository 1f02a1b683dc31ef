"""`ember mutants`: apply each mutant of the suite, run a fixed-seed campaign on it, print the kill table.

A mutant counts as killed only when its campaign's finding is confirmed: the unmutated
project passes the finding's program and plan, and the mutated copy still fails it
(`fuzz.mutation.run`). Survivors are a measurement, not an error: the command exits 0
whenever the run completes.
"""

from __future__ import annotations

from pathlib import Path

from compiler import outputs
from compiler.diagnostics import UsageError
from fuzz import findings
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


#: the `killed` column per verdict
_SHOWN = {run.KILLED: "yes", run.FALSE_KILL: "false", run.UNCONFIRMED: "unconf", run.SURVIVED: "NO"}


def main(
    only: str | None,
    *,
    seed: int,
    examples: int,
    timeout_s: float,
    json_out: str | None,
    control: bool = False,
    mutants: list[Mutant] | None = None,
    root: Path = run.ROOT,
) -> int:
    """Run the chosen mutants one after the other (after the control campaigns with `control`).

    Exits 0 when the run completes, whatever survived; a usage error, a mutant whose
    original text is missing or not unique, and an interrupt are the only failures.
    `mutants` and `root` replace the suite and the project (tests).
    """
    chosen = select(only) if mutants is None else mutants
    for mutant in chosen:
        run.check_applies(mutant, root)  # every row applies before any campaign starts
    if json_out is not None:
        outputs.check_output(json_out, [])
    controls = run.Controls(seed=seed, examples=examples, timeout_s=timeout_s, root=root,
                            store=findings.default_root().resolve())
    print(f"{len(chosen)} mutants, campaign per mutant: --seed {seed} --examples {examples}", flush=True)
    if control:
        _run_controls(controls, list(dict.fromkeys(m.strategy for m in chosen)))
    print(f"{'mutant':<40} {'file':<46} {'strategy':<9} {'killed':<7} {'programs':>8} {'seconds':>8}  "
          "classification / note", flush=True)
    outcomes = []
    for mutant in chosen:
        o = run.run_mutant(mutant, seed=seed, examples=examples, timeout_s=timeout_s, root=root, controls=controls)
        outcomes.append(o)
        programs = "-" if o.programs is None else str(o.programs)
        print(f"{o.mutant:<40} {o.file:<46} {o.strategy:<9} {_SHOWN[o.verdict]:<7} {programs:>8} {o.seconds:>8.1f}  "
              f"{o.classification or ''}{'  ' + o.note if o.note else ''}", flush=True)
        if o.killed and o.finding:
            print(f"    {o.file}: {o.finding}", flush=True)
        if json_out is not None:  # after every mutant: an interrupted run keeps what it measured
            outputs.write_output(json_out, run.outcome_json(outcomes))
    print(_summary(outcomes, examples), flush=True)
    found = [s for s, c in controls.runs.items() if c.found]
    if control and found:
        print(f"CONTROL FINDINGS ({', '.join(found)}): the unmodified project fails these campaigns; "
              "verdicts at this seed are not trustworthy", flush=True)
    return 0


def _run_controls(controls: run.Controls, strategies: list[str]) -> None:
    """The campaign of each strategy on an unmodified copy; a finding there is printed loudly."""
    print(f"control: the same campaigns on an unmodified copy ({', '.join(strategies)})", flush=True)
    for strategy in strategies:
        c = controls.get(strategy)
        line = controls.text(strategy)
        if c.found:
            print(f"control {strategy:<9} CONTROL FINDING: {line}", flush=True)
            print("    the campaign's verdicts for this strategy are not trustworthy at this seed "
                  "(each kill is still confirmed against the unmutated project)", flush=True)
        else:
            print(f"control {strategy:<9} {line}", flush=True)


def _summary(outcomes: list[run.Outcome], examples: int) -> str:
    killed = [o for o in outcomes if o.killed]
    counts = sorted(o.programs for o in killed if o.programs is not None)
    median = counts[len(counts) // 2] if counts else None
    lines = [f"kill rate: {len(killed)}/{len(outcomes)} ({100 * len(killed) / max(1, len(outcomes)):.0f}%) within "
             f"{examples} programs (confirmed kills only); programs to kill: median {median}, "
             f"max {counts[-1] if counts else None}"]
    for verdict, label in ((run.FALSE_KILL, "false kills (the unmutated project fails the finding too)"),
                           (run.UNCONFIRMED, "unconfirmed"), (run.SURVIVED, "survived")):
        names = [o.mutant for o in outcomes if o.verdict == verdict]
        if names:
            lines.append(f"{label}: " + ", ".join(names))
    return "\n".join(lines)
