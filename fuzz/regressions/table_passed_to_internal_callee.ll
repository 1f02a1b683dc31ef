; Fixed (2026-11-27): a local pointer table passed to an internal function that reads it
; through its parameter (cJSON passes `&global_hooks` down as `internal_hooks *hooks`) was left
; alone by the whole-module facts about unread fields (the text matcher followed only arguments
; the callee never uses). Serially IPSCCP substitutes the table for the parameter (every call
; passes it), GlobalOpt then splits it per field and folds the loads: only `malloc` is left; the
; split build kept `+ UND free`, `+ UND realloc`. compiler/backend/deadfields.py now follows a
; parameter every call passes the table to. Found by the corpus slices (cJSON, ember fuzz
; --strategy corpus --seed 2, the -O1..-O3 split builds); written by hand from the finding's
; shape (its reduction by `ember reduce` ended in table_field_byte_offset.ll instead).
; Reproduce: ember build THIS -o s.o -O2 --split none; ember build THIS -o p.o -O2 --split subgraph
;   -j 1 --split-cost 1; nm s.o p.o | grep ' U '
%struct.hooks = type { ptr, ptr, ptr }
@global_hooks = internal global %struct.hooks { ptr @malloc, ptr @free, ptr @realloc }, align 8

define ptr @k_a(i64 %n) {
  %f = load ptr, ptr @global_hooks, align 8
  %p = call ptr %f(i64 %n)
  ret ptr %p
}

define ptr @k_b(i64 %n) {
  %p = call ptr @k_use(ptr @global_hooks, i64 %n)
  ret ptr %p
}

define internal ptr @k_use(ptr %h, i64 %n) noinline {
  %f = load ptr, ptr %h, align 8
  %p = call ptr %f(i64 %n)
  ret ptr %p
}

define i32 @main() {
  %p = call ptr @k_a(i64 8)
  %q = call ptr @k_b(i64 8)
  ret i32 0
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare ptr @realloc(ptr, i64)
