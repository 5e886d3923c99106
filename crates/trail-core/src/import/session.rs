//! One session read whole — its transcript files merged, its subagents' tool calls with it —
//! and what an import makes of it: the handoff record, the proof lines, the daily memory.

use std::collections::HashSet;
use std::io::{self, BufRead as _};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::{Found, Host, KEY_TAG, Meta, claude, codex};
use crate::host::{Event, Tool, ToolInput};
use crate::ledger::record::{Focus, Intent, Record, RecordType, facts_body};
use crate::memory::daily::{self, Trigger};
use crate::memory::flushed;
use crate::project::{self, Project};
use crate::proof::{self, Entry};
use crate::secrets::{Pass, Secrets};
use crate::text::{one_line, sha256_hex};
use crate::time::Ts;
use crate::transcript::{ToolCall, Transcript};

/// The tag every imported record carries (the join records in the stream carry
/// [`crate::ledger::imported::JOIN_TAG`]).
pub const IMPORTED_TAG: &str = "imported";

/// How much of a session a handoff record lists.
const ASKS: usize = 10;
const COMMANDS: usize = 20;
const FILES: usize = 30;
const NEXT: usize = 5;
/// How much of an output kept outside the transcript is read for its proof line (which keeps
/// 1,000 characters of it).
const OUTPUT_HEAD: u64 = 8 << 10;

/// A session, read.
pub struct Session {
    found: Found,
    /// The text of each of `found.files`, then of each of `found.subagents`.
    texts: Vec<String>,
    pub meta: Meta,
    /// The merged transcript, with the subagents' tool calls.
    transcript: Transcript,
    /// How many of its tool calls subagents made.
    subagent_calls: usize,
    /// Its id and a hash of its content: what tells it imported already.
    pub key: String,
}

impl Session {
    /// Read every file of `found`. On failure, the file that could not be read.
    pub fn load(found: Found) -> Result<Session, (PathBuf, io::Error)> {
        let mut texts = Vec::new();
        for p in found.files.iter().chain(&found.subagents) {
            texts.push(super::read_text(p).map_err(|e| (p.clone(), e))?);
        }
        let parts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let (main, subs) = parts.split_at(found.files.len());
        let (transcript, mut meta, subagent_calls) = read(found.host, main, subs);
        if meta.ids.is_empty() {
            meta.ids.push(found.id.clone());
        }
        if meta.end.is_none() {
            // No line says when: the files' own time is the best there is.
            meta.end = found.modified().map(ts_of);
        }
        let key = key(&found, &texts);
        Ok(Session {
            found,
            texts,
            meta,
            transcript,
            subagent_calls,
            key,
        })
    }

    pub fn id(&self) -> &str {
        &self.found.id
    }

    /// Nothing asked and no tool called: nothing to hand off.
    pub fn is_empty(&self) -> bool {
        self.transcript.tool_calls.is_empty()
            && !self.transcript.messages.iter().any(|m| m.role == "user")
    }

    /// The project it ran in, as the stream names it (a directory no longer on this machine
    /// still gives its name).
    pub fn project(&self) -> Project {
        match &self.meta.cwd {
            Some(cwd) => Project::discover(cwd),
            None => Project {
                name: "unknown".into(),
                id: sha256_hex(b"unknown")[..12].to_string(),
                root: PathBuf::new(),
                branch: None,
            },
        }
    }

    /// When it ended (or, failing that, began).
    fn when(&self) -> Ts {
        self.meta.end.or(self.meta.start).unwrap_or_else(Ts::now)
    }

    /// What the session's timeline holds ([`crate::timeline`]): its start, each prompt the
    /// person typed, the context size at each answer and each compaction, at their own times (a
    /// line without a time is left out: it cannot be placed). Not redacted yet (the timeline's
    /// writer does it).
    pub fn timeline(&self) -> Vec<crate::timeline::Line> {
        use crate::timeline::{Line, Seen};
        let session = self.id().to_string();
        let at = |t: Option<&str>| t.and_then(|t| Ts::parse_loose(t).ok());
        let t = &self.transcript;
        let mut out = Vec::new();
        let mut push = |when: Option<Ts>, seen: Seen| {
            if let Some(at) = when {
                out.push(Line {
                    at,
                    session: session.clone(),
                    seen,
                });
            }
        };
        push(
            self.meta.start,
            Seen::Start {
                source: "imported".into(),
            },
        );
        for m in t
            .messages
            .iter()
            .filter(|m| m.role == "user" && !m.sidechain)
        {
            push(at(m.timestamp.as_deref()), Seen::prompt(&m.text));
        }
        for f in &t.fill {
            push(
                at(f.timestamp.as_deref()),
                Seen::Fill {
                    context: f.context,
                    window: None,
                },
            );
        }
        for c in &t.compactions {
            push(
                at(c.timestamp.as_deref()),
                Seen::Compaction {
                    trigger: c.trigger.clone(),
                    pre_tokens: c.pre_tokens,
                },
            );
        }
        out.sort_by_key(|l| l.at);
        out
    }

