//! The re-anchor packet (issue 12 item 13): what SessionStart gives back after `/clear`, a
//! compaction or a resume, in one bounded block, most important first.
//!
//! ```text
//! part        holds                                                   read by
//! forks       where the agent's files disagree with the journals      crate::fork
//! state       mode, objective, plan step in flight, next, blockers    recovery::brief, the state file
//! junction    the pending junction, which only the user decides       the state file (signed)
//! decisions   the last decisions as identifiers, citations checked    decision::recent + standing
//!             now (what drifted since they were recorded)
//! user        the user's last prompts, word for word                  said (the host's transcript)
//! reasoning   NOTES.md's Reasoning State, Next Action, checkpoint     notes::active
//! in flight   the last tool calls and how they ended                  said (the host's transcript)
//! thread      this project's rehydrated thread                        ledger::scope
//! memory      verified core memory                                    memory::context
//! ```
//!
//! [`assemble`] orders the parts from what the hook read; [`Packet::render`] fits them to a
//! token budget (`context.reanchor_tokens`, [`crate::tokens::estimate`]) a line at a time,
//! shortening the line that no longer fits, and says what it left out. Every part says who wrote
//! it ([`crate::host::inject`]): text the agent could have written is framed as its notes, the
//! user's words as quoted from the transcript, and instruction-like lines are flagged. The
//! caller redacts the packet ([`Packet::redact`]) before rendering, so the budget holds for what
//! is shown.
//!
//! [`given`] keeps a packet from reaching one session chain twice: each part's content hash is
//! journalled, and a resumed context (which still holds what it was given) gets only the parts
//! that changed. A compaction or a `/clear` empties the context window, so there the whole
//! packet is given again.

pub mod given;
pub mod said;
pub use crate::grounding::standing;

use serde::Serialize;

use crate::host::inject::{self, Author};
use crate::secrets::Pass;
use crate::tokens::estimate;

/// One part: a title (none: its items carry their own), who wrote its lines (`None`: trail's
/// own words, not framed), its items (each a line, or a few for a quoted prompt), bulleted or
/// kept as they are (a rendered thread keeps its indentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub name: &'static str,
    pub title: String,
    pub author: Option<Author>,
    pub items: Vec<String>,
    pub bulleted: bool,
    /// Its items were redacted before they reached the packet (the pulse stream's records when
    /// written, core memory when gathered): [`Packet::redact`] leaves them be.
    pub redacted: bool,
}

impl Part {
    /// Its content hash: what [`given`] compares (16 hex digits of SHA-256 over name and items).
    pub fn hash(&self) -> String {
        let mut s = String::from(self.name);
        for i in &self.items {
            s.push('\0');
            s.push_str(i);
        }
        crate::text::sha256_hex(s.as_bytes())[..16].to_string()
    }
}

/// The parts, most important first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Packet {
    pub parts: Vec<Part>,
}

/// What [`Packet::render`] made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rendered {
    pub text: String,
    /// [`crate::tokens::estimate`] of `text`.
    pub tokens: usize,
    /// Parts cut short or left out for the budget.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cut: Vec<&'static str>,
}

/// What the lines left out are replaced by.
const MORE: &str = "… cut for the packet's budget (context.reanchor_tokens): `trail resume --level 3` has everything";
/// A line shorter than this is not worth shortening to fit: the part stops there.
const MIN_CLIPPED: usize = 24;

impl Packet {
    pub fn is_empty(&self) -> bool {
        self.parts.iter().all(|p| p.items.is_empty())
    }

    /// Every title and item not redacted yet, redacted through `p` (the originals kept by the
    /// service).
    pub fn redact(&mut self, p: &mut Pass<'_>) {
        for part in self.parts.iter_mut().filter(|p| !p.redacted) {
            part.title = p.redact(&part.title).into_owned();
            for i in &mut part.items {
                *i = p.redact(i).into_owned();
            }
        }
    }

    /// The parts whose content hash is not in `known` (parts given already are left out).
    pub fn without(mut self, known: &[(String, String)]) -> (Packet, Vec<&'static str>) {
        let mut dropped = Vec::new();
        self.parts.retain(|p| {
            let seen = known.iter().any(|(n, h)| n == p.name && *h == p.hash());
            if seen && !p.items.is_empty() {
                dropped.push(p.name);
            }
            !seen
        });
        (self, dropped)
    }

