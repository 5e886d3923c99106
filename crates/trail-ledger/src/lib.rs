//! The pulse stream: an append-only, sealed, hash-chained log of LedgerPulse records.
//!
//! Layout under the personal root (`$TRAIL_HOME`):
//!
//! ```text
//! stream/pulses.log.md            the stream
//! stream/pulses.log.md.idx.json   index (a cache; deleting it loses nothing)
//! stream/pulses.lock              writer lock, with the holder's pid, host, command and start
//! stream/pulses.sync              sync lock and the written and durable points (group commit)
//! stream/pulses.intent.*          a writer's record between "written down" and "appended"
//! stream/pulses.anchor            the anchored head: last seal and its end, MACed with the key
//! stream/archive/                 rotated segments and torn tails
//! stream/imported/                imported history, each segment joined to the stream (imported.rs)
//! machine-id, machines/<id>/       this machine's id; other machines' ledgers (replica.rs)
//! local/stream/...                 the records of projects that opted out of sync (local.rs)
//! ```

//!
//! [`Ledger`] (`handle.rs`) is where every operation starts. The writer's modules call only
//! downwards: `append` (the seven steps) and `rotate` use `writer` (lock, stamped append,
//! anchor) and `group` (step 7: the group commit), which use `tail` (reserve, scan, repair),
//! `intent` (intent files and orphans), `lock`, `anchor` and `archive`; none of those knows
//! `Ledger`.

// The floor, named as the rest of trail names it (`crate::fsutil`, `crate::time::Ts`): this crate
// stands on `trail-base` and `trail-secrets` (the key that anchors the head, the redactor every
// record passes) and knows nothing above them — no config, no gate, no host format.
use trail_base::{failpoint, fsutil, project, text, time, tokens};
use trail_secrets as secrets;

pub mod anchor;
pub mod append;
pub mod archive;
pub mod around;
#[doc(hidden)]
pub mod check;
pub mod error;
pub mod format;
pub mod frame;
pub mod group;
pub mod handle;
pub mod imported;
pub mod index;
pub mod intent;
pub mod local;
pub mod lock;
pub mod query;
pub mod reader;
pub mod record;
pub mod rehydrate;
pub mod replica;
pub mod rotate;
pub mod scope;
pub mod tail;
pub mod verify;
pub mod writer;

pub use error::{LedgerError, Result};
pub use handle::{Ledger, LedgerOptions};
pub use record::{Confidence, Focus, Intent, ModelShift, Record, RecordType, Status};
