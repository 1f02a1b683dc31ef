"""Measure today's text path against in-memory cuts through libLLVM's C API, on one module.

usage: measure.py MODULE.bc OUT.json [phases]   (phases: comma list of text,clone,eager,lazy; default all)

Runs from /work/main's source tree (read only); writes nothing there.
"""

from __future__ import annotations

import ctypes
import json
import re
import sys
import time
from ctypes import byref, c_char_p, c_int, c_size_t, c_void_p

sys.path.insert(0, "/work/main")

from compiler.backend import engine, irmodel, llvm_stage, names, planner  # noqa: E402
from compiler.backend.split import BackendConfig  # noqa: E402

REPS = 2
import os  # noqa: E402
CAPI_CUT = os.environ.get("CUT") == "capi"
APPENDING, EXTERNAL, HIDDEN = 6, 0, 1
LOCAL = {engine.INTERNAL, engine.PRIVATE}

lib = engine.capi()
vp = c_void_p
for name, res, args in (
    ("LLVMCloneModule", vp, (vp,)),
    ("LLVMGetVisibility", c_int, (vp,)),
    ("LLVMSetVisibility", None, (vp, c_int)),
    ("LLVMGetBitcodeModuleInContext2", c_int, (vp, vp, ctypes.POINTER(vp))),
    ("LLVMParseBitcodeInContext2", c_int, (vp, vp, ctypes.POINTER(vp))),
    ("LLVMGetComdat", vp, (vp,)),
):
    engine._declare(lib, name, res, *args)
# C++ entry points the dylib exports (no C API for them)
_delete_body_impl = lib._ZN4llvm8Function14deleteBodyImplEb  # Function::deleteBody() = deleteBodyImpl(false) + external
_delete_body_impl.restype, _delete_body_impl.argtypes = None, [vp, ctypes.c_bool]
_remove_dead_constant_users = lib._ZNK4llvm8Constant23removeDeadConstantUsersEv
_remove_dead_constant_users.restype, _remove_dead_constant_users.argtypes = None, [vp]
_materialize_all = lib._ZN4llvm6Module14materializeAllEv  # llvm::Error (sret), Module* this
_materialize_all.restype, _materialize_all.argtypes = vp, [vp, vp]


OPTIONS = lib.LLVMCreatePassBuilderOptions()


def cpu(fn, reps=REPS):
    """Best CPU seconds of `reps` runs of fn() (returns (seconds, last result)); fn must be repeatable."""
    best, out = None, None
    for _ in range(reps):
        t = time.process_time()
        out = fn()
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    return best, out


def vname(ref: int) -> str:
    return engine.Value(ref).name


def walk(first, step, m):
    v = first(m)
    while v:
        yield v
        v = step(v)


def functions(m):
    return list(walk(lib.LLVMGetFirstFunction, lib.LLVMGetNextFunction, m))


def variables(m):
    return list(walk(lib.LLVMGetFirstGlobal, lib.LLVMGetNextGlobal, m))


def apply_spec(v: int, spec: tuple[int, int, str]) -> None:
    linkage, vis, new_name = spec
    if lib.LLVMGetLinkage(v) != linkage:
        if linkage == engine.AVAILABLE_EXTERNALLY:
            lib.LLVMSetComdat(v, None)
        lib.LLVMSetLinkage(v, linkage)
    if lib.LLVMGetVisibility(v) != vis and linkage not in LOCAL:
        lib.LLVMSetVisibility(v, vis)
    if new_name:
        data = new_name.encode()
        lib.LLVMSetValueName2(v, data, len(data))


