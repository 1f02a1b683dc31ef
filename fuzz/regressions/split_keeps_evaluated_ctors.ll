; Open bug (not reduced yet): the split build keeps local functions the serial pipeline deletes at -O1 and up:
; two constructors GlobalOpt evaluates at compile time and a local only they call (`k3_ctor0(;\\1`,
; `k3_ctor2`, `xorps`). Locals are not compared at -O1+, so only a -g plan shows it, as
; extra DW_TAG_subprograms in the split object (`subprograms differ`, every line a `+`). Found by
; the -g configuration of the default campaign, generated debug info (fuzz/strategies/debuginfo.py).
; Reproduce: ember build THIS -o s.o -O1 --split none; ember build THIS -o p.o -O1 --split subgraph
;   --split-cost 44 --split-piece-cost 30; nm s.o p.o | grep -c 'ctor\|xorps' (0 and 3)
@"k0_str#\5C1" = private unnamed_addr constant [5 x i8] c"1zIO\00"
@.fmt.k0_a = private unnamed_addr constant [14 x i8] c"k0_a=%016llx\0A\00"
@s9 = private unnamed_addr constant [14 x i8] c"k0_b=%016llx\0A\00"
@k1_g = linkonce global i64 -67
@r14d = private unnamed_addr constant [14 x i8] c"k1_a=%016llx\0A\00"
@.fmt.k1_b = private unnamed_addr constant [14 x i8] c"k1_b=%016llx\0A\00"
@k2_hg = global i64 197
@.fmt.k2_a = private unnamed_addr constant [14 x i8] c"k2_a=%016llx\0A\00"
@.fmt.k2_b = private unnamed_addr constant [14 x i8] c"k2_b=%016llx\0A\00"
@k3_log = internal global i64 1
@".fmt.k3_a\5C=1" = private unnamed_addr constant [14 x i8] c"k3_a=%016llx\0A\00"
@.fmt.k3_b = private unnamed_addr constant [14 x i8] c"k3_b=%016llx\0A\00"
@k4_missing = extern_weak global i64
@w20 = private unnamed_addr constant [14 x i8] c"k4_a=%016llx\0A\00"
@.fmt.k4_b = private unnamed_addr constant [14 x i8] c"k4_b=%016llx\0A\00"
@k5_hooks = internal global { ptr, ptr, ptr } { ptr @malloc, ptr @free, ptr @calloc }, align 8
@ecx = private unnamed_addr constant [14 x i8] c"k5_a=%016llx\0A\00"
@.fmt.k5_b = private unnamed_addr constant [14 x i8] c"k5_b=%016llx\0A\00"
@llvm.global_ctors = appending global [3 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 5236, ptr @"k3_ctor0(;\5C1", ptr null }, { i32, ptr, ptr } { i32 1742, ptr @xorps, ptr null }, { i32, ptr, ptr } { i32 4770, ptr @k3_ctor2, ptr null }]
declare i32 @printf(ptr, ...)
declare extern_weak i64 @k4_missingfn(i64)
declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare ptr @calloc(i64, i64)

define private i64 @k0_priv(i64 %x) !dbg !900005 {
  %i = urem i64 %x, 5, !dbg !900006
  %q = getelementptr [5 x i8], ptr @"k0_str#\5C1", i64 0, i64 %i, !dbg !900007
  %c = load i8, ptr %q, !dbg !900008
  %z = zext i8 %c to i64, !dbg !900009
  %r = add i64 %z, %x, !dbg !900010
  ret i64 %r, !dbg !900011
}

define i64 @k0_a(i64 %x) !dbg !900012 {
  %r = call i64 @k0_priv(i64 %x), !dbg !900013
  ret i64 %r, !dbg !900014
}

define i64 @k0_b(i64 %x) !dbg !900015 {
  %y = mul i64 %x, 3, !dbg !900016
  %r = call i64 @k0_priv(i64 %y), !dbg !900017
  ret i64 %r, !dbg !900018
}

define weak_odr i64 @k1_fn(i64 %x) !dbg !900019 {
  %y = mul i64 %x, -2801002327, !dbg !900020
  ret i64 %y, !dbg !900021
}

define i64 @k1_a(i64 %x) !dbg !900022 {
  %r = call i64 @k1_fn(i64 %x), !dbg !900023
  %g = load i64, ptr @k1_g, !dbg !900024
  %s = add i64 %r, %g, !dbg !900025
  ret i64 %s, !dbg !900026
}

