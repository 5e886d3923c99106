//! What runs indirectly: commands named by variables and git settings, trap handlers, jobs
//! scheduled for later, one-liners in other languages, containers that mount the host.
//! Each is judged by the command it finally runs, and scheduling or persisting a command is
//! at least a junction.

use super::code;
use super::parse::{Arg, Simple};
use super::rules::Cmd;
use super::{Context, Findings, Keep, feed, junction};
use crate::RuleId;

/// Environment variables whose value is a command some program runs.
const COMMAND_VARS: &[&str] = &[
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_PAGER",
    "PAGER",
    "MANPAGER",
    "GIT_EDITOR",
    "EDITOR",
    "VISUAL",
    "GIT_SEQUENCE_EDITOR",
    "GIT_EXTERNAL_DIFF",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "PROMPT_COMMAND",
    "LESSOPEN",
    "LESSCLOSE",
    "GIT_PROXY_COMMAND",
    "RSYNC_RSH",
    "CVS_RSH",
    "BROWSER",
];

/// Environment variables that load code into whatever runs next.
const LOADER_VARS: &[&str] = &[
    "LD_PRELOAD",
    "LD_AUDIT",
    "DYLD_INSERT_LIBRARIES",
    "BASH_ENV",
    "ENV",
    "PERL5OPT",
    // The code Perl's debugger runs first (`PERL5OPT=-d PERL5DB='BEGIN { … }'`).
    "PERL5DB",
    "NODE_OPTIONS",
    "PYTHONSTARTUP",
    "RUBYOPT",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_EXEC_PATH",
    "GIT_TEMPLATE_DIR",
    // The JVM's: agents and debug ports (`-javaagent:…`, `-agentlib:jdwp=…`).
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
];

/// git settings whose value is a command git runs.
fn git_command_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    matches!(
        k.as_str(),
        "core.fsmonitor"
            | "core.hookspath"
            | "core.pager"
            | "core.editor"
            | "core.sshcommand"
            | "core.askpass"
            | "core.gitproxy"
            | "sequence.editor"
            | "diff.external"
            | "credential.helper"
            | "gpg.program"
            | "gpg.ssh.program"
            | "sendemail.smtpserver"
            | "uploadpack.packobjectshook"
            | "protocol.ext.allow"
            | "include.path"
    ) || k.starts_with("pager.")
        || k.starts_with("filter.")
        || k.starts_with("includeif.")
        || (k.starts_with("diff.") && (k.ends_with(".textconv") || k.ends_with(".command")))
        || (k.starts_with("merge.") && k.ends_with(".driver"))
        || (k.starts_with("credential.") && k.ends_with(".helper"))
}

/// A `NAME=value` (a prefix, `export`, or `env NAME=value`) that names a command: the value is
/// judged as a command line, and code loaders are a junction.
pub(super) fn command_variable(name: &str, value: &Arg, raw: &str, out: &mut Findings) {
    // A prompt's string is expanded before each command an interactive shell reads, its
    // substitutions run (`PS0='$(… wipe --dir /var/lib/x)'`): each is a command line.
    if matches!(name, "PS0" | "PS1" | "PS2" | "PS4") {
        let text = value.text.as_deref().unwrap_or(&value.raw);
        let mut rest = text;
        while let Some(open) = rest.find("$(") {
            let inner = &rest[open + 2..];
            let Some(close) = inner.rfind(')') else { break };
            out.runs(&inner[..close], Keep::Risky);
            rest = &inner[close + 1..];
        }
        return;
    }
    // A prefix put before every command a tool runs (`CCACHE_PREFIX='distcc'`,
    // `…_PREFIX='rm -rf ~'`) is a command when it is a command line; a bare path is an
    // install prefix (`CMAKE_INSTALL_PREFIX=/usr`).
    let command_prefix = name.ends_with("_PREFIX")
        && value
            .text
            .as_deref()
            .is_some_and(|v| v.trim().contains(char::is_whitespace));
    if COMMAND_VARS.contains(&name) || names_command(name) || command_prefix {
        match value.text.as_deref() {
            Some(v) => out.runs(v, Keep::Risky),
            None => out.push(junction(
                RuleId::IndirectExec,
                &format!("{name} names a command that is only known when it runs"),
                raw,
            )),
        }
    } else if (LOADER_VARS.contains(&name)
        || name.starts_with("GIT_CONFIG_")
        // A loader's variable by its role, whoever reads it (`AFL_PRELOAD`, `LD_PRELOAD`).
        || name.ends_with("PRELOAD"))
        // Options that load nothing from outside the project (`NODE_OPTIONS=--max-old-space-
        // size=4096`, `--require ./tests/setup.js`, `PERL5OPT=-MDevel::Cover`,
        // `BASH_ENV=scripts/ci-env.sh`) are the project's own set-up.
        // Git's own variables always count: a project's config file runs what its aliases,
        // filters and fsmonitor say.
        && (name.starts_with("GIT_")
            || !value.text.as_deref().is_some_and(loads_only_from_the_project))
    {
        out.push(junction(
            RuleId::IndirectExec,
            &format!("{name} makes the next program load code the gate cannot see"),
            raw,
        ));
    }
}

