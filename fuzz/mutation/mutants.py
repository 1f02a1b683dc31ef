"""The mutant suite: realistic one-spot mistakes in the compiler, one row each.

Not the deliberate faults of `fuzz/faults.py` (those are switches the harness was built
to catch); these are the slips a developer makes while editing the back end, the front
end or the midend: a comparison off by one, a flag swapped, a case forgotten. Each row
is the exact text it replaces (which must occur exactly once, so the table cannot rot
silently: `tests/test_mutation.py`) and the campaign strategy that should reach it.

Dropped as equivalent under the contract (split == unsplit in behaviour and symbols):
`constants_visible=False` in `planner.emit_subgraphs` (constants owned by another
subgraph become plain declarations) only costs folding, never output or symbols; it
survived 300 programs and no check could tell, short of comparing code quality.
(The piece cut in memory, `compiler/backend/cut.py`, replaced the planner's text pieces:
the rows that mutated `irmodel.declaration_of` or the text renderer mutate the cut now. A
thread-local alias declared with another access model is unreachable there: the plan keeps
a variable's aliases with every definition naming them, so no piece declares one.) Setting `llvm.linkage` only where one is given in
`ember-internalize-private` changes nothing for Ember programs (the front end marks its
private functions internal itself; the pass matters for hand-written `.mlir` input, which
the campaign does not generate). Ember's own rewrite rows that upstream `canonicalize`
already applies before `ember-rewrites` runs (`add-of-add` with `C0 - C1`: survived 300
programs) are shadowed the same way.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    """One mistake: in `path`, `original` (exactly once) becomes `replacement`."""

    name: str
    path: str
    original: str
    replacement: str
    mistake: str
    strategy: str


MUTANTS: tuple[Mutant, ...] = (
    # ---------------------------------------------------------------- object link
    Mutant(
        "objlink-keeps-exported-local-global", "compiler/backend/objlink.py",
        "elif raw in local and entry.defined and entry.row is not None and restore_bindings:",
        "elif raw in local and raw in private and entry.defined and entry.row is not None and restore_bindings:",
        "only formerly private symbols are bound local again; internal ones exported across subgraphs leak",
        "callgraph",
    ),
    Mutant(
        "objlink-local-reference-unresolved", "compiler/backend/objlink.py",
        "        elif raw in local_def and not entry.defined:",
        "        elif raw in local_def and entry.defined:",
        "another piece's reference to a local its owner kept local is not resolved to it: it stays an "
        "undefined global",
        "callgraph",
    ),
    Mutant(
        "objlink-private-not-temporary", "compiler/backend/objlink.py",
        'index = symbols.local(b".L" + raw, info, 0, out_sh, out_value, size)',
        "index = symbols.local(raw, info, 0, out_sh, out_value, size)",
        "a private symbol crossing pieces is bound local under its own name, not made an assembler temporary",
        "linkage",
    ),
    # ---------------------------------------------------------------- planner
    Mutant(
        "cut-export-default-visibility", "compiler/backend/cut.py",
        "            lib.LLVMSetVisibility(value, _HIDDEN)\n        elif shown in (IMPORT, FOLD):",
        "            pass\n        elif shown in (IMPORT, FOLD):",
        "a local exported across subgraphs while compiling keeps default visibility, not hidden",
        "callgraph",
    ),
    Mutant(
        "planner-private-set-from-internal", "compiler/backend/planner.py",
        'private_names = {n for n in exported if by_name[n].linkage == "private"}',
        'private_names = {n for n in exported if by_name[n].linkage == "internal"}',
        "the names to turn back into `.L` temporaries are picked by the wrong linkage",
        "linkage",
    ),
    Mutant(
        "cut-imports-linkonce", "compiler/backend/cut.py",
        "lib.LLVMSetLinkage(value, engine.AVAILABLE_EXTERNALLY)",
        "lib.LLVMSetLinkage(value, engine.LINKONCE_ODR)",
        "an imported copy of an exported callee (or a constant's copy) gets a linkage that is emitted"
        " (linkonce_odr, not available_externally)",
        "callgraph",
    ),
    Mutant(
        "cut-import-visibility", "compiler/backend/cut.py",
        "            if local:\n                lib.LLVMSetVisibility(value, _HIDDEN)",
        "            if False:\n                lib.LLVMSetVisibility(value, _HIDDEN)",
        "a local constant or function copied into another subgraph keeps default visibility",
        "linkage",
    ),
    Mutant(
        "planner-metadata-refs-undeclared", "compiler/backend/planner.py",
        "named = [r for r in _metadata_refs(mod) if r not in member_set and r not in needed]",
        "named = [r for r in _metadata_refs(mod) if r not in member_set and r in needed]",
        "functions that only metadata names (`!callees`) are not declared in the piece",
        "callgraph",
    ),
    # ---------------------------------------------------------------- the plan's facts
    Mutant(
        "facts-global-declaration-defined", "compiler/backend/facts.py",
        'declaration = kind in ("global", "function") and bool(lib.LLVMIsDeclaration(ref))',
        'declaration = kind == "function" and bool(lib.LLVMIsDeclaration(ref))',
        "a global variable declaration (`extern_weak` too) is taken for a definition (owned by one"
        " subgraph, declared strong elsewhere)",
        "linkage",
    ),
    Mutant(
        "irmodel-private-not-local", "compiler/backend/irmodel.py",
        'LOCAL_LINKAGES = frozenset({"private", "internal"})',
        'LOCAL_LINKAGES = frozenset({"internal"})',
        "`private` is forgotten among the local linkages",
        "linkage",
    ),
    # ---------------------------------------------------------------- split orchestration
    Mutant(
        "split-imports-from-O2-only", "compiler/backend/split.py",
        'import_cost=planner.IMPORT_COST if config.opt_level >= 1 and mode != SplitMode.FUNCTION else 0,',
        'import_cost=planner.IMPORT_COST if config.opt_level >= 2 and mode != SplitMode.FUNCTION else 0,',
        "callees are imported only from -O2 up (-O1 inlines too: the fixed libcall bug, back)",
        "linkage",
    ),
    Mutant(
        "split-worker-codegen-default-level", "compiler/backend/split.py",
        "return llvm_stage.native_target(config.triple, config.opt_level)",
        "return llvm_stage.native_target(config.triple)",
        "workers generate code at the target machine's default level, not the build's",
        "callgraph",
    ),
    Mutant(
        "split-linkonce-copies-all-kept", "compiler/backend/split.py",
        "                if ident in shared_seen:\n                    continue",
        "                if ident in shared_seen:\n                    pass",
        "every subgraph's discardable linkonce copy is linked, not one",
        "linkage",
    ),
    # ---------------------------------------------------------------- front end
    Mutant(
        "emit-floordiv-fixup-sign", "compiler/frontend/emit.py",
        'differ = self.cmpi("slt", signs, zero, ty)',
        'differ = self.cmpi("sgt", signs, zero, ty)',
        "the floor-division fix-up tests the wrong sign of remainder xor divisor",
        "ember",
    ),
    Mutant(
        "emit-shift-amount-signed", "compiler/frontend/emit.py",
        'inrange = self.cmpi("ult", n, width, ty)',
        'inrange = self.cmpi("slt", n, width, ty)',
        "the shift-amount range check is signed, so a negative amount counts as in range",
        "ember",
    ),
    Mutant(
        "emit-rshift-clamp-zero", "compiler/frontend/emit.py",
        "amount = self.select(inrange, n, self.const(t.width - 1, t), ty)",
        "amount = self.select(inrange, n, self.const(0, t), ty)",
        "a signed right shift by the width or more shifts by 0, not by width - 1",
        "ember",
    ),
    Mutant(
        "emit-widen-sign-swapped", "compiler/frontend/emit.py",
        'ext = "extsi" if t.signed else "extui"\n        return self.val(f"arith.{ext} {v} : i{t.width} to i64")',
        'ext = "extui" if t.signed else "extsi"\n        return self.val(f"arith.{ext} {v} : i{t.width} to i64")',
        "widening a narrow integer to 64 bits extends with the wrong signedness",
        "ember",
    ),
    Mutant(
        "emit-range-one-extra-iteration", "compiler/frontend/emit.py",
        'more = self.cmpi("ugt", remaining, stride, t)',
        'more = self.cmpi("uge", remaining, stride, t)',
        "`for i in range(...)` runs one more iteration when exactly one stride is left",
        "ember",
    ),
    Mutant(
        "emit-float-mod-adjust", "compiler/frontend/emit.py",
        'differ = self.val(f"arith.xori {b_neg}, {mod_neg} : i1")',
        'differ = self.val(f"arith.andi {b_neg}, {mod_neg} : i1")',
        "float `%` adjusts when both signs are negative instead of when they differ",
        "ember",
    ),
    Mutant(
        "emit-mod-minus-one-unguarded", "compiler/frontend/emit.py",
        "            divisor = self.select(is_m1, self.const(1, t), b, ty)",
        "            divisor = b",
        "`x % -1` is computed with srem, which traps for the minimum integer",
        "ember",
    ),
    # ---------------------------------------------------------------- midend
    Mutant(
        "rewrite-sub-const-sign", "compiler/midend/rewrites/table.py",
        'Rewrite("sub-const", "subi(x, C) => addi(x, -C)"',
        'Rewrite("sub-const", "subi(x, C) => addi(x, C)"',
        "`x - C` is rewritten to `x + C` (the negation forgotten)",
        "ember",
    ),
    Mutant(
        "fold-branches-wrong-successor", "compiler/midend/passes/fold_branches.py",
        "    dest = branch.operation.successors[0 if taken else 1]\n"
        "    operands = list(branch.trueDestOperands if taken else branch.falseDestOperands)",
        "    dest = branch.operation.successors[1 if taken else 0]\n"
        "    operands = list(branch.falseDestOperands if taken else branch.trueDestOperands)",
        "a constant conditional branch is folded to the edge it does not take",
        "ember",
    ),
    Mutant(
        "internalize-private-declarations", "compiler/midend/passes/internalize_private.py",
        "        if len(op.operation.regions[0].blocks) == 0:  # a declaration stays external\n            continue\n",
        "",
        "private declarations (the runtime's functions) get internal linkage too",
        "ember",
    ),
    Mutant(
        "emit-int-to-float-sign", "compiler/frontend/emit.py",
        "return self.val(f\"arith.{'sitofp' if src.signed else 'uitofp'} {v} : {s} to {d}\")",
        "return self.val(f\"arith.{'uitofp' if src.signed else 'sitofp'} {v} : {s} to {d}\")",
        "an integer converted to a float is read with the wrong signedness",
        "ember",
    ),
    # ------------------------------------------ classes the default campaign once missed
    # Judged by the default campaign (`mixed`), as a user runs it: TLS access models across
    # subgraphs, non-ODR discardable linkages, narrow signed overflow.
    Mutant(
        "irmodel-tls-declaration-drops-model", "compiler/backend/irmodel.py",
        "            kept.append(w)\n",
        "            kept.append(\"thread_local\" if w.startswith(\"thread_local(\") else w)\n",
        "a thread-local global declared in another subgraph loses its TLS access model (`thread_local(localexec)` -> `thread_local`)",
        "mixed",
    ),
    Mutant(
        "planner-linkonce-one-owner", "compiler/backend/planner.py",
        'DISCARDABLE = frozenset({"linkonce", "linkonce_odr", "available_externally"})',
        'DISCARDABLE = frozenset({"linkonce_odr", "available_externally"})',
        "plain `linkonce` (non-ODR) is treated like `weak`: one owner, declared elsewhere, though the owner may drop it",
        "mixed",
    ),
    Mutant(
        "emit-narrow-signed-nsw", "compiler/frontend/emit.py",
        '        if op in simple:\n            return self.val(f"arith.{simple[op]} {a}, {b} : {ty}")\n        if op in ("floordiv"',
        '        if op in simple:\n'
        '            nsw = " overflow<nsw>" if t.signed and t.width < 64 and op in ("add", "sub", "mul") else ""\n'
        '            return self.val(f"arith.{simple[op]} {a}, {b}{nsw} : {ty}")\n        if op in ("floordiv"',
        "narrow signed `+`/`-`/`*` (Int8/16/32) carry `nsw`: Ember's wrap-around becomes UB the optimiser exploits",
        "mixed",
    ),
    Mutant(
        "split-linkonce-any-not-discardable", "compiler/backend/split.py",
        "_DISCARDABLE = frozenset({engine.LINKONCE_ANY, engine.LINKONCE_ODR, engine.AVAILABLE_EXTERNALLY})",
        "_DISCARDABLE = frozenset({engine.LINKONCE_ODR, engine.AVAILABLE_EXTERNALLY})",
        "the worker forgets non-ODR `linkonce` among the discardable linkages: a subgraph whose copies are plain "
        "linkonce is compiled in place, so every subgraph's copy reaches the link",
        "mixed",
    ),
    Mutant(
        "planner-level2-linkonce-not-shared", "compiler/backend/planner.py",
        "if all(mod.values[n].linkage in DISCARDABLE for n in members):",
        'if all(mod.values[n].linkage in ("linkonce_odr", "available_externally") for n in members):',
        "level 2 gives only ODR discardable copies pieces of their own: a plain `linkonce` copy is linked from every subgraph",
        "mixed",
    ),
    Mutant(
        "emit-trunc-to-signed-nsw", "compiler/frontend/emit.py",
        '                return self.val(f"arith.trunci {v} : {s} to {d}")',
        '                return self.val(f"arith.trunci {v}{\' overflow<nsw>\' if dst.signed else \'\'} : {s} to {d}")',
        "converting to a narrower signed integer (`Int8(x)`) truncates with `nsw`: a value that does not fit is poison, not wrapped",
        "mixed",
    ),
    Mutant(
        "emit-negate-narrow-nsw", "compiler/frontend/emit.py",
        '        return self.val(f"arith.subi {self.const(0, t)}, {v} : {ty}")',
        '        return self.val(f"arith.subi {self.const(0, t)}, {v}{\' overflow<nsw>\' if t.signed and t.width < 64 else \'\'} : {ty}")',
        "unary minus on a narrow signed integer carries `nsw`: `-Int8(-128)` is poison, not -128",
        "mixed",
    ),
    Mutant(
        "objlink-section-addend-unshifted", "compiler/backend/objlink.py",
        'r["addend"] += extra[symi]',
        'r["addend"] += 0 * extra[symi]',
        "a relocation against a moved section keeps its piece's addend (strings, jump tables, unwind "
        "tables read from the first piece's bytes)",
        "mixed",
    ),
    Mutant(
        "planner-level2-exports-internal-only", "compiler/backend/planner.py",
        "if r in piece_of and piece_of[r] != i and mod.values[r].is_local",
        'if r in piece_of and piece_of[r] != i and mod.values[r].linkage == "internal"',
        "level 2 exports only `internal` locals used across pieces: a `private` one (a string) is defined in one "
        "piece and referenced by name from another",
        "callgraph",
    ),
)

BY_NAME = {m.name: m for m in MUTANTS}
