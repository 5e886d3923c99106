//! Whether a setting read from a file counts: everything in the user's own file does; from a
//! project file, a [`Class::Sensitive`] value counts only when the person trusted that exact
//! file, and is otherwise listed as [`Refused`].

use std::path::Path;

use super::{Class, Origin, Refused, SettingKey};
use crate::trust::{self, TrustStore};

/// Where one file's settings come from, and whether its sensitive ones count.
pub(super) struct FileSource<'a> {
    pub origin: Origin,
    /// `None` for the user's own file: everything in it counts.
    pub project: Option<ProjectTrust<'a>>,
    pub refused: Vec<Refused>,
}

pub(super) struct ProjectTrust<'a> {
    pub store: Option<&'a TrustStore>,
    /// Where the person's key is (the user's setting or the default: never the project's).
    pub secrets_dir: &'a Path,
    pub path: &'a Path,
    pub bytes: &'a [u8],
    /// Looked up on the first sensitive key only: most project files hold none.
    pub status: Option<trust::Status>,
}

impl FileSource<'_> {
    pub fn user(origin: Origin) -> FileSource<'static> {
        FileSource {
            origin,
            project: None,
            refused: Vec::new(),
        }
    }

    /// The origin to record `key` under, given the class of the value read, or `None` when it
    /// must not count (then it is listed as refused, with `value` as written).
    pub fn admit(&mut self, key: SettingKey, class: Class, value: &str) -> Option<Origin> {
        if class == Class::Ordinary {
            return Some(self.origin.clone());
        }
        let Some(p) = &mut self.project else {
            return Some(self.origin.clone());
        };
        let status = p
            .status
            .get_or_insert_with(|| match p.store {
                // An unreadable store trusts nothing: failing closed costs the person one
                // `trail trust`, failing open would run a stranger's command.
                Some(store) => {
                    let key = crate::secrets::key::Key::load(p.secrets_dir).ok().flatten();
                    store
                        .status(p.path, p.bytes, key.as_ref())
                        .unwrap_or(trust::Status::Untrusted)
                }
                None => trust::Status::Untrusted,
            })
            .clone();
        if status == trust::Status::Trusted {
            return Some(self.origin.clone());
        }
        self.refused.push(Refused {
            key,
            value: value.to_string(),
            origin: self.origin.clone(),
            trust: status,
        });
        None
    }
}
