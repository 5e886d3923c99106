//! Rehydration (LedgerPulse §11): rebuild the working state from the newest records.
//!
//! Reads newest to oldest with reverse block reads, never a full scan, and stops at whichever
//! comes first: `max_records` records read; a compaction record, whose carried state summarises
//! everything before it; the start of the chain. Early stopping (LedgerPulse: "stop early if
//! intent + next steps stabilize") is per thread: once a thread's newest three non-tangent
//! records agree on its intent and next steps, it has settled and older records add nothing to
//! it; they are skipped unparsed. Other threads go on being read, so a parallel topic's thread
//! and its next step are never lost to a busy one (issue 21: the first three agreeing records
//! of any thread used to stop the whole read). Tangents are skipped unless asked for, and then
//! listed as parked threads. Torn, tampered and unreadable records are skipped.

use std::fs::File;

use serde::{Deserialize, Serialize};

use std::borrow::Cow;

use super::error::{LedgerError, Result};
use super::format;
use super::frame::{Frame, Seal};
use super::handle::Ledger;
use super::reader::ReverseReader;
use super::record::{Focus, Intent, Record, RecordType, Status};

const FACTS_PER_THREAD: usize = 12;
const FILES_PER_THREAD: usize = 12;
const LIST_PER_THREAD: usize = 12;
/// Marks the fenced block that carries state in a compaction record's body.
const STATE_FENCE: &str = "```json trail-state";

#[derive(Clone, Debug, Default)]
pub struct RehydrateOptions {
    /// Only threads of this project.
    pub proj: Option<String>,
    /// With `proj`: leave out records placed by their tags in another project of that name
    /// (another repository called the same, [`crate::project`]).
    pub project_id: Option<String>,
    /// Include tangents (as parked threads).
    pub tangents: bool,
    /// Parse every record instead of skipping those that cannot change the result. The result
    /// is the same (a property test holds the two paths to it); this exists for that test.
    pub exhaustive: bool,
    /// This machine's records only, not the other machines' `trail sync` brought (a rotation
    /// summarises its own segment, and nothing else).
    pub own_only: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The newest three non-tangent records agree on intent and next steps. No longer given:
    /// reading stops per thread (each settled thread takes no more), never for all of them at
    /// once, or a parallel topic's thread was lost. Kept to read states older versions wrote.
    Stable,
    /// A compaction record summarised everything older.
    Compaction,
    /// `max_records` records were read.
    Limit,
    /// The whole chain was read.
    Start,
}

impl StopReason {
    /// Why reading stopped, in words.
    pub fn describe(&self) -> &'static str {
        match self {
            StopReason::Stable => "stopped once intent and next steps had stabilised",
            StopReason::Compaction => "stopped at a compaction record that summarises the rest",
            StopReason::Limit => "stopped at the record limit",
            StopReason::Start => "the whole chain",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shift {
    pub ts: String,
    pub before: String,
    pub after: String,
}

/// One focus thread: a project and topic, with what is known of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thread {
    pub proj: String,
    pub topic: String,
    pub last_ts: String,
    pub intent: Option<Intent>,
    pub status: Option<Status>,
    pub next: Vec<String>,
    pub deferred: Vec<String>,
    pub model_shifts: Vec<Shift>,
    pub facts: Vec<String>,
    pub files: Vec<String>,
}

/// A tangent, parked: what it was about and what it deferred.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parked {
    pub ts: String,
    pub focus: Vec<Focus>,
    pub summary: String,
    pub deferred: Vec<String>,
}

/// The rebuilt working state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Threads, most recently active first.
    pub threads: Vec<Thread>,
    pub parked: Vec<Parked>,
    pub records_read: usize,
    pub skipped_damaged: usize,
    pub stopped: StopReason,
    pub latest_ts: Option<String>,
}

#[derive(Default)]
struct Builder {
    /// Threads in order of their newest activity. Few enough that a linear search beats hashing
    /// (and allocates nothing per record).
    threads: Vec<Thread>,
    parked: Vec<Parked>,
    read: usize,
    damaged: usize,
    /// Each thread's newest intents and next steps (at most three), index for index with
    /// `threads`: a thread whose three agree has settled, and older records add nothing to it.
    signatures: Vec<Vec<Signature>>,
    latest: Option<String>,
}

type Signature = (Option<Intent>, Vec<String>);

/// How many agreeing records settle a thread.
const SETTLED_AFTER: usize = 3;

