//! ConfigChange (Claude Code): a settings file changed while the session runs. A change that
//! switches trail's hooks off — `disableAllHooks`, or fewer events run by trail's hooks than
//! the file held when the session started, counted by what the hooks execute (not by the text
//! `trail hook`: `true /x/trail hook claude-code` runs `true`) — is vetoed, so the session
//! keeps the settings it loaded (the file on disk is the person's to change; `trail uninstall`
//! is the way to remove trail).
//!
//! Claude Code shows a change it stages itself in a `<file>.proposed-<hex>` file beside the
//! settings file; a change made outside arrives as the file itself.

use std::path::{Path, PathBuf};

use serde_json::Value;
use trail_core::host::render::Response;
use trail_core::install::hooks_seen;

use super::Cx;

const CAP: u64 = 4 << 20;

pub(super) fn handle(cx: &Cx<'_>, file_path: Option<&str>) -> Response {
    let Some(changed) = file_path.map(PathBuf::from) else {
        return Response::Silent;
    };
    let settings = settings_file(&changed);
    let proposed = newest_proposal(&settings).unwrap_or_else(|| changed.clone());
    let text = trail_core::fsutil::read_text_capped(&proposed, CAP).unwrap_or_default();
    let disables = serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| v.get("disableAllHooks").and_then(Value::as_bool))
        == Some(true);
    let now = hooks_seen::count(&text);
    let before = hooks_seen::recorded(cx.root(), &settings).unwrap_or(0);
    if disables || now < before {
        let what = if disables {
            "sets disableAllHooks".to_string()
        } else {
            format!(
                "removes or weakens trail's hooks (events run by trail as installed: {before} → {now})"
            )
        };
        return Response::Veto {
            reason: format!(
                "trail: this change to {} {what}, which would switch trail off for this session; it was not applied. To remove trail, run `trail uninstall` in your own terminal.",
                settings.display()
            ),
        };
    }
    Response::Silent
}

/// The settings file a path names: itself, or the file a `.proposed-<hex>` sits beside.
fn settings_file(p: &Path) -> PathBuf {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.find(".proposed-") {
        Some(i) => p.with_file_name(&name[..i]),
        None => p.to_path_buf(),
    }
}

/// The newest `<settings>.proposed-*` beside `settings`, if Claude Code staged one.
fn newest_proposal(settings: &Path) -> Option<PathBuf> {
    let dir = settings.parent()?;
    let prefix = format!("{}.proposed-", settings.file_name()?.to_string_lossy());
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max()
        .map(|(_, p)| p)
}
