//! One agent session as trail recorded it (`trail://session/{id}`): its tool calls from the
//! proof log and its entries in the trajectory, both keyed by the host's session id. The pulse
//! stream names projects, not sessions, so it is reached through `search` and `timeline`.

use std::io::{Read, Seek, SeekFrom};

use serde_json::{Value, json};
use trail_core::fsutil::{self, Access};
use trail_core::trajectory::journal;

use crate::context::Ctx;
use crate::error::ToolError;

/// The most tool calls and trajectory entries one read returns (the newest are kept).
const MAX_ITEMS: usize = 200;

/// How much of the proof log's end the list of recent sessions reads.
const TAIL: u64 = 1 << 20;

/// The ids of the sessions in the end of the proof log, newest first, at most `n`.
pub fn recent(ctx: &Ctx, n: usize) -> Vec<String> {
    let root = &ctx.root;
    let path = ctx.layout().proof_log();
    let Ok(mut file) = fsutil::open_in(root, &path, Access::Read) else {
        return Vec::new();
    };
    let len = fsutil::size_of(&file).unwrap_or(0);
    let start = len.saturating_sub(TAIL);
    let mut bytes = Vec::new();
    if file.seek(SeekFrom::Start(start)).is_err()
        || file.take(TAIL).read_to_end(&mut bytes).is_err()
    {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    // A read that starts mid-file starts mid-line: that first piece is not a line.
    let lines = text.lines().skip(usize::from(start > 0));
    let mut ids: Vec<String> = Vec::new();
    for line in lines.collect::<Vec<_>>().into_iter().rev() {
        let Some(id) = serde_json::from_str::<Value>(line)
            .ok()
            .and_then(|v| v.get("session_id")?.as_str().map(String::from))
        else {
            continue;
        };
        if !ids.contains(&id) {
            ids.push(id);
            if ids.len() == n {
                break;
            }
        }
    }
    ids
}

/// What trail recorded of session `id`: its tool calls and trajectory entries, oldest first.
pub fn read(ctx: &Ctx, id: &str) -> Result<Value, ToolError> {
    let root = &ctx.root;
    let path = ctx.layout().proof_log();
    let mut calls: Vec<Value> = match journal::read_objects(root, &path, "session_log.jsonl", false)
    {
        Ok(lines) => lines
            .items
            .into_iter()
            .map(|(_, v)| v)
            .filter(|v| v.get("session_id").and_then(Value::as_str) == Some(id))
            .map(|v| {
                // The call in the words of the proof log, without the fields it does not have.
                let fields = [
                    ("time", "timestamp"),
                    ("tool", "tool"),
                    ("input", "input_preview"),
                    ("ok", "success"),
                    ("file", "file_touched"),
                    ("error", "error"),
                ];
                Value::Object(
                    fields
                        .iter()
                        .filter_map(|(to, from)| Some((to.to_string(), v.get(*from)?.clone())))
                        .collect(),
                )
            })
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e.into()),
    };
    let mut entries: Vec<Value> = journal::read(root, None)?
        .items
        .into_iter()
        .filter(|(_, e)| e.session_id.as_deref() == Some(id))
        .filter_map(|(_, e)| serde_json::to_value(e).ok())
        .collect();
    let cut = calls.len() > MAX_ITEMS || entries.len() > MAX_ITEMS;
    keep_last(&mut calls, MAX_ITEMS);
    keep_last(&mut entries, MAX_ITEMS);
    if calls.is_empty() && entries.is_empty() {
        return Err(ToolError::NoSession(id.to_string()));
    }
    Ok(json!({
        "session": id,
        "tool_calls": calls,
        "trajectory": entries,
        "cut": cut,
    }))
}

fn keep_last(v: &mut Vec<Value>, n: usize) {
    if v.len() > n {
        v.drain(..v.len() - n);
    }
}
