"""The lazy worker cut with the kept definitions given by position (the bitcode keeps the
module's order of functions and variables) instead of by name: no name is read in the worker.
Compared side by side with measure.py's name-based lazy cut, best of 2.
usage: lazy_idx.py MODULE.bc OUT.json"""
import ctypes, json, sys, time
from ctypes import byref, c_void_p
sys.path.insert(0, "/tmp/cutproto")
import measure as M
from measure import engine, lib, planner, names, llvm_stage, EXTERNAL, HIDDEN, LOCAL, APPENDING

path, out = sys.argv[1], sys.argv[2]
mod = engine.Module(open(path, "rb").read(), path)
mod.prepare(llvm_stage.native_target(None, 2), force_triple=False)
names.canonicalise(mod)
text = mod.text()
policy = planner.PlanPolicy(target_cost=planner.TARGET_SUBGRAPH_COST, import_cost=planner.IMPORT_COST,
                            import_always_inline=True, inline_level=2, serial_argument_facts=True, serial_alias_facts=True)
the_plan = planner.plan(text, policy=policy, strip_debug=False)
fnames = [M.vname(f) for f in M.functions(mod.ref)]
vnames = [M.vname(g) for g in M.variables(mod.ref)]
bc = mod.bitcode(); mod.close()
jobs = []
for sg in the_plan.subgraphs:
    sm = engine.Module(sg.text)
    keep = {}
    for v in sm.definitions():
        n = v.name; o = n.split(planner.COPY_SUFFIX, 1)[0] if planner.COPY_SUFFIX in n else n
        keep[o] = (v.linkage, lib.LLVMGetVisibility(v.ref), n if o != n else "")
    sm.close()
    # what the driver would send: position -> spec, for functions and for variables
    jobs.append((keep, {i: keep[n] for i, n in enumerate(fnames) if n in keep}, {i: keep[n] for i, n in enumerate(vnames) if n in keep}))


def cut_by_position(m, kf, kv):
    erase, later = [], []
    f, i = lib.LLVMGetFirstFunction(m), 0
    while f:
        spec = kf.get(i)
        if spec is None:
            if not lib.LLVMIsDeclaration(f):
                local = lib.LLVMGetLinkage(f) in LOCAL
                lib.LLVMSetComdat(f, None)
                M._delete_body_impl(f, False)
                lib.LLVMSetLinkage(f, EXTERNAL)
                if local:
                    lib.LLVMSetVisibility(f, HIDDEN)
        else:
            later.append((f, spec))
        f, i = lib.LLVMGetNextFunction(f), i + 1
    g, i = lib.LLVMGetFirstGlobal(m), 0
    while g:
        spec = kv.get(i)
        if spec is None:
            if not lib.LLVMIsDeclaration(g):
                linkage = lib.LLVMGetLinkage(g)
                if linkage == APPENDING:
                    erase.append(g)
                else:
                    lib.LLVMSetInitializer(g, None); lib.LLVMSetComdat(g, None); lib.LLVMSetLinkage(g, EXTERNAL)
                    if linkage in LOCAL:
                        lib.LLVMSetVisibility(g, HIDDEN)
        else:
            later.append((g, spec))
        g, i = lib.LLVMGetNextGlobal(g), i + 1
    for v, spec in later:
        M.apply_spec(v, spec)
    for g in erase:
        lib.LLVMDeleteGlobal(g)


def run(variant, keep, kf, kv):
    t0 = time.process_time()
    ctx = lib.LLVMContextCreate()
    buf = lib.LLVMCreateMemoryBufferWithMemoryRangeCopy(bc, len(bc), b"w")
    m = c_void_p(); assert not lib.LLVMGetBitcodeModuleInContext2(ctx, buf, byref(m)); m = m.value
    if variant == "names":
        M.cut_bodies(m, keep, M.new_stats())
    else:
        cut_by_position(m, kf, kv)
    err = ctypes.c_uint64(0); M._materialize_all(byref(err), m); assert not err.value & ~1
    M.prune(m, M.new_stats())
    dt = time.process_time() - t0
    ok = M.verify_ref(m) or "ok"
    c = M.census(m)
    lib.LLVMDisposeModule(m); lib.LLVMContextDispose(ctx)
    return dt, ok, c

res = {"module": path, "subgraphs": len(jobs), "rows": []}
for keep, kf, kv in jobs:
    row = {}
    for variant in ("names", "positions"):
        best = None
        for _ in range(2):
            dt, ok, c = run(variant, keep, kf, kv)
            best = dt if best is None else min(best, dt)
        row[variant], row[variant + "_verify"], row[variant + "_census"] = best, ok, c
    res["rows"].append(row)
res["names_total"] = sum(r["names"] for r in res["rows"])
res["positions_total"] = sum(r["positions"] for r in res["rows"])
res["same_census"] = all(r["names_census"] == r["positions_census"] for r in res["rows"])
res["verify_failures"] = [r for r in res["rows"] if r["names_verify"] != "ok" or r["positions_verify"] != "ok"][:2]
json.dump(res, open(out, "w"), indent=1)
print({k: v for k, v in res.items() if k != "rows"})
