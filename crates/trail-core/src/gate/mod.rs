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
}

impl Decision {
    fn allow() -> Decision {
        Decision {
            verdict: Verdict::Allow,
            rule: None,
            reason: "no rule matched".into(),
            command: None,
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
            return vec![junction(
                "unparseable",
                &format!("the gate cannot parse this command ({msg})"),
                line,
            )];
        }
    };
    let mut out = Vec::new();
    for name in &flat.recursive_functions {
        out.push(Decision {
            verdict: Verdict::Block,
            rule: Some("fork-bomb".into()),
            reason: format!("the function `{name}` calls itself: a fork bomb is never run"),
            command: Some(line.into()),
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
        out.extend(rules::judge(cmd, &producers, ctx, depth, &|s, d| {
            findings_at(s, ctx, d)
        }));
    }
    out
}

pub(crate) fn junction(rule: &str, reason: &str, command: &str) -> Decision {
    Decision {
        verdict: Verdict::Junction,
        rule: Some(rule.into()),
        reason: reason.into(),
        command: Some(command.into()),
    }
}
