//! Where a deletion, a move or an emptying lands: recursion, the places a command names, and
//! which of them lose something (outside temporary directories and git-ignored build output).

use super::Cmd;
use super::git::NARROWING;
use crate::Context;
use crate::parse::Arg;
use crate::paths::Place;

pub(super) fn recursive(c: &Cmd<'_>) -> bool {
    c.flag("--recursive", Some('r')) || c.flag("--recursive", Some('R'))
}

pub(super) fn places(c: &Cmd<'_>, ctx: &Context) -> Vec<(Place, String)> {
    c.operands()
        .map(|a| (ctx.classify(&named_by_prefix(&a.raw)), a.raw.clone()))
        .collect()
}

/// A glob whose last part starts with a name (`~/gslib-*`, `/srv/app/log-2025*`) matches only
/// entries of that name, not everything in the directory, which a glob otherwise stands for:
/// judged as one of them. A hidden prefix stays the directory's (`~/.*`, `~/.s*` reach every
/// dotfile of the home).
fn named_by_prefix(raw: &str) -> std::borrow::Cow<'_, str> {
    let bare = raw.trim_end_matches('/');
    let Some((dir, last)) = bare.rsplit_once('/') else {
        return raw.into();
    };
    let Some(wild) = last.find(['*', '?', '[']) else {
        return raw.into();
    };
    let prefix = last[..wild].trim_start_matches(['"', '\'']);
    if prefix.len() < 2 || prefix.starts_with('.') {
        return raw.into();
    }
    format!("{dir}/{prefix}x").into()
}

/// Whether `raw` names, by its absolute path, a directory the project sits in (`/work` for
/// `/work/proj`): deleting it deletes the project, and the other projects beside it. (`rm -rf
/// ..` stays a junction, as the first labelled set has it.)
pub(super) fn holds_project(raw: &str, ctx: &Context) -> bool {
    let raw = raw.trim_matches(['"', '\'']);
    // Or by a variable that holds one (`"$PWD"/../*`), or by a path that goes down into the
    // project and climbs back out past it (`build/dcp/../../..`): no one writes that to mean
    // the parent, which `..` alone says (a junction, as the first labelled set has it).
    (raw.starts_with('/')
        || raw.starts_with('~')
        || raw.starts_with('$')
        || crate::paths::climbs_out(raw))
        && ctx
            .resolve(raw)
            .is_some_and(|p| ctx.holds_project(&p) && p.components().count() > 1)
}

/// The parent of a place only known when the line runs (`"$(nodenv root)/.."`, `$DIR/..`):
/// what holds a tool's or a variable's directory is home, or wider, as often as anything.
pub(super) fn parent_of_unknown(raw: &str) -> bool {
    let raw = raw.trim_matches(['"', '\'']).trim_end_matches('/');
    raw.contains('$') && raw.ends_with("/..")
        // `dirname` of a place says the same (`"$(dirname "$(pwd)")"`).
        || raw.contains("$(dirname ")
}

/// The home followed only by variables the line does not set (`"$HOME/$APP_DIR"`, `~/$X/`):
/// left empty, as a variable nobody set is, it is the home itself.
pub(super) fn home_by_unset(raw: &str, ctx: &Context) -> bool {
    let raw = ctx.expand_line_vars(raw.trim_matches(['"', '\'']));
    ["$HOME/", "${HOME}/", "~/"].iter().any(|home| {
        raw.strip_prefix(home).is_some_and(|rest| {
            rest.starts_with('$')
                && rest.split('/').all(|part| {
                    let name = part.trim_start_matches('$');
                    let name = name
                        .strip_prefix('{')
                        .and_then(|n| n.strip_suffix('}'))
                        .unwrap_or(name);
                    part.is_empty()
                        || part.starts_with('$')
                            && !name.is_empty()
                            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                })
        })
    })
}

/// A home looked up in the account database (`"$(getent passwd dev | cut -d: -f6)"`, `$(awk
/// -F: '$1=="dev"{print $6}' /etc/passwd)`): whatever the substitution prints is a home.
pub(super) fn home_by_lookup(raw: &str, ctx: &Context) -> bool {
    // Or a variable the line set so (`d=$(getent passwd dev | cut -d: -f6); … rm -rf "$d"`).
    let raw = ctx.expand_line_vars(raw.trim_matches(['"', '\'']));
    let raw = raw.trim_matches(['"', '\'']).trim_end_matches(['/', '*']);
    raw.starts_with("$(")
        && raw.ends_with(')')
        && (raw.contains("getent passwd") || raw.contains("/etc/passwd"))
}

