//! What every command needs: the merged configuration, the ledger it points at, and the one
//! secrets service that redacts whatever the command writes or prints (the ledger's too).

use std::sync::Arc;

use trail_core::config::Config;
use trail_core::ledger::Ledger;
use trail_core::secrets::Secrets;

use crate::error::CliResult;

pub struct Context {
    pub ledger: Ledger,
    pub config: Config,
    pub secrets: Arc<Secrets>,
}

impl Context {
    pub fn load() -> CliResult<Context> {
        let config = Config::load()?;
        crate::cmd::trust::warn_refused(&config);
        let secrets = config.secrets();
        // Lock alerts reach the person at the terminal on stderr.
        let ledger = config
            .ledger()
            .with_secrets(secrets.clone())
            .with_alert_sink(Arc::new(|msg: &str| eprintln!("{msg}")));
        Ok(Context {
            ledger,
            config,
            secrets,
        })
    }
}