def cut_bodies(m: int, keep: dict[str, tuple[int, int, str]], stats: dict) -> None:
    """Keep the definitions in `keep` (with the linkage/visibility/name the plan gave them);
    every other function loses its body, every other variable its initialiser (appending
    variables not kept are erased)."""
    erase, later, deferred = [], [], []
    for f in functions(m):
        if lib.LLVMIsDeclaration(f):
            continue
        spec = keep.get(vname(f))
        if spec is None:
            local = lib.LLVMGetLinkage(f) in LOCAL
            lib.LLVMSetComdat(f, None)
            if CAPI_CUT:
                lib.LLVMSetLinkage(f, engine.AVAILABLE_EXTERNALLY)  # elim-avail-extern drops the body below
                deferred.append(f)
            else:
                _delete_body_impl(f, False)  # Function::deleteBody(): blocks and metadata dropped
                lib.LLVMSetLinkage(f, EXTERNAL)
            if local:
                lib.LLVMSetVisibility(f, HIDDEN)
            stats["bodies_deleted"] += 1
        else:
            later.append((f, spec))
            stats["kept"] += 1
    for g in variables(m):
        if lib.LLVMIsDeclaration(g):
            continue
        spec = keep.get(vname(g))
        if spec is None:
            linkage = lib.LLVMGetLinkage(g)
            if linkage == APPENDING:
                erase.append(g)
                continue
            lib.LLVMSetComdat(g, None)
            if CAPI_CUT:
                lib.LLVMSetLinkage(g, engine.AVAILABLE_EXTERNALLY)
            else:
                lib.LLVMSetInitializer(g, None)
                lib.LLVMSetLinkage(g, EXTERNAL)
            if linkage in LOCAL:
                lib.LLVMSetVisibility(g, HIDDEN)
            stats["inits_dropped"] += 1
        else:
            later.append((g, spec))
            stats["kept"] += 1
    if CAPI_CUT:  # pure C API: LLVM's elim-avail-extern turns them into declarations
        # a kept available_externally definition (a plan import, or one the input had:
        # glibc's gnu_inline getc_unlocked) must not be one while the pass runs
        for v, spec in later:
            if lib.LLVMGetLinkage(v) == engine.AVAILABLE_EXTERNALLY:
                lib.LLVMSetLinkage(v, EXTERNAL)
        error = lib.LLVMRunPasses(m, b"elim-avail-extern", None, OPTIONS)
        if error:
            raise SystemExit(engine._message(lib, lib.LLVMGetErrorMessage(error), "LLVMDisposeErrorMessage"))
        for f in deferred:
            lib.LLVMSetLinkage(f, EXTERNAL)
    for v, spec in later:  # kept definitions: the plan's linkage (imports are available_externally)
        apply_spec(v, spec)
    for g in erase:
        lib.LLVMDeleteGlobal(g)
        stats["appending_erased"] += 1


def prune(m: int, stats: dict) -> None:
    """Erase declarations nothing uses (dead constant expressions dropped first, as GlobalDCE does)."""
    for f in functions(m):
        if lib.LLVMIsDeclaration(f):
            _remove_dead_constant_users(f)
            if not lib.LLVMGetFirstUse(f):
                lib.LLVMDeleteFunction(f)
                stats["decls_erased"] += 1
    for g in variables(m):
        if lib.LLVMIsDeclaration(g):
            _remove_dead_constant_users(g)
            if not lib.LLVMGetFirstUse(g):
                lib.LLVMDeleteGlobal(g)
                stats["decls_erased"] += 1


def census(m: int) -> dict:
    fs, gs = functions(m), variables(m)
    return {
        "fn_defs": sum(1 for f in fs if not lib.LLVMIsDeclaration(f)),
        "fn_decls": sum(1 for f in fs if lib.LLVMIsDeclaration(f)),
        "var_defs": sum(1 for g in gs if not lib.LLVMIsDeclaration(g)),
        "var_decls": sum(1 for g in gs if lib.LLVMIsDeclaration(g)),
    }


def new_stats() -> dict:
    return {"bodies_deleted": 0, "inits_dropped": 0, "kept": 0, "appending_erased": 0, "decls_erased": 0}


def verify_ref(m: int) -> str:
    msg = c_void_p()
    broken = lib.LLVMVerifyModule(m, 2, byref(msg))
    report = engine._message(lib, msg.value)
    return "" if not broken else (report.strip()[:600] or "broken")


