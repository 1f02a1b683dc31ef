; RUN: %ember build %s -O0 -o %t.a.o
; RUN: %python -c "import sys; t=open(sys.argv[1]).read(); open(sys.argv[2],'w').write(t.replace('define internal i64 @helper','define i64 @helper').replace('@g = global','@g = hidden global'))" %s %t.b.ll
; RUN: %ember build %t.b.ll -O0 -o %t.b.o
; RUN: not %ember symdiff %t.a.o %t.b.o | %FileCheck %s

; symdiff names each contract breach: a local that became global, a visibility change.
; CHECK: --- {{.*}}.a.o
; CHECK: +++ {{.*}}.b.o
; CHECK-DAG: ! helper: LOCAL in {{.*}}.a.o became GLOBAL DEFAULT in {{.*}}.b.o
; CHECK-DAG: ~ g: visibility: DEFAULT -> HIDDEN
@g = global i64 1

define internal i64 @helper(i64 %x) {
  %y = add i64 %x, 1
  ret i64 %y
}

define i64 @entry(i64 %x) {
  %y = call i64 @helper(i64 %x)
  ret i64 %y
}
