//! Codex's sessions as it keeps them: rollout files under `$CODEX_HOME/sessions/YYYY/MM/DD/`
//! (`rollout-<time>-<id>.jsonl`), each starting with its `session_meta` (see [`crate::rollout`]).
//!
//! A resumed session is appended to its own file (0.169.0: `codex exec resume`); files that
//! name the same session id are read as one, in the order their names (which start with their
//! time) give. A subagent's thread has a rollout of its own whose `session_meta` names its
//! parent thread (`parent_thread_id`); it is read with its parent, as a Claude Code subagent
//! is. A fork (`forked_from_id`) is a session of its own that says where it came from.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Found, Host, Meta};

/// What a rollout's first line says about it.
struct MetaLine {
    id: String,
    /// The thread that spawned this one, for a subagent.
    parent: Option<String>,
}

fn meta_line(first: &str) -> Option<MetaLine> {
    if !crate::rollout::is_rollout(first.as_bytes()) {
        return None;
    }
    let v: Value = serde_json::from_str(first).ok()?;
    let p = v.get("payload")?;
    let id = p
        .get("id")
        .or_else(|| p.get("session_id"))
        .and_then(Value::as_str)?
        .to_string();
    Some(MetaLine {
        id,
        parent: p.get("source").and_then(parent_thread),
    })
}

/// The parent thread a `source` names, wherever in it (`{"subagent":{"thread_spawn":
/// {"parent_thread_id": …}}}` in the builds that spawn agents).
fn parent_thread(v: &Value) -> Option<String> {
    match v {
        Value::Object(m) => m
            .get("parent_thread_id")
            .and_then(Value::as_str)
            .map(String::from)
            .or_else(|| m.values().find_map(parent_thread)),
        _ => None,
    }
}

/// Every session under `dir` (a `sessions` directory, or any directory of rollouts below it).
pub(super) fn discover(dir: &Path, unreadable: &mut Vec<PathBuf>) -> Vec<Found> {
    let mut rollouts: Vec<(PathBuf, MetaLine)> = Vec::new();
    for path in super::files_under(dir, ".jsonl", 4) {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if !name.starts_with("rollout-") {
            continue;
        }
        match super::first_line(&path).ok().as_deref().and_then(meta_line) {
            Some(m) => rollouts.push((path, m)),
            None => unreadable.push(path),
        }
    }
    // Names start with the time the file was begun.
    rollouts.sort_by(|a, b| {
        a.0.file_name()
            .cmp(&b.0.file_name())
            .then_with(|| a.0.cmp(&b.0))
    });
    let mut found: Vec<Found> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut children = Vec::new();
    for (path, m) in rollouts {
        if m.parent.is_some() {
            children.push((path, m));
            continue;
        }
        if let Some(&i) = by_id.get(&m.id) {
            found[i].files.push(path);
        } else {
            by_id.insert(m.id.clone(), found.len());
            found.push(session(m.id, path));
        }
    }
    for (path, m) in children {
        if let Some(&i) = m.parent.as_ref().and_then(|p| by_id.get(p)) {
            found[i].subagents.push(path);
        } else {
            // A subagent whose parent's rollout is gone is all there is of that work.
            by_id.insert(m.id.clone(), found.len());
            found.push(session(m.id, path));
        }
    }
    found
}

/// A session known so far by one rollout.
fn session(id: String, path: PathBuf) -> Found {
    Found {
        host: Host::Codex,
        id,
        files: vec![path],
        subagents: Vec::new(),
        tool_results: Vec::new(),
    }
}

/// The rollouts' lines as one, with what they say of the session.
pub(super) fn merge(parts: &[&str]) -> (String, Meta) {
    let mut meta = Meta::default();
    let mut text = String::new();
    for part in parts {
        for line in part.lines() {
            text.push_str(line);
            text.push('\n');
            // Only the lines that can say something are parsed twice.
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            meta.saw(v.get("timestamp").and_then(Value::as_str));
            let p = v.get("payload").unwrap_or(&Value::Null);
            match v.get("type").and_then(Value::as_str) {
                Some("session_meta") => {
                    if let Some(id) = p.get("id").and_then(Value::as_str)
                        && !meta.ids.iter().any(|i| i == id)
                    {
                        meta.ids.push(id.to_string());
                    }
                    if let Some(f) = p.get("forked_from_id").and_then(Value::as_str) {
                        meta.forked_from = Some(f.to_string());
                    }
                    if let Some(c) = p.get("cwd").and_then(Value::as_str) {
                        meta.cwd.get_or_insert_with(|| PathBuf::from(c));
                    }
                    if let Some(b) = p
                        .get("git")
                        .and_then(|g| g.get("branch"))
                        .and_then(Value::as_str)
                    {
                        meta.branch = Some(b.to_string());
                    }
                }
                Some("turn_context") => {
                    if let Some(c) = p.get("cwd").and_then(Value::as_str) {
                        meta.cwd.get_or_insert_with(|| PathBuf::from(c));
                    }
                }
                _ => {}
            }
        }
    }
    (text, meta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subagents_parent_is_found_wherever_the_source_names_it() {
        let first = serde_json::json!({"type":"session_meta","payload":{"id":"child","source":{"subagent":{"thread_spawn":{"parent_thread_id":"root","depth":1}}}}}).to_string();
        let m = meta_line(&first).unwrap();
        assert_eq!(
            (m.id.as_str(), m.parent.as_deref()),
            ("child", Some("root"))
        );
        let plain = serde_json::json!({"type":"session_meta","payload":{"id":"s","source":"exec"}})
            .to_string();
        assert_eq!(meta_line(&plain).unwrap().parent, None);
        assert!(meta_line(r#"{"type":"user"}"#).is_none());
    }
}
