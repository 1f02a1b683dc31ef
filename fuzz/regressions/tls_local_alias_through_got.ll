; FIXED: a thread-local internal alias of a hidden thread-local variable, named from one
; function while another names the variable itself. Split, the alias was exported while
; compiling (its users in another piece), so that piece reached it with an initial-exec
; GOT access (`R_X86_64_GOTTPOFF -> k1_tla`) and the MC link made it local again: a local
; symbol reached through the GOT, where the serial build resolves the alias to @k1_tls.
; Fixed by the data-alias atoms (compiler/backend/planner.py, atoms_of: every definition
; naming a variable with aliases lives with them).
; Found by the control campaign of `ember mutants --control` (linkage strategy, program
; 210); reduced with `ember reduce FINDING -j 2` from 206 to 14 lines in 28 s.
; Reproduce: ember build X -O2 --split none -o a.o; ember build X -O2 --split two-level
;            -j 1 --split-cost 2 --split-piece-cost 100 -o b.o; ember symdiff a.o b.o
@k1_tls = hidden thread_local(initialexec) global i64 1
@k1_tla = internal thread_local(initialexec) alias i64, ptr @k1_tls
declare nonnull ptr @llvm.threadlocal.address.p0(ptr nonnull)
define void @k1_a() {
  %t = call ptr @llvm.threadlocal.address.p0(ptr @k1_tls)
  ret void
}
define ptr @k1_b() {
  %t = call ptr @llvm.threadlocal.address.p0(ptr @k1_tla)
  ret ptr %t
}
define i64 @main() {
  ret i64 0
}
