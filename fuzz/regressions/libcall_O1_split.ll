; At -O1 the split build imported nothing, so `get` stayed a call in `main`'s subgraph and
; `printf(get())` became `puts(...)` only in the unsplit build (which inlines `get` and then
; folds the libcall): `ember symdiff` reported `UND puts` vs `UND printf`.
; Found by the harness-power review (../shared/repro/libcall-O1-split.ll); fixed by importing
; small exported callees whenever the pipeline inlines (-O1 and up), compiler/backend/split.py.
; Reproduce: ember build X -O1 --split none  vs  --split two-level --split-cost 1 -j 2; symdiff
@msg = private unnamed_addr constant [7 x i8] c"hello\0A\00"
declare i32 @printf(ptr, ...)

define ptr @get() {
  ret ptr @msg
}

define i32 @main() {
  %m = call ptr @get()
  call i32 (ptr, ...) @printf(ptr %m)
  ret i32 0
}
