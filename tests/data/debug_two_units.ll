; Two C units (a.c: an enum, a local and an exported variable, a static helper; b.c: a
; static table, a static counter, main) with -g, llvm-link'ed: each split piece lists only the
; units it reaches, each unit only the variables the piece defines (compiler/backend/cutdebug.py).
; Made with clang-19 -g -O2 -Xclang -disable-llvm-passes and the wheel's llvm-link.
; ModuleID = 'llvm-link'
source_filename = "llvm-link"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@shared_value = dso_local global i32 3, align 4, !dbg !0
@counter = internal global i32 0, align 4, !dbg !14
@.str = private unnamed_addr constant [7 x i8] c"%d %d\0A\00", align 1, !dbg !16
@calls = internal global i32 0, align 4, !dbg !23
@table = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 5], align 16, !dbg !27

; Function Attrs: nounwind uwtable
define dso_local i32 @api(i32 noundef %0) #0 !dbg !40 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  store i32 %0, ptr %2, align 4, !tbaa !46
    #dbg_declare(ptr %2, !44, !DIExpression(), !50)
  call void @llvm.lifetime.start.p0(ptr %3), !dbg !51
    #dbg_declare(ptr %3, !45, !DIExpression(), !52)
  %4 = load i32, ptr %2, align 4, !dbg !53, !tbaa !46
  %5 = icmp ne i32 %4, 0, !dbg !53
  %6 = zext i1 %5 to i64, !dbg !53
  %7 = select i1 %5, i32 1, i32 2, !dbg !53
  store i32 %7, ptr %3, align 4, !dbg !52, !tbaa !46
  %8 = load i32, ptr %2, align 4, !dbg !54, !tbaa !46
  %9 = call i32 @bump(i32 noundef %8), !dbg !55
  %10 = load i32, ptr %3, align 4, !dbg !56, !tbaa !46
  %11 = add nsw i32 %9, %10, !dbg !57
  %12 = load i32, ptr @shared_value, align 4, !dbg !58, !tbaa !46
  %13 = add nsw i32 %11, %12, !dbg !59
  call void @llvm.lifetime.end.p0(ptr %3), !dbg !60
  ret i32 %13, !dbg !61
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #1

; Function Attrs: nounwind uwtable
define internal i32 @bump(i32 noundef %0) #0 !dbg !62 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4, !tbaa !46
    #dbg_declare(ptr %2, !64, !DIExpression(), !65)
  %3 = load i32, ptr %2, align 4, !dbg !66, !tbaa !46
  %4 = load i32, ptr @counter, align 4, !dbg !67, !tbaa !46
  %5 = add nsw i32 %4, %3, !dbg !67
  store i32 %5, ptr @counter, align 4, !dbg !67, !tbaa !46
  %6 = load i32, ptr @counter, align 4, !dbg !68, !tbaa !46
  %7 = mul nsw i32 %6, 2, !dbg !69
  ret i32 %7, !dbg !70
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #1

; Function Attrs: nounwind uwtable
define dso_local i32 @other(i32 noundef %0) #0 !dbg !71 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4, !tbaa !46
    #dbg_declare(ptr %2, !73, !DIExpression(), !74)
  %3 = load i32, ptr %2, align 4, !dbg !75, !tbaa !46
  %4 = add nsw i32 %3, 1, !dbg !76
  %5 = call i32 @api(i32 noundef %4), !dbg !77
  %6 = load i32, ptr @counter, align 4, !dbg !78, !tbaa !46
  %7 = sub nsw i32 %5, %6, !dbg !79
  ret i32 %7, !dbg !80
}

; Function Attrs: nounwind uwtable
define dso_local i32 @main() #0 !dbg !81 {
  %1 = alloca i32, align 4
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  store i32 0, ptr %1, align 4
  call void @llvm.lifetime.start.p0(ptr %2), !dbg !87
    #dbg_declare(ptr %2, !84, !DIExpression(), !88)
  store i32 0, ptr %2, align 4, !dbg !88, !tbaa !46
  call void @llvm.lifetime.start.p0(ptr %3), !dbg !89
    #dbg_declare(ptr %3, !85, !DIExpression(), !90)
  store i32 0, ptr %3, align 4, !dbg !90, !tbaa !46
  br label %4, !dbg !89