    /// The handoff record: what was asked, the files changed, the commands and how they ended,
    /// the open next steps, at the session's own time. Not redacted yet (the ledger does it).
    pub fn handoff(&self, project: &Project) -> Record {
        let t = &self.transcript;
        let x = daily::gather(t);
        let mut r = Record::new(RecordType::Handoff, self.when());
        r.focus = vec![Focus {
            proj: project.name.clone(),
            topic: String::new(),
        }];
        r.intent = x.asks.iter().find(|a| self.is_request(a)).map(|a| Intent {
            primary: "handoff".into(),
            summary: one_line(a, 200),
        });
        r.next = x.open.iter().take(NEXT).cloned().collect();
        r.files = x.files.keys().take(FILES).cloned().collect();
        r.tags = self.tags(project);
        r.body = facts_body(&self.facts(&x));
        r
    }

    /// Whether a user line (as [`daily::gather`] keeps it) is a request: not the host's note
    /// of an interruption, not the compact summary it hands the next context.
    fn is_request(&self, ask: &str) -> bool {
        let summary = self.transcript.summary.as_deref().map(|s| one_line(s, 240));
        !ask.starts_with("[Request interrupted") && summary.as_deref() != Some(ask)
    }

    fn tags(&self, project: &Project) -> Vec<String> {
        let mut tags = vec![
            IMPORTED_TAG.to_string(),
            self.found.host.as_str().to_string(),
        ];
        tags.extend(self.meta.ids.iter().map(|id| format!("session:{id}")));
        tags.push(format!("{KEY_TAG}{}", self.key));
        tags.push(format!("{}{}", project::ID_TAG, project.id));
        if let Some(b) = self.meta.branch.as_ref().or(project.branch.as_ref()) {
            tags.push(format!("{}{b}", project::BRANCH_TAG));
        }
        tags.retain(|t| !t.trim().is_empty() && !t.contains(['\n', '\r']));
        tags
    }

    fn facts(&self, x: &daily::Extract) -> Vec<String> {
        let t = &self.transcript;
        let prompts = t
            .messages
            .iter()
            .filter(|m| m.role == "user" && !m.sidechain)
            .count();
        let mut facts = vec![format!(
            "{} session {} in {}, {} to {}: {prompts} prompt(s), {} tool call(s){}",
            self.found.host.title(),
            self.found.id,
            self.meta.cwd.as_deref().map_or_else(
                || "an unknown directory".into(),
                |c| c.display().to_string()
            ),
            self.meta
                .start
                .map_or_else(|| "?".into(), |s| s.to_string()),
            self.when(),
            t.tool_calls.len(),
            match self.subagent_calls {
                0 => String::new(),
                n => format!(
                    ", {n} of them by {} subagent(s)",
                    self.found.subagents.len()
                ),
            }
        )];
        if self.meta.ids.len() > 1 {
            facts.push(format!(
                "continued in another file as session {}",
                self.meta.ids[1..].join(", ")
            ));
        }
        if let Some(f) = &self.meta.forked_from {
            facts.push(format!("forked from session {f}"));
        }
        let asks: Vec<&String> = x.asks.iter().filter(|a| self.is_request(a)).collect();
        facts.extend(asks.iter().take(ASKS).map(|a| format!("asked: {a}")));
        if asks.len() > ASKS {
            facts.push(format!("… and {} more prompt(s)", asks.len() - ASKS));
        }
        facts.extend(
            x.commands
                .iter()
                .take(COMMANDS)
                .map(|(c, o)| format!("ran `{}` — {}", c.replace('`', "'"), o.as_str())),
        );
        if x.commands.len() > COMMANDS {
            facts.push(format!(
                "… and {} more command(s) (one proof line each)",
                x.commands.len() - COMMANDS
            ));
        }
        if x.files.len() > FILES {
            facts.push(format!("{} files changed in all", x.files.len()));
        }
        if let Some((trigger, tokens)) = &x.compaction {
            facts.push(format!(
                "context compacted ({}) at {} tokens",
                trigger.as_deref().unwrap_or("?"),
                tokens.map_or("?".into(), |n| n.to_string())
            ));
        }
        if let Some(last) = t
            .messages
            .iter()
            .rev()
            .find(|m| m.role == "assistant" && !m.sidechain)
        {
            facts.push(format!(
                "the agent's last words: {}",
                one_line(&last.text, 300)
            ));
        }
        facts
    }

