func.func @f() {
  %x = arith.addi %y, %y : i32
}
