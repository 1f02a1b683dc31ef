# The host module carries each kernel's PTX and a launch asks the runtime first
# (docs/offload.md, "Running on a GPU"); the emulator loops run only when it declines.
# RUN: %ember build %s --emit llvm -O0 -o - | %FileCheck %s
# RUN: %ember build %s --emit llvm -O0 --gpu-arch sm_90 -o - | %FileCheck %s --check-prefix=SM90

# CHECK-DAG: @ember.gpu.name.0 = private unnamed_addr constant [6 x i8] c"scale\00"
# CHECK-DAG: @ember.gpu.ptx.0 = private unnamed_addr constant [{{[0-9]+}} x i8] c"{{.*}}.target sm_80{{.*}}.visible .entry ember_kernel_scale({{.*}}\00"
# CHECK-DAG: @ember_gpu_kernels = constant [1 x { ptr, ptr }] [{ ptr, ptr } { ptr @ember.gpu.name.0, ptr @ember.gpu.ptx.0 }]
# CHECK-DAG: @ember_gpu_kernel_count = constant i64 1
# CHECK-LABEL: define {{.*}}@ember.main(
# CHECK: call void @ember_gpu_arg_buffer(
# CHECK: call void @ember_gpu_arg_scalar(i64 8,
# CHECK: [[ON:%[0-9]+]] = call i1 @ember_gpu_launch(
# CHECK: xor i1 [[ON]], true
# SM90: .target sm_90

@kernel
def scale(x: Buffer[Int], k: Int) -> None:
    x[global_idx_x()] = x[global_idx_x()] * k

def main() -> None:
    x = Buffer[Int](4)
    scale[1, 4](x, 3)
    print(x[0])
