//! Code in a program's arguments and on its standard input, judged as if it ran.

use super::super::known::{self, Tier};
use super::super::parse::{Arg, Simple};
use super::super::rules::Cmd;
use super::super::{Context, Findings, Keep, Verdict, code, junction, languages, shells};
use crate::RuleId;

/// Option names that take a command or a script (`--command`, `--exec`, `-a` is not one).
const COMMAND_OPTIONS: &[&str] = &[
    "bash", "cmd", "command", "commands", "eval", "exec", "execute", "run", "runner", "script",
    "scripts", "sh", "shell",
];

/// Lines a program's own language hands to the shell: a MySQL client's `system`, a database
/// shell's `.shell`, a debugger's `shell`, an editor's or a pager's `!`.
const ESCAPES: &[&str] = &[
    "platform shell ",
    ".shell ",
    ".system ",
    "system ",
    "shell ",
    "\\! ",
    "\\!",
    ":!",
    "!",
];

/// The command after `--` (`watchexec -- rm -rf ~`), and which of its findings count: all of
/// them, for a line run on another machine (`grader exec G4 -- reboot`: that machine's power
/// is a person's call).
fn after_double_dash(c: &Cmd<'_>) -> Option<(String, Keep)> {
    let args = c.args;
    let i = args.iter().position(|a| a.text.as_deref() == Some("--"))?;
    // Files after it, by a glob (`logs wipe -- build/logs/*`), are its operands: no program
    // is named so.
    if args[i + 1..]
        .first()
        .and_then(|a| a.text.as_deref())
        .is_some_and(|t| t.contains(['*', '?', '[']))
    {
        return None;
    }
    let rest = command_at(&args[i + 1..])?;
    // One quoted line of words there is a shell's line (`watchexec -- 'make && rm -rf …'`),
    // whatever program it starts with.
    let rest = match &args[i + 1..] {
        [only] if only.quoted && rest.contains(' ') => only.text.clone().unwrap_or(rest),
        _ => rest,
    };
    let keep = if super::handover::runs_there_target(c).is_some() {
        Keep::Remote
    } else {
        Keep::Risky
    };
    Some((rest, keep))
}

/// Judge the code `c` is given. A program trail does not model at all has every word read; a
/// program some rules model (`Tier::Cli`) has its strings, its command options and its
/// language's shell escapes read, not a bare word naming a program (`npm i -D rimraf tsx` is
/// no deletion).
pub(super) fn judge(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    tier: Tier,
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    let args = c.args;
    properties(args, out);
    own_language(c, ctx, raw, out);
    // What runs inside bind mounts names the host's paths through them (`buildah run -v
    // /:/host ctr -- rm -rf /host/home/dev`).
    let mounts = super::super::indirect::bind_mounts(args);
    let mounted = |line: String| super::super::indirect::through_mounts(&line, &mounts, ctx);
    // After `--`: the command it runs (`watchexec -- rm -rf ~`).
    if let Some((rest, keep)) = after_double_dash(c) {
        out.runs(&mounted(rest), keep);
    }
    own_command_line(c, tier, out);
    // After an option named for a command: its value, or the rest of the words
    // (`just --command rm -rf …`).
    if let Some(i) = args.iter().position(|a| {
        a.text
            .as_deref()
            .is_some_and(|t| t.starts_with('-') && !t.contains('=') && command_option(t))
    }) && let Some(rest) = command_at(&args[i + 1..])
    {
        out.runs(&rest, Keep::Risky);
    }
    event_lines(c, raw, out);
    // A value decoded or fetched at run time given to an option that takes a command (`-c
    // "$(echo … | base64 -d)"`, `--exec "$(curl …)"`) hides what runs, as after `bash -c`.
    for (i, a) in args.iter().enumerate() {
        let takes_command = a.text.as_deref().is_some_and(|t| {
            matches!(t, "-c" | "-e" | "-x")
                || t.starts_with("--")
                    && (command_option(t) || event_or_inline_option(t) || language_option(t))
        });
        if takes_command && let Some(value) = args.get(i + 1..i + 2) {
            shells::hidden_in_words(value, ctx, raw, out);
            // Only a variable the line does not set (`--exec "$KTEST_CMD"`): what runs is
            // known when it runs, not now.
            // (`--shell "$SHELL"` names which shell, not what it runs; `--python "$PY"` as
            // often which interpreter.)
            let names_shell = a.text.as_deref().is_some_and(|t| {
                super::words::parts(t).last().is_some_and(|p| p == "shell") || language_option(t)
            });
            let long = a.text.as_deref().is_some_and(|t| t.starts_with("--"));
            if tier != Tier::Data
                && long
                && !names_shell
                && only_a_variable(&ctx.expand_text_vars(&value[0].raw))
            {
                out.push(junction(
                    RuleId::Unverifiable,
                    "the command this option runs is a variable's value, known only when it runs: a person decides",
                    raw,
                ));
            }
        }
    }
    if tier != Tier::Data {
        command_variable(args, ctx, raw, out);
    }
    if tier == Tier::Unknown {
        typed_variable(args, ctx, raw, out);
        program_settings(args, out);
    }
    // `heroku run rails db:migrate`, `bundle exec rake db:drop`, `npm run deploy`: a
    // subcommand that runs the program (or the script) named after it; named by where it is
    // fetched from (`nix run github:x/y`), code nobody here has read.
    // (A program that only fetches prints or saves what it gets: `lwp-request URL > F`.)
    if !shells::fetcher(c.name) {
        runs_fetched(c, ctx, raw, out);
    }
    unreviewed_script(c, ctx, raw, out);
    if let Some(i) = args
        .iter()
        .position(|a| !a.text.as_deref().is_some_and(|t| t.starts_with('-')))
        && matches!(args[i].text.as_deref(), Some("run" | "exec" | "x" | "dlx"))
        && let Some(rest) = command_at(&args[i + 1..])
    {
        out.runs(&mounted(rest), Keep::Risky);
    }
    // A word naming a known program, followed by its arguments (`entr -r rm -rf build`). A
    // name alone is more often data (`last reboot`, `apt-cache show git`). (Not in a pretend
    // run: `day close --on-complete shutdown --dry-run` completes nothing.)
    // (Nor `exec` of a line run on another machine: `grader exec G4 -- reboot`.)
    if tier == Tier::Unknown
        && !super::words::pretends(c)
        && let Some(i) = args.iter().position(|a| {
            a.text.as_deref().is_some_and(|t| {
                !t.starts_with('-') && !t.contains(' ') && known::is_program(base(t))
            })
        })
        // A power word among the program's own subcommand words is its verb on what they
        // name (`skov controller reboot --house 3`), which [`super::power`] judges.
        && !(matches!(
            args[i].text.as_deref(),
            Some("reboot" | "halt" | "poweroff" | "shutdown" | "suspend")
        ) && i > 0
            && args[..i]
                .iter()
                .all(|a| a.text.as_deref().is_some_and(|t| !t.starts_with('-'))))
        && i + 1 < args.len()
        && super::handover::runs_there_target(c).is_none()
        && let Some(rest) = command_at(&args[i..])
    {
        out.runs(&rest, Keep::Risky);
    }
    given_strings(c, cmd, ctx, raw, out);
    fed(cmd, producers, tier, ctx, raw, out);
}

/// The strings `c` is given, and the values set before it, judged as code that may run.
fn given_strings(c: &Cmd<'_>, cmd: &Simple, ctx: &Context, raw: &str, out: &mut Findings) {
    // (Not the text to search for or to show: `logs search --pattern 'rm -rf /'`.)
    for a in outside_shown_text(c) {
        // A word with an expansion in it is read as written, its quotes taken off
        // (`--wrap="rm -rf $HOME/*"`): the line it carries is judged with what this line
        // knows of its variables.
        let unquoted;
        let t = if let Some(t) = a.text.as_deref() {
            t
        } else {
            unquoted = ctx.expand_text_vars(&a.raw).replace(['"', '\''], "");
            &unquoted
        };
        // `--command='…'`, `-o Hook::='…'`, `KEY=…`, `command:"…"`: the value.
        let value = t
            .split_once('=')
            .filter(|(k, v)| !k.contains(char::is_whitespace) && v.contains(char::is_whitespace))
            .or_else(|| {
                t.split_once(':').filter(|(k, v)| {
                    COMMAND_OPTIONS.contains(&k.to_ascii_lowercase().as_str())
                        && v.contains(char::is_whitespace)
                })
            })
            .map_or(t, |(_, v)| v);
        string(c.name, value, ctx, raw, out);
    }
    // A value set before the program for it or its runtime to read as it starts
    // (`NODE_OPTIONS='--import data:…rmSync("/etc",…)'`, `PERL5DB='BEGIN { system(…) }'`):
    // code there runs as an argument's would.
    for (_, value) in &cmd.assigns {
        if let Some(t) = value.text.as_deref() {
            string(c.name, t, ctx, raw, out);
        }
    }
}

/// A here-document, a `<(printf …)` or text piped in, judged as what the program reads.
fn fed(
    cmd: &Simple,
    producers: &[&Simple],
    tier: Tier,
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    // A here-document or text piped in: lines of a script, whatever reads them. Only what
    // would be blocked counts, as these lines are often prose (a description, a message);
    // the lines its language hands to the shell count in full.
    // Text piped into a program nobody models counts the same way (`echo 'rm -rf /' | acme
    // ssh DEVICE`): a remote shell or a console reads it as commands.
    if let Some(text) = languages::stdin_text(cmd, producers) {
        let text = without_prose_settings(&text);
        // Blocks of the commands, not of shell syntax: data's lines (an INI file's `[dev]`
        // section) are no glob in a command's place.
        if cmd.heredoc.is_some() || tier == Tier::Unknown && !text.trim().is_empty() {
            out.runs(&unsigiled(&text), Keep::CommandBlocks);
            // A call named for running a command line runs it, risks and all.
            if tier == Tier::Unknown {
                for line in super::super::code::shell_call_lines(&text) {
                    out.runs(&line, Keep::Risky);
                }
            }
            // Code in any language that opens a credential store (`set f [open
            // ~/.ssh/id_ed25519 r]` fed to a Tcl shell, `File.read` to a console): what it
            // reads comes back into the agent's context.
            if let Some(store) = super::super::code::credential_path_named(&text, ctx) {
                out.push(super::decide(
                    Verdict::Junction,
                    RuleId::CredentialRead,
                    format!(
                        "this is fed code that names a credential store (`{store}`): what it reads goes into the agent's context"
                    ),
                    raw,
                ));
            } else {
                super::super::code::reads_credential_store(&text, ctx, raw, out);
            }
            super::super::code::printed_secret(&text, raw, out);
        }
        escapes(&text, Keep::Risky, out);
        declared_deleted(&text, ctx, raw, out);
        // Code fed in that spawns a program by its argument strings (`IO.Process.run { cmd
        // := "rm", args := #["-rf", …] }`), and configuration fed in whose command keys a
        // program will run (`command: rm -rf …`): only what would be blocked counts.
        argv_list(&text, Keep::CommandBlocks, out);
        keyed_commands(&text, ctx, out);
        json_argv(&text, out);
        // A script held in a string of a structured document fed in (a pipeline's JSON
        // `"source": "import shutil\nshutil.rmtree(…)"`): its escapes undone, judged as the
        // lines it is. Only what would be blocked counts.
        for lit in super::super::code::literals(&text) {
            if lit.contains(' ')
                && (lit.contains('\n') || lit.contains(';'))
                && !deletes_critical(&lit, ctx, raw, out)
            {
                out.runs(&lit, Keep::Blocks);
            }
        }
    }
}

/// A program nobody models given one of its own command lines as a quoted operand (`xymon
/// HOST "drop web01"`, `bbackupquery "restore -r etc /etc" quit`): the line's words are that
/// program's subcommand and its arguments, judged as if written unquoted. Only an operand that
/// reads as a command, not as a message: not an option's value (`-m "drop the cache"`), its
/// first word a lower-case verb, no sentence's end, no shell syntax (a shell's line is judged
/// as commands elsewhere).
fn own_command_line(c: &Cmd<'_>, tier: Tier, out: &mut Findings) {
    if tier != Tier::Unknown {
        return;
    }
    console_lines(c, out);
    for (i, a) in c.args.iter().enumerate() {
        // Only a quoted string of words is read further.
        let Some(text) = a
            .text
            .as_deref()
            .filter(|t| a.quoted && t.contains(char::is_whitespace))
        else {
            continue;
        };
        let after_flag = i > 0
            && c.args[i - 1]
                .text
                .as_deref()
                .is_some_and(|f| f.starts_with('-') && !f.contains('='));
        // After a subcommand word the string is that subcommand's (`notify "delete done"`);
        // after a host or an address it is what that host is told.
        let addressed = c.args[..i].iter().all(|b| {
            b.text.as_deref().is_some_and(|t| {
                t.starts_with('-')
                    || t.contains(['.', ':', '@'])
                    || t.bytes().any(|x| x.is_ascii_digit())
            })
        });
        let command_like =
            !after_flag && addressed && !text.contains(';') && reads_as_command(text.trim_end());
        if command_like {
            out.runs(&format!("{} {text}", c.name), Keep::Risky);
        }
    }
}

