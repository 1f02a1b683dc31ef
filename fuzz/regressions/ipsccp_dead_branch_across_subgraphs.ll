; Fixed (issue 36, 2026-11-29): IPSCCP's whole-module solve proves branches dead that no subgraph can.
; std's output capture (rust-markdown's default build, reduced by hand from the research of
; 2026-11-27): @used (OUTPUT_CAPTURE_USED) starts 0 and its only store (`store atomic i8 1` in
; @try_set's %set) runs only when %p is non-null or @used is already set; %p is non-null only at
; @hook's second call, which runs only when the first call (with null) returned a non-null old
; value, which needs %set to have run. IPSCCP's optimistic solver (tracking @used, @try_set's
; argument and its {i64, ptr} return per field) finds %set never executes, so the calls in it go serially
; (std's thread-local destructor registration, here `free`, and the captured print, here
; `perror`; `puts` stands for writing to stderr). Split with @used owned elsewhere, the subgraph's IPSCCP cannot
; track it: `+ UND free`, `+ UND perror`, `+ UND __tls_get_addr`. A whole-module
; ipsccp before the split fixes it but proves more than serial on the Rust modules (run twice).
; Fixed by the serial pipeline's prefix, once on the whole module, with only the rest per subgraph
; (the default; `--split-prefix off` still shows it: tests/test_split_pipeline.py).
; Reproduce: ember build THIS -o s.o -O2 --split none; ember build THIS -o p.o -O2 --split subgraph
;   -j 1 --split-cost 1; nm s.o p.o | grep ' U '
@used = internal global i8 0, align 1
@tls = internal thread_local global ptr null, align 8

declare void @free(ptr)
declare void @perror(ptr)
declare i32 @puts(ptr)
@msg = private unnamed_addr constant [3 x i8] c"hi\00"
declare ptr @llvm.threadlocal.address.p0(ptr)

define internal { i64, ptr } @try_set(ptr %p) noinline {
entry:
  %isnull = icmp eq ptr %p, null
  br i1 %isnull, label %check, label %set
check:
  %u = load atomic i8, ptr @used monotonic, align 1
  %z = icmp eq i8 %u, 0
  br i1 %z, label %none, label %set
none:
  ret { i64, ptr } zeroinitializer
set:
  store atomic i8 1, ptr @used monotonic, align 1
  %a = call ptr @llvm.threadlocal.address.p0(ptr @tls)
  call void @free(ptr %a)
  %old = load ptr, ptr %a, align 8
  store ptr %p, ptr %a, align 8
  %r = insertvalue { i64, ptr } zeroinitializer, ptr %old, 1
  ret { i64, ptr } %r
}

define internal i1 @print_if_used(ptr %x) noinline {
entry:
  %u = load atomic i8, ptr @used monotonic, align 1
  %z = icmp eq i8 %u, 0
  br i1 %z, label %no, label %yes
no:
  ret i1 false
yes:
  %a = call ptr @llvm.threadlocal.address.p0(ptr @tls)
  %c = load ptr, ptr %a, align 8
  call void @perror(ptr %c)
  ret i1 true
}

define void @hook(ptr %msg) {
entry:
  %r = call { i64, ptr } @try_set(ptr null)
  %tag = extractvalue { i64, ptr } %r, 0
  %old = extractvalue { i64, ptr } %r, 1
  %t = trunc i64 %tag to i1
  %n = icmp eq ptr %old, null
  %plain = select i1 %t, i1 true, i1 %n
  br i1 %plain, label %direct, label %captured
direct:
  %w = call i32 @puts(ptr %msg)
  ret void
captured:
  call void @perror(ptr %msg)
  %r2 = call { i64, ptr } @try_set(ptr %old)
  ret void
}

define void @eprint(ptr %msg) {
entry:
  %done = call i1 @print_if_used(ptr %msg)
  br i1 %done, label %out, label %write
write:
  %w = call i32 @puts(ptr %msg)
  br label %out
out:
  ret void
}

define i32 @main() {
  call void @hook(ptr @msg)
  call void @eprint(ptr @msg)
  ret i32 0
}
