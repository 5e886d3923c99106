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

pub mod custom;
pub mod parse;
pub mod paths;
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
}

impl Context {
    /// A context that asks git (`git check-ignore`) about ignored paths.
    pub fn new(places: Places) -> Context {
        Context {
            places,
            ignored: git_ignored,
            extra: Vec::new(),
        }
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

fn findings_at(line: &str, ctx: &Context, depth: usize) -> Vec<Decision> {
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
        if matches!(cmd.name(), Some("cd" | "pushd")) {
            here = Some(moved(cx, cmd));
        }
    }
    out
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
        Some(a) => {
            if let Some(p) = ctx.places.resolve(&a.raw) {
                next.places.cwd = p;
            }
        }
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
