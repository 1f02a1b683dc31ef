; RUN: %ember build %S/Inputs/shared-callee.ll --split none --emit asm -o - | %FileCheck %s

; --split none: one codegen, no plan, LLVM's own local labels (no piece prefix).
; CHECK-LABEL: helper:
; CHECK: .Lfunc_end0:
; CHECK-LABEL: first:
; CHECK: .local counter
