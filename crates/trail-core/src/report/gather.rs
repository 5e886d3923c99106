//! Reading every journal once and folding it into a [`Report`] (see the module docs of
//! [`super`]).

use std::collections::{BTreeMap, HashMap};
use std::io::BufRead as _;
use std::path::Path;

use super::{
    CitationRow, Counts, DecisionRow, Event, EventKind, FILL_POINTS, FillPoint, Options,
    ProjectPart, Report, SessionPart, StopFamily, StopRule, Summary,
};
use crate::ledger::record::{Record, RecordType};
use crate::ledger::{LedgerError, query::Found};
use crate::secrets::{Pass, SecretsError};
use crate::state::grants::{Grant, Journal};
use crate::text::one_line;
use crate::time::Ts;
use crate::timeline::{self, Seen};
use crate::workspace::Workspace;

/// How long an event's text may be (a line), and its detail.
const TEXT: usize = 240;
const DETAIL: usize = 600;
/// The latest actions kept per gate rule.
const EXAMPLES: usize = 3;

/// Why no report could be made. A journal that cannot be read is not one: it is named in
/// [`Report::problems`], and the rest is shown.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    #[error(transparent)]
    Secrets(#[from] SecretsError),
}

/// A session being gathered.
struct SessionAcc {
    start: Ts,
    end: Ts,
    counts: Counts,
    events: Vec<Event>,
    omitted: u64,
    fill: Vec<FillPoint>,
    /// Has an event of its own (not only a grant placed in it by time).
    real: bool,
}

impl SessionAcc {
    fn new(at: Ts) -> SessionAcc {
        SessionAcc {
            start: at,
            end: at,
            counts: Counts::default(),
            events: Vec::new(),
            omitted: 0,
            fill: Vec::new(),
            real: false,
        }
    }

    fn saw(&mut self, at: Ts) {
        self.start = self.start.min(at);
        self.end = self.end.max(at);
        self.real = true;
    }

    /// Keep `e`; past twice the cap, the oldest beyond the cap are dropped and counted.
    fn push(&mut self, e: Event, cap: usize) {
        self.saw(e.at);
        self.events.push(e);
        if self.events.len() > cap.saturating_mul(2).max(1) {
            self.trim(cap);
        }
    }

    fn trim(&mut self, cap: usize) {
        self.events.sort_by_key(|e| e.at);
        let over = self.events.len().saturating_sub(cap);
        self.events.drain(..over);
        self.omitted += over as u64;
    }
}

/// A project being gathered: its sessions by id (`None`: outside any session), and what its
/// gate stopped, by kind and rule.
#[derive(Default)]
struct ProjectAcc {
    sessions: HashMap<Option<String>, SessionAcc>,
    stops: BTreeMap<(String, String), StopRule>,
    /// A junction's fingerprint (its first 16 hex digits), the rule that raised it and its
    /// session: what a grant is joined on.
    junctions: HashMap<String, (String, Option<String>)>,
    decisions: Vec<DecisionRow>,
    journals: bool,
}

impl ProjectAcc {
    fn session(&mut self, id: Option<&str>, at: Ts) -> &mut SessionAcc {
        self.sessions
            .entry(id.map(String::from))
            .or_insert_with(|| SessionAcc::new(at))
    }

    /// The session whose span holds `at` (the latest to start before it), for a fact that
    /// names none.
    fn session_at(&self, at: Ts) -> Option<String> {
        self.sessions
            .iter()
            .filter(|(id, s)| id.is_some() && s.real && s.start <= at && at <= s.end)
            .max_by_key(|(_, s)| s.start)
            .and_then(|(id, _)| id.clone())
    }
}

struct Gatherer<'a> {
    opts: &'a Options,
    projects: HashMap<String, ProjectAcc>,
    here: String,
    here_id: String,
    root: String,
    problems: Vec<String>,
}

/// Gather the report `opts` asks for in the workspace `ws`.
pub fn gather(ws: &Workspace, opts: &Options) -> Result<Report, ReportError> {
    let project = ws.project();
    let mut g = Gatherer {
        opts,
        projects: HashMap::new(),
        here: project.name.clone(),
        here_id: project.id.clone(),
        root: ws.root.display().to_string(),
        problems: Vec::new(),
    };
    let read_here = opts.proj.as_ref().is_none_or(|p| *p == g.here);
    if read_here {
        g.projects.entry(g.here.clone()).or_default().journals = true;
    }
    ws.ledger
        .visit_all(opts.since, &mut |f: Found| g.record(&f.record))?;
    if read_here {
        let root = ws.root.as_path();
        g.proof_log(root);
        g.timeline(root);
        g.grants(ws);
        g.decisions(ws);
        g.injected(root);
    }
    let mut report = g.finish(opts);
    redact(ws, &mut report)?;
    Ok(report)
}

