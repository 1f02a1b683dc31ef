// RUN: %ember-opt %s --lower-to-llvm --translate | %FileCheck %s

// Translation to LLVM IR: internal functions keep `internal`, public ones are plain
// external definitions, declarations stay declarations.
// CHECK-DAG: declare void @ember_put_i64(i64)
// CHECK-LABEL: define internal i64 @helper(i64 %0)
// CHECK: mul i64 %0, %0
// CHECK-LABEL: define i64 @entry(i64 %0)
// CHECK: call i64 @helper(i64 %0)
// CHECK: call void @ember_put_i64
func.func private @ember_put_i64(i64)

func.func private @helper(%x: i64) -> i64 {
  %0 = arith.muli %x, %x : i64
  return %0 : i64
}

func.func @entry(%x: i64) -> i64 {
  %0 = call @helper(%x) : (i64) -> i64
  call @ember_put_i64(%0) : (i64) -> ()
  return %0 : i64
}
