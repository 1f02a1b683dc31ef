; Local ifuncs and aliases that functions in other subgraphs use (tests split-local-ifunc.test):
; the owner exports them while compiling. At -O2 GlobalOpt resolves a static ifunc and
; deletes it; when the owner's cut left it internal, the other subgraphs' calls stayed
; undefined. main prints 363: a(2) = 48, b(3) = 72 ^ 77 = 5, c(1) = 101, d(2) = 204, e() = 5.

@fmt = private unnamed_addr constant [6 x i8] c"%lld\0A\00"
@if = internal ifunc i64 (i64), ptr @resolver
@"local fn" = internal alias i64 (i64), ptr @plus100
@v = internal global i64 5
@"local var" = internal alias i64, ptr @v

declare i32 @printf(ptr, ...)

define internal i64 @impl(i64 %x) {
  %y = mul i64 %x, 24
  ret i64 %y
}

define internal ptr @resolver() {
  ret ptr @impl
}

define internal i64 @plus100(i64 %x) noinline {
  %y = add i64 %x, 100
  ret i64 %y
}

define i64 @a(i64 %x) noinline {
  %r = call i64 @if(i64 %x)
  ret i64 %r
}

define i64 @b(i64 %x) noinline {
  %r = call i64 @if(i64 %x)
  %s = xor i64 %r, 77
  ret i64 %s
}

define i64 @c(i64 %x) noinline {
  %r = call i64 @"local fn"(i64 %x)
  ret i64 %r
}

define i64 @d(i64 %x) noinline {
  %r = call i64 @"local fn"(i64 %x)
  %s = mul i64 %r, 2
  ret i64 %s
}

define i64 @e() noinline {
  %r = load volatile i64, ptr @"local var"
  ret i64 %r
}

define void @f(i64 %x) noinline {
  store volatile i64 %x, ptr @"local var"
  ret void
}

define i32 @main() {
  %1 = call i64 @a(i64 2)
  %2 = call i64 @b(i64 3)
  %3 = call i64 @c(i64 1)
  %4 = call i64 @d(i64 2)
  %5 = call i64 @e()
  %s1 = add i64 %1, %2
  %s2 = add i64 %s1, %3
  %s3 = add i64 %s2, %4
  %s4 = add i64 %s3, %5
  %p = call i32 (ptr, ...) @printf(ptr @fmt, i64 %s4)
  ret i32 0
}
