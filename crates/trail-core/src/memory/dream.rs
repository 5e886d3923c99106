//! Deep Dream: consolidate the last N daily files into core memory (`.trail/MEMORY.md`), through
//! an LLM (or the offline extractive merge), without letting it invent anything.
//!
//! The steps, each a scenario of the spec:
//! 1. The window is the last N dated daily files (N clamped to 1–30). None with content: skip,
//!    MEMORY.md untouched.
//! 2. The window's content is hashed (MEMORY.md is not part of it: a hand edit of core memory is
//!    no reason to ask a model again). The same hash as the last dream: skip, unless forced.
//! 3. The provider gets the current MEMORY.md and the daily files (with line numbers, so it can
//!    cite them) and a no-fabrication instruction, and answers `[MEMORY]` and `[DREAM]`.
//! 4. No usable `[MEMORY]`: nothing is written.
//! 5. Every bullet is verified against all daily files ([`super::verify`]); unsupported ones are
//!    dropped and listed in the diary, a missing or wrong reference is replaced by the line that
//!    supports it. Losing more than a quarter of the prior (supported) entries rejects the whole
//!    rewrite.
//! 6. The previous MEMORY.md is copied to `.trail/state/MEMORY.md.bak`, then MEMORY.md is
//!    replaced atomically; the diary goes to `.trail/memory/dreams/DATE.md`; the hash is stored
//!    last, so a dream that died midway is run again.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::core::{self, Core, Entry};
use super::daily::{self, memory_dir};
use super::verify::{self, Source, Verdict};
use crate::llm::{LlmError, Provider, Request};
use crate::secrets::{Secrets, SecretsError};
use crate::time::Local;

pub const DEFAULT_LOOKBACK: u32 = 3;
pub const MIN_LOOKBACK: u32 = 1;
pub const MAX_LOOKBACK: u32 = 30;
/// A rewrite may lose at most this share of the prior entries.
pub const MAX_LOSS: f64 = 0.25;
/// A prior entry survives when a new one holds this share of its content words (a rephrase or
/// a merge keeps the fact; a deletion does not).
const KEEP_OVERLAP: f64 = 0.6;
/// Longest model narrative kept in the diary.
const MAX_NARRATIVE_CHARS: usize = 20_000;

/// A window of `n` days clamped to [`MIN_LOOKBACK`]–[`MAX_LOOKBACK`] (the caller says so when it
/// differs from what was asked).
pub fn clamp_lookback(n: i64) -> u32 {
    u32::try_from(n.clamp(i64::from(MIN_LOOKBACK), i64::from(MAX_LOOKBACK))).unwrap_or(MAX_LOOKBACK)
}

/// Where a dream reads and writes, under the project root.
#[derive(Clone, Debug, Serialize)]
pub struct Paths {
    pub memory: PathBuf,
    pub backup: PathBuf,
    pub hash: PathBuf,
    pub dreams: PathBuf,
}

impl Paths {
    pub fn new(project_root: &Path) -> Paths {
        let layout = crate::layout::Layout::new(project_root);
        Paths {
            memory: layout.core_memory(),
            backup: layout.memory_backup(),
            hash: layout.dream_hash(),
            dreams: layout.dreams_dir(),
        }
    }
}

fn is_date(s: &str) -> bool {
    s.len() == 10
        && s.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}

/// Whether a daily file says anything beyond its header and flush markers.
pub fn has_content(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim();
        !(t.is_empty() || t.starts_with("# Daily Memory:") || t.starts_with("<!--"))
    })
}

/// Every dated daily file (`memory/DATE.md`, text), oldest first, up to and including `today`.
pub fn daily_files(
    project_root: &Path,
    today: &str,
) -> Result<Vec<(String, String)>, trail_base::file_error::FileError> {
    let dir = memory_dir(project_root);
    let mut names: Vec<String> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .filter_map(std::result::Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| {
                n.strip_suffix(".md")
                    .is_some_and(|d| is_date(d) && d <= today)
            })
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(trail_base::file_error::FileError::new("list", &dir, e)),
    };
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let bytes = crate::fsutil::read_in(
                project_root,
                &dir.join(&n),
                crate::fsutil::MAX_PROJECT_FILE,
            )?;
            Ok((
                format!("memory/{n}"),
                String::from_utf8_lossy(&bytes).into_owned(),
            ))
        })
        .collect()
}

