"""What a reduction preserves: a built-in failure signature or an interestingness script."""

from __future__ import annotations

import dataclasses
import errno
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from compiler import children, driver
from compiler.diagnostics import EmberError, Location, UsageError
from fuzz import faults as _faults  # noqa: F401  (fault findings are reduced with the harness's hooks)
from oracle import runner, symtab

PROPERTIES = ("split-mismatch", "symtab-mismatch", "output-mismatch", "interp-mismatch", "crash")


@dataclass(frozen=True)
class Settings:
    """How candidates are built when checking a built-in property."""

    split: str = "two-level"
    jobs: int = 1
    opt_level: int = 2
    subgraph_cost: int | None = None
    timeout_s: float = 10.0
    faults: frozenset[str] = frozenset()


def build_object(path: Path, split: str, s: Settings) -> bytes:
    options = driver.BuildOptions(
        opt_level=s.opt_level, split=split, jobs=s.jobs, subgraph_cost=s.subgraph_cost, faults=s.faults,
        worker_timeout=max(s.timeout_s * 6, 30),
    )
    out = driver.build(str(path), options).output
    assert isinstance(out, bytes)
    return out


def signature(path: Path, prop: str, s: Settings) -> str | None:
    """The failure signature of `path` under `prop`, or None when it does not fail that way.

    Signatures name the kind of failure and the symbols involved (not addresses or
    output bytes), so a reduction keeps *the same* failure, not just some failure.
    """
    if prop == "interp-mismatch":
        return _interp_signature(path, s)
    try:
        reference = build_object(path, "none", s)
    except EmberError:
        return None  # the unsplit compile must work: a broken candidate is not interesting
    try:
        candidate = build_object(path, s.split, s)
    except EmberError as exc:
        return f"crash: {exc.message.split(':')[0]}" if prop in ("crash", "split-mismatch") else None
    if prop == "crash":
        return None
    parts: list[str] = []
    reference_symbols = symtab.read_symbols(reference)
    want: runner.RunResult | None = None
    if prop in ("split-mismatch", "symtab-mismatch"):
        diff = symtab.diff_symbols(reference_symbols, symtab.read_symbols(candidate))
        if not diff.clean:
            kinds = []
            if diff.leaked_locals:
                kinds.append("leaked-local")
            if diff.added:
                kinds.append("added")
            if diff.removed:
                kinds.append("removed")
            if diff.changed:
                kinds.append("changed")
            parts.append("symbols: " + ",".join(kinds))
    if prop in ("split-mismatch", "output-mismatch") and not parts:
        want = _run(reference, s)
        got = _run(candidate, s)
        if want is None:
            return None
        if got is None:
            parts.append("output: link-failure")
        elif (want.stdout, want.outcome) != (got.stdout, got.outcome):
            parts.append("output: " + ("outcome" if want.outcome != got.outcome else "stdout"))
    if parts and s.faults and not _fault_free_build_agrees(path, reference_symbols, want, s):
        return None  # the difference is not the fault's (nondeterminism, undefined behaviour)
    return "; ".join(parts) or None


def _fault_free_build_agrees(
    path: Path, reference_symbols: list[symtab.Symbol], want: runner.RunResult | None, s: Settings
) -> bool:
    """With deliberate faults, a candidate shows *the fault's* bug only if the same split
    build without them agrees with the reference (symbols, and the reference run `want`
    when the signature is about outputs); otherwise a reducer drifts to programs that
    differ anyway, e.g. by printing an address."""
    healthy = dataclasses.replace(s, faults=frozenset())
    try:
        control = build_object(path, s.split, healthy)
    except EmberError:
        return False
    if not symtab.diff_symbols(reference_symbols, symtab.read_symbols(control)).clean:
        return False
    if want is None:
        return True  # a symbol signature: nothing was run
    got = _run(control, s)
    return got is not None and (want.stdout, want.outcome) == (got.stdout, got.outcome)


def _interp_signature(path: Path, s: Settings) -> str | None:
    """Ember source only: the reference interpreter and the compiled program (split build) disagree."""
    from oracle import interp

    if driver.input_kind(str(path)) is not driver.InputKind.EMBER:
        raise EmberError("interp-mismatch needs an Ember (.em) program", Location(str(path)))
    source = path.read_text()
    want = interp.run_source(source, str(path))
    if want.exit_status == interp.EXIT_EXHAUSTED:
        return None  # out of fuel: the interpreter has no verdict
    try:
        got = _run(build_object(path, s.split, s), s)
    except EmberError as exc:
        return f"crash: {exc.message.split(':')[0]}"
    if got is None:
        return "output: link-failure"
    if got.timed_out:
        return "output: hang"
    if got.exit_status != want.exit_status:
        return "output: exit status"
    if got.stdout != want.stdout:
        return "output: stdout"
    return None


def _run(obj: bytes, s: Settings) -> runner.RunResult | None:
    try:
        return runner.run_object(obj, with_runtime=True, limits=runner.Limits(timeout_s=s.timeout_s))
    except EmberError:
        return None


def script_says_interesting(
    script: str, candidate_text: str, suffix: str, timeout_s: float, on_timeout: Callable[[], None] | None = None
) -> bool:
    """llvm-reduce's `--test`: exit 0 = interesting; the candidate path is the last argument.

    The script runs in its own process group, killed whole on timeout (then `on_timeout` is
    called and the candidate counts as not interesting); a script that cannot be run at all
    is a usage error."""
    with tempfile.TemporaryDirectory(prefix="ember-reduce-") as tmp:
        path = Path(tmp) / f"candidate{suffix}"
        path.write_text(candidate_text)
        try:
            proc = children.run_captured([script, str(path)], timeout=timeout_s)
        except OSError as exc:
            hint = " (no '#!' line?)" if exc.errno == errno.ENOEXEC else ""
            raise UsageError(f"--test {script}: cannot run it: {exc.strerror}{hint}") from None
        if proc.timed_out and on_timeout is not None:
            on_timeout()
        return proc.returncode == 0 and not proc.timed_out
