//! What flows into a command: the text its producers print (`echo … | sh`), and the items
//! `xargs`, `parallel` and `find -exec` hand to the command they run, rebuilt as the simple
//! commands that would run.

use super::parse::{Arg, Simple};
use super::rules::NARROWING;

/// What the producer prints when it is static (`echo`, `printf`), joined by lines.
pub(super) fn printed_text(p: &Simple) -> Option<String> {
    printed(p).map(|l| l.join("\n"))
}

/// The text of code some producers pipe into a consumer, when every producer prints static
/// text (`echo 'rm -rf /' | sh`); `None` when any of them prints something the gate cannot know.
pub(super) fn piped_text(producers: &[&Simple]) -> Option<String> {
    let mut out = Vec::new();
    for p in producers {
        out.push(printed(p)?.join("\n"));
    }
    Some(out.join("\n"))
}

/// What `echo`/`printf` print (roughly: `printf`'s format is applied per argument), or a
/// here-string fed to `cat`.
pub(super) fn printed(p: &Simple) -> Option<Vec<String>> {
    if let Some(lines) = formatted(p).or_else(|| replaced_whole(p)) {
        return Some(lines);
    }
    let words: Vec<&str> = p
        .argv
        .get(1..)?
        .iter()
        .map(|a| a.text.as_deref())
        .collect::<Option<Vec<_>>>()?;
    match p.name()? {
        "echo" => {
            let w: Vec<&str> = words
                .iter()
                .copied()
                .skip_while(|w| matches!(*w, "-n" | "-e" | "-E" | "-ne" | "-en"))
                .collect();
            Some(vec![w.join(" ")])
        }
        "printf" => {
            // `printf -- FORMAT`: the format after the end of options.
            let words = words.strip_prefix(&["--"][..]).unwrap_or(&words);
            let (fmt, rest) = words.split_first()?;
            let fmt = hex_escapes(&fmt.replace("\\n", "\n"));
            if rest.is_empty() {
                Some(vec![fmt])
            } else if fmt.contains('%') {
                Some(rest.iter().map(std::string::ToString::to_string).collect())
            } else {
                Some(vec![fmt])
            }
        }
        "cat" if words.is_empty() => p.heredoc.clone().map(|h| vec![h]),
        // The words a completion list offers, one to a line (`compgen -W '/a /b'`).
        "compgen" => {
            let at = words.iter().position(|w| *w == "-W")?;
            let list = words.get(at + 1)?;
            (words.len() == at + 2 || words.get(at + 2) == Some(&"--"))
                .then(|| list.split_whitespace().map(str::to_string).collect())
        }
        "cut" | "awk" | "gawk" | "mawk" if homes_listed(p, &words) => Some(
            ACCOUNT_HOMES
                .iter()
                .map(std::string::ToString::to_string)
                .collect(),
        ),
        // A here-string's words put on lines of their own (`tr ' ' '\n' <<< '/var /opt'`).
        "tr" => match words.as_slice() {
            [from, to] if matches!(*to, "\\n" | "\n") && !from.is_empty() => {
                let text = p.heredoc.as_deref()?;
                let split: String = text
                    .chars()
                    .map(|c| if from.contains(c) { '\n' } else { c })
                    .collect();
                Some(split.lines().map(str::to_string).collect())
            }
            _ => None,
        },
        _ => None,
    }
}

/// The lines `$(PRINTER …)` gives when it is one command that prints static text (`$(printf
/// '%s\n' /a /b)`, `$(compgen -W '/a /b')`); quotes around the substitution are allowed.
pub(super) fn substitution_printed(raw: &str) -> Option<Vec<String>> {
    let inner = raw
        .trim_matches('"')
        .strip_prefix("$(")?
        .strip_suffix(')')?;
    let flat = super::parse::flatten(inner).ok()?;
    let [printer] = flat.commands.as_slice() else {
        return None;
    };
    printed(printer)
}

/// The lines a static printer's text becomes through the text filters piped after it
/// (`printf '/a,/b' | tr ',' '\n'`, `… | sed 's/^/--dir=/'`): `producers` in pipe order.
pub(super) fn piped_lines(producers: &[&Simple]) -> Option<Vec<String>> {
    let (first, filters) = producers.split_first()?;
    let mut lines = printed(first)?;
    for f in filters {
        lines = filtered(f, &lines)?;
    }
    Some(lines)
}