/// A console's own command lines given by an option named for them (`kadmin -q "delprinc
/// -force alice@…"`, `jboss-cli.sh --command='deploy app.war --force'`, `-cmd "delete dev
/// 00A1:00AF;"`): each statement's words are the program's subcommand and its arguments, as if
/// written unquoted. Only a value that reads as commands (the rules of
/// [`own_command_line`]), after a one-letter option that takes code in consoles (`-c`, `-e`,
/// `-q`, `-x`) or one named for commands, queries or evaluation.
fn console_lines(c: &Cmd<'_>, out: &mut Findings) {
    let console_flag = |flag: &str| {
        matches!(flag, "-c" | "-e" | "-q" | "-x")
            || flag.starts_with('-')
                && flag.len() > 2
                && (command_option(flag)
                    || super::words::parts(flag).last().is_some_and(|p| {
                        matches!(p.as_str(), "cmd" | "query" | "eval" | "do" | "execute")
                    }))
    };
    let mut pending = false;
    for a in c.args {
        let Some(t) = a.text.as_deref() else {
            pending = false;
            continue;
        };
        let value = match t.split_once('=') {
            Some((flag, v)) if console_flag(flag) => Some(v),
            _ if pending && a.quoted => Some(t),
            _ => None,
        };
        pending = console_flag(t);
        let Some(value) = value else {
            continue;
        };
        for statement in value.split(';') {
            let statement = statement.trim();
            let first = statement.split_whitespace().next().unwrap_or("");
            // Leaving the console ends its session, not anything it manages (`quit -f`).
            // A console's `get NAME` fetches a remote name here, which [`targets`]' reading of
            // console lines judges.
            let leaves = matches!(first, "quit" | "exit" | "bye" | "logout" | "get" | "mget");
            // A console's escape to the shell (`spawn rm -rf build/plots`, `system …`): the
            // line after it is a shell's, judged as one, not the console's own subcommand.
            if let Some(tail) = super::words::shell_escape(statement) {
                out.runs(tail, Keep::Risky);
                continue;
            }
            if !leaves && reads_as_command(statement) {
                out.runs(&format!("{} {statement}", c.name), Keep::Risky);
            }
        }
    }
}

/// Whether a console's line reads as one of its commands, not a message or a shell's line: two
/// or more words, the first a lower-case verb that is no program trail knows, no shell syntax,
/// no sentence's end.
fn reads_as_command(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    line.split_whitespace().count() >= 2
        && first.len() >= 2
        && first
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'-' || b == b'_')
        && !known::is_program(first)
        && !line.contains(['|', '&', '`', '$', '\n', '<', '>', '(', '"', '\''])
        && !line.ends_with(['.', '!', '?', ':', ','])
        && !line.contains(". ")
}

/// Lines with a chat bot's command sigil taken off (`!repos install URL` fed to a bot in its
/// text mode is `repos install URL`), so that the command after it is judged. A shell's own
/// `! cmd` (a space after it) is left as it is.
fn unsigiled(text: &str) -> std::borrow::Cow<'_, str> {
    let sigiled = |l: &str| {
        l.trim_start()
            .strip_prefix('!')
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic()))
    };
    if !text.lines().any(sigiled) {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines: Vec<&str> = text
        .lines()
        .map(|l| if sigiled(l) { &l.trim_start()[1..] } else { l })
        .collect();
    std::borrow::Cow::Owned(lines.join("\n"))
}

/// Any option given only a variable whose name says it holds a command or code (`gracebat
/// -pexec "$GRACE_CMD"`, `textadept -e "$TA_SNIPPET"`, `--monitor "$NOTIFY_CMD"`,
/// `-r="$PI_SCRIPT"`, `-f "$SRT_FUNC"`, a setting `cmd=$ENGINE_CMD`): what runs is known only
/// when the line runs, whatever the option is called.
fn command_variable(args: &[Arg], ctx: &Context, raw: &str, out: &mut Findings) {
    let code_name = |value: &str| {
        let value = ctx.expand_text_vars(value);
        if !only_a_variable(&value) {
            return false;
        }
        let name = value
            .trim_matches(['"', '$', '{', '}'])
            .to_ascii_lowercase();
        // The last word names what it holds (`CMD_NAME` is a name), or the word before a
        // place's (`AM_CONFIG_DIR`, `X_SCRIPT_PATH`: where the code or configuration is).
        let mut words = name.rsplit('_');
        let last = words.next();
        let held = match last {
            Some("dir" | "dirs" | "path" | "paths" | "file" | "files") => words.next(),
            _ => last,
        };
        held.is_some_and(|p| {
            matches!(
                p,
                "cmd"
                    | "command"
                    | "commands"
                    | "script"
                    | "snippet"
                    | "code"
                    | "exec"
                    | "hook"
                    | "macro"
                    | "func"
                    | "function"
                    | "lambda"
                    // A language's code by the language (`"$FCEUX_LUA"`), a pipeline a
                    // dataflow engine runs (`-f "$TENZIR_PIPELINE"`).
                    | "lua"
                    | "pipeline"
                    // Code it loads (`--custom-module "$OSC_MODULE"`, `"$X_PLUGIN"`), or
                    // the configuration it runs by (`-c "$LAZYMC_CONFIG"`), which names the
                    // commands and plugins a server starts.
                    | "module"
                    | "plugin"
                    | "config"
                    | "conf"
                    | "cfg"
                    // Or the program it holds, by its role (`-o "$SHOT_VIEWER"`, `-N
                    // "$NOTIFY_UTIL"`, `-cpp "$XRDB_CPP"`): whatever it names runs.
                    | "viewer"
                    | "editor"
                    | "pager"
                    | "opener"
                    | "launcher"
                    | "util"
                    | "utility"
                    | "helper"
                    | "handler"
                    | "program"
                    | "prog"
                    | "runner"
                    | "cpp"
                    // The program by what it is (`--youtubedl-path "$YTDL_BIN"`, `-tesseract
                    // "$OCR_BIN"`, `run-program "$FOX_TOOL"`), or code that decides what
                    // passes (`--filter "$MAIL_FILTER"`, `--post-filter="$IG_FILTER"`).
                    | "bin"
                    | "binary"
                    | "exe"
                    | "executable"
                    | "tool"
                    | "filter"
            )
        })
    };
    // Inside a longer value (`-o "proc://$NZB_HOOK"`, `"cust ext=wav $SPLIT_CMD"`), only a
    // name that can mean nothing but a command line counts.
    let inside = |value: &str| {
        let value = ctx.expand_text_vars(value);
        value.match_indices('$').any(|(at, _)| {
            let name: String = value[at + 1..]
                .trim_start_matches('{')
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
                .collect();
            name.contains('_')
                && name.rsplit('_').next().is_some_and(|p| {
                    matches!(
                        p.to_ascii_lowercase().as_str(),
                        "cmd" | "command" | "hook" | "script" | "exec"
                    )
                })
        })
    };
    let found = args.iter().enumerate().any(|(i, a)| {
        let t = a.text.as_deref().unwrap_or(&a.raw);
        if a.raw.contains('$') && !only_a_variable(&a.raw) && inside(&a.raw) {
            return true;
        }
        match t.split_once('=') {
            // An option's value, or a setting's (`-engine "cmd=$ENGINE_CMD"`).
            Some((_, v)) => code_name(v),
            None => {
                t.starts_with('-') && args.get(i + 1).is_some_and(|v| code_name(&v.raw))
                    // Or an operand of its own (`dogtail-run-headless-next "$UI_TEST_CMD"`):
                    // the program is handed the command to run.
                    || code_name(&a.raw)
                        && i.checked_sub(1).is_none_or(|p| {
                            !args[p].text.as_deref().is_some_and(|f| f.starts_with('-'))
                        })
            }
        }
    });
    if found {
        out.push(junction(
            RuleId::Unverifiable,
            "an option is given a variable named as a command, code or a configuration, known only when it runs: a person decides",
            raw,
        ));
    }
}

/// A program and its arguments given as settings (`-engine cmd=ssh args="gpu.example.org
/// ./engine"`), or a command addressed to another host by a bang path (`uux
/// 'gateway!rm -rf /'`, UUCP's `HOST!COMMAND`): the line the program runs, judged with its
/// risks.
fn program_settings(args: &[Arg], out: &mut Findings) {
    for (i, a) in args.iter().enumerate() {
        let Some(t) = a.text.as_deref() else {
            continue;
        };
        if let Some((key, program)) = t.split_once('=')
            && matches!(key, "cmd" | "command" | "exec" | "program")
            && known::is_program(base(program))
            && let Some(rest) = args
                .get(i + 1)
                .and_then(|n| n.text.as_deref())
                .and_then(|n| n.strip_prefix("args="))
        {
            out.runs(&format!("{program} {rest}"), Keep::Risky);
        }
        if let Some((host, line)) = t.split_once('!')
            && !host.is_empty()
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
            && line
                .split_whitespace()
                .next()
                .is_some_and(|p| known::is_program(base(p)))
            && line.contains(' ')
        {
            out.runs(line, Keep::Risky);
        }
    }
}

/// Keystrokes typed from a variable the line does not set (`wlrctl keyboard type
/// "$SNIPPET"`, `acme sendkeys "$X"`): typed into whatever window has the focus, a terminal's
/// among them, what runs is known only when it runs. Typed text written out is judged as
/// the line it is, elsewhere.
fn typed_variable(args: &[Arg], ctx: &Context, raw: &str, out: &mut Findings) {
    let typed = args.iter().take(4).position(|a| {
        a.text.as_deref().is_some_and(|t| {
            matches!(
                t.to_ascii_lowercase().as_str(),
                "type" | "typetext" | "sendkeys" | "send-keys" | "keystroke" | "keystrokes"
            )
        })
    });
    if let Some(i) = typed
        && let Some(value) = args.get(i + 1)
        && only_a_variable(&ctx.expand_text_vars(&value.raw))
    {
        out.push(junction(
            RuleId::Unverifiable,
            "the keys this types are a variable's value, known only when it runs, into whatever window has the focus: a person decides",
            raw,
        ));
    }
}

/// Whether `raw` is one variable's value and nothing else (`"$CMD"`, `${RUNNER}`).
fn only_a_variable(raw: &str) -> bool {
    let t = raw.trim_matches('"');
    let Some(name) = t.strip_prefix('$') else {
        return false;
    };
    let name = name
        .strip_prefix('{')
        .and_then(|n| n.strip_suffix('}'))
        .unwrap_or(name);
    !name.is_empty()
        && name
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

/// The values of keys named for a command (`command: …`, `exec = "…"`, `- cmd: …`) that start
/// with a program: a configuration's hook, run later by whatever reads it. Only what would be
/// blocked counts, as such values are also examples and documentation.
pub(super) fn keyed_commands(text: &str, ctx: &Context, out: &mut Findings) {
    let lines: Vec<&str> = text.lines().collect();
    // The host's paths a document's own bind mounts put inside (a Compose file's `volumes: -
    // /:/host` beside `command: rm -rf /host/home/dev`): its commands name them through there.
    let mounts = document_mounts(&lines);
    let mounted = |line: &str| super::super::indirect::through_mounts(line, &mounts, ctx);
    for (i, line) in lines.iter().enumerate() {
        let Some((key, value)) = key_value(line) else {
            continue;
        };
        if key.is_empty() || key.contains(char::is_whitespace) || !command_option(key) {
            continue;
        }
        let first = value.split_whitespace().next().unwrap_or("");
        if !known::is_program(base(first)) {
            continue;
        }
        // The program alone, its arguments in a sibling key (`command: rm` then `args: "-rf
        // ~"`), as schedulers and task runners take them.
        let args = lines[i + 1..]
            .iter()
            .take(4)
            .filter_map(|l| key_value(l))
            .find(|(k, _)| matches!(*k, "args" | "arguments" | "argv" | "params"))
            .map(|(_, v)| v.trim_matches(['[', ']']).replace(['"', '\'', ','], " "));
        match args {
            Some(args) if !value.contains(' ') => {
                out.runs(&mounted(&format!("{value} {args}")), Keep::Blocks);
            }
            _ if value.contains(' ') => out.runs(&mounted(value), Keep::Blocks),
            _ => {}
        }
    }
}

/// The bind mounts a document lists under a `volumes:` key (`- /:/host`, `- "/home/dev:/data:ro"`,
/// or on one line, `volumes: ['/:/host']`), as (host path, path inside); only an absolute host
/// path, and a path inside longer than `/`.
fn document_mounts(lines: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut under: Option<usize> = None;
    let mut mount = |item: &str| {
        let item = item.trim().trim_matches(['"', '\'']);
        if let Some((host, rest)) = item.split_once(':') {
            let dest = rest.split(':').next().unwrap_or(rest);
            if host.starts_with('/') && dest.starts_with('/') && dest.len() > 1 {
                out.push((host.to_string(), dest.to_string()));
            }
        }
    };
    for line in lines {
        let indent = line.len() - line.trim_start().len();
        let body = line.trim();
        if body.trim_end_matches(':') == "volumes" && body.ends_with(':') {
            under = Some(indent);
            continue;
        }
        if let Some(flow) = body
            .strip_prefix("volumes:")
            .map(str::trim)
            .and_then(|v| v.strip_prefix('[')?.strip_suffix(']'))
        {
            flow.split(',').for_each(&mut mount);
            continue;
        }
        let Some(at) = under else { continue };
        let Some(item) = body.strip_prefix("- ") else {
            if !body.is_empty() && indent <= at {
                under = None;
            }
            continue;
        };
        mount(item);
    }
    out
}

/// The settings of a configuration handed to a program nobody models that name an event's
/// hook (`"onNewMail": "ssh mail.example.org sudo systemctl restart dovecot"`, `post_hook:
/// …`, `exec = …`): the program runs each value as a command line when the event comes, so it
/// is judged as one, risks and all; a variable there (`"onNewMailPost": "$MAIL_HOOK"`) is a
/// command known only then. A password's helper (`passwordCmd`) is how the program logs in.
pub(super) fn hook_settings(text: &str, raw: &str, out: &mut Findings) {
    let hook_key = |key: &str| {
        let key = key.trim_matches(['"', '\'', '-', ' ']);
        let ps = super::words::parts(key);
        let event = key.len() > 2
            && key.starts_with("on")
            && (key.as_bytes()[2].is_ascii_uppercase() || matches!(key.as_bytes()[2], b'_' | b'-'));
        let named = command_option(key) || ps.iter().any(|p| p == "hook" || p == "hooks");
        let credential = ps.iter().any(|p| {
            matches!(
                p.as_str(),
                "password" | "pass" | "passwd" | "secret" | "token" | "auth" | "credential"
            )
        });
        (event || named) && !credential
    };
    let pairs = json_pairs(text)
        .into_iter()
        .chain(text.lines().filter_map(key_value));
    for (key, value) in pairs {
        // Or a value tagged as a command to run, whatever its key (DoorPi's `10 =
        // os_execute:systemctl stop nginx`).
        if let Some((tag, line)) = value.split_once(':')
            && super::words::parts(tag).iter().any(|p| {
                matches!(
                    p.as_str(),
                    "exec" | "execute" | "run" | "shell" | "cmd" | "command" | "system"
                )
            })
            && line.contains(' ')
            && known::is_program(base(line.split_whitespace().next().unwrap_or("")))
        {
            out.runs(line.trim(), Keep::Risky);
            continue;
        }
        if !hook_key(key) {
            continue;
        }
        // A JSON object on one line read as `key: value` keeps its closing brackets
        // (`{"post_run": "echo done"}`): they are no part of the command.
        let value = value
            .trim()
            .trim_end_matches([',', '}', ']', ' '])
            .trim_matches(['"', '\'']);
        if only_a_variable(value) {
            out.push(junction(
                RuleId::Unverifiable,
                "a configuration it is handed sets a hook to a variable: the command is known only when it runs; a person decides",
                raw,
            ));
        } else if value.contains(' ')
            && known::is_program(base(value.split_whitespace().next().unwrap_or("")))
        {
            out.runs(value, Keep::Risky);
        }
    }
}

/// A program and its arguments as sibling string fields of JSON written on one line (a chaos
/// experiment's `"provider": {"type": "process", "path": "rm", "arguments": "-rf ~"}`, a
/// task's `{"command": "rm", "args": "-rf ~"}`): the program alone under a key naming a
/// command or the file run, its arguments under the next key naming them. Only what would be
/// blocked counts.
pub(super) fn json_argv(text: &str, out: &mut Findings) {
    if !text.contains("\":") && !text.contains("\" :") {
        return;
    }
    let pairs = json_pairs(text);
    for (i, &(key, value)) in pairs.iter().enumerate() {
        let program_key = command_option(key)
            || matches!(
                key,
                "path" | "program" | "executable" | "binary" | "bin" | "file"
            );
        if !program_key || value.contains(' ') || !known::is_program(base(value)) {
            continue;
        }
        if let Some((_, args)) = pairs[i + 1..]
            .iter()
            .take(3)
            .find(|(k, _)| matches!(*k, "args" | "arguments" | "argv" | "params"))
        {
            out.runs(&format!("{value} {args}"), Keep::Blocks);
        }
    }
}

/// The settings an XML element names by attributes (`<textoption name="PathOut"
/// value="/home/dev/out"/>`, `key="…" value="…"`, as LISFLOOD's and .NET's settings files
/// write them): each element's name and its value, as a `key: value` line would give them.
pub(super) fn xml_named_values(text: &str) -> Vec<(&str, &str)> {
    let attribute = |element: &'_ str, names: &[&str]| -> Option<(usize, usize)> {
        names.iter().find_map(|n| {
            ['"', '\''].iter().find_map(|q| {
                let at = element.find(&format!(" {n}={q}"))? + n.len() + 3;
                let end = element[at..].find(*q)?;
                Some((at, at + end))
            })
        })
    };
    let mut out = Vec::new();
    for part in text.split('<').skip(1) {
        let (element, content) = part.split_once('>').unwrap_or((part, ""));
        let Some((ks, ke)) = attribute(element, &["name", "key"]) else {
            continue;
        };
        // The value as an attribute, or as the element's text (a Java properties file's
        // `<entry key='logger.file'>/var/log/x</entry>`).
        if let Some((vs, ve)) = attribute(element, &["value"]) {
            out.push((&element[ks..ke], &element[vs..ve]));
        } else if !content.trim().is_empty() && !content.contains('\n') {
            out.push((&element[ks..ke], content.trim()));
        }
    }
    out
}

