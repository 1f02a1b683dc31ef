@t = internal global { ptr, ptr } { ptr @abs, ptr @toupper }
declare i32 @abs(i32)
declare i32 @toupper(i32)
define i32 @k() noinline {
  %f = load ptr addrspace(1), ptr @t
  %g = addrspacecast ptr addrspace(1) %f to ptr
  %r = call i32 %g(i32 -5)
  ret i32 %r
}
define i32 @main() {
  %r = call i32 @k()
  ret i32 %r
}