impl Builder {
    /// The index of the thread of `proj` and `topic`, made when it is new.
    fn thread(&mut self, proj: &str, topic: &str, ts: impl FnOnce() -> String) -> usize {
        if let Some(i) = self
            .threads
            .iter()
            .position(|t| t.proj == proj && t.topic == topic)
        {
            i
        } else {
            self.threads.push(Thread {
                proj: proj.to_string(),
                topic: topic.to_string(),
                last_ts: ts(),
                intent: None,
                status: None,
                next: Vec::new(),
                deferred: Vec::new(),
                model_shifts: Vec::new(),
                facts: Vec::new(),
                files: Vec::new(),
            });
            self.signatures.push(Vec::new());
            self.threads.len() - 1
        }
    }

    /// Whether thread `i`'s newest records agree on its intent and next steps.
    fn settled(&self, i: usize) -> bool {
        let s = &self.signatures[i];
        s.len() >= SETTLED_AFTER && s.iter().all(|x| *x == s[0])
    }

    /// Fold in one record (older than everything folded so far).
    fn fold(&mut self, r: &Record) {
        const NO_FOCUS: &[Focus] = &[Focus {
            proj: String::new(),
            topic: String::new(),
        }];
        let focus = if r.focus.is_empty() {
            NO_FOCUS
        } else {
            &r.focus[..]
        };
        // Facts live in the body; read them only if some thread still has room for them.
        let mut facts: Option<Vec<String>> = None;
        let signed = r.intent.is_some() || !r.next.is_empty();
        for f in focus {
            let i = self.thread(&f.proj, &f.topic, || r.ts.to_string());
            // Early stopping is per thread: a settled thread takes nothing from older records,
            // while the others (parallel topics, other projects) go on being read.
            if self.settled(i) {
                continue;
            }
            if signed && self.signatures[i].len() < SETTLED_AFTER {
                self.signatures[i].push((r.intent.clone(), r.next.clone()));
            }
            let t = &mut self.threads[i];
            if t.intent.is_none() {
                t.intent.clone_from(&r.intent);
            }
            if t.status.is_none() {
                t.status.clone_from(&r.status);
            }
            if t.next.is_empty() {
                t.next.clone_from(&r.next);
            }
            push_unique(&mut t.deferred, &r.defer, LIST_PER_THREAD);
            if let Some(m) = &r.model_shift
                && t.model_shifts.len() < LIST_PER_THREAD
            {
                t.model_shifts.push(Shift {
                    ts: r.ts.to_string(),
                    before: m.before.clone(),
                    after: m.after.clone(),
                });
            }
            if t.facts.len() < FACTS_PER_THREAD {
                push_unique(
                    &mut t.facts,
                    facts.get_or_insert_with(|| r.facts()),
                    FACTS_PER_THREAD,
                );
            }
            push_unique(&mut t.files, &r.files, FILES_PER_THREAD);
        }
    }

    /// Whether a record described by `g` could change the state.
    fn wants(&self, g: &format::Glance, facts: bool, opts: &RehydrateOptions) -> bool {
        match g.kind {
            Some(RecordType::Alert) => return false,
            Some(RecordType::Tangent) => {
                return opts.tangents && self.parked.len() < LIST_PER_THREAD;
            }
            Some(RecordType::Compaction) | None => return true,
            _ => {}
        }
        if let Some(p) = &opts.proj
            && !g.focus.iter().any(|(fp, _)| fp == p)
        {
            return false;
        }
        let no_focus = [(Cow::Borrowed(""), Cow::Borrowed(""))];
        let focus = if g.focus.is_empty() {
            &no_focus[..]
        } else {
            &g.focus[..]
        };
        focus.iter().any(|(p, tp)| {
            match self
                .threads
                .iter()
                .position(|t| t.proj == *p && t.topic == *tp)
            {
                None => true,
                Some(i) if self.settled(i) => false,
                Some(i) => {
                    let t = &self.threads[i];
                    ((g.intent || g.next) && self.signatures[i].len() < SETTLED_AFTER)
                        || (g.intent && t.intent.is_none())
                        || (g.status && t.status.is_none())
                        || (g.next && t.next.is_empty())
                        || (t.deferred.len() < LIST_PER_THREAD
                            && g.defer.iter().any(|d| !t.deferred.iter().any(|x| x == d)))
                        || (g.model_shift && t.model_shifts.len() < LIST_PER_THREAD)
                        || (facts && t.facts.len() < FACTS_PER_THREAD)
                        || (t.files.len() < FILES_PER_THREAD
                            && g.files.iter().any(|f| !t.files.iter().any(|x| x == f)))
                }
            }
        })
    }

