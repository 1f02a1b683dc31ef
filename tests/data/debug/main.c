/* Debug-info test program, file 1 of 2 (tests/test_debuginfo.py). Line numbers matter:
   the tests break at the line marked BREAK-HERE. */
#include <stdio.h>

int scale(int x);
int classify(int x);
extern int table[8];

static int helper(int v) {
  return v * 3 + 1;
}

static int total;

int accumulate(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    s += helper(v[i]);
    total += s;
  }
  return s;
}

int main(int argc, char **argv) {
  (void)argv;
  int sum = accumulate(table, 8);
  int c = classify(argc + sum); /* BREAK-HERE */
  printf("%d %d %d\n", sum, c, scale(total));
  return 0;
}
