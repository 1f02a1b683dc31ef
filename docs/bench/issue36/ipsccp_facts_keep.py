"""Prototype (research only) of a pre-split step: run IPSCCP on a clone of the whole module and
carry back two of its results, in the form the serial pipeline leaves them after IPSCCP:
  - an edge it found infeasible: the conditional `br`'s condition (or the switch's) becomes the
    constant that takes the feasible edge, so SimplifyCFG deletes the dead side (no assume);
  - an internal variable it deleted (its lattice value was a constant: every executable store
    writes the initialiser): the stores are erased and the variable is marked `constant`.
usage: python ipsccp_facts.py IN OUT.bc"""
import ctypes, sys
from ctypes import c_void_p as vp, c_char_p as cp, c_size_t, c_uint, c_int, byref, POINTER
from compiler.backend import engine

lib = engine.capi()
for name, res, args in [
    ("LLVMCloneModule", vp, (vp,)), ("LLVMGetFirstFunction", vp, (vp,)), ("LLVMGetNextFunction", vp, (vp,)),
    ("LLVMGetFirstGlobal", vp, (vp,)), ("LLVMGetNextGlobal", vp, (vp,)),
    ("LLVMIsDeclaration", c_int, (vp,)), ("LLVMGetFirstBasicBlock", vp, (vp,)), ("LLVMGetNextBasicBlock", vp, (vp,)),
    ("LLVMBasicBlockAsValue", vp, (vp,)), ("LLVMGetBasicBlockName", cp, (vp,)), ("LLVMGetBasicBlockTerminator", vp, (vp,)),
    ("LLVMGetFirstInstruction", vp, (vp,)), ("LLVMGetNextInstruction", vp, (vp,)),
    ("LLVMGetInstructionOpcode", c_int, (vp,)), ("LLVMGetNumSuccessors", c_uint, (vp,)), ("LLVMGetSuccessor", vp, (vp, c_uint)),
    ("LLVMIsConditional", c_int, (vp,)), ("LLVMGetCondition", vp, (vp,)), ("LLVMSetCondition", None, (vp, vp)),
    ("LLVMSetOperand", None, (vp, c_uint, vp)), ("LLVMGetIntTypeWidth", c_uint, (vp,)),
    ("LLVMConstInt", vp, (vp, ctypes.c_ulonglong, c_int)), ("LLVMConstIntGetZExtValue", ctypes.c_ulonglong, (vp,)),
    ("LLVMWriteBitcodeToFile", c_int, (vp, cp)), ("LLVMSetGlobalConstant", None, (vp, c_int)),
    ("LLVMValueAsBasicBlock", vp, (vp,)), ("LLVMGetSwitchCaseValue", vp, (vp, c_uint)),
]:
    f = getattr(lib, name); f.restype = res; f.argtypes = list(args)
BR, SWITCH, UNREACHABLE, STORE = 2, 3, 7, 28
INTERNAL, PRIVATE = 8, 9

def chain(first, nxt, x):
    v = first(x)
    while v:
        yield v
        v = nxt(v)
functions = lambda m: chain(lib.LLVMGetFirstFunction, lib.LLVMGetNextFunction, m)
globals_ = lambda m: chain(lib.LLVMGetFirstGlobal, lib.LLVMGetNextGlobal, m)
blocks = lambda f: chain(lib.LLVMGetFirstBasicBlock, lib.LLVMGetNextBasicBlock, f)
insts = lambda b: chain(lib.LLVMGetFirstInstruction, lib.LLVMGetNextInstruction, b)
def name(v):
    n = c_size_t(); p = lib.LLVMGetValueName2(v, byref(n)); return ctypes.string_at(p, n.value).decode()
def bname(b):
    return (lib.LLVMGetBasicBlockName(b) or b"").decode()
def succs(t):
    return [lib.LLVMGetSuccessor(t, i) for i in range(lib.LLVMGetNumSuccessors(t))]

src, out = sys.argv[1], sys.argv[2]
mod = engine.Module(open(src, "rb").read(), src)
target = engine.Target.for_triple(mod.triple or engine.default_triple(), 2)
mod.prepare(target, force_triple=not mod.triple)
clone = lib.LLVMCloneModule(mod.ref)
for f in functions(clone):
    for j, b in enumerate(blocks(f)):
        nm = f"ember.b{j}".encode(); lib.LLVMSetValueName2(lib.LLVMBasicBlockAsValue(b), nm, len(nm))
before = {name(g) for g in globals_(clone) if lib.LLVMGetLinkage(g) in (INTERNAL, PRIVATE) and not lib.LLVMIsDeclaration(g)}
w = object.__new__(engine.Module); w._ref = clone; w._ctx = None
w.run_passes("ipsccp", target)
gone = before - {name(g) for g in globals_(clone)}
edges = {}  # function -> {block name: successor names} for functions whose entry IPSCCP reached
for f in functions(clone):
    if lib.LLVMIsDeclaration(f):
        continue
    entry = lib.LLVMGetFirstBasicBlock(f)
    if lib.LLVMGetInstructionOpcode(lib.LLVMGetBasicBlockTerminator(entry)) == UNREACHABLE and \
            lib.LLVMGetFirstInstruction(entry) == lib.LLVMGetBasicBlockTerminator(entry):
        continue  # IPSCCP found no executable call: left to GlobalDCE, as serially
    edges[name(f)] = {bname(b): {bname(s) for s in succs(lib.LLVMGetBasicBlockTerminator(b))} for b in blocks(f)}
lib.LLVMDisposeModule(clone)


