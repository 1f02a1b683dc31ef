"""The IR delta table, in the order the reducer tries them: big cuts first (llvm-reduce's
`DeltaPasses.def`). One delta per file in this folder; a new delta is one file plus one
row here."""

from __future__ import annotations

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir import (
    aliases,
    arguments,
    attributes_metadata,
    basic_blocks,
    branches,
    constants,
    dead_values,
    delete_instructions,
    entry_labels,
    functions_to_declarations,
    functions_to_padding,
    globals_to_declarations,
    inline_call_sites,
    instructions,
    merge_blocks,
    module_data,
    operands_zero,
    return_types,
    self_loops,
    simplify_functions,
    stub_bodies,
    unused_declarations,
    unused_globals,
    unused_types_metadata,
    values_to_return,
)

IR_DELTAS: list[DeltaPass] = [
    stub_bodies.PASS,
    functions_to_declarations.PASS,
    globals_to_declarations.PASS,
    aliases.PASS,
    unused_declarations.PASS,
    unused_globals.PASS,
    branches.TO_TRUE,
    branches.TO_FALSE,
    inline_call_sites.PASS,
    values_to_return.PASS,
    basic_blocks.PASS,
    self_loops.PASS,
    merge_blocks.PASS,
    delete_instructions.PASS,
    instructions.PASS,
    operands_zero.PASS,
    simplify_functions.PASS,
    dead_values.PASS,
    constants.PASS,
    arguments.PASS,
    return_types.PASS,
    attributes_metadata.PASS,
    module_data.PASS,
    unused_types_metadata.PASS,
    entry_labels.PASS,
    functions_to_padding.PASS,
]
