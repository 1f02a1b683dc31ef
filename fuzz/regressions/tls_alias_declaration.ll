; A thread-local alias used from two subgraphs: the piece that does not own it declared
; it as a plain `external global` (planner._declare_alias dropped `thread_local(model)`),
; so `llvm.threadlocal.address` of it failed the verifier: "piece failed to compile:
; llvm.threadlocal.address operand isThreadLocal() must be true" (subgraph and
; two-level modes, -O0 and -O2). Found while planting the TLS-model mutants:
; the linkage strategy had no alias of a thread-local until then. Fixed in
; planner._declare_alias (the declaration keeps the alias's `thread_local(...)`).
@k0_tls = internal thread_local(initialexec) global i64 7
@k0_ta = thread_local(initialexec) alias i64, ptr @k0_tls
@.fmt = private unnamed_addr constant [6 x i8] c"%lld\0A\00"
declare ptr @llvm.threadlocal.address.p0(ptr)
declare i32 @printf(ptr, ...)

define i64 @k0_a(i64 %x) {
  %t = call ptr @llvm.threadlocal.address.p0(ptr @k0_ta)
  %v = load i64, ptr %t
  %n = add i64 %v, %x
  store i64 %n, ptr %t
  ret i64 %n
}

define i64 @k0_b(i64 %x) {
  %t = call ptr @llvm.threadlocal.address.p0(ptr @k0_ta)
  %v = load i64, ptr %t
  %n = add i64 %v, %x
  store i64 %n, ptr %t
  %m = mul i64 %n, 5
  ret i64 %m
}

define i32 @main() {
  %a = call i64 @k0_a(i64 3)
  %b = call i64 @k0_b(i64 4)
  call i32 (ptr, ...) @printf(ptr @.fmt, i64 %a)
  call i32 (ptr, ...) @printf(ptr @.fmt, i64 %b)
  ret i32 0
}
