define i64 @not_main(i64 %x) {
  ret i64 %x
}