/// The last `lookback` daily files with content, and the hash of their names and content.
pub fn window(all: &[(String, String)], lookback: u32) -> (Vec<(String, String)>, String) {
    let start = all.len().saturating_sub(lookback as usize);
    let days: Vec<(String, String)> = all[start..]
        .iter()
        .filter(|(_, t)| has_content(t))
        .cloned()
        .collect();
    let mut h = Sha256::new();
    for (n, t) in &days {
        h.update(n.as_bytes());
        h.update([0]);
        h.update(t.as_bytes());
        h.update([0]);
    }
    let hash = crate::text::hex(&h.finalize());
    (days, hash)
}

/// The instructions: the format and the no-fabrication rule.
pub const SYSTEM_PROMPT: &str = "You maintain MEMORY.md, the long-term memory of a software \
project, by consolidating its daily memory files into it.

Rules:
1. Use ONLY information stated in the current MEMORY.md and the daily files below. Do not \
fabricate, infer, guess, generalise or add anything that is not there. Copy numbers, file \
paths, identifiers, commands and quoted strings exactly as written.
2. Keep every entry of the current MEMORY.md that is still true. Merge duplicates. Remove an \
entry only when the daily files show it is obsolete, and say so in [DREAM].
3. One fact per bullet, one line each, grouped under `## ` headings.
4. End every bullet with its source: the daily file and line it comes from, as \
`(src: memory/YYYY-MM-DD.md#L12)`. Line numbers are given before each daily line (`L12:`). \
Keep the source of an entry you keep.

Answer with exactly these two sections and nothing else:
[MEMORY]
(the complete new MEMORY.md)
[DREAM]
(a short diary: what you merged, kept, removed and why)";

/// The material: the current MEMORY.md and the daily files with line numbers.
pub fn user_prompt(memory: &str, days: &[(String, String)]) -> String {
    let mut s = String::from("Current MEMORY.md:\n<<<\n");
    if memory.trim().is_empty() {
        s.push_str("(empty: this is the first consolidation)\n");
    } else {
        s.push_str(memory.trim_end());
        s.push('\n');
    }
    s.push_str(">>>\n");
    for (name, text) in days {
        let _ = write!(s, "\nDaily file {name}:\n<<<\n");
        for (i, line) in text.lines().enumerate() {
            // Blank lines and flush markers cost tokens and say nothing; numbering stays true.
            if line.trim().is_empty() || line.trim_start().starts_with("<!--") {
                continue;
            }
            let _ = writeln!(s, "L{}: {line}", i + 1);
        }
        s.push_str(">>>\n");
    }
    s
}

/// A model's answer, split.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub memory: Option<String>,
    pub dream: Option<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Marker {
    Memory,
    Dream,
}

/// `[MEMORY]`, `## [MEMORY]`, `**[Memory]**`, `[MEMORY]:` — a marker alone on its line.
fn marker(line: &str) -> Option<Marker> {
    let t = line
        .trim()
        .trim_start_matches(['#', '*', '_', ' '])
        .trim_end_matches(['*', '_', ':', ' ']);
    if t.eq_ignore_ascii_case("[memory]") {
        Some(Marker::Memory)
    } else if t.eq_ignore_ascii_case("[dream]") {
        Some(Marker::Dream)
    } else {
        None
    }
}

/// Split an answer into its `[MEMORY]` and `[DREAM]` sections (the first of each). Never fails:
/// a missing section is None.
pub fn parse_answer(text: &str) -> Answer {
    let mut a = Answer::default();
    let mut current: Option<(Marker, String)> = None;
    let finish = |a: &mut Answer, c: Option<(Marker, String)>| {
        if let Some((m, body)) = c {
            let slot = if m == Marker::Memory {
                &mut a.memory
            } else {
                &mut a.dream
            };
            if slot.is_none() {
                *slot = Some(body.trim().to_string());
            }
        }
    };
    for line in text.lines() {
        if let Some(m) = marker(line) {
            finish(&mut a, current.take());
            current = Some((m, String::new()));
            continue;
        }
        if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    finish(&mut a, current.take());
    a
}

/// A bullet the verifier refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dropped {
    pub text: String,
    pub why: String,
}

