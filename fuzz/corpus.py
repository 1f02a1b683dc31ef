"""The real-world corpus: C programs from Debian's source packages, each one LLVM module.

`bash ci/fetch_corpus.sh` fetches the sources into `.cache/corpus/src` (Lua:
`bash ci/fetch_lua.sh`); `module_path(program)` compiles a program with clang-19 the way a
C front end hands IR to a back end (`-O1 -Xclang -disable-llvm-optzns`), joins it with
llvm-link into one module and caches it; `run_workload` runs the program's workload and
returns what must be identical between two builds. Used by the corpus tests, `ember
bench` and the corpus fuzz strategy.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import llvm

from compiler.link import link_executable
from oracle import runner

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("EMBER_CORPUS_CACHE", ROOT / ".cache"))
LLVM_BIN = Path(llvm.__file__).parent / "bin"
CLANG = "clang-19"
#: how the C front end hands IR over: clang's -O1 IR (lifetime markers, TBAA) with LLVM's passes off
FRONT_END_FLAGS = ("-O1", "-Xclang", "-disable-llvm-optzns", "-emit-llvm", "-c", "-w", "-g0")


@dataclass(frozen=True)
class Invocation:
    """One run of a corpus program: arguments, stdin, and whether stdin is the previous run's stdout."""

    args: tuple[str, ...] = ()
    stdin: bytes = b""
    stdin_from_previous: bool = False


@dataclass(frozen=True)
class Program:
    """A corpus program: where its sources are, how to compile them, what to run."""

    name: str
    shape: str
    source_dir: str  # relative to the cache folder
    sources: tuple[str, ...]
    cflags: tuple[str, ...] = ()
    fetch: str = "bash ci/fetch_corpus.sh"
    files: dict[str, str] = field(default_factory=dict)  # written next to the executable
    workload: tuple[Invocation, ...] = ()
    #: a longer workload for run-time comparisons (`ember bench --corpus`); default: `workload`
    heavy: tuple[Invocation, ...] = ()


def _text_input(size: int, seed: int = 7) -> bytes:
    """Deterministic compressible text (words drawn from a small vocabulary)."""
    rng = random.Random(seed)
    words = ["ember", "split", "module", "object", "symbol", "worker", "link", "0x7f", "é", "\t", "lorem", "ipsum"]
    out: list[str] = []
    length = 0
    while length < size:
        w = rng.choice(words) + (" " if rng.random() < 0.9 else "\n")
        out.append(w)
        length += len(w)
    return "".join(out).encode()[:size]


LUA_SCRIPT = """
local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end
local t = {}
for i = 1, 200 do t[i] = string.format("%d:%x", i, fib(i % 20)) end
print(table.concat(t, ","))
print(#t, fib(27), math.floor(3.7), string.rep("ab", 3), select("#", 1, 2, 3), 7 // 2, 2^10)
local co = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i * i) end end)
print(co(), co(), co())
print(pcall(function() error("boom") end))
print(string.find("hello world", "o w"), ("x"):byte(), tostring(nil), 10 % 3, -7 // 2)
local words = {}
for w in string.gmatch(string.rep("the quick brown fox ", 2000), "%a+") do words[w] = (words[w] or 0) + 1 end
local keys = {} for k in pairs(words) do keys[#keys + 1] = k end table.sort(keys)
for _, k in ipairs(keys) do io.write(k, "=", words[k], " ") end print()
"""

