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
        let mut opts = config.ledger_options();
        // Lock alerts reach the person at the terminal on stderr.
        opts.alert_sink = Some(Arc::new(|msg: &str| eprintln!("{msg}")));
        let ledger = Ledger::open(config.home.value.clone(), opts);
        Ok(Context { ledger, config })
    }
}
