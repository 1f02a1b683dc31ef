"""The planner's entity facts read from the live module through LLVM's C API, not its text.

`read(module)` gives the global values as `irmodel.Entity`s: kind, linkage, visibility,
comdat, the global values each one names (`refs`, `address_refs`, `blockaddress_of`), its
cost, a variable's qualifiers, a function's attributes and inline asm. References come from
the use lists of the global values (seen through constant expressions), not from a walk
over every operand: one ctypes call costs about 0.4 us, and a module has far more operands
than uses of globals (docs/bench/plan-facts/DESIGN.md, measured on Lua). The facts equal
`irmodel.parse_module`'s on the printed module (tests/test_facts.py); the entities carry no
text, so this is the planner's input once nothing of it reads a body's text any more
(DESIGN.md, steps 2-4).

Refs are in module order (variables, aliases, ifuncs, functions), not in the order the text
names them: the plans are the same either way on the whole corpus (DESIGN.md, step 0's probe).
"""

from __future__ import annotations

import ctypes
import functools
from ctypes import byref, c_size_t, c_void_p
from dataclasses import dataclass
from typing import Any

from compiler.backend import engine
from compiler.backend.irmodel import Entity, IRModule, VariableHead

#: LLVMLinkage -> the word the IR printer writes
LINKAGE = {
    0: "external", 1: "available_externally", 2: "linkonce", 3: "linkonce_odr", 5: "weak", 6: "weak_odr",
    7: "appending", 8: "internal", 9: "private", 12: "extern_weak", 14: "common",
}
VISIBILITY = ("default", "hidden", "protected")
#: the function attributes the plan asks about (summary, always-inline imports, GlobalMerge)
PLAN_ATTRIBUTES = ("alwaysinline", "noinline", "inlinehint", "cold", "noreturn", "minsize")
#: LLVMValueKind
_FUNCTION, _ALIAS, _IFUNC, _VARIABLE, _BLOCK_ADDRESS, _INSTRUCTION = 5, 6, 7, 8, 9, 24
_GLOBALS = frozenset({_FUNCTION, _ALIAS, _IFUNC, _VARIABLE})
#: kinds below which no global value can hide: arguments, blocks, memory SSA, undef, zero,
#: data arrays and vectors, integers, floats, null, none, metadata, inline asm, instructions,
#: poison, target none (left: expressions, arrays, structs, vectors, pointer auth)
_LEAVES = frozenset({0, 1, 2, 3, 4, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26})
#: LLVMOpcode
_SWITCH, _INVOKE, _PHI, _CALL, _CALLBR, _LANDINGPAD = 3, 5, 44, 45, 67, 59
_CALLS = frozenset({_INVOKE, _CALL, _CALLBR})
#: LLVMTypeKind of the value types `opaque_variables` treats as scalars (half, float, double,
#: x86_fp80, fp128, integer, pointer: the printed `_SCALAR` set)
_SCALAR_TYPES = frozenset({1, 2, 3, 4, 5, 8, 12})
_FUNCTION_INDEX = 0xFFFFFFFF


class _StringRef(ctypes.Structure):
    _fields_ = [("data", c_void_p), ("size", c_size_t)]


