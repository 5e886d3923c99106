//! Programs that run another command: wrappers that take it as their words (`sudo`, `env`,
//! `timeout`, `xargs`…), peeled one at a time, and programs that take it as a string for a
//! shell somewhere else (`su -c`, `ssh HOST CMD`, `tmux send-keys`, `watch`).

use super::parse::Arg;

/// A shell variable's name, as an assignment before a command writes it (`DATABASE_URL=…`).
pub(super) fn variable_name(k: &str) -> bool {
    k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Peel one wrapper: the index in `argv` where the wrapped command starts.
#[expect(
    clippy::too_many_lines,
    reason = "one arm per program or flag family: a dispatch table read top to bottom"
)]
pub(super) fn unwrap(argv: &[Arg]) -> Option<usize> {
    let name = argv.first()?.text.as_deref()?;
    let name = name.rsplit('/').next().unwrap_or(name);
    let words: Vec<Option<&str>> = argv.iter().map(|a| a.text.as_deref()).collect();
    if let Some(module) = python_module(name, &words) {
        return Some(module);
    }
    if let Some(script) = interpreted_script(name, &words) {
        return Some(script);
    }
    // Flags that take a value, per wrapper.
    let (valued, positional): (&[&str], usize) = match name {
        "sudo" | "doas" => (
            &[
                "-u", "-g", "-h", "-p", "-C", "-T", "-r", "-t", "-U", "-D", "--user", "--group",
            ],
            0,
        ),
        "env" => (
            &[
                "-u",
                "-C",
                "--unset",
                "--chdir",
                "-P",
                "-S",
                "--split-string",
            ],
            0,
        ),
        // `command -v/-V` only prints what a name is.
        "command"
            if words
                .iter()
                .skip(1)
                .flatten()
                .take_while(|w| w.starts_with('-'))
                .any(|w| w.contains('v') || w.contains('V')) =>
        {
            return None;
        }
        "flock" => (&["-w", "--timeout", "-E", "--conflict-exit-code"], 1),
        "strace" | "ltrace" => (
            &[
                "-o", "-e", "-p", "-s", "-u", "-E", "-a", "-S", "-P", "-I", "-b", "-X",
            ],
            0,
        ),
        "busybox" | "firejail" | "proxychains" | "proxychains4" | "torsocks" | "torify"
        | "catchsegv" | "xvfb-run" | "dbus-launch" | "valgrind" | "unshare" | "pkexec" | "run0"
        | "rlwrap" | "with-contenv" | "dotenv" | "direnv-exec" => (&["-u", "--user"], 0),
        "chroot" | "faketime" => (&[], 1),
        // Wine runs the Windows program named after it (`wine cmd /c …`).
        "wine" | "wine64" => (&[], 0),
        // Package runners run the named package's command.
        "npx" | "bunx" | "pnpx" | "uvx" => (&["-p", "--package", "--from", "--with"], 0),
        "nsenter" => (&["-t", "--target"], 0),
        // bubblewrap's options with one value; those with two are `BWRAP_PAIRS`.
        "bwrap" => (
            &[
                "--chdir",
                "--tmpfs",
                "--proc",
                "--dev",
                "--dir",
                "--unsetenv",
                "--uid",
                "--gid",
                "--hostname",
                "--remount-ro",
                "--seccomp",
                "--perms",
                "--size",
                "--cap-add",
                "--cap-drop",
                "--lock-file",
                "--sync-fd",
                "--info-fd",
                "--block-fd",
                "--userns",
                "--userns2",
                "--pidns",
                "--argv0",
                "--exec-label",
                "--file-label",
                "--mqueue",
                "--args",
            ],
            0,
        ),
        "systemd-run" => (
            &[
                "-u",
                "--unit",
                "-p",
                "--property",
                "-E",
                "--setenv",
                "--uid",
                "--gid",
                "--nice",
                "-M",
                "--machine",
                "--description",
                "--slice",
                "-H",
                "--host",
                "--working-directory",
                "--on-active",
                "--on-calendar",
                "--on-boot",
                "--on-startup",
                "--on-unit-active",
                "--on-unit-inactive",
                "--timer-property",
            ],
            0,
        ),
        // A project's environment runs the command named after it (`bundle exec hanami
        // console`, `poetry run python …`, `uv run …`).
        "bundle" if words.get(1) == Some(&Some("exec")) => (&["--gemfile"], 1),
        "poetry" | "pipenv" | "pdm" if words.get(1) == Some(&Some("run")) => (&[], 1),
        "uv" if words.get(1) == Some(&Some("run")) => (
            &[
                "--with",
                "--python",
                "-p",
                "--project",
                "--directory",
                "--package",
                "--env-file",
                "--extra",
                "--group",
                "--index",
                "--from",
            ],
            1,
        ),
        "doppler" | "op" if words.get(1) == Some(&Some("run")) => {
            (&["--config", "-c", "--project", "-p", "--env-file"], 1)
        }
        "nice" => (&["-n", "--adjustment"], 0),
        "timeout" => (&["-s", "-k", "--signal", "--kill-after"], 1),
        "nohup" | "time" | "setsid" | "unbuffer" | "caffeinate" | "command" | "builtin"
        | "noglob" => (&[], 0),
        "exec" => (&["-a"], 0),
        "stdbuf" => (&["-i", "-o", "-e"], 0),
        "ionice" => (&["-c", "-n", "-p", "-P", "-u"], 0),
        "chrt" => (&[], 1),
        "taskset" => (&[], 1),
        "xargs" => (
            &[
                "-I",
                "-i",
                "-n",
                "-P",
                "-d",
                "-E",
                "-L",
                "-s",
                "-a",
                "--max-args",
                "--max-procs",
                "--delimiter",
                "--arg-file",
                "--replace",
            ],
            0,
        ),
        "parallel" => (&["-j", "--jobs", "-S", "--sshlogin"], 0),
        "watch" => (&["-n", "--interval", "-d"], 0),
        _ => return None,
    };
    let mut i = 1;
    let mut skip_positional = positional;
    while i < argv.len() {
        // An assignment whose value only the shell knows (`env OUT="$TMPDIR/x" prog`) is
        // still an assignment, by how it is written.
        let assigns_by_raw = matches!(name, "env" | "sudo" | "doas" | "run0")
            && argv[i]
                .raw
                .split_once('=')
                .is_some_and(|(k, _)| variable_name(k));
        // So is an option whose value only the shell knows (`--setenv=K="$PWD/x"`).
        let option_by_raw = argv[i].raw.starts_with("--") && argv[i].raw.contains('=');
        if words[i].is_none() && (assigns_by_raw || option_by_raw) {
            i += 1;
            continue;
        }
        let Some(w) = words[i] else { return Some(i) };
        if w == "--" {
            return (i + 1 < argv.len()).then_some(i + 1);
        }
        if name == "env" && w == "-" {
            i += 1;
            continue;
        }
        // `env A=1 cmd`, `sudo A=1 cmd`: assignments before the command.
        let assignment = w.split_once('=').is_some_and(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if matches!(name, "env" | "sudo" | "doas" | "run0") && assignment {
            i += 1;
            continue;
        }
        if name == "bwrap" && (BWRAP_MOUNTS.contains(&w) || BWRAP_PAIRS.contains(&w)) {
            i += 3;
            continue;
        }
        if w.starts_with('-') && w.len() > 1 {
            if valued.contains(&w) {
                i += 2;
            } else {
                i += 1;
            }
            continue;
        }
        if skip_positional > 0 {
            skip_positional -= 1;
            i += 1;
            continue;
        }
        return Some(i);
    }
    None
}

/// Whether `name` (running `argv`) starts a user's shell that reads its commands from stdin:
/// `sudo -s`, `sudo -i`, `doas -s` with no command after them, `su`/`runuser` without `-c`
/// (`sudo -s <<< "…"` runs the here-string as root).
pub(super) fn shell_on_stdin(name: &str, argv: &[Arg]) -> bool {
    let words = || argv.iter().skip(1).filter_map(|a| a.text.as_deref());
    match name {
        "sudo" | "doas" => {
            unwrap(argv).is_none()
                && words().any(|w| {
                    matches!(w, "--shell" | "--login")
                        || w.starts_with('-') && !w.starts_with("--") && w[1..].contains(['s', 'i'])
                })
        }
        "su" | "runuser" => !words().any(|w| {
            matches!(w, "-c" | "--command" | "--session-command") || w.starts_with("--command=")
        }),
        _ => false,
    }
}

/// Where `ssh`'s host is among its arguments: after its options (those that take a value
/// skip it); the words after the host are the command it runs there.
fn ssh_host_at(args: &[Arg]) -> usize {
    const VALUED: &[&str] = &[
        "-p", "-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-b", "-c", "-E", "-e", "-m", "-O",
        "-Q", "-S", "-W", "-w", "-B", "-I",
    ];
    let mut i = 0;
    while i < args.len() {
        match args[i].text.as_deref() {
            Some(w) if VALUED.contains(&w) => i += 2,
            Some(w) if w.starts_with('-') => i += 1,
            _ => break,
        }
    }
    i
}

/// The host an `ssh` with no command logs in to (`ssh operator@app.example`): a shell there,
/// for whoever holds the terminal. Not when it only forwards (`-N`, `-W`), asks (`-G`, `-Q`,
/// `-V`, `-O check`), asks for no terminal (`ssh -T git@github.com`, a Git host's check of the
/// key, which opens no shell) or names no host.
pub(super) fn ssh_login(args: &[Arg]) -> Option<&str> {
    let only_forwards_or_asks = args.iter().filter_map(|a| a.text.as_deref()).any(|w| {
        w.starts_with('-')
            && !w.starts_with("--")
            && w[1..]
                .bytes()
                .any(|b| matches!(b, b'N' | b'W' | b'G' | b'Q' | b'V' | b'O' | b'T'))
    });
    let at = ssh_host_at(args);
    let host = args.get(at)?.text.as_deref()?;
    (!only_forwards_or_asks && args.len() == at + 1).then_some(host)
}

/// The shell command line `name` would run, for programs that take one as a string:
/// `script -c`, `su -c`, `runuser -c`, `sg … -c`, `ssh HOST CMD…`, `tmux send-keys|new-session
/// … CMD`. `Some(None)` when there is one but it is not static text.
#[expect(
    clippy::too_many_lines,
    reason = "one arm per program or flag family: a dispatch table read top to bottom"
)]
pub(super) fn shell_string(name: &str, args: &[Arg]) -> Option<Option<String>> {
    let text = |a: &Arg| a.text.clone();
    match name {
        // A package runner told to run a shell line (`npx -c 'react-scripts build; …'`,
        // `pnpm dlx --call`), with the packages' commands on its path.
        "npx" | "pnpx" | "pnpm" | "bunx" => {
            let i = args
                .iter()
                .position(|a| matches!(a.text.as_deref(), Some("-c" | "--call")))?;
            Some(args.get(i + 1).and_then(text))
        }
        "script" | "su" | "runuser" | "sg" | "flock" => {
            let i = args.iter().position(|a| {
                matches!(a.text.as_deref(), Some("-c" | "--command"))
                    || a.text.as_deref().is_some_and(|t| {
                        t.len() > 2
                            && t.starts_with('-')
                            && !t.starts_with("--")
                            && t.ends_with('c')
                            && t[1..].chars().all(|c| c.is_ascii_alphabetic())
                    })
                    || a.text
                        .as_deref()
                        .is_some_and(|t| t.starts_with("--command="))
            })?;
            let a = &args[i];
            if let Some(v) = a.text.as_deref().and_then(|t| t.strip_prefix("--command=")) {
                return Some(Some(v.to_string()));
            }
            Some(args.get(i + 1).and_then(text))
        }
        "ssh" => {
            let rest = args
                .get(ssh_host_at(args) + 1..)
                .filter(|r| !r.is_empty())?;
            Some(
                rest.iter()
                    .map(text)
                    .collect::<Option<Vec<_>>>()
                    .map(|v| v.join(" ")),
            )
        }
        "tmux" | "screen" => {
            let words: Vec<Option<&str>> = args.iter().map(|a| a.text.as_deref()).collect();
            let sub = words
                .iter()
                .flatten()
                .find(|w| !w.starts_with('-'))
                .copied()?;
            let after_sub = args
                .iter()
                .skip_while(|a| a.text.as_deref() != Some(sub))
                .skip(1);
            let mut parts = Vec::new();
            let mut skip_value = false;
            for a in after_sub {
                match a.text.as_deref() {
                    _ if skip_value => skip_value = false,
                    Some("-t" | "-s" | "-n" | "-c" | "-x" | "-y" | "-F" | "-X") => {
                        skip_value = true;
                    }
                    Some(w) if w.starts_with('-') && w.len() > 1 => {}
                    Some("Enter" | "C-m" | "KPEnter") => parts.push(Some(";".to_string())),
                    _ => parts.push(text(a)),
                }
            }
            if parts.is_empty()
                || !matches!(
                    sub,
                    "send-keys"
                        | "send"
                        | "new-session"
                        | "new"
                        | "new-window"
                        | "neww"
                        | "split-window"
                        | "splitw"
                        | "run-shell"
                        | "run"
                        | "respawn-pane"
                        | "respawn-window"
                        | "stuff"
                )
            {
                return None;
            }
            Some(
                parts
                    .into_iter()
                    .collect::<Option<Vec<_>>>()
                    .map(|v| v.join(" ")),
            )
        }
        // `watch CMD…` hands its words, joined, to `sh -c`.
        "watch" => {
            let mut i = 0;
            while let Some(w) = args.get(i).and_then(|a| a.text.as_deref()) {
                match w {
                    "-n" | "--interval" => i += 2,
                    _ if w.starts_with('-') => i += 1,
                    _ => break,
                }
            }
            let rest = args.get(i..).filter(|r| !r.is_empty())?;
            Some(
                rest.iter()
                    .map(text)
                    .collect::<Option<Vec<_>>>()
                    .map(|v| v.join(" ")),
            )
        }
        _ => None,
    }
}

