"""The real-world corpus: C programs from Debian's source packages, each one LLVM module,
and Rust programs over Debian's crate sources (a second front end), each one fat-LTO module.

`bash ci/fetch_corpus.sh` fetches the sources into `.cache/corpus/src` (Lua:
`bash ci/fetch_lua.sh`); `module_path(program)` compiles a program with clang-19 the way a
C front end hands IR to a back end (`-O1 -Xclang -disable-llvm-optzns`), joins it with
llvm-link into one module and caches it; `run_workload` runs the program's workload and
returns what must be identical between two builds. Used by the corpus tests, `ember
bench` and the corpus fuzz strategy.

A Rust program (`front_end="rustc"`, docs/corpus-rust.md) is a small driver committed under
`fuzz/corpus_rust/NAME` over crates that `bash ci/fetch_rust_corpus.sh` installs from
Debian (`librust-*-dev`, sources under /usr/share/cargo/registry). `module_path` builds it
with cargo, offline, against that registry (`[source]` replacement in a generated
`.cargo/config.toml`), `-C lto=fat -C save-temps`: rustc's `*.lto.after-restriction.bc` is
the whole program, std included, as ONE module. The same build leaves the native
executable (what Ember's builds must print the same as) and rustc's own link line, which
`link` uses for Ember's object.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
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
#: Debian's crate sources (`librust-*-dev`), the directory source the Rust programs build against
RUST_REGISTRY = Path("/usr/share/cargo/registry")
#: the Rust drivers (one cargo package per program)
RUST_DRIVERS = ROOT / "fuzz" / "corpus_rust"
#: passed to the program's own crate only (`cargo rustc -- ...`); the package's release profile
#: has `lto = "fat"`, `codegen-units = 1`: the LTO module is the whole program, std included
RUST_FLAGS = ("-C", "save-temps", "--print", "link-args")


@dataclass(frozen=True)
class Generated:
    """A workload input made on first use, then kept: `make(*args)`.

    The texts run to megabytes; making them all when the module is imported cost seconds
    in every process that imports it (each test file, each worker)."""

    make: Callable[..., str | bytes]
    args: tuple[object, ...] = ()


@functools.cache
def _generate(generated: Generated) -> bytes:
    made = generated.make(*generated.args)
    return made.encode() if isinstance(made, str) else made


def _content(value: bytes | str | Generated) -> bytes:
    """The bytes of a workload input or file, made now (once per process) if it is generated."""
    if isinstance(value, Generated):
        return _generate(value)
    return value.encode() if isinstance(value, str) else value


@dataclass(frozen=True)
class Invocation:
    """One run of a corpus program: arguments, stdin, and whether stdin is the previous run's stdout.

    `{src}` in an argument is the program's source folder (a test suite's input files)."""

    args: tuple[str, ...] = ()
    stdin: bytes | Generated = b""
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
    files: dict[str, str | Generated] = field(default_factory=dict)  # written next to the executable
    #: files or folders of the sources linked into the workload's folder (a test suite's data)
    data: tuple[str, ...] = ()
    workload: tuple[Invocation, ...] = ()
    #: a longer workload for run-time comparisons (`ember bench --corpus`); default: `workload`
    heavy: tuple[Invocation, ...] = ()
    #: "clang" (C sources, clang-19 and llvm-link) or "rustc" (the cargo package
    #: fuzz/corpus_rust/NAME, one fat-LTO module; `source_dir` is then absolute: the registry)
    front_end: str = "clang"
    #: rustc: the registry folders (name-version) the driver builds on, its dependencies' included
    crates: tuple[str, ...] = ()


def _text_input(size: int, seed: int = 7) -> Generated:
    """Deterministic compressible text (words drawn from a small vocabulary), made on first use."""
    return Generated(_make_text, (size, seed))


def _make_text(size: int, seed: int) -> bytes:
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

#: duktape's heavy workload: JS_HEAVY with the array sorted by a merge sort written in
#: JavaScript. Duktape's own `Array.prototype.sort` picks random pivots from a generator seeded
#: with the clock at start-up, so the same executable ran 3,553-3,666 M instructions from one
#: run to the next (3%), hiding any parity difference below that; this one runs the same count
#: every time.
DUK_HEAVY = """
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function msort(v) {
    if (v.length < 2) return v;
    var m = v.length >> 1, l = msort(v.slice(0, m)), r = msort(v.slice(m)), out = [], i = 0, j = 0;
    while (i < l.length && j < r.length) out.push(l[i] <= r[j] ? l[i++] : r[j++]);
    while (i < l.length) out.push(l[i++]);
    while (j < r.length) out.push(r[j++]);
    return out;
}
var a = []; for (var i = 0; i < 50000; i++) a.push((i * 7919) % 100003);
a = msort(a);
var o = {}; for (var i = 0; i < 50000; i++) o["k" + (i % 5000)] = i;
print(fib(25), a[0], a[49999], Object.keys(o).length);
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

