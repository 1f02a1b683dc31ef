"""`ember bench --corpus`: Ember against LLVM's own tools on the real-world corpus, side by side in one run.

Per program, every column a fresh child process (what a user sees), median of `--repeats`:
Ember `--split none`; Ember `--split two-level` at each `-j`; `opt -O2 + llc -O2` (serial,
the baseline of every ratio); `llvm-lto -O2 -j N` (regular LTO: serial optimisation, then
`splitCodeGen` into N objects, every defined non-local symbol exported); and `opt -O2`,
`llvm-split -j N`, N `llc -O2` in parallel and `ld -r` joining the parts (N: the largest
`-j`). Wall time is the whole process (start-up and parsing included), CPU is user + system
of the child and its descendants, peak is the largest single process's max RSS (os.wait4:
Ember's and llvm-split's concurrent processes are not summed; llvm-lto's threads share one
process). Besides: the heavy workload's run CPU (best of `--runs`) and instruction count
(valgrind, optional) for Ember serial and two-level at the largest -j, and `ember symdiff`
of each parallel object against its serial one (Ember's against `--split none`, LLVM's
against `opt + llc`).
"""

from __future__ import annotations

import heapq
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench import report, runner
from bench.split import LLVM_STAGES, stage_seconds
from compiler.backend.split_mode import SplitMode
from compiler.driver import WORKER_STAGE
from fuzz import corpus

#: the worker counts a split build's wall time is projected to (`projected_wall`)
PROJECTED_WORKERS = (4, 8, 16)
BASELINE = "opt -O2 + llc -O2"


def baseline(level: int) -> str:
    """The label of the column every ratio is against, at `-O<level>`."""
    return BASELINE.replace("-O2", f"-O{level}")

#: commands started together; a configuration is a list of steps run one after another
Step = Sequence[Sequence[str]]


@dataclass
class Column:
    """One configuration on one program: medians over the repeats, or why it has no figures."""

    label: str
    wall: float | None = None  # whole process(es), s
    cpu: float | None = None  # user + system, descendants included, s
    peak_mb: float | None = None  # largest single process's max RSS, MiB
    llvm_wall: float | None = None  # Ember: the LLVM stages of its --time-report
    symdiff: str = ""  # the object's symbol table against the serial one ("" where not compared)
    run_cpu: float | None = None  # the heavy workload's best CPU s (Ember serial and two-level at the largest -j)
    instructions: int | None = None  # ... and its instruction count (valgrind)
    failed: str = ""  # why there are no figures
    llvm_cpu: float | None = None  # Ember: CPU s in LLVM's optimise and codegen (split: all workers; serial: its stages)
    projected: dict[int, float] = field(default_factory=dict)  # Ember split: workers -> projected wall s
    #: Ember split: its function bytes against the serial object's, in total and by function
    #: (oracle/codesize.py; "" where not compared)
    code: str = ""


@dataclass
class ProgramRow:
    """One program: its columns in table order, and what Ember's plan at the largest -j reported."""

    name: str
    functions: int
    columns: list[Column] = field(default_factory=list)
    baseline: str = BASELINE  # the label of the column every ratio is against
    work_ratio: float = 0.0  # the plan's instructions over the module's


@dataclass
class Config:
    """How to build one column: its steps, the object(s) it leaves, what to compare them with."""

    label: str
    steps: list[Step]
    objects: list[Path]
    compare_with: str = ""  # label of the serial configuration whose object the symbol table is diffed against
    skip: str = ""  # why this configuration cannot run here
    ember: bool = False


def exported_symbols(bitcode: Path) -> list[str]:
    """Every defined non-local symbol of a bitcode module (what regular LTO must keep)."""
    out = subprocess.run(
        [str(corpus.LLVM_BIN / "llvm-nm"), "--defined-only", "--extern-only", "--format=just-symbols", str(bitcode)],
        capture_output=True, text=True, check=True,
    ).stdout
    return sorted({line.strip() for line in out.splitlines() if line.strip()})


def response_file(flags: Sequence[str], path: Path) -> str:
    """Write flags one a line, quoted for LLVM's @file expansion; returns the `@path` argument."""
    path.write_text("".join('"' + f.replace("\\", "\\\\").replace('"', '\\"') + '"\n' for f in flags))
    return f"@{path}"


