"""A subgraph cut from the whole module in memory: the only form a piece of a split plan has.

The driver writes the whole (canonicalised) module's bitcode once; a worker loads it lazily,
deletes the bodies its subgraph does not keep before they are ever read, materialises the
rest, and applies the plan's linkages, names and stand-ins (`CutSpec`, made by
`planner.cut_spec`). A piece's text, where one is asked for, is its cut printed. Checked
against the plan's decisions piece by piece (tests/test_cut.py); until the planner's text
pieces were deleted it was checked against them too (docs/backend.md, "How the text path goes").

The C API cannot delete a function body, materialise a lazily loaded module or erase an
alias; `libLLVM.so` exports the C++ methods that do, called here by their mangled names
(`_CXX`). They are ABI, not API: `tests/test_cut.py` fails when the wheel's LLVM drops them.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterable
from ctypes import byref, c_void_p
from dataclasses import dataclass

from compiler.backend import cutdebug, engine, inferred

#: LLVMLinkage / LLVMVisibility values the cut sets
_EXTERNAL, _APPENDING, _HIDDEN = 0, 7, 1
_LOCAL = frozenset({engine.INTERNAL, engine.PRIVATE})
#: LLVMAttributeFunctionIndex
_FUNCTION_INDEX = 0xFFFFFFFF

#: how a kept definition appears in the piece
AS_IS = "as is"
#: a local another subgraph uses: `external hidden` while compiling, local again in the link
EXPORT = "export"
#: a definition owned elsewhere, for the inliner: `available_externally` (hidden when local)
IMPORT = "import"
#: a constant owned elsewhere, for folding loads: `available_externally` (hidden when local)
FOLD = "fold"


@dataclass(frozen=True)
class Keeper:
    """`function`, hidden, stands in for other subgraphs' accesses to `variable` (local in this
    piece): `void (i64 %at, i8 %value, ptr %out)` loads and stores a byte of it at an unknown
    offset, volatile, so no pass folds, narrows or deletes the variable while its address
    still never escapes (`planner.variable_keepers` says why)."""

    function: str
    variable: str


@dataclass(frozen=True)
class ArgumentCaller:
    """`function`, `linkonce_odr hidden`, calls `callee` once as the whole module's call sites
    do: where `constant[i]`, with the argument (and its attributes) of `model`'s first call of
    `callee` (every site of the module passes that constant), else with a parameter of its
    own carrying the callee's parameter attributes (`planner.serial_argument_callers`)."""

    function: str
    callee: str
    model: str
    constant: tuple[bool, ...]


@dataclass(frozen=True)
class CutSpec:
    """One piece of the whole module: the definitions it keeps and how, by name."""

    #: kept definition -> (AS_IS | EXPORT | IMPORT | FOLD, its name in the piece or "")
    keep: dict[str, tuple[str, str]]
    #: functions the serial pipeline infers `cold` for, seen here as declarations or imports
    cold: frozenset[str] = frozenset()
    #: variables GlobalOpt makes constant unsplit (`planner._mark_constant`), wherever present
    constants: frozenset[str] = frozenset()
    #: declarations kept although nothing here uses them (metadata names them)
    declared: frozenset[str] = frozenset()
    #: the module's asm goes with this piece
    asm: bool = False
    #: stand-in functions built in the piece (`planner.variable_keepers`,
    #: `planner.serial_argument_callers`); the worker deletes them after optimisation
    keepers: tuple[Keeper, ...] = ()
    callers: tuple[ArgumentCaller, ...] = ()
    #: what FunctionAttrs infers from the whole module's bodies of the functions seen here as
    #: declarations or imports (compiler/backend/inferred.py)
    inferred: tuple[tuple[str, tuple[tuple[int, str, int], ...]], ...] = ()
    #: declarations named otherwise in the piece: (module name, piece name) (a local whose
    #: owner keeps it, named here by its exported clone's name: `planner.clone_exported_last_calls`)
    renamed: tuple[tuple[str, str], ...] = ()


