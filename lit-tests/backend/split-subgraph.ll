; RUN: %ember build %S/Inputs/shared-callee.ll --split subgraph --split-cost 1 -j1 --print-split-plan -o %t.o 2>&1 | %FileCheck %s --check-prefix=PLAN
; RUN: %ember build %S/Inputs/shared-callee.ll --split subgraph --split-cost 1 -j1 --emit asm -o - | %FileCheck %s --check-prefix=ASM

; --split subgraph: one piece per subgraph; the shared internal callee is copied, the
; copy renamed; the internal global, only loaded and stored, stays internal in its one
; owner (a keeper function stands for the copy's accesses while optimising, so GlobalsAA
; keeps its no-escape fact: planner.variable_keepers) and the copy reaches it by name in the
; one linked assembly. (Members and linkages only: not the plan's header lines.)
; PLAN: subgraph {{[0-9]+}} {{.*}}: counter, helper, first
; PLAN-NEXT: counter: internal
; PLAN-NEXT: helper: internal
; PLAN-NEXT: first: external
; PLAN: subgraph {{[0-9]+}} {{.*}}: [[COPY:helper\.ember\.[0-9]+]], second
; PLAN-NEXT: [[COPY]]: internal (copy of helper)
; PLAN-NEXT: second: external

; MC link: one local `counter`, each piece's labels with its own prefix.
; ASM-NOT: .globl counter
; ASM-LABEL: helper:
; ASM: [[END0:\.Lp0_0_func_end[0-9]+]]:
; ASM: .size helper, [[END0]]-helper
; ASM-LABEL: first:
; ASM: .type counter,@object
; ASM-NOT: .hidden counter
; ASM-NEXT: .local counter
; ASM-NEXT: .comm counter,8,8
; ASM: .Lp1_0_func_end0:
; ASM-NEXT: .size helper.ember.1, .Lp1_0_func_end0-helper.ember.1
; ASM-LABEL: second:
