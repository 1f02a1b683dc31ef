; llvm-lto -j 2: k0_counter (internal) becomes GLOBAL HIDDEN. docs/peers.md, finding 1.
@k0_counter = internal global i64 0
@.fmt.k0_counter = private unnamed_addr constant [20 x i8] c"k0_counter=%016llx\0A\00"
declare i32 @printf(ptr, ...)
define i64 @k0_b(i64 %x) {
  %c.i = load i64, ptr @k0_counter, align 4
  %n.i = add i64 %c.i, %x
  store i64 %n.i, ptr @k0_counter, align 4
  ret i64 0
}
define i32 @main() {
  %2 = call i32 (ptr, ...) @printf(ptr @.fmt.k0_counter, i64 0)
  ret i32 0
}
