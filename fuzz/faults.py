"""The harness's back-end hooks: deliberate faults for the power check, and workers that crash
or hang for the crash-reporting tests.

The compiler only offers seams (`compiler.hooks.BuildHooks`, passed in `BuildOptions.hooks`);
the harness names what it wants (a finding records the names) and `hooks_for(names)` turns
the names into the hooks object. The `ember` CLI never builds one.
"""

from __future__ import annotations

import dataclasses
import os
import re
import struct
import time
from collections.abc import Iterable

from compiler.backend import engine, irmodel, objlink, planner
from compiler.diagnostics import EmberError
from compiler.hooks import BuildHooks

#: Deliberately broken variants of the split back end; each breaks one rule of the contract.
FAULTS = frozenset(
    {"skip-linkage-restore", "drop-section-offsets", "duplicate-internal-global", "drop-ctors", "merge-specialised-copies"}
)
#: Breaks only the line tables of `-g` builds (the debug-info property's power check; not in
#: FAULTS, whose plans build without -g)
SHIFT_LINE_ROWS = "shift-line-rows"
#: The object link forgets the synthetic names' spellings: a name the split had to spell
#: `__ember_n<N>` (quoted, unicode, `.L`-lookalike) keeps that spelling in the object
SKIP_NAME_SPELLINGS = "skip-name-spellings"
#: Not a contract fault (not in FAULTS): one piece's object arrives truncated, so the object
#: link fails the build (the harness-survival tests' failing build)
CORRUPT_PIECE_OBJECT = "corrupt-piece-object"
#: The split build before `split.dead_definitions`: a local exported while compiling stays in its
#: owner's object after every use of it elsewhere was optimised away
KEEP_DEAD_EXPORTED_LOCALS = "keep-dead-exported-locals"
#: Line rows after a switch to another file (an inlined header function) one line further down
SHIFT_ROWS_AFTER_FILE_SWITCH = "shift-rows-after-file-switch"
#: Whole-module faults for the reducer's benchmark (bench/triage.py, "planted"): each makes a
#: symbol difference whose cause lies in another function, often another subgraph, than the
#: symbol it names. Callees from other subgraphs (imports, copies) are never inlined, so a
#: libcall the serial build folds after inlining stays (or another appears)
NO_INLINE_ACROSS_SUBGRAPHS = "no-inline-across-subgraphs"
#: ...and a local function other subgraphs call (through their copies, or exported) is kept in
#: its home subgraph although the serial build inlined or deleted every call and deletes it
KEEP_DEAD_ACROSS_SUBGRAPHS = "keep-dead-across-subgraphs"
#: ...and the split back end before the whole-module prefix (`--split-prefix off`): IPSCCP's and
#: GlobalOpt's whole-module facts are missing in the subgraphs (the Rust corpus modules' real
#: differences until 2026-11-29: std code only they prove dead keeps its undefined symbols)
SKIP_WHOLE_MODULE_PREFIX = "skip-whole-module-prefix"
#: the faults the default campaign (`ember fuzz`: mixed programs, the drawn configurations) must
#: catch; each needs a generator shape of its own (fuzz/test_power.py)
DEFAULT_CAMPAIGN_FAULTS = frozenset(
    {SKIP_NAME_SPELLINGS, KEEP_DEAD_EXPORTED_LOCALS, SHIFT_ROWS_AFTER_FILE_SWITCH, SKIP_WHOLE_MODULE_PREFIX}
)
#: Worker hooks: a subgraph holding the marker name kills or hangs its worker.
CRASH_WORKER = "crash-worker"
HANG_WORKER = "hang-worker"
CRASH_MARKER = "ember.test.crash.worker"
HANG_MARKER = "ember.test.hang.worker"


def duplicate_internal_globals(the_plan: planner.SplitPlan) -> planner.SplitPlan:
    """Every subgraph defines its own copy of internal mutable globals."""
    for sg in the_plan.subgraphs:
        sg.text = re.sub(
            r"^@([-\w$.]+) = external hidden (?:(?:local_)?unnamed_addr )?global (.+?)(, align \d+)?$",
            lambda m: f"@{m.group(1)} = internal global {m.group(2)} zeroinitializer{m.group(3) or ''}",
            sg.text,
            flags=re.M,
        )
    return the_plan


