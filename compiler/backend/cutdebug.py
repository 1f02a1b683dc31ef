"""The debug metadata of a piece cut in memory (`-g` builds).

A cut keeps every compile unit in `!llvm.dbg.cu`, and each unit lists every global variable of
its source file: codegen would describe each unit, and each variable, once per piece (a
variable the piece only declares without a location). So the piece
lists only the units its own IR reaches (a walk over the metadata graph from the piece's
attachments, debug locations and records and its other named metadata; inlined-at scopes
included), and each reached unit's globals are cut to the variables the piece itself defines
(not a declaration, not an `available_externally` copy): a variable is described once, with
its location, by the piece that emits it.

The C API cannot empty a named metadata node; `NamedMDNode::clearOperands` is called by its
mangled name, as `cut.py` calls the other C++ methods it needs.
"""

from __future__ import annotations

import ctypes
from ctypes import c_void_p

from compiler.backend import engine

_CU_LIST = b"llvm.dbg.cu"
#: DICompileUnit's operand holding its global variable list (`DICompileUnit::getRawGlobalVariables`)
_GLOBALS_OPERAND = 6
#: LLVMDbgRecordKind of a label (no variable to read)
_LABEL_RECORD = 0


def restrict_units(module: engine.Module) -> None:
    """Cut `module`'s (a piece's) debug units to those it reaches, each with the globals it
    defines; a module without `!llvm.dbg.cu` is left alone."""
    lib = engine.capi()
    m = module.ref
    units = engine.named_md_operands(m, _CU_LIST)
    if not units:
        return
    ctx = lib.LLVMGetModuleContext(m)
    own = _own_variables(lib, ctx, m)
    walk = _Reach(lib, ctx, set(units), own)
    walk.roots(m)
    reached = [u for u in units if u in walk.seen]
    clear = lib._ZN4llvm11NamedMDNode13clearOperandsEv
    clear.restype, clear.argtypes = None, [c_void_p]
    clear(lib.LLVMGetNamedMetadata(m, _CU_LIST, len(_CU_LIST)))
    for unit in reached:
        lib.LLVMAddNamedMetadataOperand(m, _CU_LIST, unit)
        listed = engine.md_operands(unit)[_GLOBALS_OPERAND]
        if listed:
            kept = [lib.LLVMValueAsMetadata(g) for g in engine.md_operands(listed) if g in own]
            tuple_ = lib.LLVMMDNodeInContext2(ctx, (c_void_p * max(len(kept), 1))(*kept), len(kept))
            lib.LLVMReplaceMDNodeOperandWith(unit, _GLOBALS_OPERAND, tuple_)


def _own_variables(lib: ctypes.CDLL, ctx: int, m: int) -> set[int]:
    """The `!dbg` attachments (as values) of the variables the piece defines."""
    own: set[int] = set()
    dbg = lib.LLVMGetMDKindIDInContext(ctx, b"dbg", 3)
    for _kind, g in engine.global_value_refs(m, "variable"):
        if lib.LLVMIsDeclaration(g) or lib.LLVMGetLinkage(g) == engine.AVAILABLE_EXTERNALLY:
            continue
        for kind, node in engine.md_attachments(ctx, lib.LLVMGlobalCopyAllMetadata, g):
            if kind == dbg:
                own.add(node)
    return own


class _Reach:
    """The metadata nodes (as values) reachable from a piece, a unit's globals list read as
    the piece's own variables only."""

    def __init__(self, lib: ctypes.CDLL, ctx: int, units: set[int], own: set[int]) -> None:
        self.lib, self.ctx, self.units, self.own = lib, ctx, units, own
        self.seen: set[int] = set()
        self.stack: list[int] = []

    def roots(self, m: int) -> None:
        """The other named metadata, every global value's attachments, every instruction's
        attachments (its debug location among them) and debug records."""
        lib = self.lib
        for name in engine.named_md_names(m):
            if name != _CU_LIST:
                self.stack.extend(engine.named_md_operands(m, name))
        for _kind, value in engine.global_value_refs(m, "variable", "function"):  # (aliases and ifuncs carry none)
            self.stack.extend(node for _k, node in engine.md_attachments(self.ctx, lib.LLVMGlobalCopyAllMetadata, value))
        self._walk()
        for _kind, function in engine.global_value_refs(m, "function"):
            self._body(function)

    def _body(self, function: int) -> None:
        lib, ctx = self.lib, self.ctx
        has_metadata, following, first_record = lib.LLVMHasMetadata, lib.LLVMGetNextInstruction, lib.LLVMGetFirstDbgRecord
        copy = lib.LLVMInstructionGetAllMetadataOtherThanDebugLoc  # the `!dbg` location too (engine.py)
        block = lib.LLVMGetFirstBasicBlock(function)
        while block:
            instruction = lib.LLVMGetFirstInstruction(block)
            while instruction:
                if has_metadata(instruction):
                    self.stack.extend(node for _k, node in engine.md_attachments(ctx, copy, instruction))
                record = first_record(instruction)
                while record:
                    self.stack.append(lib.LLVMMetadataAsValue(ctx, lib.LLVMDbgRecordGetDebugLoc(record)))
                    if lib.LLVMDbgRecordGetKind(record) != _LABEL_RECORD:
                        self.stack.append(lib.LLVMMetadataAsValue(ctx, lib.LLVMDbgVariableRecordGetVariable(record)))
                    record = lib.LLVMGetNextDbgRecord(record)
                instruction = following(instruction)
            if self.stack:
                self._walk()
            block = lib.LLVMGetNextBasicBlock(block)

    def _walk(self) -> None:
        lib, seen, stack = self.lib, self.seen, self.stack
        is_node = lib.LLVMIsAMDNode
        while stack:
            node = stack.pop()
            if not node or node in seen:
                continue
            seen.add(node)
            if not is_node(node):
                continue
            operands = engine.md_operands(node)
            if node in self.units:  # its globals: only the piece's own
                listed = operands[_GLOBALS_OPERAND]
                operands[_GLOBALS_OPERAND] = 0
                if listed:
                    operands.extend(g for g in engine.md_operands(listed) if g in self.own)
            stack.extend(o for o in operands if o and o not in seen)