    /// Fold in a compaction record's carried state for threads not seen yet (or fill gaps).
    fn fold_state(&mut self, s: State, proj: Option<&str>) {
        for old in s.threads {
            if proj.is_some_and(|p| p != old.proj) {
                continue;
            }
            let last_ts = old.last_ts.clone();
            let i = self.thread(&old.proj, &old.topic, || last_ts);
            if self.settled(i) {
                continue;
            }
            let t = &mut self.threads[i];
            if t.intent.is_none() {
                t.intent = old.intent;
            }
            if t.status.is_none() {
                t.status = old.status;
            }
            if t.next.is_empty() {
                t.next = old.next;
            }
            push_unique(&mut t.deferred, &old.deferred, LIST_PER_THREAD);
            for m in old.model_shifts {
                if t.model_shifts.len() < LIST_PER_THREAD && !t.model_shifts.contains(&m) {
                    t.model_shifts.push(m);
                }
            }
            push_unique(&mut t.facts, &old.facts, FACTS_PER_THREAD);
            push_unique(&mut t.files, &old.files, FILES_PER_THREAD);
        }
        for p in s.parked {
            if self.parked.len() < LIST_PER_THREAD {
                self.parked.push(p);
            }
        }
    }

    fn finish(self, stopped: StopReason) -> State {
        State {
            threads: self.threads,
            parked: self.parked,
            records_read: self.read,
            skipped_damaged: self.damaged,
            stopped,
            latest_ts: self.latest,
        }
    }
}

fn push_unique(dst: &mut Vec<String>, src: &[String], cap: usize) {
    for s in src {
        if dst.len() >= cap {
            return;
        }
        if !dst.contains(s) {
            dst.push(s.clone());
        }
    }
}

/// The state carried in a compaction record's body, if any.
pub fn carried_state(r: &Record) -> Option<State> {
    let start = r.body.find(STATE_FENCE)? + STATE_FENCE.len();
    let rest = &r.body[start..];
    let end = rest.find("\n```")?;
    serde_json::from_str(rest[..end].trim()).ok()
}

/// Body text for a compaction record that carries `state`.
pub fn state_body(state: &State, facts: &[String]) -> String {
    let mut b = super::record::facts_body(facts);
    if !b.is_empty() {
        b.push('\n');
    }
    b.push_str(STATE_FENCE);
    b.push('\n');
    b.push_str(&serde_json::to_string(state).unwrap_or_else(|_| "{}".into()));
    b.push_str("\n```\n");
    b
}

impl Ledger {
    /// Rebuild the working state (see the module docs): this machine's records and, unless
    /// `opts.own_only`, the local-only ledger's and every other machine's that `trail sync`
    /// brought (one timeline, newest first; see [`Ledger::sources`]).
    pub fn rehydrate(&self, opts: &RehydrateOptions) -> Result<State> {
        let replicas = if opts.own_only {
            Vec::new()
        } else {
            self.sources()?
        };
        if replicas.is_empty() {
            return self.rehydrate_own(opts);
        }
        let mut sources = vec![self.segments()?];
        for (_, r) in &replicas {
            sources.push(r.segments()?);
        }
        self.rehydrate_merged(sources, opts)
    }

    fn rehydrate_own(&self, opts: &RehydrateOptions) -> Result<State> {
        let mut b = Builder::default();
        let mut segments = self.segments()?;
        segments.reverse();
        for path in segments {
            let Some(file) =
                super::reader::open_if_exists(&path).map_err(LedgerError::io("open", &path))?
            else {
                continue;
            };
            if let Some(stop) = self.rehydrate_segment(&file, &path, opts, &mut b)? {
                return Ok(b.finish(stop));
            }
        }
        Ok(b.finish(StopReason::Start))
    }

    fn rehydrate_segment(
        &self,
        file: &File,
        path: &std::path::Path,
        opts: &RehydrateOptions,
        b: &mut Builder,
    ) -> Result<Option<StopReason>> {
        let len = crate::fsutil::size_of(file).map_err(LedgerError::io("stat", path))?;
        let mut rr = ReverseReader::new(file, len);
        let mut newest = true;
        while let Some((off, seg)) = rr.next_ref().map_err(LedgerError::io("read", path))? {
            if b.read >= self.opts.max_records {
                return Ok(Some(StopReason::Limit));
            }
            let was_newest = std::mem::replace(&mut newest, false);
            if let Some(stop) = take(b, off, seg, was_newest, opts) {
                return Ok(Some(stop));
            }
        }
        Ok(None)
    }