/// A bullet whose reference was missing or wrong, and the line that supports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sourced {
    pub text: String,
    pub cited: Option<String>,
    pub source: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Nothing to do; `reason` says why.
    Skipped,
    /// MEMORY.md replaced and the diary written.
    Written,
    /// Everything but the writes.
    DryRun,
}

/// What a dream did (or would do).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub status: Status,
    pub reason: Option<String>,
    pub lookback: u32,
    /// The daily files consolidated.
    pub window: Vec<String>,
    pub hash: String,
    pub provider: Option<String>,
    pub entries_before: usize,
    pub entries_after: usize,
    pub added: Vec<String>,
    pub removed: Vec<String>,
    /// Supported entries a person let this dream lose (`--accept-loss`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub loss_accepted: Vec<String>,
    pub dropped: Vec<Dropped>,
    pub sourced: Vec<Sourced>,
    /// Lines of the answer's `[MEMORY]` that were neither headings nor bullets.
    pub ignored: Vec<String>,
    pub memory_path: PathBuf,
    pub backup_path: Option<PathBuf>,
    pub diary_path: Option<PathBuf>,
    /// The new MEMORY.md (also on a dry run).
    pub new_memory: Option<String>,
}

/// Why a dream wrote nothing although it ran.
#[derive(Debug, thiserror::Error)]
pub enum DreamError {
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error(
        "{provider} answered without a usable [MEMORY] section ({detail}); nothing was written"
    )]
    NoMemory { provider: String, detail: String },
    #[error(
        "none of the {count} bullets of the new memory is supported by the daily files; nothing was written"
    )]
    NothingSupported { count: usize, dropped: Vec<Dropped> },
    #[error("the rewrite would lose {lost} of {prior} entries of MEMORY.md (more than {:.0}%); it was rejected and nothing was written", MAX_LOSS * 100.0)]
    TooMuchLost {
        prior: usize,
        lost: usize,
        entries: Vec<String>,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// What the model wrote could not be redacted, or its secrets not kept.
    #[error(transparent)]
    Secrets(#[from] SecretsError),
}

pub struct Options<'a> {
    pub lookback: u32,
    pub force: bool,
    pub dry_run: bool,
    /// When the dream runs, as the person's clock reads it (the diary is named by that date).
    pub now: Local,
    /// Redacts what the model wrote and keeps the originals (the model may quote a secret
    /// from a file the agent wrote by hand).
    pub secrets: &'a Secrets,
    /// Asked when a rewrite would lose more than [`MAX_LOSS`] of MEMORY.md's supported entries,
    /// with those entries and the proposed memory: `true` writes it anyway. A person's answer
    /// (`trail dream --accept-loss`, at a terminal); `None` rejects such a rewrite, as always.
    pub accept_loss: Option<&'a AcceptLoss>,
}

/// A person's answer to a rewrite that loses entries: the lost entries and the proposed memory
/// in, whether to write it out.
pub type AcceptLoss = dyn Fn(&[String], &str) -> bool;

fn io_err<E: trail_base::file_error::Cause>(path: &Path) -> impl FnOnce(E) -> DreamError + '_ {
    move |source| DreamError::Io {
        path: path.to_path_buf(),
        source: source.cause(),
    }
}

fn content_words(s: &str) -> HashSet<String> {
    verify::content_words(s).into_iter().collect()
}

/// Whether the fact of `prior` is still in `new`.
fn kept(prior: &Entry, new: &[(String, HashSet<String>)]) -> bool {
    let key = core::normalize(&prior.text);
    let words = content_words(&prior.text);
    new.iter().any(|(k, w)| {
        *k == key
            || (!words.is_empty()
                && words.iter().filter(|x| w.contains(*x)).count() as f64 / words.len() as f64
                    >= KEEP_OVERLAP)
    })
}

