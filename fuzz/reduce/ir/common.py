"""What the IR delta passes share: entity and line selection, zero values of a type,
`define`-line parsing, and the three pass shapes most deltas are (`entity_pass`,
`line_pass`, `match_pass`), so a delta file holds only what it selects and what it
puts in its place."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from compiler.backend import irmodel
from fuzz.reduce.engine import DeltaPass, parse_candidate


@lru_cache(maxsize=8)
def parsed(text: str) -> irmodel.IRModule:
    """`irmodel.parse_module`, remembered for the last few texts: a round of ddmin lists one
    module's chunks and builds every candidate from it, so each delta parsed the same text
    once per candidate (a third of a 300-function reduction's time). Read-only: no delta
    changes the parsed module."""
    return irmodel.parse_module(text)


def entities(text: str, kinds: Sequence[str], pred: Callable[[irmodel.Entity], bool] = lambda e: True) -> list[irmodel.Entity]:
    """The module's entities of the given kinds that satisfy `pred`, in module order."""
    mod = parsed(text)
    return [e for e in mod.entities if e.kind in kinds and pred(e)]


def referenced_by_others(mod: irmodel.IRModule) -> set[str]:
    """Names some other entity refers to (a function calling itself does not count)."""
    return {r for e in mod.entities for r in e.refs if r != e.name}


def rebuild(text: str, replace: dict[str, str | None]) -> str:
    """Re-emit the module with some entity texts replaced (None drops the entity)."""
    mod = parsed(text)
    parts = []
    for e in mod.entities:
        key = f"{e.kind}:{e.name}"
        if key in replace:
            new = replace[key]
            if new is not None:
                parts.append(new)
        else:
            parts.append(e.text)
    return irmodel.module_text(mod.header, parts)


def function_bodies(lines: list[str]) -> list[tuple[int, int]]:
    """(define line, closing `}` line) of every function body in `lines`."""
    out = []
    start = None
    for i, line in enumerate(lines):
        if line.startswith("define "):
            start = i
        elif line == "}" and start is not None:
            out.append((start, i))
            start = None
    return out


#: `  %name = rhs`: a value-defining instruction (name, right-hand side)
VALUE_DEF = re.compile(r"^  (%[-\w.$]+) = (.*)$")
INSTRUCTION = re.compile(r"^  (?!ret\b|br\b|switch\b|indirectbr\b|unreachable\b)\S")


def instruction_lines(text: str) -> list[int]:
    """Line numbers of the instructions that `instruction_chunks` lists."""
    lines = text.split("\n")
    return [
        i
        for start, end in function_bodies(lines)
        for i in range(start + 1, end)
        if INSTRUCTION.match(lines[i]) and " = phi " not in lines[i]
    ]


def instruction_chunks(text: str) -> list[str]:
    """The instructions (not terminators, not phis) of every function body, stripped."""
    lines = text.split("\n")
    return [lines[i].strip() for i in instruction_lines(text)]


TYPED = re.compile(r"^(?:add|sub|mul|and|or|xor|shl|lshr|ashr|udiv|sdiv|urem|srem)(?: nuw| nsw| exact| disjoint)* (i\d+) ")
LOAD = re.compile(r"^load (?:volatile |atomic )?(i\d+|ptr|double|float), ")
CALL = re.compile(r"^(?:tail |musttail |notail )?call (?:[a-z_]+ )*(i\d+|ptr|double|float) ")
CMP = re.compile(r"^(?:icmp|fcmp) ")
PTR_RESULT = re.compile(r"^(?:getelementptr|alloca)\b")
FLOAT_OP = re.compile(r"^(?:fadd|fsub|fmul|fdiv|frem|fneg)(?: [a-z]+)* (double|float) ")
CAST = re.compile(r"^(?:zext|sext|trunc|bitcast|inttoptr|ptrtoint|fptosi|sitofp) .* to (i\d+|ptr|double|float)$")
SELECT = re.compile(r"^select i1 [^,]+, (i\d+|ptr|double|float) ")


def result_type(rhs: str) -> str | None:
    """The first-class type an instruction's right-hand side defines, None when unknown."""
    for rx in (TYPED, LOAD, CALL, CAST, SELECT):
        m = rx.match(rhs)
        if m:
            return m.group(1)
    if CMP.match(rhs):
        return "i1"
    if PTR_RESULT.match(rhs):
        return "ptr"
    m = FLOAT_OP.match(rhs)
    return m.group(1) if m else None


def zero_literal(ty: str) -> str:
    """The zero constant of a first-class type, as an operand."""
    return "null" if ty == "ptr" else ("0.0" if ty in ("double", "float") else "0")


def zero_def(ty: str) -> str:
    """An instruction defining a value of `ty` from constants only (keeps the SSA name)."""
    if ty == "ptr":
        return "getelementptr i8, ptr null, i64 0"
    if ty in ("double", "float"):
        return f"fadd {ty} 0.0, 0.0"
    return f"add {ty} 0, 0"


def defined_function_chunks(text: str) -> list[str]:
    """The names of the defined functions."""
    return [e.name for e in entities(text, ("function",))]


def with_llvm_passes(text: str, add_passes: Callable[[object], None], functions: set[str] | None) -> str:
    """Run a pass pipeline on the module (`functions` None) or on the named functions; a
    broken candidate is an EmberError, not the end of the process (`engine.parse_candidate`)."""
    import llvmlite.binding as llvm

    from compiler.backend import llvm_stage

    module = parse_candidate(text)
    tm = llvm_stage.target_machine(None, 0)
    pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=0))
    try:
        if functions is None:
            mpm = llvm.create_new_module_pass_manager()
            add_passes(mpm)
            mpm.run(module, pb)
        else:
            fpm = llvm.create_new_function_pass_manager()
            add_passes(fpm)
            for fn in module.functions:
                if fn.name in functions and not fn.is_declaration:
                    fpm.run(fn, pb)
    finally:
        pb.close()
    return str(module)


