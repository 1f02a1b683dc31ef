func.func @h(%a: i32, %b: i32, %c: i32) -> i32 {
  %0 = arith.ori %b, %c : i32
  %1 = arith.andi %b, %c : i32
  %2 = arith.muli %a, %0 : i32
  %3 = arith.muli %a, %1 : i32
  %4 = arith.addi %2, %3 : i32
  return %4 : i32
}
