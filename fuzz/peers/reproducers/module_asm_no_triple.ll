; module asm without a target triple: llvm-nm and llvm-lto abort in
; ModuleSymbolTable.cpp (T && T->hasMCAsmParser()). docs/peers.md, finding 3.
module asm ".globl x"
