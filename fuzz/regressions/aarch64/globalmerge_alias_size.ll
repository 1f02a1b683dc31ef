; FIXED (collected by tests/test_fuzz_cross.py, AArch64 -O1..-O3, every split mode):
; at -O3 AArch64's GlobalMerge merges internal globals used together; an alias into a merged
; global gets an explicit .size (8), while a split subgraph that did not merge left the alias
; unsized and the assembler gave it the aliasee's 32 bytes: '~ k2_alg: WEAK OBJECT size 8 -> 32'.
; The link now writes the serial size (compiler/backend/globalmerge.py, the object link since 2026-11-29).
; Found by 'ember fuzz --target aarch64-linux-gnu -g' (docs/fuzzing.md, 'Cross targets').
; Check: ember build X -O3 --target aarch64-linux-gnu --split none -o a.o;
;        ember build X -O3 --target aarch64-linux-gnu --split subgraph --split-cost 93 -o b.o; ember symdiff a.o b.o

$k1_cdf = comdat any
@k0_g = linkonce_odr global i64 208
@.fmt.k0_a = private unnamed_addr constant [14 x i8] c"k0_a=%016llx\0A\00"
@.fmt.k0_b = private unnamed_addr constant [14 x i8] c"k0_b=%016llx\0A\00"
@k1_cdg = weak_odr global i64 -84, comdat($k1_cdf)
@.fmt.k1_a = private unnamed_addr constant [14 x i8] c"k1_a=%016llx\0A\00"
@.fmt.k1_b = private unnamed_addr constant [14 x i8] c"k1_b=%016llx\0A\00"
@k2_arr = internal global [4 x i64] [i64 899, i64 424, i64 163, i64 204]
@k2_alg = weak alias i64, getelementptr (i8, ptr @k2_arr, i64 8)
@k2_alf = weak_odr alias i64 (i64), ptr @k2_target
@.fmt.k2_a = private unnamed_addr constant [14 x i8] c"k2_a=%016llx\0A\00"
@.fmt.k2_b = private unnamed_addr constant [14 x i8] c"k2_b=%016llx\0A\00"
@.fmt.k2_arr0 = private unnamed_addr constant [17 x i8] c"k2_arr0=%016llx\0A\00"
@k3_tls = internal thread_local global i64 501
@k3_tla = hidden thread_local alias i64, ptr @k3_tls
@.fmt.k3_a = private unnamed_addr constant [14 x i8] c"k3_a=%016llx\0A\00"
@.fmt.k3_b = private unnamed_addr constant [14 x i8] c"k3_b=%016llx\0A\00"
@k4_log = internal global i64 1
@.fmt.k4_a = private unnamed_addr constant [14 x i8] c"k4_a=%016llx\0A\00"
@.fmt.k4_b = private unnamed_addr constant [14 x i8] c"k4_b=%016llx\0A\00"
@0 = internal global i64 -100
@.fmt.k5_a = private unnamed_addr constant [14 x i8] c"k5_a=%016llx\0A\00"
@.fmt.k5_b = private unnamed_addr constant [14 x i8] c"k5_b=%016llx\0A\00"
@k6_slot = internal global ptr @k6_at
@.fmt.k6_a = private unnamed_addr constant [14 x i8] c"k6_a=%016llx\0A\00"
@.fmt.k6_b = private unnamed_addr constant [14 x i8] c"k6_b=%016llx\0A\00"
@.fmt.k6_same = private unnamed_addr constant [17 x i8] c"k6_same=%016llx\0A\00"
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 371, ptr @k4_ctor0, ptr null }]
declare i32 @printf(ptr, ...)
declare ptr @llvm.threadlocal.address.p0(ptr)

define linkonce_odr i64 @k0_fn(i64 %x) {
  %y = mul i64 %x, 3
  ret i64 %y
}

define i64 @k0_a(i64 %x) {
  %r = call i64 @k0_fn(i64 %x)
  %g = load i64, ptr @k0_g
  %s = add i64 %r, %g
  ret i64 %s
}

define i64 @k0_b(i64 %x) {
  %r = call i64 @k0_fn(i64 %x)
  %g = load i64, ptr @k0_g
  %s = xor i64 %r, %g
  store i64 %s, ptr @k0_g
  ret i64 %s
}

define weak_odr i64 @k1_cdf(i64 %x) comdat {
  %g = load i64, ptr @k1_cdg
  %y = xor i64 %x, 53263162180916
  %z = add i64 %y, %g
  ret i64 %z
}

define i64 @k1_a(i64 %x) {
  %r = call i64 @k1_cdf(i64 %x)
  ret i64 %r
}

define i64 @k1_b(i64 %x) {
  %r = call i64 @k1_cdf(i64 %x)
  %s = add i64 %r, 323
  ret i64 %s
}

define internal i64 @k2_target(i64 %x) noinline {
  %y = add i64 %x, 120
  ret i64 %y
}

define i64 @k2_a(i64 %x) {
  %r = call i64 @k2_alf(i64 %x)
  %g = load i64, ptr @k2_alg
  %s = add i64 %r, %g
  ret i64 %s
}