def _markdown_doc(sections: int, seed: int = 17) -> str:
    """CommonMark with every extension the markdown driver turns on: headings with attributes,
    tables, footnotes, task lists, strikethrough, smart punctuation, reference links (some
    broken: the driver's callback resolves them), nested lists and quotes, code, HTML, entities."""
    rng = random.Random(seed)
    words = ["ember", "split", "module", "object", "symbol", "worker", "link", "caf\u00e9", "\u03bb", "lorem",
             "ipsum", "rust", "crate", "std"]

    def phrase(n: int) -> str:
        out = []
        for _ in range(n):
            w = rng.choice(words)
            style = rng.randrange(12)
            w = {0: f"*{w}*", 1: f"**{w}**", 2: f"~~{w}~~", 3: f"`{w}`", 4: f'"{w}"', 5: f"{w}'s",
                 6: f"{w}--{w}", 7: f"_{w}_"}.get(style, w)
            out.append(w)
        return " ".join(out)

    out = ["Ember corpus\n============\n\nA *generated* document -- \"smart\" quotes... &amp; &copy; &#x263A;\n"]
    for i in range(sections):
        out.append(f"\n## Section {i}: {phrase(3)} {{#s{i} .part .n{i % 3}}}\n\n{phrase(12)}[^f{i}]\n"
                   f"with a [link](http://example.com/{i} \"title {i}\"), ![image {i}](img/{i}.png), "
                   f"<https://auto.example/{i}>, [ref {i}][r{i}], [missing {i}][] and [other {i}][].\n\n"
                   f"[r{i}]: /refs/{i}\n[^f{i}]: Footnote {i}: {phrase(5)}\n\n")
        kind = i % 6
        if kind == 0:
            cols = 2 + i % 3
            out.append("| " + " | ".join(f"h{c}" for c in range(cols)) + " |\n")
            out.append("|" + "|".join((":--", ":-:", "--:")[c % 3] for c in range(cols)) + "|\n")
            for r in range(4):
                out.append("| " + " | ".join(f"{phrase(1)} {r * c}" for c in range(cols)) + " |\n")
        elif kind == 1:
            for t in range(4):
                out.append(f"- [{'x' if t % 2 else ' '}] task {t} {phrase(2)}\n")
                if t == 2:
                    out.append(f"  1. nested {phrase(2)}\n  2. nested\n\n     > quoted {phrase(3)}\n")
        elif kind == 2:
            out.append(f"```{rng.choice(['rust', 'c', 'python', ''])}\nfn f{i}() -> u32 {{ {i} }}\n<tag> & \"q\"\n```\n\n"
                       f"    indented code {i}\n\n")
        elif kind == 3:
            out.append(f"> {phrase(6)}\n> > nested quote {i}\n>\n> - a\n> - b\n\n***\n")
        elif kind == 4:
            out.append(f"<div class=\"raw\">\n<p>html block {i}</p>\n</div>\n\ninline <span>html</span> and "
                       f"a hard  \nbreak and a soft\nbreak, \\*escaped\\* and 3 < 4 > 2.\n")
        else:
            out.append(f"Setext {i}\n--------\n\n+ one\n+ two\n    + three {phrase(2)}\n\n10) ten\n11) eleven\n")
    return "".join(out)


_MARKDOWN_FILES = ("pulldown-cmark-0.9.2/README.md", "pulldown-cmark-0.9.2/CONTRIBUTING.md", "memchr-2.5.0/README.md",
                   "bitflags-1.3.2/CHANGELOG.md", "unicase-2.6.0/README.md")
_REGEX_PATTERNS = (r"(?P<word>s\w+) (?P<next>\w+)", r"(?i)LOREM\s+ipsum", r"0x[0-9a-f]{2}", r"\bé\b|\t",
                   r"(link|worker)\s+(?:module|object)", r"^\w+$", r"[[:upper:]]", r"(unclosed")