    /// A proof line for each finished tool call (subagents' too) the proof log does not hold
    /// yet, oldest first, redacted by `p`.
    pub fn proof_entries(&self, seen: &ProofSeen, p: &mut Pass<'_>) -> Vec<Entry> {
        let mut ids = self.meta.ids.clone();
        if !ids.iter().any(|i| i == self.id()) {
            ids.push(self.id().to_string());
        }
        // The hooks logged this session without call ids: every call is there already.
        if ids.iter().any(|id| seen.idless.contains(id)) {
            return Vec::new();
        }
        let mut out: Vec<Entry> = self
            .transcript
            .tool_calls
            .iter()
            .filter(|c| !c.id.is_empty() && c.result.is_some())
            .filter(|c| !seen.has(&ids, &c.id))
            .filter_map(|c| self.entry(c, p))
            .collect();
        out.sort_by(|a, b| a.timestamp.cmp(&b.timestamp));
        out
    }

    fn entry(&self, c: &ToolCall, p: &mut Pass<'_>) -> Option<Entry> {
        let tool = Tool::from_name(&c.name);
        let output = self.output_of(c);
        let event = Event::ToolFinished {
            input: ToolInput::decode(&tool, c.input.clone()),
            tool,
            sent: c.input.clone(),
            error: c
                .is_error
                .then(|| one_line(output.as_deref().unwrap_or(""), 200)),
            response: output.map(Value::String),
            ok: !c.is_error,
            duration: None,
            tool_use_id: Some(c.id.clone()),
        };
        let mut e = proof::entry_in(&event, Some(self.id()), p)?;
        e.timestamp = c
            .timestamp
            .as_deref()
            .and_then(|t| Ts::parse_loose(t).ok())
            .unwrap_or_else(|| self.when())
            .to_string();
        Some(e)
    }

    /// A call's output: its result, or, when the host kept it in a file of its own (Claude
    /// Code: "Full output saved to: …/tool-results/NAME"), the start of that file. The file is
    /// looked for by its name in the session's own tool-results directories, wherever the
    /// transcript says it was.
    fn output_of(&self, c: &ToolCall) -> Option<String> {
        let result = c.result.as_ref()?;
        if let Some(name) = saved_file(result) {
            for dir in &self.found.tool_results {
                if let Ok(head) = crate::fsutil::read_head(&dir.join(name), OUTPUT_HEAD) {
                    return Some(String::from_utf8_lossy(&head).into_owned());
                }
            }
        }
        Some(result.clone())
    }

    /// The session's daily memory, in the project at `root`: what no flush of its files covered
    /// yet, as a `## Session` block in the file of the day it ended. Whether a block was (or, in
    /// a dry run, would be) written.
    pub fn flush_memory(
        &self,
        root: &Path,
        secrets: &Secrets,
        dry_run: bool,
    ) -> Result<bool, daily::FlushError> {
        let paths: Vec<&PathBuf> = self
            .found
            .files
            .iter()
            .chain(&self.found.subagents)
            .collect();
        let parts: Vec<&str> = paths
            .iter()
            .zip(&self.texts)
            .map(|(p, t)| flushed::unflushed(root, p, t))
            .collect();
        if parts.iter().all(|p| p.trim().is_empty()) {
            return Ok(false);
        }
        let (main, subs) = parts.split_at(self.found.files.len());
        let (t, _, _) = read(self.found.host, main, subs);
        let when = self.when().local();
        let pending = secrets.pass_or_dry(dry_run, |p| {
            daily::prepare(root, &t, Trigger::SessionEnd, Some(self.id()), &when, p)
        })??;
        if dry_run {
            return Ok(pending.writes());
        }
        let flushed = daily::write(root, pending)?;
        for (p, t) in paths.iter().zip(&self.texts) {
            flushed::mark(root, p, t)?;
        }
        Ok(flushed.written)
    }
}

