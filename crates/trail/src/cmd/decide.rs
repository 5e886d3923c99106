//! `trail decide`: a decision recorded in the trajectory, the pulse stream and NOTES.md, each
//! citation checked as it is recorded. Exit 0 once the journals hold it (unverified citations
//! are listed, not refused: the grounding ratio counts them later); 2 for bad input, nothing
//! written; 1 when NOTES.md could not be updated (the journals hold the decision).

use trail_core::cite::Status;
use trail_core::decision::{self, DecideError, Recorded, Request};

use crate::cli::DecideArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, args: &DecideArgs) -> CliResult {
    let req = Request {
        title: args.title.clone(),
        decision: args.decision.clone(),
        rationale: args.rationale.clone(),
        evidence: args.evidence.clone(),
        tests: args.test.clone(),
        bead: args.bead.clone(),
    };
    let done = decision::decide(ctx, req).map_err(error)?;
    if args.json {
        output::json(&done)?;
    } else {
        output::text(&render(&done))?;
    }
    match &done.notes_error {
        None => Ok(()),
        Some(e) => Err(
            CliError::failed(format!("{} was not updated: {e}", done.notes)).with_hint(
                "the decision is recorded in the trajectory and the pulse stream; once the cause \
                 is fixed, `trail heal` writes NOTES.md again from them",
            ),
        ),
    }
}

fn error(e: DecideError) -> CliError {
    match &e {
        DecideError::Empty(field) => CliError::usage(e.to_string())
            .with_hint(format!("give --{field} \"…\"; nothing was recorded")),
        DecideError::NoCitation { .. } => CliError::usage(e.to_string()).with_hint(
            "--evidence takes a citation as a document writes it, e.g. \
             --evidence '`fn main()` [${PROJECT_ROOT}/src/main.rs:1]'; nothing was recorded",
        ),
        DecideError::BadBead(_) => {
            CliError::usage(e.to_string()).with_hint("--bead takes the id `br`/`bd` shows")
        }
        DecideError::Pulse(_) => CliError::failed(e.to_string()).with_hint(
            "the trajectory holds the decision, so it counts; `trail verify` checks the stream",
        ),
        DecideError::Check(_) | DecideError::Trajectory(_) => CliError::failed(e.to_string()),
        // "nothing was recorded: " and the place's own message, said once (the refusal said
        // the place twice, the second time as a "caused by", found by its snapshot).
        DecideError::Notes(w) => CliError::usage(e.to_string()).with_hint(w.hint()),
        DecideError::Secrets(_) => {
            let DecideError::Secrets(s) = e else {
                unreachable!("matched above")
            };
            return s.into();
        }
    }
    .with_source(e)
}

fn render(r: &Recorded) -> String {
    let mut s = format!("recorded {}: {}\n", r.id, r.title);
    let n = r.citations.len();
    if n == 0 {
        s.push_str("  evidence: none (a decision without a verified citation is not grounded)\n");
    } else {
        let verified = r
            .citations
            .iter()
            .filter(|c| c.status == Status::Verified)
            .count();
        s.push_str(&format!(
            "  citations: {verified} of {n} verified{}\n",
            if verified == n { "" } else { "; not verified:" }
        ));
        for c in r.citations.iter().filter(|c| c.status != Status::Verified) {
            let at = if c.found_at.is_empty() {
                String::new()
            } else {
                format!(
                    ", now at line {}",
                    c.found_at
                        .iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            s.push_str(&format!(
                "    {} {}{at}{}\n",
                c.citation,
                c.status,
                c.note
                    .as_deref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            ));
        }
    }
    s.push_str(&format!(
        "  test scenarios: {}{}\n",
        r.tests,
        if r.tests >= 3 {
            String::new()
        } else {
            " (EDD asks for three: happy path, edge case, error; the checkpoint checks)".into()
        }
    ));
    if let Some(b) = &r.bead {
        s.push_str(&format!("  bead: {b}\n"));
    }
    if !r.redacted.is_empty() {
        s.push_str(&format!("  redacted: {}\n", r.redacted.join(", ")));
    }
    for f in &r.forks {
        s.push_str(&format!("  {} (journalled as fork_detected)\n", f.line()));
    }
    if let Some(why) = &r.forks_unchecked {
        s.push_str(&format!("  not compared with earlier decisions: {why}\n"));
    }
    if r.notes_error.is_none() {
        s.push_str(&format!(
            "  {}: {}\n",
            r.notes,
            if r.notes_created {
                "created, with the decision in its Decision Log"
            } else {
                "appended to its Decision Log"
            }
        ));
    }
    s
}
