; rust-regex's real split-vs-serial difference (the split object gains UND writev), reduced by
; ember reduce --property symbol-difference from 455,860 lines (docs/reducer.md). It shows only
; when split with the plan next to it (rust-regex-writev.plan.json, BuildHooks.plan_assignment),
; at -O2 --split subgraph --split-cost 1; a plain --split-cost 1 build does not show it.
source_filename = "ember_regex.4c68a7a734dc79c4-cgu.0"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
@anon.5e37b2a355f3f40f4a08b3a945a506d5.145 = external unnamed_addr constant <{ [24 x i8], ptr, ptr, ptr }>, align 8
@anon.5e37b2a355f3f40f4a08b3a945a506d5.146 = external unnamed_addr constant [6 x i8], align 1
@_RNvNtCsjrHSEGnQ3l9_3std9panicking11EMPTY_PANIC = constant ptr @_RNSINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReE5reifyB6_, align 8
@anon.eb89d4395b0ead844ef0b45b8b54da85.51 = external unnamed_addr constant <{ ptr, [16 x i8], ptr, ptr, ptr }>, align 8
@anon.eb89d4395b0ead844ef0b45b8b54da85.65 = external unnamed_addr constant <{ [24 x i8], ptr, ptr }>, align 8
@anon.eb89d4395b0ead844ef0b45b8b54da85.87 = external unnamed_addr constant <{ [24 x i8], ptr, ptr, ptr, ptr }>, align 8
@anon.eb89d4395b0ead844ef0b45b8b54da85.88 = external unnamed_addr constant [4 x i8], align 1
@anon.eb89d4395b0ead844ef0b45b8b54da85.90 = external unnamed_addr constant [39 x i8], align 1
@anon.eb89d4395b0ead844ef0b45b8b54da85.92 = external unnamed_addr constant [9 x i8], align 1
@anon.eb89d4395b0ead844ef0b45b8b54da85.146 = external unnamed_addr constant <{ ptr, [16 x i8] }>, align 8
@anon.eb89d4395b0ead844ef0b45b8b54da85.164 = external unnamed_addr constant [2 x i8], align 1
@anon.eb89d4395b0ead844ef0b45b8b54da85.361 = external unnamed_addr constant [11 x i8], align 1
@anon.eb89d4395b0ead844ef0b45b8b54da85.364 = external unnamed_addr constant [6 x i8], align 1
@anon.eb89d4395b0ead844ef0b45b8b54da85.394 = private unnamed_addr constant <{ [24 x i8], ptr, ptr, ptr, ptr, ptr, ptr, ptr }> <{ [24 x i8] c"\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00", ptr @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write5write, ptr @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write14write_vectored, ptr @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write17is_write_vectored, ptr @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write5flush, ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write9write_allBa_, ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write18write_all_vectoredBa_, ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write9write_fmtBa_ }>, align 8
@_RNvNtCsjrHSEGnQ3l9_3std9panicking4HOOK = external global <{ [16 x i8], [8 x i8] }>, align 8
@anon.eb89d4395b0ead844ef0b45b8b54da85.426 = external unnamed_addr constant [17 x i8], align 1
@anon.eb89d4395b0ead844ef0b45b8b54da85.427 = external unnamed_addr constant <{ ptr, [16 x i8], ptr, ptr }>, align 8
@anon.eb89d4395b0ead844ef0b45b8b54da85.428 = private unnamed_addr constant <{ [24 x i8], ptr, ptr }> <{ [24 x i8] c"\00\00\00\00\00\00\00\008\00\00\00\00\00\00\00\08\00\00\00\00\00\00\00", ptr @_RNSNvYNCNvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace10__print_fmts_0INtNtNtCsgEmfK2I1SDS_4core3ops8function6FnOnceTRNtNtNtBc_12backtrace_rs9backtrace5FrameEE9call_once6vtableBc_, ptr @_RNCNvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace10__print_fmts_0B7_ }>, align 8
@_RNvNtNtCsjrHSEGnQ3l9_3std6thread11main_thread4MAIN.0 = external unnamed_addr global i64, align 8
@_RNvNtNtCsjrHSEGnQ3l9_3std6thread7current7CURRENT = internal thread_local local_unnamed_addr global [8 x i8] zeroinitializer, align 8
@_RNvNtNtNtCsjrHSEGnQ3l9_3std6thread7current2id2ID = external thread_local local_unnamed_addr global [8 x i8], align 8
@_RNvNtNtNtNtCsjrHSEGnQ3l9_3std3sys12thread_local11destructors4list5DTORS = external thread_local global [32 x i8], align 8
declare void @llvm.assume(i1 noundef) #2
declare void @llvm.lifetime.start.p0(ptr captures(none)) #3
declare void @llvm.lifetime.end.p0(ptr captures(none)) #3
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #4
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #5
declare i64 @llvm.usub.sat.i64(i64, i64) #6
declare i64 @llvm.umin.i64(i64, i64) #6
declare void @llvm.experimental.noalias.scope.decl(metadata) #8
declare i64 @llvm.umax.i64(i64, i64) #6
declare noundef zeroext i1 @_RNvNtCsgEmfK2I1SDS_4core3fmt5write(ptr noundef nonnull align 1, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(48), ptr noundef nonnull captures(address, read_provenance), ptr noundef nonnull) unnamed_addr #11
declare noundef zeroext i1 @_RNvXsi_NtNtNtCsgEmfK2I1SDS_4core3fmt3num3impjNtB9_7Display3fmt(ptr noalias noundef readonly align 8 captures(none) dereferenceable(8), ptr noalias noundef align 8 captures(none) dereferenceable(24)) unnamed_addr #11
declare noundef zeroext i1 @_RNvXsd_NtNtNtCsgEmfK2I1SDS_4core3fmt3num3impyNtB9_7Display3fmt(ptr noalias noundef readonly align 8 captures(none) dereferenceable(8), ptr noalias noundef align 8 captures(none) dereferenceable(24)) unnamed_addr #11
declare nonnull ptr @llvm.threadlocal.address.p0(ptr nonnull) #16
define internal fastcc noundef zeroext i1 @_RNvMs4_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_7Printer10print_path(ptr noalias noundef nonnull align 8 dereferenceable(48) %0, i1 noundef zeroext %1) unnamed_addr #17 personality ptr @rust_eh_personality {
  %3 = alloca [32 x i8], align 8
  %4 = alloca [32 x i8], align 8
  %5 = alloca [16 x i8], align 8
  %6 = load ptr, ptr %0, align 8, !nonnull !6, !noundef !6
  %7 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %8 = load i32, ptr %7, align 8, !noundef !6
  %9 = add i32 %8, 1
  store i32 %9, ptr %7, align 8
  %10 = icmp ult i32 %9, 501
  call void @llvm.assume(i1 %10)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !7)
  %11 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %12 = load i64, ptr %11, align 8, !alias.scope !7, !noundef !6
  %13 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %14 = load i64, ptr %13, align 8, !alias.scope !7, !noundef !6
  %15 = icmp ult i64 %14, %12
  call void @llvm.assume(i1 %15)
  %16 = getelementptr inbounds nuw i8, ptr %6, i64 %14
  %17 = load i8, ptr %16, align 1, !noalias !7, !noundef !6
  %18 = add nuw i64 %14, 1
  store i64 %18, ptr %13, align 8, !alias.scope !7
  %cond = icmp eq i8 %17, 67
  call void @llvm.assume(i1 %cond)
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  call fastcc void @_RNvMs2_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_6Parser14opt_integer_62(ptr noalias noundef nonnull sret([16 x i8]) align 8 captures(none) dereferenceable(16) %5, ptr noalias noundef nonnull align 8 dereferenceable(32) %0, i8 noundef 115)
  %19 = load i8, ptr %5, align 8, !range !10, !noundef !6
  %20 = trunc nuw i8 %19 to i1
  %21 = xor i1 %20, true
  call void @llvm.assume(i1 %21)
  call void @llvm.lifetime.end.p0(ptr nonnull %5)
  %22 = load ptr, ptr %0, align 8, !noundef !6
  %23 = icmp ne ptr %22, null
  call void @llvm.assume(i1 %23)
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  call fastcc void @_RNvMs2_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_6Parser5ident(ptr noalias noundef sret([32 x i8]) align 8 captures(none) dereferenceable(32) %4, ptr noalias noundef align 8 dereferenceable(32) %0)
  %24 = load ptr, ptr %4, align 8, !noundef !6
  %25 = icmp ne ptr %24, null
  call void @llvm.assume(i1 %25)
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(32) %3, ptr noundef nonnull align 8 dereferenceable(32) %4, i64 32, i1 false)
  call void @llvm.lifetime.end.p0(ptr nonnull %4)
  %26 = getelementptr inbounds nuw i8, ptr %0, i64 32
  %27 = load ptr, ptr %26, align 8, !nonnull !6, !align !11, !noundef !6
  %28 = call noundef zeroext i1 @_RNvXs0_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_5IdentNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt(ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable(32) %3, ptr noalias noundef nonnull align 8 dereferenceable(24) %27), !noalias !12
  unreachable
}
declare fastcc void @_RNvMs2_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_6Parser14opt_integer_62(ptr dead_on_unwind noalias noundef nonnull writable writeonly sret([16 x i8]) align 8 captures(none) dereferenceable(16) initializes((0, 1)), ptr noalias noundef nonnull align 8 captures(none) dereferenceable(32), i8 noundef range(i8 71, 116)) unnamed_addr #18
declare fastcc void @_RNvMs2_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_6Parser5ident(ptr dead_on_unwind noalias noundef nonnull writable writeonly sret([32 x i8]) align 8 captures(none) dereferenceable(32), ptr noalias noundef nonnull align 8 captures(none) dereferenceable(32)) unnamed_addr #17
define internal noundef zeroext i1 @_RNvXs0_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_5IdentNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt(ptr noalias noundef readonly align 8 captures(none) dereferenceable(32) %0, ptr noalias noundef align 8 dereferenceable(24) %1) unnamed_addr #17 personality ptr @rust_eh_personality {
  %3 = alloca [512 x i8], align 4
  tail call void @llvm.experimental.noalias.scope.decl(metadata !19)
  call void @llvm.lifetime.start.p0(ptr nonnull %3), !noalias !22
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 4 dereferenceable(512) %3, i8 0, i64 512, i1 false), !noalias !22
  tail call void @llvm.experimental.noalias.scope.decl(metadata !24)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !27)
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %5 = load ptr, ptr %4, align 8, !alias.scope !29, !noalias !30, !nonnull !6, !align !15, !noundef !6
  %6 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %7 = load i64, ptr %6, align 8, !alias.scope !29, !noalias !30, !noundef !6
  %8 = getelementptr inbounds nuw i8, ptr %5, i64 %7
  %9 = icmp samesign ne i64 %7, 0
  %10 = getelementptr inbounds nuw i8, ptr %0, i64 8
  call void @llvm.assume(i1 %9)
  %11 = load i64, ptr %10, align 8, !alias.scope !29, !noalias !30, !noundef !6
  %12 = icmp eq i64 %11, 0
  call void @llvm.assume(i1 %12)
  br label %13