@dataclass(frozen=True)
class _CXX:
    """C++ methods the C API lacks, by their mangled names (tests/test_facts.py pins them)."""

    comdat_name: Any
    instruction_count: Any
    assumes_dso_local: Any
    block_address: Any
    value_as_metadata: Any

    @staticmethod
    def load(lib: ctypes.CDLL) -> _CXX:
        name = lib._ZNK4llvm6Comdat7getNameEv  # StringRef Comdat::getName() const
        name.restype, name.argtypes = _StringRef, [c_void_p]
        count = lib._ZNK4llvm8Function19getInstructionCountEv  # unsigned Function::getInstructionCount() const
        count.restype, count.argtypes = ctypes.c_uint, [c_void_p]
        # bool TargetMachine::shouldAssumeDSOLocal(const GlobalValue *) const: for an external,
        # default-visibility value under ELF PIC, the `dso_local` the printer writes
        dso = lib._ZNK4llvm13TargetMachine20shouldAssumeDSOLocalEPKNS_11GlobalValueE
        dso.restype, dso.argtypes = ctypes.c_bool, [c_void_p, c_void_p]
        # static BlockAddress *BlockAddress::lookup(const BasicBlock *): the block's address
        # constant if something took it, without making one (LLVMBlockAddress would)
        lookup = lib._ZN4llvm12BlockAddress6lookupEPKNS_10BasicBlockE
        lookup.restype, lookup.argtypes = c_void_p, [c_void_p]
        # static ValueAsMetadata *ValueAsMetadata::getIfExists(Value *): the value's metadata
        # wrapper if metadata names it (`!{ptr @g}`), without making one
        wrapped = lib._ZN4llvm15ValueAsMetadata11getIfExistsEPNS_5ValueE
        wrapped.restype, wrapped.argtypes = c_void_p, [c_void_p]
        return _CXX(name, count, dso, lookup, wrapped)


MANGLED = (
    "_ZNK4llvm6Comdat7getNameEv",
    "_ZNK4llvm8Function19getInstructionCountEv",
    "_ZNK4llvm13TargetMachine20shouldAssumeDSOLocalEPKNS_11GlobalValueE",
    "_ZN4llvm12BlockAddress6lookupEPKNS_10BasicBlockE",
    "_ZN4llvm15ValueAsMetadata11getIfExistsEPNS_5ValueE",
)


@functools.cache
def cxx() -> _CXX:
    """The C++ methods, looked up once."""
    return _CXX.load(engine.capi())


def value_name(ref: int) -> str:
    """A value's name, unquoted (bytes that are no UTF-8 kept as surrogates, as the text reader does)."""
    size = c_size_t()
    raw = engine.capi().LLVMGetValueName2(ref, byref(size))
    return ctypes.string_at(raw, size.value).decode("utf-8", "surrogateescape") if raw else ""


@functools.cache
def _attribute_kinds() -> dict[str, int]:
    """Each `PLAN_ATTRIBUTES` word's attribute kind (looked up once)."""
    lib = engine.capi()
    return {word: lib.LLVMGetEnumAttributeKindForName(word.encode(), len(word)) for word in PLAN_ATTRIBUTES}


def attribute_words(ref: int) -> frozenset[str]:
    """The `PLAN_ATTRIBUTES` a function or declaration has (`IRModule.function_attributes`'s
    words the plan asks about)."""
    at = engine.capi().LLVMGetEnumAttributeAtIndex
    return frozenset(word for word, kind in _attribute_kinds().items() if at(ref, _FUNCTION_INDEX, kind))


def read(module: engine.Module, triple: str | None = None, *, metadata: bool = False) -> IRModule:
    """The module's global values as entities with the planner's facts (no text), an `asm`
    entity (no text either) when the module has module asm, and with `metadata` one
    `metadata` entity naming the values metadata names (`metadata_refs`), as the text's
    metadata lines do: the planner takes what they name for address-taken and escaped."""
    mod = _Reader(module, triple).module()
    if metadata:
        named = sorted(metadata_refs(module))
        if named:
            mod.entities.append(Entity("metadata", "!ember.metadata_refs", "", len(mod.entities), refs=named, address_refs=set(named)))
    return mod


