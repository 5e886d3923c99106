//! Code in other languages handed to an interpreter (`python3 -c`, `node -e`, `awk`, a
//! here-document fed to `python3`): judged by what it reaches. Its string literals that are
//! handed to a shell are judged as command lines; its literal paths handed to a deletion are
//! judged as paths; a socket wired to a shell is a reverse shell.

use super::parse::Arg;
use super::paths::Place;
use super::{Context, Decision, Findings, Keep, Verdict, junction};
use crate::RuleId;

/// Interpreters and the flags that take a one-liner.
pub(super) fn code_flags(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "python" | "python3" | "python2" | "pypy3" | "pypy" => &["-c"],
        "node" | "nodejs" | "bun" => &["-e", "--eval", "-p", "--print"],
        "deno" => &["eval", "-e"],
        "perl" | "ruby" => &["-e", "-E"],
        "php" => &["-r"],
        "lua" | "luajit" => &["-e"],
        "tclsh" | "wish" | "osascript" | "Rscript" => &["-e"],
        "julia" => &["-e", "-E", "--eval", "--print"],
        _ => return None,
    })
}

/// The one-liner a command runs, if it runs one: `Some(Some(code))`, or `Some(None)` when the
/// code is only known at run time.
pub(super) fn one_liner(name: &str, args: &[Arg]) -> Option<Option<String>> {
    if matches!(name, "awk" | "gawk" | "mawk" | "nawk") {
        // The program is the first operand not taken by a flag.
        let mut i = 0;
        while i < args.len() {
            match args[i].text.as_deref() {
                Some("-f" | "--file") => return None,
                Some("-v" | "-F" | "--assign" | "--field-separator") => i += 2,
                Some(w) if w.starts_with('-') && w.len() > 1 => i += 1,
                _ => return Some(args[i].text.clone()),
            }
        }
        return None;
    }
    Some(code_argument(name, args)?.and_then(|a| a.text.clone()))
}

/// The word after an interpreter's one-liner flag (`-c`, `-e`…): `None` when the interpreter
/// is told no one-liner, `Some(None)` when the flag ends the line.
fn code_argument<'a>(name: &str, args: &'a [Arg]) -> Option<Option<&'a Arg>> {
    let flags = code_flags(name)?;
    let i = args
        .iter()
        .position(|a| a.text.as_deref().is_some_and(|t| flags.contains(&t)))?;
    Some(args.get(i + 1))
}

/// The code of a one-liner the shell completes before the interpreter reads it, when the gate
/// knows every value it puts in: one double-quoted string whose only expansions are variables
/// set earlier on the line or that the gate knows (`"…to_file('$TMPDIR/feed.xml')"`). A
/// command's output (`$(…)`, a backquote) or any other variable keeps it unknown.
pub(super) fn expanded_one_liner(name: &str, args: &[Arg], ctx: &Context) -> Option<String> {
    let raw = code_argument(name, args)??.raw.as_str();
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    if inner.contains("$(") || inner.contains('`') || inner.contains("\\$") {
        return None;
    }
    // The double quotes' own escapes, undone as the shell undoes them.
    let mut text = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => match chars.next() {
                Some(n @ ('"' | '\\' | '`')) => text.push(n),
                Some('\n') => {}
                Some(n) => {
                    text.push('\\');
                    text.push(n);
                }
                None => text.push('\\'),
            },
            // A second string joined to the first: not one double-quoted word.
            '"' => return None,
            _ => text.push(ch),
        }
    }
    let text = ctx.expand_text_vars(&text);
    ctx.places.expand(&text)
}

/// Whether an interpreter is told what to run (a script or a one-liner) rather than reading
/// its program from stdin.
pub(super) fn names_script(name: &str, words: &[Arg]) -> bool {
    if one_liner(name, words).is_some() {
        return true;
    }
    match name {
        // (A job file that is its stdin, `at -f /dev/stdin 23:30 <<'EOF'`, is what it is fed.)
        "at" | "batch" => words.windows(2).any(|w| {
            w[0].text.as_deref() == Some("-f")
                && !w[1].text.as_deref().is_some_and(|t| {
                    matches!(t, "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
                })
        }),
        "iex" | "Invoke-Expression" => !words.is_empty(),
        // The first operand decides: `-` reads the program from stdin, and the words after it
        // are its arguments (`curl … | python3 - --admin admin`), not a script's name.
        _ => words
            .iter()
            .find(|a| {
                a.text
                    .as_deref()
                    .is_none_or(|t| !t.starts_with('-') || t == "-")
            })
            .is_some_and(|a| a.text.as_deref() != Some("-")),
    }
}

/// Calls that run a shell command from inside a language.
const SHELL_OUT: &[&str] = &[
    "system(",
    // R's, with the arguments as a vector (`system2("dd", c("if=…", "of=…"))`), and its
    // `processx` package's.
    "system2(",
    "processx::",
    "os.system",
    "subprocess",
    "popen",
    "exec(",
    "execSync",
    "spawnSync",
    "spawn(",
    "execFile",
    "child_process",
    "shell_exec",
    "passthru",
    "os.execute",
    "io.popen",
    "Process.Start",
    "Runtime.getRuntime",
    "`",
    "%x",
    "| getline",
    "| \"",
    "do shell script",
    "Start-Process",
    "system ",
    "exec ",
    "qx",
    "IO.popen",
    "Open3",
];

/// Whether the code calls out to a shell ([`SHELL_OUT`]). A word said as a statement (Ruby's
/// and Perl's `system "…"`, `exec …`) counts where a statement starts, not as a variable's
/// name (`system = pt.System.example()`, `exec = …`) or an attribute (`obj.system …`).
fn shells_out(code: &str) -> bool {
    SHELL_OUT.iter().any(|n| {
        if !n.ends_with(' ') || n.len() < 3 {
            return code.contains(n);
        }
        code.match_indices(n).any(|(i, _)| {
            let before = code[..i].trim_end().chars().last();
            let after = code[i + n.len()..].trim_start().chars().next();
            !matches!(before, Some('.' | ':'))
                && !(before.is_some_and(|c| c.is_alphanumeric() || c == '_'))
                && !matches!(after, Some('=' | '.' | ',' | ')' | ']' | ':') | None)
        })
    })
}

/// A block for the power act an AppleScript asks of the machine (`tell application "System
/// Events" to shut down`, `… to restart`, `… to log out`), as a statement of its own or after
/// `to`.
fn applescript_power(name: &str, code: &str, raw: &str, out: &mut Findings) {
    if name != "osascript" {
        return;
    }
    let lower = code.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let act = words.iter().enumerate().find_map(|(i, w)| {
        let after_to = i == 0 || matches!(words[i - 1], "to" | "then");
        let next = words.get(i + 1).copied();
        match (*w, next) {
            ("shut", Some("down")) if after_to => Some("shut down"),
            ("restart", _) if after_to => Some("restart"),
            ("log", Some("out")) if after_to => Some("log out"),
            ("sleep", _) if i > 0 && words[i - 1] == "to" => Some("sleep"),
            _ => None,
        }
    });
    if let Some(act) = act {
        out.push(Decision {
            verdict: Verdict::Block,
            rule: Some(RuleId::Power.into()),
            reason: format!(
                "this AppleScript tells the machine to {act}: the session and everyone's work on it stop; it is never run"
            ),
            command: Some(raw.into()),
            targets: Vec::new(),
        });
    }
}

/// Calls that delete or overwrite.
const DELETES: &[&str] = &[
    "rmtree",
    "os.remove",
    "os.unlink",
    "os.rmdir",
    "removedirs",
    ".unlink(",
    ".rmdir(",
    "rmSync",
    "rmdirSync",
    "unlinkSync",
    "removeSync",
    "Deno.remove",
    "rm_rf",
    "rm_r",
    "FileUtils.rm",
    "File.delete",
    "unlink(",
    "rmdir(",
    "fs.rm(",
    "Remove-Item",
    "writeFileSync",
    "truncate",
];

/// Expressions that mean the home directory inside a language: a deletion said of one is a
/// block, and they are replaced by `~` before code is read as a command line (`"rm -rf " .
/// getenv("HOME")`, `Seq("rm", "-rf", sys.props("user.home"))`, make's `$(HOME)`). The
/// longest first: `getenv("HOME")` inside `Sys.getenv("HOME")`.
const HOME_NAMES: &[&str] = &[
    "System.getProperty(\"user.home\")",
    "sys.props(\"user.home\")",
    "os.Getenv(\"HOME\")",
    "process.env.HOME",
    "expanduser('~')",
    "expanduser(\"~\")",
    "Path.home()",
    "Dir.home",
    "os.homedir()",
    "homedir()",
    "ENV['HOME']",
    "ENV[\"HOME\"]",
    "$ENV{HOME}",
    "os.environ['HOME']",
    "os.environ[\"HOME\"]",
    "getenv('HOME')",
    "getenv(\"HOME\")",
    "Deno.env.get(\"HOME\")",
    "$(HOME)",
    "os.homedir",
];

/// `code` with every expression naming the home directory replaced by `with` (`~`, or `"~"`
/// where the code's strings are read).
/// A word every entry of [`HOME_NAMES`] holds (a test keeps it so).
const HOME_KEYS: [&str; 3] = ["home", "HOME", "expanduser"];

pub(super) fn home_named<'a>(code: &'a str, with: &str) -> std::borrow::Cow<'a, str> {
    // Every name holds one of these: most text (every argument of a program nobody models)
    // is passed over in three searches rather than one per name.
    let maybe = HOME_KEYS.iter().any(|k| code.contains(k));
    if !maybe || !HOME_NAMES.iter().any(|h| code.contains(h)) {
        return std::borrow::Cow::Borrowed(code);
    }
    let mut out = code.to_string();
    for h in HOME_NAMES {
        out = out.replace(h, with);
    }
    std::borrow::Cow::Owned(out)
}

/// The string literals of some code, in '…', "…" or `…`, unescaped roughly.
pub(super) fn literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if !matches!(c, '\'' | '"' | '`') {
            continue;
        }
        let mut s = String::new();
        let mut closed = false;
        while let Some(d) = chars.next() {
            if d == '\\' {
                if let Some(e) = chars.next() {
                    s.push(match e {
                        'n' => '\n',
                        'r' => '\r',
                        't' => '\t',
                        other => other,
                    });
                }
                continue;
            }
            if d == c {
                closed = true;
                break;
            }
            s.push(d);
        }
        if closed {
            out.push(s);
        }
        if out.len() > 64 {
            break;
        }
    }
    out.extend(quote_like(code));
    out
}

