; hazard for carrying IPSCCP's facts to before the split: @cb's address is taken only in a
; block IPSCCP proves dead (@gate is never set). Serially IPSCCP still sees @cb address-taken
; (the dead block is erased by IPSCCP itself, after solving), so @cb counts as executable and
; its call @helper(false) keeps @helper's %flag unknown: `UND ext_b` stays. A pre-split step
; that deletes the dead block hands the subgraph's IPSCCP an @cb nobody references: @helper is
; called with true only, `ext_b` folds away, and the split object lacks `UND ext_b`.
@gate = internal global i8 0, align 1

declare void @ext_a()
declare void @ext_b()
declare void @register_cb(ptr)

define internal void @helper(i1 %flag) noinline {
entry:
  br i1 %flag, label %a, label %b
a:
  call void @ext_a()
  ret void
b:
  call void @ext_b()
  ret void
}

define internal void @cb() noinline {
  call void @helper(i1 false)
  ret void
}

define void @entry1() {
  call void @helper(i1 true)
  ret void
}

define void @entry2() {
entry:
  %g = load i8, ptr @gate, align 1
  %c = icmp ne i8 %g, 0
  br i1 %c, label %dead, label %ok
dead:
  call void @register_cb(ptr @cb)
  ret void
ok:
  ret void
}
