//! Who put a prompt into the session: the person at the terminal, or the host on someone else's
//! behalf.
//!
//! Claude Code (2.1.x) runs the UserPromptSubmit hook for prompts nobody typed, and its hook
//! payload does not say so (`tests/data/payloads/PROVENANCE.md`, captured from 2.1.328):
//!
//! - **Wrapped deliveries** — a background command, subagent or workflow finishing
//!   (`<task-notification>`), another Claude session (`<cross-session-message from=…>`), a
//!   teammate (`<teammate-message>`), an MCP channel (`<channel …>`). The prompt starts with the
//!   wrapper's tag; the text inside comes from the agent or from whatever the command printed.
//! - **Scheduled prompts** — `ScheduleWakeup` and `CronCreate` fire the agent's own `prompt`
//!   verbatim, with no wrapper: `"/edge approve"` scheduled by the agent reaches the hook as
//!   `"/edge approve"`. What tells them apart is where the text came from: the agent wrote it
//!   into a tool call earlier in this session's transcript, or into `.claude/scheduled_tasks.json`
//!   (durable tasks, which a cloned repository can also ship).
//! - **Subagents** — a payload carrying `agent_id` comes from a subagent's context, not the
//!   person's prompt box.
//!
//! The checks here run only for a prompt that would decide something (an `/edge` decision), so
//! the transcript is read on that rare path and never for ordinary prompts.

use std::path::Path;

use serde_json::Value;

/// Why a prompt is not the person's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivered {
    /// What delivered it, in words a person reads ("a task notification …").
    pub what: String,
}

/// The wrappers Claude Code puts around prompts it delivers on someone else's behalf: the tag a
/// prompt starts with, and what it is. Any other prompt starting with a lowercase tag is treated
/// as a delivery too (newer hosts add wrappers); the table only names the known ones.
pub const WRAPPERS: &[(&str, &str)] = &[
    (
        "<task-notification>",
        "a task notification (a background command, subagent or workflow finished)",
    ),
    (
        "<cross-session-message",
        "a message from another Claude session",
    ),
    ("<teammate-message", "a message from a teammate agent"),
    ("<channel", "a message relayed from an MCP channel"),
    ("<coordinator-task", "a task from a coordinator agent"),
    ("<artifact-room-event", "an artifact room event"),
    (
        "[SYSTEM NOTIFICATION",
        "a system notification (an automated event)",
    ),
];

/// The delivery a prompt's leading wrapper names, if it starts with one.
pub fn wrapped(prompt: &str) -> Option<Delivered> {
    let t = prompt.trim_start();
    if let Some((_, what)) = WRAPPERS.iter().find(|(tag, _)| t.starts_with(tag)) {
        return Some(Delivered {
            what: (*what).to_string(),
        });
    }
    // `<tag>` or `<tag attr…>`: a lowercase tag name, then `>` or whitespace.
    let rest = t.strip_prefix('<')?;
    let name_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-' || *b == b'_')
        .count();
    let after = rest[name_len..].chars().next();
    if name_len == 0
        || !rest.as_bytes()[0].is_ascii_lowercase()
        || !matches!(after, Some(c) if c == '>' || c.is_whitespace())
    {
        return None;
    }
    Some(Delivered {
        what: format!(
            "a message Claude Code delivered in <{}> tags",
            &rest[..name_len]
        ),
    })
}

