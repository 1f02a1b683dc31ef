; FIXED (collected by tests/test_fuzz_cross.py, AArch64 -O1..-O3, every split mode):
; two functions with the same internal personality in two subgraphs each bring the comdat
; `DW.ref.pers`; the object link keeps the first piece's group and drops the other's member,
; but kept that member's own local symbols, AArch64's `$d` mapping symbol among them, bound to
; no section: '~ $d: LOCAL NOTYPE DEFAULT .gcc_except_table size 0 -> LOCAL NOTYPE DEFAULT UND'
; (`ember symdiff --exact-code`). A losing member's locals now go with it
; (compiler/backend/objlink.py, `_input_symbols`). Found by the default campaign (`ember fuzz`,
; seed 20240601) on 2026-11-29, at -O0 with a generated module of 123 lines; reduced by hand.
; Check: ember build X -O2 --target aarch64-linux-gnu --split none -o a.o;
;        ember build X -O2 --target aarch64-linux-gnu --split subgraph --split-cost 1 -o b.o;
;        ember symdiff --exact-code a.o b.o
@.fmt = private unnamed_addr constant [11 x i8] c"%lld %lld\0A\00"

declare i32 @printf(ptr, ...)

define internal i32 @pers(i32 %v, i32 %a, i64 %c, ptr %e, ptr %ctx) {
  ret i32 0
}

define internal i64 @may(i64 %x) noinline {
  %r = mul i64 %x, 585
  ret i64 %r
}

define i64 @a(i64 %x) personality ptr @pers {
entry:
  %r = invoke i64 @may(i64 %x) to label %ok unwind label %lp
ok:
  ret i64 %r
lp:
  %l = landingpad { ptr, i32 } catch ptr null
  ret i64 -1
}

define i64 @b(i64 %x) personality ptr @pers {
entry:
  %r = invoke i64 @may(i64 586) to label %ok unwind label %lp
ok:
  ret i64 %r
lp:
  %l = landingpad { ptr, i32 } catch ptr null
  ret i64 -1
}

define i32 @main() {
  %va = call i64 @a(i64 7)
  %vb = call i64 @b(i64 9)
  call i32 (ptr, ...) @printf(ptr @.fmt, i64 %va, i64 %vb)
  ret i32 0
}
