func.func @h(%a: i32, %b: i32, %c: i32) -> i32 {
  %0 = arith.muli %a, %b : i32
  %1 = arith.muli %a, %c : i32
  %2 = arith.addi %0, %1 : i32
  return %2 : i32
}