#: the regex-dna benchmark's input and expected output, as the crate ships them
REGEX_DNA = "regex-1.7.1/examples/regexdna-input.txt"

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
        files={"t.js": JS_SCRIPT, "heavy.js": DUK_HEAVY},
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
        files={"records.json": Generated(_jq_data, (2_000,)), "heavy-records.json": Generated(_jq_data, (60_000,))},
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
        files={"doc.xml": Generated(_xml_doc, (300,)), "doc.xsd": XML_SCHEMA, "page.html": XML_HTML,
               "heavy.xml": Generated(_xml_doc, (40_000,))},
        workload=tuple(Invocation(a) for a in _XMLLINT_RUNS),
        heavy=tuple(Invocation(tuple("heavy.xml" if x == "doc.xml" else x for x in a)) for a in _XMLLINT_RUNS[:4]),
    ),
    Program(
        "rust-regex", "Rust: a driver over the regex crate (aho-corasick, memchr, regex-syntax) and std, "
        "one fat-LTO module from rustc", str(RUST_REGISTRY), (),
        fetch="bash ci/fetch_rust_corpus.sh",
        workload=(Invocation(("dna", f"{{src}}/{REGEX_DNA}")),
                  Invocation(("grep", *_REGEX_PATTERNS), _text_input(300_000, 9)),
                  Invocation(("set",), _text_input(200_000, 4)),
                  Invocation(("bad",))),
        heavy=(Invocation(("grep", *_REGEX_PATTERNS), _text_input(12_000_000)),),
        front_end="rustc",
        crates=("regex-1.7.1", "regex-syntax-0.6.27", "aho-corasick-0.7.19", "memchr-2.5.0"),
    ),
    Program(
        "rust-markdown", "Rust: a CommonMark to HTML driver over the pulldown-cmark crate (bitflags, memchr, "
        "unicase) and std, one fat-LTO module from rustc", str(RUST_REGISTRY), (),
        fetch="bash ci/fetch_rust_corpus.sh",
        files={"doc.md": Generated(_markdown_doc, (120,)), "heavy.md": Generated(_markdown_doc, (3_000, 5))},
        workload=(Invocation(("html", "doc.md")), Invocation(("events", "doc.md")),
                  Invocation(("html", *(f"{{src}}/{f}" for f in _MARKDOWN_FILES))),
                  Invocation(("events", "-"), Generated(_markdown_doc, (40, 3)))),
        heavy=(Invocation(("html", "heavy.md")), Invocation(("events", "heavy.md"))),
        front_end="rustc",
        crates=("pulldown-cmark-0.9.2", "bitflags-1.3.2", "memchr-2.5.0", "unicase-2.6.0", "version_check-0.9.4"),
    ),
)
BY_NAME = {p.name: p for p in PROGRAMS}


def source_files(program: Program) -> list[Path]:
    """The program's C files (Lua: every file but the stand-alone compiler and tests; a Rust
    program: its driver's .rs files)."""
    if program.front_end == "rustc":
        return sorted((rust_driver(program) / "src").glob("*.rs"))
    base = CACHE / program.source_dir
    if program.sources:
        return [base / s for s in program.sources]
    return sorted(p for p in base.glob("*.c") if p.stem not in _LUA_SKIP)


def missing(program: Program) -> str | None:
    """Why the program cannot be built here, or None."""
    if program.front_end == "rustc":
        return _rust_missing(program)
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


def _bitcode_file(program: Program, files: Sequence[Path], flags: Sequence[str] = FRONT_END_FLAGS) -> Path:
    """Where the C program's module for this recipe is cached (built or not)."""
    return CACHE / "corpus" / "bc" / f"{program.name}-{_recipe_key(program, files, flags)}.bc"


def cached_module(program: Program) -> Path | None:
    """The C program's default module (`module_path` without `debug` or `target`) where it is
    already built for the current recipe, else None: nothing is built. The cache also holds
    `-g` builds and older recipes under the same program name."""
    if program.front_end == "rustc" or missing(program):
        return None
    out = _bitcode_file(program, source_files(program))
    return out if out.exists() else None


def module_path(program: Program, *, debug: bool = False, target: str | None = None) -> Path:
    """The program as one bitcode module, built once and cached by a hash of its recipe
    (`debug`: compiled with `-g`, one compile unit per source file; `target`: for that
    triple, e.g. `aarch64-linux-gnu` with the cross headers, fuzz/cross.py)."""
    reason = missing(program)
    if reason:
        raise FileNotFoundError(reason)
    if program.front_end == "rustc":
        if target is not None:
            raise FileNotFoundError(f"{program.name}: the Rust programs are built for the host only")
        return rust_build(program, debug=debug).module
    files = source_files(program)
    flags = (*(DEBUG_FRONT_END_FLAGS if debug else FRONT_END_FLAGS), *([f"--target={target}"] if target else []))
    out = _bitcode_file(program, files, flags)
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


