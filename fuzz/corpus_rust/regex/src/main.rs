//! Ember corpus driver over the `regex` crate (with aho-corasick, memchr, regex-syntax).
//!
//! `dna [FILE]`: the regex-dna benchmark (the crate's own example) on FILE or stdin.
//! `grep PATTERN...`: each pattern over the lines of stdin: matches, captures, a replacement.
//! `set`: RegexSet, split, bytes regexes, Unicode classes and case folding over stdin.
//! `bad`: the parser's error messages for broken patterns.
//! Every output is deterministic (no hash order, no addresses).

use std::collections::BTreeMap;
use std::io::{self, Read, Write};

use regex::bytes;
use regex::{Regex, RegexBuilder, RegexSet};

fn stdin_text() -> String {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).expect("stdin is UTF-8");
    text
}

fn dna(path: Option<&String>, out: &mut impl Write) {
    let mut seq = match path {
        Some(p) => std::fs::read_to_string(p).unwrap_or_else(|e| {
            eprintln!("{p}: {e}");
            std::process::exit(1)
        }),
        None => stdin_text(),
    };
    let ilen = seq.len();
    seq = Regex::new(">[^\n]*\n|\n").unwrap().replace_all(&seq, "").into_owned();
    let clen = seq.len();
    let variants = [
        "agggtaaa|tttaccct",
        "[cgt]gggtaaa|tttaccc[acg]",
        "a[act]ggtaaa|tttacc[agt]t",
        "ag[act]gtaaa|tttac[agt]ct",
        "agg[act]taaa|ttta[agt]cct",
        "aggg[acg]aaa|ttt[cgt]ccct",
        "agggt[cgt]aa|tt[acg]accct",
        "agggta[cgt]a|t[acg]taccct",
        "agggtaa[cgt]|[acg]ttaccct",
    ];
    for v in variants {
        let re = Regex::new(v).unwrap();
        writeln!(out, "{} {}", re, re.find_iter(&seq).count()).unwrap();
    }
    let substs = [
        ("B", "(c|g|t)"), ("D", "(a|g|t)"), ("H", "(a|c|t)"), ("K", "(g|t)"), ("M", "(a|c)"),
        ("N", "(a|c|g|t)"), ("R", "(a|g)"), ("S", "(c|g)"), ("V", "(a|c|g)"), ("W", "(a|t)"), ("Y", "(c|t)"),
    ];
    for (pat, rep) in substs {
        seq = Regex::new(pat).unwrap().replace_all(&seq, rep).into_owned();
    }
    writeln!(out, "\n{}\n{}\n{}", ilen, clen, seq.len()).unwrap();
}

fn grep(patterns: &[String], out: &mut impl Write) {
    let text = stdin_text();
    for pat in patterns {
        let re = match Regex::new(pat) {
            Ok(re) => re,
            Err(e) => {
                writeln!(out, "{pat}: error: {e}").unwrap();
                continue;
            }
        };
        let mut lines = 0usize;
        let mut matches = 0usize;
        let mut spans = 0usize;
        let mut groups: BTreeMap<String, usize> = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            let mut hit = false;
            for caps in re.captures_iter(line) {
                hit = true;
                matches += 1;
                let m = caps.get(0).unwrap();
                spans += m.end() - m.start();
                for (i, name) in re.capture_names().enumerate().skip(1) {
                    if let Some(g) = caps.get(i) {
                        let key = format!("{}={}", name.map(str::to_owned).unwrap_or(i.to_string()), g.as_str());
                        *groups.entry(key).or_default() += 1;
                    }
                }
                if matches <= 3 {
                    writeln!(out, "  {}:{}..{} {:?}", n + 1, m.start(), m.end(), m.as_str()).unwrap();
                }
            }
            lines += hit as usize;
        }
        writeln!(out, "{pat}: {lines} lines, {matches} matches, {spans} bytes, {} groups", re.captures_len())
            .unwrap();
        for (k, v) in groups.iter().rev().take(5) {
            writeln!(out, "  group {k:?} x{v}").unwrap();
        }
        let first = text.lines().find(|l| re.is_match(l)).unwrap_or("");
        let replaced = re.replace_all(first, "<$0>");
        writeln!(out, "  replaced: {replaced:?}").unwrap();
    }
}

