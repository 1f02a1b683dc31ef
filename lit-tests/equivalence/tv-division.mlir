// RUN: %ember verify --tv --pass-pipeline 'builtin.module(func.func(arith-expand))' --timeout 60 %s | %FileCheck %s
// RUN: not %ember verify --tv %S/Inputs/hard.mlir --target %S/Inputs/hard-target.mlir --timeout 2 | %FileCheck %s --check-prefix=WIDTHS

// arith-expand's ceildivsi/floordivsi expansions at full width: a definite answer
// (shared division terms; division abstracted before the exact query).
// CHECK-LABEL: ok       @divs32
// CHECK-LABEL: ok       @divs64
// CHECK-LABEL: ok       @nested32
// CHECK: ember verify --tv: 3 functions validated
func.func @divs32(%a: i32, %b: i32) -> i32 {
  %0 = arith.ceildivsi %a, %b : i32
  %1 = arith.floordivsi %a, %b : i32
  %2 = arith.remsi %a, %b : i32
  %3 = arith.addi %0, %1 : i32
  %4 = arith.addi %3, %2 : i32
  return %4 : i32
}
func.func @divs64(%a: i64, %b: i64) -> i64 {
  %0 = arith.ceildivsi %a, %b : i64
  %1 = arith.floordivsi %a, %b : i64
  %2 = arith.remsi %a, %b : i64
  %3 = arith.addi %0, %1 : i64
  %4 = arith.addi %3, %2 : i64
  return %4 : i64
}
func.func @nested32(%a: i32, %b: i32) -> i32 {
  %q = arith.ceildivsi %a, %b : i32
  %r = arith.floordivsi %q, %b : i32
  return %r : i32
}

// Undecided at full width: the narrower widths proven, from i1 up, are named.
// WIDTHS: unknown  @h: solver gave up: timeout; proven at i1..i{{[0-9]+}}, i{{[0-9]+}} not decided; i32 not decided
// WIDTHS: ember verify --tv: 1 of 1 functions not validated