class _CXX:
    """The C++ methods of `libLLVM.so` the C API lacks (declared once)."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        vp = c_void_p
        self.delete_body = lib._ZN4llvm8Function14deleteBodyImplEb  # Function::deleteBody() = (false)
        self.delete_body.restype, self.delete_body.argtypes = None, [vp, ctypes.c_bool]
        self.remove_dead_constant_users = lib._ZNK4llvm8Constant23removeDeadConstantUsersEv
        self.remove_dead_constant_users.restype, self.remove_dead_constant_users.argtypes = None, [vp]
        # llvm::Error Module::materializeAll(): the Error comes back through a hidden pointer
        self.materialize_all = lib._ZN4llvm6Module14materializeAllEv
        self.materialize_all.restype, self.materialize_all.argtypes = None, [vp, vp]
        self.erase_alias = lib._ZN4llvm11GlobalAlias15eraseFromParentEv
        self.erase_alias.restype, self.erase_alias.argtypes = None, [vp]


_cxx: _CXX | None = None


def _api() -> tuple[ctypes.CDLL, _CXX]:
    global _cxx
    lib = engine.capi()
    if _cxx is None:
        _cxx = _CXX(lib)
    return lib, _cxx


def cut(bitcode: bytes, spec: CutSpec, name: str = "<piece>", module_asm: str = "") -> engine.Module:
    """The piece `spec` describes, cut from the whole module's `bitcode` (read lazily: only
    the kept bodies are parsed). The module's asm travels apart (`module_asm`): writing
    bitcode parses it for the symbol table, and a bad line there would end the driver before
    the split's asm check could name it."""
    lib, cxx = _api()
    module = engine.Module.lazy(bitcode, name)
    m = module.ref
    try:
        _cut_definitions(lib, cxx, m, spec)
        _declare_aliases(lib, cxx, m, spec)
        module.set_module_asm(module_asm if spec.asm else "")
        error = ctypes.c_void_p()
        cxx.materialize_all(byref(error), m)
        if (error.value or 0) & ~1:  # the low bit is the "not checked yet" flag of an assertions build
            raise engine.EngineError(f"{name}: cannot read the module's bodies")
        _apply_flags(lib, m, spec)
        if spec.keepers or spec.callers:
            _build_stand_ins(lib, m, spec)
        _prune(lib, cxx, m, spec)
        cutdebug.restrict_units(module)  # -g: the units it reaches, each variable described once
    except BaseException:
        module.close()
        raise
    return module


def _by_name(lib: ctypes.CDLL, m: int, names: Iterable[str]) -> dict[int, str]:
    """The functions and variables called `names`, by reference, found through the module's
    symbol table (a hash lookup each: reading every value's name costs a ctypes call per
    value, 11,000 a cut on SQLite); a name that is an alias, an ifunc or nothing is left out
    (those are handled by name)."""
    found: dict[int, str] = {}
    for name in names:
        raw = name.encode("utf-8", "surrogateescape")
        ref = None if b"\0" in raw else lib.LLVMGetNamedFunction(m, raw) or lib.LLVMGetNamedGlobal(m, raw)
        if ref:
            found[ref] = name
    return found


