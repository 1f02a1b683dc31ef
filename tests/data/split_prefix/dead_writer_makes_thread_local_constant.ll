; Issue 36 (rust-regex's `U writev`, reduced by hand from std's `thread::current::CURRENT`): a
; thread-local whose only writer dies once whole-module optimisation has run, in another
; subgraph. @setup is only ever called with `false`, so serially IPSCCP proves its %reg block
; dead; GlobalOpt then deletes @register, @registered is never stored (constant null), @table
; loses its last user and goes, and with it @run, the only store to @current, which becomes
; constant: @hook's `> 2` test folds and @with_name, the vtable and @write_vectored (the only
; call of `writev`) go. @run is named only by a variable's initialiser, so the plan puts it in a
; subgraph of its own; split before the fix, no subgraph could see @current is never written:
; `+ UND writev`, `+ UND __tls_get_addr` at -O1 and -O2. Fixed where the split runs the serial
; pipeline's whole-module prefix (up to its inliner) once before the split (`--split-prefix on`,
; llvm_stage.split_pipeline; off by default: tests/test_split_pipeline.py builds it both ways).
; Reproduce: ember build THIS -o s.o -O2 --split none; ember build THIS -o p.o -O2 --split subgraph
;   -j 1 --split-cost 1; nm s.o p.o | grep ' U '
@current = internal thread_local global i64 0, align 8
@table = internal global [1 x ptr] [ptr @run], align 8
@registered = internal global ptr null, align 8
@vtable = private unnamed_addr constant [1 x ptr] [ptr @write_vectored], align 8
@msg = private unnamed_addr constant [3 x i8] c"hi\00", align 1

declare i64 @writev(i32, ptr, i32)
declare i32 @puts(ptr)
declare ptr @llvm.threadlocal.address.p0(ptr)

define internal void @run() noinline {
entry:
  %a = call ptr @llvm.threadlocal.address.p0(ptr @current)
  store i64 3, ptr %a, align 8
  ret void
}

define internal void @register() noinline {
entry:
  store ptr @table, ptr @registered, align 8
  ret void
}

define internal void @setup(i1 %go) noinline {
entry:
  br i1 %go, label %reg, label %out
reg:
  call void @register()
  br label %out
out:
  ret void
}

define internal void @write_vectored(ptr %x) noinline {
entry:
  %r = call i64 @writev(i32 2, ptr %x, i32 1)
  ret void
}

define internal void @with_name(ptr %vt, ptr %m) noinline {
entry:
  %f = load ptr, ptr %vt, align 8
  call void %f(ptr %m)
  ret void
}

define void @hook(ptr %m) {
entry:
  call void @setup(i1 false)
  %a = call ptr @llvm.threadlocal.address.p0(ptr @current)
  %c = load i64, ptr %a, align 8
  %named = icmp ugt i64 %c, 2
  br i1 %named, label %slow, label %plain
slow:
  call void @with_name(ptr @vtable, ptr %m)
  ret void
plain:
  %w = call i32 @puts(ptr %m)
  ret void
}

define void @finish() {
entry:
  %t = load ptr, ptr @registered, align 8
  %set = icmp ne ptr %t, null
  br i1 %set, label %call, label %out
call:
  %f = load ptr, ptr %t, align 8
  call void %f()
  br label %out
out:
  ret void
}

define i32 @main() {
entry:
  call void @hook(ptr @msg)
  call void @finish()
  ret i32 0
}
