; An ifunc whose resolver is internal: llvm-split declares the resolver in the ifunc's
; partition ("IFunc resolver must be a definition"); llvm-lto aborts in
; LTOModule::parseSymbols (isa<GlobalAlias>(GV)). docs/peers.md, finding 2.
@k3_if = ifunc i64 (i64), ptr @k3_resolver

declare i64 @k3_impl0(i64)

; Function Attrs: alwaysinline
define internal ptr @k3_resolver() {
  ret ptr @k3_impl0
}