/// The command lines a call named for running one is given as its first string literal, in
/// any language (`SystemCall("scp …")` fed to a computer-algebra console, `os.system('…')`,
/// `shell_exec("…")`, `Run["…"]`): what the call's name says it runs. Only a call's name
/// counts, not the word in prose (`the system "works"`).
pub(super) fn shell_call_lines(code: &str) -> Vec<String> {
    const RUNS: &[&str] = &[
        "system",
        "systemcall",
        "shell",
        "shellexecute",
        "shell_exec",
        "exec",
        "execute",
        "popen",
        "spawn",
        "run",
        "runprocess",
        "check_call",
        "check_output",
    ];
    let mut lines = Vec::new();
    for (at, _) in code.match_indices(['(', '[']) {
        let name = called_name(code, at);
        // Or a call whose name ends in the word (`plugin_command`, `run_cmd`, `execCommand`).
        let named = RUNS.contains(&name.as_str())
            || crate::text::words(&name)
                .last()
                .is_some_and(|w| matches!(w.as_str(), "command" | "cmd" | "exec" | "spawn"));
        if !named && name != "call" {
            continue;
        }
        let rest = code[at + 1..].trim_start();
        // A program and its arguments as a list (`subprocess.run(['rsync', '-a', 'locale/',
        // 'l10n@host:/srv/'])`, `subprocess.call([…])`): its words, if the first is a program.
        if let Some(list) = rest.strip_prefix('[')
            && (named || name == "call")
        {
            let words = literals(&list[..list.find(']').unwrap_or(list.len())]);
            if words.len() >= 2
                && !words
                    .iter()
                    .any(|w| w.is_empty() || w.contains(char::is_whitespace))
                && super::known::is_program(words[0].rsplit('/').next().unwrap_or(&words[0]))
            {
                lines.push(words.join(" "));
            }
            continue;
        }
        if !named || !rest.starts_with(['"', '\'']) {
            continue;
        }
        let mut lits = literals(rest).into_iter();
        match (lits.next(), lits.next()) {
            (Some(lit), _) if lit.contains(' ') => lines.push(lit),
            // A program and its arguments as two strings (`fe.plugin_command("systemctl",
            // "stop mariadb")`, `exec.Command("rm", "-rf …")`).
            (Some(program), Some(args))
                if super::known::is_program(program.rsplit('/').next().unwrap_or(&program)) =>
            {
                lines.push(format!("{program} {args}"));
            }
            _ => {}
        }
    }
    lines.extend(statement_calls(code));
    lines
}

/// Calls said as statements, without brackets: Raku's and Perl's `run <rm -rf /opt>` (a list
/// of words), `shell "rm -rf /opt"`, `system 'rm -rf /opt'`: the command line they run.
pub(super) fn statement_calls(code: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for name in ["run", "shell", "system", "exec", "qqx", "spawn"] {
        for (at, _) in code.match_indices(name) {
            let before = code[..at].trim_end().chars().last();
            if before
                .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '$' | '-'))
            {
                continue;
            }
            let rest = &code[at + name.len()..];
            let Some(arg) = rest.strip_prefix(char::is_whitespace).map(str::trim_start) else {
                continue;
            };
            if let Some(words) = arg.strip_prefix('<') {
                let Some(end) = words.find('>') else { continue };
                let words = words[..end].trim();
                if words.contains(char::is_whitespace) {
                    lines.push(words.split_whitespace().collect::<Vec<_>>().join(" "));
                }
            } else if arg.starts_with(['"', '\''])
                && let Some(lit) = literals(arg).into_iter().next().filter(|l| l.contains(' '))
            {
                lines.push(lit);
            }
        }
    }
    lines
}

