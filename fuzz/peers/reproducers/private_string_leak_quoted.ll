; llvm-lto -j 2, a linkage program with quoted names (`names-quoted`): the private string
; @".fmt.k1_a$1" becomes GLOBAL HIDDEN `.fmt.k1_a$1` (finding 1 again). Reduced by
; `ember reduce FINDING` (symbol-difference, `added`) from 283 lines to 6 in 33 s (seed 1).
; docs/peers.md, 2026-11-27. Replay:
;   ember compare fuzz/peers/reproducers/private_string_leak_quoted.ll -O2 --candidate "sh $PWD/fuzz/peers/llvm_lto.sh {in} {out}"
@".fmt.k1_a$1" = private unnamed_addr constant [14 x i8] c"k1_a=%016llx\0A\00"
declare i32 @printf(ptr, ...)
define i32 @main() {
  %2 = call i32 (ptr, ...) @printf(ptr @".fmt.k1_a$1", i64 0)
  ret i32 0
}
