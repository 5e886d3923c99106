//! One PowerShell command in the gate's terms: the cmdlet an alias names, dispatched to its
//! family; what no family knows keeps its name and words.

use super::args::{Params, dynamic, path, word};
use super::syntax::{canonical, canonical_case, text_of};
use super::{files, hidden, hidden_block, runs};
use crate::parse::{Arg, Simple};
use crate::{Context, Decision, RuleId, junction};

/// Cmdlets that change machine state nothing brings back.
const MACHINE_STATE: &[&str] = &[
    "clear-recyclebin",
    "remove-itemproperty",
    "clear-item",
    "remove-smbshare",
    "uninstall-package",
    "remove-localuser",
    "disable-localuser",
    "set-executionpolicy",
    "remove-appxpackage",
];

/// Cmdlets that schedule work for later.
const SCHEDULES: &[&str] = &[
    "register-scheduledtask",
    "new-scheduledtask",
    "schtasks",
    "register-scheduledjob",
];

/// Cmdlets that only look, or only shape what flows through the pipeline.
const ONLY_LOOK: &[&str] = &[
    "test-path",
    "resolve-path",
    "split-path",
    "join-path",
    "get-itemproperty",
    "write-output",
    "out-host",
    "out-null",
    "format-table",
    "format-list",
    "select-object",
    "where-object",
    "sort-object",
    "measure-object",
    "group-object",
    "convertfrom-json",
    "convertto-json",
    "foreach-object",
];

/// Language words that start a statement rather than call a command.
const KEYWORDS: &[&str] = &[
    "function", "filter", "param", "if", "else", "elseif", "foreach", "for", "while", "do",
    "switch", "try", "catch", "finally", "return", "begin", "process", "end",
];

/// One PowerShell command as a simple command the rules understand, plus findings only
/// PowerShell has (code run from text).
pub(super) fn translate(
    words: &[String],
    producers: &[&Simple],
    ctx: &Context,
    depth: usize,
) -> (Option<Simple>, Vec<Decision>) {
    let raw = words.join(" ");
    let mut out = Vec::new();
    let Some((first, rest)) = callee(words, &raw, &mut out) else {
        return (None, out);
    };
    let name = canonical(&first);
    if rest.iter().any(|w| w.eq_ignore_ascii_case("-whatif")) {
        return (None, out);
    }
    let argv = match name.as_str() {
        "remove-item" => files::remove_item(rest, producers, ctx),
        "get-childitem" => files::list(rest, ctx),
        "get-content" | "select-string" | "get-item" | "get-filehash" | "import-csv"
        | "get-acl" => files::read(&name, rest, ctx),
        "set-content" | "add-content" | "new-item" | "clear-content" => {
            files::write(&name, rest, ctx)
        }
        "copy-item" | "move-item" | "rename-item" => files::copy_or_move(&name, rest, ctx),
        "expand-archive" => files::expand_archive(rest, ctx),
        "invoke-webrequest" | "invoke-restmethod" => web_request(rest, ctx),
        "stop-process" => stop_process(rest, producers),
        "invoke-expression" => {
            runs::invoke_expression(rest, producers, ctx, depth, &raw, &mut out);
            return (None, out);
        }
        "start-process" => {
            runs::start_process(rest, ctx, depth, &raw, &mut out);
            return (None, out);
        }
        "cmd" => {
            runs::cmd(rest, ctx, depth, &mut out);
            return (None, out);
        }
        "pwsh" | "powershell" => {
            if runs::pwsh(rest, ctx, depth, &raw, &mut out) {
                return (None, out);
            }
            vec![word("pwsh")]
        }
        n if MACHINE_STATE.contains(&n) => {
            out.push(junction(
                RuleId::PsDestructive,
                "this PowerShell command deletes or changes machine state that cannot be brought back",
                &raw,
            ));
            return (None, out);
        }
        n if SCHEDULES.contains(&n) => {
            out.push(junction(
                RuleId::Schedule,
                "this schedules a task to run later, when no one is watching: a person decides",
                &raw,
            ));
            return (None, out);
        }
        n if ONLY_LOOK.contains(&n) => return (None, out),
        _ => as_written(&first, rest, ctx),
    };
    let simple = Simple {
        argv,
        ..Simple::default()
    };
    (Some(simple), out)
}

