"""What FunctionAttrs infers from the bodies of the whole prefixed module, carried to every
subgraph's declarations and imports of those functions.

The serial build infers attributes bottom-up (`nounwind`, `memory(...)`, `willreturn`,
`captures(none)` on a parameter, ...) and its callers read them: a call to a `nounwind`
function is no `invoke`, one to a `memory(none)` function is hoisted, merged or deleted when
its result is unused. A subgraph sees a function defined elsewhere as a declaration, or as an
`available_externally` import, which is no exact definition: it infers nothing for either.
So the whole-module prefix's child, once its bitcode is written, runs FunctionAttrs on the
module it throws away (`infer`), and every cut adds what it found to the declarations and
imports it holds (`apply`). Inferred from a body before the rest of the pipeline simplifies
it, they hold for the owner's final code too (optimisation keeps what a body does), and are
at most what the serial build infers later.
"""

from __future__ import annotations

import ctypes

from compiler.backend import engine

#: LLVMAttributeFunctionIndex, LLVMAttributeReturnIndex
FUNCTION_INDEX, RETURN_INDEX = 0xFFFFFFFF, 0
#: the attributes FunctionAttrs infers that a caller reads, by where they sit
FUNCTION_KINDS = ("nounwind", "willreturn", "nofree", "nosync", "norecurse", "memory")
RETURN_KINDS = ("noundef", "nonnull", "noalias")
PARAMETER_KINDS = ("captures", "nocapture", "readonly", "readnone", "writeonly")

#: function name -> ((attribute index, attribute name, value), ...)
Inferred = dict[str, tuple[tuple[int, str, int], ...]]

#: the exact linkages: FunctionAttrs infers nothing for a body that may be replaced at link time
_EXACT = frozenset({0, 8, 9})  # external, internal, private


def _kinds(lib: ctypes.CDLL, names: tuple[str, ...]) -> list[tuple[str, int]]:
    """The attribute kinds this libLLVM knows among `names` (`nocapture` became `captures`)."""
    out = []
    for name in names:
        kind = lib.LLVMGetEnumAttributeKindForName(name.encode(), len(name))
        if kind:
            out.append((name, kind))
    return out


def infer(module: engine.Module, target: engine.Target) -> Inferred:
    """Run FunctionAttrs on `module` (it changes the module: a copy to throw away) and read the
    attributes callers use from every exact definition."""
    module.run_passes("cgscc(function-attrs)", target)
    lib = engine.capi()
    at = lib.LLVMGetEnumAttributeAtIndex
    value_of = lib.LLVMGetEnumAttributeValue
    places = [(FUNCTION_INDEX, _kinds(lib, FUNCTION_KINDS)), (RETURN_INDEX, _kinds(lib, RETURN_KINDS))]
    parameter_kinds = _kinds(lib, PARAMETER_KINDS)
    out: Inferred = {}
    for _kind, f in engine.global_value_refs(module.ref, "function"):
        if lib.LLVMIsDeclaration(f) or lib.LLVMGetLinkage(f) not in _EXACT:
            continue
        found: list[tuple[int, str, int]] = []
        indices = places + [(i, parameter_kinds) for i in range(1, lib.LLVMCountParams(f) + 1)]
        for index, kinds in indices:
            for name, kind in kinds:
                attribute = at(f, index, kind)
                if attribute:
                    found.append((index, name, int(value_of(attribute))))
        if found:
            out[engine.Value(f).name] = tuple(found)
    return out


def apply(lib: ctypes.CDLL, m: int, inferred: Inferred) -> None:
    """Add `inferred` to the piece's declarations and `available_externally` bodies (a definition
    of its own infers them itself)."""
    ctx = lib.LLVMGetModuleContext(m)
    for name, attributes in inferred.items():
        f = lib.LLVMGetNamedFunction(m, name.encode())
        if not f or not (lib.LLVMIsDeclaration(f) or lib.LLVMGetLinkage(f) == engine.AVAILABLE_EXTERNALLY):
            continue
        params = lib.LLVMCountParams(f)
        for index, attribute, value in attributes:
            if index != FUNCTION_INDEX and index > params:
                continue  # (a declaration of another type: never by the cut's names)
            kind = lib.LLVMGetEnumAttributeKindForName(attribute.encode(), len(attribute))
            lib.LLVMAddAttributeAtIndex(f, index, lib.LLVMCreateEnumAttribute(ctx, kind, value))
