// RUN: %ember-opt %s --midend 2 | %FileCheck %s --check-prefix=O2
// RUN: %ember-opt %s --midend 0 | %FileCheck %s --check-prefix=O0

// The -O2 midend (inline, canonicalize, cse, Ember rewrites, symbol-dce, ...)
// inlines the internal helper, folds its constant argument and deletes it; -O0 runs
// nothing and leaves the module as written.
// O2-NOT: @helper
// O2-LABEL: func.func @entry
// O2-SAME: (%[[X:.*]]: i64)
// O2: %[[C:.*]] = arith.constant 49 : i64
// O2: %[[R:.*]] = arith.addi %[[X]], %[[C]]
// O2-NEXT: return %[[R]]

// O0-LABEL: func.func private @helper
// O0-LABEL: func.func @entry
// O0: call @helper
func.func private @helper(%x: i64) -> i64 attributes {llvm.linkage = #llvm.linkage<internal>} {
  %0 = arith.muli %x, %x : i64
  return %0 : i64
}

func.func @entry(%x: i64) -> i64 {
  %c7 = arith.constant 7 : i64
  %0 = call @helper(%c7) : (i64) -> i64
  %1 = arith.addi %x, %0 : i64
  return %1 : i64
}
