"""Where planner.plan's CPU goes: load_state (text -> IRModule, atoms...), the level-1 steps, emit_subgraphs (texts).
usage: plan_parts.py MODULE.bc ..."""
import json, sys, time
sys.path.insert(0, "/work/main")
from compiler.backend import engine, llvm_stage, names, planner

parts = {}
def timed(name, fn):
    def wrapper(*a, **k):
        t = time.process_time()
        try:
            return fn(*a, **k)
        finally:
            parts[name] = parts.get(name, 0.0) + time.process_time() - t
    return wrapper
planner.load_state = timed("load_state", planner.load_state)
planner._plan_level1 = timed("level1_steps", planner._plan_level1)
planner.emit_subgraphs = timed("emit_subgraphs", planner.emit_subgraphs)
out = {}
for path in sys.argv[1:]:
    with engine.Module(open(path, "rb").read(), path) as mod:
        mod.prepare(llvm_stage.native_target(None, 2), force_triple=False)
        names.canonicalise(mod)
        text = mod.text()
    policy = planner.PlanPolicy(target_cost=planner.TARGET_SUBGRAPH_COST, import_cost=planner.IMPORT_COST,
                                import_always_inline=True, inline_level=2, serial_argument_facts=True, serial_alias_facts=True)
    best = None
    for _ in range(2):
        parts.clear()
        t = time.process_time()
        planner.plan(text, policy=policy, strip_debug=False)
        total = time.process_time() - t
        if best is None or total < best[0]:
            best = (total, dict(parts))
    out[path] = {"plan_total": best[0], **best[1]}
    print(path, out[path], flush=True)
json.dump(out, open("/tmp/cutproto/plan_parts.json", "w"), indent=1)
