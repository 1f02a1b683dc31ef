"""A tiny bank ledger: exported globals and functions, asserts, and a trap on bad input.

`deposit`/`withdraw` are @export (external linkage, callable from C); the ledger state is
module globals. The last withdrawal overdraws the account: the assert traps, the program
stops with exit status 3 and `ember: trap: assertion failed` on stderr.
Run: ember run examples/bank.em; echo "exit status $?"
"""

balance: Export[Int] = 0
transactions: Int = 0
interest_rate: Float64 = 0.015


@export
def deposit(amount: Int) -> Int:
    global balance, transactions
    assert amount > 0
    balance += amount
    transactions += 1
    return balance


@export
def withdraw(amount: Int) -> Int:
    global balance, transactions
    assert amount > 0
    assert amount <= balance
    balance -= amount
    transactions += 1
    return balance


def yearly_interest(years: Int) -> Float64:
    total = Float64(balance)
    for _ in range(years):
        total += total * interest_rate
    return total


def main() -> Int:
    deposit(1000)
    withdraw(250)
    deposit(40)
    print("balance:", balance, "after", transactions, "transactions")
    print("in 10 years:", yearly_interest(10))
    print("withdrawing 10000 ...")
    withdraw(10000)
    print("unreachable")
    return 0
