; Fixed (2026-11-27): a local pointer table read through a byte-offset constant `getelementptr`
; (the i8 form LLVM's InstCombine writes since LLVM 20, and front ends that optimise, Rust's
; among them) was not recognised by the whole-module facts about unread fields (the text
; matcher of compiler/backend/deadfields.py matched only `getelementptr (%struct, ptr @t, i32 0,
; i32 k)`), so the split build kept every field's symbol: `+ UND malloc`, `+ UND realloc` where
; the serial build (GlobalOpt splits the table per field) keeps only `free`. deadfields.py now
; walks the table's uses through LLVM's C API with byte offsets. Found by the corpus slices
; (cJSON's `global_hooks`, ember fuzz --strategy corpus --seed 2), reduced 453 -> 16 lines by
; `ember reduce` in 56 s (its simplify-functions pass wrote the i8 form; `main` added).
; Reproduce: ember build THIS -o s.o -O2 --split none; ember build THIS -o p.o -O2 --split subgraph
;   -j 1 --split-cost 1; nm s.o p.o | grep ' U '
%struct.internal_hooks = type { ptr, ptr, ptr }
@global_hooks = internal global %struct.internal_hooks { ptr @malloc, ptr @free, ptr @realloc }, align 8
define dso_local ptr @cJSON_free(ptr noundef %0) {
  %2 = load ptr, ptr getelementptr inbounds nuw (i8, ptr @global_hooks, i64 8), align 8
  ret ptr %2
}
define dso_local i32 @cJSON_AddItemToObject(ptr noundef %0, ptr noundef %1, ptr noundef %2) {
  call void @add_item_to_object(ptr noundef null, ptr noundef null, ptr noundef null, ptr noundef @global_hooks, i32 noundef 0)
  ret i32 0
}
define internal void @add_item_to_object(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4) {
  ret void
}
define i32 @main() {
  %f = call ptr @cJSON_free(ptr null)
  %r = call i32 @cJSON_AddItemToObject(ptr null, ptr null, ptr null)
  %c = icmp eq ptr %f, null
  %z = zext i1 %c to i32
  ret i32 %z
}
declare noalias ptr @malloc(i64 noundef)
declare void @free(ptr noundef)
declare ptr @realloc(ptr noundef, i64 noundef)