define i64 @k1_b(i64 %x) !dbg !900027 {
  %r = call i64 @k1_fn(i64 %x), !dbg !900028
  %g = load i64, ptr @k1_g, !dbg !900029
  %s = xor i64 %r, %g, !dbg !900030
  store i64 %s, ptr @k1_g, !dbg !900031
  ret i64 %s, !dbg !900032
}

define dso_local hidden i64 @k2_hf(i64 %x) noinline !dbg !900033 {
  %g = load i64, ptr @k2_hg, !dbg !900034
  %y = xor i64 %x, 105021604914781, !dbg !900035
  %z = add i64 %y, %g, !dbg !900036
  store i64 %z, ptr @k2_hg, !dbg !900037
  ret i64 %z, !dbg !900038
}

define i64 @k2_a(i64 %x) !dbg !900039 {
  %r = call i64 @k2_hf(i64 %x), !dbg !900040
  ret i64 %r, !dbg !900041
}

define i64 @k2_b(i64 %x) !dbg !900042 {
  %r = call i64 @k2_hf(i64 %x), !dbg !900043
  %s = shl i64 %r, 1, !dbg !900044
  ret i64 %s, !dbg !900045
}

define internal void @"k3_ctor0(;\5C1"() !dbg !900046 {
  %v = load i64, ptr @k3_log, !dbg !900047
  %m = mul i64 %v, 10, !dbg !900048
  %a = add i64 %m, 1, !dbg !900049
  store i64 %a, ptr @k3_log, !dbg !900050
  ret void, !dbg !900051
}

define internal void @xorps() !dbg !900052 {
  %v = load i64, ptr @k3_log, !dbg !900053
  %m = mul i64 %v, 10, !dbg !900054
  %a = add i64 %m, 2, !dbg !900055
  store i64 %a, ptr @k3_log, !dbg !900056
  ret void, !dbg !900057
}

define internal void @k3_ctor2() !dbg !900058 {
  %v = load i64, ptr @k3_log, !dbg !900059
  %m = mul i64 %v, 10, !dbg !900060
  %a = add i64 %m, 3, !dbg !900061
  store i64 %a, ptr @k3_log, !dbg !900062
  ret void, !dbg !900063
}

define i64 @k3_a(i64 %x) !dbg !900064 {
  %v = load i64, ptr @k3_log, !dbg !900065
  %s = add i64 %v, %x, !dbg !900066
  ret i64 %s, !dbg !900067
}

define i64 @k3_b(i64 %x) !dbg !900068 {
  %v = load i64, ptr @k3_log, !dbg !900069
  %s = mul i64 %v, %x, !dbg !900070
  store i64 %s, ptr @k3_log, !dbg !900071
  ret i64 %s, !dbg !900072
}

define i64 @k4_a(i64 %x) !dbg !900073 {
  %n = icmp eq ptr @k4_missing, null, !dbg !900074
  %z = zext i1 %n to i64, !dbg !900075
  %s = add i64 %z, %x, !dbg !900076
  ret i64 %s, !dbg !900077
}

define i64 @k4_b(i64 %x) !dbg !900078 {
  %n = icmp ne ptr @k4_missingfn, null, !dbg !900079
  %z = zext i1 %n to i64, !dbg !900080
  %s = mul i64 %z, %x, !dbg !900081
  ret i64 %s, !dbg !900082
}

define i64 @k5_a(i64 %x) !dbg !900083 {
  %m = load ptr, ptr @k5_hooks, align 8, !dbg !900084
  %p = call ptr %m(i64 16), !dbg !900085
  store i64 %x, ptr %p, align 8, !dbg !900086
  %v = load i64, ptr %p, align 8, !dbg !900087
  %fp = getelementptr inbounds { ptr, ptr, ptr }, ptr @k5_hooks, i32 0, i32 1, !dbg !900088
  %f = load ptr, ptr %fp, align 8, !dbg !900089
  call void %f(ptr %p), !dbg !900090
  %r = mul i64 %v, 3, !dbg !900091
  ret i64 %r, !dbg !900092
}

define i64 @k5_b(i64 %x) !dbg !900093 {
  %fp = getelementptr inbounds { ptr, ptr, ptr }, ptr @k5_hooks, i32 0, i32 1, !dbg !900094
  %f = load ptr, ptr %fp, align 8, !dbg !900095
  call void %f(ptr null), !dbg !900096
  %r = add i64 %x, 7, !dbg !900097
  ret i64 %r, !dbg !900098
}

