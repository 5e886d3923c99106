//! The core's errors are typed and worded in the core's own terms: no flag (`--lookback`), no
//! `trail <command>` to run. Those belong to the binary (`crates/trail/src/error.rs`), which knows
//! which command failed and how a person retries it (ARCHITECTURE.md, the layers table).

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dirs`, with its text.
fn rust_files(mut dirs: Vec<PathBuf>) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path, text));
            }
        }
    }
    out
}

/// Every `#[error("…")]` message in `src/`, with the file it is in.
fn error_messages() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (path, text) in rust_files(vec![src]) {
        let mut rest = text.as_str();
        while let Some(at) = rest.find("#[error(") {
            let attr = &rest[at..];
            let end = attr.find(")]").unwrap_or(attr.len());
            out.push((path.display().to_string(), attr[..end].to_string()));
            rest = &attr[end..];
        }
    }
    out
}

fn names_a_flag(message: &str) -> bool {
    message
        .match_indices("--")
        .any(|(i, _)| message[i + 2..].starts_with(|c: char| c.is_ascii_lowercase()))
}

#[test]
fn no_core_error_names_a_flag_or_a_trail_command() {
    let messages = error_messages();
    assert!(
        messages.len() > 30,
        "the scan found the errors: {messages:?}"
    );
    let worded: Vec<_> = messages
        .iter()
        .filter(|(_, m)| names_a_flag(m) || m.contains("`trail "))
        .collect();
    assert!(
        worded.is_empty(),
        "word these in crates/trail/src/error.rs instead: {worded:#?}"
    );
}

#[test]
fn the_scan_tells_a_flag_from_dashes() {
    assert!(names_a_flag("drop --intent"));
    assert!(!names_a_flag("1--2, or -- alone"));
    assert!(!names_a_flag("a -----BEGIN block"));
}

/// Every function visible outside its module (`pub`, `pub(crate)`, `pub(super)`) in every
/// crate's `src/`, outside test modules: (file, name, parameters, return type).
fn visible_functions(crates: &Path) -> Vec<(String, String, String, String)> {
    let fn_re =
        regex::Regex::new(r"\bpub(?:\([^)]*\))?\s+(?:const\s+)?(?:async\s+)?fn\s+(\w+)").unwrap();
    let mut out = Vec::new();
    let dirs: Vec<_> = std::fs::read_dir(crates)
        .unwrap()
        .flatten()
        .map(|e| e.path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    for (path, text) in rust_files(dirs) {
        if path.ends_with("tests.rs") {
            continue;
        }
        let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        for m in fn_re.captures_iter(text) {
            let rest = &text[m.get(0).unwrap().end()..];
            let Some(open) = rest.find('(') else { continue };
            let (mut depth, mut close) = (0usize, None);
            for (i, c) in rest[open..].char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            close = Some(open + i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(close) = close else { continue };
            let after = &rest[close + 1..];
            let end = after.find(['{', ';']).unwrap_or(after.len());
            let ret = after[..end].split(" where ").next().unwrap();
            let ret = ret.trim().strip_prefix("->").unwrap_or("").trim();
            out.push((
                path.display().to_string(),
                m[1].to_string(),
                rest[open + 1..close].to_string(),
                ret.to_string(),
            ));
        }
    }
    out
}

/// A function that is handed a path knows which file failed: it returns a `FileError` (or an
/// error holding one), never a bare `io::Result`, whose message reaches a person as "No such
/// file or directory" with nothing to act on. Functions on an open handle (`size_of(&File)`, a
/// reader's `next_segment`) or that spawn a process do not know a path; their callers attach it.
fn given_a_path_returning_bare_io(functions: &[(String, String, String, String)]) -> Vec<String> {
    let bare = regex::Regex::new(r"^(std::)?io::Result\b").unwrap();
    let given_a_path = regex::Regex::new(r"\bPath(Buf)?\b").unwrap();
    functions
        .iter()
        .filter(|(_, _, params, ret)| bare.is_match(ret) && given_a_path.is_match(params))
        .map(|(file, name, _, ret)| format!("{file}: {name} -> {ret}"))
        .collect()
}

#[test]
fn no_function_given_a_path_returns_a_bare_io_result() {
    let functions = visible_functions(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    assert!(
        functions.len() > 500,
        "the scan found the functions: {}",
        functions.len()
    );
    let offenders = given_a_path_returning_bare_io(&functions);
    assert!(
        offenders.is_empty(),
        "return a FileError (trail_base::file_error, `.at(action, path)`) from: {offenders:#?}"
    );
}

#[test]
fn the_scan_finds_a_function_given_a_path_and_spares_one_given_a_handle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("some-crate/src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("lib.rs"),
        "pub(crate) fn load(\n    path: &std::path::Path,\n) -> std::io::Result<Vec<u8>> {\n}\n\
         pub fn size_of(file: &File) -> io::Result<u64> {}\n\
         fn private(p: &Path) -> io::Result<()> {}\n\
         pub fn fine(p: &Path) -> Result<(), FileError> where P: Sized {}\n\
         #[cfg(test)]\nmod tests {\n    pub fn helper(p: &Path) -> io::Result<()> {}\n}\n",
    )
    .unwrap();
    let functions = visible_functions(dir.path());
    assert_eq!(functions.len(), 3, "{functions:?}");
    let offenders = given_a_path_returning_bare_io(&functions);
    assert_eq!(offenders.len(), 1, "{offenders:?}");
    assert!(offenders[0].ends_with("load -> std::io::Result<Vec<u8>>"));
}
