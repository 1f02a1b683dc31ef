"""The real-world corpus: C programs from Debian's source packages, each one LLVM module.

`bash ci/fetch_corpus.sh` fetches the sources into `.cache/corpus/src` (Lua:
`bash ci/fetch_lua.sh`); `module_path(program)` compiles a program with clang-19 the way a
C front end hands IR to a back end (`-O1 -Xclang -disable-llvm-optzns`), joins it with
llvm-link into one module and caches it; `run_workload` runs the program's workload and
returns what must be identical between two builds. Used by the corpus tests, `ember
bench` and the corpus fuzz strategy.
"""

from __future__ import annotations

import functools
import hashlib
import os
import random
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from compiler.backend import engine
from compiler.diagnostics import EmberError, Location
from compiler.link import link_executable
from oracle import runner

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("EMBER_CORPUS_CACHE", ROOT / ".cache"))
LLVM_BIN = engine.tools_dir()
CLANG = "clang-19"
#: how the C front end hands IR over: clang's -O1 IR (lifetime markers, TBAA) with LLVM's passes off
FRONT_END_FLAGS = ("-O1", "-Xclang", "-disable-llvm-optzns", "-emit-llvm", "-c", "-w", "-g0")
#: the same with DWARF (clang's default: version 5), for the `-g` builds of the corpus
DEBUG_FRONT_END_FLAGS = (*FRONT_END_FLAGS[:-1], "-g")


@dataclass(frozen=True)
class Invocation:
    """One run of a corpus program: arguments, stdin, and whether stdin is the previous run's stdout.

    `{src}` in an argument is the program's source folder (a test suite's input files)."""

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
    #: files or folders of the sources linked into the workload's folder (a test suite's data)
    data: tuple[str, ...] = ()
    workload: tuple[Invocation, ...] = ()
    #: a longer workload for run-time comparisons (`ember bench --corpus`); default: `workload`
    heavy: tuple[Invocation, ...] = ()


@functools.cache
def _text_input(size: int, seed: int = 7) -> bytes:
    """Deterministic compressible text (words drawn from a small vocabulary); made once per size and seed."""
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

JQ_SCRIPT = (
    '[.[] | select(.n % 3 != 0) | {k: .name, v: (.n * 7 % 101), tags: (.tags | map(ascii_upcase) | join("-"))}]'
    ' | group_by(.v % 10) | map({g: (.[0].v % 10), n: length, s: (map(.v) | add), first: .[0].k,'
    ' t: (map(.tags) | unique | length)}) | sort_by(-.s) | ., (map(.s) | add), ([.[].first] | join(",") | contains("item17"))'
)


def _jq_data(n: int) -> str:
    """A JSON array of `n` records for jq's data workload."""
    import json

    rng = random.Random(11)
    tags = ["alpha", "beta", "gamma", "delta", "été"]
    return json.dumps([{"name": f"item{i}", "n": rng.randrange(10**6), "x": rng.random(),
                        "tags": rng.sample(tags, 2)} for i in range(n)])


AWK_SCRIPT = r"""
{ for (i = 1; i <= NF; i++) { count[$i]++; total++; len[length($i)]++ } lines++ }
/split|link/ { hits++; gsub(/[aeiou]/, "<&>"); if (hits % 500 == 1) print NR ": " $0 }
$1 ~ /^[0-9]x[0-9a-f]+$/ { hex += strtonum($1) }
END {
    n = asorti(count, keys)
    for (i = 1; i <= n; i++) printf "%s=%d%s", keys[i], count[keys[i]], (i < n ? " " : "\n")
    for (l in len) s += l * len[l]
    printf "lines %d words %d hits %d hex %d avg %.6f\n", lines, total, hits, hex, s / total
    x = sprintf("%c%s%5.2e|%-6s|%x", 65, toupper("bc"), 12345.678, "ab", 255); print x, index(x, "B"), substr(x, 3, 4)
    split("a:b::c", parts, ":"); print length(parts), parts[4], match("foobar", /o+b/), RSTART, RLENGTH
    print tolower("MiXeD"), sprintf("%d", 2^31 + 0.5), int(-3.9), 7 % 3, -7 % 3, 2 ** 10, (systime() > 0)
}
"""


XML_SCHEMA = """<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="catalog">
    <xs:complexType><xs:sequence>
      <xs:element name="item" maxOccurs="unbounded">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="name" type="xs:string"/>
            <xs:element name="price" type="xs:decimal"/>
            <xs:element name="note" type="xs:string" minOccurs="0"/>
          </xs:sequence>
          <xs:attribute name="n" type="xs:integer" use="required"/>
          <xs:attribute name="kind" type="xs:NMTOKEN"/>
        </xs:complexType>
      </xs:element>
    </xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>
"""