def configurations(src: Path, jobs: Sequence[int], tmp: Path, level: int = 2) -> list[Config]:
    """The columns, in table order (every tool at `-O<level>`)."""
    tool = corpus.LLVM_BIN
    top = max(jobs)
    opt_flag, base = f"-O{level}", baseline(level)

    def ember(split: str | None, j: int, out: Path) -> list[Step]:
        mode = [] if split is None else ["--split", split]  # None: the default (`auto`)
        return [[[*runner.ember_command(), "build", str(src), opt_flag, *mode, "-j", str(j), "--time-report",
                  "-o", str(out)]]]

    def llc(bc: Path, obj: Path) -> list[str]:
        return [str(tool / "llc"), opt_flag, "--relocation-model=pic", "-filetype=obj", str(bc), "-o", str(obj)]

    serial = "ember --split none"
    configs = [Config(serial, ember("none", 1, tmp / "none.o"), [tmp / "none.o"], ember=True)]
    configs += [Config(f"ember two-level -j{j}", ember(SplitMode.TWO_LEVEL, j, tmp / f"j{j}.o"), [tmp / f"j{j}.o"], serial, ember=True)
                for j in jobs]
    configs.append(Config(f"ember default -j{top}", ember(None, top, tmp / "default.o"), [tmp / "default.o"], serial, ember=True))
    configs.append(Config(base, [[[str(tool / "opt"), opt_flag, "--relocation-model=pic", str(src), "-o", str(tmp / "ref.bc")]],
                                 [llc(tmp / "ref.bc", tmp / "ref.o")]], [tmp / "ref.o"]))
    try:
        exported, no_symbols = response_file([f"--exported-symbol={s}" for s in exported_symbols(src)], tmp / "x.rsp"), ""
    except subprocess.CalledProcessError as exc:
        exported, no_symbols = "", f"llvm-nm could not list the exported symbols: {exc.stderr.strip()[-300:]}"
    lto_out = [tmp / "lto.o"] if top == 1 else [tmp / f"lto.o.{i}" for i in range(top)]
    configs.append(Config(f"llvm-lto {opt_flag} -j{top}", [[[str(tool / "llvm-lto"), opt_flag, f"-j={top}", "--relocation-model=pic",
                                                          exported, str(src), "-o", str(tmp / "lto.o")]]], lto_out, base,
                          skip=no_symbols))
    parts = [tmp / f"part{i}" for i in range(top)]
    configs.append(Config(
        f"opt {opt_flag} + llvm-split -j{top} + llc x{top} + ld -r",
        [[[str(tool / "opt"), opt_flag, "--relocation-model=pic", str(src), "-o", str(tmp / "split-in.bc")]],
         [[str(tool / "llvm-split"), f"-j={top}", "-o", str(tmp / "part"), str(tmp / "split-in.bc")]],
         [llc(p, p.with_suffix(".o")) for p in parts],
         [["ld", "-r", *(str(p.with_suffix(".o")) for p in parts), "-o", str(tmp / "split.o")]]],
        [tmp / "split.o"], base, skip="" if shutil.which("ld") else "ld (binutils) not found",
    ))
    return configs


def _one_object(objects: Sequence[Path], tmp: Path, name: str) -> Path:
    """The configuration's object; several (llvm-lto's partitions) are joined with `ld -r`, untimed."""
    if len(objects) == 1:
        return objects[0]
    joined = tmp / f"{name}-joined.o"
    subprocess.run(["ld", "-r", *map(str, objects), "-o", str(joined)], check=True, capture_output=True)
    return joined


def symdiff_summary(a: Path, b: Path) -> str:
    """`ember symdiff A B` in a few words: clean, or how many symbols differ and how."""
    from oracle import symtab

    d = symtab.diff_symbols(symtab.read_symbols(str(a)), symtab.read_symbols(str(b)))
    counts = [(len(d.leaked_locals), "leaked locals"), (len(d.added), "added"), (len(d.removed), "removed"),
              (len(d.changed), "changed")]
    return "clean" if d.clean else ", ".join(f"{n} {what}" for n, what in counts if n)


def code_parity_summary(serial: Path, split: Path) -> str:
    """The split object's function bytes against the serial one's (oracle/codesize.py)."""
    from oracle import codesize, symtab

    return codesize.code_parity(symtab.read_symbols(str(serial)), symtab.read_symbols(str(split))).render()


def _report_number(time_report: str, pattern: str) -> float:
    m = re.search(pattern, time_report, re.M)
    return float(m.group(1)) if m else 0.0


def _best_run(program: corpus.Program, obj: Path, exe: Path, runs: int) -> float:
    """Best CPU time (user + system) of the heavy workload over `runs` runs."""
    corpus.link(obj.read_bytes(), exe, program)
    return min(corpus.run_workload(program, exe, heavy=True).cpu_seconds for _ in range(runs))


