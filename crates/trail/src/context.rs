//! What every command needs: the merged configuration and the ledger it points at.

use std::sync::Arc;

use trail_core::config::Config;
use trail_core::ledger::Ledger;

use crate::error::CliResult;

pub struct Context {
    pub ledger: Ledger,
    pub config: Config,
}

impl Context {
    pub fn load() -> CliResult<Context> {
        let config = Config::load()?;
        crate::cmd::trust::warn_refused(&config);
        // Lock alerts reach the person at the terminal on stderr.
        let ledger = config
            .ledger()
            .with_alert_sink(Arc::new(|msg: &str| eprintln!("{msg}")));
        Ok(Context { ledger, config })
    }
}
