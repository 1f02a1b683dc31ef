; Aliases into variables AArch64's GlobalMerge packs (tests/test_globalmerge.py): @mix is minsize,
; so at -O1/-O2 it merges @c1/@c2/@h (data) and @z1/@z2 (BSS); at -O3 @mix2 merges @arr too.
; @ap's base is private: always sized from its value type. @ah2 is an alias of an alias.
@arr = internal global [4 x i64] [i64 1, i64 2, i64 3, i64 4]
@h = hidden global [2 x i64] [i64 7, i64 8]
@c1 = internal global i64 5
@c2 = internal global i64 6
@z1 = internal global [3 x i32] zeroinitializer
@z2 = internal global i32 0
@pa = private global [4 x i64] [i64 9, i64 9, i64 9, i64 9]
@al = weak alias i64, getelementptr (i8, ptr @arr, i64 8)
@ah = alias i32, getelementptr (i8, ptr @h, i64 8)
@az = alias i16, getelementptr (i8, ptr @z1, i64 4)
@ap = alias i64, getelementptr (i8, ptr @pa, i64 16)
@ah2 = alias i32, ptr @ah

define i64 @use_arr(i64 %x) noinline {
  %v = load i64, ptr @arr
  %w = load i64, ptr @al
  %p = load i64, ptr @pa
  %s = add i64 %v, %w
  %t = add i64 %s, %p
  ret i64 %t
}
define i64 @mix(i64 %x) noinline minsize {
  %a = load i64, ptr @c1
  %b = load i64, ptr @c2
  %c = load i64, ptr @h
  %d = load i32, ptr @z1
  %e = load i32, ptr @z2
  %s = add i64 %a, %b
  %t = add i64 %s, %c
  %de = add i32 %d, %e
  store i32 %de, ptr @z2
  %d64 = zext i32 %de to i64
  %u = add i64 %t, %d64
  store i64 %u, ptr @c1
  ret i64 %u
}
define i64 @mix2(i64 %x) noinline {
  %a = load i64, ptr @arr
  %b = load i64, ptr @c2
  %z = load i32, ptr @z1
  %z2 = load i32, ptr @z2
  %zz = add i32 %z, %z2
  store i32 %zz, ptr @z1
  %s = add i64 %a, %b
  store i64 %s, ptr @c2
  ret i64 %s
}
define i64 @other(i64 %x) noinline {
  %a = load i64, ptr @ap
  %b = load i32, ptr @ah2
  %c = load i16, ptr @az
  %b64 = zext i32 %b to i64
  %c64 = zext i16 %c to i64
  %s = add i64 %a, %b64
  %t = add i64 %s, %c64
  ret i64 %t
}
define i64 @entry(i64 %x) {
  %a = call i64 @use_arr(i64 %x)
  %b = call i64 @mix(i64 %a)
  %c = call i64 @mix2(i64 %b)
  %d = call i64 @other(i64 %c)
  ret i64 %d
}