# --- the Rust programs (front_end="rustc") -------------------------------------------------


@dataclass(frozen=True)
class RustBuild:
    """What one cargo build of a Rust corpus program leaves in the cache."""

    module: Path  # rustc's *.lto.after-restriction.bc: the whole program, std included
    native: Path  # rustc's own executable of the same build (the reference behaviour)
    link_args: tuple[str, ...]  # rustc's link line, "{obj}" and "{out}" for Ember's object and executable


def cargo() -> str | None:
    """cargo on PATH, else rustup's default place (~/.cargo/bin)."""
    found = shutil.which("cargo")
    if found:
        return found
    home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo")) / "bin" / "cargo"
    return str(home) if home.exists() else None


def _rust_env() -> dict[str, str]:
    """cargo's environment: its own folder first on PATH (rustup's proxies and rustc live there)."""
    where = cargo()
    env = dict(os.environ)
    if where:
        env["PATH"] = f"{Path(where).parent}{os.pathsep}{env.get('PATH', '')}"
    for var in ("RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_BUILD_TARGET", "CARGO_TARGET_DIR"):
        env.pop(var, None)  # the recipe is ours alone
    return env


@functools.cache
def rustc_version() -> str:
    """`rustc -vV` (its LLVM version must be the tools wheel's major: the module is bitcode)."""
    where = cargo()
    if where is None:
        return ""
    rustc = Path(where).with_name("rustc")
    proc = subprocess.run([str(rustc if rustc.exists() else "rustc"), "-vV"], capture_output=True, text=True,
                          env=_rust_env())
    return proc.stdout if proc.returncode == 0 else ""


@functools.cache
def _tools_llvm_major() -> str:
    out = subprocess.run([str(LLVM_BIN / "llc"), "--version"], capture_output=True, text=True).stdout
    m = re.search(r"LLVM version (\d+)", out)
    return m.group(1) if m else "?"


def _rust_missing(program: Program) -> str | None:
    if cargo() is None:
        return "cargo/rustc not installed (rustup; Ember's Rust corpus wants rustc with LLVM 22)"
    version = rustc_version()
    m = re.search(r"^LLVM version: (\d+)", version, re.M)
    if m is None or m.group(1) != _tools_llvm_major():
        got = m.group(1) if m else "unknown"
        return f"rustc's LLVM is {got}, the tools wheel's {_tools_llvm_major()}: its bitcode would not read"
    absent = [c for c in program.crates if not (RUST_REGISTRY / c / "Cargo.toml").exists()]
    if absent:
        return f"{program.name}: Debian crate sources missing ({', '.join(absent)}; run: {program.fetch})"
    return None


def rust_driver(program: Program) -> Path:
    """The program's cargo package (committed): Cargo.toml, Cargo.lock, src/."""
    return RUST_DRIVERS / program.name.removeprefix("rust-")


def _rust_key(program: Program, debug: bool) -> str:
    digest = hashlib.sha256(repr((RUST_FLAGS, debug, rustc_version(), program.crates)).encode())
    driver = rust_driver(program)
    for f in sorted(p for p in driver.rglob("*") if p.is_file() and "target" not in p.relative_to(driver).parts):
        digest.update(str(f.relative_to(driver)).encode())
        digest.update(f.read_bytes())
    for c in program.crates:  # a rebuilt Debian package with the same version
        digest.update((RUST_REGISTRY / c / "Cargo.toml").read_bytes())
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One builder at a time (pytest-xdist workers ask for the same module at once)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


CARGO_CONFIG = f"""# generated by fuzz/corpus.py: Debian's crate sources, offline
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "{RUST_REGISTRY}"
[net]
offline = true
"""


def rust_build(program: Program, *, debug: bool = False) -> RustBuild:
    """Build the Rust program once per recipe (cached under .cache/corpus/rust): cargo, offline,
    fat LTO with `-C save-temps` (`debug`: full DWARF for the driver and its crates; std keeps
    the line tables it ships with)."""
    reason = missing(program)
    if reason:
        raise FileNotFoundError(reason)
    out = CACHE / "corpus" / "rust" / f"{program.name}-{_rust_key(program, debug)}{'-g' if debug else ''}"
    with _locked(out.with_suffix(".lock")):
        if not (out / "link.json").exists():
            _rust_compile(program, debug, out)
    return RustBuild(out / "module.bc", out / "native", tuple(json.loads((out / "link.json").read_text())))


