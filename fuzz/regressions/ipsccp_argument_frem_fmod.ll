; FIXED: the `fmod` half of ipsccp_argument_across_subgraphs.ll, written by hand. `@spec` is
; out of line (`noinline`, and too large to copy) and both its callers pass %mode = 0: unsplit,
; IPSCCP makes %mode 0, the `frem` branch is dead and the object has no `UND fmod`. Split
; (--split-cost 1), `@a` and `@b` were in two subgraphs, `@spec` was exported while compiling,
; its `frem` stayed and became a call: `+ GLOBAL NOTYPE DEFAULT UND fmod`. Fixed by clustering
; every caller of a local left out of line with it (compiler/backend/planner.py).
; Reproduce: ember build X -O2 --split none -o a.o; ember build X -O2 --split subgraph
;            --split-cost 1 -o b.o; ember symdiff a.o b.o   (+ UND fmod at -O1 and -O2 before the fix)
define internal double @spec(i64 %mode, double %x) noinline {
entry:
  %c = icmp eq i64 %mode, 0
  br i1 %c, label %fast, label %slow
slow:
  %r = frem double %x, 3.0
  ret double %r
fast:
  %p0 = fadd double %x, 1.0
  %p1 = fmul double %p0, 1.5
  %p2 = fmul double %p1, 1.5
  %p3 = fmul double %p2, 1.5
  %p4 = fmul double %p3, 1.5
  %p5 = fmul double %p4, 1.5
  %p6 = fmul double %p5, 1.5
  %p7 = fmul double %p6, 1.5
  %p8 = fmul double %p7, 1.5
  %p9 = fmul double %p8, 1.5
  %p10 = fmul double %p9, 1.5
  %p11 = fmul double %p10, 1.5
  %p12 = fmul double %p11, 1.5
  %p13 = fmul double %p12, 1.5
  %p14 = fmul double %p13, 1.5
  %p15 = fmul double %p14, 1.5
  %p16 = fmul double %p15, 1.5
  %p17 = fmul double %p16, 1.5
  %p18 = fmul double %p17, 1.5
  %p19 = fmul double %p18, 1.5
  %p20 = fmul double %p19, 1.5
  %p21 = fmul double %p20, 1.5
  %p22 = fmul double %p21, 1.5
  %p23 = fmul double %p22, 1.5
  %p24 = fmul double %p23, 1.5
  %p25 = fmul double %p24, 1.5
  %p26 = fmul double %p25, 1.5
  %p27 = fmul double %p26, 1.5
  %p28 = fmul double %p27, 1.5
  %p29 = fmul double %p28, 1.5
  %p30 = fmul double %p29, 1.5
  %p31 = fmul double %p30, 1.5
  %p32 = fmul double %p31, 1.5
  %p33 = fmul double %p32, 1.5
  %p34 = fmul double %p33, 1.5
  %p35 = fmul double %p34, 1.5
  %p36 = fmul double %p35, 1.5
  %p37 = fmul double %p36, 1.5
  %p38 = fmul double %p37, 1.5
  %p39 = fmul double %p38, 1.5
  %p40 = fmul double %p39, 1.5
  %p41 = fmul double %p40, 1.5
  %p42 = fmul double %p41, 1.5
  %p43 = fmul double %p42, 1.5
  %p44 = fmul double %p43, 1.5
  %p45 = fmul double %p44, 1.5
  %p46 = fmul double %p45, 1.5
  %p47 = fmul double %p46, 1.5
  %p48 = fmul double %p47, 1.5
  %p49 = fmul double %p48, 1.5
  %p50 = fmul double %p49, 1.5
  %p51 = fmul double %p50, 1.5
  %p52 = fmul double %p51, 1.5
  %p53 = fmul double %p52, 1.5
  %p54 = fmul double %p53, 1.5
  %p55 = fmul double %p54, 1.5
  %p56 = fmul double %p55, 1.5
  %p57 = fmul double %p56, 1.5
  %p58 = fmul double %p57, 1.5
  %p59 = fmul double %p58, 1.5
  %p60 = fmul double %p59, 1.5
  %p61 = fmul double %p60, 1.5
  %p62 = fmul double %p61, 1.5
  %p63 = fmul double %p62, 1.5
  %p64 = fmul double %p63, 1.5
  %p65 = fmul double %p64, 1.5
  %p66 = fmul double %p65, 1.5
  %p67 = fmul double %p66, 1.5
  %p68 = fmul double %p67, 1.5
  %p69 = fmul double %p68, 1.5
  ret double %p69
}

define double @a(double %x) {
  %r = call double @spec(i64 0, double %x)
  ret double %r
}

define double @b(double %x) {
  %y = fadd double %x, 1.0
  %r = call double @spec(i64 0, double %y)
  ret double %r
}

define i32 @main() {
  %a = call double @a(double 7.0)
  %b = call double @b(double 8.0)
  ret i32 0
}
