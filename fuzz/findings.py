"""The findings store: every failure becomes a self-contained reproducer directory (contract 5).

    findings/<date>-<time>-<classification>-<digest>/
      finding.json     classification, summary, failures, plan, faults, seed, reproduce command
      input.ll         the module (support.ll too when the program needs one), or
      input.em         the Ember program (its builds are judged against `ember interp`)
      diff.txt         every classified disagreement with its diff
      reproduce.sh     the same builds step by step with the `ember` CLI, `cc` and `diff`
      builds/<config>/ out.o (or error.txt), symtab.txt, stdout.txt, outcome.txt, command.txt

A finding is written into a temporary directory next to the store and renamed into
place (`os.replace`), so a reader never sees half of one; it is written before the test
that found it reports. The same failure (same module, plan, faults and class) is kept
once. The store is `$EMBER_FINDINGS`, else `./findings`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from compiler import outputs
from compiler.diagnostics import EmberError, Location, UsageError
from compiler.link import runtime_sources
from fuzz import cross, properties
from fuzz.strategies import FuzzCase
from oracle import symtab

ENV = "EMBER_FINDINGS"
SCHEMA = 1


def default_root() -> Path:
    """`$EMBER_FINDINGS`, else `./findings`."""
    return Path(os.environ.get(ENV) or "findings")


def digest_of(report: properties.Report) -> str:
    """Identity of a failure: module, support, plan, faults and classification."""
    h = hashlib.sha256()
    for part in (
        report.case.module,
        report.case.support or "",
        json.dumps(report.plan.to_json(), sort_keys=True),
        ",".join(sorted(report.faults)),
        report.classification,
    ):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:12]


def reproduce_command(path: Path, faults: frozenset[str]) -> str:
    """The exact command that re-runs the recorded check (faults are never reachable from `ember`)."""
    if faults:
        return f"python -m fuzz.findings reproduce {shlex.quote(str(path))}"
    return f"ember findings reproduce {shlex.quote(str(path))}"


def save(
    report: properties.Report,
    *,
    root: Path | None = None,
    seed: int | None = None,
    test: str | None = None,
    extra: dict[str, object] | None = None,
) -> Path:
    """Write `report` as a finding directory, atomically; returns its final path."""
    root = Path(root) if root is not None else default_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise EmberError(f"cannot create the findings store: {exc.strerror}", Location(str(root))) from None
    digest = digest_of(report)
    existing = sorted(root.glob(f"*-{digest}"))
    if existing:
        return existing[0]
    ident = f"{time.strftime('%Y%m%d-%H%M%S')}-{report.classification}-{digest}"
    final = root / ident
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{digest}-", dir=root))
    try:
        _write(tmp, final, ident, report, seed=seed, test=test, extra=extra or {})
        tmp.chmod(outputs.default_mode(executable=True))  # mkdtemp made it 0700 whatever the umask
        os.replace(tmp, final)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if final.exists():  # another worker saved the same failure first
            return final
        raise EmberError(f"cannot save finding: {exc.strerror}", Location(str(final))) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final


def _write(
    tmp: Path, final: Path, ident: str, report: properties.Report, *, seed: int | None, test: str | None, extra: dict[str, object]
) -> None:
    inp = report.case.input_name
    (tmp / inp).write_text(report.case.module)
    if report.case.support:
        (tmp / "support.ll").write_text(report.case.support)
    (tmp / "diff.txt").write_text(report.diff_text())
    builds = tmp / "builds"
    builds.mkdir()
    for label, outcome in report.builds.items():
        d = builds / outcome.config.slug
        d.mkdir(exist_ok=True)
        (d / "command.txt").write_text(outcome.config.command(inp, "out.o") + "\n")
        if outcome.obj is not None:
            (d / "out.o").write_bytes(outcome.obj)
        if outcome.error is not None:
            (d / "error.txt").write_text(outcome.error + "\n")
        if outcome.symbols is not None:
            (d / "symtab.txt").write_text(symtab.format_table(outcome.symbols) + "\n")
        if outcome.run is not None:
            (d / "stdout.txt").write_bytes(outcome.run.stdout)
            (d / "stderr.txt").write_bytes(outcome.run.stderr)
            (d / "outcome.txt").write_text(outcome.run.outcome + "\n")
        if outcome.run_error is not None:
            (d / "run-error.txt").write_text(outcome.run_error + "\n")
        del label
    command = reproduce_command(final, report.faults)
    (tmp / "reproduce.sh").write_text(_script(ident, report, command))
    (tmp / "reproduce.sh").chmod(outputs.default_mode(executable=True))
    meta = {
        "schema": SCHEMA,
        "id": ident,
        "classification": report.classification,
        "classifications": sorted({f.classification for f in report.failures}),
        "summary": report.summary(),
        "failures": [asdict(f) | {"detail": f.detail[:4000]} for f in report.failures],
        "origin": report.case.origin,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "seed": seed,
        "test": test,
        "faults": sorted(report.faults),
        "plan": report.plan.to_json(),
        "builds": {o.config.slug: o.config.label for o in report.builds.values()},
        "reproduce": command,
        "python": sys.version.split()[0],
        **extra,
    }
    (tmp / "finding.json").write_text(json.dumps(meta, indent=2) + "\n")


def _script(ident: str, report: properties.Report, command: str) -> str:
    """reproduce.sh: the failing builds of the finding, step by step, with the plain CLI."""
    lines = [
        "#!/bin/sh",
        f"# Finding {ident}: {report.classification}",
        f"# {report.summary()[:300]}",
        f"# Re-run the whole recorded check: {command}",
    ]
    if report.faults:
        lines.append(f"# Built with deliberate back-end faults {sorted(report.faults)}: the ember CLI cannot")
        lines.append("# enable them, so the split builds below show the fault-free behaviour.")
    lines += ['set -u', 'cd "$(dirname "$0")"', "mkdir -p repro", "status=0"]
    if any(c.candidate is not None for c in report.plan.configs):
        from oracle.candidate import llvm_bin

        lines.append(f'export PATH="{llvm_bin()}:$PATH"  # the candidate runs with the LLVM tools first on PATH')
    target = report.plan.target
    cc, run = cross.shell_commands(target)  # a cross target links with its gcc and runs under QEMU
    support = ""
    if report.case.support:
        lines.append("ember build support.ll -o repro/support.o --split none" + (f" --target {target}" if target else ""))
        support = " repro/support.o"
    inp = report.case.input_name
    if report.case.is_ember:  # the reference is the interpreter; compiled code links the runtime
        runtime = " ".join(shlex.quote(str(p)) for p in runtime_sources())
        support += f" {runtime}"
        lines.append("# the reference: the interpreter")
        lines.append('ember interp input.em > repro/interp.out; echo "exit $?" >> repro/interp.out')
    ref = report.plan.reference
    lines.append(ref.command(inp, "repro/ref.o"))
    lines.append(f"{cc} -o repro/ref repro/ref.o{support} -lm && {run}./repro/ref > repro/ref.out; echo \"exit $?\" >> repro/ref.out")
    if report.case.is_ember:
        lines.append("diff -u repro/interp.out repro/ref.out || status=1")
    seen = set()
    for f in report.failures:
        for label in (f.reference, f.candidate):
            outcome = report.builds.get(label)
            if outcome is None or label in seen or outcome.config == ref or label == properties.INTERP_LABEL:
                continue
            seen.add(label)
            slug = outcome.config.slug
            lines.append(f"# {label}")
            lines.append(outcome.config.command(inp, f"repro/{slug}.o") + " || status=1")
            if outcome.config.opt == ref.opt:
                exact = " --exact-code" if ref.opt == 0 else ""
                lines.append(f"ember symdiff{exact} repro/ref.o repro/{slug}.o || status=1")
            lines.append(
                f"{cc} -o repro/{slug} repro/{slug}.o{support} -lm && {run}./repro/{slug} > repro/{slug}.out; "
                f"echo \"exit $?\" >> repro/{slug}.out"
            )
            lines.append(f"diff -u repro/ref.out repro/{slug}.out || status=1")
    lines.append("exit $status")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ reading the store


@dataclass(frozen=True)
class FindingInfo:
    """One finding as `ember findings list` shows it (a corrupt one says why in `problem`)."""

    id: str
    path: Path
    classification: str
    created: str
    summary: str
    faults: tuple[str, ...]
    origin: str
    problem: str | None = None


def read_meta(path: Path) -> dict[str, Any]:
    """A finding's finding.json as a dict; missing, empty, binary, invalid or incomplete is a
    one-line error naming the file."""
    meta_path = path / "finding.json"
    where = Location(str(meta_path))
    try:
        raw = meta_path.read_bytes()
    except FileNotFoundError:
        raise EmberError("not a finding: no finding.json", where) from None
    except OSError as exc:
        raise EmberError(f"cannot read: {exc.strerror}", where) from None
    if not raw.strip():
        raise EmberError("corrupt finding: empty file", where)
    try:
        meta = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise EmberError(f"corrupt finding: not UTF-8 text (byte {exc.start})", where) from None
    except json.JSONDecodeError as exc:
        raise EmberError(f"corrupt finding: invalid JSON: {exc.msg}", Location(str(meta_path), exc.lineno, exc.colno)) from None
    if not isinstance(meta, dict):
        raise EmberError(f"corrupt finding: expected a JSON object, got {type(meta).__name__}", where)
    missing = [k for k in REQUIRED_KEYS if k not in meta]
    if missing:
        raise EmberError(f"corrupt finding: missing {', '.join(missing)}", where)
    problem = _meta_problem(meta)
    if problem:
        raise EmberError(f"corrupt finding: {problem}", where)
    return meta


def _meta_problem(meta: dict[str, Any]) -> str | None:
    """What is wrong with the fields of a finding.json (an edited or damaged one), or None."""
    for key in ("id", "classification", "reproduce", "origin", "created", "summary", "test"):
        if key in meta and meta[key] is not None and not isinstance(meta[key], str):
            return f"{key}: expected text, got {json.dumps(meta[key])[:40]}"
    for key in ("faults", "classifications"):
        names = meta.get(key, [])
        if names is not None and (not isinstance(names, list) or not all(isinstance(n, str) for n in names)):
            return f"{key}: expected a list of names, got {json.dumps(names)[:40]}"
    try:
        properties.CheckPlan.from_json(meta["plan"])
    except ValueError as exc:
        return str(exc)
    return None


#: what every finding.json has (older keys are read with defaults)
REQUIRED_KEYS = ("id", "classification", "plan", "reproduce")


def info(path: Path) -> FindingInfo:
    """The list row of one finding directory (a corrupt one gets class 'corrupt' and the reason)."""
    try:
        meta = read_meta(path)
    except EmberError as exc:
        return FindingInfo(path.name, path, "corrupt", "", exc.render(), (), "", problem=exc.render())
    return FindingInfo(
        id=str(meta.get("id", path.name)),
        path=path,
        classification=str(meta.get("classification", "?")),
        created=str(meta.get("created", "")),
        summary=str(meta.get("summary", "")),
        faults=tuple(str(f) for f in meta.get("faults", ()) or ()),
        origin=str(meta.get("origin", "")),
    )


def list_findings(root: Path | None = None) -> list[FindingInfo]:
    """Every finding directory in the store, oldest first; corrupt ones are listed as such
    (temporary directories, starting with '.', are skipped)."""
    root = Path(root) if root is not None else default_root()
    if not root.is_dir():
        return []
    return [info(p) for p in sorted(root.iterdir()) if p.is_dir() and not p.name.startswith(".")]


def resolve(ident: str, root: Path | None = None) -> Path:
    """A finding by path, id or unique id prefix/suffix."""
    as_path = Path(ident)
    if as_path.is_dir() and ((as_path / "finding.json").exists() or os.sep in ident):
        return as_path  # read_meta says what is wrong with it, if anything
    matches = [i.path for i in list_findings(root) if i.id.startswith(ident) or i.id.endswith(ident)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise UsageError(f"no finding '{ident}' in {root if root is not None else default_root()}")
    raise UsageError(f"'{ident}' matches {len(matches)} findings; give more of the id")


def format_list(infos: list[FindingInfo]) -> str:
    """The `findings list` table: one row per finding, corrupt ones with the reason."""
    if not infos:
        return "no findings"
    rows = [f"{'id':<48} {'class':<18} {'origin':<10} summary"]
    for i in infos:
        if i.problem is not None:
            rows.append(f"{i.id:<48} {'CORRUPT':<18} {'':<10} {i.problem}")
            continue
        fault = f" [fault: {','.join(i.faults)}]" if i.faults else ""
        rows.append(f"{i.id:<48} {i.classification:<18} {i.origin[:10]:<10} {i.summary[:90]}{fault}")
    return "\n".join(rows)


def show(path: Path) -> str:
    """A readable account of one finding: what failed, the diff, how to reproduce, what is on disk."""
    meta = read_meta(path)
    diff = path / "diff.txt"
    lines = [
        f"finding   {meta['id']}",
        f"path      {path}",
        f"class     {meta['classification']} ({', '.join(meta.get('classifications', []))})",
        f"origin    {meta.get('origin', '')}   seed {meta.get('seed')}   test {meta.get('test')}",
        f"faults    {', '.join(meta.get('faults', [])) or 'none'}",
        f"created   {meta.get('created', '')}",
        f"reproduce {meta['reproduce']}",
        f"          (or step by step: sh {path / 'reproduce.sh'})",
        "",
        diff.read_text(errors="replace").rstrip() if diff.is_file() else f"(no {diff})",
        "",
        "files:",
    ]
    for f in sorted(p for p in path.rglob("*") if p.is_file()):
        lines.append(f"  {f.relative_to(path)}  ({f.stat().st_size} bytes)")
    return "\n".join(lines)


def load_report_inputs(path: Path) -> tuple[FuzzCase, properties.CheckPlan, frozenset[str]]:
    """What `reproduce` needs: the case, the plan and the faults recorded in a finding."""
    meta = read_meta(path)
    support = _read_text(path / "support.ll") if (path / "support.ll").exists() else None
    origin = str(meta.get("origin", "finding"))
    inp = "input.em" if origin == "ember" else "input.ll"
    case = FuzzCase(_read_text(path / inp), support, origin)
    plan = properties.CheckPlan.from_json(meta["plan"])  # read_meta checked it
    faults = frozenset(str(f) for f in meta.get("faults", []) or [])
    return case, plan, faults


def _read_text(path: Path) -> str:
    """A finding's file as text; missing or not UTF-8 is a located error."""
    try:
        return path.read_text()
    except FileNotFoundError:
        raise EmberError("incomplete finding: file missing", Location(str(path))) from None
    except IsADirectoryError:
        raise EmberError("corrupt finding: a directory, not a file", Location(str(path))) from None
    except UnicodeDecodeError as exc:
        raise EmberError(f"corrupt finding: not UTF-8 text (byte {exc.start})", Location(str(path))) from None
    except OSError as exc:
        raise EmberError(f"corrupt finding: cannot read: {exc.strerror}", Location(str(path))) from None


