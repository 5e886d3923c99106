//! Codex CLI's ways, where they differ from Claude Code's.
//!
//! - File edits come as one tool, `apply_patch`, whose input is a patch: the files it touches
//!   are named on its `*** Add File:`, `*** Update File:`, `*** Delete File:` and `*** Move to:`
//!   lines (relative to the working directory).
//! - PostToolUse carries only the command's output, never its exit code, and there is no
//!   PostToolUseFailure. The exit code is in the session's rollout file (`transcript_path`),
//!   written before the hook runs: an `event_msg` line of type `item_completed` whose item has
//!   the tool call's id. The format is not documented, so when the line is not found the host's
//!   own (optimistic) report stands.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

/// The files a patch touches, as written in it.
pub fn patch_paths(patch: &str) -> Vec<&str> {
    const HEADS: [&str; 4] = [
        "*** Add File: ",
        "*** Update File: ",
        "*** Delete File: ",
        "*** Move to: ",
    ];
    let mut out: Vec<&str> = Vec::new();
    for line in patch.lines() {
        for h in HEADS {
            if let Some(p) = line.strip_prefix(h) {
                let p = p.trim();
                if !p.is_empty() && !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// How much of the rollout file's end is searched for the tool call's outcome: the line was
/// written just before the hook ran, so the first, small read nearly always finds it (this runs
/// after every successful Codex tool call).
const TAILS: [u64; 2] = [64 * 1024, 512 * 1024];

/// The outcome of tool call `id` from the rollout file: `Some((ok, why))` when found.
pub fn outcome(rollout: &Path, id: &str) -> Option<(bool, Option<String>)> {
    let mut f = std::fs::File::open(rollout).ok()?;
    let len = f.metadata().ok()?.len();
    TAILS
        .iter()
        .take_while(|&&t| t < len + TAILS[0])
        .find_map(|&tail| {
            f.seek(SeekFrom::Start(len.saturating_sub(tail))).ok()?;
            let mut bytes = Vec::new();
            f.read_to_end(&mut bytes).ok()?;
            outcome_in(&String::from_utf8_lossy(&bytes), id)
        })
}

fn outcome_in(text: &str, id: &str) -> Option<(bool, Option<String>)> {
    let needle = format!("\"id\":\"{id}\"");
    for line in text.lines().rev() {
        if !(line.contains("item_completed") && line.contains(&needle)) {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let item = &v["payload"]["item"];
        if item["id"].as_str() != Some(id) {
            continue;
        }
        let code = item["exit_code"].as_i64();
        let failed = item["status"].as_str() == Some("failed") || code.is_some_and(|c| c != 0);
        return Some(if failed {
            (
                false,
                Some(code.map_or("failed".into(), |c| format!("exit code {c}"))),
            )
        } else {
            (true, None)
        });
    }
    None
}

/// `apply_patch` answers start with `Exit code: N`.
pub fn patch_exit(response: &str) -> Option<i64> {
    response
        .strip_prefix("Exit code: ")?
        .lines()
        .next()?
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATCH: &str = "*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** Update File: active_context.yaml\n@@\n-mode: plan\n+mode: active\n*** Delete File: old.txt\n*** End Patch\n";

    #[test]
    fn patches_name_their_files() {
        assert_eq!(
            patch_paths(PATCH),
            ["notes.txt", "active_context.yaml", "old.txt"]
        );
        assert_eq!(patch_exit("Exit code: 1\nWall time: 0s"), Some(1));
        assert_eq!(patch_exit("Success. Updated the following files"), None);
    }

    #[test]
    fn the_outcome_is_read_from_the_rollout_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("rollout.jsonl");
        std::fs::write(
            &p,
            concat!(
                r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"call_0","status":"failed","exit_code":3}}}"#,
                "\n",
                r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"call_1","status":"completed","exit_code":0}}}"#,
                "\n"
            ),
        )
        .unwrap();
        assert_eq!(
            outcome(&p, "call_0"),
            Some((false, Some("exit code 3".into())))
        );
        assert_eq!(outcome(&p, "call_1"), Some((true, None)));
        assert_eq!(outcome(&p, "call_9"), None);
        assert_eq!(outcome(&dir.path().join("missing"), "call_0"), None);
    }
}