4:                                                ; preds = %16, %0
  %5 = load i32, ptr %3, align 4, !dbg !91, !tbaa !46
  %6 = icmp slt i32 %5, 6, !dbg !93
  br i1 %6, label %8, label %7, !dbg !94

7:                                                ; preds = %4
  call void @llvm.lifetime.end.p0(ptr %3), !dbg !95
  br label %19

8:                                                ; preds = %4
  %9 = load i32, ptr %3, align 4, !dbg !96, !tbaa !46
  %10 = call i32 @twice(i32 noundef %9), !dbg !97
  %11 = load i32, ptr %3, align 4, !dbg !98, !tbaa !46
  %12 = call i32 @other(i32 noundef %11), !dbg !99
  %13 = add nsw i32 %10, %12, !dbg !100
  %14 = load i32, ptr %2, align 4, !dbg !101, !tbaa !46
  %15 = add nsw i32 %14, %13, !dbg !101
  store i32 %15, ptr %2, align 4, !dbg !101, !tbaa !46
  br label %16, !dbg !102

16:                                               ; preds = %8
  %17 = load i32, ptr %3, align 4, !dbg !103, !tbaa !46
  %18 = add nsw i32 %17, 1, !dbg !103
  store i32 %18, ptr %3, align 4, !dbg !103, !tbaa !46
  br label %4, !dbg !95, !llvm.loop !104

19:                                               ; preds = %7
  %20 = load i32, ptr %2, align 4, !dbg !107, !tbaa !46
  %21 = load i32, ptr @calls, align 4, !dbg !108, !tbaa !46
  %22 = call i32 (ptr, ...) @printf(ptr noundef @.str, i32 noundef %20, i32 noundef %21), !dbg !109
  call void @llvm.lifetime.end.p0(ptr %2), !dbg !110
  ret i32 0, !dbg !111
}

; Function Attrs: nounwind uwtable
define internal i32 @twice(i32 noundef %0) #0 !dbg !112 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4, !tbaa !46
    #dbg_declare(ptr %2, !114, !DIExpression(), !115)
  %3 = load i32, ptr @calls, align 4, !dbg !116, !tbaa !46
  %4 = add nsw i32 %3, 1, !dbg !116
  store i32 %4, ptr @calls, align 4, !dbg !116, !tbaa !46
  %5 = load i32, ptr %2, align 4, !dbg !117, !tbaa !46
  %6 = call i32 @api(i32 noundef %5), !dbg !118
  %7 = load i32, ptr %2, align 4, !dbg !119, !tbaa !46
  %8 = and i32 %7, 3, !dbg !120
  %9 = sext i32 %8 to i64, !dbg !121
  %10 = getelementptr inbounds [4 x i32], ptr @table, i64 0, i64 %9, !dbg !121
  %11 = load i32, ptr %10, align 4, !dbg !121, !tbaa !46
  %12 = call i32 @api(i32 noundef %11), !dbg !122
  %13 = add nsw i32 %6, %12, !dbg !123
  ret i32 %13, !dbg !124
}

