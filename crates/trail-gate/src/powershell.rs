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

use super::parse::{Arg, Simple, Write};
use super::{Context, Decision, Verdict, junction};
use crate::RuleId;

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

/// Statements (`;`, newlines, `&&`, `||`) of pipelines (`|`) of commands (words), or `None`
/// when quotes or brackets do not balance.
fn split(line: &str) -> Option<Vec<Vec<Vec<String>>>> {
    let mut stmts = vec![vec![vec![]]];
    let mut word = String::new();
    let mut chars = line.chars().peekable();
    let mut depth: Vec<char> = Vec::new();
    let flush = |word: &mut String, stmts: &mut Vec<Vec<Vec<String>>>| {
        if !word.is_empty() {
            stmts
                .last_mut()
                .unwrap()
                .last_mut()
                .unwrap()
                .push(std::mem::take(word));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                word.push(c);
                let mut closed = false;
                while let Some(d) = chars.next() {
                    word.push(d);
                    if d == '`' && c == '"' {
                        if let Some(e) = chars.next() {
                            word.push(e);
                        }
                        continue;
                    }
                    if d == c {
                        // '' inside single quotes is an escaped quote.
                        if c == '\'' && chars.peek() == Some(&'\'') {
                            word.push(chars.next()?);
                            continue;
                        }
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    return None;
                }
            }
            '`' => {
                word.push(c);
                if let Some(e) = chars.next() {
                    word.push(e);
                }
            }
            '(' | '{' | '[' => {
                depth.push(c);
                word.push(c);
            }
            ')' | '}' | ']' => {
                let open = depth.pop()?;
                if !matches!((open, c), ('(', ')') | ('{', '}') | ('[', ']')) {
                    return None;
                }
                word.push(c);
            }
            _ if !depth.is_empty() => word.push(c),
            ' ' | '\t' | '\r' => flush(&mut word, &mut stmts),
            ';' | '\n' => {
                flush(&mut word, &mut stmts);
                stmts.push(vec![vec![]]);
            }
            '&' if chars.peek() == Some(&'&') => {
                chars.next();
                flush(&mut word, &mut stmts);
                stmts.push(vec![vec![]]);
            }
            '|' if chars.peek() == Some(&'|') => {
                chars.next();
                flush(&mut word, &mut stmts);
                stmts.push(vec![vec![]]);
            }
            '|' => {
                flush(&mut word, &mut stmts);
                stmts.last_mut().unwrap().push(vec![]);
            }
            _ => word.push(c),
        }
    }
    if !depth.is_empty() {
        return None;
    }
    flush(&mut word, &mut stmts);
    Some(
        stmts
            .into_iter()
            .map(|p| p.into_iter().filter(|c| !c.is_empty()).collect::<Vec<_>>())
            .filter(|p: &Vec<Vec<String>>| !p.is_empty())
            .collect(),
    )
}

/// The code inside a word's `( … )`, `$( … )` and `{ … }` (not inside quotes).
fn blocks(word: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = word.as_bytes();
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'\'' => quote = Some(c),
            None if c == b'(' || c == b'{' => {
                let close = if c == b'(' { b')' } else { b'}' };
                let mut d = 0;
                let mut j = i;
                while j < b.len() {
                    if b[j] == c {
                        d += 1;
                    } else if b[j] == close {
                        d -= 1;
                        if d == 0 {
                            break;
                        }
                    }
                    j += 1;
                }
                if j < b.len() && j > i + 1 {
                    out.push(&word[i + 1..j]);
                }
                i = j;
            }
            None => {}
        }
        i += 1;
    }
    out
}

