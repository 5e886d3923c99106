//! Reading PowerShell: statements, pipelines and words (quotes, `( )`, `$( )` and `{ }`
//! respected), the text a word stands for, the cmdlet an alias names, and cmd.exe lines.

/// Statements (`;`, newlines, `&&`, `||`) of pipelines (`|`) of commands (words), or `None`
/// when quotes or brackets do not balance.
pub(super) fn split(line: &str) -> Option<Vec<Vec<Vec<String>>>> {
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
pub(super) fn blocks(word: &str) -> Vec<&str> {
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
pub(super) fn text_of(w: &str) -> Option<String> {
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

/// Aliases and their cmdlets (the built-in ones of Windows PowerShell and pwsh).
pub(super) fn canonical(name: &str) -> String {
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

/// Whether `name` is a cmdlet or one of its aliases (`iwr`, `iex`, `Invoke-WebRequest`): a
/// verb and a noun joined by a hyphen, as PowerShell names its commands.
pub(crate) fn is_cmdlet(name: &str) -> bool {
    let c = canonical(name);
    c.split_once('-').is_some_and(|(verb, noun)| {
        !noun.is_empty()
            && matches!(
                verb,
                "invoke"
                    | "get"
                    | "set"
                    | "remove"
                    | "new"
                    | "start"
                    | "stop"
                    | "copy"
                    | "move"
                    | "add"
                    | "clear"
                    | "format"
                    | "restart"
                    | "write"
                    | "out"
                    | "expand"
            )
    })
}

/// `Stop-Computer` as written, whatever its case (rules name the cmdlets in their usual case).
pub(super) fn canonical_case(name: &str) -> String {
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
pub(super) fn cmd_exe(line: &str) -> String {
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