/// A language's search path for the code it imports (`PYTHONPATH=/home/dev/lib landslide …`,
/// `CLASSPATH`, `NODE_PATH`): the next program loads whatever modules are there before its
/// own. The project, the system's installed libraries and their tools' places are code a
/// person installed or reviews; the home outside the project, a temporary directory or a
/// variable's value are where anything may have written it.
pub(super) fn search_path_variable(
    name: &str,
    value: &Arg,
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    const SEARCH_PATHS: &[&str] = &[
        // The programs' own: the first directory that holds a name runs it.
        "PATH",
        "PYTHONPATH",
        "NODE_PATH",
        "PERL5LIB",
        "PERLLIB",
        "RUBYLIB",
        "LUA_PATH",
        "LUA_CPATH",
        "CLASSPATH",
        "GEM_PATH",
        "LD_LIBRARY_PATH",
        "DYLD_LIBRARY_PATH",
    ];
    // Or any program's own, by its name (`MESHROOM_NODES_PATH`, `ACME_PLUGIN_DIRS`): where it
    // looks for plugins, modules or scripts to load.
    let own = name.rsplit_once('_').is_some_and(|(stem, last)| {
        matches!(last, "PATH" | "PATHS" | "DIR" | "DIRS")
            && stem.split('_').any(|w| {
                matches!(
                    w,
                    "PLUGIN"
                        | "PLUGINS"
                        | "NODES"
                        | "MODULE"
                        | "MODULES"
                        | "EXTENSION"
                        | "EXTENSIONS"
                        | "ADDON"
                        | "ADDONS"
                        | "SCRIPT"
                        | "SCRIPTS"
                        | "HOOK"
                        | "HOOKS"
                        | "LIB"
                        // Code run as the program starts (`GAFFER_STARTUP_PATHS`).
                        | "STARTUP"
                        | "AUTOLOAD"
                        | "AUTOSTART"
                )
            })
    });
    if !SEARCH_PATHS.contains(&name) && !own {
        return;
    }
    let unread = |entry: &str| {
        let entry = entry.trim_end_matches(['*', ';', '?']);
        // What a command substitution computes lies under the directory written before it
        // (`$HOME/.nvm/versions/node/$(ls …)/bin`); computed whole, it is unknown.
        let entry = entry
            .find("$(")
            .or_else(|| entry.find('`'))
            .map_or(entry, |at| &entry[..at]);
        if entry.is_empty() {
            return name != "PATH";
        }
        if entry.starts_with('$') && !entry.starts_with("$TMPDIR") {
            // A variable's value, unless it extends the same path (`$PYTHONPATH:src`), or is
            // one the gate knows (`$PWD/tests/stubs`, `$HOME/Downloads/bin`).
            if entry.starts_with(&format!("${name}")) || entry.starts_with(&format!("${{{name}")) {
                return false;
            }
            if ctx.resolve(entry).is_none() {
                return true;
            }
        }
        unread_code_place(entry, ctx)
    };
    let hidden = match value.text.as_deref() {
        Some(v) => v.split([':', ';']).any(unread),
        // Written with expansions, each entry is still read apart (`"$PWD/stubs:$PATH"`).
        None => value.raw.replace('"', "").split([':', ';']).any(unread),
    };
    if hidden {
        out.push(junction(
            RuleId::IndirectExec,
            &format!(
                "{name} makes the next program load code from a place outside the project, which no one here has read"
            ),
            raw,
        ));
    }
}