/// The last part of the name called at `at` (an opening bracket), in lower case:
/// `os.system(` → `system`, `Shell::run[` → `run`.
fn called_name(code: &str, at: usize) -> String {
    let name_start = word_start(&code[..at], |ch| {
        ch.is_ascii_alphanumeric() || matches!(ch, '_' | '.' | ':')
    });
    code[name_start..at]
        .rsplit(['.', ':'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase()
}

/// Whether code runs a command it takes from the environment: a call named for running one
/// given an environment lookup (`os.execute(os.getenv("HOOK"))`, `system(ENV["CMD"])`), or
/// a shell handed one (Tcl's `exec sh -c $::env(HOOK)`).
pub(super) fn runs_from_environment(code: &str) -> bool {
    const LOOKUPS: &[&str] = &[
        "getenv(",
        "environ[",
        "environ.get(",
        "env[",
        "env(",
        "env.",
    ];
    let looked_up = |s: &str| {
        let s = s.trim_start().to_ascii_lowercase();
        let s = s.trim_start_matches(['$', ':']);
        let s = s.strip_prefix("os.").unwrap_or(s);
        let s = s.strip_prefix("process.").unwrap_or(s);
        LOOKUPS.iter().any(|l| s.starts_with(l))
    };
    let called = code.match_indices('(').any(|(at, _)| {
        let name = called_name(code, at);
        matches!(
            name.as_str(),
            "system" | "execute" | "popen" | "shell_exec" | "spawn" | "exec"
        ) && looked_up(&code[at + 1..])
    });
    called
        || code.lines().any(|line| {
            let mut words = line.split_whitespace();
            words.next() == Some("exec")
                && words.next().is_some_and(crate::rules::is_shell)
                && words.next() == Some("-c")
                && words.next().is_some_and(looked_up)
        })
}

/// Command lines written as a list of strings, one per argument (`.{ "rm", "-rf", "/home/dev" }`
/// in a build file, `RUN ["rm", "-rf", "/"]`, `command: ['sh', '-c', '…']`): each run of two or
/// more string literals separated by commas only, joined by spaces.
pub(super) fn argv_lists(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Vec<String> = Vec::new();
    let mut chars = code.chars().peekable();
    let flush = |run: &mut Vec<String>, out: &mut Vec<String>| {
        if run.len() >= 2 {
            out.push(run.join(" "));
        }
        run.clear();
    };
    while let Some(c) = chars.next() {
        if matches!(c, '\'' | '"') {
            let mut s = String::new();
            let mut closed = false;
            for d in chars.by_ref() {
                if d == c {
                    closed = true;
                    break;
                }
                if d == '\n' {
                    break;
                }
                s.push(d);
            }
            if !closed {
                flush(&mut run, &mut out);
                continue;
            }
            run.push(s);
            // Only blanks and one comma may stand before the next literal of the same list.
            while chars.peek().is_some_and(|d| *d == ' ' || *d == '\t') {
                chars.next();
            }
            if chars.peek() == Some(&',') {
                chars.next();
                while chars.peek().is_some_and(|d| d.is_whitespace()) {
                    chars.next();
                }
                if chars.peek().is_some_and(|d| matches!(d, '\'' | '"')) {
                    continue;
                }
                // The arguments as a list after the program (`System.cmd("rm", ["-rf", "/"])`,
                // R's `system2("dd", c("if=…", "of=…"))`): the list continues the command.
                let mut ahead = chars.clone();
                let mut opener = String::new();
                while let Some(d) = ahead.next_if(char::is_ascii_alphabetic) {
                    opener.push(d);
                }
                if opener.len() <= 6 && ahead.next_if(|d| matches!(d, '(' | '[' | '{')).is_some() {
                    while ahead.next_if(|d| d.is_whitespace()).is_some() {}
                    if ahead.peek().is_some_and(|d| matches!(d, '\'' | '"')) {
                        chars = ahead;
                        continue;
                    }
                }
            }
            flush(&mut run, &mut out);
            if out.len() > 32 {
                break;
            }
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Perl's and Ruby's quote-like operators with a bracket delimiter: `q(…)`, `qq{…}`, `qx[…]`,
/// `%x(…)`, `%q<…>`, `%w(…)`. Nested brackets of the same kind are counted.
fn quote_like(code: &str) -> Vec<String> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() && out.len() < 64 {
        let op = ["qq", "qx", "qw", "q", "%x", "%q", "%Q", "%w", "%W"]
            .iter()
            .find(|op| b[i..].starts_with(op.as_bytes()));
        let word_before = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let Some(op) = op.filter(|_| !word_before) else {
            i += 1;
            continue;
        };
        let mut j = i + op.len();
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        let close = match b.get(j) {
            Some(b'(') => b')',
            Some(b'{') => b'}',
            Some(b'[') => b']',
            Some(b'<') => b'>',
            _ => {
                i += 1;
                continue;
            }
        };
        let open = b[j];
        let mut depth = 0;
        let start = j + 1;
        let mut k = start;
        while k < b.len() {
            if b[k] == open {
                depth += 1;
            } else if b[k] == close {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            k += 1;
        }
        if k < b.len() {
            out.push(code[start..k].to_string());
        }
        i = k.max(i + 1);
    }
    out
}

/// What `at` or `batch` is handed, fed or read from a file, runs later unwatched.
pub(super) fn scheduled(raw: &str) -> Decision {
    junction(
        RuleId::Schedule,
        "this schedules commands to run later, when no one is watching: a person decides",
        raw,
    )
}

/// Judge a one-liner's code for interpreter `name`; `raw` is the command as written. The
/// command lines it runs go back to the walk.
pub(super) fn judge_code(name: &str, code: &str, ctx: &Context, raw: &str, out: &mut Findings) {
    let shell = super::rules::is_shell(name) || matches!(name, "eval" | "source" | ".");
    if shell {
        out.runs(code, Keep::All);
        return;
    }
    if matches!(name, "at" | "batch") {
        out.runs(code, Keep::All);
        out.push(scheduled(raw));
        return;
    }
    // The code judged as if a shell ran it: a command that would be blocked there is blocked
    // here, however the language quotes it (Perl's `system q(rm -rf ~)`, a bare word list).
    // A one-liner that only prints such a command is blocked too: no reading of every
    // language tells printing from running.
    out.runs(code, Keep::CommandBlocks);
    if reverse_shell(code) {
        out.push(Decision {
            verdict: Verdict::Block,
            rule: Some(RuleId::ReverseShell.into()),
            reason: "this wires a network connection to a shell (a reverse shell): it is never run"
                .into(),
            command: Some(raw.into()),
            targets: Vec::new(),
        });
        return;
    }
    if forks_forever(code) {
        out.push(Decision {
            reason: "this code forks in a loop that never ends (a fork bomb): the machine's processes run out; it is never run".into(),
            rule: Some(RuleId::ForkBomb.into()),
            ..critical(raw)
        });
        return;
    }
    let has = |set: &[&str]| set.iter().any(|n| code.contains(n));
    applescript_power(name, code, raw, out);
    reads_credential_store(code, ctx, raw, out);
    printed_secret(code, raw, out);
    let (shells_out, deletes) = (shells_out(code), has(DELETES));
    handed_on(code, shells_out, raw, out);
    // A call named for deleting (`rm(…)`, `File.rm_rf!(…)`, `(delete-directory …)`) counts
    // with a critical target only: alone it is too common (`list.remove(x)`).
    let deletes_named = deletion_call(code);
    if deletes || deletes_named {
        let home = has(HOME_NAMES) || names_home(code) || home_path_named(code, ctx);
        let critical_literal = literals(code).iter().any(|lit| {
            lit.starts_with('/') || lit.starts_with('~') || lit == "." || lit.starts_with("C:")
        } && {
            let p = if lit.starts_with("C:") { "/".to_string() } else { lit.clone() };
            matches!(
                ctx.classify(&p),
                Place::Root | Place::Home | Place::System | Place::ProjectRoot
            )
        });
        if home || critical_literal {
            out.push(Decision {
                verdict: Verdict::Block,
                rule: Some(RuleId::InterpreterCritical.into()),
                reason: "this one-liner deletes /, the home directory, a system path or the project root: it is never run".into(),
                command: Some(raw.into()),
                targets: Vec::new(),
            });
        }
    }
    cleared_place(code, ctx, raw, out);
    acts_elsewhere(code, raw, out);
    if evaluates_unseen(code, raw, out) {
        return;
    }
    if writes_system_file(code, ctx) || replaces_a_place_that_matters(code, ctx) {
        out.push(Decision {
            reason: "this one-liner overwrites a system file or the home directory's own files: it is never run".into(),
            ..critical(raw)
        });
    }
    let deletes = deletes && !deletes_only_scratch(code, ctx);
    if shells_out || deletes || deletes_outside(code, ctx) {
        out.push(junction(
            RuleId::InterpreterCode,
            "this one-liner deletes files or runs shell commands from inside another language, where the gate cannot follow",
            raw,
        ));
    } else if writes_outside(code, ctx) {
        out.push(junction(
            RuleId::InterpreterCode,
            "this one-liner writes a file outside the project and the temporary directories (the home's or a shared one): a person decides",
            raw,
        ));
    }
}

/// Whether code forks inside a loop with no end (`while True: os.fork()`, `for(;;) fork();`,
/// `loop { fork() }`): each child forks again, and the machine's process table fills. A
/// loop that ends, or a fork outside any loop, is ordinary.
fn forks_forever(code: &str) -> bool {
    const FOREVER: &[&str] = &[
        "while true",
        "while 1",
        "while(1)",
        "while (1)",
        "while(true)",
        "while (true)",
        "for(;;)",
        "for (;;)",
        "loop {",
        "loop do",
        "while :",
        "repeat",
    ];
    if !code.contains("fork") {
        return false;
    }
    let lower = code.to_ascii_lowercase();
    // Perl's and Ruby's loop written after its statement (`fork while 1`).
    let postfix = lower.match_indices("fork").any(|(at, _)| {
        let line = lower[at..].lines().next().unwrap_or("");
        ["while 1", "while true", "until 0", "until false"]
            .iter()
            .any(|l| line.contains(l))
    });
    postfix
        || FOREVER.iter().any(|l| {
            lower.find(l).is_some_and(|at| {
                let body = &lower[at..];
                // The loop's body holds the fork and no way out of it.
                body.contains("fork(")
                    && !body.contains("break")
                    && !body.contains("exit")
                    && !body.contains("return")
            })
        })
}

/// What code does elsewhere, by its calls: publishes or changes an account with this user's
/// credentials, resets or erases what a library controls ([`device_act`]), or acts on
/// another host.
fn acts_elsewhere(code: &str, raw: &str, out: &mut Findings) {
    if let Some(act) = acts_signed_in(code).or_else(|| publishes(code)) {
        out.push(junction(
            RuleId::ChangesRemote,
            &format!("this code calls `{act}` on a service: it publishes, or changes an account elsewhere with this user's credentials; a person decides"),
            raw,
        ));
    } else if let Some(act) = device_act(code) {
        out.push(junction(
            RuleId::InterpreterCode,
            &format!("this code calls `{act}`: a device, a board or what a library controls is reset, restarted, erased or uninstalled from inside another language; a person decides"),
            raw,
        ));
    } else if let Some((host, act)) = acts_on_a_host(code) {
        out.push(junction(
            RuleId::ChangesRemote,
            &format!("this code reaches `{host}` and acts there (`{act}`): a device or a service on another machine is changed; a person decides"),
            raw,
        ));
    }
}

/// A block of a one-liner's own ([`RuleId::InterpreterCritical`]), its reason to be said.
fn critical(raw: &str) -> Decision {
    Decision {
        verdict: Verdict::Block,
        rule: Some(RuleId::InterpreterCritical.into()),
        reason: String::new(),
        command: Some(raw.into()),
        targets: Vec::new(),
    }
}

/// The finding for code that empties the place it pointed an object at
/// ([`clears_configured_place`]): `/`, the home directory, a system directory or the project
/// root is a block; a place outside the project and the temporary directories, a junction.
fn cleared_place(code: &str, ctx: &Context, raw: &str, out: &mut Findings) {
    let Some(place) = clears_configured_place(code) else {
        return;
    };
    match ctx.classify(&place) {
        Place::Root | Place::Home | Place::System | Place::ProjectRoot => out.push(Decision {
            reason: format!(
                "this code points an object's files at `{place}` and then clears them: it empties /, the home directory, a system path or the project root, and is never run"
            ),
            ..critical(raw)
        }),
        Place::Outside | Place::Unknown => out.push(junction(
            RuleId::InterpreterCode,
            "this code points an object's files at a place outside the project and then clears them: a person decides",
            raw,
        )),
        _ => {}
    }
}

/// Whether code wires a network connection to a shell (a reverse shell): a socket and a shell's
/// path or its descriptors duplicated.
fn reverse_shell(code: &str) -> bool {
    let has = |set: &[&str]| set.iter().any(|n| code.contains(n));
    // A socket handed to a shell: a reverse shell.
    let socket = has(&[
        "socket",
        "fsockopen",
        "TCPSocket",
        "net.Socket",
        "net.connect",
        // Node's module asked for by name (`require("net").connect(…)`), escaped or not.
        "require(\"net\")",
        "require('net')",
        "require(\\\"net\\\")",
        "node:net",
        "createConnection",
        "Net::Socket",
        "IO::Socket",
        "TCPClient",
        // Dart's and Elixir's, Rust's and Go's (`Socket.connect(…)`, `:gen_tcp.connect`,
        // `TcpStream::connect`, `net.Dial`).
        "Socket.connect",
        "gen_tcp",
        "TcpStream",
        "net.Dial",
        // Racket's (`tcp-connect`); Julia's `connect("198.51.100.1", 4446)` is below.
        "tcp-connect",
        // OCaml's (`Unix.open_connection (Unix.ADDR_INET …)`).
        "open_connection",
        "ADDR_INET",
        // zsh's own (`zmodload zsh/net/tcp; ztcp HOST PORT`).
        "ztcp",
        "/dev/tcp/",
        // gawk's network files (`"/inet/tcp/0/HOST/PORT"`).
        "/inet/tcp/",
        "/inet/udp/",
    ]);
    let shell_path = has(&[
        "/bin/sh",
        "/bin/bash",
        "sh -i",
        "bash -i",
        "cmd.exe",
        "dup2",
        "pty.spawn",
    ]);
    // Or what it reads from there run as a command (Ruby's `%x(#{c.gets})`, awk's `c |&
    // getline`, `system(…)`, `popen`): a shell by another name.
    // (Or a process started to talk to it: Elixir's `Port.open({:spawn, …})`, Dart's
    // `Process.start`, a command line PowerShell runs from it, `Invoke-Expression`.)
    let runs_what_it_reads = has(&[
        "%x(",
        "`#{",
        "|&",
        "system(",
        "popen",
        "exec(",
        "spawn(",
        ":spawn",
        // Julia's command run (`read(Cmd(["sh", "-c", c]))`), Racket's `(system …)`.
        "Cmd([",
        "(system ",
        "Process.start",
        "Invoke-Expression",
        "-Command $",
        "Command::new",
        "exec.Command",
        // Tcl's `[exec sh -c [gets $s]]`: a shell run on what the socket sends.
        "exec sh",
        "exec bash",
        "exec /bin/sh",
    ]);
    (socket || connects_to_an_address(code)) && (shell_path || runs_what_it_reads)
}

/// A connection opened to an address written out (`connect("198.51.100.1", 4446)`, its quotes
/// lost to the shell: `connect(198.51.100.1,4446)`), whatever the language calls it.
fn connects_to_an_address(code: &str) -> bool {
    code.match_indices("connect(").any(|(i, m)| {
        let rest = code[i + m.len()..].trim_start_matches(['"', '\'', ' ', '\\']);
        let host: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'))
            .collect();
        // Four numbers (an IPv4 address), or a name with a dot that is no member call.
        let numbers = host
            .split('.')
            .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        numbers.count() == 4
            || host.contains('.')
                && host.split('.').count() >= 2
                && rest[host.len()..]
                    .trim_start_matches(['"', '\'', '\\'])
                    .starts_with(',')
    })
}

/// What a one-liner hands on: its string literals and argument vectors, when it shells out
/// (judged as command lines, junctions kept), and an acting call on a client it points at
/// another machine.
fn handed_on(code: &str, shells_out: bool, raw: &str, out: &mut Findings) {
    if shells_out {
        for lit in literals(code) {
            if lit.contains(' ') || lit.contains('/') {
                out.runs(&lit, Keep::Risky);
            }
        }
        // A program's argument vector as a list (`subprocess.run(['sudo', 'dd', …])`): the
        // line it makes runs.
        for line in argv_lists(code) {
            out.runs(&line, Keep::Risky);
        }
    }
    if let Some(call) = sends_elsewhere(code) {
        out.push(junction(
            RuleId::HttpWrite,
            &format!(
                "this one-liner sends a request that changes something on another machine (`{call}`): a person decides"
            ),
            raw,
        ));
    }
    if let Some(call) = acts_on_another_machine(code) {
        out.push(junction(
            RuleId::ChangesRemote,
            &format!(
                "this one-liner points a client at another machine and calls `{call}` on it: a device or a service elsewhere is changed; a person decides"
            ),
            raw,
        ));
    }
}

/// An HTTP request that changes what it is sent to, in code that names another machine's URL:
/// a client's method named for one (`requests.post(…)`, `httpx.delete(…)`, `axios.put(…)`) or
/// a method given by name (`fetch(url, {method: 'DELETE'})`, `method="PATCH"`), as `curl -X
/// POST` is. A relative URL, the loopback and this machine's names stay here.
fn sends_elsewhere(code: &str) -> Option<String> {
    // A URL as the code writes it, up to its quote; a host only a template fills in
    // (`${HOST}`) is not known to be elsewhere.
    let remote = code.match_indices("http").any(|(at, _)| {
        let url = code[at..]
            .split(['"', '\'', '`', ' ', '\\'])
            .next()
            .unwrap_or_default();
        super::shells::web_url_elsewhere(url)
            && super::shells::url_host(url).is_some_and(|h| {
                !h.is_empty()
                    && !h.starts_with(['$', '{', '['])
                    && h != "0.0.0.0"
                    && !h.ends_with(".localhost")
            })
    });
    if !remote {
        return None;
    }
    const CHANGES: &[&str] = &["post", "put", "patch", "delete"];
    let by_call = code.match_indices('(').find_map(|(at, _)| {
        let before = &code[..at];
        let start = word_start(before, |c| c.is_ascii_alphanumeric() || c == '_');
        let name = &before[start..];
        // A method on a client or a module (`requests.post`), not one on what a call
        // returned or on a collection's entry (`d.delete(k)` has no URL beside it, but
        // `open(…).delete` is no request).
        (start > 0
            && before[..start].ends_with('.')
            && !before[..start - 1].ends_with(')')
            && CHANGES.contains(&name.to_ascii_lowercase().as_str()))
        .then(|| {
            format!(
                "{}(…)",
                &before[word_start(&before[..start - 1], |c| {
                    c.is_ascii_alphanumeric() || c == '_' || c == '.'
                })..]
            )
        })
    });
    by_call.or_else(|| {
        let lower = code.to_ascii_lowercase();
        lower.match_indices("method").find_map(|(at, _)| {
            let rest = lower[at + 6..].trim_start_matches(|c: char| {
                matches!(c, ' ' | ':' | '=' | '"' | '\'' | '`' | '\\')
            });
            CHANGES
                .iter()
                .find(|m| {
                    rest.starts_with(*m)
                        && !rest[m.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
                })
                .map(|m| format!("method {}", m.to_ascii_uppercase()))
        })
    })
}

/// A call that acts, in code that names another machine by its address (`c.connect('10.0.0.5',
/// 0, 1); c.plc_stop()`, `b.write('192.168.1.20 analogValue 3 …')`): a controller, a building's
/// devices or a service elsewhere is changed. Not this machine (`127.…`, `0.0.0.0`).
fn acts_on_another_machine(code: &str) -> Option<String> {
    let elsewhere = code
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .any(|w| {
            let parts: Vec<&str> = w.split('.').collect();
            parts.len() == 4
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.len() <= 3 && p.parse::<u8>().is_ok())
                && !matches!(parts[0], "127" | "0")
        });
    if !elsewhere {
        return None;
    }
    code.match_indices('(').find_map(|(at, _)| {
        let before = &code[..at];
        let name_start = word_start(before, |c| c.is_ascii_alphanumeric() || c == '_');
        // A method (`.write(`), not a function or a constructor; not one on what a call
        // returned (`open('build/x.bin', 'wb').write(…)` writes a local file).
        if name_start == 0
            || !before[..name_start].ends_with('.')
            || before[..name_start - 1].ends_with(')')
        {
            return None;
        }
        let name = &before[name_start..];
        crate::text::words(name)
            .iter()
            .any(|p| {
                matches!(
                    p.as_str(),
                    "write"
                        | "stop"
                        | "reset"
                        | "reinitialize"
                        | "reboot"
                        | "restart"
                        | "download"
                        | "delete"
                        | "remove"
                        | "erase"
                        | "clear"
                        | "shutdown"
                        | "halt"
                        | "disable"
                        | "kill"
                        | "flash"
                        | "format"
                )
            })
            .then(|| format!("{name}(…)"))
    })
}

/// A string of the code that is the path of a credential store (`open("/home/dev/.netrc")`,
/// `File.Load("~/.aws/credentials")`): whatever the language does with it, a key is read
/// into what the agent sees, as `cat` of it is asked.
pub(super) fn reads_credential_store(code: &str, ctx: &Context, raw: &str, out: &mut Findings) {
    // Every line of code comes here: a store's path has a slash (or is joined by a call),
    // and most literals do not.
    if !code.contains('/') && !code.contains(',') {
        return;
    }
    let lits = literals(code);
    let whole = lits.iter().find(|lit| {
        (lit.starts_with('/') || lit.starts_with('~'))
            && ctx
                .resolve(lit)
                .is_some_and(|p| crate::rules::credential_path(ctx, &p))
    });
    // Or joined under the home the code names (`Path.home() / ".aws" / "credentials"`,
    // `os.path.join(expanduser("~"), ".ssh", "id_rsa")`): two or three strings in a row.
    let joined = || {
        let home = HOME_NAMES.iter().any(|n| code.contains(n)) || names_home(code);
        let pieces: Vec<&String> = lits
            .iter()
            .filter(|l| !l.is_empty() && *l != "~" && !l.contains(char::is_whitespace))
            .collect();
        (home && pieces.len() >= 2)
            .then(|| {
                (2..=3).find_map(|n| {
                    pieces.windows(n).find_map(|w| {
                        let rel: Vec<&str> = w.iter().map(|p| p.trim_matches('/')).collect();
                        let path = ctx.places.home.join(rel.join("/"));
                        crate::rules::credential_path(ctx, &path)
                            .then(|| format!("~/{}", rel.join("/")))
                    })
                })
            })
            .flatten()
    };
    let store = whole.cloned().or_else(joined);
    if let Some(store) = store {
        out.push(junction(
            RuleId::CredentialRead,
            &format!(
                "this code names a credential store (`{store}`): what it reads goes into the agent's context"
            ),
            raw,
        ));
    }
}

/// Whether code calls its own language's evaluation of text (`eval`, `exec`, Lua's `load`),
/// and whether it calls the shell (`system`, `popen`, `subprocess.run(…, shell=True)`): one
/// pass over its names.
fn runs_text(code: &str) -> (bool, bool) {
    let (mut evaluates, mut shells) = (false, false);
    for (id, called) in identifiers(code) {
        if !called {
            continue;
        }
        match id.rsplit(['.', ':']).next().unwrap_or(id) {
            "eval" | "exec" | "evaluate" | "instance_eval" | "class_eval" | "Function"
            | "loadstring" => {
                evaluates = true;
            }
            // Lua's `load(chunk)()`, bare: a module's `json.load` reads data.
            "load" if id == "load" => evaluates = true,
            "system" | "popen" | "shell_exec" | "passthru" | "check_output" | "check_call" => {
                shells = true;
            }
            // Python's subprocess by its module's name, or any call told to use the shell
            // (`subprocess.run(…, shell=True)`); a bare `run` is too common a name alone.
            "run" | "call" | "Popen"
                if id.starts_with("subprocess.") || code.contains("shell=True") =>
            {
                shells = true;
            }
            _ => {}
        }
    }
    // (Perl's and Ruby's `system` said as a statement: `system %q(…)`, `system decode_qp(…)`.)
    shells = shells
        || code.match_indices("system ").any(|(at, _)| {
            code[..at]
                .chars()
                .next_back()
                .is_none_or(|c| matches!(c, ' ' | ';' | '{' | '(' | '\'' | '"'))
        });
    (evaluates, shells)
}

/// Code that evaluates what it is not shown: text decoded at run time is obfuscated code, a
/// block (`exec(b64decode(…))`); a string taken from the environment is code the gate cannot
/// read, a junction (`eval(parse(text = Sys.getenv("X")))`). Whether it was a block.
fn evaluates_unseen(code: &str, raw: &str, out: &mut Findings) -> bool {
    let has = |set: &[&str]| set.iter().any(|n| code.contains(n));
    // What the code calls that runs text: its own language's evaluation, or the shell
    // (`os.system(base64.b64decode('…'))`: the same, in a shell). One pass over its names.
    let (evaluates, shells) = runs_text(code);
    // Or text put together backwards or from character codes (R's `rev(strsplit(…))`,
    // Python's `[::-1]` and `chr(…)`, PHP's `strrev`, Perl's `pack`): the same hiding.
    let decoded = has(&[
        "b64decode",
        "base64",
        "fromCharCode",
        "decode(",
        "unhexlify",
        "atob(",
        "rev(",
        "[::-1]",
        "reverse(",
        "strrev(",
        "intToUtf8(",
        "rawToChar(",
        "fromhex(",
        "chr(",
        "pack(",
        // Ruby's `unpack1("m")` (base64), Perl's quoted-printable.
        "unpack1(",
        "decode_qp(",
    ]) || crate::encoded::carries_encoded_text(code);
    // (Or spelled in an encoding whatever turns it back: `[114,109,…].map(&:chr).join`.)
    if (evaluates || shells) && decoded {
        out.push(Decision {
            verdict: Verdict::Block,
            rule: Some(RuleId::DecodedCode.into()),
            reason:
                "this one-liner decodes text and runs it as code (obfuscated code): it is never run"
                    .into(),
            command: Some(raw.into()),
            targets: Vec::new(),
        });
        return true;
    }
    // Evaluated straight from a URL (`exec(urlopen("https://…").read())`, `eval(await
    // (await fetch(url)).text())`): `curl … | sh` written in another language.
    let fetched = code.contains("https://") || code.contains("http://");
    // Or loaded by its address (R's `source('https://…')`, PHP's `include('http://…')`,
    // Lua's `dofile`): a file of code read from the network and run.
    let loads_address = [
        "source",
        "dofile",
        "include",
        "include_once",
        // JavaScript's dynamic `import("https://…")` (Node's network imports, Deno, Bun).
        "import",
        "require",
        "require_once",
    ]
    .iter()
    .any(|name| {
        code.match_indices(name).any(|(at, _)| {
            let Some(rest) = code[at + name.len()..].strip_prefix('(') else {
                return false;
            };
            let rest = rest.trim_start();
            let rest = rest.trim_start_matches(['\'', '"', '\\']);
            // (Or what a fetching call inside it returns: Julia's `include(download("https://…"))`.)
            let inner = &rest[..rest.find(')').unwrap_or(rest.len())];
            rest.starts_with("https://")
                || rest.starts_with("http://")
                || inner.contains("https://")
                || inner.contains("http://")
        })
    });
    // (Perl's and Ruby's `eval` said as a statement: `eval get("https://…")`, `eval
    // URI.open(…).read`.)
    let evaluates = evaluates
        || code.match_indices("eval ").any(|(at, _)| {
            code[..at]
                .chars()
                .next_back()
                .is_none_or(|c| matches!(c, ' ' | ';' | '{' | '(' | '\''))
        });
    if evaluates && fetched || loads_address {
        out.push(Decision {
            verdict: Verdict::Block,
            rule: Some(RuleId::PipeToShell.into()),
            reason: "this one-liner runs code it fetches from the network, which nobody here has read: it is never run".into(),
            command: Some(raw.into()),
            targets: Vec::new(),
        });
        return true;
    }
    let hidden = has(&["getenv", "environ", "ENV[", "process.env"]);
    if evaluates && hidden {
        out.push(junction(
            RuleId::InterpreterCode,
            "this one-liner evaluates code it takes from the environment: the gate cannot read it",
            raw,
        ));
    }
    false
}

/// The junction for code that prints a credential ([`prints_secret`]).
pub(super) fn printed_secret(code: &str, raw: &str, out: &mut Findings) {
    if let Some(name) = prints_secret(code) {
        out.push(junction(
            RuleId::CredentialRead,
            &format!(
                "this code prints a credential (`{name}`): the secret comes back into the agent's context, and a person decides"
            ),
            raw,
        ));
    }
}

/// A call of `code` that prints or returns to the screen a value named for a credential
/// (`print(settings.SECRET_KEY)`, `echo config('app.key');`, `puts ENV["API_TOKEN"]`): the
/// secret comes back into the agent's context. The name is read outside quotes, or inside
/// quotes only as a key or a subscript is written (no blank): a message about a password
/// (`print("Enter the password:")`) names none. The credential's name, if one is printed.
pub(super) fn prints_secret(code: &str) -> Option<String> {
    const PRINTS: &[&str] = &[
        "print",
        "println",
        "printf",
        "puts",
        "echo",
        "log",
        "dump",
        "dd",
        "var_dump",
        "print_r",
        "pp",
        "say",
        "write",
        "writeln",
        // R's and others' printers (`cat(Sys.getenv("…_PASSWORD"))`, `message(…)`).
        "cat",
        "message",
        "writelines",
    ];
    // Most code prints nothing named so: a cheap look before the calls are read.
    let lower = code.to_ascii_lowercase();
    if ![
        "secret",
        "password",
        "passwd",
        "pwd",
        "token",
        "key",
        "credential",
    ]
    .iter()
    .any(|w| lower.contains(w))
    {
        return None;
    }
    for (id, called) in identifiers(code) {
        let last = id
            .rsplit(['.', ':'])
            .next()
            .unwrap_or(id)
            .to_ascii_lowercase();
        if !PRINTS.contains(&last.as_str()) {
            continue;
        }
        // What the call is handed: to the end of its statement.
        let at = id.as_ptr() as usize - code.as_ptr() as usize + id.len();
        let rest = &code[at..];
        let end = rest.find([';', '\n']).unwrap_or(rest.len());
        let args = &rest[..end];
        if !called && !args.starts_with([' ', '\t']) {
            continue;
        }
        let names = args
            .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .filter(|w| !w.is_empty());
        // A quoted message is prose: its words are not keys.
        let prose: Vec<String> = if args.contains(['"', '\'']) {
            literals(args)
                .into_iter()
                .filter(|l| l.contains(' '))
                .collect()
        } else {
            Vec::new()
        };
        for w in names {
            if prose.iter().any(|l| l.contains(w)) {
                continue;
            }
            let ps = crate::text::words(w);
            // `PWD` joined to what it opens is a password (`GBIF_PWD`); alone, or as a
            // member (`os.pwd`), it is the working directory.
            let pwd = ps.len() > 1 && !w.contains('.') && ps.iter().any(|p| p == "pwd");
            let secret = pwd || crate::rules::names_a_secret(&ps);
            if secret {
                return Some(w.to_string());
            }
        }
    }
    None
}

/// Whether `code` opens a system file for writing (`open('/etc/passwd','w')`,
/// `File.write("/etc/hosts", …)`, `writeFileSync('/etc/…')`, `doc.save("/etc/…")`): a literal
/// path in a system directory, with a write mode or a call named for writing or saving.
/// Whether `p` is a file the system's shared data would gain, not one it holds: a path under
/// `/usr/share` (or `/usr/local/share`) that is not on this machine. Writing it adds to a
/// system directory, which asks; it replaces nothing the packages installed, which a write over
/// `/usr/share/fonts/…/DejaVuSans.ttf` does. (The gate asks the filesystem here, as it does
/// where a temporary path leads.)
pub(crate) fn new_data_file(p: &std::path::Path) -> bool {
    ["/usr/share/", "/usr/local/share/"]
        .iter()
        .any(|d| p.starts_with(d))
        && p.components().count() > 4
        && std::fs::symlink_metadata(p).is_err()
}

pub(super) fn writes_system_file(code: &str, ctx: &Context) -> bool {
    writes_literal_in(code, ctx, |path, p| {
        p == Place::System && !new_data_file(std::path::Path::new(path))
    })
}

/// Whether `code` opens for writing, or hands a writing call, a path outside the project, the
/// temporary directories and the tool caches (`segyio.open("/srv/seismic/master.sgy", "r+")`,
/// `open("/home/dev/notes.txt", "a")`): the person's or a shared file is changed.
pub(super) fn writes_outside(code: &str, ctx: &Context) -> bool {
    let cache = ctx.places.home.join(".cache");
    // The home directory itself as where output goes (`output_dir = '/home/dev'`): files land
    // among the person's own.
    (writes_literal_in(code, ctx, |_, p| matches!(p, Place::Outside | Place::Home))
        || copies_outside(code, ctx))
        && !literals(code)
            .iter()
            .any(|l| l.starts_with(cache.to_string_lossy().as_ref()))
}

/// Whether `code` saves over `/`, the home directory or the project root itself, told to
/// replace what is there (`font.save('/home/dev', overwrite=True)`: a format kept as a
/// directory is written by emptying the directory first).
fn replaces_a_place_that_matters(code: &str, ctx: &Context) -> bool {
    let replacing = ["overwrite", "clobber", "replace", "force"]
        .iter()
        .any(|w| {
            code.match_indices(w).any(|(at, _)| {
                let rest = code[at + w.len()..].trim_start();
                rest.strip_prefix('=')
                    .map(str::trim_start)
                    .is_some_and(|v| v.starts_with(['T', 't', '1']))
            })
        });
    replacing
        && writes_literal_in(code, ctx, |_, p| {
            matches!(p, Place::Root | Place::Home | Place::ProjectRoot)
        })
}

/// Whether `code` copies or moves a file to a place outside the project: the last string of a
/// call named so (`shutil.copy(SRC, "/srv/www/html/x")`, `File.rename(…)`) is where it lands,
/// and a copy from outside into the project is only a read.
fn copies_outside(code: &str, ctx: &Context) -> bool {
    const MOVES: &[&str] = &[
        "copy", "copyfile", "copy2", "copytree", "copyto", "move", "moveto", "rename",
    ];
    let b = code.as_bytes();
    code.match_indices('(').any(|(open, _)| {
        let start = code[..open]
            .char_indices()
            .rev()
            .find(|(_, ch)| !(ch.is_ascii_alphanumeric() || *ch == '_'))
            .map_or(0, |(i, ch)| i + ch.len_utf8());
        let name = code[start..open].to_ascii_lowercase();
        if !MOVES.contains(&name.as_str()) {
            return false;
        }
        let mut depth = 0usize;
        let close = (open..b.len()).find(|&i| {
            match b[i] {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            depth == 0
        });
        let Some(close) = close else { return false };
        literals(&code[open..=close])
            .last()
            .is_some_and(|dest| dest.starts_with('/') && ctx.classify(dest) == Place::Outside)
    })
}

/// Whether a string literal of `code` is an absolute path whose place `place` accepts, and the
/// code opens a file for writing or calls something that writes.
fn writes_literal_in(code: &str, ctx: &Context, place: impl Fn(&str, Place) -> bool) -> bool {
    let lits = literals(code);
    let named = lits.iter().any(|l| {
        let path = perl_mode(l).map_or(l.as_str(), str::trim_start);
        path.starts_with('/') && place(path, ctx.classify(path))
    });
    if !named {
        return false;
    }
    // A path handed to a keyword argument named for output (`f_out='/etc/sudoers'`,
    // `output_path="/srv/…"`): written, whatever the call is named.
    if output_arguments(code)
        .iter()
        .any(|path| path.starts_with('/') && place(path, ctx.classify(path)))
    {
        return true;
    }
    let mode = lits.iter().any(|l| {
        matches!(l.as_str(), "w" | "wb" | "w+" | "wt" | "a" | "ab" | "r+") || perl_mode(l).is_some()
    });
    let call = identifiers(code).any(|(id, called)| {
        called && {
            let last = id
                .rsplit(['.', ':'])
                .next()
                .unwrap_or(id)
                .to_ascii_lowercase();
            let ps = crate::text::words(id);
            last.starts_with("write")
                // Joined to what it writes (`savemesh(Th, "/etc/fstab")`, scapy's `wrpcap`).
                || ["save", "dump", "export"].iter().any(|w| last.starts_with(w))
                || last.starts_with("wr") && !last.starts_with("wrap")
                || last == "truncate"
                || last.starts_with("overwrite")
                // Putting text into a file (`fputs`, `mputl`, `file_put_contents`), printing
                // to one (`PrintTo`, `print_to`), or creating it (`create("/etc/sudoers")`).
                || ["put", "fput", "mput"].iter().any(|p| last.starts_with(p))
                || ps.iter().any(|p| matches!(p.as_str(), "put" | "create" | "creat" | "printto"))
                || ps.windows(2).any(|w| w[0] == "print" && w[1] == "to")
                // Output sent to a file by name (Yacas's `ToFile("/etc/passwd") …`).
                || ps.windows(2).any(|w| w[0] == "to" && w[1] == "file")
                // A call that puts its result at a path (`doc.save("/etc/passwd")`,
                // `output.file(%wav, "/etc/passwd", …)`): the path is written.
                || ["save", "dump", "output", "export", "store", "persist"]
                    .iter()
                    .any(|w| crate::text::words(id).iter().any(|p| p == w))
                // A conversion into a file (`df.to_csv("/srv/…")`, `s.to(filename=…)`), called
                // with its parenthesis: `to '/etc/hosts'` in prose is a preposition.
                || (last == "to" || last.starts_with("to_") && last.len() > 3)
                    && code.contains(&format!("{id}("))
                // What is downloaded lands at the path it is given (`download_file(…,
                // local_path=…)`, `urlretrieve(url, '/etc/…')`). Not `fetch`: in a browser's
                // code, `fetch('/api/feedback')` names a page, not a file.
                || ps
                    .iter()
                    .any(|p| matches!(p.as_str(), "download" | "retrieve" | "urlretrieve"))
                // A file made in a format (`fg.rss_file('/etc/passwd')`, `atom_file`,
                // `tle_file(url, filename=…)`), as a conversion is: not a file read, opened
                // or looked at (`read_file`, `load_file`, `is_file`). The method's own words:
                // the object's name (`load.tle_file`) says nothing of what it does.
                || {
                    let own = crate::text::words(&last);
                    own.len() >= 2
                        && own.last().is_some_and(|p| p == "file")
                        && !own.iter().any(|p| {
                            FILE_READS.contains(&p.as_str())
                                || crate::effect::words::LOOKS.contains(&p.as_str())
                        })
                }
        }
    });
    mode || call
}

/// The words of a call named `…_file` that read, open or look at the file rather than make it.
const FILE_READS: &[&str] = &[
    "read", "load", "open", "parse", "from", "import", "is", "has", "exists", "copy", "move",
    "remove", "delete", "upload", "send", "attach", "include", "source", "run", "exec", "eval",
    "hash", "sign", "verify", "decrypt", "encrypt", "close", "lock", "unlock", "watch",
];

/// The assignments in code, as `(name_start, name, value)`: a name before `=` (not `==`,
/// `<=`, `!=`) and, when the value is a quoted string, its content. With `dotted`, the name
/// keeps its object (`Simbad.cache_location`).
fn assignments(code: &str, dotted: bool) -> impl Iterator<Item = (usize, &str, Option<&str>)> {
    let b = code.as_bytes();
    code.match_indices('=').filter_map(move |(eq, _)| {
        if b.get(eq + 1) == Some(&b'=') || eq > 0 && matches!(b[eq - 1], b'=' | b'<' | b'>' | b'!')
        {
            return None;
        }
        let name_end = code[..eq].trim_end().len();
        let name_start = code[..name_end]
            .char_indices()
            .rev()
            .find(|(_, ch)| !(ch.is_ascii_alphanumeric() || *ch == '_' || dotted && *ch == '.'))
            .map_or(0, |(i, ch)| i + ch.len_utf8());
        let rest = code[eq + 1..].trim_start();
        let value = rest
            .chars()
            .next()
            .filter(|q| matches!(q, '\'' | '"'))
            .and_then(|q| rest[1..].split(q).next().filter(|_| rest[1..].contains(q)));
        Some((name_start, &code[name_start..name_end], value))
    })
}

/// The string values of keyword arguments (or settings) named for where output goes, in
/// code: `f_out='…'`, `output_path="…"`, `dest = '…'`, `save_to='…'`; or the strings of a
/// list or a call given there (`results=[mg.pcm16('/etc/shadow')]`: where the results go).
fn output_arguments(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (name_start, name, value) in assignments(code, false) {
        let words = crate::text::words(name);
        let output = words.iter().any(|w| {
            matches!(
                w.as_str(),
                "out" | "output" | "outfile" | "outpath" | "dest" | "destination" | "results"
            )
        }) || words
            .windows(2)
            .any(|w| w[0] == "save" && matches!(w[1].as_str(), "to" | "path"));
        if !output {
            continue;
        }
        if let Some(v) = value {
            out.push(v.to_string());
            continue;
        }
        // A list or a call: its strings, to the bracket that closes it.
        let after = &code[name_start + name.len()..];
        let rest = after.trim_start().trim_start_matches('=').trim_start();
        let opens = rest.starts_with(['[', '('])
            || rest.find('(').is_some_and(|p| {
                rest[..p]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_.".contains(&b))
            });
        if opens && let Some(end) = closing(rest) {
            out.extend(literals(&rest[..end]));
        }
    }
    out
}

/// The end of the first bracketed group of `s` (`[`, `(` or `{`, nested), past its closing one.
fn closing(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'[' | b'(' | b'{' => depth += 1,
            b']' | b')' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// A call whose own words publish or deploy (`bookdown::publish_book(…)`,
/// `site.deploy()`): what it makes is put out where others see it, with this user's account.
fn publishes(code: &str) -> Option<&str> {
    identifiers(code).find_map(|(id, called)| {
        let last = id.rsplit(['.', ':']).next().unwrap_or(id);
        (called
            && crate::text::words(last)
                .iter()
                .any(|w| matches!(w.as_str(), "publish" | "deploy")))
        .then_some(last)
    })
}

/// Code that names another machine (`Telescope('192.168.1.50:11111', 0)`, a
/// `postgresql://…@db.example.org/…` engine) and acts on what it reaches: a call whose first
/// word changes something (`OpenShutter()`, `SlewToCoordinatesAsync(…)`, `.delete(…)`), or an
/// argument asking to replace what is there (`if_exists='replace'`). The address and the act;
/// this machine's own addresses are not another's.
fn acts_on_a_host(code: &str) -> Option<(String, &str)> {
    const ACTS: &[&str] = &[
        "open", "close", "move", "slew", "park", "unpark", "goto", "set", "write", "delete",
        "drop", "remove", "replace", "send", "start", "stop", "restart", "reboot", "reset",
        "trigger", "fire", "unlock", "lock", "insert", "update", "upload", "push", "put", "post",
        "abort", "halt", "erase", "flash", "truncate", "purge",
    ];
    let host = literals(code).into_iter().find(|l| other_host(l))?;
    let act = identifiers(code)
        .find_map(|(id, called)| {
            let last = id.rsplit(['.', ':']).next().unwrap_or(id);
            let words = crate::text::words(last);
            // A method, or a name of more words than the verb: not the language's own
            // `open(path)`.
            // (A connection opened or closed alone, `plc.open()`, is no act on the machine.)
            (called
                && (id.contains('.') || words.len() > 1)
                && words.first().is_some_and(|w| ACTS.contains(&w.as_str()))
                && !(words.len() == 1 && matches!(words[0].as_str(), "open" | "close")))
            .then_some(last)
        })
        .or_else(|| {
            ["'replace'", "\"replace\""]
                .iter()
                .find(|v| code.contains(*v))
                .map(|_| "replace")
        })?;
    Some((host, act))
}

/// A literal that addresses another machine: a URL with a host, or `host:port`, whose host is
/// not this one.
fn other_host(lit: &str) -> bool {
    let rest = match lit.split_once("://") {
        Some((scheme, rest))
            if !scheme.is_empty()
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'+') =>
        {
            rest
        }
        _ => {
            // An IPv4 address alone (`SimpleUDPClient("192.0.2.40", 53000)`, the port apart).
            let octets: Vec<&str> = lit.split('.').collect();
            if octets.len() == 4
                && octets
                    .iter()
                    .all(|o| (1..=3).contains(&o.len()) && o.parse::<u8>().is_ok())
            {
                return !lit.starts_with("127.") && !matches!(lit, "0.0.0.0" | "255.255.255.255");
            }
            // `host:port`, nothing else around it.
            let Some((h, port)) = lit.rsplit_once(':') else {
                return false;
            };
            if !(2..=5).contains(&port.len()) || !port.bytes().all(|b| b.is_ascii_digit()) {
                return false;
            }
            if !h.contains('.') {
                return false;
            }
            lit
        }
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let host = authority.rsplit('@').next().unwrap_or(authority);
    let host = host.rsplit_once(':').map_or(host, |(h, _)| h);
    !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
        && !matches!(host, "localhost" | "127.0.0.1" | "0.0.0.0" | "::1")
        && !host.starts_with("127.")
        && !host.ends_with(".localhost")
}

/// A call with consequences made by code that signs in first: a credential handed to a call
/// (`access_token=os.environ[…]`, `password=…`) or a call named for signing in (`Gaia.login(…)`),
/// then a call whose words delete, create, publish or send (`delete_observation(…)`,
/// `Gaia.delete_user_table(…)`): an account elsewhere is changed with this user's credentials.
/// Its name. Reading calls (`get_observations(…)`) and code without a credential are not.
pub(super) fn acts_signed_in(code: &str) -> Option<&str> {
    let credential_argument = assignments(code, false).any(|(name_start, name, _)| {
        // An argument's name, after `(` or `,`: not a variable assigned on its own.
        let argument = code[..name_start].trim_end().ends_with(['(', ',']);
        // `key` alone is a sort's (`sorted(x, key=len)`): only an API's or access key counts.
        let ws = crate::text::words(name);
        argument
            && (ws.iter().any(|w| {
                matches!(
                    w.as_str(),
                    "token" | "password" | "passwd" | "secret" | "apikey"
                )
            }) || ws
                .windows(2)
                .any(|w| matches!(w[0].as_str(), "api" | "access") && w[1] == "key"))
    });
    let signs_in = || {
        identifiers(code).any(|(id, called)| {
            called
                && crate::text::words(id.rsplit(['.', ':']).next().unwrap_or(id))
                    .iter()
                    .any(|w| matches!(w.as_str(), "login" | "signin" | "authenticate"))
        })
    };
    if !(credential_argument || signs_in()) {
        return None;
    }
    identifiers(code).find_map(|(id, called)| {
        let last = id.rsplit(['.', ':']).next().unwrap_or(id);
        let acts = crate::text::words(last).iter().any(|w| {
            matches!(
                w.as_str(),
                "delete"
                    | "remove"
                    | "destroy"
                    | "drop"
                    | "purge"
                    | "create"
                    | "publish"
                    | "post"
                    | "send"
                    | "upload"
                    | "submit"
                    | "update"
                    | "revoke"
                    | "cancel"
                    | "transfer"
                    // An order or a bet placed (`betting.place_orders(…)`): money is spent.
                    | "place"
            )
        });
        (called && acts).then_some(last)
    })
}

/// A method call that resets, restarts, erases or uninstalls what a library controls
/// (`SCD30().soft_reset()`, `ControlUnit(port).reset()`, `dev.factory_reset()`,
/// `board.erase_flash()`, R's `remove.packages(…)`): the method's name is the act, said of
/// the device or the library's store, not of a table's index (`df.reset_index()`) or a
/// setting of the session (`reset_option`). Its name.
fn device_act(code: &str) -> Option<&str> {
    const ACTS: &[&str] = &[
        "reset",
        "reboot",
        "restart",
        "erase",
        "wipe",
        "shutdown",
        "poweroff",
        "uninstall",
    ];
    const OF: &[&str] = &[
        "all",
        "device",
        "devices",
        "board",
        "chip",
        "controller",
        "unit",
        "settings",
        "defaults",
        "config",
        "configuration",
        "firmware",
        "memory",
        "flash",
        "eeprom",
        "nvram",
        "storage",
        "system",
        "module",
    ];
    identifiers(code).find_map(|(id, called)| {
        if !called {
            return None;
        }
        if id == "remove.packages" {
            return Some(id);
        }
        // A method of a value (`s.reset()`), or of what a call made (`Unit(port).reset()`).
        let start = id.as_ptr() as usize - code.as_ptr() as usize;
        let last = match id.rsplit_once('.') {
            Some((receiver, last)) if !receiver.is_empty() => last,
            _ if code[..start].ends_with(").") => id,
            _ => return None,
        };
        let ws = crate::text::words(last);
        let acts = match ws.as_slice() {
            [verb] => ACTS.contains(&verb.as_str()),
            [manner, verb]
                if matches!(
                    manner.as_str(),
                    "soft" | "hard" | "factory" | "cold" | "warm"
                ) =>
            {
                ACTS.contains(&verb.as_str())
            }
            [verb, object] => ACTS.contains(&verb.as_str()) && OF.contains(&object.as_str()),
            _ => false,
        };
        acts.then_some(last)
    })
}

/// The first call in `code` whose own name is an act with consequences (`m.send()`,
/// `client.publish(…)`, `pump.bolus(…)` is not: its words must say it): its name.
pub(super) fn act_call(code: &str) -> Option<&str> {
    identifiers(code).find_map(|(id, called)| {
        let last = id.rsplit(['.', ':']).next().unwrap_or(id);
        // Ending the console itself (`quit()`, `(ext:quit)`, `Disconnect()`) ends nothing else.
        let ends = ["quit", "exit", "bye", "disconnect", "close", "logout"]
            .iter()
            .any(|e| last.eq_ignore_ascii_case(e));
        // A word in capitals is a call only with its parenthesis after it (`RESTART(*YES)`):
        // inside one it is an argument (`QLOCAL(PAYMENTS.*)`), not a Lisp form.
        let capitals = !last.bytes().any(|b| b.is_ascii_lowercase());
        // A module's or a string's `format` lays out text (`io:format(…)`, `"…".format(x)`,
        // `String.format`), not a disk.
        let formats_text = last == "format"
            && id.len() > last.len()
            && code.split(&format!("{id}(")).nth(1).is_some_and(|args| {
                let args = args.trim_start();
                args.starts_with(['"', '\''])
                    && args[1..]
                        .split(['"', '\''])
                        .next()
                        .is_some_and(|s| s.contains(['~', '{', '%']))
            });
        if formats_text {
            return None;
        }
        let called = called && (!capitals || code.contains(&format!("{id}(")));
        (called && !ends && last.len() >= 4 && super::effect::names_an_act(last)).then_some(last)
    })
}

/// Whether `code` calls something named for deleting: an identifier followed by `(` (or, in
/// Lisp, right after one) whose parts include a deleting verb.
pub(super) fn deletion_call(code: &str) -> bool {
    // A command language's statement, its verb among its first words with no parentheses
    // (Tcl's `file delete -force /home/dev`, `[file delete …]`).
    // (CMake's says it as its first argument: `file(REMOVE_RECURSE /usr/share/x)`.)
    // (Or a module's function applied without parentheses, as ML languages call: OCaml's
    // `FileUtil.rm ~recurse:true ["/var/lib/x"]`.)
    // (Or a message sent last, after its receiver, as Io and Smalltalk say it: `Directory
    // with("/usr/share/x") remove`.)
    let statement = code.lines().any(|line| {
        let words = || {
            line.split(|c: char| c.is_whitespace() || matches!(c, '[' | '('))
                .filter(|w| !w.is_empty())
        };
        let deleting = |w: &str| {
            let member = w.rsplit_once('.').map_or(w, |(_, last)| last);
            matches!(member, "delete" | "remove" | "rmdir" | "rm")
                || matches!(w, "REMOVE" | "REMOVE_RECURSE")
        };
        (words().take(3).any(deleting)
            || words()
                .next_back()
                .is_some_and(|w| deleting(w.trim_end_matches([';', '.', ')']))))
            && words().any(|w| {
                w.trim_start_matches(['[', '(', '"', '\''])
                    .starts_with(['/', '~', '$'])
            })
    });
    // Or a call told by a keyword argument to empty what it is given first (OGGM's
    // `utils.mkdir('/home/dev', reset=True)`, `clean=True`): the directory's files go.
    let emptied = ["reset", "clean", "clear", "purge", "wipe", "empty"]
        .iter()
        .any(|k| {
            ["=True", "= True", "=true", "= true", "=TRUE"]
                .iter()
                .any(|v| code.contains(&format!("{k}{v}")))
        });
    statement
        || emptied
        || identifiers(code).any(|(ident, call)| {
            call && crate::text::words(ident).into_iter().any(|p| {
                matches!(
                    p.as_str(),
                    "rm" | "rmtree"
                        | "rmdir"
                        | "remove"
                        | "delete"
                        // Erlang's `file:del_dir_r`, Delphi's `DelTree`.
                        | "del"
                        | "deltree"
                        | "unlink"
                        | "erase"
                        | "wipe"
                        | "destroy"
                        | "purge"
                        | "drop"
                )
            })
        })
}

/// The place code empties by setting where an object keeps its files and then clearing them
/// (`Simbad.cache_location = '/home/dev'; Simbad.clear_cache()`, `cfg.data_dir = "/"; cfg.purge()`):
/// a clear, clean or purge removes what is in the place it was pointed at, whatever the library.
/// The object's name must be the same on both sides when the setting names one.
pub(super) fn clears_configured_place(code: &str) -> Option<String> {
    const PLACES: &[&str] = &[
        "location",
        "dir",
        "directory",
        "path",
        "folder",
        "root",
        "cache",
    ];
    const CLEARS: &[&str] = &[
        "clear", "clean", "cleanup", "purge", "wipe", "empty", "prune", "delete", "remove",
        "erase", "rm", "rmtree",
    ];
    for (name_start, name, value) in assignments(code, true) {
        let (owner, attr) = name.rsplit_once('.').map_or(("", name), |(o, a)| (o, a));
        if !crate::text::words(attr)
            .iter()
            .any(|w| PLACES.contains(&w.as_str()))
        {
            continue;
        }
        let Some(value) = value else {
            continue;
        };
        let after = &code[name_start..];
        let cleared = identifiers(after).any(|(id, called)| {
            let (receiver, method) = id.rsplit_once('.').map_or(("", id), |(r, m)| (r, m));
            called
                && (owner.is_empty() || receiver == owner)
                && crate::text::words(method)
                    .iter()
                    .any(|w| CLEARS.contains(&w.as_str()))
        });
        if cleared && value.starts_with(['/', '~']) {
            return Some(value.to_string());
        }
    }
    None
}

/// Whether configuration declares `/`, the home directory, a system directory or the project
/// root gone rather than deleting it by a call: a resource naming the place whose desired
/// state, within the few lines of its stanza, is absence (Puppet's `ensure => absent`,
/// Ansible's `state=absent`, Salt's `file.absent`, Chef's and mitamae's `action :delete`).
/// Whatever applies it deletes the place, recursively where the tool can. Prose saying a
/// place "is absent" states no desired state: only a key, an arrow or a symbol does.
pub(super) fn declares_deleted(code: &str, ctx: &Context) -> bool {
    if !code.contains("absent") && !code.contains(":delete") && !code.contains("action") {
        return false;
    }
    let lines: Vec<&str> = code.lines().collect();
    lines.iter().enumerate().any(|(i, line)| {
        // Most lines name no path: the stanza is read only after one that does.
        let paths = line_paths(line);
        if paths.is_empty() {
            return false;
        }
        let stanza = || {
            lines[i..]
                .iter()
                .take(6)
                .take_while(|l| !l.trim().is_empty())
        };
        // A file under a system directory declared absent is one file removed (a junction
        // elsewhere); the directory itself, or anything there removed recursively, is not.
        let recursive = || {
            stanza().any(|l| {
                let l = l.to_ascii_lowercase();
                l.contains("recurs") || l.contains("force")
            })
        };
        let critical = paths.iter().any(|p| match ctx.classify(p) {
            Place::Root | Place::Home | Place::ProjectRoot => true,
            Place::System => p.trim_end_matches('/').matches('/').count() == 1 || recursive(),
            _ => false,
        });
        critical && stanza().any(|l| declared_gone(l))
    })
}

/// The paths a line of configuration names: its string literals, the values of `path=`,
/// `name=`, `dest=` and `path:` keys, and a YAML key that is a path (Salt's `/home/dev:`).
fn line_paths(line: &str) -> Vec<String> {
    let mut out: Vec<String> = literals(line)
        .into_iter()
        .filter(|l| l.starts_with(['/', '~', '$']))
        .collect();
    for w in line.split(|c: char| c.is_whitespace() || c == ',') {
        let w = w.trim_matches(['{', '}', '[', ']', '"', '\'']);
        let value = w
            .split_once('=')
            .or_else(|| w.split_once(':'))
            .filter(|(k, _)| matches!(*k, "path" | "name" | "dest" | "target"))
            .map(|(_, v)| v.trim_matches(['"', '\'']));
        if let Some(v) = value.filter(|v| v.starts_with(['/', '~'])) {
            out.push(v.to_string());
        }
    }
    let t = line.trim();
    if let Some(key) = t.strip_suffix(':').filter(|k| k.starts_with(['/', '~'])) {
        out.push(key.to_string());
    }
    out
}

/// Whether a line of configuration sets a desired state of absence: `absent` after `=>`, `=`,
/// `:` or `.` (`ensure => absent`, `state=absent`, `state: absent`, `file.absent`), a Ruby
/// symbol of deletion (`action :delete`, `[:delete]`), or an `action` key given a deleting
/// word.
fn declared_gone(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    let gone_word = |w: &str| matches!(w, "delete" | "remove" | "purge" | "destroy");
    let absent = l.match_indices("absent").any(|(at, _)| {
        let before = l[..at].trim_end_matches([' ', '\t', '"', '\'']);
        let after = l[at + "absent".len()..].chars().next();
        (before.ends_with("=>")
            || before.ends_with('=')
            || before.ends_with(':')
            || before.ends_with('.'))
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    let symbol = l.match_indices(':').any(|(at, _)| {
        let word: String = l[at + 1..]
            .chars()
            .take_while(char::is_ascii_alphabetic)
            .collect();
        gone_word(&word)
            && at > 0
            && l[..at].ends_with([' ', '[', '(', ','])
            && !l[at + 1 + word.len()..]
                .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    });
    let action = l.split_once("action").is_some_and(|(_, rest)| {
        let rest = rest.trim_start_matches([' ', ':', '=', '>', '"', '\'']);
        let word: String = rest.chars().take_while(char::is_ascii_alphabetic).collect();
        gone_word(&word)
    });
    absent || symbol || action
}

/// A path written bare in the code that is the home directory (`file delete -force /home/dev`
/// in Tcl, which quotes nothing), or that ends in it as seen through a mount of this machine's
/// root (`/host/home/dev`).
fn home_path_named(code: &str, ctx: &Context) -> bool {
    let home = ctx.places.home.to_string_lossy();
    let home = home.trim_end_matches('/');
    !home.is_empty()
        && path_tokens(code).any(|t| {
            let t = t.trim_end_matches('/');
            t.ends_with(home) || t == "~" || t == "$HOME"
        })
}

/// A credential store's path written in code as a word of its own, quoted or bare (Tcl's
/// `open /home/dev/.ssh/id_ed25519 r`, a console's `File.read("~/.aws/credentials")`).
pub(super) fn credential_path_named(code: &str, ctx: &Context) -> Option<String> {
    if !code.contains('/') {
        return None;
    }
    path_tokens(code)
        .find(|t| {
            ctx.resolve(t)
                .is_some_and(|p| crate::rules::credential_path(ctx, &p))
        })
        .map(str::to_string)
}

/// The paths written in code as words of their own, quoted or bare (`file delete -force
/// /home/dev/tmp`, `os.remove('/srv/x')`).
fn path_tokens(code: &str) -> impl Iterator<Item = &str> {
    code.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '"' | '\'' | '`' | '(' | ')' | ',' | ';' | '{' | '}' | '[' | ']'
            )
    })
    .filter(|t| t.starts_with(['/', '~', '$']))
}

/// Whether the code runs no shell and deletes only what loses nothing
/// ([`deletes_only_scratch`]): a one-liner that cleans build output.
pub(crate) fn only_scratch_deleted(code: &str, ctx: &Context) -> bool {
    !shells_out(code) && deletes_only_scratch(code, ctx)
}

/// Whether every deleting call the code makes is handed one literal path that loses nothing
/// (a temporary directory, the project's git-ignored build output) and nothing else but
/// switches (`shutil.rmtree('build/plots', ignore_errors=True)`, R's `unlink("build/akde",
/// recursive = TRUE)`): what `rm -rf build/plots` would be. A call the gate cannot read that
/// far (a variable, a call inside, a write) keeps the junction.
fn deletes_only_scratch(code: &str, ctx: &Context) -> bool {
    let mut any = false;
    for name in DELETES {
        for (i, _) in code.match_indices(name) {
            if matches!(*name, "writeFileSync" | "truncate") {
                return false;
            }
            let after = &code[i + name.len()..];
            let args = if name.ends_with('(') {
                after
            } else {
                match after.strip_prefix('(') {
                    Some(a) => a,
                    None => return false,
                }
            };
            // A path joined under the temporary directory (`file.path(Sys.getenv("TMPDIR"),
            // "x")`, `os.path.join(tempfile.gettempdir(), "x")`): scratch, however built.
            if joined_under_temp(args.trim_start()) {
                any = true;
                continue;
            }
            let Some(close) = args.find(')') else {
                return false;
            };
            let a = args[..close].trim_start();
            let Some(q) = a.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
                return false;
            };
            let body = &a[1..];
            let Some(end) = body.find(q) else {
                return false;
            };
            let (lit, rest) = (&body[..end], &body[end + 1..]);
            if lit.is_empty()
                || lit.contains('$')
                || rest.contains(['"', '\'', '(', '$'])
                || crate::rules::deletion::loses(ctx, ctx.classify(lit), lit)
            {
                return false;
            }
            any = true;
        }
    }
    any
}

/// Whether `args` starts with a path joined under the temporary directory: a join call
/// (`file.path(`, `os.path.join(`, `path.join(`) whose first argument is the temporary
/// directory as the language asks for it and whose others are plain names, none climbing out.
fn joined_under_temp(args: &str) -> bool {
    const JOINS: &[&str] = &[
        "file.path(",
        "os.path.join(",
        "path.join(",
        "Path.Combine(",
        "joinpath(",
    ];
    const TEMP: &[&str] = &[
        "Sys.getenv(\"TMPDIR\")",
        "Sys.getenv('TMPDIR')",
        "tempdir()",
        "tempfile.gettempdir()",
        "os.environ[\"TMPDIR\"]",
        "os.environ['TMPDIR']",
        "os.tmpdir()",
        "process.env.TMPDIR",
        "Path.GetTempPath()",
    ];
    let Some(rest) = JOINS.iter().find_map(|j| args.strip_prefix(j)) else {
        return false;
    };
    let Some(after) = TEMP.iter().find_map(|t| rest.trim_start().strip_prefix(t)) else {
        return false;
    };
    // The other parts up to the join's own closing parenthesis: quoted plain names.
    let Some(close) = after.find(')') else {
        return false;
    };
    let parts = &after[..close];
    parts.split(',').skip(1).all(|p| {
        let p = p.trim();
        let lit = p.trim_matches(['"', '\'']);
        p.len() >= 2
            && p.starts_with(['"', '\''])
            && !lit.is_empty()
            && !lit.contains("..")
            && !lit.starts_with('/')
            && !lit.contains(['$', '`'])
    }) && parts.starts_with(',')
}

/// A deletion named by the language's own word (`file delete`, `rmdir(…)`) said of a path
/// outside the project and the temporary directories: a person decides, as for `rm`.
fn deletes_outside(code: &str, ctx: &Context) -> bool {
    deletion_call(code)
        && path_tokens(code).any(|t| !matches!(ctx.classify(t), Place::Inside | Place::Tmp))
}

/// Whether a deleting call is handed the home itself, as the language names it
/// (`FileUtils.rm_rf(Dir.home)`, `shutil.rmtree(Path.home())`): not a file under it
/// (`(home / 'notes.txt').unlink()`, a file outside the project: a person's call).
pub(super) fn deletes_language_home(code: &str) -> bool {
    HOME_NAMES.iter().any(|n| {
        code.match_indices(n).any(|(at, _)| {
            // (After a module's path too: `rmtree(pathlib.Path.home())`.)
            let module = code[..at]
                .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            let Some(before) = module.trim_end().strip_suffix('(') else {
                return false;
            };
            let callee = before
                .rsplit(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '!')))
                .next()
                .unwrap_or("");
            let after = code[at + n.len()..].trim_start();
            crate::text::words(callee).iter().any(|p| {
                matches!(
                    p.as_str(),
                    "rm" | "rmtree" | "rmdir" | "remove" | "delete" | "unlink" | "erase" | "purge"
                )
            }) && after.starts_with([')', ','])
        })
    })
}

/// Whether `code` names the home directory by an identifier (`homedir()`, `Path.home()`,
/// `System.user_home!()`, `getenv("HOME")`).
fn names_home(code: &str) -> bool {
    // A path's segment (`'/home/dev/.ssh/known_hosts'`) is the literal's business: a file under
    // the home is not the home.
    let in_path = |ident: &str| {
        let at = ident.as_ptr() as usize - code.as_ptr() as usize;
        code[..at].ends_with('/')
    };
    identifiers(code)
        .filter(|(ident, _)| !in_path(ident))
        .any(|(ident, _)| {
            let l = ident.to_ascii_lowercase();
            let ps = crate::text::words(ident.trim_start_matches('$'));
            l == "home"
                || ps.iter().any(|p| p == "home")
                    && ps
                        .iter()
                        .any(|p| matches!(p.as_str(), "dir" | "directory" | "folder" | "path"))
                || l.contains("homedir")
                || l.contains("user_home")
                || l.contains("userhome")
                || l.ends_with(".home")
        })
        || code.contains("\"HOME\"")
        || code.contains("'HOME'")
}

/// The identifiers of some code (letters, digits, `_`, `.`, `:`, `!`, `-` inside Lisp
/// forms), each with whether it is called: followed by `(`, or right after one.
fn identifiers(code: &str) -> impl Iterator<Item = (&str, bool)> {
    let b = code.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            if b[i].is_ascii_alphabetic() || b[i] == b'_' {
                let start = i;
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric()
                        || matches!(b[i], b'_' | b'.' | b':' | b'!' | b'-'))
                {
                    i += 1;
                }
                let ident = code[start..i].trim_end_matches(['.', ':', '-']);
                // `f(x)`, Lisp's `(f x)`, and Wolfram's `F[x]`; and a command's form, a
                // name then a string (Tenzir's `save_file "/etc/x"`, Ruby's `puts "…"`).
                let before = code[..start].trim_end().ends_with('(');
                let rest = &code[i..];
                let after = rest.trim_start().starts_with(['(', '['])
                    || rest.starts_with([' ', '\t'])
                        && rest
                            .trim_start_matches([' ', '\t'])
                            .starts_with(['"', '\'']);
                return Some((ident, after || before));
            }
            i += 1;
        }
        None
    })
}