# uses that decide what IPSCCP may track: a function is tracked when every use is a direct
# call of it, a variable when every use is a plain load or store of its own type. A use inside
# a block IPSCCP proves dead is still there when the serial IPSCCP decides, but gone (folded
# below) before the subgraph's: where that flips the decision, a keeper stands in for it
# until GlobalOpt, right after IPSCCP, deletes the keeper (it is linkonce_odr and unused).
CALL, INVOKE, LOAD = 45, 5, 27
dead_blocks = set()
for f in functions(mod.ref):
    e = edges.get(name(f))
    if lib.LLVMIsDeclaration(f) or e is None:
        continue
    for j, b in enumerate(blocks(f)):
        if f"ember.b{j}" not in e:
            dead_blocks.add(b)
def untrackable_uses(g, is_fn):
    """(an untrackable use in a dead block, an untrackable use anywhere else)"""
    in_dead = elsewhere = False
    u = lib.LLVMGetFirstUse(g)
    while u:
        user = lib.LLVMGetUser(u)
        ok = False
        if lib.LLVMGetValueKind(user) == 24:
            op = lib.LLVMGetInstructionOpcode(user)
            n = lib.LLVMGetNumOperands(user)
            if is_fn:
                ok = op in (CALL, INVOKE) and lib.LLVMGetOperand(user, n - 1) == g and \
                    all(lib.LLVMGetOperand(user, i) != g for i in range(n - 1))
            else:
                ok = (op == LOAD) or (op == STORE and lib.LLVMGetOperand(user, 0) != g)
            if not ok:
                if lib.LLVMGetInstructionParent(user) in dead_blocks:
                    in_dead = True
                else:
                    elsewhere = True
        else:
            elsewhere = True
        u = lib.LLVMGetNextUse(u)
    return in_dead, elsewhere
fragile = []
for g in list(functions(mod.ref)) + list(globals_(mod.ref)):
    if lib.LLVMGetLinkage(g) not in (INTERNAL, PRIVATE) or lib.LLVMIsDeclaration(g):
        continue
    in_dead, elsewhere = untrackable_uses(g, bool(lib.LLVMIsAFunction(g)))
    if in_dead and not elsewhere:
        fragile.append(g)
keepers = []
for n, g in enumerate(fragile):
    gname = name(g)
    q = '"' + gname + '"' if any(c not in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$" for c in gname) else gname
    keepers.append(f"define linkonce_odr hidden ptr @__ember_taken.{n}() {{\n  ret ptr @{q}\n}}")
print(f"{len(fragile)} values taken only in dead blocks:", [name(g)[:90] for g in fragile][:10])
touched, nbr, nsw = [], 0, 0
for f in functions(mod.ref):
    e = edges.get(name(f))
    if lib.LLVMIsDeclaration(f) or e is None:
        continue
    index = {b: f"ember.b{j}" for j, b in enumerate(blocks(f))}
    changed = False
    for b in blocks(f):
        kept = e.get(index[b])
        t = lib.LLVMGetBasicBlockTerminator(b)
        if kept is None or t is None:
            continue
        op = lib.LLVMGetInstructionOpcode(t)
        ss = [index[s] for s in succs(t)]
        if op == BR and lib.LLVMIsConditional(t) and ss[0] != ss[1]:
            live = [s in kept for s in ss]
            if live.count(True) == 1:
                cond = lib.LLVMGetCondition(t)
                lib.LLVMSetCondition(t, lib.LLVMConstInt(lib.LLVMTypeOf(cond), 1 if live[0] else 0, 0))
                nbr += 1; changed = True
        elif op == SWITCH:
            live = {s for s in ss if s in kept}
            if len(live) == 1 and len(set(ss)) > 1:
                (dest,) = live
                cond = lib.LLVMGetOperand(t, 0)
                ty = lib.LLVMTypeOf(cond)
                values = [lib.LLVMConstIntGetZExtValue(lib.LLVMGetSwitchCaseValue(t, k + 1)) for k in range(len(ss) - 1)]
                pick = None
                for k, s in enumerate(ss[1:]):
                    if s == dest:
                        pick = values[k]; break
                if pick is None:  # only the default: a value no case has
                    width = lib.LLVMGetIntTypeWidth(ty)
                    pick = next(v for v in range(len(values) + 1) if v not in values) if width > 1 else None
                if pick is not None:
                    lib.LLVMSetOperand(t, 0, lib.LLVMConstInt(ty, pick, 0))
                    nsw += 1; changed = True
    if changed:
        touched.append(f)
nst = 0
for g in globals_(mod.ref):
    if name(g) in gone:
        u = lib.LLVMGetFirstUse(g)
        stores = []
        while u:
            user = lib.LLVMGetUser(u)
            if lib.LLVMGetValueKind(user) == 24 and lib.LLVMGetInstructionOpcode(user) == STORE:
                stores.append(user)
            u = lib.LLVMGetNextUse(u)
        for s in stores:
            fn = lib.LLVMGetBasicBlockParent(lib.LLVMGetInstructionParent(s))
            lib.LLVMInstructionEraseFromParent(s); nst += 1
            if fn not in touched:
                touched.append(fn)
        lib.LLVMSetGlobalConstant(g, 1)
mod.run_function_passes(touched, "simplifycfg", target)
mod.verify()
text = mod.text() + "\n" + "\n".join(keepers) + "\n"
mod2 = engine.Module(text, "with keepers", verify=True)
lib.LLVMWriteBitcodeToFile(mod2.ref, out.encode())
print(f"{nbr} branches, {nsw} switches folded, {len(gone)} variables constant ({nst} stores), {len(touched)} functions touched")
print("constant:", sorted(gone)[:20])