13:                                               ; preds = %13, %2
  %14 = phi i64 [ %28, %13 ], [ 0, %2 ]
  %15 = phi ptr [ %21, %13 ], [ %5, %2 ]
  %16 = phi i64 [ %48, %13 ], [ 0, %2 ]
  %17 = phi i64 [ %32, %13 ], [ 128, %2 ]
  %18 = phi i64 [ %57, %13 ], [ 72, %2 ]
  %19 = phi i64 [ 2, %13 ], [ 700, %2 ]
  %20 = load i8, ptr %15, align 1, !noalias !32, !noundef !6
  %21 = getelementptr inbounds nuw i8, ptr %15, i64 1
  %22 = tail call i64 @llvm.usub.sat.i64(i64 36, i64 %18)
  %23 = tail call noundef i64 @llvm.umax.i64(i64 %22, i64 1)
  %24 = add nsw i8 %20, -97
  %25 = icmp ult i8 %24, 26
  call void @llvm.assume(i1 %25)
  %26 = zext nneg i8 %24 to i64
  %27 = icmp samesign ugt i64 %23, %26
  call void @llvm.assume(i1 %27)
  %28 = add nuw nsw i64 %14, 1
  %29 = add nsw i64 %16, %26
  %30 = icmp uge i64 %29, %16
  call void @llvm.assume(i1 %30)
  %31 = udiv i64 %29, %28
  %32 = add i64 %31, %17
  %33 = icmp samesign uge i64 %32, %17
  call void @llvm.assume(i1 %33)
  %34 = urem i64 %29, %28
  %35 = trunc nuw nsw i64 %32 to i32
  %36 = xor i32 %35, 55296
  %37 = add nsw i32 %36, -2048
  %38 = icmp ult i32 %37, 1112064
  call void @llvm.assume(i1 %38)
  %39 = icmp ult i64 %32, 1114112
  tail call void @llvm.assume(i1 %39)
  %40 = icmp samesign ult i64 %14, 128
  call void @llvm.assume(i1 %40)
  %41 = icmp samesign ugt i64 %14, %34
  call void @llvm.assume(i1 %41)
  %42 = add nsw i64 %14, -1
  %43 = getelementptr inbounds nuw i32, ptr %3, i64 %42
  %44 = load i32, ptr %43, align 4, !range !33, !alias.scope !27, !noalias !34, !noundef !6
  %45 = getelementptr inbounds nuw i32, ptr %3, i64 %14
  store i32 %44, ptr %45, align 4, !alias.scope !27, !noalias !34
  %46 = icmp ugt i64 %42, %34
  %47 = getelementptr inbounds nuw i32, ptr %3, i64 %34
  store i32 %35, ptr %47, align 4, !alias.scope !27, !noalias !34
  %48 = add nuw nsw i64 %34, 1
  %49 = icmp ne ptr %21, %8
  call void @llvm.assume(i1 %49)
  %50 = udiv i64 %26, %19
  %51 = udiv i64 %50, %28
  %52 = add nuw nsw i64 %51, %50
  %53 = trunc nuw nsw i64 %52 to i16
  %54 = mul nuw nsw i16 %53, 36
  %55 = add nuw nsw i16 %53, 38
  %56 = udiv i16 %54, %55
  %57 = zext nneg i16 %56 to i64
  br label %13
}
define internal noundef zeroext i1 @_RNvXs1_CsgY6Mt91CT9J_14rustc_demangleNtB5_8DemangleNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt(ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(64) %0, ptr noalias noundef align 8 dereferenceable(24) %1) unnamed_addr #17 personality ptr @rust_eh_personality {
  %3 = alloca [16 x i8], align 8
  %4 = alloca [24 x i8], align 8
  %5 = alloca [8 x i8], align 8
  %6 = load i64, ptr %0, align 8, !range !37, !noundef !6
  %7 = trunc nuw i64 %6 to i1
  call void @llvm.assume(i1 %7)
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  %8 = getelementptr inbounds nuw i8, ptr %0, i64 8
  store ptr %8, ptr %5, align 8
  %9 = getelementptr inbounds nuw i8, ptr %1, i64 16
  %10 = load i32, ptr %9, align 8, !noundef !6
  %11 = and i32 %10, 8388608
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  store i64 0, ptr %4, align 8
  %12 = getelementptr inbounds nuw i8, ptr %4, i64 8
  store i64 1000000, ptr %12, align 8
  %13 = getelementptr inbounds nuw i8, ptr %4, i64 16
  store ptr %1, ptr %13, align 8
  %14 = icmp ne i32 %11, 0
  call void @llvm.assume(i1 %14)
  call void @llvm.lifetime.start.p0(ptr nonnull %3)
  store ptr %5, ptr %3, align 8
  %15 = getelementptr inbounds nuw i8, ptr %3, i64 8
  store ptr @_RNvXs1i_NtCsgEmfK2I1SDS_4core3fmtRNtCsgY6Mt91CT9J_14rustc_demangle13DemangleStyleNtB6_7Display3fmtBy_, ptr %15, align 8
  %16 = call noundef zeroext i1 @_RNvNtCsgEmfK2I1SDS_4core3fmt5write(ptr noundef nonnull align 1 %4, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(48) @anon.5e37b2a355f3f40f4a08b3a945a506d5.145, ptr noundef nonnull @anon.5e37b2a355f3f40f4a08b3a945a506d5.146, ptr noundef nonnull %3)
  unreachable
}
define internal noundef zeroext i1 @_RNvXs1i_NtCsgEmfK2I1SDS_4core3fmtRNtCsgY6Mt91CT9J_14rustc_demangle13DemangleStyleNtB6_7Display3fmtBy_(ptr noalias noundef readonly align 8 captures(none) dereferenceable(8) %0, ptr noalias noundef align 8 dereferenceable(24) %1) unnamed_addr #17 {
  %3 = load ptr, ptr %0, align 8, !nonnull !6, !align !11, !noundef !6
  %4 = tail call noundef zeroext i1 @_RNvXs_CsgY6Mt91CT9J_14rustc_demangleNtB4_13DemangleStyleNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt(ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable(24) %3, ptr noalias noundef nonnull align 8 dereferenceable(24) %1)
  ret i1 %4
}
define internal noundef zeroext i1 @_RNvXs_CsgY6Mt91CT9J_14rustc_demangleNtB4_13DemangleStyleNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt(ptr noalias noundef readonly align 8 captures(none) dereferenceable(24) %0, ptr noalias noundef align 8 dereferenceable(24) %1) unnamed_addr #17 {
  %3 = alloca [48 x i8], align 8
  %4 = load ptr, ptr %0, align 8, !noundef !6
  %5 = icmp eq ptr %4, null
  call void @llvm.assume(i1 %5)
  %6 = getelementptr inbounds nuw i8, ptr %0, i64 8
  tail call void @llvm.experimental.noalias.scope.decl(metadata !38)
  call void @llvm.lifetime.start.p0(ptr nonnull %3), !noalias !41
  %7 = load ptr, ptr %6, align 8, !alias.scope !38, !noalias !43, !nonnull !6, !align !15, !noundef !6
  %8 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %9 = load i64, ptr %8, align 8, !alias.scope !38, !noalias !43, !noundef !6
  store ptr %7, ptr %3, align 8, !noalias !41
  %10 = getelementptr inbounds nuw i8, ptr %3, i64 8
  store i64 %9, ptr %10, align 8, !noalias !41
  %11 = getelementptr inbounds nuw i8, ptr %3, i64 16
  store i64 0, ptr %11, align 8, !noalias !41
  %12 = getelementptr inbounds nuw i8, ptr %3, i64 24
  store i32 0, ptr %12, align 8, !noalias !41
  %13 = getelementptr inbounds nuw i8, ptr %3, i64 32
  store ptr %1, ptr %13, align 8, !noalias !41
  %14 = getelementptr inbounds nuw i8, ptr %3, i64 40
  store i32 0, ptr %14, align 8, !noalias !41
  %15 = call fastcc noundef zeroext i1 @_RNvMs4_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_7Printer10print_path(ptr noalias noundef align 8 dereferenceable(48) %3, i1 noundef zeroext true), !noalias !38
  call void @llvm.lifetime.end.p0(ptr nonnull %3), !noalias !41
  ret i1 %15
}
define internal void @_RNSINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReE5reifyB6_(ptr noalias noundef nonnull readonly align 1 captures(address, read_provenance) %0, i64 noundef %1) unnamed_addr #13 {
  tail call void @_RINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReEB4_(ptr noalias noundef nonnull readonly align 1 captures(address, read_provenance) %0, i64 noundef %1, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(24) @anon.eb89d4395b0ead844ef0b45b8b54da85.146) #40
  unreachable
}
define internal void @_RINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReEB4_(ptr noalias noundef nonnull readonly align 1 captures(address, read_provenance) %0, i64 noundef %1, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(24) %2) unnamed_addr #13 {
  %4 = alloca [24 x i8], align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  store ptr %0, ptr %4, align 8
  %5 = getelementptr inbounds nuw i8, ptr %4, i64 8
  store i64 %1, ptr %5, align 8
  %6 = getelementptr inbounds nuw i8, ptr %4, i64 16
  store ptr %2, ptr %6, align 8
  call void @_RINvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace26___rust_end_short_backtraceNCINvNtB6_9panicking11begin_panicReE0zEB6_(ptr noalias noundef nonnull align 8 captures(address) dereferenceable(24) %4) #40
  unreachable
}
define internal void @_RINvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace26___rust_end_short_backtraceNCINvNtB6_9panicking11begin_panicReE0zEB6_(ptr dead_on_return noalias noundef readonly align 8 captures(none) dereferenceable(24) %0) unnamed_addr #20 {
  tail call fastcc void @_RNCINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReE0B6_(ptr noalias noundef readonly align 8 captures(none) dereferenceable(24) %0) #41
  unreachable
}
define internal fastcc void @_RNCINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReE0B6_(ptr dead_on_return noalias noundef nonnull readonly align 8 captures(none) dereferenceable(24) %0) unnamed_addr #21 personality ptr @rust_eh_personality {
  %2 = alloca [16 x i8], align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %2)
  %3 = load ptr, ptr %0, align 8, !nonnull !6, !align !15, !noundef !6
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %5 = load i64, ptr %4, align 8, !noundef !6
  store ptr %3, ptr %2, align 8
  %6 = getelementptr inbounds nuw i8, ptr %2, i64 8
  store i64 %5, ptr %6, align 8
  %7 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %8 = load ptr, ptr %7, align 8, !nonnull !6, !align !11, !noundef !6
  call void @_RNvNtCsjrHSEGnQ3l9_3std9panicking15panic_with_hook(ptr noundef nonnull align 1 %2, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(56) @anon.eb89d4395b0ead844ef0b45b8b54da85.87, ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable(24) %8, i1 noundef zeroext true, i1 noundef zeroext false) #42
  unreachable
}
declare range(i32 2, 9) i32 @rust_eh_personality(i32 noundef, i32 noundef, i64, ptr noundef, ptr noundef) unnamed_addr #22
define internal void @_RNvNtCsjrHSEGnQ3l9_3std9panicking15panic_with_hook(ptr noundef nonnull align 1 %0, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(56) %1, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(24) %2, i1 noundef zeroext %3, i1 noundef zeroext %4) unnamed_addr #23 personality ptr @rust_eh_personality {
  %6 = alloca [32 x i8], align 8
  %7 = alloca [8 x i8], align 8
  %8 = alloca [16 x i8], align 8
  store ptr %0, ptr %8, align 8
  %9 = getelementptr inbounds nuw i8, ptr %8, i64 8
  store ptr %1, ptr %9, align 8
  store ptr %2, ptr %7, align 8
  %10 = tail call noundef i8 @_RNvNtNtCsjrHSEGnQ3l9_3std9panicking11panic_count8increase(i1 noundef zeroext true)
  %cond = icmp eq i8 %10, 2
  call void @llvm.assume(i1 %cond)
  %11 = load atomic i32, ptr @_RNvNtCsjrHSEGnQ3l9_3std9panicking4HOOK monotonic, align 4
  %12 = icmp ugt i32 %11, 1073741821
  call void @llvm.assume(i1 %12)
  tail call void @_RNvMNtNtNtNtCsjrHSEGnQ3l9_3std3sys4sync6rwlock5futexNtB2_6RwLock14read_contended(ptr noundef nonnull align 4 @_RNvNtCsjrHSEGnQ3l9_3std9panicking4HOOK)
  %13 = load ptr, ptr getelementptr inbounds nuw (i8, ptr @_RNvNtCsjrHSEGnQ3l9_3std9panicking4HOOK, i64 8), align 8, !align !15, !noundef !6
  %14 = icmp eq ptr %13, null
  call void @llvm.assume(i1 %14)
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  %15 = load ptr, ptr %8, align 8, !nonnull !6, !align !15, !noundef !6
  %16 = load ptr, ptr %9, align 8, !nonnull !6, !align !11, !noundef !6
  %17 = getelementptr inbounds nuw i8, ptr %16, i64 40
  %18 = load ptr, ptr %17, align 8, !invariant.load !6, !nonnull !6
  %19 = call { ptr, ptr } %18(ptr noundef nonnull align 1 %15) #43
  %20 = extractvalue { ptr, ptr } %19, 0
  %21 = extractvalue { ptr, ptr } %19, 1
  store ptr %20, ptr %6, align 8
  %22 = getelementptr inbounds nuw i8, ptr %6, i64 8
  store ptr %21, ptr %22, align 8
  %23 = load ptr, ptr %7, align 8, !nonnull !6, !align !11, !noundef !6
  %24 = getelementptr inbounds nuw i8, ptr %6, i64 16
  store ptr %23, ptr %24, align 8
  %25 = getelementptr inbounds nuw i8, ptr %6, i64 24
  %26 = zext i1 %3 to i8
  store i8 %26, ptr %25, align 8
  %27 = getelementptr inbounds nuw i8, ptr %6, i64 25
  %28 = zext i1 %4 to i8
  store i8 %28, ptr %27, align 1
  call void @_RNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook(ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable(32) %6) #43
  unreachable
}
declare noundef range(i8 0, 3) i8 @_RNvNtNtCsjrHSEGnQ3l9_3std9panicking11panic_count8increase(i1 noundef zeroext) unnamed_addr #24
declare void @_RNvMNtNtNtNtCsjrHSEGnQ3l9_3std3sys4sync6rwlock5futexNtB2_6RwLock14read_contended(ptr noundef nonnull align 4) unnamed_addr #25
declare noundef zeroext i1 @_RNvXs1i_NtCsgEmfK2I1SDS_4core3fmtRNtNtNtB8_5panic8location8LocationNtB6_7Display3fmtCsjrHSEGnQ3l9_3std(ptr noalias noundef readonly align 8 captures(none) dereferenceable(8), ptr noalias noundef readonly align 8 captures(none) dereferenceable(24)) unnamed_addr #11
declare noundef zeroext i1 @_RNvXs1i_NtCsgEmfK2I1SDS_4core3fmtReNtB6_7Display3fmtCsjrHSEGnQ3l9_3std(ptr noalias noundef readonly align 8 captures(none) dereferenceable(16), ptr noalias noundef align 8 dereferenceable(24)) unnamed_addr #11
declare noundef ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write9write_fmtBa_(ptr noalias noundef nonnull align 1, ptr noundef nonnull, ptr noundef nonnull) unnamed_addr #11
define internal void @_RNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook(ptr noalias noundef readonly align 8 captures(none) dereferenceable(32) %0) unnamed_addr #27 personality ptr @rust_eh_personality {
  %2 = alloca [0 x i8], align 1
  %3 = alloca [24 x i8], align 8
  %4 = alloca [16 x i8], align 8
  %5 = alloca [8 x i8], align 8
  %6 = alloca [1 x i8], align 1
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  %7 = getelementptr inbounds nuw i8, ptr %0, i64 25
  %8 = load i8, ptr %7, align 1, !range !10, !noundef !6
  %9 = trunc nuw i8 %8 to i1
  %spec.select = select i1 %9, i8 3, i8 1
  store i8 %spec.select, ptr %6, align 1
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  %10 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %11 = load ptr, ptr %10, align 8, !nonnull !6, !align !11, !noundef !6
  store ptr %11, ptr %5, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  %12 = load ptr, ptr %0, align 8, !nonnull !6, !align !15, !noundef !6
  %13 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %14 = load ptr, ptr %13, align 8, !nonnull !6, !align !11, !noundef !6
  %15 = tail call { ptr, i64 } @_RNvNtCsjrHSEGnQ3l9_3std9panicking14payload_as_str(ptr noundef nonnull align 1 %12, ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable(32) %14)
  %16 = extractvalue { ptr, i64 } %15, 0
  %17 = extractvalue { ptr, i64 } %15, 1
  store ptr %16, ptr %4, align 8
  %18 = getelementptr inbounds nuw i8, ptr %4, i64 8
  store i64 %17, ptr %18, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %3)
  store ptr %5, ptr %3, align 8
  %19 = getelementptr inbounds nuw i8, ptr %3, i64 8
  store ptr %4, ptr %19, align 8
  %20 = getelementptr inbounds nuw i8, ptr %3, i64 16
  store ptr %6, ptr %20, align 8
  %21 = call { i64, ptr } @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio22try_set_output_capture(ptr noundef null)
  %22 = extractvalue { i64, ptr } %21, 0
  %23 = extractvalue { i64, ptr } %21, 1
  %24 = trunc nuw i64 %22 to i1
  %25 = icmp eq ptr %23, null
  %26 = select i1 %24, i1 true, i1 %25
  call void @llvm.assume(i1 %26)
  call fastcc void @_RNCNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook0B5_(ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(24) %3, ptr noundef nonnull align 1 %2, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(80) @anon.eb89d4395b0ead844ef0b45b8b54da85.394) #39
  call void @llvm.lifetime.end.p0(ptr nonnull %3)
  call void @llvm.lifetime.end.p0(ptr nonnull %4)
  call void @llvm.lifetime.end.p0(ptr nonnull %5)
  call void @llvm.lifetime.end.p0(ptr nonnull %6)
  ret void
}
declare { ptr, i64 } @_RNvNtCsjrHSEGnQ3l9_3std9panicking14payload_as_str(ptr noundef nonnull align 1, ptr noalias noundef readonly align 8 captures(none) dereferenceable(32)) unnamed_addr #11
declare { i64, ptr } @_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio22try_set_output_capture(ptr noundef) unnamed_addr #11
define internal fastcc void @_RNCNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook0B5_(ptr noalias noundef nonnull readonly align 8 captures(none) dereferenceable(24) %0, ptr noundef nonnull align 1 %1, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(80) %2) unnamed_addr #28 personality ptr @rust_eh_personality {
  %4 = alloca [16 x i8], align 8
  %5 = alloca [1 x i8], align 1
  %6 = alloca [16 x i8], align 8
  %7 = alloca [1 x i8], align 1
  %8 = alloca [8 x i8], align 8
  %9 = alloca [32 x i8], align 8
  %10 = tail call { ptr, i1 } @_RNvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace4lock()
  %11 = load ptr, ptr %0, align 8, !nonnull !6, !align !11, !noundef !6
  %12 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %13 = load ptr, ptr %12, align 8, !nonnull !6, !align !11, !noundef !6
  call void @llvm.lifetime.start.p0(ptr nonnull %9)
  store ptr %11, ptr %9, align 8
  %14 = getelementptr inbounds nuw i8, ptr %9, i64 8
  store ptr %13, ptr %14, align 8
  %15 = getelementptr inbounds nuw i8, ptr %9, i64 16
  store ptr %1, ptr %15, align 8
  %16 = getelementptr inbounds nuw i8, ptr %9, i64 24
  store ptr %2, ptr %16, align 8
  %17 = tail call align 8 ptr @llvm.threadlocal.address.p0(ptr @_RNvNtNtCsjrHSEGnQ3l9_3std6thread7current7CURRENT)
  %18 = load ptr, ptr %17, align 8, !noalias !47, !noundef !6
  %19 = icmp ugt ptr %18, inttoptr (i64 2 to ptr)
  br i1 %19, label %24, label %20

