//! The pulse stream: an append-only, sealed, hash-chained log of LedgerPulse records.
//!
//! Layout under the personal root (`$TRAIL_HOME`):
//!
//! ```text
//! stream/pulses.log.md            the stream
//! stream/pulses.log.md.idx.json   index (a cache; deleting it loses nothing)
//! stream/pulses.lock              writer lock, with the holder's pid, host, command and start
//! stream/pulses.intent.*          a writer's record between "written down" and "appended"
//! stream/pulses.anchor            the anchored head: last seal and its end, MACed with the key
//! stream/archive/                 rotated segments and torn tails
//! ```

pub mod anchor;
pub mod append;
pub mod format;
pub mod frame;
pub mod index;
pub mod lock;
pub mod query;
pub mod reader;
pub mod record;
pub mod rehydrate;
pub mod rotate;
pub mod store;
pub mod verify;

pub use record::{Confidence, Focus, Intent, ModelShift, Record, RecordType, Status};
pub use store::{Ledger, LedgerOptions};
