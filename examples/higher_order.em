"""Function values: pass functions as arguments, pick them at run time, call them indirectly.

Run: ember run examples/higher_order.em
"""


def square(x: Float64) -> Float64:
    return x * x


def cube(x: Float64) -> Float64:
    return x * x * x


def integrate(f: Callable[[Float64], Float64], a: Float64, b: Float64, steps: Int) -> Float64:
    """Trapezoidal rule with `steps` intervals."""
    h = (b - a) / Float64(steps)
    total = (f(a) + f(b)) / 2.0
    for i in range(1, steps):
        total += f(a + Float64(i) * h)
    return total * h


def newton(f: Callable[[Float64], Float64], df: Callable[[Float64], Float64], x0: Float64) -> Float64:
    """Newton's method until the step no longer changes x (at most 100 steps)."""
    x = x0
    for _ in range(100):
        nxt = x - f(x) / df(x)
        if nxt == x:
            break
        x = nxt
    return x


def sq_minus_2(x: Float64) -> Float64:
    return x * x - 2.0


def twice(x: Float64) -> Float64:
    return 2.0 * x


def fold(f: Callable[[Int, Int], Int], values: Buffer[Int], init: Int) -> Int:
    acc = init
    for i in range(len(values)):
        acc = f(acc, values[i])
    return acc


def add(a: Int, b: Int) -> Int:
    return a + b


def mul(a: Int, b: Int) -> Int:
    return a * b


def main() -> None:
    print("integral of x^2 on [0, 1]:", integrate(square, 0.0, 1.0, 1000))
    print("integral of x^3 on [0, 2]:", integrate(cube, 0.0, 2.0, 1000))
    print("sqrt(2) by Newton:", newton(sq_minus_2, twice, 1.0))
    values = Buffer[Int](10)
    for i in range(10):
        values[i] = i + 1
    for use_product in range(2):
        op = mul if use_product == 1 else add
        start = 1 if use_product == 1 else 0
        print("fold:", fold(op, values, start))
