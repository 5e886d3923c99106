//! Decisions (`trail decide`, Lossless Ledger FR-2 and FR-10), as the journals hold them.

pub mod pulse;
