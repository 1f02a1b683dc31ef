// RUN: %ember-opt %s --pass-pipeline='builtin.module(ember-rewrites)' | %FileCheck %s
// RUN: %ember verify --tv --pass-pipeline ember-rewrites %s | %FileCheck %s --check-prefix=TV

// Strength reduction: x *nsw 8 -> x <<nsw 3; x // 4 -> x >>s 2.
// CHECK-LABEL: func.func @strength
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: %[[S:.*]] = arith.shli %[[X]], %[[C3]] overflow<nsw> : i32
// CHECK: %[[D:.*]] = arith.shrsi %[[S]], %[[C2]] : i32
// CHECK-NOT: arith.muli
// CHECK-NOT: arith.floordivsi
// CHECK: return %[[D]]
func.func @strength(%x: i32) -> i32 {
  %c8 = arith.constant 8 : i32
  %c4 = arith.constant 4 : i32
  %m = arith.muli %x, %c8 overflow<nsw> : i32
  %d = arith.floordivsi %m, %c4 : i32
  return %d : i32
}

// Reassociation keeps nsw only when the constant sum does not overflow.
// CHECK-LABEL: func.func @reassoc
// CHECK-DAG: %[[C6:[^ ]*]] = arith.constant 6 : i8
// CHECK-DAG: %[[CM:[^ ]*]] = arith.constant -56 : i8
// CHECK: arith.addi %{{.*}}, %[[C6]] overflow<nsw> : i8
// CHECK: arith.addi %{{.*}}, %[[CM]] : i8
// CHECK-NEXT: return
func.func @reassoc(%x: i8, %y: i8) -> (i8, i8) {
  %c3 = arith.constant 3 : i8
  %c100 = arith.constant 100 : i8
  %a = arith.addi %x, %c3 overflow<nsw> : i8
  %b = arith.addi %a, %c3 overflow<nsw> : i8
  %p = arith.addi %y, %c100 overflow<nsw> : i8
  %q = arith.addi %p, %c100 overflow<nsw> : i8
  return %b, %q : i8, i8
}

// Python floor division is lowered to divsi/remsi with a sign fix-up.
// CHECK-LABEL: func.func @floordiv
// CHECK-NOT: arith.floordivsi
// CHECK-DAG: arith.remsi
// CHECK-DAG: arith.divsi
// CHECK: arith.select
func.func @floordiv(%a: i16, %b: i16) -> i16 {
  %r = arith.floordivsi %a, %b : i16
  return %r : i16
}

// A select that picks between two arms under the same condition twice.
// CHECK-LABEL: func.func @selects
// CHECK-SAME: (%[[C:.*]]: i1, %[[X:.*]]: i64, %[[Y:.*]]: i64, %[[Z:.*]]: i64)
// CHECK: %[[R:.*]] = arith.select %[[C]], %[[X]], %[[Z]] : i64
// CHECK-NEXT: return %[[R]]
func.func @selects(%c: i1, %x: i64, %y: i64, %z: i64) -> i64 {
  %i = arith.select %c, %x, %y : i64
  %o = arith.select %c, %i, %z : i64
  return %o : i64
}

// TV: ok       @strength
// TV: ok       @reassoc
// TV: ok       @floordiv
// TV: ok       @selects
// TV: ember verify --tv: 4 functions validated for 'ember-rewrites'
