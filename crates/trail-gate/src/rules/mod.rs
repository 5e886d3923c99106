//! The gate's rules, as data: each has an id, a verdict, the kind of junction it raises, the
//! reason people read, a matcher over the command's words, and examples that must and must not
//! match (a test walks them all).
//!
//! Matchers look at words after the parser removed quotes, never at raw text, so quoted data
//! (`echo "rm -rf /"`, `grep 'DROP TABLE'`) is not mistaken for a command.
//!
//! [`RULES`] are matched against every command; [`EMITTED`] are the rules the walk applies
//! itself (a line it cannot parse, a name it cannot know, code piped into a shell). Together
//! they name every rule a decision can carry: [`kind_of`] answers for any of them.

mod credentials;
pub(crate) mod deletion;
mod emitted;
mod git;
mod id;
mod network;
mod person;
mod programs;
mod release;
mod system;
mod table;

pub(crate) use credentials::{PRINTERS, credential_path, names_a_secret, names_credential};
pub use emitted::EMITTED;
pub(crate) use git::NARROWING;
pub use id::RuleId;
pub use person::is_edge_decision;
pub(crate) use person::runs_person_act;
pub(crate) use programs::{TERMINAL_SHARERS, destructive_sql, is_shell, sql_client};
pub use table::RULES;

use super::parse::{Arg, Write};
use super::zones::{Access, Zone};
use super::{Context, Verdict};

/// One command as a rule sees it, after wrappers were peeled off.
pub struct Cmd<'a> {
    /// Basename of the program.
    pub name: &'a str,
    /// Its arguments.
    pub args: &'a [Arg],
    /// Where its output is redirected.
    pub writes: &'a [Write],
    /// Files redirected into its stdin.
    pub reads: &'a [String],
    /// The protected places its words and redirections reach, and how.
    pub zones: &'a [(Zone, Access)],
}

impl Cmd<'_> {
    fn touches(&self, zone: Zone, access: Option<Access>) -> bool {
        self.zones
            .iter()
            .any(|&(z, a)| z == zone && access.is_none_or(|x| x == a))
    }

    /// Static argument texts (dynamic words are left out).
    pub(super) fn words(&self) -> impl Iterator<Item = &str> {
        self.args.iter().filter_map(|a| a.text.as_deref())
    }

    /// Static words before `--` (after it, `-rf` is a file name).
    pub(super) fn option_words(&self) -> impl Iterator<Item = &str> {
        self.words().take_while(|w| *w != "--")
    }

    fn has(&self, w: &str) -> bool {
        self.words().any(|x| x == w)
    }

    /// Arguments that are not flags (everything after `--` is an operand).
    pub(super) fn operands(&self) -> impl Iterator<Item = &Arg> {
        let dd = self
            .args
            .iter()
            .position(|a| a.text.as_deref() == Some("--"))
            .unwrap_or(self.args.len());
        self.args.iter().enumerate().filter_map(move |(i, a)| {
            let flag = i <= dd
                && a.text
                    .as_deref()
                    .is_some_and(|t| t.starts_with('-') && t.len() > 1);
            (!flag).then_some(a)
        })
    }

    /// The first operand (a subcommand such as `push` in `git push`).
    pub(super) fn sub(&self) -> Option<&str> {
        self.operands().next().and_then(|a| a.text.as_deref())
    }

    /// Whether a flag is present: long (`--force`), exact short (`-f`), or inside a cluster of
    /// short flags (`-rf` has `r` and `f`).
    fn flag(&self, long: &str, short: Option<char>) -> bool {
        self.option_words().any(|w| {
            w == long
                || w.starts_with(&format!("{long}="))
                || short.is_some_and(|c| {
                    w.len() > 1
                        && w.starts_with('-')
                        && !w.starts_with("--")
                        && w[1..].chars().all(|x| x.is_ascii_alphanumeric())
                        && w[1..].contains(c)
                })
        })
    }

    /// Whether some static argument contains one of `needles`, ignoring ASCII case.
    pub(super) fn any_word_ci<S: AsRef<str>>(&self, needles: &[S]) -> bool {
        self.words().any(|w| {
            needles.iter().any(|n| {
                let n = n.as_ref().as_bytes();
                n.is_empty()
                    || w.as_bytes()
                        .windows(n.len())
                        .any(|x| x.eq_ignore_ascii_case(n))
            })
        })
    }
}

/// The kind of junction a rule raises (Operator's Edge §4): the `type` of the pending junction
/// and what its allowances and dismissals are fingerprinted under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// What cannot be taken back: deleting, overwriting, pushing.
    Irreversible,
    /// What reaches beyond this machine: publishing, infrastructure, writes to a server.
    External,
    /// What the gate cannot know until it runs: it asks rather than guesses.
    Ambiguous,
    /// The quality gate's own junction (`state::protocol`), never a gate rule's.
    QualityGate,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::Irreversible,
        Kind::External,
        Kind::Ambiguous,
        Kind::QualityGate,
    ];

    /// The name a junction, the state file and the grants journal carry.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Irreversible => "irreversible",
            Kind::External => "external",
            Kind::Ambiguous => "ambiguous",
            Kind::QualityGate => "quality_gate",
        }
    }
}

/// The kind of junction the rule `id` raises. A configured rule is irreversible unless it
/// shares a built-in rule's id; `quality_gate` names the quality gate's own junction.
pub fn kind_of(id: &str) -> Kind {
    let builtin = RuleId::parse(id).and_then(|id| {
        RULES
            .iter()
            .find(|r| r.id == id)
            .map(|r| r.kind)
            .or_else(|| EMITTED.iter().find(|r| r.id == id).map(|r| r.kind))
    });
    match builtin {
        Some(kind) => kind,
        None if id == Kind::QualityGate.as_str() => Kind::QualityGate,
        None => Kind::Irreversible,
    }
}

/// A rule of the gate.
pub struct Rule {
    pub id: RuleId,
    pub verdict: Verdict,
    /// The junction it raises; for a block, the kind of harm it stops.
    pub kind: Kind,
    /// What the person reads; for a junction, what they can do.
    pub reason: &'static str,
    pub matches: fn(&Cmd<'_>, &Context) -> bool,
    pub must_match: &'static [&'static str],
    pub must_not_match: &'static [&'static str],
}

/// A rule the walk applies itself, from how a line is written or what it hands on rather than
/// from one command's words. Its reason is worded where it is found (it names what was
/// found); `about` says what the rule is for.
pub struct Emitted {
    pub id: RuleId,
    pub verdict: Verdict,
    pub kind: Kind,
    pub about: &'static str,
    pub must_match: &'static [&'static str],
    pub must_not_match: &'static [&'static str],
}

/// Whether a cloud CLI is pointed at this machine's emulator (LocalStack, moto, Azurite:
/// `--endpoint-url=http://localhost:4566`): what it changes or deletes there is nothing live.
pub(crate) fn emulated(c: &Cmd<'_>) -> bool {
    let words: Vec<&str> = c.words().collect();
    words.iter().enumerate().any(|(i, w)| {
        let value = match w.split_once('=') {
            Some((f, v)) if f.starts_with("--endpoint") => v,
            _ if w.starts_with("--endpoint") => words.get(i + 1).copied().unwrap_or(""),
            _ => return false,
        };
        let host = value.split("://").nth(1).unwrap_or(value);
        ["localhost", "127.", "[::1]"]
            .iter()
            .any(|l| host.starts_with(l))
    })
}
