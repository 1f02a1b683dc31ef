; an invalid module
define i32 @f() {
  ret i32 %x
}
