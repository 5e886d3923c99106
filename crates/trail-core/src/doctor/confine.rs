//! Whether the agent's commands really run confined here (`trail_core::confine`), and, where
//! they cannot, which guarantees fall back to the gate's judgement.

use std::path::Path;

use serde_json::Value;

use super::{Finding, Ground};
use crate::confine::Mode;
use crate::confine::bwrap::ProbeError;

pub const CHECK: &str = "confinement";

/// What the OS enforces when commands are confined, and only the gate judges otherwise.
pub const FALLBACK: &str = "reading trail's key and the secret store, writing trail's records \
     (.trail/, .proof/, the ledger's home), the hosts' hook settings, shell start-up files and \
     ~/.ssh, and writing outside the project fall back to the gate's judgement of each command's \
     text (a program the agent writes and runs is not seen)";

/// What was found about bubblewrap on this machine.
pub enum Bubblewrap<'a> {
    Missing,
    /// Installed, and its probe's answer (`Err`: bubblewrap's own words).
    Found(&'a Path, Result<(), ProbeError>),
}

/// Every reason the agent's commands would not run confined.
pub fn check(mode: Mode, bwrap: &Bubblewrap<'_>, g: &Ground, codex_hooks: bool) -> Vec<Finding> {
    let mut out = Vec::new();
    match (mode, bwrap) {
        (Mode::Off, _) => out.push(Finding::new(
            CHECK,
            format!("confine.mode is off: the agent's commands run unconfined; {FALLBACK}"),
            "remove `confine.mode` from your configuration (the default, auto, confines when \
             bubblewrap works)",
        )),
        (_, Bubblewrap::Missing) => out.push(Finding::new(
            CHECK,
            format!("bubblewrap is not installed in /usr/bin: {FALLBACK}"),
            "install it (`sudo apt-get install bubblewrap`, `dnf install bubblewrap`, `pacman -S \
             bubblewrap`); on macOS there is none, and the gate alone judges",
        )),
        (_, Bubblewrap::Found(path, Err(why))) => out.push(Finding::new(
            CHECK,
            format!(
                "{} cannot confine here ({why}): every shell command the agent runs is {}; {FALLBACK}",
                path.display(),
                if mode == Mode::Require {
                    "refused"
                } else {
                    "run unconfined"
                }
            ),
            "allow unprivileged user namespaces (`sudo sysctl kernel.unprivileged_userns_clone=1`; \
             on Ubuntu 24.04, `kernel.apparmor_restrict_unprivileged_userns=0` or an AppArmor \
             profile for bwrap)",
        )),
        (_, Bubblewrap::Found(_, Ok(()))) => {}
    }
    if mode != Mode::Off {
        out.extend(claude_sandbox(g));
        if codex_hooks {
            out.extend(codex_sandbox(g));
        }
    }
    out
}

/// Claude Code's own sandbox, when on, runs every Bash command in a namespace where no other
/// can be made (measured with 2.1.328: "No permissions to create new namespace"), so trail's
/// confinement cannot nest inside it and only Claude Code's rules apply.
fn claude_sandbox(g: &Ground) -> Vec<Finding> {
    let files = [
        g.home.join(".claude/settings.json"),
        g.project_root.join(".claude/settings.json"),
        g.project_root.join(".claude/settings.local.json"),
        g.managed_settings.clone(),
    ];
    files
        .iter()
        .filter(|f| {
            read_json(f).is_some_and(|v| v.pointer("/sandbox/enabled") == Some(&Value::Bool(true)))
        })
        .map(|f| {
            Finding::new(
                CHECK,
                format!(
                    "{} turns Claude Code's own sandbox on: trail's confinement cannot nest \
                     inside it, so Claude Code's rules alone apply (they leave .trail/state \
                     writable and ~/.secrets readable unless you deny them)",
                    f.display()
                ),
                format!(
                    "set `sandbox.enabled` to false in {} and let trail confine each command",
                    f.display()
                ),
            )
        })
        .collect()
}

/// Codex runs its shell commands in its own bubblewrap sandbox unless `sandbox_mode` is
/// `danger-full-access`; inside it, trail's cannot nest (measured with 0.169: "setting up uid
/// map: Operation not permitted"), and Codex's workspace profile leaves `.trail/state` writable
/// and `~/.secrets` readable.
fn codex_sandbox(g: &Ground) -> Vec<Finding> {
    let config = g.codex_home.join("config.toml");
    let mode = crate::fsutil::read_text_capped(&config, 4 << 20)
        .ok()
        .and_then(|t| t.parse::<toml::Table>().ok())
        .and_then(|t| t.get("sandbox_mode")?.as_str().map(String::from));
    if mode.as_deref() == Some("danger-full-access") {
        return Vec::new();
    }
    vec![Finding::new(
        CHECK,
        format!(
            "Codex runs its commands in its own sandbox ({}), where trail's confinement cannot \
             nest; there, .trail/state is writable and ~/.secrets readable (measured with Codex \
             0.169)",
            mode.as_deref().unwrap_or("workspace-write by default")
        ),
        format!(
            "set `sandbox_mode = \"danger-full-access\"` in {}: trail then confines every \
             shell command Codex runs (its apply_patch edits stay judged by the gate)",
            config.display()
        ),
    )]
}

fn read_json(p: &Path) -> Option<Value> {
    let text = crate::fsutil::read_text_capped(p, 4 << 20).ok()?;
    serde_json::from_str(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ground(t: &Path) -> Ground {
        Ground {
            home: t.join("home"),
            project_root: t.join("proj"),
            path: None,
            codex_home: t.join("home/.codex"),
            managed_settings: t.join("managed.json"),
            config_dir: None,
        }
    }

    #[test]
    fn each_way_out_of_confinement_is_a_failure_with_its_fix() {
        let t = tempfile::tempdir().unwrap();
        let g = ground(t.path());
        let ok = Bubblewrap::Found(Path::new("/usr/bin/bwrap"), Ok(()));
        assert!(check(Mode::Auto, &ok, &g, false).is_empty());
        let off = check(Mode::Off, &ok, &g, false);
        assert!(off[0].problem.contains("fall back to the gate"), "{off:?}");
        assert!(
            check(Mode::Auto, &Bubblewrap::Missing, &g, false)[0]
                .fix
                .contains("apt-get install bubblewrap")
        );
        let broken = Bubblewrap::Found(
            Path::new("/usr/bin/bwrap"),
            Err(ProbeError::Refused("uid map".into())),
        );
        assert!(
            check(Mode::Require, &broken, &g, false)[0]
                .problem
                .contains("refused")
        );
        // A host sandbox that trail's cannot nest in.
        std::fs::create_dir_all(g.project_root.join(".claude")).unwrap();
        std::fs::write(
            g.project_root.join(".claude/settings.local.json"),
            r#"{"sandbox":{"enabled":true}}"#,
        )
        .unwrap();
        assert_eq!(check(Mode::Auto, &ok, &g, false).len(), 1);
        assert_eq!(check(Mode::Auto, &ok, &g, true).len(), 2);
        std::fs::create_dir_all(&g.codex_home).unwrap();
        std::fs::write(
            g.codex_home.join("config.toml"),
            "sandbox_mode = \"danger-full-access\"\n",
        )
        .unwrap();
        assert_eq!(check(Mode::Auto, &ok, &g, true).len(), 1);
    }
}
