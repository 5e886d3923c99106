//! What every request needs: the configuration, the ledger it names and the project. Loaded
//! per request, as each `trail` command loads it, so a changed config or a `trail trust` is
//! seen without restarting the server.

use std::ops::Deref;
use std::path::PathBuf;

use trail_core::config::Config;
use trail_core::layout::Layout;
use trail_core::secrets::Redactor;
use trail_core::state::Store;
use trail_core::workspace::Workspace;
use trail_core::zones::paths::Places as Zones;

use crate::error::ToolError;

/// The workspace every use case takes, loaded as the CLI loads it
/// ([`trail_core::workspace`]), and what only this server asks of it.
pub struct Ctx {
    pub ws: Workspace,
}

impl Deref for Ctx {
    type Target = Workspace;
    fn deref(&self) -> &Workspace {
        &self.ws
    }
}

impl Ctx {
    pub fn load() -> Result<Ctx, ToolError> {
        Ok(Ctx {
            ws: Workspace::new(Config::load()?),
        })
    }

    pub fn layout(&self) -> Layout {
        Layout::new(&self.root)
    }

    /// The redactor every output passes: the built-in rules and the person's own. It keeps no
    /// originals: what goes out quotes the journals (already redacted) and the project's files
    /// (which still hold what they quote).
    pub fn redactor(&self) -> Result<&Redactor, ToolError> {
        Ok(self.secrets.redactor()?)
    }

    /// The state file and trail's signed records beside it.
    pub fn store(&self) -> Store {
        Store::new(self.root.clone()).with_secrets_dir(self.config.secrets_dir.value.clone())
    }

    /// The places the gate protects, with this configuration's ledger and secret store.
    pub fn zones(&self) -> Result<Zones, ToolError> {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .ok_or(ToolError::NoHome)?;
        // Compared with canonical paths: a symlinked home must not hide the zones in it.
        let real = |p: PathBuf| p.canonicalize().unwrap_or(p);
        Ok(Zones {
            project_root: self.root.clone(),
            home: real(home),
            cwd: self.root.clone(),
            tmpdir: None,
            trail_home: Some(real(self.ledger.root().to_path_buf())),
            secrets_dir: Some(real(self.config.secrets_dir.value.clone())),
        })
    }
}