/// Whether code kept at `entry` is where anything may have written it and no one here has
/// read it: a temporary directory, or the home outside the project. Not the places a person's
/// installers put what they install (`/opt/ros/…`, `/usr/local/cuda/lib64`, `/opt/tla/
/// tla2tools.jar`, `~/.local/lib/…`).
pub(super) fn unread_code_place(entry: &str, ctx: &Context) -> bool {
    ctx.resolve(entry).is_some_and(|p| {
        let place = ctx.places.classify(&p.to_string_lossy());
        let installed = p.strip_prefix(&ctx.places.home).is_ok_and(|r| {
            r.components()
                .next()
                .is_some_and(|c| c.as_os_str().to_string_lossy().starts_with('.'))
        });
        !ctx.holds_project(&p)
            && (place == crate::Place::Tmp
                || matches!(place, crate::Place::Outside | crate::Place::Home)
                    && p.starts_with(&ctx.places.home)
                    && !installed)
    })
}

/// Whether a loader variable's value names nothing outside the project: no absolute or home
/// path, no variable, no address, no climb out (`..`).
fn loads_only_from_the_project(v: &str) -> bool {
    // Code written into the value itself (`--import data:text/javascript,…`) is no file of
    // the project.
    !v.is_empty()
        && !v.contains("data:")
        && v.split(|c: char| c.is_whitespace() || matches!(c, '=' | ',' | ';'))
            .flat_map(|w| w.split_once(':').map_or([w, ""], |(a, b)| [a, b]))
            .all(|w| {
                !(w.starts_with(['/', '~', '$'])
                    || w.starts_with("../")
                    || w.contains("://")
                    || w.contains("Downloads"))
            })
}

/// Whether a variable's name says its value is a command some program runs, by the role its
/// last word names (`BAT_PAGER`, `FZF_DEFAULT_COMMAND`, `SVN_EDITOR`, `KUBECTL_EXTERNAL_DIFF`,
/// `SATNOGS_PRE_OBSERVATION_SCRIPT`).
fn names_command(name: &str) -> bool {
    let last = name.rsplit('_').next().unwrap_or(name);
    name.contains('_')
        && matches!(
            last,
            "PAGER"
                | "EDITOR"
                | "VISUAL"
                | "COMMAND"
                | "CMD"
                | "ASKPASS"
                | "RSH"
                | "BROWSER"
                | "DIFF"
                | "HOOK"
                | "PROGRAM"
                | "EXEC"
                | "WRAPPER"
                | "LAUNCHER"
                | "SCRIPT"
                // The program a tool hands what it fetched or made (`ANI_CLI_PLAYER`,
                // `…_VIEWER`, `…_OPENER`): run with that as its argument.
                | "PLAYER"
                | "VIEWER"
                | "OPENER"
                | "HANDLER"
                | "RUNNER"
        )
}

/// `git -c key=value …` and `git config key value`: values that are commands.
fn git_settings(c: &Cmd<'_>, raw: &str, out: &mut Findings) {
    let words: Vec<Option<&str>> = c.args.iter().map(|a| a.text.as_deref()).collect();
    let judge_value = |key: &str, value: Option<&str>, persist: bool, out: &mut Findings| {
        let alias = key.to_ascii_lowercase().starts_with("alias.");
        let shell_alias = alias && value.is_some_and(|v| v.trim_start().starts_with('!'));
        if !(git_command_key(key) || shell_alias) {
            return;
        }
        if let Some(v) = value {
            out.runs(v.trim_start().trim_start_matches('!'), Keep::All);
        }
        if persist
            || key.eq_ignore_ascii_case("core.hooksPath")
            || key.eq_ignore_ascii_case("core.fsmonitor")
        {
            out.push(junction(
                RuleId::IndirectExec,
                &format!("the git setting {key} names a command git will run: a person decides"),
                raw,
            ));
        }
    };
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            Some("-c") => {
                if let Some(Some(kv)) = words.get(i + 1)
                    && let Some((k, v)) = kv.split_once('=')
                {
                    judge_value(k, Some(v), false, out);
                } else if words.get(i + 1).is_some_and(std::option::Option::is_none) {
                    out.push(junction(
                        RuleId::IndirectExec,
                        "a git setting only known when the shell runs it",
                        raw,
                    ));
                }
                i += 2;
            }
            Some("-C" | "--git-dir" | "--work-tree" | "--namespace") => i += 2,
            Some("config") => {
                let rest: Vec<Option<&str>> = words[i + 1..]
                    .iter()
                    .copied()
                    .filter(|w| !w.is_some_and(|w| w.starts_with('-')))
                    .collect();
                let rest: Vec<Option<&str>> = if rest.first() == Some(&Some("set")) {
                    rest[1..].to_vec()
                } else {
                    rest
                };
                if let [Some(k), v, ..] = rest.as_slice() {
                    judge_value(k, *v, true, out);
                }
                break;
            }
            _ => break,
        }
    }
}

