; Split-contract checklist (llvm-split's test names): each anchor below lands in its own
; subgraph when the split cost is small, so every cross-subgraph rule is exercised.
$shared_comdat = comdat any

@counter = internal global i64 0
@ctor_runs = internal global i64 0
@tls_local = internal thread_local global i64 5
@.msg = private unnamed_addr constant [36 x i8] c"ctor=%lld same=%d ba=%lld sum=%lld\0A\00"
@0 = private unnamed_addr constant [4 x i8] c"abc\00"
@fptr_slot = internal global ptr @address_taken
@comdat_data = linkonce_odr global i64 41, comdat($shared_comdat)
@alias_to_internal = internal alias i64 (i64), ptr @aliased
@ifunc_sym = ifunc i64 (i64), ptr @resolver
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @run_ctor, ptr null }]
@llvm.used = appending global [1 x ptr] [ptr @kept_by_used], section "llvm.metadata"

declare i32 @printf(ptr, ...)

define internal void @run_ctor() {
  %v = load i64, ptr @ctor_runs
  %n = add i64 %v, 1
  store i64 %n, ptr @ctor_runs
  ret void
}

define internal void @kept_by_used() {
  ret void
}

; a small internal callee reached from several anchors, called with different constants:
; IPO may specialise each subgraph's copy differently
define internal i64 @special(i64 %x, i64 %k) {
  %c = load i64, ptr @counter
  %n = add i64 %c, %k
  store i64 %n, ptr @counter
  %m = mul i64 %x, %k
  ret i64 %m
}

define internal i64 @address_taken(i64 %x) noinline {
  %y = add i64 %x, 100
  ret i64 %y
}

define internal i64 @aliased(i64 %x) noinline {
  %y = sub i64 %x, 1
  ret i64 %y
}

define internal i64 @impl(i64 %x) {
  %y = mul i64 %x, 2
  ret i64 %y
}

define internal ptr @resolver() {
  ret ptr @impl
}

define linkonce_odr i64 @in_comdat(i64 %x) comdat($shared_comdat) {
  %g = load i64, ptr @comdat_data
  %y = add i64 %x, %g
  ret i64 %y
}

define internal i64 @with_blockaddress(i64 %sel) {
entry:
  %is0 = icmp eq i64 %sel, 0
  %target = select i1 %is0, ptr blockaddress(@with_blockaddress, %a), ptr blockaddress(@with_blockaddress, %b)
  indirectbr ptr %target, [label %a, label %b]
a:
  ret i64 10
b:
  ret i64 20
}

define i64 @anchor_a(i64 %x) {
  %s = call i64 @special(i64 %x, i64 3)
  %t = call i64 @in_comdat(i64 %s)
  %p = load ptr, ptr @fptr_slot
  %r = call i64 %p(i64 %t)
  ret i64 %r
}

define i64 @anchor_b(i64 %x) {
  %s = call i64 @special(i64 %x, i64 5)
  %t = call i64 @alias_to_internal(i64 %s)
  %u = call i64 @ifunc_sym(i64 %t)
  %tl = call ptr @llvm.threadlocal.address.p0(ptr @tls_local)
  %v = load i64, ptr %tl
  %w = add i64 %u, %v
  ret i64 %w
}

define ptr @anchor_c() {
  ret ptr @address_taken
}

define i64 @anchor_d(i64 %sel) {
  %r = call i64 @with_blockaddress(i64 %sel)
  %q = call i64 @in_comdat(i64 %r)
  ret i64 %q
}

define i32 @main() {
  %a = call i64 @anchor_a(i64 7)
  %b = call i64 @anchor_b(i64 9)
  %p = call ptr @anchor_c()
  %same = icmp eq ptr %p, @address_taken
  %same32 = zext i1 %same to i32
  %d0 = call i64 @anchor_d(i64 0)
  %d1 = call i64 @anchor_d(i64 1)
  %ba = add i64 %d0, %d1
  %c = load i64, ptr @counter
  %s1 = add i64 %a, %b
  %s2 = add i64 %s1, %c
  %ctor = load i64, ptr @ctor_runs
  call i32 (ptr, ...) @printf(ptr @.msg, i64 %ctor, i32 %same32, i64 %ba, i64 %s2)
  ret i32 0
}

declare ptr @llvm.threadlocal.address.p0(ptr)
