; An internal global named like the labels codegen gives exception tables
; (`GCC_except_table<N>`), written from one subgraph and read from another: the MC link made
; every `GCC_except_table<N>` unique per piece, so the pieces stopped naming one symbol (the
; same family as internal_dot_l_name.ll, found by reading the link's label pattern). Fixed by
; synthetic spellings while split (compiler/backend/names.py).
@GCC_except_table7 = internal global i64 0
@.fmt = private unnamed_addr constant [6 x i8] c"%lld\0A\00"
declare i32 @printf(ptr, ...)

define void @set(i64 %x) noinline {
  store i64 %x, ptr @GCC_except_table7
  ret void
}

define i64 @get() noinline {
  %v = load i64, ptr @GCC_except_table7
  ret i64 %v
}

define i32 @main() {
  call void @set(i64 42)
  %v = call i64 @get()
  call i32 (ptr, ...) @printf(ptr @.fmt, i64 %v)
  ret i32 0
}
