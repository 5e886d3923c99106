//! `trail-core`'s module graph kept free of circles (issue 23).
//!
//! Top-level modules imported each other in circles: a change to one rebuilt and re-tested the
//! rest, and no layer could be reasoned about alone. Issue 23 untied them; this test keeps
//! them untied. It reads every `crate::…` path in the crate's own code (comments and test
//! modules left out), finds the groups of modules that reach each other, and compares them with
//! [`KNOTS`]. A module that joins a knot, or a new knot, fails it; so does a module that left one
//! and is still listed, so that the list says what is true.
//!
//! A second test reads ARCHITECTURE.md's "Layers of `trail-core`" table and fails on an import
//! that goes up a layer, on a module the table does not place, and on one it places twice: the
//! map and the code cannot drift apart. A third reads its "Crates" table and every crate's
//! `Cargo.toml`, and fails on a dependency between trail's crates that does not go down a row.
//! A fourth follows `trail-hook`'s dependencies through every `Cargo.toml` and `Cargo.lock`,
//! and fails when an argument parser, an HTTP client, TLS or an async runtime enters the code a
//! hook runs.

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

    /// ARCHITECTURE.md's "Layers of `trail-core`" table, bottom first: each layer's modules.
    fn layers(architecture: &str) -> Vec<BTreeSet<String>> {
        let section = architecture
            .split("### Layers of `trail-core`")
            .nth(1)
            .expect("ARCHITECTURE.md has a \"Layers of `trail-core`\" section");
        section
            .lines()
            .skip_while(|l| !l.starts_with("| layer |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|row| {
                let cells: Vec<&str> = row.split('|').collect();
                cells[2]
                    .split(',')
                    .map(|m| m.trim().trim_matches('`').to_string())
                    .filter(|m| !m.is_empty())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn every_import_goes_down_the_layers_architecture_md_draws() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let edges = graph(&root.join("src"));
        let text = std::fs::read_to_string(root.join("../../ARCHITECTURE.md")).unwrap();
        let layers = layers(&text);
        assert!(layers.len() >= 3, "the layer table is missing or empty");
        let mut layer_of = BTreeMap::new();
        for (i, layer) in layers.iter().enumerate() {
            for m in layer {
                assert!(
                    layer_of.insert(m.clone(), i).is_none(),
                    "`{m}` is listed twice in ARCHITECTURE.md's layer table"
                );
            }
        }
        let mut problems = Vec::new();
        for (module, imports) in &edges {
            let Some(&from) = layer_of.get(module) else {
                problems.push(format!(
                    "`{module}` is in no layer of ARCHITECTURE.md's table: add it where its imports put it"
                ));
                continue;
            };
            for target in imports {
                if let Some(&to) = layer_of.get(target)
                    && to > from
                {
                    problems.push(format!(
                        "`{module}` imports `{target}`, a layer above it: move what it needs down, or pass it in"
                    ));
                }
            }
        }
        for m in layer_of.keys() {
            if !edges.contains_key(m) {
                problems.push(format!("`{m}` is in the layer table but is no module"));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// ARCHITECTURE.md's "Crates" table, bottom first: each row's crates.
    fn crate_rows(architecture: &str) -> Vec<BTreeSet<String>> {
        let section = architecture
            .split("### Crates")
            .nth(1)
            .expect("ARCHITECTURE.md has a \"Crates\" section");
        layers(&format!("### Layers of `trail-core`{section}"))
    }

    /// The crate every crate's tests share; it sits below the floor, so it can name no trail crate.
    const TEST_SUPPORT: &str = "trail-testkit";

    /// The crates a `Cargo.toml` names under `[dependencies]` (not dev or build).
    fn dependencies(manifest: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut inside = false;
        for line in manifest.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                inside = line == "[dependencies]";
                continue;
            }
            let name = line.split(['=', '.', ' ']).next().unwrap_or("");
            if inside && !name.is_empty() && !line.starts_with('#') {
                out.insert(name.to_string());
            }
        }
        out
    }

    /// The `trail-*` crates a `Cargo.toml` names under `[dependencies]` (not dev or build).
    fn trail_dependencies(manifest: &str) -> BTreeSet<String> {
        dependencies(manifest)
            .into_iter()
            .filter(|name| name.starts_with("trail"))
            .collect()
    }

    /// Each package of `Cargo.lock` and the packages it depends on (every version of a name
    /// merged: the question asked is whether a name can be reached at all).
    fn locked(lock: &str) -> BTreeMap<String, BTreeSet<String>> {
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for block in lock.split("[[package]]").skip(1) {
            let Some(name) = block
                .lines()
                .find_map(|l| l.strip_prefix("name = "))
                .map(|n| n.trim_matches('"').to_string())
            else {
                continue;
            };
            let deps = block
                .split_once("dependencies = [")
                .map_or("", |(_, rest)| rest.split(']').next().unwrap_or(""));
            let entry = out.entry(name).or_default();
            for dep in deps.split(',') {
                let dep = dep.trim().trim_matches('"');
                if let Some(name) = dep.split(' ').next().filter(|n| !n.is_empty()) {
                    entry.insert(name.to_string());
                }
            }
        }
        out
    }

    /// Everything `root` can link: trail's crates through their `[dependencies]` (so that no
    /// crate's test-only dependency counts), every other crate through `Cargo.lock`.
    fn reachable(
        root: &str,
        manifests: &BTreeMap<String, String>,
        lock: &BTreeMap<String, BTreeSet<String>>,
    ) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![root.to_string()];
        while let Some(name) = todo.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            let next = match manifests.get(&name) {
                Some(manifest) => dependencies(manifest),
                None => lock.get(&name).cloned().unwrap_or_default(),
            };
            todo.extend(next);
        }
        seen
    }

    /// What the hook path must never link (issue 23): an argument parser, HTTP and TLS, an
    /// async runtime, the MCP SDK, a progress bar.
    const NOT_IN_A_HOOK: &[&str] = &[
        "clap",
        "clap_builder",
        "ureq",
        "rustls",
        "ring",
        "webpki-roots",
        "tokio",
        "rmcp",
        "hyper",
        "reqwest",
        "indicatif",
        "trail-llm",
        "trail-mcp",
    ];

    #[test]
    fn the_hook_path_links_no_parser_http_tls_or_runtime() {
        let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let lock = std::fs::read_to_string(crates.join("../Cargo.lock")).unwrap();
        let manifests: BTreeMap<String, String> = std::fs::read_dir(&crates)
            .unwrap()
            .filter_map(|e| {
                let dir = e.ok()?.path();
                let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
                Some((dir.file_name()?.to_string_lossy().into_owned(), manifest))
            })
            .collect();
        assert!(
            manifests.contains_key("trail-hook"),
            "crates/trail-hook is gone"
        );
        let linked = reachable("trail-hook", &manifests, &locked(&lock));
        assert!(linked.contains("trail-gate") && linked.contains("serde_json"));
        let found: Vec<&&str> = NOT_IN_A_HOOK
            .iter()
            .filter(|n| linked.contains(**n))
            .collect();
        assert!(
            found.is_empty(),
            "the hook path (trail-hook) now links {found:?}: keep what only a command needs in \
             crates/trail or a client crate"
        );
        // The check can fail: the binary above it links them.
        let binary = reachable("trail", &manifests, &locked(&lock));
        assert!(binary.contains("clap") && binary.contains("ureq"));
    }

    #[test]
    fn a_locked_package_lists_its_dependencies_by_name() {
        let lock = "version = 4\n\n[[package]]\nname = \"a\"\nversion = \"1.0.0\"\n\
                    dependencies = [\n \"b 2.0.0\",\n \"c\",\n]\n\n[[package]]\nname = \"c\"\n\
                    version = \"0.1.0\"\n";
        let got = locked(lock);
        let set = |v: &[&str]| v.iter().map(|s| (*s).to_string()).collect::<BTreeSet<_>>();
        assert_eq!(got["a"], set(&["b", "c"]));
        assert!(got["c"].is_empty());
    }

    #[test]
    fn every_crate_depends_only_on_crates_below_it() {
        let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let text = std::fs::read_to_string(crates.join("../ARCHITECTURE.md")).unwrap();
        let rows = crate_rows(&text);
        assert!(rows.len() >= 3, "the crates table is missing or empty");
        let row_of: BTreeMap<&str, usize> = rows
            .iter()
            .enumerate()
            .flat_map(|(i, r)| r.iter().map(move |c| (c.as_str(), i)))
            .collect();
        let mut problems = Vec::new();
        for entry in std::fs::read_dir(&crates).unwrap() {
            let dir = entry.unwrap().path();
            let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
                continue;
            };
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            let Some(&from) = row_of.get(name.as_str()) else {
                problems.push(format!(
                    "`{name}` is in no row of ARCHITECTURE.md's crates table"
                ));
                continue;
            };
            for dep in trail_dependencies(&manifest) {
                if dep == TEST_SUPPORT {
                    problems.push(format!(
                        "`{name}` names `{TEST_SUPPORT}` under [dependencies]: only \
                         [dev-dependencies] may, so that no test helper reaches a binary"
                    ));
                    continue;
                }
                match row_of.get(dep.as_str()) {
                    Some(&to) if to < from => {}
                    Some(_) => problems.push(format!(
                        "`{name}` depends on `{dep}`, which is not below it in the crates table"
                    )),
                    None => problems.push(format!(
                        "`{name}` depends on `{dep}`, which the crates table does not place"
                    )),
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn a_crates_dependencies_are_read_from_its_dependencies_section_only() {
        let manifest = "[package]\nname = \"trail-x\"\n\n[dependencies]\ntrail-base.workspace = true\n\
                        # trail-old.workspace = true\nserde.workspace = true\n\
                        trail-gate = { path = \"../trail-gate\" }\n\n[dev-dependencies]\n\
                        trail-core.workspace = true\n";
        let got: Vec<String> = trail_dependencies(manifest).into_iter().collect();
        assert_eq!(got, ["trail-base", "trail-gate"]);
    }

    #[test]
    fn the_layer_table_is_read_bottom_first() {
        let text = "### Layers of `trail-core`\n\nintro\n\n| layer | modules |\n|---|---|\n\
                    | base | `a`, `b` |\n| top | `c` |\n\nafter\n";
        let set = |v: &[&str]| v.iter().map(|s| (*s).to_string()).collect::<BTreeSet<_>>();
        assert_eq!(layers(text), vec![set(&["a", "b"]), set(&["c"])]);
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