define i32 @main() !dbg !900099 {
entry:
  %k0_va = call i64 @k0_a(i64 48), !dbg !900101
  %k0_vb = call i64 @k0_b(i64 91185014530), !dbg !900102
  call i32 (ptr, ...) @printf(ptr @.fmt.k0_a, i64 %k0_va), !dbg !900103
  call i32 (ptr, ...) @printf(ptr @s9, i64 %k0_vb), !dbg !900104
  %k1_va = call i64 @k1_a(i64 -234), !dbg !900105
  %k1_vb = call i64 @k1_b(i64 -6), !dbg !900106
  call i32 (ptr, ...) @printf(ptr @r14d, i64 %k1_va), !dbg !900107
  call i32 (ptr, ...) @printf(ptr @.fmt.k1_b, i64 %k1_vb), !dbg !900108
  %k2_va = call i64 @k2_a(i64 -1334), !dbg !900109
  %k2_vb = call i64 @k2_b(i64 -24753), !dbg !900110
  call i32 (ptr, ...) @printf(ptr @.fmt.k2_a, i64 %k2_va), !dbg !900111
  call i32 (ptr, ...) @printf(ptr @.fmt.k2_b, i64 %k2_vb), !dbg !900112
  %k3_va = call i64 @k3_a(i64 2442), !dbg !900113
  %k3_vb = call i64 @k3_b(i64 45), !dbg !900114
  call i32 (ptr, ...) @printf(ptr @".fmt.k3_a\5C=1", i64 %k3_va), !dbg !900115
  call i32 (ptr, ...) @printf(ptr @.fmt.k3_b, i64 %k3_vb), !dbg !900116
  %k4_va = call i64 @k4_a(i64 55), !dbg !900117
  %k4_vb = call i64 @k4_b(i64 2587008), !dbg !900118
  call i32 (ptr, ...) @printf(ptr @w20, i64 %k4_va), !dbg !900119
  call i32 (ptr, ...) @printf(ptr @.fmt.k4_b, i64 %k4_vb), !dbg !900120
  %k5_va = call i64 @k5_a(i64 34), !dbg !900121
  %k5_vb = call i64 @k5_b(i64 48), !dbg !900122
  call i32 (ptr, ...) @printf(ptr @ecx, i64 %k5_va), !dbg !900123
  call i32 (ptr, ...) @printf(ptr @.fmt.k5_b, i64 %k5_vb), !dbg !900124
  ret i32 0, !dbg !900125
}