JS_SCRIPT = """
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
var out = [];
for (var i = 0; i < 20; i++) out.push(fib(i));
print(out.join(","));
var o = {}; for (var i = 0; i < 2000; i++) o["k" + i] = i * i;
var s = 0; for (var k in o) s += o[k];
print(s, JSON.stringify({a: [1, 2, {b: "c"}], d: 1.5e300, e: null}));
print("hello world".replace(/o/g, "0").split(" ").reverse().join("|"));
var a = []; for (var i = 0; i < 5000; i++) a.push((i * 7919) % 1000);
a.sort(function (x, y) { return x - y; });
print(a[0], a[2500], a[4999], a.length);
print(Math.floor(3.7), (255).toString(16), parseInt("ff", 16), (0.1 + 0.2).toFixed(10), 7 % 3, -7 % 3);
try { null.x; } catch (e) { print("caught", e instanceof TypeError); }
print(fib(25));
print(String.fromCharCode(72, 105), "abc".charCodeAt(1), encodeURIComponent("a b&c"), new Date(0).getTime());
"""

SQL_SCRIPT = """
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 100000)
INSERT INTO t SELECT i, printf('row%05d', (i*7919)%100000), i*0.5 FROM n;
CREATE INDEX tb ON t(b);
SELECT count(*), sum(a), avg(c), min(b), max(b) FROM t;
SELECT b FROM t WHERE b LIKE 'row1234%' ORDER BY b;
SELECT a % 7 AS k, count(*), group_concat(a % 3, '') FROM t WHERE a < 100 GROUP BY k ORDER BY k;
SELECT x.a, y.a FROM t x JOIN t y ON x.a = y.a * 2 WHERE y.a < 10 ORDER BY 1;
SELECT upper('abc'), length('h\u00e9llo'), substr('hello', 2, 3), hex('ab'), round(2.5), 7 / 2, 7 % 3, abs(-5), typeof(1.0);
SELECT json_object('a', 1, 'b', json_array(1, 2, 3));
CREATE TABLE u AS SELECT a, b FROM t WHERE a % 100 = 0;
UPDATE u SET b = b || '!'; DELETE FROM u WHERE a > 10000;
SELECT count(*), max(b) FROM u;
BEGIN; INSERT INTO u VALUES (1, 'x'); ROLLBACK; SELECT count(*) FROM u;
SELECT sqlite_version();
"""

LUA_HEAVY = """
local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end
local t = {}
for i = 1, 300000 do t[i] = string.format("%d", (i * 7919) % 100003) end
table.sort(t)
print(fib(32), t[1], t[#t])
"""

JS_HEAVY = """
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
var a = []; for (var i = 0; i < 100000; i++) a.push((i * 7919) % 100003);
a.sort(function (x, y) { return x - y; });
var o = {}; for (var i = 0; i < 50000; i++) o["k" + (i % 5000)] = i;
print(fib(25), a[0], a[99999], Object.keys(o).length);
"""

SQL_HEAVY = SQL_SCRIPT.replace("i < 100000", "i < 400000").replace("%100000", "%400000")

_ZLIB = ("adler32", "crc32", "deflate", "infback", "inffast", "inflate", "inftrees", "trees", "zutil",
         "compress", "uncompr", "gzclose", "gzlib", "gzread", "gzwrite")
_LUA_SKIP = ("luac", "onelua", "ltests")

