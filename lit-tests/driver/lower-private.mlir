// RUN: %ember build %s --emit llvm -O0 -o - | %FileCheck %s
// Private func.func definitions become internal LLVM functions; public ones stay external.

// CHECK-LABEL: define internal i64 @helper(
// CHECK: mul i64 %{{.*}}, 3
func.func private @helper(%a: i64) -> i64 {
  %c = arith.constant 3 : i64
  %r = arith.muli %a, %c : i64
  return %r : i64
}

// CHECK-LABEL: define i64 @entry(
// CHECK: call i64 @helper(
func.func @entry(%x: i64) -> i64 {
  %r = func.call @helper(%x) : (i64) -> i64
  return %r : i64
}

// CHECK: declare void @ext(
func.func private @ext(i64)