def reproduce(path: Path, *, allow_faults: bool = True) -> properties.Report:
    """Re-run the recorded check of a finding."""
    case, plan, faults = load_report_inputs(path)
    if faults and not allow_faults:
        raise UsageError(
            f"this finding was made with deliberate back-end faults ({', '.join(sorted(faults))}); "
            f"the ember CLI never enables them: python -m fuzz.findings reproduce {path}"
        )
    return properties.check(case, plan, faults=faults)


def print_reproduction(report: properties.Report) -> int:
    """What `ember findings reproduce` prints of a re-run check (local or fleet), and its exit status."""
    if report.ok:
        print(f"does not reproduce: {report.summary()}")
        return 0
    print(report.diff_text(), end="")
    return 1


def main(argv: list[str] | None = None) -> int:
    """`python -m fuzz.findings list|show|reproduce` (the test-side twin of `ember findings`)."""
    parser = argparse.ArgumentParser(prog="python -m fuzz.findings")
    parser.add_argument("action", choices=("list", "show", "reproduce"))
    parser.add_argument("finding", nargs="?")
    parser.add_argument("--findings", type=Path, default=None, metavar="DIR")
    parser.add_argument("--root", dest="findings", type=Path, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.action == "list":
        print(format_list(list_findings(args.findings)))
        return 0
    if not args.finding:
        parser.error(f"{args.action} needs a finding id or path")
    path = resolve(args.finding, args.findings)
    if args.action == "show":
        print(show(path))
        return 0
    report = reproduce(path)
    print(report.diff_text() if not report.ok else f"no longer fails: {report.summary()}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
