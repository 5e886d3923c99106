//! `trail trust`: a person lets a project's `.trail/config.toml` set what runs commands or moves
//! secrets (see `trail_core::trust`). It shows the sensitive settings before recording anything,
//! and records the bytes it showed.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use trail_core::config::{Config, Origin, ProjectFile, Refused, SettingKey, project_config_path};
use trail_core::secrets::key::Key;
use trail_core::time::Ts;
use trail_core::trust::{self, Status, TrustStore};

use crate::cli::TrustArgs;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(args: &TrustArgs) -> CliResult {
    let c = Config::load()?;
    let Some(dir) = c.user_dir.clone() else {
        return Err(CliError::usage(
            "cannot find your config directory: set HOME (or XDG_CONFIG_HOME)",
        ));
    };
    let store = TrustStore::new(&dir);
    if args.list {
        let key = Key::load(&c.trust_key_dir).ok().flatten();
        return list(&store, key.as_ref(), args.json);
    }
    if args.revoke {
        return revoke(
            &store,
            &project_config_path(&c.project_root.value),
            args.json,
        );
    }
    trust(&c, &store, args)
}

/// What a sensitive setting would let the file do, in the person's terms.
fn what_it_does(key: SettingKey) -> &'static str {
    match key {
        SettingKey::LedgerAlertCommand => {
            "runs this shell command when a writer waits for the lock"
        }
        SettingKey::LlmCommand => "runs this shell command on `trail dream`, memory on its stdin",
        SettingKey::LlmProvider => "sends your memory (and your API key) to this provider",
        SettingKey::LlmBaseUrl => "sends your memory and your API key to this address",
        SettingKey::SecretsDir => "keeps every redacted secret and your key in this directory",
        SettingKey::LedgerHome => "keeps the journals of all your projects in this directory",
        _ => "counts only when trusted",
    }
}

fn trust(c: &Config, store: &TrustStore, args: &TrustArgs) -> CliResult {
    let Some(file) = c.inspect_project()? else {
        return Err(CliError::usage(format!(
            "no project config at {}: nothing to trust",
            project_config_path(&c.project_root.value).display()
        )));
    };
    let sha = trail_core::text::sha256_hex(&file.bytes);
    if file.sensitive.is_empty() || file.trust == Status::Trusted {
        let why = if file.sensitive.is_empty() {
            "it holds no setting that needs trust; all of it counts already"
        } else {
            "already trusted, unchanged since"
        };
        if args.json {
            return output::json(&serde_json::json!({
                "path": file.path, "sha256": sha, "trusted": file.trust == Status::Trusted,
                "recorded": false, "note": why,
            }));
        }
        return output::text(&format!("{}: {why}\n", file.path.display()));
    }

    let shown = what_trust_changes(&file, &sha);
    // Shown on stderr in JSON mode, so the person sees it whatever reads stdout.
    if args.json {
        eprint!("{shown}");
    } else {
        output::text(&shown)?;
    }
    if !args.yes && !confirmed()? {
        return Err(CliError::usage("not trusted: nothing was recorded").with_hint(
            "run `trail trust` on a terminal and answer y, or pass --yes once you have read the settings above",
        ));
    }
    let failed = |e: std::io::Error| {
        CliError::failed(format!(
            "cannot record the trust in {}: {e}",
            store.path().display()
        ))
        .with_source(e)
    };
    // The record carries proof that this command wrote it: a MAC under the person's key.
    let key = Key::load_or_create(&c.trust_key_dir).map_err(|e| failed(e.into()))?;
    let entry = store
        .trust(&file.path, &file.bytes, &Ts::now().to_string(), &key)
        .map_err(|e| failed(e.into()))?;
    if args.json {
        return output::json(&serde_json::json!({
            "path": entry.path, "sha256": entry.sha256, "trusted": true, "recorded": true,
            "settings": file.sensitive.iter().map(|(k, v)| serde_json::json!({"key": k, "value": v})).collect::<Vec<_>>(),
            "store": store.path(),
        }));
    }
    output::text(&format!(
        "trusted (recorded in {}); any change to the file voids it\n",
        store.path().display()
    ))
}

