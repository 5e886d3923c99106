//! The gate: decides, before a shell command runs, whether it may (allow), needs a human
//! (junction), or must never run (block).
//!
//! 1. [`parse::flatten`] turns the command line into the simple commands it would run.
//! 2. Wrappers are seen through (`sudo`, `env`, `nice`, `timeout`, `nohup`, `command`, `exec`,
//!    `xargs`, `find -exec`, `parallel`), and strings handed to a shell are parsed in turn
//!    (`bash -c`, `sh -c`, `eval`, a heredoc fed to a shell).
//! 3. Every command is matched against [`rules::RULES`]; the worst verdict wins. Anything the
//!    gate cannot see through is at least a junction. Quoted text is data: `echo "rm -rf /"`
//!    runs `echo`.
//!
//! The gate reads no state and writes none; `trail gate -- CMD` shows its verdict.

pub mod code;
pub mod custom;
pub mod indirect;
pub mod parse;
pub mod paths;
pub mod powershell;
pub mod rules;
pub mod zones;

use serde::Serialize;

pub use paths::{Place, Places};

/// The gate's verdicts, ordered: the worst wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allow,
    Junction,
    Block,
}

/// The gate's answer for one command line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub verdict: Verdict,
    /// The rule that decided (absent for allow).
    pub rule: Option<String>,
    pub reason: String,
    /// The simple command that decided, as written.
    pub command: Option<String>,
    /// What that command reaches, as written: its operands and redirection targets (what a
    /// person's dismissal is scoped to).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
}

impl Decision {
    fn allow() -> Decision {
        Decision {
            verdict: Verdict::Allow,
            rule: None,
            reason: "no rule matched".into(),
            command: None,
            targets: Vec::new(),
        }
    }
}

/// What the gate needs to know about where it runs.
#[derive(Clone, Debug)]
pub struct Context {
    pub places: Places,
    /// Whether a path inside the project is git-ignored build output (safe to delete).
    pub ignored: fn(&Places, &std::path::Path) -> bool,
    /// Rules added in configuration (checked after the built-in ones).
    pub extra: Vec<custom::UserRule>,
    /// Hosts whose installers a person trusts (`gate.trusted_installers` in the user's own
    /// config): their scripts piped to a shell are a junction, not a block.
    pub trusted_installers: Vec<String>,
    /// What earlier commands of the same line set up: variables, `cd` into the unknown,
    /// symlinks. Empty when judging starts.
    pub line: Line,
}

/// What the earlier commands of one line changed for the later ones.
#[derive(Clone, Debug, Default)]
pub struct Line {
    /// `X=value` and `export X=value` (the value as written).
    pub vars: Vec<(String, String)>,
    /// After `cd "$SOMEWHERE"`: relative paths land where only the shell knows.
    pub cwd_unknown: bool,
    /// `ln -s TARGET LINK`: paths under LINK land under TARGET.
    pub links: Vec<(std::path::PathBuf, std::path::PathBuf)>,
    /// Files fetched from the network (`curl -o F`, `wget -O F`): running one runs remote code.
    pub fetched: Vec<std::path::PathBuf>,
}

impl Context {
    /// A context that asks git (`git check-ignore`) about ignored paths.
    pub fn new(places: Places) -> Context {
        Context {
            places,
            ignored: git_ignored,
            extra: Vec::new(),
            trusted_installers: Vec::new(),
            line: Line::default(),
        }
    }

    /// A word as a path, after what this line did to variables, the working directory and
    /// symlinks: `None` when only the shell knows.
    pub fn resolve(&self, raw: &str) -> Option<std::path::PathBuf> {
        let expanded;
        let mut word = raw;
        if raw.contains('$') && !self.line.vars.is_empty() {
            expanded = self.expand_line_vars(raw);
            word = &expanded;
        }
        if self.line.cwd_unknown {
            let bare = word.trim_start_matches(['"', '\'']);
            if !(bare.starts_with('/') || bare.starts_with('~') || bare.starts_with('$')) {
                return None;
            }
        }
        let mut p = self.places.resolve(word)?;
        for (link, target) in &self.line.links {
            if let Ok(rest) = p.strip_prefix(link) {
                p = target.join(rest);
                break;
            }
        }
        Some(p)
    }

