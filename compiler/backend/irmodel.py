"""An entity model over textual LLVM IR: top-level entities and the references between them.

llvmlite cannot delete a function or global, so pieces of a module are cut out and
re-emitted as text. Input is expected in the form LLVM prints (`str(ModuleRef)`), which
puts every top-level entity on its own line(s). Shared by the split back end and the
reducer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from compiler.backend import tokens
from compiler.diagnostics import EmberError

LOCAL_LINKAGES = frozenset({"private", "internal"})
LINKAGES = frozenset(
    {
        "private",
        "internal",
        "available_externally",
        "linkonce",
        "weak",
        "common",
        "appending",
        "extern_weak",
        "linkonce_odr",
        "weak_odr",
        "external",
    }
)
VISIBILITIES = frozenset({"default", "hidden", "protected"})
PREEMPTION = frozenset({"dso_local", "dso_preemptable"})

#: A global-value reference (`@name`, `@"quoted"`, `@0`) or a string literal to skip.
_TOKEN = re.compile(r'(?P<str>[!c]?"[^"]*")|@(?P<name>' + tokens.IR_QUOTED + "|" + tokens.IR_NAME + ")")
#: The same for a text without a double quote (no string literal, no quoted name): most
#: function bodies. Ten times faster than `_TOKEN`, whose string alternative is tried at
#: every character.
_PLAIN_REF = re.compile("@(?P<name>" + tokens.IR_NAME + ")")


def unquote(token: str) -> str:
    """`"a b"` -> `a b`; plain names unchanged."""
    return token[1:-1] if token.startswith('"') else token


def quote(name: str) -> str:
    """The IR spelling of a global name (quoted when it needs to be)."""
    if re.fullmatch(r"[-a-zA-Z$._]" + tokens.IR_NAME_CHAR + r"*|[0-9]+", name):
        return name
    return '"' + name + '"'


#: the name a top-level `@`, `$` or `%` line defines, quoted names with `=` in them included
_HEAD = re.compile(r'[@$%](?:' + tokens.IR_QUOTED + r'|[^\s="]+)\s*=')


def split_head(line: str) -> tuple[str, str]:
    """(`@name`, what follows its `=`) of a top-level definition line: `@"a=b" = ...`
    splits after the quoted name, not inside it."""
    m = _HEAD.match(line)
    if m is None:
        name, _, rest = line.partition("=")
        return name, rest
    return m.group(0)[:-1], line[m.end() :]


def iter_refs(text: str) -> Iterable[tuple[str, int, int]]:
    """Yield (name, start, end) for each `@name` token outside string literals."""
    if '"' not in text:
        for m in _PLAIN_REF.finditer(text):
            yield m.group("name"), m.start(), m.end()
        return
    for m in _TOKEN.finditer(text):
        if m.group("name") is not None:
            yield unquote(m.group("name")), m.start(), m.end()


def rename_refs(text: str, mapping: dict[str, str]) -> str:
    """Rename `@name` tokens per `mapping` (strings untouched)."""
    if not mapping or (len(mapping) <= 8 and not any(("@" + n) in text or ('@"' + n) in text for n in mapping)):
        return text

    def sub(m: re.Match[str]) -> str:
        token = m.group("name")
        if token is None:
            return m.group(0)
        new = mapping.get(unquote(token))
        return m.group(0) if new is None else "@" + quote(new)

    return (_TOKEN if '"' in text else _PLAIN_REF).sub(sub, text)


@dataclass
class Entity:
    """One top-level entity of a module."""

    kind: str  # function | declaration | global | alias | ifunc | comdat | attributes | metadata | type | asm
    name: str  # the global name for values, the key otherwise
    text: str
    index: int
    linkage: str = "external"
    visibility: str = "default"
    refs: list[str] = field(default_factory=list)  # referenced global names, in order, deduplicated
    address_refs: set[str] = field(default_factory=set)  # refs that are not a direct call's callee
    comdat: str | None = None
    blockaddress_of: set[str] = field(default_factory=set)
    #: facts a reader may fill in directly (a reader of the live module does); read from the
    #: text on first use otherwise (`variable`, `inline_asm`, `IRModule.function_attributes`)
    known_variable: VariableHead | None = field(default=None, repr=False, compare=False)
    known_attributes: frozenset[str] | None = field(default=None, repr=False, compare=False)
    known_inline_asm: bool | None = field(default=None, repr=False, compare=False)
    known_definition: bool | None = field(default=None, repr=False, compare=False)
    known_cost: int | None = field(default=None, repr=False, compare=False)

    @property
    def header(self) -> str:
        """The first line: a function's `define ... {`, a declaration, a variable's definition."""
        return self.text.split("\n", 1)[0]

    @property
    def variable(self) -> VariableHead:
        """What a global variable's (or alias's) definition says besides its value."""
        if self.known_variable is None:
            self.known_variable = variable_head(self.text) if self.kind in ("global", "alias", "ifunc") else _NOT_A_VARIABLE
        return self.known_variable

    @property
    def inline_asm(self) -> bool:
        """Whether a function body calls inline asm (LLVM exits on a bad one)."""
        if self.known_inline_asm is None:
            self.known_inline_asm = self.kind == "function" and " asm " in self.text and _INLINE_ASM_CALL.search(self.text) is not None
        return self.known_inline_asm

    @property
    def is_value(self) -> bool:
        return self.kind in ("function", "declaration", "global", "alias", "ifunc")

    @property
    def is_definition(self) -> bool:
        if self.known_definition is not None:
            return self.known_definition
        return self.kind in ("function", "global", "alias", "ifunc") and not (
            self.kind == "global" and self.linkage in ("external", "extern_weak") and _is_global_decl(self.text)
        )

    @property
    def is_local(self) -> bool:
        return self.linkage in LOCAL_LINKAGES

    @property
    def cost(self) -> int:
        """Estimated compile cost: lines of a function body (the plan's thresholds are tuned
        to them; counting only instruction lines moved mujs' split code from +4.7% to +8%
        executed instructions), 1 otherwise. Debug records (`#dbg_value`, one a line) do not
        count: a `-g` build must plan, and so optimise, exactly as the plain one."""
        if self.known_cost is not None:
            return self.known_cost
        if self.kind != "function":
            return 1
        lines = self.text.count("\n")
        return lines - self.text.count("#dbg_") if "#dbg_" in self.text else lines


@dataclass(frozen=True)
class VariableHead:
    """The qualifiers of a global variable's definition the plan decides by."""

    thread_local: bool = False
    constant: bool = False
    #: an explicit `section "..."`
    section: bool = False
    #: the value type is a scalar or a pointer (`ptr`, `iN`, `half`, `float`, `double`, `x86_fp80`, `fp128`)
    scalar: bool = False
    dso_local: bool = False


