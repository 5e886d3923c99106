//! Commands in another program's own language, handed to it on the command line or on stdin:
//! an editor's ex commands (`vim -c '!…'`, `ex -s <<EOF`), a debugger's (`gdb -ex 'shell …'`),
//! a database shell's dot-commands (`sqlite3 db '.shell …'`), Emacs Lisp (`emacs --eval`), and
//! a makefile read from stdin or a here-document (`make -f - <<EOF`, `make --eval`), and a
//! Codex patch given to `apply_patch` in the shell.
//!
//! Each language has a way to hand a line to the shell (`!cmd`, `shell cmd`, `.shell cmd`, a
//! recipe line) or to another interpreter (`:py3 …`): what it hands on is judged one shell
//! deeper, as if it ran. A script the gate cannot read (a file, a pipe, a string built at run
//! time) is at least a junction.

use super::parse::{Arg, Simple};
use super::{Context, Findings, Keep, code, feed, junction};
use crate::RuleId;

/// Judge the commands `name` is given in its own language, if it takes any.
pub(super) fn judge(
    name: &str,
    args: &[Arg],
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    let stdin = || stdin_text(cmd, producers);
    match name {
        "vim" | "vi" | "nvim" | "ex" | "view" | "vimdiff" | "gvim" | "gview" | "evim" | "rvim"
        | "nex" | "exim" => editor(name, args, &stdin, ctx, raw, out),
        "gdb" => {
            for c in values(
                args,
                &["-ex", "-iex", "--eval-command", "--init-eval-command"],
            ) {
                gdb_command(c.as_deref(), ctx, raw, out);
            }
        }
        "sqlite3" | "sqlite" => {
            let mut lines: Vec<Option<String>> = values(args, &["-cmd"]);
            lines.extend(
                args.iter()
                    .filter(|a| a.text.as_deref().is_some_and(|t| t.starts_with('.')))
                    .map(|a| a.text.clone()),
            );
            if let Some(Some(text)) = (cmd.heredoc.is_some() || !producers.is_empty()).then(stdin) {
                lines.extend(text.lines().map(|l| Some(l.to_string())));
            }
            for l in lines {
                dot_command(l.as_deref(), raw, out);
            }
        }
        "emacs" | "emacsclient" => {
            for c in values(args, &["--eval", "-eval", "--execute"]) {
                lisp(c.as_deref(), raw, out);
                // What it deletes, judged as any language's code is.
                if let Some(code) = c.as_deref() {
                    code::judge_code(name, code, ctx, raw, out);
                }
            }
        }
        "make" | "gmake" | "bmake" => make(args, &stdin, raw, out),
        "apply_patch" | "applypatch" => patch(args, &stdin, raw, out),
        _ => {}
    }
}

/// Codex's `apply_patch` run from the shell (`apply_patch <<'EOF' … EOF`, or the patch as its
/// argument): each file the patch names is judged as a write to it, read by Codex's rules; a
/// patch trail cannot read that way is a junction.
fn patch(args: &[Arg], stdin: &dyn Fn() -> Option<String>, raw: &str, out: &mut Findings) {
    let text = match args.first() {
        Some(a) => a.text.clone(),
        None => stdin(),
    };
    let Some(text) = text else {
        return unreadable("the patch", raw, out);
    };
    match crate::host::codex::parse_patch(&text) {
        Ok(files) => {
            for f in files {
                writes_file(f, out);
            }
        }
        Err(why) => out.push(junction(
            RuleId::Unverifiable,
            &format!("the gate cannot read this patch as Codex will ({why})"),
            raw,
        )),
    }
}

