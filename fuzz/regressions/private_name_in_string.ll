; MC link renames a private symbol that crossed subgraphs (`msg` -> `.Lmsg`) everywhere in
; the assembly text, including inside string data: the split-built program prints
; ".Lmsg hello" where --split none prints "msg hello".
; Found by the differential fuzzer (linkage strategy, private-strings fragment); fixed in the
; MC link ("never rename inside string data"). Kept as a regression test.
; Reproduce: ember run --split two-level --split-cost 1 -j1 private_name_in_string.ll
;            (prints ".Lmsg hello"; --split none prints "msg hello")
@msg = private unnamed_addr constant [11 x i8] c"msg hello\0A\00"

declare i32 @printf(ptr, ...)

define ptr @get() {
  ret ptr @msg
}

define i32 @main() {
  %m = call ptr @get()
  %r = call i32 (ptr, ...) @printf(ptr %m)
  %c = load i8, ptr @msg
  %z = zext i8 %c to i32
  %s = sub i32 %z, 109
  ret i32 %s
}
