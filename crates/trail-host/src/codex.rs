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

/// The files a patch touches, as written in it (none when trail cannot parse it the way Codex
/// will: see [`parse_patch`]).
pub fn patch_paths(patch: &str) -> Vec<&str> {
    parse_patch(patch).unwrap_or_default()
}

/// The headers of a patch's file sections, as Codex reads them.
const HEADS: [&str; 4] = [
    "*** Add File: ",
    "*** Update File: ",
    "*** Delete File: ",
    "*** Move to: ",
];

/// Lines starting with `***` that Codex reads and that name no file.
const MARKERS: [&str; 3] = ["*** Begin Patch", "*** End Patch", "*** End of File"];

/// The files a patch touches, read by Codex's own rules (codex-rs `apply-patch`): every line is
/// trimmed before its header is matched (an indented `   *** Add File: x` adds `x`), the path
/// is trimmed, and the patch is what lies between `*** Begin Patch` and `*** End Patch` (also
/// inside a `<<'EOF'` … `EOF` heredoc, which Codex accepts). A patch trail cannot read that
/// way is an error, for the guard to refuse: no Begin or End line, a `***` line that is not a
/// header Codex knows (where the two parsers could disagree), or a header with no path. Lines
/// that only look like a header inside a hunk count too: naming a file too many is safe.
pub fn parse_patch(patch: &str) -> Result<Vec<&str>, String> {
    let mut lines: Vec<&str> = patch.lines().map(str::trim).collect();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    while lines.first() == Some(&"") {
        lines.remove(0);
    }
    // Codex's lenient form: the patch inside a heredoc.
    if let (Some(first), Some(&"EOF")) = (lines.first(), lines.last())
        && matches!(*first, "<<EOF" | "<<'EOF'" | "<<\"EOF\"")
    {
        lines = lines[1..lines.len() - 1].to_vec();
    }
    if lines.first() != Some(&"*** Begin Patch") {
        return Err("it does not start with `*** Begin Patch`".into());
    }
    if lines.last() != Some(&"*** End Patch") {
        return Err("it does not end with `*** End Patch`".into());
    }
    let mut out: Vec<&str> = Vec::new();
    for line in &lines {
        if !line.starts_with("***") || MARKERS.contains(line) {
            continue;
        }
        let Some(path) = HEADS.iter().find_map(|h| line.strip_prefix(h.trim_end())) else {
            return Err(format!("`{line}` is not a header Codex reads"));
        };
        let path = path.trim();
        if path.is_empty() {
            return Err(format!("`{line}` names no file"));
        }
        if !out.contains(&path) {
            out.push(path);
        }
    }
    Ok(out)
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

    /// Issue 19, attack 8: Codex trims header lines, trail did not, so an indented header was
    /// invisible to trail and written by Codex.
    #[test]
    fn headers_are_read_as_codex_reads_them() {
        let indented = "*** Begin Patch\n   *** Add File: .trail/state/grants.jsonl\n+{}\n\t*** Update File:  a.rs  \n@@\n-x\n+y\n*** End Patch";
        assert_eq!(
            parse_patch(indented).unwrap(),
            [".trail/state/grants.jsonl", "a.rs"]
        );
        let heredoc = "<<'EOF'\n*** Begin Patch\n*** Delete File: b.rs\n*** End Patch\nEOF\n";
        assert_eq!(parse_patch(heredoc).unwrap(), ["b.rs"]);
        for refused in [
            "*** Add File: a\n+x\n",
            "*** Begin Patch\n*** Add File: a\n+x\n",
            "*** Begin Patch\n*** Add File:\n+x\n*** End Patch",
            "*** Begin Patch\n*** Add File:    \n+x\n*** End Patch",
            "*** Begin Patch\n*** Append File: a\n+x\n*** End Patch",
            "*** Begin Patch\n***Add File: a\n*** End Patch",
        ] {
            assert!(parse_patch(refused).is_err(), "{refused:?}");
        }
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
