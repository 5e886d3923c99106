//! Claude Code's sessions as it keeps them (`~/.claude/projects/`, 2.1.x):
//!
//! ```text
//! <DIR>/<project key>/<session id>.jsonl                    a session's transcript
//! <DIR>/<project key>/<session id>/subagents/…/agent-*.jsonl  its subagents' transcripts
//! <DIR>/<project key>/<session id>/tool-results/<file>       outputs too large for the transcript
//! <DIR>/<project key>/agent-*.jsonl                          subagents, as older builds kept them
//! ```
//!
//! `DIR` may also be one project's directory. A session continued in another file — older
//! builds' `--resume` started a new file with a new id, copying the history into it — is found
//! by its lines: every line has a `uuid` and names its `parentUuid`, so a file whose lines
//! repeat another file's, or whose first message answers a line of another file, continues
//! that file. Continued files are read as one session, each line once, under the first file's
//! id.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{Found, Host, Meta};
use crate::time::Ts;

/// The fields of a transcript line that place it: everything else is read by
/// [`crate::transcript`].
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Head {
    uuid: Option<String>,
    parent_uuid: Option<String>,
    session_id: Option<String>,
    timestamp: Option<String>,
    cwd: Option<String>,
    git_branch: Option<String>,
}

fn head(line: &str) -> Option<Head> {
    serde_json::from_str(line).ok()
}

/// A line's uuid as a number: the uuids Claude Code writes are UUIDs (a hash otherwise), and a
/// project's worth of them is kept while its files are linked.
fn key(uuid: &str) -> u128 {
    let hex: String = uuid.chars().filter(|c| *c != '-').collect();
    match u128::from_str_radix(&hex, 16) {
        Ok(n) if hex.len() == 32 => n,
        _ => {
            let d = crate::text::sha256_hex(uuid.as_bytes());
            u128::from_str_radix(&d[..32], 16).unwrap_or(0)
        }
    }
}

/// One top-level transcript file of a project directory, as discovery sees it.
struct File {
    path: PathBuf,
    session: String,
    first: Option<Ts>,
    /// Its lines' uuids.
    uuids: Vec<u128>,
    /// Parents its lines name that it does not hold.
    outside: Vec<u128>,
}

/// Every session under `dir` (a projects directory, or one project's).
pub(super) fn discover(dir: &Path, unreadable: &mut Vec<PathBuf>) -> Vec<Found> {
    let mut out = Vec::new();
    let mut project_dirs = vec![dir.to_path_buf()];
    project_dirs.extend(super::subdirs(dir));
    for p in project_dirs {
        out.extend(discover_project(&p, unreadable));
    }
    out
}

fn discover_project(dir: &Path, unreadable: &mut Vec<PathBuf>) -> Vec<Found> {
    let mut files = Vec::new();
    let mut legacy_agents = Vec::new();
    for path in super::files_with(dir, ".jsonl") {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if name.starts_with("agent-") {
            legacy_agents.push(path);
            continue;
        }
        match super::read_text(&path) {
            Ok(text) => files.push(scan(path, &text)),
            Err(_) => unreadable.push(path),
        }
    }
    files.sort_by(|a, b| a.first.cmp(&b.first).then_with(|| a.path.cmp(&b.path)));
    let groups = link(&files);
    // Where each session id's group is (its files, and what a subagent names).
    let mut group_of: HashMap<String, usize> = HashMap::new();
    let mut found: Vec<Found> = groups
        .iter()
        .enumerate()
        .map(|(g, members)| {
            for &m in members {
                group_of.entry(files[m].session.clone()).or_insert(g);
            }
            let main: Vec<PathBuf> = members.iter().map(|&m| files[m].path.clone()).collect();
            Found {
                host: Host::ClaudeCode,
                id: files[members[0]].session.clone(),
                files: main,
                subagents: Vec::new(),
                tool_results: Vec::new(),
            }
        })
        .collect();
    // A session's own directory: its subagents and its tool results.
    for sub in super::subdirs(dir) {
        let sid = sub
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let Some(&g) = group_of.get(&sid) else {
            continue;
        };
        found[g]
            .subagents
            .extend(super::files_under(&sub.join("subagents"), ".jsonl", 4));
        let results = sub.join("tool-results");
        if results.is_dir() {
            found[g].tool_results.push(results);
        }
    }
    // Older builds: `agent-*.jsonl` beside the sessions, naming their session in each line.
    for path in legacy_agents {
        let session = super::read_text(&path)
            .ok()
            .and_then(|t| t.lines().filter_map(head).find_map(|h| h.session_id));
        match session.and_then(|s| group_of.get(&s)) {
            Some(&g) => found[g].subagents.push(path),
            None => unreadable.push(path),
        }
    }
    found
}

