# RUN: %ember build %s --emit mlir -O0 -o - | %FileCheck %s
# Locals live in SSA form: loops and joins carry the variables they change as block
# arguments (no memref allocas). Short-circuit `and` and chained comparisons branch.

# CHECK-LABEL: func.func private @ember.count(%arg0: i64) -> i64
# CHECK-NOT: memref.alloca
# CHECK: cf.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %{{.*}} : i64, i64)
# CHECK: ^[[HEAD]](%[[I:.*]]: i64, %[[S:.*]]: i64):
# CHECK: %[[MORE:.*]] = arith.cmpi slt, %[[I]], %arg0 : i64
# CHECK: cf.cond_br %[[MORE]], ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]](%[[I]], %[[S]] : i64, i64)
# CHECK: ^[[EXIT]](%{{.*}}: i64, %[[S2:.*]]: i64):
# CHECK-NEXT: return %[[S2]] : i64
# CHECK: ^[[BODY]]:
# CHECK: cf.br ^[[HEAD]](
def count(n: Int) -> Int:
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s


# CHECK-LABEL: func.func private @ember.down(%arg0: i64) -> i64
# CHECK: %[[UP:.*]] = arith.cmpi sgt, %[[STEP:.*]], %{{.*}} : i64
# CHECK: arith.select %[[UP]]
# CHECK: cf.cond_br
# CHECK: arith.cmpi ugt
def down(n: Int) -> Int:
    t = 0
    for i in range(n, 0, -2):
        t += i
    return t


# CHECK-LABEL: func.func private @ember.both(%arg0: i64, %arg1: i64) -> i1
# CHECK: %[[A:.*]] = arith.cmpi ne, %arg1, %{{.*}} : i64
# CHECK: cf.cond_br %[[A]], ^[[RHS:bb[0-9]+]], ^[[JOIN:bb[0-9]+]](%[[A]] : i1)
# CHECK: ^[[JOIN]](%[[V:.*]]: i1):
# CHECK-NEXT: return %[[V]] : i1
# CHECK: ^[[RHS]]:
# CHECK: %[[CALL:.*]] = call @ember.floordiv_helper
# CHECK: %[[GT:.*]] = arith.cmpi sgt, %[[CALL]]
# CHECK: cf.br ^[[JOIN]](%[[GT]] : i1)
def both(a: Int, b: Int) -> Bool:
    return b != 0 and floordiv_helper(a, b) > 1


def floordiv_helper(a: Int, b: Int) -> Int:
    return a // b


# CHECK-LABEL: func.func private @ember.pick(%arg0: i64) -> i64
# CHECK: cf.cond_br %{{.*}}, ^[[T:bb[0-9]+]], ^[[E:bb[0-9]+]]
# CHECK: ^[[T]]:
# CHECK: ^[[E]]:
# CHECK: ^{{bb[0-9]+}}(%[[Y:.*]]: i64):
# CHECK-NEXT: cf.br ^[[J:bb[0-9]+]](%[[Y]] : i64)
# CHECK: ^[[J]](%[[X:.*]]: i64):
# CHECK-NEXT: return %[[X]] : i64
def pick(x: Int) -> Int:
    if x > 0:
        y = 1
    elif x < 0:
        y = -1
    else:
        y = 0
    return y