/// A PowerShell word as text: quotes removed, backtick escapes resolved; `None` when it holds
/// a variable or an expression (except the ones the gate maps to places).
fn text_of(w: &str) -> Option<String> {
    if let Some(inner) = w.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
        return Some(inner.replace("''", "'"));
    }
    let inner = w
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(w);
    if inner.contains('(') || inner.contains('{') {
        return None;
    }
    let mut out = String::new();
    let mut it = inner.chars();
    while let Some(c) = it.next() {
        if c == '`' {
            match it.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// A Windows path (or PowerShell variable path) in the gate's terms.
fn path(w: &str, ctx: &Context) -> Arg {
    let Some(t) = text_of(w) else {
        return dynamic(w);
    };
    let home = ctx.places.home.to_string_lossy().into_owned();
    let root = ctx.places.project_root.to_string_lossy().into_owned();
    let mut s = t.replace('\\', "/");
    let lower = s.to_ascii_lowercase();
    let swap = |s: &str, n: usize, with: &str| format!("{with}{}", &s[n..]);
    for (var, with) in [
        ("$env:userprofile", home.as_str()),
        ("$home", home.as_str()),
        ("${env:userprofile}", home.as_str()),
        ("$env:temp", "$TMPDIR"),
        ("$env:tmp", "$TMPDIR"),
        ("$pwd", "."),
        ("$psscriptroot", "."),
        ("$env:systemroot", "/usr/windows"),
        ("$env:windir", "/usr/windows"),
        ("$env:programfiles", "/usr/program files"),
        ("$env:appdata", &format!("{home}/AppData/Roaming")),
        ("$env:localappdata", &format!("{home}/AppData/Local")),
    ] {
        if lower.starts_with(var) {
            s = swap(&s, var.len(), with);
            return arg_for(&s);
        }
    }
    if s.starts_with('$') {
        return dynamic(w);
    }
    if lower.len() >= 2 && lower.as_bytes()[1] == b':' && lower.as_bytes()[0].is_ascii_alphabetic()
    {
        let rest = s[2..].to_string();
        let rest_l = rest.to_ascii_lowercase();
        let mapped = if rest_l.is_empty() || rest_l == "/" {
            "/".to_string()
        } else if rest_l.starts_with("/windows/system32/drivers/etc") {
            format!("/etc{}", &rest["/windows/system32/drivers/etc".len()..])
        } else if [
            "/windows",
            "/program files",
            "/programdata",
            "/program files (x86)",
            "/boot",
            "/recovery",
            "/system volume information",
        ]
        .iter()
        .any(|p| rest_l == *p || rest_l.starts_with(&format!("{p}/")))
        {
            format!("/usr{rest}")
        } else if rest_l.starts_with("/users/") || rest_l == "/users" {
            // C:\Users\<name>: this home, or another person's, next to it.
            let tail = &rest["/users".len()..];
            let parent = ctx
                .places
                .home
                .parent()
                .map_or_else(|| "/home".into(), |p| p.to_string_lossy().into_owned());
            format!("{parent}{tail}")
        } else if rest_l.starts_with("/temp") || rest_l.starts_with("/tmp") {
            format!(
                "/tmp{}",
                &rest[rest
                    .find('/')
                    .map_or(0, |_| rest[1..].find('/').map_or(rest.len(), |i| i + 1))..]
            )
        } else {
            rest
        };
        // The project as Windows names it (`C:\work\proj`) is the project.
        let _ = &root;
        return arg_for(&mapped);
    }
    arg_for(&s)
}

fn arg_for(s: &str) -> Arg {
    Arg {
        text: Some(s.to_string()),
        raw: if s.contains([' ', '\'']) {
            format!("'{s}'")
        } else {
            s.to_string()
        },
        quoted: false,
    }
}

fn dynamic(w: &str) -> Arg {
    Arg {
        text: None,
        raw: format!("\"{}\"", w.replace('"', "")),
        quoted: true,
    }
}

fn word(t: &str) -> Arg {
    Arg {
        text: Some(t.to_string()),
        raw: t.to_string(),
        quoted: false,
    }
}

/// Aliases and their cmdlets (the built-in ones of Windows PowerShell and pwsh).
fn canonical(name: &str) -> String {
    let l = name.to_ascii_lowercase();
    let l = l.strip_suffix(".exe").unwrap_or(&l).to_string();
    match l.as_str() {
        "rm" | "del" | "erase" | "rd" | "rmdir" | "ri" | "remove-item" => "remove-item",
        "gc" | "cat" | "type" | "get-content" => "get-content",
        "sc" | "set-content" | "out-file" => "set-content",
        "ac" | "add-content" => "add-content",
        "cp" | "copy" | "cpi" | "copy-item" => "copy-item",
        "mv" | "move" | "mi" | "move-item" => "move-item",
        "iex" | "invoke-expression" => "invoke-expression",
        "iwr" | "curl" | "wget" | "invoke-webrequest" => "invoke-webrequest",
        "irm" | "invoke-restmethod" => "invoke-restmethod",
        "kill" | "spps" | "stop-process" => "stop-process",
        "gci" | "ls" | "dir" | "get-childitem" => "get-childitem",
        "saps" | "start" | "start-process" => "start-process",
        "echo" | "write" | "write-output" | "write-host" => "write-output",
        other => return other.to_string(),
    }
    .to_string()
}

/// Parameters as (name lower-case, value) and positional words, for a cmdlet.
fn params(words: &[String], switches: &[&str]) -> (Vec<(String, Option<String>)>, Vec<String>) {
    let mut named = Vec::new();
    let mut positional = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if w.starts_with('-') && w.len() > 1 && !w[1..].starts_with(|c: char| c.is_ascii_digit()) {
            let body = &w[1..];
            let (n, v) = match body.split_once(':') {
                Some((n, v)) => (n.to_ascii_lowercase(), Some(v.to_string())),
                None => (body.to_ascii_lowercase(), None),
            };
            if v.is_none() && !switches.iter().any(|s| s.starts_with(&n)) && i + 1 < words.len() {
                named.push((n, Some(words[i + 1].clone())));
                i += 2;
                continue;
            }
            named.push((n, v));
        } else {
            positional.push(w.clone());
        }
        i += 1;
    }
    (named, positional)
}

fn has(named: &[(String, Option<String>)], full: &str, min: usize) -> bool {
    named.iter().any(|(n, v)| {
        n.len() >= min
            && full.starts_with(n.as_str())
            && v.as_deref()
                .is_none_or(|v| !v.eq_ignore_ascii_case("$false"))
    })
}

fn value<'a>(named: &'a [(String, Option<String>)], full: &str, min: usize) -> Option<&'a str> {
    named
        .iter()
        .find(|(n, _)| n.len() >= min && full.starts_with(n.as_str()))
        .and_then(|(_, v)| v.as_deref())
}