    /// Where a word lands, judged. A path in a temporary directory counts as temporary only if
    /// its real target is there too (a symlink in `/tmp` may lead home): that one case asks the
    /// filesystem.
    pub fn classify(&self, raw: &str) -> Place {
        let Some(p) = self.resolve(raw) else {
            return Place::Unknown;
        };
        let text = p.to_string_lossy();
        let place = self.places.classify(&text);
        if place == Place::Tmp {
            let real = zones::real(&p);
            if real != p {
                let again = self.places.classify(&real.to_string_lossy());
                if again != Place::Tmp {
                    return again;
                }
            }
        }
        place
    }

    /// `$X` and `${X…}` replaced by values this line assigned.
    pub(crate) fn expand_line_vars(&self, raw: &str) -> String {
        let mut out = raw.to_string();
        for (name, value) in self.line.vars.iter().rev() {
            let braced = format!("${{{name}}}");
            if out.contains(&braced) {
                out = out.replace(&braced, value);
            }
            // `$X`, but not the start of `$XY`.
            let bare = format!("${name}");
            let mut from = 0;
            while let Some(i) = out[from..].find(&bare).map(|i| i + from) {
                let end = i + bare.len();
                if out[end..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    from = end;
                    continue;
                }
                out.replace_range(i..end, value);
                from = i + value.len();
            }
            // `${X:-…}` and friends take the assigned value.
            while let Some(i) = out.find(&format!("${{{name}:")) {
                let Some(end) = out[i..].find('}') else { break };
                out.replace_range(i..i + end + 1, value);
            }
        }
        out
    }
}

