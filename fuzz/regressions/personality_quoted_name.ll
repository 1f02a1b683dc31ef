; FIXED: a personality function whose name the assembly must quote (`k4_pers<>1`). While
; split, such names are synthetic (`__ember_n1`, compiler/backend/names.py) and spelled back
; by the MC link; codegen names the personality's reference `DW.ref.__ember_n1`, a prefix the
; spelling-back did not know, so the split object had `DW.ref.__ember_n1` where the serial
; one has `DW.ref.k4_pers<>1`. Fixed by spelling back a synthetic name inside any symbol.
; Found by `ember fuzz --max-seconds 60` (the identifier dimension of the linkage strategy,
; seed 2539534025, --split-cost 6); reduced with `ember reduce` from 179 lines to 9.
; Reproduce: ember build X -O2 --split none -o a.o; ember build X -O2 --split subgraph
;            --split-cost 1 -o b.o; ember symdiff a.o b.o
define internal i32 @"k4_pers<>1"(i32 %v, i32 %a, i64 %c, ptr %e, ptr %ctx) {
  ret i32 0
}
define i64 @k4_b() personality ptr @"k4_pers<>1" {
  ret i64 0
}
define i64 @main() {
  ret i64 0
}
