# RUN: not %ember run %s 2>&1 | %FileCheck %s
# RUN: not %ember interp %s 2>&1 | %FileCheck %s
# RUN: %python -c "import subprocess,sys; r=subprocess.run(['%ember','run','%s'],capture_output=True); sys.exit(r.returncode != 3)"
# RUN: %python -c "import subprocess,sys; r=subprocess.run(['%ember','interp','%s'],capture_output=True); sys.exit(r.returncode != 3)"

# A trap (the language is total: division by zero is defined to trap) is one line and
# exit status 3, the same from the compiled program and the reference interpreter.
# CHECK: ember: trap: division by zero
# CHECK-NOT: Traceback

def div(a: Int, b: Int) -> Int:
    return a // b


def main() -> None:
    print(div(7, 0))
