module asm ".globl x"
