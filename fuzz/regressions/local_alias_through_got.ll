; An internal alias used from two subgraphs: its owner exports it hidden while compiling,
; but the other subgraph declared it with the alias's own (default) visibility, so every
; use there went through the GOT (`R_X86_64_REX_GOTPCRELX` against a symbol that is local
; in the object; the unsplit object reaches it PC-relative). Behaviour and contract-1
; symbols agree, so nothing saw it until the full symbol comparison learned that a local
; reached through the GOT is a difference (prompted by the mutation analysis: mutant
; planner-export-default-visibility survived 300 programs). Fixed in planner._declare_alias.
@arr = internal global [4 x i64] [i64 1, i64 2, i64 3, i64 4]
@alg = internal alias i64, getelementptr (i8, ptr @arr, i64 8)
@alf = weak alias i64 (i64), ptr @target

define internal i64 @target(i64 %x) noinline {
  %y = add i64 %x, 3
  ret i64 %y
}

define i64 @a(i64 %x) {
  %r = call i64 @alf(i64 %x)
  %g = load i64, ptr @alg
  %s = add i64 %r, %g
  ret i64 %s
}

define i64 @b(i64 %x) {
  %r = call i64 @alf(i64 %x)
  store i64 %r, ptr @alg
  ret i64 %r
}

@.fmt = private unnamed_addr constant [5 x i8] c"%ld\0A\00"
declare i32 @printf(ptr, ...)

define i32 @main() {
  %x = call i64 @a(i64 1)
  %y = call i64 @b(i64 2)
  %z = call i64 @a(i64 3)
  %p = call i32 (ptr, ...) @printf(ptr @.fmt, i64 %z)
  ret i32 0
}
