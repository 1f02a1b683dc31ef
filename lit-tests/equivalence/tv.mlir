// Translation validation of upstream passes; unsupported functions are skipped with a reason.
// RUN: %ember verify --tv --pass-pipeline 'canonicalize,cse,sccp' %s | %FileCheck %s
// RUN: %ember verify --tv --pass-pipeline 'arith-expand' %s | %FileCheck %s
// RUN: %ember verify --tv --pass-pipeline 'int-range-optimizations' %s | %FileCheck %s
// RUN: %ember verify --tv --pass-pipeline 'canonicalize' --unroll 2 %s | %FileCheck %s --check-prefix=UNROLL
// RUN: not %ember verify --tv --target %S/Inputs/tv-wrong.mlir %s 2>&1 | %FileCheck %s --check-prefix=WRONG

// CHECK: ok       @mixed
// CHECK: ok       @loop
// CHECK: skipped  @call: unsupported: func.call
// CHECK: ember verify --tv: 3 functions validated
// UNROLL: skipped  @loop: unsupported: scf.for with 4 iterations (unroll bound 2)
// WRONG: WRONG    @mixed
// WRONG: ERROR: Value mismatch (check failed: value)
// WRONG: Example:
// WRONG: i8 %arg0 = 0x{{[0-9a-f]+}} (u {{[0-9]+}}, s {{-?[0-9]+}})
// WRONG: Source result #0: 0x
// WRONG: Target result #0: 0x
// A public function the target lost is a failure, not a skip.
// WRONG: WRONG    @loop
// WRONG-NEXT: public function @loop is missing from the output (or lost its body)
// WRONG: ember verify --tv: 4 of 4 functions not validated

func.func @mixed(%a: i8, %b: i8) -> i8 {
  %c0 = arith.constant 0 : i8
  %c1 = arith.constant 1 : i8
  %x = arith.addi %a, %c0 : i8
  %n = arith.ceildivsi %x, %b : i8
  %c = arith.cmpi slt, %a, %b : i8
  %r = scf.if %c -> i8 {
    %m = arith.maxsi %n, %c1 : i8
    scf.yield %m : i8
  } else {
    %s = arith.select %c, %a, %n : i8
    scf.yield %s : i8
  }
  return %r : i8
}

func.func @loop(%a: i32) -> i32 {
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %a) -> i32 {
    %t = arith.muli %acc, %acc : i32
    scf.yield %t : i32
  }
  return %r : i32
}

func.func @same(%a: i32) -> i32 {
  return %a : i32
}

func.func @call(%a: i32) -> i32 {
  %r = func.call @same(%a) : (i32) -> i32
  return %r : i32
}
