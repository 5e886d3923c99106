//! `trail-core`'s module graph kept free of circles (issue 23).
//!
//! Top-level modules imported each other in circles: a change to one rebuilt and re-tested the
//! rest, and no layer could be reasoned about alone. Issue 23 untied them; this test keeps
//! them untied. It reads every `crate::…` path in the crate's own code (comments and test
//! modules left out), finds the groups of modules that reach each other, and compares them with
//! [`KNOTS`]. A module that joins a knot, or a new knot, fails it; so does a module that left one
//! and is still listed, so that the list says what is true.

/// The circles as they are: none since 2026-11-29. The list stays so that a circle someone
/// must keep for a while is written down here, with its reason, rather than hidden.
const KNOTS: &[&[&str]] = &[];

mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// Each top-level module and the top-level modules its code names.
    fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
        let mut files: BTreeMap<String, Vec<std::path::PathBuf>> = BTreeMap::new();
        for entry in std::fs::read_dir(src).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                let mut all = Vec::new();
                walk(&path, &mut all);
                files.entry(name).or_default().extend(all);
            } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
                files.entry(name).or_default().push(path);
            }
        }
        let names: BTreeSet<String> = files.keys().cloned().collect();
        let mut edges = BTreeMap::new();
        for (module, paths) in &files {
            let mut out = BTreeSet::new();
            for p in paths {
                let text = std::fs::read_to_string(p).unwrap();
                for name in named(&code_of(&text)) {
                    if name != *module && names.contains(&name) {
                        out.insert(name);
                    }
                }
            }
            edges.insert(module.clone(), out);
        }
        edges
    }

    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }

    /// A file's code: its test module and comment lines left out (a doc link is no import).
    fn code_of(text: &str) -> String {
        let body = text.split("#[cfg(test)]").next().unwrap_or(text);
        body.lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The top-level module names after `crate::`, also inside `crate::{a, b::c}`.
    fn named(code: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for part in group.split(',') {
                    out.push(ident(part.trim_start()));
                }
            } else {
                out.push(ident(rest));
            }
        }
        out.retain(|n| !n.is_empty());
        out
    }

    fn ident(s: &str) -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect()
    }

    /// The groups of two or more modules that reach each other (Tarjan's algorithm).
    fn knots(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
        struct T<'e> {
            edges: &'e BTreeMap<String, BTreeSet<String>>,
            index: BTreeMap<&'e str, usize>,
            low: BTreeMap<&'e str, usize>,
            stack: Vec<&'e str>,
            on: BTreeSet<&'e str>,
            out: Vec<BTreeSet<String>>,
        }
        fn visit<'e>(t: &mut T<'e>, v: &'e str) {
            let i = t.index.len();
            t.index.insert(v, i);
            t.low.insert(v, i);
            t.stack.push(v);
            t.on.insert(v);
            for w in t.edges.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !t.index.contains_key(w) {
                    visit(t, w);
                    let lw = t.low[w];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if t.on.contains(w) {
                    let iw = t.index[w];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if t.low[v] == t.index[v] {
                let mut group = BTreeSet::new();
                while let Some(w) = t.stack.pop() {
                    t.on.remove(w);
                    group.insert(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    t.out.push(group);
                }
            }
        }
        let mut t = T {
            edges,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on: BTreeSet::new(),
            out: Vec::new(),
        };
        for v in edges.keys() {
            if !t.index.contains_key(v.as_str()) {
                visit(&mut t, v);
            }
        }
        t.out
    }

    #[test]
    fn no_module_joins_a_knot_and_no_new_knot_forms() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut found = knots(&graph(&src));
        found.sort();
        let mut known: Vec<BTreeSet<String>> = super::KNOTS
            .iter()
            .map(|k| k.iter().map(|s| (*s).to_string()).collect())
            .collect();
        known.sort();
        assert_eq!(
            found, known,
            "the module graph's circles changed: a new import made a module reach one that \
             reaches it back (move the code to the lower module, or pass what it needs in), or \
             a module left a circle (take it out of KNOTS in src/import_graph.rs)"
        );
    }

    #[test]
    fn a_circle_is_found_and_a_chain_is_not() {
        let mut e = BTreeMap::new();
        let set = |v: &[&str]| v.iter().map(|s| (*s).to_string()).collect::<BTreeSet<_>>();
        e.insert("a".to_string(), set(&["b"]));
        e.insert("b".to_string(), set(&["c"]));
        e.insert("c".to_string(), set(&["a"]));
        e.insert("d".to_string(), set(&["a"]));
        assert_eq!(knots(&e), vec![set(&["a", "b", "c"])]);
        assert_eq!(
            named("use crate::{gate::Verdict, ledger};\nlet x = crate::time::now();"),
            ["gate", "ledger", "time"]
        );
        assert!(
            code_of("/// [`crate::guard`]\nfn f() {}")
                .find("guard")
                .is_none()
        );
    }
}
