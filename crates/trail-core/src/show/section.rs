//! The function, method or type that encloses a range of lines, found with tree-sitter (FR-5's
//! "AST-aware snippets", what `ck --full-section` gives). One grammar per cargo feature:
//! `section-rust`, `section-python`, `section-typescript`, `section-go` (`sections`: all four).
//! They are off by default: each grammar is C compiled at build time (docs/GUIDE.md, "Building", has
//! the cost). A language not built in, a file that does not parse, or a range nothing encloses
//! is a [`Fallback`] saying so, and the caller shows the range as asked.

use serde::Serialize;

/// The section found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Section {
    /// The grammar's name for it (`function_item`, `class_definition`, …).
    pub kind: String,
    /// Its name, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub start: u32,
    pub end: u32,
}

/// Why the range was not grown to a section.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fallback {
    #[error("no section parser for {path} (Rust, Python, TypeScript and Go have one)")]
    NoParser { path: String },
    #[error("this trail was built without the {lang} section parser (cargo feature {feature})")]
    NotBuilt {
        lang: &'static str,
        feature: &'static str,
    },
    #[error("the {lang} grammar did not load: {message}")]
    Grammar { lang: &'static str, message: String },
    #[error("lines {start}-{end} hold only whitespace")]
    Blank { start: u32, end: u32 },
    #[error("no function or type encloses lines {start}-{end}")]
    NothingEncloses { start: u32, end: u32 },
}

impl Fallback {
    /// A stable name for programs reading `--json`.
    pub fn kind(&self) -> &'static str {
        match self {
            Fallback::NoParser { .. } => "no-parser",
            Fallback::NotBuilt { .. } => "not-built",
            Fallback::Grammar { .. } => "grammar",
            Fallback::Blank { .. } => "blank",
            Fallback::NothingEncloses { .. } => "nothing-encloses",
        }
    }
}

/// `{"why": "not-built", "message": "…"}`.
impl Serialize for Fallback {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("why", self.kind())?;
        m.serialize_entry("message", &self.to_string())?;
        m.end()
    }
}

/// A language trail finds sections in: its name, its feature, and the node kinds that are
/// sections (the innermost one around the range wins).
struct Lang {
    name: &'static str,
    feature: &'static str,
    #[cfg_attr(
        not(feature = "tree-sitter"),
        allow(dead_code, reason = "read only with a grammar built in")
    )]
    kinds: &'static [&'static str],
    /// Kinds that are sections only at the top of the file (a `const` holding an arrow
    /// function is one; a `const` inside a function is a line of it).
    #[cfg_attr(
        not(feature = "tree-sitter"),
        allow(dead_code, reason = "read only with a grammar built in")
    )]
    top_only: &'static [&'static str],
}

const RUST: Lang = Lang {
    name: "Rust",
    feature: "section-rust",
    kinds: &[
        "function_item",
        "impl_item",
        "trait_item",
        "struct_item",
        "enum_item",
        "union_item",
        "mod_item",
        "macro_definition",
    ],
    top_only: &[],
};
const PYTHON: Lang = Lang {
    name: "Python",
    feature: "section-python",
    kinds: &["function_definition", "class_definition"],
    top_only: &[],
};
const TYPESCRIPT: Lang = Lang {
    name: "TypeScript",
    feature: "section-typescript",
    kinds: &[
        "function_declaration",
        "generator_function_declaration",
        "method_definition",
        "class_declaration",
        "abstract_class_declaration",
        "interface_declaration",
        "enum_declaration",
        "type_alias_declaration",
        "lexical_declaration",
    ],
    top_only: &["lexical_declaration"],
};
const GO: Lang = Lang {
    name: "Go",
    feature: "section-go",
    kinds: &[
        "function_declaration",
        "method_declaration",
        "type_declaration",
    ],
    top_only: &[],
};

/// The language of `path` by its extension, and whether it is TSX.
fn lang_of(path: &str) -> Option<(&'static Lang, bool)> {
    let ext = path.rsplit_once('.').map(|(_, e)| e)?;
    Some(match ext {
        "rs" => (&RUST, false),
        "py" | "pyi" => (&PYTHON, false),
        "ts" | "mts" | "cts" => (&TYPESCRIPT, false),
        "tsx" => (&TYPESCRIPT, true),
        "go" => (&GO, false),
        _ => return None,
    })
}

/// The innermost section of `text` (the file at `path`) enclosing lines `start..=end`.
pub fn enclosing(path: &str, text: &str, start: u32, end: u32) -> Result<Section, Fallback> {
    let Some((lang, tsx)) = lang_of(path) else {
        return Err(Fallback::NoParser {
            path: path.to_string(),
        });
    };
    let Some(grammar) = grammar(lang, tsx) else {
        return Err(Fallback::NotBuilt {
            lang: lang.name,
            feature: lang.feature,
        });
    };
    find(lang, grammar, text, start, end)
}