    /// `head`, the legend of who wrote what, then the parts in order, within `budget` estimated
    /// tokens: each part's heading and as many of its items as fit, the item that does not fit
    /// shortened when enough room is left for it to say something. Once a part is cut, a later
    /// (less important) part comes in only whole. Parts cut or left out are named in `cut`.
    pub fn render(&self, head: &str, budget: usize) -> Rendered {
        let room = budget.saturating_sub(estimate(MORE) + 1);
        let mut text = format!("{head}\n");
        let mut authors: Vec<Author> = Vec::new();
        for a in self
            .parts
            .iter()
            .filter(|p| !p.items.is_empty())
            .filter_map(|p| p.author)
        {
            if !authors.contains(&a) {
                authors.push(a);
            }
        }
        if !authors.is_empty() {
            text.push_str(&Author::legend(&authors));
            text.push('\n');
        }
        // Counted piece by piece: the estimate of a text is at most the sum of its pieces'
        // (each ends a line, and each counts its own token of slack), so the sum keeps to the
        // budget without estimating the whole text again for every line.
        let mut used = estimate(&text);
        let mut cut = Vec::new();
        for part in self.parts.iter().filter(|p| !p.items.is_empty()) {
            match part.block(room.saturating_sub(used), cut.is_empty()) {
                Some((b, tokens, whole)) => {
                    text.push_str(&b);
                    used += tokens;
                    if !whole {
                        cut.push(part.name);
                    }
                }
                None => cut.push(part.name),
            }
        }
        if !cut.is_empty() {
            text.push_str(MORE);
            text.push('\n');
        }
        Rendered {
            tokens: estimate(&text),
            text,
            cut,
        }
    }
}

impl Part {
    /// The part within `room` tokens, its tokens (the sum of its lines') and whether it is
    /// whole; `None` when not even its first item fits. With `shorten`, the item that does not
    /// fit is shortened to fit.
    fn block(&self, room: usize, shorten: bool) -> Option<(String, usize, bool)> {
        let mut block = String::from("\n");
        match (self.title.is_empty(), self.author) {
            (true, _) => {}
            (false, Some(a)) => block.push_str(&format!("{} [{}]:\n", self.title, a.tag())),
            (false, None) => block.push_str(&format!("{}:\n", self.title)),
        }
        let mut used = estimate(&block);
        let mut items = 0;
        for item in &self.items {
            let line = item_text(item, self.author.is_some(), self.bulleted);
            let tokens = estimate(&line);
            if used + tokens <= room {
                block.push_str(&line);
                used += tokens;
                items += 1;
                continue;
            }
            if shorten && let Some(short) = shortened(&line, room.saturating_sub(used)) {
                used += estimate(&short);
                block.push_str(&short);
                items += 1;
            }
            return (items > 0).then_some((block, used, false));
        }
        Some((block, used, true))
    }
}

