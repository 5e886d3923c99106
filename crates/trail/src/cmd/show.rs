//! `trail show IDENTIFIER [--full-section]`: JIT retrieval of the lines an identifier names,
//! redacted and confined to the project. Reads, writes nothing.

use trail_core::show::{self, ShowError, Shown};
use trail_core::zones::paths::Places;

use crate::cli::ShowArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, args: &ShowArgs) -> CliResult {
    let root = super::cite::project_root(None)?;
    let mut places = Places::from_env(root.clone(), root).ok_or_else(|| {
        CliError::usage("HOME is not set: trail needs it to know what it protects")
    })?;
    places.trail_home = Some(ctx.config.home.value.clone());
    places.secrets_dir = Some(ctx.config.secrets_dir.value.clone());
    // The bare redactor, keeping nothing: the file shown still holds what is hidden (see
    // `trail_core::show::show`), as with `trail search` snippets.
    let shown = show::show(
        &places,
        &args.identifier,
        args.full_section,
        ctx.secrets.redactor()?,
    )
    .map_err(error)?;
    if args.json {
        return output::json(&shown);
    }
    output::text(&render(&shown))
}

fn error(e: ShowError) -> CliError {
    const FORM: &str =
        "an identifier is '${PROJECT_ROOT}/path:LINE' or '${PROJECT_ROOT}/path:START-END'";
    let hint = match &e {
        ShowError::Malformed { .. } => Some(FORM.to_string()),
        ShowError::Absolute { .. } => Some(format!(
            "{FORM}, in single quotes: unquoted, the shell replaces ${{PROJECT_ROOT}} (with \
             nothing when it is unset)"
        )),
        ShowError::OutsideRoot { .. } => Some(
            "only files inside the project are shown (the root is $PROJECT_ROOT, else the \
             project)"
                .to_string(),
        ),
        ShowError::Protected { .. } => Some(
            "trail does not show its own state, the secret store or the agents' settings".into(),
        ),
        ShowError::OutOfRange { .. } | ShowError::Missing { .. } => Some(
            "the file changed since the identifier was written: `trail search --code` finds \
             where the code went"
                .to_string(),
        ),
        ShowError::Binary { .. } => {
            Some("trail shows text: a binary file has no lines to cite".into())
        }
        _ => None,
    };
    let err = CliError::usage(e.to_string());
    match hint {
        Some(h) => err.with_hint(h),
        None => err,
    }
    .with_source(e)
}

fn render(s: &Shown) -> String {
    let mut out = s.identifier.clone();
    if let Some(sec) = &s.section {
        out.push_str(&format!(
            " ({}{}, around {})",
            sec.kind,
            sec.name
                .as_deref()
                .map(|n| format!(" {n}"))
                .unwrap_or_default(),
            if s.asked.start == s.asked.end {
                format!("line {}", s.asked.start)
            } else {
                format!("lines {}-{}", s.asked.start, s.asked.end)
            }
        ));
    }
    out.push('\n');
    if let Some(f) = &s.fallback {
        out.push_str(&format!("(no section: {f}; the lines as asked)\n"));
    }
    let width = s.lines.last().map_or(1, |l| l.line.to_string().len());
    for l in &s.lines {
        out.push_str(&format!("{:>width$}  {}\n", l.line, l.text));
    }
    if s.cut > 0 {
        out.push_str(&format!(
            "… {} more lines not shown: ask for a narrower range\n",
            s.cut
        ));
    }
    if !s.redacted.is_empty() {
        out.push_str(&format!(
            "(redacted: {}; the originals are in the file)\n",
            s.redacted.join(", ")
        ));
    }
    if s.renumbered {
        out.push_str(
            "(a secret spanning lines could not be replaced line for line: later line \
             numbers are off)\n",
        );
    }
    out
}