_NOT_A_VARIABLE = VariableHead()
#: a scalar or pointer value type at the start of what follows `global`/`constant`
_SCALAR = re.compile(r"^(?:ptr|i\d+|half|float|double|x86_fp80|fp128) ")
#: an inline asm call in a body (module asm is its own entity)
_INLINE_ASM_CALL = re.compile(r'\basm (?:sideeffect |alignstack |inteldialect |unwind )*"')


def variable_head(text: str) -> VariableHead:
    """Read a `@g = [qualifiers] global|constant T ...` (or alias) line."""
    head = split_head(text)[1] if "=" in text else text
    words = _words_until_type(head)
    rest = head.split(" " + words[-1] + " ", 1)[-1] if words else ""
    return VariableHead(
        thread_local=any(w.startswith("thread_local") for w in words),
        constant=bool(words) and words[-1] == "constant",
        section=", section " in rest,
        scalar=bool(words) and words[-1] in ("global", "constant") and _SCALAR.match(rest) is not None,
        dso_local="dso_local" in words,
    )


@dataclass
class IRModule:
    """A module as an ordered list of entities plus its header lines."""

    header: list[str]
    entities: list[Entity]
    #: facts computed once per module by the modules that use it (the planner's metadata refs), by their name
    derived: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.values: dict[str, Entity] = {e.name: e for e in self.entities if e.is_value}

    def function_attributes(self, e: Entity) -> frozenset[str]:
        """The words of a function's (or declaration's) header with its attribute groups
        (`#N`) spelled out: its attributes, and words that name none (`define`, types)."""
        if e.known_attributes is None:
            groups = self.derived.get("attribute_groups")
            if not isinstance(groups, dict):
                groups = {g.name.split()[-1]: g.text.split("{", 1)[-1].split() for g in self.by_kind("attributes")}
                self.derived["attribute_groups"] = groups
            words = set(e.header.split())
            for word in list(words):
                words.update(groups.get(word, ()))
            e.known_attributes = frozenset(words)
        return e.known_attributes

    def by_kind(self, *kinds: str) -> list[Entity]:
        """The entities of these kinds, in module order (computed once per kinds: the planner
        asks for each piece it emits, and the entity list never changes after parsing)."""
        key = "by_kind:" + ",".join(kinds)
        found = self.derived.get(key)
        if not isinstance(found, list):
            found = [e for e in self.entities if e.kind in kinds]
            self.derived[key] = found
        return list(found)


