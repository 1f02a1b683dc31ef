"""Fibonacci three ways: naive recursion, memoised recursion with a global buffer, a loop.

Shows recursion, module globals (a call counter), buffers and integer wrap-around.
Run: ember run examples/fibonacci.em
"""

calls: Int = 0


def fib_naive(n: Int) -> Int:
    global calls
    calls += 1
    if n < 2:
        return n
    return fib_naive(n - 1) + fib_naive(n - 2)


def fib_memo(n: Int, memo: Buffer[Int]) -> Int:
    global calls
    calls += 1
    if n < 2:
        return n
    if memo[n] != 0:
        return memo[n]
    r = fib_memo(n - 1, memo) + fib_memo(n - 2, memo)
    memo[n] = r
    return r


def fib_loop(n: Int) -> Int:
    a = 0
    b = 1
    for _ in range(n):
        t = a + b
        a = b
        b = t
    return a


def main() -> None:
    global calls
    print("fib(25) =", fib_naive(25), "in", calls, "calls")
    calls = 0
    memo = Buffer[Int](100)
    print("fib(90) =", fib_memo(90, memo), "in", calls, "calls")
    print("fib(92) =", fib_loop(92))
    print("fib(93) wraps to", fib_loop(93))
