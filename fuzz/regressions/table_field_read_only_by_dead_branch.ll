; A local pointer table whose field is read only to decide a store to a field nothing reads
; (cJSON_InitHooks: `if (global_hooks.allocate == malloc && global_hooks.deallocate == free)
; global_hooks.reallocate = realloc;`). Serially GlobalOpt deletes the stores to the unread
; field, simplifycfg then deletes the empty branch with the loads that decided it, and the next
; field is unread too: no `free`, no `realloc`. Split builds kept `+ UND free`, `+ UND realloc`
; (the corpus slices of cJSON, ember fuzz --strategy corpus --seed 2, -O1..-O3), fixed by
; compiler/backend/deadfields.py (stores to unread fields deleted, `simplifycfg` on the function,
; the table looked at again). Written by hand from the finding's shape.
; Reproduce: ember build THIS -o s.o -O2 --split none; ember build THIS -o p.o -O2 --split subgraph
;   -j 1 --split-cost 1; nm s.o p.o | grep ' U '
%struct.hooks = type { ptr, ptr, ptr }
@global_hooks = internal global %struct.hooks { ptr @malloc, ptr @free, ptr @realloc }, align 8

define void @init_hooks(ptr %m) {
  store ptr %m, ptr @global_hooks, align 8
  store ptr @free, ptr getelementptr inbounds (%struct.hooks, ptr @global_hooks, i32 0, i32 1), align 8
  store ptr null, ptr getelementptr inbounds (%struct.hooks, ptr @global_hooks, i32 0, i32 2), align 8
  %a = load ptr, ptr @global_hooks, align 8
  %is_malloc = icmp eq ptr %a, @malloc
  br i1 %is_malloc, label %check_free, label %done

check_free:
  %d = load ptr, ptr getelementptr inbounds (%struct.hooks, ptr @global_hooks, i32 0, i32 1), align 8
  %is_free = icmp eq ptr %d, @free
  br i1 %is_free, label %set, label %done

set:
  store ptr @realloc, ptr getelementptr inbounds (%struct.hooks, ptr @global_hooks, i32 0, i32 2), align 8
  br label %done

done:
  ret void
}

define ptr @new_item(i64 %n) {
  %a = load ptr, ptr @global_hooks, align 8
  %p = call ptr %a(i64 %n)
  ret ptr %p
}

define i32 @main() {
  call void @init_hooks(ptr @malloc)
  %p = call ptr @new_item(i64 8)
  %z = icmp eq ptr %p, null
  %r = zext i1 %z to i32
  ret i32 %r
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare ptr @realloc(ptr, i64)