_COMDAT_REF = re.compile(r"(?<![-%@$\w.])comdat(?:\(\$(?P<name>" + tokens.IR_QUOTED + "|" + tokens.IR_NAME + r")\))?(?![-\w.])")
_BLOCKADDRESS = re.compile(r"blockaddress\(@(" + tokens.IR_QUOTED + "|" + tokens.IR_NAME + ")")
_DEBUG_ATTACH = re.compile(r", !dbg ![0-9]+")


def _is_global_decl(text: str) -> bool:
    """`@g = external global i32` (no initializer) is a declaration."""
    head = split_head(text)[1] if "=" in text else text
    words = _words_until_type(head)
    return "external" in words or "extern_weak" in words


def _words_until_type(head: str) -> list[str]:
    words = []
    for word in head.split():
        words.append(word)
        if word in ("global", "constant", "alias", "ifunc"):
            break
    return words


def _linkage_and_visibility(words: Iterable[str]) -> tuple[str, str]:
    linkage, visibility = "external", "default"
    for word in words:
        if word in LINKAGES:
            linkage = word
        elif word in VISIBILITIES:
            visibility = word
    return linkage, visibility


def _header_name(line: str) -> str:
    for name, _s, _e in iter_refs(line):
        return name
    raise ValueError(f"no name in: {line[:80]}")


def _analyse_refs(entity: Entity, body: str, own_header: str | None) -> None:
    seen: dict[str, None] = {}
    for name, start, end in iter_refs(body):
        if own_header is not None and start < len(own_header) and name == entity.name:
            continue  # the function's own name in its header
        seen.setdefault(name, None)
        nxt = body[end : end + 1]
        if nxt != "(" or entity.kind not in ("function",):
            entity.address_refs.add(name)
        elif start >= 1 and own_header is not None:
            # `@f(` is a call only when the text before is a call/invoke's type
            line_start = body.rfind("\n", 0, start) + 1
            line = body[line_start:start]
            if not re.search(r"\b(call|invoke|callbr|tail call|musttail call|notail call)\b", line):
                entity.address_refs.add(name)
    entity.refs = [n for n in seen if n != entity.name or entity.kind != "function"]
    entity.blockaddress_of = {unquote(m.group(1)) for m in _BLOCKADDRESS.finditer(body)}


#: top-level lines that carry nothing a piece needs: use-list orders, a ThinLTO summary
_DROPPED_TOP_LEVEL = ("uselistorder", "^")


