//! `trail demo`'s memory chapter: a day of sessions flushed to daily memory, then a dream with the
//! extractive provider, its diary and the verified MEMORY.md. Offline, in the demo's directory.

use std::path::Path;

use trail_core::llm::Provider;
use trail_core::memory::daily::{Trigger, flush, memory_dir};
use trail_core::memory::dream::{self, Options, Status};
use trail_core::memory::extractive::Extractive;
use trail_core::memory::recall::remember;
use trail_core::memory::verify::{Source, Verdict, verify};
use trail_core::secrets::Secrets;
use trail_core::time::{Local, Ts};

use super::indent;
use crate::error::{CliError, CliResult};

/// Two sessions of the demo's working day, as Claude Code writes transcripts (one JSON object a
/// line): the user's ask, the edits, the commands and their outcomes, the open to-dos.
const MORNING: &str = r#"{"type":"user","isSidechain":false,"message":{"role":"user","content":"Checkout totals are off by one cent for some carts. Find out why."}}
{"type":"assistant","isSidechain":false,"message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cargo test -p shop checkout"}}],"usage":{"input_tokens":900,"output_tokens":40}}}
{"type":"user","isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"test checkout::three_items ... FAILED"}]}}
{"type":"assistant","isSidechain":false,"message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Edit","input":{"file_path":"src/checkout/total.rs","old_string":"a","new_string":"b"}}],"usage":{"input_tokens":1200,"output_tokens":60}}}
{"type":"user","isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"ok"}]}}
{"type":"assistant","isSidechain":false,"message":{"id":"m3","role":"assistant","content":[{"type":"tool_use","id":"t3","name":"TodoWrite","input":{"todos":[{"content":"Move rounding to the order total","status":"completed"},{"content":"Add a regression test for 3-item carts","status":"pending"}]}}],"usage":{"input_tokens":1300,"output_tokens":30}}}
"#;

const AFTERNOON: &str = r#"{"type":"user","isSidechain":false,"message":{"role":"user","content":"CI is red on main: fix the workflow before we finish checkout."}}
{"type":"assistant","isSidechain":false,"message":{"id":"a1","role":"assistant","content":[{"type":"tool_use","id":"u1","name":"Edit","input":{"file_path":".github/workflows/ci.yml","old_string":"a","new_string":"b"}}],"usage":{"input_tokens":800,"output_tokens":50}}}
{"type":"user","isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"u1","content":"ok"}]}}
{"type":"assistant","isSidechain":false,"message":{"id":"a2","role":"assistant","content":[{"type":"tool_use","id":"u2","name":"Bash","input":{"command":"cargo test -p shop checkout"}}],"usage":{"input_tokens":900,"output_tokens":20}}}
{"type":"user","isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"u2","content":"test result: ok. 14 passed"}]}}
"#;

/// The demo's fixed day, so that the chapter reads the same on every run.
const MORNING_AT: &str = "2026-11-25T10:30:00.000Z";
const EVENING_AT: &str = "2026-11-25T17:45:00.000Z";
const NEXT_DAY_AT: &str = "2026-11-26T08:00:00.000Z";

/// A fixed time, read in UTC, so that the chapter reads the same on every run and machine.
fn at(ts: &str) -> Local {
    Ts::parse_strict(ts).expect("valid timestamp").in_utc()
}

/// Run the chapter in `project` (a directory of the demo's; `.trail/` is created in it), numbering
/// its steps from `first_step`, and hand each piece of text to `say`. Returns the next step number.
/// Fails with `CliError::CheckFailed` if the MEMORY.md it wrote does not verify.
pub fn dream_chapter(
    project: &Path,
    secrets: &Secrets,
    first_step: usize,
    say: &mut dyn FnMut(&str) -> CliResult,
) -> CliResult<usize> {
    let daily = a_day_of_sessions(project, first_step, secrets, say)?;
    let memory = the_dream(project, first_step + 1, secrets, say)?;
    every_bullet_verified(first_step + 2, &daily, &memory, say)?;
    a_second_dream_skips(project, secrets, say)?;
    Ok(first_step + 3)
}

/// Two sessions and a note flushed to daily memory; returns the day's file.
fn a_day_of_sessions(
    project: &Path,
    step: usize,
    secrets: &Secrets,
    say: &mut dyn FnMut(&str) -> CliResult,
) -> CliResult<String> {
    say(&format!(
        "{step}. Memory: a day of sessions. Each session end (and each compaction) flushes what \
         happened to daily memory, extractively, redacted:\n"
    ))?;
    for (name, text, ts) in [
        ("morning-session", MORNING, MORNING_AT),
        ("afternoon-session", AFTERNOON, EVENING_AT),
    ] {
        let t = trail_core::transcript::parse(text);
        let done = flush(
            project,
            &t,
            Trigger::SessionEnd,
            Some(name),
            &at(ts),
            secrets,
        )?;
        say(&format!(
            "  $ trail memory flush --transcript {name}.jsonl  → {}\n",
            if done.written {
                "flushed"
            } else {
                "nothing new"
            }
        ))?;
    }
    let note = "Rounding happens per line instead of per order; round once per order total";
    let src = remember(project, note, &at(EVENING_AT), secrets)?;
    say(&format!("  $ trail remember '{note}'  → {src}\n\n"))?;
    let daily = memory_dir(project).join("2026-11-25.md");
    let text = std::fs::read_to_string(&daily)?;
    say(&format!(
        "  .trail/memory/2026-11-25.md:\n\n{}\n",
        indent(&text)
    ))?;
    Ok(text)
}

/// The next morning's dream, its diary and the MEMORY.md it wrote; returns that MEMORY.md.
fn the_dream(
    project: &Path,
    step: usize,
    secrets: &Secrets,
    say: &mut dyn FnMut(&str) -> CliResult,
) -> CliResult<String> {
    say(&format!(
        "{step}. The next morning, `trail dream` consolidates the last 3 daily files into \
         .trail/MEMORY.md. Here with the offline extractive provider (no LLM): facts merged and \
         deduplicated, each with its source line, then every bullet checked by the verifier:\n"
    ))?;
    let report = dream_next_morning(project, secrets)?;
    if report.status != Status::Written {
        return Err(CliError::failed(format!(
            "the demo's dream wrote nothing: {}",
            report.reason.unwrap_or_default()
        )));
    }
    say(&format!(
        "  $ trail dream  → {} entries, {} dropped as unsupported\n\n",
        report.entries_after,
        report.dropped.len()
    ))?;
    let diary = report
        .diary_path
        .as_ref()
        .map(std::fs::read_to_string)
        .transpose()?
        .unwrap_or_default();
    say(&format!(
        "  The dream diary, .trail/memory/dreams/2026-11-26.md:\n\n{}\n",
        indent(&diary)
    ))?;
    let memory = std::fs::read_to_string(&report.memory_path)?;
    say(&format!("  .trail/MEMORY.md:\n\n{}\n", indent(&memory)))?;
    Ok(memory)
}

fn dream_next_morning(project: &Path, secrets: &Secrets) -> CliResult<dream::Report> {
    let options = Options {
        lookback: dream::DEFAULT_LOOKBACK,
        force: false,
        dry_run: false,
        now: at(NEXT_DAY_AT),
        secrets,
        accept_loss: None,
    };
    Ok(dream::dream(
        project,
        &options,
        &Extractive as &dyn Provider,
        &mut |_| {},
    )?)
}

/// Every bullet of the dream's MEMORY.md is supported by the day's file, and a fabricated one
/// would not be: the demo fails if either is not so.
fn every_bullet_verified(
    step: usize,
    daily: &str,
    memory: &str,
    say: &mut dyn FnMut(&str) -> CliResult,
) -> CliResult {
    let sources = [Source {
        name: "memory/2026-11-25.md",
        text: daily,
    }];
    let checks = verify(memory, &sources);
    let bad = checks
        .iter()
        .filter(|c| c.verdict == Verdict::Unsupported)
        .count();
    say(&format!(
        "{step}. `trail memory verify`: {} bullets, {} unsupported. A fabricated bullet — say \
         \"Rounding happens per order since v2.3\" — would be dropped: \"v2.3\" is in no source.\n",
        checks.len(),
        bad
    ))?;
    let fake = verify("- Rounding happens per order since v2.3\n", &sources);
    if bad > 0 || fake.first().map(|c| &c.verdict) != Some(&Verdict::Unsupported) {
        return Err(CliError::CheckFailed);
    }
    Ok(())
}

/// Nothing changed in the window since the dream: a second one skips.
fn a_second_dream_skips(
    project: &Path,
    secrets: &Secrets,
    say: &mut dyn FnMut(&str) -> CliResult,
) -> CliResult {
    let again = dream_next_morning(project, secrets)?;
    say(&format!(
        "  $ trail dream  (again)  → skipped: {}\n\n",
        again.reason.unwrap_or_default()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chapter_flushes_dreams_and_verifies() {
        let dir = tempfile::tempdir().unwrap();
        let mut out = String::new();
        let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
        let next = dream_chapter(dir.path(), &secrets, 14, &mut |s| {
            out.push_str(s);
            Ok(())
        })
        .unwrap();
        assert_eq!(next, 17);
        for want in [
            "14. Memory: a day of sessions",
            "# Daily Memory: 2026-11-25",
            "## Session morning-session (10:30)",
            "# Dream Diary: 2026-11-26",
            "# Core Memory",
            "(src: memory/2026-11-25.md#L",
            "0 unsupported",
            "skipped: the daily content in the window is unchanged",
        ] {
            assert!(out.contains(want), "missing {want:?} in:\n{out}");
        }
        let memory = std::fs::read_to_string(dir.path().join(".trail/MEMORY.md")).unwrap();
        // The note is knowledge; the session's files and commands stay in daily memory.
        assert!(memory.contains("Rounding happens per line"), "{memory}");
        assert!(!memory.contains("## Files changed"), "{memory}");
    }
}