/// Where the name ending `text` starts: after the last character `part` rejects, which may be
/// wider than a byte (`Ⱥ`).
fn word_start(text: &str, part: impl Fn(char) -> bool) -> usize {
    text.char_indices()
        .rev()
        .find(|&(_, c)| !part(c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// What follows a Perl open's writing mode, when `l` starts with one (`">"`, `">>"`, `"+<"`
/// with `>` somewhere, `">/etc/passwd"`, `">:raw"`): the path joined to it, or nothing.
/// Perl's modes stand before the path, in their own string or joined to it (`open(my $fh,
/// ">", "/dev/sda")`, `open(FH, ">/etc/passwd")`).
fn perl_mode(l: &str) -> Option<&str> {
    let rest = l.trim_start_matches(['+', '>', '<']);
    (l.len() > rest.len() && l[..l.len() - rest.len()].contains('>'))
        .then(|| if rest.starts_with(':') { "" } else { rest })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_home_name_holds_a_key_the_quick_test_looks_for() {
        for name in HOME_NAMES {
            assert!(HOME_KEYS.iter().any(|k| name.contains(k)), "{name}");
        }
    }

    /// Found by the PowerShell reader's property test: a character wider than a byte before a
    /// call's parenthesis (`?Ⱥ(`) was cut through when the call's name was looked for.
    #[test]
    fn a_wide_character_before_a_call() {
        for code in [
            "requests.post(\"https://x.example/a\") Ⱥ(1)",
            "x = \"https://x.example/\"; ¡(\"",
            "open('https://x.example') é.write(1)",
        ] {
            let _ = sends_elsewhere(code);
            let _ = argv_lists(code);
            let _ = deletion_call(code);
        }
        assert_eq!(word_start("a.bȺc", |c| c.is_ascii_alphanumeric()), 5);
    }
}
