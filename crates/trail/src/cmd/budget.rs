//! `trail budget [--transcript PATH] [--json]`: the attention budget's zone (Lossless Ledger
//! FR-4): how full the context is, how many tokens were added since the baseline, where that
//! baseline comes from, and what the zone does. It only looks: the prompt hook acts on a zone
//! and keeps the mark. The session file is read from its end (and, for a session no hook has
//! measured, up to its first answer), never parsed whole.

use std::path::Path;

use serde::Serialize;
use trail_core::attention::{self, Basis, Measure, Setup, Zone, Zones};
use trail_core::grounding::Enforcement;
use trail_core::time::Ts;

use crate::cli::BudgetArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

#[derive(Serialize)]
struct Answer<'a> {
    transcript: String,
    /// `unknown` when the session has no measured size yet (or just compacted).
    zone: &'static str,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    measure: Option<&'a Measure>,
    /// The next zone and how many added tokens it starts at.
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<Next>,
    /// Where the baseline comes from, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_source: Option<String>,
    /// Whether a hook has measured this session (else the count is this command's own).
    measured_by_hook: bool,
    enforcement: Enforcement,
    enforcement_from: String,
    /// Whether new edits are held now (strict, red, no checkpoint passed since).
    edits_held: bool,
}

#[derive(Serialize)]
struct Next {
    zone: Zone,
    at: u64,
}

pub fn run(ctx: &Context, args: &BudgetArgs) -> CliResult {
    let config = &ctx.config;
    let root = &config.project_root.value;
    let transcript = match &args.transcript {
        Some(p) => p.clone(),
        None => super::memory::newest_transcript(root)?,
    };
    let zones = Zones::configured(config).map_err(|e| {
        CliError::usage(format!("cannot use the attention zones: {e}"))
            .with_hint("set attention.yellow < attention.orange < attention.red (`trail config`)")
    })?;
    let (enforcement, enforcement_from) = trail_core::grounding::enforcement_at(config, root)
        .map_err(|e| {
            CliError::usage(format!("cannot read the grounding enforcement: {e}")).with_hint(
                "`trail config` shows trail's grounding.enforcement; fix .loa.config.yaml's YAML",
            )
        })?;
    let setup = Setup {
        zones,
        window: u64::from(config.attention_window.value),
        window_set: config.attention_window.origin != trail_core::config::Origin::Default,
        strict: enforcement == Enforcement::Strict,
    };
    let measured = attention::measure(root, &transcript, setup, Ts::now()).map_err(|e| {
        CliError::usage(format!("cannot read {}: {e}", transcript.display()))
            .with_hint("--transcript takes a Claude Code transcript or a Codex rollout")
    })?;
    let m = measured.as_ref().map(|x| &x.measure);
    let answer = Answer {
        transcript: transcript.display().to_string(),
        zone: m.map_or("unknown", |m| m.zone.as_str()),
        measure: m,
        next: m
            .and_then(|m| m.zones.next_at(m.added))
            .map(|(zone, at)| Next { zone, at }),
        baseline_source: m.map(source),
        measured_by_hook: attention::read_mark(root, &transcript).is_some(),
        enforcement,
        enforcement_from,
        edits_held: attention::hold(root, Some(&transcript)).is_some(),
    };
    // Paths and error texts are shown: redacted as everything printed is.
    if args.json {
        let mut v = serde_json::to_value(&answer).map_err(|e| CliError::failed(e.to_string()))?;
        ctx.secrets.pass(|p| p.redact_json(&mut v))?;
        output::json(&v)
    } else {
        let text = render(&answer, &transcript);
        output::text(&ctx.secrets.pass(|p| p.redact(&text).into_owned())?)
    }
}

/// Where the count of added tokens starts, in words.
fn source(m: &Measure) -> String {
    match m.basis {
        Basis::SessionStart => format!("the session's first answer ({} tokens)", m.baseline),
        Basis::Checkpoint => format!(
            "the first measure after the checkpoint that passed at {} ({} tokens)",
            m.since, m.baseline
        ),
        Basis::Compaction => format!(
            "the first answer after the compaction seen at {} ({} tokens)",
            m.since, m.baseline
        ),
    }
}

fn render(a: &Answer<'_>, transcript: &Path) -> String {
    let Some(m) = a.measure else {
        return format!(
            "unknown: {} has no measured context size yet (no answer since it began or since \
             the last compaction)\nenforcement: {} (from {})\n",
            transcript.display(),
            a.enforcement,
            a.enforcement_from
        );
    };
    let mut s = format!(
        "{}: {} tokens added to the context since {}\n",
        m.zone.as_str(),
        m.added,
        a.baseline_source.as_deref().unwrap_or_default()
    );
    s.push_str(&format!(
        "context: {} of {} tokens ({:.1}% full; the window from {})\n",
        m.context,
        m.window,
        m.fill * 100.0,
        m.window_from
    ));
    s.push_str(&format!(
        "zones (added tokens): yellow {}, orange {}, red {}{}\n",
        m.zones.yellow,
        m.zones.orange,
        m.zones.red,
        a.next
            .as_ref()
            .map(|n| format!("; {} in {} tokens", n.zone.as_str(), n.at - m.added))
            .unwrap_or_default()
    ));
    s.push_str(&format!(
        "enforcement: {} (from {})\n",
        a.enforcement, a.enforcement_from
    ));
    let does = match m.zone {
        Zone::Green => "nothing to do".to_string(),
        Zone::Yellow => "the prompt hook persists the session's recent decisions, files and \
                         commands once (a checkpoint pulse and a trajectory delta_sync); nothing \
                         is cleared"
            .to_string(),
        Zone::Orange => {
            "run `trail checkpoint`, then /clear: trail gives the state back after it".to_string()
        }
        Zone::Red => match a.enforcement {
            Enforcement::Strict => format!(
                "new edits are held until `trail checkpoint` passes ({})",
                if a.edits_held {
                    "held now"
                } else {
                    "not held now"
                }
            ),
            Enforcement::Warn => {
                "every prompt says to checkpoint and /clear; nothing is held".into()
            }
            Enforcement::Disabled => "said once; nothing is held".into(),
        },
    };
    s.push_str(&format!("{}: {does}\n", m.zone.as_str()));
    if !a.measured_by_hook {
        s.push_str("no hook has measured this session yet: the count is from its first answer\n");
    }
    if let Some(e) = &m.trajectory_error {
        s.push_str(&format!(
            "warning: the trajectory cannot be read ({e}), so a checkpoint that passed may not be counted\n"
        ));
    }
    s
}
