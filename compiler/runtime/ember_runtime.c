/* The Ember runtime: print helpers and traps linked into every Ember program.
 * Float formatting must match the reference interpreter exactly (docs/language.md,
 * "print"): the shortest round-trip decimal, laid out like Python's repr(). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exit status of every Ember trap (division by zero, INT_MIN // -1, failed assert, ...). */
#define EMBER_TRAP_STATUS 3
#define EMBER_TRAP_COUNT 10

void ember_trap(int64_t code) {
  static const char *const messages[EMBER_TRAP_COUNT] = {
      "unknown trap",
      "division by zero",
      "integer overflow in division",
      "assertion failed",
      "negative exponent in integer power",
      "range() step is zero",
      "buffer index out of range",
      "invalid buffer size",
      "out of memory",
      "invalid launch configuration",
  };
  const char *msg = (code >= 0 && code < EMBER_TRAP_COUNT) ? messages[code] : messages[0];
  fflush(stdout);
  fprintf(stderr, "ember: trap: %s\n", msg);
  exit(EMBER_TRAP_STATUS);
}

/* print(x) for an integer: decimal, then a newline (used by hand-written MLIR examples). */
void ember_print_i64(int64_t value) { printf("%lld\n", (long long)value); }

/* The pieces of print(): one value or text at a time, no separators. */
void ember_put_i64(int64_t value) { printf("%lld", (long long)value); }

void ember_put_u64(uint64_t value) { printf("%llu", (unsigned long long)value); }

void ember_put_bool(int64_t value) { fputs(value ? "True" : "False", stdout); }

void ember_put_char(int64_t c) { putchar((int)(unsigned char)c); }

/* A memref<?xi8> descriptor, expanded by the MLIR calling convention. */
void ember_put_str(const char *allocated, const char *aligned, int64_t offset, int64_t size,
                   int64_t stride) {
  (void)allocated;
  (void)stride;
  fwrite(aligned + offset, 1, (size_t)size, stdout);
}

/* Shortest round-trip formatting: the fewest significant digits p (1..17) whose
 * correctly rounded "%.{p-1}e" rendering reads back (strtod, then rounded to the value's
 * own precision) as the same value; laid out like Python's repr(): positional notation
 * when the decimal exponent is in [-4, 16), scientific ("1e-05", "1.5e+16") otherwise,
 * always with a fractional part in positional notation ("2.0"); "nan", "inf", "-inf". */
static int reads_back(const char *text, double x, int single) {
  double back = strtod(text, NULL);
  return single ? ((float)back == (float)x) : (back == x);
}

/* The shortest "d.ddde±XX" that reads back as x; among equally short ones the nearest.
 * For each precision p: the correctly rounded rendering, then its neighbour one unit in
 * the last digit away (at a power of two the rounding interval is wider above x). */
static void shortest(double x, int single, char *buf, size_t size) {
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, size, "%.*e", p - 1, x);
    if (reads_back(buf, x, single)) return;
    const char *s = buf;
    int neg = (*s == '-');
    if (neg) s++;
    uint64_t digits = 0, pow_p = 1;
    for (int i = 0; i < p; i++) pow_p *= 10;
    for (; *s && *s != 'e'; s++)
      if (*s != '.') digits = digits * 10 + (uint64_t)(*s - '0');
    int exp10 = atoi(s + 1);
    for (int delta = 1; delta >= -1; delta -= 2) {
      uint64_t d = digits + (uint64_t)(int64_t)delta;
      int e = exp10;
      if (d == pow_p) {
        d = pow_p / 10;
        e++;
      } else if (d < pow_p / 10) {
        d = pow_p - 1;
        e--;
      }
      char ds[24], cand[48];
      snprintf(ds, sizeof ds, "%llu", (unsigned long long)d);
      snprintf(cand, sizeof cand, "%s%c%s%s" "e%c%02d", neg ? "-" : "", ds[0], p > 1 ? "." : "", ds + 1,
               e < 0 ? '-' : '+', e < 0 ? -e : e);
      if (reads_back(cand, x, single)) {
        snprintf(buf, size, "%s", cand);
        return;
      }
    }
  }
  snprintf(buf, size, "%.16e", x);
}

static void put_float(double x, int single) {
  char buf[40], digits[24], out[64];
  if (isnan(x)) {
    fputs("nan", stdout);
    return;
  }
  if (isinf(x)) {
    fputs(x > 0 ? "inf" : "-inf", stdout);
    return;
  }
  shortest(x, single, buf, sizeof buf);
  /* buf is [-]d[.ddd]e(+|-)XX */
  const char *s = buf;
  int neg = 0;
  if (*s == '-') {
    neg = 1;
    s++;
  }
  int n = 0;
  for (; *s && *s != 'e'; s++)
    if (*s != '.') digits[n++] = *s;
  while (n > 1 && digits[n - 1] == '0') n--;
  digits[n] = '\0';
  int exp10 = atoi(s + 1);
  int decpt = exp10 + 1;
  char *o = out;
  if (neg) *o++ = '-';
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) {
      *o++ = '0';
      *o++ = '.';
      for (int i = 0; i < -decpt; i++) *o++ = '0';
      memcpy(o, digits, (size_t)n);
      o += n;
    } else if (decpt >= n) {
      memcpy(o, digits, (size_t)n);
      o += n;
      for (int i = 0; i < decpt - n; i++) *o++ = '0';
      *o++ = '.';
      *o++ = '0';
    } else {
      memcpy(o, digits, (size_t)decpt);
      o += decpt;
      *o++ = '.';
      memcpy(o, digits + decpt, (size_t)(n - decpt));
      o += n - decpt;
    }
    *o = '\0';
  } else {
    *o++ = digits[0];
    if (n > 1) {
      *o++ = '.';
      memcpy(o, digits + 1, (size_t)(n - 1));
      o += n - 1;
    }
    snprintf(o, sizeof out - (size_t)(o - out), "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
  }
  fputs(out, stdout);
}

void ember_put_f64(double value) { put_float(value, 0); }

void ember_put_f32(float value) { put_float((double)value, 1); }
