//! JIT retrieval (Lossless Ledger FR-5): the lines a lightweight identifier names,
//! `${PROJECT_ROOT}/path:45-67`, read when they are needed instead of kept in the context.
//!
//! An identifier is text an agent wrote, so it is hostile, and it is placed as a citation is
//! ([`crate::cite::resolve`]): under the project root, no `..` above it, no symlink leaving it,
//! the file opened without following links. It is then refused in a zone the gate protects
//! (the key, the secret store, `.trail/state/`, the hosts' settings: a project at `$HOME` has
//! them under its root), as `get` of the MCP server refuses it. Unlike `get`, hidden files are
//! shown: a citation may name `.github/workflows/ci.yml`, and `trail cite check` reads it too.
//!
//! Every line given back is redacted, with line numbers kept true: a private key across lines
//! becomes one reference followed by as many empty lines as it spanned.
//!
//! With `full_section`, the range grows to the function, method or type that encloses it
//! ([`section`], tree-sitter, for the languages built in); otherwise, or when nothing encloses
//! it, the range is shown as asked and the answer says why ([`section::Fallback`]).

pub mod section;

use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cite::PROJECT_ROOT;
use crate::cite::parse::{self, Malformed, Target, Written};
use crate::cite::resolve::{Landing, resolve};
use crate::fsutil;
use crate::search::retrieve::MAX_LINES;
use crate::secrets::{Found, Redactor};
use crate::zones::paths::Places;
use crate::zones::zones::real;

pub use section::{Fallback, Section};

/// What was retrieved: the JSON `trail show --json` prints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shown {
    /// `${PROJECT_ROOT}/path:START-END` of what is shown (the section's, when it grew).
    pub identifier: String,
    /// The path under the root, as the identifier named it.
    pub path: String,
    pub start: u32,
    pub end: u32,
    /// The range asked for.
    pub asked: Lines,
    /// How many lines the file has.
    pub total: usize,
    /// The section the range grew to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<Section>,
    /// Why the range did not grow, when a section was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Fallback>,
    /// The lines, redacted.
    pub lines: Vec<Line>,
    /// Lines of the range left out past [`MAX_LINES`].
    pub cut: usize,
    /// A secret could not be replaced line for line: the numbers after it are off.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub renumbered: bool,
    /// The names of the secrets replaced by references, each once.
    pub redacted: Vec<String>,
}

/// A range of lines, from 1, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Lines {
    pub start: u32,
    pub end: u32,
}

/// One line shown: its number in the file and its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    pub line: u32,
    pub text: String,
}