/// The `"key": "value"` pairs of JSON text, in order, both strings as written (no escapes
/// undone: a program's name and its arguments have none to undo that matter here).
pub(super) fn json_pairs(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let string_at = |i: usize| -> Option<usize> {
        // The closing quote of the string opening at `i`.
        let mut j = i + 1;
        while j < b.len() {
            match b[j] {
                b'\\' => j += 2,
                b'"' => return Some(j),
                b'\n' => return None,
                _ => j += 1,
            }
        }
        None
    };
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'"' {
            i += 1;
            continue;
        }
        let Some(key_end) = string_at(i) else {
            i += 1;
            continue;
        };
        let mut j = key_end + 1;
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        if b.get(j) != Some(&b':') {
            i = key_end + 1;
            continue;
        }
        j += 1;
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        if b.get(j) == Some(&b'"')
            && let Some(value_end) = string_at(j)
        {
            out.push((&text[i + 1..key_end], &text[j + 1..value_end]));
            i = value_end + 1;
        } else {
            i = j;
        }
    }
    out
}

/// A configuration line's key and value (`key: value`, `key = "value"`, `- key: value`), the
/// value without its quotes or a trailing comma.
fn key_value(line: &str) -> Option<(&str, &str)> {
    // A setting written inside a comment, as some tools read their settings from a file's
    // header (`// build_cmd: …` in a scriptisto script, `# command: …`).
    let line = line.trim_start();
    let line = ["// ", "# ", "-- ", "; ", "% "]
        .iter()
        .find_map(|m| line.strip_prefix(m))
        .unwrap_or(line);
    let line = line.trim_start().trim_start_matches("- ").trim_start();
    let at = line.find([':', '='])?;
    let key = line[..at].trim().trim_matches(['"', '\'']);
    let value = line[at + 1..].trim_start_matches(['=', ':']).trim();
    // A quoted value ends at its quote (an XML attribute: `cmd="ls dist"/></plan>`).
    let value = match value.chars().next() {
        Some(q @ ('"' | '\'')) if value[1..].contains(q) => {
            value[1..].split(q).next().unwrap_or("")
        }
        _ => value.trim_end_matches(',').trim_matches(['"', '\'']),
    };
    Some((key, value))
}

/// Every line's value that starts with a program, whatever its key (`post-up curl … | sh`,
/// `on_event: rm -rf /`, `<command>rm -rf /</command>`): in a file a service reads, a hook
/// may have any name. Only what would be blocked counts.
pub(super) fn configured_commands(text: &str, out: &mut Findings) {
    for line in text.split('\n').flat_map(|l| l.split("\\n")) {
        // Indented as `printf` writes it (`\tCMD …`): the escape is blank space.
        let line = line
            .trim()
            .trim_start_matches("\\t")
            .trim_start_matches("- ")
            .trim();
        // Every element's text (`<command>…</command>`, `<steps><run>…</run></steps>`, a
        // property list's `<string>…</string>`), or the line.
        if line.starts_with('<') {
            for inner in line.split('>').skip(1) {
                let inner = inner.split('<').next().unwrap_or("").trim();
                if !inner.is_empty() {
                    configured_line(inner, out);
                }
            }
        } else {
            configured_line(line, out);
        }
    }
}

/// One line of a configuration (or an element's text): its value after a key, the line
/// itself, or a cell of a comma-separated row (`step,rm -rf …`), when it opens with a program.
fn configured_line(line: &str, out: &mut Findings) {
    // After a key: `KEY = V`, `KEY: V`, `KEY V`; a key is one word, a script's variable
    // too (Perl's `$Conf{TarClientCmd} = "…";`).
    let key_end = line
        .find(|ch: char| {
            !(ch.is_ascii_alphanumeric()
                || matches!(ch, '_' | '-' | '.' | '$' | '{' | '}' | '[' | ']' | '\''))
        })
        .unwrap_or(line.len());
    let rest = line[key_end..].trim_start();
    let value = match rest.strip_prefix([':', '=']) {
        Some(v) if key_end > 0 => v,
        _ if key_end > 0 && line[key_end..].starts_with(char::is_whitespace) => rest,
        _ => line,
    };
    // The line itself may be the command (`curl … | sh` under a section).
    let cells = line.split(',').skip(1).filter(|_| line.contains(','));
    for value in [line, value].into_iter().chain(cells) {
        let value = value
            .trim()
            .trim_end_matches([',', ';'])
            .trim_matches(['"', '\'']);
        // A named action's command after its name (NetXMS's `Action = Purge:rm -rf …`).
        let value = value
            .split_once(':')
            .filter(|(tag, rest)| {
                !tag.is_empty()
                    && tag.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    && rest.contains(' ')
                    && known::is_program(base(rest.split_whitespace().next().unwrap_or("")))
            })
            .map_or(value, |(_, rest)| rest);
        let first = value.split_whitespace().next().unwrap_or("");
        if value.contains(' ') && known::is_program(base(first)) {
            out.runs(value, Keep::Blocks);
            break;
        }
        // A program the configuration names by a variable (BackupPC's `$sshPath -l root
        // $host rm -rf /`): from the first program trail knows, the rest runs too.
        if first.starts_with('$')
            && let Some(at) = value
                .match_indices(' ')
                .map(|(i, _)| i + 1)
                .find(|&i| known::is_program(base(value[i..].split(' ').next().unwrap_or(""))))
        {
            out.runs(&value[at..], Keep::Blocks);
            break;
        }
    }
}

/// The command line an option for an event is given (`--on-done 'busctl call … PowerOff b
/// false'`, `--post-cycle 'sync-logs --all'`): it runs when the event comes, whatever its
/// first word names. A value in sentence case (`--post-message 'Reboot at noon'`) is words
/// for people. And code handed in an encoding to a subcommand that runs it (`macro run --hex
/// 726d…`, `script exec --base64 …`) is hidden code, as after `base64 -d | sh`.
fn event_lines(c: &Cmd<'_>, raw: &str, out: &mut Findings) {
    let named = |f: &str| f.starts_with("--") && event_or_inline_option(f);
    for value in option_values(c.args, true, named) {
        let first = value.split_whitespace().next().unwrap_or("");
        // A line opens with a command's name, or is shell by its grammar: a function defined,
        // a pipe, a list (`:(){ :|:& };:` opens with no name at all).
        let shell = || value.contains("(){") || value.contains("() {") || value.contains("};");
        // (Or it opens with the environment it sets: `K=V program`.)
        let assigns = || {
            first
                .split_once('=')
                .is_some_and(|(k, _)| crate::wrappers::variable_name(k))
        };
        if value.contains(char::is_whitespace)
            && !opens_with_an_import(value)
            && (first
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-/".contains(&b))
                || shell()
                || assigns())
        {
            out.runs(value, Keep::Risky);
        } else if crate::powershell::is_cmdlet(first) {
            // Or PowerShell's, opening with a cmdlet (`--pwsh-hook 'Remove-Item -Recurse
            // -Force -Path /home/dev'`): judged as PowerShell runs it.
            out.runs_powershell(format!("pwsh -Command '{}'", value.replace('\'', "''")));
        }
    }
    // (By any part of its name: `--hex`, `--payload-gz-b64`, `--script-base64`.)
    let encoded = |f: &str| {
        f.starts_with("--")
            && super::words::parts(f).iter().any(|p| {
                matches!(
                    p.as_str(),
                    "hex" | "base64" | "b64" | "encoded" | "gz" | "gzip" | "compressed"
                )
            })
    };
    // Or named by an option's value (`--decode hex --payload 6464…`, `--encoding=base64`).
    let decoded = || {
        let words: Vec<&str> = c.option_words().collect();
        super::option_pairs(&words).any(|(flag, value)| {
            matches!(
                flag,
                "--decode" | "--encoding" | "--enc" | "--from-encoding"
            ) && value.is_some_and(|v| {
                matches!(
                    v.to_ascii_lowercase().as_str(),
                    "hex" | "base64" | "b64" | "base32" | "gzip" | "gz"
                )
            })
        })
    };
    // (The subcommands last: most commands hand nothing encoded.) Or a switch that runs what
    // was loaded (`macro load --b64 … --run`).
    let runs = || {
        c.args.iter().any(|a| {
            matches!(
                a.text.as_deref(),
                Some("--run" | "--exec" | "--execute" | "--eval" | "--and-run")
            )
        }) || super::words::subcommands(c).iter().any(|w| {
            matches!(
                w.to_ascii_lowercase().as_str(),
                "run" | "exec" | "execute" | "eval" | "shell"
            )
        })
    };
    if (!option_values(c.args, true, encoded).is_empty() || decoded()) && runs() {
        out.push(super::decide(
            Verdict::Block,
            RuleId::DecodedCode,
            format!(
                "`{}` is handed code in an encoding for a subcommand that runs it: what runs is hidden, and hiding is itself the signal; it is never run",
                c.name
            ),
            raw,
        ));
    }
}

/// Whether a long option is named for the language of the code it takes (`--perl '…'`,
/// `--python-expr`, `--lua`): its value is code the program runs.
fn language_option(flag: &str) -> bool {
    // (`py` is held by `python` too: one look at the bytes serves both.)
    const NAMES: &[&str] = &[
        "perl",
        "py",
        "ruby",
        "lua",
        "js",
        "javascript",
        "tcl",
        "php",
        "groovy",
    ];
    // Asked of every long option of every program nobody models: the bytes first.
    if !NAMES.iter().any(|n| super::words::holds(flag, n)) {
        return false;
    }
    let language = |p: &String| p == "python" || NAMES.contains(&p.as_str());
    // (The language last, or before what its code is called; not `--python-version`.)
    match super::words::parts(flag).as_slice() {
        [.., last] if language(last) => true,
        [.., lang, what] => {
            language(lang)
                && matches!(
                    what.as_str(),
                    "code" | "expr" | "eval" | "script" | "snippet" | "inline"
                )
        }
        _ => false,
    }
}

/// Whether a long option's name says it takes what runs on an event, or inline code
/// (`--on-error`, `--when-done`, `--post-cycle`, `--inline`, `--hook`): given a value decoded
/// or fetched at run time, that value is hidden code.
pub(super) fn event_or_inline_option(flag: &str) -> bool {
    let ps = super::words::parts(flag);
    match ps.as_slice() {
        [only] => matches!(
            only.as_str(),
            "inline" | "hook" | "callback" | "code" | "after" | "then" | "finally" | "post" | "pre"
        ),
        [first, ..] => {
            matches!(
                first.as_str(),
                "on" | "when" | "after" | "before" | "post" | "pre" | "then"
            ) || ps.last().is_some_and(|l| {
                matches!(
                    l.as_str(),
                    "hook" | "callback" | "inline" | "then" | "finally"
                )
            })
        }
        [] => false,
    }
}

