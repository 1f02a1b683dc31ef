; Every linkage and symbol kind the split contract cares about, exercised from main.
$comdat_fn = comdat any

@counter = internal global i32 0
@weak_g = weak global i32 7
@weak_odr_g = weak_odr global i32 11
@hidden_g = hidden global i32 5
@protected_g = protected global i32 2
@common_g = common global i32 0, align 4
@tls_g = thread_local global i32 3
@tls_internal = internal thread_local global i32 4
@.str = private unnamed_addr constant [16 x i8] c"sum=%d ctor=%d\0A\00"
@0 = private global i32 9
@alias_g = alias i32, ptr @weak_g
@fn_alias = alias i32 (i32), ptr @add_one
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]

declare i32 @printf(ptr, ...)

define internal void @init() {
  store i32 100, ptr @counter
  ret void
}

define linkonce_odr i32 @linkonce_fn(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}

define i32 @comdat_fn(i32 %x) comdat {
  %y = add i32 %x, 2
  ret i32 %y
}

define weak i32 @weak_fn(i32 %x) {
  %y = sub i32 %x, 1
  ret i32 %y
}

define hidden i32 @hidden_fn(i32 %x) {
  %y = xor i32 %x, 5
  ret i32 %y
}

define internal i32 @add_one(i32 %x) noinline {
  %y = add i32 %x, 1
  ret i32 %y
}

define private i32 @private_fn(i32 %x) noinline {
  %y = shl i32 %x, 1
  ret i32 %y
}

define i32 @main() {
  %a = load i32, ptr @alias_g
  %b = load i32, ptr @weak_odr_g
  %c = load i32, ptr @hidden_g
  %d = load i32, ptr @protected_g
  %t = call ptr @llvm.threadlocal.address.p0(ptr @tls_g)
  %e = load i32, ptr %t
  %ti = call ptr @llvm.threadlocal.address.p0(ptr @tls_internal)
  %f = load i32, ptr %ti
  %g = load i32, ptr @0
  store i32 1, ptr @common_g
  %h = load i32, ptr @common_g
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  %s4 = add i32 %s3, %e
  %s5 = add i32 %s4, %f
  %s6 = add i32 %s5, %g
  %s7 = add i32 %s6, %h
  %r1 = call i32 @linkonce_fn(i32 %s7)
  %r2 = call i32 @comdat_fn(i32 %r1)
  %r3 = call i32 @weak_fn(i32 %r2)
  %r4 = call i32 @hidden_fn(i32 %r3)
  %r5 = call i32 @fn_alias(i32 %r4)
  %r6 = call i32 @private_fn(i32 %r5)
  %ctor = load i32, ptr @counter
  call i32 (ptr, ...) @printf(ptr @.str, i32 %r6, i32 %ctor)
  ret i32 0
}

declare ptr @llvm.threadlocal.address.p0(ptr)
