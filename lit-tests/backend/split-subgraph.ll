; RUN: %ember build %S/Inputs/shared-callee.ll --split subgraph --split-cost 1 -j1 --print-split-plan -o %t.o 2>&1 | %FileCheck %s --check-prefix=PLAN
; RUN: %ember symtab %t.o | %FileCheck %s --check-prefix=SYM
; RUN: %llvm-objdump -dr --no-show-raw-insn %t.o | %FileCheck %s --check-prefix=OBJ

; --split subgraph: one piece per subgraph; the shared internal callee is copied, the
; copy renamed; the internal global, only loaded and stored, stays internal in its one
; owner (a keeper function stands for the copy's accesses while optimising, so GlobalsAA
; keeps its no-escape fact: planner.variable_keepers) and the copy reaches it by name in the
; one merged object. (Members and linkages only: not the plan's header lines.)
; PLAN: subgraph {{[0-9]+}} {{.*}}: counter, helper, first
; PLAN-NEXT: counter: internal
; PLAN-NEXT: helper: internal
; PLAN-NEXT: first: external
; PLAN: subgraph {{[0-9]+}} {{.*}}: [[COPY:helper\.ember\.[0-9]+]], second
; PLAN-NEXT: [[COPY]]: internal (copy of helper)
; PLAN-NEXT: second: external

; The object link: one local `counter`, the copy a local of its own that writes it by name,
; and the second subgraph calls its copy.
; SYM: binding
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  first{{$}}
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  second{{$}}
; SYM-NEXT: LOCAL    OBJECT  DEFAULT    .bss {{ +}}8  counter{{$}}
; SYM-NEXT: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  helper{{$}}
; SYM-NEXT: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  helper.ember.1{{$}}
; SYM-EMPTY:
; OBJ-LABEL: <helper.ember.1>:
; OBJ: R_X86_64_PC32 counter-0x4
; OBJ-LABEL: <second>:
; OBJ: callq {{.*}}<helper.ember.1>
