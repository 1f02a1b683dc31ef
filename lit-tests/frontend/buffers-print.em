# RUN: %ember build %s --emit mlir -O0 -o - | %FileCheck %s
# Buffers are memref<?xT> (Bool stored as i8), bounds-checked; print calls the runtime
# one piece at a time (values, separators and literal text).

# CHECK-DAG: memref.global "private" constant @ember.str.0 : memref<5xi8> = dense<[115, 117, 109, 58, 32]>
# CHECK-DAG: func.func private @ember_put_str(memref<?xi8>)
# CHECK-DAG: func.func private @ember_put_f64(f64)
# CHECK-DAG: func.func private @ember_put_bool(i64)

# CHECK-LABEL: func.func private @ember.main()
# CHECK: memref.alloc(%{{.*}}) : memref<?xf64>
# CHECK: memref.alloc(%{{.*}}) : memref<?xi8>
# CHECK: %[[N:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?xf64>
# CHECK: arith.cmpi uge
# CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf64>
# CHECK: arith.extui %{{.*}} : i1 to i8
# CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xi8>
# CHECK: memref.get_global @ember.str.0 : memref<5xi8>
# CHECK: call @ember_put_str(
# CHECK: call @ember_put_f64(
# CHECK: memref.load %{{.*}}[%{{.*}}] : memref<?xi8>
# CHECK: arith.trunci %{{.*}} : i8 to i1
# CHECK: call @ember_put_bool(
# CHECK: call @ember_put_char(
def main() -> None:
    b = Buffer[Float64](4)
    flags = Buffer[Bool](4)
    b[3] = 2.5
    flags[1] = True
    print("sum: ", b[3], flags[1], sep="")
