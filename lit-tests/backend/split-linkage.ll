; RUN: %ember build %s --split two-level --split-cost 1 -j1 -O0 --print-split-plan -o %t.o 2>&1 | %FileCheck %s --check-prefix=PLAN
; RUN: %ember build %s --split two-level --split-cost 1 -j1 -O2 --print-split-plan -o %t.o2.o 2>&1 | %FileCheck %s --check-prefix=PLAN2
; RUN: %ember symtab %t.o | %FileCheck %s --check-prefix=SYM
; RUN: %llvm-objdump -dr --no-show-raw-insn %t.o | %FileCheck %s --check-prefix=OBJ
; RUN: %ember build %s --split none -O0 -o %t.none.o
; RUN: %ember symdiff %t.none.o %t.o | %FileCheck %s --check-prefix=DIFF

; The plan lists every member of every subgraph with its linkage there and, when the
; link changes it back, its linkage in the object; then the codegen pieces.
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

; The object link: the externalised global is local again (no GLOBAL or HIDDEN row), the
; copy is a local of its own, the linkonce function is kept once (one WEAK row).
; SYM: binding
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  first{{$}}
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  name{{$}}
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  second{{$}}
; SYM-NEXT: WEAK     FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  shared{{$}}
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  small{{$}}
; SYM-NEXT: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  bump{{$}}
; SYM-NEXT: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  bump.ember.2{{$}}
; SYM-NEXT: LOCAL    OBJECT  DEFAULT    .bss {{ +}}8  counter{{$}}
; SYM-EMPTY:
; Calls and references land where the serial build's do: each subgraph calls its own bump,
; both write the one counter, the private table and string are reached through their
; sections' data (private names stay assembler temporaries).
; OBJ-LABEL: <first>:
; OBJ: R_X86_64_PLT32 shared-0x4
; OBJ: callq {{.*}}<bump>
; OBJ-LABEL: <bump.ember.2>:
; OBJ: R_X86_64_PC32 counter-0x4
; OBJ-LABEL: <second>:
; OBJ: R_X86_64_PC32 .rodata-0x4
; OBJ: callq {{.*}}<bump.ember.2>
; OBJ-LABEL: <name>:
; OBJ-NEXT: leaq
; OBJ-NEXT: R_X86_64_PC32 .L{{.*}}msg
; OBJ-LABEL: section .text.shared:
; OBJ-NOT: section .text.shared:

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
