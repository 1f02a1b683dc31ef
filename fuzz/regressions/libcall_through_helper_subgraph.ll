; FIXED by the whole-module summary: a constant format reaches
; `printf` through a small exported helper (`@say`) in another subgraph. Unsplit, the -O1/-O2
; inliner inlines `say` into `b` (its body is 12 clang -O0 style steps, about 75 instructions
; before SROA and 12 after), `printf("hello\n")` becomes `puts("hello")`, and the object has
; `UND puts`. Split (--split-cost 1), `b`'s subgraph neither copies nor imports `say`, the call
; stays out of line, nothing folds, and `puts` is missing: `ember symdiff` reports
; `- GLOBAL NOTYPE DEFAULT UND puts`. The split != serial class (a Debian interpreter's extra
; `UND putchar`); libcall_O1_split.ll is the same shape with a one-instruction helper (fixed).
; Written from the `libcall-shape` linkage fragment (fuzz/strategies/linkage.py) that found it;
; `ember reduce` on the generated module kept the shape but stored through null.
; Reproduce: ember build X -O2 --split none -o a.o; ember build X -O2 --split two-level -j 2
;            --split-cost 1 -o b.o; ember symdiff a.o b.o   (- UND puts)
@msg = private unnamed_addr constant [7 x i8] c"hello\0A\00"
@.fmt = private unnamed_addr constant [8 x i8] c"b=%lld\0A\00"
declare i32 @printf(ptr, ...)
declare void @llvm.lifetime.start.p0(ptr)
declare void @llvm.lifetime.end.p0(ptr)

define i64 @say(ptr %s, i64 %x) {
entry:
  call i32 (ptr, ...) @printf(ptr %s)
  %pad.t0 = alloca i64, align 8
  %pad.t1 = alloca i64, align 8
  %pad.t2 = alloca i64, align 8
  %pad.t3 = alloca i64, align 8
  %pad.t4 = alloca i64, align 8
  %pad.t5 = alloca i64, align 8
  %pad.t6 = alloca i64, align 8
  %pad.t7 = alloca i64, align 8
  %pad.t8 = alloca i64, align 8
  %pad.t9 = alloca i64, align 8
  %pad.t10 = alloca i64, align 8
  %pad.t11 = alloca i64, align 8
  %pad.t12 = alloca i64, align 8
  call void @llvm.lifetime.start.p0(ptr %pad.t0)
  store i64 %x, ptr %pad.t0, align 8
  call void @llvm.lifetime.start.p0(ptr %pad.t1)
  %pad.l0 = load i64, ptr %pad.t0, align 8
  %pad.o0 = add i64 %pad.l0, 3
  store i64 %pad.o0, ptr %pad.t1, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t0)
  call void @llvm.lifetime.start.p0(ptr %pad.t2)
  %pad.l1 = load i64, ptr %pad.t1, align 8
  %pad.o1 = xor i64 %pad.l1, 5
  store i64 %pad.o1, ptr %pad.t2, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t1)
  call void @llvm.lifetime.start.p0(ptr %pad.t3)
  %pad.l2 = load i64, ptr %pad.t2, align 8
  %pad.o2 = mul i64 %pad.l2, 7
  store i64 %pad.o2, ptr %pad.t3, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t2)
  call void @llvm.lifetime.start.p0(ptr %pad.t4)
  %pad.l3 = load i64, ptr %pad.t3, align 8
  %pad.o3 = add i64 %pad.l3, 9
  store i64 %pad.o3, ptr %pad.t4, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t3)
  call void @llvm.lifetime.start.p0(ptr %pad.t5)
  %pad.l4 = load i64, ptr %pad.t4, align 8
  %pad.o4 = xor i64 %pad.l4, 11
  store i64 %pad.o4, ptr %pad.t5, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t4)
  call void @llvm.lifetime.start.p0(ptr %pad.t6)
  %pad.l5 = load i64, ptr %pad.t5, align 8
  %pad.o5 = mul i64 %pad.l5, 13
  store i64 %pad.o5, ptr %pad.t6, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t5)
  call void @llvm.lifetime.start.p0(ptr %pad.t7)
  %pad.l6 = load i64, ptr %pad.t6, align 8
  %pad.o6 = add i64 %pad.l6, 15
  store i64 %pad.o6, ptr %pad.t7, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t6)
  call void @llvm.lifetime.start.p0(ptr %pad.t8)
  %pad.l7 = load i64, ptr %pad.t7, align 8
  %pad.o7 = xor i64 %pad.l7, 17
  store i64 %pad.o7, ptr %pad.t8, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t7)
  call void @llvm.lifetime.start.p0(ptr %pad.t9)
  %pad.l8 = load i64, ptr %pad.t8, align 8
  %pad.o8 = mul i64 %pad.l8, 19
  store i64 %pad.o8, ptr %pad.t9, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t8)
  call void @llvm.lifetime.start.p0(ptr %pad.t10)
  %pad.l9 = load i64, ptr %pad.t9, align 8
  %pad.o9 = add i64 %pad.l9, 21
  store i64 %pad.o9, ptr %pad.t10, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t9)
  call void @llvm.lifetime.start.p0(ptr %pad.t11)
  %pad.l10 = load i64, ptr %pad.t10, align 8
  %pad.o10 = xor i64 %pad.l10, 23
  store i64 %pad.o10, ptr %pad.t11, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t10)
  call void @llvm.lifetime.start.p0(ptr %pad.t12)
  %pad.l11 = load i64, ptr %pad.t11, align 8
  %pad.o11 = mul i64 %pad.l11, 25
  store i64 %pad.o11, ptr %pad.t12, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t11)
  %pad.r = load i64, ptr %pad.t12, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t12)
  ret i64 %pad.r
}

define i64 @b(i64 %x) {
  %r = call i64 @say(ptr @msg, i64 %x)
  ret i64 %r
}

define i32 @main() {
  %v = call i64 @b(i64 5)
  call i32 (ptr, ...) @printf(ptr @.fmt, i64 %v)
  ret i32 0
}