_SHDR = struct.Struct("<IIQQQQIIQQ")
#: constructor sections and a data name of the same length each is renamed to in place
#: (`.ctors` from llvmlite's target machine, `.init_array` from LLVM's default; ld puts
#: `.data1` and `.data.*` in `.data`)
_CTOR_NAMES = ((b".init_array", b".data.ember"), (b".ctors", b".data1"))
SHT_PROGBITS = 1


def _without_ctors(obj: bytes) -> bytes:
    """`obj` (a relocatable ELF64 object) with each constructor section renamed to data (a
    priority suffix kept) and typed SHT_PROGBITS: ordinary data, which nothing runs."""
    out = bytearray(obj)
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", obj, 0x3A)
    headers = [_SHDR.unpack_from(obj, shoff + i * shentsize) for i in range(shnum)]
    names_at = headers[shstrndx][4]
    for i, h in enumerate(headers):
        at = names_at + h[0]
        for old, new in _CTOR_NAMES:
            if obj[at : at + len(old)] == old and obj[at + len(old) : at + len(old) + 1] in (b"\0", b"."):
                out[at : at + len(new)] = new
                struct.pack_into("<I", out, shoff + i * shentsize + 4, SHT_PROGBITS)
    return bytes(out)


def drop_ctors(pieces: list[objlink.ObjectPiece]) -> list[objlink.ObjectPiece]:
    """drop-ctors: constructors (`.ctors` or `.init_array`) land in a data section nothing runs."""
    return [objlink.ObjectPiece(p.key, _without_ctors(p.obj)) for p in pieces]


