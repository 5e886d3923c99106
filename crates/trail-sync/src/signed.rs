//! What a machine signs: its id, a sequence number that only grows, and the tree of its
//! segments, carried in the commit message of each commit on its ref.
//!
//! ```text
//! trail sync: <id>, seq <n>
//!
//! trail-sync: v1
//! machine: <id>
//! seq: <n>
//! tree: <tree id>
//! signature: <ed25519 signature of the payload, hex>
//! ```
//!
//! The payload is `trail-sync v1\nmachine <id>\nseq <n>\ntree <tree id>\n`. The tree id names
//! every byte of every segment (git's object ids are hashes of content), so a segment changed,
//! cut or reordered on the remote no longer matches a signature; an older commit put back
//! carries a lower `seq` than one already accepted.

use crate::key;

/// A signed claim about one commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub machine: String,
    pub seq: u64,
    pub tree: String,
    pub signature: String,
}

impl Claim {
    fn payload(machine: &str, seq: u64, tree: &str) -> String {
        format!("trail-sync v1\nmachine {machine}\nseq {seq}\ntree {tree}\n")
    }

    /// A claim signed with `key`.
    pub fn sign(key: &key::MachineKey, machine: &str, seq: u64, tree: &str) -> Claim {
        Claim {
            machine: machine.to_string(),
            seq,
            tree: tree.to_string(),
            signature: key.sign(Self::payload(machine, seq, tree).as_bytes()),
        }
    }

    /// Whether `public` signed this claim.
    pub fn verifies(&self, public: &str) -> bool {
        key::verify(
            public,
            Self::payload(&self.machine, self.seq, &self.tree).as_bytes(),
            &self.signature,
        )
    }

    /// The commit message that carries it.
    pub fn message(&self) -> String {
        format!(
            "trail sync: {}, seq {}\n\ntrail-sync: v1\nmachine: {}\nseq: {}\ntree: {}\nsignature: {}\n",
            self.machine, self.seq, self.machine, self.seq, self.tree, self.signature
        )
    }

    /// The claim a commit message carries, if it carries one.
    pub fn parse(message: &str) -> Option<Claim> {
        let field = |name: &str| {
            message.lines().find_map(|l| {
                l.strip_prefix(name)
                    .and_then(|r| r.strip_prefix(": "))
                    .map(str::trim)
            })
        };
        if field("trail-sync")? != "v1" {
            return None;
        }
        Some(Claim {
            machine: field("machine")?.to_string(),
            seq: field("seq")?.parse().ok()?,
            tree: field("tree")?.to_string(),
            signature: field("signature")?.to_string(),
        })
    }
}

/// The tree and message of a raw commit object.
pub fn split_commit(raw: &[u8]) -> Option<(String, String)> {
    let text = String::from_utf8_lossy(raw);
    let (headers, message) = text.split_once("\n\n")?;
    let tree = headers.lines().find_map(|l| l.strip_prefix("tree "))?;
    Some((tree.trim().to_string(), message.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_round_trips_and_binds_every_field() {
        let d = tempfile::tempdir().unwrap();
        let k = key::MachineKey::load_or_create(d.path()).unwrap();
        let c = Claim::sign(
            &k,
            "0123456789abcdef",
            7,
            "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        );
        let back = Claim::parse(&c.message()).unwrap();
        assert_eq!(back, c);
        assert!(back.verifies(&k.public()));
        for changed in [
            Claim {
                seq: 8,
                ..c.clone()
            },
            Claim {
                machine: "fedcba9876543210".into(),
                ..c.clone()
            },
            Claim {
                tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4905".into(),
                ..c.clone()
            },
        ] {
            assert!(!changed.verifies(&k.public()), "{changed:?}");
        }
        assert_eq!(Claim::parse("a commit someone else made\n"), None);
    }
}