/// `perl SCRIPT ARGS`, `python3 tools/x.py ARGS`: a script file given to its interpreter is a
/// program, its words its own, as when it is run by its path (`pandora_manage.pl CONF
/// --delete_agent web01` asks for a deletion whichever way it starts). The index of the
/// script, after the interpreter's own flags; only a file named as a script of that language,
/// or named with no extension at all.
fn interpreted_script(name: &str, words: &[Option<&str>]) -> Option<usize> {
    let versioned = |p: &str| {
        name.strip_prefix(p)
            .is_some_and(|v| v.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
    };
    let extensions: &[&str] = if versioned("python") || versioned("pypy") {
        &["py"]
    } else if versioned("perl") {
        &["pl", "pm"]
    } else if versioned("ruby") {
        &["rb"]
    } else if versioned("php") {
        &["php"]
    } else if name == "node" || name == "nodejs" {
        &["js", "mjs", "cjs"]
    } else if name == "Rscript" {
        &["R", "r"]
    } else if name == "julia" {
        &["jl"]
    } else if matches!(name, "lua" | "luajit") {
        &["lua"]
    } else if name == "tclsh" {
        &["tcl"]
    } else if matches!(name, "sh" | "bash" | "dash" | "zsh" | "ksh" | "mksh") {
        // A shell's script file (`bash tools/sync.sh --refund 88213`): what the shell's own
        // layer reads of it (a person's act, a script this line wrote) is judged there.
        &["sh", "bash", "zsh", "ksh"]
    } else if name == "java" {
        // `java [options] -jar app.jar ARGS`: the jar is the program, its words its own
        // (`java -jar metabase.jar migrate down`).
        let at = words.iter().position(|w| *w == Some("-jar"))? + 1;
        return (at + 1 < words.len() && words[at]?.ends_with(".jar")).then_some(at);
    } else {
        return None;
    };
    let at = (1..words.len()).find(|&i| !words[i].is_some_and(|w| w.starts_with('-')))?;
    // A flag before the script that takes a value, or that is code itself (`-e`, `-c`,
    // `-m`, `-r`), leaves the first word not the script: nothing is peeled.
    let shell = extensions.contains(&"sh");
    let flags_plain = words[1..at].iter().flatten().all(|f| {
        if shell {
            // A shell's code (`-c`), its stdin as the script (`-s`), an option with a value
            // (`-o pipefail`, `--rcfile F`); `-e`, `-x`, `-eu` only change how it runs.
            return match f.strip_prefix("--") {
                Some(long) => !matches!(long, "rcfile" | "init-file"),
                None => !f[1..].contains(['c', 's', 'o', 'O']),
            };
        }
        !matches!(
            *f,
            "-e" | "-E"
                | "-c"
                | "-m"
                | "-r"
                | "-I"
                | "-W"
                | "-X"
                | "--require"
                | "--eval"
                | "-p"
                | "--print"
        )
    });
    let script = words[at]?;
    let base = script.rsplit('/').next().unwrap_or(script);
    // Or a script named without an extension, as frameworks name their consoles (`php
    // artisan`, `php bin/console`, `ruby bin/rails`, `php occ`).
    let named = match base.rsplit_once('.') {
        Some((_, ext)) => extensions.contains(&ext),
        None => {
            !base.is_empty()
                && base
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_-".contains(&b))
        }
    };
    (flags_plain && at + 1 < words.len() && named).then_some(at)
}

/// `python -m MODULE ARGS`: the module is a program, its words its own (`python3 -m pip
/// install …` is pip's install, `python3 -m pyftpdlib -w -d ~` an FTP server writing the
/// home). The index of the module's name, after the interpreter's own flags.
fn python_module(name: &str, words: &[Option<&str>]) -> Option<usize> {
    let python = ["python", "pypy"].iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|v| v.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
    });
    if !python {
        return None;
    }
    let mut i = 1;
    while let Some(Some(w)) = words.get(i) {
        match *w {
            "-m" => {
                return words
                    .get(i + 1)
                    .is_some_and(Option::is_some)
                    .then_some(i + 1);
            }
            // Flags with a value of their own.
            "-W" | "-X" => i += 2,
            _ if w.starts_with('-') && *w != "-" && *w != "-c" => i += 1,
            _ => return None,
        }
    }
    None
}

