"""The fleet's coverage picture: `ember fuzz --redis URL --status` and its `--html` page.

Totals are sums over every campaign's run record (`store.RunRecord`): programs, checks,
campaign-seconds; "checks/s now" is the sum of the rates of campaigns that reported in
the last `ACTIVE_S` seconds. The page is one self-contained HTML file: its tables carry
every figure (ids `totals`, `machines`, `coverage`, `findings`, read back by the tests),
and with matplotlib (the `bench` extra) it also embeds PNG plots: checks/s over time per
machine, feature coverage as bars, the findings timeline. Each finding links to its
reproducer, embedded in the page as a `.tar.gz` download (up to `EMBED_LIMIT` bytes).
"""

from __future__ import annotations

import base64
import html
import io
import tarfile
import time
from collections import defaultdict
from dataclasses import dataclass, field

from fuzz.fleet import records
from fuzz.fleet.store import FleetStore, RunRecord

ACTIVE_S = 120.0
EMBED_LIMIT = 4 * 1024 * 1024


@dataclass
class Picture:
    """What the store says, summed."""

    runs: list[RunRecord]
    findings: list[records.FleetFinding]
    known: dict[str, str | None] = field(default_factory=dict)
    now: float = field(default_factory=time.time)

    @property
    def programs(self) -> int:
        return sum(r.examples for r in self.runs)

    @property
    def checks(self) -> int:
        return sum(r.checks for r in self.runs)

    @property
    def seconds(self) -> float:
        return sum(r.seconds for r in self.runs)

    @property
    def machines(self) -> list[str]:
        return sorted({r.machine for r in self.runs})

    @property
    def checks_per_s_now(self) -> float:
        return sum(r.checks_per_s for r in self.runs if self.now - r.updated <= ACTIVE_S)

    def coverage(self) -> dict[str, int]:
        total: dict[str, int] = defaultdict(int)
        for r in self.runs:
            for feature, n in r.coverage.items():
                total[feature] += n
        return dict(sorted(total.items(), key=lambda kv: (kv[1], kv[0])))

    def per_machine(self) -> list[tuple[str, int, int, int, float]]:
        """(machine, campaigns, programs, checks, checks/s over its campaign-seconds)."""
        rows = []
        for m in self.machines:
            rs = [r for r in self.runs if r.machine == m]
            secs = sum(r.seconds for r in rs)
            checks = sum(r.checks for r in rs)
            rows.append((m, len(rs), sum(r.examples for r in rs), checks, checks / secs if secs else 0.0))
        return rows


def picture(store: FleetStore) -> Picture:
    found = store.findings()
    return Picture(store.runs(), found, {f.id: records.known(f.meta) if f.problem is None else None for f in found})


def when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) if t else "-"


def status_text(p: Picture, where: str) -> str:
    """What `ember fuzz` prints at its end, for all machines."""
    lines = [
        f"fleet {where}: {len(p.runs)} campaign(s) on {len(p.machines)} machine(s): {p.programs} programs, "
        f"{p.checks} checks in {p.seconds:.0f} campaign-seconds "
        f"({p.checks / p.seconds if p.seconds else 0:.1f} checks/s per campaign); {p.checks_per_s_now:.1f} checks/s now",
    ]
    for m, n, progs, checks, rate in p.per_machine():
        lines.append(f"  {m:<24} {n} campaign(s), {progs} programs, {checks} checks, {rate:.1f} checks/s")
    cov = p.coverage()
    lines.append(
        "feature coverage (programs using it, all machines): " + (", ".join(f"{k} {v}" for k, v in cov.items()) or "(none)")
    )
    lines.append(f"findings: {len(p.findings)}")
    lines.append(format_findings(p.findings, p.known) if p.findings else "  (none)")
    return "\n".join(lines)


def format_findings(found: list[records.FleetFinding], known: dict[str, str | None]) -> str:
    """The `ember findings list --redis` table."""
    if not found:
        return "no findings in the fleet store"
    rows = [f"{'id':<16}  {'class':<18} {'seen':>5} {'machines':<20} {'first seen':<19}  {'last seen':<19}  summary"]
    for f in found:
        if f.problem is not None:
            rows.append(f"{f.id:<16}  {'CORRUPT':<18} {'':>5} {'':<20} {'':<19}  {'':<19}  {f.problem}")
            continue
        mark = f" [known: {known[f.id]}]" if known.get(f.id) else ""
        faults = f.meta.get("faults") or []
        fault = records.clean(f" [fault: {','.join(str(x) for x in faults)}]"[:200]) if faults else ""
        rows.append(
            f"{f.id:<16}  {f.classification:<18} {f.sightings:>5} {','.join(f.machines)[:20]:<20} "
            f"{when(f.first_seen):<19}  {when(f.last_seen):<19}  {f.summary[:80]}{mark}{fault}"
        )
    return "\n".join(rows)


# ------------------------------------------------------------------ the page


