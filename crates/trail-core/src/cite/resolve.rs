//! Where a cited path lands under the project root.
//!
//! A citation is text an agent wrote, so its path is hostile: `${PROJECT_ROOT}/../../etc/passwd`
//! or a symlink in the project pointing at `~/.ssh` must not make trail read (and quote back)
//! a file outside the project. The path is walked one component at a time from the root: `..`
//! may not climb above it, and each symlink met on the way is followed only when its target
//! stays inside (a link from `docs/api.md` to `../README.md` is the project's own business).
//! The file is then opened through [`fsutil::read_in`](crate::fsutil::read_in), which follows
//! no symlink at all: whatever changes between the walk and the open is refused, not followed.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::file_error::{At, FileError};

/// The most symlinks followed for one path (Linux's own limit).
const MAX_LINKS: usize = 40;

/// Where a cited path lands.
#[derive(Debug, PartialEq, Eq)]
pub enum Landing {
    /// Inside the root, with every symlink resolved: `root` joined with these components.
    Inside(PathBuf),
    /// Above the root, through `..` or a symlink.
    Outside,
    /// Something on the way does not exist (or is not a directory), and nothing leaves the root.
    Missing,
    /// A chain of more symlinks than Linux follows (40).
    Loop,
}

/// Resolve `rel` (components separated by `/`) under `root`, which must be canonical.
pub fn resolve(root: &Path, rel: &str) -> Result<Landing, FileError> {
    let mut queue: VecDeque<OsString> = rel
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .map(OsString::from)
        .collect();
    let mut at: Vec<OsString> = Vec::new();
    let mut links = 0;
    while let Some(c) = queue.pop_front() {
        if c == ".." {
            if at.pop().is_none() {
                return Ok(Landing::Outside);
            }
            continue;
        }
        let path = join(root, &at).join(&c);
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                // What follows may still climb out (`missing/../../x`): that is the worse news.
                return Ok(if climbs_out(at.len(), queue) {
                    Landing::Outside
                } else {
                    Landing::Missing
                });
            }
            Err(e) => return Err(FileError::new("inspect", &path, e)),
        };
        if !meta.file_type().is_symlink() {
            at.push(c);
            continue;
        }
        links += 1;
        if links > MAX_LINKS {
            return Ok(Landing::Loop);
        }
        let target = std::fs::read_link(&path).at("read the link", &path)?;
        if target.is_absolute() {
            let Some(inside) = below_root(root, &target) else {
                return Ok(Landing::Outside);
            };
            at.clear();
            prepend(&mut queue, &inside);
        } else {
            prepend(&mut queue, &target);
        }
    }
    Ok(Landing::Inside(join(root, &at)))
}

fn join(root: &Path, parts: &[OsString]) -> PathBuf {
    let mut p = root.to_path_buf();
    p.extend(parts);
    p
}

/// Put `path`'s components in front of the queue, in order.
fn prepend(queue: &mut VecDeque<OsString>, path: &Path) {
    let parts: Vec<OsString> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            _ => None,
        })
        .collect();
    for p in parts.into_iter().rev() {
        queue.push_front(p);
    }
}

/// Whether the rest of a path, taken lexically from `depth` components below the root, goes
/// above the root.
fn climbs_out(mut depth: usize, rest: VecDeque<OsString>) -> bool {
    // The missing component itself was one level down.
    depth += 1;
    for c in rest {
        if c == ".." {
            match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return true,
            }
        } else {
            depth += 1;
        }
    }
    false
}

/// An absolute symlink target as a path below `root` (canonical), when it is one. The target
/// may name the root by another spelling (a symlinked home): its canonical form decides then.
fn below_root(root: &Path, target: &Path) -> Option<PathBuf> {
    if let Ok(rest) = target.strip_prefix(root) {
        return Some(rest.to_path_buf());
    }
    let canonical = std::fs::canonicalize(target).ok()?;
    canonical.strip_prefix(root).ok().map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn tree() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("p/src")).unwrap();
        let root = dir.path().join("p").canonicalize().unwrap();
        std::fs::write(root.join("src/a.rs"), "fn a() {}\n").unwrap();
        std::fs::write(dir.path().join("secret"), "key\n").unwrap();
        (dir, root)
    }

    #[test]
    fn dot_dot_may_not_climb_above_the_root() {
        let (_d, root) = tree();
        assert_eq!(
            resolve(&root, "src/../src/a.rs").unwrap(),
            Landing::Inside(root.join("src/a.rs"))
        );
        assert_eq!(resolve(&root, "../secret").unwrap(), Landing::Outside);
        assert_eq!(
            resolve(&root, "src/../../secret").unwrap(),
            Landing::Outside
        );
        assert_eq!(
            resolve(&root, "nope/../../secret").unwrap(),
            Landing::Outside
        );
        assert_eq!(resolve(&root, "nope/../x").unwrap(), Landing::Missing);
        assert_eq!(resolve(&root, "src/b.rs").unwrap(), Landing::Missing);
        assert_eq!(resolve(&root, "src/a.rs/x").unwrap(), Landing::Missing);
        // Leading and doubled slashes stay under the root.
        assert_eq!(
            resolve(&root, "//src//./a.rs").unwrap(),
            Landing::Inside(root.join("src/a.rs"))
        );
    }

    #[test]
    fn symlinks_are_followed_only_while_they_stay_inside() {
        let (d, root) = tree();
        symlink("a.rs", root.join("src/in.rs")).unwrap();
        symlink(root.join("src/a.rs"), root.join("abs-in.rs")).unwrap();
        symlink("../../secret", root.join("src/out.rs")).unwrap();
        symlink(d.path().join("secret"), root.join("abs-out")).unwrap();
        symlink("..", root.join("src/up")).unwrap();
        symlink("../..", root.join("src/up2")).unwrap();
        symlink("../gone", root.join("src/dangling-out")).unwrap();
        symlink("loop", root.join("loop")).unwrap();
        let inside = Landing::Inside(root.join("src/a.rs"));
        assert_eq!(resolve(&root, "src/in.rs").unwrap(), inside);
        assert_eq!(resolve(&root, "abs-in.rs").unwrap(), inside);
        assert_eq!(resolve(&root, "src/up/src/a.rs").unwrap(), inside);
        assert_eq!(resolve(&root, "src/out.rs").unwrap(), Landing::Outside);
        assert_eq!(resolve(&root, "abs-out").unwrap(), Landing::Outside);
        assert_eq!(resolve(&root, "src/up2/secret").unwrap(), Landing::Outside);
        assert_eq!(
            resolve(&root, "src/dangling-out").unwrap(),
            Landing::Missing
        );
        assert_eq!(resolve(&root, "loop").unwrap(), Landing::Loop);
    }
}