/// What discovery needs of a file: its session id, first time, uuids and outside parents.
fn scan(path: PathBuf, text: &str) -> File {
    let mut f = File {
        session: path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned(),
        path,
        first: None,
        uuids: Vec::new(),
        outside: Vec::new(),
    };
    let mut named = false;
    let mut parents = Vec::new();
    for h in text.lines().filter_map(head) {
        if let (false, Some(s)) = (named, &h.session_id) {
            f.session.clone_from(s);
            named = true;
        }
        if f.first.is_none() {
            f.first = h.timestamp.as_deref().and_then(|t| Ts::parse_loose(t).ok());
        }
        if let Some(u) = &h.uuid {
            f.uuids.push(key(u));
        }
        if let Some(p) = &h.parent_uuid {
            parents.push(key(p));
        }
    }
    let mut own = f.uuids.clone();
    own.sort_unstable();
    f.outside = parents
        .into_iter()
        .filter(|p| own.binary_search(p).is_err())
        .collect();
    f
}

/// Files that continue one another, grouped (each group in the files' order).
fn link(files: &[File]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..files.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    // The first file each uuid appears in (files are in time order).
    let mut home: HashMap<u128, usize> = HashMap::new();
    for (i, f) in files.iter().enumerate() {
        for u in &f.uuids {
            home.entry(*u).or_insert(i);
        }
    }
    for (i, f) in files.iter().enumerate() {
        for u in f.uuids.iter().chain(&f.outside) {
            if let Some(&h) = home.get(u)
                && h != i
            {
                let (a, b) = (root(&mut parent, h), root(&mut parent, i));
                // The earlier file stays the root: it names the session.
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index: HashMap<usize, usize> = HashMap::new();
    for i in 0..files.len() {
        let r = root(&mut parent, i);
        let g = *index.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    groups
}

/// The files' lines as one transcript, each line once (a continued file repeats the history it
/// continues), with what they say of the session.
pub(super) fn merge(parts: &[&str]) -> (String, Meta) {
    let mut seen = std::collections::HashSet::new();
    let mut text = String::new();
    let mut meta = Meta::default();
    for part in parts {
        for line in part.lines() {
            let h = head(line).unwrap_or_default();
            if let Some(u) = &h.uuid
                && !seen.insert(key(u))
            {
                continue;
            }
            text.push_str(line);
            text.push('\n');
            if let Some(s) = h.session_id
                && !meta.ids.contains(&s)
            {
                meta.ids.push(s);
            }
            if let Some(c) = h.cwd {
                meta.cwd.get_or_insert_with(|| PathBuf::from(c));
            }
            if let Some(b) = h.git_branch.filter(|b| !b.is_empty()) {
                meta.branch = Some(b);
            }
            meta.saw(h.timestamp.as_deref());
        }
    }
    (text, meta)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(uuid: &str, parent: Option<&str>, session: &str, ts: &str) -> String {
        serde_json::json!({"type":"user","uuid":uuid,"parentUuid":parent,"sessionId":session,"timestamp":ts,"cwd":"/p","message":{"content":"hi"}}).to_string()
    }

    #[test]
    fn a_file_that_repeats_or_answers_another_continues_it() {
        let u = |n: u8| format!("00000000-0000-0000-0000-0000000000{n:02}");
        let a = [
            line(&u(1), None, "A", "2026-01-01T10:00:00Z"),
            line(&u(2), Some(&u(1)), "A", "2026-01-01T10:01:00Z"),
        ]
        .join("\n");
        // B copies A's history, then goes on.
        let b = [
            line(&u(1), None, "B", "2026-01-02T10:00:00Z"),
            line(&u(2), Some(&u(1)), "B", "2026-01-02T10:00:00Z"),
            line(&u(3), Some(&u(2)), "B", "2026-01-02T10:01:00Z"),
        ]
        .join("\n");
        // C answers B's last line without copying anything.
        let c = line(&u(4), Some(&u(3)), "C", "2026-01-03T10:00:00Z");
        let d = line(&u(9), None, "D", "2026-01-04T10:00:00Z");
        let files: Vec<File> = [("A", &a), ("B", &b), ("C", &c), ("D", &d)]
            .iter()
            .map(|(n, t)| scan(PathBuf::from(format!("{n}.jsonl")), t))
            .collect();
        assert_eq!(link(&files), vec![vec![0, 1, 2], vec![3]]);
        let (text, meta) = merge(&[&a, &b, &c]);
        assert_eq!(text.lines().count(), 4, "each line once:\n{text}");
        assert_eq!(meta.ids, ["A", "B", "C"]);
        assert_eq!(
            meta.start.unwrap().to_string(),
            "2026-01-01T10:00:00.000000Z"
        );
        assert_eq!(meta.end.unwrap().to_string(), "2026-01-03T10:00:00.000000Z");
    }
}
