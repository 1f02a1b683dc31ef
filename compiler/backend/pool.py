"""The back end's worker pool: one cached `spawn` pool per job count, and running pieces on it.

llvmlite holds one global lock and LLVM is not fork-safe, so parallel work needs processes
started with `spawn`. A pool is started at the beginning of a build (its start-up overlaps
parsing), reused by later builds in the process, replaced when it broke while idle, and
its workers die with the driver. `run` names and saves the piece a worker crashed, hung
or failed on. Used by the split back end, the offload flows, the build server and the
benchmarks.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path

from compiler import children
from compiler.diagnostics import EmberError, Location


def warm_up() -> bool:
    """Load LLVM and initialise targets in a fresh worker (overlaps the parent's parsing)."""
    from compiler.backend import engine, llvm_stage

    engine.load()
    llvm_stage.host_triple()
    return True


def warm(jobs: int, *, wait: bool = False, tasks: int | None = None) -> None:
    """Start the workers now so their start-up overlaps the parent's parse and plan; with
    `wait`, return once every worker has started (benchmarks time the work, not start-up).
    `tasks` bounds how many start: a build never runs more pieces at once than it has."""
    _pool(jobs, started_workers(jobs, tasks))
    if wait:
        _await_warm_up(jobs)


# ------------------------------------------------------------------ pool

_POOLS: dict[int, ProcessPoolExecutor] = {}
#: warm-ups still running on a new pool: work waits for them, so it lands on those workers
#: instead of spawning more (a spawn pool starts a worker whenever none is idle)
_WARMING: dict[int, list[Future[object]]] = {}

#: `-j` above this is clamped: workers beyond twice the cores only cost memory and start-up
MAX_JOBS = max(2, min(64, 2 * (os.cpu_count() or 1)))


def capped_jobs(jobs: int) -> int:
    """`jobs` clamped to 1..MAX_JOBS (an absurd `-j 100000` must not start 100000 processes)."""
    return max(1, min(jobs, MAX_JOBS))


def started_workers(jobs: int, tasks: int | None) -> int:
    """How many workers to start ahead of the work: the capped `-j`, and no more than there
    are tasks (the pool starts further workers only when more tasks than idle workers wait)."""
    return max(1, min(capped_jobs(jobs), tasks if tasks is not None else MAX_JOBS))


def _worker_init(parent: int, deathsig: bool) -> None:
    """Worker set-up: die with the driver, and leave Ctrl-C to the driver (no tracebacks here)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _DEFERRED)  # blocked while the driver started us
    if deathsig:  # only when the creating thread lives as long as the driver (the main thread)
        children.die_with_parent(signal.SIGKILL)
    if os.getppid() != parent:  # the driver died before we got here
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="ember-parent-watch").start()


def _watch_parent(parent: int) -> None:
    """Exit the worker once the driver is gone (covers what PR_SET_PDEATHSIG cannot: other OSes,
    pools started from a thread that ended)."""
    import time

    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


#: an interrupted build leaves at once (os._exit) with its pool's locks still registered; the
#: resource tracker then frees them, which is right, and warns about it, which is noise
_QUIET_TRACKER = "ignore:resource_tracker:UserWarning"


def _quiet_resource_tracker() -> None:
    """Silence that warning in the resource tracker: multiprocessing starts it with our
    `sys.warnoptions` as -W flags (the environment, and so programs we run, stay untouched)."""
    if _QUIET_TRACKER not in sys.warnoptions:
        sys.warnoptions.append(_QUIET_TRACKER)


def _new_pool(workers: int, method: str = "spawn") -> ProcessPoolExecutor:
    """A pool whose workers ignore SIGINT and die with this process."""
    _quiet_resource_tracker()
    deathsig = threading.current_thread() is threading.main_thread()
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=_worker_init,
        initargs=(os.getpid(), deathsig),
    )


def _is_broken(pool: ProcessPoolExecutor) -> bool:
    """Whether a pool can no longer run work (a worker died, or it was shut down)."""
    return bool(getattr(pool, "_broken", False)) or bool(getattr(pool, "_shutdown_thread", False))


def _pool(jobs: int, prestart: int = 0) -> ProcessPoolExecutor:
    """A cached spawn pool per job count (worker start-up is paid once per process); a pool
    that broke while idle (a worker killed between builds) is replaced, never reused. A new
    pool starts `prestart` workers at once; spawn pools add the rest on demand, up to `jobs`."""
    jobs = capped_jobs(jobs)
    pool = _POOLS.get(jobs)
    if pool is not None and _is_broken(pool):
        _discard_pool(jobs)
        pool = None
    if pool is None:
        # start the workers now, with the caller's __main__ hidden: spawn would otherwise
        # re-run a user's script (one without a __main__ guard) inside each worker
        with _main_module_hidden(), _signals_deferred():
            pool = _new_pool(jobs)
            _POOLS[jobs] = pool
            _WARMING[jobs] = [pool.submit(warm_up) for _ in range(min(prestart, jobs))]
    return pool


def _await_warm_up(jobs: int) -> None:
    """Wait for the pool's start-up work (a broken pool shows at the next submit)."""
    for future in _WARMING.pop(capped_jobs(jobs), []):
        try:
            future.result()
        except Exception:  # noqa: BLE001 - BrokenProcessPool and the like: the submit that follows sees it
            return


_DEFERRED = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while workers are being started: an interrupt inside a start
    would leave a half-started worker the pool does not know yet (it then prints a
    traceback when the driver is gone). Held, it lands once every worker is registered,
    and the clean-up kills them all."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _DEFERRED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def _main_module_hidden() -> Iterator[None]:
    main = sys.modules.get("__main__")
    saved = {k: getattr(main, k) for k in ("__file__", "__spec__") if main is not None and hasattr(main, k)}
    try:
        if "__file__" in saved:
            delattr(main, "__file__")
        if "__spec__" in saved:
            main.__spec__ = None  # type: ignore[union-attr]
        yield
    finally:
        for k, v in saved.items():
            setattr(main, k, v)


def peak_memory_mb(jobs: int) -> float:
    """Largest peak resident set (VmHWM) among the live workers of the pool, in MiB."""
    pool = _POOLS.get(capped_jobs(jobs))
    peak = 0.0
    for proc in list(getattr(pool, "_processes", {}).values()) if pool else []:
        try:
            for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) / 1024)
        except OSError:
            continue
    return peak