DEFINE_HEAD = re.compile(r"^define ([^@]*)(@[-\w.$]+|@\"[^\"]*\")(\(.*\)[^{]*)\{$")


LABEL = re.compile(r'^(?:[-\w.$]+|"[^"]*"):')
SIMPLE_TYPE = re.compile(r"void|i\d+|ptr|double|float")
RETURN_ATTRS = re.compile(r" (?:noundef|signext|zeroext|nonnull|noalias|inreg|align \d+|dereferenceable(?:_or_null)?\(\d+\))(?= )")


def signature(define: str) -> tuple[str, str, str] | None:
    """(return type, function name, parameters and function attributes) of a `define`
    line; None when it does not parse."""
    m = DEFINE_HEAD.match(define)
    if m is None:
        return None
    return RETURN_ATTRS.sub("", " " + m.group(1)).split()[-1], irmodel.unquote(m.group(2)[1:]), m.group(3)


def returning(define: str, ty: str) -> str:
    """The `define` line returning `ty`, without return attributes (`noundef`, `nonnull`, ...)."""
    m = DEFINE_HEAD.match(define)
    assert m is not None
    head = RETURN_ATTRS.sub("", " " + m.group(1)).split()
    return f"define {' '.join([*head[:-1], ty])} {m.group(2)}{m.group(3)}{{"


HEAD = re.compile(r"^(define|declare) ([^@]*)(@[-\w.$]+|@\"[^\"]*\")\(")
CALL_OF = re.compile(r"^(\s*)(?:(%[-\w.$]+) = )?((?:tail |musttail |notail )?call )((?:[a-z_]+ )*)(\S+) (@[-\w.$]+|@\"[^\"]*\")\(")


def direct_call_only(text: str) -> dict[str, int]:
    """Function name -> line of its define/declare, for functions but `main` whose every use
    is a direct call's callee (their signature can change with their call sites)."""
    mod = parsed(text)
    taken = {r for e in mod.entities for r in e.address_refs}
    out = {}
    for i, line in enumerate(text.split("\n")):
        m = HEAD.match(line)
        if m and "..." not in line:
            name = irmodel.unquote(m.group(3)[1:])
            if name != "main" and name not in taken:
                out[name] = i
    return out


# ------------------------------------------------------------------ the shapes of a delta


