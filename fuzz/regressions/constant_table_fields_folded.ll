; FIXED (was `dead-external-ref`, its never-written variant): an internal table of pointers
; that nothing ever stores to, used from two subgraphs. Unsplit, GlobalOpt splits it per
; field, finds fields 0 and 1 never written and folds their loads to the constants `malloc`
; and `free`; the malloc/free pair of @a then folds away, and the object has no `UND
; malloc`, `UND free` (nor `UND realloc`: field 2 is never read). Split, the table was
; exported while compiling, so each subgraph loaded the pointers and called them
; indirectly: `+ UND malloc`, `+ UND free`. Fixed by the same whole-module fact computed
; before the split (compiler/backend/deadfields.py): loads of never-written fields become
; the constant they always read, unread fields are cleared.
; Shape: the `dead-field` swarm feature without its `init` writer (fuzz/strategies/linkage.py).
; Reproduce: ember build X -O2 --split none -o a.o; ember build X -O2 --split two-level
;            -j 1 --split-cost 1 -o b.o; ember symdiff a.o b.o   (must agree)

@hooks = internal global { ptr, ptr, ptr } { ptr @malloc, ptr @free, ptr @realloc }, align 8

define i64 @a(i64 %x) {
  %m = load ptr, ptr @hooks, align 8
  %p = call ptr %m(i64 16)
  store i64 %x, ptr %p, align 8
  %v = load i64, ptr %p, align 8
  %fp = getelementptr inbounds { ptr, ptr, ptr }, ptr @hooks, i32 0, i32 1
  %f = load ptr, ptr %fp, align 8
  call void %f(ptr %p)
  %r = mul i64 %v, 3
  ret i64 %r
}

define i64 @b(i64 %x) {
  %fp = getelementptr inbounds { ptr, ptr, ptr }, ptr @hooks, i32 0, i32 1
  %f = load ptr, ptr %fp, align 8
  call void %f(ptr null)
  %r = add i64 %x, 7
  ret i64 %r
}

define i32 @main() {
  %a = call i64 @a(i64 5)
  %b = call i64 @b(i64 %a)
  %t = trunc i64 %b to i32
  %r = and i32 %t, 0
  ret i32 %r
}

declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare ptr @realloc(ptr, i64)
