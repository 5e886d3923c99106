//! `trail ghosts [FEATURE]…`: negative grounding (Lossless Ledger FR-7). Each ghost feature —
//! named here, else listed under a "Ghost Features" heading of the project's NOTES.md (the one
//! `trail checkpoint` reads: `notes.path`, else Loa's, else the root's) — gets two different
//! queries over the project tree; the verdicts are `[CONFIRMED GHOST]`, `[HIGH AMBIGUITY]`,
//! `[NOT A GHOST]` or `[UNVERIFIED GHOST]`, and each check is a trajectory
//! `negative_grounding` entry. Exit 0 when every ghost is verified (confirmed or not a ghost),
//! 1 when one needs a person (unverified or ambiguous), 2 on bad input.

use std::path::Path;

use serde::Serialize;
use trail_core::grounding::loa;
use trail_core::grounding::negative::project::{self, Found};
use trail_core::grounding::negative::{self, Checked, Class, Engine, Ghost, Options};
use trail_core::secrets::Redactor;

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
    let opts = Options::of(&ctx.config);
    // Snippets quote files that still hold what they quote: the bare engine, nothing stored.
    let redactor = ctx.secrets.redactor()?;
    let found = ghosts(ctx, root, args, &opts, redactor)?;
    let session = trail_core::host::session_from_env();
    negative::log(root, &found.ghosts, session.as_deref(), &ctx.secrets).map_err(|e| {
        CliError::failed(format!(
            "cannot log negative grounding to the trajectory: {e}"
        ))
        .with_source(e)
    })?;
    let attention = found.ghosts.iter().any(|c| c.class.needs_attention());
    if args.json {
        let v = serde_json::to_value(GhostsJson {
            engine: found.engine,
            notes: found.notes.clone(),
            ghosts: &found.ghosts,
            status: if attention { "attention" } else { "pass" },
        })
        .map_err(std::io::Error::other)?;
        // Feature names and queries are the project's text.
        output::json(&redact_json(v, redactor))?;
    } else {
        let text = render(&found.ghosts, found.engine, found.notes.as_deref());
        output::text(&redactor.redact(&text, &mut Vec::new()))?;
    }
    if attention {
        return Err(CliError::CheckFailed);
    }
    Ok(())
}

/// The ghosts named on the command line; else those of the project's NOTES.md (the one
/// `trail checkpoint` reads: [`project::check`]), or of `--notes`, with any named added.
fn ghosts(
    ctx: &Context,
    root: &Path,
    args: &GhostsArgs,
    opts: &Options,
    redactor: &Redactor,
) -> CliResult<Found> {
    let mut named = Vec::new();
    for f in &args.features {
        named.push(Ghost::parse(f).ok_or_else(|| {
            CliError::usage("an empty feature name")
                .with_hint("name each ghost feature, with other names as `NAME (also: A, B)`")
        })?);
    }
    let Some(path) = &args.notes else {
        if !named.is_empty() {
            return Ok(Found {
                engine: opts.engine(),
                notes: None,
                ghosts: negative::check(root, &named, opts, redactor),
            });
        }
        let loa = loa::read_config(root).map_err(|e| {
            CliError::usage(format!("cannot read the project's Loa config: {e}"))
                .with_hint("fix the YAML; trail reads its grounding and path keys only")
        })?;
        let loc = trail_core::notes::locate_in(&ctx.config, root, loa.as_ref())
            .map_err(super::notes::refused)?;
        return project::check(root, &loc, &named, opts, redactor).map_err(super::notes::refused);
    };
    let text = super::cite::read_named(path).map_err(|e| {
        CliError::usage(format!("cannot read {}: {e}", path.display())).with_hint(
            "--notes takes the NOTES.md that lists ghost features under a \"Ghost Features\" \
             heading",
        )
    })?;
    let canon_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let canon = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
    let shown = match canon.strip_prefix(&canon_root) {
        Ok(rel) => format!("${{PROJECT_ROOT}}/{}", rel.display()),
        Err(_) => path.display().to_string(),
    };
    let mut ghosts = negative::in_notes(&text, &shown);
    for g in named {
        if !ghosts.iter().any(|x| x.name.eq_ignore_ascii_case(&g.name)) {
            ghosts.push(g);
        }
    }
    Ok(Found {
        engine: opts.engine(),
        notes: Some(shown),
        ghosts: negative::check(root, &ghosts, opts, redactor),
    })
}

fn redact_json(v: serde_json::Value, r: &trail_core::secrets::Redactor) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::String(s) => Value::String(r.redact(&s, &mut Vec::new()).into_owned()),
        Value::Array(a) => Value::Array(a.into_iter().map(|x| redact_json(x, r)).collect()),
        Value::Object(m) => {
            Value::Object(m.into_iter().map(|(k, x)| (k, redact_json(x, r))).collect())
        }
        other => other,
    }
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
