"""`ember findings list|show|reproduce|pull --redis URL` and `ember fuzz --redis URL --status [--html F]`.

A finding from the fleet is anyone's: its plan may carry a `--candidate` command
template, which `reproduce` would run. Such a finding (shared, or pulled into the local
store, where `finding.json` keeps a `fleet` mark) never runs that command unless the
user passes `--trust-candidate`; without it the command is shown and refused (exit 2).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from compiler.diagnostics import EmberError, Location, UsageError
from fuzz import findings
from fuzz.fleet import connection, records, report
from fuzz.fleet.store import FleetStore

T = TypeVar("T")
FLEET_KEY = "fleet"


def open_store(url: str) -> FleetStore:
    return FleetStore(connection.connect(url))


def talk(url: str, call: Callable[[], T]) -> T:
    """Run `call`; a Redis failure becomes one line naming the (redacted) server."""
    import redis

    try:
        return call()
    except (redis.exceptions.RedisError, OSError) as exc:
        raise EmberError(f"cannot use Redis {connection.redact(url)}: {connection.describe_error(exc, url)}") from None


# ------------------------------------------------------------------ candidates from the fleet


def candidate_commands(meta: dict[str, Any]) -> list[str]:
    """Every `--candidate` command template a finding's plan carries."""
    configs = meta.get("plan", {}).get("configs", []) if isinstance(meta.get("plan"), dict) else []
    return [str(c["candidate"]) for c in configs if isinstance(c, dict) and c.get("candidate")]


def check_trust(meta: dict[str, Any], trusted: bool, where: str) -> None:
    """Refuse to run a fleet finding's candidate command unless `--trust-candidate` was given."""
    commands = candidate_commands(meta)
    if commands and not trusted:
        shown = " and ".join("`" + records.clean(c[:300]) + "`" for c in commands)
        raise UsageError(
            f"{where} would run the command it carries: {shown}; "
            "read it, then re-run with --trust-candidate to run it"
        )


def check_local_trust(path: Path, trusted: bool) -> None:
    """`ember findings reproduce` of a local finding: the same rule for one pulled from the fleet."""
    meta = findings.read_meta(path)
    if FLEET_KEY in meta:
        check_trust(meta, trusted, f"finding {path} (pulled from the fleet)")


# ------------------------------------------------------------------ ember findings --redis


def cmd_findings(args: argparse.Namespace, url: str) -> int:
    """`ember findings ACTION --redis URL`."""
    store = open_store(url)
    where = connection.redact(url)
    if args.action == "list":
        found = talk(url, store.findings)
        known = {f.id: records.known(f.meta) if f.problem is None else None for f in found}
        print(f"fleet {where}: {len(found)} finding(s)")
        print(report.format_findings(found, known))
        return 0
    if not args.finding:
        raise UsageError(f"'ember findings {args.action} --redis' needs a fleet finding id")
    sig = talk(url, lambda: store.resolve(args.finding))
    finding = talk(url, lambda: store.finding(sig, with_sightings=True))
    if finding.problem is not None:
        raise EmberError(f"fleet finding {sig} refused: {finding.problem}", Location(where))
    files = _reproducer(store, url, sig, where)
    if args.action == "show":
        print(_show(finding, files, records.known(finding.meta)))
        return 0
    if args.action == "pull":
        path, created = pull(finding, files, args.findings, where)
        print(f"pulled {sig} into {path}" if created else f"{sig} is already in the local store: {path}")
        return 0
    meta = _meta_of(files, sig, where)
    check_trust(meta, args.trust_candidate, f"fleet finding {sig}")
    with tempfile.TemporaryDirectory(prefix=f"ember-fleet-{sig}-") as tmp:
        path = Path(tmp) / sig
        path.mkdir()
        records.write_files(files, path)
        result = findings.reproduce(path, allow_faults=False)
    return findings.print_reproduction(result)


def _reproducer(store: FleetStore, url: str, sig: str, where: str) -> dict[str, bytes]:
    try:
        return talk(url, lambda: store.reproducer(sig))
    except records.RecordError as exc:
        raise EmberError(f"fleet finding {sig} refused: {exc}", Location(where)) from None