pub(super) fn critical(p: Place) -> bool {
    matches!(
        p,
        Place::Root | Place::Home | Place::System | Place::ProjectRoot
    )
}

/// A directory inside one application's state under `/var` (`/var/lib/omega/data/default`,
/// `/var/lib/laminar/archive/build`): that application's data, a person's call, not the
/// system's own tree (`/var/lib`, `/var/lib/dpkg`, `/var/www/html` stay critical).
pub(crate) fn application_data(ctx: &Context, raw: &str) -> bool {
    ctx.resolve(raw).is_some_and(|p| {
        // One application's logs or cache (`/var/log/collectl`) are made again; its state
        // under `/var/lib` one level deeper (`/var/lib/dpkg` is the system's).
        ["/var/log", "/var/cache"].iter().any(|d| p.starts_with(d)) && p.components().count() >= 4
            || ["/var/lib", "/var/spool", "/var/opt"]
                .iter()
                .any(|d| p.starts_with(d))
                && p.components().count() >= 5
    })
}

/// Programs that delete what they are given (rm under other names).
pub(super) fn deleter(name: &str) -> bool {
    matches!(
        name,
        "rm" | "rimraf" | "del" | "del-cli" | "trash" | "trash-put" | "gio-trash" | "srm"
    )
}

/// A recursive deletion: `rm -r`, or a tool that always recurses (`rimraf`, `trash`).
pub(super) fn rm_recursive(c: &Cmd<'_>) -> bool {
    (c.name == "rm" && recursive(c))
        || (deleter(c.name) && c.name != "rm")
        || (c.name == "gio" && c.sub() == Some("trash"))
        // Another trash's own verb for it (`gtrash put DIR`): moved where it is emptied.
        || (c.name.ends_with("trash") && c.sub() == Some("put"))
}

/// Directories the agent could make look like ignored build output (`.gitignore` and
/// `.git/info/exclude` are files it writes): deleting them is never "build output".
const NEVER_BUILD_OUTPUT: &[&str] = &[".git", ".trail", ".claude", ".codex"];

/// Whether `raw` lies in the repository's or the agents' own directories at the project's
/// root ([`NEVER_BUILD_OUTPUT`]): inside the project, yet never the agent's to remove.
///
/// A working tree Claude Code checks out for a session under `.claude/worktrees/NAME/` holds
/// the project's own files, the agent's to work on as the project's are (`rm
/// .claude/worktrees/x/node_modules`); its own `.git`, `.claude` and the tree itself are not.
pub(super) fn in_own_dirs(ctx: &Context, raw: &str) -> bool {
    let own = |c: Option<std::path::Component<'_>>| {
        c.is_some_and(|c| {
            NEVER_BUILD_OUTPUT
                .iter()
                .any(|n| c.as_os_str() == std::ffi::OsStr::new(n))
        })
    };
    ctx.resolve(raw).is_some_and(|abs| {
        abs.strip_prefix(&ctx.places.project_root).is_ok_and(|r| {
            let mut parts = r.components();
            if !own(parts.next()) {
                return false;
            }
            let worktree = r.starts_with(".claude/worktrees") && {
                let mut inside = parts.skip(2);
                let first = inside.next();
                first.is_some() && !own(first)
            };
            !worktree
        })
    })
}

/// Whether deleting, emptying or overwriting what `raw` names, found at `place`, loses
/// something: anywhere but a temporary directory and the project's git-ignored build output
/// (DESIGN, "The gate", rule 3). Every rule that lets those two pass asks this.
pub(crate) fn loses(ctx: &Context, place: Place, raw: &str) -> bool {
    match place {
        Place::Tmp => false,
        Place::Inside => !ignored(ctx, raw),
        _ => true,
    }
}

/// Whether a path inside the project is git-ignored build output, never counting the
/// repository's own and the agents' directories.
pub(crate) fn ignored(ctx: &Context, raw: &str) -> bool {
    let Some(abs) = ctx.resolve(raw) else {
        return false;
    };
    let rel = abs.strip_prefix(&ctx.places.project_root).unwrap_or(&abs);
    if rel.components().any(|c| {
        NEVER_BUILD_OUTPUT
            .iter()
            .any(|n| c.as_os_str() == std::ffi::OsStr::new(n))
    }) {
        return false;
    }
    (ctx.ignored)(&ctx.places, &abs)
}

