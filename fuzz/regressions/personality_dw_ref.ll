; Two functions with the same personality in different split pieces: codegen emits the
; personality reference `DW.ref.pers` (a weak hidden object in a comdat section) in every
; piece, and the MC link kept both definitions, so the integrated assembler aborted with
; "symbol 'DW.ref.pers' is already defined" (subgraph and two-level modes, -O0 and -O2).
; Found by the linkage strategy's `eh` fragment (invoke/landingpad with the module's own
; personality). FIXED: the link keeps one DW.ref.* definition (then the MC link; now the object
; link's one comdat group per signature, compiler/backend/objlink.py).
; Reproduce: ember build personality_dw_ref.ll -O0 --split two-level --split-cost 1 -j 1 -o x.o
define internal i32 @pers(i32 %v, i32 %a, i64 %c, ptr %e, ptr %ctx) {
  ret i32 0
}

define internal i64 @may(i64 %x) noinline {
  %r = mul i64 %x, 3
  ret i64 %r
}

define i64 @a(i64 %x) personality ptr @pers {
entry:
  %r = invoke i64 @may(i64 %x) to label %ok unwind label %lp
ok:
  ret i64 %r
lp:
  %l = landingpad { ptr, i32 } cleanup
  ret i64 -1
}

define i64 @b(i64 %x) personality ptr @pers {
entry:
  %r = invoke i64 @may(i64 7) to label %ok unwind label %lp
ok:
  ret i64 %r
lp:
  %l = landingpad { ptr, i32 } cleanup
  ret i64 -1
}

declare i32 @printf(ptr, ...)
@fmt = private unnamed_addr constant [5 x i8] c"%ld\0A\00"

define i32 @main() {
  %va = call i64 @a(i64 5)
  %vb = call i64 @b(i64 1)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %va)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %vb)
  ret i32 0
}