def _meta_of(files: dict[str, bytes], sig: str, where: str) -> dict[str, Any]:
    try:
        meta = json.loads(files["finding.json"].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        meta = None
    if not isinstance(meta, dict) or not all(k in meta for k in findings.REQUIRED_KEYS):
        raise EmberError(f"fleet finding {sig} refused: its finding.json is not a finding", Location(where))
    return meta


def _show(f: records.FleetFinding, files: dict[str, bytes], known: str | None) -> str:
    meta = f.meta
    lines = [
        f"fleet finding {f.id}" + (f"   [known: {known}]" if known else ""),
        f"signature {f.signature}",
        f"class     {f.classification}",
        f"seen      {f.sightings} time(s) on {', '.join(f.machines)}; first {report.when(f.first_seen)}, "
        f"last {report.when(f.last_seen)}",
        records.clean(f"faults    {', '.join(str(x) for x in meta.get('faults', []) or []) or 'none'}"[:500]),
    ]
    for c in candidate_commands(meta):
        lines.append(f"candidate {records.clean(c)}   (runs only with --trust-candidate)")
    lines.append(f"reproduce ember findings reproduce {f.id} --redis URL   (or: ember findings pull {f.id} --redis URL)")
    lines += ["", "sightings:", f"  {'machine':<24} {'seed':>11} {'programs-to-find':>16}  seen  campaign"]
    for s in meta.get("_sightings", []):
        try:
            seen = report.when(float(s.get("seen") or 0))
        except (TypeError, ValueError, OverflowError, OSError):
            seen = "?"
        lines.append(records.clean(
            f"  {str(s.get('machine', '?'))[:24]:<24} {str(s.get('seed'))[:11]:>11} {str(s.get('examples_to_find'))[:16]:>16}  "
            f"{seen}  {str(s.get('campaign', ''))[:60]}"
        ))
    diff = records.clean(files.get("diff.txt", b"").decode("utf-8", "replace").rstrip(), lines=True)
    lines += ["", diff or "(no diff.txt)", "", "files:"]
    lines += [f"  {rel}  ({len(data)} bytes)" for rel, data in sorted(files.items())]  # plain paths (records.unpack)
    return "\n".join(lines)


def pull(f: records.FleetFinding, files: dict[str, bytes], root: Path | None, where: str) -> tuple[Path, bool]:
    """Copy a fleet finding into the local store (atomically), marked as from the fleet; (its path,
    whether it was copied now) — a finding of the same local id already there is left alone."""
    root = Path(root) if root is not None else findings.default_root()
    meta = _meta_of(files, f.id, where)
    local_id = str(meta.get("id", ""))
    if not records.is_plain_name(local_id) or local_id.startswith("."):
        local_id = f"fleet-{f.id}"
    final = root / local_id
    if final.exists():
        return final, False
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-fleet-{f.id}-", dir=root))
    try:
        records.write_files(files, tmp)
        meta[FLEET_KEY] = {"id": f.id, "signature": f.signature, "store": where, "sightings": f.sightings}
        meta["reproduce"] = findings.reproduce_command(final, frozenset(str(x) for x in meta.get("faults", []) or []))
        (tmp / "finding.json").write_text(json.dumps(meta, indent=2) + "\n")
        tmp.chmod(0o777 & ~_umask())
        os.replace(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final, True


def _umask() -> int:
    from compiler import outputs

    return outputs.current_umask()


# ------------------------------------------------------------------ ember fuzz --redis --status


def cmd_status(url: str, html_path: str | None) -> int:
    """Print the fleet's totals, per-feature coverage and findings; `--html` also writes the page."""
    store = open_store(url)
    where = connection.redact(url)
    if html_path is not None:
        from compiler import outputs

        outputs.check_output(html_path, (), "--html")
    pic = talk(url, lambda: report.picture(store))
    print(report.status_text(pic, where))
    if getattr(store, "bad_runs", 0):
        print(f"({store.bad_runs} malformed campaign record(s) in Redis ignored)")
    if html_path is not None:
        page = talk(url, lambda: report.html_page(pic, store, where))
        report.write_html(html_path, page)
        print(f"wrote {html_path}")
    return 0


# ------------------------------------------------------------------ wiring into fuzz/fuzz_command.py and findings_command.py


def fuzz_status(args: argparse.Namespace) -> int | None:
    """`ember fuzz --status`: the fleet's picture (the exit status), else None (run a campaign)."""
    if not (args.status or args.html):
        return None
    url = connection.resolve_url(args.redis)
    if url is None:
        raise UsageError("--status and --html need --redis URL (or $EMBER_REDIS_URL)")
    return cmd_status(url, args.html)


def start_session(args: argparse.Namespace, seed: int, root: Path) -> Any:
    """The campaign's FleetSession when `--redis`/`$EMBER_REDIS_URL` is given, else None."""
    url = connection.resolve_url(args.redis)
    if url is None:
        return None
    from fuzz.fleet.session import FleetSession

    print(f"ember fuzz: fleet store {connection.redact(url)} (findings and coverage shared)", flush=True)
    return FleetSession(url, name="ember fuzz", strategy=args.strategy, seed=seed, root=root)


def end_session(session: Any, result: Any) -> None:
    if session is None:
        return
    session.finish(result)
    if session.uploaded:
        print(f"fleet: {len(session.uploaded)} finding(s) shared in {session.where}")


def findings_url(args: argparse.Namespace) -> str | None:
    """The fleet store `ember findings` reads: `--redis` only (the local store stays the default);
    `pull` needs one."""
    url = connection.resolve_url(args.redis) if args.redis else None
    if args.action == "pull" and url is None:
        url = connection.resolve_url(None)
        if url is None:
            raise UsageError("'ember findings pull' needs --redis URL (or $EMBER_REDIS_URL)")
    return url