/// A file the line written to another host writes there by a redirection (`ssh HOST 'cat >
/// incoming/x.mrc'`): a remote write, whatever the program. Not the null device.
pub(super) fn remote_redirect(line: &str) -> Option<String> {
    if !line.contains('>') {
        return None;
    }
    let flat = super::parse::flatten(line).ok()?;
    flat.commands
        .iter()
        .flat_map(|cmd| &cmd.writes)
        .map(|w| w.target.clone())
        // A device there is written too (`'cat > /dev/usb/lp0'`: its printer); only the
        // streams are no file.
        .find(|t| {
            !matches!(
                t.as_str(),
                "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty"
            ) && !t.starts_with("/dev/fd/")
        })
}

/// A command of a line run on another host whose subcommand changes that host (`git pull`,
/// `docker compose up -d --build`, `npm install`, `systemctl reload x`): what is harmless here,
/// in the project, is a deployment there. The program and the word, or `None`.
pub(super) fn remote_change(line: &str) -> Option<String> {
    const CHANGES: &[&str] = &[
        "pull", "up", "install", "upgrade", "deploy", "restart", "start", "stop", "reload",
        "apply", "migrate", "checkout", "reset", "prune", "enable", "disable", "scale", "rollout",
        "rebuild", "sync",
    ];
    remote_commands(line)?.into_iter().find_map(|(name, argv)| {
        argv[1..]
            .iter()
            .filter_map(|a| a.text.as_deref())
            .filter(|w| !w.starts_with('-'))
            .take(2)
            .find(|w| CHANGES.contains(w))
            .map(|w| format!("{name} {w}"))
    })
}