!llvm.dbg.cu = !{!900000}
!llvm.module.flags = !{!900126, !900127}
!900000 = distinct !DICompileUnit(language: DW_LANG_C11, file: !900001, producer: "ember-fuzz", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!900001 = !DIFile(filename: "prog.c", directory: "/src/ember-fuzz")
!900002 = !DIFile(filename: "include/h0.h", directory: "/src/ember-fuzz")
!900003 = !{null}
!900004 = !DISubroutineType(types: !900003)
!900005 = distinct !DISubprogram(name: "k0_priv", scope: !900002, file: !900002, line: 1, type: !900004, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagLocalToUnit, unit: !900000)
!900006 = !DILocation(line: 2, column: 0, scope: !900005)
!900007 = !DILocation(line: 3, column: 14, scope: !900005)
!900008 = !DILocation(line: 3, column: 29, scope: !900005)
!900009 = !DILocation(line: 3, column: 22, scope: !900005)
!900010 = !DILocation(line: 4, column: 7, scope: !900005)
!900011 = !DILocation(line: 5, column: 30, scope: !900005)
!900012 = distinct !DISubprogram(name: "k0_a", scope: !900001, file: !900001, line: 1, type: !900004, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900013 = !DILocation(line: 2, column: 6, scope: !900012)
!900014 = !DILocation(line: 3, column: 0, scope: !900012)
!900015 = distinct !DISubprogram(name: "k0_b", scope: !900002, file: !900002, line: 8, type: !900004, scopeLine: 8, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900016 = !DILocation(line: 9, column: 26, scope: !900015)
!900017 = !DILocation(line: 10, column: 37, scope: !900015)
!900018 = !DILocation(line: 11, column: 26, scope: !900015)
!900019 = distinct !DISubprogram(name: "k1_fn", scope: !900002, file: !900002, line: 14, type: !900004, scopeLine: 14, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900020 = !DILocation(line: 15, column: 0, scope: !900019)
!900021 = !DILocation(line: 16, column: 13, scope: !900019)
!900022 = distinct !DISubprogram(name: "k1_a", scope: !900001, file: !900001, line: 6, type: !900004, scopeLine: 6, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900023 = !DILocation(line: 7, column: 0, scope: !900022)
!900024 = !DILocation(line: 8, column: 6, scope: !900022)
!900025 = !DILocation(line: 9, column: 6, scope: !900022)
!900026 = !DILocation(line: 10, column: 29, scope: !900022)
!900027 = distinct !DISubprogram(name: "k1_b", scope: !900001, file: !900001, line: 13, type: !900004, scopeLine: 13, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900028 = !DILocation(line: 14, column: 24, scope: !900027)
!900029 = !DILocation(line: 15, column: 11, scope: !900027)
!900030 = !DILocation(line: 16, column: 22, scope: !900027)
!900031 = !DILocation(line: 17, column: 31, scope: !900027)
!900032 = !DILocation(line: 17, column: 0, scope: !900027)
!900033 = distinct !DISubprogram(name: "k2_hf", scope: !900002, file: !900002, line: 19, type: !900004, scopeLine: 19, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900034 = !DILocation(line: 20, column: 0, scope: !900033)
!900035 = !DILocation(line: 21, column: 34, scope: !900033)
!900036 = !DILocation(line: 22, column: 19, scope: !900033)
!900037 = !DILocation(line: 23, column: 28, scope: !900033)
!900038 = !DILocation(line: 24, column: 32, scope: !900033)
!900039 = distinct !DISubprogram(name: "k2_a", scope: !900001, file: !900001, line: 20, type: !900004, scopeLine: 20, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900040 = !DILocation(line: 21, column: 19, scope: !900039)
!900041 = !DILocation(line: 22, column: 16, scope: !900039)
!900042 = distinct !DISubprogram(name: "k2_b", scope: !900001, file: !900001, line: 25, type: !900004, scopeLine: 25, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900043 = !DILocation(line: 26, column: 28, scope: !900042)
!900044 = !DILocation(line: 27, column: 31, scope: !900042)
!900045 = !DILocation(line: 28, column: 13, scope: !900042)
!900046 = distinct !DISubprogram(name: "k3_ctor0(;\5C1", scope: !900002, file: !900002, line: 27, type: !900004, scopeLine: 27, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagLocalToUnit, unit: !900000)
!900047 = !DILocation(line: 28, column: 21, scope: !900046)
!900048 = !DILocation(line: 28, column: 36, scope: !900046)
!900049 = !DILocation(line: 28, column: 39, scope: !900046)
!900050 = !DILocation(line: 29, column: 26, scope: !900046)
!900051 = !DILocation(line: 30, column: 21, scope: !900046)
!900052 = distinct !DISubprogram(name: "xorps", scope: !900002, file: !900002, line: 33, type: !900004, scopeLine: 33, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagLocalToUnit, unit: !900000)
!900053 = !DILocation(line: 34, column: 14, scope: !900052)
!900054 = !DILocation(line: 35, column: 27, scope: !900052)
!900055 = !DILocation(line: 35, column: 7, scope: !900052)
!900056 = !DILocation(line: 35, column: 4, scope: !900052)
!900057 = !DILocation(line: 35, column: 9, scope: !900052)
!900058 = distinct !DISubprogram(name: "k3_ctor2", scope: !900001, file: !900001, line: 31, type: !900004, scopeLine: 31, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagLocalToUnit, unit: !900000)
!900059 = !DILocation(line: 32, column: 0, scope: !900058)
!900060 = !DILocation(line: 32, column: 12, scope: !900058)
!900061 = !DILocation(line: 32, column: 11, scope: !900058)
!900062 = !DILocation(line: 32, column: 25, scope: !900058)
!900063 = !DILocation(line: 33, column: 12, scope: !900058)
!900064 = distinct !DISubprogram(name: "k3_a", scope: !900001, file: !900001, line: 36, type: !900004, scopeLine: 36, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900065 = !DILocation(line: 37, column: 3, scope: !900064)
!900066 = !DILocation(line: 38, column: 19, scope: !900064)
!900067 = !DILocation(line: 39, column: 1, scope: !900064)
!900068 = distinct !DISubprogram(name: "k3_b", scope: !900001, file: !900001, line: 42, type: !900004, scopeLine: 42, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900069 = !DILocation(line: 42, column: 13, scope: !900068)
!900070 = !DILocation(line: 43, column: 36, scope: !900068)
!900071 = !DILocation(line: 44, column: 0, scope: !900068)
!900072 = !DILocation(line: 45, column: 4, scope: !900068)
!900073 = distinct !DISubprogram(name: "k4_a", scope: !900001, file: !900001, line: 48, type: !900004, scopeLine: 48, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900074 = !DILocation(line: 49, column: 24, scope: !900073)
!900075 = !DILocation(line: 49, column: 25, scope: !900073)
!900076 = !DILocation(line: 50, column: 29, scope: !900073)
!900077 = !DILocation(line: 51, column: 8, scope: !900073)
!900078 = distinct !DISubprogram(name: "k4_b", scope: !900001, file: !900001, line: 54, type: !900004, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900079 = !DILocation(line: 55, column: 15, scope: !900078)
!900080 = !DILocation(line: 56, column: 40, scope: !900078)
!900081 = !DILocation(line: 57, column: 33, scope: !900078)
!900082 = !DILocation(line: 58, column: 0, scope: !900078)
!900083 = distinct !DISubprogram(name: "k5_a", scope: !900001, file: !900001, line: 61, type: !900004, scopeLine: 61, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900084 = !DILocation(line: 62, column: 40, scope: !900083)
!900085 = !DILocation(line: 63, column: 20, scope: !900083)
!900086 = !DILocation(line: 64, column: 19, scope: !900083)
!900087 = !DILocation(line: 65, column: 37, scope: !900083)
!900088 = !DILocation(line: 66, column: 20, scope: !900083)
!900089 = !DILocation(line: 67, column: 17, scope: !900083)
!900090 = !DILocation(line: 68, column: 17, scope: !900083)
!900091 = !DILocation(line: 69, column: 21, scope: !900083)
!900092 = !DILocation(line: 70, column: 31, scope: !900083)
!900093 = distinct !DISubprogram(name: "k5_b", scope: !900001, file: !900001, line: 73, type: !900004, scopeLine: 73, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900094 = !DILocation(line: 74, column: 18, scope: !900093)
!900095 = !DILocation(line: 75, column: 26, scope: !900093)
!900096 = !DILocation(line: 76, column: 9, scope: !900093)
!900097 = !DILocation(line: 77, column: 10, scope: !900093)
!900098 = !DILocation(line: 78, column: 36, scope: !900093)
!900099 = distinct !DISubprogram(name: "main", scope: !900001, file: !900001, line: 81, type: !900004, scopeLine: 81, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !900000)
!900100 = !DILexicalBlockFile(scope: !900099, file: !900001, discriminator: 2)
!900101 = !DILocation(line: 82, column: 0, scope: !900100)
!900102 = !DILocation(line: 83, column: 36, scope: !900100)
!900103 = !DILocation(line: 84, column: 0, scope: !900100)
!900104 = !DILocation(line: 85, column: 34, scope: !900100)
!900105 = !DILocation(line: 86, column: 6, scope: !900100)
!900106 = !DILocation(line: 86, column: 0, scope: !900100)
!900107 = !DILocation(line: 86, column: 23, scope: !900100)
!900108 = !DILocation(line: 86, column: 17, scope: !900100)
!900109 = !DILocation(line: 87, column: 0, scope: !900100)
!900110 = !DILocation(line: 87, column: 10, scope: !900100)
!900111 = !DILocation(line: 88, column: 13, scope: !900100)
!900112 = !DILocation(line: 89, column: 0, scope: !900100)
!900113 = !DILocation(line: 90, column: 0, scope: !900100)
!900114 = !DILocation(line: 91, column: 39, scope: !900100)
!900115 = !DILocation(line: 91, column: 23, scope: !900100)
!900116 = !DILocation(line: 91, column: 30, scope: !900100)
!900117 = !DILocation(line: 91, column: 32, scope: !900100)
!900118 = !DILocation(line: 92, column: 8, scope: !900100)
!900119 = !DILocation(line: 93, column: 26, scope: !900100)
!900120 = !DILocation(line: 94, column: 5, scope: !900100)
!900121 = !DILocation(line: 95, column: 31, scope: !900100)
!900122 = !DILocation(line: 96, column: 39, scope: !900100)
!900123 = !DILocation(line: 96, column: 25, scope: !900100)
!900124 = !DILocation(line: 97, column: 11, scope: !900100)
!900125 = !DILocation(line: 98, column: 15, scope: !900100)
!900126 = !{i32 7, !"Dwarf Version", i32 5}
!900127 = !{i32 2, !"Debug Info Version", i32 3}