/// Everything indirect about one command; the command lines it runs go back to the walk.
#[expect(
    clippy::too_many_lines,
    reason = "one arm per program or flag family: a dispatch table read top to bottom"
)]
pub(super) fn judge(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    match c.name {
        "git" => git_settings(c, raw, out),
        "env" => {
            for a in c.args {
                let Some(t) = a.text.as_deref() else { continue };
                if t.starts_with('-') {
                    continue;
                }
                let Some((k, v)) = t.split_once('=') else {
                    break;
                };
                command_variable(
                    k,
                    &Arg {
                        text: Some(v.into()),
                        raw: v.into(),
                        quoted: true,
                    },
                    raw,
                    out,
                );
            }
            // (The string joined to its flag: `--split-string='K=V cmd …'`, `-S'cmd …'`.)
            let joined = c.args.iter().find_map(|a| {
                let t = a.text.as_deref()?;
                t.strip_prefix("--split-string=")
                    .or_else(|| t.strip_prefix("-S").filter(|s| !s.is_empty()))
            });
            if let Some(s) = joined {
                out.runs(s, Keep::All);
            } else if let Some(i) = c
                .args
                .iter()
                .position(|a| matches!(a.text.as_deref(), Some("-S" | "--split-string")))
            {
                match c.args.get(i + 1).and_then(|a| a.text.as_deref()) {
                    Some(s) => out.runs(s, Keep::All),
                    None => out.push(junction(
                        RuleId::Unverifiable,
                        "env -S runs a string only known when it runs",
                        raw,
                    )),
                }
            }
        }
        "export" | "declare" | "typeset" | "local" | "readonly" => {
            for (k, v) in &cmd.assigns {
                command_variable(k, v, raw, out);
            }
        }
        "trap" => {
            // `trap 'CMD' SIGNAL…`: CMD runs when the signal (or the shell's exit) comes.
            let ops: Vec<&Arg> = c
                .args
                .iter()
                .filter(|a| !a.text.as_deref().is_some_and(|t| t.starts_with('-')))
                .collect();
            if ops.len() >= 2 {
                match ops[0].text.as_deref() {
                    Some(s) => out.runs(s, Keep::All),
                    None => out.push(junction(
                        RuleId::Unverifiable,
                        "the trap handler is only known when it runs",
                        raw,
                    )),
                }
            }
        }
        "crontab" => {
            let installs = c.args.iter().any(|a| {
                a.text
                    .as_deref()
                    .is_none_or(|t| !t.starts_with('-') || t == "-")
            });
            if installs {
                if let Some(text) = producers
                    .iter()
                    .filter_map(|p| feed::printed_text(p))
                    .reduce(|a, b| a + "\n" + &b)
                {
                    for line in cron_commands(&text, false) {
                        out.runs(&line, Keep::All);
                    }
                }
                out.push(junction(
                    RuleId::Schedule,
                    "this replaces the scheduled jobs (crontab), which run later when no one is watching: a person decides",
                    raw,
                ));
            }
        }
        "systemd-run" | "launchctl" | "schtasks" => {
            let scheduling = match c.name {
                "launchctl" => c
                    .args
                    .iter()
                    .any(|a| matches!(a.text.as_deref(), Some("load" | "bootstrap" | "submit"))),
                "systemd-run" => !runs_now(c),
                _ => true,
            };
            if scheduling {
                out.push(junction(
                    RuleId::Schedule,
                    "this starts or schedules a job outside the session: a person decides",
                    raw,
                ));
            }
        }
        "docker" | "podman" | "nerdctl" => containers(c, ctx, raw, out),
        "pwsh" | "powershell" | "pwsh.exe" | "powershell.exe" | "cmd" | "cmd.exe" => {
            // PowerShell code is judged by the PowerShell reader, with the same families; so
            // is a cmd.exe line (`cmd /c "rd /s /q C:\Users\dev"`), which it translates.
            let words: Vec<String> = c
                .args
                .iter()
                .map(|a| a.text.clone().unwrap_or_else(|| a.raw.clone()))
                .collect();
            let quoted: Vec<String> = words
                .iter()
                .map(|w| {
                    if w.contains(' ') {
                        format!("'{}'", w.replace('\'', "''"))
                    } else {
                        w.clone()
                    }
                })
                .collect();
            let shell = if c.name.starts_with("cmd") {
                "cmd"
            } else {
                "pwsh"
            };
            out.runs_powershell(format!("{shell} {}", quoted.join(" ")));
        }
        _ => {}
    }
    // SQL fed on stdin: judged when the producers print static text, asked about otherwise.
    if super::rules::sql_client(c.name) && (!producers.is_empty() || cmd.heredoc.is_some()) {
        let text = match &cmd.heredoc {
            Some(h) => Some(h.clone()),
            None => producers
                .iter()
                .map(|p| feed::printed_text(p))
                .collect::<Option<Vec<_>>>()
                .map(|v| v.join("\n")),
        };
        if text.as_deref().is_none_or(super::rules::destructive_sql) {
            out.push(junction(
                RuleId::SqlDestructive,
                "SQL fed to a database client drops, deletes or changes data (or cannot be read before it runs)",
                raw,
            ));
        }
    }
    if let Some(one) = code::one_liner(c.name, c.args) {
        match one {
            Some(code) => code::judge_code(c.name, &code, ctx, raw, out),
            None => match code::expanded_one_liner(c.name, c.args, ctx) {
                Some(code) => code::judge_code(c.name, &code, ctx, raw, out),
                // The one-liner is a download's text (`Rscript -e "$(curl -fsSL URL)"`): code
                // fetched from the network, run unread, as a shell's `bash -c "$(curl …)"` is.
                None if super::shells::fetched_in_words(c.args) => out.push(super::block(
                    RuleId::RemoteCode,
                    super::shells::REMOTE_REASON.into(),
                    raw,
                )),
                None => out.push(junction(
                    RuleId::InterpreterCode,
                    "the code of this one-liner is only known when it runs",
                    raw,
                )),
            },
        }
    }
    super::languages::judge(c.name, c.args, cmd, producers, ctx, raw, out);
}