    /// Several chains (each a list of segment paths, oldest first) folded as one timeline:
    /// always the newest record any of them has left next, ties broken by the order given.
    /// A compaction record ends its own chain's reading only: it summarises that machine's
    /// past, not the others'.
    fn rehydrate_merged(
        &self,
        sources: Vec<Vec<std::path::PathBuf>>,
        opts: &RehydrateOptions,
    ) -> Result<State> {
        // Every file is opened first, so the readers can borrow them for the whole merge.
        let mut files: Vec<Vec<(File, std::path::PathBuf, u64)>> = Vec::new();
        for segments in sources {
            let mut opened = Vec::new();
            for path in segments.into_iter().rev() {
                let Some(file) =
                    super::reader::open_if_exists(&path).map_err(LedgerError::io("open", &path))?
                else {
                    continue;
                };
                let len = crate::fsutil::size_of(&file).map_err(LedgerError::io("stat", &path))?;
                opened.push((file, path, len));
            }
            files.push(opened);
        }
        let mut cursors: Vec<Cursor<'_>> = files.iter().map(|f| Cursor::new(f)).collect();
        for c in &mut cursors {
            c.advance()?;
        }
        // A project's id is the hash of where its repository lies on that machine, so another
        // machine's records of this project carry another id: they are matched by name.
        let foreign = RehydrateOptions {
            project_id: None,
            ..opts.clone()
        };
        let mut b = Builder::default();
        let mut compacted = false;
        loop {
            let Some(i) = newest_cursor(&cursors) else {
                let stop = if compacted {
                    StopReason::Compaction
                } else {
                    StopReason::Start
                };
                return Ok(b.finish(stop));
            };
            if b.read >= self.opts.max_records {
                return Ok(b.finish(StopReason::Limit));
            }
            let c = &mut cursors[i];
            let (off, seg, newest) = c
                .head
                .take()
                .map(|h| (h.off, h.bytes, h.newest))
                .unwrap_or_default();
            let o = if i == 0 { opts } else { &foreign };
            if let Some(stop) = take(&mut b, off, &seg, newest, o) {
                compacted |= stop == StopReason::Compaction;
                c.done = true;
                continue;
            }
            c.advance()?;
        }
    }
}

/// One chain being read newest first in a merge: its segments newest first, the reader of the
/// current one, and the record it holds next.
struct Cursor<'f> {
    files: &'f [(File, std::path::PathBuf, u64)],
    at: usize,
    reader: Option<ReverseReader<'f>>,
    head: Option<Head>,
    done: bool,
    /// No record of the current segment was handed out yet.
    fresh: bool,
}

struct Head {
    off: u64,
    bytes: Vec<u8>,
    ts: Option<crate::time::Ts>,
    newest: bool,
}

