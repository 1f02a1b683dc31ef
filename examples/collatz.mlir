// Collatz step counts for 1..10, printed through the Ember runtime.
// Run: ember run examples/collatz.mlir
func.func private @ember_print_i64(i64)

func.func private @steps(%n0: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %r:2 = scf.while (%n = %n0, %k = %c0) : (i64, i64) -> (i64, i64) {
    %more = arith.cmpi ne, %n, %c1 : i64
    scf.condition(%more) %n, %k : i64, i64
  } do {
  ^bb0(%n: i64, %k: i64):
    %rem = arith.remui %n, %c2 : i64
    %odd = arith.cmpi ne, %rem, %c0 : i64
    %next = scf.if %odd -> i64 {
      %t = arith.muli %n, %c3 : i64
      %u = arith.addi %t, %c1 : i64
      scf.yield %u : i64
    } else {
      %h = arith.divui %n, %c2 : i64
      scf.yield %h : i64
    }
    %k1 = arith.addi %k, %c1 : i64
    scf.yield %next, %k1 : i64, i64
  }
  return %r#1 : i64
}

func.func @main() -> i32 {
  %lo = arith.constant 1 : index
  %hi = arith.constant 11 : index
  %st = arith.constant 1 : index
  scf.for %i = %lo to %hi step %st {
    %n = arith.index_cast %i : index to i64
    %s = func.call @steps(%n) : (i64) -> i64
    func.call @ember_print_i64(%s) : (i64) -> ()
  }
  %z = arith.constant 0 : i32
  return %z : i32
}
