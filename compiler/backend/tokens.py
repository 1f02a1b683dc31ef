"""How names are spelled in printed LLVM IR, in one place.

Every text model left (the IR entity model the harness's reducer and slicer read) builds its
patterns from these, so a name means the same thing to all of them.
"""

from __future__ import annotations

#: a character of an unquoted IR name (`@name`, `%name`, a block label)
IR_NAME_CHAR = r"[-a-zA-Z$._0-9]"
#: an unquoted IR name
IR_NAME = IR_NAME_CHAR + "+"
#: a quoted IR name (`@"with space"`: LLVM escapes a quote inside as `\22`)
IR_QUOTED = r'"[^"]*"'
#: a local value or a named type (`%x`, `%struct.s`), unquoted
IR_LOCAL = "%" + IR_NAME
#: where a name token ends (no name character follows)
IR_NAME_END = f"(?!{IR_NAME_CHAR})"