XML_HTML = """<!DOCTYPE html><html><head><title>Ember &amp; corpus</title></head>
<body><p class=x>Unclosed <b>bold <i>both</b> tail<p>second &copy; &#x263A;
<table><tr><td>1<td>2</table><ul><li>a<li>b</ul><br><img src=a.png alt=x></body></html>
"""

_XMLLINT_RUNS: tuple[tuple[str, ...], ...] = (
    ("--noout", "--valid", "doc.xml"),
    ("--format", "--encode", "ISO-8859-1", "doc.xml"),
    ("--xpath", "concat(count(//item[@n mod 3 = 0]), ' ', sum(//price), ' ', string(//item[last()]/name))", "doc.xml"),
    ("--c14n", "doc.xml"),
    ("--noout", "--noent", "--schema", "doc.xsd", "doc.xml"),
    ("--sax", "doc.xml"),
    ("--stream", "--debug", "doc.xml"),
    ("--html", "--format", "page.html"),
    ("--debug", "--noent", "doc.xml"),
)


def _xml_doc(n: int) -> str:
    """A catalog of `n` items with an internal DTD, entities, comments, CDATA and non-ASCII text."""
    rng = random.Random(13)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE catalog [\n<!ELEMENT catalog (item+)>\n'
           '<!ELEMENT item (name, price, note?)>\n<!ATTLIST item n CDATA #REQUIRED kind NMTOKEN "plain">\n'
           '<!ELEMENT name (#PCDATA)>\n<!ELEMENT price (#PCDATA)>\n<!ELEMENT note (#PCDATA)>\n'
           '<!ENTITY co "Ember &amp; Co">\n]>\n<catalog>\n']
    for i in range(n):
        note = ""
        if i % 4 == 0:
            note = f"<note>&co; <![CDATA[<raw> & {i}]]> caf\u00e9 \u263a</note>"
        kind = f' kind="k{i % 5}"' if i % 2 else ""
        out.append(f'  <item n="{i}"{kind}><name>item {i} &lt;{rng.randrange(1000)}&gt;</name>'
                   f"<price>{rng.randrange(10**5) / 100:.2f}</price>{note}</item>\n")
        if i % 50 == 0:
            out.append(f"  <!-- block {i // 50} -->\n")
    out.append("</catalog>\n")
    return "".join(out)


BC_SCRIPT = """
scale = 400
p = 4 * a(1); p
e(1); sqrt(2); l(10); s(1) + c(1); j(2, 1.5)
scale = 0
define f(n) { if (n <= 1) return (1); return (n * f(n - 1)); }
define fib(n) { auto a, b, t, i; a = 0; b = 1; for (i = 0; i < n; i++) { t = a + b; a = b; b = t; }; return (a); }
f(150); fib(700); 2 ^ 1000 % 1000007; length(f(300)); -17 / 5; -17 % 5
obase = 16; f(40); obase = 2; 1023; obase = 10; ibase = 16; FF; ibase = A
define p(x) { auto i; for (i = 0; i < x; i++) { print i, ":", i ^ 3 % 97, "\\n" }; return (x); }
z = p(40)
print "done ", scale, "\\n"
quit
"""

BC_STDIN = """
a[1] = 5; a[2] = a[1] * 3; a[2] + a[1]
for (i = 0; i < 200; i++) { t += i ^ 2 }; t
if (t > 100) "big\n" else "small\n"
sqrt(123456789012345678901234567890)
scale = 30; 1 / 7; 22 / 7 - 3.14159
x = 3; x += 4; x *= 2; x--; x; ++x; x ^= 2; x
"""

BC_HEAVY = """
scale = 2500
p = 4 * a(1); length(p)
scale = 0
define f(n) { if (n <= 1) return (1); return (n * f(n - 1)); }
length(f(3000))
"""

SQL_HEAVY = SQL_SCRIPT.replace("i < 100000", "i < 400000").replace("%100000", "%400000")

_ZLIB = ("adler32", "crc32", "deflate", "infback", "inffast", "inflate", "inftrees", "trees", "zutil",
         "compress", "uncompr", "gzclose", "gzlib", "gzread", "gzwrite")
_LUA_SKIP = ("luac", "onelua", "ltests")
_GAWK = ("array", "awkgram", "builtin", "cint_array", "command", "debug", "eval", "ext", "field", "floatcomp", "gawkapi",
         "gawkmisc", "int_array", "io", "main", "mpfr", "msg", "node", "profile", "re", "replace", "str_array",
         "symbol", "version", *(f"support/{s}" for s in ("dfa", "getopt", "getopt1", "localeinfo", "random", "regex")),
         *(f"support/malloc/dynarray_{s}" for s in ("at_failure", "emplace_enlarge", "finalize", "resize",
                                                    "resize_clear")))
