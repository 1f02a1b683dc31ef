"""Sieve of Eratosthenes: buffers, nested loops, break/continue.

Run: ember run examples/primes.em    (or: ember interp examples/primes.em)
"""


def sieve(n: Int) -> Buffer[Bool]:
    """composite[i] is True when i < n is not prime."""
    composite = Buffer[Bool](n)
    composite[0] = True
    composite[1] = True
    i = 2
    while i * i < n:
        if not composite[i]:
            for j in range(i * i, n, i):
                composite[j] = True
        i += 1
    return composite


def main() -> Int:
    n = 10000
    composite = sieve(n)
    count = 0
    for i in range(n):
        if not composite[i]:
            count += 1
    print("primes below", n, ":", count)
    shown = 0
    print("first ten:", end="")
    for i in range(n):
        if composite[i]:
            continue
        print("", i, end="")
        shown += 1
        if shown == 10:
            break
    print()
    largest = 0
    for i in range(n - 1, 0, -1):
        if not composite[i]:
            largest = i
            break
    print("largest:", largest)
    return 0