/// Read a session's parts as one transcript: the main files merged (see each host's `merge`),
/// then the tool calls its subagents made, as the session's own (but not their to-do lists,
/// which are not the session's plan). Returns it, what the lines say of the session, and how
/// many calls came from subagents.
fn read(host: Host, main: &[&str], subs: &[&str]) -> (Transcript, Meta, usize) {
    let (text, meta) = match host {
        Host::ClaudeCode => claude::merge(main),
        Host::Codex => codex::merge(main),
    };
    let parse = |text: &str| match host {
        Host::ClaudeCode => crate::transcript::parse(text),
        Host::Codex => crate::rollout::parse(text),
    };
    let mut t = parse(&text);
    // Subagents that older builds kept inside the session's own file.
    for c in &mut t.tool_calls {
        if c.sidechain && c.name != "TodoWrite" {
            c.sidechain = false;
        }
    }
    let mut from_subagents = 0;
    for sub in subs {
        for mut c in parse(sub).tool_calls {
            if c.name == "TodoWrite" {
                continue;
            }
            c.sidechain = false;
            t.tool_calls.push(c);
            from_subagents += 1;
        }
    }
    (t, meta, from_subagents)
}

/// The session's key: its id and a hash of everything it is made of. Outputs kept in files of
/// their own are counted by name and size (the host writes each once and never changes it).
fn key(found: &Found, texts: &[String]) -> String {
    use sha2::{Digest as _, Sha256};
    let mut h = Sha256::new();
    h.update(found.host.as_str());
    h.update([0]);
    h.update(&found.id);
    for t in texts {
        h.update((t.len() as u64).to_le_bytes());
        h.update(t);
    }
    for dir in &found.tool_results {
        for f in super::files_with(dir, "") {
            let len = std::fs::symlink_metadata(&f).map_or(0, |m| m.len());
            h.update(f.file_name().unwrap_or_default().as_encoded_bytes());
            h.update(len.to_le_bytes());
        }
    }
    format!("{}-{}", found.id, &crate::text::hex(&h.finalize())[..32])
}

/// The name of the file a tool result says its full output went to.
fn saved_file(result: &str) -> Option<&str> {
    let at = result.find("saved to: ")?;
    let path = result[at + "saved to: ".len()..]
        .split_whitespace()
        .next()?;
    Path::new(path).file_name()?.to_str()
}

pub(super) fn ts_of(t: SystemTime) -> Ts {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    Ts::from_micros(i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
}

/// What a project's proof log holds: the calls it logged by id, and the sessions it logged
/// without ids (hooks of hosts that send none).
#[derive(Default)]
pub struct ProofSeen {
    ids: HashSet<(String, String)>,
    idless: HashSet<String>,
}

impl ProofSeen {
    pub fn read(root: &Path) -> Result<ProofSeen, crate::file_error::FileError> {
        use crate::file_error::At;
        let mut seen = ProofSeen::default();
        let path = proof::log_path(root);
        let file = match crate::fsutil::open_in(root, &path, crate::fsutil::Access::Read) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(seen),
            Err(e) => return Err(e),
        };
        for line in io::BufReader::new(file).split(b'\n') {
            let line = line.at("read", &path)?;
            // A torn or foreign line says nothing.
            if let Ok(e) = serde_json::from_slice::<Entry>(&line) {
                seen.note(std::slice::from_ref(&e));
            }
        }
        Ok(seen)
    }

    pub fn note(&mut self, entries: &[Entry]) {
        for e in entries {
            match (&e.session_id, &e.tool_use_id) {
                (Some(s), Some(id)) => {
                    self.ids.insert((s.clone(), id.clone()));
                }
                (Some(s), None) => {
                    self.idless.insert(s.clone());
                }
                _ => {}
            }
        }
    }

    fn has(&self, sessions: &[String], id: &str) -> bool {
        sessions
            .iter()
            .any(|s| self.ids.contains(&(s.clone(), id.to_string())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_saved_output_file_is_named_by_the_result() {
        let r = "<persisted-output>\nOutput too large (45.2KB). Full output saved to: /home/u/.claude/projects/-p/s1/tool-results/toolu_01.txt\n\nPreview (first 2KB):\nabc\n</persisted-output>";
        assert_eq!(saved_file(r), Some("toolu_01.txt"));
        assert_eq!(saved_file("plain output"), None);
        // Only a name is taken: the file is looked for in the session's own directory.
        assert_eq!(saved_file("saved to: ../../etc/passwd"), Some("passwd"));
    }
}
