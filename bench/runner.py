"""The one way a benchmark measures: wall, CPU and peak memory of a child process tree,
or of this process and the children it has waited for.

`run_children` starts each command under a small measuring process that `wait4`s it: CPU is
user + system of the child and every descendant it waited for (a build's worker pool
included), peak is the largest single process's max RSS. Several commands start together;
wall runs from the first start to the last end. `run_steps` runs such groups one after
another. `Measure` does the same for work done in this process (a campaign, a reduction):
its CPU counts this process and the children it reaped, so stop worker pools before
leaving the block.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

#: this checkout: the root every child gets first on PYTHONPATH
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Children:
    """What one step (one or more child processes started together) cost."""

    wall: float
    cpu: float  # user + system of every child and their waited-for descendants
    peak_mb: float  # the largest single process's max RSS, not a sum over concurrent children
    stderr: str = ""
    failed: str = ""  # why a child exited non-zero (its command and stderr); "" when all succeeded
    stdout: str = ""  # with capture_stdout
    timed_out: bool = False  # a child was still running at the timeout and was killed (figures: up to then)
    returncodes: tuple[int, ...] = ()


#: Runs argv[2:], then writes `start end cpu maxrss_kib` (monotonic clock) to argv[1]; exits with its status.
#: A small process in between because Linux's ru_maxrss counts the forking parent's memory at exec:
#: a child forked straight from this (large) Python process would report at least this process's RSS.
_MEASURE = (
    "import os,sys,time\n"
    "t=time.monotonic();p=os.posix_spawnp(sys.argv[2],sys.argv[2:],os.environ)\n"
    "_,s,u=os.wait4(p,0);e=time.monotonic()\n"
    "open(sys.argv[1],'w').write(f'{t} {e} {u.ru_utime+u.ru_stime} {u.ru_maxrss}')\n"
    "sys.exit(os.waitstatus_to_exitcode(s) & 255)\n"
)


def run_children(
    cmds: Sequence[Sequence[str]],
    env: dict[str, str] | Sequence[dict[str, str]] | None = None,
    *,
    capture_stdout: bool = False,
    timeout: float | None = None,
    cwd: Path | None = None,
) -> Children:
    """Run the commands concurrently (each under a small measuring process); wall runs from the first
    child's start to the last one's end, CPU is the children's sum, peak the largest child's. `env`
    is every child's environment, or one per command. Past `timeout` seconds every child still
    running is killed with its process group (`timed_out`)."""
    envs = list(env) if isinstance(env, Sequence) else [env] * len(cmds)
    starts, ends, cpu, peak, failed, texts, outs, codes = [], [], 0.0, 0.0, "", [], [], []
    began, timed_out = time.monotonic(), False
    with tempfile.TemporaryDirectory(prefix="ember-measure-") as tmp, contextlib.ExitStack() as stack:
        logs = [stack.enter_context(open(Path(tmp) / f"{i}.err", "w+b")) for i in range(len(cmds))]
        sinks = [stack.enter_context(open(Path(tmp) / f"{i}.out", "w+b")) for i in range(len(cmds))]
        stats = [Path(tmp) / f"{i}.stat" for i in range(len(cmds))]
        procs = [
            subprocess.Popen([sys.executable, "-S", "-c", _MEASURE, str(stats[i]), *cmd],
                             stdout=sinks[i] if capture_stdout else subprocess.DEVNULL, stderr=logs[i], env=envs[i], cwd=cwd,
                             start_new_session=timeout is not None)
            for i, cmd in enumerate(cmds)
        ]
        for i, (cmd, proc) in enumerate(zip(cmds, procs, strict=True)):
            left = None if timeout is None else max(0.0, began + timeout - time.monotonic())
            try:
                proc.wait(left)
            except subprocess.TimeoutExpired:
                timed_out = True
                used, high = _live_tree(proc.pid)  # the stat file will not be written: read the tree before the kill
                cpu += used
                peak = max(peak, high)
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            codes.append(proc.returncode)
            logs[i].seek(0)
            texts.append(logs[i].read().decode(errors="replace"))
            sinks[i].seek(0)
            outs.append(sinks[i].read().decode(errors="replace"))
            if proc.returncode != 0 and not failed and not timed_out:
                failed = f"{Path(cmd[0]).name} exited {proc.returncode}: {texts[-1].strip()[-400:]}"
            if stats[i].exists():
                t0, t1, used, rss = (float(x) for x in stats[i].read_text().split())
                starts.append(t0)
                ends.append(t1)
                cpu += used
                peak = max(peak, rss / 1024)  # KiB on Linux
            elif timed_out:
                starts.append(began)
                ends.append(time.monotonic())
            elif not failed:
                failed = f"{Path(cmd[0]).name} could not be started: {texts[-1].strip()[-400:]}"
    wall = max(ends) - min(starts) if starts else 0.0
    return Children(wall, cpu, peak, "".join(texts), failed, "".join(outs), timed_out, tuple(codes))


def _live_tree(pid: int) -> tuple[float, float]:
    """CPU seconds (its reaped children included) and the largest memory high-water mark, MiB,
    of a running process and its descendants."""
    import psutil

    try:
        root = psutil.Process(pid)
        tree = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0, 0.0
    cpu, peak = 0.0, 0.0
    for p in tree:
        try:
            t = p.cpu_times()
            cpu += t.user + t.system + t.children_user + t.children_system
            for line in Path(f"/proc/{p.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) / 1024)
        except (psutil.Error, OSError, ValueError):
            continue
    return cpu, peak


def run_steps(steps: Sequence[Sequence[Sequence[str]]], env: dict[str, str] | None = None) -> Children:
    """Groups of commands one after another (each group started together); stops at the first failing one."""
    total = Children(0.0, 0.0, 0.0)
    for cmds in steps:
        c = run_children(cmds, env)
        total = Children(total.wall + c.wall, total.cpu + c.cpu, max(total.peak_mb, c.peak_mb),
                         total.stderr + c.stderr, c.failed)
        if c.failed:
            break
    return total


def checked(cmd: Sequence[str], env: dict[str, str] | None = None) -> Children:
    """One command that must succeed (RuntimeError with its stderr otherwise)."""
    step = run_children([cmd], env)
    if step.failed:
        raise RuntimeError(f"{' '.join(cmd)} failed: {step.failed}")
    return step


def cpu_seconds() -> float:
    """User + system CPU of this process and of every child it has waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@dataclass
class Measured:
    """Work done in this process: filled in when the `measure()` block ends."""

    wall: float = 0.0
    cpu: float = 0.0
    peak_mb: float = 0.0  # this process's or the largest reaped child's max RSS so far


@contextlib.contextmanager
def measure() -> Iterator[Measured]:
    """Wall and CPU (this process and the children it reaps) of the block."""
    out = Measured()
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    try:
        yield out
    finally:
        out.wall = time.perf_counter() - t0
        out.cpu = cpu_seconds() - cpu0
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        out.peak_mb = max(own, kids) / 1024


def ember_command() -> list[str]:
    """`ember` as this tree's code: the current interpreter, `-m compiler.cli` (with `ember_env()`)."""
    return [sys.executable, "-m", "compiler.cli"]


def ember_env(**extra: str | None) -> dict[str, str]:
    """The environment with this tree first on PYTHONPATH (the console script may load another
    checkout); `extra` sets variables, None removes one."""
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{path}" if path else str(ROOT)}
    for name, value in extra.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env
