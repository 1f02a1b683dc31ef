; Legal IR names a text link could mistake for something else (issue 35 item 2): private
; `@rax` and `@str`, quoted `@"with space"` and `@"q\22uote"`, a mnemonic `@movq`, TLS, a
; comdat and an alias (of a private variable: the alias's size is its value type's);
; every function noinline so that, at split cost 1, each use crosses pieces.
$cd = comdat any

@rax = private global [4 x i32] [i32 5, i32 6, i32 7, i32 8]
@al = alias i32, ptr @rax
@str = private unnamed_addr constant [11 x i8] c"r=%d s=%d\0A\00"
@fmt2 = private unnamed_addr constant [21 x i8] c"m=%d t=%d u=%d c=%d\0A\00"
@"with space" = global i32 7
@"q\22uote" = internal global i32 9
@tls = thread_local global i32 3
@tls_local = internal thread_local global i32 4

declare i32 @printf(ptr, ...)

define internal i32 @movq(i32 %x) noinline {
  %q = load i32, ptr @"q\22uote"
  %r = add i32 %x, %q
  store i32 %r, ptr @"q\22uote"
  ret i32 %r
}

define linkonce_odr i32 @cd(i32 %x) noinline comdat {
  %y = mul i32 %x, 3
  ret i32 %y
}

define i32 @"f with space"() noinline {
  %a = load i32, ptr @al
  store i32 1, ptr @al
  %b = getelementptr [4 x i32], ptr @rax, i64 0, i64 2
  %c = load i32, ptr %b
  %s = add i32 %a, %c
  ret i32 %s
}

define i32 @tls_sum() noinline {
  %a = load i32, ptr @tls
  %b = load i32, ptr @tls_local
  %s = add i32 %a, %b
  store i32 %s, ptr @tls_local
  ret i32 %s
}

define i32 @main() {
  %f = call i32 @"f with space"()
  %x = getelementptr [4 x i32], ptr @rax, i64 0, i64 1
  %y = load i32, ptr %x
  %r = add i32 %f, %y
  store i32 %r, ptr %x
  %w = load i32, ptr @"with space"
  %s = call i32 @movq(i32 %w)
  call i32 (ptr, ...) @printf(ptr @str, i32 %r, i32 %s)
  %m = call i32 @movq(i32 1)
  %t = call i32 @tls_sum()
  %u = call i32 @tls_sum()
  %c = call i32 @cd(i32 %u)
  call i32 (ptr, ...) @printf(ptr @fmt2, i32 %m, i32 %t, i32 %u, i32 %c)
  ret i32 0
}
