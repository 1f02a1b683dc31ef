; An internal global whose name starts with `.L` (legal IR; the serial build emits it as an
; assembler temporary), written from one subgraph and read from another: every split mode
; fails to assemble ("non-local symbol required" / "Undefined temporary symbol .Lp3_...").
; The MC link takes `.Ltable` for one of codegen's piece-local labels and makes it unique
; per piece, so the pieces no longer name one symbol. Found by the identifier dimension
; (`names-target`: `.Ltable` is among the words llc prints). Fixed: names the link takes for
; labels (`.L...`, `GCC_except_table<N>`) get synthetic spellings while the module is split
; (compiler/backend/names.py), spelled back in the link. Reproduce (before the fix):
;   ember build internal_dot_l_name.ll -o s.o --split subgraph --split-cost 1 -O0
@.Ltable = internal global i64 0
@.fmt = private unnamed_addr constant [6 x i8] c"%lld\0A\00"
declare i32 @printf(ptr, ...)

define void @set(i64 %x) noinline {
  store i64 %x, ptr @.Ltable
  ret void
}

define i64 @get() noinline {
  %v = load i64, ptr @.Ltable
  ret i64 %v
}

define i32 @main() {
  call void @set(i64 42)
  %v = call i64 @get()
  call i32 (ptr, ...) @printf(ptr @.fmt, i64 %v)
  ret i32 0
}
