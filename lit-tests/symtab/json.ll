; RUN: %ember build %s -O0 -o %t.o
; RUN: %ember symtab %t.o --format json | %FileCheck %s

; `ember symtab --format json`: one object per symbol, the same fields as the text table.
; CHECK: [
; CHECK-DAG: "name": "main",
; CHECK-DAG: "name": "helper",
; CHECK: "binding": "LOCAL",
; CHECK-NEXT: "type": "FUNC",
; CHECK-NEXT: "visibility": "DEFAULT",
; CHECK-NEXT: "section": ".text",
; CHECK-NEXT: "size": {{[0-9]+}}
; CHECK: ]

define internal i64 @helper(i64 %x) noinline {
  %y = add i64 %x, 1
  ret i64 %y
}

define i32 @main() {
  %r = call i64 @helper(i64 1)
  %t = trunc i64 %r to i32
  ret i32 %t
}