def _discard_pool(jobs: int) -> None:
    _WARMING.pop(capped_jobs(jobs), None)
    pool = _POOLS.pop(capped_jobs(jobs), None)
    if pool is not None:
        _shut_down(pool)


def _shut_down(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers (one may be hung) and drop the pool."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        if proc.is_alive():
            proc.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def shutdown(*, wait: bool = False) -> None:
    """Stop every cached worker pool: kill the workers, or with `wait` let them finish their work."""
    for jobs in list(_POOLS):
        if wait:
            _POOLS.pop(jobs).shutdown(wait=True)
        else:
            _discard_pool(jobs)


def pool_sizes() -> list[int]:
    """The job counts of the cached pools (each at most MAX_JOBS)."""
    return list(_POOLS)


def worker_pids(jobs: int) -> list[int]:
    """Process ids of the cached pool's live workers (tests kill one to check recovery)."""
    pool = _POOLS.get(capped_jobs(jobs))
    return [proc.pid for proc in (getattr(pool, "_processes", None) or {}).values()] if pool else []


def _submit_all(jobs: int, fn: Callable[..., object], tasks: Sequence[tuple[PieceText, tuple[object, ...]]]) -> list[Future[object]]:
    """Submit every task to the cached pool; a pool found broken at submit is replaced once."""
    for attempt in range(2):
        pool = _pool(jobs)
        _await_warm_up(jobs)
        try:
            with _signals_deferred():  # a submit may start a worker
                return [pool.submit(fn, *args) for _text, args in tasks]
        except (BrokenProcessPool, RuntimeError):  # broke while idle, or shut down under us
            _discard_pool(jobs)
            if attempt:
                raise
    raise AssertionError("unreachable")


#: a task's piece as `run` keeps it for saving: its text, or what renders it (only on failure)
PieceText = str | Callable[[], str]


def save_piece(piece: PieceText, what: str, name: str = "piece.ll") -> Path:
    """Keep a piece that crashed, hung or failed, with what happened, under $EMBER_CRASH_DIR."""
    text = piece if isinstance(piece, str) else piece()
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    directory = Path(os.environ.get("EMBER_CRASH_DIR", tempfile.gettempdir())) / f"ember-crash-{digest}"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    tmp = directory / f".{name}.{os.getpid()}.{threading.get_ident()}.tmp"  # concurrent savers of one piece
    tmp.write_text(text)
    os.replace(tmp, path)
    (directory / "what.txt").write_text(what + "\n")
    return path


def run(
    jobs: int,
    fn: Callable[..., object],
    tasks: Sequence[tuple[PieceText, tuple[object, ...]]],
    timeout: float,
    doing: str = "compiling a piece",
    saved_name: str = "piece.ll",
    isolated: bool = False,
    in_process: bool = False,
) -> list[object]:
    """Run tasks (piece text, args) on the pool; a crash or hang names and saves the piece.

    `in_process` (`BuildHooks.in_process`: a reducer's per-candidate script) runs -j1 tasks in
    this process, except `isolated` ones (LLVM may abort on them), which get a forked child:
    cheap, and the abort becomes an error instead of killing the caller.
    """
    in_process = in_process and jobs == 1
    if in_process and not isolated:
        return [fn(*args) for _text, args in tasks]
    pool = _new_pool(1, "fork") if in_process else None

    def attempt() -> list[object]:
        futures = [pool.submit(fn, *args) for _text, args in tasks] if pool is not None else _submit_all(jobs, fn, tasks)
        return _collect(tasks, futures, timeout, saved_name)

    try:
        try:
            return attempt()
        except BrokenProcessPool:
            if pool is not None:
                raise
            _discard_pool(jobs)  # it may have broken while idle, before these tasks: once more, fresh
            return attempt()
    except BrokenProcessPool:
        if pool is None:
            _discard_pool(jobs)
        culprit = tasks[0][0] if len(tasks) == 1 else _find_crasher(fn, tasks, timeout)
        saved = save_piece(culprit, "worker crashed", saved_name)
        raise EmberError(f"worker process crashed while {doing}; input saved", Location(str(saved))) from None
    except _PieceTimedOut as exc:
        if pool is None:
            _discard_pool(jobs)
        saved = save_piece(exc.text, f"worker exceeded {timeout:g}s", saved_name)
        raise EmberError(f"worker timed out after {timeout:g}s on a piece; piece saved", Location(str(saved))) from None
    except BaseException as exc:  # Ctrl-C, SIGTERM, a bug: the workers must not run on
        if pool is None and not isinstance(exc, EmberError):
            _discard_pool(jobs)
        raise
    finally:
        if pool is not None:
            _shut_down(pool)


class _PieceTimedOut(Exception):
    """A worker took longer than the timeout on the piece `text`."""

    def __init__(self, text: PieceText) -> None:
        super().__init__("piece timed out")
        self.text = text


def _collect(
    tasks: Sequence[tuple[PieceText, tuple[object, ...]]], futures: list[Future[object]], timeout: float, saved_name: str
) -> list[object]:
    """The results in task order; a piece's own error is saved with it and re-raised, located there."""
    results: list[object] = []
    for (text, _args), future in zip(tasks, futures, strict=True):
        try:
            results.append(future.result(timeout=timeout))
        except TimeoutError:
            raise _PieceTimedOut(text) from None
        except EmberError as exc:
            saved = save_piece(text, exc.render(), saved_name)
            raise EmberError(f"piece failed to compile: {exc.message}", Location(str(saved))) from None
    return results


def _find_crasher(
    fn: Callable[..., object], tasks: Sequence[tuple[PieceText, tuple[object, ...]]], timeout: float
) -> PieceText:
    """Re-run tasks one at a time in a fresh single worker to find the one that kills it."""
    for text, args in tasks:
        probe = _new_pool(1)
        try:
            with _main_module_hidden(), _signals_deferred():
                future = probe.submit(fn, *args)
            future.result(timeout=timeout)
        except BrokenProcessPool:
            return text
        except Exception:
            pass
        finally:
            _shut_down(probe)
    return tasks[0][0] if tasks else ""
