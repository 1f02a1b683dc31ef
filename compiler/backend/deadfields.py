"""Unread and never-written fields of local pointer tables, settled in memory before the split
(a whole-module fact).

Unsplit, GlobalOpt splits an internal struct of pointers (cJSON's `global_hooks = { malloc,
free, realloc }`) into one global per field: a field nothing writes becomes a constant and its
loads fold, and a field nobody reads goes, with the undefined symbols its initialiser named.
IPSCCP first substitutes the table for an internal callee's parameter when every call passes
it. Split, a table used from two subgraphs is exported while compiling, so no subgraph sees
all its uses and the object keeps `UND realloc`. Only the whole module can tell, so before the
split this pass walks the table's uses through LLVM's C API (`engine.capi`), with byte
offsets (a struct `getelementptr`, the i8 form InstCombine writes since LLVM 20, a chain of
them), and does what the serial optimiser will: loads of never-written fields become the
value they always hold, and unread fields become `ptr null`. Nothing reads the dropped values,
so behaviour is unchanged.

A table qualifies when it is a local, non-constant, non-thread-local variable of at most
`MAX_FIELDS` pointer fields, and every use in the module (followed through constant-index
`getelementptr`s) is a plain `ptr` load or store at a field's offset, or an argument of a
direct call to a defined internal function whose parameter is unused (dead-argument
elimination removes it) or is passed the same table at the same offset by every call (then
the parameter's uses are the table's). Any other use (stored as a value, returned, compared,
a variable index, an initialiser or alias naming it, a volatile or atomic access, a wider load)
may read any field, and the table is left alone.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field

from compiler.backend import engine

#: GlobalOpt splits structs of at most this many fields into one global per field
MAX_FIELDS = 16
#: LLVMTypeKind / LLVMValueKind / LLVMOpcode values read here
_STRUCT, _ARRAY, _POINTER = 10, 11, 12
_CONSTANT_EXPR, _INSTRUCTION, _FUNCTION = 10, 24, 5
_CALL, _LOAD, _STORE, _GEP = 45, 27, 28, 29


@dataclass
class _Uses:
    """How the module uses one table: the fields stored to, each load (instruction, field), and
    the parameters found to stand for the table (parameter -> byte offset)."""

    #: (store, field)
    stores: list[tuple[int, int]] = field(default_factory=list)
    #: (load, field, whether it reads the table itself: through constant `getelementptr`s only)
    loads: list[tuple[int, int, bool]] = field(default_factory=list)
    params: dict[int, int] = field(default_factory=dict)
    #: stack slots that only ever hold the table's pointer (an unoptimised module spills every
    #: parameter to one): slot -> byte offset
    slots: dict[int, int] = field(default_factory=dict)
    #: (callee, argument position, offset): every call of the callee must pass the table there
    calls: list[tuple[int, int, int]] = field(default_factory=list)


class _Escapes(Exception):
    """A use that may read or write any field: the table is left alone."""


class _Table:
    """One candidate table of a live module and the walk over its uses."""

    def __init__(self, lib: ctypes.CDLL, layout: int, variable: int, struct: int) -> None:
        self.lib, self.layout, self.variable, self.struct = lib, layout, variable, struct
        count = lib.LLVMCountStructElementTypes(struct)
        self.offsets = {int(lib.LLVMOffsetOfElement(layout, struct, k)): k for k in range(count)}
        self.field_types = [lib.LLVMStructGetTypeAtIndex(struct, k) for k in range(count)]
        self.uses = _Uses()
        #: pointers still to follow (a worklist, not recursion: a table passed down hundreds of
        #: functions, or a long chain of `getelementptr`s, is legal IR)
        self.todo: list[tuple[int, int, bool]] = []

    def walk(self) -> _Uses:
        self._visit(self.variable, 0)
        while self.todo:
            pointer, offset, direct = self.todo.pop()
            use = self.lib.LLVMGetFirstUse(pointer)
            while use:
                self._use(self.lib.LLVMGetUser(use), pointer, offset, direct)
                use = self.lib.LLVMGetNextUse(use)
        # checked once every parameter and slot standing for the table is known: a recursive
        # callee passes its own parameter on
        for callee, position, offset in self.uses.calls:
            self._every_call_passes(callee, position, offset)
        return self.uses

    def _visit(self, pointer: int, offset: int, direct: bool = True) -> None:
        """Follow every use of `pointer`, which points `offset` bytes into the table (`direct`:
        the table itself or a constant `getelementptr` of it, not a parameter or a slot)."""
        self.todo.append((pointer, offset, direct))

    def _use(self, user: int, pointer: int, offset: int, direct: bool) -> None:
        lib = self.lib
        kind = lib.LLVMGetValueKind(user)
        opcode = _opcode(lib, user, kind)
        if opcode == _GEP:
            if lib.LLVMGetOperand(user, 0) != pointer:
                raise _Escapes
            self._visit(user, offset + self._gep_offset(user), direct)
        elif kind != _INSTRUCTION:
            raise _Escapes  # an initialiser, an alias, another constant expression
        elif opcode == _LOAD:
            self.uses.loads.append((user, self._field(user, offset), direct))
        elif opcode == _STORE:
            value, target = lib.LLVMGetOperand(user, 0), lib.LLVMGetOperand(user, 1)
            if value == pointer:
                if target == pointer or lib.LLVMGetVolatile(user) or lib.LLVMGetOrdering(user):
                    raise _Escapes
                self._slot(target, pointer, offset)  # the table's address kept on the stack
            else:
                k = self._field(user, offset, value)
                self.uses.stores.append((user, k))
        elif opcode == _CALL:
            self._call(user, pointer, offset)
        else:
            raise _Escapes

    def _slot(self, slot: int, pointer: int, offset: int) -> None:
        """`pointer` stored in `slot`: when the slot is a stack variable that holds nothing else and
        is only loaded (lifetime markers aside), its loads are the pointer too (what SROA makes
        of an unoptimised function's parameter spill); anything else lets the address escape."""
        lib = self.lib
        if not lib.LLVMIsAAllocaInst(slot) or _optnone(lib, lib.LLVMGetBasicBlockParent(lib.LLVMGetInstructionParent(slot))):
            raise _Escapes  # an `optnone` function's slot stays a slot serially
        if slot in self.uses.slots:
            if self.uses.slots[slot] != offset:
                raise _Escapes
            return
        self.uses.slots[slot] = offset
        loads = []
        use = lib.LLVMGetFirstUse(slot)
        while use:
            user = lib.LLVMGetUser(use)
            opcode = _opcode(lib, user, lib.LLVMGetValueKind(user))
            if opcode == _LOAD:
                if lib.LLVMGetVolatile(user) or lib.LLVMGetOrdering(user) or lib.LLVMTypeOf(user) != lib.LLVMTypeOf(pointer):
                    raise _Escapes
                loads.append(user)
            elif opcode == _STORE:
                if lib.LLVMGetOperand(user, 0) != pointer or lib.LLVMGetOperand(user, 1) != slot:
                    raise _Escapes  # the slot holds something else too, or its address is stored
            elif opcode != _CALL or not engine.Value(lib.LLVMGetCalledValue(user)).name.startswith("llvm.lifetime."):
                raise _Escapes
            use = lib.LLVMGetNextUse(use)
        for load in loads:
            self._visit(load, offset, direct=False)

    def _field(self, access: int, offset: int, stored: int | None = None) -> int:
        """The field a plain pointer-sized load or store at `offset` reaches."""
        lib = self.lib
        value = stored if stored is not None else access
        if lib.LLVMGetVolatile(access) or lib.LLVMGetOrdering(access) or offset not in self.offsets:
            raise _Escapes
        k = self.offsets[offset]
        if lib.LLVMTypeOf(value) != self.field_types[k]:
            raise _Escapes  # another type: an `i64`, a pointer of another address space
        return k

    def _gep_offset(self, gep: int) -> int:
        """The constant byte offset a `getelementptr` adds (raises for a variable index)."""
        lib = self.lib
        ty = lib.LLVMGetGEPSourceElementType(gep)
        total = 0
        for position in range(1, lib.LLVMGetNumOperands(gep)):
            index = lib.LLVMGetOperand(gep, position)
            if not lib.LLVMIsAConstantInt(index):
                raise _Escapes
            k = int(lib.LLVMConstIntGetSExtValue(index))
            if position == 1:
                total += k * int(lib.LLVMABISizeOfType(self.layout, ty))
            elif lib.LLVMGetTypeKind(ty) == _STRUCT:
                total += int(lib.LLVMOffsetOfElement(self.layout, ty, k))
                ty = lib.LLVMStructGetTypeAtIndex(ty, k)
            elif lib.LLVMGetTypeKind(ty) == _ARRAY:
                ty = lib.LLVMGetElementType(ty)
                total += k * int(lib.LLVMABISizeOfType(self.layout, ty))
            else:
                raise _Escapes  # a vector index
        return total

    def _call(self, call: int, pointer: int, offset: int) -> None:
        """The table as an argument: an unused parameter of a defined internal function, or one
        every call of that function passes the table at this offset (IPSCCP's substitution)."""
        lib = self.lib
        callee = lib.LLVMGetCalledValue(call)
        if callee == pointer or not _is_internal_definition(lib, callee):
            raise _Escapes
        if lib.LLVMGetCalledFunctionType(call) != lib.LLVMGlobalGetValueType(callee):
            raise _Escapes
        arguments = lib.LLVMGetNumArgOperands(call)
        for position in range(arguments):
            if lib.LLVMGetOperand(call, position) != pointer:
                continue
            if _passes_a_copy(lib, call, callee, position):
                raise _Escapes  # the callee gets a copy of the table (every field read)
            param = lib.LLVMGetParam(callee, position)
            if not lib.LLVMGetFirstUse(param):
                continue  # dead-argument elimination removes it unsplit
            if _optnone(lib, callee):
                raise _Escapes  # IPSCCP leaves an `optnone` function's parameters alone
            if param in self.uses.params:
                if self.uses.params[param] != offset:
                    raise _Escapes
                continue
            self.uses.params[param] = offset
            self.uses.calls.append((callee, position, offset))
            self._visit(param, offset, direct=False)
        for position in range(arguments, lib.LLVMGetNumOperands(call) - 1):
            if lib.LLVMGetOperand(call, position) == pointer:
                raise _Escapes  # an operand bundle

    def _every_call_passes(self, callee: int, position: int, offset: int) -> None:
        """Raise unless every use of `callee` is a direct call passing the table at `offset`."""
        lib = self.lib
        use = lib.LLVMGetFirstUse(callee)
        while use:
            call = lib.LLVMGetUser(use)
            if (
                lib.LLVMGetValueKind(call) != _INSTRUCTION
                or lib.LLVMGetInstructionOpcode(call) != _CALL
                or lib.LLVMGetCalledValue(call) != callee
                or any(lib.LLVMGetOperand(call, i) == callee for i in range(lib.LLVMGetNumOperands(call) - 1))
                or position >= lib.LLVMGetNumArgOperands(call)
                or self._origin(lib.LLVMGetOperand(call, position)) != offset
            ):
                raise _Escapes
            use = lib.LLVMGetNextUse(use)

    def _origin(self, value: int) -> int | None:
        """The offset into the table `value` points at, when it is the table, a constant-index
        `getelementptr` of it, or a parameter standing for it; None otherwise."""
        lib = self.lib
        steps = 0
        total = 0
        while steps < 64:
            steps += 1
            if value == self.variable:
                return total
            if value in self.uses.params:
                return total + self.uses.params[value]
            opcode = _opcode(lib, value, lib.LLVMGetValueKind(value))
            if opcode == _LOAD and lib.LLVMGetOperand(value, 0) in self.uses.slots:
                return total + self.uses.slots[lib.LLVMGetOperand(value, 0)]
            if opcode != _GEP:
                return None
            try:
                total += self._gep_offset(value)
            except _Escapes:
                return None
            value = lib.LLVMGetOperand(value, 0)
        return None


def _optnone(lib: ctypes.CDLL, function: int) -> bool:
    """Whether `function` is `optnone` (the serial pipeline leaves its body as it is)."""
    kind = lib.LLVMGetEnumAttributeKindForName(b"optnone", len(b"optnone"))
    return bool(lib.LLVMGetEnumAttributeAtIndex(function, _FUNCTION_INDEX, kind))


#: LLVMAttributeFunctionIndex
_FUNCTION_INDEX = 0xFFFFFFFF
#: parameter attributes that make a call pass a copy of the memory, not the pointer
_COPYING_ATTRIBUTES = (b"byval", b"byref", b"inalloca", b"preallocated")


def _passes_a_copy(lib: ctypes.CDLL, call: int, callee: int, position: int) -> bool:
    """Whether the call site or the callee marks argument `position` as passed by copy."""
    for name in _COPYING_ATTRIBUTES:
        kind = lib.LLVMGetEnumAttributeKindForName(name, len(name))
        if lib.LLVMGetCallSiteEnumAttribute(call, position + 1, kind) or lib.LLVMGetEnumAttributeAtIndex(callee, position + 1, kind):
            return True
    return False


def _opcode(lib: ctypes.CDLL, value: int, kind: int) -> int | None:
    """The opcode of an instruction or a constant expression (`LLVMOpcode`), None for other values."""
    if kind == _INSTRUCTION:
        return int(lib.LLVMGetInstructionOpcode(value))
    if kind == _CONSTANT_EXPR:
        return int(lib.LLVMGetConstOpcode(value))
    return None


def _is_internal_definition(lib: ctypes.CDLL, value: int) -> bool:
    """A defined, non-variadic function with local linkage (every call of it is in the module)."""
    return (
        bool(value)
        and lib.LLVMGetValueKind(value) == _FUNCTION
        and not lib.LLVMIsDeclaration(value)
        and lib.LLVMGetLinkage(value) in (engine.INTERNAL, engine.PRIVATE)
        and not lib.LLVMIsFunctionVarArg(lib.LLVMGlobalGetValueType(value))
    )


def _pointer_table_type(lib: ctypes.CDLL, variable: int) -> int | None:
    """The struct type of a local mutable table of pointers (at most `MAX_FIELDS`), else None."""
    if (
        lib.LLVMGetLinkage(variable) not in (engine.INTERNAL, engine.PRIVATE)
        or lib.LLVMIsDeclaration(variable)
        or lib.LLVMIsGlobalConstant(variable)
        or lib.LLVMIsThreadLocal(variable)
        or lib.LLVMIsExternallyInitialized(variable)
    ):
        return None
    struct = lib.LLVMGlobalGetValueType(variable)
    if lib.LLVMGetTypeKind(struct) != _STRUCT or lib.LLVMIsPackedStruct(struct):
        return None
    count = lib.LLVMCountStructElementTypes(struct)
    if not 0 < count <= MAX_FIELDS:
        return None
    for k in range(count):
        ty = lib.LLVMStructGetTypeAtIndex(struct, k)
        if lib.LLVMGetTypeKind(ty) != _POINTER or lib.LLVMGetPointerAddressSpace(ty):
            return None
    return int(struct)


def _foldable(lib: ctypes.CDLL, value: int) -> bool:
    """A field value a load may become: null, a function, or a variable that is not thread-local
    (an instruction naming a thread-local variable means this thread's copy)."""
    if lib.LLVMIsNull(value):
        return True
    kind = lib.LLVMGetValueKind(value)
    return kind == _FUNCTION or (bool(lib.LLVMIsAGlobalVariable(value)) and not lib.LLVMIsThreadLocal(value))


def clear_unread_fields(module: engine.Module, target: engine.Target) -> list[str]:
    """Fold, in place, the loads of each local pointer table's never-written fields to the value
    they hold, write `ptr null` into its unread fields and delete the stores to them; returns
    the tables changed. A function that lost a store gets `simplifycfg` (the first pass the
    serial pipeline runs on it), and the tables are looked at again: a branch left empty goes
    with the loads that decided it, so a field read only there is unread too (cJSON's
    `if (hooks.allocate == malloc && hooks.deallocate == free) hooks.reallocate = realloc`)."""
    lib = engine.capi()
    changed: dict[str, None] = {}
    for _round in range(MAX_ROUNDS):
        touched: dict[int, None] = {}
        for name, functions in _settle_tables(lib, module):
            changed[name] = None
            touched.update(dict.fromkeys(functions))
        if not touched:
            break
        module.run_function_passes(list(touched), "simplifycfg,dce", target)
    return list(changed)


#: how many times the tables are looked at again after `simplifycfg` cleared what a deleted store left
MAX_ROUNDS = 4


def _settle_tables(lib: ctypes.CDLL, module: engine.Module) -> list[tuple[str, list[int]]]:
    """One look at every table: (table changed, functions that lost a store to it)."""
    layout = lib.LLVMGetModuleDataLayout(module.ref)
    changed = []
    variables = []
    variable = lib.LLVMGetFirstGlobal(module.ref)
    while variable:
        variables.append(engine.Value(variable))
        variable = lib.LLVMGetNextGlobal(variable)
    for value in variables:
        struct = _pointer_table_type(lib, value.ref)
        initialiser = lib.LLVMGetInitializer(value.ref) if struct is not None else None
        if struct is None or not initialiser or lib.LLVMGetNumOperands(initialiser) != lib.LLVMCountStructElementTypes(struct):
            continue  # a zeroinitializer holds only nulls: nothing to drop
        try:
            uses = _Table(lib, layout, value.ref, struct).walk()
        except _Escapes:
            continue
        fields = [lib.LLVMGetOperand(initialiser, k) for k in range(lib.LLVMGetNumOperands(initialiser))]
        written = {k for _store, k in uses.stores}
        constant = {k for k, f in enumerate(fields) if k not in written and _foldable(lib, f)}
        read, folded = set(), 0
        for load, k, direct in uses.loads:
            if direct and k in constant:
                lib.LLVMReplaceAllUsesWith(load, fields[k])
                lib.LLVMInstructionEraseFromParent(load)
                folded += 1
            else:
                read.add(k)
        new = [f if k in read or lib.LLVMIsNull(f) else lib.LLVMConstPointerNull(lib.LLVMTypeOf(f)) for k, f in enumerate(fields)]
        functions: dict[int, None] = {}
        for store, k in uses.stores:
            if k not in read:  # nothing reads the field: GlobalOpt deletes its stores unsplit
                functions[lib.LLVMGetBasicBlockParent(lib.LLVMGetInstructionParent(store))] = None
                lib.LLVMInstructionEraseFromParent(store)
        if new == fields and not folded and not functions:
            continue
        if new != fields:
            lib.LLVMSetInitializer(value.ref, _struct_constant(lib, module, struct, new))
        changed.append((value.name, list(functions)))
    return changed


def _struct_constant(lib: ctypes.CDLL, module: engine.Module, struct: int, fields: list[int]) -> int:
    """A constant of `struct` type with these field values."""
    array = (ctypes.c_void_p * len(fields))(*fields)
    if lib.LLVMIsLiteralStruct(struct):
        return int(lib.LLVMConstStructInContext(lib.LLVMGetModuleContext(module.ref), array, len(fields), 0))
    return int(lib.LLVMConstNamedStruct(struct, array, len(fields)))