def bench_program(
    program: corpus.Program, jobs: Sequence[int], tmp: Path, runs: int = 1, repeats: int = 1, level: int = 2
) -> ProgramRow:
    """Every column on one program (`repeats` builds each, interleaved), then the symbol and workload checks."""
    src = corpus.module_path(program)
    configs = configurations(src, jobs, tmp, level)
    env = runner.ember_env()
    results: dict[str, list[runner.Children]] = {c.label: [] for c in configs}
    for _ in range(repeats):  # interleaved, so a busy spell on the machine spreads over the columns
        for c in configs:
            if not c.skip and not any(r.failed for r in results[c.label]):
                results[c.label].append(runner.run_steps(c.steps, env))
    row = ProgramRow(program.name, _function_count(src), baseline=baseline(level))
    for c in configs:
        runs_of = results[c.label]
        failed = c.skip or next((r.failed for r in runs_of if r.failed), "")
        col = Column(c.label, failed=failed)
        if not failed:
            col.wall = statistics.median(r.wall for r in runs_of)
            col.cpu = statistics.median(r.cpu for r in runs_of)
            col.peak_mb = max(r.peak_mb for r in runs_of)
            if c.ember:
                col.llvm_wall = statistics.median(_llvm_seconds(r.stderr) for r in runs_of)
                col.llvm_cpu = statistics.median(llvm_work(r.stderr) for r in runs_of)
                for n in PROJECTED_WORKERS:
                    projections = [p for r in runs_of if (p := projected_wall(r.wall, r.stderr, n)) is not None]
                    if projections:
                        col.projected[n] = statistics.median(projections)
        row.columns.append(col)
    config_of = {c.label: c for c in configs}
    column_of = {col.label: col for col in row.columns}
    for c, col in zip(configs, row.columns, strict=True):
        base = config_of.get(c.compare_with)
        if base and not col.failed and not column_of[base.label].failed:
            try:
                diff = symdiff_summary(_one_object(base.objects, tmp, "a"), _one_object(c.objects, tmp, "b"))
            except (OSError, subprocess.CalledProcessError) as exc:  # no ld to join llvm-lto's partitions
                diff = f"not compared ({exc})"
            col.symdiff = f"{diff} vs {'serial' if base.ember else row.baseline}"
            if base.ember:
                col.code = code_parity_summary(base.objects[0], c.objects[0])
    _workload(program, row, configs, tmp, runs, max(jobs))
    _plan_figures(row, results[f"ember two-level -j{max(jobs)}"])
    return row


def _llvm_seconds(time_report: str) -> float:
    return sum(stage_seconds(time_report, s) for s in LLVM_STAGES)


def llvm_work(time_report: str) -> float:
    """CPU seconds LLVM spent optimising and generating code, from a --time-report: the
    workers' total in a split build, the (single-threaded) stages in a serial one. Their
    ratio is the work the split really adds: the plan's instruction count overstates it,
    as imports are dropped once inlined (never late-optimised nor code-generated)."""
    if "worker CPU:" in time_report:
        return (_report_number(time_report, r"worker CPU: optimise ([0-9.]+)s")
                + _report_number(time_report, r", codegen ([0-9.]+)s"))
    return stage_seconds(time_report, "optimise") + stage_seconds(time_report, "codegen")


def _workload(program: corpus.Program, row: ProgramRow, configs: list[Config], tmp: Path, runs: int, top: int) -> None:
    """Run CPU and instruction count of the heavy workload built by Ember serial and two-level at -j`top`."""
    for i, c in enumerate(configs):
        col = row.columns[i]
        if c.label in ("ember --split none", f"ember two-level -j{top}") and not col.failed:
            exe = tmp / f"exe-{i}"
            col.run_cpu = _best_run(program, c.objects[0], exe, runs)
            col.instructions = corpus.count_instructions(program, exe)


def _plan_figures(row: ProgramRow, runs_of: list[runner.Children]) -> None:
    """The plan's work ratio from the two-level build's --time-report at the largest -j."""
    if not runs_of or runs_of[-1].failed:
        return
    row.work_ratio = _report_number(runs_of[-1].stderr, r"\(([0-9.]+)x; copies")


def list_schedule(tasks: Sequence[float], workers: int) -> float:
    """When the last of `tasks` (seconds each) ends on `workers` workers that take them longest
    first, each from the first free worker: how the split's pool hands out its subgraphs."""
    loads = [0.0] * max(1, workers)
    for secs in sorted(tasks, reverse=True):
        heapq.heapreplace(loads, loads[0] + secs)
    return max(loads)


def projected_wall(wall: float, time_report: str, workers: int) -> float | None:
    """A split build's wall time on `workers` workers, from one measured build: everything but
    the worker stage as measured (process start, the driver's serial stages), the worker stage
    replaced by a list schedule of the measured task CPU times. None without task times (serial)."""
    m = re.search(r"^task CPU: (.*)$", time_report, re.M)
    if m is None:
        return None
    tasks = [float(x) for x in re.findall(r"([0-9.]+)s", m.group(1))]
    return wall - stage_seconds(time_report, WORKER_STAGE) + list_schedule(tasks, workers)


