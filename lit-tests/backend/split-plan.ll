; RUN: %ember build %s --split two-level --split-cost 1 -j1 --print-split-plan -o %t.o 2>&1 | %FileCheck %s --check-prefix=PLAN
; RUN: %ember symtab %t.o | %FileCheck %s --check-prefix=SYM
; RUN: %ember build %s --split none -o %t.none.o
; RUN: %ember symdiff %t.none.o %t.o | %FileCheck %s --check-prefix=DIFF
; RUN: %ember build %s --split two-level --split-cost 1 -j1 --split-prefix off --print-split-plan -o %t.off.o 2>&1 | %FileCheck %s --check-prefix=COPY
; RUN: %ember symtab %t.off.o | %FileCheck %s --check-prefix=COPYSYM

; The plan first says how much it compiles against the module (imports included). The
; shared internal callee lives with its first caller (exported hidden while compiling) and
; the other subgraph imports its body (`available_externally`, after the whole-module
; prefix): left out of line, it is one body in the object, as serially. The internal global
; has one owner (only loaded and stored, it stays internal there, a keeper standing for the
; importer's accesses).
; PLAN: plan work: [[WORK:[0-9]+]] instructions for a [[MODULE:[0-9]+]]-instruction module ({{[0-9.]+}}x; copies 0, imports {{[1-9][0-9]*}})
; PLAN: subgraph 0 (cost {{[0-9]+}}): counter, helper, first
; PLAN: subgraph 1 (cost {{[0-9]+}}): helper, second

; The object link restores the local binding of the externalised global and function (no
; GLOBAL or HIDDEN row).
; SYM: binding
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  first{{$}}
; SYM-NEXT: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  second{{$}}
; SYM-NEXT: LOCAL    OBJECT  DEFAULT    .bss {{ +}}8  counter{{$}}
; SYM-NEXT: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  helper{{$}}
; SYM-EMPTY:

; DIFF: symbol tables agree

; Without the prefix (`--split-prefix off`, and -O3) the other subgraph gets a renamed copy,
; which the object keeps as a local of its own.
; COPY: plan work: {{[0-9]+}} instructions for a {{[0-9]+}}-instruction module ({{[0-9.]+}}x; copies {{[1-9][0-9]*}}, imports 0)
; COPY: subgraph 1 (cost {{[0-9]+}}): helper.ember.1, second
; COPYSYM: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  helper{{$}}
; COPYSYM-NEXT: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  helper.ember.1{{$}}

@counter = internal global i64 0

define internal i64 @helper(i64 %x) noinline {
  %c = load i64, ptr @counter
  %n = add i64 %c, %x
  store i64 %n, ptr @counter
  ret i64 %n
}

define i64 @first(i64 %x) {
  %r = call i64 @helper(i64 %x)
  ret i64 %r
}

define i64 @second(i64 %x) {
  %r = call i64 @helper(i64 3)
  %s = add i64 %r, %x
  ret i64 %s
}
