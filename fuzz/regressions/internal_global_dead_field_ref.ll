; FIXED (was `dead-external-ref`): an internal mutable global used from two subgraphs was
; exported while compiling, so the optimiser no longer saw all its users: unsplit, the
; optimiser drops @global_hooks (nothing reads it once the dead load and the dead argument
; are gone), and with it `malloc`, `free` and `realloc` as undefined symbols; split
; (--split-cost 1), the owner kept it and the object gained `UND realloc` (and malloc,
; free). Fixed twice over: unread fields of local pointer tables are cleared before the
; split (compiler/backend/deadfields.py: here `malloc` and `realloc`, field 1 is loaded),
; and a local variable no piece references any more is dropped at the MC link
; (compiler/backend/mclink.py, drop_unreferenced_data), as GlobalDCE does unsplit.
; Found by `ember fuzz --strategy corpus --seed 1` (a cJSON slice) after 52 programs;
; reduced with `ember reduce FINDING` from 2,931 to 26 lines in 22 s.
; Reproduce: ember build X -O2 --split none -o a.o; ember build X -O2 --split two-level
;            -j 1 --split-cost 1 -o b.o; ember symdiff a.o b.o   (must agree)

%struct.internal_hooks.421.461.496 = type { ptr, ptr, ptr }

@global_hooks = internal global %struct.internal_hooks.421.461.496 { ptr @malloc, ptr @free, ptr @realloc }, align 8

; Function Attrs: alwaysinline
define dso_local ptr @cJSON_free(ptr noundef %0) {
  %2 = load ptr, ptr getelementptr inbounds (%struct.internal_hooks.421.461.496, ptr @global_hooks, i32 0, i32 1), align 8
  ret ptr null
}

define internal i32 @add_item_to_object(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4) {
  ret i32 0
}

define dso_local ptr @cJSON_AddObjectToObject(ptr noundef %0, ptr noundef %1) {
  %3 = call i32 @add_item_to_object(ptr noundef null, ptr noundef null, ptr noundef null, ptr noundef @global_hooks, i32 noundef 0)
  ret ptr null
}

; Function Attrs: nounwind allocsize(0)
declare noalias ptr @malloc(i64 noundef) #1

; Function Attrs: nounwind
declare void @free(ptr noundef) #2

; Function Attrs: nounwind allocsize(1)
declare ptr @realloc(ptr noundef, i64 noundef) #3

attributes #1 = { nounwind allocsize(0) "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nounwind allocsize(1) "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.ident = !{!0}
!llvm.module.flags = !{!1, !2, !3, !4}

!0 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{i32 1, !"uwtable", i32 1}

define i32 @main() {
  ret i32 0
}
