"""Delta passes over LLVM IR text, one small function each (llvm-reduce's `deltas/` table).

A pass turns a module into *chunks* (things it could remove or simplify) and applies a
subset of them; the reducer runs ddmin over the chunks. Every candidate is validated
(parses and verifies) before the property sees it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from compiler.backend import irmodel


@dataclass(frozen=True)
class DeltaPass:
    """`chunks(text)` lists what may go; `apply(text, keep)` keeps only chunks whose index is in `keep`."""

    name: str
    chunks: Callable[[str], list[str]]
    apply: Callable[[str, set[int]], str]


def _entities(text: str, kinds: Sequence[str], pred: Callable[[irmodel.Entity], bool] = lambda e: True) -> list[irmodel.Entity]:
    mod = irmodel.parse_module(text)
    return [e for e in mod.entities if e.kind in kinds and pred(e)]


def _referenced_by_others(mod: irmodel.IRModule) -> set[str]:
    """Names some other entity refers to (a function calling itself does not count)."""
    return {r for e in mod.entities for r in e.refs if r != e.name}


def _rebuild(text: str, replace: dict[str, str | None]) -> str:
    """Re-emit the module with some entity texts replaced (None drops the entity)."""
    mod = irmodel.parse_module(text)
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


# -- functions: make definitions declarations ------------------------------------------


def _function_chunks(text: str) -> list[str]:
    return [e.name for e in _entities(text, ("function",))]


def _functions_to_declarations(text: str, keep: set[int]) -> str:
    """Definitions outside `keep` become declarations, `main` too: a symbol-table
    difference may not need a program that runs."""
    funcs = _entities(text, ("function",))
    replace: dict[str, str | None] = {}
    for i, e in enumerate(funcs):
        if i not in keep:
            # a declaration cannot be local: local functions become plain external declarations
            replace[f"function:{e.name}"] = irmodel.declaration_of(e, "default" if e.is_local else None)
    return _rebuild(text, replace)


# -- globals: drop initialisers (make declarations) -------------------------------------


def _global_chunks(text: str) -> list[str]:
    return [e.name for e in _entities(text, ("global",), lambda e: e.is_definition)]


def _globals_to_declarations(text: str, keep: set[int]) -> str:
    gs = _entities(text, ("global",), lambda e: e.is_definition)
    replace: dict[str, str | None] = {}
    for i, e in enumerate(gs):
        if i in keep:
            continue
        if e.name.startswith("llvm."):
            replace[f"global:{e.name}"] = None  # ctors/dtors/used arrays: just drop them
        else:
            replace[f"global:{e.name}"] = irmodel.declaration_of(e, "default" if e.is_local else None)
    return _rebuild(text, replace)


# -- aliases and ifuncs ------------------------------------------------------------------


def _alias_chunks(text: str) -> list[str]:
    return [e.name for e in _entities(text, ("alias", "ifunc"))]


def _drop_aliases(text: str, keep: set[int]) -> str:
    aliases = _entities(text, ("alias", "ifunc"))
    replace: dict[str, str | None] = {}
    mapping: dict[str, str] = {}
    for i, e in enumerate(aliases):
        if i not in keep and e.refs:
            replace[f"{e.kind}:{e.name}"] = None
            mapping[e.name] = e.refs[0]  # uses go to the aliasee/resolver directly
    return irmodel.rename_refs(_rebuild(text, replace), mapping) if mapping else text


# -- instructions ------------------------------------------------------------------------

#: `  %name = rhs`: a value-defining instruction (name, right-hand side)
_VALUE_DEF = re.compile(r"^  (%[-\w.$]+) = (.*)$")
_INSTRUCTION = re.compile(r"^  (?!ret\b|br\b|switch\b|indirectbr\b|unreachable\b)\S")


def _instruction_lines(text: str) -> list[int]:
    lines = text.split("\n")
    return [
        i
        for start, end in function_bodies(lines)
        for i in range(start + 1, end)
        if _INSTRUCTION.match(lines[i]) and " = phi " not in lines[i]
    ]


def _instruction_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[i].strip() for i in _instruction_lines(text)]


def _drop_instructions(text: str, keep: set[int]) -> str:
    lines = text.split("\n")
    drop = {line_no for k, line_no in enumerate(_instruction_lines(text)) if k not in keep}
    out = []
    for i, line in enumerate(lines):
        if i not in drop:
            out.append(line)
            continue
        m = _VALUE_DEF.match(line)
        if m:  # a value-producing instruction: replace its uses by a constant of its type
            ty = _result_type(m.group(2))
            if ty is None:
                out.append(line)
                continue
            out.append(f"  {m.group(1)} = {_zero_def(ty)}")
    return "\n".join(out)


def _delete_instructions(text: str, keep: set[int]) -> str:
    """Instructions outside `keep` go; uses of their values become zeros of the value's type
    (llvm-reduce's instruction deletion: one step shorter than a constant definition, and
    it does not leave the function's size unchanged)."""
    lines = text.split("\n")
    drop = {line_no for k, line_no in enumerate(_instruction_lines(text)) if k not in keep}
    for start, end in function_bodies(lines):
        zeros: dict[str, str] = {}
        for j in range(start + 1, end):
            if j not in drop:
                continue
            m = _VALUE_DEF.match(lines[j])
            if m:
                ty = _result_type(m.group(2))
                if ty is None:
                    continue  # type unknown: the instruction stays
                zeros[m.group(1)] = _zero_literal(ty)
            lines[j] = "\0"  # dropped below
        if zeros:
            use = re.compile("(" + "|".join(re.escape(n) for n in zeros) + r")(?![-\w.$])")
            for j in range(start + 1, end):
                if lines[j] != "\0":
                    lines[j] = use.sub(lambda m, z=zeros: z[m.group(1)], lines[j])  # type: ignore[misc]
    return "\n".join(line for line in lines if line != "\0")


_TYPED = re.compile(r"^(?:add|sub|mul|and|or|xor|shl|lshr|ashr|udiv|sdiv|urem|srem)(?: nuw| nsw| exact| disjoint)* (i\d+) ")
_LOAD = re.compile(r"^load (?:volatile |atomic )?(i\d+|ptr|double|float), ")
_CALL = re.compile(r"^(?:tail |musttail |notail )?call (?:[a-z_]+ )*(i\d+|ptr|double|float) ")
_CMP = re.compile(r"^(?:icmp|fcmp) ")
_PTR_RESULT = re.compile(r"^(?:getelementptr|alloca)\b")
_FLOAT_OP = re.compile(r"^(?:fadd|fsub|fmul|fdiv|frem|fneg)(?: [a-z]+)* (double|float) ")
_CAST = re.compile(r"^(?:zext|sext|trunc|bitcast|inttoptr|ptrtoint|fptosi|sitofp) .* to (i\d+|ptr|double|float)$")
_SELECT = re.compile(r"^select i1 [^,]+, (i\d+|ptr|double|float) ")


def _result_type(rhs: str) -> str | None:
    for rx in (_TYPED, _LOAD, _CALL, _CAST, _SELECT):
        m = rx.match(rhs)
        if m:
            return m.group(1)
    if _CMP.match(rhs):
        return "i1"
    if _PTR_RESULT.match(rhs):
        return "ptr"
    m = _FLOAT_OP.match(rhs)
    return m.group(1) if m else None


def _zero_literal(ty: str) -> str:
    """The zero constant of a first-class type, as an operand."""
    return "null" if ty == "ptr" else ("0.0" if ty in ("double", "float") else "0")


def _zero_def(ty: str) -> str:
    """An instruction defining a value of `ty` from constants only (keeps the SSA name)."""
    if ty == "ptr":
        return "getelementptr i8, ptr null, i64 0"
    if ty in ("double", "float"):
        return f"fadd {ty} 0.0, 0.0"
    return f"add {ty} 0, 0"


# -- operands: a local value used as an operand becomes a zero of its type -------------

_OPERAND = re.compile(r"(?<=[ (,\[])(i\d+|ptr|double|float) (%[-\w.$]+|%\"[^\"]*\")(?![-\w.$]*\()")


def _operand_sites(text: str) -> list[tuple[int, int, int, str]]:
    """(line, start, end, type) of each typed local operand inside function bodies."""
    lines = text.split("\n")
    sites: list[tuple[int, int, int, str]] = []
    for start, end in function_bodies(lines):
        for i in range(start + 1, end):
            if lines[i].startswith("  "):
                sites.extend((i, m.start(2), m.end(2), m.group(1)) for m in _OPERAND.finditer(lines[i]))
    return sites


def _operand_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[i][a:b] for i, a, b, _ty in _operand_sites(text)]


