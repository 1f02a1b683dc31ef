@t = internal global { ptr, ptr, ptr } { ptr @abs, ptr @toupper, ptr @realloc }
declare i32 @abs(i32)
declare i32 @toupper(i32)
declare i32 @tolower(i32)
declare ptr @realloc(ptr, i64)
declare void @free(ptr)
define i32 @k() noinline {
  %p = getelementptr inbounds i8, ptr @t, i64 8
  %x = addrspacecast ptr @tolower to ptr addrspace(1)
  store ptr addrspace(1) %x, ptr %p
  %f = load ptr, ptr %p
  %r = call i32 %f(i32 65)
  ret i32 %r
}
define i32 @j() noinline {
  %f = load ptr, ptr @t
  %r = call i32 %f(i32 -9)
  ret i32 %r
}
define i32 @main() {
  %a = call i32 @k()
  %b = call i32 @j()
  %s = add i32 %a, %b
  ret i32 %s
}