/// Verify `core`'s entries against `sources`: unsupported ones removed, references fixed.
fn verify_core(
    core: &mut Core,
    sources: &[Source<'_>],
    dropped: &mut Vec<Dropped>,
    sourced: &mut Vec<Sourced>,
) {
    let (text, map) = core::render_mapped(core);
    let checks = verify::verify(&text, sources);
    let mut remove: HashSet<(usize, usize)> = HashSet::new();
    for c in checks {
        let Some(Some((si, ei))) = map.get(c.line - 1).copied() else {
            continue;
        };
        let entry = &mut core.sections[si].entries[ei];
        match c.verdict {
            Verdict::Verified => {}
            Verdict::Sourced => {
                if let Some(src) = c.source {
                    sourced.push(Sourced {
                        text: entry.text.clone(),
                        cited: entry.src.clone(),
                        source: src.clone(),
                    });
                    entry.src = Some(src);
                }
            }
            Verdict::Unsupported => {
                dropped.push(Dropped {
                    text: entry.text.clone(),
                    why: c.why.unwrap_or_default(),
                });
                remove.insert((si, ei));
            }
        }
    }
    for (si, s) in core.sections.iter_mut().enumerate() {
        let mut ei = 0;
        s.entries.retain(|_| {
            let keep = !remove.contains(&(si, ei));
            ei += 1;
            keep
        });
    }
    core.sections.retain(|s| !s.entries.is_empty());
}

/// Run a dream. `progress` receives status lines (the binary prints them on stderr).
///
/// 1. Take the window of daily files; skip when it holds nothing, or nothing new since the last
///    dream (unless forced).
/// 2. Ask the provider to consolidate the current MEMORY.md and the window.
/// 3. Read its `[MEMORY]`: redacted, deduplicated, every bullet verified against the daily files
///    (unsupported ones dropped, sources given).
/// 4. Reject a rewrite that loses too much of what the sources still support; say what changed.
/// 5. Unless it is a dry run: back up, replace MEMORY.md atomically, append the diary, and record
///    the window's hash last (a crash before it only makes the next dream run again).
pub fn dream(
    project_root: &Path,
    opts: &Options<'_>,
    provider: &dyn Provider,
    progress: &mut dyn FnMut(&str),
) -> Result<Report, DreamError> {
    let paths = Paths::new(project_root);
    let (today, time) = opts.now.day_and_minute();
    let all = daily_files(project_root, &today).map_err(io_err(&memory_dir(project_root)))?;
    let (days, hash) = window(&all, opts.lookback);
    let mut report = Report::new(opts.lookback, &days, &hash, &paths);
    if let Some(why) = skip_reason(project_root, &paths, opts, &days, &hash) {
        report.reason = Some(why);
        return Ok(report);
    }
    let prior_text = read_prior(project_root, &paths)?;
    let prior = core::parse(prior_text.as_deref().unwrap_or(""));
    report.entries_before = prior.len();
    let parsed = ask(
        provider,
        prior_text.as_deref(),
        &days,
        &mut report,
        progress,
    )?;
    let sources: Vec<Source<'_>> = all
        .iter()
        .map(|(n, t)| Source { name: n, text: t })
        .collect();
    let new = proposed_memory(&parsed, opts, &sources, &mut report)?;
    let rendered = core::render(&new);
    match compare_with_prior(&prior, &new, &sources, &mut report) {
        // A merge that rewrote many bullets into fewer looks like a loss to the rule: a person
        // who has seen what goes may take it (issue 21: the rule had no override).
        Err(DreamError::TooMuchLost { entries, .. })
            if !opts.dry_run && opts.accept_loss.is_some_and(|ok| ok(&entries, &rendered)) =>
        {
            report.loss_accepted = entries;
            compare_added_removed(&prior, &new, &mut report);
        }
        other => other?,
    }
    report.new_memory = Some(rendered.clone());
    if opts.dry_run {
        report.status = Status::DryRun;
        return Ok(report);
    }
    let narrative = match &parsed.dream {
        Some(d) => Some(opts.secrets.redact(d)?.into_owned()),
        None => None,
    };
    write(
        project_root,
        &paths,
        prior_text.as_deref(),
        &rendered,
        (&today, &time),
        narrative.as_deref(),
        &mut report,
    )?;
    Ok(report)
}

impl Report {
    /// A report of a dream over `days` that has not done anything yet.
    fn new(lookback: u32, days: &[(String, String)], hash: &str, paths: &Paths) -> Report {
        Report {
            status: Status::Skipped,
            reason: None,
            lookback,
            window: days.iter().map(|(n, _)| n.clone()).collect(),
            hash: hash.to_string(),
            provider: None,
            entries_before: 0,
            entries_after: 0,
            added: Vec::new(),
            removed: Vec::new(),
            loss_accepted: Vec::new(),
            dropped: Vec::new(),
            sourced: Vec::new(),
            ignored: Vec::new(),
            memory_path: paths.memory.clone(),
            backup_path: None,
            diary_path: None,
            new_memory: None,
        }
    }
}

/// Step 1: why this dream should not run, if it should not.
fn skip_reason(
    project_root: &Path,
    paths: &Paths,
    opts: &Options<'_>,
    days: &[(String, String)],
    hash: &str,
) -> Option<String> {
    if days.is_empty() {
        return Some(format!(
            "no daily memory with content in the last {} daily file{}; MEMORY.md left as it is",
            opts.lookback,
            if opts.lookback == 1 { "" } else { "s" }
        ));
    }
    let last = crate::fsutil::read_string_in(project_root, &paths.hash, 128).unwrap_or_default();
    (!opts.force && last.trim() == hash).then(|| {
        "the daily content in the window is unchanged since the last dream (--force runs it \
         anyway)"
            .into()
    })
}

/// The current MEMORY.md, `None` when there is none yet.
fn read_prior(project_root: &Path, paths: &Paths) -> Result<Option<String>, DreamError> {
    match crate::fsutil::read_string_in(
        project_root,
        &paths.memory,
        crate::fsutil::MAX_PROJECT_FILE,
    ) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(&paths.memory)(e)),
    }
}

