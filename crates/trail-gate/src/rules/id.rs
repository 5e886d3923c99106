//! Every built-in rule's id, as a type: a decision names its rule by a variant, so a rule id
//! that no table entry has does not compile. The string is what decisions, junctions, the
//! state file and `trail gate --json` carry; configured rules (`gate.rules`) keep ids of
//! their own, as strings.

macro_rules! rule_ids {
    ($($variant:ident => $name:literal,)*) => {
        /// A built-in rule: one of [`RULES`](super::RULES) or [`EMITTED`](super::EMITTED).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RuleId {
            $(#[doc = concat!("`", $name, "`")] $variant,)*
        }

        impl RuleId {
            /// Every id, in the order of the tables.
            pub const ALL: &[RuleId] = &[$(RuleId::$variant,)*];

            /// The id as decisions carry it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $name,)*
                }
            }

            /// The built-in rule a carried id names, if any.
            pub fn parse(id: &str) -> Option<RuleId> {
                match id {
                    $($name => Some(RuleId::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

rule_ids! {
    SelfApproval => "self-approval",
    PersonAct => "person-act",
    TrailKey => "trail-key",
    StateTamper => "state-tamper",
    UnseenContents => "unseen-contents",
    JournalTamper => "journal-tamper",
    MemoryTamper => "memory-tamper",
    SecretStore => "secret-store",
    TrailHome => "trail-home",
    AgentSettings => "agent-settings",
    StateView => "state-view",
    RmRecursiveCritical => "rm-recursive-critical",
    FindDeleteCritical => "find-delete-critical",
    FindDelete => "find-delete",
    DiskFormat => "disk-format",
    RawDeviceWrite => "raw-device-write",
    PowerFirmwareWrite => "power-firmware-write",
    PermissionsRecursiveCritical => "permissions-recursive-critical",
    DestroyCriticalFiles => "destroy-critical-files",
    Truncate => "truncate",
    MoveCritical => "move-critical",
    InterpreterCode => "interpreter-code",
    DatabaseReset => "database-reset",
    CopyToRemote => "copy-to-remote",
    GlobalConfig => "global-config",
    RmRecursive => "rm-recursive",
    GitPush => "git-push",
    GitPushForce => "git-push-force",
    GitDestructive => "git-destructive",
    Publish => "publish",
    Infrastructure => "infrastructure",
    SqlDestructive => "sql-destructive",
    HttpWrite => "http-write",
    Privilege => "privilege",
    SharedTerminal => "shared-terminal",
    Power => "power",
    HistoryAndSchedules => "history-and-schedules",
    WorldWritable => "world-writable",
    SensitiveWrite => "sensitive-write",
    OutsideWrite => "outside-write",
    AgentHomeDelete => "agent-home-delete",
    SystemFile => "system-file",
    ReverseShell => "reverse-shell",
    Listener => "listener",
    SyncDeleteCritical => "sync-delete-critical",
    SyncDelete => "sync-delete",
    BucketUpload => "bucket-upload",
    Print => "print",
    ContainerVolumes => "container-volumes",
    Services => "services",
    Kill => "kill",
    MoveAway => "move-away",
    DeleteOutside => "delete-outside",
    DeleteListed => "delete-listed",
    RemovesEssential => "removes-essential",
    GitInternals => "git-internals",
    Deploy => "deploy",
    Migration => "migration",
    CredentialRead => "credential-read",
    Exfiltration => "exfiltration",
    SecretsManager => "secrets-manager",
    BackupDelete => "backup-delete",
    RemoteWrite => "remote-write",
    SystemAdmin => "system-admin",
    DebuggerAttach => "debugger-attach",
    Unparseable => "unparseable",
    Unverifiable => "unverifiable",
    Obfuscation => "obfuscation",
    PipeToShell => "pipe-to-shell",
    ForkBomb => "fork-bomb",
    RemoteCode => "remote-code",
    DecodedCode => "decoded-code",
    Schedule => "schedule",
    InterpreterCritical => "interpreter-critical",
    IndirectExec => "indirect-exec",
    ContainerHost => "container-host",
    ConsequenceIrreversible => "consequence-irreversible",
    ConsequenceExternal => "consequence-external",
    ChangesRemote => "changes-remote",
    SkipsSafeguard => "skips-safeguard",
    NamesCritical => "names-critical",
    DestroysCritical => "destroys-critical",
    HandsOver => "hands-over",
    TypedCredential => "typed-credential",
    ExposesShell => "exposes-shell",
    ExposesService => "exposes-service",
    PsDestructive => "ps-destructive",
}

impl From<RuleId> for String {
    fn from(id: RuleId) -> String {
        id.as_str().to_string()
    }
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::RuleId;

    #[test]
    fn ids_are_unique_and_read_back() {
        let mut names: Vec<&str> = RuleId::ALL.iter().map(|id| id.as_str()).collect();
        for id in RuleId::ALL {
            assert_eq!(RuleId::parse(id.as_str()), Some(*id));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), RuleId::ALL.len());
        assert_eq!(RuleId::parse("no-such-rule"), None);
    }
}