/// Whether `find` deletes what it finds (`-delete`, or `-exec rm|unlink|shred …`).
pub(super) fn find_deletes(c: &Cmd<'_>) -> bool {
    c.name == "find"
        && c.args
            .iter()
            .enumerate()
            .any(|(i, a)| match a.text.as_deref() {
                Some("-delete") => true,
                Some("-exec" | "-execdir" | "-ok" | "-okdir") => c
                    .args
                    .get(i + 1)
                    .and_then(|n| n.text.as_deref())
                    .map(|n| n.rsplit('/').next().unwrap_or(n))
                    .is_some_and(|n| {
                        deleter(n) || matches!(n, "unlink" | "shred" | "rmdir" | "truncate")
                    }),
                _ => false,
            })
}

/// Where `find` starts (its operands before the first test), judged.
pub(super) fn find_starts(c: &Cmd<'_>, ctx: &Context) -> Vec<(Place, String)> {
    let starts: Vec<&Arg> = c
        .args
        .iter()
        .take_while(|a| {
            !a.text
                .as_deref()
                .is_some_and(|t| t.starts_with('-') || matches!(t, "(" | "!" | ","))
        })
        .collect();
    if starts.is_empty() {
        return vec![(ctx.classify("."), ".".into())];
    }
    let narrowed = c.words().any(|w| NARROWING.contains(&w));
    starts
        .iter()
        .map(|a| {
            let mut p = ctx.classify(&a.raw);
            // A filtered find in the temporary directory deletes things in it, not it.
            if p == Place::Outside
                && narrowed
                && ctx.classify(&format!("{}/x", a.raw.trim_end_matches('/'))) == Place::Tmp
            {
                p = Place::Tmp;
            }
            (p, a.raw.clone())
        })
        .collect()
}

/// What `mv` moves away: every operand but the destination (or all of them with `-t DIR`).
pub(super) fn moved_away(c: &Cmd<'_>, ctx: &Context) -> Vec<(Place, String)> {
    let mut ops = places(c, ctx);
    let has_t = c
        .words()
        .any(|w| w == "-t" || w.starts_with("--target-directory"));
    if has_t {
        // `-t DIR` takes the next word as the destination.
        if let Some(i) = c.args.iter().position(|a| a.text.as_deref() == Some("-t"))
            && let Some(dir) = c.args.get(i + 1)
        {
            ops.retain(|(_, raw)| *raw != dir.raw);
        }
    } else {
        ops.pop();
    }
    ops
}

/// `rsync --delete…`, or `rclone sync` into a local directory (not a dry run).
pub(super) fn sync_deletes(c: &Cmd<'_>) -> bool {
    c.name == "rsync"
        && c.option_words()
            .any(|w| w.starts_with("--delete") || w == "--remove-source-files")
        && !c.flag("--dry-run", Some('n'))
        // rclone's sync into a local directory deletes there what the source lacks, as
        // `rsync --delete` does (to a remote's `name:path`, the rules for remotes judge it).
        || c.name == "rclone"
            && matches!(c.sub(), Some("sync" | "bisync"))
            && !c.has("--dry-run")
            && c.operands().last().is_some_and(|a| local_path(&a.raw))
}

/// A path on this machine, not an rclone remote's `name:path`.
fn local_path(raw: &str) -> bool {
    let raw = raw.trim_matches(['"', '\'']);
    raw.starts_with(['/', '.', '~', '$'])
        || !raw
            .split('/')
            .next()
            .is_some_and(|first| first.contains(':'))
}

/// `1G`, `+10M`, `0`: a size given to `truncate -s`, not a file.
pub(super) fn size_word(raw: &str) -> bool {
    let t = raw.trim_start_matches(['+', '-', '<', '>', '%', '/']);
    !t.is_empty()
        && t.starts_with(|c: char| c.is_ascii_digit())
        && t.trim_start_matches(|c: char| c.is_ascii_digit())
            .chars()
            .all(|c| c.is_ascii_alphabetic())
        && t.len() <= 8
}