/// Asks git whether `path` is ignored in the project. Only called for recursive deletions
/// inside the project, never on the common path.
pub fn git_ignored(places: &Places, path: &std::path::Path) -> bool {
    std::process::Command::new("git")
        .arg("-C")
        .arg(&places.project_root)
        .args(["check-ignore", "-q", "--"])
        .arg(path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// How deep `bash -c 'bash -c …'` may nest before the gate stops looking (and asks a human).
const MAX_NESTING: usize = 8;

/// Judge a command line: the worst of everything that matched (allow when nothing did).
pub fn evaluate(line: &str, ctx: &Context) -> Decision {
    let mut worst = Decision::allow();
    for d in findings(line, ctx) {
        if d.verdict > worst.verdict {
            worst = d;
        }
    }
    worst
}

/// Every rule that matched anywhere in the command line, in order.
pub fn findings(line: &str, ctx: &Context) -> Vec<Decision> {
    findings_at(line, ctx, 0)
}

pub(crate) fn findings_at(line: &str, ctx: &Context, depth: usize) -> Vec<Decision> {
    if depth > MAX_NESTING {
        return vec![junction(
            "unverifiable",
            "shells nested too deeply to follow",
            line,
        )];
    }
    let flat = match parse::flatten(line) {
        Ok(f) => f,
        Err(msg) => {
            // Unknown is a junction at least; and whatever parses of its pieces is still
            // judged, so a parser's blind spot never lowers a block (`$( { case … esac; } )`).
            let mut out = vec![junction(
                "unparseable",
                &format!("the gate cannot parse this command ({msg})"),
                line,
            )];
            for piece in pieces(line) {
                out.extend(
                    findings_at(piece, ctx, depth + 1)
                        .into_iter()
                        .filter(|d| d.verdict == Verdict::Block),
                );
            }
            return out;
        }
    };
    let mut out = Vec::new();
    // `cd` moves where later relative paths land (`cd .trail && … >> state/grants.jsonl`).
    let mut here: Option<Context> = None;
    for name in &flat.recursive_functions {
        out.push(Decision {
            verdict: Verdict::Block,
            rule: Some("fork-bomb".into()),
            reason: format!("the function `{name}` calls itself: a fork bomb is never run"),
            command: Some(line.into()),
            targets: Vec::new(),
        });
    }
    for why in &flat.opaque {
        out.push(junction(
            "unverifiable",
            &format!("the gate cannot see through {why}"),
            line,
        ));
    }
    for cmd in &flat.commands {
        let producers: Vec<&parse::Simple> = cmd
            .piped_from
            .iter()
            .filter_map(|&j| flat.commands.get(j))
            .collect();
        let cx = here.as_ref().unwrap_or(ctx);
        out.extend(rules::judge(cmd, &producers, cx, depth, &|s, d| {
            findings_at(s, cx, d)
        }));
        if let Some(next) = after(cx, cmd) {
            here = Some(next);
        }
    }
    out
}

/// The context for the rest of the line after `cmd`, when `cmd` changes it: `cd`, a variable
/// assignment, `ln -s`, a download to a file.
fn after(ctx: &Context, cmd: &parse::Simple) -> Option<Context> {
    match cmd.name() {
        Some("cd" | "pushd") => Some(moved(ctx, cmd)),
        None | Some("export" | "declare" | "typeset" | "readonly" | "local")
            if !cmd.assigns.is_empty() && (cmd.argv.len() <= 1) =>
        {
            let mut next = ctx.clone();
            for (name, value) in &cmd.assigns {
                let v = value.text.clone().unwrap_or_else(|| value.raw.clone());
                next.line.vars.push((name.clone(), v));
            }
            Some(next)
        }
        Some("ln") => {
            let symbolic = cmd.argv[1..].iter().any(|a| {
                a.text.as_deref().is_some_and(|t| {
                    t == "--symbolic"
                        || (t.starts_with('-') && !t.starts_with("--") && t.contains('s'))
                })
            });
            let ops: Vec<&str> = cmd.argv[1..]
                .iter()
                .map(|a| a.raw.as_str())
                .filter(|t| !t.starts_with('-'))
                .collect();
            if !symbolic || ops.len() != 2 {
                return None;
            }
            let mut next = ctx.clone();
            match (ctx.resolve(ops[0]), ctx.resolve(ops[1])) {
                (Some(target), Some(link)) => next.line.links.push((link, target)),
                // A link to somewhere only the shell knows: anything under it is unknown.
                (None, Some(link)) => next.line.links.push((link, "/".into())),
                _ => return None,
            }
            Some(next)
        }
        Some("curl" | "wget" | "aria2c" | "fetch" | "iwr" | "Invoke-WebRequest") => {
            let words: Vec<&str> = cmd.argv.iter().map(|a| a.raw.as_str()).collect();
            let file = words.windows(2).find_map(|w| {
                matches!(
                    w[0],
                    "-o" | "-O" | "--output" | "--output-document" | "-OutFile"
                )
                .then_some(w[1])
            })?;
            let mut next = ctx.clone();
            next.line.fetched.push(ctx.resolve(file)?);
            Some(next)
        }
        _ => None,
    }
}

/// A line the parser refused, cut at the shell's command separators and brackets: each piece
/// may still parse on its own. Quotes are not respected here, which only adds pieces.
fn pieces(line: &str) -> Vec<&str> {
    line.split([';', '&', '|', '(', ')', '{', '}', '`', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty() && *p != line.trim())
        .collect()
}

/// The context after `cd DIR`: relative paths now land under DIR (`cd` alone goes home).
fn moved(ctx: &Context, cd: &parse::Simple) -> Context {
    let mut next = ctx.clone();
    let target = cd.argv[1..]
        .iter()
        .find(|a| !a.raw.starts_with('-') || a.raw == "-");
    match target {
        None => next.places.cwd = ctx.places.home.clone(),
        Some(a) => match ctx.resolve(&a.raw) {
            Some(p) => {
                next.places.cwd = p;
                next.line.cwd_unknown = false;
            }
            // `cd "$OLDPWD"`, `cd -`: from here on, relative paths land where only the
            // shell knows.
            None => next.line.cwd_unknown = true,
        },
    }
    next
}

pub(crate) fn junction(rule: &str, reason: &str, command: &str) -> Decision {
    Decision {
        verdict: Verdict::Junction,
        rule: Some(rule.into()),
        reason: reason.into(),
        command: Some(command.into()),
        targets: Vec::new(),
    }
}