/// The file, its digest, and each setting that trusting it lets count, with what it does.
fn what_trust_changes(file: &ProjectFile, sha: &str) -> String {
    let mut shown = format!(
        "{} (sha256 {}…)\n{}trusting it lets these settings count:\n",
        file.path.display(),
        &sha[..16],
        if file.trust == Status::Changed {
            "it changed since you trusted it; "
        } else {
            ""
        }
    );
    let w = file
        .sensitive
        .iter()
        .map(|(k, _)| k.name().len())
        .max()
        .unwrap_or(0);
    for (k, v) in &file.sensitive {
        shown.push_str(&format!(
            "  {:w$} = {v:?}\n  {:w$}   ({})\n",
            k.name(),
            "",
            what_it_does(*k)
        ));
    }
    shown
}

/// Ask on the terminal. Not a terminal: no answer, so no trust.
fn confirmed() -> CliResult<bool> {
    if !std::io::stdin().is_terminal() {
        return Ok(false);
    }
    eprint!("Trust these settings? [y/N] ");
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    Ok(matches!(line.trim(), "y" | "Y" | "yes" | "Yes"))
}

fn revoke(store: &TrustStore, path: &Path, json: bool) -> CliResult {
    let had = store.revoke(path).map_err(|e| {
        CliError::failed(format!("cannot update {}: {e}", store.path().display())).with_source(e)
    })?;
    if json {
        return output::json(&serde_json::json!({"path": path, "revoked": had}));
    }
    output::text(&if had {
        format!("{}: no longer trusted\n", path.display())
    } else {
        format!("{}: was not trusted\n", path.display())
    })
}

fn list(store: &TrustStore, key: Option<&Key>, json: bool) -> CliResult {
    let entries = store.list().map_err(|e| {
        CliError::failed(format!("cannot read {}: {e}", store.path().display())).with_source(e)
    })?;
    let rows: Vec<(trust::Entry, &str)> = entries
        .into_iter()
        .map(|e| {
            let now = match trail_core::fsutil::read_capped(&e.path, 1 << 20) {
                _ if !key.is_some_and(|k| e.is_genuine(k)) => {
                    "not made by `trail trust` with your key (not in effect)"
                }
                Ok(b) if trail_core::text::sha256_hex(&b) == e.sha256 => "trusted",
                Ok(_) => "changed since trusted (not in effect)",
                Err(_) => "missing",
            };
            (e, now)
        })
        .collect();
    if json {
        let v: Vec<_> = rows
            .iter()
            .map(|(e, s)| serde_json::json!({"path": e.path, "sha256": e.sha256, "trusted_at": e.trusted_at, "status": s}))
            .collect();
        return output::json(&v);
    }
    if rows.is_empty() {
        return output::text("no project config is trusted\n");
    }
    let mut s = String::new();
    for (e, status) in &rows {
        s.push_str(&format!(
            "{}  {status}  (since {})\n",
            e.path.display(),
            e.trusted_at
        ));
    }
    output::text(&s)
}

/// Say, once per file, which settings did not count and how to make them count.
pub fn warn_refused(c: &Config) {
    let mut by_file: Vec<(&Origin, Status, Vec<&str>)> = Vec::new();
    for Refused {
        key, origin, trust, ..
    } in &c.refused
    {
        match by_file.iter_mut().find(|(o, _, _)| *o == origin) {
            Some((_, _, keys)) => keys.push(key.name()),
            None => by_file.push((origin, trust.clone(), vec![key.name()])),
        }
    }
    for (origin, status, keys) in by_file {
        let why = match status {
            Status::Changed => {
                "the file changed since you trusted it; read it again, then run `trail trust`"
            }
            _ => "the file is not trusted; read it, then run `trail trust` if you want them",
        };
        eprintln!(
            "trail: ignored {} from {origin}: {why} (settings that run commands or move secrets \
             count only from ~/.config/trail/config.toml, the environment, or a trusted project config)",
            keys.join(", ")
        );
    }
}
