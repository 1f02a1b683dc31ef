/* The Ember runtime: print helpers and traps linked into every Ember program.
 * Float formatting must match the reference interpreter exactly (docs/language.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Exit status of every Ember trap (division by zero, INT_MIN // -1, failed assert). */
#define EMBER_TRAP_STATUS 3

void ember_trap(int64_t code) {
  static const char *const messages[] = {
      "unknown trap", "division by zero", "integer overflow in division", "assertion failed",
  };
  const char *msg = (code >= 0 && code < 4) ? messages[code] : messages[0];
  fflush(stdout);
  fprintf(stderr, "ember: trap: %s\n", msg);
  exit(EMBER_TRAP_STATUS);
}

/* print(x) for an integer: decimal, then a newline. */
void ember_print_i64(int64_t value) { printf("%lld\n", (long long)value); }
