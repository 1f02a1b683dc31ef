@counter = internal global i64 0

define internal i64 @helper(i64 %x) noinline {
  %c = load i64, ptr @counter
  %n = add i64 %c, %x
  store i64 %n, ptr @counter
  ret i64 %n
}

define i64 @first(i64 %x) {
  %r = call i64 @helper(i64 %x)
  ret i64 %r
}

define i64 @second(i64 %x) {
  %r = call i64 @helper(i64 3)
  %s = add i64 %r, %x
  ret i64 %s
}