/// The languages this build finds sections in.
pub fn built_in() -> Vec<&'static str> {
    [&RUST, &PYTHON, &TYPESCRIPT, &GO]
        .into_iter()
        .filter(|l| grammar(l, false).is_some())
        .map(|l| l.name)
        .collect()
}

#[cfg(feature = "tree-sitter")]
type Grammar = tree_sitter::Language;

/// Without a grammar built in there is no value to hold.
#[cfg(not(feature = "tree-sitter"))]
type Grammar = std::convert::Infallible;

/// The grammar for `lang`, when its feature is on.
#[allow(
    unused_variables,
    reason = "`tsx` is read only with section-typescript"
)]
fn grammar(lang: &Lang, tsx: bool) -> Option<Grammar> {
    match lang.name {
        #[cfg(feature = "section-rust")]
        "Rust" => Some(tree_sitter_rust::LANGUAGE.into()),
        #[cfg(feature = "section-python")]
        "Python" => Some(tree_sitter_python::LANGUAGE.into()),
        #[cfg(feature = "section-typescript")]
        "TypeScript" if tsx => Some(tree_sitter_typescript::LANGUAGE_TSX.into()),
        #[cfg(feature = "section-typescript")]
        "TypeScript" => Some(tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()),
        #[cfg(feature = "section-go")]
        "Go" => Some(tree_sitter_go::LANGUAGE.into()),
        _ => None,
    }
}

#[cfg(not(feature = "tree-sitter"))]
fn find(_: &Lang, grammar: Grammar, _: &str, _: u32, _: u32) -> Result<Section, Fallback> {
    match grammar {}
}

#[cfg(feature = "tree-sitter")]
fn find(
    lang: &Lang,
    grammar: Grammar,
    text: &str,
    start: u32,
    end: u32,
) -> Result<Section, Fallback> {
    let grammar_error = |message: String| Fallback::Grammar {
        lang: lang.name,
        message,
    };
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&grammar)
        .map_err(|e| grammar_error(e.to_string()))?;
    // Only a cancelled or timed-out parse gives nothing; neither is set here.
    let tree = parser
        .parse(text, None)
        .ok_or_else(|| grammar_error("the parser gave up".into()))?;
    // The range's first and last non-blank bytes: whitespace alone would select the file.
    let (from, to) = byte_span(text, start, end).ok_or(Fallback::Blank { start, end })?;
    let nothing = Fallback::NothingEncloses { start, end };
    let mut node = tree
        .root_node()
        .descendant_for_byte_range(from, to)
        .ok_or(nothing.clone())?;
    loop {
        if is_section(lang, node) && node.start_byte() <= from && node.end_byte() >= to {
            return Ok(section_of(node, text));
        }
        node = node.parent().ok_or(nothing.clone())?;
    }
}

#[cfg(feature = "tree-sitter")]
fn is_section(lang: &Lang, node: tree_sitter::Node<'_>) -> bool {
    let kind = node.kind();
    if !lang.kinds.contains(&kind) {
        return false;
    }
    !lang.top_only.contains(&kind)
        || node
            .parent()
            .is_none_or(|p| matches!(p.kind(), "program" | "export_statement"))
}

/// A node as a section: a decorated Python definition starts at its first decorator.
#[cfg(feature = "tree-sitter")]
fn section_of(node: tree_sitter::Node<'_>, text: &str) -> Section {
    let name = node
        .child_by_field_name("name")
        .and_then(|n| n.utf8_text(text.as_bytes()).ok())
        .map(str::to_string);
    let outer = node
        .parent()
        .filter(|p| p.kind() == "decorated_definition")
        .unwrap_or(node);
    let row = |r: usize| u32::try_from(r + 1).unwrap_or(u32::MAX);
    Section {
        kind: node.kind().to_string(),
        name,
        start: row(outer.start_position().row),
        end: row(node.end_position().row),
    }
}

