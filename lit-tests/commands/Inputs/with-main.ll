@g = global i64 7

define internal i64 @helper(i64 %x) noinline {
  %y = add i64 %x, 1
  ret i64 %y
}

define i32 @main() {
  %v = load i64, ptr @g
  %r = call i64 @helper(i64 %v)
  %t = trunc i64 %r to i32
  %s = sub i32 %t, 8
  ret i32 %s
}