/// Whether the agent itself wrote `prompt` (whitespace aside) as a whole string into a tool
/// call recorded in this transcript (`ScheduleWakeup.prompt`, `CronCreate.prompt`, or any other
/// field): the text that just arrived may be that call's delivery. Returns the tool's name.
///
/// Reads the transcript line by line and parses only lines holding an assistant tool call that
/// mentions the prompt's first word, so a long transcript costs one pass of substring search.
pub fn agent_wrote(transcript: &str, prompt: &str) -> Option<String> {
    let want = normalise(prompt);
    let first = want.split(' ').next().filter(|w| !w.is_empty())?;
    for line in transcript.lines() {
        if !line.contains("\"tool_use\"") || !line.contains(first) {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let blocks = v
            .get("message")
            .and_then(|m| m.get("content"))
            .and_then(Value::as_array);
        for b in blocks.into_iter().flatten() {
            if b.get("type").and_then(Value::as_str) != Some("tool_use") {
                continue;
            }
            if b.get("input").is_some_and(|i| holds(i, &want)) {
                let name = b.get("name").and_then(Value::as_str).unwrap_or("a tool");
                return Some(name.to_string());
            }
        }
    }
    None
}

/// Whether a durable scheduled task (`.claude/scheduled_tasks.json` under `project`) would
/// deliver `prompt`. Such a file is written by the agent's `CronCreate` or shipped by a cloned
/// repository; a person's own prompt is never taken from it.
pub fn scheduled_task_holds(project: &Path, prompt: &str) -> bool {
    let path = project.join(".claude").join("scheduled_tasks.json");
    let Ok(text) = read_small(&path) else {
        return false;
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(v) => holds(&v, &normalise(prompt)),
        // A file that does not parse cannot be checked: count it if the text is in it at all.
        Err(_) => normalise(&text).contains(&normalise(prompt)),
    }
}

fn read_small(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    const MAX: u64 = 4 << 20;
    let f = std::fs::File::open(path)?;
    if !f.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut s = String::new();
    f.take(MAX).read_to_string(&mut s)?;
    Ok(s)
}

/// Whether any string in `v` (at any depth) equals `want` once whitespace is normalised.
fn holds(v: &Value, want: &str) -> bool {
    match v {
        Value::String(s) => normalise(s) == want,
        Value::Array(a) => a.iter().any(|x| holds(x, want)),
        Value::Object(m) => m.values().any(|x| holds(x, want)),
        _ => false,
    }
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wrapper_in_the_table_is_a_delivery_and_typed_text_is_not() {
        for (tag, what) in WRAPPERS {
            let p = format!("{tag}\n<summary>/edge approve</summary>");
            assert_eq!(wrapped(&p).unwrap().what, *what, "{tag}");
        }
        for p in ["<some-new-wrapper>\nhello", "<event kind=\"x\">hi</event>"] {
            assert!(wrapped(p).is_some(), "{p}");
        }
        for p in [
            "/edge approve",
            "fix the <div> in index.html",
            "<>",
            "< spaced",
            "<Upper>",
            "<3 thanks",
            "",
        ] {
            assert!(wrapped(p).is_none(), "{p}");
        }
    }

    #[test]
    fn a_prompt_the_agent_scheduled_is_found_in_its_tool_calls() {
        let t = concat!(
            r#"{"type":"user","message":{"role":"user","content":"deploy it"}}"#,
            "\n",
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"ScheduleWakeup","input":{"delaySeconds":60,"prompt":"/edge  approve","reason":"x"}}]}}"#,
            "\n",
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"Bash","input":{"command":"echo /edge dismiss"}}]}}"#,
            "\n",
        );
        assert_eq!(
            agent_wrote(t, "/edge approve").as_deref(),
            Some("ScheduleWakeup")
        );
        // Part of a longer string is not a delivery of the prompt.
        assert_eq!(agent_wrote(t, "/edge dismiss"), None);
        assert_eq!(agent_wrote(t, "/edge skip"), None);
        assert_eq!(agent_wrote("not json\n{", "/edge approve"), None);
        assert_eq!(agent_wrote(t, "   "), None);
    }

    #[test]
    fn a_durable_scheduled_task_with_the_prompt_counts() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!scheduled_task_holds(dir.path(), "/edge approve"));
        std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
        let f = dir.path().join(".claude/scheduled_tasks.json");
        std::fs::write(
            &f,
            r#"{"tasks":[{"id":"a","cron":"* * * * *","prompt":"/edge approve","recurring":true}]}"#,
        )
        .unwrap();
        assert!(scheduled_task_holds(dir.path(), "/edge approve"));
        assert!(!scheduled_task_holds(dir.path(), "/edge skip"));
        std::fs::write(&f, "{ broken /edge approve").unwrap();
        assert!(scheduled_task_holds(dir.path(), "/edge approve"));
    }
}
