; RUN: %ember build %s -O0 -o %t.o
; RUN: %ember symtab %t.o | %FileCheck %s
; RUN: %llc -O0 -relocation-model=pic -filetype=obj %s -o %t.llc.o
; RUN: %ember symdiff %t.llc.o %t.o | %FileCheck %s --check-prefix=DIFF

; CHECK: binding  type    visibility section
; CHECK-DAG: GLOBAL   FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  main
; CHECK-DAG: WEAK     OBJECT  DEFAULT    .data {{ +}}{{[0-9]+}}  weak_g
; CHECK-DAG: GLOBAL   OBJECT  HIDDEN     .bss {{ +}}{{[0-9]+}}  hidden_g
; CHECK-DAG: GLOBAL   TLS     DEFAULT    .tbss {{ +}}{{[0-9]+}}  tls_g
; CHECK-DAG: LOCAL    FUNC    DEFAULT    .text {{ +}}{{[0-9]+}}  helper
; CHECK-NOT: .L
; DIFF: symbol tables agree

@weak_g = weak global i32 7
@hidden_g = hidden global i32 0
@tls_g = thread_local global i32 0
@.str = private unnamed_addr constant [3 x i8] c"hi\00"

define internal i32 @helper(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}

define i32 @main() {
  %v = load i32, ptr @weak_g
  %r = call i32 @helper(i32 %v)
  ret i32 %r
}
