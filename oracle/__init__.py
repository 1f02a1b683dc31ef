"""Ground truths: runner, symbol tables, reference interpreter, external compilers."""