impl Gatherer<'_> {
    fn kept(&self, proj: &str) -> bool {
        self.opts.proj.as_ref().is_none_or(|p| p == proj)
    }

    fn cap(&self) -> usize {
        self.opts.events
    }

    /// One record of the stream.
    fn record(&mut self, r: &Record) {
        // A record of this project by its id names it even under another name (a renamed
        // directory); otherwise its first focus does.
        let by_id = crate::project::tagged_id(&r.tags).is_some_and(|id| id == self.here_id);
        let proj = if by_id {
            self.here.clone()
        } else {
            r.focus
                .first()
                .map_or_else(|| "(no project)".to_string(), |f| f.proj.clone())
        };
        if !self.kept(&proj) {
            return;
        }
        let cap = self.cap();
        let session = timeline::tagged_session(&r.tags).map(String::from);
        let p = self.projects.entry(proj).or_default();
        let facts = r.facts();
        let has = |t: &str| r.tags.iter().any(|x| x == t);
        let tag = |prefix: &str| {
            r.tags
                .iter()
                .find_map(|t| t.strip_prefix(prefix))
                .map(String::from)
        };
        let text = r
            .intent
            .as_ref()
            .map(|i| {
                if i.summary.is_empty() {
                    i.primary.clone()
                } else {
                    i.summary.clone()
                }
            })
            .or_else(|| facts.first().cloned())
            .unwrap_or_default();
        let mut detail: Vec<String> = facts.iter().skip(1).cloned().collect();
        detail.extend(r.next.iter().map(|n| format!("next: {n}")));
        let kind = if has("gate") {
            let verdict = if has("blocked") {
                EventKind::Blocked
            } else if has("refused") {
                EventKind::Refused
            } else {
                EventKind::Junction
            };
            let rule = tag("rule:").unwrap_or_else(|| "gate".into());
            let family = tag("kind:").unwrap_or_else(|| "refused".into());
            let s = p.stops.entry((family, rule.clone())).or_default();
            s.rule.clone_from(&rule);
            match verdict {
                EventKind::Junction => s.junctions += 1,
                _ => s.blocked += 1,
            }
            // Newest first: the stream is read from its end.
            if s.examples.len() < EXAMPLES {
                s.examples.push(one_line(&text, TEXT));
            }
            // The fingerprint an approval names (`trail_guard::GRANT_TAG`, written by the
            // hook above this crate).
            if let Some(fp) = tag("grant:") {
                p.junctions.insert(fp, (rule, session.clone()));
            }
            verdict
        } else {
            match r.kind {
                RecordType::Tangent => EventKind::Tangent,
                RecordType::Handoff => EventKind::Handoff,
                RecordType::Alert => EventKind::Alert,
                RecordType::Compaction => EventKind::Compaction,
                _ if r.intent.as_ref().is_some_and(|i| i.primary == "switch") => EventKind::Switch,
                RecordType::Checkpoint if has("compaction") && !p.journals => EventKind::Compaction,
                RecordType::Checkpoint => EventKind::Checkpoint,
                RecordType::Pulse => EventKind::Pulse,
            }
        };
        let journals = p.journals;
        let s = p.session(session.as_deref(), r.ts);
        s.counts.records += 1;
        match kind {
            EventKind::Blocked | EventKind::Refused => s.counts.blocked += 1,
            EventKind::Junction => s.counts.junctions += 1,
            EventKind::Tangent => s.counts.tangents += 1,
            EventKind::Switch => s.counts.switches += 1,
            EventKind::Checkpoint => s.counts.checkpoints += 1,
            // The timeline counts this project's compactions; the stream, another's.
            EventKind::Compaction if !journals => s.counts.compactions += 1,
            _ => {}
        }
        s.push(
            Event {
                at: r.ts,
                kind,
                text: one_line(&text, TEXT),
                ok: None,
                detail: one_line(&detail.join("; "), DETAIL),
            },
            cap,
        );
    }

    fn here_acc(&mut self) -> &mut ProjectAcc {
        self.projects.entry(self.here.clone()).or_default()
    }

    /// The project's proof log: a tool call a line, read as a stream.
    fn proof_log(&mut self, root: &Path) {
        let path = crate::proof::log_path(root);
        let file = match crate::fsutil::open_in(root, &path, crate::fsutil::Access::Read) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
            Err(e) => {
                self.problems
                    .push(format!("cannot read {}: {e}", path.display()));
                return;
            }
        };
        let since = self.opts.since;
        let cap = self.cap();
        let mut bad = 0usize;
        for line in std::io::BufReader::new(file).lines() {
            let Ok(line) = line else {
                bad += 1;
                continue;
            };
            if line.trim().is_empty() {
                continue;
            }
            let Ok(e) = serde_json::from_str::<crate::proof::Entry>(&line) else {
                bad += 1;
                continue;
            };
            let Ok(at) = Ts::parse_loose(&e.timestamp) else {
                bad += 1;
                continue;
            };
            if since.is_some_and(|s| at < s) {
                continue;
            }
            let what = match &e.file_touched {
                Some(f) => format!("{} {f}", e.tool),
                None => format!("{} {}", e.tool, one_line(&e.input_preview, TEXT)),
            };
            let s = self.here_acc().session(e.session_id.as_deref(), at);
            s.counts.tools += 1;
            if !e.success {
                s.counts.failures += 1;
            }
            s.push(
                Event {
                    at,
                    kind: EventKind::Tool,
                    text: one_line(&what, TEXT),
                    ok: Some(e.success),
                    detail: e
                        .error
                        .as_deref()
                        .map(|x| one_line(x, DETAIL))
                        .unwrap_or_default(),
                },
                cap,
            );
        }
        if bad > 0 {
            self.problems.push(format!(
                "{}: {bad} line(s) are not tool calls and were skipped",
                path.display()
            ));
        }
    }

    /// The project's timeline: prompts, fill, starts, compactions.
    fn timeline(&mut self, root: &Path) {
        let read = match timeline::read(root, self.opts.since) {
            Ok(r) => r,
            Err(e) => {
                self.problems.push(e.to_string());
                return;
            }
        };
        if !read.bad.is_empty() {
            self.problems.push(format!(
                "the timeline (.trail/state/timeline/): {} line(s) could not be read",
                read.bad.len()
            ));
        }
        let cap = self.cap();
        for (_, l) in read.items {
            let s = self.here_acc().session(Some(&l.session), l.at);
            let (kind, text) = match l.seen {
                Seen::Fill { context, window } => {
                    s.saw(l.at);
                    s.fill.push(FillPoint {
                        at: l.at,
                        context,
                        window,
                        zone: crate::attention::Zone::Green,
                    });
                    continue;
                }
                Seen::Prompt { text } => {
                    s.counts.prompts += 1;
                    (EventKind::Prompt, text)
                }
                Seen::Start { source } if source == "clear" => {
                    s.counts.clears += 1;
                    (EventKind::Clear, "/clear: a new context".to_string())
                }
                Seen::Start { source } => (EventKind::Start, format!("session start ({source})")),
                Seen::Compaction {
                    trigger,
                    pre_tokens,
                } => {
                    s.counts.compactions += 1;
                    let from = pre_tokens.map(|t| format!(" from {t} tokens"));
                    (
                        EventKind::Compaction,
                        format!(
                            "compaction ({}){}",
                            trigger.as_deref().unwrap_or("host"),
                            from.unwrap_or_default()
                        ),
                    )
                }
            };
            s.push(
                Event {
                    at: l.at,
                    kind,
                    text: one_line(&text, TEXT),
                    ok: None,
                    detail: String::new(),
                },
                cap,
            );
        }
    }

    /// The signed grants journal: who approved or dismissed, and when.
    fn grants(&mut self, ws: &Workspace) {
        let key = match crate::secrets::key::Key::load(&ws.config.secrets_dir.value) {
            Ok(k) => k,
            Err(e) => {
                self.problems
                    .push(format!("cannot read the person's key: {e}"));
                return;
            }
        };
        let state_dir = crate::layout::Layout::new(&ws.root).state_dir();
        let journal = match Journal::read(&state_dir, key.as_ref()) {
            Ok(j) => j,
            Err(e) => {
                self.problems
                    .push(format!("cannot read the grants journal: {e}"));
                return;
            }
        };
        if journal.forged > 0 {
            self.problems.push(format!(
                "the grants journal has {} line(s) without a valid signature: they granted nothing and are not shown",
                journal.forged
            ));
        }
        let cap = self.cap();
        let since = self.opts.since;
        for g in journal.grants() {
            let Some((at, kind, text, by, rule, junction)) = grant_event(g) else {
                continue;
            };
            let Ok(at) = Ts::parse_loose(at) else {
                continue;
            };
            if since.is_some_and(|s| at < s) {
                continue;
            }
            let p = self.here_acc();
            let joined = junction.as_ref().and_then(|j| p.junctions.get(j)).cloned();
            let rule = rule.or_else(|| joined.as_ref().map(|(r, _)| r.clone()));
            if let Some(rule) = &rule
                && let Some((_, s)) = p.stops.iter_mut().find(|((_, r), _)| r == rule)
            {
                match kind {
                    EventKind::Approved => s.approved += 1,
                    _ => s.dismissed += 1,
                }
            }
            let session = joined.and_then(|(_, s)| s).or_else(|| p.session_at(at));
            let s = p.session(session.as_deref(), at);
            match kind {
                EventKind::Approved => s.counts.approvals += 1,
                _ => s.counts.dismissals += 1,
            }
            let by = match by {
                crate::state::grants::By::Terminal => "by the person, in a terminal",
                crate::state::grants::By::Prompt => "by the person, typed as /edge",
            };
            s.push(
                Event {
                    at,
                    kind,
                    text: one_line(&text, TEXT),
                    ok: None,
                    detail: by.into(),
                },
                cap,
            );
        }
    }

    /// The trajectory's decisions, each citation checked now.
    fn decisions(&mut self, ws: &Workspace) {
        let read = match crate::trajectory::journal::read(&ws.root, self.opts.since) {
            Ok(r) => r,
            Err(e) => {
                self.problems.push(e.to_string());
                return;
            }
        };
        let entries: Vec<_> = read
            .items
            .into_iter()
            .filter_map(|(_, e)| {
                let d = e.decision()?.clone();
                Some((e.ts, e.session_id.clone(), d))
            })
            .collect();
        let cite_root = ws.citation_root();
        let standing = match crate::grounding::standing::recheck(
            &cite_root,
            entries.iter().map(|(_, _, d)| d),
        ) {
            Ok(s) => s,
            Err(e) => {
                self.problems
                    .push(format!("cannot check the decisions' citations: {e}"));
                Vec::new()
            }
        };
        let cap = self.cap();
        for (i, (at, session, d)) in entries.iter().enumerate() {
            let st = standing.get(i);
            let citations = d
                .evidence
                .iter()
                .enumerate()
                .map(|(k, e)| {
                    let cited = crate::grounding::Cited::from_evidence(e);
                    let target = cited.target.ok();
                    CitationRow {
                        citation: e.citation.clone(),
                        path: target.as_ref().map(|t| t.path.clone()),
                        line: target.as_ref().map(|t| t.start),
                        status: st
                            .and_then(|s| s.citations.get(k))
                            .map_or_else(|| "unchecked".into(), |c| c.now.as_str().to_string()),
                    }
                })
                .collect();
            let row = DecisionRow {
                id: d.id.clone(),
                title: d.title.clone(),
                decision: one_line(&d.decision, DETAIL),
                at: *at,
                session: session.clone(),
                grounding: st.map_or_else(
                    || "unchecked".into(),
                    crate::grounding::standing::Standing::status,
                ),
                citations,
            };
            let p = self.here_acc();
            let s = p.session(session.as_deref(), *at);
            s.push(
                Event {
                    at: *at,
                    kind: EventKind::Decision,
                    text: one_line(&format!("{}: {}", d.id, d.title), TEXT),
                    ok: None,
                    detail: one_line(&row.grounding, DETAIL),
                },
                cap,
            );
            p.decisions.push(row);
        }
    }

    /// Tokens injected into each of this project's sessions.
    fn injected(&mut self, root: &Path) {
        let ids: Vec<String> = self
            .here_acc()
            .sessions
            .keys()
            .filter_map(Clone::clone)
            .collect();
        for id in ids {
            match crate::injected::tally(root, &id) {
                Ok(t) => {
                    if let Some(s) = self.here_acc().sessions.get_mut(&Some(id)) {
                        s.counts.injected_tokens += t.tokens;
                    }
                }
                Err(e) => self.problems.push(e.to_string()),
            }
        }
    }

    fn finish(self, opts: &Options) -> Report {
        let mut summary = Summary::default();
        let mut first: Option<Ts> = None;
        let mut last: Option<Ts> = None;
        let mut projects: Vec<(Ts, ProjectPart)> = Vec::new();
        for (name, acc) in self.projects {
            // The workspace's project is asked about even when nothing of it was recorded.
            if acc.sessions.is_empty() && acc.decisions.is_empty() && acc.stops.is_empty() {
                continue;
            }
            let mut counts = Counts::default();
            let mut sessions: Vec<SessionPart> = Vec::new();
            let mut latest = Ts::from_micros(0);
            for (id, mut s) in acc.sessions {
                s.trim(opts.events);
                counts.add(&s.counts);
                first = Some(first.map_or(s.start, |f| f.min(s.start)));
                last = Some(last.map_or(s.end, |l| l.max(s.end)));
                latest = latest.max(s.end);
                if id.is_some() {
                    summary.sessions += 1;
                    let micros = s.end.as_micros().saturating_sub(s.start.as_micros());
                    summary.minutes += u64::try_from(micros / 60_000_000).unwrap_or(0);
                }
                s.fill.sort_by_key(|f| f.at);
                zone_points(&mut s.fill, opts.zones);
                sessions.push(SessionPart {
                    id,
                    start: s.start,
                    end: s.end,
                    counts: s.counts,
                    events: s.events,
                    omitted: s.omitted,
                    fill: thin(s.fill, FILL_POINTS),
                });
            }
            sessions.sort_by_key(|s| std::cmp::Reverse(s.end));
            let sessions_omitted = sessions.len().saturating_sub(opts.sessions);
            sessions.truncate(opts.sessions);
            let mut families: BTreeMap<String, Vec<StopRule>> = BTreeMap::new();
            for ((kind, _), rule) in acc.stops {
                families.entry(kind).or_default().push(rule);
            }
            let stops = families
                .into_iter()
                .map(|(kind, mut rules)| {
                    rules.sort_by_key(|r| std::cmp::Reverse(r.blocked + r.junctions));
                    StopFamily { kind, rules }
                })
                .collect();
            let mut decisions = acc.decisions;
            decisions.sort_by_key(|d| std::cmp::Reverse(d.at));
            summary.decisions += decisions.len() as u64;
            add_summary(&mut summary, &counts);
            projects.push((
                latest,
                ProjectPart {
                    name,
                    journals: acc.journals,
                    counts,
                    sessions,
                    sessions_omitted,
                    decisions,
                    stops,
                },
            ));
        }
        projects.sort_by_key(|(t, p)| (std::cmp::Reverse(*t), p.name.clone()));
        summary.projects = projects.len();
        summary.first = first.map(|t| t.to_string());
        summary.last = last.map(|t| t.to_string());
        Report {
            generated: Ts::now(),
            since: opts.since.map(|t| t.to_string()),
            proj: opts.proj.clone(),
            here: self.here,
            root: self.root,
            zones: opts.zones,
            summary,
            projects: projects.into_iter().map(|(_, p)| p).collect(),
            problems: self.problems,
        }
    }
}