/// Whether an option's name says it takes a command or a script (`--exec`, `-command`).
pub(super) fn command_option(flag: &str) -> bool {
    // Asked of every option of every program nobody models: the flag is only split into its
    // words when it holds one of the names at all.
    COMMAND_OPTIONS.iter().any(|o| {
        flag.as_bytes()
            .windows(o.len())
            .any(|w| w.eq_ignore_ascii_case(o.as_bytes()))
    }) && super::words::parts(flag).last().is_some_and(|p| {
        COMMAND_OPTIONS.contains(&p.as_str())
            // Or a command's word joined to what it is for (`--gscmd`, `--extracmds`,
            // `--postcmd`).
            || ["cmd", "cmds", "command", "commands"]
                .iter()
                .any(|s| p.len() >= s.len() + 2 && p.ends_with(s))
    })
}

/// A code reference fetched from the network given to a subcommand that runs or tries it,
/// as what it runs (`acme plugin run https://…/p.tar.gz`, `acme try-repo https://…`,
/// `acme-runner run --spec git+https://…`; not `docker exec box curl http://…`, where the URL
/// is an argument of what runs), or given first to a program that runs a file (`acme
/// https://…/Cleanup.java`): code whose content cannot be known before it runs, blocked as
/// `curl … | sh` is (DESIGN, principle 5), a junction when a person trusts the host. A value
/// fetched or decoded at run time given to such a subcommand (`acme runner "$(curl …)"`) is
/// hidden code, as after `bash -c`.
fn runs_fetched(c: &Cmd<'_>, ctx: &Context, raw: &str, out: &mut Findings) {
    let args = c.args;
    // A path's segments name places (`-dir /run/user/1000/tmp/x`), not a verb.
    let runs = |t: &str| {
        !t.starts_with('-')
            && !t.contains('/')
            && (t == "x"
                || super::words::parts(t).iter().any(|p| {
                    matches!(
                        p.as_str(),
                        "run" | "runner" | "exec" | "try" | "dlx" | "launch"
                    )
                }))
    };
    let at = args
        .iter()
        .take(4)
        .position(|a| a.text.as_deref().is_some_and(runs));
    if let Some(at) = at {
        shells::hidden_in_words(&args[at + 1..(at + 2).min(args.len())], ctx, raw, out);
        // A file made on the fly by a process substitution, anywhere after the verb (`run
        // --filename <(curl …)`): what it runs is what was fetched.
        let substituted: Vec<Arg> = args[(at + 2).min(args.len())..]
            .iter()
            .filter(|a| a.text.is_none() && a.raw.starts_with("<("))
            .cloned()
            .collect();
        shells::hidden_in_words(&substituted, ctx, raw, out);
    } else {
        // No verb: a file made on the fly and handed to an option (`spark-shell -I <(curl
        // …)`, `--init <(…)`) is a script the program loads; programs that only read data
        // are modelled as such and never come here.
        let substituted: Vec<Arg> = args
            .iter()
            .enumerate()
            .filter(|(i, a)| {
                a.text.is_none()
                    && a.raw.starts_with("<(")
                    && *i > 0
                    && args[i - 1]
                        .text
                        .as_deref()
                        .is_some_and(|f| f.starts_with('-'))
            })
            .map(|(_, a)| a.clone())
            .collect();
        shells::hidden_in_words(&substituted, ctx, raw, out);
    }
    // Told only to download it (`presentation download --url …/setup.sh --out build/x.sh`,
    // `fetch URL -o F`), or only to pretend (`plugins install --script-url … --dry-run`):
    // nothing it fetched runs on this line.
    if at.is_none() && (only_downloads(c) || super::words::pretends(c) || prints_it(c)) {
        return;
    }
    // The first operand after the verb (or the program's own first operand, when it names a
    // source file to run), or the value of an option naming where the code comes from.
    let from = at.map_or(0, |i| i + 1);
    let mut fetched = None;
    let mut operand_seen = false;
    let mut i = from;
    while i < args.len() {
        let Some(t) = args[i].text.as_deref() else {
            break;
        };
        // `--uri` only after a verb that runs (`wandb launch --uri https://github.com/…`):
        // elsewhere it names a server.
        if t.strip_prefix("--").is_some_and(|f| {
            matches!(f, "spec" | "from" | "source" | "repo") || f == "uri" && at.is_some()
        }) {
            // Before any operand (`--from git+https://…`), or after the verb that runs;
            // after a subcommand that does not run, it names a feed (`nuget delete …
            // --source https://…/index.json`).
            if at.is_none() && operand_seen {
                i += 2;
                continue;
            }
            fetched = args
                .get(i + 1)
                .and_then(|a| a.text.as_deref())
                .filter(|v| fetched_reference(v) && !names_data(v));
            if fetched.is_some() {
                break;
            }
            i += 2;
            continue;
        }
        if t == "--" {
            break;
        }
        if !t.starts_with('-') {
            // After a verb that runs, its first operand; without one, any operand that is a
            // source file's URL (`spark-submit --master 'local[4]' https://…/job.py`: an
            // option's value may come first).
            // A web address as an option's value is not the run's operand (`cassowary run -u
            // https://site -c 100`: the site is the target), unless it is a source file's.
            let option_value = i > from
                && args[i - 1]
                    .text
                    .as_deref()
                    .is_some_and(|f| f.starts_with('-') && !f.contains('=') && f != "--");
            if at.is_some() && option_value && !runs_source(t) && t.starts_with("http") {
                i += 1;
                continue;
            }
            if at.is_some() {
                fetched = Some(t).filter(|v| fetched_reference(v) && !names_data(v));
                break;
            }
            if runs_source(t) && !names_data(t) {
                fetched = Some(t);
                break;
            }
            operand_seen = true;
        }
        i += 1;
    }
    let Some(url) = fetched else { return };
    // Told outright to fetch and not run (`script run --from-url … --download-only`).
    if c.option_words().any(fetch_only_flag) {
        return;
    }
    fetched_run(url, ctx, raw, out);
}

/// A flag that says what is fetched is not run (`--download-only`, `--no-run`).
pub(super) fn fetch_only_flag(w: &str) -> bool {
    matches!(
        w,
        "--download-only"
            | "--fetch-only"
            | "--print-only"
            | "--no-run"
            | "--no-exec"
            | "--no-execute"
    )
}

/// Whether a subcommand says the program downloads (`download`, `fetch`, `pull`, `mirror`) and
/// an option says where to (`--out F`, `-o F`): it saves, and runs nothing it fetched.
pub(super) fn only_downloads(c: &Cmd<'_>) -> bool {
    super::words::subcommands(c).iter().any(|w| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "download" | "fetch" | "pull" | "mirror" | "save" | "get"
        )
    }) && (super::targets::outputs_here_named(c) || keeps_what_it_gets(c))
}

/// Whether the program's first operand is a verb that prints what it reads (`gio cat URL`,
/// `acme show URL`): the text goes to the terminal or a pipe, judged as such.
pub(super) fn prints_it(c: &Cmd<'_>) -> bool {
    c.args
        .iter()
        .map(|a| a.text.as_deref())
        .find(|t| t.is_none_or(|t| !t.starts_with('-')))
        .flatten()
        .is_some_and(|t| {
            matches!(
                t,
                "cat" | "print" | "show" | "view" | "dump" | "head" | "tail"
            )
        })
}

/// Told to print what it gets (`--stdout`, `-o -`), or to save it to a file (`--save F`,
/// `--save-as F`): the text goes to the terminal, a file, or a pipe judged as such, not into
/// something that runs it.
fn keeps_what_it_gets(c: &Cmd<'_>) -> bool {
    let words: Vec<&str> = c.option_words().collect();
    words.iter().enumerate().any(|(i, w)| {
        matches!(*w, "--stdout" | "--to-stdout" | "--output=-" | "-o-")
            || matches!(*w, "-o" | "-O" | "--output") && words.get(i + 1) == Some(&"-")
            || matches!(*w, "--save" | "--save-as")
                && words.get(i + 1).is_some_and(|f| !f.starts_with('-'))
    })
}

/// A package runner (`uvx`, `npx`, `bunx`, `pnpx`) told to run a package named by where it is
/// fetched from (`uvx --from git+https://…`, `npx github:x/y`): code from a repository
/// nobody here has read, run at once, as `curl … | sh` is. A registry's package name is the
/// registry's, judged by the other rules; the runner's command is judged as the wrapped one.
fn runner_fetches(c: &Cmd<'_>, ctx: &Context, raw: &str, out: &mut Findings) {
    const PACKAGE: &[&str] = &["-p", "--package", "--from", "--with"];
    let fetched = |v: &&str| fetched_reference(v) && !names_data(v);
    let mut words = c.args.iter().map(|a| a.text.as_deref());
    let mut spec = None;
    while let Some(Some(t)) = words.next() {
        if PACKAGE.contains(&t) {
            spec = words.next().flatten();
        } else if let Some((flag, value)) = t.split_once('=')
            && PACKAGE.contains(&flag)
        {
            spec = Some(value);
        } else if !t.starts_with('-') {
            // The package itself, when no option named it: its command runs.
            spec = spec.or(Some(t));
            break;
        }
        if spec.as_ref().is_some_and(fetched) {
            break;
        }
    }
    if let Some(url) = spec.filter(fetched) {
        fetched_run(url, ctx, raw, out);
    }
}

/// Code fetched from `url` is run: a block, or a junction when a person trusts the host.
fn fetched_run(url: &str, ctx: &Context, raw: &str, out: &mut Findings) {
    if shells::trusted(ctx, shells::url_host(url).as_deref()) {
        out.push(junction(
            RuleId::Unverifiable,
            "this runs code fetched from a host a person trusts (`gate.trusted_installers`): a person decides",
            raw,
        ));
    } else {
        out.push(super::decide(
            Verdict::Block,
            RuleId::RemoteCode,
            shells::REMOTE_REASON.into(),
            raw,
        ));
    }
}

/// Extensions of files that are code a program runs or loads.
const CODE_FILES: &[&str] = &[
    "bash", "cjs", "groovy", "js", "lua", "mjs", "pl", "ps1", "py", "rb", "sh", "so", "tcl", "ts",
    "zsh",
];

/// The roles an option's name gives a file it takes that the program runs or loads
/// (`--hook-script`, `--endhook`, `--exec`, `--plugin`, `--init`, `--preload`).
fn script_role(flag: &str) -> bool {
    super::words::parts(flag).iter().any(|p| {
        p.ends_with("hook")
            || matches!(
                p.as_str(),
                "script"
                    | "exec"
                    | "plugin"
                    | "init"
                    | "preload"
                    | "startup"
                    | "callback"
                    | "handler"
                    | "action"
            )
    })
}

/// A file of code from outside the project handed to a program that runs it: to an option
/// whose name says so (`--hook-script="$TMPDIR/on-capture.sh"`), as a configuration that is
/// itself code (`--config="$TMPDIR/backstop.config.js"`), or after a verb that runs (`lxi run
/// "$TMPDIR/burnin.lua"`). A temporary directory or a place outside the project is where
/// anything may have written it, and no one here has read it: a person decides. The
/// project's own scripts are its code, reviewed as such.
fn unreviewed_script(c: &Cmd<'_>, ctx: &Context, raw: &str, out: &mut Findings) {
    let args = c.args;
    let code_file = |word: &str| {
        let file = word.rsplit('/').next().unwrap_or(word);
        file.rsplit_once('.')
            .is_some_and(|(_, ext)| CODE_FILES.contains(&ext.to_ascii_lowercase().as_str()))
    };
    let outside = |word: &str| {
        let word = word.trim_matches(['"', '\'']);
        (word.contains('/') || word.starts_with('$'))
            && matches!(
                ctx.classify(word),
                super::super::Place::Tmp | super::super::Place::Outside
            )
    };
    let text = |a: &Arg| a.text.clone().unwrap_or_else(|| a.raw.clone());
    let found = args.iter().enumerate().find_map(|(i, a)| {
        let t = text(a);
        // A class path, a list of the places code is loaded from (`java -cp
        // app.jar:/home/dev/lib/hooks.jar`).
        if matches!(t.as_str(), "-cp" | "-classpath" | "--class-path")
            && let Some(list) = args.get(i + 1).map(text)
        {
            return list
                .split(':')
                .find(|p| {
                    (p.ends_with(".jar") || p.ends_with("/*"))
                        && super::super::indirect::unread_code_place(p, ctx)
                })
                .map(str::to_string);
        }
        let (flag, value) = if t.starts_with('-') {
            match t.split_once('=') {
                Some((f, v)) => (Some(f.to_string()), v.to_string()),
                None => (Some(t.clone()), args.get(i + 1).map(text)?),
            }
        } else {
            // The first operand after a verb that runs (`lxi run FILE`; not `exec BOX grep
            // … FILE`, where the file is what another program reads).
            let after_run = i > 0
                && i <= 3
                && args[i - 1].text.as_deref().is_some_and(|w| {
                    matches!(w, "run" | "exec" | "execute" | "source" | "load" | "script")
                });
            (None, if after_run { t } else { return None })
        };
        let value = value.trim_matches(['"', '\'']).to_string();
        let runs = match &flag {
            // Any option but an output's given a file of code (`zipline run -f
            // ~/strategies/alpha.py`, `mapshaper -require ~/lib/helpers.js`): a program takes
            // code to load or run it.
            Some(f) if script_role(f) => true,
            // (Where installers put code, `/opt/…/x.py`, is not this mechanism's.)
            Some(f) => {
                code_file(&value)
                    && !super::targets::output_flag(f, false)
                    && super::super::indirect::unread_code_place(&value, ctx)
            }
            None => code_file(&value),
        };
        // A file this line wrote is no one else's: its text is judged where it is handed.
        (runs && outside(&value) && !ctx.planted(&value)).then_some(value)
    });
    if let Some(file) = found {
        out.push(junction(
            RuleId::Unverifiable,
            &format!(
                "`{}` is handed code from outside the project (`{file}`), where anything may have written it and no one here has read it: a person decides",
                c.name
            ),
            raw,
        ));
    }
}