#: gawk's own tests (test/Makefile.am's BASIC_TESTS) run the generic way (`gawk -f T.awk [T.in]`), whose output
#: matches T.ok with exit status 0 and that start no other process; those reading T.in get it as a file
_GAWK_TESTS_IN = (
    "addcomma", "anchgsub", "anchor", "arrayind1", "asgext", "assignnumfield", "backgsub", "clsflnam",
    "concat1", "datanonl", "dfacheck2", "fldchg", "fldchgnf", "fldterm", "fsbs", "fsnul1", "fsrs", "fstabplus",
    "getline4", "getnr2tb", "getnr2tm", "gsubtst7", "gsubtst8", "hex2", "inpref", "leadnl", "longsub",
    "manglprm", "membug1", "mmap8k", "nested", "nfldstr", "nfset", "nlfldsep", "nlinstr", "noloop1", "noloop2",
    "nulrsend", "numindex", "numsubstr", "ofmt", "ofmtbig", "ofmtfidl", "ofmts", "ofs1", "onlynl", "parse1",
    "parsefld", "prdupval", "range1", "rebrackloc", "rebuild", "regeq", "regexpbrack", "regexpbrack2",
    "reindops", "reparse", "resplit", "rs", "rsnul1nl", "rsnullre", "rsnulw", "rswhite", "setrec0", "sortglos",
    "splitargv", "splitvar", "strfieldnum", "strtod", "subback", "swaplns", "uparrfs", "wjposer1",
)
_GAWK_TESTS = (
    "arrayind2", "arrayind3", "arrayprm2", "arrayprm3", "arrayref", "arrymem1", "arryref2", "arynasty",
    "aryprm8", "aryprm9", "arysubnm", "aryunasgn", "assignnumfield2", "compare2", "concat2", "concat3",
    "concat5", "convfmt", "delarpm2", "delarprm", "dfastress", "divzero2", "dynlj", "eofsplit", "exit2",
    "fordel", "forref", "forsimp", "funsemnl", "getline3", "gsubtest", "gsubtst2", "gsubtst4", "hex", "hsprint",
    "inputred", "intest", "intprec", "leaddig", "math", "memleak", "minusstr", "nasty", "nasty2", "negexp",
    "negrange", "nfloop", "nlstrina", "numrange", "numstr1", "octsub", "ofmta", "opasnidx", "opasnslf",
    "paramtyp", "paramuninitglobal", "pcntplus", "prec", "printfchar", "prmreuse", "prt1eval", "prtoeval",
    "rand", "regex3minus", "regexprange", "regrange", "rstest1", "rstest2", "rstest3", "rstest4", "rstest5",
    "setrec1", "sortempty", "splitarr", "splitdef", "splitwht", "strcat1", "strnum1", "subsepnm", "subslash",
    "substr", "tailrecurse", "uplus", "zero2", "zeroe0", "zeroflag",
)
_LIBXML2 = ("SAX", "entities", "encoding", "error", "parserInternals", "parser", "tree", "hash", "list", "xmlIO",
            "xmlmemory", "uri", "valid", "xlink", "HTMLparser", "HTMLtree", "debugXML", "xpath", "xpointer", "xinclude",
            "nanohttp", "nanoftp", "DOCBparser", "catalog", "globals", "threads", "c14n", "xmlstring", "buf",
            "xmlregexp", "xmlschemas", "xmlschemastypes", "xmlunicode", "xmlreader", "relaxng", "dict", "SAX2",
            "xmlwriter", "legacy", "chvalid", "pattern", "xmlsave", "xmlmodule", "schematron", "xzlib")
_PCRE2 = ("auto_possess", "chartables", "compile", "config", "context", "convert", "dfa_match", "error", "extuni",
          "find_bracket", "jit_compile", "maketables", "match", "match_data", "newline", "ord2utf", "pattern_info",
          "script_run", "serialize", "string_utils", "study", "substitute", "substring", "tables", "ucd", "valid_utf",
          "xclass")
_PCRE2_TESTS = (1, 2, 4, 5, 6, 7, 8, 9, 10, 14, 15, 18, 19, 20, 21, 22, 24, 25, 26)
_JQ = ("builtin", "bytecode", "compile", "execute", "jq_test", "jv", "jv_alloc", "jv_aux", "jv_dtoa", "jv_file",
       "jv_parse", "jv_print", "jv_unicode", "linker", "locfile", "util", "lexer", "parser")
