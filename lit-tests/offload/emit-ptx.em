# RUN: %ember build %s --emit ptx -o - | %FileCheck %s
# RUN: %ember build %s --emit ptx --offload-flow per-kernel --gpu-arch sm_90 -o - | %FileCheck %s --check-prefix=SM90

# ONE module: one header, then each kernel's code
# CHECK: .version
# CHECK-NEXT: .target sm_80
# CHECK-NOT: .version
# CHECK-LABEL: // ember kernel axpy (sm_80)
# CHECK: .visible .entry ember_kernel_axpy(
# CHECK-NEXT: .param .f64 ember_kernel_axpy_param_0,
# CHECK-NEXT: .param .u64 .ptr .align 1 ember_kernel_axpy_param_1,
# CHECK: %ctaid.x
# CHECK: %ntid.x
# CHECK: %tid.x
# CHECK: mul.rn.f64
# CHECK: add.rn.f64
# CHECK: trap;
# CHECK-LABEL: // ember kernel grid2d (sm_80)
# CHECK: .visible .entry ember_kernel_grid2d(
# CHECK-DAG: %tid.y
# CHECK-DAG: %ctaid.y
# CHECK-NOT: ember.main
# SM90: .target sm_90
# SM90-NOT: .target
# SM90: .entry ember_kernel_axpy(
# SM90: .entry ember_kernel_grid2d(

@kernel
def axpy(a: Float64, x: Buffer[Float64], n: Int) -> None:
    i = global_idx_x()
    if i < n:
        x[i] = a * x[i] + 1.0


@kernel
def grid2d(x: Buffer[Int], w: Int) -> None:
    x[global_idx_y() * w + global_idx_x()] = thread_idx_y()


def main() -> None:
    b = Buffer[Float64](8)
    axpy[1, 8](2.0, b, 8)