def _cut_definitions(lib: ctypes.CDLL, cxx: _CXX, m: int, spec: CutSpec) -> None:
    """Bodies and initialisers the piece does not keep go (a local becomes a hidden
    declaration); kept ones get the plan's linkage and name."""
    kept: list[tuple[int, str, str]] = []
    # the kept functions and variables by reference (aliases and ifuncs, few, by name below)
    by_ref = _by_name(lib, m, spec.keep)
    for f in [f for _kind, f in engine.global_value_refs(m, "function")]:
        if lib.LLVMIsDeclaration(f):  # a body not read yet is no declaration (isMaterializable)
            continue
        how = spec.keep.get(by_ref.get(f, ""))
        if how is None:
            local = lib.LLVMGetLinkage(f) in _LOCAL
            lib.LLVMSetComdat(f, None)
            cxx.delete_body(f, False)
            lib.LLVMSetLinkage(f, _EXTERNAL)
            if local:
                lib.LLVMSetVisibility(f, _HIDDEN)
        else:
            kept.append((f, *how))
    for g in [g for _kind, g in engine.global_value_refs(m, "variable")]:
        if lib.LLVMIsDeclaration(g):
            continue
        how = spec.keep.get(by_ref.get(g, ""))
        if how is not None:
            kept.append((g, *how))
            continue
        linkage = lib.LLVMGetLinkage(g)
        if linkage == _APPENDING:  # `llvm.used`, constructors: only their owner has them
            lib.LLVMDeleteGlobal(g)
            continue
        lib.LLVMSetComdat(g, None)
        lib.LLVMSetInitializer(g, None)
        lib.LLVMSetLinkage(g, _EXTERNAL)
        lib.LLVMGlobalClearMetadata(g)  # a declaration's `!dbg` names a location it does not have
        if linkage in _LOCAL:
            lib.LLVMSetVisibility(g, _HIDDEN)
    # a kept alias or ifunc takes the plan's linkage and name too (an internal ifunc the other
    # subgraphs call is exported: GlobalOpt resolves a static one and deletes it here)
    for _kind, value in engine.global_value_refs(m, "alias", "ifunc"):
        how = spec.keep.get(engine.Value(value).name)
        if how is not None and how[0] not in (IMPORT, FOLD):  # (never available_externally)
            kept.append((value, *how))
    for value, shown, new_name in kept:
        local = lib.LLVMGetLinkage(value) in _LOCAL
        if shown == EXPORT:
            lib.LLVMSetLinkage(value, _EXTERNAL)
            lib.LLVMSetVisibility(value, _HIDDEN)
        elif shown in (IMPORT, FOLD):
            lib.LLVMSetComdat(value, None)
            lib.LLVMSetLinkage(value, engine.AVAILABLE_EXTERNALLY)
            if local:
                lib.LLVMSetVisibility(value, _HIDDEN)
        if new_name:
            engine.Value(value).rename(new_name)
    renamed = dict(spec.renamed)
    for value, name in _by_name(lib, m, renamed).items():
        engine.Value(value).rename(renamed[name])


def _declare_aliases(lib: ctypes.CDLL, cxx: _CXX, m: int, spec: CutSpec) -> None:
    """An alias or ifunc the piece does not keep becomes a declaration of its value type
    (an alias of a body that is gone would not verify)."""
    for kind, value in list(engine.global_value_refs(m, "alias", "ifunc")):
        is_alias = kind == "alias"
        name = engine.Value(value).name
        if name in spec.keep:
            continue
        local = lib.LLVMGetLinkage(value) in _LOCAL
        visibility = _HIDDEN if local else lib.LLVMGetVisibility(value)
        value_type = lib.LLVMGlobalGetValueType(value)
        if lib.LLVMGetTypeKind(value_type) == _FUNCTION_TYPE_KIND:
            declared = lib.LLVMAddFunction(m, b"", value_type)
        else:
            space = lib.LLVMGetPointerAddressSpace(lib.LLVMTypeOf(value))
            declared = lib.LLVMAddGlobalInAddressSpace(m, value_type, b"", space)
            base = engine.aliased_variable(value) if is_alias else None
            mode = lib.LLVMGetThreadLocalMode(base) if base else 0
            if mode:  # an alias of a thread-local is thread-local itself
                lib.LLVMSetThreadLocalMode(declared, mode)
        lib.LLVMReplaceAllUsesWith(value, declared)
        if is_alias:
            cxx.erase_alias(value)
        else:
            lib.LLVMEraseGlobalIFunc(value)
        engine.Value(declared).rename(name)
        lib.LLVMSetVisibility(declared, visibility)


#: LLVMTypeKind of a function type
_FUNCTION_TYPE_KIND = 9


def _apply_flags(lib: ctypes.CDLL, m: int, spec: CutSpec) -> None:
    """`constant` on the variables GlobalOpt makes constant unsplit; what FunctionAttrs infers,
    and `cold` where the serial pipeline infers it, on the declarations and imports."""
    for name in spec.constants:
        g = lib.LLVMGetNamedGlobal(m, name.encode())
        if g:
            lib.LLVMSetGlobalConstant(g, 1)
    if spec.inferred:
        inferred.apply(lib, m, dict(spec.inferred))
    if spec.cold:
        ctx = lib.LLVMGetModuleContext(m)
        kind = lib.LLVMGetEnumAttributeKindForName(b"cold", 4)
        for name in spec.cold:
            f = lib.LLVMGetNamedFunction(m, name.encode())
            if f and (lib.LLVMIsDeclaration(f) or lib.LLVMGetLinkage(f) == engine.AVAILABLE_EXTERNALLY):
                lib.LLVMAddAttributeAtIndex(f, _FUNCTION_INDEX, lib.LLVMCreateEnumAttribute(ctx, kind, 0))


