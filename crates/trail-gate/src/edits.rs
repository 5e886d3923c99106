//! The project files a shell command would change: what the attention budget's strict red hold
//! (Lossless Ledger FR-4) holds besides the edit tools. Without it, an agent held at red wrote
//! the same change with `sed -i` or `cat > file <<EOF` instead.
//!
//! Only the forms that edit files as their purpose are counted, so that builds, tests and reads
//! run on at red (a checkpoint may need them):
//!
//! ```text
//! redirection        > file, >> file, &> file          the target (not /dev/…)
//! in-place editors   sed -i, perl -i, ed, ex            the operands that are files
//! writers            tee, touch, truncate, dd of=       their file operands
//! copies and moves   cp, mv, install, rsync, ln         the destination (or -t DIR)
//! deletion           rm, rmdir, unlink, shred           their operands
//! patches            patch, git apply|am|checkout|      the project root (they change files
//!                    restore|reset|merge|pull|rebase|   the command line does not name)
//!                    cherry-pick|revert|stash|switch
//! ```
//!
//! What runs inside `bash -c`, `python -c` or a script is not seen: the hold is a guardrail on
//! the common forms, not a sandbox. A target only the shell can name (`> "$OUT"`) counts, as
//! the project's.

use std::path::PathBuf;

use super::Context;
use super::parse::{self, Simple};

/// Subcommands of git that change files in the working tree.
const GIT_EDITS: &[&str] = &[
    "apply",
    "am",
    "checkout",
    "restore",
    "reset",
    "merge",
    "pull",
    "rebase",
    "cherry-pick",
    "revert",
    "stash",
    "switch",
];

/// Every project path `line` would write, as the gate resolves it; the project root stands for
/// files the command does not name. An unparsable line names nothing here: the gate itself
/// judges it (as a junction).
pub fn project_edits(line: &str, ctx: &Context) -> Vec<PathBuf> {
    let Ok(flat) = parse::flatten(line) else {
        return Vec::new();
    };
    let root = &ctx.places.project_root;
    let mut out = Vec::new();
    for c in &flat.commands {
        for w in targets(c) {
            let p = match w {
                Target::Word(raw) => match ctx.resolve(raw) {
                    Some(p) if p.starts_with("/dev") => continue,
                    Some(p) => p,
                    // Named only when the shell runs: taken to be the project's.
                    None => root.clone(),
                },
                Target::Existing(raw) => match ctx.resolve(raw) {
                    Some(p) if p.is_file() => p,
                    _ => continue,
                },
                Target::Project => root.clone(),
            };
            if p.starts_with(root) && !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

enum Target<'a> {
    Word(&'a str),
    /// A word that is a target only when it names a file (an in-place editor's operands
    /// include its script).
    Existing(&'a str),
    Project,
}

/// What one simple command writes, by the table in the module doc.
fn targets(c: &Simple) -> Vec<Target<'_>> {
    let mut out: Vec<Target<'_>> = c.writes.iter().map(|w| Target::Word(&w.target)).collect();
    let Some(name) = c.name() else {
        return out;
    };
    let args = c.args();
    let words = || args.iter().map(|a| a.raw.as_str());
    let operands = || {
        let dd = args
            .iter()
            .position(|a| a.raw == "--")
            .unwrap_or(args.len());
        args.iter()
            .enumerate()
            .filter(move |(i, a)| *i > dd || !(a.raw.starts_with('-') && a.raw.len() > 1))
            .filter(|(_, a)| a.raw != "--")
            .map(|(_, a)| a.raw.as_str())
    };
    match name {
        "sed" | "perl" if words().any(|w| in_place(name, w)) => {
            // The script is an operand too; only files that exist can be edited in place.
            out.extend(operands().map(Target::Existing));
        }
        "ed" | "ex" => out.extend(operands().map(Target::Word)),
        "tee" | "touch" | "truncate" | "rm" | "rmdir" | "unlink" | "shred" => {
            out.extend(operands().map(Target::Word));
        }
        "dd" => out.extend(
            words()
                .filter_map(|w| w.strip_prefix("of="))
                .map(Target::Word),
        ),
        "cp" | "mv" | "install" | "rsync" | "ln" => {
            let to_dir = words()
                .zip(words().skip(1))
                .find(|(f, _)| *f == "-t" || *f == "--target-directory")
                .map(|(_, d)| d)
                .or_else(|| words().find_map(|w| w.strip_prefix("--target-directory=")));
            match to_dir {
                Some(d) => out.push(Target::Word(d)),
                None => out.extend(operands().next_back().map(Target::Word)),
            }
        }
        "patch" => out.push(Target::Project),
        "git" => {
            let sub = operands().next();
            if sub.is_some_and(|s| GIT_EDITS.contains(&s)) {
                out.push(Target::Project);
            }
        }
        _ => {}
    }
    out
}

fn in_place(name: &str, w: &str) -> bool {
    match name {
        "sed" => w == "--in-place" || w.starts_with("--in-place=") || short_flag(w, 'i'),
        _ => short_flag(w, 'i'),
    }
}

/// `-i`, `-i.bak`, `-pi`, `-ni`: a cluster of short flags with `i` in it (sed's `-i` takes its
/// suffix glued on, so everything after the `i` is the suffix).
fn short_flag(w: &str, f: char) -> bool {
    w.strip_prefix('-').is_some_and(|r| {
        !r.starts_with('-')
            && r.chars()
                .take_while(char::is_ascii_alphabetic)
                .any(|c| c == f)
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::Places;

    fn ctx(root: &Path) -> Context {
        Context::new(Places {
            project_root: root.to_path_buf(),
            home: root.parent().unwrap().join("home"),
            cwd: root.to_path_buf(),
            tmpdir: None,
            trail_home: None,
            secrets_dir: None,
        })
    }

    #[test]
    fn the_forms_that_edit_name_what_they_edit_and_the_rest_name_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("p");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/lib.rs"), "fn a() {}\n").unwrap();
        let cx = ctx(&root);
        let lib = root.join("src/lib.rs");
        for (line, want) in [
            ("echo x > src/lib.rs", vec![lib.clone()]),
            (
                "cat > src/new.rs <<'EOF'\nfn b() {}\nEOF",
                vec![root.join("src/new.rs")],
            ),
            ("sed -i 's/a/b/' src/lib.rs", vec![lib.clone()]),
            ("perl -pi -e 's/a/b/' src/lib.rs", vec![lib.clone()]),
            ("printf x | tee -a src/lib.rs", vec![lib.clone()]),
            ("cp /tmp/x.rs src/lib.rs", vec![lib.clone()]),
            ("mv src/lib.rs src/main.rs", vec![root.join("src/main.rs")]),
            ("rm src/lib.rs", vec![lib.clone()]),
            ("git apply /tmp/fix.diff", vec![root.clone()]),
            ("git checkout -- src/lib.rs", vec![root.clone()]),
            ("cargo fmt && echo done > \"$OUT\"", vec![root.clone()]),
            ("cd src && echo x > /tmp/outside.txt", vec![]),
            ("cargo test 2>/dev/null", vec![]),
            ("grep -rn foo src > /dev/null", vec![]),
            ("sed -n 1,5p src/lib.rs", vec![]),
            ("cat src/lib.rs | tee /tmp/copy", vec![]),
            ("git status && git diff", vec![]),
            ("echo x > /tmp/scratch", vec![]),
        ] {
            assert_eq!(project_edits(line, &cx), want, "{line}");
        }
    }
}
