/* The host side of a kernel launch: the program queues the arguments, then asks to launch
 * the kernel's PTX, which the compiler embedded in the object as `ember_gpu_kernels`.
 * A launch runs on the GPU only when a launcher is installed (the GPU host,
 * compiler/offload/gpu_host.py, sets `ember_gpu_launcher` through the CUDA driver API);
 * otherwise `ember_gpu_launch` returns 0 and the program runs its CPU grid emulator.
 * See docs/offload.md, "Running on a GPU". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One kernel argument. A scalar is `size` bytes (1, 2, 4 or 8) held in the low bytes of
 * `bits`; a buffer is `count` elements of `size` bytes at host address `data` and becomes
 * the five parameters of a memref descriptor on the device. */
struct ember_gpu_arg {
  int64_t is_buffer;
  int64_t size;
  int64_t bits;
  void *data;
  int64_t count;
};

/* One embedded kernel: its Ember name and the NUL-terminated PTX module that defines
 * `.entry ember_kernel_<name>`; emitted by compiler/offload/embed.py. */
struct ember_gpu_kernel {
  const char *name;
  const char *ptx;
};

/* Weak: a program without kernels has no table. */
extern const struct ember_gpu_kernel ember_gpu_kernels[] __attribute__((weak));
extern const int64_t ember_gpu_kernel_count __attribute__((weak));

/* Returns 1 after running the kernel on the device; 0 to let the emulator run it. A
 * launcher that fails reports the error itself and exits. */
typedef int (*ember_gpu_launcher_fn)(const char *name, const char *ptx, const int64_t *dims,
                                     int64_t nargs, const struct ember_gpu_arg *args);
ember_gpu_launcher_fn ember_gpu_launcher = 0;

#define EMBER_GPU_MAX_ARGS 256
static struct ember_gpu_arg pending[EMBER_GPU_MAX_ARGS];
static int64_t pending_count = 0;

static struct ember_gpu_arg *next_arg(void) {
  if (pending_count == EMBER_GPU_MAX_ARGS) {
    fflush(stdout);
    fprintf(stderr, "ember: error: more than %d kernel arguments\n", EMBER_GPU_MAX_ARGS);
    exit(70);
  }
  struct ember_gpu_arg *arg = &pending[pending_count++];
  memset(arg, 0, sizeof *arg);
  return arg;
}

void ember_gpu_arg_scalar(int64_t size, int64_t bits) {
  struct ember_gpu_arg *arg = next_arg();
  arg->size = size;
  arg->bits = bits;
}

void ember_gpu_arg_buffer(int64_t address, int64_t count, int64_t elem_size) {
  struct ember_gpu_arg *arg = next_arg();
  arg->is_buffer = 1;
  arg->size = elem_size;
  arg->data = (void *)(intptr_t)address;
  arg->count = count;
}

static const struct ember_gpu_kernel *find_kernel(const char *name, int64_t len) {
  if (!&ember_gpu_kernel_count || !ember_gpu_kernels) return 0;
  for (int64_t i = 0; i < ember_gpu_kernel_count; i++) {
    const char *k = ember_gpu_kernels[i].name;
    if ((int64_t)strlen(k) == len && memcmp(k, name, (size_t)len) == 0) return &ember_gpu_kernels[i];
  }
  return 0;
}

/* The kernel name is a memref<?xi8> descriptor, expanded by the MLIR calling convention. */
int8_t ember_gpu_launch(const char *allocated, const char *aligned, int64_t offset, int64_t size,
                        int64_t stride, int64_t gx, int64_t gy, int64_t gz, int64_t bx, int64_t by,
                        int64_t bz) {
  (void)allocated;
  (void)stride;
  int64_t nargs = pending_count;
  pending_count = 0;
  if (!ember_gpu_launcher) return 0;
  const struct ember_gpu_kernel *kernel = find_kernel(aligned + offset, size);
  if (!kernel) return 0; /* compiled without embedded PTX: the emulator runs it */
  const int64_t dims[6] = {gx, gy, gz, bx, by, bz};
  return ember_gpu_launcher(kernel->name, kernel->ptx, dims, nargs, pending) ? 1 : 0;
}