/// `systemd-run` with no timer, on this machine: the unit starts now, as `nohup CMD &` would,
/// and is judged as what it runs; a timer (`--on-active=`, `--on-calendar=`) leaves a job to
/// run later, and `-H`/`-M` run it on another machine. (Every word is read: a timer's flag
/// after a property's value still schedules, and one of the command's own is asked about.)
fn runs_now(c: &Cmd<'_>) -> bool {
    !c.args.iter().filter_map(|a| a.text.as_deref()).any(|t| {
        let flag = t.split('=').next().unwrap_or(t);
        flag.starts_with("--on-")
            || matches!(
                flag,
                "--timer-property" | "-H" | "--host" | "-M" | "--machine"
            )
    })
}

/// `docker run -v HOST:CONTAINER … IMAGE CMD`: the command is judged with container paths
/// mapped back to the host; mounting the host's root, home or system is a junction at least.
#[expect(
    clippy::too_many_lines,
    reason = "one arm per program or flag family: a dispatch table read top to bottom"
)]
fn containers(c: &Cmd<'_>, ctx: &Context, raw: &str, out: &mut Findings) {
    let words: Vec<&Arg> = c.args.iter().collect();
    let Some(run) = words
        .iter()
        .position(|a| matches!(a.text.as_deref(), Some("run" | "exec" | "create")))
    else {
        return;
    };
    if words[..run].iter().any(|a| {
        a.text.as_deref().is_some_and(|t| !t.starts_with('-'))
            && a.text.as_deref() != Some("container")
    }) {
        return;
    }
    const VALUED: &[&str] = &[
        "-v",
        "--volume",
        "--mount",
        "-e",
        "--env",
        "-p",
        "--publish",
        "--name",
        "-w",
        "--workdir",
        "-u",
        "--user",
        "--network",
        "--net",
        "--entrypoint",
        "-l",
        "--label",
        "--env-file",
        "--platform",
        "-h",
        "--hostname",
        "--add-host",
        "--device",
        "--cap-add",
        "--cap-drop",
        "--restart",
        "-m",
        "--memory",
        "--cpus",
        "--pid",
        "--ipc",
        "--security-opt",
        "--tmpfs",
        "--log-driver",
        "--gpus",
        "--shm-size",
        "--ulimit",
        "--dns",
        "--volumes-from",
    ];
    let mut mounts: Vec<(String, String)> = Vec::new();
    let mut risky = Vec::new();
    let mut pid_host = false;
    let mut i = run + 1;
    let mut image = None;
    while i < words.len() {
        let raw_w = words[i].raw.as_str();
        let t = words[i].text.as_deref();
        let (flag, value) = match t {
            Some(w) if w.starts_with('-') => match w.split_once('=') {
                Some((f, v)) => (Some(f), Some(v.to_string())),
                None if VALUED.contains(&w) => {
                    i += 1;
                    (Some(w), words.get(i).map(|a| a.raw.clone()))
                }
                None => (Some(w), None),
            },
            _ => (None, None),
        };
        match (flag, value) {
            (Some("-v" | "--volume"), Some(v)) => {
                let v = v.trim_matches(['"', '\'']).to_string();
                if let Some((host, rest)) = v.split_once(':') {
                    let dest = rest.split(':').next().unwrap_or(rest).to_string();
                    mounts.push((host.to_string(), dest));
                }
            }
            (Some("--mount"), Some(v)) => {
                let field = |k: &str| {
                    v.split(',')
                        .find_map(|f| f.strip_prefix(k).map(str::to_string))
                };
                if let (Some(src), Some(dst)) = (
                    field("source=").or(field("src=")),
                    field("target=").or(field("dst=")).or(field("destination=")),
                ) {
                    mounts.push((src, dst));
                }
            }
            (Some("--privileged"), _) => risky.push("--privileged".to_string()),
            (Some("--pid"), Some(v)) if v == "host" => pid_host = true,
            (Some("--net" | "--network" | "--ipc"), Some(v)) if v == "host" => {}
            (None, _) => {
                image = Some(i);
                let _ = raw_w;
                break;
            }
            _ => {}
        }
        i += 1;
    }
    for (host, _) in &mounts {
        if matches!(
            ctx.classify(host),
            super::Place::Root | super::Place::Home | super::Place::System
        ) {
            risky.push(host.clone());
        }
    }
    if !risky.is_empty() {
        out.push(junction(
            RuleId::ContainerHost,
            &format!(
                "this container gets the host's {}: what runs inside can change the machine",
                risky.join(", ")
            ),
            raw,
        ));
    }
    // The command run inside, with container paths mapped back to the host.
    let Some(img) = image else { return };
    // Privileged and in the host's process namespace, `nsenter -t 1 …` enters init's
    // namespaces: what it runs runs on this machine, as `sudo nsenter -t 1 …` would.
    if pid_host && risky.iter().any(|r| r == "--privileged") {
        let inner: Vec<&str> = words[img + 1..]
            .iter()
            .map(|a| a.text.as_deref().unwrap_or(a.raw.as_str()))
            .collect();
        if let Some(line) = entered_on_the_host(&inner) {
            out.runs(&line, Keep::All);
        }
    }
    if img + 1 >= words.len() || mounts.is_empty() {
        return;
    }
    let inner: Vec<String> = words[img + 1..]
        .iter()
        .map(|a| a.text.clone().unwrap_or_else(|| a.raw.clone()))
        .collect();
    let line = if matches!(
        inner.first().map(String::as_str),
        Some("sh" | "bash" | "ash")
    ) && inner.get(1).map(String::as_str) == Some("-c")
    {
        inner.get(2).cloned().unwrap_or_default()
    } else {
        inner.join(" ")
    };
    let _ = c;
    out.runs(&through_mounts(&line, &mounts, ctx), Keep::Blocks);
}

