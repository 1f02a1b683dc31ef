; RUN: rm -rf %t.crash
; RUN: not env EMBER_CRASH_DIR=%t.crash %ember build %s --split none -o %t.o 2>&1 | %FileCheck %s
; RUN: not env EMBER_CRASH_DIR=%t.crash %ember build %s -O0 -o %t.o 2>&1 | %FileCheck %s
; RUN: cat %t.crash/*/module.ll | %FileCheck %s --check-prefix=SAVED

; LLVM 22's x86 code generator (the tools wheel's llc too) dies with SIGSEGV on an internal
; alias of an absolute address loaded in PIC code; clang-19 builds it. The serial build runs
; LLVM in a forked child: the crash is one line, a non-zero exit and the module saved.
; CHECK: {{.*}}module.ll: error: LLVM crashed (SIGSEGV) while generating code; input saved
; CHECK-NOT: error
; SAVED: @fixed = internal alias

@fixed = internal alias i8, inttoptr (i64 4096 to ptr)

define i8 @get() {
  %v = load i8, ptr @fixed
  ret i8 %v
}
