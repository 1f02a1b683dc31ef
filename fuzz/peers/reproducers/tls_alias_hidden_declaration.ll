; An internal thread_local variable with a thread_local alias. Both peers externalize the
; variable as hidden and keep it, and the alias, in one partition; the other partition
; keeps an unused `external hidden thread_local` declaration of it, for which llc emits
; `.hidden k4_tls`: an undefined NOTYPE (not TLS) symbol, and `ld -r` then refuses to join
; the parts: "k4_tls: TLS definition in ... mismatches non-TLS reference", "bad value".
; docs/peers.md, finding 4 (2026-11-27). Reduced by `ember reduce --test` (a script that
; greps ld's message) from a 251-line linkage program (seed 3), 7 s for llvm-lto and 6 s
; for llvm-split. Replay (B=$(python -c 'from compiler.backend import engine; print(engine.tools_dir())')):
;   PATH=$B:$PATH sh fuzz/peers/llvm_split.sh fuzz/peers/reproducers/tls_alias_hidden_declaration.ll /tmp/t.o
;   PATH=$B:$PATH sh fuzz/peers/llvm_lto.sh fuzz/peers/reproducers/tls_alias_hidden_declaration.ll /tmp/t.o
@k4_tls = internal thread_local(localdynamic) global i64 1
@k4_tla = thread_local(localdynamic) alias i64, ptr @k4_tls