/// What a text filter prints of `lines`: `tr SET1 SET2` of listed characters, or sed's
/// `s/PATTERN/REPLACEMENT/` of literal text (or `^`, `$`). `None` for anything else.
pub(super) fn filtered(f: &Simple, lines: &[String]) -> Option<Vec<String>> {
    let words: Vec<&str> = f
        .argv
        .get(1..)?
        .iter()
        .map(|a| a.text.as_deref())
        .collect::<Option<_>>()?;
    let unescape = |s: &str| s.replace("\\n", "\n").replace("\\t", "\t");
    match (f.name()?, words.as_slice()) {
        ("tr", [from, to])
            if !from.starts_with('-') && !from.contains('-') && !to.contains('-') =>
        {
            let (from, to): (Vec<char>, Vec<char>) = (
                unescape(from).chars().collect(),
                unescape(to).chars().collect(),
            );
            let last = *to.last()?;
            let text: String = lines
                .join("\n")
                .chars()
                .map(|c| match from.iter().position(|&x| x == c) {
                    Some(i) => to.get(i).copied().unwrap_or(last),
                    None => c,
                })
                .collect();
            Some(text.lines().map(str::to_string).collect())
        }
        ("sed", [script] | ["-e", script]) => {
            let rest = script.strip_prefix('s')?;
            let delimiter = rest.chars().next()?;
            let mut parts = rest[delimiter.len_utf8()..].split(delimiter);
            let (pattern, with, flags) = (parts.next()?, parts.next()?, parts.next()?);
            if parts.next().is_some()
                || !flags.chars().all(|c| c == 'g')
                || with.contains(['&', '\\'])
                || pattern.contains(['.', '*', '[', '\\', '+', '?', '('])
            {
                return None;
            }
            Some(
                lines
                    .iter()
                    .map(|l| match pattern {
                        "^" => format!("{with}{l}"),
                        "$" => format!("{l}{with}"),
                        p if flags == "g" => l.replace(p, with),
                        p => l.replacen(p, with, 1),
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

/// The string values of a JSON document written whole on this line (`{"dirs": ["/a", "/b"]}`),
/// keys left out: what `jq -r '.dirs[]'` and its like can print of it.
pub(super) fn json_strings(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('"') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('"') else { break };
        let value = &after[..close];
        rest = &after[close + 1..];
        if !rest.trim_start().starts_with(':') {
            out.push(value.to_string());
        }
    }
    out
}

/// Home directories the accounts table always lists: root's and the system accounts' (the
/// people's own are under `/home`). What `cut -d: -f6 /etc/passwd` prints includes them.
const ACCOUNT_HOMES: &[&str] = &["/root", "/usr/sbin", "/bin", "/var/spool/news"];

/// Whether `cut` or `awk` prints the home-directory field (the 6th, `:`-separated) of the
/// accounts table (`cut -d: -f6 /etc/passwd`, `awk -F: '{print $6}' < /etc/passwd`).
fn homes_listed(p: &Simple, words: &[&str]) -> bool {
    let table = |w: &&str| matches!(*w, "/etc/passwd" | "/etc/master.passwd");
    if !(words.iter().any(table) || p.reads.iter().any(|r| table(&r.as_str()))) {
        return false;
    }
    let colon = words
        .windows(2)
        .any(|w| matches!(w[0], "-d" | "-F") && w[1] == ":")
        || words
            .iter()
            .any(|w| matches!(*w, "-d:" | "-F:" | "--delimiter=:"));
    let sixth = words.windows(2).any(|w| w[0] == "-f" && w[1] == "6")
        || words
            .iter()
            .any(|w| matches!(*w, "-f6" | "--fields=6") || w.replace(' ', "").contains("print$6"));
    colon && sixth
}

/// What `printf FORMAT ARGS` prints when its format is static: the format applied to the
/// arguments, as many at a time as it has conversions, again until they are used up (`printf
/// 'rm -rf %s\n' "$HOME"`). An argument known only when the line runs stands as written, so
/// the command rebuilt from it names the variable (`rm -rf $HOME`).
fn formatted(p: &Simple) -> Option<Vec<String>> {
    if p.name()? != "printf" {
        return None;
    }
    let mut args = p.argv.get(1..)?;
    if args
        .first()
        .is_some_and(|a| a.text.as_deref() == Some("--"))
    {
        args = &args[1..];
    }
    let (fmt, rest) = args.split_first()?;
    let fmt = hex_escapes(
        &fmt.text
            .as_deref()?
            .replace("\\n", "\n")
            .replace("\\0", "\0"),
    );
    // (A literal `%%` is left to the reading of the arguments alone.)
    let conversions = fmt.matches('%').count();
    if rest.is_empty() || conversions == 0 || fmt.contains("%%") {
        return None;
    }
    // A dynamic argument only as a plain variable or a path under one (`"$HOME"`,
    // `$OUT/x`); any other form is printed as only running it would tell.
    let values: Vec<String> = rest
        .iter()
        .map(|a| {
            if let Some(t) = &a.text {
                return Some(t.clone());
            }
            let v = a.raw.trim_matches(['"', '\'']);
            (v.starts_with('$')
                && v[1..].bytes().all(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'{' | b'}' | b'/' | b'.')
                }))
            .then(|| v.to_string())
        })
        .collect::<Option<_>>()?;
    let mut out = String::new();
    for chunk in values.chunks(conversions) {
        let mut line = String::new();
        let mut given = chunk.iter();
        let mut chars = fmt.chars().peekable();
        while let Some(ch) = chars.next() {
            if ch != '%' {
                line.push(ch);
                continue;
            }
            // A conversion: its flags and width, then its letter.
            while chars
                .peek()
                .is_some_and(|c| c.is_ascii_digit() || matches!(c, '-' | '.' | '#' | '+' | ' '))
            {
                chars.next();
            }
            chars.next();
            line.push_str(given.next().map_or("", String::as_str));
        }
        out.push_str(&line);
    }
    // `printf '%s\0' …` ends its items with NULs (for `xargs -0`): lines as well.
    Some(
        out.split(['\n', '\0'])
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// What `sed 's/.*/TEXT/'` prints: every line replaced whole by a static text (`ls | sed
/// 's|.*|rm -rf ~|' | sh`), which names no match (`&`) and no group (`\1`).
fn replaced_whole(p: &Simple) -> Option<Vec<String>> {
    if p.name()? != "sed" {
        return None;
    }
    let script = p
        .args()
        .iter()
        .filter_map(|a| a.text.as_deref())
        .find(|w| w.starts_with('s') && w.len() > 4)?;
    let delim = script[1..].chars().next()?;
    if delim.is_alphanumeric() || delim == '\\' {
        return None;
    }
    let mut parts = script[1 + delim.len_utf8()..].split(delim);
    let (pattern, text) = (parts.next()?, parts.next()?);
    let flags = parts.next()?;
    let whole = matches!(pattern, ".*" | "^.*$" | "^.*" | ".*$");
    (whole
        && parts.next().is_none()
        && flags.chars().all(|c| matches!(c, 'g' | 'p'))
        && !text.contains(['&', '\\']))
    .then(|| vec![text.to_string()])
}

/// The items a producer feeds to `xargs`/`parallel`: words it prints, or what `find`/`ls` list
/// (the start directory, or everything in it). `None` when only running it would tell.
pub(super) fn items(p: &Simple) -> Option<Vec<String>> {
    if let Some(lines) = printed(p) {
        return Some(
            lines
                .iter()
                .flat_map(|l| l.split_whitespace())
                .map(str::to_string)
                .collect(),
        );
    }
    let args: Vec<&str> = p.argv.get(1..)?.iter().map(|a| a.raw.as_str()).collect();
    match p.name()? {
        "find" => {
            let starts: Vec<String> = args
                .iter()
                .take_while(|w| !w.starts_with('-') && !matches!(**w, "(" | "!" | "\\(" | "\\!"))
                .map(std::string::ToString::to_string)
                .collect();
            let starts = if starts.is_empty() {
                vec![".".to_string()]
            } else {
                starts
            };
            // An unfiltered find lists its start directory itself; a filtered one, things in it:
            // one level down, by a name given whole, that very entry (`find / -maxdepth 1
            // -name boot` finds `/boot`).
            let filtered = args.iter().any(|w| NARROWING.contains(w));
            let value_of = |flag: &str| {
                args.iter()
                    .position(|w| *w == flag)
                    .and_then(|i| args.get(i + 1))
                    .map(|v| v.trim_matches(['"', '\'']))
            };
            let entry = value_of("-name")
                .filter(|n| {
                    value_of("-maxdepth") == Some("1")
                        && !n.is_empty()
                        && !n.contains(['*', '?', '[', '/', '$', '`'])
                })
                .unwrap_or("found");
            Some(
                starts
                    .into_iter()
                    .map(|s| {
                        if filtered {
                            format!("{}/{entry}", s.trim_end_matches('/'))
                        } else {
                            s
                        }
                    })
                    .collect(),
            )
        }
        "ls" => {
            let dir = args.iter().find(|w| !w.starts_with('-')).copied();
            Some(vec![match dir {
                Some(d) => format!("{}/*", d.trim_end_matches('/')),
                None => "*".into(),
            }])
        }
        _ => None,
    }
}

/// What `echo` prints when some of its words are only known when the line runs (`echo $HOME |
/// xargs -I% rm -rf %`): the words as written, so the command rebuilt names the variable.
fn echoed_words(p: &Simple) -> Option<Vec<String>> {
    if p.name()? != "echo" {
        return None;
    }
    let words: Vec<String> = p
        .args()
        .iter()
        .map(|a| a.raw.trim_matches(['"', '\'']).to_string())
        .skip_while(|w| w.starts_with('-'))
        .collect();
    (!words.is_empty()).then_some(words)
}

/// What a producer trail does not model lists when it names directories by their paths
/// (`mlist ~/Mail/Archive | … | xargs rm`, `grep -rl TODO . | xargs rm`): things inside them,
/// as `find` with a filter does. A word with an extension names a file, whose contents the
/// producer prints (`cat list.txt`): what that holds is known only when it runs.
fn listed_under(p: &Simple) -> Option<Vec<String>> {
    let dirs: Vec<String> = p
        .args()
        .iter()
        .filter_map(|a| a.text.as_deref())
        .filter(|w| {
            let path = *w == "."
                || *w == ".."
                || ["/", "~/", "./", "../"].iter().any(|s| w.starts_with(s))
                || *w == "~";
            let last = w.trim_end_matches('/').rsplit('/').next().unwrap_or(w);
            let file = last.len() > 1 && last[1..].contains('.');
            path && !file && !w.contains(['*', '?'])
        })
        .map(|w| format!("{}/found", w.trim_end_matches('/')))
        .collect();
    (!dirs.is_empty()).then_some(dirs)
}

/// What stands for the items a producer feeds when only running it would tell.
pub(crate) const UNREAD: &str = "$INPUT";

pub(super) fn dynamic_arg(raw: &str) -> Arg {
    Arg {
        text: None,
        raw: raw.into(),
        quoted: false,
    }
}

pub(super) fn static_arg(text: &str) -> Arg {
    Arg {
        text: Some(text.into()),
        raw: text.into(),
        quoted: false,
    }
}

/// The most inputs a reconstructed `xargs`/`parallel` command is judged with, one by one.
pub(super) const MAX_ITEMS: usize = 16;

/// The commands `xargs` or `parallel` would run: the template (`argv[start..end]`) with each
/// input put where `{}` (or the `-I` string) is, or appended.
pub(super) fn reconstruct(template: &[Arg], replace: Option<&str>, inputs: &[Arg]) -> Vec<Simple> {
    // A replace string the template never uses (`xargs -i rm -rf`): the inputs are read as
    // what the command is given, the way its writer meant them.
    let replace = replace.filter(|m| {
        template
            .iter()
            .any(|a| a.text.as_deref().is_some_and(|t| t.contains(m)))
    });
    let Some(marker) = replace else {
        let mut argv = template.to_vec();
        // Handed to a shell's `-c` (`echo 'rm -rf /' | xargs bash -c`): the line fed is the
        // script, whichever words xargs splits it into.
        if template
            .last()
            .is_some_and(|a| a.text.as_deref() == Some("-c"))
            && !inputs.is_empty()
            && inputs.iter().all(|a| a.text.is_some())
        {
            let line = inputs
                .iter()
                .take(MAX_ITEMS)
                .filter_map(|a| a.text.as_deref())
                .collect::<Vec<_>>()
                .join(" ");
            argv.push(static_arg(&line));
            return vec![Simple {
                argv,
                ..Simple::default()
            }];
        }
        argv.extend(inputs.iter().take(MAX_ITEMS).cloned());
        return vec![Simple {
            argv,
            ..Simple::default()
        }];
    };
    inputs
        .iter()
        .take(MAX_ITEMS)
        .map(|input| {
            let argv = template
                .iter()
                .enumerate()
                .map(|(at, a)| match (&a.text, &input.text) {
                    (Some(t), Some(i)) if t.contains(marker) => {
                        let v = t.replace(marker, i);
                        Arg {
                            text: Some(v.clone()),
                            raw: v,
                            quoted: a.quoted,
                        }
                    }
                    // A shell's script with the item in it (`sh -c 'x {} && rm -rf /*'`): the
                    // script is known but for the item, which stands as a variable only the
                    // shell knows, so the rest of it is judged.
                    (Some(t), None)
                        if t.contains(marker)
                            && at > 0
                            && template[at - 1].text.as_deref() == Some("-c") =>
                    {
                        static_arg(&t.replace(marker, "\"$XARGS_ITEM\""))
                    }
                    (Some(t), None) if t.contains(marker) => {
                        dynamic_arg(&t.replace(marker, &input.raw))
                    }
                    _ => a.clone(),
                })
                .collect();
            Simple {
                argv,
                ..Simple::default()
            }
        })
        .collect()
}

/// `xargs` flags: (the replace string if any, whether inputs come from a file, where the
/// command starts).
pub(super) fn xargs_shape(argv: &[Arg]) -> (Option<String>, bool, Option<usize>) {
    let mut replace = None;
    let mut from_file = false;
    let mut i = 1;
    while i < argv.len() {
        let Some(w) = argv[i].text.as_deref() else {
            return (replace, from_file, Some(i));
        };
        if !w.starts_with('-') || w == "-" {
            return (replace, from_file, Some(i));
        }
        if w == "--" {
            return (replace, from_file, Some(i + 1).filter(|&j| j < argv.len()));
        }
        match w {
            "-I" | "-J" => {
                replace = argv.get(i + 1).and_then(|a| a.text.clone());
                i += 2;
                continue;
            }
            "-a" | "--arg-file" => {
                from_file = true;
                i += 2;
                continue;
            }
            "-i" | "--replace" => replace = Some("{}".into()),
            _ if w.starts_with("--replace=") => replace = Some(w[10..].to_string()),
            _ if w.starts_with("--arg-file=") => from_file = true,
            _ if w.starts_with("-I") && w.len() > 2 => replace = Some(w[2..].to_string()),
            _ if w.starts_with("-a") && w.len() > 2 => from_file = true,
            "-n" | "-P" | "-d" | "-E" | "-L" | "-s" | "--max-args" | "--max-procs"
            | "--delimiter" | "--max-lines" | "--eof" => {
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    (replace, from_file, None)
}

/// The inputs producers feed on stdin, as words (unknown ones stand for themselves).
pub(super) fn fed_items(producers: &[&Simple], heredoc: Option<&str>, by_line: bool) -> Vec<Arg> {
    if let Some(h) = heredoc {
        return h.split_whitespace().map(static_arg).collect();
    }
    // A printer and the text filters after it (`printf … | tr ',' '\n' | xargs …`).
    if producers.len() > 1
        && let Some(lines) = piped_lines(producers)
    {
        return lines
            .iter()
            .flat_map(|l| {
                if by_line {
                    vec![l.as_str()]
                } else {
                    l.split_whitespace().collect()
                }
            })
            .map(static_arg)
            .collect();
    }
    let mut out = Vec::new();
    for p in producers {
        // `parallel` takes whole lines; `xargs` splits at blanks.
        let found = if by_line {
            printed(p).map(|l| {
                l.iter()
                    .flat_map(|x| x.lines())
                    .map(str::to_string)
                    .collect()
            })
        } else {
            None
        };
        match found
            .or_else(|| items(p))
            .or_else(|| echoed_words(p))
            .or_else(|| listed_under(p))
        {
            Some(words) => out.extend(words.iter().map(|w| {
                if w.contains(['$', '`', '*', '?']) {
                    dynamic_arg(w)
                } else {
                    static_arg(w)
                }
            })),
            None => out.push(dynamic_arg(UNREAD)),
        }
    }
    if out.is_empty() {
        out.push(dynamic_arg(UNREAD));
    }
    out
}

/// `printf`'s escapes of printable characters written out (`shell(\x27rm -rf ~\x27)`, a
/// quote inside a single-quoted format; `os.system(\"rm -rf ~\")`): what the file or the pipe
/// receives.
fn hex_escapes(fmt: &str) -> String {
    let fmt = if fmt.contains("\\\"") {
        std::borrow::Cow::Owned(fmt.replace("\\\"", "\""))
    } else {
        std::borrow::Cow::Borrowed(fmt)
    };
    if !fmt.contains("\\x") {
        return fmt.into_owned();
    }
    let mut out = String::with_capacity(fmt.len());
    let mut rest: &str = &fmt;
    while let Some(at) = rest.find("\\x") {
        out.push_str(&rest[..at]);
        let hex = rest
            .get(at + 2..at + 4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
            Some(b) if (0x20..0x7f).contains(&b) => {
                out.push(char::from(b));
                rest = &rest[at + 4..];
            }
            _ => {
                out.push_str("\\x");
                rest = &rest[at + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}