20:                                               ; preds = %3
  call fastcc void @_RNCINvNtNtCsjrHSEGnQ3l9_3std6thread7current17with_current_nameNCNCNvNtB8_9panicking12default_hook00uE0B8_(ptr noalias noundef nonnull readonly align 8 captures(address) dereferenceable(32) %9, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable_or_null(8) null) #43
  call void @llvm.lifetime.end.p0(ptr nonnull %9)
  %21 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %22 = load ptr, ptr %21, align 8, !nonnull !6, !align !15, !noundef !6
  %23 = load i8, ptr %22, align 1, !range !50, !noundef !6
  switch i8 %23, label %26 [
    i8 1, label %32
    i8 0, label %27
  ]

24:                                               ; preds = %3
  call void @llvm.lifetime.start.p0(ptr nonnull %8), !noalias !47
  %25 = getelementptr inbounds i8, ptr %18, i64 -16
  store ptr %25, ptr %8, align 8, !noalias !47
  call fastcc void @_RNCINvNtNtCsjrHSEGnQ3l9_3std6thread7current17with_current_nameNCNCNvNtB8_9panicking12default_hook00uE0B8_(ptr noalias noundef nonnull readonly align 8 captures(address) dereferenceable(32) %9, ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable_or_null(8) %8) #43
  unreachable