impl<'f> Cursor<'f> {
    fn new(files: &'f [(File, std::path::PathBuf, u64)]) -> Cursor<'f> {
        Cursor {
            files,
            at: 0,
            reader: None,
            head: None,
            done: false,
            fresh: true,
        }
    }

    /// Load the next record (older than the last), moving to older segments as each ends.
    fn advance(&mut self) -> Result<()> {
        while !self.done {
            let Some((file, path, len)) = self.files.get(self.at) else {
                self.done = true;
                break;
            };
            let reader = self
                .reader
                .get_or_insert_with(|| ReverseReader::new(file, *len));
            if let Some((off, seg)) = reader
                .next_segment()
                .map_err(LedgerError::io("read", path))?
            {
                let newest = std::mem::replace(&mut self.fresh, false);
                self.head = Some(Head {
                    off,
                    ts: record_ts(&seg),
                    bytes: seg,
                    newest,
                });
                return Ok(());
            }
            self.reader = None;
            self.fresh = true;
            self.at += 1;
        }
        Ok(())
    }
}

/// The cursor whose next record is the newest (a record without a readable time first: it is
/// damaged, and skipping it early costs nothing).
fn newest_cursor(cursors: &[Cursor<'_>]) -> Option<usize> {
    let mut best: Option<(usize, Option<crate::time::Ts>)> = None;
    for (i, c) in cursors.iter().enumerate() {
        let Some(h) = c.head.as_ref().filter(|_| !c.done) else {
            continue;
        };
        match best {
            None => best = Some((i, h.ts)),
            Some((_, Some(bt))) if h.ts.is_none_or(|t| t > bt) => best = Some((i, h.ts)),
            _ => {}
        }
    }
    best.map(|(i, _)| i)
}

/// A record's `ts`, read from its front matter without parsing the rest.
fn record_ts(seg: &[u8]) -> Option<crate::time::Ts> {
    let at = memchr::memmem::find(seg, b"\nts: ")? + 5;
    let end = memchr::memchr(b'\n', &seg[at..]).map_or(seg.len(), |e| at + e);
    crate::time::Ts::parse_canonical(seg[at..end].trim_ascii())
}

/// Fold one record (`seg`, found at `off`; `newest` when it is the last of its segment, where
/// a missing seal is a tear) into `b`. Returns why reading this chain stops, when it does.
fn take(
    b: &mut Builder,
    off: u64,
    seg: &[u8],
    newest: bool,
    opts: &RehydrateOptions,
) -> Option<StopReason> {
    b.read += 1;
    let mut f = Frame::split_unhashed(off, seg);
    let torn = newest && f.seal == Seal::Missing && f.expects_seal();
    if torn {
        b.damaged += 1;
        return None;
    }
    // Most older records can add nothing once their threads are filled in: skip them
    // without hashing or parsing (the hot part of a resume).
    if b.latest.is_some()
        && !opts.exhaustive
        && let Some(g) = f.front().and_then(format::glance)
        && !b.wants(&g, f.has_facts(), opts)
    {
        return None;
    }
    // An unsealed record (the plain spec format) has nothing to check its bytes against.
    if f.stored.is_some() {
        f.hash();
    }
    if f.seal == Seal::Mismatch {
        b.damaged += 1;
        return None;
    }
    let Ok(r) = f.parse() else {
        b.damaged += 1;
        return None;
    };
    if b.latest.is_none() {
        b.latest = Some(r.ts.to_string());
    }
    if r.kind == RecordType::Alert {
        return None;
    }
    if let Some(p) = &opts.proj
        && !r.focus.iter().any(|f| &f.proj == p)
        && r.kind != RecordType::Compaction
    {
        return None;
    }
    if let (Some(want), Some(id)) = (&opts.project_id, crate::project::tagged_id(&r.tags))
        && want != id
    {
        return None;
    }
    if r.kind == RecordType::Tangent {
        if opts.tangents && b.parked.len() < LIST_PER_THREAD {
            let mut deferred = r.defer.clone();
            push_unique(&mut deferred, &r.next, LIST_PER_THREAD);
            let summary = r
                .intent
                .as_ref()
                .map(|i| i.summary.clone())
                .filter(|s| !s.is_empty())
                .or_else(|| r.facts().into_iter().next())
                .unwrap_or_default();
            b.parked.push(Parked {
                ts: r.ts.to_string(),
                focus: r.focus.clone(),
                summary,
                deferred,
            });
        }
        return None;
    }
    if r.kind == RecordType::Compaction
        && let Some(state) = carried_state(&r)
    {
        b.fold_state(state, opts.proj.as_deref());
        return Some(StopReason::Compaction);
    }
    b.fold(&r);
    None
}

// ---------------------------------------------------------------------------------------------
// Rendering to a token budget.

/// Detail levels of `trail resume --level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// At most 100 tokens: what is being done and what comes next.
    Brief,
    /// At most 500 tokens: every thread with its status, steps, deferrals and recent facts.
    Standard,
    /// Everything.
    Full,
}

impl Level {
    pub fn from_number(n: u8) -> Option<Level> {
        match n {
            1 => Some(Level::Brief),
            2 => Some(Level::Standard),
            3 => Some(Level::Full),
            _ => None,
        }
    }
    pub fn budget(self) -> Option<usize> {
        match self {
            Level::Brief => Some(100),
            Level::Standard => Some(500),
            Level::Full => None,
        }
    }
}

/// A conservative token estimate without a tokenizer (the hot path cannot load one): see
/// [`crate::tokens`].
pub fn estimate_tokens(s: &str) -> usize {
    crate::tokens::estimate(s)
}

fn label(t: &Thread) -> String {
    match (t.proj.is_empty(), t.topic.is_empty()) {
        (true, _) => "(no focus)".to_string(),
        (false, true) => t.proj.clone(),
        (false, false) => format!("{} / {}", t.proj, t.topic),
    }
}

/// Render the state as plain text within the level's budget.
pub fn render(state: &State, level: Level) -> String {
    let mut lines: Vec<(u8, String)> = Vec::new(); // (priority, text): lower is kept first
    let (max_next, max_list, max_facts) = match level {
        Level::Brief => (1, 0, 0),
        Level::Standard => (3, 3, 3),
        Level::Full => (usize::MAX, usize::MAX, usize::MAX),
    };
    if state.threads.is_empty() && state.parked.is_empty() {
        return "No pulses yet: nothing to resume.\n".into();
    }
    for (i, t) in state.threads.iter().enumerate() {
        let rank = u8::try_from(i.min(50)).unwrap_or(50);
        let mut head = format!("## {}", label(t));
        if let Some(s) = &t.status {
            if s.blocked {
                head.push_str(" [BLOCKED]");
            }
            if level != Level::Brief
                && let Some(c) = s.confidence
            {
                head.push_str(&format!(" (confidence {})", c.as_str()));
            }
        }
        lines.push((rank * 4, head));
        if let Some(it) = &t.intent {
            let text = if it.summary.is_empty() {
                format!("intent: {}", it.primary)
            } else {
                format!("intent: {} — {}", it.primary, it.summary)
            };
            lines.push((rank * 4, text));
        }
        for (j, n) in t.next.iter().take(max_next).enumerate() {
            lines.push((rank * 4 + u8::from(j > 0), format!("next: {n}")));
        }
        if level != Level::Brief {
            for d in t.deferred.iter().take(max_list) {
                lines.push((rank * 4 + 2, format!("deferred: {d}")));
            }
            for m in t
                .model_shifts
                .iter()
                .take(max_list.min(if level == Level::Full { usize::MAX } else { 1 }))
            {
                lines.push((
                    rank * 4 + 2,
                    format!("model shift ({}): {} → {}", m.ts, m.before, m.after),
                ));
            }
            for f in t.facts.iter().take(max_facts) {
                lines.push((rank * 4 + 3, format!("fact: {f}")));
            }
            if !t.files.is_empty() {
                let files: Vec<&str> = t.files.iter().take(max_list).map(String::as_str).collect();
                lines.push((rank * 4 + 3, format!("files: {}", files.join(", "))));
            }
        }
    }
    if !state.parked.is_empty() && level != Level::Brief {
        lines.push((201, "## parked tangents".into()));
        for p in state.parked.iter().take(max_list.max(1)) {
            let focus: Vec<String> = p.focus.iter().map(Focus::label).collect();
            let mut s = format!("- {}: {}", focus.join(", "), p.summary);
            if !p.deferred.is_empty() {
                s.push_str(&format!(" (deferred: {})", p.deferred.join("; ")));
            }
            lines.push((202, s));
        }
    }
    fit(lines, level.budget())
}

/// Keep lines in priority order while they fit the budget (shortening a line that almost fits),
/// then print the kept ones in document order.
fn fit(lines: Vec<(u8, String)>, budget: Option<usize>) -> String {
    let Some(budget) = budget else {
        return lines.into_iter().map(|(_, l)| l + "\n").collect();
    };
    const NOTE: usize = 14; // room kept for the "… more" line
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&i| (lines[i].0, i));
    let mut kept: Vec<Option<String>> = vec![None; lines.len()];
    let mut used = 0;
    let mut dropped = 0;
    for i in order {
        let mut text = lines[i].1.clone();
        // Estimated once per line (again only when it was shortened): a third of a plain
        // stream's resume went to estimating every line twice.
        let mut cost = estimate_tokens(&text) + 1;
        if used + cost + NOTE > budget {
            let room = budget.saturating_sub(used + NOTE + 1);
            if room >= 8 {
                text = shorten(&text, room * 3);
                cost = estimate_tokens(&text) + 1;
            }
        }
        if used + cost + NOTE > budget {
            dropped += 1;
            continue;
        }
        used += cost;
        kept[i] = Some(text);
    }
    let mut out: String = kept.into_iter().flatten().map(|l| l + "\n").collect();
    if dropped > 0 {
        out.push_str(&format!("… {dropped} more (use a higher --level)\n"));
    }
    out
}

use crate::text::clip as shorten;