class _Reader:
    def __init__(self, module: engine.Module, triple: str | None) -> None:
        self.lib = engine.capi()
        self.cxx = cxx()
        self.module_ref = module.ref
        self.module_asm = bool(module.module_asm())
        self.triple = triple or module.triple or "x86_64-unknown-linux-gnu"
        self.names: dict[int, str] = {}
        self.entities: list[Entity] = []
        self.by_ref: dict[int, Entity] = {}
        self.constant_globals: dict[int, tuple[tuple[int, ...], frozenset[int]]] = {}
        self.constant_owners: dict[int, list[int]] = {}
        #: the block addresses taken of each function's blocks (a block address is a use of
        #: the block, not of the function: the function's use list does not show it)
        self.block_addresses: dict[int, list[int]] = {}

    def name_of(self, ref: int) -> str:
        found = self.names.get(ref)
        if found is None:
            found = self.names[ref] = value_name(ref)
        return found

    def module(self) -> IRModule:
        comdats: dict[int, str] = {}
        with engine.target_machine(engine.Target(self.triple)) as machine:
            for kind, ref in engine.global_value_refs(self.module_ref):
                self._entity(ref, "global" if kind == "variable" else kind, comdats, machine)
        self._references()
        self._inline_asm()
        if self.module_asm:  # what the plan asks of it: whether there is any (the asm probe)
            self.entities.append(Entity("asm", "asm0", "", len(self.entities)))
        return IRModule([], self.entities)

    def _inline_asm(self) -> None:
        """Which function bodies call inline asm (`engine.calls_inline_asm`)."""
        for ref, e in self.by_ref.items():
            if e.kind == "function":
                e.known_inline_asm = engine.calls_inline_asm(ref)

    def _entity(self, ref: int, kind: str, comdats: dict[int, str], machine: int) -> None:
        lib = self.lib
        declaration = kind in ("global", "function") and bool(lib.LLVMIsDeclaration(ref))
        e = Entity(
            "declaration" if kind == "function" and declaration else kind,
            self.name_of(ref),
            "",
            len(self.entities),
            LINKAGE.get(lib.LLVMGetLinkage(ref), "external"),
            VISIBILITY[lib.LLVMGetVisibility(ref)],
        )
        e.known_definition = not declaration
        if kind in ("global", "function") and not (kind == "function" and declaration):
            comdat = lib.LLVMGetComdat(ref)
            if comdat:
                if comdat not in comdats:
                    name = self.cxx.comdat_name(comdat)
                    comdats[comdat] = ctypes.string_at(name.data, name.size).decode("utf-8", "surrogateescape")
                e.comdat = comdats[comdat]
        if kind in ("global", "alias", "ifunc"):
            e.known_variable = self._variable(ref, kind, e, machine)
        if kind == "function":
            e.known_attributes = attribute_words(ref)
            e.known_cost = self._cost(ref) if not declaration else 1
        else:
            e.known_cost = 1
        self.entities.append(e)
        self.by_ref[ref] = e

    def _variable(self, ref: int, kind: str, e: Entity, machine: int) -> VariableHead:
        lib = self.lib
        if kind != "global":
            # (the C API reads a thread-local mode on variables only: an alias of a
            # thread-local variable is one, as the verifier requires)
            base = engine.aliased_variable(ref) if kind == "alias" else None
            return VariableHead(
                thread_local=bool(base and lib.LLVMGetThreadLocalMode(base)), dso_local=self._dso_local(machine, ref, e)
            )
        section = lib.LLVMGetSection(ref)
        return VariableHead(
            thread_local=bool(lib.LLVMGetThreadLocalMode(ref)),
            constant=bool(lib.LLVMIsGlobalConstant(ref)),
            section=bool(section),
            # (the text read it from what follows the type: a declaration has nothing there)
            scalar=bool(e.known_definition) and lib.LLVMGetTypeKind(lib.LLVMGlobalGetValueType(ref)) in _SCALAR_TYPES,
            dso_local=self._dso_local(machine, ref, e),
        )

    def _dso_local(self, machine: int, ref: int, e: Entity) -> bool:
        """The printed `dso_local`: only written where not implied (a local, or a hidden or
        protected value that is not extern_weak)."""
        if e.linkage in ("internal", "private") or (e.visibility != "default" and e.linkage != "extern_weak"):
            return False
        return bool(self.cxx.assumes_dso_local(machine, ref))

    def _cost(self, ref: int) -> int:
        """The printed body's line count (what the plan's thresholds are tuned to): a line per
        instruction, two per block after the first (blank and label), the entry's label when
        named, a switch's case lines, a landing pad's clauses; debug records do not count."""
        lib = self.lib
        blocks = lib.LLVMCountBasicBlocks(ref)
        lines = 1 + self.cxx.instruction_count(ref) + 2 * (blocks - 1)
        block = lib.LLVMGetFirstBasicBlock(ref)
        if block and lib.LLVMGetBasicBlockName(block):
            lines += 1
        while block:
            terminator = lib.LLVMGetBasicBlockTerminator(block)
            opcode = lib.LLVMGetInstructionOpcode(terminator) if terminator else 0
            if opcode == _SWITCH:
                lines += lib.LLVMGetNumSuccessors(terminator)
            elif opcode == _INVOKE:  # `to label %a unwind label %b` on a line of its own
                lines += 1
            taken = self.cxx.block_address(block)
            if taken:
                self.block_addresses.setdefault(ref, []).append(taken)
            first = lib.LLVMGetFirstInstruction(block)
            while first and lib.LLVMGetInstructionOpcode(first) == _PHI:
                first = lib.LLVMGetNextInstruction(first)
            if first and lib.LLVMGetInstructionOpcode(first) == _LANDINGPAD:
                lines += lib.LLVMGetNumClauses(first) + (1 if lib.LLVMIsCleanup(first) else 0)
            block = lib.LLVMGetNextBasicBlock(block)
        return lines

    def _constant(self, ref: int, depth: int = 0) -> tuple[tuple[int, ...], frozenset[int]]:
        """(global values, functions whose block addresses) a constant names, depth first."""
        found = self.constant_globals.get(ref)
        if found is not None:
            return found
        lib = self.lib
        kind = lib.LLVMGetValueKind(ref)
        if kind in _GLOBALS:
            found = ((ref,), frozenset())
        elif kind == _BLOCK_ADDRESS:
            function = lib.LLVMGetBlockAddressFunction(ref)
            found = ((function,), frozenset({function}))
        elif kind in _LEAVES or depth > 64:
            found = ((), frozenset())
        else:
            named: list[int] = []
            blocks: set[int] = set()
            for i in range(lib.LLVMGetNumOperands(ref)):
                operand = lib.LLVMGetOperand(ref, i)
                if operand:
                    inner, inner_blocks = self._constant(operand, depth + 1)
                    named.extend(inner)
                    blocks |= inner_blocks
            found = (tuple(named), frozenset(blocks))
        self.constant_globals[ref] = found
        return found

    def _instruction_users(self, ref: int, depth: int = 0) -> list[int]:
        """The instructions using a constant (expression, aggregate, block address), through
        constants using it in turn."""
        found = self.constant_owners.get(ref)
        if found is None:
            lib = self.lib
            found = []
            use = lib.LLVMGetFirstUse(ref)
            while use:
                user = lib.LLVMGetUser(use)
                kind = lib.LLVMGetValueKind(user)
                if kind == _INSTRUCTION:
                    found.append(user)
                elif kind not in _GLOBALS and kind not in _LEAVES and depth < 64:
                    found.extend(self._instruction_users(user, depth + 1))
                use = lib.LLVMGetNextUse(use)
            self.constant_owners[ref] = found
        return found

    def _references(self) -> None:
        """Every entity's refs, address refs and block-address functions, from the uses of the
        global values (functions) and from initializers, aliasees, resolvers and personalities."""
        lib = self.lib
        named: dict[int, set[int]] = {ref: set() for ref in self.by_ref}
        address: dict[int, set[int]] = {ref: set() for ref in self.by_ref}
        blocks: dict[int, set[int]] = {ref: set() for ref in self.by_ref}
        owner_of_block: dict[int, int] = {}

        def owner(instruction: int) -> int:
            block = lib.LLVMGetInstructionParent(instruction)
            found = owner_of_block.get(block)
            if found is None:
                found = owner_of_block[block] = lib.LLVMGetBasicBlockParent(block)
            return found

        for ref, e in self.by_ref.items():
            if e.kind in ("global", "alias", "ifunc"):
                root = (
                    lib.LLVMGetInitializer(ref) if e.kind == "global" else
                    lib.LLVMAliasGetAliasee(ref) if e.kind == "alias" else lib.LLVMGetGlobalIFuncResolver(ref)
                )
                if root:
                    inner, inner_blocks = self._constant(root)
                    named[ref].update(inner)
                    address[ref].update(inner)
                    blocks[ref].update(inner_blocks)
            elif e.kind == "function" and lib.LLVMHasPersonalityFn(ref):
                inner, inner_blocks = self._constant(lib.LLVMGetPersonalityFn(ref))
                named[ref].update(inner)
                address[ref].update(r for r in inner if r != ref)  # (its header names it: not a use)
                blocks[ref].update(inner_blocks)
            use = lib.LLVMGetFirstUse(ref)
            while use:
                user = lib.LLVMGetUser(use)
                kind = lib.LLVMGetValueKind(user)
                if kind == _INSTRUCTION:
                    function = owner(user)
                    named[function].add(ref)
                    called = lib.LLVMGetInstructionOpcode(user) in _CALLS and lib.LLVMGetOperandUse(
                        user, lib.LLVMGetNumOperands(user) - 1) == use
                    if not called:
                        address[function].add(ref)
                elif kind not in _GLOBALS and kind not in _LEAVES:
                    for instruction in self._instruction_users(user):
                        function = owner(instruction)
                        named[function].add(ref)
                        address[function].add(ref)
                        if kind == _BLOCK_ADDRESS:
                            blocks[function].add(ref)
                use = lib.LLVMGetNextUse(use)
        for ref, taken in self.block_addresses.items():
            for block_address in taken:
                for instruction in self._instruction_users(block_address):
                    function = owner(instruction)
                    named[function].add(ref)
                    address[function].add(ref)
                    blocks[function].add(ref)
        index = {ref: e.index for ref, e in self.by_ref.items()}
        for ref, e in self.by_ref.items():
            own = e.kind in ("function", "declaration")
            e.refs = [self.name_of(r) for r in sorted(named[ref], key=index.__getitem__) if not (own and r == ref)]
            # (a function naming its own address keeps it here, as the text does)
            e.address_refs = {self.name_of(r) for r in address[ref]} if e.kind == "function" else set(e.refs)
            e.blockaddress_of = {self.name_of(r) for r in blocks[ref]}


