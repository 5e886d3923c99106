//! Files and text, as tests look at them.

use std::path::{Path, PathBuf};

/// Every file under `dir`, at any depth, sorted (a missing directory has none).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            // A link to a directory is followed, as `find -L` would: tests compare trees.
            if path.is_dir() {
                todo.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// How many times `needle` occurs in `hay`, without overlaps (0 for an empty needle).
pub fn occurrences(hay: &str, needle: &str) -> usize {
    if needle.is_empty() {
        return 0;
    }
    hay.matches(needle).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occurrences_do_not_overlap() {
        assert_eq!(occurrences("aaaa", "aa"), 2);
        assert_eq!(occurrences("abc", ""), 0);
        assert_eq!(occurrences("a-b-c", "-"), 2);
    }

    #[test]
    fn files_are_found_at_every_depth_and_sorted() {
        let dir = std::env::temp_dir().join(format!("trail-testkit-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("b/c")).unwrap();
        std::fs::write(dir.join("b/c/z"), "").unwrap();
        std::fs::write(dir.join("a"), "").unwrap();
        assert_eq!(files_under(&dir), vec![dir.join("a"), dir.join("b/c/z")]);
        assert!(files_under(&dir.join("missing")).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
