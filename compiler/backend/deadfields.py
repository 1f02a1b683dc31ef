"""Unread fields of local pointer tables, cleared before the split (a whole-module fact).

Unsplit, GlobalOpt splits an internal struct of pointers (cJSON's `global_hooks = {
malloc, free, realloc }`) into one global per field and drops the fields nobody reads,
and with them the undefined symbols their initialisers named. Split, a table used from
two subgraphs is exported while compiling, so no subgraph sees all its uses: the object
keeps `UND realloc`. Only the whole module can tell which fields are read, so the planner
asks here first and writes `ptr null` into every unread field's initialiser: nothing
reads the value, so behaviour is unchanged, and the symbol the serial build drops is gone.

A table qualifies when every use in the module is a `ptr` load or store of one field (the
table itself is field 0, a constant-index `getelementptr` names the others), or an argument
that an internal callee never uses (dead-argument elimination removes it unsplit). Any other
use (stored as a value, passed on, a variable index, an initialiser naming it) may read
any field, and the table is left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from compiler.backend import tokens
from compiler.backend.irmodel import Entity, IRModule, parenthesised, quote, split_top_level

_NAME = tokens.IR_NAME
#: `{ ptr @malloc, ptr @free, ptr null }`: the initialiser of a table of pointers
_TABLE = re.compile(
    r"^(@\S+ = (?:internal|private) (?:unnamed_addr )?global (\{ ptr(?:, ptr)* \}|" + tokens.IR_LOCAL + ") )"
    r"(\{ ptr(?: [^,{}]+)?(?:, ptr [^,{}]+)* \})(.*)$",
    re.S,
)
_ALL_POINTERS = re.compile(r"\{ ptr(?:, ptr)* \}")


#: GlobalOpt splits structs of at most this many fields into one global per field
MAX_FIELDS = 16


def clear_unread_fields(mod: IRModule) -> list[str]:
    """Rewrite, in place, each local pointer table's unread fields to `ptr null`, and the loads
    of fields nothing writes to the pointer the field always holds; returns the tables
    changed (the entity texts and references of the table and its readers are updated)."""
    functions = {e.name: e for e in mod.by_kind("function")}
    users: dict[str, list[Entity]] = {}
    for e in mod.entities:
        for r in e.refs:
            users.setdefault(r, []).append(e)
    types = {e.text.split(" = ", 1)[0]: e.text.split(" = type ", 1)[-1].strip() for e in mod.by_kind("type")}
    changed = []
    for table in mod.by_kind("global"):
        m = _TABLE.match(table.text)
        if m is None or not _ALL_POINTERS.fullmatch(types.get(m.group(2), m.group(2))):
            continue
        fields = [f.strip() for f in m.group(3)[1:-1].split(",")]
        if len(fields) > MAX_FIELDS:
            continue
        uses = _table_uses(table.name, m.group(2), users.get(table.name, []), functions)
        if uses is None:
            continue
        # a field nothing writes always holds its initialiser: unsplit GlobalOpt makes it a
        # constant and its loads fold (cJSON's hooks when `cJSON_InitHooks` is never called)
        constant = {k for k, f in enumerate(fields) if k not in uses.written and (f == "ptr null" or _PLAIN_POINTER.fullmatch(f))}
        _fold_loads([(fn, i, fields[k]) for fn, i, k in uses.loads if k in constant])
        read = {k for _fn, _i, k in uses.loads if k not in constant}
        new = [f if k in read or f == "ptr null" or not f.startswith("ptr @") else "ptr null" for k, f in enumerate(fields)]
        if new == fields and not any(k in constant for _fn, _i, k in uses.loads):
            continue
        table.text = m.group(1) + "{ " + ", ".join(new) + " }" + m.group(4)
        kept = {f[len("ptr @"):].strip('"') for f in new if f.startswith("ptr @")}
        dropped = {f[len("ptr @"):].strip('"') for f in fields if f.startswith("ptr @")} - kept
        still = set(re.findall(r"@(" + _NAME + r")", m.group(4)))
        table.refs = [r for r in table.refs if r not in dropped or r in still]
        changed.append(table.name)
    return changed


#: `ptr @name`: a field holding a function's or variable's address (what a load folds to)
_PLAIN_POINTER = re.compile(r"ptr @" + _NAME)


@dataclass
class _TableUses:
    """How the module uses one table: the fields stored to, and every load (function, line, field)."""

    written: set[int] = field(default_factory=set)
    loads: list[tuple[Entity, int, int]] = field(default_factory=list)


def _fold_loads(loads: list[tuple[Entity, int, str]]) -> None:
    """Replace each `%v = load ptr, ptr FIELD` by `%v = getelementptr i8, ptr VALUE, i64 0`,
    the pointer the field always holds (the optimiser folds it to VALUE); `!dbg` is kept."""
    by_function: dict[int, tuple[Entity, list[tuple[int, str]]]] = {}
    for fn, i, value in loads:
        by_function.setdefault(id(fn), (fn, []))[1].append((i, value))
    for fn, rows in by_function.values():
        lines = fn.text.split("\n")
        for i, value in rows:
            result = lines[i].split(" = ", 1)[0]
            debug = re.search(r", !dbg !\d+", lines[i])
            lines[i] = f"{result} = getelementptr i8, {value}, i64 0" + (debug.group(0) if debug else "")
            target = value[len("ptr @"):] if value.startswith("ptr @") else None
            if target is not None and target not in fn.refs:
                fn.refs.append(target)
            if target is not None:
                fn.address_refs.add(target)
        fn.text = "\n".join(lines)


def _table_uses(name: str, type_text: str, users: list[Entity], functions: dict[str, Entity]) -> _TableUses | None:
    """The fields of table `name` (of type `type_text`) stored to and loaded from, or None when a
    use may read or write any field."""
    token = "@" + quote(name)
    ty = re.escape(type_text)
    field_ = rf"(?:getelementptr inbounds \({ty}, ptr {re.escape(token)}, i(?:32|64) 0, i(?:32|64) (\d+)\)|{re.escape(token)})"
    load = re.compile(rf"^  %{_NAME} = load ptr, ptr {field_}, align \d+(?:, !.*)?$")
    store = re.compile(rf"^  store ptr (%{_NAME}|@{_NAME}|null), ptr {field_}, align \d+(?:, !.*)?$")
    gep = re.compile(rf"^  (%{_NAME}) = getelementptr inbounds {ty}, ptr {re.escape(token)}, i(?:32|64) 0, i(?:32|64) (\d+)(?:, !.*)?$")
    call = re.compile(rf"^  (?:%{_NAME} = )?(?:tail )?call [^@]*@({_NAME})\((.*)\)(?: #\d+)?(?:, !.*)?$")
    mentions = re.compile(re.escape(token) + tokens.IR_NAME_END)
    uses = _TableUses()
    for user in users:
        if user.name == name and user.kind == "global":
            if len(mentions.findall(user.text)) > 1:
                return None  # the table names itself
            continue
        if user.kind != "function":
            return None  # an initialiser or alias naming the table: its address escapes
        lines = user.text.split("\n")
        for i, line in enumerate(lines):
            if i == 0 or not mentions.search(line):
                continue
            if (a := load.match(line)) is not None:
                uses.loads.append((user, i, int(a.group(1) or 0)))
            elif (a := store.match(line)) is not None:
                if a.group(1) == token:
                    return None  # the table's address stored somewhere
                uses.written.add(int(a.group(2) or 0))
            elif (g := gep.match(line)) is not None:
                k = int(g.group(2))
                through = _gep_uses(lines, g.group(1))
                if through is None:
                    return None
                loaded, stored = through
                uses.loads.extend((user, row, k) for row in loaded)
                if stored:
                    uses.written.add(k)
            elif (c := call.match(line)) is None or not _only_dead_arguments(c.group(1), c.group(2), token, functions):
                return None
    return uses


def _gep_uses(lines: list[str], pointer: str) -> tuple[list[int], bool] | None:
    """The lines loading through `pointer` (a field's address) and whether it is stored to, or
    None when it is used any other way."""
    loaded: list[int] = []
    stored = False
    mentions = re.compile(re.escape(pointer) + tokens.IR_NAME_END)
    for i, line in enumerate(lines):
        if i == 0 or not mentions.search(line) or line.startswith(f"  {pointer} = "):
            continue
        if re.match(rf"^  %{_NAME} = load ptr, ptr {re.escape(pointer)}, align \d+(?:, !.*)?$", line):
            loaded.append(i)
        elif re.match(rf"^  store ptr (?!{re.escape(pointer)},)\S+, ptr {re.escape(pointer)}, align \d+(?:, !.*)?$", line):
            stored = True
        else:
            return None
    return loaded, stored


def _only_dead_arguments(callee: str, arguments: str, token: str, functions: dict[str, Entity]) -> bool:
    """Whether every argument naming `token` goes to a parameter the internal `callee` never uses."""
    target = functions.get(callee)
    if target is None or target.linkage not in ("internal", "private"):
        return False
    header, _, body = target.text.partition("\n")
    params = split_top_level(parenthesised(header, header.index("(", header.index("@"))))
    args = split_top_level(arguments)
    if len(args) != len(params):
        return False
    for arg, param in zip(args, params, strict=True):
        if token not in arg:
            continue
        if not re.fullmatch(r"ptr(?: \w+)* " + re.escape(token), arg.strip()):
            return False  # the table inside an expression
        name = param.split()[-1] if param.split()[-1].startswith("%") else None
        if name is not None and re.search(re.escape(name) + tokens.IR_NAME_END, body):
            return False  # the callee uses it
    return True
