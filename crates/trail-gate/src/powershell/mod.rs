//! PowerShell commands (Claude Code's `PowerShell` tool on Windows), judged by the same
//! families as shell commands.
//!
//! A small reader splits a PowerShell line into pipelines and commands (quotes, `( )`,
//! `$( )` and `{ }` blocks respected; what is inside a block is judged too, since a function
//! defined on the line may run). Each command is translated to what it does in the gate's own
//! terms — `Remove-Item -Recurse -Force X` is `rm -r -f X`, `Get-Content` is `cat`,
//! `Stop-Process -Name` is `pkill` — with Windows paths mapped onto the gate's places
//! (`C:\` is `/`, `C:\Windows` a system directory, `$env:USERPROFILE` and `~` the home,
//! `$env:TEMP` the temporary directory), and judged by the same rules. Code run from text
//! (`Invoke-Expression`, `-EncodedCommand`, a download piped to `iex`) follows principle 5:
//! fetched or decoded code is blocked. `-WhatIf` only shows.
//!
//! The reader is `syntax.rs`; `args.rs` maps a cmdlet's parameters and paths; `translate.rs`
//! turns one command into the gate's terms, with the file cmdlets in `files.rs` and what runs
//! code from text in `runs.rs`.

mod args;
mod files;
mod runs;
mod syntax;
pub(crate) use syntax::is_cmdlet;
mod translate;

use super::parse::Simple;
use super::{Context, Decision, Verdict, junction};
use crate::RuleId;
use syntax::{blocks, split};
use translate::translate;

/// Judge a PowerShell command line: the worst finding wins.
pub fn evaluate(line: &str, ctx: &Context) -> Decision {
    let mut worst = Decision {
        verdict: Verdict::Allow,
        rule: None,
        reason: "no rule matched".into(),
        command: None,
        targets: Vec::new(),
    };
    for d in findings(line, ctx, 0) {
        if d.verdict > worst.verdict {
            worst = d;
        }
    }
    worst
}

/// How deep blocks and nested `powershell -c` may go before the gate asks a person.
const MAX_DEPTH: usize = 8;

pub(super) fn findings(line: &str, ctx: &Context, depth: usize) -> Vec<Decision> {
    if depth > MAX_DEPTH {
        return vec![junction(
            RuleId::Unverifiable,
            "PowerShell nested too deeply to follow",
            line,
        )];
    }
    let Some(stmts) = split(line) else {
        return vec![junction(
            RuleId::Unparseable,
            "the gate cannot read this PowerShell (unbalanced quotes or brackets)",
            line,
        )];
    };
    let mut out = Vec::new();
    for pipeline in stmts {
        let mut previous: Option<Simple> = None;
        for words in pipeline {
            // Blocks and sub-expressions run too: judge what is inside them.
            for w in &words {
                for inner in blocks(w) {
                    out.extend(findings(inner, ctx, depth + 1));
                }
            }
            let producers: Vec<&Simple> = previous.iter().collect();
            let (simple, mut own) = translate(&words, &producers, ctx, depth);
            out.append(&mut own);
            if let Some(s) = &simple {
                out.extend(super::judge::command(s, &producers, ctx, depth));
            }
            previous = simple;
        }
    }
    out
}

/// How code reaches a command without being written on the line.
#[derive(Clone, Copy)]
enum Hidden {
    /// Fetched from the network.
    Remote,
    /// Decoded or assembled from other text.
    Decoded,
}

/// Whether a word fetches or decodes code.
fn hidden(w: &str) -> Option<Hidden> {
    let l = w.to_ascii_lowercase();
    if [
        "downloadstring",
        "downloadfile",
        "invoke-webrequest",
        "invoke-restmethod",
        "iwr ",
        "irm ",
        "(iwr",
        "(irm",
        "net.webclient",
        "start-bitstransfer",
        "http://",
        "https://",
    ]
    .iter()
    .any(|n| l.contains(n))
    {
        return Some(Hidden::Remote);
    }
    if [
        "frombase64string",
        "[char]",
        "-join",
        "-bxor",
        "[convert]",
        "gzipstream",
        "deflatestream",
        "-encodedcommand",
        "-enc ",
    ]
    .iter()
    .any(|n| l.contains(n))
    {
        return Some(Hidden::Decoded);
    }
    None
}

/// The block for code nobody can read before it runs (principle 5).
fn hidden_block(kind: Hidden, raw: &str) -> Decision {
    let (rule, reason) = match kind {
        Hidden::Remote => (
            RuleId::RemoteCode,
            "code downloaded from the network is run without anyone reading it: it is never run. To allow an installer you trust, a person adds its host to `gate.trusted_installers` in ~/.config/trail/config.toml",
        ),
        Hidden::Decoded => (
            RuleId::DecodedCode,
            "decoded or assembled text is run as code: what it does is hidden, and hiding is itself the signal; it is never run",
        ),
    };
    Decision {
        verdict: Verdict::Block,
        rule: Some(rule.into()),
        reason: reason.into(),
        command: Some(raw.into()),
        targets: Vec::new(),
    }
}