def parse_module(text: str) -> IRModule:
    """Split printed LLVM IR into entities with their references."""
    header: list[str] = []
    entities: list[Entity] = []
    lines = text.splitlines()
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        stripped = line.strip()
        idx = len(entities)
        if not stripped or stripped.startswith(";"):
            i += 1
            continue
        if line.startswith("define "):
            j = i
            while j < n and lines[j] != "}":
                j += 1
            body = "\n".join(lines[i : j + 1])
            head = line.split("@", 1)[0].split()[1:]
            linkage, visibility = _linkage_and_visibility(head)
            e = Entity("function", _header_name(line), body, idx, linkage, visibility)
            cm = _COMDAT_REF.search(line) if "comdat" in line else None
            if cm:
                e.comdat = unquote(cm.group("name")) if cm.group("name") else e.name
            _analyse_refs(e, body, line)
            entities.append(e)
            i = j + 1
            continue
        if line.startswith("declare "):
            head = line.split("@", 1)[0].split()[1:]
            linkage, visibility = _linkage_and_visibility(head)
            e = Entity("declaration", _header_name(line), line, idx, linkage or "external", visibility)
            _analyse_refs(e, line, line)
            entities.append(e)
        elif line.startswith("@"):
            name_token, rest = split_head(line)
            words = _words_until_type(rest)
            kind = "alias" if "alias" in words else "ifunc" if "ifunc" in words else "global"
            linkage, visibility = _linkage_and_visibility(words)
            e = Entity(kind, unquote(name_token.strip()[1:]), line, idx, linkage, visibility)
            cm = _COMDAT_REF.search(rest)
            if cm and kind == "global":
                e.comdat = unquote(cm.group("name")) if cm.group("name") else e.name
            _analyse_refs(e, rest, None)
            e.address_refs = set(e.refs)
            entities.append(e)
        elif line.startswith("$"):
            entities.append(Entity("comdat", unquote(split_head(line)[0].strip()[1:]), line, idx))
        elif line.startswith("attributes #"):
            entities.append(Entity("attributes", line.split("=", 1)[0].strip(), line, idx))
        elif line.startswith("!"):
            e = Entity("metadata", line.split("=", 1)[0].strip(), line, idx)
            if "@" in line:
                _analyse_refs(e, line.split("=", 1)[-1], None)
            entities.append(e)
        elif line.startswith("%"):
            entities.append(Entity("type", split_head(line)[0].strip(), line, idx))
        elif line.startswith("module asm"):
            entities.append(Entity("asm", f"asm{idx}", line, idx))
        elif stripped.startswith(("target ", "source_filename")):
            header.append(line)
        elif not stripped.startswith(_DROPPED_TOP_LEVEL):
            raise EmberError(f"LLVM IR the split back end does not model: {stripped[:120]}")
        i += 1
    return IRModule(header, entities)


# ---------------------------------------------------------------- rewriting entities


def set_linkage(entity: Entity, linkage: str, visibility: str = "default") -> str:
    """The entity's text with its linkage and visibility replaced (dso_local dropped)."""
    drop = LINKAGES | VISIBILITIES | PREEMPTION
    qualifiers = ([linkage] if linkage != "external" else []) + ([visibility] if visibility != "default" else [])
    if entity.kind == "function":
        head, sep, rest = entity.text.partition("@")
        words = [w for w in head.split()[1:] if w not in drop]
        return " ".join(["define", *qualifiers, *words]) + " " + sep + rest
    if entity.kind in ("global", "alias", "ifunc"):
        name_token, rest = split_head(entity.text)
        words = rest.lstrip().split(" ")
        while words and words[0] in drop:
            words.pop(0)
        return name_token.rstrip() + " = " + " ".join([*qualifiers, *words])
    raise ValueError(f"cannot set linkage of a {entity.kind}")


_DECL_KEEP = re.compile(r"^(#[0-9]+|unnamed_addr|local_unnamed_addr|addrspace\([0-9]+\))$")


def _matching_paren(text: str, open_at: int) -> int:
    depth = 0
    i = open_at
    in_str = False
    while i < len(text):
        ch = text[i]
        if ch == '"':
            in_str = not in_str
        elif not in_str:
            if ch in "([{<":
                depth += 1
            elif ch in ")]}>":
                depth -= 1
                if depth == 0:
                    return i
        i += 1
    raise ValueError("unbalanced parentheses")


