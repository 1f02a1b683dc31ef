//! Ember corpus driver over the `pulldown-cmark` crate (with bitflags, memchr, unicase).
//!
//! `html FILE...`: each CommonMark file (all extensions on) rendered to HTML on stdout.
//! `events FILE...`: the event stream summarised: counts per kind, the heading outline,
//! links (broken references resolved by a callback), code block languages, text statistics.
//! `-` reads stdin. Every output is deterministic (no hash order, no addresses).

use std::collections::BTreeMap;
use std::io::{self, Read, Write};

use pulldown_cmark::{html, BrokenLink, CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag};

fn read(path: &str) -> String {
    let mut text = String::new();
    if path == "-" {
        io::stdin().read_to_string(&mut text).expect("stdin is UTF-8");
    } else {
        text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(1)
        });
    }
    text
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_SMART_PUNCTUATION
        | Options::ENABLE_HEADING_ATTRIBUTES
}

fn kind(event: &Event) -> String {
    match event {
        Event::Start(tag) | Event::End(tag) => {
            let name = format!("{tag:?}");
            let short = name.split(['(', ' ', '{']).next().unwrap_or("").to_string();
            format!("{}{short}", if matches!(event, Event::Start(_)) { "+" } else { "-" })
        }
        other => format!("{other:?}").split('(').next().unwrap_or("").to_string(),
    }
}

fn events(text: &str, out: &mut impl Write) {
    let mut fix = |link: BrokenLink| -> Option<(CowStr, CowStr)> {
        let r = link.reference.to_lowercase();
        if r.starts_with("missing") { None } else { Some((format!("/ref/{r}").into(), r.to_uppercase().into())) }
    };
    let parser = Parser::new_with_broken_link_callback(text, options(), Some(&mut fix));
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<HeadingLevel> = None;
    let mut title = String::new();
    let (mut words, mut chars) = (0usize, 0usize);
    for (event, range) in parser.into_offset_iter() {
        *counts.entry(kind(&event)).or_default() += 1;
        match &event {
            Event::Start(Tag::Heading(level, id, classes)) => {
                heading = Some(*level);
                title.clear();
                if id.is_some() || !classes.is_empty() {
                    writeln!(out, "attrs {:?} {:?} at {:?}", id, classes, range).unwrap();
                }
            }
            Event::End(Tag::Heading(..)) => {
                let depth = heading.take().map(|l| l as usize).unwrap_or(1);
                writeln!(out, "{}{} ({}..{})", "  ".repeat(depth - 1), title, range.start, range.end).unwrap();
            }
            Event::Start(Tag::Link(kind, dest, t)) | Event::Start(Tag::Image(kind, dest, t)) => {
                writeln!(out, "link {kind:?} {dest:?} {t:?}").unwrap();
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(lang))) => {
                writeln!(out, "code {lang:?} at {}", range.start).unwrap();
            }
            Event::Text(t) | Event::Code(t) => {
                if heading.is_some() {
                    title.push_str(t);
                }
                words += t.split_whitespace().count();
                chars += t.chars().count();
            }
            Event::FootnoteReference(name) => writeln!(out, "footnote ref {name:?}").unwrap(),
            Event::TaskListMarker(done) => writeln!(out, "task {done}").unwrap(),
            _ => {}
        }
    }
    for (k, v) in &counts {
        writeln!(out, "{k} {v}").unwrap();
    }
    writeln!(out, "words {words} chars {chars}").unwrap();
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match args.first().map(String::as_str) {
        Some("html") => {
            for path in &args[1..] {
                let text = read(path);
                let mut page = String::with_capacity(text.len() * 3 / 2);
                html::push_html(&mut page, Parser::new_ext(&text, options()));
                writeln!(out, "<!-- {path}: {} bytes -> {} bytes -->", text.len(), page.len()).unwrap();
                out.write_all(page.as_bytes()).unwrap();
            }
        }
        Some("events") => {
            for path in &args[1..] {
                writeln!(out, "== {path}").unwrap();
                events(&read(path), &mut out);
            }
        }
        _ => {
            eprintln!("usage: ember-markdown html|events FILE...  (- for stdin)");
            std::process::exit(2);
        }
    }
}
