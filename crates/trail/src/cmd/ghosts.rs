//! `trail ghosts [FEATURE]…`: negative grounding (Lossless Ledger FR-7). Each ghost feature —
//! named here, else listed under a "Ghost Features" heading of NOTES.md — gets two different
//! queries over the project tree; the verdicts are `[CONFIRMED GHOST]`, `[HIGH AMBIGUITY]`,
//! `[NOT A GHOST]` or `[UNVERIFIED GHOST]`, and each check is a trajectory
//! `negative_grounding` entry. Exit 0 when every ghost is verified (confirmed or not a ghost),
//! 1 when one needs a person (unverified or ambiguous), 2 on bad input.

use std::path::Path;

use serde::Serialize;
use trail_core::grounding::negative::{self, Checked, Class, Engine, Ghost, Options};
use trail_core::heal::seams;

use crate::cli::GhostsArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

#[derive(Serialize)]
struct GhostsJson<'a> {
    /// The search that ran: `lexical` (trail's own) or `ck`.
    engine: Engine,
    /// Where the ghosts were read, when from a file.
    #[serde(skip_serializing_if = "Option::is_none")]
    notes: Option<String>,
    ghosts: &'a [Checked],
    /// `pass` (every ghost verified) or `attention` (one needs a person).
    status: &'static str,
}

pub fn run(ctx: &Context, args: &GhostsArgs) -> CliResult {
    let root = &ctx.config.project_root.value;
    let (ghosts, notes) = ghosts(root, args)?;
    let opts = Options::with_ck(u64::from(ctx.config.ghost_mentions.value), {
        let (n, d) = ctx.config.ghost_similarity.value.fraction();
        n as f64 / d as f64
    });
    let redactor = ctx.ledger.redactor()?;
    let checked = negative::check(root, &ghosts, &opts, redactor);
    let store = ctx.ledger.secret_store();
    let mut keep = |f: &[trail_core::secrets::Found]| store.store(f).map_err(std::io::Error::other);
    negative::log(root, &checked, None, redactor, &mut keep).map_err(|e| {
        CliError::failed(format!(
            "cannot log negative grounding to the trajectory: {e}"
        ))
        .with_source(e)
    })?;
    let attention = checked.iter().any(|c| c.class.needs_attention());
    let engine = if opts.ck.is_some() {
        Engine::Ck
    } else {
        Engine::Lexical
    };
    if args.json {
        let v = serde_json::to_value(GhostsJson {
            engine,
            notes,
            ghosts: &checked,
            status: if attention { "attention" } else { "pass" },
        })
        .map_err(std::io::Error::other)?;
        // Feature names and queries are the project's text.
        output::json(&output::redacted(v, redactor))?;
    } else {
        let text = render(&checked, engine, notes.as_deref());
        output::text(&redactor.redact(&text, &mut Vec::new()))?;
    }
    if attention {
        return Err(CliError::CheckFailed);
    }
    Ok(())
}

/// The ghosts named on the command line, else NOTES.md's (`--notes`, else the project's).
fn ghosts(root: &Path, args: &GhostsArgs) -> CliResult<(Vec<Ghost>, Option<String>)> {
    if !args.features.is_empty() && args.notes.is_none() {
        let mut out = Vec::new();
        for f in &args.features {
            out.push(Ghost::parse(f).ok_or_else(|| {
                CliError::usage("an empty feature name")
                    .with_hint("name each ghost feature, with other names as `NAME (also: A, B)`")
            })?);
        }
        return Ok((out, None));
    }
    let path = match &args.notes {
        Some(p) => p.clone(),
        None => seams::notes_path(root),
    };
    let text = match super::cite::read_named(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && args.notes.is_none() => {
            return Ok((Vec::new(), None));
        }
        Err(e) => {
            return Err(
                CliError::usage(format!("cannot read {}: {e}", path.display())).with_hint(
                    "--notes takes the NOTES.md that lists ghost features under a \
                     \"Ghost Features\" heading",
                ),
            );
        }
    };
    let canon_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let canon = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
    let shown = match canon.strip_prefix(&canon_root) {
        Ok(rel) => format!("${{PROJECT_ROOT}}/{}", rel.display()),
        Err(_) => path.display().to_string(),
    };
    let mut ghosts = negative::in_notes(&text, &shown);
    for f in &args.features {
        if let Some(g) = Ghost::parse(f)
            && !ghosts.iter().any(|x| x.name.eq_ignore_ascii_case(&g.name))
        {
            ghosts.push(g);
        }
    }
    Ok((ghosts, Some(shown)))
}

fn render(checked: &[Checked], engine: Engine, notes: Option<&str>) -> String {
    if checked.is_empty() {
        return match notes {
            Some(n) => format!("no ghost features listed in {n} (under a \"Ghost Features\" heading)\n"),
            None => "no ghost features: name them, or list them in NOTES.md under a \"Ghost Features\" heading\n".into(),
        };
    }
    let mut s = format!(
        "negative grounding with {} ({}): two queries per feature over the project tree\n",
        engine.as_str(),
        match engine {
            Engine::Ck => "ck, semantic",
            Engine::Lexical => "trail's own lexical search; ck is not installed",
        }
    );
    for c in checked {
        s.push_str(&format!("{} {}: {}\n", c.flag, c.feature, c.why));
        for (i, q) in c.queries.iter().enumerate() {
            s.push_str(&format!(
                "    query {}: {}  →  {} in code, {} in docs{}\n",
                i + 1,
                q.query,
                q.code,
                q.docs,
                if q.examples.is_empty() {
                    String::new()
                } else {
                    format!(" (e.g. {})", q.examples.join(", "))
                }
            ));
        }
    }
    let count = |k: Class| checked.iter().filter(|c| c.class == k).count();
    s.push_str(&format!(
        "{} confirmed, {} high ambiguity, {} not ghosts, {} unverified\n",
        count(Class::ConfirmedGhost),
        count(Class::HighAmbiguity),
        count(Class::NotGhost),
        count(Class::Unverified)
    ));
    s
}
