; Legal IR names the split back end must not misread (tests split-names-*.test): private
; constants named like registers, mnemonics and directives of x86-64 and AArch64 used from
; several functions, quoted names with = , " \ spaces and non-ASCII bytes, aliases of
; function, struct and array type and with a constant-expression aliasee, an ifunc, and
; every linkage and visibility. main prints 563.

%struct.S = type { i32, i64 }

$shared = comdat any

; private constants named like registers, mnemonics and directives, used from several functions
@rax = private unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@add = private unnamed_addr constant [4 x i32] [i32 5, i32 6, i32 7, i32 8]
@str = private unnamed_addr constant [4 x i32] [i32 9, i32 10, i32 11, i32 12]
@ldr = private unnamed_addr constant [4 x i32] [i32 13, i32 14, i32 15, i32 16]
@x0 = private global i32 17
@sp = private global i32 18
@rip = internal global i32 19
@movq = internal global i32 20
@globl = internal global i32 21
@quad = private global i32 22
@text = internal global i32 23
; quoted names
@"with space" = internal global i32 3
@"q\22uote" = internal global i32 4
@"f=1,2" = private constant i32 9
@"caf\C3\A9" = internal global i32 11
@"ex=port,ed" = global i32 12
@"hid den" = hidden global i32 13
@"prot\5Cected" = protected global i32 14
@"weak one" = weak global i32 15
@"common=" = common global i32 0, align 4
@"odr var" = weak_odr constant i32 16
@sv = global %struct.S { i32 1, i64 2 }
@arr = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]
; aliases: function, struct, array type; a constant-expression aliasee; local ones
@"fn alias" = alias i32 (i32), ptr @"back\5Cslash.user"
@salias = alias %struct.S, ptr @sv
@"arr,alias" = alias [4 x i32], ptr @arr
@"mid=elem" = alias i32, getelementptr (i8, ptr @arr, i64 8)
@"local alias" = internal alias i32, ptr @movq
@"priv alias" = private alias i32, ptr @"caf\C3\A9"
; an ifunc with a quoted name and its resolver
@"if unc" = ifunc i32 (i32), ptr @"resolve me"

define internal i32 @"impl one"(i32 %x) noinline {
  %r = mul i32 %x, 3
  ret i32 %r
}

define internal ptr @"resolve me"() {
  ret ptr @"impl one"
}

define linkonce_odr i32 @shared(i32 %x) noinline comdat {
  %r = add i32 %x, 100
  ret i32 %r
}

define internal i32 @"back\5Cslash"(i32 %i) noinline {
  %p = getelementptr [4 x i32], ptr @rax, i32 0, i32 %i
  %v = load i32, ptr %p
  %q = getelementptr [4 x i32], ptr @add, i32 0, i32 %i
  %w = load i32, ptr %q
  %s = add i32 %v, %w
  %m = load i32, ptr @movq
  %t = add i32 %s, %m
  ret i32 %t
}

define i32 @"back\5Cslash.user"(i32 %i) noinline {
  %r = call i32 @"back\5Cslash"(i32 %i)
  %p = getelementptr [4 x i32], ptr @str, i32 0, i32 %i
  %v = load volatile i32, ptr %p
  %s = add i32 %r, %v
  ret i32 %s
}

define i32 @a(i32 %i) noinline {
  %p = getelementptr [4 x i32], ptr @rax, i32 0, i32 %i
  %v = load volatile i32, ptr %p
  %q = getelementptr [4 x i32], ptr @ldr, i32 0, i32 %i
  %w = load volatile i32, ptr %q
  %x = load volatile i32, ptr @"with space"
  %y = load volatile i32, ptr @"q\22uote"
  %z = load volatile i32, ptr @"f=1,2"
  %c = load volatile i32, ptr @"caf\C3\A9"
  %x0 = load volatile i32, ptr @x0
  %sp = load volatile i32, ptr @sp
  %rip = load volatile i32, ptr @rip
  %gl = load volatile i32, ptr @globl
  %qd = load volatile i32, ptr @quad
  %tx = load volatile i32, ptr @text
  %s = add i32 %v, %w
  %s2 = add i32 %s, %x
  %s3 = add i32 %s2, %y
  %s4 = add i32 %s3, %z
  %s5 = add i32 %s4, %c
  %s6 = add i32 %s5, %x0
  %s7 = add i32 %s6, %sp
  %s8 = add i32 %s7, %rip
  %s9 = add i32 %s8, %gl
  %s10 = add i32 %s9, %qd
  %s11 = add i32 %s10, %tx
  %r = call i32 @"back\5Cslash"(i32 %i)
  %s12 = add i32 %s11, %r
  ret i32 %s12
}

define i32 @b(i32 %i) noinline {
  %p = getelementptr [4 x i32], ptr @rax, i32 0, i32 %i
  %v = load volatile i32, ptr %p
  %q = getelementptr [4 x i32], ptr @add, i32 0, i32 %i
  %w = load volatile i32, ptr %q
  store volatile i32 %v, ptr @movq
  store volatile i32 %w, ptr @"q\22uote"
  %z = load volatile i32, ptr @"f=1,2"
  store volatile i32 %z, ptr @"caf\C3\A9"
  store volatile i32 %z, ptr @x0
  store volatile i32 %z, ptr @sp
  store volatile i32 %z, ptr @rip
  store volatile i32 %z, ptr @globl
  store volatile i32 %z, ptr @quad
  store volatile i32 %z, ptr @text
  %la = load volatile i32, ptr @"local alias"
  %pa = load volatile i32, ptr @"priv alias"
  %r = call i32 @"back\5Cslash"(i32 %i)
  %s = add i32 %v, %w
  %s2 = add i32 %s, %r
  %s3 = add i32 %s2, %la
  %s4 = add i32 %s3, %pa
  ret i32 %s4
}