/// An item as its lines: bulleted (`- ` first, continuation lines indented) or as they are,
/// instruction-like lines flagged when the part is framed (someone other than trail wrote it).
fn item_text(item: &str, framed: bool, bulleted: bool) -> String {
    let body = item.trim_end();
    let body = if framed {
        inject::flag_lines(body)
    } else {
        body.to_string()
    };
    let mut out = String::with_capacity(body.len() + 8);
    for (k, l) in body.split('\n').enumerate() {
        if bulleted {
            out.push_str(if k == 0 { "- " } else { "  " });
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// `line` cut to fit `tokens`, or `None` when too little of it would be left.
fn shortened(line: &str, tokens: usize) -> Option<String> {
    let mut chars = line.chars().count();
    loop {
        chars = chars * 4 / 5;
        if chars < MIN_CLIPPED {
            return None;
        }
        let mut s = crate::text::clip(line.trim_end(), chars);
        s.push('\n');
        if estimate(&s) <= tokens {
            return Some(s);
        }
    }
}

/// What the hook read for the packet (each already bounded: the last few of everything).
#[derive(Clone, Debug, Default)]
pub struct Sources<'a> {
    /// The Operator's Edge mode, when a state file names one.
    pub mode: Option<&'a str>,
    /// Objective, step in flight, next, blockers ([`crate::recovery::brief`]).
    pub brief: Option<&'a crate::recovery::Brief>,
    /// The pending junction, as trail's gate words it.
    pub junction: Option<String>,
    /// The last decisions, newest first, checked now.
    pub decisions: &'a [standing::Standing],
    /// NOTES.md's Active Context.
    pub notes: Option<&'a crate::notes::Active>,
    /// The end of the conversation.
    pub said: Option<&'a said::Said>,
    /// This project's rehydrated thread, rendered (from records redacted when written); its
    /// heading.
    pub thread: Option<(&'a str, &'a str)>,
    /// Core memory blocks, each framed and redacted already (`memory::context`).
    pub memory: &'a [String],
    /// Forks found ([`crate::fork`]): what disagrees with the journals.
    pub forks: &'a [crate::fork::Fork],
}

/// The longest a quoted prompt is kept (a pasted log is not the user's intent).
pub const PROMPT_CHARS: usize = 800;

impl Part {
    fn new(name: &'static str, title: &str, author: Option<Author>, items: Vec<String>) -> Part {
        Part {
            name,
            title: title.to_string(),
            author,
            items,
            bulleted: true,
            redacted: false,
        }
    }
}

/// The packet's parts from what was read, most important first.
pub fn assemble(s: &Sources<'_>) -> Packet {
    let said = s.said.cloned().unwrap_or_default();
    let mut parts = vec![
        Part::new(
            "forks",
            "what disagrees with the journals (they win)",
            None,
            s.forks.iter().map(crate::fork::Fork::line).collect(),
        ),
        Part::new(
            "state",
            "where the work stands (active_context.yaml)",
            Some(Author::Agent),
            state_items(s),
        ),
        Part::new(
            "junction",
            "pending junction",
            None,
            s.junction.iter().cloned().collect(),
        ),
        Part::new(
            "decisions",
            "last decisions, newest first, citations checked just now (`trail show` retrieves one)",
            Some(Author::Agent),
            s.decisions.iter().map(decision_item).collect(),
        ),
        Part::new(
            "user",
            "the user's last prompts, oldest first, word for word",
            Some(Author::Transcript),
            said.prompts
                .iter()
                .map(|p| crate::text::clip(p.trim(), PROMPT_CHARS))
                .collect(),
        ),
        Part::new(
            "reasoning",
            "NOTES.md Active Context",
            Some(Author::Agent),
            s.notes.map(reasoning_items).unwrap_or_default(),
        ),
        Part::new(
            "in flight",
            "the last tool calls, oldest first",
            Some(Author::Transcript),
            said.calls.iter().map(call_item).collect(),
        ),
    ];
    if let Some((title, text)) = s.thread {
        parts.push(Part {
            bulleted: false,
            redacted: true,
            ..Part::new(
                "thread",
                title,
                Some(Author::Agent),
                text.lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(str::to_string)
                    .collect(),
            )
        });
    }
    // Each block says its own source and author already.
    parts.push(Part {
        bulleted: false,
        redacted: true,
        ..Part::new("memory", "", None, s.memory.to_vec())
    });
    Packet { parts }
}

fn state_items(s: &Sources<'_>) -> Vec<String> {
    let mut state = Vec::new();
    if let Some(m) = s.mode {
        state.push(format!("mode: {m}"));
    }
    if let Some(b) = s.brief {
        state.extend(b.objective.iter().map(|o| format!("objective: {o}")));
        // Only the plan's step is a plan step: NOTES.md's reasoning (often trail's "last
        // decision …") is where the work stands, not a step (issue 21: a decision's title was
        // named the plan step in flight when there was no plan).
        let label = if b.step_is_planned {
            "plan step in flight"
        } else {
            "now"
        };
        state.extend(b.current_step.iter().map(|c| format!("{label}: {c}")));
        state.extend(b.next_step.iter().map(|n| format!("next: {n}")));
        state.extend(b.blockers.iter().map(|x| format!("blocked: {x}")));
    }
    state
}

fn decision_item(d: &standing::Standing) -> String {
    format!(
        "[{}] {} — {}",
        d.id,
        crate::text::one_line(&d.title, 80),
        d.status()
    )
}

fn reasoning_items(n: &crate::notes::Active) -> Vec<String> {
    let mut out = Vec::new();
    out.extend(n.reasoning.iter().map(|r| format!("reasoning state: {r}")));
    out.extend(n.next.iter().map(|r| format!("next action: {r}")));
    out.extend(
        n.last_checkpoint
            .iter()
            .map(|r| format!("last checkpoint: {r}")),
    );
    out
}

fn call_item(c: &said::Call) -> String {
    format!(
        "{}: {} ({})",
        c.tool,
        crate::text::one_line(&c.on, 200),
        c.outcome.as_str()
    )
}

#[cfg(test)]
mod tests;