/// A file in the person's download directory handed to a program that runs code, or to one
/// trail does not model, as anything but an output (`swipl ~/Downloads/solver.pl`, `sas -sysin
/// ~/Downloads/macro.sas`, `--action="System.Exec(/home/dev/Downloads/x.sh)"`). It came from
/// the network and nobody in this project has read it; niche languages have niche extensions,
/// so the file's name cannot say whether it is code, and the program may run it: a person
/// decides. Readers and copiers are modelled (`cat`, `cp`, `tar`) and never come here.
pub(super) fn downloaded_input(
    c: &Cmd<'_>,
    cmd: &Simple,
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    // Told to run it safely (`lilypond -dsafe`, `pspp --safer`, `--sandbox`): what it reads
    // cannot reach the system.
    if c.option_words().any(|w| {
        let w = w.to_ascii_lowercase();
        w.starts_with('-') && (w.contains("safe") || w.contains("sandbox"))
    }) {
        return;
    }
    let downloads = ctx.places.home.join("Downloads");
    // A local file's URL is its path (`file:///home/dev/Downloads/x.py`).
    let downloaded = |word: &str| {
        word.split(['(', ')', '"', '\'', ',', ';', '=', ' '])
            .map(|p| p.strip_prefix("file://").unwrap_or(p))
            .filter(|p| p.starts_with(['/', '~', '$']))
            .any(|p| ctx.resolve(p).is_some_and(|r| r.starts_with(&downloads)))
    };
    // A variable set for the program (`HDF5_PLUGIN_PATH=~/Downloads/…`, `LD_PRELOAD=…`)
    // points it at what it loads.
    let assigned = cmd
        .assigns
        .iter()
        .map(|(_, v)| v.text.as_deref().unwrap_or(&v.raw))
        .find(|v| !v.contains(char::is_whitespace) && downloaded(v))
        .map(str::to_string);
    let shell = crate::rules::is_shell(c.name);
    let mut after_output = false;
    let found = assigned.or_else(|| {
        c.args.iter().find_map(|a| {
            // A word with an expansion is read as written (`$HOME/Downloads/…`).
            let t = a.text.as_deref().unwrap_or(&a.raw);
            if std::mem::take(&mut after_output) {
                return None;
            }
            if let Some(flag) = t
                .strip_prefix('-')
                .map(|_| t.split('=').next().unwrap_or(t))
            {
                let output = super::targets::output_flag(flag, false);
                if !t.contains('=') {
                    after_output = output;
                    return None;
                }
                if output {
                    return None;
                }
            }
            // A shell's line is judged as such where it runs (`bash -c 'ls ~/Downloads'`); a
            // line of another language, or a command line handed over, that names a download
            // loads or runs it (`emacsclient -e '(load-file "/home/dev/Downloads/h.el")'`,
            // `--pre-display-cmd "$HOME/Downloads/x.sh %s"`).
            (!(t.contains(char::is_whitespace) && shell) && downloaded(t)).then(|| t.to_string())
        })
    });
    if let Some(word) = found {
        out.push(junction(
            RuleId::Unverifiable,
            &format!(
                "`{}` is handed a file from the download directory (`{word}`): it came from the network, nobody here has read it, and this program may run it: a person decides",
                c.name
            ),
            raw,
        ));
    }
}

/// Fed a downloaded file on stdin (`acme-admin shell < ~/Downloads/fix.py`), or run inside a
/// directory of downloads (`cd ~/Downloads/pkg && acme-build -r`, where a builder reads its
/// recipe): what it reads came from the network and nobody here has read it. Not when the
/// project itself lives there.
pub(super) fn downloaded_source(
    c: &Cmd<'_>,
    cmd: &Simple,
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    // Asked of every command nobody models: nothing allocated until one is found.
    let downloaded = |p: &std::path::Path| {
        p.strip_prefix(&ctx.places.home)
            .is_ok_and(|r| r.starts_with("Downloads"))
    };
    let fed = cmd
        .reads
        .iter()
        .find(|r| ctx.resolve(r).is_some_and(|p| downloaded(&p)));
    let what = if let Some(file) = fed {
        format!("is fed a file from the download directory (`{file}`)")
    } else if downloaded(&ctx.places.cwd)
        && !ctx.line.cwd_unknown
        && !downloaded(&ctx.places.project_root)
    {
        format!(
            "runs inside the download directory (`{}`)",
            ctx.places.cwd.display()
        )
    } else {
        return;
    };
    if super::words::shows_only(c) || super::words::looks(c) {
        return;
    }
    out.push(junction(
        RuleId::Unverifiable,
        &format!(
            "`{}` {what}: what it reads came from the network, nobody here has read it, and this program may run it: a person decides",
            c.name
        ),
        raw,
    ));
}

/// A URL of a document a runner reads rather than runs (`schemathesis run
/// https://…/openapi.json`), or of this machine's own server (`http://127.0.0.1:8000/…`).
fn names_data(word: &str) -> bool {
    const DOCUMENTS: &[&str] = &[
        "apib", "csv", "graphql", "har", "html", "json", "md", "proto", "txt", "xml", "yaml", "yml",
    ];
    let path = word.split(['?', '#']).next().unwrap_or(word);
    let host = word.split_once("://").map_or("", |(_, rest)| rest);
    super::super::shells::loopback(host)
        || path
            .rsplit('/')
            .next()
            .and_then(|file| file.rsplit_once('.'))
            .is_some_and(|(_, ext)| DOCUMENTS.contains(&ext.to_ascii_lowercase().as_str()))
}

/// A URL naming a source file or a script, which a program given it first runs (`jbang
/// https://…/Cleanup.java`, a gist's raw file).
fn runs_source(word: &str) -> bool {
    const SOURCES: &[&str] = &[
        "java", "kt", "kts", "scala", "sc", "py", "rb", "js", "mjs", "ts", "sh", "pl", "php",
        "groovy", "jsh", "lua", "r", "R", "jl", "go", "rs", "cs", "csx", "fsx", "ps1", "exs",
        "clj", "wasm",
    ];
    let path = word.split(['?', '#']).next().unwrap_or(word);
    // A `file://` URL is a local file (`file://build/report.ts`, an MPEG transport stream).
    word.contains("://")
        && !word.starts_with("file://")
        && path
            .rsplit_once('.')
            .is_some_and(|(_, ext)| SOURCES.contains(&ext))
}

/// A line after a client's shell-escape sigil (powwow's `{#!rm -rf ~}`, a console's `!cmd`):
/// the shell runs what follows. A shebang names an interpreter by its path (`#!/bin/sh`), a
/// shell's `! cmd` has a blank: both are left as they are.
fn after_sigil(piece: &str) -> &str {
    piece
        .strip_prefix("#!")
        .or_else(|| piece.strip_prefix('!'))
        .filter(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic()))
        .unwrap_or(piece)
}

/// A source or a hook given by its scheme (`"exec:rm -rf ~"`, `cmd:…`): what follows the
/// scheme runs, when it starts with a program. So does what follows a string's opening pipe,
/// a command the output is sent to (Perl's and Ruby's `open(F, "| mail …")`, CQP's `cat A >
/// "| sh"`).
fn after_scheme(piece: &str) -> &str {
    let piece = piece.strip_prefix('|').map_or(piece, str::trim_start);
    piece
        .split_once(':')
        .filter(|(scheme, rest)| {
            !scheme.is_empty()
                && scheme.bytes().all(|b| b.is_ascii_alphanumeric())
                && rest
                    .split_whitespace()
                    .next()
                    .is_some_and(|f| known::is_program(base(f)))
        })
        .map_or(piece, |(_, rest)| rest)
}

/// Commands carried anywhere in a program's words or the text fed to it, whatever the program:
/// a piece of a word or of a line that starts where the word's own syntax breaks it (`{`, `(`,
/// `%`, `=`, quotes…) with a program and its arguments (`\write18{rm -rf ~}`, `%pipe%rm -rf ~`,
/// `system("rm -rf ~")`, `"rm -rf /".execute()`). For a program trail models, only what would
/// be blocked counts: its words are its own, and such pieces are as often text about a command
/// as a command. For a program nobody models, the pieces' risks count too (`lf -remote 'send
/// $git push --force origin main'`, `(system "systemctl stop nginx")` piped to a Scheme): a
/// program that takes a command line inside its words runs it, and nothing says this one
/// does not.
pub(super) fn embedded(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    use std::borrow::Cow;
    const BREAKS: [char; 13] = [
        '{', '}', '(', ')', '[', ']', '%', '=', '"', '\'', '`', '\n', ';',
    ];
    let mut seen = 0;
    let keep = if known::tier(c.name) == Tier::Unknown {
        Keep::Risky
    } else {
        Keep::Blocks
    };
    let mut scan = |text: &str, out: &mut Findings| {
        // A word nothing breaks is the rules' whole (every command's words come through here),
        // unless it is a command line of its own: a program, then a pipe or a chain
        // (`fzf --preview 'curl … | sh'`).
        if !text.contains(BREAKS) {
            // Every word of every command comes here: the cheap test first.
            let chained = text.contains('|') || text.contains("&&");
            let mut words = text.split_whitespace();
            let first = words.next().unwrap_or("");
            // Or a shell handed a line (`'cmd.exe /c rd /s /q C:\'`, `'bash -c …'`): what it runs
            // on whatever host the program reaches.
            let shell_line = shell_line(first, words.next());
            let program = || known::is_program(base(first)) || crate::powershell::is_cmdlet(first);
            if chained && program() || shell_line {
                seen += 1;
                out.runs(text, keep);
                return;
            }
        }
        // Prose that tells someone to run a command (`'run rm -rf ~ and tell me'`, `send $rm
        // -rf ~/`): an agent or a console given it may. A text of many lines is a document
        // (an issue's description, a plan) whose steps a person reads first: its blocks only.
        // (What follows the word may be no line at all: `computeRun("Run 1")` gives `1")`.)
        if let Some(line) = instructed(text).filter(|l| crate::parse::flatten(l).is_ok()) {
            seen += 1;
            out.runs(
                &line,
                if text.contains('\n') {
                    Keep::Blocks
                } else {
                    keep
                },
            );
        }
        // A spec whose fields are joined by `:` and whose last is a command
        // (`in.ctmpl:out.env:systemctl reload nginx`): a program right after a colon.
        if let Some(line) = after_colon(text) {
            seen += 1;
            out.runs(line, keep);
        }
        // A program's argument vector written with commas (`execute2=sh,-c,rm -rf ~`,
        // `exec:bash,-c,…`): the line a shell is handed with `-c` runs.
        if let Some(line) = comma_shell_line(text) {
            seen += 1;
            out.runs(line, keep);
        }
        if !text.contains(BREAKS) {
            return;
        }
        // `{}` is the file a tool puts in (`find -exec`, `xargs -I{}`, `sops exec-file`): a
        // word, not a brace that breaks the line.
        let text = if text.contains("{}") {
            Cow::Owned(text.replace("{}", "FILE"))
        } else {
            Cow::Borrowed(text)
        };
        // The home directory by a language's name for it (`$ENV{HOME}`, make's `$(HOME)`).
        let text = match code::home_named(&text, "~") {
            Cow::Owned(t) => Cow::Owned(t),
            Cow::Borrowed(_) => text,
        };
        let whole = text.trim().len();
        for piece in text.split(BREAKS) {
            // Typed into a terminal, a line ends in `\r` or `\n` (`send "rm -rf /\r"`).
            let mut piece = piece.trim();
            while let Some(p) = piece
                .strip_suffix("\\r")
                .or_else(|| piece.strip_suffix("\\n"))
            {
                piece = p.trim_end();
            }
            if piece.len() == whole {
                continue;
            }
            let piece = after_sigil(after_scheme(piece));
            let mut words = piece.split_whitespace();
            let (Some(first), Some(_)) = (words.next(), words.next()) else {
                continue;
            };
            if !known::is_program(base(first)) || code_cut_off(piece, first) {
                continue;
            }
            // A piece cut from code at its brackets and quotes may be no line at all
            // (`"Run 1")` of `computeRun("Run 1")`): one the shell cannot read says nothing.
            if crate::parse::flatten(piece).is_err() {
                continue;
            }
            seen += 1;
            if seen > 8 {
                return;
            }
            out.runs(piece, keep);
            // A call's arguments go on after a comma (`system.run[rm -rf /,nowait]`).
            if let Some((head, _)) = piece.split_once(',')
                && head.trim().contains(' ')
            {
                out.runs(head.trim(), keep);
            }
        }
    };
    for a in outside_data(c.args) {
        // A word with an expansion, with what this line set (`-e "$prog"`).
        let text = match a.text.as_deref() {
            Some(t) => Cow::Borrowed(t),
            None => Cow::Owned(ctx.expand_text_vars(&a.raw)),
        };
        scan(&text, out);
        // A call is written with parentheses, or in a command's form, a name then a string
        // (`save_file "/etc/x"`).
        if text.contains('(') || text.contains(" \"") || text.contains(" '") {
            deletes_critical(&text, ctx, raw, out);
        }
    }
    handed(c, cmd, producers, ctx, raw, out, &mut scan);
}

/// An interpreter whose code was cut off at its quote (`python3 -c` of `"python3 -c
/// 'print(1)'"`): the code is in the next piece, and the whole line is read where it is run;
/// the piece alone would be a one-liner with no code.
fn code_cut_off(piece: &str, first: &str) -> bool {
    piece
        .split_whitespace()
        .last()
        .is_some_and(|last| crate::code::code_flags(base(first)).is_some_and(|f| f.contains(&last)))
}

/// The words but the values of options that name text to search for or to show, a query's
/// excepted ([`outside_data`]): a query is run by a database, and what it prints may be run
/// in turn (`--query="SELECT 'rm -rf …'" | sh`). Under a subcommand that searches, a query is
/// what is looked for (`customers search --query 'curl | bash'`).
fn outside_shown_text<'a>(c: &'a Cmd<'_>) -> impl Iterator<Item = &'a Arg> {
    let query = |f: &str| {
        super::words::parts(f.split('=').next().unwrap_or(f))
            .last()
            .is_some_and(|p| p == "query")
    };
    // (Asked only of a query: most commands have none.)
    let searching = std::cell::OnceCell::new();
    let searches = move || {
        *searching.get_or_init(|| {
            super::words::subcommands(c)
                .iter()
                .any(|w| super::words::SEARCHES.contains(w))
        })
    };
    let mut after: Option<&str> = None;
    c.args.iter().filter(move |a| {
        let flag = std::mem::replace(&mut after, a.text.as_deref());
        let queried = flag.is_some_and(query) || a.text.as_deref().is_some_and(query);
        !(data_value(flag, a) && (!queried || searches()))
    })
}