/// A grant as an event: when, approved or dismissed, what, by which path, the rule a
/// dismissal names and the fingerprint an approval names (its first 16 hex digits).
type GrantEvent<'a> = (
    &'a String,
    EventKind,
    String,
    crate::state::grants::By,
    Option<String>,
    Option<String>,
);

fn grant_event(g: &Grant) -> Option<GrantEvent<'_>> {
    Some(match g {
        Grant::Allow {
            at,
            id,
            by,
            action,
            fingerprint,
        } => (
            at,
            EventKind::Approved,
            format!(
                "approved {id}{}",
                action
                    .as_deref()
                    .map(|a| format!(": {}", one_line(a, TEXT)))
                    .unwrap_or_default()
            ),
            *by,
            None,
            Some(crate::text::head(fingerprint, 16).to_string()),
        ),
        Grant::Dismiss {
            at,
            by,
            rule,
            expires_at,
            ..
        } => (
            at,
            EventKind::Dismissed,
            format!(
                "dismissed [{}] until {expires_at}",
                rule.as_deref().unwrap_or("a rule")
            ),
            *by,
            rule.clone(),
            None,
        ),
        Grant::Consume { .. } => return None,
    })
}

fn add_summary(s: &mut Summary, c: &Counts) {
    s.records += c.records;
    s.prompts += c.prompts;
    s.commands += c.tools;
    s.failures += c.failures;
    s.blocked += c.blocked;
    s.junctions += c.junctions;
    s.approvals += c.approvals;
    s.dismissals += c.dismissals;
    s.compactions += c.compactions;
    s.clears += c.clears;
    s.injected_tokens += c.injected_tokens;
}