def declaration_of(entity: Entity, visibility: str | None = None, *, dso_local: bool = False) -> str:
    """A declaration of a defined function or global, keeping its type, CC and attributes."""
    vis = visibility if visibility is not None else entity.visibility
    head_words = entity.text.split("@", 1)[0].split() if entity.kind == "function" else split_head(entity.text)[1].split()[:6]
    dso_local = dso_local or "dso_local" in head_words
    if entity.kind == "function":
        header = entity.text.split("\n", 1)[0]
        at = header.index("@")
        name_end = at + 1
        # skip the name token
        m = re.match("@(" + tokens.IR_QUOTED + "|" + tokens.IR_NAME + ")", header[at:])
        assert m is not None
        name_end = at + m.end()
        close = _matching_paren(header, name_end)
        prefix_words = [
            w for w in header[:at].split()[1:] if w not in LINKAGES and w not in VISIBILITIES and w not in PREEMPTION
        ]
        params = header[name_end : close + 1]
        params = re.sub(" " + tokens.IR_LOCAL + "(?=[,)])", "", params)
        suffix_words = [w for w in header[close + 1 :].split() if _DECL_KEEP.match(w)]
        linkage = "extern_weak" if entity.linkage == "extern_weak" else ""
        words = ["declare", linkage, "dso_local" if dso_local else "", "" if vis == "default" else vis]
        return " ".join(w for w in [*words, *prefix_words] if w) + " @" + quote(entity.name) + params + (
            " " + " ".join(suffix_words) if suffix_words else ""
        )
    if entity.kind == "global":
        return _global_declaration(entity, vis, dso_local)
    raise ValueError(f"cannot declare a {entity.kind}")


def _global_declaration(entity: Entity, vis: str, dso_local: bool) -> str:
    name_token, rest = split_head(entity.text)
    words = rest.split()
    kept: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("global", "constant"):
            break
        if w in ("thread_local", "unnamed_addr", "local_unnamed_addr", "externally_initialized") or w.startswith(
            ("thread_local(", "addrspace(")
        ):
            kept.append(w)
        i += 1
    keyword = words[i]
    type_start = rest.index(keyword, len(" ".join(words[:i]))) + len(keyword) + 1
    type_text = _read_type(rest, type_start)
    align = re.search(r", align ([0-9]+)", rest[type_start + len(type_text) :])
    out = [name_token.strip(), "=", "external"]
    if dso_local:
        out.append("dso_local")
    if vis != "default":
        out.append(vis)
    out += kept + [keyword, type_text]
    text = " ".join(out)
    if align:
        text += f", align {align.group(1)}"
    return text


def read_type(text: str, start: int) -> str:
    """Read one LLVM type starting at `text[start]` (leading blanks skipped)."""
    return _read_type(text, start)


def _read_type(text: str, start: int) -> str:
    """Read one LLVM type starting at `start` (handles aggregates and `ptr addrspace(N)`)."""
    while text[start] == " ":
        start += 1
    ch = text[start]
    if ch in "[{<":
        end = _matching_paren(text, start)
        if ch == "<" and text[start + 1] == "{":
            end = _matching_paren(text, start)
        return text[start : end + 1]
    m = re.match(r"(ptr addrspace\([0-9]+\)|[%@]?\"[^\"]*\"|[-a-zA-Z$._0-9%]+)", text[start:])
    assert m is not None
    return m.group(1)


def strip_debug(text: str) -> str:
    """Drop `!dbg` attachments and debug records from a function body."""
    if "!dbg" not in text and "#dbg_" not in text:
        return text
    text = _DEBUG_ATTACH.sub("", text)
    return "\n".join(ln for ln in text.split("\n") if not ln.lstrip().startswith("#dbg_"))


def module_text(header: list[str], parts: Iterable[str]) -> str:
    """Assemble header lines and entity texts into a module."""
    return "\n".join([*header, *parts]) + "\n"


def map_texts(entities: Iterable[Entity], fn: Callable[[Entity], str]) -> list[str]:
    return [fn(e) for e in entities]


_PAREN = re.compile(r"[()]")


def parenthesised(text: str, start: int) -> str:
    """The text inside the parentheses opening at `text[start]` (to the end if unclosed)."""
    if start < len(text) and text[start] not in "()":
        return ""
    depth = 0
    for m in _PAREN.finditer(text, start):
        depth += 1 if m.group() == "(" else -1
        if depth == 0:
            return text[start + 1 : m.start()]
    return text[start + 1 :]


def split_top_level(text: str) -> list[str]:
    """The comma-separated items of an argument or parameter list, commas inside brackets kept."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(text[start:i].strip())
            start = i + 1
    if text.strip():
        items.append(text[start:].strip())
    return items