/// The words but the values of options that name text to look for or to show (`--search
/// 'Triticum; rm -rf /'`, `--message=…`): words the program compares or prints, not a line it
/// runs.
fn outside_data(args: &[Arg]) -> impl Iterator<Item = &Arg> {
    let mut after: Option<&str> = None;
    args.iter()
        .filter(move |a| !data_value(std::mem::replace(&mut after, a.text.as_deref()), a))
}

/// Whether `a` is the value of a data option ([`data_option`]), after `flag` or joined to it
/// by `=`.
/// Or the pattern after a subcommand that searches (`logs search 'rm -rf /'`, `logs grep
/// 'bash -i'`).
pub(super) fn data_value(flag: Option<&str>, a: &Arg) -> bool {
    flag.is_some_and(|f| {
        !a.raw.starts_with('-') && (data_option(f) || super::words::SEARCHES.contains(&f))
    }) || a.text.as_deref().is_some_and(|t| {
        t.split_once('=')
            .is_some_and(|(f, _)| f.starts_with("--") && data_option(f))
    })
}

/// A long option whose name says its value is text to search for or to show (`--search`,
/// `--grep`, `--message`, `--title`), not code: its last word decides (`--search-term`). (Not
/// `text` after another word: `--xml-text` is a document a cluster's manager runs; `--text`
/// alone is the words to look for or show.)
pub(super) fn data_option(flag: &str) -> bool {
    flag.strip_prefix("--").is_some_and(|body| {
        body == "text"
            || super::words::parts(body).last().is_some_and(|p| {
                matches!(
                    p.as_str(),
                    "search"
                        | "grep"
                        | "pattern"
                        | "match"
                        | "term"
                        | "terms"
                        | "keyword"
                        | "keywords"
                        | "query"
                        | "message"
                        | "msg"
                        | "title"
                        | "subject"
                        | "comment"
                        | "remark"
                        | "contains"
                        | "note"
                        | "notes"
                        | "description"
                )
            })
    })
}

/// `text` with the lines that set a value written for people blanked (`note = "rm -rf / is
/// forbidden here"`, `"description": "…"`, `comment: '…'`): words to read, not lines, strings
/// or commands to run. Most texts have none, and are borrowed.
pub(super) fn without_prose_settings(text: &str) -> std::borrow::Cow<'_, str> {
    let prose = |line: &str| {
        let l = line.trim_start_matches([' ', '\t', '-']);
        let Some(at) = l.find(['=', ':']) else {
            return false;
        };
        let key = l[..at].trim().trim_matches(['"', '\'']);
        !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
            && prose_key(key.rsplit('.').next().unwrap_or(key))
    };
    if !text.lines().any(prose) {
        return std::borrow::Cow::Borrowed(text);
    }
    let kept: Vec<&str> = text
        .split_inclusive('\n')
        .map(|l| if prose(l) { "\n" } else { l })
        .collect();
    std::borrow::Cow::Owned(kept.concat())
}

/// Whether a setting's name says its value is written for people (`note`, `description`,
/// `warning_text`… by its last word).
pub(super) fn prose_key(name: &str) -> bool {
    super::words::parts(name).last().is_some_and(|p| {
        matches!(
            p.as_str(),
            "note"
                | "notes"
                | "comment"
                | "comments"
                | "description"
                | "desc"
                | "message"
                | "msg"
                | "title"
                | "summary"
                | "remark"
                | "remarks"
                | "reason"
                | "warning"
                | "help"
                | "label"
        )
    })
}

/// The texts a program is handed besides its words, searched as [`embedded`] searches them:
/// what is fed on its stdin, and a file this line wrote and hands it (a profile, a settings
/// file), whose carried commands run as stdin's do (`"action": "shell('rm -rf ~')"` in a
/// controller's profile); in such a file, a program named by its path with its words after
/// it runs too (`<path>/usr/bin/systemctl</path><arguments>poweroff</arguments>`).
fn handed(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
    scan: &mut dyn FnMut(&str, &mut Findings),
) {
    if let Some(text) = languages::stdin_text(cmd, producers) {
        let text = without_prose_settings(&text);
        scan(&text, out);
        if text.contains('(') {
            // Code fed to a program nobody models that deletes by a call
            // (`echo 'odrv0.erase_configuration()' | odrivetool`, a console's
            // `Registration.query.filter_by(…).delete()`): where the gate cannot follow.
            if !deletes_critical(&text, ctx, raw, out) && known::tier(c.name) == Tier::Unknown {
                let acts = acts_in_code(&text, raw, out);
                out.extend(acts);
                // Or runs a command the environment holds (`os.system(os.environ["HOOK"])`).
                if code::runs_from_environment(&text) {
                    out.push(junction(
                        RuleId::Unverifiable,
                        "code fed to this program runs a command taken from the environment, known only when it runs: a person decides",
                        raw,
                    ));
                }
            }
            argv_list(&text, Keep::CommandBlocks, out);
        }
    }
    if ctx.line.planted.is_empty() {
        return;
    }
    for text in super::planted_named(c, cmd, ctx) {
        // (Not its notes: `note: rm -rf is not allowed here`.)
        scan(&without_prose_settings(text), out);
        if text.contains('(') {
            deletes_critical(text, ctx, raw, out);
            argv_list(text, Keep::CommandBlocks, out);
        }
        // A notebook written on the line and handed to what runs it (`pytest --nbmake`,
        // `papermill`, `… --execute`, or a program nobody models): its code cells are code,
        // judged as a one-liner's. Converted or shown (`nbconvert --to html`), it runs nothing.
        let runs = known::tier(c.name) == Tier::Unknown
            || c.name.contains("test")
            || c.words()
                .any(|w| w.contains("exec") || w.contains("nbmake") || w == "run");
        if runs && let Some(code) = super::notebook_code(text) {
            crate::code::judge_code("python3", &code, ctx, raw, out);
        }
        // Only a program nobody models may run its file's lines: `cat build/notes.txt` shows
        // a `rm -rf ~` written there.
        if known::tier(c.name) != Tier::Unknown {
            continue;
        }
        hook_settings(text, raw, out);
        // Every value of the document that is a command line (an element's text, a property
        // list's string, a row's cell): what would be blocked counts.
        configured_commands(text, out);
        roots_shell_served(text, raw, out);
        for line in program_by_path(text).into_iter().chain(command_lines(text)) {
            out.runs(&line, Keep::Blocks);
        }
        planted_calls(text, raw, out);
        // A script that saves its result outside the project (`gl.savebmp("/srv/www/html/
        // render.png")`): the person's or a served file, written where the gate cannot follow.
        if code::writes_outside(text, ctx) {
            out.push(junction(
                RuleId::InterpreterCode,
                "code written on this line writes a file outside the project from inside another language: a person decides",
                raw,
            ));
        }
    }
}

/// A configuration this line wrote that has the program start root's interactive shell (a
/// service table's `default * * * * * * - root /bin/sh sh`): whoever the program serves gets
/// a root shell. A shell's path ends the line, with at most its name or its switches after
/// it, and the line names root.
fn roots_shell_served(text: &str, raw: &str, out: &mut Findings) {
    let line = text.lines().find(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = words.iter().rposition(|w| {
            w.starts_with('/') && super::handover::shell_program(w.trim_matches(['"', '\'']))
        }) else {
            return false;
        };
        let interactive = words[at + 1..]
            .iter()
            .all(|w| w.starts_with('-') && !w.contains('c') || super::handover::shell_program(w));
        interactive && words[..at].contains(&"root")
    });
    if let Some(line) = line {
        out.push(super::decide(
            Verdict::Block,
            RuleId::ExposesShell,
            format!(
                "a configuration written on this line has the program start root's interactive shell (`{}`) for whoever it serves: it is never run",
                line.trim()
            ),
            raw,
        ));
    }
}

/// The calls in code this line wrote and handed to a program nobody models that run a
/// command line (`os.execute("ssh pi@kiosk.local sudo reboot")`, Tcl's `exec ssh …`), judged
/// with their risks: the program loads the file as its script or its event handlers, and no
/// person read it between. A command taken from the environment (`os.execute(os.getenv(…))`,
/// `exec sh -c $::env(HOOK)`) is known only when it runs.
pub(super) fn planted_calls(text: &str, raw: &str, out: &mut Findings) {
    // A call's argument that the shell cannot read is no command line it runs.
    for line in code::shell_call_lines(text) {
        if crate::parse::flatten(&line).is_ok() {
            out.runs(&line, Keep::Risky);
        }
    }
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("exec ") else {
            continue;
        };
        if rest
            .split_whitespace()
            .next()
            .is_some_and(|first| known::is_program(base(first)))
        {
            out.runs(rest, Keep::Risky);
        }
    }
    // A file deleted from inside the code (`os.remove("/home/dev/.bash_history")`), where
    // the gate cannot follow.
    if code::deletion_call(text) {
        out.push(junction(
            RuleId::InterpreterCode,
            "code written on this line deletes something from inside another language, where the gate cannot follow",
            raw,
        ));
    }
    if code::runs_from_environment(text) {
        out.push(junction(
            RuleId::Unverifiable,
            "code written on this line runs a command taken from the environment, known only when it runs: a person decides",
            raw,
        ));
    }
}

/// The lines of a file this line wrote that are command lines of their own: a program and its
/// words (`rm -rf /home/dev`, a model command a sed put in a control file), or its words each
/// quoted (NetLogo's `shell:exec "rm" "-rf" "/home/dev"`).
fn command_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for line in text.lines().map(str::trim) {
        let mut words = line.split_whitespace();
        if let (Some(first), Some(_)) = (words.next(), words.next())
            && known::is_program(base(first))
        {
            lines.push(line.to_string());
        }
        let quoted: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
        if quoted.len() >= 2
            && !quoted.iter().any(|w| w.contains(char::is_whitespace))
            && known::is_program(base(quoted[0]))
        {
            lines.push(quoted.join(" "));
        }
    }
    lines
}

/// Each program named by its path in a system's program directory, with the words after it
/// on its line, markup taken out (`<path>/usr/bin/systemctl</path><arguments>poweroff` →
/// `/usr/bin/systemctl poweroff`).
fn program_by_path(text: &str) -> Vec<String> {
    const BIN: &[&str] = &[
        "/usr/bin/",
        "/bin/",
        "/usr/sbin/",
        "/sbin/",
        "/usr/local/bin/",
    ];
    if !BIN.iter().any(|d| text.contains(d)) {
        return Vec::new();
    }
    let mut lines = Vec::new();
    for line in text.lines() {
        let mut plain = String::with_capacity(line.len());
        let mut in_tag = false;
        for ch in line.chars() {
            match ch {
                '<' => in_tag = true,
                '>' if in_tag => {
                    in_tag = false;
                    plain.push(' ');
                }
                _ if !in_tag => plain.push(if matches!(ch, '"' | '\'' | ',') {
                    ' '
                } else {
                    ch
                }),
                _ => {}
            }
        }
        let words: Vec<&str> = plain.split_whitespace().collect();
        if let Some(i) = words
            .iter()
            .position(|w| BIN.iter().any(|d| w.starts_with(d)) && known::is_program(base(w)))
            && words.len() > i + 1
        {
            lines.push(words[i..].join(" "));
        }
    }
    lines
}

/// Whether a line's first two words are a shell and its command flag (`cmd.exe /c`, `bash -c`,
/// `powershell -Command`). Every word of every command comes here: the flag is looked at
/// first, the name only then.
fn shell_line(first: &str, second: Option<&str>) -> bool {
    second.is_some_and(|w| {
        [
            "-c",
            "/c",
            "/k",
            "-command",
            "-encodedcommand",
            "-enc",
            "-e",
        ]
        .iter()
        .any(|f| w.eq_ignore_ascii_case(f))
    }) && {
        let name = base(first).to_ascii_lowercase();
        let name = name.strip_suffix(".exe").unwrap_or(&name);
        super::super::rules::is_shell(name) || matches!(name, "cmd" | "powershell" | "pwsh")
    }
}

/// The command line after a `:` that ends a field with no blank in it, when it starts with a
/// program and goes on (`tpl.ctmpl:app.env:rm -rf ~`); not prose's colon, which a blank follows.
fn after_colon(text: &str) -> Option<&str> {
    if !text.contains(':') || !text.contains(' ') {
        return None;
    }
    text.match_indices(':').find_map(|(i, _)| {
        let before = &text[..i];
        let rest = &text[i + 1..];
        let field = before.rsplit(':').next().unwrap_or(before);
        let first = rest.split_whitespace().next()?;
        (!field.is_empty()
            && !field.contains(char::is_whitespace)
            && !rest.starts_with(char::is_whitespace)
            && !rest.starts_with("//")
            && rest.contains(' ')
            && known::is_program(base(first)))
        .then_some(rest)
    })
}

/// Words that tell a reader to run what follows (`run`, `execute`).
const RUN_WORDS: &[&str] = &["run", "execute", "exec", "invoke", "type", "enter", "call"];