def _operands_to_zero(text: str, keep: set[int]) -> str:
    lines = text.split("\n")
    # right to left within a line, so earlier offsets stay valid
    for k, (i, a, b, ty) in sorted(enumerate(_operand_sites(text)), key=lambda kv: (kv[1][0], -kv[1][1])):
        if k not in keep:
            lines[i] = lines[i][:a] + _zero_literal(ty) + lines[i][b:]
    return "\n".join(lines)


# -- constants ---------------------------------------------------------------------------

_BIG_CONST = re.compile(r"(?<=i64 |i32 |i16 )(-?[2-9]|-?[1-9][0-9]+)\b")


def _constant_chunks(text: str) -> list[str]:
    return [m.group(0) for m in _BIG_CONST.finditer(text)]


def _zero_constants(text: str, keep: set[int]) -> str:
    counter = iter(range(1 << 30))

    def sub(m: re.Match[str]) -> str:
        return m.group(0) if next(counter) in keep else "1"

    return _BIG_CONST.sub(sub, text)


# -- attributes and metadata -------------------------------------------------------------

_ATTR_REF = re.compile(r"(?<!^attributes) #[0-9]+(?= |\{|$)", re.M)
_MD_ATTACH = re.compile(r", ![-a-zA-Z_.0-9]+ ![0-9]+")