/// The command a statement calls and its words, or `None` when it calls none: an expression
/// (`$x`, `(…)`, a literal) or a keyword runs no command of its own; `&`/`.` call the one
/// named next, and one only known when it runs is a finding of its own.
fn callee<'w>(
    words: &'w [String],
    raw: &str,
    out: &mut Vec<Decision>,
) -> Option<(String, &'w [String])> {
    let first = words.first()?;
    if matches!(first.as_str(), "&" | ".") && words.len() > 1 {
        return match text_of(&words[1]) {
            Some(t) if !t.contains('$') => Some((t, &words[2..])),
            _ => {
                if let Some(k) = hidden(&words[1]) {
                    out.push(hidden_block(k, raw));
                } else {
                    out.push(junction(
                        RuleId::Unverifiable,
                        "the command called with & is only known when it runs",
                        raw,
                    ));
                }
                None
            }
        };
    }
    let expression = first.starts_with(['$', '(', '[', '@', '\'', '"'])
        || first.parse::<f64>().is_ok()
        || first.contains(['(', '['])
        || KEYWORDS.contains(&first.to_ascii_lowercase().as_str());
    (!expression).then(|| (first.clone(), &words[1..]))
}

/// `Invoke-WebRequest`/`Invoke-RestMethod` as `curl`: its method, a body, an output file.
fn web_request(rest: &[String], ctx: &Context) -> Vec<Arg> {
    let p = Params::read(
        rest,
        &["usebasicparsing", "usedefaultcredentials", "passthru"],
    );
    let mut argv = vec![word("curl")];
    if let Some(m) = p.value("method", 1) {
        argv.push(word("-X"));
        argv.push(word(&m.to_ascii_uppercase()));
    }
    if p.value("infile", 2).is_some()
        || p.value("body", 1).is_some()
        || p.value("form", 2).is_some()
    {
        argv.push(word("--data"));
        argv.push(word("x"));
    }
    if let Some(o) = p.value("outfile", 1) {
        argv.push(word("-o"));
        argv.push(path(o, ctx));
    }
    let uri = p
        .value("uri", 1)
        .map(str::to_string)
        .or(p.positional.first().cloned());
    if let Some(u) = uri {
        argv.push(text_of(&u).map_or_else(|| dynamic(&u), |t| word(&t)));
    }
    argv
}

/// `Stop-Process` as `pkill` (by name, or fed by the pipeline) or `kill` (by id).
fn stop_process(rest: &[String], producers: &[&Simple]) -> Vec<Arg> {
    let p = Params::read(rest, &["force", "passthru"]);
    let by_name = p.value("name", 1).is_some()
        || p.value("processname", 1).is_some()
        || p.positional.iter().any(|w| w.parse::<u64>().is_err());
    if by_name || !producers.is_empty() {
        return vec![word("pkill"), word("x")];
    }
    let mut argv = vec![word("kill")];
    if let Some(v) = p.value("id", 1) {
        argv.extend(v.split(',').map(|x| {
            if x.parse::<u64>().is_ok() {
                word(x)
            } else {
                dynamic(x)
            }
        }));
    }
    argv.extend(p.positional.iter().map(|w| word(w)));
    argv
}

/// Everything else (git, docker, npm, cmdlets like Format-Volume or Stop-Service) keeps its
/// name and words; a variable or a Windows path is a place.
fn as_written(first: &str, rest: &[String], ctx: &Context) -> Vec<Arg> {
    let name =
        if first.contains('-') && first.chars().next().is_some_and(|c| c.is_ascii_uppercase()) {
            canonical_case(first)
        } else {
            first.to_string()
        };
    let mut argv = vec![word(&name)];
    for w in rest {
        if (w.starts_with('$') && w.len() > 1) || (w.contains(['\\', ':']) && !w.starts_with('-')) {
            argv.push(path(w, ctx));
        } else {
            argv.push(text_of(w).map_or_else(|| dynamic(w), |t| word(&t)));
        }
    }
    argv
}