/// What stdin carries: the here-document, or what the commands piped in print; `None` when
/// only the run can know.
pub(super) fn stdin_text(cmd: &Simple, producers: &[&Simple]) -> Option<String> {
    if let Some(h) = &cmd.heredoc {
        return Some(h.clone());
    }
    // A file redirected in (`< Makefile.x`) or a here-string built at run time.
    if !cmd.reads.is_empty() || cmd.dynamic_stdin {
        return None;
    }
    producers
        .iter()
        .map(|p| feed::printed_text(p))
        .collect::<Option<Vec<_>>>()
        .map(|v| v.join("\n"))
}

/// The values of the options in `flags` (`-c X`, `--flag X`, `--flag=X`): `None` for a value
/// only the shell knows.
fn values(args: &[Arg], flags: &[&str]) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let Some(t) = a.text.as_deref() else { continue };
        if flags.contains(&t) {
            out.push(args.get(i + 1).and_then(|v| v.text.clone()));
        } else if let Some((f, v)) = t.split_once('=')
            && f.starts_with("--")
            && flags.contains(&f)
        {
            out.push(Some(v.to_string()));
        }
    }
    out
}

fn unreadable(what: &str, raw: &str, out: &mut Findings) {
    out.push(junction(
        RuleId::Unverifiable,
        &format!("the gate cannot read {what}, which may run shell commands"),
        raw,
    ));
}

/// Vim and its kin: `-c CMD`, `--cmd CMD`, `+CMD`, and in silent ex mode (`-e`, `-es`, `ex -s`)
/// the commands on stdin. A script from a file (`-S`, `-s`) cannot be read here.
fn editor(
    name: &str,
    args: &[Arg],
    stdin: &dyn Fn() -> Option<String>,
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    let mut cmds = values(args, &["-c", "--cmd"]);
    cmds.extend(
        args.iter()
            .filter_map(|a| a.text.as_deref())
            .filter_map(|t| t.strip_prefix('+'))
            .filter(|c| !c.is_empty() && !c.chars().all(|x| x.is_ascii_digit()))
            .map(|c| Some(c.to_string())),
    );
    let flag = |f: &str| args.iter().any(|a| a.text.as_deref() == Some(f));
    let ex_mode = matches!(name, "ex" | "nex" | "exim")
        || args.iter().any(|a| {
            a.text
                .as_deref()
                .is_some_and(|t| matches!(t, "-e" | "-es" | "-E" | "-Es"))
        });
    // `-S file` sources a script, `-s file` (outside ex mode) replays keys from one, `-u file`
    // is a vimrc: files the gate does not read here.
    let vimrc = values(args, &["-u"])
        .into_iter()
        .any(|v| !matches!(v.as_deref(), Some("NONE" | "NORC" | "DEFAULTS")));
    if flag("-S") || (flag("-s") && !ex_mode) || vimrc {
        unreadable("a script file the editor runs", raw, out);
    }
    // In ex mode the editor reads its commands from stdin too.
    if ex_mode {
        match stdin() {
            Some(text) => cmds.extend(text.lines().map(|l| Some(l.to_string()))),
            None => unreadable("the commands the editor reads from stdin", raw, out),
        }
    }
    for c in cmds {
        ex_command(c.as_deref(), ctx, raw, out);
    }
}

