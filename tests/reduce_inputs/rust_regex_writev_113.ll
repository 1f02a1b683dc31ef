; An intermediate of the triage of rust-regex+skip-whole-module-prefix (bench.triage, 2026-11-29):
; the polish's fixpoint under the failing build's plan at 113 lines (tests/test_reduce_replan.py).
@_RNvNtCsjrHSEGnQ3l9_3std9panicking11EMPTY_PANIC = constant ptr @_RNSINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReE5reifyB6_, align 8
@anon.eb89d4395b0ead844ef0b45b8b54da85.87 = external unnamed_addr constant <{ [24 x i8], ptr, ptr, ptr, ptr }>, align 8
@anon.eb89d4395b0ead844ef0b45b8b54da85.146 = external unnamed_addr constant <{ ptr, [16 x i8] }>, align 8
@anon.eb89d4395b0ead844ef0b45b8b54da85.164 = external unnamed_addr constant [2 x i8], align 1
@anon.eb89d4395b0ead844ef0b45b8b54da85.394 = private unnamed_addr constant <{ [24 x i8], ptr, ptr, ptr, ptr, ptr, ptr, ptr }> <{ [24 x i8] c"\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00", ptr @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write5write, ptr @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write14write_vectored, ptr @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write17is_write_vectored, ptr @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write5flush, ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write9write_allBa_, ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write18write_all_vectoredBa_, ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write9write_fmtBa_ }>, align 8
@_RNvNtNtCsjrHSEGnQ3l9_3std6thread7current7CURRENT = internal thread_local local_unnamed_addr global [8 x i8] zeroinitializer, align 8
define noundef i32 @main(i32 %0, ptr %1) unnamed_addr {
  ret i32 0
}
declare void @_RNvNtCsgEmfK2I1SDS_4core3fmt5write() unnamed_addr
declare nonnull ptr @llvm.threadlocal.address.p0(ptr nonnull)
define internal void @_RNSINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReE5reifyB6_(ptr noalias noundef nonnull readonly align 1 captures(address, read_provenance) %0, i64 noundef %1) unnamed_addr {
  tail call void @_RINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReEB4_(ptr noalias noundef nonnull readonly align 1 captures(address, read_provenance) %0, i64 noundef %1, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(24) @anon.eb89d4395b0ead844ef0b45b8b54da85.146)
  unreachable
}
define internal void @_RINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReEB4_(ptr noalias noundef nonnull readonly align 1 captures(address, read_provenance) %0, i64 noundef %1, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(24) %2) unnamed_addr {
  call void @_RINvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace26___rust_end_short_backtraceNCINvNtB6_9panicking11begin_panicReE0zEB6_(ptr noalias noundef nonnull align 8 captures(address) dereferenceable(24) null)
  unreachable
}
define internal void @_RINvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace26___rust_end_short_backtraceNCINvNtB6_9panicking11begin_panicReE0zEB6_(ptr dead_on_return noalias noundef readonly align 8 captures(none) dereferenceable(24) %0) unnamed_addr {
  tail call fastcc void @_RNCINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReE0B6_(ptr noalias noundef readonly align 8 captures(none) dereferenceable(24) %0)
  unreachable
}
define internal fastcc void @_RNCINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReE0B6_(ptr dead_on_return noalias noundef nonnull readonly align 8 captures(none) dereferenceable(24) %0) unnamed_addr personality ptr @rust_eh_personality {
  call void @_RNvNtCsjrHSEGnQ3l9_3std9panicking15panic_with_hook(ptr noundef nonnull align 1 null, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(56) @anon.eb89d4395b0ead844ef0b45b8b54da85.87, ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable(24) null, i1 noundef zeroext true, i1 noundef zeroext false)
  unreachable
}
define range(i32 1, 9) i32 @rust_eh_personality(i32 noundef %0, i32 noundef %1, i64 %2, ptr noundef %3, ptr noundef %4) unnamed_addr personality ptr @rust_eh_personality {
  ret i32 0
}
define internal void @_RNvNtCsjrHSEGnQ3l9_3std9panicking15panic_with_hook(ptr noundef nonnull align 1 %0, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(56) %1, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(24) %2, i1 noundef zeroext %3, i1 noundef zeroext %4) unnamed_addr personality ptr @rust_eh_personality {
  %7 = load ptr, ptr inttoptr (i64 1 to ptr), align 8
  %8 = call { ptr, ptr } %7(ptr noundef nonnull align 1 null)
  call void @_RNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook(ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable(32) null)
  unreachable
}
declare noundef ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write9write_fmtBa_(ptr noalias noundef nonnull align 1, ptr noundef nonnull, ptr noundef nonnull) unnamed_addr
define internal void @_RNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook(ptr noalias noundef readonly align 8 captures(none) dereferenceable(32) %0) unnamed_addr personality ptr @rust_eh_personality {
  %6 = call { i64, ptr } @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio22try_set_output_capture(ptr noundef null)
  call fastcc void @_RNCNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook0B5_(ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(24) null, ptr noundef nonnull align 1 null, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(80) @anon.eb89d4395b0ead844ef0b45b8b54da85.394)
  ret void
}
declare { i64, ptr } @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio22try_set_output_capture() unnamed_addr
define internal fastcc void @_RNCNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook0B5_(ptr noalias noundef nonnull readonly align 8 captures(none) dereferenceable(24) %0, ptr noundef nonnull align 1 %1, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(80) %2) unnamed_addr personality ptr @rust_eh_personality {
  %5 = alloca [16 x i8], align 8
  %7 = alloca [32 x i8], align 8
  %8 = getelementptr inbounds nuw i8, ptr %7, i64 24
  store ptr %2, ptr %8, align 8
  %9 = tail call align 8 ptr @llvm.threadlocal.address.p0(ptr @_RNvNtNtCsjrHSEGnQ3l9_3std6thread7current7CURRENT)
  %10 = load ptr, ptr %9, align 8
  %11 = icmp ugt ptr %10, inttoptr (i64 1 to ptr)
  br i1 %11, label %15, label %12

12:                                               ; preds = %3
  call fastcc void @_RNCINvNtNtCsjrHSEGnQ3l9_3std6thread7current17with_current_nameNCNCNvNtB8_9panicking12default_hook00uE0B8_(ptr noalias noundef nonnull readonly align 8 captures(address) dereferenceable(32) %7, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable_or_null(8) null)
  %13 = load ptr, ptr inttoptr (i64 1 to ptr), align 8
  %14 = load i8, ptr %13, align 1
  switch i8 %14, label %16 [
    i8 1, label %21
    i8 0, label %17
  ]

15:                                               ; preds = %3
  call fastcc void @_RNCINvNtNtCsjrHSEGnQ3l9_3std6thread7current17with_current_nameNCNCNvNtB8_9panicking12default_hook00uE0B8_(ptr noalias noundef nonnull readonly align 8 captures(address) dereferenceable(32) %7, ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable_or_null(8) null)
  unreachable

16:                                               ; preds = %12
  unreachable

17:                                               ; preds = %12
  %18 = getelementptr inbounds nuw i8, ptr %2, i64 72
  %19 = load ptr, ptr %18, align 8
  %20 = call noundef ptr %19(ptr noundef nonnull align 1 %1, ptr noundef nonnull @anon.eb89d4395b0ead844ef0b45b8b54da85.164, ptr noundef nonnull %5)
  unreachable

21:                                               ; preds = %12
  %22 = getelementptr inbounds nuw i8, ptr %2, i64 72
  %23 = load ptr, ptr %22, align 8
  %24 = call noundef ptr %23(ptr noundef nonnull align 1 %1, ptr noundef nonnull @anon.eb89d4395b0ead844ef0b45b8b54da85.164, ptr noundef nonnull null)
  unreachable
}
define internal fastcc void @_RNCINvNtNtCsjrHSEGnQ3l9_3std6thread7current17with_current_nameNCNCNvNtB8_9panicking12default_hook00uE0B8_(ptr dead_on_return noalias noundef nonnull readonly align 8 captures(none) dereferenceable(32) %0, ptr noalias noundef readonly align 8 captures(address_is_null) dereferenceable_or_null(8) %1) unnamed_addr personality ptr @rust_eh_personality {
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %5 = load ptr, ptr %4, align 8
  call void @_RNvNtCsgEmfK2I1SDS_4core3fmt5write()
  %6 = getelementptr inbounds nuw i8, ptr %5, i64 56
  %7 = load ptr, ptr %6, align 8
  %8 = call noundef ptr %7(ptr noundef nonnull align 1 null, ptr noalias noundef nonnull readonly align 1 captures(address, read_provenance) null, i64 noundef 0)
  ret void
}
define internal { i64, ptr } @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write5write(ptr noalias nonnull readnone align 1 captures(none) %0, ptr noalias noundef nonnull readonly align 1 captures(none) %1, i64 noundef range(i64 0, -9223372036854775808) %2) unnamed_addr personality ptr @rust_eh_personality {
  ret { i64, ptr } zeroinitializer
}
define internal { i64, ptr } @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write14write_vectored(ptr noalias nonnull readnone align 1 captures(none) %0, ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) %1, i64 noundef range(i64 0, 576460752303423488) %2) unnamed_addr personality ptr @rust_eh_personality {
  tail call void @writev()
  unreachable
}
define internal noundef zeroext i1 @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write17is_write_vectored(ptr noalias nonnull readonly align 1 captures(none) %0) unnamed_addr {
  ret i1 true
}
define internal noalias noundef ptr @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write5flush(ptr noalias nonnull readnone align 1 captures(none) %0) unnamed_addr {
  ret ptr null
}
declare noundef ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write9write_allBa_(ptr noalias nonnull readnone align 1 captures(none), ptr noalias noundef nonnull readonly align 1 captures(none), i64 noundef range(i64 0, -9223372036854775808)) unnamed_addr
define internal noundef ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write18write_all_vectoredBa_(ptr noalias nonnull readnone align 1 captures(none) %0, ptr noalias noundef nonnull align 8 %1, i64 noundef range(i64 0, 576460752303423488) %2) unnamed_addr personality ptr @rust_eh_personality {
  ret ptr null
}
declare void @writev() unnamed_addr
define internal void @_RNvNvNtNtNtNtCsjrHSEGnQ3l9_3std3sys12thread_local5guard3key6enable3run(ptr readnone captures(none) %0) unnamed_addr personality ptr @rust_eh_personality {
  %2 = tail call align 8 ptr @llvm.threadlocal.address.p0(ptr @_RNvNtNtCsjrHSEGnQ3l9_3std6thread7current7CURRENT)
  ret void
}
!llvm.module.flags = !{!0, !1, !2, !3, !4}
!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"PIE Level", i32 2}
!2 = !{i32 2, !"RtLibUseGOT", i32 1}
!3 = !{i32 7, !"Dwarf Version", i32 4}
!4 = !{i32 2, !"Debug Info Version", i32 3}
