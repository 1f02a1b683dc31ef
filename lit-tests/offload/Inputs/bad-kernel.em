# not a kernel

def f() -> Int:
    return thread_idx_x()
