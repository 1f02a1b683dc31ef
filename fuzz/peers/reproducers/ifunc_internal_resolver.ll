; ModuleID = '<string>'


@k3_if = ifunc i64 (i64), ptr @k3_resolver

declare i64 @k3_impl0(i64)

; Function Attrs: alwaysinline
define internal ptr @k3_resolver() {
  ret ptr @k3_impl0
}