/// Byte offsets of the first and the end of the last non-whitespace characters of lines
/// `start..=end` (counted as [`str::lines`] counts them).
#[cfg_attr(
    not(feature = "tree-sitter"),
    allow(
        dead_code,
        reason = "read only with a grammar built in, and by its test"
    )
)]
fn byte_span(text: &str, start: u32, end: u32) -> Option<(usize, usize)> {
    let mut offset = 0;
    let (mut from, mut to) = (None, None);
    for (line, n) in text.split_inclusive('\n').zip(1u32..) {
        if (start..=end).contains(&n)
            && let Some(i) = line.find(|c: char| !c.is_whitespace())
        {
            from.get_or_insert(offset + i);
            to = Some(offset + line.trim_end().len());
        }
        offset += line.len();
    }
    Some((from?, to?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_language_falls_back_with_its_reason() {
        let e = enclosing("README.md", "# x\n", 1, 1).unwrap_err();
        assert_eq!(e.kind(), "no-parser");
        assert!(
            e.to_string().contains("no section parser for README.md"),
            "{e}"
        );
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json["why"], "no-parser");
    }

    #[test]
    fn the_span_is_the_range_s_non_blank_text() {
        assert_eq!(byte_span("a\n  bc \n\n", 2, 3), Some((4, 6)));
        assert_eq!(byte_span("a\n \n", 2, 2), None);
        assert_eq!(byte_span("a\r\nb\r\n", 1, 2), Some((0, 4)));
    }

    /// Every language reports what the build holds: a section, or `not-built`.
    #[test]
    fn a_language_not_built_in_says_which_feature_builds_it() {
        for (path, lang, feature) in [
            ("a.rs", "Rust", "section-rust"),
            ("a.py", "Python", "section-python"),
            ("a.tsx", "TypeScript", "section-typescript"),
            ("a.go", "Go", "section-go"),
        ] {
            let r = enclosing(path, "x\n", 1, 1);
            if built_in().contains(&lang) {
                assert!(!matches!(r, Err(Fallback::NotBuilt { .. })), "{path}");
            } else {
                assert_eq!(r, Err(Fallback::NotBuilt { lang, feature }), "{path}");
            }
        }
    }

    #[cfg(feature = "section-rust")]
    #[test]
    fn rust_gives_the_enclosing_function_then_the_impl() {
        let text = "struct S;\n\nimpl S {\n    /// doc\n    fn go(&self) -> u32 {\n        let x = 1;\n        x + 1\n    }\n}\n";
        let s = enclosing("src/s.rs", text, 6, 6).unwrap();
        assert_eq!(
            (s.kind.as_str(), s.name.as_deref(), s.start, s.end),
            ("function_item", Some("go"), 5, 8)
        );
        let s = enclosing("src/s.rs", text, 4, 6).unwrap();
        assert_eq!((s.kind.as_str(), s.start, s.end), ("impl_item", 3, 9));
        assert_eq!(
            enclosing("src/s.rs", text, 1, 3),
            Err(Fallback::NothingEncloses { start: 1, end: 3 })
        );
        assert_eq!(
            enclosing("src/s.rs", text, 2, 2),
            Err(Fallback::Blank { start: 2, end: 2 })
        );
        // Not Rust at all: tree-sitter recovers, and nothing encloses.
        assert!(enclosing("src/s.rs", "\u{0}}}{{ ((\n", 1, 1).is_err());
    }

    #[cfg(feature = "section-python")]
    #[test]
    fn python_gives_the_method_with_its_decorators() {
        let text = "class A:\n    def f(self):\n        return 1\n\n    @staticmethod\n    def g():\n        return 2\n";
        let s = enclosing("a.py", text, 7, 7).unwrap();
        assert_eq!(
            (s.kind.as_str(), s.name.as_deref(), s.start, s.end),
            ("function_definition", Some("g"), 5, 7)
        );
        let s = enclosing("a.py", text, 3, 6).unwrap();
        assert_eq!((s.name.as_deref(), s.start, s.end), (Some("A"), 1, 7));
    }

    #[cfg(feature = "section-typescript")]
    #[test]
    fn typescript_and_tsx_give_the_function() {
        let text = "export function validateToken(t: string): boolean {\n  const ok = t.length > 0;\n  return ok;\n}\n";
        let s = enclosing("src/auth/jwt.ts", text, 2, 2).unwrap();
        assert_eq!(
            (s.name.as_deref(), s.start, s.end),
            (Some("validateToken"), 1, 4)
        );
        let tsx = "function App() {\n  return <div>hi</div>;\n}\n";
        assert_eq!(enclosing("App.tsx", tsx, 2, 2).unwrap().end, 3);
        let arrow = "let n = 1;\nexport const add = (a: number) => {\n  const b = a + n;\n  return b;\n};\n";
        let s = enclosing("add.ts", arrow, 3, 3).unwrap();
        assert_eq!(
            (s.kind.as_str(), s.start, s.end),
            ("lexical_declaration", 2, 5)
        );
    }

    #[cfg(feature = "section-go")]
    #[test]
    fn go_gives_the_method() {
        let text = "package a\n\ntype T struct{}\n\nfunc (t T) Run() int {\n\treturn 1\n}\n";
        let s = enclosing("a.go", text, 6, 6).unwrap();
        assert_eq!(
            (s.kind.as_str(), s.name.as_deref(), s.start, s.end),
            ("method_declaration", Some("Run"), 5, 7)
        );
    }
}
