; RUN: %ember build %S/Inputs/shared-callee.ll --split function -j1 --print-split-plan -o %t.o 2>&1 | %FileCheck %s --check-prefix=PLAN
; RUN: %ember build %S/Inputs/shared-callee.ll --split function -j1 --emit asm -o - | %FileCheck %s --check-prefix=ASM
; RUN: %ember build %S/Inputs/shared-callee.ll --split none -o %t.none.o
; RUN: %ember symdiff %t.none.o %t.o | %FileCheck %s --check-prefix=DIFF

; --split function: no level-1 copies (one subgraph keeps every linkage as it is);
; codegen pieces per function, MC-linked.
; PLAN: subgraph {{[0-9]+}} {{.*}}: counter, helper, first, second
; PLAN-NEXT: counter: internal
; PLAN-NEXT: helper: internal
; PLAN-NEXT: first: external
; PLAN-NEXT: second: external
; PLAN: piece 0.{{[0-9]+}}:
; PLAN-NOT: ember.

; ASM-LABEL: helper:
; ASM: .Lp0_{{[0-9]+}}_func_end
; ASM-LABEL: first:
; ASM-LABEL: second:
; ASM: .local counter

; DIFF: symbol tables agree