#: the key of an argument that is not a constant (an instruction, a parameter, a block
#: address, metadata): never "the same constant" as another site's
NOT_CONSTANT = ("not a constant",)
#: LLVMValueKind of values that are no constant: arguments, blocks, memory SSA, metadata,
#: inline asm, instructions
_NOT_CONSTANT_KINDS = frozenset({0, 1, 2, 3, 4, 22, 23, 24})


@dataclass
class FunctionCalls:
    """The direct call sites of one function: per calling function (module order), its call
    instructions; `keys()` gives each site's argument keys, `(constant, its call-site
    attributes)` or `NOT_CONSTANT`, read only when asked (most locals never are: all their
    sites sit in one subgraph). LLVM uniques constants and attributes per context, so two
    sites pass the same constant with the same attributes exactly when their keys are equal
    (what the printed argument texts `i32 noundef 1` compared). Valid while the module lives."""

    sites: dict[str, list[int]]

    def keys(self) -> dict[str, list[list[object]]]:
        """Each caller's sites as their argument keys."""
        lib = engine.capi()
        constant_ok: dict[int, bool] = {}
        buffer = (c_void_p * 64)()
        found: dict[str, list[list[object]]] = {}
        for caller, calls in self.sites.items():
            for call in calls:
                keys: list[object] = []
                for i in range(lib.LLVMGetNumArgOperands(call)):
                    value = lib.LLVMGetOperand(call, i)
                    if not _plain_constant(lib, value, constant_ok):
                        keys.append(NOT_CONSTANT)
                        continue
                    count = min(lib.LLVMGetCallSiteAttributeCount(call, i + 1), len(buffer))
                    if count:
                        lib.LLVMGetCallSiteAttributes(call, i + 1, buffer)
                    keys.append((value, tuple(sorted(buffer[j] or 0 for j in range(count)))))
                found.setdefault(caller, []).append(keys)
        return found