26:                                               ; preds = %20
  unreachable

27:                                               ; preds = %20
  %28 = getelementptr inbounds nuw i8, ptr %2, i64 72
  %29 = load ptr, ptr %28, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %7)
  store i8 0, ptr %7, align 1
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  store ptr %7, ptr %6, align 8
  %30 = getelementptr inbounds nuw i8, ptr %6, i64 8
  store ptr @_RNvXNvMNtNtCsjrHSEGnQ3l9_3std3sys9backtraceNtB5_13BacktraceLock5printNtB2_16DisplayBacktraceNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt, ptr %30, align 8
  %31 = call noundef ptr %29(ptr noundef nonnull align 1 %1, ptr noundef nonnull @anon.eb89d4395b0ead844ef0b45b8b54da85.164, ptr noundef nonnull %6) #44
  unreachable

32:                                               ; preds = %20
  %33 = getelementptr inbounds nuw i8, ptr %2, i64 72
  %34 = load ptr, ptr %33, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  store i8 1, ptr %5, align 1
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  store ptr %5, ptr %4, align 8
  %35 = getelementptr inbounds nuw i8, ptr %4, i64 8
  store ptr @_RNvXNvMNtNtCsjrHSEGnQ3l9_3std3sys9backtraceNtB5_13BacktraceLock5printNtB2_16DisplayBacktraceNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt, ptr %35, align 8
  %36 = call noundef ptr %34(ptr noundef nonnull align 1 %1, ptr noundef nonnull @anon.eb89d4395b0ead844ef0b45b8b54da85.164, ptr noundef nonnull %4) #44
  unreachable
}
declare noundef i64 @syscall(i64 noundef, ...) unnamed_addr #22
declare void @_RINvNtCsgEmfK2I1SDS_4core3ptr13drop_in_placeNtNtNtCsjrHSEGnQ3l9_3std2io5error5ErrorEBM_(ptr noalias noundef readonly align 8 captures(none) dereferenceable(8)) unnamed_addr #11
declare { ptr, i1 } @_RNvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace4lock() unnamed_addr #22
define internal fastcc void @_RNCINvNtNtCsjrHSEGnQ3l9_3std6thread7current17with_current_nameNCNCNvNtB8_9panicking12default_hook00uE0B8_(ptr dead_on_return noalias noundef nonnull readonly align 8 captures(none) dereferenceable(32) %0, ptr noalias noundef readonly align 8 captures(address_is_null) dereferenceable_or_null(8) %1) unnamed_addr #30 personality ptr @rust_eh_personality {
  %3 = alloca [16 x i8], align 8
  %4 = alloca [64 x i8], align 8
  %5 = alloca [24 x i8], align 8
  %6 = alloca [512 x i8], align 1
  %7 = alloca [8 x i8], align 8
  %8 = alloca [16 x i8], align 8
  %9 = icmp eq ptr %1, null
  call void @llvm.assume(i1 %9)
  %10 = load atomic i64, ptr @_RNvNtNtCsjrHSEGnQ3l9_3std6thread11main_thread4MAIN.0 monotonic, align 8
  %11 = icmp eq i64 %10, 0
  %12 = tail call align 8 ptr @llvm.threadlocal.address.p0(ptr @_RNvNtNtNtCsjrHSEGnQ3l9_3std6thread7current2id2ID)
  %13 = load i64, ptr %12, align 8
  %14 = icmp eq i64 %13, %10
  %15 = select i1 %14, ptr @anon.eb89d4395b0ead844ef0b45b8b54da85.88, ptr null
  %16 = select i1 %11, ptr null, ptr %15
  %17 = load ptr, ptr %0, align 8
  %18 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %19 = load ptr, ptr %18, align 8
  %20 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %21 = load ptr, ptr %20, align 8
  %22 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %23 = load ptr, ptr %22, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %8), !noalias !51
  %24 = icmp eq ptr %16, null
  %25 = select i1 %24, ptr @anon.eb89d4395b0ead844ef0b45b8b54da85.92, ptr %16
  %26 = select i1 %24, i64 9, i64 4
  store ptr %25, ptr %8, align 8, !noalias !51
  %27 = getelementptr inbounds nuw i8, ptr %8, i64 8
  store i64 %26, ptr %27, align 8, !noalias !51
  call void @llvm.lifetime.start.p0(ptr nonnull %7), !noalias !51
  %28 = icmp eq i64 ptrtoint (ptr @gettid to i64), 0
  call void @llvm.assume(i1 %28)
  %29 = tail call noundef i64 (i64, ...) @syscall(i64 noundef 186) #43, !noalias !55
  %sext = shl i64 %29, 32
  %30 = ashr exact i64 %sext, 32
  store i64 %30, ptr %7, align 8, !noalias !51
  call void @llvm.lifetime.start.p0(ptr nonnull %6), !noalias !51
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 1 dereferenceable(512) %6, i8 0, i64 512, i1 false), !noalias !51
  call void @llvm.lifetime.start.p0(ptr nonnull %5), !noalias !51
  store ptr %6, ptr %5, align 8, !noalias !51
  %31 = getelementptr inbounds nuw i8, ptr %5, i64 8
  store i64 512, ptr %31, align 8, !noalias !51
  %32 = getelementptr inbounds nuw i8, ptr %5, i64 16
  store i64 0, ptr %32, align 8, !noalias !51
  %33 = icmp ne ptr %17, null
  call void @llvm.assume(i1 %33)
  %34 = icmp ne ptr %19, null
  call void @llvm.assume(i1 %34)
  call void @llvm.lifetime.start.p0(ptr nonnull %4), !noalias !56
  store ptr %8, ptr %4, align 8, !noalias !56
  %35 = getelementptr inbounds nuw i8, ptr %4, i64 8
  store ptr @_RNvXs1i_NtCsgEmfK2I1SDS_4core3fmtReNtB6_7Display3fmtCsjrHSEGnQ3l9_3std, ptr %35, align 8, !noalias !56
  %36 = getelementptr inbounds nuw i8, ptr %4, i64 16
  store ptr %7, ptr %36, align 8, !noalias !56
  %37 = getelementptr inbounds nuw i8, ptr %4, i64 24
  store ptr @_RNvXsd_NtNtNtCsgEmfK2I1SDS_4core3fmt3num3impyNtB9_7Display3fmt, ptr %37, align 8, !noalias !56
  %38 = getelementptr inbounds nuw i8, ptr %4, i64 32
  store ptr %17, ptr %38, align 8, !noalias !56
  %39 = getelementptr inbounds nuw i8, ptr %4, i64 40
  store ptr @_RNvXs1i_NtCsgEmfK2I1SDS_4core3fmtRNtNtNtB8_5panic8location8LocationNtB6_7Display3fmtCsjrHSEGnQ3l9_3std, ptr %39, align 8, !noalias !56
  %40 = getelementptr inbounds nuw i8, ptr %4, i64 48
  store ptr %19, ptr %40, align 8, !noalias !56
  %41 = getelementptr inbounds nuw i8, ptr %4, i64 56
  store ptr @_RNvXs1i_NtCsgEmfK2I1SDS_4core3fmtReNtB6_7Display3fmtCsjrHSEGnQ3l9_3std, ptr %41, align 8, !noalias !56
  call void @llvm.lifetime.start.p0(ptr nonnull %3), !noalias !59
  store ptr %5, ptr %3, align 8, !noalias !59
  %42 = getelementptr inbounds nuw i8, ptr %3, i64 8
  store ptr null, ptr %42, align 8, !noalias !59
  %43 = call noundef zeroext i1 @_RNvNtCsgEmfK2I1SDS_4core3fmt5write(ptr noundef nonnull align 1 %3, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(48) @anon.eb89d4395b0ead844ef0b45b8b54da85.51, ptr noundef nonnull @anon.eb89d4395b0ead844ef0b45b8b54da85.90, ptr noundef nonnull %4) #43, !noalias !64
  %44 = load ptr, ptr %42, align 8, !noalias !59, !noundef !6
  %45 = icmp eq ptr %44, null
  %46 = xor i1 %43, true
  call void @llvm.assume(i1 %46)
  call void @llvm.assume(i1 %45)
  call void @llvm.lifetime.end.p0(ptr nonnull %3), !noalias !59
  call void @llvm.lifetime.end.p0(ptr nonnull %4), !noalias !56
  %47 = load i64, ptr %32, align 8, !noalias !51
  %48 = icmp ult i64 %47, 513
  call void @llvm.assume(i1 %48)
  %49 = icmp ne ptr %23, null
  call void @llvm.assume(i1 %49)
  %50 = icmp ne ptr %21, null
  call void @llvm.assume(i1 %50)
  %51 = getelementptr inbounds nuw i8, ptr %23, i64 56
  %52 = load ptr, ptr %51, align 8, !invariant.load !6, !noalias !55, !nonnull !6
  %53 = call noundef ptr %52(ptr noundef nonnull align 1 %21, ptr noalias noundef nonnull readonly align 1 captures(address, read_provenance) %6, i64 noundef %47) #39, !noalias !55
  %54 = icmp eq ptr %53, null
  call void @llvm.assume(i1 %54)
  call void @llvm.lifetime.end.p0(ptr nonnull %5), !noalias !51
  call void @llvm.lifetime.end.p0(ptr nonnull %6), !noalias !51
  call void @llvm.lifetime.end.p0(ptr nonnull %7), !noalias !51
  call void @llvm.lifetime.end.p0(ptr nonnull %8), !noalias !51
  ret void
}
define internal noundef zeroext i1 @_RNvXNvMNtNtCsjrHSEGnQ3l9_3std3sys9backtraceNtB5_13BacktraceLock5printNtB2_16DisplayBacktraceNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt(ptr noalias noundef readonly align 1 captures(none) dereferenceable(1) %0, ptr noalias noundef align 8 dereferenceable(24) %1) unnamed_addr #11 personality ptr @rust_eh_personality {
  %3 = alloca [16 x i8], align 8
  %4 = alloca [56 x i8], align 8
  %5 = alloca [1 x i8], align 1
  %6 = alloca [1 x i8], align 1
  %7 = alloca [8 x i8], align 8
  %8 = alloca [1 x i8], align 1
  %9 = alloca [8 x i8], align 8
  %10 = alloca [40 x i8], align 8
  %11 = alloca [32 x i8], align 8
  %12 = alloca [24 x i8], align 8
  %13 = alloca [16 x i8], align 8
  %14 = alloca [1 x i8], align 1
  %15 = load i8, ptr %0, align 1, !range !10, !noundef !6
  tail call void @llvm.experimental.noalias.scope.decl(metadata !65)
  call void @llvm.lifetime.start.p0(ptr nonnull %14)
  store i8 %15, ptr %14, align 1, !noalias !65
  call void @llvm.lifetime.start.p0(ptr nonnull %13)
  call void @llvm.lifetime.start.p0(ptr nonnull %12), !noalias !65
  call void @_RNvNtCsjrHSEGnQ3l9_3std3env11current_dir(ptr noalias noundef nonnull sret([24 x i8]) align 8 captures(address) dereferenceable(24) %12), !noalias !65
  %16 = load i64, ptr %12, align 8, !range !68, !noalias !65, !noundef !6
  %17 = icmp eq i64 %16, -9223372036854775808
  %18 = getelementptr inbounds nuw i8, ptr %12, i64 8
  call void @_RINvNtCsgEmfK2I1SDS_4core3ptr13drop_in_placeNtNtNtCsjrHSEGnQ3l9_3std2io5error5ErrorEBM_(ptr noalias noundef nonnull readonly align 8 dereferenceable(8) %18), !noalias !65
  call void @llvm.lifetime.end.p0(ptr nonnull %12), !noalias !65
  call void @llvm.lifetime.start.p0(ptr nonnull %11), !noalias !65
  %19 = getelementptr inbounds nuw i8, ptr %11, i64 24
  store i8 %15, ptr %19, align 8, !noalias !65
  store i64 %16, ptr %11, align 8, !noalias !65
  %20 = getelementptr inbounds nuw i8, ptr %11, i64 8
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(16) %20, ptr noundef nonnull align 8 dereferenceable(16) %13, i64 16, i1 false), !noalias !65
  %21 = load ptr, ptr %1, align 8, !alias.scope !65, !nonnull !6, !align !15, !noundef !6
  %22 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %23 = load ptr, ptr %22, align 8, !alias.scope !65, !nonnull !6, !align !11, !noundef !6
  %24 = getelementptr inbounds nuw i8, ptr %23, i64 24
  %25 = load ptr, ptr %24, align 8, !invariant.load !6, !noalias !65, !nonnull !6
  %26 = call noundef zeroext i1 %25(ptr noundef nonnull align 1 %21, ptr noalias noundef nonnull readonly align 1 captures(address, read_provenance) @anon.eb89d4395b0ead844ef0b45b8b54da85.426, i64 noundef 17) #43, !noalias !65
  %27 = xor i1 %26, true
  call void @llvm.assume(i1 %27)
  call void @llvm.lifetime.start.p0(ptr nonnull %10), !noalias !65
  store ptr %1, ptr %10, align 8, !noalias !65
  %28 = getelementptr inbounds nuw i8, ptr %10, i64 24
  store i64 0, ptr %28, align 8, !noalias !65
  %29 = getelementptr inbounds nuw i8, ptr %10, i64 32
  store i8 %15, ptr %29, align 8, !noalias !65
  %30 = getelementptr inbounds nuw i8, ptr %10, i64 8
  store ptr %11, ptr %30, align 8, !noalias !65
  %31 = getelementptr inbounds nuw i8, ptr %10, i64 16
  store ptr @anon.eb89d4395b0ead844ef0b45b8b54da85.427, ptr %31, align 8, !noalias !65
  call void @llvm.lifetime.start.p0(ptr nonnull %9), !noalias !65
  store i64 0, ptr %9, align 8, !noalias !65
  call void @llvm.lifetime.start.p0(ptr nonnull %8), !noalias !65
  store i8 0, ptr %8, align 1, !noalias !65
  call void @llvm.lifetime.start.p0(ptr nonnull %7), !noalias !65
  store i64 0, ptr %7, align 8, !noalias !65
  call void @llvm.lifetime.start.p0(ptr nonnull %6), !noalias !65
  store i8 1, ptr %6, align 1, !noalias !65
  call void @llvm.lifetime.start.p0(ptr nonnull %5), !noalias !65
  store i8 %15, ptr %5, align 1, !noalias !65
  call void @llvm.lifetime.start.p0(ptr nonnull %4), !noalias !65
  store ptr %14, ptr %4, align 8, !noalias !65
  %32 = getelementptr inbounds nuw i8, ptr %4, i64 8
  store ptr %9, ptr %32, align 8, !noalias !65
  %33 = getelementptr inbounds nuw i8, ptr %4, i64 16
  store ptr %8, ptr %33, align 8, !noalias !65
  %34 = getelementptr inbounds nuw i8, ptr %4, i64 24
  store ptr %10, ptr %34, align 8, !noalias !65
  %35 = getelementptr inbounds nuw i8, ptr %4, i64 32
  store ptr %5, ptr %35, align 8, !noalias !65
  %36 = getelementptr inbounds nuw i8, ptr %4, i64 40
  store ptr %7, ptr %36, align 8, !noalias !65
  %37 = getelementptr inbounds nuw i8, ptr %4, i64 48
  store ptr %6, ptr %37, align 8, !noalias !65
  call void @llvm.lifetime.start.p0(ptr nonnull %3), !noalias !65
  store ptr %4, ptr %3, align 8, !noalias !65
  %38 = getelementptr inbounds nuw i8, ptr %3, i64 8
  store ptr @anon.eb89d4395b0ead844ef0b45b8b54da85.428, ptr %38, align 8, !noalias !65
  %39 = call noundef i32 @_Unwind_Backtrace(ptr noundef nonnull @_RNvNvNtNtNtCsjrHSEGnQ3l9_3std12backtrace_rs9backtrace9libunwind5trace8trace_fn, ptr noundef nonnull %3) #43
  unreachable
}
declare void @_RNvNtCsjrHSEGnQ3l9_3std3env11current_dir(ptr dead_on_unwind noalias noundef writable writeonly sret([24 x i8]) align 8 captures(none) dereferenceable(24)) unnamed_addr #11
declare noundef range(i32 0, 10) i32 @_RNvNvNtNtNtCsjrHSEGnQ3l9_3std12backtrace_rs9backtrace9libunwind5trace8trace_fn(ptr noundef, ptr noundef readonly captures(none)) unnamed_addr #22
declare noundef range(i32 0, 10) i32 @_Unwind_Backtrace(ptr noundef nonnull, ptr noundef) unnamed_addr #22
declare noundef zeroext i1 @_RNSNvYNCNvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace10__print_fmts_0INtNtNtCsgEmfK2I1SDS_4core3ops8function6FnOnceTRNtNtNtBc_12backtrace_rs9backtrace5FrameEE9call_once6vtableBc_(ptr noundef nonnull readonly captures(none), ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(32)) unnamed_addr #30
define internal noundef zeroext i1 @_RNCNvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace10__print_fmts_0B7_(ptr noalias noundef readonly align 8 captures(none) dereferenceable(56) %0, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(32) %1) unnamed_addr #30 personality ptr @rust_eh_personality {
  %3 = alloca [24 x i8], align 8
  %4 = alloca [80 x i8], align 8
  %5 = alloca [16 x i8], align 8
  %6 = alloca [64 x i8], align 8
  %7 = alloca [1 x i8], align 1
  %8 = load ptr, ptr %0, align 8, !nonnull !6, !align !15, !noundef !6
  %9 = load i8, ptr %8, align 1, !range !10, !noundef !6
  %10 = icmp ne i8 %9, 0
  call void @llvm.assume(i1 %10)
  call void @llvm.lifetime.start.p0(ptr nonnull %7)
  store i8 0, ptr %7, align 1
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  %11 = getelementptr inbounds nuw i8, ptr %0, i64 32
  %12 = load ptr, ptr %11, align 8, !nonnull !6, !align !15, !noundef !6
  %13 = getelementptr inbounds nuw i8, ptr %0, i64 40
  %14 = load ptr, ptr %13, align 8, !nonnull !6, !align !11, !noundef !6
  %15 = getelementptr inbounds nuw i8, ptr %0, i64 48
  %16 = load ptr, ptr %15, align 8, !nonnull !6, !align !15, !noundef !6
  %17 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %18 = load ptr, ptr %17, align 8, !nonnull !6, !align !11, !noundef !6
  %19 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %20 = load ptr, ptr %19, align 8, !nonnull !6, !align !15, !noundef !6
  store ptr %7, ptr %6, align 8
  %21 = getelementptr inbounds nuw i8, ptr %6, i64 8
  store ptr %8, ptr %21, align 8
  %22 = getelementptr inbounds nuw i8, ptr %6, i64 16
  store ptr %12, ptr %22, align 8
  %23 = getelementptr inbounds nuw i8, ptr %6, i64 24
  store ptr %14, ptr %23, align 8
  %24 = getelementptr inbounds nuw i8, ptr %6, i64 32
  store ptr %16, ptr %24, align 8
  %25 = getelementptr inbounds nuw i8, ptr %6, i64 40
  store ptr %18, ptr %25, align 8
  %26 = getelementptr inbounds nuw i8, ptr %6, i64 48
  store ptr %20, ptr %26, align 8
  %27 = getelementptr inbounds nuw i8, ptr %6, i64 56
  store ptr %1, ptr %27, align 8
  %28 = load i64, ptr %1, align 8, !range !37, !noalias !69, !noundef !6
  %29 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %30 = load ptr, ptr %29, align 8, !noalias !69
  %31 = trunc nuw i64 %28 to i1
  call void @llvm.assume(i1 %31)
  %32 = icmp eq ptr %30, null
  %33 = ptrtoint ptr %30 to i64
  %34 = add i64 %33, -1
  %35 = inttoptr i64 %34 to ptr
  %36 = select i1 %32, ptr null, ptr %35
  call fastcc void @_RINvMs0_NtNtNtCsjrHSEGnQ3l9_3std12backtrace_rs9symbolize5gimliNtB6_5Cache11with_globalNCNvB6_7resolves_0EBc_(ptr %36, ptr nonnull align 8 dereferenceable(64) %6, ptr nonnull @anon.eb89d4395b0ead844ef0b45b8b54da85.65)
  call void @llvm.lifetime.end.p0(ptr nonnull %6)
  %37 = load i8, ptr %7, align 1, !range !10, !noundef !6
  %38 = trunc nuw i8 %37 to i1
  %39 = xor i1 %38, true
  call void @llvm.assume(i1 %39)
  %40 = load i8, ptr %12, align 1, !range !10, !noundef !6
  %41 = trunc nuw i8 %40 to i1
  call void @llvm.assume(i1 %41)
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  store ptr %18, ptr %5, align 8
  %42 = getelementptr inbounds nuw i8, ptr %5, i64 8
  store i64 0, ptr %42, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  store i64 3, ptr %4, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %3)
  store i64 2, ptr %3, align 8
  %43 = call fastcc noundef zeroext i1 @_RNvMs_NtNtCsjrHSEGnQ3l9_3std12backtrace_rs5printNtB4_17BacktraceFrameFmt21print_raw_with_column(ptr noalias noundef nonnull align 8 dereferenceable(16) %5, ptr noundef %30, ptr noalias noundef nonnull readonly align 8 captures(address) dereferenceable(80) %4, ptr noalias noundef nonnull readonly align 8 captures(address) dereferenceable(24) %3, i32 noundef 0, i32 undef, i32 noundef 0, i32 undef) #43
  unreachable
}
declare fastcc void @_RINvMs0_NtNtNtCsjrHSEGnQ3l9_3std12backtrace_rs9symbolize5gimliNtB6_5Cache11with_globalNCNvB6_7resolves_0EBc_(ptr, ptr, ptr readonly captures(address_is_null)) unnamed_addr #27
define internal fastcc noundef zeroext i1 @_RNvMs_NtNtCsjrHSEGnQ3l9_3std12backtrace_rs5printNtB4_17BacktraceFrameFmt21print_raw_with_column(ptr noalias noundef nonnull align 8 captures(none) dereferenceable(16) %0, ptr noundef %1, ptr dead_on_return noalias noundef nonnull readonly align 8 captures(none) dereferenceable(80) %2, ptr dead_on_return noalias noundef nonnull readonly align 8 captures(none) dereferenceable(24) %3, i32 noundef range(i32 0, 2) %4, i32 %5, i32 noundef range(i32 0, 2) %6, i32 %7) unnamed_addr #11 {
  %9 = alloca [16 x i8], align 8
  %10 = alloca [80 x i8], align 8
  %11 = alloca [16 x i8], align 8
  %12 = load ptr, ptr %0, align 8, !nonnull !6, !align !11, !noundef !6
  %13 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %14 = load i64, ptr %13, align 8
  tail call void @llvm.experimental.noalias.scope.decl(metadata !72)
  %15 = getelementptr inbounds nuw i8, ptr %12, i64 32
  %16 = load i8, ptr %15, align 8, !range !10, !noalias !75, !noundef !6
  %17 = trunc nuw i8 %16 to i1
  %18 = icmp ne ptr %1, null
  %19 = or i1 %18, %17
  call void @llvm.assume(i1 %19)
  %20 = icmp eq i64 %14, 0
  %21 = load ptr, ptr %12, align 8, !noalias !75, !nonnull !6, !align !11, !noundef !6
  call void @llvm.assume(i1 %20)
  %22 = getelementptr inbounds nuw i8, ptr %12, i64 24
  call void @llvm.lifetime.start.p0(ptr nonnull %11), !noalias !75
  store ptr %22, ptr %11, align 8, !noalias !75
  %23 = getelementptr inbounds nuw i8, ptr %11, i64 8
  store ptr @_RNvXsi_NtNtNtCsgEmfK2I1SDS_4core3fmt3num3impjNtB9_7Display3fmt, ptr %23, align 8, !noalias !75
  %24 = load ptr, ptr %21, align 8, !noalias !75, !nonnull !6, !align !15, !noundef !6
  %25 = getelementptr inbounds nuw i8, ptr %21, i64 8
  %26 = load ptr, ptr %25, align 8, !noalias !75, !nonnull !6, !align !11, !noundef !6
  %27 = call noundef zeroext i1 @_RNvNtCsgEmfK2I1SDS_4core3fmt5write(ptr noundef nonnull align 1 %24, ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable(48) %26, ptr noundef nonnull @anon.eb89d4395b0ead844ef0b45b8b54da85.361, ptr noundef nonnull %11), !noalias !75
  call void @llvm.lifetime.end.p0(ptr nonnull %11), !noalias !75
  %28 = xor i1 %27, true
  call void @llvm.assume(i1 %28)
  %29 = load i8, ptr %15, align 8, !range !10, !noalias !75, !noundef !6
  %30 = trunc nuw i8 %29 to i1
  %31 = xor i1 %30, true
  call void @llvm.assume(i1 %31)
  %32 = load i64, ptr %2, align 8, !range !77, !alias.scope !72, !noalias !78, !noundef !6
  %33 = icmp ne i64 %32, 3
  call void @llvm.assume(i1 %33)
  %34 = load i8, ptr %15, align 1, !range !10, !noalias !75, !noundef !6
  %35 = trunc nuw i8 %34 to i1
  %36 = xor i1 %35, true
  call void @llvm.assume(i1 %36)
  call void @llvm.lifetime.start.p0(ptr nonnull %10), !noalias !75
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(80) %10, ptr noundef nonnull readonly align 8 dereferenceable(80) %2, i64 80, i1 false), !noalias !78
  %37 = load ptr, ptr %12, align 8, !noalias !75, !nonnull !6, !align !11, !noundef !6
  call void @llvm.lifetime.start.p0(ptr nonnull %9), !noalias !75
  store ptr %10, ptr %9, align 8, !noalias !75
  %38 = getelementptr inbounds nuw i8, ptr %9, i64 8
  store ptr @_RNvXs2_NtNtCsjrHSEGnQ3l9_3std12backtrace_rs9symbolizeNtB5_10SymbolNameNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt, ptr %38, align 8, !noalias !75
  %39 = load ptr, ptr %37, align 8, !noalias !75, !nonnull !6, !align !15, !noundef !6
  %40 = getelementptr inbounds nuw i8, ptr %37, i64 8
  %41 = load ptr, ptr %40, align 8, !noalias !75, !nonnull !6, !align !11, !noundef !6
  %42 = call noundef zeroext i1 @_RNvNtCsgEmfK2I1SDS_4core3fmt5write(ptr noundef nonnull align 1 %39, ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable(48) %41, ptr noundef nonnull @anon.eb89d4395b0ead844ef0b45b8b54da85.364, ptr noundef nonnull %9), !noalias !75
  unreachable
}
define internal noundef zeroext i1 @_RNvXs2_NtNtCsjrHSEGnQ3l9_3std12backtrace_rs9symbolizeNtB5_10SymbolNameNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt(ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(80) %0, ptr noalias noundef align 8 dereferenceable(24) %1) unnamed_addr #11 {
  %3 = load i64, ptr %0, align 8, !range !79, !noundef !6
  %4 = icmp ne i64 %3, 2
  call void @llvm.assume(i1 %4)
  %5 = tail call noundef zeroext i1 @_RNvXs1_CsgY6Mt91CT9J_14rustc_demangleNtB5_8DemangleNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt(ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) dereferenceable(64) %0, ptr noalias noundef nonnull align 8 dereferenceable(24) %1)
  ret i1 %5
}
declare extern_weak noundef i32 @gettid() unnamed_addr #34
define internal { i64, ptr } @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write5write(ptr noalias nonnull readnone align 1 captures(none) %0, ptr noalias noundef nonnull readonly align 1 captures(none) %1, i64 noundef range(i64 0, -9223372036854775808) %2) unnamed_addr #35 personality ptr @rust_eh_personality {
  ret { i64, ptr } zeroinitializer
}
define internal { i64, ptr } @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write14write_vectored(ptr noalias nonnull readnone align 1 captures(none) %0, ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) %1, i64 noundef range(i64 0, 576460752303423488) %2) unnamed_addr #22 personality ptr @rust_eh_personality {
  %4 = tail call noundef i64 @llvm.umin.i64(i64 range(i64 0, 576460752303423488) %2, i64 1024)
  %5 = trunc nuw nsw i64 %4 to i32
  %6 = tail call noundef i64 @writev(i32 noundef 2, ptr noundef nonnull readonly align 8 %1, i32 noundef %5) #43, !noalias !80
  unreachable
}
define internal noundef zeroext i1 @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write17is_write_vectored(ptr noalias nonnull readonly align 1 captures(none) %0) unnamed_addr #31 {
  ret i1 true
}
define internal noalias noundef ptr @_RNvXs3_NtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unixNtB5_6StderrNtNtBb_2io5Write5flush(ptr noalias nonnull readnone align 1 captures(none) %0) unnamed_addr #31 {
  ret ptr null
}
declare noundef ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write9write_allBa_(ptr noalias nonnull readnone align 1 captures(none), ptr noalias noundef nonnull readonly align 1 captures(none), i64 noundef range(i64 0, -9223372036854775808)) unnamed_addr #11
define internal noundef ptr @_RNvYNtNtNtNtCsjrHSEGnQ3l9_3std3sys5stdio4unix6StderrNtNtBa_2io5Write18write_all_vectoredBa_(ptr noalias nonnull readnone align 1 captures(none) %0, ptr noalias noundef nonnull align 8 %1, i64 noundef range(i64 0, 576460752303423488) %2) unnamed_addr #11 personality ptr @rust_eh_personality {
  ret ptr null
}
declare noundef i64 @writev(i32 noundef, ptr noundef, i32 noundef) unnamed_addr #22
define internal i1 @_RNvNvNtNtNtNtCsjrHSEGnQ3l9_3std3sys12thread_local5guard3key6enable3run(ptr readnone captures(none) %0) unnamed_addr #22 personality ptr @rust_eh_personality {
  %2 = tail call align 8 ptr @llvm.threadlocal.address.p0(ptr @_RNvNtNtNtNtCsjrHSEGnQ3l9_3std3sys12thread_local11destructors4list5DTORS)
  %3 = load i64, ptr %2, align 8, !noundef !6
  %4 = icmp eq i64 %3, 0
  call void @llvm.assume(i1 %4)
  %5 = getelementptr inbounds nuw i8, ptr %2, i64 8
  %6 = getelementptr inbounds nuw i8, ptr %2, i64 24
  %7 = getelementptr i8, ptr %2, i64 16
  store i64 -1, ptr %2, align 8
  %8 = load i64, ptr %6, align 8, !noundef !6
  %9 = icmp eq i64 %8, 0
  call void @llvm.assume(i1 %9)
  %10 = load i64, ptr %5, align 8
  %11 = icmp eq i64 %10, 0
  call void @llvm.assume(i1 %11)
  store i64 0, ptr %5, align 8
  store ptr inttoptr (i64 8 to ptr), ptr %7, align 8
  store i64 0, ptr %6, align 8
  store i64 0, ptr %2, align 8
  %12 = tail call align 8 ptr @llvm.threadlocal.address.p0(ptr @_RNvNtNtCsjrHSEGnQ3l9_3std6thread7current7CURRENT)
  %13 = load ptr, ptr %12, align 8, !noundef !6
  %14 = icmp ule ptr %13, inttoptr (i64 2 to ptr)
  ret i1 %14
}
attributes #0 = { nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #1 = { inlinehint nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #2 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }
attributes #3 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #4 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #5 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #6 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #7 = { nonlazybind "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #8 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite) }
attributes #9 = { convergent nocallback nofree nosync nounwind willreturn memory(none) }
attributes #10 = { cold noinline noreturn nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #11 = { nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #12 = { nofree norecurse nosync nounwind nonlazybind memory(argmem: readwrite, inaccessiblemem: readwrite) uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #13 = { cold minsize noinline noreturn nonlazybind optsize uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #14 = { cold minsize noinline noreturn nounwind nonlazybind optsize uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #15 = { allockind("free") uwtable "alloc-family"="__rust_alloc" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #16 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #17 = { nonlazybind optsize uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #18 = { nofree norecurse nosync nounwind nonlazybind optsize memory(read, argmem: readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #19 = { inlinehint nonlazybind optsize uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #20 = { noinline noreturn nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #21 = { inlinehint noreturn nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #22 = { nounwind nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #23 = { minsize noreturn nonlazybind optsize uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #24 = { mustprogress nofree norecurse nounwind nonlazybind willreturn memory(readwrite, argmem: none, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #25 = { cold nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #26 = { cold nofree noreturn nounwind nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #27 = { minsize nonlazybind optsize uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #28 = { inlinehint minsize nonlazybind optsize uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #29 = { noinline nounwind nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #30 = { inlinehint nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #31 = { inlinehint mustprogress nofree norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #32 = { nofree nosync nounwind nonlazybind memory(none) uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #33 = { mustprogress nounwind nonlazybind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) uwtable "alloc-family"="malloc" "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #34 = { nounwind nonlazybind }
attributes #35 = { nofree nounwind nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #36 = { cold noinline nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #37 = { mustprogress nofree norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #38 = { inlinehint nounwind nonlazybind uwtable "frame-pointer"="non-leaf" "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #39 = { inlinehint }
attributes #40 = { noinline noreturn }
attributes #41 = { inlinehint noreturn }
attributes #42 = { noreturn }
attributes #43 = { nounwind }
attributes #44 = { inlinehint nounwind }
!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}
!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"PIE Level", i32 2}
!2 = !{i32 2, !"RtLibUseGOT", i32 1}
!3 = !{i32 7, !"Dwarf Version", i32 4}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}
!6 = !{}
!7 = !{!8}
!8 = distinct !{!8, !9, !"_RNvMs2_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_6Parser4next: argument 0"}
!9 = distinct !{!9, !"_RNvMs2_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_6Parser4next"}
!10 = !{i8 0, i8 2}
!11 = !{i64 8}
!12 = !{!13}
!13 = distinct !{!13, !14, !"_RINvMs4_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB6_7Printer5printNtB6_5IdentEB8_: argument 0"}
!14 = distinct !{!14, !"_RINvMs4_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB6_7Printer5printNtB6_5IdentEB8_"}
!15 = !{i64 1}
!16 = !{!17}
!17 = distinct !{!17, !18, !"_RNvMs2_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_6Parser8digit_10: argument 0"}
!18 = distinct !{!18, !"_RNvMs2_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_6Parser8digit_10"}
!19 = !{!20}
!20 = distinct !{!20, !21, !"_RINvMs_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_5Ident25try_small_punycode_decodeNCNvXs0_B5_BE_NtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt0INtNtB1y_6result6ResultuNtB1w_5ErrorEEB7_: argument 0"}
!21 = distinct !{!21, !"_RINvMs_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_5Ident25try_small_punycode_decodeNCNvXs0_B5_BE_NtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt0INtNtB1y_6result6ResultuNtB1w_5ErrorEEB7_"}
!22 = !{!20, !23}
!23 = distinct !{!23, !21, !"_RINvMs_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_5Ident25try_small_punycode_decodeNCNvXs0_B5_BE_NtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt0INtNtB1y_6result6ResultuNtB1w_5ErrorEEB7_: argument 1"}
!24 = !{!25}
!25 = distinct !{!25, !26, !"_RINvMs_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_5Ident15punycode_decodeNCINvB2_25try_small_punycode_decodeNCNvXs0_B5_BE_NtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt0INtNtB1X_6result6ResultuNtB1V_5ErrorEE0EB7_: argument 0"}
!26 = distinct !{!26, !"_RINvMs_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_5Ident15punycode_decodeNCINvB2_25try_small_punycode_decodeNCNvXs0_B5_BE_NtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt0INtNtB1X_6result6ResultuNtB1V_5ErrorEE0EB7_"}
!27 = !{!28}
!28 = distinct !{!28, !26, !"_RINvMs_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_5Ident15punycode_decodeNCINvB2_25try_small_punycode_decodeNCNvXs0_B5_BE_NtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt0INtNtB1X_6result6ResultuNtB1V_5ErrorEE0EB7_: argument 1"}
!29 = !{!25, !20}
!30 = !{!28, !31, !23}
!31 = distinct !{!31, !26, !"_RINvMs_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB5_5Ident15punycode_decodeNCINvB2_25try_small_punycode_decodeNCNvXs0_B5_BE_NtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt0INtNtB1X_6result6ResultuNtB1V_5ErrorEE0EB7_: argument 2"}
!32 = !{!25, !28, !31, !20, !23}
!33 = !{i32 0, i32 1114112}
!34 = !{!35, !25, !31, !20, !23}
!35 = distinct !{!35, !36, !"_RNCINvMs_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB7_5Ident25try_small_punycode_decodeNCNvXs0_B7_BG_NtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt0INtNtB1A_6result6ResultuNtB1y_5ErrorEE0B9_: argument 0"}
!36 = distinct !{!36, !"_RNCINvMs_NtCsgY6Mt91CT9J_14rustc_demangle2v0NtB7_5Ident25try_small_punycode_decodeNCNvXs0_B7_BG_NtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt0INtNtB1A_6result6ResultuNtB1y_5ErrorEE0B9_"}
!37 = !{i64 0, i64 2}
!38 = !{!39}
!39 = distinct !{!39, !40, !"_RNvXNtCsgY6Mt91CT9J_14rustc_demangle2v0NtB2_8DemangleNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt: argument 0"}
!40 = distinct !{!40, !"_RNvXNtCsgY6Mt91CT9J_14rustc_demangle2v0NtB2_8DemangleNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt"}
!41 = !{!39, !42}
!42 = distinct !{!42, !40, !"_RNvXNtCsgY6Mt91CT9J_14rustc_demangle2v0NtB2_8DemangleNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt: argument 1"}
!43 = !{!42}
!44 = !{!45}
!45 = distinct !{!45, !46, !"_RNvMNtNtNtCsjrHSEGnQ3l9_3std3sys2fd4unixNtB2_8FileDesc5write: argument 0"}
!46 = distinct !{!46, !"_RNvMNtNtNtCsjrHSEGnQ3l9_3std3sys2fd4unixNtB2_8FileDesc5write"}
!47 = !{!48}
!48 = distinct !{!48, !49, !"_RINvNtNtCsjrHSEGnQ3l9_3std6thread7current16try_with_currentNCINvB2_17with_current_nameNCNCNvNtB6_9panicking12default_hook00uE0uEB6_: argument 0"}
!49 = distinct !{!49, !"_RINvNtNtCsjrHSEGnQ3l9_3std6thread7current16try_with_currentNCINvB2_17with_current_nameNCNCNvNtB6_9panicking12default_hook00uE0uEB6_"}
!50 = !{i8 0, i8 4}
!51 = !{!52, !54}
!52 = distinct !{!52, !53, !"_RNCNCNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook00B7_: argument 0"}
!53 = distinct !{!53, !"_RNCNCNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook00B7_"}
!54 = distinct !{!54, !53, !"_RNCNCNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook00B7_: argument 1"}
!55 = !{!52}
!56 = !{!57, !52, !54}
!57 = distinct !{!57, !58, !"_RNCNCNCNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook000B9_: argument 0"}
!58 = distinct !{!58, !"_RNCNCNCNvNtCsjrHSEGnQ3l9_3std9panicking12default_hook000B9_"}
!59 = !{!60, !62, !57, !52, !54}
!60 = distinct !{!60, !61, !"_RINvNtCsjrHSEGnQ3l9_3std2io17default_write_fmtINtNtB2_6cursor6CursorQShEEB4_: argument 0"}
!61 = distinct !{!61, !"_RINvNtCsjrHSEGnQ3l9_3std2io17default_write_fmtINtNtB2_6cursor6CursorQShEEB4_"}
!62 = distinct !{!62, !63, !"_RNvYINtNtNtCsjrHSEGnQ3l9_3std2io6cursor6CursorQShENtB7_5Write9write_fmtB9_: argument 0"}
!63 = distinct !{!63, !"_RNvYINtNtNtCsjrHSEGnQ3l9_3std2io6cursor6CursorQShENtB7_5Write9write_fmtB9_"}
!64 = !{!57, !52}
!65 = !{!66}
!66 = distinct !{!66, !67, !"_RNvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace10__print_fmt: argument 0"}
!67 = distinct !{!67, !"_RNvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace10__print_fmt"}
!68 = !{i64 0, i64 -9223372036854775807}
!69 = !{!70}
!70 = distinct !{!70, !71, !"_RNvNtNtNtCsjrHSEGnQ3l9_3std12backtrace_rs9symbolize5gimli7resolve: argument 0"}
!71 = distinct !{!71, !"_RNvNtNtNtCsjrHSEGnQ3l9_3std12backtrace_rs9symbolize5gimli7resolve"}
!72 = !{!73}
!73 = distinct !{!73, !74, !"_RNvMs_NtNtCsjrHSEGnQ3l9_3std12backtrace_rs5printNtB4_17BacktraceFrameFmt17print_raw_generic: argument 0"}
!74 = distinct !{!74, !"_RNvMs_NtNtCsjrHSEGnQ3l9_3std12backtrace_rs5printNtB4_17BacktraceFrameFmt17print_raw_generic"}
!75 = !{!73, !76}
!76 = distinct !{!76, !74, !"_RNvMs_NtNtCsjrHSEGnQ3l9_3std12backtrace_rs5printNtB4_17BacktraceFrameFmt17print_raw_generic: argument 1"}
!77 = !{i64 0, i64 4}
!78 = !{!76}
!79 = !{i64 0, i64 3}
!80 = !{!81}
!81 = distinct !{!81, !82, !"_RNvMNtNtNtCsjrHSEGnQ3l9_3std3sys2fd4unixNtB2_8FileDesc14write_vectored: argument 0"}
!82 = distinct !{!82, !"_RNvMNtNtNtCsjrHSEGnQ3l9_3std3sys2fd4unixNtB2_8FileDesc14write_vectored"}