def _attribute_chunks(text: str) -> list[str]:
    return [m.group(0) for m in _ATTR_REF.finditer(text)] + [m.group(0) for m in _MD_ATTACH.finditer(text)]


def _drop_attributes(text: str, keep: set[int]) -> str:
    counter = iter(range(1 << 30))

    def sub(m: re.Match[str]) -> str:
        return m.group(0) if next(counter) in keep else ""

    text = _ATTR_REF.sub(sub, text)
    return _MD_ATTACH.sub(sub, text)


# -- unused declarations -----------------------------------------------------------------


def _unused_declarations(text: str) -> list[irmodel.Entity]:
    """Function declarations and external global declarations nothing refers to."""
    mod = irmodel.parse_module(text)
    used = {r for e in mod.entities for r in e.refs}
    return [
        e
        for e in mod.entities
        if (e.kind == "declaration" or (e.kind == "global" and not e.is_definition)) and e.name not in used
    ]


def _unused_declaration_chunks(text: str) -> list[str]:
    return [e.name for e in _unused_declarations(text)]


def _drop_unused_declarations(text: str, keep: set[int]) -> str:
    unused = _unused_declarations(text)
    return _rebuild(text, {f"{e.kind}:{e.name}": None for i, e in enumerate(unused) if i not in keep})


# -- module data: source_filename, target lines, attribute groups nothing refers to -----

_MODULE_DATA = re.compile(r"^(?:source_filename|target datalayout|target triple) = ")
_ATTR_GROUP = re.compile(r"^attributes (#[0-9]+) = ")


def _module_data_lines(text: str) -> list[int]:
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if _MODULE_DATA.match(line):
            out.append(i)
            continue
        m = _ATTR_GROUP.match(line)
        if m and not re.search(re.escape(m.group(1)) + r"(?![0-9])", "\n".join(lines[:i] + lines[i + 1 :])):
            out.append(i)
    return out


def _module_data_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[i] for i in _module_data_lines(text)]


# -- dead values (left behind by the instruction pass) ------------------------------------

_DEF = re.compile(r"^  (%[-\w.$]+) = ")


def _dead_value_lines(text: str) -> list[int]:
    lines = text.split("\n")
    out: list[int] = []
    for start, end in function_bodies(lines):
        body = "\n".join(lines[start : end + 1])
        for j in range(start + 1, end):
            m = _DEF.match(lines[j])
            if m and " = phi " not in lines[j] and not lines[j].lstrip().startswith(m.group(1) + " = call"):
                uses = len(re.findall(re.escape(m.group(1)) + r"(?![-\w.$])", body))
                if uses == 1:
                    out.append(j)
    return out


def _dead_value_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[i].strip() for i in _dead_value_lines(text)]


def _drop_selected_lines(select: Callable[[str], list[int]]) -> Callable[[str, set[int]], str]:
    """The apply of a pass whose chunks are whole lines (`select` gives their indices)."""

    def apply(text: str, keep: set[int]) -> str:
        drop = {line_no for k, line_no in enumerate(select(text)) if k not in keep}
        return "\n".join(line for i, line in enumerate(text.split("\n")) if i not in drop)

    return apply


# -- control flow: fold conditional branches, let simplifycfg clean up -------------------

_COND_BR = re.compile(r"^(\s*br i1 )(%[-a-zA-Z$._0-9]+|%\"[^\"]*\")(, label .*)$")


def _cond_branch_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if _COND_BR.match(line)]


def _cond_branch_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[i].strip() for i in _cond_branch_lines(text)]


def simplify_cfg(text: str) -> str:
    """LLVM's simplifycfg on the module: folds constant branches, drops dead blocks, fixes phis."""
    return _with_llvm_passes(text, lambda pm: pm.add_simplify_cfg_pass(), None)  # type: ignore[attr-defined]


def _branches_to(value: str) -> Callable[[str, set[int]], str]:
    """Conditional branches outside `keep` always go one way (`true`: then-edge); loops that
    no longer loop and arms never taken disappear in the simplifycfg clean-up."""

    def apply(text: str, keep: set[int]) -> str:
        lines = text.split("\n")
        for k, i in enumerate(_cond_branch_lines(text)):
            if k not in keep:
                lines[i] = _COND_BR.sub(lambda m: f"{m.group(1)}{value}{m.group(3)}", lines[i])
        return simplify_cfg("\n".join(lines))

    return apply


