//! git's own words: its subcommand, its operands, and a push that rewrites a remote.

use super::Cmd;

/// Operands of a git subcommand, not counting the values of `valued` flags.
pub(super) fn git_operands(c: &Cmd<'_>, valued: &[&str]) -> usize {
    let mut n = 0;
    let mut skip = false;
    for w in c.args.iter().map(|a| a.text.as_deref().unwrap_or("$")) {
        if skip {
            skip = false;
            continue;
        }
        if valued.contains(&w) {
            skip = true;
            continue;
        }
        if w == "--" {
            break;
        }
        if !w.starts_with('-') {
            n += 1;
        }
    }
    n
}

/// `git [-C dir] [-c k=v] <sub>`: the subcommand after global options.
pub(super) fn git_sub<'a>(c: &'a Cmd<'_>) -> Option<&'a str> {
    let mut it = c.args.iter().filter_map(|a| a.text.as_deref());
    while let Some(w) = it.next() {
        match w {
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" => {
                it.next();
            }
            _ if w.starts_with('-') => {}
            _ => return Some(w),
        }
    }
    None
}

/// `find` tests that narrow what it reaches (a bare `-type f` does not).
pub(crate) const NARROWING: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-regex",
    "-iregex",
    "-newer",
    "-mtime",
    "-mmin",
    "-atime",
    "-amin",
    "-ctime",
    "-cmin",
    "-size",
    "-empty",
    "-user",
    "-group",
    "-perm",
    "-links",
    "-inum",
    "-samefile",
    "-lname",
    "-prune",
];

/// Whether a `git push` rewrites or deletes remote history: forced, mirrored, deleting, or a
/// refspec that forces (`+main`) or deletes (`:old`).
pub(super) fn force_push(c: &Cmd<'_>) -> bool {
    c.option_words().any(|w| {
        w.starts_with("--force")
            || matches!(w, "--mirror" | "--delete" | "--prune")
            || (w.starts_with('-') && !w.starts_with("--") && (w.contains('f') || w.contains('d')))
    }) || c
        .words()
        .any(|a| a.starts_with('+') || (a.starts_with(':') && a.len() > 1))
}