def call_sites(module: engine.Module, names: set[str]) -> dict[str, FunctionCalls]:
    """The direct calls of each function in `names` from the module's other functions (a
    function's calls of itself are left out, as the planner's text model leaves them),
    read from the functions' use lists."""
    lib = engine.capi()
    position = {ref: i for i, (_kind, ref) in enumerate(engine.global_value_refs(module.ref, "function"))}
    found: dict[str, FunctionCalls] = {}
    for name in sorted(names):
        function = lib.LLVMGetNamedFunction(module.ref, name.encode())
        if not function:
            continue
        sites: list[tuple[int, int, int]] = []
        use = lib.LLVMGetFirstUse(function)
        while use:
            user = lib.LLVMGetUser(use)
            use_here, use = use, lib.LLVMGetNextUse(use)
            if lib.LLVMGetValueKind(user) != _INSTRUCTION:
                continue
            caller = lib.LLVMGetBasicBlockParent(lib.LLVMGetInstructionParent(user))
            if caller == function:
                continue
            operands = lib.LLVMGetNumOperands(user)
            if lib.LLVMGetInstructionOpcode(user) not in _CALLS or lib.LLVMGetOperandUse(user, operands - 1) != use_here:
                continue  # its address, not a call of it
            sites.append((position[caller], caller, user))
        if not sites:
            continue
        calls = found[name] = FunctionCalls({})
        for _position, caller, call in sorted(sites, key=lambda site: site[0]):
            calls.sites.setdefault(engine.Value(caller).name, []).append(call)
    return found


