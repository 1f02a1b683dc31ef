; RUN: %ember build %s --split two-level --split-cost 1 -j1 -O0 --print-split-plan -o %t.o 2>&1 | %FileCheck %s --check-prefix=PLAN
; RUN: %ember build %s --split two-level --split-cost 1 -j1 -O2 --print-split-plan -o %t.o2.o 2>&1 | %FileCheck %s --check-prefix=PLAN2
; RUN: %ember build %s --split two-level --split-cost 1 -j1 -O0 --emit asm -o - | %FileCheck %s --check-prefix=ASM
; RUN: %ember build %s --split none -O0 -o %t.none.o
; RUN: %ember symdiff %t.none.o %t.o | %FileCheck %s --check-prefix=DIFF

; The plan lists every member of every subgraph with its linkage there and, when the
; MC link changes it back, its linkage in the object; then the codegen pieces.
; The internal global is owned by one subgraph and exported hidden for the link; the
; shared internal callee is copied (renamed) into the other subgraph; the linkonce_odr
; comdat function is compiled in both, as a piece of its own the link keeps once.
; PLAN-LABEL: subgraph 0
; PLAN-NEXT: small: external
; PLAN-LABEL: subgraph 1
; PLAN-NEXT: counter: external hidden -> internal in the object
; PLAN-NEXT: shared: linkonce_odr
; PLAN-NEXT: bump: internal
; PLAN-NEXT: first: external
; PLAN-NEXT: piece 1.0: counter, bump, first
; PLAN-NEXT: piece 1.1: shared
; PLAN-LABEL: subgraph 2
; PLAN-NEXT: table: private
; PLAN-NEXT: shared: linkonce_odr
; PLAN-NEXT: bump.ember.2: internal (copy of bump)
; PLAN-NEXT: second: external
; PLAN-NEXT: piece 2.0: table, bump.ember.2, second
; PLAN-NEXT: piece 2.1: shared
; PLAN-LABEL: subgraph 3
; PLAN-NEXT: msg: private
; PLAN-NEXT: name: external

; At -O2 the small exported callee is imported (available_externally) where it is called,
; so the optimiser can inline it; its real definition stays in its own subgraph.
; PLAN2-LABEL: subgraph 0
; PLAN2-NEXT: small: external
; PLAN2-LABEL: subgraph 1
; PLAN2: small: available_externally (import)

; The MC link: local labels of each piece get a unique prefix (private data included),
; the externalised global loses its .globl/.hidden, strings keep their bytes, the
; linkonce function is emitted once.
; ASM-NOT: .globl{{.*}}counter
; ASM-NOT: .hidden{{.*}}counter
; ASM-LABEL: first:
; ASM: callq bump
; ASM-LABEL: bump.ember.2:
; ASM-LABEL: second:
; ASM: leaq .Lp{{[0-9]+}}_0_table(%rip)
; ASM: callq bump.ember.2
; ASM-LABEL: name:
; ASM: leaq [[MSG:\.Lp[0-9]+_0_msg]](%rip)
; ASM: [[MSG]]:
; ASM-NEXT: .asciz "msg"
; ASM: .weak shared
; ASM-NOT: .weak shared

; DIFF: symbol tables agree

$shared = comdat any
@counter = internal global i64 0
@table = private unnamed_addr constant [3 x i64] [i64 1, i64 2, i64 3]
@msg = private unnamed_addr constant [4 x i8] c"msg\00"

define linkonce_odr i64 @shared(i64 %x) comdat {
  %y = add i64 %x, 1
  ret i64 %y
}

define i64 @small(i64 %x) {
  %y = mul i64 %x, 3
  ret i64 %y
}

define internal i64 @bump(i64 %x) noinline {
  %c = load i64, ptr @counter
  %n = add i64 %c, %x
  store i64 %n, ptr @counter
  ret i64 %n
}

define i64 @first(i64 %x) {
  %a = call i64 @shared(i64 %x)
  %b = call i64 @small(i64 %a)
  %c = call i64 @bump(i64 %b)
  ret i64 %c
}

define i64 @second(i64 %x) {
  %p = getelementptr [3 x i64], ptr @table, i64 0, i64 %x
  %v = load i64, ptr %p
  %a = call i64 @shared(i64 %v)
  %c = call i64 @bump(i64 %a)
  ret i64 %c
}

define ptr @name() {
  ret ptr @msg
}
