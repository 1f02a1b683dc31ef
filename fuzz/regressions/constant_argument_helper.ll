; FIXED: an exported helper larger than the inline limit whose callers pass it constant
; `mode`s. LLVM's cost at each call site counts only the switch arm the constant selects (about
; 20 instructions of 90), so -O1/-O2 inline it at both sites; with a run-time mode it would not
; (cost about 450, threshold 225). gawk's `research` is this shape (cost 275 with run-time
; arguments, 75-200 with its callers' constant flags). Split (--split-cost 1) the summary judged
; it too large to import, so `k1_b`'s subgraph called it out of line on every iteration; now a
; callee up to twice the limit comes into a caller that passes it a constant (summary.CONSTANT_BORDER).
; inlined: k1_flagged
; Reproduce: ember build X -O2 --split two-level -j 2 --split-cost 1 -o b.o;
;            llvm-objdump -d b.o | grep 'call.*k1_flagged'   (none in the --split none object)
@.fmt.k1_a = private unnamed_addr constant [14 x i8] c"k1_a=%016llx\0A\00"
@.fmt.k1_b = private unnamed_addr constant [14 x i8] c"k1_b=%016llx\0A\00"
declare i32 @printf(ptr, ...)

define i64 @k1_flagged(i64 %x, i32 %mode) {
entry:
  switch i32 %mode, label %other [
    i32 0, label %m0
    i32 1, label %m1
    i32 2, label %m2
    i32 3, label %m3
  ]
m0:
  %m0.v0 = mul i64 %x, %x
  %m0.v1 = add i64 %m0.v0, 9
  %m0.v2 = mul i64 %m0.v1, %x
  %m0.v3 = add i64 %m0.v2, 13
  %m0.v4 = mul i64 %m0.v3, %x
  %m0.v5 = add i64 %m0.v4, 17
  %m0.v6 = mul i64 %m0.v5, %x
  %m0.v7 = add i64 %m0.v6, 21
  %m0.v8 = mul i64 %m0.v7, %x
  %m0.v9 = add i64 %m0.v8, 25
  %m0.v10 = mul i64 %m0.v9, %x
  %m0.v11 = add i64 %m0.v10, 29
  %m0.v12 = mul i64 %m0.v11, %x
  %m0.v13 = add i64 %m0.v12, 33
  %m0.v14 = mul i64 %m0.v13, %x
  %m0.v15 = add i64 %m0.v14, 37
  %m0.v16 = mul i64 %m0.v15, %x
  %m0.v17 = add i64 %m0.v16, 41
  %m0.v18 = mul i64 %m0.v17, %x
  %m0.v19 = add i64 %m0.v18, 45
  br label %exit
m1:
  %m1.v0 = mul i64 %x, %x
  %m1.v1 = add i64 %m1.v0, 49
  %m1.v2 = mul i64 %m1.v1, %x
  %m1.v3 = add i64 %m1.v2, 53
  %m1.v4 = mul i64 %m1.v3, %x
  %m1.v5 = add i64 %m1.v4, 57
  %m1.v6 = mul i64 %m1.v5, %x
  %m1.v7 = add i64 %m1.v6, 61
  %m1.v8 = mul i64 %m1.v7, %x
  %m1.v9 = add i64 %m1.v8, 65
  %m1.v10 = mul i64 %m1.v9, %x
  %m1.v11 = add i64 %m1.v10, 69
  %m1.v12 = mul i64 %m1.v11, %x
  %m1.v13 = add i64 %m1.v12, 73
  %m1.v14 = mul i64 %m1.v13, %x
  %m1.v15 = add i64 %m1.v14, 77
  %m1.v16 = mul i64 %m1.v15, %x
  %m1.v17 = add i64 %m1.v16, 81
  %m1.v18 = mul i64 %m1.v17, %x
  %m1.v19 = add i64 %m1.v18, 85
  br label %exit
m2:
  %m2.v0 = mul i64 %x, %x
  %m2.v1 = add i64 %m2.v0, 89
  %m2.v2 = mul i64 %m2.v1, %x
  %m2.v3 = add i64 %m2.v2, 93
  %m2.v4 = mul i64 %m2.v3, %x
  %m2.v5 = add i64 %m2.v4, 97
  %m2.v6 = mul i64 %m2.v5, %x
  %m2.v7 = add i64 %m2.v6, 101
  %m2.v8 = mul i64 %m2.v7, %x
  %m2.v9 = add i64 %m2.v8, 105
  %m2.v10 = mul i64 %m2.v9, %x
  %m2.v11 = add i64 %m2.v10, 109
  %m2.v12 = mul i64 %m2.v11, %x
  %m2.v13 = add i64 %m2.v12, 113
  %m2.v14 = mul i64 %m2.v13, %x
  %m2.v15 = add i64 %m2.v14, 117
  %m2.v16 = mul i64 %m2.v15, %x
  %m2.v17 = add i64 %m2.v16, 121
  %m2.v18 = mul i64 %m2.v17, %x
  %m2.v19 = add i64 %m2.v18, 125
  br label %exit
m3:
  %m3.v0 = mul i64 %x, %x
  %m3.v1 = add i64 %m3.v0, 129
  %m3.v2 = mul i64 %m3.v1, %x
  %m3.v3 = add i64 %m3.v2, 133
  %m3.v4 = mul i64 %m3.v3, %x
  %m3.v5 = add i64 %m3.v4, 137
  %m3.v6 = mul i64 %m3.v5, %x
  %m3.v7 = add i64 %m3.v6, 141
  %m3.v8 = mul i64 %m3.v7, %x
  %m3.v9 = add i64 %m3.v8, 145
  %m3.v10 = mul i64 %m3.v9, %x
  %m3.v11 = add i64 %m3.v10, 149
  %m3.v12 = mul i64 %m3.v11, %x
  %m3.v13 = add i64 %m3.v12, 153
  %m3.v14 = mul i64 %m3.v13, %x
  %m3.v15 = add i64 %m3.v14, 157
  %m3.v16 = mul i64 %m3.v15, %x
  %m3.v17 = add i64 %m3.v16, 161
  %m3.v18 = mul i64 %m3.v17, %x
  %m3.v19 = add i64 %m3.v18, 165
  br label %exit
other:
  %o = mul i64 %x, 3
  br label %exit
exit:
  %r = phi i64 [ %m0.v19, %m0 ], [ %m1.v19, %m1 ], [ %m2.v19, %m2 ], [ %m3.v19, %m3 ], [ %o, %other ]
  ret i64 %r
}

define i64 @k1_a(i64 %x) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ %x, %entry ], [ %acc.next, %loop ]
  %acc.next = call i64 @k1_flagged(i64 %acc, i32 0)
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, 3
  br i1 %more, label %loop, label %done
done:
  ret i64 %acc.next
}

define i64 @k1_b(i64 %x) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ %x, %entry ], [ %acc.next, %loop ]
  %acc.next = call i64 @k1_flagged(i64 %acc, i32 2)
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, 3
  br i1 %more, label %loop, label %done
done:
  ret i64 %acc.next
}

define i32 @main() {
entry:
  %va = call i64 @k1_a(i64 5)
  %vb = call i64 @k1_b(i64 9)
  call i32 (ptr, ...) @printf(ptr @.fmt.k1_a, i64 %va)
  call i32 (ptr, ...) @printf(ptr @.fmt.k1_b, i64 %vb)
  ret i32 0
}