def _plain_constant(lib: ctypes.CDLL, value: int, known: dict[int, bool], depth: int = 0) -> bool:
    """A constant whose printed form names no `%` value (a block address names its block)."""
    found = known.get(value)
    if found is None:
        kind = lib.LLVMGetValueKind(value)
        if kind in _NOT_CONSTANT_KINDS or kind == _BLOCK_ADDRESS or depth > 64:
            found = False
        elif kind in _GLOBALS or kind in _LEAVES:
            found = True
        else:
            found = all(
                _plain_constant(lib, lib.LLVMGetOperand(value, i), known, depth + 1) for i in range(lib.LLVMGetNumOperands(value))
            )
        known[value] = found
    return found


#: LLVMOpcode of the instructions a variable's accesses go through
_LOAD, _STORE, _GEP = 27, 28, 29
#: LLVMValueKind of a constant expression, and of the values a store may write without naming
#: anything (`store i32 0`, `store ptr @other`: one printed token that is no `%` value)
_CONSTANT_EXPR = 10
_PLAIN_STORED = frozenset({14, 15, 18, 19, 20, 21, 25, *_GLOBALS})
_SSA_KINDS = frozenset({0, _INSTRUCTION})


@dataclass
class VariableAccesses:
    """How a module's functions use its variables, from their use lists (the planner's text
    walk `planner.variable_uses` and `opaque_variables`, read in memory)."""

    #: an address that may escape: some use is not a load from it, a store to it, or a
    #: `getelementptr` of it (nested too) whose result is only used so in turn
    escaped: set[str]
    #: written by a store, or by a volatile load (which GlobalOpt does not fold through); an
    #: atomic access counts as an escape, as the text reading has it
    written: set[str]
    #: loaded directly (`load T, ptr @v`, plain), and stored a run-time value directly
    #: (`store T %x, ptr @v`, plain), and named any other way (`opaque_variables`' three sets)
    loaded: set[str]
    run_time_stored: set[str]
    other: set[str]


def variable_accesses(module: engine.Module, names: set[str]) -> VariableAccesses:
    """`VariableAccesses` of the named variables (names the module lacks are left out)."""
    lib = engine.capi()
    out = VariableAccesses(set(), set(), set(), set(), set())
    for name in sorted(names):
        variable = lib.LLVMGetNamedGlobal(module.ref, name.encode())
        if not variable:
            continue
        _direct_accesses(lib, variable, name, out)
        if not _derived_accesses(lib, variable, name, out, set(), 0):
            out.escaped.add(name)
    return out


