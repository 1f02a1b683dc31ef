; Level-2 pieces did not declare values that only metadata names: -O2's called-value
; propagation tags the indirect call with `!callees !0` (`!0 = !{ptr @dec, ptr @inc}`),
; every piece carries the module's metadata, and a piece holding neither @inc nor a call to
; it failed to parse: "piece failed to compile: use of undefined value '@dec'".
; Found on the real-world corpus (duktape, 1,473 functions: `--split function` at once,
; the default two-level after 208 s); fixed in planner.piece_text (metadata references are
; declared; a declaration nothing uses emits no symbol).
; Reduced with `ember reduce --property split-mismatch --split function -O2` from a
; 722-line module to 607 lines (the rest was padding that pushed the level-2 cut at the old
; fixed 600-instruction piece cost); with `--split-piece-cost 1` these lines suffice.
; Reproduce: ember build callees_metadata_piece.ll -O2 --split function --split-piece-cost 1
@fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"

declare i32 @printf(ptr, ...)

define internal i32 @inc(i32 %x) noinline {
  %y = add i32 %x, 1
  ret i32 %y
}

define internal i32 @dec(i32 %x) noinline {
  %y = sub i32 %x, 1
  ret i32 %y
}

define i32 @apply(i1 %c, i32 %x) {
  %f = select i1 %c, ptr @inc, ptr @dec
  %r = call i32 %f(i32 %x)
  ret i32 %r
}

define i32 @main() {
  %a = call i32 @apply(i1 true, i32 41)
  %b = call i32 @apply(i1 false, i32 %a)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %b)
  ret i32 0
}
