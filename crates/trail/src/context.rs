//! What every command needs: the workspace (the merged configuration, the ledger it points at,
//! the one secrets service that redacts whatever the command writes or prints, the project
//! root), loaded the way the MCP server loads it ([`trail_core::workspace`]).

use std::ops::Deref;
use std::sync::Arc;

use trail_core::config::Config;
use trail_core::workspace::Workspace;

use crate::error::CliResult;

pub struct Context {
    ws: Workspace,
}

impl Deref for Context {
    type Target = Workspace;
    fn deref(&self) -> &Workspace {
        &self.ws
    }
}

impl Context {
    pub fn load() -> CliResult<Context> {
        let config = Config::load()?;
        crate::cmd::trust::warn_refused(&config);
        let mut ws = Workspace::new(config);
        // Lock alerts reach the person at the terminal on stderr.
        ws.ledger = ws
            .ledger
            .with_alert_sink(Arc::new(|msg: &str| eprintln!("{msg}")));
        Ok(Context { ws })
    }
}