define i64 @k2_b(i64 %x) {
  %r = call i64 @k2_alf(i64 %x)
  store i64 %r, ptr @k2_alg
  ret i64 %r
}

define i64 @k3_a(i64 %x) {
  %t = call ptr @llvm.threadlocal.address.p0(ptr @k3_tls)
  %v = load i64, ptr %t
  %n = add i64 %v, %x
  store i64 %n, ptr %t
  ret i64 %n
}

define i64 @k3_b(i64 %x) {
  %t = call ptr @llvm.threadlocal.address.p0(ptr @k3_tla)
  %v = load i64, ptr %t
  %n = add i64 %v, %x
  store i64 %n, ptr %t
  %m = mul i64 %n, 5
  ret i64 %m
}

define internal void @k4_ctor0() {
  %v = load i64, ptr @k4_log
  %m = mul i64 %v, 10
  %a = add i64 %m, 1
  store i64 %a, ptr @k4_log
  ret void
}

define i64 @k4_a(i64 %x) {
  %v = load i64, ptr @k4_log
  %s = add i64 %v, %x
  ret i64 %s
}

define i64 @k4_b(i64 %x) {
  %v = load i64, ptr @k4_log
  %s = mul i64 %v, %x
  store i64 %s, ptr @k4_log
  ret i64 %s
}

define internal i64 @1(i64 %x) noinline {
  %g = load i64, ptr @0
  %y = add i64 %x, %g
  store i64 %y, ptr @0
  %z = xor i64 %y, 64
  ret i64 %z
}

define i64 @k5_a(i64 %x) {
  %r = call i64 @1(i64 %x)
  ret i64 %r
}

define i64 @k5_b(i64 %x) {
  %r = call i64 @1(i64 %x)
  %g = load i64, ptr @0
  %s = add i64 %r, %g
  ret i64 %s
}

define internal i64 @k6_at(i64 %x) noinline {
  %y = add i64 %x, 45
  ret i64 %y
}

define ptr @k6_get() {
  ret ptr @k6_at
}

define i64 @k6_a(i64 %x) {
  %f = load ptr, ptr @k6_slot
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

define i64 @k6_b(i64 %x) {
  %f = call ptr @k6_get()
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

define i32 @main() {
entry:
  %k0_va = call i64 @k0_a(i64 3608004)
  %k0_vb = call i64 @k0_b(i64 60)
  call i32 (ptr, ...) @printf(ptr @.fmt.k0_a, i64 %k0_va)
  call i32 (ptr, ...) @printf(ptr @.fmt.k0_b, i64 %k0_vb)
  %k1_va = call i64 @k1_a(i64 144115188075855872)
  %k1_vb = call i64 @k1_b(i64 37)
  call i32 (ptr, ...) @printf(ptr @.fmt.k1_a, i64 %k1_va)
  call i32 (ptr, ...) @printf(ptr @.fmt.k1_b, i64 %k1_vb)
  %k2_va = call i64 @k2_a(i64 156382)
  %k2_vb = call i64 @k2_b(i64 -15154571)
  %k2_e0 = load i64, ptr @k2_arr
  call i32 (ptr, ...) @printf(ptr @.fmt.k2_a, i64 %k2_va)
  call i32 (ptr, ...) @printf(ptr @.fmt.k2_b, i64 %k2_vb)
  call i32 (ptr, ...) @printf(ptr @.fmt.k2_arr0, i64 %k2_e0)
  %k3_va = call i64 @k3_a(i64 39)
  %k3_vb = call i64 @k3_b(i64 53)
  call i32 (ptr, ...) @printf(ptr @.fmt.k3_a, i64 %k3_va)
  call i32 (ptr, ...) @printf(ptr @.fmt.k3_b, i64 %k3_vb)
  %k4_va = call i64 @k4_a(i64 332403)
  %k4_vb = call i64 @k4_b(i64 19)
  call i32 (ptr, ...) @printf(ptr @.fmt.k4_a, i64 %k4_va)
  call i32 (ptr, ...) @printf(ptr @.fmt.k4_b, i64 %k4_vb)
  %k5_va = call i64 @k5_a(i64 45)
  %k5_vb = call i64 @k5_b(i64 -628)
  call i32 (ptr, ...) @printf(ptr @.fmt.k5_a, i64 %k5_va)
  call i32 (ptr, ...) @printf(ptr @.fmt.k5_b, i64 %k5_vb)
  %k6_va = call i64 @k6_a(i64 32)
  %k6_vb = call i64 @k6_b(i64 -1282)
  %k6_fp = call ptr @k6_get()
  %k6_fs = load ptr, ptr @k6_slot
  %k6_eq1 = icmp eq ptr %k6_fp, @k6_at
  %k6_eq2 = icmp eq ptr %k6_fp, %k6_fs
  %k6_both = and i1 %k6_eq1, %k6_eq2
  %k6_same = zext i1 %k6_both to i64
  call i32 (ptr, ...) @printf(ptr @.fmt.k6_a, i64 %k6_va)
  call i32 (ptr, ...) @printf(ptr @.fmt.k6_b, i64 %k6_vb)
  call i32 (ptr, ...) @printf(ptr @.fmt.k6_same, i64 %k6_same)
  ret i32 0
}
