//! `trail checkpoint`: the seven steps before `/clear`, each with its verdict and what to do.
//! Exit 0 pass (warnings under warn enforcement included), 1 blocked (a step failed under
//! strict enforcement), 2 error (something could not be checked or journalled: never a pass).

use trail_core::checkpoint::words::{answer, plural, words};
use trail_core::checkpoint::{self, Report, SetupError, StepVerdict, Verdict};
use trail_core::grounding::Policy;

use crate::cli::CheckpointArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, args: &CheckpointArgs) -> CliResult {
    let (report, policy) =
        checkpoint::in_workspace(ctx, args.reasoning.clone()).map_err(setup_error)?;
    if args.json {
        output::json(&answer(&report, &policy))?;
    } else {
        output::text(&render(&report, &policy))?;
    }
    match report.verdict {
        Verdict::Pass => Ok(()),
        Verdict::Blocked => Err(CliError::CheckFailed),
        Verdict::Error => Err(CliError::usage(
            "the checkpoint could not check or record everything (see the steps marked error); \
             an error is never a pass",
        )),
    }
}

/// Why the checkpoint could not start, with what to do about it.
fn setup_error(e: SetupError) -> CliError {
    match e {
        SetupError::Loa(_) => CliError::usage(e.to_string())
            .with_hint("fix the YAML; trail reads its grounding and path keys only"),
        SetupError::Policy(_) => CliError::usage(e.to_string())
            .with_hint("`trail config` shows trail's own settings and where each came from"),
        SetupError::Notes(n) => super::notes::refused(n),
        SetupError::Secrets(s) => s.into(),
    }
}

fn render(r: &Report, policy: &Policy) -> String {
    // A headline never says "pass" above failing rows (issue 22): under warn enforcement the
    // checkpoint lets the session go on, and says which steps failed.
    let failed = r
        .steps
        .iter()
        .filter(|s| s.verdict == StepVerdict::Fail)
        .count();
    let verdict = if r.verdict == Verdict::Pass && failed > 0 {
        format!("{} failed, not blocking", plural(failed, "step"))
    } else if r.verdict == Verdict::Pass && r.warnings > 0 {
        format!("pass with {}", plural(r.warnings, "warning"))
    } else {
        r.verdict.as_str().to_string()
    };
    let mut s = format!(
        "checkpoint: {verdict}; enforcement {} (from {})\n",
        r.enforcement, policy.enforcement_from
    );
    for (k, step) in r.steps.iter().enumerate() {
        let (detail, remedy) = words(step, policy);
        // Padded before it is painted: the colour codes take no column.
        let word = format!("{:<7}", step.verdict.as_str());
        let painted = match step.verdict {
            StepVerdict::Pass => output::paint(&word, output::Tone::Good),
            StepVerdict::Fail | StepVerdict::Error => output::paint(&word, output::Tone::Bad),
            StepVerdict::Warn => output::paint(&word, output::Tone::Caution),
            StepVerdict::Skipped => word,
        };
        s.push_str(&format!(
            "{}. {:<23} {painted} {detail}\n",
            k + 1,
            step.name
        ));
        if let Some(rm) = remedy {
            s.push_str(&format!("   remedy: {rm}\n"));
        }
    }
    for f in &r.forks {
        s.push_str(&format!("{} (journalled as fork_detected)\n", f.line()));
    }
    for e in &r.errors {
        s.push_str(&format!("error: {e}\n"));
    }
    if let Some(e) = &r.notes_error {
        s.push_str(&format!("NOTES.md's Active Context was not updated: {e}\n"));
    }
    s
}