def _function_count(src: Path) -> int:
    from compiler.backend import llvm_stage

    module = llvm_stage.parse_bitcode(src.read_bytes(), str(src))
    return sum(1 for f in module.functions if not f.is_declaration)


def versus(x: float | None, base: float | None) -> str:
    """Wall time against the baseline's, in words: `1.52x faster` / `1.10x slower`."""
    if not x or not base:
        return "?"
    return f"{base / x:.2f}x faster" if x <= base else f"{x / base:.2f}x slower"


def _workload_cell(col: Column, serial: Column) -> str:
    if col.run_cpu is None:
        return ""
    instr = "instructions n/a (no valgrind)" if col.instructions is None else f"{col.instructions:,} instr"
    if col is not serial and serial.run_cpu:
        change = f" ({col.run_cpu / serial.run_cpu - 1:+.1%})"
        if col.instructions is not None and serial.instructions:
            instr = f"{col.instructions / serial.instructions - 1:+.2%} instr"
        return f"{col.run_cpu:.3f} s{change}, {instr}"
    return f"{col.run_cpu:.3f} s, {instr}"


def _clean(text: str, limit: int = 140) -> str:
    text = " ".join(text.split()).replace("|", "/")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def render(rows: list[ProgramRow]) -> str:
    """One markdown table: a line per program and configuration, ratios against `opt -O2 + llc -O2`."""
    head = ["program", "configuration", "wall s", f"wall vs {rows[0].baseline if rows else BASELINE}", "Ember's LLVM stages s",
            "LLVM work / serial's", "CPU s", "CPU / baseline's", "peak MiB", "workload: run CPU, instructions", "symbols (symdiff)",
            "projected wall vs baseline, " + "/".join(map(str, PROJECTED_WORKERS)) + " workers", "code vs serial"]
    body: list[list[str]] = []
    for r in rows:
        base = next((c for c in r.columns if c.label == r.baseline), None)
        serial = r.columns[0]
        for i, c in enumerate(r.columns):
            name = f"{r.name} ({r.functions:,} fn)" if i == 0 else ""
            if c.failed:
                cells = [name, c.label, f"failed: {_clean(c.failed)}", "", "", "", "", "", "", "", "", "", ""]
            else:
                assert c.wall is not None and c.cpu is not None and c.peak_mb is not None
                ok = base is not None and not base.failed
                cells = [name, c.label, f"{c.wall:.2f}",
                         "baseline" if c is base else versus(c.wall, base.wall) if ok and base else "?",
                         "" if c.llvm_wall is None else f"{c.llvm_wall:.2f}",
                         f"{c.llvm_cpu / serial.llvm_cpu:.2f}x" if c.llvm_cpu and serial.llvm_cpu else "",
                         f"{c.cpu:.2f}", f"{c.cpu / base.cpu:.2f}x" if ok and base and base.cpu else "?",
                         f"{c.peak_mb:.0f}", _workload_cell(c, serial), c.symdiff,
                         " / ".join(versus(c.projected[n], base.wall) for n in PROJECTED_WORKERS if n in c.projected)
                         if ok and base else "", c.code]
            body.append(cells)
    return report.table(head, body, numeric=[False, False, *[True] * 7, False, False, True, False])


def main(
    names: Sequence[str], jobs: Sequence[int], runs: int = 3, repeats: int = 1, json_path: str | None = None, level: int = 2
) -> int:
    """Benchmark the named programs (all when empty); a missing one is reported and skipped."""
    programs = [corpus.BY_NAME[n] for n in names] if names else list(corpus.PROGRAMS)
    rows: list[ProgramRow] = []
    header = ""
    for program in programs:
        reason = corpus.missing(program)
        if reason:
            print(f"{program.name}: skipped ({reason})", flush=True)
            continue
        header = header or report.machine()
        with tempfile.TemporaryDirectory(prefix=f"ember-bench-{program.name}-") as tmp:
            rows.append(bench_program(program, jobs, Path(tmp), runs, repeats, level))
        print("\n".join(render(rows[-1:]).splitlines()[2:]), flush=True)
        report.write_json(json_path, {"machine": header, "jobs": list(jobs), "repeats": repeats, "runs": runs, "level": level,
                                      "programs": [asdict(r) for r in rows]})
    if not rows:
        print("ember: error: no corpus program could be built here (bash ci/fetch_corpus.sh; clang-19)", file=sys.stderr)
        return 1
    print(f"\nmachine: {header}\nwall and CPU: median of {repeats} repeat(s); peak MiB: the largest single process "
          f"(not a sum of concurrent workers; llvm-lto's threads share one process); workload: best of {runs} run(s)\n")
    print(render(rows))
    return 0
