"""A whole-module summary computed once before the plan: which calls the serial inliner takes.

Each subgraph is optimised without the rest of the module, so its inliner can only inline a
callee whose body the plan put beside it. Which callees matter is what the unsplit build's
inliner would inline; this summary predicts it, the way ThinLTO's summary drives imports:
per function an estimate of its size after the early simplifications (SROA removes the
allocas and their loads and stores, SimplifyCFG the empty blocks, constant GEPs and casts
are free to the inline cost model), its direct call sites, and, bottom-up over the call
graph, its size after its own predicted inlining. One linear scan of the live module's bodies
(`_ModuleWalk`, through LLVM's C API). It reproduces, quirks included, the rules of the text
reader it replaced, which it equalled on the whole corpus until that reader was deleted
(docs/bench/plan-facts/SUMMARY-MEMORY.md, "The text rules").
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Callable, Iterable, Sequence
from ctypes import byref, c_size_t
from dataclasses import dataclass, field

from compiler.backend import engine
from compiler.backend.facts import attribute_words, cxx, value_name
from compiler.backend.irmodel import IRModule, quote

#: Estimated instructions (after early simplification, own inlining included) up to which the
#: serial inliner takes a callee: LLVM's -O2 threshold of 225 at 5 per instruction is 45, plus
#: the call it removes and the argument set-up; -O3's 250 adds a little.
INLINE_SIZE = {1: 45, 2: 55, 3: 60}
#: A callee marked `noreturn` or `cold` is called from cold sites, where LLVM inlines only a wrapper
#: around one call (its cold-site threshold is 45, less a call with its arguments).
COLD_SIZE = 5
#: Bodies of more instructions than this are not scanned further: early simplification removes
#: at most about four in five of them, which leaves far more than any inlining threshold.
SCAN_LIMIT = 600
#: Percent of an inlined callee's size a caller is judged to grow by: call sites often pass
#: constants that fold the callee's branches (LLVM's cost model simulates that), so the full
#: size over-counts (Lua's lua_type, 21 instructions, then 75 with index2value inlined, is
#: still inlined everywhere serially)
INLINED_SHARE = 50
#: Each call left inside a callee costs the inline model about this many instructions more.
CALL_WEIGHT = 4
#: Percent over the limit within which the estimate cannot tell (LLVM's cost at one site differs
#: from another's by a few instructions): such a callee is "borderline" (ModuleSummary.borderline)
BORDER = 5
#: Percent of the limit up to which a callee comes where a call passes it a constant: LLVM's cost
#: at such a site drops as branches on the constant fold (gawk's `research`: 275 without, 75-200
#: with its constant flags, threshold 225), which a size estimate of the body cannot see
CONSTANT_BORDER = 200
#: Percent over the limit up to which a callee outside every call-graph cycle comes into a caller
#: outside every cycle, where the subgraph's inliner takes it or not as the serial one does: there
#: the callee is optimised before its callers in both builds, so LLVM judges the same body at the
#: same site. The estimate over-counts some bodies (jq's `stack_pop`: 73 against LLVM's 31 at 5
#: per instruction). Inside a cycle the order the inliner visits call sites in decides, and it is
#: not the serial one once the cycle is cut: a band of 50% for every caller moved Lua's executed
#: instructions from +0.6% to +2.4% (docs/backend.md, "Following the serial inliner")
ACYCLIC_BORDER = 100
#: a printed argument that is a constant LLVM's inline cost model can fold on (the text rule
#: the memory walk reproduces for constant expressions, aggregates and vectors)
_CONSTANT_ARG = re.compile(r"[(,] ?(?:i\d+|ptr)(?: [a-z]+)* (?:-?\d+|null|true|false)[,)]")


@dataclass(frozen=True)
class FunctionFacts:
    """What the summary knows of one defined function."""

    name: str
    simplified: int  # estimated instructions after early simplification
    calls: dict[str, int]  # direct callee -> number of call sites
    always_inline: bool
    never_inline: bool
    hint: str = ""  # "cold" (noreturn or cold: its call sites are cold), "hot" (inlinehint), ""
    #: callees some call site passes a constant (an integer, null, true/false): LLVM's cost model
    #: folds the callee's branches on it, which a size estimate cannot see
    constant_calls: frozenset[str] = frozenset()


@dataclass
class ModuleSummary:
    """Per-function facts plus the predicted serial inlining decisions."""

    functions: dict[str, FunctionFacts]
    effective: dict[str, int]  # size after the function's own predicted inlining
    inlined: set[str]  # callees the serial inliner is predicted to take at its direct call sites
    #: defined functions the serial pipeline infers `cold` (every path reports an error):
    #: an import or a declaration elsewhere cannot get it (`cold_functions`)
    cold: set[str] = field(default_factory=set)
    #: callees just over the limit: LLVM's cost at a site decides (xmlHashComputeKey: 225 at five
    #: sites, 215 at one, threshold 225); the plan brings them so the subgraph's inliner can choose
    borderline: set[str] = field(default_factory=set)
    #: callees up to CONSTANT_BORDER, brought only where a call passes them a constant, and only
    #: those whose defined callees are all predicted inlined: otherwise the body a subgraph sees
    #: may lack what the serial inliner put into it, and look cheaper than serially (Lua's
    #: `lua_geti`: 340 serially, 220 imported, inlined split only: -4.5% instructions)
    constant_border: set[str] = field(default_factory=set)
    #: the caller of each defined function with exactly one direct call site in the module
    only_caller: dict[str, str] = field(default_factory=dict)
    #: each defined function's strongly connected component of the direct-call graph (an index)
    component: dict[str, int] = field(default_factory=dict)
    #: callees outside every call-graph cycle within ACYCLIC_BORDER of the limit: brought only
    #: into callers outside every cycle, where the subgraph's inliner decides as the serial one
    acyclic_border: set[str] = field(default_factory=set)
    #: defined functions in a call-graph cycle (a component of two or more, or calling themselves)
    cyclic: set[str] = field(default_factory=set)
    #: of `inlined`, those predicted inlined only by the last-call rule (a local's one call site,
    #: too large otherwise): the serial inliner takes them only if their caller is not itself
    #: copied into several places first
    last_call_only: set[str] = field(default_factory=set)

    def inline_closure(self, roots: Iterable[str]) -> set[str]:
        """Every function the serial build would inline into `roots`, transitively (roots excluded)."""
        out: set[str] = set()
        stack = list(roots)
        while stack:
            caller = stack.pop()
            facts = self.functions.get(caller)
            if facts is None:
                continue
            for callee in facts.calls:
                if callee not in out and (
                    callee in self.inlined
                    or callee in self.borderline
                    or (callee in self.acyclic_border and caller not in self.cyclic)
                    or (callee in self.constant_border and callee in facts.constant_calls)
                ):
                    out.add(callee)
                    stack.append(callee)
        return out - set(roots)


def summarise(mod: IRModule, *, opt_level: int = 2, module: engine.Module) -> ModuleSummary:
    """Facts for every defined function and the inlining the unsplit -O`opt_level` build would do.
    `module`: the live module `mod` was read from (`facts.read`): the bodies are read there
    (the entities' own facts, linkage and address refs, come from `mod`)."""
    walk = _ModuleWalk(module)
    functions = walk.function_facts()
    cold = walk.cold_functions(mod, functions)
    return _decide(mod, functions, cold, opt_level)


def _decide(mod: IRModule, functions: dict[str, FunctionFacts], cold: set[str], opt_level: int) -> ModuleSummary:
    """The predicted inlining, bottom-up over the call graph (`calls` order matters: it orders
    a recursive component's members, and so which are judged with the others inlined)."""
    taken = {r for e in mod.entities for r in e.address_refs}
    linkage = {e.name: e.linkage for e in mod.by_kind("function")}
    call_sites: dict[str, int] = {}
    for facts in functions.values():
        for callee, n in facts.calls.items():
            call_sites[callee] = call_sites.get(callee, 0) + n
    base = INLINE_SIZE.get(opt_level, INLINE_SIZE[2])
    limits = {"": base, "hot": base * 325 // 225, "cold": COLD_SIZE}
    effective: dict[str, int] = {}
    inlined: set[str] = set()
    borderline: set[str] = set()
    constant_border: set[str] = set()
    acyclic_border: set[str] = set()
    cyclic: set[str] = set()
    last_call_only: set[str] = set()
    component: dict[str, int] = {}
    for number, scc in enumerate(_sccs_bottom_up(functions)):
        component.update(dict.fromkeys(scc, number))
        members = set(scc)
        if len(scc) > 1 or scc[0] in functions[scc[0]].calls:
            cyclic.update(scc)
        for name in scc:
            facts = functions[name]
            size = facts.simplified
            for callee, n in facts.calls.items():
                if callee in inlined and callee not in members:
                    size += n * max(effective[callee] - 1 - CALL_WEIGHT, 0) * INLINED_SHARE // 100
            effective[name] = size
        for name in scc:  # inside a recursive component each member is judged by its own size
            facts = functions[name]  # self-recursive ones too: tail-call elimination often makes them loops
            last_local_call = (
                linkage[name] in ("internal", "private")
                and call_sites.get(name, 0) == 1
                and name not in taken
            )
            if not facts.never_inline and (facts.always_inline or effective[name] <= limits[facts.hint] or last_local_call):
                inlined.add(name)
                if not facts.always_inline and effective[name] > limits[facts.hint]:
                    last_call_only.add(name)
            elif not facts.never_inline and facts.hint != "cold":
                limit = limits[facts.hint]
                if effective[name] <= limit * (100 + BORDER) // 100:
                    borderline.add(name)
                elif effective[name] <= limit * CONSTANT_BORDER // 100 and all(c in inlined or c not in functions for c in facts.calls):
                    constant_border.add(name)
                if name not in borderline and name not in cyclic and effective[name] <= limit * (100 + ACYCLIC_BORDER) // 100:
                    acyclic_border.add(name)
    only_caller = {callee: caller for caller, facts in functions.items() for callee in facts.calls if call_sites[callee] == 1}
    return ModuleSummary(
        functions, effective, inlined, cold, borderline, constant_border, only_caller, component, acyclic_border, cyclic,
        last_call_only)


#: libc calls LLVM's libcall simplifier marks `cold` as error reporting (the stream argument's
#: position, which must be `stderr`; -1: any call), SimplifyLibCalls' `optimizeErrorReporting`
_ERROR_REPORTERS = {"perror": -1, "vfprintf": 0, "fiprintf": 0, "fprintf": 0, "fputc": 1, "fputs": 1, "fwrite": 3}


def _infer_cold(
    facts: dict[str, FunctionFacts], cold: set[str], names_stderr: Callable[[str], bool], all_paths_cold: Callable[[str], bool]
) -> set[str]:
    """`cold` (the functions and declarations marked so) grown bottom-up by the defined functions
    whose every path reaches a cold call (`all_paths_cold`, which reads `cold` as it grows);
    the defined ones returned. `names_stderr`: the body names `@stderr...`."""
    for scc in _sccs_bottom_up(facts):
        for name in scc:
            calls = facts[name].calls
            # only a body with a cold call or an error report can be cold: walk only those
            maybe = any(c in cold for c in calls) or "perror" in calls or (
                any(c in _ERROR_REPORTERS for c in calls) and names_stderr(name))
            if name not in cold and maybe and all_paths_cold(name):
                cold.add(name)
    return {name for name in cold if name in facts}


def _every_path_cold(entry: int, cold_call: Callable[[int], bool], successors: Callable[[int], Sequence[int]]) -> bool:
    """LLVM's walk (`allPathsGoThroughCold`), step for step, over `LLVMBasicBlockRef`s: a
    block reached a second time before it is known cold ends the search (so loops and some
    joins make a function not cold): same order, same answer."""
    cold_path = {entry: False}
    work = [entry]
    while work:
        block = work.pop()
        if cold_call(block):
            cold_path[block] = True
            continue
        following = successors(block)
        if not following:
            return False
        for successor in following:
            if successor in cold_path:
                if cold_path[successor]:
                    continue
                return False
            cold_path[successor] = False
            work.append(successor)
    return True


def _sccs_bottom_up(functions: dict[str, FunctionFacts]) -> list[list[str]]:
    """Strongly connected components of the direct-call graph, callees before callers (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in functions:
        if root in index:
            continue
        work = [(root, iter(functions[root].calls))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in functions:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(functions[child].calls)))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                scc = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    scc.append(member)
                    if member == node:
                        break
                out.append(scc)
    return out


# ------------------------------------------------------------------ the same facts from the live module

#: LLVMOpcode
_BR, _SWITCH, _INVOKE, _UNREACHABLE, _CALL, _CALLBR = 2, 3, 5, 7, 45, 67
_ALLOCA, _LOAD, _STORE, _GETELEMENTPTR = 26, 27, 28, 29
_CALLS = frozenset({_CALL, _INVOKE, _CALLBR})
#: `_FREE_TEXT`'s instructions (casts, `unreachable`; unconditional branches and the lifetime
#: and debug intrinsics are told apart by operands and callees)
_FREE_OPCODES = frozenset({_UNREACHABLE, 30, 39, 40, 41, 68})  # trunc, ptrtoint, inttoptr, bitcast, freeze
#: the opcodes a small body's walk reads more of than the opcode
_READ_OPCODES = _FREE_OPCODES | {_BR, _SWITCH, _INVOKE, _CALL, _CALLBR, _ALLOCA, _LOAD, _STORE, _GETELEMENTPTR}
#: LLVMValueKind
_ARGUMENT, _CONSTANT_INT, _NULL, _INSTRUCTION = 0, 18, 20, 24
#: kinds whose printed argument `_CONSTANT_ARG` never matches (values, globals, undef, zero,
#: floats, token none, metadata, inline asm, poison, target none); the rest are printed once
_NEVER_CONSTANT_KINDS = frozenset({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 14, 15, 19, 21, 22, 23, 24, 25, 26})
#: parameter attributes printed as one lowercase word (`(?: [a-z]+)*` in `_CONSTANT_ARG`)
_PLAIN_ATTRIBUTES = (
    "noundef", "nonnull", "noalias", "readonly", "writeonly", "readnone", "nofree", "nest", "returned", "inreg",
    "signext", "zeroext", "immarg", "writable", "swiftself", "swifterror", "swiftasync", "allocptr", "allocalign", "noext",
)
_POINTER_TYPE = 12


class _ModuleWalk:
    """`function_facts` and `cold_functions` read from the live module: one walk per body,
    opcodes only except where a rule reads more (allocas, GEPs, loads, stores, calls), each
    text rule reproduced with its quirks (SUMMARY-MEMORY.md, "The text rules, read exactly")."""

    def __init__(self, module: engine.Module) -> None:
        self.lib = engine.capi()
        self.module = module
        #: every global value's name: a call's callee is looked up here (calls of aliases and
        #: ifuncs count, as `@name(` does in the text)
        self.names = {ref: value_name(ref) for _kind, ref in engine.global_value_refs(module.ref)}
        functions = [ref for _kind, ref in engine.global_value_refs(module.ref, "function")]
        self.defined = {self.names[ref]: ref for ref in functions if not self.lib.LLVMIsDeclaration(ref)}
        #: the attributes the summary asks about, of every function and declaration
        self.words = {ref: attribute_words(ref) for ref in functions}
        self.cold = {self.names[ref] for ref in functions if "cold" in self.words[ref]}
        kind = self.lib.LLVMGetEnumAttributeKindForName
        self.range_kind = kind(b"range", 5)
        self.plain_kinds = frozenset(kind(word.encode(), len(word)) for word in _PLAIN_ATTRIBUTES) - {0}
        #: constant -> 1: `_CONSTANT_ARG` matches it, 0: it does not, 2: `ptr null` (the attributes decide)
        self.constant_class: dict[int, int] = {}
        self.attributes = (ctypes.c_void_p * 64)()

    # --- function_facts

    def function_facts(self) -> dict[str, FunctionFacts]:
        """`function_facts` of every defined function, in module order."""
        return {name: self._facts(name, ref) for name, ref in self.defined.items()}

    def _facts(self, name: str, ref: int) -> FunctionFacts:
        """One function's `FunctionFacts`: the lean walk over a big body, the full one otherwise."""
        lib = self.lib
        # the text counts two-space lines: the first instruction follows the header's newline
        # (not counted) unless a label opens the body, and a switch adds its `]` line
        lines = cxx().instruction_count(ref) - (0 if lib.LLVMGetBasicBlockName(lib.LLVMGetFirstBasicBlock(ref)) else 1)
        calls: dict[str, int] = {}
        constant_calls: set[str] = set()
        big = lines > SCAN_LIMIT
        size = lines + self._calls_only(ref, calls, constant_calls) if big else self._scan(ref, lines, calls, constant_calls)
        size += CALL_WEIGHT * sum(calls.values())
        words = self.words[ref]
        hint = "cold" if words & {"noreturn", "cold"} else "hot" if "inlinehint" in words else ""
        return FunctionFacts(name, size, calls, "alwaysinline" in words, "noinline" in words, hint, frozenset(constant_calls))

    def _call(self, instruction: int, calls: dict[str, int], constant_calls: set[str]) -> str | None:
        """Count a direct call (not of an intrinsic) as `_CALLED` does; the callee's name, if any."""
        name = self.names.get(self.lib.LLVMGetCalledValue(instruction))
        if name is not None and not name.startswith("llvm."):
            calls[name] = calls.get(name, 0) + 1
            if name not in constant_calls and self._constant_argument(instruction):
                constant_calls.add(name)
        return name

    def _calls_only(self, ref: int, calls: dict[str, int], constant_calls: set[str]) -> int:
        """A body over SCAN_LIMIT: its calls in order, and its switches (their `]` lines)."""
        lib = self.lib
        first, following, opcode_of = lib.LLVMGetFirstInstruction, lib.LLVMGetNextInstruction, lib.LLVMGetInstructionOpcode
        switches = 0
        block = lib.LLVMGetFirstBasicBlock(ref)
        while block:
            instruction = first(block)
            while instruction:
                opcode = opcode_of(instruction)
                if opcode in _CALLS:
                    self._call(instruction, calls, constant_calls)
                elif opcode == _SWITCH:
                    switches += 1
                instruction = following(instruction)
            block = lib.LLVMGetNextBasicBlock(block)
        return switches

    def _scan(self, ref: int, lines: int, calls: dict[str, int], constant_calls: set[str]) -> int:
        """A small body's simplified size: `function_facts`'s rules, in one walk."""
        lib = self.lib
        first, following, opcode_of = lib.LLVMGetFirstInstruction, lib.LLVMGetNextInstruction, lib.LLVMGetInstructionOpcode
        slots: set[int] = set()
        geps: list[int] = []
        accesses: list[tuple[int, int]] = []  # (instruction, its pointer operand)
        transfers: list[tuple[int, bool]] = []  # (mem intrinsic call, memcpy/memmove)
        free = switches = 0
        block = lib.LLVMGetFirstBasicBlock(ref)
        while block:
            instruction = first(block)
            while instruction:
                opcode = opcode_of(instruction)
                if opcode not in _READ_OPCODES:
                    pass
                elif opcode == _LOAD:
                    accesses.append((instruction, 0))
                elif opcode == _STORE:  # `store ptr %slot, ptr %p` names %slot after `store `: operand 1 only
                    accesses.append((instruction, 1))
                elif opcode == _GETELEMENTPTR:
                    geps.append(instruction)
                elif opcode == _CALL:
                    name = self._call(instruction, calls, constant_calls) or ""
                    if name.startswith(("llvm.lifetime", "llvm.dbg")):
                        free += 1
                    elif name.startswith(("llvm.memcpy", "llvm.memmove", "llvm.memset")):
                        transfers.append((instruction, not name.startswith("llvm.memset")))
                elif opcode == _ALLOCA:
                    slots.add(instruction)
                elif opcode == _BR:
                    free += lib.LLVMGetNumOperands(instruction) == 1
                elif opcode == _SWITCH:
                    switches += 1
                elif opcode in _CALLS:
                    self._call(instruction, calls, constant_calls)
                else:
                    free += 1
                instruction = following(instruction)
            block = lib.LLVMGetNextBasicBlock(block)
        size = lines + switches
        if size > SCAN_LIMIT:
            return size
        return size - len(slots) - free - self._slot_reads(slots, geps, accesses, transfers)

    def _slot_reads(self, slots: set[int], geps: list[int], accesses: list[tuple[int, int]], transfers: list[tuple[int, bool]]) -> int:
        """The GEPs, loads, stores and mem intrinsics `_GEP`, `_ACCESSED` and `_MEM_INTRINSIC`
        count free (slots grow by GEPs into them, in body order)."""
        lib = self.lib
        operand, ordering = lib.LLVMGetOperand, lib.LLVMGetOrdering
        found = 0
        for gep in geps:
            if operand(gep, 0) in slots:
                slots.add(gep)  # a field of a slot is a slot of its own after SROA
                found += 1
            elif lib.LLVMHasMetadata(gep) and self._gep_with_attachment(gep):
                found += 1
        if not slots:
            return found
        # atomics print `ptr %slot seq_cst, align`: not `_ACCESSED`'s `, ptr %slot, align `
        found += sum(1 for a, i in accesses if operand(a, i) in slots and not ordering(a))
        # the first `%` after `(ptr `: a global destination makes the source the "destination"
        found += sum(1 for call, transfer in transfers if operand(call, 0) in slots or (transfer and operand(call, 1) in slots))
        return found

    def _gep_with_attachment(self, gep: int) -> bool:
        """`_GEP`'s `, !` case: a `%` pointer base, constant i32/i64 indices only, then a
        metadata attachment other than `!dbg` (the text had the debug ones stripped)."""
        lib = self.lib
        count = c_size_t()
        entries = lib.LLVMInstructionGetAllMetadataOtherThanDebugLoc(gep, byref(count))
        other = any(lib.LLVMValueMetadataEntriesGetKind(entries, i) != 0 for i in range(count.value))
        if entries:
            lib.LLVMDisposeValueMetadataEntries(entries)
        base = lib.LLVMGetOperand(gep, 0)
        if not other or lib.LLVMGetValueKind(base) not in (_ARGUMENT, _INSTRUCTION) or not self._plain_pointer(base):
            return False
        for i in range(1, lib.LLVMGetNumOperands(gep)):
            index = lib.LLVMGetOperand(gep, i)
            if lib.LLVMGetValueKind(index) != _CONSTANT_INT or lib.LLVMGetIntTypeWidth(lib.LLVMTypeOf(index)) not in (32, 64):
                return False
        return True

    def _plain_pointer(self, value: int) -> bool:
        """The value's type prints as `ptr` (address space 0)."""
        kind = self.lib.LLVMTypeOf(value)
        return self.lib.LLVMGetTypeKind(kind) == _POINTER_TYPE and self.lib.LLVMGetPointerAddressSpace(kind) == 0

    def _constant_argument(self, call: int) -> bool:
        """Whether `_CONSTANT_ARG` matches from the callee's `(` to the line's end: an integer,
        `ptr null` with one-word attributes only, a constant whose printed text matches (a
        constant GEP's `, i64 5)`), or any argument with a `range(iN a, b)` attribute. (Not
        read: operand bundles, `[ "deopt"(i32 1) ]`, which the text would match; none in the corpus.)"""
        lib = self.lib
        for i in range(lib.LLVMGetNumArgOperands(call)):
            found = self._constant_class(lib.LLVMGetOperand(call, i))
            if found == 1 or (found == 2 and self._plain_attributes(call, i + 1)):
                return True
            if self.range_kind and lib.LLVMGetCallSiteEnumAttribute(call, i + 1, self.range_kind):
                return True  # `range(i64 1, ...)` holds `(i64 1,`
        return False

    def _constant_class(self, value: int) -> int:
        """1: `_CONSTANT_ARG` matches the printed argument, 0: it does not, 2: `ptr null` (cached per constant)."""
        found = self.constant_class.get(value)
        if found is None:
            kind = self.lib.LLVMGetValueKind(value)
            if kind == _CONSTANT_INT:
                found = 1
            elif kind in _NEVER_CONSTANT_KINDS:
                found = 0
            elif kind == _NULL:
                found = 2 if self._plain_pointer(value) else 0
            else:  # an expression, aggregate, vector: its printed text decides
                found = 1 if _CONSTANT_ARG.search(engine.message(self.lib.LLVMPrintValueToString(value))) else 0
            if kind != _INSTRUCTION and kind != _ARGUMENT:
                self.constant_class[value] = found
        return found

    def _plain_attributes(self, call: int, index: int) -> bool:
        """The argument's attributes all print as one lowercase word (`ptr align 8 null` does not match)."""
        lib = self.lib
        count = lib.LLVMGetCallSiteAttributeCount(call, index)
        if count > len(self.attributes):
            return False
        if count:
            lib.LLVMGetCallSiteAttributes(call, index, self.attributes)
        return all(
            lib.LLVMIsEnumAttribute(a) and lib.LLVMGetEnumAttributeKind(a) in self.plain_kinds for a in self.attributes[:count]
        )

    # --- cold_functions

    def cold_functions(self, mod: IRModule, function_facts: dict[str, FunctionFacts]) -> set[str]:
        """`cold_functions` on the live module (`mod`, its entities, says which bodies name `@stderr...`)."""
        stderr = self._stderr_loads()
        cold = set(self.cold)
        return _infer_cold(function_facts, cold, _names_stderr(mod), lambda name: self._all_paths_cold(self.defined[name], cold, stderr))

    def _stderr_loads(self) -> set[int]:
        """`_STDERR_LOAD`'s loads: plain (not volatile, not atomic) loads of a `ptr` from `@stderr`."""
        lib = self.lib
        found: set[int] = set()
        stderr = lib.LLVMGetNamedGlobal(self.module.ref, b"stderr")
        use = lib.LLVMGetFirstUse(stderr) if stderr else None
        while use:
            user = lib.LLVMGetUser(use)
            if (lib.LLVMGetValueKind(user) == _INSTRUCTION and lib.LLVMGetInstructionOpcode(user) == _LOAD
                    and not lib.LLVMGetVolatile(user) and not lib.LLVMGetOrdering(user) and self._plain_pointer(user)):
                found.add(user)
            use = lib.LLVMGetNextUse(use)
        return found

    def _all_paths_cold(self, ref: int, cold: set[str], stderr: set[int]) -> bool:
        """`_all_paths_cold` on the function's blocks: successors in `LLVMGetSuccessor` order,
        the text's `label %x` order (branches, switches default first, invokes; not a
        `catchswitch`, whose unwind block comes first here and last in the text: Windows EH only)."""
        lib = self.lib

        def successors(block: int) -> list[int]:
            terminator = lib.LLVMGetBasicBlockTerminator(block)
            return [lib.LLVMGetSuccessor(terminator, i) for i in range(lib.LLVMGetNumSuccessors(terminator) if terminator else 0)]

        return _every_path_cold(
            lib.LLVMGetFirstBasicBlock(ref), lambda block: self._has_cold_call(block, cold, stderr), successors)

    def _has_cold_call(self, block: int, cold: set[str], stderr: set[int]) -> bool:
        """`_has_cold_call`: a `call` (not invoke) of a cold function or intrinsic, or of an
        error reporter not defined here, printing to a `_STDERR_LOAD`."""
        lib = self.lib
        instruction = lib.LLVMGetFirstInstruction(block)
        while instruction:
            if lib.LLVMGetInstructionOpcode(instruction) == _CALL:
                callee = self.names.get(lib.LLVMGetCalledValue(instruction))
                if callee is not None:
                    if callee in cold:
                        return True
                    position = _ERROR_REPORTERS.get(callee)
                    if position is not None and callee not in self.defined and (position < 0 or (
                            position < lib.LLVMGetNumArgOperands(instruction) and lib.LLVMGetOperand(instruction, position) in stderr)):
                        return True
            instruction = lib.LLVMGetNextInstruction(instruction)
        return False


def _names_stderr(mod: IRModule) -> Callable[[str], bool]:
    """Whether a function's text holds `@stderr` (its name, or a value it names, spelled
    `stderr...` unquoted), from the entities' refs."""
    def plain(name: str) -> bool:
        """`@` + the name starts with `@stderr` as printed (not quoted)."""
        return name.startswith("stderr") and quote(name) == name

    naming = {e.name for e in mod.by_kind("function") if plain(e.name) or any(plain(r) for r in e.refs)}
    return naming.__contains__
