"""Summarise the measure.py JSON files as markdown tables."""
import json, os, sys
os.chdir("/tmp/cutproto")
mods = [("SQLite", "sqlite"), ("rust-regex", "rust"), ("Lua", "lua")]
def f(x): return "" if x is None else f"{x:.2f}"
print("| module | subgraphs | parse bc | canonicalise | module.text() | irmodel.parse_module | planner.plan | driver text stages (text+plan) | worker parse of texts | clone-cut driver | clone-cut worker parse | whole bc write (once) | eager parse+cut workers | lazy load+cut+materialize workers |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for label, key in mods:
    if not os.path.exists(f"{key}.json"): continue
    r = json.load(open(f"{key}.json"))
    drv = r["driver_text"] + r["driver_plan"]
    print(f"| {label} | {r['subgraphs']} | {f(r['driver_parse_bc'])} | {f(r['driver_canonicalise'])} | {f(r['driver_text'])} | {f(r['driver_irmodel_parse'])} | {f(r['driver_plan'])} | {f(drv)} | {f(r['text_worker_parse_total'])} | {f(r.get('clone_driver_total'))} | {f(r.get('clone_worker_total'))} | {f(r.get('whole_write_bc'))} | {f(r.get('eager_worker_total'))} | {f(r.get('lazy_worker_total'))} |")
print()
print("| module | whole text MB | subgraph texts MB | clone-cut bitcode MB | whole bitcode MB | clone verify broken | clone parts (clone/cut/prune/write, s summed) | lazy parts (load/cut/materialize/prune, s summed) | max per-subgraph: text parse / clone driver / lazy worker |")
print("|---|---:|---:|---:|---:|---:|---|---|---|")
for label, key in mods:
    if not os.path.exists(f"{key}.json"): continue
    r = json.load(open(f"{key}.json")); ps = r["per_subgraph"]
    def tot(part, k): return sum(p.get(part, {}).get(k, 0) for p in ps)
    cp = "/".join(f(tot("clone_parts", k)) for k in ("clone", "cut", "prune", "write_bc"))
    lp = "/".join(f(tot("lazy_parts", k)) for k in ("lazy_load", "cut", "materialize", "prune"))
    mx = " / ".join(f(max((p.get(k) or 0) for p in ps)) for k in ("text_worker_parse", "clone_driver", "lazy_worker"))
    print(f"| {label} | {r['text_bytes']/1e6:.1f} | {r['subgraph_text_bytes']/1e6:.1f} | {r.get('clone_bc_bytes_total',0)/1e6:.1f} | {r['whole_bc_bytes']/1e6:.1f} | {r.get('clone_broken')} | {cp} | {lp} | {mx} |")
print()
for label, key in mods:
    for suffix in ("", "-capi"):
        if not os.path.exists(f"{key}{suffix}.json"): continue
        r = json.load(open(f"{key}{suffix}.json")); ps = r["per_subgraph"]
        bad = [(p["k"], p.get(v)) for p in ps for v in ("clone_verify", "eager_verify", "lazy_verify") if p.get(v) not in (None, "ok")]
        decl_diff = [(p["k"], p["text_census"], p.get("clone_census")) for p in ps if p.get("clone_census") and
                     (p["text_census"]["fn_decls"], p["text_census"]["var_decls"]) != (p["clone_census"]["fn_decls"], p["clone_census"]["var_decls"])]
        unmatched = sum(p["unmatched_count"] for p in ps)
        ex = sorted({n.split(".")[0] for p in ps for n in p["unmatched_defs"]})
        print(f"{label}{suffix}: clone total driver {f(r.get('clone_driver_total'))} worker {f(r.get('clone_worker_total'))}; verify failures {len(bad)} {bad[:3]}; subgraphs whose declarations differ from the text's: {len(decl_diff)} {decl_diff[:2]}; plan-made definitions not reproduced: {unmatched} ({ex[:5]})")
