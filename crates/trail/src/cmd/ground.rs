//! `trail ground`: the grounding ratio, held to its threshold. Exit 0 pass, 1 fail, 2 when it
//! could not be measured: an error is never a pass (Loa's check read one as a pass).

use trail_core::config::Config;
use trail_core::grounding::{
    self, Enforcement, GroundError, Notes, PolicySources, Report, Verdict, loa,
};

use crate::cli::GroundArgs;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(args: &GroundArgs) -> CliResult {
    let report = measure(args)?;
    if args.json {
        output::json(&report)?;
    } else {
        output::text(&render(&report))?;
    }
    match report.status {
        Verdict::Pass => Ok(()),
        Verdict::Fail => Err(CliError::CheckFailed),
    }
}

fn measure(args: &GroundArgs) -> CliResult<Report> {
    let config = Config::load()?;
    let root = super::cite::project_root(None)?;
    let loa = loa::read_config(&root).map_err(|e| error(e.into()))?;
    let policy = PolicySources::of(&config, loa.as_ref(), args.threshold.as_deref())
        .resolve()
        .map_err(error)?;
    let notes_text = match &args.notes {
        Some(p) => Some(super::cite::read_named(p).map_err(|e| {
            CliError::usage(format!("cannot read {}: {e}", p.display()))
                .with_hint("--notes takes the NOTES.md whose Decision Log counts too")
        })?),
        None => None,
    };
    let name = args
        .notes
        .as_ref()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let notes = notes_text
        .as_deref()
        .map(|text| Notes { name: &name, text });
    let gathered = grounding::gather(&root, loa.as_ref(), notes).map_err(error)?;
    grounding::measure(&root, gathered, &policy).map_err(error)
}

/// Every failure to measure exits 2, with what to do about it.
fn error(e: GroundError) -> CliError {
    let hint = e.hint();
    let err = CliError::usage(format!("cannot measure grounding: {e}"));
    match hint {
        Some(h) => err.with_hint(h),
        None => err,
    }
}

fn render(r: &Report) -> String {
    let mut s = String::new();
    let verdict = match r.status {
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
    };
    if r.total == 0 {
        s.push_str("pass: no decisions to ground (0/0)\n");
    } else {
        let relation = match r.status {
            Verdict::Pass => "meets",
            Verdict::Fail => "is below",
        };
        s.push_str(&format!(
            "{verdict}: grounding {} {relation} the threshold {} ({})\n",
            r.shown(),
            r.threshold,
            r.threshold_from
        ));
    }
    let effect = match r.enforcement {
        Enforcement::Strict => "a failing ratio blocks the checkpoint",
        Enforcement::Warn => "a failing ratio is a warning, not a block",
        Enforcement::Disabled => "measured only, never enforced",
    };
    s.push_str(&format!(
        "enforcement: {} ({}): {effect}\n",
        r.enforcement, r.enforcement_from
    ));
    let sources: Vec<String> = r
        .sources
        .iter()
        .map(|x| format!("{} {}", x.decisions, x.name))
        .collect();
    s.push_str(&format!("decisions: {}\n", sources.join(", ")));
    if !r.ungrounded.is_empty() {
        s.push_str(&format!(
            "without a verified citation ({}):\n",
            r.ungrounded.len()
        ));
        for u in &r.ungrounded {
            s.push_str(&format!(
                "  - {} [{}]: {}\n",
                trail_core::text::one_line(&u.decision, 100),
                u.source,
                u.reason
            ));
        }
    }
    s
}