/// Why nothing could be shown.
#[derive(Debug, thiserror::Error)]
pub enum ShowError {
    #[error("`{text}` is not an identifier: {why}")]
    Malformed { text: String, why: Malformed },
    #[error("`{path}` is an absolute path outside the project root {}", root.display())]
    Absolute { path: String, root: PathBuf },
    #[error("{path} leads outside the project root")]
    OutsideRoot { path: String },
    #[error("{path} is in {what}, which is not shown")]
    Protected { path: String, what: &'static str },
    #[error("{path} does not exist in the project")]
    Missing { path: String },
    #[error("{path} is {what}, not a file")]
    NotAFile { path: String, what: &'static str },
    #[error("{path} is larger than {} MB, more than trail reads", max >> 20)]
    TooLarge { path: String, max: u64 },
    #[error("{path} is not text (a binary file)")]
    Binary { path: String },
    #[error("{path} {}; lines {start}-{end} are not all in it", lines_held(*.lines))]
    OutOfRange {
        path: String,
        lines: usize,
        start: u32,
        end: u32,
    },
    #[error("the project root {}: {source}", root.display())]
    Root { root: PathBuf, source: io::Error },
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: io::Error },
}

fn lines_held(n: usize) -> String {
    match n {
        0 => "is empty".into(),
        1 => "has 1 line".into(),
        n => format!("has {n} lines"),
    }
}

/// The lines `identifier` names under `places.project_root`, redacted by `redactor`.
///
/// `redactor` keeps nothing: what is shown quotes a project file that still holds whatever was
/// redacted, so the original has a home already, and a secret that reached a file trail did not
/// write is not trail's to copy into its store (as `trail search` snippets and the MCP server's
/// way out). The `redacted` names say what was hidden; the file at the line says what it was.
///
/// `places` gives the zones refused; its paths need not be canonical.
pub fn show(
    places: &Places,
    identifier: &str,
    full_section: bool,
    redactor: &Redactor,
) -> Result<Shown, ShowError> {
    let target = parse_identifier(identifier)?;
    let places = canonical(places)?;
    let (rel, path) = place(&places, &target)?;
    let text = read(&places.project_root, &path, &rel)?;
    let all: Vec<&str> = text.lines().collect();
    if target.end as usize > all.len() {
        return Err(ShowError::OutOfRange {
            path: rel,
            lines: all.len(),
            start: target.start,
            end: target.end,
        });
    }
    let asked = Lines {
        start: target.start,
        end: target.end,
    };
    let (range, section, fallback) = if full_section {
        match section::enclosing(&rel, &text, asked.start, asked.end) {
            Ok(s) => (
                Lines {
                    start: s.start,
                    end: s.end,
                },
                Some(s),
                None,
            ),
            Err(why) => (asked, None, Some(why)),
        }
    } else {
        (asked, None, None)
    };
    let last = range.end.min(range.start.saturating_add(MAX_LINES - 1));
    let raw = all[range.start as usize - 1..last as usize].join("\n");
    let (lines, redacted, renumbered) = redact_lines(redactor, &raw, range.start);
    Ok(Shown {
        identifier: identifier_of(&rel, range),
        path: rel,
        start: range.start,
        end: range.end,
        asked,
        total: all.len(),
        section,
        fallback,
        lines,
        cut: (range.end - last) as usize,
        renumbered,
        redacted,
    })
}

/// `${PROJECT_ROOT}/path:START-END` (or `:LINE`).
pub fn identifier_of(path: &str, r: Lines) -> String {
    if r.start == r.end {
        format!("{PROJECT_ROOT}/{path}:{}", r.start)
    } else {
        format!("{PROJECT_ROOT}/{path}:{}-{}", r.start, r.end)
    }
}

/// The target an identifier names: `${PROJECT_ROOT}/path:LINE[-END]`, in brackets or not, or a
/// whole citation with its quote as NOTES.md writes it (`` `fn a` [${PROJECT_ROOT}/a.rs:3] ``).
/// A path without the prefix is taken from the root, as a person types it.
fn parse_identifier(identifier: &str) -> Result<Target, ShowError> {
    let text = identifier.trim();
    let malformed = |why| ShowError::Malformed {
        text: text.to_string(),
        why,
    };
    if text.contains('[')
        && let Some(found) = parse::find(text).into_iter().next()
    {
        return found.target.map_err(malformed);
    }
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or(text);
    parse::parse_target(inner).map_err(malformed)
}

/// `places` with every path canonical, as [`resolve`] and [`Places::zone`] compare them: a
/// symlinked home must not hide the zones in it.
fn canonical(places: &Places) -> Result<Places, ShowError> {
    let root = std::fs::canonicalize(&places.project_root).map_err(|source| ShowError::Root {
        root: places.project_root.clone(),
        source,
    })?;
    Ok(Places {
        project_root: root.clone(),
        home: real(&places.home),
        cwd: root,
        tmpdir: None,
        trail_home: places.trail_home.as_deref().map(real),
        secrets_dir: places.secrets_dir.as_deref().map(real),
    })
}

/// The path under the root (as named) and where it lands, refused outside the root and in the
/// gate's zones.
fn place(places: &Places, t: &Target) -> Result<(String, PathBuf), ShowError> {
    let root = &places.project_root;
    let rel = match t.written {
        Written::Rooted | Written::Relative => t.path.trim_start_matches('/').to_string(),
        // `${PROJECT_ROOT}` unquoted in a shell arrives expanded: under the root, it is the same
        // identifier.
        Written::Absolute => {
            under(root, Path::new(&t.path)).ok_or_else(|| ShowError::Absolute {
                path: t.path.clone(),
                root: root.clone(),
            })?
        }
    };
    let path = match resolve(root, &rel).map_err(|source| ShowError::Io {
        path: rel.clone(),
        source: source.into(),
    })? {
        Landing::Inside(p) => p,
        Landing::Outside => return Err(ShowError::OutsideRoot { path: rel }),
        Landing::Missing | Landing::Loop => return Err(ShowError::Missing { path: rel }),
    };
    if let Some(zone) = places.zone(&path)
        && !zone.readable()
    {
        return Err(ShowError::Protected {
            path: rel,
            what: zone.what(),
        });
    }
    Ok((rel, path))
}

/// `abs` as a path below the (canonical) `root`, by its own spelling or its canonical one.
fn under(root: &Path, abs: &Path) -> Option<String> {
    let rest = abs
        .strip_prefix(root)
        .ok()
        .map(Path::to_path_buf)
        .or_else(|| real(abs).strip_prefix(root).ok().map(Path::to_path_buf))?;
    let rest = rest.to_str()?.to_string();
    (!rest.is_empty()).then_some(rest)
}

/// The file's text: a regular file under the root, not binary, within trail's cap.
fn read(root: &Path, path: &Path, rel: &str) -> Result<String, ShowError> {
    let bytes = match fsutil::read_in(root, path, fsutil::MAX_PROJECT_FILE) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(ShowError::Missing { path: rel.into() });
        }
        Err(e) => {
            let path = rel.to_string();
            return Err(match fsutil::refusal(&e).map(|r| r.found) {
                Some(fsutil::Found::TooLarge(max)) => ShowError::TooLarge { path, max },
                Some(fsutil::Found::Directory) => ShowError::NotAFile {
                    path,
                    what: "a directory",
                },
                // Swapped for a symlink since the walk: refused, not followed.
                Some(fsutil::Found::Symlink) => ShowError::OutsideRoot { path },
                Some(fsutil::Found::Fifo) => ShowError::NotAFile {
                    path,
                    what: "a FIFO",
                },
                Some(fsutil::Found::Socket) => ShowError::NotAFile {
                    path,
                    what: "a socket",
                },
                Some(fsutil::Found::Device) => ShowError::NotAFile {
                    path,
                    what: "a device",
                },
                _ => ShowError::Io {
                    path,
                    source: e.source,
                },
            });
        }
    };
    // As git and `trail cite check` tell: a NUL in the first 8 KiB.
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Err(ShowError::Binary { path: rel.into() });
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// `raw` (lines joined by `\n`, the first numbered `first`) redacted as one text, so that a
/// secret across lines (a PEM block) is found whole; then cut back into numbered lines. A
/// secret across k line ends is followed by k empty lines, so every later line keeps its
/// number; `renumbered` says when that could not be done (a reference the file already held).
fn redact_lines(redactor: &Redactor, raw: &str, first: u32) -> (Vec<Line>, Vec<String>, bool) {
    let mut found: Vec<Found> = Vec::new();
    let mut out = redactor.redact(raw, &mut found).into_owned();
    let ends = |s: &str| s.bytes().filter(|&b| b == b'\n').count();
    if ends(&out) != ends(raw) {
        for f in &found {
            let k = ends(&f.value);
            if k > 0 {
                let r = f.reference();
                out = out.replace(&r, &format!("{r}{}", "\n".repeat(k)));
            }
        }
    }
    let renumbered = ends(&out) != ends(raw);
    let lines = out
        .split('\n')
        .zip(first..)
        .map(|(text, line)| Line {
            line,
            text: text.to_string(),
        })
        .collect();
    let mut names: Vec<String> = found.into_iter().map(|f| f.name).collect();
    names.sort();
    names.dedup();
    (lines, names, renumbered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    const KEY: &str = "AKIAQ3EGRRZ7JXLM4KVD";

    struct Fixture {
        _dir: tempfile::TempDir,
        places: Places,
    }

    impl Fixture {
        fn root(&self) -> &Path {
            &self.places.project_root
        }

        fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) {
            let p = self.root().join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, bytes).unwrap();
        }

        fn show(&self, id: &str) -> Result<Shown, ShowError> {
            show(&self.places, id, false, Redactor::builtin())
        }

        fn text(&self, id: &str) -> Vec<(u32, String)> {
            self.show(id)
                .unwrap()
                .lines
                .into_iter()
                .map(|l| (l.line, l.text))
                .collect()
        }
    }

    /// A home holding the project, the secret store and the ledger, as on a real machine.
    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let root = home.join("project");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(home.join(".secrets")).unwrap();
        std::fs::write(home.join(".secrets/trail.env"), "A=b\n").unwrap();
        let f = Fixture {
            places: Places {
                project_root: root.clone(),
                home: home.clone(),
                cwd: root,
                tmpdir: None,
                trail_home: Some(home.join(".ledger")),
                secrets_dir: Some(home.join(".secrets")),
            },
            _dir: dir,
        };
        f.write("src/a.rs", "fn a() {}\nfn b() {}\nfn c() {}\n");
        f
    }

    #[test]
    fn a_line_or_a_range_comes_back_numbered_in_every_spelling() {
        let f = fixture();
        let want = vec![(2, "fn b() {}".to_string()), (3, "fn c() {}".to_string())];
        assert_eq!(f.text("${PROJECT_ROOT}/src/a.rs:2-3"), want);
        assert_eq!(f.text("[${PROJECT_ROOT}/src/a.rs:2-3]"), want);
        assert_eq!(f.text("${PROJECT_ROOT}/src/a.rs:2–3"), want, "an en dash");
        assert_eq!(f.text("src/a.rs:L2-L3"), want, "from the root");
        assert_eq!(
            f.text("`fn b() {}` [${PROJECT_ROOT}/src/a.rs:2-3]"),
            want,
            "a whole citation"
        );
        let abs = format!("{}/src/a.rs:2-3", f.root().display());
        assert_eq!(f.text(&abs), want, "${{PROJECT_ROOT}} expanded by a shell");
        let s = f.show("${PROJECT_ROOT}/src/a.rs:1").unwrap();
        assert_eq!(s.identifier, "${PROJECT_ROOT}/src/a.rs:1");
        assert_eq!((s.start, s.end, s.total, s.cut), (1, 1, 3, 0));
        assert!(s.redacted.is_empty() && s.section.is_none() && s.fallback.is_none());
    }

    #[test]
    fn a_range_past_the_end_is_refused_with_the_file_s_length() {
        let f = fixture();
        f.write("empty.txt", "");
        f.write("one.txt", "x");
        for (id, want) in [
            ("${PROJECT_ROOT}/src/a.rs:3-4", "has 3 lines; lines 3-4"),
            ("${PROJECT_ROOT}/src/a.rs:9", "has 3 lines; lines 9-9"),
            ("${PROJECT_ROOT}/empty.txt:1", "empty.txt is empty"),
            ("${PROJECT_ROOT}/one.txt:1-2", "has 1 line;"),
        ] {
            let e = f.show(id).unwrap_err();
            assert!(matches!(e, ShowError::OutOfRange { .. }), "{id}: {e}");
            assert!(e.to_string().contains(want), "{id}: {e}");
        }
        assert_eq!(f.text("${PROJECT_ROOT}/one.txt:1"), [(1, "x".to_string())]);
    }

    #[test]
    fn a_long_range_is_cut_and_says_how_much() {
        let f = fixture();
        let long: String = (1..=450)
            .flat_map(|n| ["line ".to_string(), n.to_string(), "\n".into()])
            .collect();
        f.write("long.txt", long);
        let s = f.show("${PROJECT_ROOT}/long.txt:11-450").unwrap();
        assert_eq!(s.lines.len(), MAX_LINES as usize);
        assert_eq!(s.lines[0].text, "line 11");
        assert_eq!(s.lines.last().unwrap().line, 10 + MAX_LINES);
        assert_eq!(s.cut, 440 - MAX_LINES as usize);
        assert_eq!(
            (s.start, s.end),
            (11, 450),
            "the range named is the one asked"
        );
    }

    #[test]
    fn malformed_identifiers_say_what_is_wrong() {
        let f = fixture();
        for (id, why) in [
            ("${PROJECT_ROOT}/src/a.rs", Malformed::NoLine),
            ("${PROJECT_ROOT}/src/a.rs:0", Malformed::LineZero),
            ("${PROJECT_ROOT}/src/a.rs:3-1", Malformed::Reversed),
            ("${PROJECT_ROOT}/src/a.rs:x", Malformed::BadLine),
            ("${PROJECT_ROOT}src/a.rs:1", Malformed::NoSlash),
            ("[${PROJECT_ROOT}/src/a.rs:1x]", Malformed::BadLine),
            ("", Malformed::NoLine),
        ] {
            match f.show(id) {
                Err(ShowError::Malformed { why: w, .. }) => assert_eq!(w, why, "{id}"),
                other => panic!("{id}: {other:?}"),
            }
        }
    }

    #[test]
    fn nothing_outside_the_root_is_shown_through_dot_dot_symlinks_or_absolute_paths() {
        let f = fixture();
        let home = f.places.home.clone();
        std::fs::write(home.join("outside.txt"), "private\n").unwrap();
        symlink(home.join("outside.txt"), f.root().join("src/abs-link")).unwrap();
        symlink("../../outside.txt", f.root().join("src/rel-link")).unwrap();
        symlink("..", f.root().join("src/up")).unwrap();
        symlink("a.rs", f.root().join("src/in-link.rs")).unwrap();
        for id in [
            "${PROJECT_ROOT}/../outside.txt:1",
            "${PROJECT_ROOT}/src/../../outside.txt:1",
            "${PROJECT_ROOT}/nope/../../outside.txt:1",
            "${PROJECT_ROOT}/src/abs-link:1",
            "${PROJECT_ROOT}/src/rel-link:1",
            "${PROJECT_ROOT}/src/up/../outside.txt:1",
        ] {
            let e = f.show(id).unwrap_err();
            assert!(matches!(e, ShowError::OutsideRoot { .. }), "{id}: {e}");
        }
        let e = f.show("/etc/hostname:1").unwrap_err();
        assert!(matches!(e, ShowError::Absolute { .. }), "{e}");
        assert!(e.to_string().contains("outside the project root"), "{e}");
        // A link that stays inside is the project's own business.
        assert_eq!(f.text("${PROJECT_ROOT}/src/in-link.rs:1")[0].1, "fn a() {}");
        assert_eq!(
            f.text("${PROJECT_ROOT}/src/up/src/a.rs:1")[0].1,
            "fn a() {}"
        );
    }

    #[test]
    fn the_gate_s_zones_are_not_shown_even_under_the_root() {
        let f = fixture();
        f.write(".trail/state/pending.json", "{}\n");
        f.write(".trail/memory/2026-11-26.md", "- note\n");
        f.write(".claude/settings.json", "{}\n");
        f.write(".github/workflows/ci.yml", "on: push\n");
        for id in [
            "${PROJECT_ROOT}/.trail/state/pending.json:1",
            "${PROJECT_ROOT}/.trail/memory/../state/pending.json:1",
            "${PROJECT_ROOT}/.claude/settings.json:1",
        ] {
            let e = f.show(id).unwrap_err();
            assert!(matches!(e, ShowError::Protected { .. }), "{id}: {e}");
        }
        // The project at $HOME: the secret store is under its root, and still refused.
        let mut at_home = f.places.clone();
        at_home.project_root = f.places.home.clone();
        let e = show(
            &at_home,
            "${PROJECT_ROOT}/.secrets/trail.env:1",
            false,
            Redactor::builtin(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("the secret store"), "{e}");
        // A hidden file a citation may name is shown.
        assert_eq!(
            f.text("${PROJECT_ROOT}/.github/workflows/ci.yml:1")[0].1,
            "on: push"
        );
    }

    #[test]
    fn what_is_not_a_text_file_is_refused() {
        let f = fixture();
        f.write("img.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR");
        std::fs::create_dir_all(f.root().join("dir")).unwrap();
        assert!(matches!(
            f.show("${PROJECT_ROOT}/img.png:1"),
            Err(ShowError::Binary { .. })
        ));
        assert!(matches!(
            f.show("${PROJECT_ROOT}/dir:1"),
            Err(ShowError::NotAFile { .. })
        ));
        assert!(matches!(
            f.show("${PROJECT_ROOT}/src/none.rs:1"),
            Err(ShowError::Missing { .. })
        ));
        rustix::fs::mknodat(
            rustix::fs::CWD,
            f.root().join("fifo"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        assert!(matches!(
            f.show("${PROJECT_ROOT}/fifo:1"),
            Err(ShowError::NotAFile { what: "a FIFO", .. })
        ));
        // Invalid UTF-8 is text all the same.
        f.write("latin1.txt", b"caf\xe9\n");
        assert_eq!(f.text("${PROJECT_ROOT}/latin1.txt:1")[0].1, "caf\u{fffd}");
    }

    #[test]
    fn a_secret_in_the_lines_is_redacted_and_the_lines_keep_their_numbers() {
        let f = fixture();
        let body = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n\
                    VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n\
                    LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo";
        let pem = format!(
            "const KEY: &str = \"{KEY}\";\nlet pem = \"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\";\nfn after() {{}}\n"
        );
        f.write("src/keys.rs", pem);
        let s = f.show("${PROJECT_ROOT}/src/keys.rs:1-7").unwrap();
        let all: String = s
            .lines
            .iter()
            .flat_map(|l| [l.text.as_str(), "\n"])
            .collect();
        assert!(!all.contains(KEY) && !all.contains("MIIEow"), "{all}");
        assert_eq!(s.redacted.len(), 2, "{:?}", s.redacted);
        assert!(!s.renumbered);
        assert_eq!(s.lines.len(), 7);
        assert_eq!(
            (s.lines[6].line, s.lines[6].text.as_str()),
            (7, "fn after() {}"),
            "{all}"
        );
        assert!(s.lines[2].text.starts_with("${secret:"), "{all}");
        assert_eq!(s.lines[5].text, "-----END RSA PRIVATE KEY-----\";");
        // Nothing is kept: the original is in the file it was read from.
        assert!(
            std::fs::read_to_string(f.places.home.join(".secrets/trail.env")).unwrap() == "A=b\n"
        );
    }
}