def _direct_accesses(lib: ctypes.CDLL, variable: int, name: str, out: VariableAccesses) -> None:
    """`opaque_variables`' reading of one variable: plain loads of it, plain stores to it of a
    run-time value, and any other use."""
    use = lib.LLVMGetFirstUse(variable)
    while use:
        user = lib.LLVMGetUser(use)
        use = lib.LLVMGetNextUse(use)
        opcode = lib.LLVMGetInstructionOpcode(user) if lib.LLVMGetValueKind(user) == _INSTRUCTION else None
        plain = opcode in (_LOAD, _STORE) and not lib.LLVMGetVolatile(user) and not lib.LLVMGetOrdering(user)
        if plain and opcode == _LOAD:
            out.loaded.add(name)
            continue
        if plain and opcode == _STORE and lib.LLVMGetOperand(user, 1) == variable:
            stored = lib.LLVMGetOperand(user, 0)
            kind = lib.LLVMGetValueKind(stored)
            if kind in _SSA_KINDS:
                out.run_time_stored.add(name)
                continue
            if stored != variable and kind in _PLAIN_STORED:
                continue
        out.other.add(name)


def _derived_accesses(lib: ctypes.CDLL, pointer: int, name: str, out: VariableAccesses, seen: set[int], depth: int) -> bool:
    """Whether every use of `pointer` (the variable, or a `getelementptr` rooted in it) loads
    from it, stores to it or derives another such pointer; marks `name` written on the way."""
    use = lib.LLVMGetFirstUse(pointer)
    while use:
        user = lib.LLVMGetUser(use)
        use = lib.LLVMGetNextUse(use)
        kind = lib.LLVMGetValueKind(user)
        opcode = (
            lib.LLVMGetInstructionOpcode(user) if kind == _INSTRUCTION else
            lib.LLVMGetConstOpcode(user) if kind == _CONSTANT_EXPR else None
        )
        if opcode in (_LOAD, _STORE) and lib.LLVMGetOrdering(user):
            # an atomic access: the printed ordering follows the address (`ptr @v acquire`),
            # which the text reading took for an escape; kept so (the plans stay the same)
            return False
        if opcode == _LOAD:
            if lib.LLVMGetVolatile(user):
                out.written.add(name)
        elif opcode == _STORE and lib.LLVMGetOperand(user, 0) != pointer:
            out.written.add(name)
        elif opcode == _GEP and depth < 64:
            operands = [lib.LLVMGetOperand(user, i) for i in range(lib.LLVMGetNumOperands(user))]
            if pointer in operands[1:]:
                return False
            if user not in seen:
                seen.add(user)
                if not _derived_accesses(lib, user, name, out, seen, depth + 1):
                    return False
        else:
            return False
    return True


def stand_in_parameters(module: engine.Module, name: str) -> int | None:
    """How many parameters function `name` takes, when a stand-in caller can take them all
    (`planner.serial_argument_callers`): not varargs, none `swifterror`, `swiftasync`,
    `inalloca` or `preallocated` (a second caller cannot pass those on); else None."""
    lib = engine.capi()
    function = lib.LLVMGetNamedFunction(module.ref, name.encode())
    if not function or lib.LLVMIsFunctionVarArg(lib.LLVMGlobalGetValueType(function)):
        return None
    count = lib.LLVMCountParams(function)
    kinds = [lib.LLVMGetEnumAttributeKindForName(k, len(k)) for k in (b"swifterror", b"swiftasync", b"inalloca", b"preallocated")]
    if any(lib.LLVMGetEnumAttributeAtIndex(function, i + 1, kind) for i in range(count) for kind in kinds):
        return None
    return count