def _plots(p: Picture) -> tuple[list[tuple[str, str]], str | None]:
    """(title, PNG base64) of each figure, or a note saying why there are none."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return [], "matplotlib is not installed (pip install -e '.[bench]'), so the figures are shown as tables only."
    out = []
    oldest = min([r.started for r in p.runs] + [f.first_seen for f in p.findings if f.first_seen] + [p.now])
    scale, unit = (3600.0, "hours") if p.now - oldest > 7200 else (1.0, "seconds")

    def emit(fig: object, title: str) -> None:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")  # type: ignore[attr-defined]
        plt.close(fig)
        out.append((title, base64.b64encode(buf.getvalue()).decode("ascii")))

    fig, ax = plt.subplots(figsize=(8, 3.5))
    for m in p.machines:
        for r in (r for r in p.runs if r.machine == m):
            pts = [(0.0, 0, 0), *r.samples]
            xs = [r.started + b[0] for a, b in zip(pts, pts[1:], strict=False) if b[0] > a[0]]
            ys = [(b[1] - a[1]) / (b[0] - a[0]) for a, b in zip(pts, pts[1:], strict=False) if b[0] > a[0]]
            if xs:
                ax.plot([(x - p.now) / scale for x in xs], ys, marker=".", label=f"{m} {r.campaign or r.strategy}"[:60])
    ax.set_xlabel(f"{unit} before now")
    ax.set_ylabel("checks/s")
    if p.runs:
        ax.legend(fontsize=7)
    emit(fig, "checks/s over time, per machine and campaign")
    cov = p.coverage()
    fig, ax = plt.subplots(figsize=(8, max(2.0, 0.18 * len(cov))))
    ax.barh(list(cov), list(cov.values()))
    ax.set_xlabel("programs using the feature (all machines)")
    emit(fig, "feature coverage")
    fig, ax = plt.subplots(figsize=(8, 2.5))
    for i, f in enumerate(p.findings):
        span = [(f.first_seen - p.now) / scale, (f.last_seen - p.now) / scale]
        ax.scatter(span, [i, i])
        ax.plot(span, [i, i])
    ax.set_yticks(range(len(p.findings)), [f.id[:8] for f in p.findings])
    ax.set_xlabel(f"{unit} before now (first seen .. last seen)")
    emit(fig, "findings timeline")
    return out, None


def _table(ident: str, header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table id="{ident}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _reproducer_link(store: FleetStore, f: records.FleetFinding) -> str:
    """A download link to the finding's reproducer, embedded as a .tar.gz data URI."""
    e = html.escape
    pull = f"ember findings pull {f.id} --redis URL"
    try:
        files = store.reproducer(f.id)
    except records.RecordError as exc:
        return f"(reproducer refused: {e(str(exc))})"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for rel, content in sorted(files.items()):
            info = tarfile.TarInfo(f"{f.id}/{rel}")
            info.size = len(content)
            info.mode = 0o755 if rel == "reproduce.sh" else 0o644
            tar.addfile(info, io.BytesIO(content))
    data = buf.getvalue()
    if len(data) > EMBED_LIMIT:
        return f"<code>{e(pull)}</code> (reproducer of {len(data)} bytes not embedded)"
    uri = "data:application/gzip;base64," + base64.b64encode(data).decode("ascii")
    return f'<a class="repro" download="{e(f.id)}.tar.gz" href="{uri}">{e(f.id)}.tar.gz</a> or <code>{e(pull)}</code>'


def html_page(p: Picture, store: FleetStore, where: str) -> str:
    """The self-contained page (no scripts, no external resources)."""
    e = html.escape
    plots, note = _plots(p)
    totals = _table(
        "totals",
        ["campaigns", "machines", "programs", "checks", "campaign-seconds", "checks/s now", "findings"],
        [[str(len(p.runs)), str(len(p.machines)), str(p.programs), str(p.checks), f"{p.seconds:.1f}",
          f"{p.checks_per_s_now:.2f}", str(len(p.findings))]],
    )
    machines = _table(
        "machines", ["machine", "campaigns", "programs", "checks", "checks/s"],
        [[e(m), str(n), str(progs), str(c), f"{rate:.2f}"] for m, n, progs, c, rate in p.per_machine()],
    )
    rates = _table(
        "samples", ["machine", "run", "campaign", "strategy", "seconds", "checks", "checks/s"],
        [[e(r.machine), e(r.id), e(r.campaign), e(r.strategy), f"{t:.1f}", str(c), f"{c / t if t else 0:.2f}"]
         for r in p.runs for t, c, _ in r.samples],
    )
    coverage = _table("coverage", ["feature", "programs"], [[e(k), str(v)] for k, v in p.coverage().items()])
    rows = []
    for f in p.findings:
        if f.problem is not None:
            rows.append([e(f.id), "CORRUPT", "", "", "", "", e(f.problem), ""])
            continue
        known = p.known.get(f.id)
        rows.append([
            e(f.id), e(f.classification), str(f.sightings), e(", ".join(f.machines)), e(when(f.first_seen)),
            e(when(f.last_seen)), e(f.summary[:300]) + (f" <b>[known: {e(known)}]</b>" if known else ""),
            _reproducer_link(store, f),
        ])
    found = _table("findings", ["id", "class", "sightings", "machines", "first seen", "last seen", "summary", "reproducer"], rows)
    figures = "".join(
        f'<figure><img alt="{e(t)}" src="data:image/png;base64,{b}"><figcaption>{e(t)}</figcaption></figure>'
        for t, b in plots
    )
    note_html = f'<p class="note" id="note">{e(note)}</p>' if note else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Ember fleet: {e(where)}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse;margin:1em 0}}
td,th{{border:1px solid #ccc;padding:2px 8px;text-align:left}}.note{{color:#a60}}figure{{margin:1em 0}}</style>
</head><body>
<h1>Ember fleet</h1><p>store {e(where)}, {e(when(p.now))}</p>
{note_html}
<h2>Totals</h2>{totals}
<h2>Machines</h2>{machines}
{figures}
<h2>Feature coverage</h2>{coverage}
<h2>Findings</h2>{found}
<h2>checks/s samples</h2>{rates}
</body></html>
"""


def write_html(path: str, text: str) -> None:
    """Write the page like every other output (`-o` rules: atomic replace, `-` is stdout)."""
    from compiler import outputs

    outputs.check_output(path, (), "--html")
    outputs.write_output(path, text)