PROGRAMS: tuple[Program, ...] = (
    Program(
        "cjson", "JSON parser (library + its test driver)", "corpus/src/cjson",
        ("cJSON.c", "cJSON_Utils.c", "test.c"),
        workload=(Invocation(),),
    ),
    Program(
        "bzip2", "compressor (block sorting, Huffman)", "corpus/src/bzip2",
        ("blocksort.c", "huffman.c", "crctable.c", "randtable.c", "compress.c", "decompress.c", "bzlib.c", "bzip2.c"),
        ("-D_FILE_OFFSET_BITS=64",),
        workload=(Invocation(("-c", "-9"), _text_input(2_000_000)), Invocation(("-dc",), stdin_from_previous=True)),
        heavy=(Invocation(("-c", "-9"), _text_input(12_000_000)), Invocation(("-dc",), stdin_from_previous=True)),
    ),
    Program(
        "zlib", "compressor (deflate) with minigzip", "corpus/src/zlib",
        (*(f"{s}.c" for s in _ZLIB), "test/minigzip.c"),
        ("-I.", "-D_LARGEFILE64_SOURCE=1", "-DHAVE_HIDDEN"),
        workload=(Invocation((), _text_input(2_000_000, 3)), Invocation(("-d",), stdin_from_previous=True)),
        heavy=(Invocation((), _text_input(20_000_000, 3)), Invocation(("-d",), stdin_from_previous=True)),
    ),
    Program(
        "mujs", "JavaScript interpreter (static builtins registered as callbacks)", "corpus/src/mujs",
        ("one.c", "main.c"),
        files={"t.js": JS_SCRIPT, "heavy.js": JS_HEAVY},
        workload=(Invocation(("t.js",)),),
        heavy=(Invocation(("heavy.js",)),),
    ),
    Program(
        "lua", "Lua 5.4 interpreter", "lua54",
        (),  # every .c but the stand-alone compiler and test builds
        ("-DLUA_USE_LINUX",),
        fetch="bash ci/fetch_lua.sh",
        files={"t.lua": LUA_SCRIPT, "heavy.lua": LUA_HEAVY},
        workload=(Invocation(("t.lua",)),),
        heavy=(Invocation(("heavy.lua",)),),
    ),
    Program(
        "duktape", "JavaScript engine (one-file amalgamation, 1,193 static functions, callback tables)",
        "corpus/src/duktape",
        # Makefile.cmdline's recipe
        ("src/duktape.c", "examples/cmdline/duk_cmdline.c", "extras/print-alert/duk_print_alert.c",
         "extras/console/duk_console.c", "extras/logging/duk_logging.c", "extras/module-duktape/duk_module_duktape.c"),
        ("-std=c99", "-Isrc", "-Iexamples/cmdline", "-DDUK_CMDLINE_PRINTALERT_SUPPORT", "-Iextras/print-alert",
         "-DDUK_CMDLINE_CONSOLE_SUPPORT", "-Iextras/console", "-DDUK_CMDLINE_LOGGING_SUPPORT", "-Iextras/logging",
         "-DDUK_CMDLINE_MODULE_SUPPORT", "-Iextras/module-duktape"),
        files={"t.js": JS_SCRIPT, "heavy.js": JS_HEAVY},
        workload=(Invocation(("t.js",)),),
        heavy=(Invocation(("heavy.js",)),),
    ),
    Program(
        "sqlite", "SQLite 3.40 database engine and shell (amalgamation)", "corpus/src/sqlite",
        ("bld/sqlite3.c", "bld/shell.c"),
        ("-Ibld", "-DSQLITE_THREADSAFE=0", "-DSQLITE_OMIT_LOAD_EXTENSION", "-DHAVE_READLINE=0"),
        workload=(Invocation((), SQL_SCRIPT.encode()),),
        heavy=(Invocation((), SQL_HEAVY.encode()),),
    ),
)
BY_NAME = {p.name: p for p in PROGRAMS}


def source_files(program: Program) -> list[Path]:
    """The program's C files (Lua: every file but the stand-alone compiler and tests)."""
    base = CACHE / program.source_dir
    if program.sources:
        return [base / s for s in program.sources]
    return sorted(p for p in base.glob("*.c") if p.stem not in _LUA_SKIP)


def missing(program: Program) -> str | None:
    """Why the program cannot be built here, or None."""
    if shutil.which(CLANG) is None:
        return f"{CLANG} not installed (apt-get install {CLANG})"
    files = source_files(program)
    if not files or not all(f.exists() for f in files):
        return f"{program.name} sources missing (run: {program.fetch})"
    return None


