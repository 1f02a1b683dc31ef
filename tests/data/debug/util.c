/* Debug-info test program, file 2 of 2: a same-named static helper, a switch (jump
   table), a table, a static local. */
int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};

static int helper(int v) {
  return v - 7;
}

int classify(int x) {
  switch (x % 7) {
  case 0: return helper(x) * 2;
  case 1: return x + 11;
  case 2: return x ^ 0x55;
  case 3: return x * x;
  case 4: return -x;
  case 5: return x / 3;
  default: return 42;
  }
}

int scale(int x) {
  static int calls;
  calls++;
  return x * 5 + calls;
}
