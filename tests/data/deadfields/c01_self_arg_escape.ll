; f is called directly with @t, but also receives its own address and calls itself
; indirectly with @o: its parameter does not always stand for @t.
@t = internal global { ptr, ptr } { ptr @a, ptr @b }
@o = internal global { ptr, ptr } zeroinitializer

define i32 @a() { ret i32 1 }
define i32 @b() { ret i32 2 }

define internal void @f(ptr %p, ptr %self, i1 %again) noinline {
  store ptr @b, ptr %p
  br i1 %again, label %more, label %done
more:
  call void %self(ptr @o, ptr %self, i1 false)
  br label %done
done:
  ret void
}

define void @g() noinline {
  call void @f(ptr @t, ptr @f, i1 true)
  ret void
}

define i32 @h() noinline {
  %q = load ptr, ptr @o
  %c = icmp eq ptr %q, @b
  %r = select i1 %c, i32 42, i32 7
  ret i32 %r
}

define i32 @main() {
  call void @g()
  %r = call i32 @h()
  ret i32 %r
}