# -- LLVM's own simplifications, per function (llvm-reduce's ir-passes and inlining) ----


def _defined_function_chunks(text: str) -> list[str]:
    return [e.name for e in _entities(text, ("function",))]


def _with_llvm_passes(text: str, add_passes: Callable[[object], None], functions: set[str] | None) -> str:
    """Run a pass pipeline on the module (`functions` None) or on the named functions."""
    import llvmlite.binding as llvm

    from compiler.backend import llvm_stage

    module = llvm_stage.parse_ir(text, "<candidate>")
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


def _simplify_functions(text: str, keep: set[int]) -> str:
    """instcombine + simplifycfg + aggressive DCE on the functions outside `keep`."""
    names = {n for i, n in enumerate(_defined_function_chunks(text)) if i not in keep}

    def passes(pm: object) -> None:
        pm.add_instruction_combine_pass()  # type: ignore[attr-defined]
        pm.add_simplify_cfg_pass()  # type: ignore[attr-defined]
        pm.add_aggressive_dce_pass()  # type: ignore[attr-defined]

    return _with_llvm_passes(text, passes, names) if names else text


_DEFINE_HEAD = re.compile(r"^define ([^@]*)(@[-\w.$]+|@\"[^\"]*\")(\(.*\)[^{]*)\{$")


def _inline_callees(text: str, keep: set[int]) -> str:
    """Calls to the functions outside `keep` are inlined (alwaysinline + the always-inliner);
    local functions left without callers go (globaldce)."""
    names = {n for i, n in enumerate(_defined_function_chunks(text)) if i not in keep and n != "main"}
    if not names:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = _DEFINE_HEAD.match(line)
        if m and irmodel.unquote(m.group(2)[1:]) in names:
            head = m.group(3).replace(" noinline", "")
            lines[i] = f"define {m.group(1)}{m.group(2)}{head.rstrip()} alwaysinline {{"
    def passes(pm: object) -> None:
        pm.add_always_inliner_pass()  # type: ignore[attr-defined]
        pm.add_global_dead_code_eliminate_pass()  # type: ignore[attr-defined]  # callees left without callers

    return _with_llvm_passes("\n".join(lines), passes, None)


# -- stub bodies: a function returns zero at once --------------------------------------


def _stub_sites(text: str) -> list[tuple[int, int, str]]:
    """(define line, `}` line, return type) of each function but `main` whose body is more
    than a `ret` and whose return type has a zero literal."""
    lines = text.split("\n")
    sites = []
    for start, end in function_bodies(lines):
        head = _signature(lines[start])
        if head is None or head[1] == "main" or end - start <= 2:
            continue
        if _SIMPLE_TYPE.fullmatch(head[0]):
            sites.append((start, end, head[0]))
    return sites


def _stub_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[start] for start, _end, _ty in _stub_sites(text)]


def _stub_bodies(text: str, keep: set[int]) -> str:
    """Functions outside `keep` return zero (or nothing) at once. Unlike a declaration, a
    stub still links, so a runnable program stays runnable after a large cut; callees it
    no longer calls go in later passes."""
    lines = text.split("\n")
    for k, (start, end, ty) in reversed(list(enumerate(_stub_sites(text)))):
        if k in keep:
            continue
        lines[start] = _returning(lines[start], ty)  # without return attributes (`nonnull`...)
        ret = "ret void" if ty == "void" else f"ret {ty} {_zero_literal(ty)}"
        lines[start + 1 : end] = [f"  {ret}"]
    return "\n".join(lines)


# -- values to return (llvm-reduce's instructions-to-return) ----------------------------

_LABEL = re.compile(r'^(?:[-\w.$]+|"[^"]*"):')
_SIMPLE_TYPE = re.compile(r"void|i\d+|ptr|double|float")
_RETURNS_VALUE = re.compile(r"^  ret \S+ %")
_RETURN_ATTRS = re.compile(r" (?:noundef|signext|zeroext|nonnull|noalias|inreg|align \d+|dereferenceable(?:_or_null)?\(\d+\))(?= )")


def _signature(define: str) -> tuple[str, str, str] | None:
    """(return type, function name, parameters and function attributes) of a `define`
    line; None when it does not parse."""
    m = _DEFINE_HEAD.match(define)
    if m is None:
        return None
    return _RETURN_ATTRS.sub("", " " + m.group(1)).split()[-1], irmodel.unquote(m.group(2)[1:]), m.group(3)


