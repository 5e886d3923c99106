//! git's object ids, computed here: a blob's, and the tree a set of paths makes. A machine signs
//! its tree's id before git has written the tree, so that one `git fast-import` writes the
//! chunks, the tree and the signed commit together (a sync spawns as few gits as it can; see
//! `bench/run.sh sync`). A test holds these ids to `git hash-object` and `git write-tree`.

use std::collections::BTreeMap;

use sha1::{Digest, Sha1};
use trail_base::text::{hex, unhex};

/// The id of a blob holding `bytes`.
pub fn blob_id(bytes: &[u8]) -> String {
    let mut h = Sha1::new();
    h.update(format!("blob {}\0", bytes.len()).as_bytes());
    h.update(bytes);
    hex(&h.finalize())
}

/// A directory of a tree being built: files by name (blob ids), then subdirectories.
#[derive(Default)]
struct Dir {
    files: BTreeMap<String, String>,
    dirs: BTreeMap<String, Dir>,
}

/// The id of the tree holding each `(path, blob id)` as a regular file (mode 100644).
pub fn tree_id<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut root = Dir::default();
    for (path, oid) in files {
        let mut d = &mut root;
        let mut parts: Vec<&str> = path.split('/').collect();
        let name = parts.pop().unwrap_or_default();
        for p in parts {
            d = d.dirs.entry(p.to_string()).or_default();
        }
        d.files.insert(name.to_string(), oid.to_string());
    }
    hash_dir(&root)
}

fn hash_dir(d: &Dir) -> String {
    // git orders entries by name, a tree's name read as if it ended in '/'.
    let mut entries: Vec<(String, &str, String)> = Vec::new();
    for (name, oid) in &d.files {
        entries.push((name.clone(), "100644", oid.clone()));
    }
    for (name, sub) in &d.dirs {
        entries.push((format!("{name}/"), "40000", hash_dir(sub)));
    }
    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut body = Vec::new();
    for (name, mode, oid) in &entries {
        body.extend_from_slice(mode.as_bytes());
        body.push(b' ');
        body.extend_from_slice(name.trim_end_matches('/').as_bytes());
        body.push(0);
        body.extend_from_slice(&unhex::<20>(oid).unwrap_or_default());
    }
    let mut h = Sha1::new();
    h.update(format!("tree {}\0", body.len()).as_bytes());
    h.update(&body);
    hex(&h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;
    use trail_testkit::git::Git;

    /// git on the bare repository `dir`, with an index of its own for `update-index`.
    fn git(dir: &std::path::Path, args: &[&str], input: Option<&[u8]>) -> String {
        let git = Git::git_dir(dir).env("GIT_INDEX_FILE", dir.join("test-index"));
        git.ok_with_input(args, input.unwrap_or_default())
    }

    #[test]
    fn the_ids_are_gits() {
        let d = tempfile::tempdir().unwrap();
        let repo = d.path().join("r.git");
        Git::at(d.path()).ok(&["init", "--bare", "-q", "r.git"]);
        let blobs: Vec<(&str, &[u8])> = vec![
            ("machine", b"trail machine v1\n"),
            (
                "stream/pulses.log.md/00000000",
                b"---\nschema: ledgerpulse/v1\n",
            ),
            ("stream/pulses.log.md/00000001", b""),
            ("stream/archive/pulses-2026.log.md/00000000", b"old"),
            ("stream/archive/pulses-2026-1.log.md/00000000", b"older"),
            ("stream/imported/claude-code-x.log.md/00000000", b"imported"),
            (
                "stream/pulses.log.md.x/00000000",
                b"a name that sorts after a tree's",
            ),
        ];
        let mut info = String::new();
        let mut files = Vec::new();
        for (path, bytes) in &blobs {
            let oid = git(&repo, &["hash-object", "-w", "--stdin"], Some(bytes));
            assert_eq!(oid, blob_id(bytes), "{path}");
            info.push_str(&format!("100644 {oid}\t{path}\n"));
            files.push((path.to_string(), oid));
        }
        git(
            &repo,
            &["update-index", "--add", "--index-info"],
            Some(info.as_bytes()),
        );
        let tree = git(&repo, &["write-tree"], None);
        assert_eq!(
            tree,
            tree_id(files.iter().map(|(p, o)| (p.as_str(), o.as_str())))
        );
    }
}
