"""`driver.build` in a long-lived child process, so a compiler that dies cannot take the harness with it.

LLVM reports some errors by exiting the process (e.g. the integrated assembler on a
duplicate symbol: `error: <inline asm>: symbol '.Lfunc_end0' is already defined`, then
`exit(1)`), and the serial back end and the object link run in the driver's own process. The harness
therefore sends every Ember build to this server: one request line (JSON) in, one
response line out, the object written to the requested path. The server keeps LLVM
initialised and the driver's worker pools warm, so a build costs what it costs in-process
plus a few hundred microseconds, and it lowers each Ember program once per -O level
(its `fuzz.lowering_cache.LoweringCache`, passed to the driver as `BuildOptions.hooks.lowering`),
not once per split configuration. Hooks travel by name (`BuildHooks.names`, e.g. a power-check
fault) and the server rebuilds them with `fuzz.faults.hooks_for`. When the server dies, the build is a `crash` carrying
the tail of its stderr; when a build outlives its deadline, the whole process group
(server and its workers) is killed and the build is a `hang`. The next build starts a
fresh server.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import IO, Any

from compiler import driver
from compiler.hooks import BuildHooks
from fuzz import faults
from fuzz.lowering_cache import LoweringCache
from fuzz.task_cache import TaskFiles


@dataclass(frozen=True)
class BuildResult:
    """What one build produced: an object at the requested path, or an error."""

    ok: bool
    error: str | None = None
    hang: bool = False


class BuildServer:
    """The parent side: start lazily, send a build, wait with a deadline, restart after a death."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        if self.proc is not None and self.proc.poll() is None:
            return self.proc
        self.close()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the server)
        env = dict(os.environ, PYTHONUNBUFFERED="1", EMBER_BUILDSERVER_PARENT=str(os.getpid()))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fuzz.buildserver"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            start_new_session=True,  # its own process group: killing it kills its pool workers too
            env=env,
        )
        return self.proc

    def build(
        self, path: Path, options: driver.BuildOptions, out: Path, *, timeout: float, share_lowering: Path | None = None,
        task_cache: Path | None = None, plan_assignment: dict[str, int] | None = None,
    ) -> BuildResult:
        """Compile `path` to `out` with `options`; never raises for a compiler failure.

        `share_lowering`: a folder where the servers building this program leave and reuse
        its lowering (`LoweringCache.shared_in`). `task_cache`: a folder where split builds
        leave and reuse their subgraph tasks (`fuzz.task_cache`: a reduction's candidates).
        Of `options.hooks` only the names travel, and `plan_assignment` (a fixed split plan,
        `BuildHooks.plan_assignment`). With `options.print_split_plan` the plan is written to
        `OUT.plan.txt` (`plan_assignment_of` reads it back).
        """
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None and self._stderr is not None
        err_start = self._stderr.seek(0, os.SEEK_END)
        request: dict[str, Any] = {f.name: getattr(options, f.name) for f in fields(options) if f.name != "hooks"}
        hooks = list(options.hooks.names) if options.hooks is not None else []
        request |= {"hooks": hooks, "input": str(path), "output": str(out)}
        if share_lowering is not None:
            request["share_lowering"] = str(share_lowering)
        if task_cache is not None:
            request["task_cache"] = str(task_cache)
        if plan_assignment is not None:
            request["plan_assignment"] = plan_assignment
        try:
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            proc.stdin.flush()
        except BrokenPipeError:
            return self._died(err_start)
        # not just EOF: the server's pool workers inherit its stdout and keep the pipe open
        deadline = time.monotonic() + timeout
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], 0.2)
            if ready:
                break
            if proc.poll() is not None:
                ready, _, _ = select.select([proc.stdout], [], [], 0)
                if not ready:
                    return self._died(err_start)
                break
            if time.monotonic() > deadline:
                self.close()
                return BuildResult(False, f"build did not finish within {timeout:g}s (compiler process killed)", hang=True)
        line = proc.stdout.readline()
        if not line:
            return self._died(err_start)
        reply = json.loads(line)
        return BuildResult(bool(reply["ok"]), reply.get("error"), bool(reply.get("hang", False)))

    def _died(self, err_start: int) -> BuildResult:
        assert self.proc is not None and self._stderr is not None
        status = self.proc.wait()
        self._stderr.seek(err_start)
        tail = self._stderr.read().decode(errors="replace").strip()[-4000:]
        self.close()
        how = f"signal {signal.Signals(-status).name}" if status < 0 else f"exit {status}"
        first = next((ln for ln in tail.splitlines() if "error" in ln), tail.splitlines()[0] if tail else "")
        return BuildResult(False, f"compiler process died ({how}): {first}\n{tail}".rstrip())

    def stop(self) -> None:
        """Stop gracefully: the server joins its worker pools and exits, and is reaped here.

        Afterwards this process's RUSAGE_CHILDREN includes the CPU time of the server and
        of every worker it ran (the benchmark's checks-per-CPU-second figure needs that).
        """
        proc = self.proc
        if proc is None or proc.poll() is not None or proc.stdin is None:
            self.close()
            return
        try:
            proc.stdin.write(b'{"op": "shutdown"}\n')
            proc.stdin.flush()
            proc.stdin.close()
            proc.wait(timeout=60)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            pass
        self.close()

    def close(self) -> None:
        """Kill the server and its workers (its whole process group)."""
        if self.proc is not None:
            if self.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            else:  # the server is gone; its orphaned pool workers are still in its group
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc = None
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None


