//! `trail sync`: this machine's ledger to the person's git remote, the other machines' back
//! (the `trail-sync` crate does the work; this file words it).

use std::collections::BTreeMap;

use trail_sync::{Places, Refusal, Report, SyncError};

use crate::cli::SyncArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, args: &SyncArgs) -> CliResult {
    let places = Places::of(&ctx.ledger);
    if let Some(url) = &args.remote {
        crate::person::require_terminal(crate::person::AT_YOUR_TERMINAL)
            .map_err(CliError::usage)?;
        trail_sync::set_remote(&places, url).map_err(sync_error)?;
        if !args.json {
            eprintln!("trail: the ledger now syncs through {url}");
        }
    }
    if let Some(id) = &args.trust_machine {
        trust(&places, id)?;
    }
    if args.dry_run {
        return dry_run(ctx, &places, args.json);
    }
    if args.background {
        // Started by trail itself: one sync at a time, and no words (nobody reads them; the
        // outcome is in `trail status`).
        if trail_sync::is_running(&places) || trail_sync::remote(&places).is_none() {
            return Ok(());
        }
        return trail_sync::run(&ctx.ledger, &places)
            .map(drop)
            .map_err(|_| CliError::CheckFailed);
    }
    let report = trail_sync::run(&ctx.ledger, &places).map_err(sync_error)?;
    if args.json {
        output::json(&report)?;
    } else {
        output::text(&describe(&report))?;
    }
    if report.ok() {
        Ok(())
    } else {
        Err(CliError::CheckFailed)
    }
}

/// Trusting a machine is a person's act: they see the key the remote offers for it, and type
/// the end of its fingerprint, which they can read on that machine (`trail status`).
fn trust(places: &Places, id: &str) -> CliResult {
    crate::person::require_terminal(crate::person::AT_YOUR_TERMINAL).map_err(CliError::usage)?;
    let key = trail_sync::offered_key(places, id).map_err(sync_error)?;
    let fp = trail_sync::key::fingerprint(&key);
    let code = &fp[fp.len() - 4..];
    let what = format!(
        "Trust machine {id}, whose key is\n  {fp}\nso that its records are taken into this \
         machine's trail? Compare with `trail status` on that machine."
    );
    crate::person::confirm(&what, code).map_err(CliError::usage)?;
    places
        .trust()
        .trust(id, &key)
        .map_err(|e| sync_error(e.into()))?;
    eprintln!("trail: machine {id} is trusted ({fp})");
    Ok(())
}

fn dry_run(ctx: &Context, places: &Places, json: bool) -> CliResult {
    let pending = trail_sync::pending(&ctx.ledger, places).map_err(sync_error)?;
    if json {
        return output::json(&pending);
    }
    let mut s = format!(
        "would send to {}: {} record(s), {} byte(s)\n",
        pending.remote.as_deref().unwrap_or("(no remote set)"),
        pending.records,
        pending.bytes
    );
    let by: BTreeMap<_, _> = pending.projects.iter().map(|p| (&p.project, p)).collect();
    for (name, p) in by {
        s.push_str(&format!(
            "  {name}: {} record(s), {} byte(s)\n",
            p.records, p.bytes
        ));
    }
    if !pending.kept.is_empty() {
        s.push_str("kept on this machine (the project opted out of sync with .trail/no-sync):\n");
        for p in &pending.kept {
            s.push_str(&format!(
                "  {}: {} record(s), {} byte(s)\n",
                p.project, p.records, p.bytes
            ));
        }
    }
    if pending.remote.is_none() {
        s.push_str("hint: name the remote first: trail sync --remote URL\n");
    }
    output::text(&s)
}

fn describe(r: &Report) -> String {
    let mut s = format!(
        "machine {} (seq {}): {}{}\n",
        r.machine,
        r.seq.unwrap_or(0),
        if r.pushed {
            format!("{} byte(s) sent to {}", r.published_bytes, r.remote)
        } else {
            format!("not sent to {}", r.remote)
        },
        if r.fetched { ", fetched" } else { "" },
    );
    for m in &r.machines {
        let what = match (m.trusted, m.seq) {
            (false, _) => "not trusted: nothing taken".to_string(),
            (true, Some(seq)) => format!("seq {seq}, {} byte(s) taken", m.bytes),
            (true, None) => "nothing taken yet".to_string(),
        };
        s.push_str(&format!("  machine {}: {what}\n", m.id));
    }
    if let Some(e) = &r.offline {
        s.push_str(&format!(
            "offline: {e}\n  nothing is lost: this machine's records wait in its own history, \
             and the next sync (by itself after a session, or `trail sync`) sends them\n"
        ));
    }
    for f in &r.findings {
        let kind = serde_json::to_value(f.problem)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        s.push_str(&format!("{kind}: machine {}: {}\n", f.machine, f.detail));
    }
    if r.findings.iter().any(|f| f.problem != Refusal::Unknown) {
        s.push_str(
            "note: nothing refused was written here; this machine's own records are untouched. \
             SECURITY.md \"Sync\" says what each finding means.\n",
        );
    }
    s
}

fn sync_error(e: SyncError) -> CliError {
    match e {
        SyncError::NoRemote => CliError::usage("no sync remote is set").with_hint(
            "name one, once, at your terminal: trail sync --remote URL (any git URL you own: \
             git@host:you/ledger.git, or a bare repository's path)",
        ),
        SyncError::BadId(_) | SyncError::UnknownMachine(_) | SyncError::Rejected(_) => {
            CliError::usage(e.to_string())
        }
        SyncError::Ledger(l) => l.into(),
        e => CliError::failed(e.to_string()).with_source(e),
    }
}
