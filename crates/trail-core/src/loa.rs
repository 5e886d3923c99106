//! Loa's project configuration, `.loa.config.yaml`: what trail reads of it (grounding
//! enforcement and threshold, where the trajectory and NOTES.md are), so that a Loa project
//! switches to trail without losing its history. The `cite` entries of Loa's trajectory are
//! read for grounding ([`crate::grounding::loa`]).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::fsutil;
use crate::layout::Layout;

/// `.loa.config.yaml` could not be read or parsed: it may be what sets strict enforcement, so
/// it is never skipped silently.
#[derive(Debug, thiserror::Error)]
pub enum LoaError {
    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },
}

/// The parts of `.loa.config.yaml` trail reads; everything else in it is Loa's.
#[derive(Debug, Default, Deserialize)]
pub struct LoaConfig {
    /// `strict | warn | disabled` (the PRD's key).
    #[serde(default)]
    pub grounding_enforcement: Option<String>,
    #[serde(default)]
    pub grounding: Option<LoaGrounding>,
    #[serde(default)]
    pub paths: Option<LoaPaths>,
    #[serde(default)]
    pub memory: Option<LoaMemory>,
}

#[derive(Debug, Default, Deserialize)]
pub struct LoaGrounding {
    #[serde(default)]
    pub threshold: Option<Scalar>,
    /// The key Loa's shipped config uses (`grounding.enforcement`).
    #[serde(default)]
    pub enforcement: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct LoaPaths {
    #[serde(default)]
    pub grimoire: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct LoaMemory {
    #[serde(default)]
    pub trajectory_dir: Option<String>,
    #[serde(default)]
    pub notes_file: Option<String>,
}

/// A YAML scalar kept as its text, so that `threshold: 0.95` is the decimal 0.95 and not the
/// double nearest to it.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    Text(String),
    Float(f64),
    Int(u64),
}

impl Scalar {
    pub fn text(&self) -> String {
        match self {
            Scalar::Text(s) => s.clone(),
            // Rust prints the shortest text that reads back as the same double: 0.95 → "0.95".
            Scalar::Float(f) => f.to_string(),
            Scalar::Int(n) => n.to_string(),
        }
    }
}

/// The most of `.loa.config.yaml` read.
const MAX_CONFIG: u64 = 1 << 20;

/// `.loa.config.yaml`, when the project has one. A file that cannot be read or parsed is an
/// error: it may be what sets strict enforcement.
pub fn read_config(root: &Path) -> Result<Option<LoaConfig>, LoaError> {
    let path = Layout::new(root).loa_config();
    let text = match fsutil::read_string_in(root, &path, MAX_CONFIG) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(LoaError::Io {
                path: path.clone(),
                source: e.source,
            });
        }
    };
    if text.trim().is_empty() {
        return Ok(Some(LoaConfig::default()));
    }
    serde_saphyr::from_str::<LoaConfig>(&text)
        .map(Some)
        .map_err(|e| LoaError::Config {
            path,
            message: e.to_string(),
        })
}

impl LoaConfig {
    /// The enforcement it sets: `grounding_enforcement`, else `grounding.enforcement`.
    pub fn enforcement(&self) -> Option<&str> {
        self.grounding_enforcement
            .as_deref()
            .or_else(|| self.grounding.as_ref()?.enforcement.as_deref())
    }

    pub fn threshold(&self) -> Option<String> {
        Some(self.grounding.as_ref()?.threshold.as_ref()?.text())
    }

    /// Where Loa keeps its trajectory: `memory.trajectory_dir`, else `<grimoire>/a2a/trajectory`
    /// with the grimoire from `paths.grimoire` (default `grimoires/loa`, or the legacy
    /// `loa-grimoire/` where only that exists).
    pub fn trajectory_dir(&self, root: &Path) -> PathBuf {
        if let Some(d) = self
            .memory
            .as_ref()
            .and_then(|m| m.trajectory_dir.as_deref())
        {
            return root.join(d);
        }
        grimoire(
            root,
            self.paths.as_ref().and_then(|p| p.grimoire.as_deref()),
        )
        .join("a2a/trajectory")
    }

    /// Where Loa keeps NOTES.md, relative to the project root: `memory.notes_file`, else
    /// `NOTES.md` in the grimoire (`paths.grimoire`, default `grimoires/loa`, or the legacy
    /// `loa-grimoire/` where only that exists).
    pub fn notes_file(&self, root: &Path) -> String {
        if let Some(f) = self.memory.as_ref().and_then(|m| m.notes_file.as_deref()) {
            return f.to_string();
        }
        let g = grimoire_rel(
            root,
            self.paths.as_ref().and_then(|p| p.grimoire.as_deref()),
            true,
        );
        format!("{}/NOTES.md", g.trim_end_matches('/'))
    }
}

fn grimoire(root: &Path, configured: Option<&str>) -> PathBuf {
    // Only what is on disk: what this is asked for (the trajectory) is read where it exists.
    root.join(grimoire_rel(root, configured, false))
}

/// The grimoire's path under the root: the configured one, else `grimoires/loa`, or the legacy
/// `loa-grimoire` where only that exists. When neither is on disk, git says which the project
/// keeps: a `loa-grimoire/` deleted whole is the committed one to bring back, not a new
/// `grimoires/loa/` (issue 21: the heal wrote a blank template there, and the committed
/// `loa-grimoire/NOTES.md` never came back).
fn grimoire_rel(root: &Path, configured: Option<&str>, ask_git: bool) -> String {
    const NEW: &str = "grimoires/loa";
    const LEGACY: &str = "loa-grimoire";
    if let Some(g) = configured {
        return g.to_string();
    }
    let legacy = match (root.join(NEW).exists(), root.join(LEGACY).exists()) {
        (true, _) => false,
        (false, true) => true,
        (false, false) if !ask_git => false,
        (false, false) => {
            crate::git::files(root, &[NEW]).is_empty()
                && !crate::git::files(root, &[LEGACY]).is_empty()
        }
    };
    if legacy { LEGACY } else { NEW }.into()
}

/// Loa's trajectory directory when the project has one: the configured one, or either default
/// when there is no config.
pub fn trajectory_dir(root: &Path, config: Option<&LoaConfig>) -> Option<PathBuf> {
    let dir = match config {
        Some(c) => c.trajectory_dir(root),
        None => grimoire(root, None).join("a2a/trajectory"),
    };
    dir.is_dir().then_some(dir)
}