def metadata_refs(module: engine.Module) -> set[str]:
    """The global values metadata nodes name, directly (`!{ptr @g}`) or inside a constant
    expression: what `planner._metadata_refs` reads from the text's `!N = ...` lines. A walk
    from the roots (named metadata, global and instruction attachments), done only when some
    value has a metadata wrapper (`ValueAsMetadata::getIfExists`): most modules have none. The
    wrapper alone is not enough: debug records and `metadata ptr @g` arguments make one too,
    and a stripped record leaves it behind."""
    lib = engine.capi()
    wrapped = _CXX.load(lib).value_as_metadata
    values = [ref for _kind, ref in engine.global_value_refs(module.ref)]
    candidates = {ref for ref in values if wrapped(ref) or _named_in_expression(lib, wrapped, ref, 0)}
    if not candidates:
        return set()
    walk = _MetadataWalk(lib, module)
    walk.roots(values)
    # named only from an instruction's attachment (`!callees` at an indirect call, in Rust's
    # std), or by no node at all: the calls first, every instruction only if that is not all
    if candidates - walk.found:
        walk.instruction_attachments(_CALLS)
    if candidates - walk.found:
        walk.instruction_attachments()
    return {engine.Value(ref).name for ref in walk.found}


class _MetadataWalk:
    """The global values reachable through metadata nodes from some roots (each node once)."""

    def __init__(self, lib: ctypes.CDLL, module: engine.Module) -> None:
        self.lib, self.module = lib, module.ref
        self.context = lib.LLVMGetModuleContext(module.ref)
        self.seen: set[int] = set()
        self.found: set[int] = set()

    def roots(self, values: list[int]) -> None:
        """Named metadata and the attachments of global values."""
        for name in engine.named_md_names(self.module):
            for operand in engine.named_md_operands(self.module, name):
                self.value(operand)
        for ref in values:
            self.attachments(self.lib.LLVMGlobalCopyAllMetadata, ref)

    def instruction_attachments(self, opcodes: frozenset[int] | None = None) -> None:
        """The attachments of every instruction with metadata (of `opcodes` only, if given)."""
        lib = self.lib
        opcode_of, has_metadata, following = lib.LLVMGetInstructionOpcode, lib.LLVMHasMetadata, lib.LLVMGetNextInstruction
        for _kind, function in engine.global_value_refs(self.module, "function"):
            block = lib.LLVMGetFirstBasicBlock(function)
            while block:
                instruction = lib.LLVMGetFirstInstruction(block)
                while instruction:
                    if (opcodes is None or opcode_of(instruction) in opcodes) and has_metadata(instruction):
                        self.attachments(lib.LLVMInstructionGetAllMetadataOtherThanDebugLoc, instruction)
                    instruction = following(instruction)
                block = lib.LLVMGetNextBasicBlock(block)

    def attachments(self, copy: Any, value: int) -> None:
        for _kind, node in engine.md_attachments(self.context, copy, value):
            self.value(node)

    def value(self, value: int, depth: int = 0) -> None:
        """A node's operand: a node (walked), a global value or a constant naming some."""
        if not value or value in self.seen or depth > 256:
            return
        self.seen.add(value)
        lib = self.lib
        if lib.LLVMIsAMDNode(value):
            for operand in engine.md_operands(value):
                self.value(operand, depth + 1)
            return
        kind = lib.LLVMGetValueKind(value)
        if kind in _GLOBALS:
            self.found.add(value)
        elif kind not in _LEAVES:
            for i in range(lib.LLVMGetNumOperands(value)):
                self.value(lib.LLVMGetOperand(value, i), depth + 1)

def _named_in_expression(lib: ctypes.CDLL, wrapped: Any, value: int, depth: int) -> bool:
    """Whether metadata names a constant expression using `value` (through expressions)."""
    use = lib.LLVMGetFirstUse(value)
    while use:
        user = lib.LLVMGetUser(use)
        use = lib.LLVMGetNextUse(use)
        expression = lib.LLVMGetValueKind(user) == _CONSTANT_EXPR and depth < 64
        if expression and (wrapped(user) or _named_in_expression(lib, wrapped, user, depth + 1)):
            return True
    return False
