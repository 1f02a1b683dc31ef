; rust-markdown's `+ UND __cxa_thread_atexit_impl` as `ember reduce` finds it, with the split back
; end as it was before the whole-module prefix (issue 39's benchmark case
; `rust-markdown+skip-whole-module-prefix`, `python -m bench.triage`, 2026-11-29: 296,806 lines ->
; these 25 in 475 s on 2 cores): std's output capture. @OUTPUT_CAPTURE_USED is never stored, so
; serially its load is 0, the assume is false and the call of `__cxa_thread_atexit_impl` (std's
; thread-local destructor registration) goes; split at cost 1, @print_to_buffer_if_capture_used's
; subgraph cannot see that. Fixed by the serial pipeline's prefix (the default); `--split-prefix
; off` still shows it (tests/test_split_pipeline.py; the hand-reduced form of the same bug:
; fuzz/regressions/ipsccp_dead_branch_across_subgraphs.ll).
; Reproduce: ember build THIS -o s.o -O2 --split none; ember build THIS -o p.o -O2 --split subgraph
;   -j 2 --split-cost 1 --split-prefix off; nm s.o p.o | grep ' U '
@anon.dcd8ad70be6bceea904a3edeecc8a0c4.14 = external unnamed_addr constant [57 x i8], align 1
@_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio19OUTPUT_CAPTURE_USED.0 = internal unnamed_addr global i8 0, align 1
define void @_ZN14ember_markdown4main17h12976ad508d69d7eE() unnamed_addr {
  %1 = call noundef nonnull align 8 ptr @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio6stdout()
  %2 = call noundef nonnull align 8 ptr @_RNvMsa_NtNtCsjrHSEGnQ3l9_3std2io5stdioNtB5_6Stdout4lock(ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable(8) null)
  %3 = call noundef dereferenceable_or_null(8192) ptr @_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc(i64 noundef 8192, i64 noundef range(i64 1, 9) 1)
  call void @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio7__eprint(ptr noundef nonnull @anon.dcd8ad70be6bceea904a3edeecc8a0c4.14, ptr noundef nonnull inttoptr (i64 1 to ptr))
  unreachable
}
declare void @llvm.assume(i1 noundef)
declare void @_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc() unnamed_addr
declare extern_weak void @__cxa_thread_atexit_impl() unnamed_addr
declare void @_RNvMsa_NtNtCsjrHSEGnQ3l9_3std2io5stdioNtB5_6Stdout4lock() unnamed_addr
define internal fastcc noundef zeroext i1 @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio31print_to_buffer_if_capture_used(ptr noundef nonnull %0, ptr noundef nonnull %1) unnamed_addr {
  %3 = load atomic i8, ptr @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio19OUTPUT_CAPTURE_USED.0 monotonic, align 1
  %4 = icmp ne i8 %3, 0
  call void @llvm.assume(i1 %4)
  tail call void @__cxa_thread_atexit_impl()
  unreachable
}
declare ptr @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio6stdout() unnamed_addr
define void @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio7__eprint(ptr noundef nonnull %0, ptr noundef nonnull %1) unnamed_addr {
  %3 = tail call fastcc noundef zeroext i1 @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio31print_to_buffer_if_capture_used(ptr noundef nonnull %0, ptr noundef nonnull %1)
  ret void
}
