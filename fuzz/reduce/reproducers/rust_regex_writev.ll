; rust-regex's `+ UND writev` as `ember reduce` finds it, with the split back end as it was
; before the whole-module prefix (issue 39's benchmark case `rust-regex+skip-whole-module-prefix`,
; `python -m bench.triage`, 2026-11-29: 455,860 lines -> these 33 in 265 s on 2 cores). Nothing
; stores to the thread-local @CURRENT (@set_current_info only takes its address), so serially its
; load is 0 and the assume after it is false: @default_hook0 cannot return, and the vtable it is
; given, which holds @write_vectored (the only call of `writev`), dies with its use. Split at cost
; 1, @CURRENT is shared with @set_current_info's subgraph and @default_hook0's cannot prove that.
; Fixed by the serial pipeline's prefix before the split (the default); `--split-prefix off`
; still shows it (tests/test_split_pipeline.py).
; Reproduce: ember build THIS -o s.o -O2 --split none; ember build THIS -o p.o -O2 --split subgraph
;   -j 2 --split-cost 1 --split-prefix off; nm s.o p.o | grep ' U '
@anon.eb89d4395b0ead844ef0b45b8b54da85.394 = private unnamed_addr constant <{ [24 x i8], ptr, ptr, ptr, ptr, ptr, ptr, ptr }> <{ [24 x i8] c"\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00", ptr null, ptr @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write14write_vectored, ptr null, ptr null, ptr null, ptr null, ptr null }>, align 8
@_RNvNtNtCsjrHSEGnQ3l9_3std6thread7current7CURRENT = internal thread_local local_unnamed_addr global [8 x i8] zeroinitializer, align 8
declare void @llvm.assume(i1 noundef)
declare nonnull ptr @llvm.threadlocal.address.p0(ptr nonnull)
define void @_RNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook(ptr noalias noundef readonly align 8 captures(none) dereferenceable(32) %0) unnamed_addr {
  %3 = call { i64, ptr } @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio22try_set_output_capture(ptr noundef null)
  call fastcc void @_RNCNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook0B5_(ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(24) null, ptr noundef nonnull align 1 null, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(80) @anon.eb89d4395b0ead844ef0b45b8b54da85.394)
  ret void
}
declare { i64, ptr } @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio22try_set_output_capture() unnamed_addr
define fastcc void @_RNCNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook0B5_(ptr noalias noundef nonnull readonly align 8 captures(none) dereferenceable(24) %0, ptr noundef nonnull align 1 %1, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(80) %2) unnamed_addr {
  store ptr %2, ptr inttoptr (i64 1 to ptr), align 8
  %6 = tail call align 8 ptr @llvm.threadlocal.address.p0(ptr @_RNvNtNtCsjrHSEGnQ3l9_3std6thread7current7CURRENT)
  %7 = load ptr, ptr %6, align 8
  %8 = icmp ugt ptr %7, inttoptr (i64 1 to ptr)
  call void @llvm.assume(i1 %8)
  call fastcc void @_RNCINvNtNtCsjrHSEGnQ3l9_3std6thread7current17with_current_nameNCNCNvNtB8_9panicking12default_hook00uE0B8_(ptr noalias noundef nonnull readonly align 8 captures(address) dereferenceable(32) null, ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable_or_null(8) null)
  unreachable
}
declare noundef i64 @syscall(i64 noundef, ...) unnamed_addr
define fastcc void @_RNCINvNtNtCsjrHSEGnQ3l9_3std6thread7current17with_current_nameNCNCNvNtB8_9panicking12default_hook00uE0B8_(ptr dead_on_return noalias noundef nonnull readonly align 8 captures(none) dereferenceable(32) %0, ptr noalias noundef readonly align 8 captures(address_is_null) dereferenceable_or_null(8) %1) unnamed_addr {
  %3 = tail call noundef i64 (i64, ...) @syscall(i64 noundef 186)
  unreachable
}
define internal { i64, ptr } @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write14write_vectored(ptr noalias nonnull readnone align 1 captures(none) %0, ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) %1, i64 noundef range(i64 0, 576460752303423488) %2) unnamed_addr {
  tail call void @writev()
  unreachable
}
declare void @writev() unnamed_addr
define fastcc void @_RNvNtNtNtNtNtCsjrHSEGnQ3l9_3std3sys3pal4unix14stack_overflow11thread_info16set_current_info(i64 noundef %0, i64 noundef %1) unnamed_addr {
  %3 = tail call align 8 ptr @llvm.threadlocal.address.p0(ptr @_RNvNtNtCsjrHSEGnQ3l9_3std6thread7current7CURRENT)
  ret void
}