/// The command `nsenter --target 1 …` runs, past its options (`nsenter -t 1 -m -u -i -n -p
/// CMD …`): in init's namespaces, on the host.
fn entered_on_the_host(words: &[&str]) -> Option<String> {
    if words.first() != Some(&"nsenter") {
        return None;
    }
    let mut i = 1;
    let mut init = false;
    while let Some(w) = words.get(i) {
        match *w {
            "-t" | "--target" => {
                init |= words.get(i + 1) == Some(&"1");
                i += 2;
            }
            "--" => {
                i += 1;
                break;
            }
            _ if w.starts_with("--target=") => {
                init |= *w == "--target=1";
                i += 1;
            }
            _ if w.starts_with('-') => i += 1,
            _ => break,
        }
    }
    (init && i < words.len()).then(|| words[i..].join(" "))
}

/// `line` with the paths inside bind mounts written as the host's paths they are
/// (`rm -rf /host/home/dev` with `/` mounted at `/host` is `rm -rf /home/dev`).
pub(super) fn through_mounts(line: &str, mounts: &[(String, String)], ctx: &Context) -> String {
    let map = |s: &str| -> String {
        for (host, dest) in mounts {
            if dest.len() > 1 && (s == dest || s.starts_with(&format!("{dest}/"))) {
                let host = ctx
                    .resolve(host)
                    .map_or_else(|| host.clone(), |p| p.to_string_lossy().into_owned());
                let host = host.trim_end_matches('/');
                let inside = &s[dest.len()..];
                // The mount point itself is the host's directory (`/host` of `/:/host` is `/`).
                if host.is_empty() && inside.is_empty() {
                    return "/".to_string();
                }
                return format!("{host}{inside}");
            }
        }
        s.to_string()
    };
    line.split(' ').map(map).collect::<Vec<_>>().join(" ")
}