def _build_stand_ins(lib: ctypes.CDLL, m: int, spec: CutSpec) -> None:
    """The plan's stand-in functions, built in the piece with the IR builder, in the plan's
    order (keepers, then callers), after the piece's own functions."""
    ctx = lib.LLVMGetModuleContext(m)
    builder = lib.LLVMCreateBuilderInContext(ctx)
    try:
        for keeper in spec.keepers:
            _build_keeper(lib, m, ctx, builder, keeper)
        for caller in spec.callers:
            _build_caller(lib, m, ctx, builder, caller)
    finally:
        lib.LLVMDisposeBuilder(builder)


def _build_keeper(lib: ctypes.CDLL, m: int, ctx: int, builder: int, keeper: Keeper) -> None:
    """`planner.variable_keepers`' function: a volatile byte load and store at `%at`."""
    variable = lib.LLVMGetNamedGlobal(m, keeper.variable.encode())
    if not variable:
        raise engine.EngineError(f"stand-in {keeper.function}: the piece has no variable {keeper.variable}")
    i8, i64 = lib.LLVMInt8TypeInContext(ctx), lib.LLVMInt64TypeInContext(ctx)
    params = (c_void_p * 3)(i64, i8, lib.LLVMPointerTypeInContext(ctx, 0))
    function = lib.LLVMAddFunction(m, keeper.function.encode(), lib.LLVMFunctionType(lib.LLVMVoidTypeInContext(ctx), params, 3, 0))
    lib.LLVMSetVisibility(function, _HIDDEN)
    at, value, out = (_named(lib, lib.LLVMGetParam(function, i), n) for i, n in enumerate(("at", "value", "out")))
    lib.LLVMPositionBuilderAtEnd(builder, lib.LLVMAppendBasicBlockInContext(ctx, function, b""))
    address = lib.LLVMBuildGEP2(builder, i8, variable, (c_void_p * 1)(at), 1, b"p")
    old = lib.LLVMBuildLoad2(builder, i8, address, b"old")
    lib.LLVMSetVolatile(old, 1)
    lib.LLVMSetAlignment(old, 1)
    lib.LLVMSetAlignment(lib.LLVMBuildStore(builder, old, out), 1)
    store = lib.LLVMBuildStore(builder, value, address)
    lib.LLVMSetVolatile(store, 1)
    lib.LLVMSetAlignment(store, 1)
    lib.LLVMBuildRetVoid(builder)