def corrupt_piece_object(pieces: list[objlink.ObjectPiece]) -> list[objlink.ObjectPiece]:
    """corrupt-piece-object: the first piece's object cut in half (its section headers, at the
    end, lost): the object link refuses it and the build fails."""
    first = min(range(len(pieces)), key=lambda i: pieces[i].key)
    cut = objlink.ObjectPiece(pieces[first].key, pieces[first].obj[: len(pieces[first].obj) // 2])
    return [cut if i == first else p for i, p in enumerate(pieces)]


def shift_line_rows(module: engine.Module) -> None:
    """Every debug location of an optimised subgraph one source line further down (the
    prologue row, which codegen takes from the subprogram's `scopeLine`, stays)."""
    module.move_debug_lines(lambda loc: loc.line + 1)


def shift_rows_after_file_switch(module: engine.Module) -> None:
    """Inside each function, every debug location in another file than the function's own
    (code inlined from a header) one source line further down: a mistake only debug info with
    several files shows (29,898 of Lua's 40,189 rows), never one `.c` file alone. It runs on
    the optimised subgraph: before inlining there are no header rows to move."""
    module.move_debug_lines(lambda loc: loc.line + 1 if loc.home and loc.file and loc.file != loc.home else loc.line)


#: a per-subgraph copy's name: the home function's name (no dots) and the copy's subgraph
_COPY_NAME = re.compile(r"([A-Za-z_$][\w$]*)" + re.escape(planner.COPY_SUFFIX) + r"\d+")


def merge_specialised_copies(module: engine.Module) -> None:
    """Every use of a per-subgraph copy `f.ember.K` goes to the home `f` instead (declared,
    hidden, with the copy's type after optimisation, which may have dropped arguments).

    This is the wrong merge contract 2 forbids: copies that IPO specialised differently
    (constant arguments propagated, dead arguments dropped) are not interchangeable, and the
    callers here were optimised against their copy.
    """
    for value in list(module.definitions()):
        if value.is_function and (m := _COPY_NAME.fullmatch(value.name)):
            module.redirect_uses(value, m.group(1))


def keep_dead_exported_locals(the_plan: planner.SplitPlan) -> planner.SplitPlan:
    """keep-dead-exported-locals: the split build before `split.dead_definitions`. A local
    function another subgraph calls is exported (hidden) from its home subgraph while
    compiling; once every call to it was optimised away elsewhere, only the whole module knew
    it was dead, and the old build kept it, with the undefined symbols it names. Planted as
    the home subgraph listing such functions in `llvm.compiler.used` (which keeps them in
    the reference graph and costs no symbol of its own)."""
    for sg in the_plan.subgraphs:
        if "@llvm.compiler.used" in sg.text or "@llvm.used" in sg.text:
            continue
        values = irmodel.parse_module(sg.text).values
        kept = [
            name for name in sg.members
            if (e := values.get(name)) is not None and e.kind == "function" and name in the_plan.local_names
            and e.linkage not in ("internal", "private")
        ]
        if kept:
            refs = ", ".join(f"ptr @{name}" for name in kept)
            sg.text += f'\n@llvm.compiler.used = appending global [{len(kept)} x ptr] [{refs}], section "llvm.metadata"\n'
    return the_plan


_ATTRIBUTE_GROUP = re.compile(r" (#\d+)(?= |$)")


def no_inline_across_subgraphs(the_plan: planner.SplitPlan) -> planner.SplitPlan:
    """no-inline-across-subgraphs: an inlining decision the split build makes on its own at the
    subgraph boundaries. A callee another subgraph owns comes as an import
    (available_externally) or a copy (`f.ember.K`) so the inliner sees it as the serial one does;
    here imports become declarations and copies `noinline` (an `alwaysinline` one excepted), so
    what the serial build folds after inlining them (printf of a constant format -> puts, a
    strlen of a constant) stays a call in the split object: its undefined symbols differ."""
    for sg in the_plan.subgraphs:
        mod = irmodel.parse_module(sg.text)
        groups = {e.name.split()[-1]: e.text for e in mod.entities if e.kind == "attributes"}
        text = sg.text
        for e in mod.by_kind("function"):
            header = e.text.split("\n", 1)[0]
            if e.linkage == "available_externally":
                text = text.replace(e.text, irmodel.declaration_of(e), 1)
            elif planner.COPY_SUFFIX in e.name and "alwaysinline" not in header and " noinline" not in header:
                m = _ATTRIBUTE_GROUP.search(header)
                if m is None or "alwaysinline" in groups.get(m.group(1), ""):
                    continue
                text = text.replace(header, header[:m.start()] + " noinline" + header[m.start():], 1)
        sg.text = text
    return the_plan


_COMPILER_USED = re.compile(r"^@llvm\.compiler\.used = appending global \[(\d+) x ptr\] \[(.*)\], section", re.M)


def _add_compiler_used(text: str, names: list[str]) -> str:
    """`text` with `names` in its `llvm.compiler.used` (made when there is none)."""
    refs = ", ".join(f"ptr @{irmodel.quote(n)}" for n in names)
    m = _COMPILER_USED.search(text)
    if m is None:
        return text + f'\n@llvm.compiler.used = appending global [{len(names)} x ptr] [{refs}], section "llvm.metadata"\n'
    inner = f"{m.group(2)}, {refs}" if m.group(2).strip() else refs
    return (text[:m.start()] + f"@llvm.compiler.used = appending global [{int(m.group(1)) + len(names)} x ptr] [{inner}], section"
            + text[m.end():])


def keep_dead_across_subgraphs(the_plan: planner.SplitPlan) -> planner.SplitPlan:
    """keep-dead-across-subgraphs: dead code across subgraphs. A local function that other
    subgraphs call, through their copies (`f.ember.K`) or exported from its home, stays in its
    home subgraph's object (planted as `llvm.compiler.used` there) as if those calls were still
    there; serially, once every call was inlined or optimised away, it is deleted, and with it
    the undefined symbols only it names. Its reproducer needs the function and a caller in
    another subgraph."""
    copied = {m.split(planner.COPY_SUFFIX, 1)[0] for sg in the_plan.subgraphs for m in sg.members
              if planner.COPY_SUFFIX in m}
    for sg in the_plan.subgraphs:
        values = irmodel.parse_module(sg.text).values
        kept = [
            name for name in sg.members
            if planner.COPY_SUFFIX not in name and name in the_plan.local_names
            and (e := values.get(name)) is not None and e.kind == "function" and e.is_definition
            and (name in copied or e.linkage not in ("internal", "private"))
        ]
        if kept:
            sg.text = _add_compiler_used(sg.text, kept)
    return the_plan


def crash_on_marker(text: str) -> None:
    """Worker side of CRASH_WORKER: abort the worker on a subgraph holding the marker."""
    if CRASH_MARKER in text:
        os.abort()


def hang_on_marker(text: str) -> None:
    """Worker side of HANG_WORKER: hang the worker on a subgraph holding the marker."""
    if HANG_MARKER in text:
        time.sleep(3600)


def keep_exported_bindings(names: objlink.ObjectNames) -> objlink.ObjectNames:
    """skip-linkage-restore: the object link restores no binding, so the module locals and the
    privates that crossed pieces stay global hidden, as the split exported them (every such
    name leaks; references still resolve)."""
    return dataclasses.replace(names, restore_bindings=False)


def drop_section_offsets(names: objlink.ObjectNames) -> objlink.ObjectNames:
    """drop-section-offsets: section-relative references (strings, jump tables, `.eh_frame`,
    DWARF) keep their piece's addend, not shifted by where the piece's section landed: they
    point into the first piece's bytes."""
    return dataclasses.replace(names, shift_section_addends=False)


def skip_name_spellings(names: objlink.ObjectNames) -> objlink.ObjectNames:
    """skip-name-spellings: the object link is given no spellings, so every name the split
    made synthetic (`__ember_n<N>`: quoted, unicode, `.L`-lookalike) keeps it."""
    return dataclasses.replace(names, spellings=None)


#: each name a harness may ask for, and the hooks it means
HOOKS: dict[str, BuildHooks] = {
    "skip-linkage-restore": BuildHooks(object_names=(keep_exported_bindings,)),
    "drop-section-offsets": BuildHooks(object_names=(drop_section_offsets,)),
    "duplicate-internal-global": BuildHooks(plan=(duplicate_internal_globals,)),
    "drop-ctors": BuildHooks(objects=(drop_ctors,)),
    "merge-specialised-copies": BuildHooks(optimised=(merge_specialised_copies,)),
    SHIFT_LINE_ROWS: BuildHooks(optimised=(shift_line_rows,)),
    SHIFT_ROWS_AFTER_FILE_SWITCH: BuildHooks(optimised=(shift_rows_after_file_switch,)),
    SKIP_NAME_SPELLINGS: BuildHooks(object_names=(skip_name_spellings,)),
    CORRUPT_PIECE_OBJECT: BuildHooks(objects=(corrupt_piece_object,)),
    KEEP_DEAD_EXPORTED_LOCALS: BuildHooks(plan=(keep_dead_exported_locals,)),
    NO_INLINE_ACROSS_SUBGRAPHS: BuildHooks(plan=(no_inline_across_subgraphs,)),
    KEEP_DEAD_ACROSS_SUBGRAPHS: BuildHooks(plan=(keep_dead_across_subgraphs,)),
    SKIP_WHOLE_MODULE_PREFIX: BuildHooks(whole_module_prefix=False),
    CRASH_WORKER: BuildHooks(worker=(crash_on_marker,)),
    HANG_WORKER: BuildHooks(worker=(hang_on_marker,)),
}


def hooks_for(names: Iterable[str], *, base: BuildHooks | None = None) -> BuildHooks | None:
    """The hooks object for `names` (in name order), added to `base` (a build server's lowering
    cache); None when there is nothing to hook. An unknown name is an error: names come from
    the harness and from findings, never from the `ember` CLI."""
    wanted = sorted(set(names))
    unknown = [n for n in wanted if n not in HOOKS]
    if unknown:
        raise EmberError(f"back-end hook '{unknown[0]}' is not one of the harness's ({', '.join(sorted(HOOKS))})")
    out = base or BuildHooks()
    for name in wanted:
        hook = HOOKS[name]
        out = dataclasses.replace(
            out, names=(*out.names, name), plan=out.plan + hook.plan, worker=out.worker + hook.worker,
            optimised=out.optimised + hook.optimised,
            objects=out.objects + hook.objects, object_names=out.object_names + hook.object_names,
            whole_module_prefix=out.whole_module_prefix and hook.whole_module_prefix,
        )
    return None if out == BuildHooks() else out