/// Step 2: the provider's answer, parsed.
fn ask(
    provider: &dyn Provider,
    prior_text: Option<&str>,
    days: &[(String, String)],
    report: &mut Report,
    progress: &mut dyn FnMut(&str),
) -> Result<Answer, DreamError> {
    let memory = prior_text.unwrap_or("");
    let user = user_prompt(memory, days);
    let described = provider.describe();
    report.provider = Some(described.clone());
    progress(&format!(
        "asking {described} to consolidate {} daily file{} ({} KB of prompt)…",
        days.len(),
        if days.len() == 1 { "" } else { "s" },
        (SYSTEM_PROMPT.len() + user.len()).div_ceil(1024)
    ));
    let answer = provider.complete(
        &Request {
            system: SYSTEM_PROMPT,
            user: &user,
            memory,
            days,
        },
        progress,
    )?;
    Ok(parse_answer(&answer))
}

/// Step 3: the answer's `[MEMORY]`, redacted, deduplicated, and cut to what the daily files
/// support (the rest listed in the report).
fn proposed_memory(
    parsed: &Answer,
    opts: &Options<'_>,
    sources: &[Source<'_>],
    report: &mut Report,
) -> Result<core::Core, DreamError> {
    let provider = report.provider.clone().unwrap_or_default();
    let Some(memory_section) = parsed.memory.as_deref() else {
        return Err(DreamError::NoMemory {
            provider,
            detail: "no [MEMORY] marker".into(),
        });
    };
    let mut new = core::parse(memory_section);
    report.ignored = std::mem::take(&mut new.ignored);
    if new.is_empty() {
        return Err(DreamError::NoMemory {
            provider,
            detail: if memory_section.trim().is_empty() {
                "it is empty".into()
            } else {
                "it holds no `- ` bullets".into()
            },
        });
    }
    // Whatever a model writes is redacted like everything else trail stores.
    opts.secrets.pass(|p| {
        for s in &mut new.sections {
            for e in &mut s.entries {
                p.redact_in_place(&mut e.text);
            }
        }
    })?;
    // One fact once: a model may repeat itself.
    let mut seen = HashSet::new();
    for s in &mut new.sections {
        s.entries.retain(|e| seen.insert(core::normalize(&e.text)));
    }
    let proposed = new.len();
    verify_core(&mut new, sources, &mut report.dropped, &mut report.sourced);
    if new.is_empty() {
        return Err(DreamError::NothingSupported {
            count: proposed,
            dropped: std::mem::take(&mut report.dropped),
        });
    }
    Ok(new)
}

/// Step 4: refuse a rewrite that loses more than [`MAX_LOSS`] of the prior knowledge, and say
/// what was added and removed. A prior entry is knowledge when the sources still support it
/// (unsupported ones were never facts) by a line someone stated, not by a line of the day's log
/// (a flush's asks, files, commands, next steps: [`daily::LOG_HEADINGS`]), which an older
/// offline dream copied into core memory and a merge rightly drops (issue 21). It is kept when
/// the new memory still says it: the same bullet, or one that holds most of its words (a merge
/// of several bullets into one).
fn compare_with_prior(
    prior: &core::Core,
    new: &core::Core,
    sources: &[Source<'_>],
    report: &mut Report,
) -> Result<(), DreamError> {
    let mut prior_ok = prior.clone();
    verify_core(&mut prior_ok, sources, &mut Vec::new(), &mut Vec::new());
    let log = from_the_log(&prior_ok, sources);
    let new_keys: Vec<(String, HashSet<String>)> = new
        .entries()
        .map(|e| (core::normalize(&e.text), content_words(&e.text)))
        .collect();
    let knowledge: Vec<&Entry> = prior_ok
        .entries()
        .filter(|e| !log.contains(&core::normalize(&e.text)))
        .collect();
    let lost: Vec<String> = knowledge
        .iter()
        .filter(|e| !kept(e, &new_keys))
        .map(|e| e.text.clone())
        .collect();
    let prior_count = knowledge.len();
    if prior_count > 0 && lost.len() as f64 > MAX_LOSS * prior_count as f64 {
        return Err(DreamError::TooMuchLost {
            prior: prior_count,
            lost: lost.len(),
            entries: lost,
        });
    }
    compare_added_removed(prior, new, report);
    Ok(())
}

/// The entries of `core` (normalized) whose supporting source line sits in a daily file's log
/// subsection.
fn from_the_log(core: &Core, sources: &[Source<'_>]) -> HashSet<String> {
    let (text, map) = core::render_mapped(core);
    let lines: Vec<Vec<&str>> = sources.iter().map(|s| s.text.lines().collect()).collect();
    let mut out = HashSet::new();
    for c in verify::verify(&text, sources) {
        let Some(Some((si, ei))) = map.get(c.line - 1).copied() else {
            continue;
        };
        let Some((name, line)) = c.source.as_deref().and_then(|s| s.rsplit_once("#L")) else {
            continue;
        };
        let (Some(src), Ok(line)) = (
            sources.iter().position(|s| s.name == name),
            line.parse::<usize>(),
        ) else {
            continue;
        };
        if verify::heading_above(&lines[src], line.saturating_sub(1))
            .is_some_and(daily::is_log_heading)
        {
            out.insert(core::normalize(&core.sections[si].entries[ei].text));
        }
    }
    out
}

/// What was added and removed, and how many entries the new memory holds.
fn compare_added_removed(prior: &core::Core, new: &core::Core, report: &mut Report) {
    let prior_keys: HashSet<String> = prior.entries().map(|e| core::normalize(&e.text)).collect();
    let new_key_set: HashSet<String> = new.entries().map(|e| core::normalize(&e.text)).collect();
    report.added = new
        .entries()
        .filter(|e| !prior_keys.contains(&core::normalize(&e.text)))
        .map(|e| e.text.clone())
        .collect();
    report.removed = prior
        .entries()
        .filter(|e| !new_key_set.contains(&core::normalize(&e.text)))
        .map(|e| e.text.clone())
        .collect();
    report.entries_after = new.len();
}

/// Step 5: back up, replace MEMORY.md, append the diary, record the window's hash — in that
/// order, each write through no symlinked directory (DESIGN, principle 10).
fn write(
    project_root: &Path,
    paths: &Paths,
    prior_text: Option<&str>,
    rendered: &str,
    (today, time): (&str, &str),
    narrative: Option<&str>,
    report: &mut Report,
) -> Result<(), DreamError> {
    if let Some(p) = prior_text {
        crate::fsutil::atomic_write_in(project_root, &paths.backup, p.as_bytes())
            .map_err(io_err(&paths.backup))?;
        report.backup_path = Some(paths.backup.clone());
    }
    crate::failpoint::hit("dream-after-backup");
    crate::fsutil::atomic_write_in(project_root, &paths.memory, rendered.as_bytes())
        .map_err(io_err(&paths.memory))?;
    crate::failpoint::hit("dream-after-replace");

    let diary = paths.dreams.join(format!("{today}.md"));
    let block = diary_block(report, time, narrative);
    let existing = super::daily::read_day(project_root, &diary).map_err(io_err(&diary))?;
    let mut text = if existing.is_empty() {
        format!("# Dream Diary: {today}\n\n")
    } else if existing.ends_with("\n\n") {
        String::new()
    } else {
        "\n".into()
    };
    text.push_str(&block);
    super::daily::append_to_day(project_root, &diary, &text).map_err(io_err(&diary))?;
    report.diary_path = Some(diary);
    crate::fsutil::atomic_write_in(
        project_root,
        &paths.hash,
        format!("{}\n", report.hash).as_bytes(),
    )
    .map_err(io_err(&paths.hash))?;
    report.status = Status::Written;
    Ok(())
}

/// One dream's entry in the diary.
pub fn diary_block(r: &Report, time: &str, narrative: Option<&str>) -> String {
    let mut s = format!("## Dream ({time})\n");
    let _ = writeln!(
        s,
        "- provider: {}",
        r.provider.as_deref().unwrap_or("(none)")
    );
    let _ = writeln!(
        s,
        "- window: {} (sha256 {})",
        r.window.join(", "),
        &r.hash[..r.hash.len().min(16)]
    );
    let _ = writeln!(
        s,
        "- entries: {} before, {} after ({} added, {} removed); {} dropped as unsupported; {} given a source",
        r.entries_before,
        r.entries_after,
        r.added.len(),
        r.removed.len(),
        r.dropped.len(),
        r.sourced.len()
    );
    match &r.backup_path {
        Some(p) => {
            let _ = writeln!(s, "- previous MEMORY.md kept at {}", p.display());
        }
        None => s.push_str("- first MEMORY.md: nothing to keep\n"),
    }
    s.push_str("\n### Account\n");
    match narrative.map(str::trim).filter(|n| !n.is_empty()) {
        Some(n) => {
            // Quoted, so a model's headings cannot restructure the diary.
            for l in crate::text::head(n, MAX_NARRATIVE_CHARS).lines() {
                let _ = writeln!(s, "> {l}");
            }
        }
        None => s.push_str("(the answer had no [DREAM] section)\n"),
    }
    if !r.dropped.is_empty() {
        s.push_str("\n### Dropped: not supported by the daily files\n");
        for d in &r.dropped {
            let _ = writeln!(s, "- {} — {}", d.text, d.why);
        }
    }
    if !r.sourced.is_empty() {
        s.push_str("\n### Sources given\n");
        for x in &r.sourced {
            let _ = writeln!(
                s,
                "- {} → {}{}",
                x.text,
                x.source,
                x.cited
                    .as_ref()
                    .map(|c| format!(" (cited {c})"))
                    .unwrap_or_default()
            );
        }
    }
    if !r.removed.is_empty() {
        s.push_str("\n### Removed from MEMORY.md\n");
        for x in &r.removed {
            let _ = writeln!(s, "- {x}");
        }
    }
    if !r.ignored.is_empty() {
        s.push_str("\n### Ignored lines of the answer\n");
        for x in &r.ignored {
            let _ = writeln!(s, "- {x}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lookback_is_clamped() {
        assert_eq!(clamp_lookback(3), 3);
        assert_eq!(clamp_lookback(30), 30);
        assert_eq!(clamp_lookback(0), 1);
        assert_eq!(clamp_lookback(-7), 1);
        assert_eq!(clamp_lookback(i64::MAX), 30);
    }

    #[test]
    fn answers_are_split_into_memory_and_dream() {
        let a = parse_answer(
            "Sure! Here it is.\n## [MEMORY]\n## Infra\n- a (src: memory/2026-11-25.md#L4)\n**[Dream]**:\nMerged two.\n[MEMORY]\n- ignored second copy\n",
        );
        assert_eq!(
            a.memory.as_deref(),
            Some("## Infra\n- a (src: memory/2026-11-25.md#L4)")
        );
        assert_eq!(a.dream.as_deref(), Some("Merged two."));
        assert_eq!(parse_answer("no sections at all"), Answer::default());
        assert_eq!(
            parse_answer("the [MEMORY] section follows\n- x").memory,
            None,
            "a marker must stand alone on its line"
        );
        assert_eq!(parse_answer("[DREAM]\nonly a dream").memory, None);
        assert_eq!(
            parse_answer("[MEMORY]\n[DREAM]\nd").memory.as_deref(),
            Some("")
        );
    }

    #[test]
    fn the_window_skips_empty_days_and_its_hash_ignores_older_ones() {
        let all = vec![
            (
                "memory/2026-11-20.md".to_string(),
                "# Daily Memory: x\n- old\n".to_string(),
            ),
            (
                "memory/2026-11-24.md".to_string(),
                "# Daily Memory: x\n\n".to_string(),
            ),
            (
                "memory/2026-11-25.md".to_string(),
                "# Daily Memory: x\n- new\n".to_string(),
            ),
        ];
        let (days, h1) = window(&all, 2);
        assert_eq!(days.len(), 1);
        assert_eq!(days[0].0, "memory/2026-11-25.md");
        let (_, h2) = window(&all[1..], 2);
        assert_eq!(h1, h2);
        let (days, h3) = window(&all, 3);
        assert_eq!(days.len(), 2);
        assert_ne!(h1, h3);
        assert!(window(&all[1..2], 3).0.is_empty());
    }

    #[test]
    fn the_prompt_numbers_daily_lines_and_carries_the_rule() {
        let p = user_prompt(
            "",
            &[(
                "memory/2026-11-25.md".into(),
                "# Daily Memory: 2026-11-25\n\n<!-- m -->\n- port 5433\n".into(),
            )],
        );
        assert!(p.contains("L4: - port 5433"), "{p}");
        assert!(!p.contains("L2:") && !p.contains("L3:"));
        assert!(p.contains("first consolidation"));
        assert!(SYSTEM_PROMPT.contains("Do not fabricate"));
        assert!(SYSTEM_PROMPT.contains("[MEMORY]") && SYSTEM_PROMPT.contains("[DREAM]"));
    }

    proptest! {
        #[test]
        fn parse_answer_never_panics_on_any_text(s in "(?s).{0,600}") {
            let a = parse_answer(&s);
            if let Some(m) = a.memory {
                let _ = core::parse(&m);
            }
        }

        #[test]
        fn parse_answer_never_panics_on_marker_soup(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just("[MEMORY]".to_string()),
                    Just("[DREAM]".to_string()),
                    Just("## [memory]:".to_string()),
                    Just("- x (src: memory/2026-11-25.md#L1)".to_string()),
                    Just("```".to_string()),
                    "[\\[\\]#*:_ a-zA-Z\u{0}-\u{1f}é🦀]{0,20}",
                ],
                0..30,
            )
        ) {
            let text = parts.join("\n");
            let a = parse_answer(&text);
            if text.lines().any(|l| marker(l) == Some(Marker::Memory)) {
                prop_assert!(a.memory.is_some());
            } else {
                prop_assert!(a.memory.is_none());
            }
        }
    }
}
