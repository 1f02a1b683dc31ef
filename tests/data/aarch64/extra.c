/* AArch64 split-build test program, with tests/data/debug/{main,util}.c
   (tests/test_aarch64.py): TLS, constant pools (adrp + :lo12:), a 64-bit immediate, libm. */
#include <stdio.h>
#include <math.h>
__thread int tls_counter;
static const double weights[4] = {0.25, 1.5, 2.75, 3.125};
double mix(double x, int i) { tls_counter++; return x * weights[i & 3] + 0.1 + sqrt(x); }
static float fscale(float f) { return f * 3.5f + 1.25f; }
float apply(float f) { return fscale(f) - 0.75f; }
long big(long x) { return x * 0x123456789abcLL + 0x7777777777LL; }
int report(void) { printf("tls=%d %.3f %.3f %ld\n", tls_counter, mix(2.0, 1), apply(2.0f), big(3)); return tls_counter; }
/* runs at exit: main.c knows nothing of this file (and a destructor crosses the split too) */
__attribute__((destructor)) static void at_exit_report(void) { report(); }