def _returning(define: str, ty: str) -> str:
    """The `define` line returning `ty`, without return attributes (`noundef`, `nonnull`, ...)."""
    m = _DEFINE_HEAD.match(define)
    assert m is not None
    head = _RETURN_ATTRS.sub("", " " + m.group(1)).split()
    return f"define {' '.join([*head[:-1], ty])} {m.group(2)}{m.group(3)}{{"


def _return_sites(text: str) -> list[tuple[int, int, str]]:
    """(define line, value line, type) for each value computed in the entry block of a
    function that returns only constants and that nothing else refers to (so its return
    type can change without touching callers)."""
    mod = irmodel.parse_module(text)
    referenced = _referenced_by_others(mod)
    lines = text.split("\n")
    sites = []
    for start, end in function_bodies(lines):
        head = _signature(lines[start])
        if head is None or head[1] in referenced or "..." in head[2] or not _SIMPLE_TYPE.fullmatch(head[0]):
            continue
        if any(_RETURNS_VALUE.match(lines[j]) for j in range(start + 1, end)):
            continue  # already returns a computed value: once per function, or it would trade values forever
        for j in range(start + 1, end):
            if _LABEL.match(lines[j]) and j > start + 1:
                break  # the entry block ends at the first label after its own
            d = _VALUE_DEF.match(lines[j])
            if d and " = phi " not in lines[j]:
                ty = _result_type(d.group(2))
                if ty is not None:
                    sites.append((start, j, ty))
    return sites[::-1]  # last values first: they keep the most computation for later passes to cut


def _return_site_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[j].strip() for _start, j, _ty in _return_sites(text)]


def _values_to_return(text: str, keep: set[int]) -> str:
    """A function returns its last entry-block value outside `keep` right after computing
    it. Everything after it goes: the other blocks are unreachable from an entry block that
    ends in `ret` (nothing branches to the entry block), and none of their values can be
    used in it."""
    lines = text.split("\n")
    ends = dict(function_bodies(lines))
    chosen: dict[int, tuple[int, str]] = {}
    for k, (start, j, ty) in enumerate(_return_sites(text)):
        if k not in keep:
            chosen.setdefault(start, (j, ty))
    drop: set[int] = set()
    for start, (j, ty) in chosen.items():
        lines[start] = _returning(lines[start], ty)
        value = lines[j].split(" = ", 1)[0].strip()
        lines[j] += f"\n  ret {ty} {value}"
        drop.update(range(j + 1, ends[start]))
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


# -- entry labels: an entry block nothing names needs no label -------------------------


def _entry_label_lines(text: str) -> list[int]:
    """The label line of each entry block that no phi names (nothing can branch to an
    entry block, so phis are its only users); unlabelled, LLVM numbers the block."""
    lines = text.split("\n")
    out = []
    for start, end in function_bodies(lines):
        m = _LABEL.match(lines[start + 1]) if start + 1 < end else None
        if m is None:
            continue
        name = "%" + m.group(0)[:-1]
        if not any(re.search(re.escape(name) + r"(?![-\w.$\"])", lines[j]) for j in range(start + 2, end)):
            out.append(start + 1)
    return out


def _entry_label_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[i].split(":")[0] for i in _entry_label_lines(text)]


# -- functions to padding: a function goes, `main` keeps its cost --------------------

_PAD_NAME = re.compile(r"%ember\.pad\.([0-9]+)\b")


def _paddable_functions(text: str) -> list[irmodel.Entity]:
    """Defined functions but `main` that nothing refers to, when there is a `main` to pad."""
    mod = irmodel.parse_module(text)
    if not any(e.kind == "function" and e.name == "main" for e in mod.entities):
        return []
    referenced = _referenced_by_others(mod)
    return [e for e in mod.entities if e.kind == "function" and e.name != "main" and e.name not in referenced]


def _paddable_chunks(text: str) -> list[str]:
    return [e.name for e in _paddable_functions(text)]


def _functions_to_padding(text: str, keep: set[int]) -> str:
    """Functions outside `keep` go and `main` gains one dead `add` per unit of their
    split-planner cost (compiler.backend.irmodel: a function's line count). A fault that
    shows only when the module splits into the same subgraphs needs the module's total
    cost more than the functions that make it up; plain deletion loses that, and the
    padding can still go later if it is not needed."""
    gone = [e for i, e in enumerate(_paddable_functions(text)) if i not in keep]
    if not gone:
        return text
    text = _rebuild(text, {f"function:{e.name}": None for e in gone})
    first = max((int(n) for n in _PAD_NAME.findall(text)), default=-1) + 1
    pads = [f"  %ember.pad.{first + k} = add i64 0, 0" for k in range(sum(e.cost for e in gone))]
    lines = text.split("\n")
    for start, _end in function_bodies(lines):
        head = _signature(lines[start])
        if head is not None and head[1] == "main":
            at = start + 2 if _LABEL.match(lines[start + 1]) else start + 1
            while _PAD_NAME.match(lines[at].strip()):
                at += 1  # after earlier padding: names stay in order
            lines[at:at] = pads
            break
    return "\n".join(lines)