declare !dbg !125 i32 @printf(ptr noundef, ...) #2

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!2, !25}
!llvm.ident = !{!33}
!llvm.module.flags = !{!34, !35, !36, !37, !38, !39}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "shared_value", scope: !2, file: !3, line: 3, type: !12, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "clang 19", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !4, retainedTypes: !11, globals: !13, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "a.c", directory: "/ember/tests/data", checksumkind: CSK_MD5, checksum: "d62fd52f7de908a7a014b427001571cb")
!4 = !{!5}
!5 = !DICompositeType(tag: DW_TAG_enumeration_type, name: "colour", file: !3, line: 1, baseType: !6, size: 32, elements: !7)
!6 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!7 = !{!8, !9, !10}
!8 = !DIEnumerator(name: "RED", value: 0)
!9 = !DIEnumerator(name: "GREEN", value: 1)
!10 = !DIEnumerator(name: "BLUE", value: 2)
!11 = !{!12}
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!13 = !{!0, !14}
!14 = !DIGlobalVariableExpression(var: !15, expr: !DIExpression())
!15 = distinct !DIGlobalVariable(name: "counter", scope: !2, file: !3, line: 2, type: !12, isLocal: true, isDefinition: true)
!16 = !DIGlobalVariableExpression(var: !17, expr: !DIExpression())
!17 = distinct !DIGlobalVariable(scope: null, file: !18, line: 7, type: !19, isLocal: true, isDefinition: true)
!18 = !DIFile(filename: "b.c", directory: "/ember/tests/data", checksumkind: CSK_MD5, checksum: "5bda6f33a059e41ea691ef61eb0d0607")
!19 = !DICompositeType(tag: DW_TAG_array_type, baseType: !20, size: 56, elements: !21)
!20 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!21 = !{!22}
!22 = !DISubrange(count: 7)
!23 = !DIGlobalVariableExpression(var: !24, expr: !DIExpression())
!24 = distinct !DIGlobalVariable(name: "calls", scope: !25, file: !18, line: 5, type: !12, isLocal: true, isDefinition: true)
!25 = distinct !DICompileUnit(language: DW_LANG_C11, file: !18, producer: "clang 19", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !26, splitDebugInlining: false, nameTableKind: None)
!26 = !{!16, !23, !27}
!27 = !DIGlobalVariableExpression(var: !28, expr: !DIExpression())
!28 = distinct !DIGlobalVariable(name: "table", scope: !25, file: !18, line: 4, type: !29, isLocal: true, isDefinition: true)
!29 = !DICompositeType(tag: DW_TAG_array_type, baseType: !30, size: 128, elements: !31)
!30 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !12)
!31 = !{!32}
!32 = !DISubrange(count: 4)
!33 = !{!"clang 19"}
!34 = !{i32 7, !"Dwarf Version", i32 5}
!35 = !{i32 2, !"Debug Info Version", i32 3}
!36 = !{i32 1, !"wchar_size", i32 4}
!37 = !{i32 8, !"PIC Level", i32 2}
!38 = !{i32 7, !"PIE Level", i32 2}
!39 = !{i32 7, !"uwtable", i32 2}
!40 = distinct !DISubprogram(name: "api", scope: !3, file: !3, line: 5, type: !41, scopeLine: 5, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !43)
!41 = !DISubroutineType(types: !42)
!42 = !{!12, !12}
!43 = !{!44, !45}
!44 = !DILocalVariable(name: "x", arg: 1, scope: !40, file: !3, line: 5, type: !12)
!45 = !DILocalVariable(name: "c", scope: !40, file: !3, line: 5, type: !5)
!46 = !{!47, !47, i64 0}
!47 = !{!"int", !48, i64 0}
!48 = !{!"omnipotent char", !49, i64 0}
!49 = !{!"Simple C/C++ TBAA"}
!50 = !DILocation(line: 5, column: 13, scope: !40)
!51 = !DILocation(line: 5, column: 18, scope: !40)
!52 = !DILocation(line: 5, column: 30, scope: !40)
!53 = !DILocation(line: 5, column: 34, scope: !40)
!54 = !DILocation(line: 5, column: 64, scope: !40)
!55 = !DILocation(line: 5, column: 59, scope: !40)
!56 = !DILocation(line: 5, column: 74, scope: !40)
!57 = !DILocation(line: 5, column: 67, scope: !40)
!58 = !DILocation(line: 5, column: 78, scope: !40)
!59 = !DILocation(line: 5, column: 76, scope: !40)
!60 = !DILocation(line: 5, column: 92, scope: !40)
!61 = !DILocation(line: 5, column: 52, scope: !40)
!62 = distinct !DISubprogram(name: "bump", scope: !3, file: !3, line: 4, type: !41, scopeLine: 4, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !63)
!63 = !{!64}
!64 = !DILocalVariable(name: "x", arg: 1, scope: !62, file: !3, line: 4, type: !12)
!65 = !DILocation(line: 4, column: 21, scope: !62)
!66 = !DILocation(line: 4, column: 37, scope: !62)
!67 = !DILocation(line: 4, column: 34, scope: !62)
!68 = !DILocation(line: 4, column: 47, scope: !62)
!69 = !DILocation(line: 4, column: 55, scope: !62)
!70 = !DILocation(line: 4, column: 40, scope: !62)
!71 = distinct !DISubprogram(name: "other", scope: !3, file: !3, line: 6, type: !41, scopeLine: 6, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !72)
!72 = !{!73}
!73 = !DILocalVariable(name: "x", arg: 1, scope: !71, file: !3, line: 6, type: !12)
!74 = !DILocation(line: 6, column: 15, scope: !71)
!75 = !DILocation(line: 6, column: 31, scope: !71)
!76 = !DILocation(line: 6, column: 33, scope: !71)
!77 = !DILocation(line: 6, column: 27, scope: !71)
!78 = !DILocation(line: 6, column: 40, scope: !71)
!79 = !DILocation(line: 6, column: 38, scope: !71)
!80 = !DILocation(line: 6, column: 20, scope: !71)
!81 = distinct !DISubprogram(name: "main", scope: !18, file: !18, line: 7, type: !82, scopeLine: 7, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !25, retainedNodes: !83)
!82 = !DISubroutineType(types: !11)
!83 = !{!84, !85}
!84 = !DILocalVariable(name: "t", scope: !81, file: !18, line: 7, type: !12)
!85 = !DILocalVariable(name: "i", scope: !86, file: !18, line: 7, type: !12)
!86 = distinct !DILexicalBlock(scope: !81, file: !18, line: 7, column: 29)
!87 = !DILocation(line: 7, column: 18, scope: !81)
!88 = !DILocation(line: 7, column: 22, scope: !81)
!89 = !DILocation(line: 7, column: 34, scope: !86)
!90 = !DILocation(line: 7, column: 38, scope: !86)
!91 = !DILocation(line: 7, column: 45, scope: !92)
!92 = distinct !DILexicalBlock(scope: !86, file: !18, line: 7, column: 29)
!93 = !DILocation(line: 7, column: 47, scope: !92)
!94 = !DILocation(line: 7, column: 29, scope: !86)
!95 = !DILocation(line: 7, column: 29, scope: !92)
!96 = !DILocation(line: 7, column: 68, scope: !92)
!97 = !DILocation(line: 7, column: 62, scope: !92)
!98 = !DILocation(line: 7, column: 79, scope: !92)
!99 = !DILocation(line: 7, column: 73, scope: !92)
!100 = !DILocation(line: 7, column: 71, scope: !92)
!101 = !DILocation(line: 7, column: 59, scope: !92)
!102 = !DILocation(line: 7, column: 57, scope: !92)
!103 = !DILocation(line: 7, column: 53, scope: !92)
!104 = distinct !{!104, !94, !105, !106}
!105 = !DILocation(line: 7, column: 80, scope: !86)
!106 = !{!"llvm.loop.mustprogress"}
!107 = !DILocation(line: 7, column: 101, scope: !81)
!108 = !DILocation(line: 7, column: 104, scope: !81)
!109 = !DILocation(line: 7, column: 83, scope: !81)
!110 = !DILocation(line: 7, column: 122, scope: !81)
!111 = !DILocation(line: 7, column: 112, scope: !81)
!112 = distinct !DISubprogram(name: "twice", scope: !18, file: !18, line: 6, type: !41, scopeLine: 6, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !25, retainedNodes: !113)
!113 = !{!114}
!114 = !DILocalVariable(name: "x", arg: 1, scope: !112, file: !18, line: 6, type: !12)
!115 = !DILocation(line: 6, column: 22, scope: !112)
!116 = !DILocation(line: 6, column: 32, scope: !112)
!117 = !DILocation(line: 6, column: 47, scope: !112)
!118 = !DILocation(line: 6, column: 43, scope: !112)
!119 = !DILocation(line: 6, column: 62, scope: !112)
!120 = !DILocation(line: 6, column: 64, scope: !112)
!121 = !DILocation(line: 6, column: 56, scope: !112)
!122 = !DILocation(line: 6, column: 52, scope: !112)
!123 = !DILocation(line: 6, column: 50, scope: !112)
!124 = !DILocation(line: 6, column: 36, scope: !112)
!125 = !DISubprogram(name: "printf", scope: !126, file: !126, line: 356, type: !127, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!126 = !DIFile(filename: "/usr/include/stdio.h", directory: "", checksumkind: CSK_MD5, checksum: "b5a90985555f47bfb88eff5a8f0f5b72")
!127 = !DISubroutineType(types: !128)
!128 = !{!12, !129, null}
!129 = !DIDerivedType(tag: DW_TAG_restrict_type, baseType: !130)
!130 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !131, size: 64)
!131 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !20)