def main() -> None:
    path, out_path = sys.argv[1], sys.argv[2]
    phases = set((sys.argv[3] if len(sys.argv) > 3 else "text,clone,eager,lazy").split(","))
    res: dict = {"module": path, "reps": REPS}

    def save():
        with open(out_path, "w") as fh:
            json.dump(res, fh, indent=1)

    data = open(path, "rb").read()
    res["bitcode_bytes"] = len(data)
    target = llvm_stage.native_target(None, 2)

    # ---------------- today's driver stages
    def parse_whole():
        mod = engine.Module(data, path)
        return mod

    t, mod = cpu(lambda: parse_whole(), 1)
    mod.close()
    t2, mod = cpu(lambda: parse_whole(), 1)
    res["driver_parse_bc"] = min(t, t2)
    mod.prepare(target, force_triple=False)
    res["census_whole"] = census(mod.ref)
    t, spellings = cpu(lambda: names.canonicalise(mod), 1)
    res["driver_canonicalise"] = t
    t, text = cpu(lambda: mod.text())
    res["driver_text"] = t
    res["text_bytes"] = len(text.encode())
    config = BackendConfig(opt_level=2)
    policy = planner.PlanPolicy(
        target_cost=planner.TARGET_SUBGRAPH_COST,
        import_cost=planner.IMPORT_COST,
        import_always_inline=True,
        inline_level=config.opt_level,
        serial_argument_facts=True,
        serial_alias_facts=True,
    )
    t, _ = cpu(lambda: irmodel.parse_module(text))
    res["driver_irmodel_parse"] = t
    t, the_plan = cpu(lambda: planner.plan(text, policy=policy, strip_debug=False))
    res["driver_plan"] = t
    sgs = the_plan.subgraphs
    res["subgraphs"] = len(sgs)
    res["subgraph_text_bytes"] = sum(len(sg.text.encode()) for sg in sgs)
    res["per_subgraph"] = [{"k": sg.index, "text_bytes": len(sg.text.encode())} for sg in sgs]
    save()
    print(f"{path}: plan {len(sgs)} subgraphs, {res['subgraph_text_bytes']} bytes", flush=True)

    # ---------------- workers' parse of the texts, and each subgraph's definitions
    whole_names = {vname(v) for v in functions(mod.ref) + variables(mod.ref) if not lib.LLVMIsDeclaration(v)}
    keeps = []
    total = 0.0
    for sg, row in zip(sgs, res["per_subgraph"]):
        best = None
        for _ in range(REPS):
            t0 = time.process_time()
            sm = engine.Module(sg.text, f"<subgraph {sg.index}>")
            dt = time.process_time() - t0
            best = dt if best is None else min(best, dt)
            if _ < REPS - 1:
                sm.close()
        row["text_worker_parse"] = best
        total += best
        row["text_census"] = census(sm.ref)
        keep, unmatched = {}, []
        for v in sm.definitions():
            n = v.name
            orig = n.split(planner.COPY_SUFFIX, 1)[0] if planner.COPY_SUFFIX in n else n
            if orig in whole_names:
                keep[orig] = (v.linkage, lib.LLVMGetVisibility(v.ref), n if orig != n else "")
            else:
                unmatched.append(n)
        row["unmatched_defs"] = unmatched[:10]
        row["unmatched_count"] = len(unmatched)
        sm.close()
        keeps.append(keep)
    res["text_worker_parse_total"] = total
    del text, the_plan
    save()
    print("text path done", flush=True)

    # ---------------- (a) clone + cut + write bitcode in the driver; worker parses the bitcode
    if "clone" in phases:
        tot_d, tot_w, tot_bytes, broken = 0.0, 0.0, 0, 0
        for keep, row in zip(keeps, res["per_subgraph"]):
            best_d = best_w = None
            for rep in range(REPS):
                stats = new_stats()
                t0 = time.process_time()
                clone = lib.LLVMCloneModule(mod.ref)
                t1 = time.process_time()
                cut_bodies(clone, keep, stats)
                t2 = time.process_time()
                prune(clone, stats)
                t3 = time.process_time()
                bc = engine._buffer_bytes(lib, lib.LLVMWriteBitcodeToMemoryBuffer(clone))
                t4 = time.process_time()
                lib.LLVMDisposeModule(clone)
                d = t4 - t0
                if best_d is None or d < best_d:
                    best_d = d
                    row["clone_parts"] = {"clone": t1 - t0, "cut": t2 - t1, "prune": t3 - t2, "write_bc": t4 - t3}
                t0 = time.process_time()
                wm = engine.Module(bc, "<clone piece>")
                w = time.process_time() - t0
                best_w = w if best_w is None else min(best_w, w)
                if rep == REPS - 1:
                    row["clone_census"] = census(wm.ref)
                    try:
                        wm.verify()
                        row["clone_verify"] = "ok"
                    except engine.EngineError as e:
                        row["clone_verify"] = str(e)[:600]
                        broken += 1
                    row["clone_stats"] = stats
                wm.close()
            row["clone_driver"], row["clone_worker_parse"], row["clone_bc_bytes"] = best_d, best_w, len(bc)
            tot_d += best_d
            tot_w += best_w
            tot_bytes += len(bc)
            save()
        res["clone_driver_total"], res["clone_worker_total"] = tot_d, tot_w
        res["clone_bc_bytes_total"], res["clone_broken"] = tot_bytes, broken
        save()
        print("clone done", flush=True)

    # ---------------- (b) whole bitcode once; each worker parses it (eager or lazy) and cuts
    t, whole_bc = cpu(lambda: mod.bitcode())
    res["whole_write_bc"] = t
    res["whole_bc_bytes"] = len(whole_bc)
    mod.close()
    save()

    if "eager" in phases:
        tot = 0.0
        for keep, row in zip(keeps, res["per_subgraph"]):
            best = None
            for rep in range(REPS):
                stats = new_stats()
                t0 = time.process_time()
                wm = engine.Module(whole_bc, "<whole>")
                t1 = time.process_time()
                cut_bodies(wm.ref, keep, stats)
                prune(wm.ref, stats)
                t2 = time.process_time()
                if best is None or t2 - t0 < best:
                    best = t2 - t0
                    row["eager_parts"] = {"parse": t1 - t0, "cut+prune": t2 - t1}
                if rep == REPS - 1:
                    row["eager_verify"] = verify_ref(wm.ref) or "ok"
                    row["eager_census"] = census(wm.ref)
                wm.close()
            row["eager_worker"] = best
            tot += best
            save()
        res["eager_worker_total"] = tot
        save()
        print("eager done", flush=True)

    if "lazy" in phases:
        tot = 0.0
        for keep, row in zip(keeps, res["per_subgraph"]):
            best = None
            for rep in range(REPS):
                stats = new_stats()
                t0 = time.process_time()
                ctx = lib.LLVMContextCreate()
                buf = lib.LLVMCreateMemoryBufferWithMemoryRangeCopy(whole_bc, len(whole_bc), b"<whole>")
                m = c_void_p()
                if lib.LLVMGetBitcodeModuleInContext2(ctx, buf, byref(m)):  # takes the buffer
                    raise SystemExit("lazy load failed")
                m = m.value
                t1 = time.process_time()
                cut_bodies(m, keep, stats)
                t2 = time.process_time()
                err = ctypes.c_uint64(0)
                _materialize_all(byref(err), m)
                if err.value & ~1:
                    raise SystemExit("materializeAll failed")
                t3 = time.process_time()
                prune(m, stats)
                t4 = time.process_time()
                if best is None or t4 - t0 < best:
                    best = t4 - t0
                    row["lazy_parts"] = {"lazy_load": t1 - t0, "cut": t2 - t1, "materialize": t3 - t2, "prune": t4 - t3}
                if rep == REPS - 1:
                    row["lazy_verify"] = verify_ref(m) or "ok"
                    row["lazy_census"] = census(m)
                    row["lazy_stats"] = stats
                lib.LLVMDisposeModule(m)
                lib.LLVMContextDispose(ctx)
            row["lazy_worker"] = best
            tot += best
            save()
        res["lazy_worker_total"] = tot
        save()
        print("lazy done", flush=True)


if __name__ == "__main__":
    main()