# -- unused globals: a global definition nothing refers to goes ------------------------


def _unused_globals(text: str) -> list[irmodel.Entity]:
    """Global variable definitions no other entity refers to (`llvm.*` arrays excepted)."""
    mod = irmodel.parse_module(text)
    referenced = _referenced_by_others(mod)
    return [e for e in mod.entities if e.kind == "global" and e.is_definition
            and e.name not in referenced and not e.name.startswith("llvm.")]


def _unused_global_chunks(text: str) -> list[str]:
    return [e.name for e in _unused_globals(text)]


def _drop_unused_globals(text: str, keep: set[int]) -> str:
    """Unused global definitions outside `keep` go (a declaration would be no shorter)."""
    unused = _unused_globals(text)
    return _rebuild(text, {f"global:{e.name}": None for i, e in enumerate(unused) if i not in keep})


# -- signatures: unused arguments and return values (llvm-reduce's arguments, return types) --

_HEAD = re.compile(r"^(define|declare) ([^@]*)(@[-\w.$]+|@\"[^\"]*\")\(")
_CALL_OF = re.compile(r"^(\s*)(?:(%[-\w.$]+) = )?((?:tail |musttail |notail )?call )((?:[a-z_]+ )*)(\S+) (@[-\w.$]+|@\"[^\"]*\")\(")


def _split_top(args: str) -> list[str]:
    """`a, b(c, d), e` -> ['a', 'b(c, d)', 'e'] (commas outside brackets)."""
    parts, depth, cur = [], 0, ""
    for ch in args:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*parts, cur.strip()] if cur.strip() else parts


def _paren_span(line: str, open_at: int) -> int:
    """Index of the `)` closing the `(` at `open_at`."""
    depth = 0
    for i in range(open_at, len(line)):
        depth += line[i] == "("
        depth -= line[i] == ")"
        if depth == 0:
            return i
    return -1


def _direct_call_only(text: str) -> dict[str, int]:
    """Function name -> line of its define/declare, for functions but `main` whose every use
    is a direct call's callee (their signature can change with their call sites)."""
    mod = irmodel.parse_module(text)
    taken = {r for e in mod.entities for r in e.address_refs}
    out = {}
    for i, line in enumerate(text.split("\n")):
        m = _HEAD.match(line)
        if m and "..." not in line:
            name = irmodel.unquote(m.group(3)[1:])
            if name != "main" and name not in taken:
                out[name] = i
    return out


def _params(line: str) -> tuple[int, int, list[str]] | None:
    """(open, close, parameters) of a define/declare line; None unless every parameter is a
    simple type with an optional named (not numbered) value."""
    m = _HEAD.match(line)
    if m is None:
        return None
    close = _paren_span(line, m.end() - 1)
    params = _split_top(line[m.end() : close])
    for prm in params:
        words = prm.split()
        if not words or not _SIMPLE_TYPE.fullmatch(words[0]) or words[0] == "void":
            return None
        if m.group(1) == "define" and (len(words) < 2 or not re.fullmatch(r"%[-A-Za-z_.$][-\w.$]*", words[-1])):
            return None
    return m.end() - 1, close, params


def _argument_sites(text: str) -> list[tuple[str, int]]:
    """(function, parameter index) for each parameter of a direct-call-only function."""
    lines = text.split("\n")
    sites: list[tuple[str, int]] = []
    for name, i in _direct_call_only(text).items():
        parsed = _params(lines[i])
        if parsed is not None:
            sites.extend((name, k) for k in range(len(parsed[2])))
    return sites


def _argument_chunks(text: str) -> list[str]:
    return [f"{f}#{k}" for f, k in _argument_sites(text)]


def _drop_call_args(line: str, drops: dict[str, set[int]]) -> str:
    """A call line without the dropped arguments of its callee."""
    m = _CALL_OF.match(line)
    if m is None or irmodel.unquote(m.group(6)[1:]) not in drops:
        return line
    gone = drops[irmodel.unquote(m.group(6)[1:])]
    close = _paren_span(line, m.end() - 1)
    args = [a for k, a in enumerate(_split_top(line[m.end() : close])) if k not in gone]
    return line[: m.end()] + ", ".join(args) + line[close:]