/// Each command of a line, past what runs it (`sudo`, `nohup`, `timeout 60`): its program's
/// base name and its words from the program on. `None` when the line does not parse.
fn remote_commands(line: &str) -> Option<Vec<(String, Vec<Arg>)>> {
    let flat = super::parse::flatten(line).ok()?;
    Some(
        flat.commands
            .iter()
            .filter_map(|cmd| {
                let mut argv = &cmd.argv[..];
                while let Some(i) = unwrap(argv).filter(|&i| i > 0 && i < argv.len()) {
                    argv = &argv[i..];
                }
                let program = argv.first()?.text.as_deref()?;
                let name = program.rsplit('/').next().unwrap_or(program).to_string();
                Some((name, argv.to_vec()))
            })
            .collect(),
    )
}

/// The program a remote command line runs on another host, when trail does not model it and
/// none of its words only looks (`ssh game@host ./mta-server64 -n`, `ssh studio bmdcapture …
/// -f /srv/rec/live.nut`): something runs there that nobody here can judge. A looking command
/// (`gerrit ls-projects`, `'/ip route print'`) and a program trail models are judged as the line
/// is.
pub(super) fn unjudged_remote_program(line: &str) -> Option<String> {
    remote_commands(line)?.into_iter().find_map(|(name, argv)| {
        let name = name.as_str();
        // A script run there by an interpreter or a shell (`ssh pi@cabinet 'python3
        // ~/games/starter.py'`): its code is on that host, where the gate cannot read it. (Code
        // given on the line, `bash -c '…'`, is judged as the line.)
        let interpreter = super::shells::runs_code(name)
            || matches!(
                name,
                "Rscript" | "julia" | "lua" | "luajit" | "tclsh" | "groovy" | "elixir" | "raku"
            );
        if interpreter && !matches!(name, "eval" | "source" | ".") {
            let words: Vec<&str> = argv[1..].iter().filter_map(|a| a.text.as_deref()).collect();
            let inline = words.iter().any(|w| {
                matches!(*w, "-c" | "-e" | "-E" | "--eval" | "-r" | "-p" | "--print")
                    || w.starts_with("-c") && !w.starts_with("--")
            });
            if !inline && let Some(script) = words.iter().find(|w| !w.starts_with('-')) {
                return Some(format!("{name} {script}"));
            }
            return None;
        }
        if name.is_empty() || super::known::tier(name) != super::known::Tier::Unknown {
            return None;
        }
        // Told only to show what it would do, or to look.
        let looks = argv[1..].iter().filter_map(|a| a.text.as_deref()).any(|w| {
            matches!(
                w,
                "--help" | "-h" | "--version" | "-V" | "help" | "version" | "--dry-run"
            ) || crate::text::words(w)
                .iter()
                .any(|p| super::effect::words::LOOKS.contains(&p.as_str()))
        });
        (!looks).then(|| name.to_string())
    })
}

/// bubblewrap's options that mount a source at a place in the sandbox (`--bind SRC DEST`).
pub(crate) const BWRAP_MOUNTS: &[&str] = &[
    "--bind",
    "--ro-bind",
    "--dev-bind",
    "--bind-try",
    "--ro-bind-try",
    "--dev-bind-try",
    "--symlink",
];

/// bubblewrap's other options that take two values (`--setenv VAR VALUE`).
const BWRAP_PAIRS: &[&str] = &[
    "--setenv",
    "--file",
    "--bind-data",
    "--ro-bind-data",
    "--chmod",
    "--overlay-src",
];