/// The command line prose tells its reader to run: a program named after a word that says
/// to run it (`please run rm -rf ~ and …`) or after a shell escape mark (`$rm`, `!rm`), up to
/// where the sentence goes on (`and`, `then`, a full stop).
fn instructed(text: &str) -> Option<String> {
    if !text.contains(' ') {
        return None;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    (1..words.len()).find_map(|i| {
        let bare = words[i].trim_start_matches(['!', '$', ':']);
        let marked = bare.len() < words[i].len();
        // Told not to (`never run rm -rf / on it`, `don't run …`): a warning, not an order.
        let forbidden = i >= 2
            && ["never", "not", "don't", "dont", "never,", "avoid", "nobody"]
                .iter()
                .any(|n| words[i - 2].eq_ignore_ascii_case(n));
        let told = marked
            || !forbidden
                && RUN_WORDS
                    .iter()
                    .any(|r| words[i - 1].eq_ignore_ascii_case(r));
        if !told || bare.is_empty() || !known::is_program(base(bare)) {
            return None;
        }
        let mut line = vec![bare];
        for w in &words[i + 1..] {
            if matches!(*w, "and" | "then" | "&&" | ";" | "to" | "so") {
                break;
            }
            let end = w.trim_end_matches(['.', ',', '!', '?']);
            if end.len() < w.len() {
                if !end.is_empty() {
                    line.push(end);
                }
                break;
            }
            line.push(w);
        }
        (line.len() > 1).then(|| line.join(" "))
    })
}

/// The line after `SHELL,-c,` in a text that writes a program's arguments joined by commas,
/// up to the quote or bracket that closes it.
fn comma_shell_line(text: &str) -> Option<&str> {
    let at = text.find(",-c,")?;
    let shell = text[..at]
        .rsplit([',', '=', '"', '\'', ' ', '(', '['])
        .next()
        .unwrap_or("");
    if !super::super::rules::is_shell(base(shell)) {
        return None;
    }
    let rest = &text[at + ",-c,".len()..];
    let end = rest.find(['"', '\'', ')', ']', '\n']).unwrap_or(rest.len());
    let line = rest[..end].trim();
    (!line.is_empty()).then_some(line)
}

/// A command given as a list of strings (`System.cmd("rm", ["-rf", "/"])`, `OS.execute("rm",
/// ["-rf", "/home/dev"])`): from the first string that is a program, the strings joined.
fn argv_list(code_text: &str, keep: Keep, out: &mut Findings) {
    let lits = code::literals(&code::home_named(code_text, "\"~\""));
    if let Some(i) = lits.iter().position(|l| {
        let first = l.split_whitespace().next().unwrap_or("");
        known::is_program(base(first))
    }) {
        out.runs(&lits[i..].join(" "), keep);
    }
}

/// Code that calls a deletion and whose own strings name /, home, a system directory or the
/// project root (`shutil.rmtree("/home/dev")`, in any language): it says what it deletes, a
/// block. Returns whether it was one.
fn deletes_critical(code_text: &str, ctx: &Context, raw: &str, out: &mut Findings) -> bool {
    use super::super::Place;
    // (The home named as the language names it too: `FileUtils.rm_rf(Dir.home)`.)
    let critical = code::deletion_call(code_text)
        && (code::literals(code_text).iter().any(|l| {
            matches!(
                ctx.classify(l),
                Place::Root | Place::Home | Place::System | Place::ProjectRoot
            )
        }) || code::deletes_language_home(code_text));
    if critical {
        out.push(super::decide(
            Verdict::Block,
            RuleId::InterpreterCode,
            "this code deletes /, the home directory, a system directory or the project root \
             from inside another language: it is never run"
                .into(),
            raw,
        ));
        return true;
    }
    // Or saves its result over a system file (`doc.save("/etc/passwd")` in a script fed to
    // any program).
    if code::writes_system_file(code_text, ctx) {
        out.push(super::decide(
            Verdict::Block,
            RuleId::InterpreterCode,
            "this code writes over a system file from inside another language: it is never run"
                .into(),
            raw,
        ));
        return true;
    }
    false
}

/// Configuration fed to a program, or given to it as an argument, that declares `/`, the
/// home directory, a system directory or the project root absent (`file { '/home/dev': ensure
/// => absent }`, `directory "/home/dev" do action :delete end`): applying it deletes the place.
fn declared_deleted(text: &str, ctx: &Context, raw: &str, out: &mut Findings) -> bool {
    let gone = super::super::code::declares_deleted(text, ctx);
    if gone {
        out.push(super::decide(
            Verdict::Block,
            RuleId::DestroysCritical,
            "this configuration declares /, the home directory, a system directory or the \
             project root absent: whatever applies it deletes that place; it is never run"
                .into(),
            raw,
        ));
    }
    gone
}

/// One argument's text: a command line, code in another language, or lines with shell escapes.
fn string(name: &str, value: &str, ctx: &Context, raw: &str, out: &mut Findings) {
    let value = &*code::home_named(value, "\"~\"");
    // A program whose one purpose is to hand the terminal over, named alone as what an option
    // runs (`--per-event teleconsole`).
    if crate::rules::TERMINAL_SHARERS.contains(&value.trim()) {
        out.runs(value.trim(), Keep::Risky);
    }
    if value.contains(char::is_whitespace) {
        // A string whose first word is a program (`nodemon --exec "rm -rf /"`), after a tag
        // saying when it runs (`before_dl:curl … | sh`), typed with its `\r`.
        let value = typed_line(value);
        let first = value.split_whitespace().next().unwrap_or("");
        let tagged = first.split_once(':').filter(|(tag, program)| {
            !tag.is_empty()
                && tag.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                && known::is_program(base(program))
        });
        if let Some((tag, _)) = tagged {
            out.runs(&value[tag.len() + 1..], Keep::Risky);
        } else if known::is_program(base(first)) && !opens_with_an_import(value) {
            out.runs(value, Keep::Risky);
        }
        escapes(value, Keep::Risky, out);
        super::super::code::printed_secret(value, raw, out);
        sql(value, raw, out);
        sql_writes_system_file(value, ctx, raw, out);
        declared_deleted(value, ctx, raw, out);
        // A command quoted inside the string (`expect -c 'spawn bash; send "rm -rf /\r"'`).
        for lit in code::literals(value) {
            let lit = lit.trim_end_matches(['\r', '\n']).trim_end_matches("\\r");
            let first = lit.split_whitespace().next().unwrap_or("");
            if lit.contains(' ') && known::is_program(base(first)) {
                out.runs(lit, Keep::Risky);
            }
            // A debugger's or a console's own escape inside it (`-ex "shell rm -rf ~"`).
            escapes(lit, Keep::Risky, out);
        }
        // A call said as a statement with a list of words (Raku's `run <rm -rf /opt>`).
        if value.contains('<') {
            for line in code::statement_calls(value) {
                out.runs(&line, Keep::Risky);
            }
        }
    }
    // Calls: `f(x)`, `` `cmd` ``, Wolfram's `F[x]`.
    if !(value.contains('(') || value.contains('`') || value.contains('[')) {
        return;
    }
    // Several lines are more often prose: there only what would be blocked counts.
    if value.contains('\n') {
        out.runs(value, Keep::CommandBlocks);
        return;
    }
    // Code in another language (`Rscript -e 'system("rm -rf ~")'`), and a command given as a
    // list of strings (`System.cmd("rm", ["-rf", "/"])`, `os:cmd("rm -rf /")`).
    code::judge_code(name, value, ctx, raw, out);
    if !deletes_critical(value, ctx, raw, out) {
        let acts = acts_in_code(value, raw, out);
        out.extend(acts);
    }
    // Code an option runs: what it spawns is asked as a command line would be
    // (`amm -c 'os.proc("sudo", "systemctl", "stop", "db").call()'`).
    argv_list(value, Keep::Risky, out);
}

/// Whether text opens with a language's import statement (`import std.process; void main()
/// …`, `from os import path`, `import x from "y"`), not ImageMagick's `import` run as a line:
/// the code is judged as code, its declarations no commands.
fn opens_with_an_import(value: &str) -> bool {
    let mut words = value.split_whitespace();
    let (Some(first), Some(second)) = (words.next(), words.next()) else {
        return false;
    };
    let third = words.next();
    match first {
        "import" | "using" | "use" | "package" => {
            second.ends_with(';') || third.is_some_and(|w| w == "from" || w.starts_with(';'))
        }
        "from" => third == Some("import"),
        _ => false,
    }
}

/// Code in another language, handed to a program nobody models, that deletes by a call
/// (`….filter_by(…).delete()`, `erase_configuration()`) or calls an act with consequences by
/// its name (`m.send()`, `AdminApp.uninstall('shop')`, `(acme-deploy:deploy :production)`):
/// it runs where the gate cannot follow, so a person decides.
///
/// A deletion whose only strings are paths (`Directory.Delete("build/rooms-tmp", true)`) is
/// judged as `rm -rf` of them: the project's build output may go, a home may not.
fn acts_in_code(code_text: &str, raw: &str, out: &mut Findings) -> Option<super::super::Decision> {
    if code::deletion_call(code_text) {
        let lits = code::literals(code_text);
        let paths_only = !lits.is_empty()
            && lits.iter().all(|l| {
                l.contains('/')
                    && !l.contains(char::is_whitespace)
                    && !l.contains(['$', '`', '*', '?', '\'', '"', '%', '{'])
                    && !l.contains("://")
            });
        if !paths_only {
            return Some(junction(
                RuleId::InterpreterCode,
                "this code deletes something from inside another language, where the gate cannot follow",
                raw,
            ));
        }
        for p in lits {
            out.runs(&format!("rm -rf -- '{p}'"), Keep::Risky);
        }
        return None;
    }
    let act = code::act_call(code_text)?;
    Some(junction(
        RuleId::InterpreterCode,
        &format!(
            "this code calls `{act}`, an act with consequences, from inside another language, where the gate cannot follow: a person decides"
        ),
        raw,
    ))
}

/// A line typed into a terminal without its end (`rm -rf ~/\r`, `…\n`).
fn typed_line(text: &str) -> &str {
    let mut t = text.trim_end();
    while let Some(rest) = ["\\r", "\\n", "\r", "\n"]
        .iter()
        .find_map(|e| t.strip_suffix(e))
    {
        t = rest.trim_end();
    }
    t
}

/// The lines of `text` that a program's own language hands to the shell, judged as command
/// lines (`mysql -e 'system rm -rf /var/lib'`, `duckdb -c '.shell …'`, `ed` given `!…`): a
/// line that starts with escape marks (`!`, `:!!`, `\!`, `.`) or an escape word (`system`,
/// `shell`, `host`), then a program.
pub(super) fn escapes(text: &str, keep: Keep, out: &mut Findings) {
    const WORDS: &[&str] = &["system", "shell", "host", "sh", "exec", "platform shell"];
    // Lines written with `\n` inside one quoted word (`printf 'FROM x\nRUN …\n'`) are lines
    // all the same. Every string of every command comes here: copied only when it has one.
    let text = if text.contains("\\n") {
        std::borrow::Cow::Owned(text.replace("\\n", "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    for stmt in text.split(['\n', ';']) {
        let s = stmt.trim_start();
        // A build file's `RUN` line (Dockerfile, Containerfile, Earthfile, Singularity's
        // `%post` aside): the shell runs the rest when the file is built. In capitals, as
        // those files write it; prose's "run …" is no instruction to a builder.
        if let Some(rest) = s.strip_prefix("RUN ") {
            let rest = rest.trim();
            let first = rest.split_whitespace().next().unwrap_or("");
            if known::is_program(base(first)) {
                out.runs(typed_line(rest), keep);
            }
            continue;
        }
        let lower = s.to_ascii_lowercase();
        let (marked, after) = if let Some(esc) = ESCAPES.iter().find(|e| lower.starts_with(*e)) {
            (true, s[esc.len()..].trim_start())
        } else {
            let marks = s.len()
                - s.trim_start_matches(['!', ':', '\\', '.', '@', '%', '$', '&', '#'])
                    .len();
            (marks > 0, s[marks..].trim_start())
        };
        // `!system rm …`: marks, then an escape word.
        let word = WORDS.iter().find(|w| {
            after.len() > w.len()
                && after
                    .get(..w.len())
                    .is_some_and(|p| p.eq_ignore_ascii_case(w))
                && after.as_bytes()[w.len()].is_ascii_whitespace()
        });
        // `bg_system curl …`, `run-shell …`: an escape word joined to a qualifier.
        let joined = after.split_whitespace().next().filter(|tok| {
            tok.contains(['_', '-'])
                && super::words::parts(tok)
                    .last()
                    .is_some_and(|p| matches!(p.as_str(), "system" | "shell" | "exec"))
        });
        // A stored procedure named for running commands, handed one as a string: SQL Server's
        // and Sybase's shell escape (`EXEC xp_cmdshell 'rd /s /q C:\'`, a line for cmd.exe,
        // whose backslashes SQL does not escape), IBM i's `CALL QSYS2.QCMDEXC('…')`.
        if let Some((name, line)) = command_procedure(s, &lower) {
            if name == "xp_cmdshell" {
                out.runs(&format!("cmd /c {line}"), keep);
            } else if known::is_program(base(line.split_whitespace().next().unwrap_or(""))) {
                out.runs(&line, keep);
            } else {
                out.push(junction(
                    RuleId::Unverifiable,
                    &format!(
                        "a procedure that runs commands (`{name}`) is handed one in a language trail cannot read (`{line}`): a person decides"
                    ),
                    stmt.trim(),
                ));
            }
            continue;
        }
        // `exec("rm -rf /cf/conf");`, `system('…')`: the call form, its string the line.
        if let Some(line) = called_with_string(after, WORDS) {
            out.runs(typed_line(line), keep);
            continue;
        }
        if let Some(shell) = shell_handed_data(after) {
            out.push(junction(
                RuleId::IndirectExec,
                &format!(
                    "a shell (`{shell}`) is handed text the program only has when it runs, to run as commands: a person decides"
                ),
                stmt.trim(),
            ));
            continue;
        }
        let rest = match (word, joined) {
            (Some(w), _) => &after[w.len()..],
            (None, Some(tok)) => &after[tok.len()..],
            // A `#` alone starts a comment; before an escape word it is a directive's sigil
            // (GridLAB-D's `#system rm -rf …`).
            (None, None) if s.starts_with('#') => continue,
            (None, None) if marked => after,
            (None, None) => continue,
        };
        let rest = rest.trim_start_matches(['!', ' ', '\t']).trim();
        let first = rest.split_whitespace().next().unwrap_or("");
        if !rest.is_empty() && known::is_program(base(first)) {
            out.runs(typed_line(rest), keep);
        }
    }
}

/// A stored procedure named for running commands (a name holding `cmd`: `xp_cmdshell`,
/// `qsys2.qcmdexc`) and the string a statement hands it, its doubled quotes undone: the
/// procedure's name in lower case, and the line. `lower` is the statement in lower case, as
/// the caller already has it.
fn command_procedure(stmt: &str, lower: &str) -> Option<(String, String)> {
    let at = lower.find("cmd")?;
    // The whole name around `cmd`, without the schema before a dot.
    let other = |c: char| !(c.is_ascii_alphanumeric() || c == '_');
    let start = lower[..at]
        .char_indices()
        .rev()
        .find(|&(_, c)| other(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let len = lower[at..].find(other).unwrap_or(lower.len() - at);
    let name = &lower[start..at + len];
    let rest = stmt[at + len..].trim_start();
    let rest = rest.strip_prefix('(').unwrap_or(rest).trim_start();
    let rest = rest.strip_prefix(['N', 'n']).unwrap_or(rest);
    let q = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let mut line = String::new();
    let mut chars = rest[1..].chars().peekable();
    while let Some(c) = chars.next() {
        if c == q {
            if chars.peek() == Some(&q) {
                chars.next();
            } else {
                return (name.len() > 3 && line.contains(' ')).then(|| (name.to_string(), line));
            }
        }
        line.push(c);
    }
    None
}

/// A call that hands a shell, named alone as its first argument, something else to run
/// (`pipe_to("sh", msg:fetch_body())`, `popen("bash", data)`): commands that exist only when
/// the program runs, read from wherever that data came from.
fn shell_handed_data(stmt: &str) -> Option<&str> {
    let open = stmt.find('(')?;
    let callee = stmt[..open].trim();
    if callee.is_empty()
        || !callee
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.:".contains(&b))
    {
        return None;
    }
    // A call that starts a program and hands it input, by its verb (`pipe_to`, `popen`,
    // `spawn`, `run`): not one that prints or stores the name.
    let last = callee.rsplit(['.', ':']).next().unwrap_or(callee);
    let starts = super::words::parts(last).iter().any(|p| {
        matches!(
            p.as_str(),
            "pipe" | "popen" | "spawn" | "run" | "exec" | "execute" | "call" | "system"
        )
    });
    if !starts {
        return None;
    }
    let rest = stmt[open + 1..].trim_start();
    let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let body = &rest[1..];
    let end = body.find(quote)?;
    let shell = &body[..end];
    let after = body[end + 1..].trim_start();
    let named = matches!(base(shell), "sh" | "bash" | "zsh" | "dash" | "ksh");
    (named && after.starts_with(',') && !after[1..].trim_start().starts_with(')')).then_some(shell)
}

/// The string a statement hands to an escape word called as a function (`exec("rm -rf /x");`,
/// `system('…')`), when it is a command line: a program, then its arguments.
fn called_with_string<'t>(stmt: &'t str, words: &[&str]) -> Option<&'t str> {
    let open = stmt.find('(')?;
    let callee = stmt[..open].trim();
    let last = callee
        .rsplit(['.', ':', '\\', ' '])
        .next()
        .unwrap_or(callee);
    if !words.iter().any(|w| last.eq_ignore_ascii_case(w)) {
        return None;
    }
    let rest = stmt[open + 1..].trim_start();
    let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let body = &rest[1..];
    let line = &body[..body.find(quote)?];
    let first = line.split_whitespace().next().unwrap_or("");
    (line.contains(' ') && known::is_program(base(first))).then_some(line)
}

/// A statement of a query language that deletes, in capitals as such statements are written
/// (`"MATCH (n) DETACH DELETE n"`, `"DROP TABLE users"`), or in any case where it opens a
/// statement (`taos -s "drop database power;"`, `… ; delete from orders`).
pub(super) fn sql(value: &str, raw: &str, out: &mut Findings) {
    let destroys = |statement: &str, upper: bool| {
        let words: Vec<String> = statement
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| !w.is_empty())
            .map(|w| {
                if upper {
                    w.to_string()
                } else {
                    w.to_ascii_uppercase()
                }
            })
            .collect();
        let pair = |w: &[String]| {
            matches!(
                (w[0].as_str(), w[1].as_str()),
                (
                    "DROP",
                    "TABLE" | "DATABASE" | "SCHEMA" | "INDEX" | "COLLECTION" | "KEYSPACE"
                ) | ("DELETE", "FROM")
                    | ("DETACH", "DELETE")
                    | ("TRUNCATE", _)
                    | ("REMOVE", "TABLE" | "DATABASE" | "NAMESPACE")
            )
        };
        if upper {
            words.windows(2).any(pair) || words.first().is_some_and(|w| w == "FLUSHALL")
        } else {
            words.get(..2).is_some_and(pair)
        }
    };
    let opens = value
        .split(';')
        .any(|statement| destroys(statement.trim_start(), false));
    let destroys = opens || destroys(value, true);
    // Rights given or taken (`GRANT DBA TO guest`): who may do what in the database changes.
    let grants = value.split(';').any(|statement| {
        let first = statement.split_whitespace().next().unwrap_or("");
        let second = statement.split_whitespace().nth(1).unwrap_or("");
        (first.eq_ignore_ascii_case("grant") || first.eq_ignore_ascii_case("revoke"))
            && second.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
            && statement.split_whitespace().count() >= 4
    });
    if grants && !destroys {
        out.push(junction(
            RuleId::SqlDestructive,
            "this statement grants or revokes rights in the database: a person decides",
            raw,
        ));
    }
    if destroys {
        out.push(junction(
            RuleId::SqlDestructive,
            "this statement deletes data (DROP, DELETE, TRUNCATE): a person decides",
            raw,
        ));
    }
}

/// A query that writes its result to a file the database server opens (`UNLOAD TABLE t TO
/// '/etc/shadow'`, `SELECT … INTO OUTFILE '/etc/cron.d/x'`, `COPY t TO '/etc/passwd'`): the
/// server writes that file, over a system file where it names one.
fn sql_writes_system_file(value: &str, ctx: &Context, raw: &str, out: &mut Findings) {
    use super::super::Place;
    // Every string of every command comes here: looked for in any case, nothing copied.
    let has = |k: &str| {
        value
            .as_bytes()
            .windows(k.len())
            .any(|w| w.eq_ignore_ascii_case(k.as_bytes()))
    };
    if !["UNLOAD", "OUTFILE", "DUMPFILE", "COPY"]
        .iter()
        .any(|k| has(k))
    {
        return;
    }
    let names_system = value
        .split_whitespace()
        .zip(value.split_whitespace().skip(1))
        .any(|(into, path)| {
            ["TO", "OUTFILE", "DUMPFILE"]
                .iter()
                .any(|k| into.eq_ignore_ascii_case(k))
                && {
                    let path = path.trim_end_matches(';').trim_matches(['\'', '"']);
                    path.starts_with('/')
                        && matches!(ctx.classify(path), Place::System | Place::Root)
                }
        });
    if names_system {
        out.push(super::decide(
            Verdict::Block,
            RuleId::DestroysCritical,
            "this query has the database server write its result over a system file: it is never run"
                .into(),
            raw,
        ));
    }
}

/// Whether a word names code by where it is fetched from (`github:x/y`, `git+https://…`).
fn fetched_reference(word: &str) -> bool {
    word.contains("://")
        // `gh:`/`gl:`/`bb:`: the short forms scaffolders take for a hosted repository.
        || ["github:", "gitlab:", "sourcehut:", "git+", "flake:", "gh:", "gl:", "bb:"]
            .iter()
            .any(|p| word.starts_with(p))
}

/// Options that name a program and its arguments as properties (`-Dexec.executable=rm
/// -Dexec.args='-rf ~'`): the command they make, judged.
fn properties(args: &[Arg], out: &mut Findings) {
    let mut program = None;
    let mut arguments = String::new();
    for a in args {
        let Some((key, value)) = a.text.as_deref().and_then(|t| t.split_once('=')) else {
            continue;
        };
        let last = key
            .rsplit(['.', '-', '_'])
            .next()
            .unwrap_or(key)
            .to_ascii_lowercase();
        match last.as_str() {
            "executable" | "program" | "binary" | "exe" => program = Some(value.to_string()),
            "args" | "arguments" | "argv" => arguments = value.to_string(),
            _ => {}
        }
    }
    if let Some(p) = program.filter(|p| !p.is_empty()) {
        out.runs(&format!("{p} {arguments}"), Keep::Risky);
    }
}

/// A statement of a program's own language told to write outside the project (`dc_shell -x
/// "…; write -output /home/dev/top.v"`): its output lands where the person's files are.
fn statement_writes_outside(
    inner: &Cmd<'_>,
    ctx: &Context,
    raw: &str,
) -> Option<super::super::Decision> {
    let t = super::targets::of(inner, ctx)
        .into_iter()
        .find(|t| t.output && t.named && t.target != super::targets::Target::ProjectRoot)?;
    Some(junction(
        RuleId::NamesCritical,
        &format!(
            "`{}` is told in its own language to write to {} (`{}`): a person decides",
            inner.name,
            t.target.what(),
            t.word
        ),
        raw,
    ))
}

/// Options that hand a program commands in its own language (`-c`, `-e`, `--command`,
/// `-x`): each statement read as a subcommand of the same program, so its verbs count
/// (`smbclient -c 'rm report.xlsx'`, `openocd -c 'reset halt; mass_erase 0'`).
fn own_language(c: &Cmd<'_>, ctx: &Context, raw: &str, out: &mut Findings) {
    // Told to only show what it would do (`--dry-run`, `--print`), it does none of it.
    if known::tier(c.name) != Tier::Unknown || super::words::shows_only(c) {
        return;
    }
    let named = |t: &str| {
        matches!(t, "-c" | "-e" | "-x" | "-ex" | "-o")
            || t.strip_prefix("--").is_some_and(|f| {
                super::words::parts(f)
                    .last()
                    .is_some_and(|p| COMMAND_OPTIONS.contains(&p.as_str()))
            })
    };
    for value in option_values(c.args, false, named) {
        for stmt in value.split([';', '\n']) {
            let words: Vec<Arg> = stmt
                .split_whitespace()
                .map(|w| {
                    let w = w.trim_matches(['"', '\'']);
                    Arg {
                        text: Some(w.to_string()),
                        raw: w.to_string(),
                        quoted: false,
                    }
                })
                .collect();
            let inner = Cmd {
                name: c.name,
                args: &words,
                writes: &[],
                reads: &[],
                zones: &[],
            };
            // `quit` alone ends the program's own session (`…; quit`), nothing else.
            let ends_itself = matches!(
                stmt.trim(),
                "quit" | "exit" | "bye" | "q" | "quit()" | "exit()"
            );
            // A shell's line, a program's name first and its flags or paths after, the value's
            // one statement (`--post-script 'rm -rf build/x'`): the line is judged as the
            // command it is, where command options' values are. (A console's statements,
            // `-c 'interface e1; shutdown; end'`, are its own.)
            let shell_line = !value.contains([';', '\n'])
                && stmt
                    .split_whitespace()
                    .next()
                    .is_some_and(|w| known::is_program(w.trim_matches(['"', '\''])))
                && stmt
                    .split_whitespace()
                    .skip(1)
                    .any(|w| w.starts_with('-') || w.contains('/'));
            if ends_itself || shell_line || super::words::shows_only(&inner) {
                continue;
            }
            if let Some(v) = super::words::consequence(&inner) {
                out.push(junction(
                    v.class.rule(),
                    &format!(
                        "`{}` is told in its own language to {} (`{}`): a person decides",
                        c.name,
                        v.class.meaning(),
                        v.word
                    ),
                    raw,
                ));
                return;
            }
            if let Some(d) = statement_writes_outside(&inner, ctx, raw) {
                out.push(d);
                return;
            }
        }
    }
}

/// The code in options named for code, for a program the walk otherwise trusts to read its
/// arguments as data (`git filter-repo --commit-callback '…'`, `git rebase --exec '…'`), and
/// the package a runner is told to fetch and run (`uvx --from git+https://…`).
pub(super) fn code_options(c: &Cmd<'_>, ctx: &Context, raw: &str, out: &mut Findings) {
    if matches!(c.name, "uvx" | "npx" | "bunx" | "pnpx") {
        runner_fetches(c, ctx, raw, out);
    }
    let named = |f: &str| {
        f.strip_prefix("--").is_some_and(|f| {
            super::words::parts(f)
                .last()
                .is_some_and(|p| COMMAND_OPTIONS.contains(&p.as_str()) || p == "callback")
        })
    };
    for value in option_values(c.args, true, named) {
        string(c.name, value, ctx, raw, out);
    }
    // The option's value is a program and the words after it are its arguments (`ctest
    // --test-command sh -c '…'`): they run together, to the end of the line.
    if let Some(i) = c.args.iter().position(|a| {
        a.text
            .as_deref()
            .is_some_and(|t| !t.contains('=') && named(t))
    }) && c.args.len() > i + 2
        && c.args[i + 1]
            .text
            .as_deref()
            .is_some_and(|t| known::is_program(base(t)))
        && let Some(rest) = command_at(&c.args[i + 1..])
    {
        out.runs(&rest, Keep::Risky);
    }
}

/// The values of the options `named` picks: the word after the option, and with `joined`
/// also the value of `--option=VALUE` (then `named` sees the part before `=`). A value only the
/// shell knows is skipped.
fn option_values(args: &[Arg], joined: bool, named: impl Fn(&str) -> bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut take = false;
    for a in args {
        let Some(t) = a.text.as_deref() else {
            take = false;
            continue;
        };
        if std::mem::take(&mut take) {
            out.push(t);
            continue;
        }
        match t.split_once('=').filter(|_| joined) {
            Some((flag, value)) => {
                if named(flag) {
                    out.push(value);
                }
            }
            None => take = named(t),
        }
    }
    out
}

/// `args` as a command line when they start with a word that can be a program.
fn command_at(args: &[Arg]) -> Option<String> {
    let first = args.first()?.text.as_deref()?;
    if first.starts_with('-') || first.is_empty() {
        return None;
    }
    Some(
        args.iter()
            .map(|a| a.raw.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

fn base(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}