def entity_pass(name: str, select: Callable[[str], list[irmodel.Entity]], replacement: Callable[[irmodel.Entity], str | None]) -> DeltaPass:
    """A delta whose chunks are module entities: those not kept become `replacement(e)`
    (None drops the entity)."""

    def chunks(text: str) -> list[str]:
        return [e.name for e in select(text)]

    def apply(text: str, keep: set[int]) -> str:
        return rebuild(text, {f"{e.kind}:{e.name}": replacement(e) for i, e in enumerate(select(text)) if i not in keep})

    return DeltaPass(name, chunks, apply)


def line_pass(name: str, select: Callable[[str], list[int]], label: Callable[[str], str] = str.strip) -> DeltaPass:
    """A delta whose chunks are whole lines (`select` gives their numbers): those not kept go."""

    def chunks(text: str) -> list[str]:
        lines = text.split("\n")
        return [label(lines[i]) for i in select(text)]

    def apply(text: str, keep: set[int]) -> str:
        drop = {line_no for k, line_no in enumerate(select(text)) if k not in keep}
        return "\n".join(line for i, line in enumerate(text.split("\n")) if i not in drop)

    return DeltaPass(name, chunks, apply)


def match_pass(name: str, patterns: tuple[re.Pattern[str], ...], replacement: str) -> DeltaPass:
    """A delta whose chunks are the matches of `patterns` (all of the first, then all of the
    next, ...): those not kept become `replacement`."""

    def chunks(text: str) -> list[str]:
        return [m.group(0) for pattern in patterns for m in pattern.finditer(text)]

    def apply(text: str, keep: set[int]) -> str:
        counter = iter(range(1 << 30))
        for pattern in patterns:
            text = pattern.sub(lambda m: m.group(0) if next(counter) in keep else replacement, text)
        return text

    return DeltaPass(name, chunks, apply)


# ------------------------------------------------------------------ basic blocks

#: control flow the block deltas leave alone (their edges are not plain `br`s, or a block's
#: address is taken, or a label is quoted)
NO_BLOCK_EDITS = re.compile(r"^\s*(?:switch|indirectbr|callbr|invoke)\b|\bswitch |\binvoke |\bblockaddress\(|^\"", re.M)
#: a terminator `br label %b` and `br i1 %c, label %t, label %f`
BR = re.compile(r"^  br label (%[-\w.$]+)$")
CBR = re.compile(r"^  br i1 ([^,]+), label (%[-\w.$]+), label (%[-\w.$]+)$")
PHI = re.compile(r"^  (%[-\w.$]+) = phi (\S+) (.*)$")
PHI_ENTRY = re.compile(r"\[\s*([^,\]]+?)\s*,\s*(%[-\w.$]+)\s*\]")


class Block:
    """One basic block of a function body as lines: its label (`%name`, None for an
    unlabelled entry block), the label line itself and the lines after it."""

    def __init__(self, name: str | None, label_line: str | None) -> None:
        self.name = name
        self.label_line = label_line
        self.body: list[str] = []

    def terminator(self) -> str:
        """The block's last instruction line ('' when it has none)."""
        return next((ln for ln in reversed(self.body) if ln.strip() and not ln.lstrip().startswith(";")), "")

    def successors(self) -> list[str]:
        t = self.terminator()
        if m := BR.match(t):
            return [m.group(1)]
        if m := CBR.match(t):
            return [m.group(2), m.group(3)]
        return []

    def lines(self) -> list[str]:
        return ([self.label_line] if self.label_line is not None else []) + self.body


def split_blocks(body: list[str]) -> list[Block]:
    """The blocks of a function body (the lines between `define ... {` and `}`)."""
    blocks: list[Block] = []
    for line in body:
        m = LABEL.match(line)
        if m:
            blocks.append(Block("%" + m.group(0)[:-1], line))
        else:
            if not blocks:
                blocks.append(Block(None, None))
            blocks[-1].body.append(line)
    return blocks


def editable_functions(lines: list[str]) -> list[tuple[int, int]]:
    """(define line, `}` line) of each function whose control flow is plain `br`s and `ret`s."""
    return [(s, e) for s, e in function_bodies(lines) if not NO_BLOCK_EDITS.search("\n".join(lines[s + 1 : e]))]


def ret_zero(define: str) -> str:
    """`ret` of a zero of the function's return type."""
    head = signature(define)
    ty = head[0] if head is not None else "void"
    return "  ret void" if ty == "void" else f"  ret {ty} {zero_literal(ty)}"
