//! An archive unpacked where the shell stands. Archivers trail does not model (`pax -r`,
//! `afio -i`) extract into the working directory by default; after `cd /` or `cd ~` on the
//! same line, that is the root or the home directory, and every file of the archive lands
//! over what is there, whatever the program is called.

use super::super::rules::{Cmd, RuleId};
use super::super::{Context, Decision, Verdict};
use super::decide;
use trail_zones::Place;

/// Extensions of archives that hold a tree of files (not a single compressed file: `x.gz`
/// unpacks to one file beside it).
const ARCHIVES: &[&str] = &[
    "7z", "ace", "afio", "ar", "arc", "arj", "cab", "cpio", "lha", "lzh", "pax", "rar", "shar",
    "tar", "tbz", "tbz2", "tgz", "txz", "tzst", "xar", "zip", "zoo",
];

/// Words that ask an archiver to write the archive's files out: the spelt-out verbs, and the
/// one-letter modes of the Unix archivers (`-x`, pax's `-r`ead, cpio's and afio's `-i`n). A
/// listing (`-t`, `list`) writes nothing.
fn unpacking(w: &str) -> bool {
    matches!(
        w,
        "x" | "-x" | "-r" | "-i" | "-e" | "e" | "--read" | "--install"
    ) || w
        .trim_start_matches('-')
        .split(['-', '_'])
        .next()
        .is_some_and(|p| matches!(p, "extract" | "unpack" | "unarchive" | "explode"))
}

/// The kind of archive a word names, by its extension (`etc.arc` → `arc`).
fn archive_kind(w: &str) -> Option<String> {
    let name = w.rsplit('/').next().unwrap_or(w).to_ascii_lowercase();
    let name = name
        .strip_suffix(".gz")
        .or_else(|| name.strip_suffix(".xz"))
        .or_else(|| name.strip_suffix(".bz2"))
        .or_else(|| name.strip_suffix(".zst"))
        .or_else(|| name.strip_suffix(".z"))
        .unwrap_or(&name);
    name.rsplit_once('.')
        .filter(|(stem, ext)| !stem.is_empty() && ARCHIVES.contains(ext))
        .map(|(_, ext)| ext.to_string())
}

/// A listing's word: it writes nothing (`-t`, `l`, `--list`, `v`erbose listing).
fn listing(w: &str) -> bool {
    matches!(
        w,
        "-t" | "t" | "l" | "-l" | "v" | "--list" | "list" | "-list"
    )
}

/// An archive (named, or redirected into the program) unpacked into a working directory the
/// line moved to the root or a system directory (a block: the system's files are written
/// over) or the home directory (a junction: the person's files are).
pub(super) fn into_working_directory(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    if ctx.line.cwd_unknown {
        return None;
    }
    let cwd = ctx.places.cwd.to_string_lossy();
    let place = ctx.places.classify(&cwd);
    if !matches!(place, Place::Root | Place::System | Place::Home) {
        return None;
    }
    let words: Vec<&str> = c.option_words().collect();
    let kinds: Vec<String> = words
        .iter()
        .copied()
        .chain(c.reads.iter().map(String::as_str))
        .filter_map(archive_kind)
        .collect();
    // A program named for unpacking (`unace`, `unarj`) extracts unless told to list; an
    // archiver's own name does not say which (`pax` alone lists).
    let unpacker =
        c.name.to_ascii_lowercase().starts_with("un") && !words.iter().any(|w| listing(w));
    let mode = unpacker || words.iter().any(|w| unpacking(w));
    // An extraction said in words as the subcommand, of an archive whatever its name
    // (`attic extract REPO::ARCHIVE`, `borg`-like stores): a backup's files come out here.
    let spelt = words.iter().take(2).any(|w| {
        !w.starts_with('-')
            && w.split(['-', '_'])
                .next()
                .is_some_and(|p| matches!(p, "extract" | "unpack" | "unarchive"))
    }) && c.operands().count() >= 2
        && !super::words::shows_only(c);
    if !mode || kinds.is_empty() && !spelt {
        return None;
    }
    // `/usr/local` is where a person installs by hand: unpacking there is an install.
    let installs = ctx.places.cwd.starts_with("/usr/local");
    let (verdict, rule, what, then) = if place == Place::Home || installs {
        (
            Verdict::Junction,
            RuleId::NamesCritical,
            if installs {
                "a directory of hand-installed programs"
            } else {
                "the home directory"
            },
            "a person decides",
        )
    } else {
        (
            Verdict::Block,
            RuleId::DestroysCritical,
            if place == Place::Root {
                "the filesystem root"
            } else {
                "a system directory"
            },
            "it is never run",
        )
    };
    Some(decide(
        verdict,
        rule,
        format!(
            "`{}` unpacks an archive where the line moved to, {what} (`{cwd}`): its files land over what is there; {then}",
            c.name
        ),
        raw,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archives_by_extension() {
        for w in [
            "build/rootfs.pax",
            "etc.afio",
            "a.tar.gz",
            "A.ZIP",
            "x.cpio",
            "etc.arc",
        ] {
            assert!(archive_kind(w).is_some(), "{w}");
        }
        for w in ["notes.gz", "tar", "build/", ".zip", "a.txt"] {
            assert!(archive_kind(w).is_none(), "{w}");
        }
    }

    #[test]
    fn unpacking_words() {
        for w in ["-r", "x", "--extract", "extract-all", "-i"] {
            assert!(unpacking(w), "{w}");
        }
        for w in ["-t", "list", "-v", "--extractor"] {
            assert!(!unpacking(w), "{w}");
        }
    }
}
