# RUN: not %ember build %s -o %t.o 2>&1 | %FileCheck %s
# RUN: not %ember interp %s 2>&1 | %FileCheck %s
# CHECK: syntax-error.em:[[# @LINE + 2]]:9: error: syntax error: '(' was never closed
def main() -> None:
    x = (1 +
