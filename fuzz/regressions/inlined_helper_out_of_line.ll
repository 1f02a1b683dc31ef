; FIXED by the whole-module summary (checked on code by tests/test_fuzz_regressions.py,
; not on symbols, which agree): an internal helper `@k0_h`
; written the way clang's unoptimised IR is (an alloca, lifetime markers, a store and a load
; per step: about 100 instructions before SROA, 17 after), called inside loops from two
; anchors. Unsplit, -O1 and -O2 inline it at both call sites. Split (--split-cost 1), it is
; not copied into `k0_b`'s subgraph (it counts as larger than COPY_COST), it becomes a
; hidden export while compiling, and `k0_b` calls it out of line on every iteration: the
; shape of duktape's helpers (+17.4% instructions split before the summary).
; Found by the `inline-helper` linkage fragment (fuzz/strategies/linkage.py).
; inlined: k0_h
; Reproduce: ember build X -O2 --split two-level -j 2 --split-cost 1 -o b.o;
;            llvm-objdump -d b.o | grep 'call.*k0_h'   (none in the --split none object)
@.fmt.k0_a = private unnamed_addr constant [14 x i8] c"k0_a=%016llx\0A\00"
@.fmt.k0_b = private unnamed_addr constant [14 x i8] c"k0_b=%016llx\0A\00"
declare i32 @printf(ptr, ...)
declare void @llvm.lifetime.start.p0(ptr)
declare void @llvm.lifetime.end.p0(ptr)

define internal i64 @k0_h(i64 %x, i64 %k) {
entry:
  %k.addr = alloca i64, align 8
  store i64 %k, ptr %k.addr, align 8
  %k0 = load i64, ptr %k.addr, align 8
  %s = xor i64 %x, %k0
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
  %pad.t13 = alloca i64, align 8
  %pad.t14 = alloca i64, align 8
  %pad.t15 = alloca i64, align 8
  %pad.t16 = alloca i64, align 8
  call void @llvm.lifetime.start.p0(ptr %pad.t0)
  store i64 %s, ptr %pad.t0, align 8
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
  call void @llvm.lifetime.start.p0(ptr %pad.t13)
  %pad.l12 = load i64, ptr %pad.t12, align 8
  %pad.o12 = add i64 %pad.l12, 27
  store i64 %pad.o12, ptr %pad.t13, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t12)
  call void @llvm.lifetime.start.p0(ptr %pad.t14)
  %pad.l13 = load i64, ptr %pad.t13, align 8
  %pad.o13 = xor i64 %pad.l13, 29
  store i64 %pad.o13, ptr %pad.t14, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t13)
  call void @llvm.lifetime.start.p0(ptr %pad.t15)
  %pad.l14 = load i64, ptr %pad.t14, align 8
  %pad.o14 = mul i64 %pad.l14, 31
  store i64 %pad.o14, ptr %pad.t15, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t14)
  call void @llvm.lifetime.start.p0(ptr %pad.t16)
  %pad.l15 = load i64, ptr %pad.t15, align 8
  %pad.o15 = add i64 %pad.l15, 33
  store i64 %pad.o15, ptr %pad.t16, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t15)
  %pad.r = load i64, ptr %pad.t16, align 8
  call void @llvm.lifetime.end.p0(ptr %pad.t16)
  %r = add i64 %pad.r, 0
  ret i64 %r
}

define i64 @k0_a(i64 %x) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ %x, %entry ], [ %acc.next, %loop ]
  %h = call i64 @k0_h(i64 %acc, i64 %i)
  %acc.next = add i64 %h, 0
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, 2
  br i1 %more, label %loop, label %done
done:
  ret i64 %acc.next
}

define i64 @k0_b(i64 %x) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ %x, %entry ], [ %acc.next, %loop ]
  %h = call i64 @k0_h(i64 %acc, i64 %i)
  %acc.next = add i64 %h, 1
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, 2
  br i1 %more, label %loop, label %done
done:
  ret i64 %acc.next
}

define i32 @main() {
entry:
  %k0_va = call i64 @k0_a(i64 0)
  %k0_vb = call i64 @k0_b(i64 0)
  call i32 (ptr, ...) @printf(ptr @.fmt.k0_a, i64 %k0_va)
  call i32 (ptr, ...) @printf(ptr @.fmt.k0_b, i64 %k0_vb)
  ret i32 0
}
