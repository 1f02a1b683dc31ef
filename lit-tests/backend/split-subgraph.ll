; RUN: %ember build %S/Inputs/shared-callee.ll --split subgraph --split-cost 1 -j1 --print-split-plan -o %t.o 2>&1 | %FileCheck %s --check-prefix=PLAN
; RUN: %ember symtab %t.o | %FileCheck %s --check-prefix=SYM
; RUN: %llvm-objdump -dr --no-show-raw-insn %t.o | %FileCheck %s --check-prefix=OBJ
; RUN: %ember build %S/Inputs/shared-callee.ll --split subgraph --split-cost 1 -j1 --split-prefix off --print-split-plan -o %t.off.o 2>&1 | %FileCheck %s --check-prefix=COPYPLAN
; RUN: %ember symtab %t.off.o | %FileCheck %s --check-prefix=COPYSYM
; RUN: %llvm-objdump -dr --no-show-raw-insn %t.off.o | %FileCheck %s --check-prefix=COPYOBJ

; --split subgraph: one piece per subgraph. After the whole-module prefix (the default at
; -O1/-O2) the shared internal callee is exported hidden by its owner while compiling and
; imported by the other subgraph (`available_externally`); the internal global, only loaded
; and stored, stays internal in its one owner (a keeper function stands for the other
; subgraph's accesses while optimising, so GlobalsAA keeps its no-escape fact:
; planner.variable_keepers). (Members and linkages only: not the plan's header lines.)
; PLAN: subgraph {{[0-9]+}} {{.*}}: counter, helper, first
; PLAN-NEXT: counter: internal
; PLAN-NEXT: helper: external hidden -> internal in the object
; PLAN-NEXT: first: external
; PLAN: subgraph {{[0-9]+}} {{.*}}: helper, second
; PLAN-NEXT: helper: available_externally hidden (import)
; PLAN-NEXT: second: external

; The object link: one local `counter`, one local `helper` (as serially) that writes it, and
; the second subgraph calls it.
; SYM: binding
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  first{{$}}
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  second{{$}}
; SYM-NEXT: LOCAL    OBJECT  DEFAULT    .bss {{ +}}8  counter{{$}}
; SYM-NEXT: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  helper{{$}}
; SYM-EMPTY:
; OBJ-LABEL: <helper>:
; OBJ: R_X86_64_PC32 .bss-0x4
; OBJ-LABEL: <second>:
; OBJ: R_X86_64_PLT32 helper-0x4

; Without the prefix (`--split-prefix off`, and -O3) the callee is copied, the copy renamed:
; a local of its own in the object, which writes `counter` by name, and the second subgraph
; calls its copy.
; COPYPLAN: subgraph {{[0-9]+}} {{.*}}: [[COPY:helper\.ember\.[0-9]+]], second
; COPYPLAN-NEXT: [[COPY]]: internal (copy of helper)
; COPYPLAN-NEXT: second: external
; COPYSYM: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  helper{{$}}
; COPYSYM-NEXT: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  helper.ember.1{{$}}
; COPYSYM-EMPTY:
; COPYOBJ-LABEL: <helper.ember.1>:
; COPYOBJ: R_X86_64_PC32 counter-0x4
; COPYOBJ-LABEL: <second>:
; COPYOBJ: callq {{.*}}<helper.ember.1>