def _remove_arguments(text: str, keep: set[int]) -> str:
    """Parameters outside `keep` go from their function, its body (uses become zeros) and
    every call site (llvm-reduce's reduce-arguments)."""
    drops: dict[str, set[int]] = {}
    for k, (name, idx) in enumerate(_argument_sites(text)):
        if k not in keep:
            drops.setdefault(name, set()).add(idx)
    if not drops:
        return text
    lines = text.split("\n")
    heads = _direct_call_only(text)
    bodies = dict(function_bodies(lines))
    for name, gone in drops.items():
        at = heads[name]
        parsed = _params(lines[at])
        assert parsed is not None
        open_at, close, params = parsed
        zeros = {prm.split()[-1]: _zero_literal(prm.split()[0]) for k, prm in enumerate(params) if k in gone and len(prm.split()) > 1}
        kept = [prm for k, prm in enumerate(params) if k not in gone]
        lines[at] = lines[at][: open_at + 1] + ", ".join(kept) + lines[at][close:]
        if zeros and at in bodies:
            use = re.compile("(" + "|".join(re.escape(n) for n in zeros) + r")(?![-\w.$])")
            for j in range(at + 1, bodies[at]):
                lines[j] = use.sub(lambda m, z=zeros: z[m.group(1)], lines[j])  # type: ignore[misc]
    return "\n".join(_drop_call_args(line, drops) for line in lines)


def _void_return_sites(text: str) -> list[str]:
    """Direct-call-only functions returning a value that no call site uses."""
    lines = text.split("\n")
    candidates = {}
    for name, i in _direct_call_only(text).items():
        m = _HEAD.match(lines[i])
        assert m is not None
        ret = _RETURN_ATTRS.sub("", " " + m.group(2)).split()
        if ret and ret[-1] != "void" and _SIMPLE_TYPE.fullmatch(ret[-1]):
            candidates[name] = ret[-1]
    for start, end in function_bodies(lines):
        body = "\n".join(lines[start : end + 1])
        for j in range(start + 1, end):
            m = _CALL_OF.match(lines[j])
            callee = irmodel.unquote(m.group(6)[1:]) if m else ""
            if m and m.group(2) and callee in candidates and len(re.findall(re.escape(m.group(2)) + r"(?![-\w.$])", body)) > 1:
                candidates.pop(callee)
    return list(candidates)


def _returns_to_void(text: str, keep: set[int]) -> str:
    """Functions outside `keep` return void: `ret T v` becomes `ret void`, call sites drop
    their (unused) result (llvm-reduce's return-type reduction)."""
    names = {n for k, n in enumerate(_void_return_sites(text)) if k not in keep}
    if not names:
        return text
    lines = text.split("\n")
    heads = _direct_call_only(text)
    bodies = dict(function_bodies(lines))
    for name in names:
        at = heads[name]
        m = _HEAD.match(lines[at])
        assert m is not None
        words = _RETURN_ATTRS.sub("", " " + m.group(2)).split()
        lines[at] = f"{m.group(1)} {' '.join([*words[:-1], 'void'])} {lines[at][len(m.group(1)) + 1 + len(m.group(2)):]}"
        for j in range(at + 1, bodies.get(at, at)):
            if lines[j].startswith("  ret "):
                lines[j] = "  ret void"
    for j, line in enumerate(lines):
        c = _CALL_OF.match(line)
        if c and irmodel.unquote(c.group(6)[1:]) in names:
            lines[j] = f"{c.group(1)}{c.group(3)}void {c.group(6)}(" + line[c.end() :]
    return "\n".join(lines)


# -- basic blocks: a block goes, branches to it return (llvm-reduce's basic-blocks) -------

_BR = re.compile(r"^  br label (%[-\w.$]+)$")
_CBR = re.compile(r"^  br i1 ([^,]+), label (%[-\w.$]+), label (%[-\w.$]+)$")
_PHI = re.compile(r"^  (%[-\w.$]+) = phi (\S+) (.*)$")
_NO_BLOCK_EDITS = re.compile(r"^\s*(?:switch|indirectbr|callbr|invoke)\b|\bswitch |\binvoke |\bblockaddress\(|^\"", re.M)


def _block_sites(text: str) -> list[tuple[int, int, int]]:
    """(define line, label line, last line) of each non-entry block of a function whose
    control flow is plain `br`s and `ret`s."""
    lines = text.split("\n")
    sites = []
    for start, end in function_bodies(lines):
        if _NO_BLOCK_EDITS.search("\n".join(lines[start + 1 : end])):
            continue
        labels = [j for j in range(start + 2, end) if _LABEL.match(lines[j])]
        for k, j in enumerate(labels):
            sites.append((start, j, (labels[k + 1] if k + 1 < len(labels) else end) - 1))
    return sites


def _block_chunks(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[j].split(":")[0] for _s, j, _e in _block_sites(text)]


