; FIXED: a local table of function pointers whose name LLVM's IR printer quotes (`$`:
; `@"hooks.a$b"`). The split back end's whole-module step that clears the fields nobody reads
; (compiler/backend/deadfields.py) read the module text for `ptr @name` and did not see the
; quoted loads, cleared every field to null, and the split program called null (SIGSEGV;
; --split none runs). Fixed by giving such names plain synthetic spellings while split
; (compiler/backend/names.py: any name the IR printer or the assembler quotes).
; Found by `ember fuzz --max-seconds 60 --seed 1` (the identifier dimension of the call-graph
; strategy: the dead-field hooks table under a long name holding `$`); written by hand from
; the finding's 172-line module.
; Reproduce: ember run X -O2 --split none; ember run X -O2 --split subgraph --split-cost 1
declare ptr @malloc(i64)
declare void @free(ptr)
declare ptr @realloc(ptr, i64)
declare i32 @printf(ptr, ...)

@"hooks.a$b" = internal global { ptr, ptr, ptr } { ptr @malloc, ptr @free, ptr @realloc }, align 8
@fmt = private constant [4 x i8] c"ok\0A\00"

define ptr @get(i64 %n) noinline {
  %m = load ptr, ptr @"hooks.a$b", align 8
  %p = call ptr %m(i64 %n)
  ret ptr %p
}

define i32 @main() {
  %p = call ptr @get(i64 16)
  %fp = getelementptr inbounds { ptr, ptr, ptr }, ptr @"hooks.a$b", i32 0, i32 1
  %f = load ptr, ptr %fp, align 8
  call void %f(ptr %p)
  call i32 (ptr, ...) @printf(ptr @fmt)
  ret i32 0
}
