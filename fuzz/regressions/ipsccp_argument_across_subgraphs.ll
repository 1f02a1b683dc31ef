; FIXED: IPSCCP specialises an internal function the serial build keeps out of line on an
; argument every call passes the same constant. `@ember.f1` (out of line: the `add i64 0, 0`
; lines keep it over the copy and inline sizes) is called from `@f0` and `@entry` with %0 = 0:
; unsplit, IPSCCP replaces %0 by 0, `floor(0 / (0 - 3.5))` folds and the object has no
; `UND floor`. Split (--split-cost 1: each anchor alone), f1 was called from two subgraphs,
; exported hidden while compiling in one of them, its arguments unknown there, and the split
; object gained `+ GLOBAL NOTYPE DEFAULT UND floor`. Fixed by clustering every caller of a
; local left out of line with it where they fit a default-sized subgraph
; (compiler/backend/planner.py, cluster_by_calls).
; Found by `ember fuzz --target aarch64-linux-gnu` (finding 20261126-084538-symbol-difference-
; 9e40b74d2172, seed 447379216: a generated Ember program, `+ UND fmod` and `+ UND floor` at
; -O2 --split-cost 175); reduced with `ember reduce` (property symbol-difference) from the
; program's 622-line LLVM IR to 72 lines. ipsccp_argument_frem_fmod.ll is the `fmod` half.
; Reproduce: ember build X -O2 --split none -o a.o; ember build X -O2 --split subgraph
;            --split-cost 1 -o b.o; ember symdiff a.o b.o   (+ UND floor at -O1 and -O2 before
;            the fix; `main` was added to the reduced module so that it links)
@ember.g0 = global i64 0

define i64 @f0(i64 %0, i64 %1) {
  %r = call i64 @ember.f1(i64 0, i64 0)
  ret i64 0
}

define internal i64 @ember.f1(i64 %0, i64 %1) {
common.ret:
  %2 = add i1 0, 0
  %3 = add i64 0, 0
  %4 = add i64 0, 0
  %5 = add i1 0, 0
  %6 = add i64 0, 0
  %7 = add i64 0, 0
  %8 = add i64 0, 0
  %24 = fptrunc double 0.000000e+00 to float
  %53 = fadd double 0.0, 0.0
  %54 = add i64 0, 0
  %55 = add i1 0, 0
  %56 = add i64 0, 0
  %57 = add i1 0, 0
  %58 = add i64 0, 0
  %59 = add i64 0, 0
  %60 = and i64 %0, 7
  %61 = sitofp i64 %60 to double
  %62 = fsub double %61, 3.500000e+00
  %63 = add i64 0, 0
  %64 = add i1 0, 0
  %65 = add i64 0, 0
  %66 = add i1 0, 0
  %67 = add i1 0, 0
  %68 = add i64 0, 0
  %103 = add i1 0, 0
  %104 = add i1 0, 0
  %105 = add i1 0, 0
  %106 = add i1 0, 0
  %107 = fadd double 0.0, 0.0
  %108 = fdiv double 0.000000e+00, %62
  %109 = fadd double 0.0, 0.0
  %110 = select i1 false, double 0.000000e+00, double %108
  %111 = fcmp une double %110, 0.000000e+00
  %112 = call double @llvm.floor.f64(double %110)
  %113 = fadd double 0.0, 0.0
  %114 = add i1 0, 0
  %115 = fadd double 0.0, 0.0
  %116 = select i1 false, double 0.000000e+00, double %112
  %117 = fadd double 0.0, 0.0
  %118 = fadd double 0.0, 0.0
  %119 = select i1 %111, double %116, double 0.000000e+00
  %120 = add i1 0, 0
  %121 = add i1 0, 0
  %122 = add i1 0, 0
  %123 = fadd double 0.0, 0.0
  %124 = add i64 0, 0
  %125 = add i1 0, 0
  %126 = add i64 0, 0
  %127 = fcmp olt double %119, 0xC3E0000000000000
  %128 = select i1 %127, i64 1, i64 0
  %129 = xor i64 0, %128
  store i64 0, ptr @ember.g0, align 4
  %130 = add i64 0, 0
  %131 = add i64 0, 0
  store i64 0, ptr @ember.g0, align 4
  %132 = add i64 0, 0
  %133 = add i64 0, 0
  %134 = xor i64 %129, %133
  ret i64 %134
}

define i64 @entry() {
  %r = call i64 @ember.f1(i64 0, i64 1)
  ret i64 0
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.floor.f64(double)

define i32 @main() {
  %a = call i64 @f0(i64 1, i64 2)
  %b = call i64 @entry()
  ret i32 0
}