/// Each point's zone: tokens added since the first point, or since the context last shrank
/// (a compaction, by the budget's own rule: below the baseline, or by more than a fifth).
fn zone_points(points: &mut [FillPoint], zones: crate::attention::Zones) {
    let mut baseline: Option<u64> = None;
    let mut last = 0u64;
    for p in points {
        let shrank = p.context < baseline.unwrap_or(0)
            || p.context.saturating_mul(5) < last.saturating_mul(4);
        if baseline.is_none() || shrank {
            baseline = Some(p.context);
        }
        p.zone = zones.zone(p.context - baseline.unwrap_or(p.context));
        last = p.context;
    }
}

/// At most `max` points, evenly spaced, the first and the last always kept.
fn thin(points: Vec<FillPoint>, max: usize) -> Vec<FillPoint> {
    if points.len() <= max || max < 2 {
        return points;
    }
    let n = points.len();
    (0..max).map(|i| points[i * (n - 1) / (max - 1)]).collect()
}

/// Every text of the report redacted once more as it goes out: the journals were written
/// redacted, but one written by an older trail, or by hand, may not have been. Nothing is kept
/// (a dry pass): what was stored already has its original on file.
fn redact(ws: &Workspace, r: &mut Report) -> Result<(), SecretsError> {
    ws.secrets.dry_pass(|p: &mut Pass<'_>| {
        for proj in &mut r.projects {
            p.redact_in_place(&mut proj.name);
            for s in &mut proj.sessions {
                for e in &mut s.events {
                    p.redact_in_place(&mut e.text);
                    p.redact_in_place(&mut e.detail);
                }
            }
            for d in &mut proj.decisions {
                p.redact_in_place(&mut d.title);
                p.redact_in_place(&mut d.decision);
                p.redact_in_place(&mut d.grounding);
                for c in &mut d.citations {
                    p.redact_in_place(&mut c.citation);
                }
            }
            for f in &mut proj.stops {
                for rule in &mut f.rules {
                    for x in &mut rule.examples {
                        p.redact_in_place(x);
                    }
                }
            }
        }
        for x in &mut r.problems {
            p.redact_in_place(x);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(i: i64) -> FillPoint {
        FillPoint {
            at: Ts::from_micros(i),
            context: u64::try_from(i).unwrap(),
            window: None,
            zone: crate::attention::Zone::Green,
        }
    }

    #[test]
    fn thinning_keeps_the_ends_and_at_most_max() {
        let pts: Vec<FillPoint> = (0..1000).map(point).collect();
        let t = thin(pts, 240);
        assert_eq!(t.len(), 240);
        assert_eq!(t[0].context, 0);
        assert_eq!(t[239].context, 999);
        assert!(t.windows(2).all(|w| w[0].at < w[1].at));
        let few: Vec<FillPoint> = (0..5).map(point).collect();
        assert_eq!(thin(few, 240).len(), 5);
    }

    #[test]
    fn zones_count_from_the_start_and_restart_after_a_compaction() {
        let zones = crate::attention::Zones::DEFAULT;
        let mut pts: Vec<FillPoint> = [20_000, 26_000, 31_000, 36_000, 9_000, 15_000]
            .into_iter()
            .enumerate()
            .map(|(i, c)| FillPoint {
                context: c,
                ..point(i64::try_from(i).unwrap())
            })
            .collect();
        zone_points(&mut pts, zones);
        let got: Vec<&str> = pts.iter().map(|p| p.zone.as_str()).collect();
        assert_eq!(got, ["green", "yellow", "orange", "red", "green", "yellow"]);
    }

    #[test]
    fn a_session_keeps_its_latest_events_and_counts_the_rest() {
        let mut s = SessionAcc::new(Ts::from_micros(0));
        for i in (0..1000).rev() {
            s.push(
                Event {
                    at: Ts::from_micros(i),
                    kind: EventKind::Tool,
                    text: format!("call {i}"),
                    ok: Some(true),
                    detail: String::new(),
                },
                50,
            );
        }
        s.trim(50);
        assert_eq!(s.events.len(), 50);
        assert_eq!(s.omitted, 950);
        assert_eq!(s.events[0].text, "call 950");
        assert_eq!(s.end, Ts::from_micros(999));
    }
}
