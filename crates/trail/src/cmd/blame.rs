//! `trail blame FILE[:LINE] | COMMIT`: which session, prompt, tool call and approval produced a
//! line or a commit ([`trail_core::blame`]), printed as evidence.

use std::fmt::Write as _;

use trail_core::blame::{self, Blame, BlameError, CommitBlame, NoteState, Origin, Target};

use super::report::minute_of;
use crate::cli::BlameArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, args: &BlameArgs) -> CliResult {
    let target = Target::parse(&ctx.root, &args.target);
    let b = blame::blame(
        &ctx.root,
        &ctx.config.secrets_dir.value,
        &ctx.ledger,
        &target,
        true,
    )
    .map_err(|e| match e {
        BlameError::NoRepository(_) => {
            CliError::usage(e.to_string()).with_hint("run it in the project's git checkout")
        }
        BlameError::Git { .. } => CliError::usage(e.to_string())
            .with_hint("name a file of the project (FILE or FILE:LINE) or a commit git knows"),
        BlameError::Ledger(e) => CliError::from(e),
        other => CliError::failed(other.to_string()),
    })?;
    if args.json {
        return output::json(&b);
    }
    output::text(&render(&b))
}

fn render(b: &Blame) -> String {
    let mut out = String::new();
    if b.noted > 0 {
        let _ = writeln!(out, "(wrote trail notes for {} new commit(s))", b.noted);
    }
    if let Some(f) = &b.file {
        let _ = writeln!(out, "{f}");
        for l in &b.lines {
            let (who, what) = match &l.origin {
                Origin::Agent { tool, at, .. } => ("agent", format!("{tool} at {}", minute_of(at))),
                Origin::Person => (
                    "person",
                    "not written by the agent's edits, committed in the agent's commit".into(),
                ),
                Origin::Unknown => ("unknown", "committed without trail".into()),
                Origin::Uncommitted => ("-", "not committed yet".into()),
            };
            let _ = writeln!(
                out,
                "{:>5}  {who:<8} {}  {what:<44}  {}",
                l.line,
                short(&l.commit),
                l.text.trim_end()
            );
        }
        out.push('\n');
    }
    for c in &b.commits {
        commit(&mut out, c);
    }
    if !b.gone.is_empty() {
        let _ = writeln!(
            out,
            "trail recorded {} commit(s) git no longer has (rewritten before their note): {}",
            b.gone.len(),
            b.gone
                .iter()
                .map(|c| short(c))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out
}

fn commit(out: &mut String, c: &CommitBlame) {
    let _ = writeln!(
        out,
        "commit {}  {}: {}",
        short(&c.commit),
        c.author,
        c.summary
    );
    match (&c.note, &c.evidence) {
        (
            NoteState::Verified {
                chain,
                machine,
                here,
            },
            Some(n),
        ) => {
            let _ = writeln!(
                out,
                "  made by the agent: session {}, {} at {}",
                n.session.as_deref().unwrap_or("(unknown)"),
                n.tool_use_id
                    .as_deref()
                    .map_or_else(|| "a tool call".to_string(), |t| format!("tool call {t}")),
                minute_of(&n.at)
            );
            if let Some(p) = &n.prompt {
                let _ = writeln!(out, "  prompt at {}: {}", minute_of(&p.at), p.text);
            }
            let _ = writeln!(out, "  command: {}", n.command);
            for a in &n.approvals {
                let _ = writeln!(
                    out,
                    "  approved by the person at {} ({}): {}",
                    minute_of(&a.at),
                    match a.by {
                        trail_core::state::grants::By::Terminal => "in a terminal",
                        trail_core::state::grants::By::Prompt => "typed as /edge",
                    },
                    a.action.as_deref().unwrap_or(&a.id)
                );
            }
            let files: std::collections::BTreeSet<&str> =
                n.edits.iter().map(|e| e.file.as_str()).collect();
            if !files.is_empty() {
                let _ = writeln!(
                    out,
                    "  the agent edited: {}",
                    files.into_iter().collect::<Vec<_>>().join(", ")
                );
            }
            let signer = if *here {
                format!("this machine's key ({machine})")
            } else {
                format!("the key you trusted for machine {machine}")
            };
            let _ = writeln!(
                out,
                "  evidence: the note is signed by {signer}; its pulse ({}) is in that machine's stream, sealed and linked, and the {chain} record(s) after it up to the head are sealed and chained",
                n.record.ts
            );
            if let Some(from) = &c.carried_from {
                let _ = writeln!(
                    out,
                    "  the note was written for {}, which this commit replaced (amend or rebase); git carried it",
                    short(from)
                );
            }
        }
        (NoteState::Forged { why }, _) => {
            let _ = writeln!(
                out,
                "  a trail note is there, but it does not verify: {why}"
            );
        }
        _ => {
            let _ = writeln!(
                out,
                "  no trail note: committed without trail (a person, or an agent trail did not see), or its note was lost when the commit was rewritten"
            );
        }
    }
    if let Some(t) = &c.trailer {
        let _ = writeln!(
            out,
            "  message trailer Trail-Session: {} ({})",
            t.session,
            match t.agrees {
                Some(true) => "the signed note names the same session",
                Some(false) => "the signed note names another session: the message is wrong",
                None => "a claim only: no note that verifies backs it",
            }
        );
    }
}

fn short(id: &str) -> &str {
    id.get(..10).unwrap_or(id)
}
