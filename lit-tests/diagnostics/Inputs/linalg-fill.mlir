func.func @main() -> i32 {
  %c0 = arith.constant 0 : i32
  %m = memref.alloc() : memref<4xi32>
  linalg.fill ins(%c0 : i32) outs(%m : memref<4xi32>)
  %i = arith.constant 0 : index
  %e = memref.load %m[%i] : memref<4xi32>
  return %e : i32
}
