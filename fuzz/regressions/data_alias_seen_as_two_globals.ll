; A global variable and its alias, both named by a function that lands outside their owner:
; that module declared them as two external globals, which LLVM's alias analysis takes for
; two distinct objects, so `store 7 -> @ga` could not change `@g` and the load of `@g` was
; forwarded (GVN, level 1: subgraph and two-level at -O1/-O2 printed 9, serially 13) or
; scheduled before the store (AArch64's machine scheduler uses alias analysis, level 2:
; `--split function -O1 --split-piece-cost 1 --target aarch64-linux-gnu` printed 9). Found
; by the first `ember fuzz --target aarch64-linux-gnu` campaign (a thread-local and its
; alias, both inlined into main). Fixed in planner.atoms_of: every definition naming a
; variable that has aliases, or one of the aliases, lives in one atom with them.
@g = global i64 5
@ga = alias i64, ptr @g
@.fmt = private unnamed_addr constant [6 x i8] c"%lld\0A\00"
declare i32 @printf(ptr, ...)

define i64 @owner(i64 %x) noinline {
  %v = load i64, ptr @g
  %n = add i64 %v, %x
  store i64 %n, ptr @g
  ret i64 %n
}

define i64 @f(i64 %x) noinline {
  store i64 %x, ptr @g
  store i64 7, ptr @ga
  %v = load i64, ptr @g
  ret i64 %v
}

define i32 @main() {
  %a = call i64 @owner(i64 1)
  %b = call i64 @f(i64 3)
  %s = add i64 %a, %b
  call i32 (ptr, ...) @printf(ptr @.fmt, i64 %s)
  ret i32 0
}
