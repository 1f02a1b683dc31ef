; llvm-split pipeline: the private string becomes GLOBAL HIDDEN .fmt.f. docs/peers.md, finding 1.
@.fmt.f = private unnamed_addr constant [15 x i8] c"f%lld %016llx\0A\00"
declare i32 @printf(ptr, ...)
define i32 @main() {
  call i32 (ptr, ...) @printf(ptr @.fmt.f, i64 0, i64 0)
  ret i32 0
}