define i32 @"c=d"(i32 %i) noinline {
  %e = load volatile i32, ptr @"ex=port,ed"
  %h = load volatile i32, ptr @"hid den"
  %p = load volatile i32, ptr @"prot\5Cected"
  %w = load volatile i32, ptr @"weak one"
  %c = load volatile i32, ptr @"common="
  %o = load volatile i32, ptr @"odr var"
  %sf = getelementptr %struct.S, ptr @salias, i32 0, i32 1
  %sv = load volatile i64, ptr %sf
  %s32 = trunc i64 %sv to i32
  %ae = getelementptr [4 x i32], ptr @"arr,alias", i32 0, i32 %i
  %av = load volatile i32, ptr %ae
  %me = load volatile i32, ptr @"mid=elem"
  %f = call i32 @"fn alias"(i32 %i)
  %g = call i32 @"if unc"(i32 %i)
  %sh = call i32 @shared(i32 %i)
  %s1 = add i32 %e, %h
  %s2 = add i32 %s1, %p
  %s3 = add i32 %s2, %w
  %s4 = add i32 %s3, %c
  %s5 = add i32 %s4, %o
  %s6 = add i32 %s5, %s32
  %s7 = add i32 %s6, %av
  %s8 = add i32 %s7, %me
  %s9 = add i32 %s8, %f
  %s10 = add i32 %s9, %g
  %s11 = add i32 %s10, %sh
  ret i32 %s11
}

; k1 only reads the constants: the constants are owned by one subgraph and used from others
define i32 @k1(i32 %i) noinline {
  %p = getelementptr [4 x i32], ptr @rax, i32 0, i32 %i
  %v = load volatile i32, ptr %p
  %q = getelementptr [4 x i32], ptr @add, i32 0, i32 %i
  %w = load volatile i32, ptr %q
  %r = getelementptr [4 x i32], ptr @str, i32 0, i32 %i
  %x = load volatile i32, ptr %r
  %t = getelementptr [4 x i32], ptr @ldr, i32 0, i32 %i
  %y = load volatile i32, ptr %t
  %z = load volatile i32, ptr @"f=1,2"
  %s1 = add i32 %v, %w
  %s2 = add i32 %s1, %x
  %s3 = add i32 %s2, %y
  %s4 = add i32 %s3, %z
  ret i32 %s4
}

; k2 only reads the constants: the constants are owned by one subgraph and used from others
define i32 @k2(i32 %i) noinline {
  %p = getelementptr [4 x i32], ptr @rax, i32 0, i32 %i
  %v = load volatile i32, ptr %p
  %q = getelementptr [4 x i32], ptr @add, i32 0, i32 %i
  %w = load volatile i32, ptr %q
  %r = getelementptr [4 x i32], ptr @str, i32 0, i32 %i
  %x = load volatile i32, ptr %r
  %t = getelementptr [4 x i32], ptr @ldr, i32 0, i32 %i
  %y = load volatile i32, ptr %t
  %z = load volatile i32, ptr @"f=1,2"
  %s1 = add i32 %v, %w
  %s2 = add i32 %s1, %x
  %s3 = add i32 %s2, %y
  %s4 = add i32 %s3, %z
  ret i32 %s4
}

; k3 only reads the constants: the constants are owned by one subgraph and used from others
define i32 @k3(i32 %i) noinline {
  %p = getelementptr [4 x i32], ptr @rax, i32 0, i32 %i
  %v = load volatile i32, ptr %p
  %q = getelementptr [4 x i32], ptr @add, i32 0, i32 %i
  %w = load volatile i32, ptr %q
  %r = getelementptr [4 x i32], ptr @str, i32 0, i32 %i
  %x = load volatile i32, ptr %r
  %t = getelementptr [4 x i32], ptr @ldr, i32 0, i32 %i
  %y = load volatile i32, ptr %t
  %z = load volatile i32, ptr @"f=1,2"
  %s1 = add i32 %v, %w
  %s2 = add i32 %s1, %x
  %s3 = add i32 %s2, %y
  %s4 = add i32 %s3, %z
  ret i32 %s4
}

declare i32 @printf(ptr, ...)
@fmt = private constant [4 x i8] c"%d\0A\00"
define i32 @main() {
  %a = call i32 @a(i32 1)
  %b = call i32 @b(i32 2)
  %c = call i32 @"c=d"(i32 3)
  %u = call i32 @"back\5Cslash.user"(i32 0)
  %sh = call i32 @shared(i32 1)
  %s = add i32 %a, %b
  %s2 = add i32 %s, %c
  %s3 = add i32 %s2, %u
  %s4 = add i32 %s3, %sh
  %k1 = call i32 @k1(i32 1)
  %k2 = call i32 @k2(i32 2)
  %k3 = call i32 @k3(i32 3)
  %s5 = add i32 %s4, %k1
  %s6 = add i32 %s5, %k2
  %s7 = add i32 %s6, %k3
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %s7)
  ret i32 0
}