/// One ex command: `!cmd`, `r !cmd`, `w !cmd`, `%!filter` hand `cmd` to the shell (a `!` right
/// after a word, as in `q!`, is a modifier); `:py3`, `:lua`, `:perl`, `:ruby` run code in that
/// language; `system()` and friends run their string arguments.
fn ex_command(c: Option<&str>, ctx: &Context, raw: &str, out: &mut Findings) {
    let Some(c) = c else {
        return unreadable("an editor command built at run time", raw, out);
    };
    let c = c.trim().trim_start_matches(':').trim();
    let bytes = c.as_bytes();
    if let Some(i) = c
        .char_indices()
        .find(|&(i, ch)| ch == '!' && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()))
        .map(|(i, _)| i)
    {
        out.runs(&c[i + 1..], Keep::All);
        return;
    }
    let word = c.split_whitespace().next().unwrap_or("");
    // `w! /etc/hosts`, `saveas ~/.bashrc`, `w >> log`: the buffer is written to that file.
    if let Some(file) = ex_write_target(c) {
        return writes_file(file, out);
    }
    let language = match word.trim_end_matches("do").trim_end_matches("file") {
        "py" | "py3" | "python" | "python3" | "pyx" => Some("python3"),
        "lua" => Some("lua"),
        "perl" => Some("perl"),
        "ruby" | "rub" => Some("ruby"),
        _ => None,
    };
    if let Some(lang) = language {
        let rest = c[word.len()..].trim_start();
        return code::judge_code(lang, rest, ctx, raw, out);
    }
    if [
        "system",
        "jobstart",
        "job_start",
        "termopen",
        "terminal",
        "term_start",
        "exe",
    ]
    .iter()
    .any(|f| c.contains(f))
    {
        strings_run(c, out);
        out.push(junction(
            RuleId::InterpreterCode,
            "this editor command runs shell commands or builds one at run time, where the gate cannot follow",
            raw,
        ));
    }
}

/// The file an ex command writes the buffer to: `w[rite]`, `wq`, `x[it]`, `sav[eas]`, `up[date]`
/// with an optional `!` and `>>`, then a file name (with none, the file being edited).
fn ex_write_target(c: &str) -> Option<&str> {
    // A range (`%`, `1,5`, `'<,'>`) may come first.
    let c = c.trim_start_matches(|ch: char| ch.is_ascii_digit() || ",.$%'<> ".contains(ch));
    let end = c
        .find(|ch: char| !ch.is_ascii_alphabetic())
        .unwrap_or(c.len());
    let (cmd, rest) = c.split_at(end);
    let writes = matches!(
        cmd,
        "w" | "wr"
            | "wri"
            | "writ"
            | "write"
            | "wq"
            | "x"
            | "xi"
            | "xit"
            | "exi"
            | "exit"
            | "sav"
            | "save"
            | "savea"
            | "saveas"
            | "up"
            | "upd"
            | "upda"
            | "updat"
            | "update"
    );
    if !writes {
        return None;
    }
    let rest = rest.strip_prefix('!').unwrap_or(rest).trim_start();
    let rest = rest.strip_prefix(">>").unwrap_or(rest).trim();
    // `w !cmd` pipes to a command, judged by the caller; `w|q` chains a command.
    let file = rest.split('|').next().unwrap_or("").trim();
    (!file.is_empty() && !file.starts_with('!')).then_some(file)
}

/// The command writes `file`: judged as the shell's `> file` is.
fn writes_file(file: &str, out: &mut Findings) {
    // The buffer's text put there, as a program's output would be (not the file emptied).
    out.runs(
        &format!("cat > '{}'", file.replace('\'', "'\\''")),
        Keep::All,
    );
}

/// The string literals of code that hands strings to the shell, each judged as a command line
/// that may run.
fn strings_run(c: &str, out: &mut Findings) {
    for lit in code::literals(c) {
        if lit.contains(' ') || lit.contains('/') {
            out.runs(&lit, Keep::Risky);
        }
    }
}

/// One gdb command: `shell cmd`, `!cmd` and `pipe … | cmd` hand `cmd` to the shell; `python`
/// runs Python.
fn gdb_command(c: Option<&str>, ctx: &Context, raw: &str, out: &mut Findings) {
    let Some(c) = c else {
        return unreadable("a debugger command built at run time", raw, out);
    };
    let c = c.trim();
    if let Some(rest) = c.strip_prefix('!').or_else(|| c.strip_prefix("shell ")) {
        out.runs(rest, Keep::All);
    } else if let Some(rest) = c.strip_prefix("pipe ").or_else(|| c.strip_prefix("| ")) {
        if let Some((_, cmd)) = rest.split_once('|') {
            out.runs(cmd, Keep::All);
        }
    } else if let Some(rest) = c.strip_prefix("python ").or_else(|| c.strip_prefix("py ")) {
        code::judge_code("python3", rest, ctx, raw, out);
    }
}