def _rust_compile(program: Program, debug: bool, out: Path) -> None:
    work = out.with_name(out.name + ".tmp")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(rust_driver(program), work / "pkg", ignore=shutil.ignore_patterns("target"))
    (work / "pkg" / ".cargo").mkdir(exist_ok=True)
    (work / "pkg" / ".cargo" / "config.toml").write_text(CARGO_CONFIG)
    env = _rust_env()
    env["CARGO_TARGET_DIR"] = str(work / "target")
    env["CARGO_PROFILE_RELEASE_DEBUG"] = "2" if debug else "0"
    cmd = [cargo() or "cargo", "rustc", "--release", "--offline", "--locked", "--", *RUST_FLAGS]
    proc = subprocess.run(cmd, cwd=work / "pkg", env=env, capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        said = next((ln.strip() for ln in proc.stderr.splitlines() if ln.lstrip().startswith("error")),
                    proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}")
        raise EmberError(f"cargo failed: {said}", Location(str(rust_driver(program) / "Cargo.toml")))
    deps = work / "target" / "release" / "deps"
    modules = sorted(deps.glob("*.lto.after-restriction.bc"))
    if len(modules) != 1:
        raise EmberError(f"cargo: expected one *.lto.after-restriction.bc, found {len(modules)}", Location(str(deps)))
    line = next((ln for ln in proc.stdout.splitlines() if ".rcgu.o" in ln), None)
    if line is None:
        raise EmberError("cargo: rustc printed no link line (--print link-args)", Location(str(deps)))
    args, native = _link_template(line)
    work.joinpath("out").mkdir()
    shutil.copy2(modules[0], work / "out" / "module.bc")
    shutil.copy2(native, work / "out" / "native")
    (work / "out" / "link.json").write_text(json.dumps(args, indent=1) + "\n")
    shutil.rmtree(out, ignore_errors=True)
    (work / "out").rename(out)
    shutil.rmtree(work, ignore_errors=True)


def _link_template(line: str) -> tuple[list[str], Path]:
    """rustc's printed link line as argv with "{obj}"/"{out}" (its environment settings, the
    object rustc made and its temporary `-L .../raw-dylibs` dropped), and the executable it made."""
    import shlex

    words = shlex.split(line)
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words.pop(0)
    args: list[str] = []
    native: Path | None = None
    i = 0
    while i < len(words):
        w = words[i]
        if w == "-o" and i + 1 < len(words):
            native = Path(words[i + 1])
            args += ["-o", "{out}"]
            i += 2
            continue
        if w == "-L" and i + 1 < len(words) and words[i + 1].endswith("raw-dylibs"):
            i += 2
            continue
        args.append("{obj}" if w.endswith(".rcgu.o") else w)
        i += 1
    if native is None or args.count("{obj}") != 1:
        raise EmberError(f"cargo: unexpected link line: {line[:200]}", Location("rustc --print link-args"))
    return args, native


def _rust_link(template: Sequence[str], obj: Path, exe: Path) -> Path:
    cmd = [str(obj) if a == "{obj}" else str(exe) if a == "{out}" else a for a in template]
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", env=_rust_env())
    if proc.returncode != 0:
        lines = proc.stderr.splitlines()
        first = next((ln for ln in lines if "undefined" in ln or "error" in ln), proc.stderr.strip())
        raise EmberError(f"link failed: {first}", Location(str(obj)))
    return exe


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


def link(obj: bytes, exe: Path, program: Program | None = None) -> Path:
    """Link a corpus object into an executable: libc and libm only, no Ember runtime; a Rust
    program (`program`) with rustc's own link line for it (compiler_builtins, libgcc_s, ...)."""
    exe.parent.mkdir(parents=True, exist_ok=True)
    obj_path = exe.with_suffix(".o")
    obj_path.write_bytes(obj)
    if program is not None and program.front_end == "rustc":
        return _rust_link(rust_build(program).link_args, obj_path, exe)
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
            (Path(tmp) / name).write_bytes(_content(text))
        for rel in program.data:
            (Path(tmp) / Path(rel).name).symlink_to(CACHE / program.source_dir / rel)
        previous = b""
        for inv in (program.heavy or program.workload) if heavy else program.workload:
            src = str(CACHE / program.source_dir)
            cmd = [*wrapper, str(exe.resolve()), *(a.replace("{src}", src) for a in inv.args)]
            start = time.perf_counter()
            stdin = previous if inv.stdin_from_previous else _content(inv.stdin)
            result = runner.run_command(cmd, stdin=stdin, limits=limits, cwd=tmp)
            seconds += time.perf_counter() - start
            outputs.append((result.stdout, result.stderr, result.outcome))
            previous = result.stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return WorkloadResult(tuple(outputs), seconds, cpu)