_IDLE: list[BuildServer] = []
_EVERY: list[BuildServer] = []
_LOCK = threading.Lock()


@contextlib.contextmanager
def lease() -> Iterator[BuildServer]:
    """A build server no other thread is using: one request at a time per server, so
    threads that check in parallel (the reducer's candidates) each get their own; servers
    are reused afterwards and all closed at exit."""
    with _LOCK:
        if _IDLE:
            srv = _IDLE.pop()
        else:
            srv = BuildServer()
            _EVERY.append(srv)
            if len(_EVERY) == 1:
                atexit.register(close_all)
    try:
        yield srv
    finally:
        with _LOCK:
            _IDLE.append(srv)


def build(
    path: Path, options: driver.BuildOptions, out: Path, *, timeout: float, share_lowering: Path | None = None,
    task_cache: Path | None = None, plan_assignment: dict[str, int] | None = None,
) -> BuildResult:
    """`BuildServer.build` on a leased server (see `lease`)."""
    with lease() as srv:
        return srv.build(path, options, out, timeout=timeout, share_lowering=share_lowering, task_cache=task_cache,
                         plan_assignment=plan_assignment)


def plan_assignment_of(plan_text: str) -> dict[str, int]:
    """Function and variable name -> subgraph index, from a printed split plan (`--print-split-plan`:
    `subgraph K (cost C): a, b, ...`); copies (`f.ember.K`) are not members of their own."""
    from compiler.backend import planner

    out: dict[str, int] = {}
    for line in plan_text.splitlines():
        head, sep, members = line.partition("): ")
        if not sep or not head.startswith("subgraph "):
            continue
        k = int(head.split()[1])
        for name in members.split(", "):
            if name and planner.COPY_SUFFIX not in name:
                out.setdefault(name, k)
    return out


def stop_all() -> None:
    """Stop every server gracefully (their CPU time then counts in RUSAGE_CHILDREN)."""
    with _LOCK:
        for srv in _EVERY:
            srv.stop()


def close_all() -> None:
    """Kill every server and its workers."""
    with _LOCK:
        for srv in _EVERY:
            srv.close()


# ------------------------------------------------------------------ the child side


def _serve_one(request: dict[str, Any]) -> dict[str, object]:
    from compiler.diagnostics import EmberError

    inp, out = request.pop("input"), request.pop("output")
    shared = request.pop("share_lowering", None)
    names = request.pop("hooks", ())
    tasks = request.pop("task_cache", None)
    assignment = request.pop("plan_assignment", None)
    try:
        base = BuildHooks(lowering=_LOWERINGS.shared_in(shared) if _LOWERINGS is not None else None, in_process=_IN_PROCESS,
                          tasks=TaskFiles(tasks) if tasks is not None else None, plan_assignment=assignment)
        options = driver.BuildOptions(**request, hooks=faults.hooks_for(names, base=base))
        built = driver.build(inp, options)
        result = built.output
        if options.print_split_plan:
            plan = next((n for n in built.times.notes if "\nsubgraph 0 (cost " in n), "")
            Path(out + ".plan.txt").write_text(plan)
    except EmberError as exc:
        return {"ok": False, "error": exc.render(), "hang": "timed out" in exc.message}
    except Exception as exc:  # an internal error of the compiler
        return {"ok": False, "error": f"internal error: {type(exc).__name__}: {exc}\n{traceback.format_exc()}"}
    data = result if isinstance(result, bytes) else result.encode()
    Path(out).write_bytes(data)
    return {"ok": True}


def _shutdown_pools() -> None:
    from compiler.backend import pool

    pool.shutdown(wait=True)


def _exit_with_parent(poll_s: float = 1.0) -> None:
    """Die (with the pool workers of our process group) once the parent is gone: a killed
    test run must not leave a server spinning on a hung build (stdin EOF is only seen
    between builds)."""
    import signal
    import threading
    import time

    # the pid the parent gave us: it may already be gone by the time we get here
    parent = int(os.environ.get("EMBER_BUILDSERVER_PARENT") or os.getppid())

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll_s)
        os.killpg(0, signal.SIGKILL)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


#: Ember programs lowered per server and kept (a check builds one program about six ways);
#: `$EMBER_LOWERING_CACHE` overrides it (0: off, what the throughput benchmark compares with)
LOWERING_CACHE_ENTRIES = 8
#: this server's lowering cache (None: off), set up by `main`
_LOWERINGS: LoweringCache | None = None
#: `$EMBER_INPROCESS_J1` (set by a reducer's per-candidate script, where the script is the unit
#: of parallelism): -j1 builds run their back-end tasks in the server (`BuildHooks.in_process`)
_IN_PROCESS = False


def main() -> int:
    global _LOWERINGS, _IN_PROCESS
    _exit_with_parent()
    setting = os.environ.get("EMBER_LOWERING_CACHE", "").strip()
    entries = int(setting) if setting.isdigit() else LOWERING_CACHE_ENTRIES
    _LOWERINGS = LoweringCache(entries) if entries > 0 else None
    _IN_PROCESS = bool(os.environ.get("EMBER_INPROCESS_J1"))
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("op") == "shutdown":
            break
        reply = _serve_one(request)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    _shutdown_pools()  # join the workers, so their CPU time is counted for whoever reaps us
    return 0


if __name__ == "__main__":
    sys.exit(main())
