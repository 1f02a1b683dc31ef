"""The reducer: shrink a split-linkage miscompile to a few lines (`ember reduce`)."""