#: the libm functions jq's configure finds in glibc (src/libm.h; pow10 left glibc in 2.27)
_JQ_LIBM = ("acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos", "cosh",
            "drem", "erf", "erfc", "exp", "exp10", "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin",
            "fmod", "frexp", "gamma", "hypot", "j0", "j1", "jn", "ldexp", "lgamma", "lgamma_r", "log", "log10",
            "log1p", "log2", "logb", "modf", "nearbyint", "nextafter", "nexttoward", "pow", "remainder", "rint",
            "round", "scalb", "scalbln", "significand", "sin", "sinh", "sqrt", "tan", "tanh", "tgamma", "trunc", "y0",
            "y1", "yn")

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
    Program(
        "pcre2", "regular expression engine (interpreter and DFA matcher, no JIT) run by its own test suite",
        "corpus/src/pcre2",
        (*(f"src/pcre2_{s}.c" for s in _PCRE2), "src/pcre2posix.c", "src/pcre2test.c"),
        ("-DHAVE_CONFIG_H", "-DPCRE2_CODE_UNIT_WIDTH=8", "-DSUPPORT_PCRE2_8", "-DSUPPORT_UNICODE", "-DPCRE2_STATIC",
         "-DHAVE_STDINT_H", "-DHAVE_INTTYPES_H", "-DHAVE_UNISTD_H", "-DHAVE_STRERROR", "-DHAVE_MEMMOVE", "-Isrc"),
        # RunTest's 8-bit tests that need neither JIT, a locale nor another code unit width
        data=("testdata/testbtables",),
        workload=tuple(Invocation(("-q", f"{{src}}/testdata/testinput{n}")) for n in _PCRE2_TESTS),
        heavy=tuple(Invocation(("-q", f"{{src}}/testdata/testinput{n}")) for n in (*_PCRE2_TESTS, *_PCRE2_TESTS)),
    ),
    Program(
        "jq", "JSON query language (flex/bison parser, bytecode interpreter, __thread, a constructor) "
        "run by its own test suite", "corpus/src/jq",
        (*(f"src/{s}.c" for s in _JQ), "src/main.c"),
        ("-I.", "-D_GNU_SOURCE", "-DIEEE_8087", "-DHAVE___THREAD", "-DHAVE_ALLOCA_H", "-DHAVE_MEMMEM", "-DHAVE_MKSTEMP",
         "-DHAVE_GMTIME_R", "-DHAVE_LOCALTIME_R", "-DHAVE_STRFTIME", "-DHAVE_STRPTIME", "-DHAVE_TIMEGM",
         "-DHAVE_TM_TM_GMT_OFF", "-DHAVE_GETTIMEOFDAY", "-DHAVE_ISATTY", "-DHAVE_ATEXIT",
         *(f"-DHAVE_{f.upper()}" for f in _JQ_LIBM)),
        files={"records.json": _jq_data(2_000), "heavy-records.json": _jq_data(60_000)},
        workload=(Invocation(("-L", "{src}/tests/modules", "--run-tests", "{src}/tests/jq.test")),
                  Invocation(("-c", JQ_SCRIPT, "records.json"))),
        heavy=(Invocation(("-c", JQ_SCRIPT, "heavy-records.json")),),
    ),
    Program(
        "gawk", "GNU awk (bison grammar, switch-based bytecode interpreter, its own regex and DFA matchers)",
        "corpus/src/gawk",
        tuple(f"{s}.c" for s in _GAWK),
        ("-DHAVE_CONFIG_H", "-DGAWK", "-I.", "-Isupport", '-DDEFPATH=".:/usr/share/awk"',
         '-DDEFLIBPATH="/usr/lib/gawk"', '-DSHLIBEXT="so"', '-DLOCALEDIR="/usr/share/locale"'),
        files={"t.awk": AWK_SCRIPT},
        workload=(Invocation(("-f", "t.awk"), _text_input(300_000, 5)),
                  *(Invocation(("-f", f"{{src}}/test/{t}.awk", f"{{src}}/test/{t}.in")) for t in _GAWK_TESTS_IN),
                  *(Invocation(("-f", f"{{src}}/test/{t}.awk")) for t in _GAWK_TESTS)),
        heavy=(Invocation(("-f", "t.awk"), _text_input(12_000_000)),),  # bzip2's heavy input, made once
    ),
    Program(
        "bc", "arbitrary-precision calculator (bison/flex parser, switch-based bytecode interpreter, output "
        "through printf/putchar with constant strings)", "corpus/src/bc",
        (*(f"bc/{s}.c" for s in ("main", "bc", "scan", "execute", "load", "storage", "util", "global", "warranty")),
         "lib/number.c", "lib/getopt.c", "lib/getopt1.c"),
        ("-DHAVE_CONFIG_H", "-I.", "-Ibc", "-Ih"),
        files={"t.bc": BC_SCRIPT},
        workload=(Invocation(("-l", "t.bc")), Invocation(("-q",), BC_STDIN.encode()),
                  *(Invocation(("-l", f"{{src}}/Test/{t}.b")) for t in ("fact", "aryprm", "array"))),
        heavy=(Invocation(("-l", "t.bc")), Invocation(("-l",), BC_HEAVY.encode())),
    ),
    Program(
        "libxml2", "XML toolkit with xmllint (parsers, XPath, schemas, varargs error reporting, callback tables)",
        "corpus/src/libxml2",
        (*(f"{s}.c" for s in _LIBXML2), "xmllint.c"),
        ("-DHAVE_CONFIG_H", "-D_REENTRANT", "-I.", "-Iinclude"),
        files={"doc.xml": _xml_doc(300), "doc.xsd": XML_SCHEMA, "page.html": XML_HTML, "heavy.xml": _xml_doc(40_000)},
        workload=tuple(Invocation(a) for a in _XMLLINT_RUNS),
        heavy=tuple(Invocation(tuple("heavy.xml" if x == "doc.xml" else x for x in a)) for a in _XMLLINT_RUNS[:4]),
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


def _recipe_key(program: Program, files: Sequence[Path], flags: Sequence[str] = FRONT_END_FLAGS) -> str:
    digest = hashlib.sha256(repr((program.cflags, tuple(flags))).encode())
    for f in files:
        digest.update(f.name.encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def module_path(program: Program, *, debug: bool = False, target: str | None = None) -> Path:
    """The program as one bitcode module, built once and cached by a hash of its recipe
    (`debug`: compiled with `-g`, one compile unit per source file; `target`: for that
    triple, e.g. `aarch64-linux-gnu` with the cross headers, fuzz/cross.py)."""
    reason = missing(program)
    if reason:
        raise FileNotFoundError(reason)
    files = source_files(program)
    flags = (*(DEBUG_FRONT_END_FLAGS if debug else FRONT_END_FLAGS), *([f"--target={target}"] if target else []))
    out = CACHE / "corpus" / "bc" / f"{program.name}-{_recipe_key(program, files, flags)}.bc"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    base = CACHE / program.source_dir
    with tempfile.TemporaryDirectory(prefix=f"ember-corpus-{program.name}-") as tmp:
        pieces = []
        for n, src in enumerate(files):
            bc = Path(tmp) / f"{n:03d}-{src.stem}.bc"
            _check([CLANG, *flags, *program.cflags, str(src), "-o", str(bc)], cwd=base)
            pieces.append(str(bc))
        partial = Path(tmp) / "linked.bc"
        _check([str(LLVM_BIN / "llvm-link"), *pieces, "-o", str(partial)], cwd=base)
        shutil.move(partial, out)
    return out


_TOOL_ERROR = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<message>.*)$", re.M)


def _check(cmd: list[str], cwd: Path) -> None:
    """Run a corpus build step; a failure (a damaged or edited source in the cache) is one
    located line: the tool's first error, else the tool and the file it was given."""
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace")
    if proc.returncode == 0:
        return
    first = _TOOL_ERROR.search(proc.stderr)
    if first is not None:
        path = Path(cwd, first["path"])
        raise EmberError(first["message"], Location(str(path), int(first["line"]), int(first["col"])))
    said = next((ln.strip() for ln in proc.stderr.splitlines() if ln.strip()), f"exit status {proc.returncode}")
    raise EmberError(f"{Path(cmd[0]).name} failed: {said}", Location(cmd[-3] if len(cmd) > 3 else str(cwd)))


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
        for rel in program.data:
            (Path(tmp) / Path(rel).name).symlink_to(CACHE / program.source_dir / rel)
        previous = b""
        for inv in (program.heavy or program.workload) if heavy else program.workload:
            src = str(CACHE / program.source_dir)
            cmd = [*wrapper, str(exe.resolve()), *(a.replace("{src}", src) for a in inv.args)]
            start = time.perf_counter()
            stdin = previous if inv.stdin_from_previous else inv.stdin
            result = runner.run_command(cmd, stdin=stdin, limits=limits, cwd=tmp)
            seconds += time.perf_counter() - start
            outputs.append((result.stdout, result.stderr, result.outcome))
            previous = result.stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return WorkloadResult(tuple(outputs), seconds, cpu)