fn set(out: &mut impl Write) {
    let text = stdin_text();
    let pats = [r"\bember\b", r"(?i)SPLIT", r"0x[0-9a-f]+", r"\p{Greek}+", r"é", r"^\s*$", r"(?m)^lorem", r"\t"];
    let rs = RegexSet::new(pats).unwrap();
    let mut counts = vec![0usize; pats.len()];
    for line in text.lines() {
        for i in rs.matches(line).iter() {
            counts[i] += 1;
        }
    }
    writeln!(out, "set {:?}", counts).unwrap();
    let words = Regex::new(r"[\s,;]+").unwrap();
    let mut freq: BTreeMap<&str, usize> = BTreeMap::new();
    for w in words.split(&text).filter(|w| !w.is_empty()) {
        *freq.entry(w).or_default() += 1;
    }
    writeln!(out, "words {} distinct {}", freq.values().sum::<usize>(), freq.len()).unwrap();
    for (w, n) in freq.iter().take(12) {
        writeln!(out, "  {w:?} {n}").unwrap();
    }
    let ci = RegexBuilder::new(r"(?P<w>\w+)\s+(?P<n>o\w+)").case_insensitive(true).unicode(true).build().unwrap();
    let swapped = ci.replace_all(&text[..text.len().min(4000)], "$n $w");
    writeln!(out, "swapped {} {:?}", swapped.len(), &swapped[..swapped.len().min(80)]).unwrap();
    let b = bytes::Regex::new(r"(?-u)[\x80-\xff]+").unwrap();
    let high: usize = b.find_iter(text.as_bytes()).map(|m| m.end() - m.start()).sum();
    writeln!(out, "high bytes {high}").unwrap();
    let uni = Regex::new(r"[\p{L}&&\p{Ll}]{4,}|\d{2,}|[[:punct:]]").unwrap();
    writeln!(out, "unicode matches {}", uni.find_iter(&text).count()).unwrap();
    let anchored = Regex::new(r"(?s)\A(.{0,40}?)(worker|link)").unwrap();
    if let Some(c) = anchored.captures(&text) {
        writeln!(out, "anchored {:?} {:?}", &c[1], &c[2]).unwrap();
    }
    let lazy = Regex::new(r"s.*?k|s.+k").unwrap();
    writeln!(out, "lazy {:?}", lazy.find_iter("split symbol link sk").map(|m| m.as_str()).collect::<Vec<_>>())
        .unwrap();
}

fn bad(out: &mut impl Write) {
    for pat in [r"(unclosed", r"a{3,1}", r"\p{NoSuchClass}", r"[z-a]", r"(?P<n>a)(?P<n>b)", r"x**", "\\"] {
        match Regex::new(pat) {
            Ok(_) => writeln!(out, "{pat:?}: ok").unwrap(),
            Err(e) => writeln!(out, "{pat:?}:\n{e}").unwrap(),
        }
    }
    let big = RegexBuilder::new(r"\w{100}\w{100}").size_limit(1000).build();
    writeln!(out, "size limit: {}", big.is_err()).unwrap();
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match args.first().map(String::as_str) {
        Some("dna") => dna(args.get(1), &mut out),
        Some("grep") => grep(&args[1..], &mut out),
        Some("set") => set(&mut out),
        Some("bad") => bad(&mut out),
        _ => {
            eprintln!("usage: ember-regex dna [FILE]|grep PATTERN...|set|bad  (input on stdin)");
            std::process::exit(2);
        }
    }
}