def _recipe_key(program: Program, files: Sequence[Path]) -> str:
    digest = hashlib.sha256(repr((program.cflags, FRONT_END_FLAGS)).encode())
    for f in files:
        digest.update(f.name.encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def module_path(program: Program) -> Path:
    """The program as one bitcode module, built once and cached by a hash of its recipe."""
    reason = missing(program)
    if reason:
        raise FileNotFoundError(reason)
    files = source_files(program)
    out = CACHE / "corpus" / "bc" / f"{program.name}-{_recipe_key(program, files)}.bc"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    base = CACHE / program.source_dir
    with tempfile.TemporaryDirectory(prefix=f"ember-corpus-{program.name}-") as tmp:
        pieces = []
        for n, src in enumerate(files):
            bc = Path(tmp) / f"{n:03d}-{src.stem}.bc"
            _check([CLANG, *FRONT_END_FLAGS, *program.cflags, str(src), "-o", str(bc)], cwd=base)
            pieces.append(str(bc))
        partial = Path(tmp) / "linked.bc"
        _check([str(LLVM_BIN / "llvm-link"), *pieces, "-o", str(partial)], cwd=base)
        shutil.move(partial, out)
    return out


def _check(cmd: list[str], cwd: Path) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:1])} failed on {cmd[-3] if len(cmd) > 3 else ''}: {proc.stderr.strip()[:500]}")


def link(obj: bytes, exe: Path) -> Path:
    """Link a corpus object into an executable (libc and libm only; no Ember runtime)."""
    exe.parent.mkdir(parents=True, exist_ok=True)
    obj_path = exe.with_suffix(".o")
    obj_path.write_bytes(obj)
    return link_executable([obj_path], exe, with_runtime=False)


@dataclass(frozen=True)
class WorkloadResult:
    """What two builds of one program must agree on, run by run; plus wall and CPU time."""

    outputs: tuple[tuple[bytes, bytes, str], ...]
    seconds: float
    cpu_seconds: float = 0.0  # user + system of the program's runs (steadier than wall on a busy machine)


def count_instructions(program: Program, exe: Path) -> int | None:
    """Instructions the heavy workload executes (valgrind's cachegrind, no cache simulation):
    the same count on every run whatever else the machine does; None without valgrind."""
    import re

    if shutil.which("valgrind") is None:
        return None
    with tempfile.TemporaryDirectory(prefix="ember-vg-") as tmp:
        wrapper = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                   f"--log-file={tmp}/vg.%p"]
        limits = runner.Limits(timeout_s=600, cpu_s=1200, memory_mb=None)
        run_workload(program, exe, limits, heavy=True, wrapper=wrapper)
        total = 0
        for log in Path(tmp).glob("vg.*"):
            m = re.search(r"I\s+refs:\s+([0-9,]+)", log.read_text(errors="replace"))
            if m is None:
                return None
            total += int(m.group(1).replace(",", ""))
    return total


def run_workload(
    program: Program,
    exe: Path,
    limits: runner.Limits | None = None,
    *,
    heavy: bool = False,
    wrapper: Sequence[str] = (),
) -> WorkloadResult:
    """Run the program's workload (`heavy`: the longer one, when it has one) in a fresh folder."""
    import resource
    import time

    limits = limits or runner.Limits(timeout_s=60, cpu_s=120, memory_mb=4096)
    outputs: list[tuple[bytes, bytes, str]] = []
    seconds = 0.0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory(prefix=f"ember-workload-{program.name}-") as tmp:
        for name, text in program.files.items():
            (Path(tmp) / name).write_text(text)
        previous = b""
        for inv in (program.heavy or program.workload) if heavy else program.workload:
            cmd = [*wrapper, str(exe.resolve()), *inv.args]
            start = time.perf_counter()
            stdin = previous if inv.stdin_from_previous else inv.stdin
            result = runner.run_command(cmd, stdin=stdin, limits=limits, cwd=tmp)
            seconds += time.perf_counter() - start
            outputs.append((result.stdout, result.stderr, result.outcome))
            previous = result.stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return WorkloadResult(tuple(outputs), seconds, cpu)