/// One sqlite3 dot-command: `.shell cmd`, `.system cmd`, and output sent to a pipe
/// (`.output |cmd`, `.once |cmd`).
fn dot_command(c: Option<&str>, raw: &str, out: &mut Findings) {
    let Some(c) = c else {
        return unreadable("a database shell command built at run time", raw, out);
    };
    let c = c.trim();
    let rest = [".shell ", ".system "]
        .iter()
        .find_map(|p| c.strip_prefix(p))
        .or_else(|| {
            [".output", ".once"]
                .iter()
                .find_map(|p| c.strip_prefix(p))
                .and_then(|r| r.trim_start().strip_prefix('|'))
        });
    if let Some(cmd) = rest {
        out.runs(cmd, Keep::All);
    } else if let Some(file) = [".output ", ".once ", ".save ", ".backup "]
        .iter()
        .find_map(|p| c.strip_prefix(p))
        .map(str::trim)
        .filter(|f| !f.is_empty() && !f.starts_with('-'))
    {
        // Output sent to a file, or the database written to one.
        writes_file(file.trim_matches(['\'', '"']), out);
    }
}

/// Emacs Lisp: the strings handed to a process function are judged as command lines.
fn lisp(c: Option<&str>, raw: &str, out: &mut Findings) {
    let Some(c) = c else {
        return unreadable("Lisp built at run time", raw, out);
    };
    const PROCESS: &[&str] = &[
        "shell-command",
        "call-process",
        "start-process",
        "process-file",
        "make-process",
        "delete-directory",
        "delete-file",
    ];
    if PROCESS.iter().any(|p| c.contains(p)) {
        strings_run(c, out);
        out.push(junction(
            RuleId::InterpreterCode,
            "this Lisp runs processes or deletes files, where the gate cannot follow",
            raw,
        ));
    }
}

/// `make` reading its makefile from stdin (`-f -`, `-f /dev/stdin`) or from `--eval`: each
/// recipe line runs in a shell, and `$(shell …)` at once.
fn make(args: &[Arg], stdin: &dyn Fn() -> Option<String>, raw: &str, out: &mut Findings) {
    let from_stdin = values(args, &["-f", "--file", "--makefile"])
        .iter()
        .any(|f| {
            f.as_deref()
                .is_none_or(|f| matches!(f, "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0"))
        });
    let mut texts = values(args, &["--eval", "-E"]);
    if from_stdin {
        texts.push(stdin());
    }
    for t in texts {
        let Some(t) = t else {
            unreadable("the makefile make reads", raw, out);
            continue;
        };
        for line in recipes(&t) {
            out.runs(&line, Keep::All);
        }
    }
}

/// The shell lines of a makefile: recipe lines (after a tab, without `@`, `-`, `+`), the
/// recipe after `;` on a rule line, and what `$(shell …)` runs.
fn recipes(makefile: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in makefile.lines() {
        let recipe = if let Some(r) = line.strip_prefix('\t') {
            Some(r)
        } else if let Some((rule, r)) = line.split_once(';')
            && rule.contains(':')
        {
            Some(r)
        } else {
            None
        };
        if let Some(r) = recipe {
            out.push(r.trim_start_matches(['@', '-', '+', ' ']).to_string());
        }
        let mut rest = line;
        while let Some(i) = rest.find("$(shell ") {
            let inner = &rest[i + 8..];
            let end = inner.find(')').unwrap_or(inner.len());
            out.push(inner[..end].to_string());
            rest = &inner[end..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_makefile_runs_its_recipes_and_shell_calls() {
        let mk = "X := $(shell id -u)\nall: dep ; echo one\n\t@rm -rf ~\n\t-echo two\n";
        assert_eq!(recipes(mk), ["id -u", "echo one", "rm -rf ~", "echo two"]);
    }
}