/// Whether a word fetches or decodes code.
fn hidden(w: &str) -> Option<&'static str> {
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
        return Some("remote");
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
        return Some("decoded");
    }
    None
}

fn hidden_block(kind: &str, raw: &str) -> Decision {
    Decision {
        verdict: Verdict::Block,
        rule: Some(
            if kind == "remote" {
                "remote-code"
            } else {
                "decoded-code"
            }
            .into(),
        ),
        reason: if kind == "remote" {
            "code downloaded from the network is run without anyone reading it: it is never run. To allow an installer you trust, a person adds its host to `gate.trusted_installers` in ~/.config/trail/config.toml".into()
        } else {
            "decoded or assembled text is run as code: what it does is hidden, and hiding is itself the signal; it is never run".into()
        },
        command: Some(raw.into()),
        targets: Vec::new(),
    }
}

/// One PowerShell command as a simple command the rules understand, plus findings only
/// PowerShell has (code run from text).
#[expect(
    clippy::too_many_lines,
    reason = "one arm per program or flag family: a dispatch table read top to bottom"
)]
fn translate(
    words: &[String],
    producers: &[&Simple],
    ctx: &Context,
    depth: usize,
) -> (Option<Simple>, Vec<Decision>) {
    let raw = words.join(" ");
    let mut out = Vec::new();
    let Some(first) = words.first() else {
        return (None, out);
    };
    // An expression (`$x`, `(…)`, a literal) runs no command of its own; `&`/`.` call one.
    let (first, rest) = if matches!(first.as_str(), "&" | ".") && words.len() > 1 {
        match text_of(&words[1]) {
            Some(t) if !t.contains('$') => (t, &words[2..]),
            _ => {
                if let Some(k) = hidden(&words[1]) {
                    out.push(hidden_block(k, &raw));
                } else {
                    out.push(junction(
                        RuleId::Unverifiable,
                        "the command called with & is only known when it runs",
                        &raw,
                    ));
                }
                return (None, out);
            }
        }
    } else {
        if first.starts_with(['$', '(', '[', '@', '\'', '"'])
            || first.parse::<f64>().is_ok()
            || first.contains(['(', '['])
            || matches!(
                first.to_ascii_lowercase().as_str(),
                "function"
                    | "filter"
                    | "param"
                    | "if"
                    | "else"
                    | "elseif"
                    | "foreach"
                    | "for"
                    | "while"
                    | "do"
                    | "switch"
                    | "try"
                    | "catch"
                    | "finally"
                    | "return"
                    | "begin"
                    | "process"
                    | "end"
            )
        {
            return (None, out);
        }
        (first.clone(), &words[1..])
    };
    let name = canonical(&first);
    let rest: Vec<String> = rest.to_vec();
    if rest.iter().any(|w| w.eq_ignore_ascii_case("-whatif")) {
        return (None, out);
    }
    let simple = |argv: Vec<Arg>, writes: Vec<Write>| Simple {
        argv,
        writes,
        ..Simple::default()
    };
    let cmd = match name.as_str() {
        "remove-item" => {
            let (named, pos) = params(&rest, &["recurse", "force", "whatif", "confirm"]);
            let mut argv = vec![word("rm")];
            if has(&named, "recurse", 1) {
                argv.push(word("-r"));
            }
            argv.push(word("-f"));
            let mut paths: Vec<String> = pos;
            for k in ["path", "literalpath"] {
                if let Some(v) = value(&named, k, 1) {
                    paths.extend(v.split(',').map(str::to_string));
                }
            }
            if paths.is_empty() {
                // Fed by the pipeline: what the producer listed.
                for p in producers {
                    if p.name() == Some("find") {
                        argv.extend(
                            p.argv
                                .iter()
                                .skip(1)
                                .take_while(|a| !a.raw.starts_with('-'))
                                .cloned(),
                        );
                    } else {
                        argv.push(dynamic("$input"));
                    }
                }
            }
            argv.extend(paths.iter().map(|p| path(p, ctx)));
            simple(argv, vec![])
        }
        "get-childitem" => {
            let (named, pos) = params(
                &rest,
                &["recurse", "force", "name", "file", "directory", "hidden"],
            );
            let mut argv = vec![word("find")];
            let p = value(&named, "path", 1)
                .map(str::to_string)
                .or(pos.first().cloned())
                .unwrap_or_else(|| ".".into());
            argv.push(path(&p, ctx));
            if value(&named, "filter", 2).is_some()
                || value(&named, "include", 2).is_some()
                || pos.len() > 1
                || p.contains('*')
            {
                argv.push(word("-name"));
                argv.push(word("x"));
            }
            simple(argv, vec![])
        }
        "get-content" | "select-string" | "get-item" | "get-filehash" | "import-csv"
        | "get-acl" => {
            let (named, pos) = params(&rest, &["raw", "wait", "simplematch", "recurse"]);
            let mut argv = vec![word(if name == "get-content" { "cat" } else { "grep" })];
            if name != "get-content"
                && let Some(p) = value(&named, "pattern", 2)
            {
                argv.push(arg_for(&text_of(p).unwrap_or_default()));
            }
            let mut paths = pos;
            if let Some(v) = value(&named, "path", 2).or(value(&named, "literalpath", 2)) {
                paths.push(v.to_string());
            }
            argv.extend(paths.iter().map(|p| path(p, ctx)));
            simple(argv, vec![])
        }
        "test-path" | "resolve-path" | "split-path" | "join-path" | "get-itemproperty" => {
            return (None, out);
        }
        "set-content" | "add-content" | "new-item" | "clear-content" => {
            let (named, pos) = params(&rest, &["force", "nonewline", "append"]);
            let target = value(&named, "path", 1)
                .or(value(&named, "filepath", 1))
                .map(str::to_string)
                .or(pos.first().cloned());
            let mut argv = vec![word("tee")];
            if name == "add-content" || has(&named, "append", 2) {
                argv.push(word("-a"));
            }
            if let Some(t) = target {
                argv.push(path(&t, ctx));
            }
            simple(argv, vec![])
        }
        "copy-item" | "move-item" | "rename-item" => {
            let (named, pos) = params(&rest, &["recurse", "force", "container", "passthru"]);
            let mut argv = vec![word(if name == "copy-item" { "cp" } else { "mv" })];
            let mut paths: Vec<String> = value(&named, "path", 1)
                .or(value(&named, "literalpath", 1))
                .map(|v| vec![v.to_string()])
                .unwrap_or_default();
            paths.extend(pos);
            if let Some(d) = value(&named, "destination", 1).or(value(&named, "newname", 1)) {
                paths.push(d.to_string());
            }
            argv.extend(paths.iter().map(|p| path(p, ctx)));
            simple(argv, vec![])
        }
        // An archive unpacked: judged as `unzip ARCHIVE -d DEST` (members of any name land
        // beneath DEST; the working directory when none is named).
        "expand-archive" => {
            let (named, pos) = params(&rest, &["force", "passthru"]);
            let mut argv = vec![word("unzip")];
            let archive = value(&named, "path", 1)
                .or(value(&named, "literalpath", 1))
                .map(String::from)
                .or_else(|| pos.first().cloned());
            argv.extend(archive.iter().map(|a| path(a, ctx)));
            let dest = value(&named, "destinationpath", 1)
                .map(String::from)
                .or_else(|| pos.get(1).cloned())
                .unwrap_or_else(|| ".".into());
            argv.push(word("-d"));
            argv.push(path(&dest, ctx));
            simple(argv, vec![])
        }
        "invoke-expression" => {
            let code = rest.join(" ");
            let fed: Vec<&&Simple> = producers
                .iter()
                .filter(|p| matches!(p.name(), Some("curl" | "wget")))
                .collect();
            if !fed.is_empty() {
                out.push(hidden_block("remote", &raw));
            } else if let Some(k) = hidden(&code) {
                out.push(hidden_block(k, &raw));
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
                    &raw,
                ));
            }
            return (None, out);
        }
        "invoke-webrequest" | "invoke-restmethod" => {
            let (named, pos) = params(
                &rest,
                &["usebasicparsing", "usedefaultcredentials", "passthru"],
            );
            let mut argv = vec![word("curl")];
            if let Some(m) = value(&named, "method", 1) {
                argv.push(word("-X"));
                argv.push(word(&m.to_ascii_uppercase()));
            }
            if value(&named, "infile", 2).is_some()
                || value(&named, "body", 1).is_some()
                || value(&named, "form", 2).is_some()
            {
                argv.push(word("--data"));
                argv.push(word("x"));
            }
            if let Some(o) = value(&named, "outfile", 1) {
                argv.push(word("-o"));
                argv.push(path(o, ctx));
            }
            let uri = value(&named, "uri", 1)
                .map(str::to_string)
                .or(pos.first().cloned());
            if let Some(u) = uri {
                argv.push(text_of(&u).map_or_else(|| dynamic(&u), |t| word(&t)));
            }
            simple(argv, vec![])
        }
        "stop-process" => {
            let (named, pos) = params(&rest, &["force", "passthru"]);
            let by_name = value(&named, "name", 1).is_some()
                || value(&named, "processname", 1).is_some()
                || pos.iter().any(|p| p.parse::<u64>().is_err());
            let argv = if by_name || !producers.is_empty() {
                vec![word("pkill"), word("x")]
            } else {
                let ids: Vec<Arg> = value(&named, "id", 1)
                    .map(|v| {
                        v.split(',')
                            .map(|x| {
                                if x.parse::<u64>().is_ok() {
                                    word(x)
                                } else {
                                    dynamic(x)
                                }
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let mut a = vec![word("kill")];
                a.extend(ids);
                a.extend(pos.iter().map(|p| word(p)));
                a
            };
            simple(argv, vec![])
        }
        "clear-recyclebin"
        | "remove-itemproperty"
        | "clear-item"
        | "remove-smbshare"
        | "uninstall-package"
        | "remove-localuser"
        | "disable-localuser"
        | "set-executionpolicy"
        | "remove-appxpackage" => {
            out.push(junction(RuleId::PsDestructive, "this PowerShell command deletes or changes machine state that cannot be brought back", &raw));
            return (None, out);
        }
        "register-scheduledtask" | "new-scheduledtask" | "schtasks" | "register-scheduledjob" => {
            out.push(junction(
                RuleId::Schedule,
                "this schedules a task to run later, when no one is watching: a person decides",
                &raw,
            ));
            return (None, out);
        }
        "start-process" => {
            let (named, pos) = params(&rest, &["wait", "nonewwindow", "passthru", "verb"]);
            let file = value(&named, "filepath", 1)
                .map(str::to_string)
                .or(pos.first().cloned());
            let args = value(&named, "argumentlist", 1)
                .map(str::to_string)
                .or(pos.get(1).cloned())
                .unwrap_or_default();
            let Some(f) = file.and_then(|f| text_of(&f)) else {
                out.push(junction(
                    RuleId::Unverifiable,
                    "the program Start-Process runs is only known when it runs",
                    &raw,
                ));
                return (None, out);
            };
            let line = format!("{f} {}", text_of(&args).unwrap_or(args));
            out.extend(findings(&line, ctx, depth + 1));
            return (None, out);
        }
        "cmd" => {
            // `cmd /c "…"`: the string is a cmd.exe command line.
            let i = rest
                .iter()
                .position(|w| w.eq_ignore_ascii_case("/c") || w.eq_ignore_ascii_case("/k"));
            if let Some(i) = i {
                let line = rest[i + 1..]
                    .iter()
                    .map(|w| text_of(w).unwrap_or_else(|| w.clone()))
                    .collect::<Vec<_>>()
                    .join(" ");
                out.extend(findings(&cmd_exe(&line), ctx, depth + 1));
            }
            return (None, out);
        }
        "pwsh" | "powershell" => {
            if let Some(i) = rest.iter().position(|w| {
                let l = w.to_ascii_lowercase();
                l.starts_with("-e")
                    && "-encodedcommand".starts_with(&l)
                    && l.len() >= 2
                    && l != "-ex"
                    && !l.starts_with("-exec")
            }) {
                let _ = i;
                out.push(hidden_block("decoded", &raw));
                return (None, out);
            }
            if let Some(i) = rest.iter().position(|w| {
                let l = w.to_ascii_lowercase();
                l == "-c" || (l.len() >= 3 && "-command".starts_with(&l))
            }) {
                let code = rest[i + 1..]
                    .iter()
                    .map(|w| text_of(w).unwrap_or_else(|| w.clone()))
                    .collect::<Vec<_>>()
                    .join(" ");
                out.extend(findings(&code, ctx, depth + 1));
                return (None, out);
            }
            simple(vec![word("pwsh")], vec![])
        }
        "write-output" | "out-host" | "out-null" | "format-table" | "format-list"
        | "select-object" | "where-object" | "sort-object" | "measure-object" | "group-object"
        | "convertfrom-json" | "convertto-json" | "foreach-object" => {
            return (None, out);
        }
        _ => {
            // Everything else (git, docker, npm, cmdlets like Format-Volume or Stop-Service)
            // keeps its name and words.
            let mut argv = vec![word(&if first.contains('-')
                && first.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            {
                canonical_case(&first)
            } else {
                first.clone()
            })];
            for w in &rest {
                if (w.starts_with('$') && w.len() > 1)
                    || (w.contains(['\\', ':']) && !w.starts_with('-'))
                {
                    argv.push(path(w, ctx));
                } else {
                    argv.push(text_of(w).map_or_else(|| dynamic(w), |t| word(&t)));
                }
            }
            simple(argv, vec![])
        }
    };
    (Some(cmd), out)
}

/// `Stop-Computer` as written, whatever its case (rules name the cmdlets in their usual case).
fn canonical_case(name: &str) -> String {
    const KNOWN: &[&str] = &[
        "Stop-Computer",
        "Restart-Computer",
        "Format-Volume",
        "Clear-Disk",
        "Remove-Partition",
        "Initialize-Disk",
        "Stop-Service",
        "Set-Service",
        "Remove-Service",
        "Restart-Service",
    ];
    KNOWN
        .iter()
        .find(|k| k.eq_ignore_ascii_case(name))
        .map_or_else(|| name.to_string(), std::string::ToString::to_string)
}

/// A cmd.exe command line in the gate's terms: `rd /s /q X` is `rm -r -f X`, `del` is `rm`.
fn cmd_exe(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return String::new();
    };
    let rest: Vec<&str> = words[1..]
        .iter()
        .copied()
        .filter(|w| !w.starts_with('/'))
        .collect();
    let recursive = words.iter().any(|w| w.eq_ignore_ascii_case("/s"));
    match first.to_ascii_lowercase().as_str() {
        "rd" | "rmdir" | "del" | "erase" => format!(
            "Remove-Item {}{}",
            if recursive { "-Recurse " } else { "" },
            rest.iter()
                .map(|w| format!("'{w}'"))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        "format" => "Format-Volume".into(),
        _ => line.to_string(),
    }
}