/// The bind mounts any program is given, as (host path, path inside): `-v /:/host`,
/// `--volume=/home/dev:/w`, `--bind=/:/host` (systemd-nspawn), `--bind / /host` (bwrap),
/// `--mount type=bind,source=/,target=/host`.
pub(super) fn bind_mounts(args: &[Arg]) -> Vec<(String, String)> {
    let texts: Vec<&str> = args
        .iter()
        .map(|a| a.text.as_deref().unwrap_or(""))
        .collect();
    let mut out = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        let (flag, inline) = match t.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f, Some(v)),
            _ => (*t, None),
        };
        // A virtual machine's shared directory, seen in the guest under its tag (QEMU's
        // `-virtfs local,path=/,mount_tag=host`, `-fsdev local,path=/,…` with the device's
        // `mount_tag=`; libvirt's `--filesystem source=/,target=host`): the host's place as
        // `/TAG` there, where the guest mounts it by that name.
        if matches!(flag, "-virtfs" | "-fsdev" | "--filesystem") {
            let value = inline.or_else(|| texts.get(i + 1).copied()).unwrap_or("");
            let field = |k: &str| value.split(',').find_map(|f| f.strip_prefix(k));
            let tag = field("mount_tag=").or(field("target=")).or_else(|| {
                texts
                    .iter()
                    .find_map(|w| w.split(',').find_map(|f| f.strip_prefix("mount_tag=")))
            });
            if let (Some(src), Some(tag)) = (field("path=").or(field("source=")), tag) {
                out.push((src.to_string(), format!("/{}", tag.trim_start_matches('/'))));
            }
            continue;
        }
        // (minikube's `--mount-string=/:/h`, as `-v` writes it.)
        if !matches!(
            flag,
            "-v" | "--volume" | "--bind" | "--bind-mount" | "--mount" | "--mount-string"
        ) {
            continue;
        }
        let value = inline.or_else(|| texts.get(i + 1).copied()).unwrap_or("");
        let value = value.trim_matches(['"', '\'']);
        if flag == "--mount" {
            let field = |k: &str| value.split(',').find_map(|f| f.strip_prefix(k));
            if let (Some(src), Some(dst)) = (
                field("source=").or(field("src=")),
                field("target=").or(field("dst=")).or(field("destination=")),
            ) {
                out.push((src.to_string(), dst.to_string()));
            }
        } else if let Some((host, rest)) = value.split_once(':') {
            let dest = rest.split(':').next().unwrap_or(rest);
            out.push((host.to_string(), dest.to_string()));
        } else if inline.is_none()
            && let Some(dest) = texts.get(i + 2).filter(|d| d.starts_with('/'))
        {
            out.push((value.to_string(), (*dest).to_string()));
        }
    }
    out
}

/// The commands of a cron table's lines: after five time fields or one of cron's `@` names
/// (`@reboot`, `@daily`), and a user's name in a system table (`/etc/crontab`,
/// `/etc/cron.d/*`). Comments and variable settings (`SHELL=/bin/bash`) run nothing.
pub(super) fn cron_commands(text: &str, user_field: bool) -> Vec<String> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let first = words.first()?;
            if first.contains('=') {
                return None;
            }
            let fields = if first.starts_with('@') { 1 } else { 5 } + usize::from(user_field);
            (words.len() > fields).then(|| words[fields..].join(" "))
        })
        .collect()
}