def _dead_block_values(lines: list[str], first: int, last: int) -> dict[str, str]:
    """Values a block defines -> a zero of their type (for uses left in other blocks)."""
    zeros = {}
    for j in range(first, last + 1):
        d = _VALUE_DEF.match(lines[j])
        if d:
            phi = _PHI.match(lines[j])
            ty = phi.group(2) if phi else _result_type(d.group(2))
            if ty is not None and _SIMPLE_TYPE.fullmatch(ty):
                zeros[d.group(1)] = _zero_literal(ty)
    return zeros


def _retarget(line: str, dead: set[str], ret: str) -> str:
    """A terminator without its edges to dead blocks (`ret` when none is left)."""
    if (m := _BR.match(line)) and m.group(1) in dead:
        return ret
    if m := _CBR.match(line):
        live = [t for t in (m.group(2), m.group(3)) if t not in dead]
        if len(live) == 2:
            return line
        return f"  br label {live[0]}" if live else ret
    if phi := _PHI.match(line):
        entries = [e for e in re.findall(r"\[[^\]]*\]", phi.group(3)) if e.rsplit(",", 1)[1].strip(" ]") not in dead]
        if not entries:
            return f"  {phi.group(1)} = {_zero_def(phi.group(2))}"
        return f"  {phi.group(1)} = phi {phi.group(2)} {', '.join(entries)}"
    return line


def _drop_blocks(text: str, keep: set[int]) -> str:
    """Blocks outside `keep` go: a branch to one returns zero (or takes its other edge), phis
    lose its entries, uses of its values become zeros; a dead loop goes with its blocks."""
    lines = text.split("\n")
    by_function: dict[int, list[tuple[int, int]]] = {}
    for k, (start, first, last) in enumerate(_block_sites(text)):
        if k not in keep:
            by_function.setdefault(start, []).append((first, last))
    ends = dict(function_bodies(lines))
    drop: set[int] = set()
    for start, blocks in by_function.items():
        head = _signature(lines[start])
        if head is None:
            continue
        ret = "  ret void" if head[0] == "void" else f"  ret {head[0]} {_zero_literal(head[0])}"
        dead = {"%" + lines[first].split(":")[0] for first, _last in blocks}
        zeros: dict[str, str] = {}
        for first, last in blocks:
            zeros.update(_dead_block_values(lines, first, last))
            drop.update(range(first, last + 1))
        use = re.compile("(" + "|".join(re.escape(n) for n in zeros) + r")(?![-\w.$])") if zeros else None
        for j in range(start + 1, ends[start]):
            if j not in drop:
                lines[j] = _retarget(lines[j], dead, ret)
                if use is not None:
                    lines[j] = use.sub(lambda m, z=zeros: z[m.group(1)], lines[j])  # type: ignore[misc]
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


#: The table, in the order the reducer tries them (big cuts first).
IR_DELTAS: list[DeltaPass] = [
    DeltaPass("stub-bodies", _stub_chunks, _stub_bodies),
    DeltaPass("functions-to-declarations", _function_chunks, _functions_to_declarations),
    DeltaPass("globals-to-declarations", _global_chunks, _globals_to_declarations),
    DeltaPass("aliases", _alias_chunks, _drop_aliases),
    DeltaPass("unused-declarations", _unused_declaration_chunks, _drop_unused_declarations),
    DeltaPass("unused-globals", _unused_global_chunks, _drop_unused_globals),
    DeltaPass("branches-to-true", _cond_branch_chunks, _branches_to("true")),
    DeltaPass("branches-to-false", _cond_branch_chunks, _branches_to("false")),
    DeltaPass("inline-call-sites", _defined_function_chunks, _inline_callees),
    DeltaPass("values-to-return", _return_site_chunks, _values_to_return),
    DeltaPass("basic-blocks", _block_chunks, _drop_blocks),
    DeltaPass("delete-instructions", _instruction_chunks, _delete_instructions),
    DeltaPass("instructions", _instruction_chunks, _drop_instructions),
    DeltaPass("operands-zero", _operand_chunks, _operands_to_zero),
    DeltaPass("simplify-functions", _defined_function_chunks, _simplify_functions),
    DeltaPass("dead-values", _dead_value_chunks, _drop_selected_lines(_dead_value_lines)),
    DeltaPass("constants", _constant_chunks, _zero_constants),
    DeltaPass("arguments", _argument_chunks, _remove_arguments),
    DeltaPass("return-types", _void_return_sites, _returns_to_void),
    DeltaPass("attributes-metadata", _attribute_chunks, _drop_attributes),
    DeltaPass("module-data", _module_data_chunks, _drop_selected_lines(_module_data_lines)),
    DeltaPass("entry-labels", _entry_label_chunks, _drop_selected_lines(_entry_label_lines)),
    DeltaPass("functions-to-padding", _paddable_chunks, _functions_to_padding),
]
