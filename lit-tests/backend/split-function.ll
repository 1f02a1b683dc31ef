; RUN: %ember build %S/Inputs/shared-callee.ll --split function -j1 --print-split-plan -o %t.o 2>&1 | %FileCheck %s --check-prefix=PLAN
; RUN: %ember symtab %t.o | %FileCheck %s --check-prefix=SYM
; RUN: %ember build %S/Inputs/shared-callee.ll --split none -o %t.none.o
; RUN: %ember symdiff %t.none.o %t.o | %FileCheck %s --check-prefix=DIFF

; --split function: no level-1 copies (one subgraph keeps every linkage as it is);
; codegen pieces per function, their objects merged.
; PLAN: subgraph {{[0-9]+}} {{.*}}: counter, helper, first, second
; PLAN-NEXT: counter: internal
; PLAN-NEXT: helper: internal
; PLAN-NEXT: first: external
; PLAN-NEXT: second: external
; PLAN: piece 0.{{[0-9]+}}:
; PLAN-NOT: ember.

; The merged object: the internal global and callee are local again, defined once.
; SYM: binding
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  first{{$}}
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  second{{$}}
; SYM-NEXT: LOCAL    OBJECT  DEFAULT    .bss {{ +}}8  counter{{$}}
; SYM-NEXT: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  helper{{$}}
; SYM-EMPTY:

; DIFF: symbol tables agree
