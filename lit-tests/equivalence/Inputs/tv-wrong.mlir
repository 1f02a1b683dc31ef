// A "pass output" for ../tv.mlir with one miscompile: ceildivsi became divsi.
func.func @mixed(%a: i8, %b: i8) -> i8 {
  %c1 = arith.constant 1 : i8
  %n = arith.divsi %a, %b : i8
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