def _build_caller(lib: ctypes.CDLL, m: int, ctx: int, builder: int, caller: ArgumentCaller) -> None:
    """`planner.serial_argument_callers`' function, modelled on a call site of this piece."""
    callee = lib.LLVMGetNamedFunction(m, caller.callee.encode())
    site = _first_call(lib, lib.LLVMGetNamedFunction(m, caller.model.encode()), callee) if callee else None
    if site is None:
        raise engine.EngineError(f"stand-in {caller.function}: no call of {caller.callee} in {caller.model}")
    callee_type = lib.LLVMGlobalGetValueType(callee)
    count = lib.LLVMCountParamTypes(callee_type)
    if count != len(caller.constant):
        raise engine.EngineError(f"stand-in {caller.function}: {caller.callee} takes {count} arguments, not {len(caller.constant)}")
    types = (c_void_p * max(count, 1))()
    lib.LLVMGetParamTypes(callee_type, types)
    # the stand-in takes the callee's parameters, attributes too (`returned` aside: only
    # valid where a value is returned), and passes them where no constant is agreed
    function = lib.LLVMAddFunction(m, caller.function.encode(), lib.LLVMFunctionType(lib.LLVMVoidTypeInContext(ctx), types, count, 0))
    lib.LLVMSetLinkage(function, engine.LINKONCE_ODR)
    lib.LLVMSetVisibility(function, _HIDDEN)
    returned = lib.LLVMGetEnumAttributeKindForName(b"returned", 8)
    parameter_attributes = [
        [a for a in _attributes(lib, callee, i + 1) if not (lib.LLVMIsEnumAttribute(a) and lib.LLVMGetEnumAttributeKind(a) == returned)]
        for i in range(count)
    ]
    args = []
    for i, constant in enumerate(caller.constant):
        param = _named(lib, lib.LLVMGetParam(function, i), engine.Value(lib.LLVMGetParam(callee, i)).name)
        for attribute in parameter_attributes[i]:
            lib.LLVMAddAttributeAtIndex(function, i + 1, attribute)
        args.append(lib.LLVMGetOperand(site, i) if constant else param)
    lib.LLVMPositionBuilderAtEnd(builder, lib.LLVMAppendBasicBlockInContext(ctx, function, b""))
    call = lib.LLVMBuildCall2(builder, callee_type, callee, (c_void_p * max(count, 1))(*args), count, b"")
    lib.LLVMSetInstructionCallConv(call, lib.LLVMGetInstructionCallConv(site))
    if lib.LLVMCanValueUseFastMathFlags(site):
        lib.LLVMSetFastMathFlags(call, lib.LLVMGetFastMathFlags(site))
    for attribute in _call_site_attributes(lib, site, 0):  # the return value's
        lib.LLVMAddCallSiteAttribute(call, 0, attribute)
    for i, constant in enumerate(caller.constant):
        # a constant passes with the site's attributes, a parameter with the callee's
        for attribute in _call_site_attributes(lib, site, i + 1) if constant else parameter_attributes[i]:
            lib.LLVMAddCallSiteAttribute(call, i + 1, attribute)
    lib.LLVMBuildRetVoid(builder)


def _named(lib: ctypes.CDLL, value: int, name: str) -> int:
    raw = name.encode()
    lib.LLVMSetValueName2(value, raw, len(raw))
    return value


def _first_call(lib: ctypes.CDLL, function: int, callee: int) -> int | None:
    """The first call or invoke of `callee` in `function`'s body (block order), or None."""
    block = lib.LLVMGetFirstBasicBlock(function) if function else None
    while block:
        instruction = lib.LLVMGetFirstInstruction(block)
        while instruction:
            if lib.LLVMGetInstructionOpcode(instruction) in engine.CALL_OPCODES and lib.LLVMGetCalledValue(instruction) == callee:
                return int(instruction)
            instruction = lib.LLVMGetNextInstruction(instruction)
        block = lib.LLVMGetNextBasicBlock(block)
    return None


def _attributes(lib: ctypes.CDLL, function: int, index: int) -> list[int]:
    """The attributes of `function` at `index` (0 the return value, i + 1 parameter i)."""
    return _attribute_list(lib.LLVMGetAttributeCountAtIndex, lib.LLVMGetAttributesAtIndex, function, index)


def _call_site_attributes(lib: ctypes.CDLL, call: int, index: int) -> list[int]:
    """The attributes of a call site at `index` (0 the return value, i + 1 argument i)."""
    return _attribute_list(lib.LLVMGetCallSiteAttributeCount, lib.LLVMGetCallSiteAttributes, call, index)


def _attribute_list(count_at: Callable[..., int], read_at: Callable[..., None], value: int, index: int) -> list[int]:
    count = count_at(value, index)
    found = (c_void_p * max(count, 1))()
    if count:
        read_at(value, index, found)
    return [int(found[i] or 0) for i in range(count)]


def _erase(lib: ctypes.CDLL, value: int) -> None:
    if lib.LLVMIsAFunction(value):
        lib.LLVMDeleteFunction(value)
    else:
        lib.LLVMDeleteGlobal(value)


def _prune(lib: ctypes.CDLL, cxx: _CXX, m: int, spec: CutSpec) -> None:
    """Erase the declarations nothing here uses (the constant expressions only deleted bodies
    used are dropped first, as GlobalDCE does), except those metadata names."""
    declared = _by_name(lib, m, spec.declared)
    for _kind, value in list(engine.global_value_refs(m, "function", "variable")):
            if not lib.LLVMIsDeclaration(value):
                continue
            cxx.remove_dead_constant_users(value)
            if not lib.LLVMGetFirstUse(value) and value not in declared:
                _erase(lib, value)
