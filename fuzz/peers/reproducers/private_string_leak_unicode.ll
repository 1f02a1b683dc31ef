; llvm-split pipeline, a linkage program whose private strings got non-ASCII names (the
; identifier dimension's `names-unicode`): the private string becomes GLOBAL HIDDEN under
; its UTF-8 name, byte for byte (finding 1 again; the name changes nothing). Reduced by
; `ember reduce FINDING` (symbol-difference, `added`) from 123 lines to 6 in 56 s (seed 2).
; docs/peers.md, 2026-11-27. Replay:
;   ember compare fuzz/peers/reproducers/private_string_leak_unicode.ll -O2 --candidate "sh $PWD/fuzz/peers/llvm_split.sh {in} {out}"
@".fmt.k2_a\D1\8F\CF\87\C3\A6\F0\9F\98\B2" = private unnamed_addr constant [14 x i8] c"k2_a=%016llx\0A\00"
declare i32 @printf(ptr, ...)
define i32 @main() {
  %4 = call i32 (ptr, ...) @printf(ptr @".fmt.k2_a\D1\8F\CF\87\C3\A6\F0\9F\98\B2", i64 0)
  ret i32 0
}
