//! What runs code given as text: `Invoke-Expression`, `Start-Process`, `cmd /c` and a nested
//! `pwsh -Command` are judged one level deeper; fetched or decoded code is blocked
//! (principle 5).

use super::args::Params;
use super::syntax::{cmd_exe, text_of};
use super::{Hidden, findings, hidden, hidden_block};
use crate::parse::Simple;
use crate::{Context, Decision, RuleId, junction};

/// `Invoke-Expression CODE`: a download fed to it, or code it decodes, is blocked; a literal
/// is judged as PowerShell; anything else is only known when it runs.
pub(super) fn invoke_expression(
    rest: &[String],
    producers: &[&Simple],
    ctx: &Context,
    depth: usize,
    raw: &str,
    out: &mut Vec<Decision>,
) {
    let code = rest.join(" ");
    let fed = producers
        .iter()
        .any(|p| matches!(p.name(), Some("curl" | "wget")));
    if fed {
        out.push(hidden_block(Hidden::Remote, raw));
    } else if let Some(k) = hidden(&code) {
        out.push(hidden_block(k, raw));
    } else if let Some(t) = rest
        .first()
        .and_then(|w| text_of(w))
        .filter(|_| rest.len() == 1)
    {
        out.extend(findings(&t, ctx, depth + 1));
    } else if !rest.is_empty() || !producers.is_empty() {
        out.push(junction(
            RuleId::Unverifiable,
            "the code handed to Invoke-Expression is only known when it runs",
            raw,
        ));
    }
}

/// `Start-Process FILE [ARGS]`: the program and its arguments, judged as a command line.
pub(super) fn start_process(
    rest: &[String],
    ctx: &Context,
    depth: usize,
    raw: &str,
    out: &mut Vec<Decision>,
) {
    let p = Params::read(rest, &["wait", "nonewwindow", "passthru", "verb"]);
    let file = p
        .value("filepath", 1)
        .map(str::to_string)
        .or(p.positional.first().cloned());
    let args = p
        .value("argumentlist", 1)
        .map(str::to_string)
        .or(p.positional.get(1).cloned())
        .unwrap_or_default();
    let Some(f) = file.and_then(|f| text_of(&f)) else {
        out.push(junction(
            RuleId::Unverifiable,
            "the program Start-Process runs is only known when it runs",
            raw,
        ));
        return;
    };
    let line = format!("{f} {}", text_of(&args).unwrap_or(args));
    out.extend(findings(&line, ctx, depth + 1));
}

/// `cmd /c "…"`: the string is a cmd.exe command line.
pub(super) fn cmd(rest: &[String], ctx: &Context, depth: usize, out: &mut Vec<Decision>) {
    let run = rest
        .iter()
        .position(|w| w.eq_ignore_ascii_case("/c") || w.eq_ignore_ascii_case("/k"));
    if let Some(i) = run {
        let line = rest[i + 1..]
            .iter()
            .map(|w| text_of(w).unwrap_or_else(|| w.clone()))
            .collect::<Vec<_>>()
            .join(" ");
        out.extend(findings(&cmd_exe(&line), ctx, depth + 1));
    }
}

/// A nested `pwsh`/`powershell`: `-EncodedCommand` is blocked, `-Command CODE` judged one
/// level deeper. Whether it was either (else it is a shell started as written).
pub(super) fn pwsh(
    rest: &[String],
    ctx: &Context,
    depth: usize,
    raw: &str,
    out: &mut Vec<Decision>,
) -> bool {
    let encoded = rest.iter().any(|w| {
        let l = w.to_ascii_lowercase();
        l.starts_with("-e")
            && "-encodedcommand".starts_with(&l)
            && l.len() >= 2
            && l != "-ex"
            && !l.starts_with("-exec")
    });
    if encoded {
        out.push(hidden_block(Hidden::Decoded, raw));
        return true;
    }
    let command = rest.iter().position(|w| {
        let l = w.to_ascii_lowercase();
        l == "-c" || (l.len() >= 3 && "-command".starts_with(&l))
    });
    let Some(i) = command else {
        return false;
    };
    let code = rest[i + 1..]
        .iter()
        .map(|w| text_of(w).unwrap_or_else(|| w.clone()))
        .collect::<Vec<_>>()
        .join(" ");
    out.extend(findings(&code, ctx, depth + 1));
    true
}
