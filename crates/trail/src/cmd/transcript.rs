//! `trail transcript PATH`: what a Claude Code or Codex session holds.

use std::collections::BTreeMap;

use trail_core::conversation;

use crate::cli::TranscriptArgs;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(args: &TranscriptArgs) -> CliResult {
    let text = std::fs::read_to_string(&args.path)
        .map_err(|e| CliError::usage(format!("cannot read {}: {e}", args.path.display())))?;
    let t = conversation::parse(&text);
    // A file with lines but nothing a session holds is not an empty session: it is not a
    // transcript (issue 22: such a file was described as one with 0 messages, exit 0).
    let holds_nothing = t.messages.is_empty()
        && t.tool_calls.is_empty()
        && t.compactions.is_empty()
        && t.summary.is_none();
    if holds_nothing && !text.trim().is_empty() {
        return Err(CliError::usage(format!(
            "{} is unreadable as a session: none of its {} lines is a message, tool call, \
             compaction or summary of a Claude Code transcript or Codex rollout",
            args.path.display(),
            t.lines
        ))
        .with_hint(
            "Claude Code keeps transcripts in ~/.claude/projects/<project>/<session>.jsonl; \
             Codex keeps rollouts in ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl",
        ));
    }
    if args.json {
        return output::json(&t);
    }
    let main = t.messages.iter().filter(|m| !m.sidechain).count();
    let mut tools: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &t.tool_calls {
        *tools.entry(c.name.as_str()).or_default() += 1;
    }
    let failed = t.tool_calls.iter().filter(|c| c.is_error).count();
    let mut s = format!(
        "{}: {} lines, {} messages ({} main chain, {} sidechain)\n",
        args.path.display(),
        t.lines,
        t.messages.len(),
        main,
        t.messages.len() - main
    );
    s.push_str(&format!(
        "context: {}\n",
        t.context_tokens.map_or_else(
            || "unknown (no main-chain assistant message since the last compaction)".into(),
            |c| format!("{c} tokens")
        )
    ));
    s.push_str(&format!(
        "usage (main chain, each API message once): {} input, {} output, {} cache creation, {} cache read\n",
        t.usage.input_tokens, t.usage.output_tokens, t.usage.cache_creation_input_tokens, t.usage.cache_read_input_tokens
    ));
    let list: Vec<String> = tools.iter().map(|(n, c)| format!("{n} ×{c}")).collect();
    s.push_str(&format!(
        "tool calls: {} ({failed} failed): {}\n",
        t.tool_calls.len(),
        list.join(", ")
    ));
    for c in &t.compactions {
        s.push_str(&format!(
            "compaction: {} at {} tokens ({})\n",
            c.trigger.as_deref().unwrap_or("?"),
            c.pre_tokens.map_or("?".into(), |n| n.to_string()),
            c.timestamp.as_deref().unwrap_or("?")
        ));
    }
    if let Some(sum) = &t.summary {
        s.push_str(&format!("summary:\n{}\n", trail_core::text::cut(sum, 600)));
    }
    if !t.bad_lines.is_empty() {
        s.push_str(&format!("unreadable lines: {:?}\n", t.bad_lines));
    }
    output::text(&s)
}
