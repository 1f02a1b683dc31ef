// Upstream MLIR 22: `sccp` after `canonicalize,cse` returns a stale constant.
// mlir-opt --pass-pipeline='builtin.module(canonicalize,cse,sccp)' mlir_sccp_stale_constant.mlir
// @f3 loops i = 0..3 with acc = (acc % (i | 1)) + 1 starting from acc = %p0, then returns
// (acc ^ g) ^ g == acc: for %p0 = 40 that is 3. After the pipeline, the exit block
// returns the constant 1 (acc after the first iteration, whatever %p0): SCCP folds
// (acc ^ g) ^ g to acc while acc's lattice still holds its first-visit constant and
// does not revisit the fold when the back edge makes acc overdefined. Any one of the
// three passes alone, or canonicalize,sccp, gives correct code. Found by Ember's
// differential fuzzer (fuzz/regressions/midend_sccp_stale_fold.em; docs/peers.md).
memref.global "private" @ember.g0 : memref<i64> = dense<-500>
func.func @f3(%p0: i64, %p1: i64) -> (i64) {
  %1 = arith.constant 0 : i64
  %2 = arith.constant 4 : i64
  %3 = arith.constant 1 : i64
  %4 = arith.constant 0 : i64
  %10 = arith.constant true
  %11 = arith.cmpi slt, %1, %2 : i64
  %12 = arith.cmpi sgt, %1, %2 : i64
  %13 = arith.select %10, %11, %12 : i1
  cf.cond_br %13, ^bb1(%1, %p0 : i64, i64), ^bb3(%p0 : i64)
^bb1(%5: i64, %6: i64):
  %14 = arith.constant 1 : i64
  %15 = arith.ori %5, %14 : i64
  %16 = arith.constant 0 : i64
  %17 = arith.cmpi eq, %15, %16 : i64
  cf.cond_br %17, ^bb4, ^bb5
^bb2(%7: i64, %8: i64):
  %23 = arith.subi %2, %7 : i64
  %24 = arith.subi %7, %2 : i64
  %25 = arith.select %10, %23, %24 : i64
  %26 = arith.subi %4, %3 : i64
  %27 = arith.select %10, %3, %26 : i64
  %28 = arith.cmpi ugt, %25, %27 : i64
  %29 = arith.addi %7, %3 : i64
  cf.cond_br %28, ^bb1(%29, %8 : i64, i64), ^bb3(%8 : i64)
^bb3(%9: i64):
  %30 = memref.get_global @ember.g0 : memref<i64>
  %31 = memref.load %30[] : memref<i64>
  %32 = arith.xori %9, %31 : i64
  %33 = memref.get_global @ember.g0 : memref<i64>
  %34 = memref.load %33[] : memref<i64>
  %35 = arith.xori %32, %34 : i64
  return %35 : i64
^bb4:
  %19 = arith.constant 0 : i64
  return %19 : i64
^bb5:
  %20 = arith.remui %6, %15 : i64
  %21 = arith.constant 1 : i64
  %22 = arith.addi %20, %21 : i64
  cf.br ^bb2(%5, %22 : i64, i64)
}