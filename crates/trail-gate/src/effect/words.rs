//! What a command's words say it will do: the verbs with consequences, the verbs that only
//! look, and where they stand (a subcommand, a long flag, a method name, the program's own
//! name).

use super::super::Findings;
use super::super::known;
use super::super::rules::{Cmd, RuleId};
use super::super::{Verdict, code};
use super::decide;

/// What a consequential verb means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// Deletion, destruction, reset, uninstalling, revocation, overwriting.
    Destroys,
    /// Shutdown, stopping, disabling, killing.
    Stops,
    /// Changing live settings or secrets (`config:set`, `secrets set`).
    Changes,
    /// Publication, release, deployment, merging, sending, payment.
    Reaches,
    /// Printing a secret (`secret show`, `print-access-token`).
    Reveals,
    /// Acting on a production environment (`--target-org prod`, `--env production`).
    Production,
    /// Installing named software onto this machine, or upgrading what is installed
    /// (`teacup install tcllib`, `sysget upgrade`).
    Installs,
    /// Making an attached device act in the world: fire, open, dispense (`--fire-cue 12` to a
    /// controller on `/dev/ttyUSB0`).
    Actuates,
}

/// The destroying verbs that, said of a critical place, are a block: they delete or overwrite
/// it. Resetting, restoring or reverting the project is a junction, like `git checkout -- .`.
const DELETES: &[&str] = &[
    "del",
    "delete",
    "destroy",
    // A table dropped where a table is a directory (casacore's `drop table /path`).
    "drop",
    "erase",
    "flash",
    // A cache or a spool emptied at a path it is given (`cache flush --path DIR`).
    "flush",
    "format",
    "nuke",
    "obliterate",
    "overwrite",
    // What is old in it deleted (`history prune --data-root DIR --keep 0`).
    "prune",
    "purge",
    "remove",
    "rm",
    "rmdir",
    "rmtree",
    "shred",
    "truncate",
    "wipe",
    "zap",
    "zero",
];

impl Verb {
    /// Whether the verb sends what it is given elsewhere: any reaching verb but signing, which
    /// uses a key where it is (`elfsign sign -k key.pem …`, `cosign sign --key …`) and sends
    /// only the signature.
    pub(super) fn sends(&self) -> bool {
        self.class == Class::Reaches && parts(&self.word).iter().all(|p| p != "sign")
    }

    /// Whether the verb deletes or overwrites what it is given (see [`DELETES`]).
    pub(super) fn deletes(&self) -> bool {
        self.class == Class::Destroys
            && (parts(&self.word).iter().any(|p| {
                DELETES.contains(&p.as_str()) || p.ends_with("remove") || p.ends_with("delete")
            }) || DELETES
                .iter()
                .any(|d| d.len() >= 4 && self.word.to_ascii_lowercase().contains(d)))
    }
}

impl Class {
    pub(super) fn rule(self) -> RuleId {
        match self {
            Class::Destroys | Class::Stops | Class::Changes => RuleId::ConsequenceIrreversible,
            Class::Reaches => RuleId::ConsequenceExternal,
            Class::Reveals => RuleId::CredentialRead,
            Class::Production => RuleId::ConsequenceExternal,
            Class::Installs | Class::Actuates => RuleId::ConsequenceIrreversible,
        }
    }

    pub(super) fn meaning(self) -> &'static str {
        match self {
            Class::Destroys => "delete, destroy, reset, revoke or uninstall something",
            Class::Stops => "shut down, stop or disable something",
            Class::Changes => "change live settings or secrets",
            Class::Reaches => "publish, deploy, merge, send or pay",
            Class::Reveals => "print a secret",
            Class::Production => "act on a production environment",
            Class::Installs => "install or upgrade software on this machine",
            Class::Actuates => {
                "set a machine or an attached device going, or rewrite what it runs (start, fire, program, flash)"
            }
        }
    }
}

pub(super) struct Verb {
    pub(super) word: String,
    pub(super) class: Class,
}

/// Word parts that mean an act with consequences.
const DESTROYS: &[&str] = &[
    "del",
    "delete",
    "deregister",
    "destroy",
    "discard",
    "downgrade",
    "drop",
    "erase",
    "evict",
    "expire",
    "expunge",
    "flash",
    "flush",
    "forget",
    // What a person held taken from them (`loans forfeit --all`, a pledge or a deposit).
    "forfeit",
    "format",
    "gc",
    "invalidate",
    "nuke",
    "obliterate",
    "overwrite",
    "prune",
    "purge",
    // Made again from nothing (`kamdbctl reinit`): what it held is gone, as with a reset.
    "reinit",
    "reinitialise",
    "reinitialize",
    "remove",
    "reset",
    "restore",
    "revert",
    "revoke",
    "rm",
    "rmdir",
    "rmi",
    "rmtree",
    "rollback",
    "shred",
    "shrink",
    "teardown",
    "terminate",
    "truncate",
    "undefine",
    "undo",
    "uninstall",
    "unpublish",
    // Taken off where it was offered (`cars unlist --car C`), as an unpublish is.
    "unlist",
    "delist",
    "unregister",
    "unset",
    "unlink",
    // A store emptied of every record (Tokyo Tyrant's `vanish`).
    "vanish",
    // Animals or stock killed or thrown out (`cages cull --line L`): nothing brings them back.
    "cull",
    // A member or a customer taken off a service (`members offboard --member M`).
    "offboard",
    "wipe",
    "yank",
    "zap",
    "zero",
];

const STOPS: &[&str] = &[
    // A running job or transfer ended before it finishes (`laminarc abort build 42`).
    "abort",
    "cancel",
    "deactivate",
    "decommission",
    // What was set up for a service taken away again (`kolibri manage deprovision`).
    "deprovision",
    "disable",
    // A safeguard stood down (`accounts disarm --account 55102`, an alarm panel's).
    "disarm",
    // A node or a queue told to take no more work (`llctl drain`, a load balancer's member).
    "drain",
    // Ending another's session (a broker's client, a chat's user): what it ran stops.
    "disconnect",
    "halt",
    "hibernate",
    // A certificate, a ticket or an order made void (`certificates void --cert C`).
    "void",
    // A vehicle or a machine kept from moving or starting (`--command immobilize`).
    "immobilise",
    "immobilize",
    "kick",
    "kill",
    "leave",
    // Ending a session (a desktop's, a storage target's): what runs in it stops.
    "logout",
    "mask",
    "mute",
    "off",
    "pause",
    "poweroff",
    "quit",
    "reboot",
    "restart",
    "shutdown",
    "silence",
    "snooze",
    // A device put to sleep (`cec-ctl --to 0 --standby`): what it shows or runs stops.
    "standby",
    "stop",
    "suspend",
    // Taken off the machine it ran on: a loaded module or service, an imported disk group.
    "unload",
    "deport",
    // Taken out of what it served in: a mirror's half, a disk from its array, a project
    // from its client (`metadetach d10 d12`, `boinccmd … detach`); a group or a node taken
    // out of service (`hagrp -offline appsg`).
    "detach",
    "offline",
    // A security module set to let everything through (`selinux permissive --host H`).
    "permissive",
];

/// Changing something live: its settings, who may do what, what is trusted, how much runs.
const CHANGES: &[&str] = &[
    // A configuration made true of the machines it names (`colmena apply --on @prod`, `bw
    // apply web01`, `flavours apply THEME`); with `--dry-run` or `--noop`, only shown.
    "apply", "approve", "enable", "grant", "modify", "passwd", "put", "rotate", "scale", "set",
    "toggle", "trust", "unlock",
    // Made final (`giving batch finalize`, `invoices finalize`): no longer a draft to change.
    "finalize", "finalise",
    // A safeguard set aside (`cabinet override --drawer 5`), a job set for later (`aeration
    // schedule --at 02:00`).
    "override", "schedule",
    // A plan, a version or a profile made the live one (`sortplan activate --site S`, `sw
    // activate --radio R`): what runs there changes.
    "activate",
];

const REACHES: &[&str] = &[
    // Said to everyone in a place (`pa announce --zone all`), as a broadcast is.
    "announce",
    "broadcast",
    "post",
    "charge",
    "deploy",
    "deprecate",
    // Rolled out to where it runs (`firmware rollout --fleet all`), as deployed.
    "rollout",
    // Sent out to someone: a truck, a crew (`spreader dispatch --truck P-12`). (Not
    // `notify`: as often a desktop's notice to the person at it.)
    "dispatch",
    "land",
    "merge",
    "pay",
    "payment",
    "payout",
    "promote",
    "provision",
    // A message published to a broker's topic (`nats pub`, `rostopic pub`): whoever listens
    // acts on it.
    "pub",
    "publish",
    "purchase",
    "push",
    "redeploy",
    "refund",
    "release",
    "retire",
    "send",
    // A call placed to a number or an address (`linphonecsh dial sip:…`): someone answers.
    "dial",
    // Made reachable by others (`promptfoo share`, a session or a result put online).
    "share",
    "ship",
    "sign",
    "submit",
    "transfer",
    "transmit",
    // Bought (`credits buy --tonnes 200`).
    "buy",
    // A blinded trial's allocation disclosed (`subjects unblind --subject S`): it cannot be
    // hidden again.
    "unblind",
    // Sent up to a spacecraft (`command uplink --file tc.bin`): it acts on what it gets.
    "uplink",
    // Handed over to a client (`deliver --project P --to client`), or control of a machine
    // handed to another party (`crane handover --to remote-ops`).
    "deliver",
    "handover",
    "upload",
    "withdraw",
];

/// A verb that empties a place whole, whatever the program (`cache purge`, `spool flush`,
/// `scratch empty`, `tiles drop`): one list for every check that asks.
pub(crate) fn empties_whole(w: &str) -> bool {
    matches!(
        w,
        "purge"
            | "clean"
            | "cleanup"
            | "clear"
            | "wipe"
            | "empty"
            | "prune"
            | "reset"
            | "flush"
            | "drop"
    )
}

/// Word parts that mean only looking: a subcommand made of one keeps the command safe.
pub(crate) const LOOKS: &[&str] = &[
    "audit", "browse", "cat", "check", "count", "describe", "df", "diff", "doctor", "du", "dump",
    "estimate", "explain", "export", "find", "get", "help", "history", "info", "inspect", "lint",
    "list", "log", "logs", "ls", "outdated", "plan", "preview", "print", "ps", "query", "read",
    "search", "show", "stat", "stats", "status", "tail", "test", "top", "tree", "validate",
    "verify", "version", "view", "watch", "whoami", "why",
];

/// Names of secrets, and the verbs that print one.
const SECRETS: &[&str] = &[
    "apikey",
    "apikeys",
    "auth",
    // An SNMP community string is the password to a device's management (`snmp
    // show-community --radio R`).
    "community",
    "credential",
    "credentials",
    "creds",
    "logins",
    // A connection string, its password in it (`db show --dsn-full`).
    "dsn",
    "passphrase",
    "passwd",
    "password",
    "passwords",
    "secret",
    "secrets",
    "communities",
    "token",
    "tokens",
];
const PRINTS: &[&str] = &[
    "access", "cat", "decrypt", "display", "dump", "export", "get", "print", "read", "reveal",
    "show", "view",
];

/// What is sent to people, and the verbs that send it (`messages:create`).
const MESSAGES: &[&str] = &[
    "call",
    "calls",
    "email",
    "emails",
    "mail",
    "message",
    "messages",
    "mms",
    "sms",
    "notification",
    "notifications",
];
const MAKES: &[&str] = &["create", "new", "post", "send"];

/// A webhook pointed at another party's address (`alerts webhook --url https://…`): what
/// happens here is sent there.
fn hooked_elsewhere(c: &Cmd<'_>, any: &dyn Fn(&[&str]) -> bool) -> bool {
    any(&["webhook", "webhooks"])
        && c.option_words()
            .any(|w| crate::shells::web_url_elsewhere(w.split_once('=').map_or(w, |(_, v)| v)))
}

/// What is bought when it is placed (`orders place --vendor V`, `po submit`): a supplier is
/// paid for it.
const ORDERS: &[&str] = &[
    "order",
    "orders",
    "po",
    "pos",
    "requisition",
    "requisitions",
];
const PLACES: &[&str] = &["place", "submit", "create", "new", "raise"];

/// Whether `flag`'s value (after `=` or as the next word) is a port or an address
/// (`--publish 5432:5432`, `--publish=127.0.0.1:80:80`), as containers' `--publish` is, or
/// says no (`--publish never`).
fn publishes_a_port(c: &Cmd<'_>, flag: &str) -> bool {
    let value = flag
        .split_once('=')
        .map(|(_, v)| v.to_string())
        .or_else(|| {
            let mut words = c.option_words().skip_while(|w| *w != flag);
            words.next();
            words.next().map(str::to_string)
        });
    // (A URL's colon is its scheme's: `--publish https://shop.example.com/api` sends there.)
    value.is_some_and(|v| {
        v.starts_with(|ch: char| ch.is_ascii_digit())
            || v.contains(':') && !v.contains("://")
            || ["never", "no", "none", "false", "off"]
                .iter()
                .any(|n| v.eq_ignore_ascii_case(n))
    })
}

/// Long flags whose words mean destruction (`--delete`, `--zap-all`, `--export-secret-keys`).
const DESTROYING_FLAGS: &[&str] = &[
    "delete",
    "destroy",
    "drop",
    "erase",
    "flash",
    "nuke",
    "prune",
    "purge",
    "reset",
    "restore",
    "revoke",
    "shred",
    "shrink",
    "terminate",
    "truncate",
    "uninstall",
    "unpublish",
    "wipe",
    "zap",
];

/// Whether a long flag of `c` names a deleting act (`--destroy`, `--wipe`, `--delete-data`).
pub(super) fn destroying_flag(c: &Cmd<'_>) -> bool {
    c.option_words().any(|w| {
        w.starts_with("--")
            && parts(w.split('=').next().unwrap_or(w))
                .iter()
                .any(|p| DELETES.contains(&p.as_str()))
    })
}

/// Words that write whatever they are given: said to a disk or a firmware interface, they
/// overwrite it (`bmaptool copy image.img /dev/sdb`).
const WRITES: &[&str] = &[
    "burn",
    "export",
    "install",
    "clone",
    "copy",
    "cp",
    "create",
    "dd",
    "image",
    "init",
    "initialize",
    "label",
    "partition",
    "resize",
    "trim",
    "write",
];

/// How many leading subcommand words are read (`gcloud compute instances delete`).
const SUBCOMMAND_WORDS: usize = 4;

/// A word's parts, lower-cased: `StopUnit` is `stop unit`, `--emptyOutDir` is `empty out dir`.
pub(super) use crate::text::words as parts;

pub(super) fn classify(part: &str) -> Option<Class> {
    classify_form(part).map(|(c, _)| c)
}

/// A part's class when the part is no plural (a plural names things).
fn classify_singular(part: &str) -> Option<Class> {
    classify_form(part)
        .filter(|(_, plural)| !plural)
        .map(|(c, _)| c)
}

/// A part's class, and whether only its plural matched (`releases`, `refunds`): a plural noun
/// alone names what is listed (`heroku releases`), followed by a verb it is acted on.
fn classify_form(part: &str) -> Option<(Class, bool)> {
    if let Some(class) = joined_removal(part) {
        return Some((class, false));
    }
    // A credential's change said as one word (`evennia changepassword admin`, `resetkey`),
    // as `set-password` is said in two.
    if ["change", "set", "reset", "update", "rotate"]
        .iter()
        .any(|v| {
            part.strip_prefix(v).is_some_and(|rest| {
                matches!(
                    rest,
                    "password" | "passwd" | "pass" | "pw" | "secret" | "key" | "token"
                )
            })
        })
    {
        return Some((Class::Changes, false));
    }
    if let Some(c) = listed_class(part) {
        return Some((c, false));
    }

    // A program replaced by what it fetches (`fink selfupdate`, `port selfupdate`).
    if matches!(part, "selfupdate" | "selfupgrade") {
        return Some((Class::Changes, false));
    }
    // Undoing a set-up stops what it set up (`ldapclient uninit`, `cfgadm -c unconfigure`,
    // `unbind`, `unplumb`): a client leaves its directory, a device its driver.
    if part.strip_prefix("un").is_some_and(|rest| {
        matches!(
            rest,
            "init" | "initialize" | "configure" | "enroll" | "join" | "bind" | "plumb" | "map"
        )
    }) {
        return Some((Class::Stops, false));
    }
    // Undoing a publication takes it away (`undeploy`, `unrelease`, `unship`); `unshare` is
    // the kernel's word for a namespace of one's own, which shares nothing.
    if part
        .strip_prefix("un")
        .is_some_and(|rest| rest != "share" && listed_class(rest) == Some(Class::Reaches))
    {
        return Some((Class::Destroys, false));
    }
    let singular = part
        .strip_suffix("es")
        .filter(|s| s.len() > 2)
        .into_iter()
        .chain(part.strip_suffix('s'));
    // `puts`, `sets` are no plural of an act on something.
    for p in singular {
        if let Some(c) = listed_class(p).filter(|c| *c != Class::Changes) {
            return Some((c, true));
        }
    }
    // A verb said of everything at once (`FLUSHALL`, `deleteall`, `FLUSHDB`).
    if let Some(verb) = part
        .strip_suffix("all")
        .or_else(|| part.strip_suffix("db"))
        .filter(|v| v.len() >= 4)
        && let Some(c) = listed_class(verb).filter(|c| matches!(c, Class::Destroys | Class::Stops))
    {
        return Some((c, false));
    }
    // Joined to another word: a long destroying verb at the end (`autoremove`), or any verb
    // of four letters or more at the start with a word after it (`sendtoaddress`,
    // `dropunused`), not a suffix that makes it a noun (`formatter`, `deployment`).
    if ["remove", "delete", "destroy", "uninstall", "kill"]
        .iter()
        .any(|v| part.len() > v.len() + 1 && part.ends_with(*v))
    {
        return Some((Class::Destroys, false));
    }
    // Or a long stopping one, after a suite's prefix (`x2goterminate`, `utrestart`); not a
    // setting named for doing it by itself (`autorestart`).
    if !part.starts_with("auto")
        && ["terminate", "suspend", "restart", "shutdown"]
            .iter()
            .any(|v| part.len() > v.len() + 1 && part.ends_with(*v))
    {
        return Some((Class::Stops, false));
    }
    const SUFFIXES: &[&str] = &[
        "able", "ables", "ed", "er", "ers", "ing", "ings", "ion", "ions", "ment", "ments", "or",
        "ors",
    ];
    [DESTROYS, STOPS, REACHES].iter().find_map(|set| {
        // Not the verbs that begin common words (`landscape`, `landmark`, `signature`,
        // `signpost`): joined, they name things.
        set.iter()
            .filter(|v| v.len() >= 4 && !matches!(**v, "post" | "land" | "sign"))
            .find(|v| {
                part.strip_prefix(**v).is_some_and(|rest| {
                    // What is sent to people is a short noun (`sendsms`, `sendmail`).
                    (rest.len() >= 4 || MESSAGES.contains(&rest))
                        && rest.bytes().all(|b| b.is_ascii_lowercase())
                        && !SUFFIXES
                            .iter()
                            .any(|x| rest.ends_with(x) && rest.len() < x.len() + 3)
                })
            })
            .and_then(|v| listed_class(v))
            .map(|c| (c, false))
    })
}

/// Told where to write (`lsdyna i=crash.k o=/etc/passwd`, LS-DYNA's solver): a name's
/// convention of looking says nothing of what it writes there.
fn told_where_to_write(c: &Cmd<'_>) -> bool {
    let pathy = |v: &str| v.trim_matches(['"', '\'']).starts_with(['/', '~']);
    let mut ws = c.option_words().peekable();
    while let Some(w) = ws.next() {
        // Any option named for where output goes (`--output-path`, `--out-dir`, `--dest`).
        let output = |k: &str| {
            matches!(k, "o" | "of" | "-o")
                || k.starts_with("--")
                    && parts(k).first().is_some_and(|p| {
                        matches!(p.as_str(), "out" | "output" | "outdir" | "outfile" | "dest")
                    })
        };
        let valued = w
            .split_once('=')
            .is_some_and(|(k, v)| (output(k) || matches!(k, "out" | "output")) && pathy(v));
        let flagged = output(w) && ws.peek().is_some_and(|v| pathy(v));
        if valued || flagged {
            return true;
        }
    }
    false
}

/// `--help`, `--version`, a dry run, `--test` or `--status` (read-only verbs said as flags:
/// `start-stop-daemon --status`): the program only shows what it would do; and a program
/// named for looking (`Get-Help`, `list-deps`). `--version` and `-h` followed by a value are
/// something else (`cargo yank --version 1.0.0`, a host).
pub(crate) fn shows_only(c: &Cmd<'_>) -> bool {
    let name = c.name.to_ascii_lowercase();
    // `lsblk`, `lsattr`, `lsinitramfs`: the list convention, unless the name also says it
    // changes something (`lsyncd` syncs).
    // A controller's name (`lsnrctl`: the listener's control) lists nothing by its prefix.
    let lists = name.len() >= 4
        && name.starts_with("ls")
        && !name.ends_with("ctl")
        && !name.ends_with("adm")
        && !MUTATES
            .iter()
            .chain(DELETES)
            .any(|m| m.len() >= 4 && name.contains(m));
    if (lists
        || parts(&name)
            .first()
            .is_some_and(|p| LOOKS.contains(&p.as_str()))
        || ["get", "show", "list", "print", "view", "find", "stat"]
            .iter()
            .any(|v| {
                name.len() >= v.len() + 2
                    && name.starts_with(v)
                    // Not a reading word then a making one (`statmake` makes a font's table).
                    && !["make", "gen", "build", "write", "put", "set", "save", "fix", "conv"]
                        .iter()
                        .any(|m| name[v.len()..].starts_with(m))
            }))
        && !told_where_to_write(c)
        && handed_deleter(c).is_none()
        // Nor one a long flag tells to act (`plan_vending.py --reset-solutions`): the name
        // says what it mostly does, the flag what it does now.
        && flag_verb(c).is_none()
        // Nor one whose subcommand acts (`getaround_fleet.py owners payout`, `showroom.py
        // cars unlist`, `getinge unit decommission`): a script's name, or one word that only
        // opens with a reading word, may be a brand's. (`Get-Help Remove-Item`, `getent
        // passwd dev`: the looking word said apart, or an account looked up.)
        && !((name.contains(['.', '_']) || parts(&name).len() == 1)
            && subcommand_verb(c).is_some_and(|v| {
                name.contains(['.', '_'])
                    || matches!(v.class, Class::Destroys | Class::Stops | Class::Reaches)
            }))
        && super::dir_emptied_by_flag(&super::words_as_written(c)).is_none()
        // Nor one told to send what it reads to another machine (`read_pump.py --upload
        // https://…`).
        && !c.option_words().any(|w| {
            w.strip_prefix("--")
                .is_some_and(|b| posts_elsewhere(c, w, &parts(b.split('=').next().unwrap_or(b))))
        })
    {
        return true;
    }
    if method_looks(c) {
        return true;
    }
    let words: Vec<&str> = c.option_words().collect();
    words.iter().enumerate().any(|(i, &w)| {
        let valued = words.get(i + 1).is_some_and(|n| !n.starts_with('-'));
        match w {
            // Asked alone, or of one subcommand: among other options (`-C -N -V -o/etc/hosts
            // games.pgn`), a one-letter `-V`/`-h` is as often verbose or a header.
            "--version" | "-h" | "-V" => !valued && words.len() <= 2,
            // A plan handed in as a file (`--plan build/feed.csv`) is what is carried out; a
            // status or a list given a value beside an act chooses what it acts on (`bookings
            // delete --status cancelled`, `emails send --list parents`).
            "--plan" if words.get(i + 1).is_some_and(|n| file_like(n)) => false,
            // So is one named beside an act (`sortplan activate --plan dec-peak`).
            "--status" | "--list" | "--plan" if valued && !subcommands(c).is_empty() => false,
            "--help" | "--dry-run" | "--dryrun" | "-dry-run" | "-dryrun" | "--what-if"
            | "--whatif" | "--simulate" | "--noop" | "--no-op" | "--preview" | "--plan"
            | "--check" | "--list" | "--pretend" | "--status" | "--test" => true,
            // `--dry-run=no` (`=false`, `=0`, `=off`) asks for the real run.
            _ if w.split_once('=').is_some_and(|(_, v)| {
                ["no", "false", "0", "off", "none"]
                    .iter()
                    .any(|n| v.eq_ignore_ascii_case(n))
            }) =>
            {
                false
            }
            _ => {
                w.starts_with("--dry-run=")
                    || w.starts_with("--") && parts(w).starts_with(&["dry".into(), "run".into()])

                    // An act's own pretend run, its last word the pretence
                    // (`--cleanup_simulate`, `--sync-dry-run`, `--deploy-noop`).
                    || w.starts_with("--") && !w.contains('=') && {
                        let ps = parts(w);
                        ps.len() >= 2
                            && (ps.ends_with(&["dry".into(), "run".into()])
                                || matches!(
                                    ps.last().map(String::as_str),
                                    Some("simulate" | "simulation" | "noop" | "pretend" | "dryrun")
                                ))
                    }
                    // Only the look (`--test-only`, `--check-only`, `--validate-only`).
                    || w.starts_with("--") && {
                        let ps = parts(w);
                        ps.len() == 2 && ps[1] == "only" && LOOKS.contains(&ps[0].as_str())
                    }
                    // `--list`, `--status` alone; beside another long flag (`--logs --reboot`)
                    // a looking word is one more thing to do, not the only one.
                    || w.strip_prefix("--").is_some_and(|f| LOOKS.contains(&f))
                        && words.iter().filter(|o| o.starts_with("--")).count() == 1
                        // Given a number it is an amount (`db rollback --count 2`), not a look.
                        && words.get(i + 1).is_none_or(|n| n.parse::<u64>().is_err())
                        // Given a name beside an act, it names what is acted on (`entries
                        // submit --show 2026-westchester`); said of a secret, it prints it
                        // (`token --show`).
                        && (!valued || subcommands(c).is_empty())
                        && !names_a_secret_by_subcommand(c)
                        && !subcommands(c).iter().any(|w| names_a_key(w))
            }
        }
    }) || c.sub() == Some("help")
}

/// Whether a subcommand word names a secret, alone or in parts (`token`, `api-key`).
fn names_a_secret_by_subcommand(c: &Cmd<'_>) -> bool {
    subcommands(c).iter().any(|w| {
        let ps = parts(w);
        ps.iter().any(|p| SECRETS.contains(&p.as_str())) || joined_secret(&ps)
    })
}

/// A secret's name written in parts (`api-key` is `apikey`).
fn joined_secret(ps: &[String]) -> bool {
    ps.len() > 1 && SECRETS.contains(&ps.concat().as_str())
}

/// A tool's checker or lister, named after it (`nsd-checkconf`, `named-checkzone`,
/// `acme-listkeys`): its last part opens with a looking verb, so a system file it is given is
/// read. (What it reads may still run: a ledger's plugins, a layout's inspections.)
pub(super) fn checker(name: &str) -> bool {
    let ps = parts(name);
    ps.len() > 1
        && ps.last().is_some_and(|l| {
            l == "info"
                || ["check", "list", "show", "verify", "validate", "print"]
                    .iter()
                    .any(|v| l.starts_with(v))
        })
}

/// A program that only reports on what it is given: a checker by its name ([`checker`]), or a
/// long option that asks for a report (`--smartCheck`, `--deviceInfo`, `--show-status`).
pub(super) fn reports(c: &Cmd<'_>) -> bool {
    checker(c.name)
        || c.option_words().any(|w| {
            w.starts_with("--")
                && parts(w).last().is_some_and(|l| {
                    matches!(l.as_str(), "check" | "info" | "status" | "list" | "show")
                })
        })
}

/// A flash programmer told to read the chip by the switch they read with (`flashrom -p
/// internal -r backup.rom`), and to write or erase nothing: the chip is saved, not changed.
fn flash_read(c: &Cmd<'_>) -> bool {
    let words: Vec<&str> = c.option_words().collect();
    // The file the chip is read into is written: one of the project's (`build/backup.rom`),
    // not a path from the root (`-r /boot/vmlinuz-…` overwrites the kernel).
    let read_into_project = words.windows(2).any(|p| {
        matches!(p[0], "-r" | "--read")
            && !p[1].starts_with(['/', '~', '$', '-'])
            && !p[1].split('/').any(|s| s == "..")
    });
    read_into_project && !writes_flash(c)
}

/// A flash programmer's switches that write or erase the chip (`-w`, `--erase`).
pub(super) fn writes_flash(c: &Cmd<'_>) -> bool {
    c.option_words()
        .any(|w| matches!(w, "-w" | "--write" | "-E" | "--erase"))
}

/// The first consequential verb of `c`: in its name, its leading subcommand words, a method
/// name, or its long flags.
pub(super) fn consequence(c: &Cmd<'_>) -> Option<Verb> {
    // A console's `quit` or `exit` alone, read as a command of its own, ends that console.
    if c.args.is_empty() && matches!(c.name, "quit" | "exit" | "bye") {
        return None;
    }
    // Statements handed to a console one per argument, the last its own ending (`zoomsh
    // "connect …" "scan …" "quit"`, `bbackupquery usage quit`): the console ends, nothing
    // stops. The statements before it are judged. (After a flag it is a command sent:
    // `screen -X quit`.)
    if let [.., before, last] = c.args
        && last
            .text
            .as_deref()
            .is_some_and(|t| matches!(t, "quit" | "exit" | "bye" | "q"))
        && before.text.as_deref().is_some_and(|t| !t.starts_with('-'))
    {
        let shorter = Cmd {
            args: &c.args[..c.args.len() - 1],
            ..*c
        };
        return consequence(&shorter);
    }
    // A controller told to `exit` (`swaymsg exit`, `pactl exit`, `immortalctl exit api`): the
    // running instance it controls ends, a session or a sound server with it.
    if let Some(word) = c.args.first().and_then(|a| a.text.as_deref())
        && matches!(word, "exit" | "quit")
        && controls_a_running_instance(c.name)
    {
        return Some(Verb {
            word: word.to_string(),
            class: Class::Stops,
        });
    }
    let named = name_verb(c.name)
        // A subcommand that only looks says what the named act is not doing now (`espflash
        // board-info`, `acme-wipe list`), and so does a flag that only looks where no
        // subcommand is (`mesaflash --device 7i96 --readhmid`, `… --verify F`).
        .filter(|v| {
            let subs = subcommands(c);
            // (The first or, after a noun, the second: `arcxp_publish.py story list`.)
            !(subs.iter().take(2).enumerate().any(|(i, w)| {
                parts(w).last().is_some_and(|l| LOOKS.contains(&l.as_str()))
                    && !act_follows(w, &subs[i + 1..])
            }) || subs.is_empty() && flag_looks(c)
                || v.word.to_ascii_lowercase().contains("flash") && flash_read(c))
        });
    // A flag that destroys outranks a name that exports or sends (`export_orthosis.py
    // --wipe-export-dir --export-dir DIR`): the name says what the program is for, the flag
    // what it is told to do to DIR first.
    if named.as_ref().is_some_and(|v| v.class != Class::Destroys)
        && let Some(flag) = flag_verb(c).filter(|f| f.class == Class::Destroys)
    {
        return Some(flag);
    }
    named
        .or_else(|| subcommand_verb(c))
        .or_else(|| remote_copy(c))
        .or_else(|| floods(c))
        .or_else(|| method_verb(c))
        // After a subcommand that checks, a flag naming where things are sent says what is
        // checked for (`manage.py check --deploy`), not done; a flag that deletes or applies
        // still acts (`gitlab-runner verify --delete`, `plan --auto-apply`).
        .or_else(|| flag_verb(c).filter(|v| !(v.class == Class::Reaches && checks_first(c))))
        .or_else(|| rewrites_a_device(c))
        .or_else(|| secret_field_flag(c))
        .or_else(|| credential_flag(c))
        .or_else(|| console_verb(c))
        .or_else(|| act_option(c))
        .or_else(|| valued_act(c))
        .or_else(|| switched_off(c))
        .or_else(|| remote_console(c))
        .or_else(|| production(c))
        .or_else(|| sql_file_verb(c))
        .or_else(|| installs(c))
        .or_else(|| updates_itself(c))
        .or_else(|| migrates_down(c))
        .or_else(|| outputs_to_an_address(c))
        .or_else(|| account_changed(c))
        .or_else(|| firmware_handed(c))
}

/// A firmware image handed to a program nobody models by an option named for it (`kiosks
/// update --all --firmware build/mk-4.2.bin`, `--fw-image F`), or a firmware written by its
/// subcommands: the devices it reaches run what it writes. (Not a looking subcommand's, nor a firmware named by its product:
/// `brewflasher --firmware tiltbridge --download F` fetches one.)
fn firmware_handed(c: &Cmd<'_>) -> Option<Verb> {
    // Every command nobody models comes here: a word that holds a firmware's name first.
    let named = c.words().any(|w| {
        ["firmware", "fw", "bios", "bootloader"]
            .iter()
            .any(|n| holds(w, n))
    });
    if !named || known::tier(c.name) != known::Tier::Unknown || looks(c) {
        return None;
    }
    // Or said by the subcommands: the firmware, then the act (`firmware write --target
    // cell-7`, `bootloader flash`).
    let subs = subcommands(c);
    let act = |w: &str| {
        matches!(
            w.trim_start_matches('-').to_ascii_lowercase().as_str(),
            "write"
                | "flash"
                | "update"
                | "upgrade"
                | "install"
                | "push"
                | "load"
                | "burn"
                | "program"
                // (Sent over the air to a fleet, rolled out: `firmware ota --fleet F`.)
                | "ota"
                | "rollout"
                | "deploy"
                | "send"
        )
    };
    let firmware = |w: &str| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "firmware" | "fw" | "bios" | "bootloader"
        )
    };
    if let Some(pair) = subs.windows(2).find(|p| firmware(p[0]) && act(p[1])) {
        return Some(Verb {
            word: pair.join(" "),
            class: Class::Actuates,
        });
    }
    // Or joined in one subcommand, either way round (`firmware-update`, `flash_fw`). (Not
    // an install, which writes a boot stage into the image it is given: `limine bios-install
    // build/disk.img`.)
    let joined_act = |w: &str| act(w) && w != "install";
    if let Some(joined) = subs.iter().find(|w| {
        matches!(parts(w).as_slice(),
            [a, b] if firmware(a) && joined_act(b) || joined_act(a) && firmware(b))
    }) {
        return Some(Verb {
            word: (*joined).to_string(),
            class: Class::Actuates,
        });
    }
    // (Or the act as a switch of the firmware's subcommand: `cutter firmware --update`.)
    if subs.iter().any(|w| firmware(w))
        && let Some(flag) = c.option_words().find(|w| w.starts_with("--") && act(w))
    {
        return Some(Verb {
            word: flag.to_string(),
            class: Class::Actuates,
        });
    }
    let words: Vec<&str> = c.option_words().collect();
    super::option_pairs(&words).find_map(|(flag, value)| {
        let named = flag.strip_prefix("--").is_some_and(|f| {
            matches!(
                parts(f)
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .as_slice(),
                ["firmware" | "fw"] | ["firmware" | "fw", "file" | "image" | "path"]
            )
        });
        let image = value.is_some_and(|v| {
            v.rsplit_once('.').is_some_and(|(_, ext)| {
                matches!(
                    ext.to_ascii_lowercase().as_str(),
                    "bin" | "hex" | "ihex" | "img" | "uf2" | "fw" | "elf" | "dfu" | "srec" | "rom"
                )
            })
        });
        (named && image).then(|| Verb {
            word: flag.into(),
            class: Class::Actuates,
        })
    })
}

/// An account made or taken away, by the program's name, its subcommands or a long flag
/// (`create-user.php`, `tools:add-superuser`, `snipeit:create-admin`, `user create`,
/// `--user-remove alice`, `createautoadmin`): who may log in changes. A subcommand that
/// names accounts only to list or show them does not.
fn account_changed(c: &Cmd<'_>) -> Option<Verb> {
    // Asked last of every command with no other verb: a look for an account's noun anywhere
    // before its words are split.
    const NOUNS: &[&str] = &["user", "admin", "account", "member", "operator"];
    let named = |w: &str| {
        NOUNS.iter().any(|n| {
            w.as_bytes()
                .windows(n.len())
                .any(|x| x.eq_ignore_ascii_case(n.as_bytes()))
        })
    };
    if !named(c.name) && !c.any_word_ci(NOUNS) {
        return None;
    }
    const ACCOUNTS: &[&str] = &[
        "user",
        "users",
        "admin",
        "admins",
        "superuser",
        "account",
        "accounts",
        "member",
        "members",
        "operator",
    ];
    const ACTS: &[&str] = &[
        "add", "create", "new", "register", "invite", "remove", "delete", "del", "rm", "drop",
    ];
    let joined = |w: &str| {
        let l = w.to_ascii_lowercase();
        ["create", "add"].iter().any(|v| l.starts_with(v))
            && ["user", "admin", "superuser"]
                .iter()
                .any(|n| l.ends_with(n))
            && l.len() > 7
    };
    let stem = c.name.rsplit_once('.').map_or(c.name, |(s, _)| s);
    // A command's words are lower case and one word; a class's name (`AddRoleToUsers`, a
    // migration's) or a line of code (`u = User.new(…)`) is what it is handed.
    let subs: Vec<&str> = subcommands(c)
        .into_iter()
        .filter(|w| !w.contains(char::is_whitespace) && !w.bytes().any(|b| b.is_ascii_uppercase()))
        .collect();
    let sub_parts: Vec<String> = subs.iter().flat_map(|w| parts(w)).collect();
    let within = |ps: &[String]| {
        ps.iter().any(|p| ACCOUNTS.contains(&p.as_str()))
            && ps.iter().any(|p| ACTS.contains(&p.as_str()))
    };
    let found = std::iter::once(stem)
        .chain(subs.iter().copied())
        .find(|w| joined(w) || parts(w).iter().any(|p| joined(p)) || within(&parts(w)))
        // The noun and the act as words of their own (`users create`).
        .or_else(|| within(&sub_parts).then(|| subs[0]))
        .or_else(|| {
            c.option_words()
                .filter(|w| w.starts_with("--"))
                .find(|w| within(&parts(w.split('=').next().unwrap_or(w))))
        })?;
    Some(Verb {
        word: found.to_string(),
        class: Class::Changes,
    })
}

/// An output option given a network address instead of a file (`radamsa -o 10.0.0.5:8080`,
/// `-o :9999`): what the program makes is sent to that host, or served on that port to
/// whoever connects. Not this machine's own loopback (`-o localhost:8080`).
fn outputs_to_an_address(c: &Cmd<'_>) -> Option<Verb> {
    // Every command nobody models comes here: most have no `:` among their options' words.
    if !c.option_words().any(|w| w.contains(':')) {
        return None;
    }
    let words: Vec<&str> = c.option_words().collect();
    super::option_pairs(&words).find_map(|(flag, value)| {
        let value = value?;
        let (host, port) = value.rsplit_once(':')?;
        let address = (2..=5).contains(&port.len())
            && port.bytes().all(|b| b.is_ascii_digit())
            && (host.is_empty()
                || host.split('.').count() == 4
                    && host.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                || host.contains('.') && !host.contains('/'));
        let loopback = host == "localhost" || host.starts_with("127.");
        (flag.starts_with('-') && super::targets::output_flag(flag, false) && address && !loopback)
            .then(|| Verb {
                word: format!("{flag} {value}"),
                class: Class::Reaches,
            })
    })
}

/// A database's migrations run backwards or from nothing (`metabase.jar migrate down`, `acme
/// migrations undo`, `migrate:fresh`): the tables a later migration made, and their rows, are
/// dropped. (`down` alone is a stack's or a tunnel's, `docker compose down`; and a word
/// inside another, `download`, is none.)
fn migrates_down(c: &Cmd<'_>) -> Option<Verb> {
    // Every command nobody models comes here: most never say `migrat…`.
    let said = |w: &str| {
        w.as_bytes()
            .windows(6)
            .any(|x| x.eq_ignore_ascii_case(b"migrat"))
    };
    if !c.words().any(said) {
        return None;
    }
    let subs: Vec<String> = subcommands(c)
        .iter()
        .flat_map(|w| w.split(':'))
        .map(str::to_ascii_lowercase)
        .collect();
    subs.windows(2).find_map(|w| {
        (matches!(w[0].as_str(), "migrate" | "migration" | "migrations")
            && matches!(
                w[1].as_str(),
                "down" | "undo" | "fresh" | "refresh" | "redo"
            ))
        .then(|| Verb {
            word: w.join(" "),
            class: Class::Destroys,
        })
    })
}

/// A program nobody models told to replace itself with a newer release (`port selfupdate`,
/// `winetricks --self-update`, `choosenim update self`): what runs next is whatever was
/// fetched, outside the project.
fn updates_itself(c: &Cmd<'_>) -> Option<Verb> {
    let newer = |p: &str| matches!(p, "update" | "upgrade");
    let ws: Vec<&str> = c.words().collect();
    ws.iter().enumerate().find_map(|(i, w)| {
        let ps = parts(w);
        let joined = matches!(w.trim_start_matches('-'), "selfupdate" | "selfupgrade");
        let split = ps.len() == 2 && ps[0] == "self" && newer(&ps[1]);
        // `self update`, `update self`: two words.
        let pair = ws
            .get(i + 1)
            .filter(|next| *w == "self" && newer(next) || newer(w) && **next == "self");
        let word = match pair {
            Some(next) => format!("{w} {next}"),
            None if joined || split => (*w).to_string(),
            None => return None,
        };
        Some(Verb {
            word,
            class: Class::Installs,
        })
    })
}

/// Named software installed by a program nobody models (`teacup install tcllib`,
/// `univention-app install owncloud`, `featureUtility installFeature mpJwt-2.1`): it lands
/// outside the project, where every later session runs it. Without a name a program installs
/// the project's own dependencies (`akku install`); told to put them in the project
/// (`--tree=lua_modules`), they are the project's (`stays_here`).
fn installs(c: &Cmd<'_>) -> Option<Verb> {
    // Every command nobody models comes here: most have neither word.
    let said = |w: &str| holds(w, "install") || holds(w, "upgrade");
    if !(said(c.name) || c.words().any(said)) || known::tier(c.name) != known::Tier::Unknown {
        return None;
    }
    let subs = subcommands(c);
    let first = |w: &str, set: &[&str]| parts(w).first().is_some_and(|p| set.contains(&p.as_str()));
    // Everything it installed, upgraded (`sysget upgrade`, `leapp upgrade`): unless a word
    // only looks (`upgrade plan`, `upgrade status`).
    if let Some(word) = subs.iter().take(2).find(|w| first(w, &["upgrade"]))
        && !subs
            .iter()
            .any(|w| LOOKS.contains(&w.to_ascii_lowercase().as_str()))
    {
        return Some(Verb {
            word: (*word).into(),
            class: Class::Installs,
        });
    }
    // The verb first, or after a namespace (`acme plugin install x`), or in the program's
    // name (GoboLinux's `InstallPackage Htop`; not `install` itself, coreutils' copier).
    let named = parts(c.name).len() > 1 && first(c.name, &["install", "reinstall"]);
    let word = if named {
        c.name
    } else {
        subs.iter()
            .take(2)
            .find(|w| first(w, &["install", "reinstall"]))?
    };
    // Installed as a service that starts with the machine, or for every user (`plant
    // service install --system`, `agent daemon install`): it lands in the system's set-up.
    let system = subs.iter().any(|w| {
        parts(w)
            .iter()
            .any(|p| matches!(p.as_str(), "service" | "daemon" | "autostart" | "startup"))
    }) || c.option_words().any(|w| {
        matches!(
            w,
            "--system" | "--system-wide" | "--all-users" | "--machine"
        )
    });
    if !named && system {
        return Some(Verb {
            word: word.into(),
            class: Class::Installs,
        });
    }
    // What it installs is named after it.
    let mut after = c
        .operands()
        .filter_map(|a| a.text.as_deref())
        .skip_while(|w| !named && *w != word);
    if !named {
        after.next();
    }
    after.next().map(|_| Verb {
        word: word.into(),
        class: Class::Installs,
    })
}

/// A SQL script named for destroying, handed to a program nobody models (`bsqldb -S prod -i
/// 0042_drop_legacy.sql`): the program runs it on a database, as `psql -f` would. A program
/// told only to look at it (`… lint x_drop.sql`) does not.
fn sql_file_verb(c: &Cmd<'_>) -> Option<Verb> {
    // Last of the checks on every command nobody models: the words first, the rest after.
    let verb = c.words().find_map(|w| {
        let w = w.split_once('=').map_or(w, |(_, v)| v);
        let file = w.rsplit('/').next().unwrap_or(w);
        let stem = file
            .strip_suffix(".sql")
            .or_else(|| file.strip_suffix(".SQL"))?;
        parts(stem)
            .iter()
            .any(|p| {
                matches!(
                    p.as_str(),
                    "drop" | "delete" | "truncate" | "purge" | "wipe"
                )
            })
            .then(|| Verb {
                word: file.to_string(),
                class: Class::Destroys,
            })
    })?;
    (known::tier(c.name) == known::Tier::Unknown && !looks(c)).then_some(verb)
}

/// Local files copied to an address on another machine's storage, whatever its scheme
/// (`ossutil cp -r dist/ oss://bucket/`, `acme sync build/ cos://b/`): a copy verb first, a
/// local operand, and the last one a URL that is not this machine's (`file://`, loopback).
/// A program never seen that is told `copy` or `sync` meets this in `changes-remote`; its
/// `cp` and `mv`, read as the file commands' words, only here.
fn remote_copy(c: &Cmd<'_>) -> Option<Verb> {
    // Asked of every command: both forms of another machine's place hold a `:`.
    if !c
        .operands()
        .any(|a| a.text.as_deref().is_some_and(|t| t.contains(':')))
    {
        return None;
    }
    let ops: Vec<&str> = c.operands().filter_map(|a| a.text.as_deref()).collect();
    let [verb, middle @ .., last] = ops.as_slice() else {
        return None;
    };
    if let Some(v) = host_path_copy(c, &ops[..ops.len() - 1], last) {
        return Some(v);
    }
    if known::tier(c.name) == known::Tier::Unknown && !matches!(*verb, "cp" | "mv") {
        return None;
    }
    let (scheme, rest) = last.split_once("://")?;
    let host = rest.split(['/', ':', '@']).next().unwrap_or(rest);
    let copies = matches!(
        verb.to_ascii_lowercase().as_str(),
        "cp" | "copy" | "sync" | "mv" | "put" | "upload"
    );
    (copies
        && !middle.is_empty()
        && middle.iter().all(|m| !m.contains("://"))
        && !scheme.is_empty()
        && scheme.bytes().all(|b| b.is_ascii_alphanumeric())
        && scheme != "file"
        && !matches!(host, "localhost" | "127.0.0.1" | "[::1]"))
    .then(|| Verb {
        word: format!("{verb} … {last}"),
        class: Class::Reaches,
    })
}

/// Local files given, last, to another machine's path in the `HOST:/PATH` form of scp and
/// rsync (`rdist -c build/rootfs/ web1:/`): whatever the program is called, it copies them
/// there. Its own name, not an operand, may be the verb; this machine's name is not another's.
fn host_path_copy(c: &Cmd<'_>, before: &[&str], last: &str) -> Option<Verb> {
    let (host, path) = last.split_once(':')?;
    if last.contains("://") || known::tier(c.name) != known::Tier::Unknown {
        return None;
    }
    let host = host.rsplit('@').next().unwrap_or(host);
    // A snapshot's id, not a host (`plakar … restore -to build/r 9f3c21ab:/docs`): what a
    // restore reads from.
    let hash = host.len() >= 7
        && host.bytes().all(|b| b.is_ascii_hexdigit())
        && host.bytes().any(|b| b.is_ascii_alphabetic());
    if hash || restores(c) {
        return None;
    }
    let local = |w: &str| {
        (w.contains('/') || w.starts_with('.')) && !w.contains(':') && !w.starts_with('-')
    };
    (path.starts_with(['/', '~'])
        && host.len() >= 2
        && host.starts_with(|ch: char| ch.is_ascii_alphanumeric())
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
        && !matches!(host, "localhost" | "127.0.0.1")
        && before.iter().any(|m| local(m)))
    .then(|| Verb {
        word: last.to_string(),
        class: Class::Reaches,
    })
}

/// A flood of requests sent to another machine (`siege -c 200 -t 30M https://shop…`, `h2load
/// -n 1000000 -c 500 https://…`): a hundred or more connections or clients at once, and a web
/// address that is not this machine's. Someone else's service bears it.
fn floods(c: &Cmd<'_>) -> Option<Verb> {
    // Asked of every command: the words are gathered only when one is a web address.
    if !c.words().any(|w| w.contains("://")) {
        return None;
    }
    let words: Vec<&str> = c.words().collect();
    let remote = words.iter().any(|w| {
        let v = w.split_once('=').map_or(*w, |(_, v)| v);
        let Some(rest) = v
            .strip_prefix("https://")
            .or_else(|| v.strip_prefix("http://"))
        else {
            return false;
        };
        let host = rest.split(['/', ':', '?']).next().unwrap_or(rest);
        !host.is_empty() && !matches!(host, "localhost" | "127.0.0.1" | "[::1]" | "0.0.0.0")
    });
    if !remote {
        return None;
    }
    words.iter().enumerate().find_map(|(i, w)| {
        let (flag, value) = match w.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f, v),
            _ if w.starts_with('-') => (*w, *words.get(i + 1)?),
            _ => return None,
        };
        let name = flag.trim_start_matches('-');
        // Connections held at once, not requests counted (`-n 2000` GETs, one at a time, is a
        // benchmark's sample, the fifth part's call).
        let counts = matches!(
            name,
            "c" | "concurrency" | "connections" | "conns" | "clients" | "users"
        );
        let many = value.parse::<u64>().is_ok_and(|n| n >= 100);
        (counts && many).then(|| Verb {
            word: format!("{flag} {value}"),
            class: Class::Reaches,
        })
    })
}

/// An option that names a production environment as where the command acts (`--target-org
/// prod`, `--env=production`, `-e prd`), unless its words only look: what is done there is
/// done to what people use.
fn production(c: &Cmd<'_>) -> Option<Verb> {
    const WHERE: &[&str] = &[
        "env",
        "environment",
        "target",
        "org",
        "stage",
        "context",
        "cluster",
        "profile",
        "site",
        "alias",
        "tier",
        // A workspace is a whole environment (`-workspace=production`); a namespace is a part
        // of a cluster that reading tools name too (`hubble observe --namespace prod`).
        "workspace",
        "e",
    ];
    // After `--` too: the options handed on to what runs (`plz run //db:migrate --
    // --env=production`) say where it acts.
    let words: Vec<&str> = c.words().filter(|w| *w != "--").collect();
    // Or the environment's name alone as an operand (`lapis migrate production`, `grails
    // prod dbm-update`), not an option's value (`--mode production` is how a build is made).
    // With something to do there beside it: a statement that is the name alone (`-e
    // production`, read as a program's own language) acts on nothing.
    let operand = words
        .iter()
        .enumerate()
        .filter(|_| words.len() >= 2)
        .find_map(|(i, w)| {
            let bare = matches!(w.to_ascii_lowercase().as_str(), "prod" | "production");
            let after_flag = i
                .checked_sub(1)
                .is_some_and(|p| words[p].starts_with('-') && !words[p].contains('='));
            (bare && !after_flag).then(|| w.to_string())
        });
    let named = operand.or_else(|| production_host(&words)).or_else(|| {
        words.iter().enumerate().find_map(|(i, w)| {
            let flag = w.strip_prefix('-')?;
            let (name, value) = match flag.split_once('=') {
                Some((n, v)) => (n, v),
                None => (flag, *words.get(i + 1)?),
            };
            let value = value.trim_matches(['"', '\'']).to_ascii_lowercase();
            let prod = parts(&value)
                .iter()
                .any(|p| matches!(p.as_str(), "prod" | "production" | "prd"));
            (prod && parts(name).iter().any(|p| WHERE.contains(&p.as_str())))
                .then(|| format!("{name} {value}"))
        })
    })?;
    // An export or a dump reads the environment out, wherever it writes (`production export
    // --out build/prod.csv`); where it writes is judged as a place.
    let reads_out = subcommands(c)
        .iter()
        .any(|w| matches!(w.to_ascii_lowercase().as_str(), "export" | "dump"));
    (!looks(c) && !reads_out).then_some(Verb {
        word: named,
        class: Class::Production,
    })
}

/// A host named for production among the words, wherever it stands: a URL's, `user@host`'s,
/// an option's value or a setting's (`-h db-prod-01.corp.example`, `--url
/// tcp://mq-prod.acme.example:61616`, `host=pg-prod.acme.internal`): a label of its name says
/// `prod`, `production` or `prd` as a word of its own (not `product`).
fn production_host(words: &[&str]) -> Option<String> {
    words.iter().find_map(|w| {
        let value = w
            .trim_matches(['"', '\''])
            .rsplit(['=', ';', ','])
            .find(|v| !v.is_empty())?;
        let host = super::targets::host_of(value);
        // Most words name no host: no label is split before there are three.
        if host.bytes().filter(|&b| b == b'.').count() < 2 {
            return None;
        }
        let labels: Vec<&str> = host.split('.').collect();
        let domain = labels.len() >= 3
            && labels.iter().all(|l| {
                !l.is_empty()
                    && l.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            })
            && labels
                .last()
                .is_some_and(|t| t.bytes().all(|b| b.is_ascii_lowercase()));
        let prod = || {
            labels[..labels.len() - 1].iter().any(|l| {
                parts(l)
                    .iter()
                    .any(|p| matches!(p.as_str(), "prod" | "production" | "prd"))
            })
        };
        (domain && prod()).then(|| host.to_string())
    })
}

/// A flag that reads or writes a setting given a secret's name as the setting
/// (`--config-read api_key` prints the key; `--config-write api_key=…` sets one): the flag's
/// verb, done to the secret.
fn secret_field_flag(c: &Cmd<'_>) -> Option<Verb> {
    let words: Vec<&str> = c.option_words().collect();
    super::option_pairs(&words).find_map(|(flag, value)| {
        let name = flag.strip_prefix("--")?;
        let value = value.filter(|v| !v.starts_with('-'))?;
        // The setting's name: alone (`api_key`) or before its new value (`api_key=…`).
        let key = value.split('=').next().unwrap_or(value);
        let secret = !key.is_empty()
            && key.bytes().all(|b| {
                b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-' | b'.')
            })
            && parts(key)
                .last()
                .is_some_and(|p| SECRETS.contains(&p.as_str()) || p == "key")
            && parts(key)
                .iter()
                .any(|p| SECRETS.contains(&p.as_str()) || p == "api");
        if !secret {
            return None;
        }
        let ps = parts(name);
        let class = if ps.iter().any(|p| PRINTS.contains(&p.as_str())) && !value.contains('=') {
            Class::Reveals
        } else if ps.iter().any(|p| matches!(p.as_str(), "write" | "set")) && value.contains('=') {
            Class::Changes
        } else {
            return None;
        };
        Some(Verb {
            word: format!("{flag} {key}"),
            class,
        })
    })
}

/// An option that names the act itself (`--method admin/purge`, `--verb DELETE`,
/// `--action=terminate`), or an operand keyed so (`operation=del`, the parameter style of
/// CIAO's and ftools' programs): its value is the verb, wherever the program puts it.
fn act_option(c: &Cmd<'_>) -> Option<Verb> {
    let words: Vec<&str> = c.words().collect();
    words.iter().enumerate().find_map(|(i, w)| {
        let (flag, value) = match w.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f, Some(v)),
            Some((f, v)) if matches!(f, "operation" | "action" | "op") => (f, Some(v)),
            _ if w.starts_with('-') => (*w, words.get(i + 1).copied()),
            _ => return None,
        };
        let name = flag.trim_start_matches('-');
        // `-a` as an action's short option (`yubico-piv-tool -a reset`), when its value is a
        // word, not a path (`-a` is as often "all", before a file).
        let short_action = flag == "-a"
            && value.is_some_and(|v| {
                v.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
            });
        // A build's target named by an option (`pio run -t upload`, `--target deploy`), as a
        // recipe is named to `make`: only a bare word, not a triple or a path.
        // (`release` there is as often a build's profile.)
        let target = matches!(flag, "-t" | "--target")
            && value.is_some_and(|v| {
                // (And Prolog's `-t halt` is the goal it ends with.)
                !matches!(v, "release" | "halt" | "quit" | "exit")
                    && v.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
            });
        if !short_action
            && !target
            && !matches!(
                name,
                "method" | "verb" | "action" | "op" | "operation" | "request" | "X"
            )
        {
            return None;
        }
        let value = value?;
        // The act's word, last in a route (`admin/purge`) or alone in any case (`DELETE`).
        let last = value.rsplit(['/', '.', ':']).next().unwrap_or(value);
        let class = parts(last).first().and_then(|p| classify(p))?;
        Some(Verb {
            word: format!("{flag} {value}"),
            class,
        })
    })
}

/// The verb of a first word written `namespace/verb` in lower case (`plugin/uninstall`,
/// `cache/flush`), when that verb has consequences: a path seldom ends in a bare verb, but
/// for a directory a build writes into (`dbunload … build/unload`).
fn routed_verb(w: &str) -> Option<&str> {
    let (space, verb) = w.split_once('/')?;
    let word = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
    let scratch = matches!(
        space,
        "build" | "dist" | "target" | "out" | "output" | "tmp"
    );
    (word(space) && word(verb) && !scratch && parts(verb).iter().any(|p| classify(p).is_some()))
        .then_some(verb)
}

/// An option whose value is a destroying verb alone (`dj_setup_database -r uninstall`,
/// `--mode purge`): the act the program is told to do is that verb's. Not under a subcommand
/// that only looks (`read -m flash`), nor a word as often a noun (a flash memory, a format).
fn valued_act(c: &Cmd<'_>) -> Option<Verb> {
    // Every command nobody models comes here: the option values first (almost never such a
    // verb), the subcommand words only then.
    let words: Vec<&str> = c.option_words().collect();
    let verb = super::option_pairs(&words).find_map(|(flag, value)| {
        let value = value?;
        // Or the verb joined to what it is done to (`--task=delete_media`, `purge-cache`).
        let head = value.split(['_', '-']).next().unwrap_or(value);
        (flag.starts_with('-')
            && head.len() >= 4
            && value
                .bytes()
                .all(|b| b.is_ascii_lowercase() || matches!(b, b'_' | b'-'))
            && !matches!(head, "flash" | "format")
            && classify_singular(head) == Some(Class::Destroys))
        .then(|| Verb {
            word: format!("{flag} {value}"),
            class: Class::Destroys,
        })
    })?;
    // (The first, or after a noun the second: `recipes show --recipe wipe-disk-colored`.)
    let subs = subcommands(c);
    let looks = subs.iter().take(2).enumerate().any(|(i, w)| {
        parts(w).last().is_some_and(|l| LOOKS.contains(&l.as_str()))
            && !act_follows(w, &subs[i + 1..])
    });
    (!looks).then_some(verb)
}

/// Whether `word` holds `needle` (lower case) in either case: a look that allocates nothing,
/// asked before splitting a word into its parts on every command.
pub(super) fn holds(word: &str, needle: &str) -> bool {
    word.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Each static word of `c` with the word after it, if any.
fn with_next<'c>(c: &'c Cmd<'_>) -> impl Iterator<Item = (&'c str, Option<&'c str>)> {
    let mut words = c.words().peekable();
    std::iter::from_fn(move || {
        let w = words.next()?;
        Some((w, words.peek().copied()))
    })
}

/// An operand that switches something off by its setting (`pf_enable=NO`,
/// `firewall.enabled=false`): disabling, said as a value.
fn switched_off(c: &Cmd<'_>) -> Option<Verb> {
    with_next(c).find_map(|(w, next)| {
        // `key=value`, and a flag or a console variable given its value (`--tls=false`,
        // `--secure 0`, Source servers' `+server.secure 0`).
        let flag = w.starts_with(['-', '+']);
        // A switch said alone, last or before another flag, joined to what it opens
        // (`-publiclobby`): that is made public. (`--public` and `--insecure` alone are
        // filters and local connections as often: `timeline --public`, `status --insecure`.)
        if flag
            && !w.contains('=')
            && next.is_none_or(|v| v.starts_with(['-', '+']))
            && BYPASSES.iter().any(|b| holds(w, b))
        {
            let ps = parts(w.trim_start_matches(['-', '+']));
            if ps.len() == 1
                && BYPASSES.iter().any(|b| {
                    ps[0].starts_with(b) && (b.len() + 3..=b.len() + 6).contains(&ps[0].len())
                })
            {
                return Some(Verb {
                    word: w.into(),
                    class: Class::Stops,
                });
            }
        }
        let (key, value) = match w.split_once('=') {
            Some((k, v)) => (k.trim_start_matches(['-', '+']), v),
            None if flag => (
                w.trim_start_matches(['-', '+']),
                next.filter(|v| !v.starts_with(['-', '+']))?,
            ),
            None => return None,
        };
        let value = value.trim_matches(['"', '\'']);
        let is = |set: &[&str]| set.iter().any(|v| value.eq_ignore_ascii_case(v));
        let off = is(&["no", "false", "0", "off", "disabled", "none"]);
        let on = is(&["yes", "true", "1", "on", "enabled"]);
        // Listed in public at an address (`bzfs -public list.example.org:5154`): the
        // server is announced to everyone who reads the list.
        if flag
            && key.eq_ignore_ascii_case("public")
            && value.contains('.')
            && (value.contains(':') || value.contains("://"))
        {
            return Some(Verb {
                word: w.into(),
                class: Class::Reaches,
            });
        }
        // Most flags' values are neither: their names are not split.
        if !off && !on {
            return None;
        }
        let ps = parts(key);
        let enables = ps
            .last()
            .is_some_and(|p| matches!(p.as_str(), "enable" | "enabled"));
        // A safeguard set to off (`alarm=off`, `auth=none`, `verify=false`), or a way around
        // one set to on (`auth-anonymous=1`, `insecure=true`).
        let guard = ps.iter().any(|p| SAFEGUARDS.contains(&p.as_str()));
        let bypass = ps.iter().any(|p| BYPASSES.contains(&p.as_str()));
        (off && (enables || guard) || on && bypass).then(|| Verb {
            word: w.into(),
            class: Class::Stops,
        })
    })
}

/// A message composed for a person: an e-mail address as an operand, with a body fed in (a
/// pipe, `< notes.txt`) or a subject (`-s`, `--subject`), as every mail client takes them
/// (`s-nail -s 'Notes' -a build/n.pdf team@example.com < docs/n.txt`). It is sent.
pub(super) fn mails_to(c: &Cmd<'_>, producers: &[&super::super::parse::Simple]) -> Option<Verb> {
    let fed = !producers.is_empty();
    // A subject is a flag with its text (`-s 'Notes'`; `uacme -s -c DIR` is another `-s`).
    let subject = c.args.windows(2).any(|w| {
        w[0].text
            .as_deref()
            .is_some_and(|f| matches!(f, "-s" | "--subject" | "-subject"))
            && w[1].text.as_deref().is_some_and(|v| !v.starts_with('-'))
    });
    if !(fed || subject || !c.reads.is_empty()) {
        return None;
    }
    let address = |w: &str| {
        w.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && local
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._+-".contains(&b))
                && domain.rsplit_once('.').is_some_and(|(host, tld)| {
                    !host.is_empty()
                        && host
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b".-".contains(&b))
                        && tld.len() >= 2
                        && tld.bytes().all(|b| b.is_ascii_alphabetic())
                })
        })
    };
    c.args
        .iter()
        .enumerate()
        .find(|(i, a)| {
            a.text.as_deref().is_some_and(address)
                && c.args[..*i]
                    .last()
                    .and_then(|f| f.text.as_deref())
                    // Not a flag's value (`--from me@x.org`, `-r reply@x.org`): a recipient.
                    .is_none_or(|f| !f.starts_with('-') || f.contains('=') || f == "--")
        })
        .map(|(_, a)| Verb {
            word: a.raw.clone(),
            class: Class::Reaches,
        })
}

/// A server's remote console given a password or switched on (`+sv_rconpassword hunter2`,
/// `?RCONEnabled=True?RCONPort=27020`, `-TelnetEnabled=true`): whoever reaches the port with it commands the
/// server. A setting's name joined to `rcon` (`sourcecontrol` is no console: the part must
/// start with it), its value neither off nor empty.
fn remote_console(c: &Cmd<'_>) -> Option<Verb> {
    with_next(c).find_map(|(w, next)| {
        // A map of settings in one word (`Map?Key=V?Key2=V2`) holds each of them.
        w.split('?').find_map(|setting| {
            // A console variable set by name (`+set rconPassword hunter2`) names the
            // password it sets.
            let named = || {
                holds(setting, "password") && parts(setting).iter().any(|p| p.contains("password"))
            };
            let (key, value) = match setting.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None if w.starts_with(['-', '+']) || named() => (setting, next),
                None => return None,
            };
            let key = key.trim_start_matches(['-', '+']);
            // Telnet is a console too (`-TelnetEnabled=true`). Most keys hold neither word:
            // they are not split.
            let console = (holds(key, "rcon") || holds(key, "telnet"))
                && parts(key).iter().any(|p| {
                    p.starts_with("rcon") && !p.starts_with("rconf") || p.starts_with("telnet")
                });
            let value = value?.trim_matches(['"', '\'']);
            let off = ["no", "false", "0", "off", "disabled", "none", ""]
                .iter()
                .any(|v| value.eq_ignore_ascii_case(v));
            (console && !off && !value.starts_with(['-', '+'])).then(|| Verb {
                word: key.into(),
                class: Class::Changes,
            })
        })
    })
}

/// What keeps a system safe, by the word its setting is named with: set to off, it is
/// disabled (`alarm=off`, `auth=none`).
const SAFEGUARDS: &[&str] = &[
    "alarm",
    "secure",
    "security",
    "auth",
    "authentication",
    "crypto",
    "encryption",
    "firewall",
    "protection",
    "verify",
    "verification",
    "tls",
    "ssl",
    "selinux",
    "apparmor",
    "audit",
    "sandbox",
    "safety",
    "safeguard",
    "safeguards",
];

/// What goes around a safeguard, set to on (`auth-anonymous=1`, `insecure=true`).
/// `public` too: an index, a share or snapshots set public are shown to anyone
/// (`PUBLIC_SNAPSHOTS=True`).
const BYPASSES: &[&str] = &[
    "anonymous",
    "insecure",
    "noauth",
    "public",
    "unauthenticated",
];

/// A line handed to the program's own console by an option that executes it (`asterisk -rx
/// 'core stop now'`, `acme-cli --execute 'pool delete tank'`): its words are the program's
/// subcommands. Only a short line of plain words counts; a message (`-m '…'`) is not one.
fn console_verb(c: &Cmd<'_>) -> Option<Verb> {
    c.args.windows(2).find_map(|pair| {
        let flag = pair[0].text.as_deref()?;
        let line = pair[1].text.as_deref()?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let plain = (2..=6).contains(&words.len())
            && words[0].chars().all(|ch| ch.is_ascii_lowercase())
            && !line.contains(['.', ',', '?', '!', ';', '|', '&', '$', '`', '\'', '"']);
        if !executes(flag) || !plain {
            return None;
        }
        // A console's word that runs the rest as a command line (`-command 'spawn rm -rf
        // build/plots'`): that line is judged as the command it is.
        if shell_escape(line).is_some() {
            return None;
        }
        let args = console_args(&words);
        subcommand_verb(&console(c.name, &args))
    })
}

/// The command line after a console's escape to the shell (`spawn rm -rf build/plots`,
/// `system …`, `sh …`), when a program trail knows opens it: a shell's line, not the console's
/// own subcommand.
pub(super) fn shell_escape(statement: &str) -> Option<&str> {
    let (first, tail) = statement.trim().split_once(char::is_whitespace)?;
    (matches!(first, "spawn" | "system" | "shell" | "sh")
        && tail
            .split_whitespace()
            .next()
            .is_some_and(known::is_program))
    .then(|| tail.trim())
}

/// A console line's words as a command's arguments, each static and unquoted.
pub(super) fn console_args(words: &[&str]) -> Vec<super::super::parse::Arg> {
    words
        .iter()
        .map(|w| super::super::parse::Arg {
            text: Some((*w).to_string()),
            raw: (*w).to_string(),
            quoted: false,
        })
        .collect()
}

/// The program `name` given a console line's words (`console_args`) as its own subcommand.
pub(super) fn console<'a>(name: &'a str, args: &'a [super::super::parse::Arg]) -> Cmd<'a> {
    Cmd {
        name,
        args,
        writes: &[],
        reads: &[],
        zones: &[],
    }
}

/// Whether an option hands its value to the program's console to execute (`-x`, `-c`, `-e`,
/// `-rx`, `--execute`, `--command`).
pub(super) fn executes(flag: &str) -> bool {
    flag.strip_prefix("--").map_or_else(
        || {
            let letters = flag.trim_start_matches('-');
            flag.starts_with('-')
                && (1..=3).contains(&letters.len())
                && letters.chars().all(|ch| ch.is_ascii_lowercase())
                && letters.contains(['x', 'c', 'e'])
        },
        |long| {
            parts(long)
                .last()
                .is_some_and(|p| matches!(p.as_str(), "command" | "exec" | "execute" | "cmd"))
        },
    )
}

/// After a program's name, a reaching word names what the program speaks (`fts-transfer`,
/// `kodi-release`); a deploying, publishing, sending or submitting one still names its act
/// (`ace-deploy`, `mlmmj-send`).
fn speaks(part: &str) -> bool {
    // One that sends or submits is no local client (`mlmmj-send`, `termux-sms-send`,
    // `condor_submit`: a message or a job leaves).
    !matches!(
        part,
        "deploy" | "redeploy" | "publish" | "provision" | "refund" | "payout" | "send" | "submit"
    )
}

/// Whether `verb` is joined at an end of `lower` (`userdel`, `wipefs`, `vgremove`). A verb of
/// three letters after two letters ending in a vowel ends a word, not a verb joined to an
/// abbreviation (`xidel`, `model`; `pjdel`, `prodel`, `userdel`).
fn joined_at_an_end(lower: &str, verb: &str) -> bool {
    let syllable = verb.len() <= 3
        && lower.len() == verb.len() + 2
        && b"aeiouy".contains(&lower.as_bytes()[1]);
    // A short verb after a vowel ends an ordinary word (`supermodel`, `nvpmodel`), not a
    // joined act; after a suite's short prefix it is one (`prodel`).
    let word_ending = verb.len() <= 3
        && lower.len() >= verb.len() + 4
        && b"aeiou".contains(&lower.as_bytes()[lower.len() - verb.len() - 1]);
    lower.len() > verb.len() + 1
        && (lower.ends_with(verb) && !syllable && !word_ending
            || (verb.len() >= 4 && lower.starts_with(verb)))
}

/// The one that does it names the act too (`ems-flasher`, `disk-wiper`, `eraser`), for the
/// acts that destroy.
fn destroying_agent(part: &str) -> Option<Class> {
    let stem = part.strip_suffix("er").filter(|s| s.len() >= 3)?;
    [stem, &part[..part.len() - 1]]
        .into_iter()
        .find_map(|s| classify_singular(s).filter(|c| *c == Class::Destroys))
}

/// A verb in a program's own name: `userdel`, `wipefs`, `lvremove`, `deploy.sh`, `mlmmj-send`.
/// A name that only ends in another reaching word (`fts-transfer-status`, `kodi-release`) is
/// mostly a local client's, and a plural in a name is a noun (`dials.find_spots`, a
/// crystallography suite's).
fn name_verb(name: &str) -> Option<Verb> {
    let script = name
        .rsplit_once('.')
        .filter(|(_, ext)| matches!(*ext, "sh" | "bash" | "py" | "js" | "ts" | "rb" | "pl"))
        .map(|(s, _)| s);
    let stem = script.unwrap_or(name);
    let ps = parts(stem);
    for (i, part) in ps.iter().enumerate() {
        match classify_singular(part).or_else(|| destroying_agent(part)) {
            // `pg_restore`: a tool named for restoring is an ordinary loader. The system's own
            // `passwd` is the account rules' (`passwd -S dev` only shows).
            Some(Class::Destroys) if part == "restore" => {}
            Some(Class::Changes) if part == "passwd" => {}
            // A tool named for applying does so to what it is given (`antsApplyTransforms -i
            // IN -o OUT` writes its output).
            Some(Class::Changes) if part == "apply" => {}
            Some(Class::Reaches) if i > 0 && script.is_none() && speaks(part) => {}
            Some(class) => {
                return Some(Verb {
                    word: name.into(),
                    class,
                });
            }
            None => {}
        }
    }
    // Named for setting an application's password (`koha-passwd`, `acme-password`): a
    // credential changes. (The system's own `passwd` is the account rules'.)
    if ps.len() > 1
        && ps
            .iter()
            .any(|p| matches!(p.as_str(), "passwd" | "password"))
    {
        return Some(Verb {
            word: name.into(),
            class: Class::Changes,
        });
    }
    // Named for the protocol that sends mail (`calibre-smtp`, `smtp-cli`): it sends.
    if ps.iter().any(|p| p == "smtp") {
        return Some(Verb {
            word: name.into(),
            class: Class::Reaches,
        });
    }
    // Joined without a separator: a verb at either end (`userdel`, `wipefs`, `vgremove`).
    let lower = stem.to_ascii_lowercase();
    let joined = |list: &[&str], class| {
        list.iter()
            .find(|v| joined_at_an_end(&lower, v))
            .map(|_| Verb {
                word: name.into(),
                class,
            })
    };
    joined(
        &[
            "del", "remove", "delete", "destroy", "wipe", "purge", "erase", "shred", "kill",
            "flash",
        ],
        Class::Destroys,
    )
    .or_else(|| joined(&["poweroff", "reboot", "shutdown"], Class::Stops))
    // A service's own stop command, named with its prefix (`gpstop`, `proshut`), and a program
    // named for putting files where others fetch them (`dupload`, `s3upload`): the verb ends
    // the name, after a prefix of any length (`stopwatch` starts with one).
    .or_else(|| {
        // A short prefix (`mqsistop`, a product's four letters): a longer one makes a noun
        // (`whistlestop`).
        let ends = |list: &[&str]| {
            list.iter()
                .any(|v| (v.len() + 1..=v.len() + 4).contains(&lower.len()) && lower.ends_with(*v))
        };
        // A batch system's own commands, named so (`llcancel`, `scancel`, `llsubmit`): a job
        // ended, or handed to a shared cluster.
        if ends(&["stop", "shut", "cancel", "abort"]) && !lower.starts_with("back") {
            Some(Class::Stops)
        } else if ends(&["upload", "publish", "deploy", "submit"]) {
            Some(Class::Reaches)
        } else {
            None
        }
        .map(|class| Verb {
            word: name.into(),
            class,
        })
    })
    .or_else(|| {
        rm_joined(&lower).then(|| Verb {
            word: name.into(),
            class: Class::Destroys,
        })
    })
    // An account's verb and noun joined (`faxdeluser`, `faxadduser`): who may log in changes.
    .or_else(|| joined(&["deluser", "delgroup"], Class::Destroys))
    .or_else(|| joined(&["adduser", "addgroup", "useradd"], Class::Changes))
    // `sendfax`, `cansend`: a program named for sending, joined to what it sends (not a
    // remote control's `kodi-send`, whose part after the name is read as above).
    .or_else(|| {
        let joined_send = lower.len() > 5
            && (lower.starts_with("send")
                || lower
                    .strip_suffix("send")
                    .is_some_and(|head| head.ends_with(|ch: char| ch.is_ascii_alphanumeric())));
        joined_send.then(|| Verb {
            word: name.into(),
            class: Class::Reaches,
        })
    })
    // `swapoff`, `quotaoff`: a switch turned off by name, after a word of its own (`groff`
    // is no switch).
    .or_else(|| {
        (lower.len() >= 7 && lower.ends_with("off")).then(|| Verb {
            word: name.into(),
            class: Class::Stops,
        })
    })
}

/// A store emptied by a subcommand of its own (`kchashmgr clear FILE`, `keyctl clear @u`,
/// `pm clear PKG`), or joined to what it empties, in either case (`REGISTRAR_CLEAR`,
/// `clear-queue`): not a cache, a screen or a log, which are made again.
fn clears_a_store(subs: &[&str], parts: &[(&str, &String)]) -> bool {
    // (A namespace counts here: `cache:clear` empties a cache.)
    (subs.contains(&"clear") || parts.iter().any(|(_, p)| p.as_str() == "clear"))
        && !subs.iter().flat_map(|w| self::parts(w)).any(|p| {
            matches!(
                p.as_str(),
                "cache" | "caches" | "screen" | "console" | "history" | "log" | "logs" | "terminal"
            )
        })
}

/// `rm` joined to what it removes (`rmvirtualenv`, `rmtrash`): a noun of five letters or more
/// after it (`rmate`, an editor, is shorter), not Java's RMI tools (`rmiregistry`).
fn rm_joined(lower: &str) -> bool {
    // Or ending a short prefix after a consonant (`lprm`, `atrm`, `ipcrm`: a queue's or a
    // table's remover); `xterm`, `storm`, `swarm` end in a syllable.
    let ends = (4..=6).contains(&lower.len())
        && lower.ends_with("rm")
        && lower
            .as_bytes()
            .get(lower.len() - 3)
            .is_some_and(|b| b.is_ascii_lowercase() && !b"aeiouy".contains(b));
    ends || rm_prefixed(lower)
}

/// `rm` first, then a noun: a long one (`rmvirtualenv`), or one that starts with a consonant
/// (`rmfs`, `rmwpar`, `rmitab` is an `rm` of `itab` but `rmi…` is Java's), as the removing
/// half of a `mk…`/`rm…` pair of system tools; `rmate`, an editor, starts with a vowel.
fn rm_prefixed(lower: &str) -> bool {
    lower.starts_with("rm")
        && !lower.starts_with("rmi")
        && lower[2..].bytes().all(|b| b.is_ascii_lowercase())
        && (lower.len() >= 7 || lower.len() >= 4 && !b"aeiouy".contains(&lower.as_bytes()[2]))
}

/// A long option that names a thing by its id or name (`--action-id`, `--unit-name`): its
/// value is a reference, not an act.
fn names_a_thing(flag: &str) -> bool {
    flag.starts_with("--")
        && parts(flag.split('=').next().unwrap_or(flag))
            .last()
            .is_some_and(|l| matches!(l.as_str(), "id" | "name"))
}

/// The leading words that are not flags, skipping a word right after a flag (it may be the
/// flag's value); a word that is a file (`tests/x`, `a.yml`) ends them.
pub(super) fn subcommands<'a>(c: &'a Cmd<'_>) -> Vec<&'a str> {
    let mut after_flag = false;
    let mut after_switch = false;
    let mut after_id = false;
    let mut control_file_seen = false;
    let mut out = Vec::new();
    for (i, a) in c.args.iter().enumerate() {
        // A flag's value only the shell knows (`-p "$PASS"`) is still the flag's; alone, it
        // is an operand that names something (`amttool "$(hostname -f)" reset`), and the
        // verb may follow it.
        let Some(w) = a.text.as_deref() else {
            after_flag = false;
            continue;
        };
        if w == "--" {
            break;
        }
        if w.starts_with('-') && w.len() > 1 {
            after_flag = !w.contains('=');
            after_id = after_flag && !switch(w) && names_a_thing(w);
            after_switch = after_flag && switch(w);
            if after_switch {
                after_flag = false;
            }
            continue;
        }
        // A word in capitals after a switch is its value all the same (`amtapetype -t TEST
        // /dev/…`); alone it may be a subcommand (`irsend LIST`).
        if std::mem::take(&mut after_switch)
            && !w.bytes().any(|b| b.is_ascii_lowercase())
            && w.bytes().any(|b| b.is_ascii_uppercase())
        {
            continue;
        }
        // A method named after a flag (`midclt call -job disk.wipe sda`): a flag cannot be
        // told it takes no value, but a dotted name ending in a verb is the method called;
        // not after a flag that names a thing (`--action-id org.freedesktop.login1.reboot`).
        if std::mem::take(&mut after_flag) && (std::mem::take(&mut after_id) || !dotted_verb(w)) {
            continue;
        }
        let dotted_name = w.contains('.')
            && !file_like(w)
            && w.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | ':' | '.'));
        if !w
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | ':'))
            && (!dotted_name || w.contains('/'))
        {
            // An object's address before the verb (`storcli /c0/v0 del`, `/c0/e252/s3 set
            // offline`): short segments, no extension; a file or directory ends the words.
            if out.is_empty() && object_address(w) {
                continue;
            }
            // A namespaced command written with a slash (`php craft plugin/uninstall seo`, a
            // console's route): its verb leads, as after `:`.
            if let Some(verb) = (i == 0 && out.is_empty()).then(|| routed_verb(w)).flatten() {
                out.push(verb);
                continue;
            }
            // A control file the program is given first, then its verb (`ringmaster
            // tournaments/club.ctl reset`): the file names what the verb acts on, as an
            // object's address does. Any other file or directory ends the words.
            let named_file = w.rsplit('/').next().is_some_and(|base| {
                base.rsplit_once('.').is_some_and(|(stem, ext)| {
                    !stem.is_empty()
                        && (1..=5).contains(&ext.len())
                        && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                })
            });
            if out.is_empty() && !control_file_seen && named_file && !w.contains("://") {
                control_file_seen = true;
                continue;
            }
            if w.contains('/') || w.contains('.') {
                break;
            }
            continue;
        }
        out.push(w);
        // What follows a search is its pattern (`alarms grep poweroff`), no subcommand. (Not
        // after `match`, as often a verb of its own: `fastlane match nuke`.)
        if out.len() == SUBCOMMAND_WORDS || matches!(w, "grep" | "egrep" | "search") {
            break;
        }
        // What is written down follows a verb that records it (`dstask add Fix flaky upload
        // test`, `acme note …`): its words are the text, not more subcommands.
        if out.len() == 1
            && matches!(
                w,
                "add" | "note" | "jot" | "annotate" | "comment" | "capture"
            )
        {
            break;
        }
    }
    out
}

/// A device's or object's address written as a path (`/c0`, `/c0/v0`, `/c0/e252/s3`, and
/// every one of a kind, `/c0/vall`): every segment a short run of letters and digits with at
/// least one digit, or a letter and `all`; no extension.
fn object_address(w: &str) -> bool {
    // A device the program speaks to (`pdutil /dev/ttyACM0 install`, `comm_tool /dev/ttyUSB0
    // … set …`): its verb follows.
    let device = w.strip_prefix("/dev/").is_some_and(|d| {
        !d.is_empty() && d.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'/')
    });
    device
        || w.strip_prefix('/').is_some_and(|rest| {
            !rest.is_empty()
                && rest.split('/').all(|seg| {
                    (1..=6).contains(&seg.len())
                        && seg.bytes().all(|b| b.is_ascii_alphanumeric())
                        && (seg.bytes().any(|b| b.is_ascii_digit())
                            || seg.len() == 4 && seg.ends_with("all"))
                })
        })
}

/// A flag telling the program to run code that comes with what it downloads
/// (`--trust-remote-code`, `--allow_remote_code`): code nobody has read, from the network.
pub(super) fn runs_remote_code<'a>(c: &'a Cmd<'_>) -> Option<&'a str> {
    // Each setting of a comma-separated list counts alone (`--model_args
    // pretrained=x/y,trust_remote_code=True`).
    c.option_words()
        .find(|w| w.split(',').any(trusts_remote_code))
}

/// A flag or a setting that says to run code that came from the network (`--trust-remote-code`,
/// `trust_remote_code=True`), unless it says not to.
fn trusts_remote_code(w: &str) -> bool {
    let body = w.trim_start_matches('-');
    let body = body.split('=').next().unwrap_or(body);
    let ps = parts(body);
    let off = ps
        .first()
        .is_some_and(|p| matches!(p.as_str(), "no" | "disable" | "disallow" | "skip"))
        || w.split_once('=').is_some_and(|(_, v)| {
            matches!(
                v.to_ascii_lowercase().as_str(),
                "false" | "0" | "no" | "off"
            )
        });
    !off && ps.iter().any(|p| p == "code")
        && ps
            .iter()
            .any(|p| matches!(p.as_str(), "remote" | "untrusted"))
}

/// A dotted name whose last part is a verb with consequences (`disk.wipe`, `system.reboot`),
/// not a file.
fn dotted_verb(w: &str) -> bool {
    w.contains('.')
        && !file_like(w)
        && w.chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '.'))
        && w.rsplit('.')
            .next()
            .is_some_and(|last| parts(last).first().is_some_and(|p| classify(p).is_some()))
}

/// A variable set for the program whose name is a destroying verb (`ERASE_DISKS=…`,
/// `WIPE=1`): the program is told to do it.
pub(super) fn assigned_verb(assigns: &[(String, super::super::parse::Arg)]) -> Option<Verb> {
    assigns.iter().find_map(|(name, _)| {
        parts(name)
            .iter()
            .any(|p| DELETES.contains(&p.as_str()))
            .then(|| Verb {
                word: name.clone(),
                class: Class::Destroys,
            })
    })
}

/// A flag that is a switch by its name, never followed by a value (`--batch revoke web1`:
/// `revoke` is the subcommand): asking for no questions, more or less output, or force.
fn switch(flag: &str) -> bool {
    let body = flag.trim_start_matches('-');
    body.starts_with("no-")
        || matches!(
            body,
            "batch"
                | "yes"
                | "assume-yes"
                | "force"
                | "quiet"
                | "verbose"
                | "debug"
                | "silent"
                | "non-interactive"
                | "noninteractive"
                | "unattended"
                // A certificate not checked (`gnmic … --skip-verify set …`), or an output's
                // format asked for (`--json list`): switches, never a value's flag.
                | "skip-verify"
                | "insecure"
                | "insecure-skip-verify"
                | "insecure-skip-tls-verify"
                | "skip-tls-verify"
                | "tls-skip-verify"
                | "json"
                | "yaml"
                | "csv"
                | "raw"
                | "plain"
        )
}

/// Extensions of files: a dotted word ending in one is a file (`deploy.yml`), not a dotted
/// subcommand (`hex.publish`, `service.stop`).
fn file_like(word: &str) -> bool {
    word.rsplit_once('.')
        .is_some_and(|(_, ext)| known_extension(ext))
}

/// The extensions of common file kinds ([`file_like`]).
const EXTENSIONS: &[&str] = &[
    "c", "cfg", "conf", "cpp", "css", "csv", "db", "env", "go", "gz", "h", "html", "ini", "java",
    "js", "json", "jsx", "kt", "lock", "log", "md", "mjs", "pdf", "png", "pub", "py", "rb", "rs",
    "sh", "sql", "svg", "tar", "tgz", "toml", "ts", "tsx", "txt", "xml", "yaml", "yml", "zip",
];

/// Whether `ext` is the extension of a common file kind, in any case.
fn known_extension(ext: &str) -> bool {
    EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(ext))
}

/// Verbs that change what they name (`create`, `update`, `copy`, `tag`): said to a
/// service elsewhere, they write there.
const MUTATES: &[&str] = &[
    "add",
    "apply",
    "assign",
    "attach",
    "change",
    "commit",
    "copy",
    "cp",
    "create",
    "edit",
    "enable",
    "import",
    "insert",
    "invite",
    "load",
    "modify",
    "move",
    "mv",
    "patch",
    "rebuild",
    "register",
    "reinstall",
    "rename",
    "replace",
    "sync",
    "tag",
    "update",
    "upsert",
    "write",
];

/// The first changing verb among the leading subcommand words (the verb after a namespace:
/// `phone-numbers:update`; `change-resource-record-sets`) or a long flag's first word
/// (`--insert`, `--overwrite`), when no word only looks.
pub(super) fn mutation(c: &Cmd<'_>) -> Option<String> {
    let subs = subcommands(c);
    let verb = subs.iter().find(|w| {
        !w.bytes().any(|b| b.is_ascii_uppercase())
            && parts(w.rsplit(':').next().unwrap_or(w))
                .iter()
                .any(|p| MUTATES.contains(&p.as_str()) || p.starts_with("add") && p.len() > 5)
    });
    verb.map(|w| (*w).to_string())
        .or_else(|| http_method(c))
        .or_else(|| {
            c.option_words().find_map(|w| {
                let body = w.strip_prefix("--")?;
                let first = parts(body.split('=').next().unwrap_or(body))
                    .into_iter()
                    .next()?;
                matches!(
                    first.as_str(),
                    "insert" | "overwrite" | "update" | "upsert" | "set"
                )
                .then(|| w.to_string())
            })
        })
}

/// An HTTP method that changes what it is sent to, given by the flag HTTP clients use for it
/// (`-X DELETE`, `-m POST`, `--method=PUT`, `-XPATCH`).
fn http_method(c: &Cmd<'_>) -> Option<String> {
    let changes = |m: &str| {
        matches!(
            m.to_ascii_uppercase().as_str(),
            "POST" | "PUT" | "PATCH" | "DELETE"
        )
    };
    let words: Vec<&str> = c.option_words().collect();
    words.iter().enumerate().find_map(|(i, &w)| {
        let (flag, value) = match w {
            "-X" | "-m" | "--method" | "--request" | "-method" => (w, words.get(i + 1).copied()?),
            _ => {
                let (flag, value) = w.split_once('=').or_else(|| w.split_at_checked(2))?;
                if !matches!(flag, "--method" | "--request" | "-X") || value.is_empty() {
                    return None;
                }
                (flag, value)
            }
        };
        changes(value).then(|| format!("{flag} {value}"))
    })
}

/// A long flag that only looks (`--verify F`, `--info`, `--readhmid`: a reading word, alone or
/// joined to what it reads), of a program given no subcommand, where every other long flag is
/// given a value (`--device 7i96`; a switch such as `--apply` or `--force` says the run acts),
/// none acts and none names a configuration, a key or a secret.
pub(super) fn flag_looks(c: &Cmd<'_>) -> bool {
    // A subcommand says what the run does (`libinput record --show-keycodes`), and a script's
    // flags are the script's (`python3 lights.py --playlist=…`).
    if flag_verb(c).is_some() || !subcommands(c).is_empty() || crate::shells::runs_code(c.name) {
        return false;
    }
    let words: Vec<&str> = c.words().collect();
    let mut looked = false;
    for (i, w) in words.iter().enumerate() {
        let Some(f) = w.strip_prefix("--") else {
            continue;
        };
        let (f, valued) = match f.split_once('=') {
            Some((f, _)) => (f, true),
            None => (f, words.get(i + 1).is_some_and(|n| !n.starts_with('-'))),
        };
        let ps = parts(f);
        if ps.iter().any(|p| {
            SECRETS.contains(&p.as_str())
                || matches!(p.as_str(), "conf" | "config" | "key" | "keys" | "private")
        }) {
            return false;
        }
        let looks = ps.len() == 1 && LOOKS.contains(&ps[0].as_str())
            || joined_reading(f, 2)
            || ps
                .first()
                .is_some_and(|p| p.len() >= 6 && p.starts_with("read"));
        // A setting's amount is no look (`--export-limit 0`: how much is exported, set).
        let amount = ps.len() > 1
            && ps.last().is_some_and(|p| {
                matches!(
                    p.as_str(),
                    "limit" | "rate" | "level" | "threshold" | "max" | "min" | "power" | "speed"
                )
            });
        if looks && !amount && !names_a_place(&ps) {
            looked = true;
        } else if !valued {
            return false;
        }
    }
    looked
}

/// Whether the first word is a long flag that asks to be shown something (`--list-sas`,
/// `--show-config`), the way some programs spell a subcommand.
pub(super) fn asks_by_first_flag(c: &Cmd<'_>) -> bool {
    c.words()
        .next()
        .and_then(|w| w.strip_prefix("--"))
        .is_some_and(|f| {
            let ps = parts(f.split('=').next().unwrap_or(f));
            ps.first().is_some_and(|p| {
                ASKING.contains(&p.as_str()) || matches!(p.as_str(), "summary" | "version")
            }) && !ps.iter().any(|p| SECRETS.contains(&p.as_str()))
                && !names_a_place(&ps)
        })
}

/// Whether the form of a command says it reads, where no subcommand word does: the ways
/// administration tools spell "only show me" without a verb of their own. Asked of a program
/// run as root (`sudo …`), where reading is still reading and anything else needs a person.
///
/// - a name joined from a reading word, with no subcommand (`klist`, `lpinfo`, `tpm2_pcrread`,
///   `bcache-super-show`);
/// - a subcommand joined the same way (`sel elist`, `listnetworks`, `smart-log`);
/// - `-l`, `-ll` or `-L` first, the list convention of `fdisk -l`, `crontab -l`, `iptables -L`,
///   with at most one operand (not for a shell or a login, where `-l` means a login shell, nor
///   beside a `user@host`);
/// - a first long flag asking to be shown something, with its value (`--info=ALL`) or joined
///   (`--getsize64`);
/// - an operation option given a reading word (`--op show`);
/// - a command line handed to the program whose verb only looks (`vtysh -c 'show ip route'`,
///   `debugfs -R 'stat /etc/hosts'`), unless the program is a shell (its line is judged as
///   commands anyway).
///
/// None of it holds when a word names a configuration, a key or a secret: that is what root
/// keeps from others.
///
/// `list_flag` says whether `-l` counts: where a disk is named, it does not (`sswap -ll DEV`
/// is a wipe's level, not a list).
pub(super) fn reads_by_form(c: &Cmd<'_>, list_flag: bool) -> bool {
    let name = c.name.to_ascii_lowercase();
    let login = super::super::rules::is_shell(&name)
        || matches!(
            name.as_str(),
            "su" | "login" | "sudo" | "doas" | "runuser" | "machinectl"
        );
    let first_flag = c.words().next();
    // Root's configuration and key files hold what only root may read: showing them
    // (`wg showconf`, `show running-config`, `config:list --private`) is not only looking.
    let secretive = |w: &str| {
        parts(w).iter().any(|p| {
            SECRETS.contains(&p.as_str())
                || matches!(
                    p.as_str(),
                    "conf" | "config" | "configuration" | "private" | "key" | "keys" | "sensitive"
                )
                || p.ends_with("conf")
                || p.ends_with("config")
        })
    };
    let subs = subcommands(c);
    // A name says what the program does only where no subcommand does (`apt-get install`).
    let reads = subs.is_empty()
        && joined_reading(&name, 3)
        && !name_acts(&name)
        && !handed_system_path(c)
        && handed_deleter(c).is_none()
        // (A word after an act is what it acts on: `pip install hindenburg-episode-export`.)
        || subs
            .iter()
            .map(|w| w.to_ascii_lowercase())
            .take_while(|w| {
                classify_form(w).is_none() && !matches!(w.as_str(), "install" | "add" | "upgrade")
            })
            .any(|w| joined_reading(&w, 3))
            && !exports_to_a_file(c)
        || list_flag
            && !login
            && matches!(first_flag, Some("-l" | "-ll" | "-L"))
            && c.words().filter(|w| !w.starts_with('-')).count() <= 1
            && !c.words().any(|w| !w.starts_with('-') && w.contains('@'))
        || first_flag
            .and_then(|w| w.strip_prefix("--"))
            .is_some_and(|f| asks_by_name(f.split('=').next().unwrap_or(f)))
        || operation_looks(c)
        || !login && line_looks(c);
    // Asked last: it splits every word, and most commands read by no form at all.
    reads
        && !c.words().any(|w| {
            w.split_whitespace()
                .any(|part| secretive(part.trim_start_matches('-')))
        })
}

/// Whether an option named for a file format is given a device, a system file or a place
/// outside the project that others use (`dji-log --csv /dev/sda …`, `--kml
/// /boot/grub/grub.cfg`, `--geojson /srv/www/html/f.geojson`, `--images /mnt/share/img%d.jpeg`):
/// a format's option names where that format is written, whatever a part of the program's name
/// says (`log`, `stat` name its subject). A short or boolean flag before a device (`dumpe2fs -h
/// /dev/sda2`) says nothing.
fn handed_system_path(c: &Cmd<'_>) -> bool {
    const SYSTEM: &[&str] = &[
        "/dev/", "/boot/", "/etc/", "/usr/", "/bin/", "/sbin/", "/lib/", "/sys/", "/srv/", "/var/",
        "/mnt/", "/media/", "/home/", "/root/", "/opt/", "~/",
    ];
    const FORMATS: &[&str] = &[
        "kml", "kmz", "gpx", "geojson", "jpeg", "jpg", "tiff", "wav", "mp4", "image", "images",
    ];
    let words: Vec<&str> = c.option_words().collect();
    words.iter().enumerate().any(|(i, w)| {
        let Some(flag) = w.strip_prefix("--") else {
            return false;
        };
        let (name, value) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (flag, words.get(i + 1).copied()),
        };
        let format =
            FORMATS.contains(&name) || known_extension(name.rsplit('.').next().unwrap_or(name));
        format
            && value.is_some_and(|v| {
                SYSTEM.iter().any(|p| v.starts_with(p))
                    && !matches!(v, "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty")
            })
    })
}

/// The command line that deletes an option is given (`findimagedupes -p 'rm -f'`, `-p 'gio
/// trash'`): the program runs it on what it finds, so its name's reading word (`find`) says
/// what it looks for, not all it does.
pub(super) fn handed_deleter<'c>(c: &'c Cmd<'_>) -> Option<&'c str> {
    let mut after_flag = false;
    let mut before: Option<&str> = None;
    c.args.iter().find_map(|a| {
        // (Not text to search for or to show: `macro encode --text 'rm -rf /'`.)
        if super::arguments::data_value(std::mem::replace(&mut before, a.text.as_deref()), a) {
            after_flag = false;
            return None;
        }
        let Some(t) = a.text.as_deref() else {
            after_flag = false;
            return None;
        };
        // After a flag, only a quoted line of words is its value (`--dry-run rm …` is a
        // subcommand after a switch).
        let value = if t.starts_with('-') {
            t.split_once('=').map(|(_, v)| v)
        } else {
            (after_flag && a.quoted && t.contains(' ')).then_some(t)
        };
        after_flag = t.starts_with('-') && !t.contains('=');
        value.filter(|v| {
            let mut words = v.split_whitespace();
            let first = words.next().unwrap_or("");
            let first = first.rsplit('/').next().unwrap_or(first);
            let deletes = |w: &str| {
                parts(w)
                    .iter()
                    .any(|p| DELETES.contains(&p.as_str()) || p == "trash")
            };
            known::is_program(first) && (deletes(first) || words.next().is_some_and(deletes))
        })
    })
}

/// A program's name with a part that acts (`install-info` installs an entry, `slapt-get` and
/// `prt-get` fetch and install as `apt-get` does): its reading part names what it acts on.
fn name_acts(name: &str) -> bool {
    let ps = parts(name);
    ps.len() > 1 && ps.last().is_some_and(|p| p == "get")
        || ps.iter().any(|p| {
            MUTATES.contains(&p.as_str())
                || DESTROYS.contains(&p.as_str())
                || matches!(p.as_str(), "install" | "upgrade" | "fetch" | "set" | "put")
        })
}

/// A word joined from a reading word and a noun, or made of parts one of which only looks
/// (`klist`, `pcrread`, `listnetworks`, `smart-log`). `rest` is the least the noun may be, so
/// that `listen` is not `list` + `en`.
fn joined_reading(word: &str, rest: usize) -> bool {
    const ENDS: &[&str] = &["list", "info", "show", "read", "stat", "stats", "status"];
    const STARTS: &[&str] = &["list", "show", "get", "print", "dump", "query"];
    let ps = parts(word);
    ps.len() > 1 && ps.iter().any(|p| LOOKS.contains(&p.as_str()))
        || ps.iter().any(|p| {
            ENDS.iter()
                .any(|e| p.len() > e.len() && p.ends_with(e) && p.len() - e.len() < 12)
                || STARTS.iter().any(|s| {
                    p.len() >= s.len() + rest
                        && p.starts_with(s)
                        // Not a reading word then a writing one: `getwrite` gets from a device
                        // and writes what it got (`gpsman … getwrite TR GPX FILE`).
                        && !["write", "put", "set", "save", "store", "send", "load"]
                            .iter()
                            .any(|w| p[s.len()..].starts_with(w))
                })
        })
}

/// An option's name ending in a place (`--info-dir`, `--status-file`): it says where, not
/// what to show.
fn names_a_place(parts: &[String]) -> bool {
    parts.len() > 1
        && parts.last().is_some_and(|p| {
            matches!(
                p.as_str(),
                "dir" | "directory" | "file" | "path" | "root" | "prefix" | "location"
            )
        })
}

/// The first words of a long flag that asks to be shown something (`--list-sas`, `--info`).
const ASKING: &[&str] = &[
    "list",
    "show",
    "status",
    "get",
    "print",
    "query",
    "info",
    "enum",
    "enumerate",
];

/// A long flag's name that asks to be shown something, alone or joined (`info`, `list-sas`,
/// `getsize64`).
fn asks_by_name(flag: &str) -> bool {
    let ps = parts(flag);
    !ps.iter().any(|p| SECRETS.contains(&p.as_str()))
        && !names_a_place(&ps)
        && ps
            .first()
            .is_some_and(|p| ASKING.contains(&p.as_str()) || joined_reading(p, 3))
            // The thing, then the asking word (`--vm-status`, `--pool-list`).
            || ps.len() == 2 && ASKING.contains(&ps[1].as_str())
}

/// `--op show`, `--action=list`: an option naming the operation, given a reading word.
fn operation_looks(c: &Cmd<'_>) -> bool {
    let words: Vec<&str> = c.option_words().collect();
    super::option_pairs(&words).any(|(flag, value)| {
        flag.starts_with("--")
            && matches!(
                flag.trim_start_matches('-'),
                "op" | "operation" | "action" | "cmd" | "command"
            )
            && value.is_some_and(|v| LOOKS.contains(&v.to_ascii_lowercase().as_str()))
    })
}

/// A quoted command line given to an option whose first word only looks, and no other
/// operand (`vtysh -c 'show ip bgp summary'`, `mysql -e 'show databases'`).
fn line_looks(c: &Cmd<'_>) -> bool {
    c.args.iter().enumerate().any(|(i, a)| {
        let Some(text) = a.text.as_deref() else {
            return false;
        };
        a.quoted
            && text.contains(' ')
            && (i > 0
                && c.args[i - 1]
                    .text
                    .as_deref()
                    .is_some_and(|f| f.starts_with('-') && !f.contains('='))
                // Or the program's first word: its own command line (`bbackupquery "list -r
                // home" quit`).
                || i == 0)
            && text.split_whitespace().next().is_some_and(|v| {
                let v = v.to_ascii_lowercase();
                LOOKS.contains(&v.as_str()) && v != "export"
            })
            && !text.contains([';', '|', '&', '`', '$', '\n'])
    })
}

/// Whether a leading subcommand word only looks (`ps`, `list`, `status`, `dump-flows`,
/// `list_units`), or the command is told to open what it is given read-only (`--ro`).
pub(super) fn looks(c: &Cmd<'_>) -> bool {
    let subs = subcommands(c);
    subs.iter().enumerate().any(|(i, w)| {
        let lower = w.to_ascii_lowercase();
        (LOOKS.contains(&lower.as_str())
            && !(matches!(lower.as_str(), "export" | "dump") && exports_to_a_file(c))
            || lower.contains(['-', '_'])
                && parts(&lower).first().is_some_and(|p| {
                    LOOKS.contains(&p.as_str())
                        // A question (`is-configured`, `is-active`, `has-updates`).
                        || matches!(p.as_str(), "is" | "has")
                }))
            && !act_follows(w, &subs[i + 1..])
    }) || c
        .option_words()
        .any(|w| matches!(w, "--ro" | "--read-only" | "--readonly" | "--rdonly"))
}

/// Whether a looking word is a noun that the next subcommand acts on (`logs delete`, `history
/// purge`): a word that only names records, then a verb alone. (`tree deploy`, `show
/// tailwind-merge`: a look at what is named.)
fn act_follows(look: &str, rest: &[&str]) -> bool {
    // (An export is sent as a report is: `export send --to ADDRESS`.)
    // (Or the last part of one: `maintenance-log push`.)
    let noun = parts(look).last().is_some_and(|l| {
        matches!(
            l.as_str(),
            "log" | "logs" | "history" | "stats" | "info" | "export" | "plan"
        )
    });
    // Any looking word before a verb that only destroys or stops is a noun (`show stop`, a
    // show-control system's show; `list purge`): nothing is looked at by those verbs.
    let acting = |w: &str| {
        let w = w.to_ascii_lowercase();
        DELETES.contains(&w.as_str()) || STOPS.contains(&w.as_str())
    };
    rest.first().is_some_and(|w| acting(w))
        || noun
            && rest.first().is_some_and(|w| {
                let w = w.to_ascii_lowercase();
                // (Or empties them: `logs clean --path DIR`, `history clear`.)
                DELETES.contains(&w.as_str())
                    || STOPS.contains(&w.as_str())
                    || matches!(
                        w.as_str(),
                        "send"
                            | "upload"
                            | "publish"
                            | "push"
                            | "post"
                            | "share"
                            | "deploy"
                            | "apply"
                            | "approve"
                            | "activate"
                            | "release"
                            | "clean"
                            | "clear"
                            | "empty"
                            | "prune"
                            | "truncate"
                    )
            })
}

/// Whether an `export` subcommand is told where to go, a file or a directory last among its
/// operands (`hoverctl export /home/dev/simulation.json`, `acme export build/users.csv`, `acme export
/// /dev/sda`): it writes there, so it does not only look. Alone, or with a format's or a thing's name (`acme export
/// json`, `acme export users`), it prints.
fn exports_to_a_file(c: &Cmd<'_>) -> bool {
    let ops: Vec<&str> = c.operands().filter_map(|a| a.text.as_deref()).collect();
    // The verb alone or joined to what it exports (`csv:export`, `db-export`); or `dump`,
    // which writes what it dumps to the file it is given (`rosparam dump params.yaml`).
    let saving = |p: &str| matches!(p, "export" | "dump");
    let Some(at) = ops.iter().position(|w| {
        saving(&w.to_ascii_lowercase())
            || w.contains([':', '-', '_'])
                && parts(&w.to_ascii_lowercase())
                    .last()
                    .is_some_and(|p| saving(p))
    }) else {
        return false;
    };
    // A disk; for `export`, also a place in the home, a file by its extension or a directory.
    // `dump` prints what it is given as often (`acme dump /etc/hosts`, `chipsec_util spi dump
    // rom.bin`, a settings tree `dconf dump /org/gnome/`), but a disk last is written
    // (`caringcaribou -i can0 dump -f /dev/sda`). Not a server's own path (`tabcmd export
    // '/views/Sales/Overview' -f out.csv`: the view exported).
    let exports = !ops[at].to_ascii_lowercase().ends_with("dump");
    ops[at + 1..].last().is_some_and(|w| {
        w.starts_with("/dev/") || exports && (w.starts_with(['~', '$']) || exported_file(w))
    })
}

/// A file by its extension, or a directory to export into (`symfony csv:export
/// /home/dev/descriptions/`).
fn exported_file(w: &str) -> bool {
    w.len() > 1 && w.ends_with('/')
        || w.rsplit('/')
            .next()
            .unwrap_or(w)
            .rsplit_once('.')
            .is_some_and(|(stem, ext)| {
                !stem.is_empty()
                    && (1..=5).contains(&ext.len())
                    && ext.bytes().all(|b| b.is_ascii_alphanumeric())
            })
}

/// Whether the command's subcommand is a read of something into a file (`read`,
/// `read-memory`, `read_flash`): a chip's or a board's memory read out is written where the
/// command says, last, by the Unix convention (`blhost … read-memory 0 4096 FILE`).
pub(super) fn reads_out(c: &Cmd<'_>) -> bool {
    subcommands(c)
        .first()
        .is_some_and(|w| parts(w).first().is_some_and(|p| p == "read") && !w.contains(':'))
}

/// Whether a subcommand runs a test suite (`acme test …`): it runs the code it is given,
/// though it changes nothing.
pub(super) fn runs_tests(c: &Cmd<'_>) -> bool {
    subcommands(c)
        .iter()
        .any(|w| w.eq_ignore_ascii_case("test"))
}

/// Whether the subcommand words name a credential that a making verb beside them mints and
/// prints to whoever asked (`token create`, `apikey generate`), an API or access key spelt in
/// two words too (`iam api-key-create`, `access-key new`).
fn mints(split: &[Vec<String>]) -> bool {
    split.iter().any(|ps| {
        ps.iter().any(|p| {
            matches!(
                p.as_str(),
                "token"
                    | "tokens"
                    | "apikey"
                    | "apikeys"
                    | "credential"
                    | "credentials"
                    | "password"
            )
        }) || ps
            .windows(2)
            .any(|w| matches!(w[0].as_str(), "api" | "access") && w[1] == "key")
    })
}

/// A program whose name is a store of secrets, told to print or export (`acme-vault export
/// prod`, `keyring get svc user`): the secret itself.
fn store_prints(name: &str, subs: &[&str]) -> bool {
    parts(name).iter().any(|p| {
        matches!(
            p.as_str(),
            "vault" | "keychain" | "keyring" | "secret" | "secrets" | "creds" | "credentials"
        )
    }) && subs
        .first()
        .is_some_and(|w| PRINTS.contains(&w.to_ascii_lowercase().as_str()))
}

/// A key store's entry got by name (`llm keys get openai`): the key itself. Not a listing,
/// which names keys (`keys list`).
fn key_got(subs: &[&str]) -> bool {
    // (After a namespace too: `telematics key show`.)
    subs.windows(2).any(|p| {
        names_a_key(p[0])
            && matches!(
                p[1].to_ascii_lowercase().as_str(),
                "get" | "show" | "print" | "reveal" | "cat" | "dump" | "display" | "export"
            )
    })
}

/// A noun that names a key or a login (`key`, `keys`, `creds`, `stripe-key`, `licence_key`,
/// `wskey`: an acronym joined to it), not a public one (`ssh-key`, `pub-key`, `gpg-key`, `host-key`,
/// `deploy-key`) nor a word that only ends so (`hotkey`, `monkey`).
fn names_a_key(word: &str) -> bool {
    let w = word.to_ascii_lowercase();
    let ps = parts(&w);
    let public = |p: &str| {
        matches!(
            p,
            "ssh" | "pub" | "public" | "gpg" | "pgp" | "host" | "deploy" | "sign" | "signing"
        )
    };
    let acronym = w.strip_suffix("key").is_some_and(|pre| {
        (2..=4).contains(&pre.len())
            && pre
                .bytes()
                .all(|b| b.is_ascii_lowercase() && !b"aeiouy".contains(&b))
    });
    // (A session's cookie is its login.)
    matches!(
        w.as_str(),
        "key" | "keys" | "creds" | "cred" | "cookie" | "cookies" | "pin" | "pins"
    ) || acronym
        // (Or a PIN joined to what it opens: `service-pin`, `admin-pin`.)
        || ps.len() == 2 && matches!(ps[1].as_str(), "key" | "keys" | "pin" | "pins") && !public(&ps[0])
}

/// The verb of the leading subcommand words. A secret's name beside a printing verb prints a
/// secret; a word that only looks (`deploys list`, `rollout status`, `describe-instances`)
/// keeps the command safe; otherwise the first consequential word decides.
/// An act on a machine said in its own words: taken out of service or its power cycled, as a
/// phrase (`car out-of-service --car 2`, `node take-offline`, `outlet cycle --outlet 3`: what
/// it serves stops), or a program downloaded to a controller.
fn machine_act(c: &Cmd<'_>, subs: &[&str], all: &[(&str, &String)]) -> Option<Verb> {
    let words: Vec<&str> = all.iter().map(|(_, p)| p.as_str()).collect();
    let phrase = words.windows(3).any(|p| p == ["out", "of", "service"])
        || words.windows(2).any(|p| {
            matches!(p[0], "take" | "set" | "put") && p[1] == "offline"
                || matches!(p[0], "outlet" | "outlets" | "power" | "socket") && p[1] == "cycle"
        });
    let class = if phrase {
        Class::Stops
    } else if downloads_to_a_controller(c, subs) {
        Class::Actuates
    } else {
        return None;
    };
    Some(Verb {
        word: subs.join(" "),
        class,
    })
}

/// A download said to a controller named by an option (`module download --node CTLR-07`,
/// `recipe download --press P2`, `project download --station FCS0101`), with nowhere here to
/// put it: in a control system's words, a download sends the program to the machine, which
/// then runs it.
fn downloads_to_a_controller(c: &Cmd<'_>, subs: &[&str]) -> bool {
    const CONTROLLERS: &[&str] = &[
        "node",
        "station",
        "press",
        "crane",
        "controller",
        "plc",
        "rtu",
        "drive",
        "line",
    ];
    subs.contains(&"download")
        && (c.option_words().any(|w| {
            w.strip_prefix("--")
                .is_some_and(|f| CONTROLLERS.contains(&f.split('=').next().unwrap_or(f)))
        })
            // (Or the controller named by a subcommand: `plc download --program F`.)
            || subs.iter().any(|s| CONTROLLERS.contains(s)))
        && !c.option_words().any(|w| {
            let flag = w.split('=').next().unwrap_or(w);
            // (Or to the standard output: `download --station TG-7 --stdout | …`.)
            super::targets::output_flag(flag, false)
                || matches!(flag, "-o" | "--stdout" | "--print" | "--cat")
        })
}

/// An act only a whole subcommand says: money put into an account (`balance top-up --amount
/// 5000`), though `top` alone looks; a radio disabled over the air (`radios stun --radio-id
/// R`), not a `stunclient`.
fn whole_word_act(w: &str) -> Option<Class> {
    // (Asked of every subcommand word: compared without making a copy.)
    let is = |target: &str| {
        w.bytes()
            .filter(|b| !matches!(b, b'-' | b'_'))
            .map(|b| b.to_ascii_lowercase())
            .eq(target.bytes())
    };
    if is("topup") {
        Some(Class::Reaches)
    } else if is("stun") {
        Some(Class::Stops)
    } else {
        None
    }
}

fn subcommand_verb(c: &Cmd<'_>) -> Option<Verb> {
    let subs = subcommands(c);
    if subs.iter().any(|w| known::local_verb(c.name, w)) {
        return None;
    }
    // `ps:scale`, `auth:export`: a namespace, then the verb.
    let split: Vec<Vec<String>> = subs
        .iter()
        .map(|w| parts(w.rsplit(':').next().unwrap_or(w)))
        .collect();
    // A subcommand is written in lower case; `CreateMessages` is a class's name.
    let any = |set: &[&str]| {
        subs.iter()
            .zip(&split)
            .filter(|(w, _)| !w.bytes().any(|b| b.is_ascii_uppercase()))
            .flat_map(|(_, ps)| ps)
            .any(|p| set.contains(&p.as_str()))
    };
    if reveals_by_subcommand(c, &subs, &split, &any) || lone_credential(&split) {
        return Some(Verb {
            word: subs.join(" "),
            class: Class::Reveals,
        });
    }
    if sets_password(&subs) {
        return Some(Verb {
            word: subs.join(" "),
            class: Class::Changes,
        });
    }
    if any(MESSAGES) && any(MAKES) || any(ORDERS) && any(PLACES) || hooked_elsewhere(c, &any) {
        return Some(Verb {
            word: subs.join(" "),
            class: Class::Reaches,
        });
    }
    // A looking word is the act, unless an act follows it: then it named what is acted on
    // (`logs delete --before …`, `history purge`).
    if let Some(look) = subs
        .iter()
        .position(|w| LOOKS.contains(&w.to_ascii_lowercase().as_str()))
        && !act_follows(subs[look], &subs[look + 1..])
    {
        return None;
    }
    if let Some(w) = said_alone(c, &subs) {
        return Some(Verb {
            word: w.to_string(),
            class: said_class(w),
        });
    }
    let all: Vec<(&str, &String)> = subs
        .iter()
        .zip(&split)
        .flat_map(|(w, ps)| ps.iter().map(move |p| (*w, p)))
        .collect();
    // `configure` with a setting and its value (`lldpcli configure system hostname x`) sets
    // the running service's configuration; alone or before flags it is a build's set-up
    // (`./waf configure --prefix=…`).
    if subs.len() >= 3 && subs[0] == "configure" {
        return Some(Verb {
            word: subs.join(" "),
            class: Class::Changes,
        });
    }
    if clears_a_store(&subs, &all) {
        return Some(Verb {
            word: "clear".into(),
            class: Class::Destroys,
        });
    }
    if let Some(v) = machine_act(c, &subs, &all) {
        return Some(v);
    }
    for (i, (w, part)) in all.iter().enumerate() {
        if names_what_follows(part) {
            return None;
        }
        if let Some(class) = whole_word_act(w) {
            return Some(Verb {
                word: (*w).into(),
                class,
            });
        }
        // A looking word before an act names what is acted on (`logs delete`).
        if LOOKS.contains(&part.as_str()) {
            let after = subs
                .iter()
                .position(|s| s == w)
                .map_or(subs.len(), |k| k + 1);
            if act_follows(w, &subs[after..]) {
                continue;
            }
            return None;
        }
        match classify_form(part) {
            Some((_, true)) if i + 1 == all.len() => {}
            Some((class, _)) => {
                return Some(Verb {
                    word: (*w).into(),
                    class,
                });
            }
            None => {}
        }
    }
    None
}

/// A verb whose object is named after it, no act said to the program: what a generator is
/// told to make (a name written into the project), what is pulled or fetched (`presets pull
/// nuke-comp`: the name of what is got).
fn names_what_follows(part: &str) -> bool {
    matches!(
        part,
        "generate" | "scaffold" | "pull" | "fetch" | "download"
    )
}

/// A verb that is a common noun inside other words, said alone: a lane closed, a car locked,
/// a charge fired, clients messaged or notified (`lane close --plaza 14`, `clients message --segment lapsed`, `drivers
/// notify --route 4`). (A program named for it, `notify-send`, is a desktop's notice to the
/// person at it, and so is `notify` first with only its texts, `itctl notify "CI" "build
/// passed"`; told whom, it tells someone else.)
fn said_alone<'s>(c: &Cmd<'_>, subs: &[&'s str]) -> Option<&'s str> {
    let told_whom = |i: usize| i > 0 || c.option_words().any(|o| o.starts_with('-'));
    // (So are a message's kinds said as the act: `crews sms --date …`, `reports email --to
    // …`.)
    // (And someone kept out of a service, said alone: `patrons block --id 88421`, `users ban
    // U`; inside other words it is something else, `blockdiag`, `ban.list`.)
    subs.iter().enumerate().find_map(|(i, w)| {
        (matches!(
            *w,
            "close"
                | "message"
                | "block"
                | "ban"
                | "blacklist"
                | "blocklist"
                | "denylist"
                // (A site's doors shut to all: `doors lockdown --site north`.)
                | "lockdown"
        )
            || *w == "notify" && told_whom(i)
            // (Among the first two words, options after it: a word last is what is asked
            // for, `ldapsearch … cn mail`.)
            // (Or after a noun and its own, `hcm letters mail --queue Q`.)
            || matches!(*w, "sms" | "email" | "mail") && i <= 2 && options_after(c, w)
            // (A thing locked after its noun, `cars lock --car C`, `sensor lock --all-masses`;
            // first, it writes a lock file, `poetry lock`.)
            || *w == "lock" && i > 0
            // (A charge or a kiln set off, options after it: `fire --shot G3 …`, `blast
            // --tower W5`.)
            // (Or armed to fire: `arm --site Col-Nord-3`, an avalanche tower's.)
            || matches!(*w, "fire" | "blast" | "detonate" | "ignite" | "arm")
                && i <= 1
                && options_after(c, w)
            // (A named machine or line started, options choosing which: `dryer start --unit
            // cf-1`, `pivots start --pivot pv-6`; not a program's own server or watcher set
            // going here, `docs start --port 3000`, nor `start` first, `lando start`.)
            // (Or launched: `mission launch --drone M2 …`.)
            || matches!(*w, "start" | "launch")
                && i > 0
                && options_after(c, w)
                && !subs[..i].iter().any(|n| starts_locally(n))
            // (A thing moved or a safeguard set aside, after its noun, options after it:
            // `ramp lower --berth 3`, `barriers raise`, `switches throw --id W12`,
            // `interlocks bypass`.)
            // (Or stowed, boosted: `antenna stow --station S`, `fans boost --stage 3`.)
            // (Or engaged, released, turned back: `immobiliser engage --vin …`, `pivot reverse
            // --pivot 2`.)
            || matches!(
                *w,
                "raise"
                    | "lower"
                    | "throw"
                    | "bypass"
                    | "stow"
                    | "boost"
                    | "engage"
                    | "disengage"
                    | "reverse"
                    // (Driven or parked: `crawler drive --forward 20m`, `mower park --id 7`.)
                    | "drive"
                    | "park"
            ) && i > 0
                && options_after(c, w)
            // (A bid or an order placed with a sum, a deposit captured, any act given a sum
            // of money: `bid place --lot L --amount 1420`, `deposit capture --amount 150.00`;
            // not a sum only looked at or worked out, `fees quote --amount 90`.)
            || i > 0 && i + 1 == subs.len() && sum_given(c) && !only_reckons(w)
            // (A machine moved, run, slewed or heated to a physical quantity: `lift move --to
            // -4.5m`, `hoist run --to 6.2m`, `mount slew --ra 05h35m`, `press heat --mold-temp
            // 150`.)
            || MOVED_BY_A_QUANTITY.contains(w)
                && i > 0
                && options_after(c, w)
                && quantity_given(c, !matches!(*w, "heat" | "cool"))
            // (A reply or an answer sent, after what it answers: `reviews reply --review 9`.)
            // (Or sent on, or up to someone, crews called out, after the noun: `bags forward
            // --tag T --to JFK`, `alerts escalate --shipment S`, `crews callout --crew C`; a
            // part of a setting's name is none, `net.ipv4.ip_forward`.)
            || matches!(*w, "reply" | "respond" | "forward" | "escalate" | "callout")
                && i > 0
                && options_after(c, w)
            // (An asset given up, trunks taken out of service, after the noun: `mains abandon
            // --asset A`, `trunks busy-out --group G`.)
            || matches!(*w, "abandon" | "busy-out") && i > 0 && options_after(c, w)
            // (A vessel emptied, after its noun: `tank empty --tank T7 --to drain`.)
            || *w == "empty" && i > 0 && options_after(c, w)
            // (A way opened or a flow sent elsewhere, after its noun: `turnstiles open --area
            // summit`, `bags reroute --flight BA0117`; not a page, a file or a local server
            // opened to look at, `docs open --browser`.)
            || matches!(*w, "open" | "unlock" | "reroute" | "divert" | "redirect")
                && i > 0
                && options_after(c, w)
                && !subs[..i].iter().any(|n| starts_locally(n) || shown_when_opened(n))
            // (A thing locked out or an alarm silenced, stock sold off, goods sent back, credit
            // handed out, after the noun: `vehicle lockout --truck FL-118`, `alarm suppress
            // --category smoke`, `inventory liquidate --lot L`, `parcels return-to-sender`,
            // `rewards issue --all-members`.)
            || matches!(
                w.split('-').next().unwrap_or(w),
                "lockout"
                    | "suppress"
                    | "silence"
                    | "inhibit"
                    | "liquidate"
                    | "return"
                    | "issue"
                    | "recall"
            ) && i > 0
                && options_after(c, w)
            // (A live value written to a controller's point: `point write --value 30`, `point
            // command --value off`, `setpoint write --suction-psi 450`: an option given a
            // number or a state.)
            || matches!(*w, "write" | "command" | "setpoint")
                && i > 0
                && option_given_a_level(c)
            // (A machine braked, tripped, isolated, shut in, islanded or discharged, after its
            // noun: `turbine brake --engage`, `relay trip --breaker 52-1`, `loop shut-in`.)
            || matches!(
                w.split('-').next().unwrap_or(w),
                "brake"
                    | "trip"
                    | "isolate"
                    | "shut"
                    | "island"
                    | "discharge"
                    | "dose"
                    | "dispense"
            ) && i > 0
                && options_after(c, w))
        .then_some(*w)
    })
}

/// Verbs that set a machine going when an option gives them a physical quantity
/// ([`quantity_given`]): `lift move --to -4.5m`, `press heat --mold-temp 150`.
const MOVED_BY_A_QUANTITY: &[&str] = &["move", "run", "slew", "jog", "rotate", "heat", "cool"];

/// Whether an option is given a physical quantity: a number with a unit of length, angle,
/// temperature or speed (`--to -4.5m`, `--speed 40rpm`), a sky position (`--ra 05h35m`, `--dec
/// -05d23m`), or, unless `unit` is asked for, a bare number (`--mold-temp 150`).
fn quantity_given(c: &Cmd<'_>, unit: bool) -> bool {
    let quantity = |v: &str| {
        let v = v.trim_start_matches(['-', '+']);
        let digits = v
            .bytes()
            .take_while(|b| b.is_ascii_digit() || *b == b'.')
            .count();
        let rest = &v[digits..];
        let sky = rest.len() >= 2
            && matches!(rest.as_bytes()[0], b'h' | b'd')
            && rest[1..]
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'm' | b's' | b'.'));
        digits > 0
            && v.as_bytes()[0].is_ascii_digit()
            && (sky
                || matches!(
                    rest,
                    "m" | "mm" | "cm" | "km" | "in" | "ft" | "deg" | "°" | "°c" | "c" | "f" | "rpm"
                )
                || !unit && rest.is_empty())
    };
    long_option_given(c, |_, v| quantity(v))
}

/// Whether a verb given a sum of money only looks at it or works something out from it
/// (`fees quote --amount 90`, `tax calculate --price 12`): nothing is paid.
fn only_reckons(verb: &str) -> bool {
    let ps = parts(verb);
    ps.iter().any(|p| {
        LOOKS.contains(&p.as_str())
            || matches!(
                p.as_str(),
                "quote"
                    | "estimate"
                    | "calculate"
                    | "calc"
                    | "compute"
                    | "convert"
                    | "simulate"
                    | "preview"
                    | "price"
                    | "round"
                    | "format"
                    | "split"
                    | "convert-currency"
            )
    })
}

/// Whether an option naming a sum of money is given a number (`--amount 1420`, `--max-bid=300`,
/// `--price £9.50`): what the command makes is paid for.
fn sum_given(c: &Cmd<'_>) -> bool {
    long_option_given(c, |flag, v| {
        parts(flag)
            .iter()
            .any(|p| matches!(p.as_str(), "amount" | "price" | "bid" | "stake" | "sum"))
            && v.trim_start_matches(['$', '£', '€']).parse::<f64>().is_ok()
    })
}

/// Whether an option is given a number or a state (`--value 30`, `--suction-psi 450`,
/// `--value off`): a level set on what the command names.
fn option_given_a_level(c: &Cmd<'_>) -> bool {
    long_option_given(c, |_, v| {
        v.parse::<f64>().is_ok() || matches!(v, "on" | "off" | "open" | "closed")
    })
}

/// Whether a long option of `c` and the value it is given pass `given(flag, value)`.
fn long_option_given(c: &Cmd<'_>, given: impl Fn(&str, &str) -> bool) -> bool {
    let words: Vec<&str> = c.option_words().collect();
    super::option_pairs(&words)
        .any(|(flag, value)| flag.starts_with("--") && value.is_some_and(|v| given(flag, v)))
}

/// What a word [`said_alone`] finds asks for.
fn said_class(w: &str) -> Class {
    match w {
        "close" | "block" | "ban" | "lock" | "bypass" | "blacklist" | "blocklist" | "denylist"
        | "lockdown" => Class::Stops,
        "empty" | "abandon" => Class::Destroys,
        "busy-out" => Class::Stops,
        "open" | "unlock" => Class::Actuates,
        "reroute" | "divert" | "redirect" | "write" | "command" | "setpoint" | "island" => {
            Class::Changes
        }
        "discharge" | "dose" | "dispense" => Class::Actuates,
        _ if matches!(
            w.split('-').next().unwrap_or(w),
            "lockout" | "suppress" | "silence" | "inhibit" | "brake" | "trip" | "isolate" | "shut"
        ) =>
        {
            Class::Stops
        }
        "fire" | "blast" | "detonate" | "ignite" | "arm" | "start" | "launch" | "raise"
        | "lower" | "throw" | "stow" | "boost" | "engage" | "disengage" | "reverse" | "drive" => {
            Class::Actuates
        }
        "park" => Class::Stops,
        _ if MOVED_BY_A_QUANTITY.contains(&w) => Class::Actuates,
        _ => Class::Reaches,
    }
}

/// A noun a program opens to be looked at (`docs open`, `report open --browser`, `pr open`):
/// opened, it is shown, nothing in the world moves.
fn shown_when_opened(noun: &str) -> bool {
    parts(noun).iter().any(|p| {
        matches!(
            p.as_str(),
            "doc"
                | "docs"
                | "file"
                | "files"
                | "report"
                | "reports"
                | "page"
                | "browser"
                | "url"
                | "link"
                | "editor"
                | "project"
                | "pr"
                | "issue"
                | "dashboard"
                | "notebook"
                | "folder"
                | "dir"
                | "workspace"
                | "session"
        )
    })
}

/// A noun whose start is a process on this machine for the person at it: a development
/// server, a watcher, an emulator, a notebook (`web start`, `emulators start`), or a verb
/// that runs a script of that name (`run start`).
fn starts_locally(noun: &str) -> bool {
    parts(noun).iter().any(|p| {
        matches!(
            p.as_str(),
            "server"
                | "servers"
                | "dev"
                | "daemon"
                | "emulator"
                | "emulators"
                | "watch"
                | "watcher"
                | "app"
                | "web"
                | "ui"
                | "docs"
                | "site"
                | "preview"
                | "local"
                | "db"
                | "database"
                | "shell"
                | "repl"
                | "notebook"
                | "lab"
                | "kernel"
                | "run"
                | "exec"
                | "script"
                | "scripts"
                | "test"
                | "tests"
        )
    })
}

/// Whether an option follows the word `w` among `c`'s words.
fn options_after(c: &Cmd<'_>, w: &str) -> bool {
    c.words()
        .skip_while(|x| *x != w)
        .skip(1)
        .any(|x| x.starts_with('-'))
}

/// Whether the subcommands print a secret: a secret's name beside a printing verb, joined to
/// one (`dumpprivkey`), decrypted or revealed, minted, or a key read by its name.
fn reveals_by_subcommand(
    c: &Cmd<'_>,
    subs: &[&str],
    split: &[Vec<String>],
    any: &dyn Fn(&[&str]) -> bool,
) -> bool {
    // Or its parts joined (`api-key show`, `access-token get`).
    let secret_named =
        any(SECRETS) || split.iter().any(|ps| joined_secret(ps)) || names_a_secret(c, subs, split);
    // Or joined into one word (`dumpprivkey`, `exportsecret`, `export-key`: a key exported
    // by a subcommand of its own is the key itself).
    let joined_reveal = subs.iter().any(|w| {
        let w = w.to_ascii_lowercase();
        PRINTS.iter().any(|p| {
            w.strip_prefix(p).is_some_and(|rest| {
                SECRETS
                    .iter()
                    .chain(&["privkey", "privatekey"])
                    .any(|s| rest.contains(s))
                    || matches!(rest, "-key" | "key" | "_key" | "-keys" | "keys")
            })
        })
    });
    // Decrypting is showing what was kept secret (`show-decrypted`, `decrypt`, `unseal`).
    let decrypts = any(DECRYPTS) || any(&["reveal"]) && (secret_named || keeps_secrets(c.name));
    let mints = mints(split) && any(&["create", "new", "generate", "issue", "mint"]);
    // A setting read by its key (`config KEY`), as a getter prints it.
    // A secret's subcommand told by a flag to print it (`token --show`, `api-key --print`), or
    // a printing one asked for the key by a bare switch (`licence show --key`).
    // (The flags are read only when a subcommand names a secret or prints: every command
    // nobody models comes here.)
    let print_flag = || {
        c.option_words().any(|w| {
            w.strip_prefix("--").is_some_and(|f| {
                matches!(
                    f,
                    "show"
                        | "print"
                        | "reveal"
                        | "display"
                        | "dump"
                        | "plain"
                        | "plaintext"
                        | "export"
                )
            })
        })
    };
    let key_switch = || {
        let mut words = c.option_words().peekable();
        while let Some(w) = words.next() {
            // (Or the key's kind with it: `certs export --private-key`.)
            let kind_key = w.strip_prefix("--").is_some_and(|f| {
                matches!(parts(f).as_slice(), [kind, key]
                    if matches!(kind.as_str(), "private" | "secret" | "signing" | "master" | "api"
                        | "license" | "licence" | "product" | "activation")
                        && matches!(key.as_str(), "key" | "keys"))
            });
            // (Or asked to include one: `network show --include-wifi-psk`, `--with-password`.)
            let included = w.strip_prefix("--").is_some_and(|f| {
                let ps = parts(f);
                ps.len() >= 2
                    && matches!(ps[0].as_str(), "include" | "with" | "show" | "reveal")
                    && ps.last().is_some_and(|l| {
                        SECRETS.contains(&l.as_str()) || matches!(l.as_str(), "psk" | "key")
                    })
            });
            if (matches!(
                w,
                "--key"
                    | "--keys"
                    | "--secret"
                    | "--secrets"
                    | "--token"
                    | "--tokens"
                    | "--credentials"
                    | "--passwords"
            ) || kind_key
                || included)
                && words.peek().is_none_or(|n| n.starts_with('-'))
            {
                return true;
            }
        }
        false
    };
    (secret_named || subs.iter().any(|w| names_a_key(w))) && print_flag()
        || secret_named && (any(PRINTS) || any(&["config"]))
        || any(PRINTS) && key_switch()
        // (Not its public half asked for: `key export --public`.)
        || key_got(subs)
            && !c.option_words().any(|w| {
                matches!(
                    w,
                    "--public" | "--pub" | "--public-key" | "--pubkey" | "--public-only"
                )
            })
        || joined_reveal
        || decrypts
        || mints
        || store_prints(c.name, subs)
}

/// A password changed by a subcommand (`change-password alice`, `changeUserPassword`,
/// `reset-passwd`): whoever knew the old one is locked out.
fn sets_password(subs: &[&str]) -> bool {
    subs.iter().any(|w| {
        let ps = parts(w);
        ps.iter()
            .any(|p| matches!(p.as_str(), "password" | "passwd" | "passphrase"))
            && ps
                .iter()
                .any(|p| matches!(p.as_str(), "change" | "set" | "reset" | "update" | "new"))
    })
}

/// A password or a secret changed by a long flag of a program nobody models
/// (`--change-user-password=alice`, `--change-secret`, `--set-auth-user=admin%pw`).
fn credential_flag(c: &Cmd<'_>) -> Option<Verb> {
    if known::tier(c.name) != known::Tier::Unknown {
        return None;
    }
    let w = c.option_words().find(|w| {
        w.strip_prefix("--")
            .is_some_and(|b| sets_credential(&parts(b.split('=').next().unwrap_or(b))))
    })?;
    Some(Verb {
        word: w.into(),
        class: Class::Changes,
    })
}

/// A flag's parts that change a credential: a changing verb and what it changes (`change
/// user password`, `change secret`, `set auth user`).
fn sets_credential(ps: &[String]) -> bool {
    ps.iter().any(|p| {
        matches!(
            p.as_str(),
            "password" | "passwd" | "passphrase" | "secret" | "auth" | "credential" | "credentials"
        )
    }) && ps
        .first()
        .is_some_and(|p| matches!(p.as_str(), "change" | "set" | "reset" | "update"))
        // Not where it is kept, or a cache of it (`--set-password-file F`, `--reset-auth-cache`).
        && !ps.last().is_some_and(|p| {
            matches!(p.as_str(), "file" | "path" | "dir" | "cache" | "timeout" | "ttl")
        })
}

/// What a removing verb joined to it removes ([`joined_removal`]).
const JOINED_OBJECTS: &[&str] = &[
    "node",
    "nodes",
    "user",
    "users",
    "host",
    "hosts",
    "job",
    "jobs",
    "vm",
    "group",
    "pool",
    "peer",
    "member",
    "disk",
    "volume",
    "zone",
    "domain",
    "db",
    "database",
    "table",
    "snapshot",
    "share",
    "repo",
    "project",
    "account",
    "queue",
    "cluster",
    "vob",
    "view",
    "branch",
    "tag",
    "label",
    "elem",
    "attr",
    "key",
    "keys",
    "stream",
    "replica",
    "role",
    "rule",
    "policy",
    "token",
    "cert",
    "site",
    "image",
    "instance",
    "service",
    "container",
    "pkg",
    "package",
    "record",
    "entry",
    "index",
    "schema",
    "bucket",
    "topic",
    "channel",
    "route",
    // A network's parts (`isdnctrl delif`, `brctl delbr`, `delport`, `delvlan`).
    "if",
    "iface",
    "br",
    "bridge",
    "port",
    "vlan",
    "link",
    // Everything of its kind (`stopall`, `killall`, `deleteall`).
    "all",
    // What a scheduler or a messaging service keeps (`startworkflow`, `clearmessages`).
    "workflow",
    "workflows",
    "message",
    "messages",
    "session",
    "sessions",
    "alarm",
    "alarms",
];

/// The class of a word part the lists name.
fn listed_class(p: &str) -> Option<Class> {
    if DESTROYS.contains(&p) {
        Some(Class::Destroys)
    } else if STOPS.contains(&p) {
        Some(Class::Stops)
    } else if CHANGES.contains(&p) {
        Some(Class::Changes)
    } else if REACHES.contains(&p) {
        Some(Class::Reaches)
    } else if matches!(p, "actuate" | "energize" | "energise") {
        // A device set going (`valves actuate --valve-id V`), as a flag's `--actuate` is.
        Some(Class::Actuates)
    } else {
        None
    }
}

/// A removing verb joined to what it removes, as one subcommand (`pvecm delnode pve3`,
/// `acme rmuser bob`, `killjob 42`, `ndsmanage stopall`): the object is deleted, or stopped.
fn joined_removal(part: &str) -> Option<Class> {
    [
        ("del", Class::Destroys),
        ("rm", Class::Destroys),
        ("remove", Class::Destroys),
        ("delete", Class::Destroys),
        ("destroy", Class::Destroys),
        ("purge", Class::Destroys),
        ("drop", Class::Destroys),
        ("kill", Class::Stops),
        ("stop", Class::Stops),
        ("clear", Class::Destroys),
        ("wipe", Class::Destroys),
        ("erase", Class::Destroys),
        ("reset", Class::Destroys),
        ("restart", Class::Stops),
        ("disable", Class::Stops),
        ("start", Class::Changes),
    ]
    .iter()
    .find(|(verb, _)| {
        // After a one-letter suite prefix too (vpopmail's `vdeluser`, `vdeldomain`).
        let bare = part
            .get(1..)
            .filter(|rest| part.as_bytes()[0].is_ascii_lowercase() && rest.starts_with(verb));
        // Everything of a kind said before it (`clearallmessages`).
        let object = |o: &str| {
            JOINED_OBJECTS.contains(&o)
                || o.strip_prefix("all")
                    .is_some_and(|o| o.len() >= 3 && JOINED_OBJECTS.contains(&o))
        };
        part.strip_prefix(verb)
            .or_else(|| bare.and_then(|rest| rest.strip_prefix(verb)))
            .is_some_and(object)
            // Or the object first (`pkgrm`, `groupdel`, `vgremove`).
            || part
                .strip_suffix(verb)
                .is_some_and(|object| {
                    JOINED_OBJECTS.contains(&object) || object == "vg" || object == "lv"
                })
    })
    .map(|(_, class)| *class)
}

/// Whether a secret is named other than as a subcommand's word: the way environments name
/// it (`config get DB_PASSWORD`), by a key path or a keyring's description (`get
/// prod/api-token`, `print %user:gitlab-token`), or by a setting's dotted key
/// (`config database.connection.password`).
fn names_a_secret(c: &Cmd<'_>, subs: &[&str], split: &[Vec<String>]) -> bool {
    access_code(split)
        || subs.iter().zip(split).any(|(w, ps)| {
            w.bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
                && ps.iter().any(|p| SECRETS.contains(&p.as_str()))
        })
        // Or named by an operand the subcommand words stop at: a key path or a keyring's
        // description (`get prod/api-token`, `print %user:gitlab-token`), not a file.
        || c.words().filter(|w| !w.starts_with('-') && !file_like(w)).any(|w| {
            w.contains(['/', ':', '%'])
                && parts(w).iter().any(|p| SECRETS.contains(&p.as_str()))
        })
        // Or a setting's dotted key that ends in one (`config database.connection.password`):
        // no file's extension is a secret's name.
        || c.words().filter(|w| !w.starts_with('-')).any(|w| {
            w.contains('.')
                && w.rsplit('.').next().is_some_and(|last| SECRETS.contains(&last.to_ascii_lowercase().as_str()))
        })
        // Or an option's value that names one as a field's name (`var get -item=password`,
        // `--field api_token`): which value of the entry is printed.
        || {
            let words: Vec<&str> = c.args.iter().filter_map(|a| a.text.as_deref()).collect();
            super::option_pairs(&words).any(|(flag, value)| {
                // (Not a format named for a file's kind: `export --format passwd`.)
                flag.starts_with('-')
                    && flag != "--"
                    && !parts(flag)
                        .last()
                        .is_some_and(|p| matches!(p.as_str(), "format" | "type" | "style"))
                    && value.is_some_and(|v| {
                        !v.starts_with('-')
                            && v.bytes().all(|b| b.is_ascii_lowercase() || b == b'_' || b == b'-')
                            && parts(v).last().is_some_and(|p| SECRETS.contains(&p.as_str()))
                    })
            })
        }
}

/// A code that opens something, said with what it opens or who holds it (`show-master-codes`,
/// `installer codes show`, `show-engineer-code`): a PIN, not source code or a discount.
fn access_code(split: &[Vec<String>]) -> bool {
    split
        .iter()
        .flatten()
        .collect::<Vec<_>>()
        .windows(2)
        .any(|w| {
            matches!(w[1].as_str(), "code" | "codes")
                && matches!(
                    w[0].as_str(),
                    "master"
                        | "engineer"
                        | "installer"
                        | "access"
                        | "admin"
                        | "unlock"
                        | "entry"
                        | "door"
                        | "alarm"
                        | "recovery"
                        | "backup"
                        | "pin"
                        | "override"
                        | "duress"
                )
        })
}

/// A credential's name as a subcommand (`surge token`, `acme api-key`, `evcc token car-1`),
/// beside words that neither act nor look: the credential is printed to whoever asked.
fn lone_credential(split: &[Vec<String>]) -> bool {
    let credential = |w: &Vec<String>| {
        matches!(
            w.iter().map(String::as_str).collect::<Vec<_>>().as_slice(),
            ["token" | "tokens" | "apikey" | "credentials"] | ["api", "key" | "token"]
        )
    };
    let Some(at) = split.iter().position(credential) else {
        return false;
    };
    split
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != at)
        .flat_map(|(_, w)| w)
        .all(|p| classify_form(p).is_none() && !LOOKS.contains(&p.as_str()))
}

/// Words that show what was kept secret.
const DECRYPTS: &[&str] = &["decrypt", "decrypted", "unseal"];

/// Whether a program's name says it keeps secrets (`git-crypt`, `acme-vault`): its `reveal`
/// shows one. Elsewhere `reveal` is a word like any (a slide tool's `decktape reveal` names the
/// reveal.js deck it prints).
fn keeps_secrets(name: &str) -> bool {
    parts(name).iter().any(|p| {
        ["crypt", "secret", "vault", "pass", "key", "seal"]
            .iter()
            .any(|s| p.contains(s))
    })
}

/// A method named for looking (`org.freedesktop.DBus.ListNames`, `GetUnit`): the call only
/// reads.
fn method_looks(c: &Cmd<'_>) -> bool {
    let words: Vec<&str> = c.words().collect();
    words.iter().enumerate().any(|(i, w)| {
        if w.starts_with('-') {
            return false;
        }
        let last = w.rsplit('.').next().unwrap_or(w);
        // A word in capitals right after a flag is that flag's value (`amtapetype -t TEST
        // /dev/…`: a label), not a method; alone it may be a subcommand (`irsend LIST`).
        let value = !last.bytes().any(|b| b.is_ascii_lowercase())
            && i.checked_sub(1).is_some_and(|p| words[p].starts_with('-'));
        camel(last)
            && !value
            && parts(last)
                .first()
                .is_some_and(|p| LOOKS.contains(&p.as_str()))
    })
}

/// `StopUnit`, `PowerOff`: upper-case first, another upper-case letter, letters and digits.
fn camel(word: &str) -> bool {
    word.chars()
        .next()
        .is_some_and(|ch| ch.is_ascii_uppercase())
        && word.chars().skip(1).any(|ch| ch.is_ascii_uppercase())
        && word.chars().all(|ch| ch.is_ascii_alphanumeric())
}

/// A method named for an act (`StopUnit`, `org.freedesktop.systemd1.Manager.DisableUnitFiles`):
/// a CamelCase word, or the last part of a dotted one, that starts with a verb. A word right
/// after a flag counts only when dotted (a test filter's class name is no method call).
fn method_verb(c: &Cmd<'_>) -> Option<Verb> {
    let mut after_flag = false;
    for w in c.words() {
        // What a generator is told to make is named after it (`generate migration
        // EnablePgvector`): a name written into the project, not a method called.
        if matches!(w, "generate" | "g" | "scaffold") {
            return None;
        }
        // What a search is told to find is a pattern (`logs grep 'Manager.PowerOff'`).
        if SEARCHES.contains(&w) {
            return None;
        }
        if w.starts_with('-') {
            after_flag = !w.contains('=');
            continue;
        }
        let flagged = std::mem::take(&mut after_flag);
        // `Service.DeleteUser`, and a gRPC method's `pkg.v1.Service/DeleteUser`.
        let last = w.rsplit(['.', '/']).next().unwrap_or(w);
        if flagged && last.len() == w.len() {
            continue;
        }
        if !camel(last) {
            continue;
        }
        let ps = parts(last);
        let joined = ps.iter().take(2).cloned().collect::<String>();
        if let Some(class) = ps
            .first()
            .and_then(|p| classify(p))
            .or_else(|| classify(&joined))
        {
            return Some(Verb {
                word: w.into(),
                class,
            });
        }
    }
    None
}

/// A flag's parts telling the program to act without stopping to ask (`--auto-apply`,
/// `-auto-approve`, `--auto-deploy`) or at once (`--release-now`): the act a look would have
/// shown first is done.
fn acts_unasked(ps: &[String]) -> bool {
    matches!(
        ps,
        [first, act, ..] if first == "auto"
            && matches!(
                act.as_str(),
                "apply" | "approve" | "confirm" | "deploy" | "merge" | "publish" | "push"
                    // (Paid unasked: `leases renew --auto-pay`, `--auto-charge`.)
                    | "pay" | "charge" | "renew" | "purchase" | "buy"
            )
    )
    // Or at once (`--release-now`, `--deploy-immediately`): an act, not a build profile.
        || matches!(
            ps,
            [act, when] if matches!(when.as_str(), "now" | "immediately")
                && matches!(
                    act.as_str(),
                    "release" | "deploy" | "publish" | "push" | "send" | "submit" | "merge"
                    // (Or bought, paid, issued at once: `--issue-now` on a ticket, `--charge-now`.)
                    | "issue" | "charge" | "pay" | "purchase" | "buy" | "book" | "order"
                    | "refund" | "transfer" | "ship"
                )
        )
}

/// A long flag that says what the command does: named for a destroying act anywhere in it
/// (`--delete-after`, `--zap-all`), starting with a sending one (`--send-keys`, `--push`), or
/// one verb alone (`--remove`, `--set`); a secret's name beside a printing verb
/// (`--export-secret-keys`). A program nobody models may spell long flags with one dash
/// (`openssl ca -revoke`). `--release` is a build profile, not a release.
fn flag_verb(c: &Cmd<'_>) -> Option<Verb> {
    let unknown = known::tier(c.name) == known::Tier::Unknown;
    c.option_words().find_map(|w| {
        let body = long_flag_body(w, unknown)?;
        let ps = parts(body);
        let first = ps.first()?;
        // Aimed at another machine (`--stream-to-host`, `--upload-to-server`): what the
        // program makes is sent there. Or told to act unasked (`--auto-apply`).
        if aimed_elsewhere(&ps) || unknown && sends_by_flag(c, w, &ps) {
            return Some(Verb {
                word: w.into(),
                class: Class::Reaches,
            });
        }
        if unknown && single_dash_deletes(w, body, &ps) && !names_a_format(c, w, body)
            || ps.iter().any(|p| p == "factory")
        {
            return Some(Verb {
                word: w.into(),
                class: Class::Destroys,
            });
        }
        // A printing verb joined to a secret's name (`-dumpmasterkey`, `--printprivkey`): one
        // part, already in lower case.
        if ps.len() == 1
            && PRINTS.iter().any(|p| {
                first.strip_prefix(p).is_some_and(|rest| {
                    ["key", "secret", "password", "passwd", "token"]
                        .iter()
                        .any(|s| rest.contains(s))
                })
            })
        {
            return Some(Verb {
                word: w.into(),
                class: Class::Reveals,
            });
        }
        let unhidden = unhides(c, &ps);
        if unknown && unhidden {
            return Some(Verb {
                word: w.into(),
                class: Class::Reveals,
            });
        }
        if unknown && switches_off_safeguard(&ps) || turns_off(c.name, &ps) {
            return Some(Verb {
                word: w.into(),
                class: Class::Stops,
            });
        }
        if matches!(
            first.as_str(),
            "no" | "skip" | "keep" | "without" | "release"
        ) || ps.last().is_some_and(|l| l == "only")
            && ps
                .iter()
                .any(|p| matches!(p.as_str(), "view" | "read" | "watch"))
        {
            // (Shared to be watched only: `--share-view-only`.)
            return None;
        }
        // Told only to show what is hidden (`secrets:list --reveal`, `--unmask`): the values
        // a listing masks are secrets. Or to print a key (`--show-key`, `--print-keys`).
        if shows_what_is_hidden(c, w, &ps) {
            return Some(Verb {
                word: w.into(),
                class: Class::Reveals,
            });
        }
        let any = |set: &[&str]| ps.iter().any(|p| set.contains(&p.as_str()));
        // `--show-secrets`, and the flags that ask for them to be included in what is
        // printed (`--with-secrets`, `--include-secrets`, `--unmask-passwords`).
        let asks_in = asks_them_in(&ps);
        let removes = unknown
            && (removing_flag(c, &ps)
                || clears_records(&ps)
                || ps.len() == 1 && empties_its_dir(c, first));
        // What a tool calls sensitive is what it masks (`--show-sensitive`).
        let class = if (any(SECRETS) || any(&["sensitive"]) || asks_in && any(&["key", "keys"]))
            && (any(PRINTS) || asks_in)
        {
            Class::Reveals
        } else if destroying_flag_parts(&ps)
            || removes
            || unknown && ps.len() == 1 && puts_back_settings(first)
        {
            Class::Destroys
        } else if SENDING_FLAGS.contains(&first.as_str())
            || posts_elsewhere(c, w, &ps)
            // A write to a device named by its hardware address (`gatttool -b AA:BB:…
            // --char-write-req -a 0x25 -n 01`): the device acts on it.
            || unknown && ps.iter().any(|p| p == "write") && names_hardware_address(c)
            // `--publish always` releases a build; `--publish 5432:5432` is a port.
            || first == "publish" && ps.len() == 1 && !publishes_a_port(c, w)
        {
            Class::Reaches
        } else {
            acting_flag(c, &ps, unknown)?
        };
        Some(Verb {
            word: w.into(),
            class,
        })
    })
}

/// Flag parts that ask for secrets to be included in what is printed (`--with-secrets`,
/// `--include-secrets`, `--unmask-passwords`, `--secrets-included`, `--secret-in-output`).
fn asks_them_in(ps: &[String]) -> bool {
    ps.iter().any(|p| {
        matches!(
            p.as_str(),
            "with"
                | "include"
                | "including"
                | "included"
                | "reveal"
                | "unmask"
                | "plaintext"
                | "unredacted"
                // (`--plain-secrets`, `--cleartext-passwords`, `--dsn-full`.)
                | "plain"
                | "cleartext"
                | "full"
                // (`--unmasked-secrets`, `--api-secret-visible`, `--field-secrets-shown`.)
                | "unmasked"
                | "visible"
                | "shown"
                // (`--secrets-inline`, `--passwords-inline`: written into what is printed.)
                | "inline"
        )
    }) || ps.windows(2).any(|p| p[0] == "in" && p[1] == "output")
}

/// A long flag's name without its dashes and value; for a program nobody models, a
/// single-dash long flag too, camelCase or PascalCase (`-deleteProject`, `-DeleteJob`).
fn long_flag_body(w: &str, unknown: bool) -> Option<&str> {
    let body = w.strip_prefix("--").or_else(|| {
        w.strip_prefix('-').filter(|b| {
            unknown
                && (b.len() >= 4 || DELETES.contains(b))
                && b.starts_with(|c: char| c.is_ascii_alphabetic())
                && b.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        })
    })?;
    Some(body.split('=').next().unwrap_or(body))
}

/// A flag that tells a program nobody models to act unasked, to send to someone, to notify
/// whom a record concerns, or to mail what it makes.
fn sends_by_flag(c: &Cmd<'_>, w: &str, ps: &[String]) -> bool {
    // `post` before a stage given a command line is when it runs (`--post-arm 'echo armed'`),
    // whatever the stage is called: the line is judged where it runs.
    let hook = || {
        ps.first().is_some_and(|p| p == "post")
            && flag_value(c, w).is_some_and(|v| {
                v.contains(' ')
                    && v.split_whitespace().next().is_some_and(|first| {
                        known::is_program(first.rsplit('/').next().unwrap_or(first))
                    })
            })
    };
    acts_unasked(ps)
        || sends_to_someone(ps) && !hook()
        || notifies_them(c, ps)
        || mails_by_switch(c, w, ps)
}

/// A flag aimed at another machine (`--stream-to-host`, `--upload-to-server`).
fn aimed_elsewhere(ps: &[String]) -> bool {
    ps.windows(2)
        .any(|w| w[0] == "to" && matches!(w[1].as_str(), "host" | "server" | "remote" | "peer"))
}

/// A switch that has what a subcommand makes mailed or texted (`notices serve --case C
/// --email`, `portal invite --client C --email-organizer`): it goes out to people. Given a
/// value, it is an address or a setting ([`mail_flag`] judges addresses).
fn mails_by_switch(c: &Cmd<'_>, w: &str, ps: &[String]) -> bool {
    ps.first()
        .is_some_and(|p| matches!(p.as_str(), "email" | "mail" | "sms"))
        && !ps.iter().skip(1).any(|p| {
            matches!(
                p.as_str(),
                "address" | "addr" | "from" | "to" | "template" | "format" | "subject" | "only"
            )
        })
        && !given_a_value(c, w)
        && !subcommands(c).is_empty()
        // (A listing's column: `users list --email`.)
        && !looks(c)
}

/// A flag that tells whoever a record concerns (`--notify-owner`, `--notify-all`), or
/// `--notify` alone where a verb acts on a record named by its noun (`claim deny --id C
/// --notify`, `berth assign … --notify`): a message goes out to them. Not a setting of the
/// notice (`--notify-url`, `--notify-on-failure`), nor `--notify` to a program with no such
/// verb, where it is the person's own desktop notice (`jest --notify`).
fn notifies_them(c: &Cmd<'_>, ps: &[String]) -> bool {
    const OF_THE_NOTICE: &[&str] = &[
        "on", "if", "when", "url", "webhook", "hook", "sound", "desktop", "os", "me", "self",
        "local", "command", "cmd", "script", "channel", "level", "interval", "timeout", "delay",
        "format", "mode", "config", "file", "path", "dir", "only", "send",
    ];
    match ps {
        [notify] => notify == "notify" && subcommands(c).len() >= 2,
        [notify, rest @ ..] => {
            notify == "notify" && !rest.iter().any(|p| OF_THE_NOTICE.contains(&p.as_str()))
        }
        _ => false,
    }
}

/// Told not to hide what it prints (`--no-mask`, `--no-redact`), or to print secrets in the
/// clear (`--passwords-in-clear`, `--cleartext` beside keys).
fn unhides(c: &Cmd<'_>, ps: &[String]) -> bool {
    match ps {
        [no, what] => {
            no == "no"
                && matches!(
                    what.as_str(),
                    "mask" | "masking" | "redact" | "redaction" | "obfuscate"
                )
        }
        // (`--plaintext` alone is a connection without TLS: `grpcurl -plaintext`.)
        [one] => {
            one == "cleartext"
                && c.words()
                    .flat_map(parts)
                    .any(|p| SECRETS.contains(&p.as_str()) || matches!(p.as_str(), "key" | "keys"))
        }
        _ => {
            ps.windows(2).any(|p| p[0] == "in" && p[1] == "clear")
                && ps
                    .iter()
                    .any(|p| SECRETS.contains(&p.as_str()) || matches!(p.as_str(), "key" | "keys"))
        }
    }
}

/// A flag told only to show what is hidden (`secrets:list --reveal`, `--unmask`): the values a
/// listing masks are secrets. Or to print a key (`--show-key`), or a secret's name as a
/// looking subcommand's switch ([`secret_asked_of_a_look`]).
fn shows_what_is_hidden(c: &Cmd<'_>, w: &str, ps: &[String]) -> bool {
    matches!(ps, [one] if matches!(one.as_str(), "reveal" | "unmask" | "unmasked" | "unredacted"))
        || prints_a_key(ps)
        || secret_asked_of_a_look(c, w, ps)
        || values_of_secrets(c, ps)
}

/// Told to show in full what a subcommand about secrets lists (`tokens list --reveal-values`,
/// `integrations keys --show-full`): the values it would mask.
fn values_of_secrets(c: &Cmd<'_>, ps: &[String]) -> bool {
    let secretish = |p: &str| SECRETS.contains(&p) || matches!(p, "key" | "keys");
    // (`--secret-values`, `--secret-fields`: the flag names them itself.)
    let named = ps.len() == 2
        && secretish(&ps[0])
        && matches!(ps[1].as_str(), "values" | "value" | "fields" | "field");
    let unhiding = |p: &str| {
        matches!(
            p,
            "reveal" | "unmask" | "unmasked" | "show" | "print" | "plain" | "in" | "as"
        )
    };
    let what = |p: &str| {
        matches!(
            p,
            "values" | "value" | "full" | "all" | "raw" | "plaintext" | "output"
        )
    };
    // (Either order: `--reveal-values`, `--values-unmasked`, `--unmasked-output`.)
    let shown = matches!(ps, [a, b] if unhiding(a) && what(b) || what(a) && unhiding(b))
        || matches!(ps, [one] if matches!(one.as_str(), "decrypted" | "decrypt" | "plaintext"));
    // (Masks taken off by name under a subcommand that prints need no secret's name:
    // `integrations show --values-unmasked`; `--show-values` does, and `report
    // --values-unmasked` prints no settings.)
    let unmasked = ps
        .iter()
        .any(|p| matches!(p.as_str(), "reveal" | "unmask" | "unmasked"))
        && subcommands(c)
            .iter()
            .any(|s| parts(s).iter().any(|p| PRINTS.contains(&p.as_str())));
    named
        || shown
            && (unmasked
                || subcommands(c)
                    .iter()
                    .any(|s| parts(s).iter().any(|p| secretish(p))))
}

/// A secret's name as a switch of a looking subcommand (`accounts show --password --user U`,
/// `app get --secret`): the secret is asked to be shown. Given a value (`--password X`), it
/// is a login, not a request.
fn secret_asked_of_a_look(c: &Cmd<'_>, w: &str, ps: &[String]) -> bool {
    // (Whose secret it is may come first: `--signing-secret`, `--db-password`.)
    if !ps.last().is_some_and(|last| {
        matches!(
            last.as_str(),
            "password" | "passwd" | "secret" | "secrets" | "token" | "pin" | "key" | "creds"
        )
    }) || ps.len() > 3
        || w.contains('=')
    {
        return false;
    }
    let words: Vec<&str> = c.option_words().collect();
    let switch = words
        .iter()
        .position(|x| *x == w)
        .is_none_or(|i| words.get(i + 1).is_none_or(|next| next.starts_with('-')));
    switch
        && subcommands(c).iter().any(|s| {
            // (A looking verb before what it looks at: `show-connection`, `get-config`.)
            parts(s).first().is_some_and(|v| {
                matches!(
                    v.as_str(),
                    "show" | "get" | "view" | "display" | "print" | "describe"
                )
            })
        })
}

/// A flag that names a sending act and whom it reaches (`--publish-to-players`,
/// `--dispatch-to-drivers`), or a publishing act and what it publishes (`--publish-routes`,
/// `--broadcast-alerts`): what the program makes goes out to people. A publishing act's
/// setting is no act (`--publish-dir dist`, `--publish-port 8080`).
fn sends_to_someone(ps: &[String]) -> bool {
    const SENDS: &[&str] = &[
        "announce",
        "broadcast",
        "deliver",
        "dispatch",
        "forward",
        "notify",
        "post",
        "publish",
        "push",
        "send",
        "submit",
        "transmit",
        "upload",
    ];
    const PUBLISHES: &[&str] = &["announce", "broadcast", "dispatch", "publish", "transmit"];
    const SETTINGS: &[&str] = &[
        "dir",
        "directory",
        "path",
        "folder",
        "root",
        "port",
        "ports",
        "format",
        "mode",
        "config",
        "file",
        "id",
        "name",
        "level",
        "interval",
        "timeout",
        "delay",
        "host",
    ];
    // `--post-results F`; `post` before a stage is when, not an act (`--post-process`).
    const AFTER: &[&str] = &[
        "process",
        "processing",
        "processor",
        "install",
        "hook",
        "hooks",
        "build",
        "run",
        "script",
        "command",
        "cmd",
        "action",
        "step",
        "init",
        "mortem",
        "merge",
        "checkout",
        "commit",
        "receive",
        "update",
        "render",
        "exec",
        // Or a post as a noun, and a setting of it (`instaloader --post-filter=…`).
        "filter",
        "filters",
        "count",
        "limit",
        "id",
        "ids",
        "type",
        "pattern",
        "format",
        "metadata",
        "date",
        "dir",
        "path",
    ];
    match ps {
        [act, to, _, ..] if to == "to" => SENDS.contains(&act.as_str()),
        [act, object, ..] if act == "post" => !AFTER.contains(&object.as_str()),
        [act, rest @ ..] if !rest.is_empty() && PUBLISHES.contains(&act.as_str()) => !rest
            .iter()
            .any(|p| SETTINGS.contains(&p.as_str()) || matches!(p.as_str(), "on" | "if" | "when")),
        _ => false,
    }
}

/// A flag that clears, discards or cancels what a program keeps (`--clear-attendance`,
/// `--discard-expired-units`, `--cancel-bookings`): records are gone. Not what it keeps only
/// to save time or show (`--clear-cache`, `--clear-screen`, `--clear-out`), nor when it
/// happens (`--cancel-on-failure`, `--expire-after 30`).
fn clears_records(ps: &[String]) -> bool {
    const CLEARS: &[&str] = &[
        "cancel",
        "clear",
        "decommission",
        "discard",
        "evict",
        "expire",
        "flush",
        "void",
    ];
    const SCRATCH: &[&str] = &[
        "build", "builds", "cache", "caches", "console", "log", "logs", "out", "output", "outputs",
        "screen", "scratch", "temp", "terminal", "tmp",
    ];
    const WHEN: &[&str] = &["after", "before", "if", "on", "when", "at", "every"];
    match ps {
        [act, rest @ ..] if !rest.is_empty() && CLEARS.contains(&act.as_str()) => !rest
            .iter()
            .any(|p| SCRATCH.contains(&p.as_str()) || WHEN.contains(&p.as_str())),
        _ => false,
    }
}

/// A device's or a program's own settings put back, said in one word (`--restoredefaults`,
/// `--factoryreset`, `--resetdevice`), as `--restore-defaults` says it in two.
fn puts_back_settings(word: &str) -> bool {
    const ACTS: &[&str] = &["reset", "restore", "clear", "erase", "wipe"];
    const SETTINGS: &[&str] = &[
        "defaults", "default", "settings", "device", "factory", "config",
    ];
    let joined = |a: &[&str], b: &[&str]| {
        a.iter()
            .any(|x| word.strip_prefix(x).is_some_and(|rest| b.contains(&rest)))
    };
    joined(ACTS, SETTINGS) || joined(&["factory"], &["reset", "restore", "defaults", "default"])
}

/// Whether the first subcommand only checks or explains (`check`, `lint`, `doctor`, `help`).
fn checks_first(c: &Cmd<'_>) -> bool {
    // (The first, or after a noun the second: `config validate F`.)
    subcommands(c).iter().take(2).any(|w| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "check" | "lint" | "validate" | "audit" | "doctor" | "help" | "explain"
        )
    })
}

/// A flag of two words that prints a key (`--show-key`, `--print-keys`): a stream's or an
/// account's key.
fn prints_a_key(ps: &[String]) -> bool {
    // Or asked to include it in what is printed (`license show --with-key`).
    matches!(ps, [verb, key] if matches!(verb.as_str(), "show" | "print" | "reveal" | "dump"
            | "with" | "include" | "including")
        && matches!(key.as_str(), "key" | "keys"))
        // With the key's kind between (`--show-api-key`, `--print-access-token`).
        || matches!(ps, [verb, kind, key]
            if matches!(verb.as_str(), "show" | "print" | "reveal" | "dump" | "display")
                && (matches!(kind.as_str(), "api" | "access" | "secret" | "private" | "signing"
                    | "master" | "auth" | "license" | "licence" | "product" | "activation"
                    | "recovery" | "encryption" | "unlock")
                    && matches!(key.as_str(), "key" | "keys")
                    // Whoever's PIN or password it is (`--print-dealer-pin`), unless public.
                    || !matches!(kind.as_str(), "public" | "pub" | "host")
                        && matches!(key.as_str(), "token" | "secret" | "pin" | "password"
                            | "passcode" | "passphrase" | "cookie" | "cookies" | "credentials")))
}

/// A flag named for mail or a recipient given an address (`--email orders@glass.example.com`,
/// `--alert-to ops@example.net`): what the program makes is mailed there.
fn mail_flag(c: &Cmd<'_>, w: &str, ps: &[String]) -> bool {
    ps.iter().any(|p| {
        matches!(
            p.as_str(),
            "email" | "mail" | "mailto" | "notify" | "alert" | "recipient" | "recipients" | "cc"
        )
    }) && !ps
        .iter()
        .any(|p| matches!(p.as_str(), "from" | "sender" | "author" | "user"))
        && flag_value(c, w).is_some_and(|v| {
            v.split_once('@').is_some_and(|(user, host)| {
                !user.is_empty() && host.contains('.') && !host.contains('/')
            })
        })
}

/// A place to send to, named with the act (`--url_post=https://…/upload`, `--upload-url
/// https://…`) and given another machine's address, or an address to mail ([`mail_flag`]):
/// what the program makes is posted there.
fn posts_elsewhere(c: &Cmd<'_>, w: &str, ps: &[String]) -> bool {
    if mail_flag(c, w, ps) {
        return true;
    }
    // Shared with everyone (`--share F --public`), or with someone by their address
    // (`--share-session S --with coach@example.org`).
    if ps.first().is_some_and(|p| p == "share")
        && c.words().any(|x| {
            x == "--public"
                || x.split_once('@').is_some_and(|(u, h)| {
                    !u.is_empty() && !u.starts_with('-') && h.contains('.') && !h.contains('/')
                })
        })
    {
        return true;
    }
    let act = ps
        .iter()
        .any(|p| matches!(p.as_str(), "post" | "upload" | "send" | "submit" | "push"));
    let place = || {
        ps.iter()
            .any(|p| matches!(p.as_str(), "url" | "endpoint" | "host" | "server"))
    };
    // Or the act alone given a URL (`--upload https://ns.example.org/api/v1/treatments`).
    act && flag_value(c, w)
        .is_some_and(|v| (place() || v.contains("://")) && super::targets::names_host(v))
}

/// The value a flag is given: after its `=`, or the next word when that is no flag.
fn flag_value<'a>(c: &'a Cmd<'_>, flag: &str) -> Option<&'a str> {
    let words: Vec<&'a str> = c.option_words().collect();
    let at = words.iter().position(|w| *w == flag)?;
    match words[at].split_once('=') {
        Some((_, v)) => Some(v),
        None => words.get(at + 1).copied().filter(|n| !n.starts_with('-')),
    }
}

/// Whether a word is a device's hardware address (`AA:BB:CC:DD:EE:FF`, a Bluetooth or an
/// Ethernet address).
fn names_hardware_address(c: &Cmd<'_>) -> bool {
    c.words().any(|w| {
        let groups: Vec<&str> = w.split(':').collect();
        groups.len() == 6
            && groups
                .iter()
                .all(|g| g.len() == 2 && g.bytes().all(|b| b.is_ascii_hexdigit()))
    })
}

/// Whether a long flag's parts name a destroying act (`--delete-data`, `--drop-db`). `drop`
/// after another word is as often a noun (`--frame-drop`, `--packet-drop`): an act only
/// first, or after a manner (`--force-drop`).
fn destroying_flag_parts(ps: &[String]) -> bool {
    ps.iter().enumerate().any(|(i, p)| {
        DESTROYING_FLAGS.contains(&p.as_str())
            && (p != "drop" || i == 0 || matches!(ps[i - 1].as_str(), "force" | "hard"))
    })
}

/// `-format json`, `-format plantuml`: the format of what it writes, given as a word; not a
/// disk or a path to format.
fn names_a_format(c: &Cmd<'_>, w: &str, body: &str) -> bool {
    body == "format"
        && c.words()
            .skip_while(|x| *x != w)
            .nth(1)
            .is_some_and(|v| !v.starts_with(['-', '/', '~', '.']) && !v.contains('/'))
}

/// A file system's own verb as a single-dash flag (`dfs -rm -r …`, `-del`), or a vendor's
/// PascalCase flag that ends in its verb (`megacli -CfgLdDel`: the object, then the act). (A
/// device's factory reset, `--factory-reset=…`, is its caller's.)
fn single_dash_deletes(w: &str, body: &str, ps: &[String]) -> bool {
    !w.starts_with("--")
        && (DELETES.contains(&body)
            || ps.len() >= 2
                && body.starts_with(|c: char| c.is_ascii_uppercase())
                && ps.last().is_some_and(|p| DELETES.contains(&p.as_str())))
}

/// A safeguard switched off by a flag (`--disable-crypto`, `--no-tls`, `--disable-auth`):
/// whoever reaches the program is no longer kept out. (A sandbox left out is a safeguard
/// skipped, the rules' `skips-safeguard`.)
fn switches_off_safeguard(ps: &[String]) -> bool {
    matches!(
        ps,
        [first, guard] if matches!(first.as_str(), "no" | "disable" | "without")
            && guard != "sandbox"
            && SAFEGUARDS.contains(&guard.as_str())
    )
}

/// Whether an operand reads as a file of the project: a relative path (`tests/a.mp3`,
/// `song.flac`), not an id, a name or a number.
fn project_file(t: &str) -> bool {
    let relative =
        !t.starts_with(['/', '~', '$', '-']) && !t.starts_with("..") && !t.contains("://");
    let extension = t.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=5).contains(&ext.len())
            && ext.bytes().all(|b| b.is_ascii_alphanumeric())
            && ext.bytes().any(|b| b.is_ascii_alphabetic())
    });
    relative && (t.contains('/') || extension)
}

/// The verbs a flag of a program nobody models starts with when the flag is the act of taking
/// something away (`--remove-node`, `-DeleteJob`).
const REMOVING: &[&str] = &["remove", "delete", "destroy", "purge", "erase", "wipe"];

/// Long flags of one word that say the command destroys or stops (`gem owner --remove`); most
/// verbs alone as a flag are modifiers (`--rm`, `--format`, `--set`).
const ONE_WORD_FLAGS: &[&str] = &[
    "disable",
    // A running instance told to start again or to halt (`xscreensaver-command -restart`):
    // what it was doing stops. (Not `-exit` or `-quit`: batch tools are told so to end when
    // their work is done, `Unity -batchmode -quit`.)
    "halt",
    "kill",
    "reboot",
    "remove",
    "restart",
    "shutdown",
    "stop",
    "uninstall",
    "wipe",
];

/// Of a program nobody models, a flag that starts with removing names the act and its object
/// (`--remove-node`, `--removenode`, `-DeleteJob`); a modelled program's such flags are its
/// rules' (`--remove-orphans`). Said of the project's own files (`--remove-all-comments
/// tests/a.mp3`), it edits them.
fn removing_flag(c: &Cmd<'_>, ps: &[String]) -> bool {
    let Some(first) = ps.first() else {
        return false;
    };
    !c.operands()
        .any(|a| a.text.as_deref().is_some_and(project_file))
        && REMOVING.iter().any(|v| {
            first == v || ps.len() == 1 && first.strip_prefix(v).is_some_and(|rest| rest.len() >= 3)
        })
}

/// A flag of one word that is the act (`--kill`, `-restart`); a controller's `-exit` ends
/// the running instance it controls (`xscreensaver-command -exit`), not its own run.
fn one_word_flag(name: &str, word: &str) -> Option<Class> {
    if ONE_WORD_FLAGS.contains(&word) {
        Some(Class::Destroys)
    } else if matches!(
        word,
        "refund" | "charge" | "pay" | "payout" | "purchase" | "autopay" | "autocharge"
    ) {
        // Money moved by a flag of one word (`--refund 88121 --amount 18.00`).
        Some(Class::Reaches)
    } else if word == "handover" {
        // Control handed to another party by a flag of one word (`session --handover`).
        Some(Class::Reaches)
    } else if matches!(word, "cancel" | "void") {
        // A booking or an order called off by a flag of one word (`--cancel 20231`).
        Some(Class::Stops)
    } else if matches!(word, "exit" | "quit") && controls_a_running_instance(name) {
        Some(Class::Stops)
    } else {
        None
    }
}

/// A lone emptying flag beside the one directory it can mean (`--photo-cache D --clear`):
/// the flag is the act, whatever the program's name says it is for.
fn empties_its_dir(c: &Cmd<'_>, first: &str) -> bool {
    matches!(
        first,
        "purge" | "clean" | "clear" | "wipe" | "empty" | "delete"
    ) && {
        // A value only the shell knows counts as written (`--photo-cache "$PWD/build/bg"`).
        super::dir_emptied_by_flag(&super::words_as_written(c)).is_some()
    }
}

/// A flag that is itself the act: one word (`--kill`, `--refund`), an act and its object
/// (`--charge-card`), or a device's act on its port (`--fire-cue`).
fn acting_flag(c: &Cmd<'_>, ps: &[String], unknown: bool) -> Option<Class> {
    let first = ps.first()?;
    if ps.len() == 1
        && let Some(class) = one_word_flag(c.name, first)
    {
        Some(class)
    } else if !unknown {
        None
    } else if let Some(class) = act_on_object(ps) {
        Some(class)
    } else if ps == ["apply"]
        || ps == ["execute"]
            && !subcommands(c).is_empty()
            // (Given code, `--execute="echo …"`, it runs that: the code is judged.)
            && !given_a_value(c, "--execute")
            // (A file run is its own code: `nbconvert --execute nb.ipynb`.)
            && !c.operands().filter_map(|a| a.text.as_deref()).any(|w| {
                w.contains('/')
                    || w.rsplit_once('.').is_some_and(|(s, e)| {
                        !s.is_empty() && !e.is_empty() && e.bytes().all(|b| b.is_ascii_alphabetic())
                    })
            })
    {
        // Told to apply what it was given, not only to show it (`setpoint --temp 34 --apply`,
        // `maneuver --burn 0.42 --execute`: the switch that makes a plan happen).
        Some(Class::Changes)
    } else if ps == ["off"] {
        // Switched off by a switch of its own (`scanner id-verification --off`).
        Some(Class::Stops)
    } else if (ps == ["on"] && !on_a_day(c) || ps == ["start"] && !given_a_value(c, "--start"))
        && !subcommands(c).is_empty()
    {
        // Or a device named by its words switched on (`fixtures hazer --on --level 100`): what
        // it drives starts. (Not a machine named alone, `pm --on "$(hostname -s)"`: it is on.)
        Some(Class::Actuates)
    } else if ps.len() >= 2
        && ps[1..]
            .iter()
            .any(|p| matches!(p.as_str(), "live" | "production" | "prod"))
        && matches!(
            first.as_str(),
            "replace" | "overwrite" | "update" | "push" | "swap" | "go"
        )
    {
        // What is live replaced by what it is given (`show load --file F --replace-live`).
        Some(Class::Changes)
    } else if matches!(ps, [f] if matches!(f.as_str(), "set" | "state" | "power" | "switch"))
        && switched_off_by_value(c, first)
    {
        // Set to off (`pump --set off`): what it drives stops.
        Some(Class::Stops)
    } else {
        (actuates(first) && super::serial_port(c)).then_some(Class::Actuates)
    }
}

/// Whether the long flag `--NAME` is given `off` or `stop` as its value (`--set off`,
/// `--state=off`).
fn switched_off_by_value(c: &Cmd<'_>, name: &str) -> bool {
    let words: Vec<&str> = c.option_words().collect();
    let flag = format!("--{name}");
    words.iter().enumerate().any(|(i, w)| {
        let value = if *w == flag {
            words.get(i + 1).copied()
        } else {
            w.strip_prefix(flag.as_str())
                .and_then(|r| r.strip_prefix('='))
        };
        value.is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "off" | "stop" | "stopped"))
    })
}

/// A flag that is an act and what it is done to (`--charge-card 55012`, `--pay-vendor 412`,
/// `--refund-pass P`, `--stop-pump 4`, `--retire-vehicle V`): money moves, or a thing stops or
/// leaves service. A setting of the act (`--charge-limit 80`, `--stop-after 5`), when it
/// happens (`--stop-on-error`, `--kill-after 10`) or a program's own helpers (`--kill-others`)
/// are no act.
fn act_on_object(ps: &[String]) -> Option<Class> {
    const MONEY: &[&str] = &[
        "bill", "buy", "charge", "pay", "payout", "purchase", "refund", "sell",
    ];
    // (People sent out of a session: `--kick-guests`, `--eject-all`.)
    const HALTS: &[&str] = &[
        "halt", "kill", "retire", "shutdown", "stop", "kick", "eject",
    ];
    const NOT_OBJECTS: &[&str] = &[
        "after",
        "at",
        "before",
        "count",
        "currency",
        "date",
        "delay",
        "dir",
        "every",
        "file",
        "first",
        "format",
        "id",
        "if",
        "interval",
        "level",
        "limit",
        "limits",
        "method",
        "mode",
        "on",
        "others",
        "path",
        "period",
        "rate",
        "signal",
        "size",
        "threshold",
        "time",
        "timeout",
        "type",
        "when",
        "word",
        "words",
    ];
    let [act, rest @ ..] = ps else {
        return None;
    };
    if rest.is_empty() && act != "sell" || rest.iter().any(|p| NOT_OBJECTS.contains(&p.as_str())) {
        return None;
    }
    // Control of what it drives handed to someone else (`--hand-control-to engineer-07`,
    // `--handover-to`, `--grant-control`).
    let hands_over = act == "handover"
        || act == "hand" && rest.first().is_some_and(|p| p == "over")
        || matches!(
            act.as_str(),
            "hand" | "give" | "grant" | "transfer" | "pass" | "cede"
        ) && rest.iter().any(|p| p == "control");
    // Costs agreed to by a flag (`--accept-charges`, `--approve-fees`): money is spent.
    let accepts_costs = matches!(
        act.as_str(),
        "accept" | "approve" | "authorize" | "authorise"
    ) && rest.iter().any(|p| {
        matches!(
            p.as_str(),
            "charge" | "charges" | "fee" | "fees" | "cost" | "costs" | "payment" | "payments"
        )
    });
    if MONEY.contains(&act.as_str()) || hands_over || accepts_costs {
        Some(Class::Reaches)
    } else if HALTS.contains(&act.as_str()) {
        Some(Class::Stops)
    } else {
        None
    }
}

/// A program nobody models, pointed at a board's or a device's serial port and told by a
/// subcommand to rewrite it (`connexx_fit.py program --port /dev/ttyACM0 --fit F`, `firmware
/// update --port …`): what the attached device runs or does is replaced.
fn rewrites_a_device(c: &Cmd<'_>) -> Option<Verb> {
    const WRITES: &[&str] = &[
        "program",
        "flash",
        "write",
        "update",
        "upgrade",
        "burn",
        "load",
        "upload",
        "install",
        "erase",
        "configure",
        "provision",
        "calibrate",
        "fit",
        "apply",
    ];
    if known::tier(c.name) != known::Tier::Unknown || !super::serial_port(c) {
        return None;
    }
    let subs = subcommands(c);
    let first_look = subs
        .iter()
        .position(|w| LOOKS.contains(&w.to_ascii_lowercase().as_str()));
    subs.iter()
        .take(first_look.unwrap_or(subs.len()))
        .find(|w| {
            let ps = parts(w);
            // (`read_flash`: the flash read, not written.)
            ps.iter().any(|p| WRITES.contains(&p.as_str()))
                && !ps.iter().any(|p| LOOKS.contains(&p.as_str()))
        })
        .map(|w| Verb {
            word: (*w).to_string(),
            class: Class::Actuates,
        })
}

/// A flag's first part that makes a device act in the world (`--fire-cue 12`, `--open-valve`,
/// `--dispense 3`), said to a program pointed at a board's port: a cue fires, a gate opens.
fn actuates(first: &str) -> bool {
    matches!(
        first,
        "fire"
            | "ignite"
            | "detonate"
            | "trigger"
            | "arm"
            | "launch"
            | "actuate"
            | "activate"
            | "energize"
            | "energise"
            | "dispense"
            | "eject"
            | "open"
            | "unlock"
            | "vend"
    )
}

/// A program named as the controller of a running instance (`xscreensaver-command`,
/// `acmectl`, `acme-remote`, `acme-client`): what it is told, the instance does.
fn controls_a_running_instance(name: &str) -> bool {
    let ps = parts(name);
    ps.len() >= 2
        && ps.last().is_some_and(|p| {
            matches!(
                p.as_str(),
                "command" | "ctl" | "control" | "remote" | "client" | "msg"
            )
        })
        || name.len() > 4 && (name.ends_with("ctl") || name.ends_with("msg"))
}

/// A flag that switches something off (`--turnoff`, `--turn-off`, `--power-off-on-close`,
/// `--switch-off`): a device or a service stops.
fn turns_off(name: &str, ps: &[String]) -> bool {
    match ps {
        [one, ..] if matches!(one.as_str(), "turnoff" | "switchoff") => true,
        // A device or a machine put to sleep by a flag of one word (`cec-ctl --to 0
        // --standby`), unless the program only asks whether it could (`pm-is-supported
        // --suspend`).
        [one] if matches!(one.as_str(), "standby" | "suspend" | "hibernate") => !parts(name)
            .iter()
            .any(|p| matches!(p.as_str(), "is" | "can" | "has")),
        [verb, off, ..] => {
            matches!(verb.as_str(), "turn" | "power" | "switch" | "shut")
                && matches!(off.as_str(), "off" | "down")
        }
        _ => false,
    }
}

/// Long flags that start by sending something away (`--send-keys`, `--push`).
/// (`--publish` is a port mapping to `docker run`.)
const SENDING_FLAGS: &[&str] = &[
    "deploy", "merge", "push", "send", "submit", "upload",
    // Money paid in or out with the act (`batch finalize --deposit`, `--refund`, `--payout`).
    "deposit", "refund", "payout",
    // Handed to others (`bans add … --share-network`).
    "share",
    // Put on the air (`sart test --transmit`): a beacon's test is heard by rescuers.
    "transmit",
];

/// A switch that takes away a program's own safeguard: its confirmation (`--yes`, `-y`,
/// `--force`, `--no-confirm`), or its safety or sandbox (`--unsafe`, `-S unsafe`,
/// `-dNOSAFER`, `--no-sandbox`, `--insecure`). A program asks before an act with
/// consequences; an agent that answers for the person has skipped the person.
pub(super) fn skips_safeguard(c: &Cmd<'_>) -> Option<String> {
    let words: Vec<&str> = c.option_words().collect();
    words
        .iter()
        .enumerate()
        .find_map(|(i, &w)| {
            // Not when it takes a value no yes-switch takes (`-y 4/mmm`, a crystal's point group;
            // `-y 01`): a word that starts with a digit after it.
            if w == "-y"
                && !words
                    .get(i + 1)
                    .is_some_and(|n| n.starts_with(|ch: char| ch.is_ascii_digit()))
            {
                return Some(w.to_string());
            }
            let flag = w.strip_prefix("--").or_else(|| w.strip_prefix('-'))?;
            let ps = parts(flag.split('=').next().unwrap_or(flag));
            let has = |x: &str| ps.iter().any(|p| p == x);
            // `--force`, and the single-dash long form some programs use (`unison -force`).
            // `--force-exit`, `--force-color`: done by force, an act that asks nobody anything;
            // `--force-overwrite`, `--force-delete` do skip a question.
            let forced = |p: &str| {
                p != "force"
                    || ps.len() == 1
                    || ps[1..].iter().any(|q| {
                        classify(q).is_some()
                            || matches!(q.as_str(), "overwrite" | "yes" | "all" | "clean")
                    })
            };
            let confirms = (w.starts_with("--") || flag.len() > 2)
                && (ps.first().is_some_and(|p| {
                    matches!(p.as_str(), "yes" | "force" | "noconfirm") && forced(p)
                }) || has("confirm")
                    && ps
                        .first()
                        .is_some_and(|p| matches!(p.as_str(), "no" | "skip"))
                    || ps.first().is_some_and(|p| p == "assume") && has("yes")
                    || w.starts_with("--") && consents(&ps, flag));
            // `-S unsafe`, `--mode=unsafe`: the value names it.
            let value = flag
                .split_once('=')
                .map(|(_, v)| v)
                .or_else(|| words.get(i + 1).copied().filter(|n| !n.starts_with('-')));
            let unsafe_word = |x: &str| {
                let ps = parts(x);
                ps.iter().any(|p| {
                    // A flag that says the act is dangerous (`--dangerous`,
                    // `--dangerously-skip-permissions`): the program asks for it because it is.
                    matches!(
                        p.as_str(),
                        "unsafe" | "insecure" | "nosafer" | "dangerous" | "dangerously"
                    )
                }) || ps
                    .windows(2)
                    .any(|p| p[0] == "no" && matches!(p[1].as_str(), "sandbox" | "safer"))
            };
            // Told to trust what it runs (`copier update --trust`, `--trusted`, `--trust=all`):
            // the check a program makes before running what it fetched is off.
            // (`--trust-remote-code=false` says the opposite.)
            let trusts = w.starts_with("--")
                && !value.is_some_and(|v| {
                    matches!(
                        v.to_ascii_lowercase().as_str(),
                        "false" | "no" | "0" | "off"
                    )
                })
                && matches!(ps.first().map(String::as_str), Some("trust" | "trusted"))
                && (ps.len() == 1
                    || ps[1..]
                        .iter()
                        .any(|p| matches!(p.as_str(), "all" | "remote" | "code")));
            // An option's list of settings naming one (`exportfs -o rw,insecure …`).
            let unsafe_setting = value.is_some_and(|v| {
                v == "unsafe" || v.contains(',') && v.split(',').any(&unsafe_word)
            });
            (confirms || unsafe_word(flag) || trusts || unsafe_setting).then(|| w.to_string())
        })
        .or_else(|| forced_clean(c, &words))
}

/// A long flag that answers the program's question for the person (`fire --shot G3
/// --confirm`, `apps:destroy --confirm APP`, `--skip-confirmation`, `--i-understand-the-risk`,
/// `--yes-i-really-mean-it`): it asks because the act has consequences. Not one turned off
/// (`--confirm=false`), one that asks for it (`--require-confirmation`), nor a count
/// (`--confirmations 6`).
fn consents(ps: &[String], flag: &str) -> bool {
    if flag.split_once('=').is_some_and(|(_, v)| {
        matches!(
            v.to_ascii_lowercase().as_str(),
            "false" | "no" | "0" | "off"
        )
    }) {
        return false;
    }
    let ps: Vec<&str> = ps.iter().map(String::as_str).collect();
    matches!(
        ps.as_slice(),
        ["confirm" | "confirmed"]
            | ["without" | "force" | "auto", "confirm" | "confirmation"]
            | ["skip", "confirmation"]
    ) || ps.contains(&"really")
        || ps.first() == Some(&"i")
            && ps
                .iter()
                .any(|p| matches!(*p, "understand" | "sure" | "know"))
}

/// A cleaning subcommand told `-f` with no value (`nextflow clean -f`, `splunk clean eventdata
/// -index web -f`): there `-f` is the force that skips the question and the dry run a clean
/// starts with, as `git clean -f` is; elsewhere `-f` names a file.
fn forced_clean(c: &Cmd<'_>, words: &[&str]) -> Option<String> {
    let cleans = subcommands(c)
        .first()
        .is_some_and(|s| matches!(*s, "clean" | "prune" | "purge" | "gc"));
    let bare_f = words
        .iter()
        .enumerate()
        .any(|(i, w)| *w == "-f" && words.get(i + 1).is_none_or(|n| n.starts_with('-')));
    (cleans && bare_f).then(|| "-f".to_string())
}

/// Whether a subcommand word or a long flag says the command puts files back where they
/// came from or unpacks them (`restore`, `extract`, `--unpack`).
pub(super) fn restores(c: &Cmd<'_>) -> bool {
    let restoring = |w: &str| {
        parts(w.trim_start_matches('-')).iter().any(|p| {
            matches!(
                p.as_str(),
                "restore"
                    | "recover"
                    | "extract"
                    | "unpack"
                    | "untar"
                    | "unzip"
                    | "unarchive"
                    | "rollback"
            )
        })
    };
    restoring(c.name)
        // Joined to what it restores (`mondorestore`, `xfsrestore`).
        || ["restore", "recover"].iter().any(|r| {
            c.name
                .len()
                .checked_sub(r.len())
                .and_then(|at| c.name.get(at..))
                .is_some_and(|end| end.eq_ignore_ascii_case(r))
        })
        || subcommands(c).iter().any(|w| restoring(w))
        // After a repository named first (`plakar at /srv/backups restore -to /`).
        || c.option_words()
            .filter(|w| !w.starts_with('-'))
            .take(4)
            .any(|w| !w.contains('/') && restoring(w))
        || c.option_words()
            .any(|w| w.starts_with("--") && restoring(w))
}

/// A long flag that schedules what the command runs (`--cron-schedule "0 3 * * *"`,
/// `--schedule=@daily`), or a batch scheduler's submitting command (`qsub`, `sbatch`): it runs
/// later, when no one is watching.
pub(super) fn schedules(c: &Cmd<'_>) -> Option<String> {
    c.option_words()
        .find(|w| {
            w.strip_prefix("--").is_some_and(|f| {
                let ps = parts(f.split('=').next().unwrap_or(f));
                ps.iter().any(|p| matches!(p.as_str(), "cron" | "crontab"))
                    || ps.iter().any(|p| p == "schedule")
                        // A schedule's name (`--schedule cone6`, a kiln's firing program) is
                        // what to run, not when: only a time, a period or a cron line is.
                        && flag_value(c, w).is_none_or(names_a_time)
            })
        })
        .map(str::to_string)
        .or_else(|| queues_a_job(c.name).then(|| c.name.to_string()))
}

/// Whether a schedule's value says when (`0 3 * * *`, `@daily`, `every 5m`, `2026-12-07T03:00`,
/// `nightly`, `30m`), as a schedule's own name (`cone6`, `fast-glaze`) does not.
fn names_a_time(v: &str) -> bool {
    let l = v.to_ascii_lowercase();
    l.contains(['*', '@', ' ', ':'])
        || l.bytes().all(|b| b.is_ascii_digit() || b == b'-')
        || ["every", "daily", "hourly", "weekly", "monthly", "yearly", "nightly", "now", "midnight"]
            .iter()
            .any(|t| l.contains(t))
        // A duration (`30m`, `2h`, `10s`, `1d`).
        || l.len() >= 2
            && l[..l.len() - 1].bytes().all(|b| b.is_ascii_digit())
            && l.ends_with(['s', 'm', 'h', 'd', 'w'])
}

/// Whether `flag` is given a value (`--start 2026-01-01`), not said alone as a switch.
fn given_a_value(c: &Cmd<'_>, flag: &str) -> bool {
    let words: Vec<&str> = c.option_words().collect();
    words.iter().enumerate().any(|(i, w)| {
        w.strip_prefix(flag).is_some_and(|r| r.starts_with('='))
            // (A negative duration is a value: `--start -1h`.)
            || *w == flag
                && words.get(i + 1).is_some_and(|v| {
                    !v.starts_with('-') || v[1..].starts_with(|c: char| c.is_ascii_digit())
                })
    })
}

/// Whether `--on` is given a day or a time (`--on 2026-12-12`, `--on "$(date +%F)"`): when,
/// not a switch.
fn on_a_day(c: &Cmd<'_>) -> bool {
    let day = |a: &crate::parse::Arg| {
        a.raw.trim_matches('"').starts_with("$(date")
            || a.text
                .as_deref()
                .is_some_and(|t| !t.starts_with('-') && names_a_time(t))
    };
    c.args
        .windows(2)
        .any(|w| w[0].text.as_deref() == Some("--on") && day(&w[1]))
        || c.words()
            .any(|w| w.strip_prefix("--on=").is_some_and(names_a_time))
}

/// A batch scheduler's submitting command by its short name: a letter or two, then `sub`
/// (`qsub`, `bsub`, `msub`: submit), or one letter, then `batch` (`sbatch`; ParaView's
/// `pvbatch` runs a script here). The job waits in a queue and runs later, on whatever node
/// the queue picks.
fn queues_a_job(name: &str) -> bool {
    [("sub", 2), ("batch", 1)].iter().any(|(v, most)| {
        name.strip_suffix(v).is_some_and(|head| {
            (1..=*most).contains(&head.len()) && head.bytes().all(|b| b.is_ascii_lowercase())
        })
    })
}

/// Whether the command is told to empty or clean what it writes to (`--emptyOutDir`,
/// `--cleanDestinationDir`, `clean`, and the thorough cleans joined into one word:
/// `fullclean`, `distclean`, `realclean`).
pub(super) fn cleans(c: &Cmd<'_>) -> bool {
    // The program's own name counts (`foamCleanTutorials -case /` cleans the case it is given).
    std::iter::once(c.name).chain(c.words()).any(|raw| {
        let w = raw.strip_prefix("--").unwrap_or(raw);
        let ps = parts(w);
        // `empty` before a plural names what is looked for (`czkawka_cli empty-folders`,
        // `empty-files`), not an act on it (`empty-trash`).
        let adjective = |i: usize| {
            ps[i] == "empty"
                && ps
                    .get(i + 1)
                    .is_some_and(|n| n.len() > 3 && n.ends_with('s'))
        };
        ps.iter().enumerate().any(|(i, p)| {
            matches!(p.as_str(), "clean" | "wipe" | "purge")
                || p == "empty" && !adjective(i)
                // A flag's or a subcommand's, not a file's (`deploy/cleanup.sh.m4`).
                || p == "cleanup" && !w.contains(['/', '.'])
                || p.len() <= 10
                    && p.strip_suffix("clean")
                        .is_some_and(|head| matches!(head, "full" | "dist" | "real" | "deep"))
        })
            // A flag that removes where output goes first (`--rm-dist`, `--delete-output`,
            // `--overwriteFiles=deleteDirectoryIfExists`).
            || raw.starts_with('-')
                && ps
                    .iter()
                    .any(|p| matches!(p.as_str(), "rm" | "remove" | "delete"))
                && ps.iter().any(|p| {
                    matches!(
                        p.as_str(),
                        "dist"
                            | "output"
                            | "out"
                            | "dest"
                            | "destination"
                            | "target"
                            | "directory"
                            | "dir"
                            | "folder"
                    )
                })
    })
}

/// `-w`, or a short cluster with it (`badblocks -wsv`, `radare2 -w`): the write mode, in
/// which what the program opens is changed in place.
pub(super) fn write_mode(c: &Cmd<'_>) -> Option<String> {
    let words: Vec<&str> = c.option_words().collect();
    words
        .iter()
        .enumerate()
        .find(|(i, w)| {
            w.strip_prefix('-').is_some_and(|f| {
                (1..=4).contains(&f.len())
                    && f.contains('w')
                    && f.chars().all(|ch| ch.is_ascii_lowercase())
            })
            // Given a directory, `-w` is where the program works (`proot -w / …`, a
            // container's `-w /app`), not a file opened for writing.
            && !words.get(i + 1).is_some_and(|n| {
                matches!(*n, "/" | "." | ".." | "~") || n.len() > 1 && n.ends_with('/')
            })
        })
        .map(|(_, w)| (*w).to_string())
}

/// A word that writes, for a command naming a disk or a firmware interface.
pub(super) fn device_write(c: &Cmd<'_>) -> Option<Verb> {
    // `wipe=/dev/nvme0n1`: an operand whose key is the act.
    if let Some(w) = c.words().find(|w| {
        w.split_once('=')
            .is_some_and(|(k, v)| v.starts_with("/dev/") && DELETES.contains(&k))
    }) {
        return Some(Verb {
            word: w.into(),
            class: Class::Destroys,
        });
    }
    if let Some(w) = write_mode(c) {
        return Some(Verb {
            word: w,
            class: Class::Destroys,
        });
    }
    if name_writes(c.name) && !flash_read(c) {
        return Some(Verb {
            // Said as "`writembr` is told to write to a disk …".
            word: "write to".into(),
            class: Class::Destroys,
        });
    }
    std::iter::once(c.name).chain(c.words()).find_map(|w| {
        parts(w.trim_start_matches('-'))
            .iter()
            .any(|p| WRITES.contains(&p.as_str()))
            .then(|| Verb {
                word: w.into(),
                class: Class::Destroys,
            })
    })
}

/// A program whose name, run together, says it writes what it is given: a filesystem maker
/// (`mkqnx6fs`, `newfs`), or a name that starts or ends with a writing verb (`writembr`,
/// `segywrite`, `flashrom`).
fn name_writes(name: &str) -> bool {
    let n = name.rsplit('/').next().unwrap_or(name).to_ascii_lowercase();
    let n = n.split('.').next().unwrap_or(&n);
    let fs_maker = (n.starts_with("mk") || n.starts_with("new")) && n.ends_with("fs");
    // The making half of a system's `mk…`/`rm…` pair (`mkvg`, `mklv`, `mkwpar`, `mkswap`):
    // given a disk, it builds on it; `mkisofs`, `mkdocs` are given none. The makers of a
    // file system's own objects write no disk (`mkdir`, `mknod`, `mkfifo`, `mktemp`).
    let maker = n.len() >= 4
        && n.strip_prefix("mk").is_some_and(|rest| {
            rest.bytes().all(|b| b.is_ascii_lowercase())
                && !matches!(rest, "dir" | "nod" | "fifo" | "temp" | "link")
        })
        && !b"aeiouy".contains(&n.as_bytes()[2]);
    fs_maker
        || maker
        || ["write", "burn", "flash", "format", "wipe"]
            .iter()
            .any(|v| n.len() > v.len() && (n.starts_with(v) || n.ends_with(v)))
}

/// A power verb among the words (`…Manager.PowerOff`, `power off`).
pub(super) struct Power {
    pub(super) word: String,
    /// Said to this machine's own power interface: logind or systemd on the system bus,
    /// `/sys/power`, the SysRq trigger.
    pub(super) this_machine: bool,
    /// The host it is told of is this one (`-h 127.0.0.1`, `"$(hostname -f)"`), whatever
    /// other address the line holds (WS-Management's resource URI).
    pub(super) named_here: bool,
}

/// Word parts that power a machine down or restart it.
const POWER_WORDS: &[&str] = &[
    "poweroff",
    "powerdown",
    "reboot",
    "shutdown",
    "halt",
    "hibernate",
    "suspend",
];

/// A mode said after a power word (`reboot ForceRestart`, `GracefulShutdown`): its words are
/// all of power and force, so it names no machine.
fn power_mode(w: &str) -> bool {
    parts(w).iter().all(|p| {
        POWER_WORDS.contains(&p.as_str())
            || matches!(
                p.as_str(),
                "force"
                    | "forced"
                    | "graceful"
                    | "immediate"
                    | "cold"
                    | "warm"
                    | "restart"
                    | "off"
                    | "on"
                    | "cycle"
                    | "reset"
                    | "now"
                    | "soft"
                    | "hard"
                    | "power"
            )
    })
}

/// A program named for the power act (`s6-linux-init-shutdown -p now`, `fast-reboot`): its own
/// name is the power word, and the machine is this one unless a host is named or the name is
/// a guest's or a service's (`qvm-shutdown`, `vm-reboot`, `pod-restart`).
fn named_power(c: &Cmd<'_>) -> Option<Power> {
    let name_parts = parts(c.name);
    let last = name_parts.last()?;
    if !POWER_WORDS.contains(&last.as_str()) || name_parts.len() < 2 {
        return None;
    }
    let host = c
        .words()
        .any(|w| w.contains('@') || w.contains("://") || matches!(w, "-H" | "--host" | "-r"));
    let guest = name_parts.iter().any(|p| {
        matches!(
            p.as_str(),
            "vm" | "qvm"
                | "virt"
                | "guest"
                | "domain"
                | "container"
                | "ctr"
                | "pod"
                | "instance"
                | "cluster"
                | "service"
                | "svc"
                | "app"
                | "db"
                | "zone"
                | "jail"
        )
    });
    Some(Power {
        word: c.name.to_string(),
        this_machine: !host && !guest,
        named_here: false,
    })
}

/// A service's own administration tool told a power word as its plain subcommand
/// (`mariadb-admin shutdown`, `dsmadmc halt`, `zoneadm -z web halt`): that service stops, the
/// machine goes on. Not with a word naming the machine (`racadm serveraction powerdown`) nor
/// as a flag (`stonith_admin --reboot`, which fences a node).
fn service_admin(name: &str, word: &str, words: &[&str]) -> bool {
    let lower = name.to_ascii_lowercase();
    let names_machine = words.iter().any(|w| {
        parts(w).iter().any(|p| {
            ["server", "host", "system", "chassis", "machine", "node"]
                .iter()
                .any(|m| p.contains(m))
        })
    });
    ["admin", "adm", "admc"].iter().any(|s| lower.ends_with(s))
        && !word.starts_with('-')
        && !names_machine
}

/// Whether a long option says what the program does on an event or when it ends, with a
/// value (`--when-done poweroff-host`, `--on-exit CMD`): that is done, whatever the program
/// itself only shows.
fn told_what_follows(c: &Cmd<'_>) -> bool {
    let words: Vec<&str> = c.option_words().collect();
    super::option_pairs(&words).any(|(flag, value)| {
        flag.starts_with("--")
            && value.is_some_and(|v| !v.starts_with('-'))
            && super::arguments::event_or_inline_option(flag)
    })
}

/// A restart or a power-off said of the machine itself, in one word (`--restart-host now`,
/// `restart-system`, `--power-off-host`), not in a line of code (`OS.Process.system "…
/// restart …"`).
fn restarts_the_machine(w: &str, ps: &[String]) -> bool {
    !w.contains(char::is_whitespace)
        && (ps.iter().any(|p| p == "restart")
            || ps
                .windows(2)
                .any(|p| p[0] == "power" && matches!(p[1].as_str(), "off" | "down")))
        && ps
            .iter()
            .any(|p| matches!(p.as_str(), "host" | "machine" | "system" | "computer"))
}

/// A command line the program is handed (`--on-fault 'logger -t x "reboot required"'`): that
/// line is judged as the command it is, its words its own.
fn handed_line(w: &str) -> bool {
    w.contains(char::is_whitespace) && w.split_whitespace().next().is_some_and(known::is_program)
}

pub(super) fn power(c: &Cmd<'_>) -> Option<Power> {
    // A program named for asking whether the act is possible (`pm-is-supported --suspend`,
    // `can-suspend`, `check-reboot`): it answers, and powers nothing.
    if parts(c.name)
        .iter()
        .any(|p| matches!(p.as_str(), "is" | "supported" | "can" | "check" | "query"))
    {
        return None;
    }
    // A program named for the act (`s6-linux-init-shutdown -p now`, `acme-reboot`): its own
    // name is the power word, and the machine is this one unless a host is named.
    if let Some(p) = named_power(c) {
        return Some(p);
    }
    // A property or a state read (`busctl get-property … PreparingForShutdown`, `gdbus
    // introspect`): the power word names what is asked about. (Unless an option says what to
    // do when it ends: `monitor --house h3 --when-done poweroff-host`.)
    if subcommands(c).first().is_some_and(|w| {
        parts(w)
            .first()
            .is_some_and(|p| matches!(p.as_str(), "get" | "introspect" | "monitor" | "status"))
    }) && !told_what_follows(c)
    {
        return None;
    }
    let words: Vec<&str> = c.words().collect();
    // This machine's own name, asked of the shell (`"$(hostname -f)"`): what a management
    // controller's tool is pointed at, where a client's `localhost` is a local service's.
    let asked_here = c
        .args
        .iter()
        .any(|a| a.text.is_none() && names_this_host(&a.raw));
    let here = asked_here || words.iter().any(|w| names_this_host(w));
    let (_, word) = words.iter().enumerate().find(|(i, w)| {
        // A statement of a program's own language (`plan(P), write(P), halt`), or the value
        // of a one-letter option (`swipl -t halt`: the goal run when it ends), stops that
        // program, not the machine.
        if w.contains(char::is_whitespace) && w.contains(['(', ',', ';']) {
            return false;
        }
        // A command line the program is given that logs in elsewhere first (`-D 'ssh nas.lan
        // sudo poweroff'`): the power word is that machine's.
        if runs_elsewhere(w) || handed_line(w) {
            return false;
        }
        // A flag that declines the act (`--no-reboot`, `--skip-shutdown`).
        if ["--no-", "--skip-", "--without-", "--never-"]
            .iter()
            .any(|n| w.starts_with(n))
        {
            return false;
        }
        // The value of an option that names a thing by its id or name (`pkaction --action-id
        // org.freedesktop.login1.reboot`): a reference to the act, which is not asked for.
        if names_a_thing(w) && w.contains('=')
            || i.checked_sub(1)
                .and_then(|p| words.get(p))
                .is_some_and(|p| !p.contains('=') && names_a_thing(p))
        {
            return false;
        }
        if searched_for(&words, *i) {
            return false;
        }
        if sets_power_state(w) || logind_call(w) {
            return true;
        }
        // A sentence written for people (`papirus-write "Shutdown of ferry 3 at 18:00"`), or
        // a project file's name (`sabaki build/review-shutdown-joseki.sgf`): the word is what
        // they are about, no act.
        if prose(w) || named_file(w) {
            return false;
        }
        if !w.contains(char::is_whitespace)
            && i.checked_sub(1)
                .and_then(|p| words.get(p))
                .is_some_and(|p| {
                    p.len() == 2
                        && p.starts_with('-')
                        && p.as_bytes()[1].is_ascii_alphabetic()
                        && !matches!(*p, "-c" | "-e" | "-x")
                })
        {
            return false;
        }
        let ps = parts(w);
        let joined: String = ps.concat();
        // A reset, or a switch turned off, said to this machine by the name the shell gives it
        // (`amttool "$(hostname -f)" reset`, `pm --off "$(hostname -s)"`): its management
        // controller restarts or stops it. (Said to `localhost`, a reset is a local service's:
        // `redis-cli -h localhost reset`.)
        asked_here
            && (w.eq_ignore_ascii_case("reset") || matches!(**w, "--reset" | "--off" | "--cycle"))
            || ps.iter().any(|p| POWER_WORDS.contains(&p.as_str()))
            || matches!(joined.as_str(), "poweroff" | "powercycle" | "powerdown")
            // Ending in the act spelt in two words (`--chassis-control=POWER-DOWN`).
            || ps.len() >= 2
                && ps[ps.len() - 2] == "power"
                && matches!(ps[ps.len() - 1].as_str(), "off" | "down" | "cycle")
            || ps.windows(2).any(|p| p[0] == "shut" && p[1] == "down")
            || restarts_the_machine(w, &ps)
            || (w.eq_ignore_ascii_case("power")
                && words
                    .get(i + 1)
                    .is_some_and(|n| matches!(*n, "off" | "cycle" | "reset")))
    })?;
    // This machine: its power interfaces (logind or systemd on the system bus, `/sys/power`,
    // SysRq), or a power word with nothing after it to name another machine, no host named
    // anywhere (`launchctl reboot`, `ipmitool chassis power off`, not `virsh shutdown web1`).
    let at = words.iter().position(|w| w == word).unwrap_or(0);
    let of_another = stops_a_thing(word);
    // A reason given with it (`system.reboot 'apply update'`) names no machine: a host's
    // name has no blank in it.
    let named_after = words[at + 1..].iter().any(|w| {
        !w.starts_with('-')
            && !w.contains(char::is_whitespace)
            && !matches!(*w, "-h")
            && !power_mode(w)
            && !w.starts_with('+')
    });
    let host = names_a_host(&words);
    // A service's own administration tool (`mariadb-admin shutdown`, `dsmadmc halt`,
    // `varnishadm stop`) stops that service: the machine goes on.
    let service_admin = service_admin(c.name, word, &words);
    let this_machine = words.iter().any(|w| power_interface(w))
        || !of_another && !service_admin && (here || !named_after && !host);
    Some(Power {
        word: (*word).to_string(),
        this_machine,
        named_here: here && !of_another && !service_admin,
    })
}

/// A D-Bus call to logind's power methods written as one value (`--dbus-call
/// 'org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager PowerOff b
/// false'`): the program makes it, and this machine goes down.
fn logind_call(w: &str) -> bool {
    w.contains("login1")
        && w.split_whitespace().any(|t| {
            matches!(
                t.rsplit('.').next().unwrap_or(t),
                "PowerOff" | "Reboot" | "Halt" | "Suspend" | "Hibernate" | "HybridSleep"
            )
        })
}

/// Subcommands that search what the program holds for a pattern given after them.
pub(super) const SEARCHES: &[&str] = &["grep", "egrep", "search", "match"];

/// Words to look for or to show (`search --text "shutdown sauna heater"`, `--message …`): the
/// word at `i` is compared or printed, no act.
fn searched_for(words: &[&str], i: usize) -> bool {
    // (Or after a subcommand that searches: `logs grep 'shutdown' --since 1h`.)
    words[..i].iter().any(|w| SEARCHES.contains(w))
        || i.checked_sub(1)
            .and_then(|p| words.get(p))
            .is_some_and(|p| super::arguments::data_option(p))
        || words[i]
            .split_once('=')
            .is_some_and(|(f, _)| super::arguments::data_option(f))
}

/// A sentence for people: three words or more, none an option or a path, its power word in
/// sentence case (`Shutdown of ferry 3 at 18:00`, `Reboot planned at noon`). A command line
/// is written in lower case (`sudo shutdown -h now`), Windows' with switches (`Shutdown /s`).
fn prose(w: &str) -> bool {
    w.split_whitespace().nth(2).is_some()
        && !w.split_whitespace().any(|t| t.starts_with(['-', '/']))
        && w.split_whitespace().any(|t| {
            let mut chars = t.chars();
            chars.next().is_some_and(|c| c.is_ascii_uppercase())
                && chars.clone().all(|c| c.is_ascii_lowercase())
                && POWER_WORDS.contains(&t.to_ascii_lowercase().as_str())
        })
}

/// A relative path to a file of the project by its kind (`build/review-shutdown-joseki.sgf`):
/// a name, not an act. (A systemd unit's file, `poweroff.target`, is the act itself.)
fn named_file(w: &str) -> bool {
    !w.starts_with(['/', '~', '$', '-'])
        && w.contains('/')
        && !w.contains(char::is_whitespace)
        && w.rsplit('/')
            .next()
            .and_then(|n| n.rsplit_once('.'))
            .is_some_and(|(stem, ext)| {
                !stem.is_empty()
                    && !ext.is_empty()
                    && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                    && !matches!(ext, "target" | "service" | "sh")
            })
}

/// A command line (one word with blanks) whose program logs in to another host and runs the
/// rest there (`ssh nas.lan sudo poweroff`, `mosh pi@kiosk -- reboot`).
fn runs_elsewhere(w: &str) -> bool {
    let mut words = w.split_whitespace();
    let Some(program) = words.next() else {
        return false;
    };
    let program = program.rsplit('/').next().unwrap_or(program);
    if !matches!(
        program,
        "ssh" | "mosh" | "rsh" | "autossh" | "slogin" | "dbclient"
    ) {
        return false;
    }
    // The host is the first word that is neither an option nor an option's value.
    while let Some(a) = words.next() {
        if matches!(a, "-p" | "-i" | "-l" | "-o" | "-F" | "-J" | "-M") {
            words.next();
        } else if !a.starts_with('-') {
            return !super::super::shells::loopback(a.rsplit('@').next().unwrap_or(a));
        }
    }
    false
}

/// Whether the words name another machine: a user at a host, an address, a host option
/// (`--host`, `-H`, `-h NAME`), or a host and its port.
fn names_a_host(words: &[&str]) -> bool {
    words.iter().any(|w| {
        w.contains('@')
            || w.contains("://")
            || matches!(
                *w,
                "-H" | "--host" | "--hostname" | "-r" | "--remote" | "-S"
            )
    }) || words.iter().any(|w| {
        // A host and its port (`gnoic -a leaf1:57400 … system reboot`).
        w.rsplit_once(':').is_some_and(|(host, port)| {
            host != "localhost"
                && (2..=5).contains(&port.len())
                && port.bytes().all(|b| b.is_ascii_digit())
                && host.starts_with(|ch: char| ch.is_ascii_alphabetic())
                && host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
        })
    }) || words
        .windows(2)
        // `-h NAME`: help takes no value, so a name after it is a host (`ipmi-chassis -h bmc1`).
        // Not a time (`shutdown -h now`, `-h +5`, `-h 22:00`).
        .any(|w| {
            w[0] == "-h"
                && w[1].starts_with(|ch: char| ch.is_ascii_alphabetic())
                && w[1] != "now"
                && !w[1].contains(char::is_whitespace)
        })
}

/// This machine's power interfaces: logind or systemd on the system bus, `/sys/power`, SysRq.
fn power_interface(w: &str) -> bool {
    ["login1", "systemd1", "/sys/power", "sysrq"]
        .iter()
        .any(|i| w.contains(i))
        // Or the manager named as the way (`--power-action reboot --via logind`).
        || matches!(w.rsplit('=').next(), Some("logind" | "systemd-logind"))
}

/// A power state changed or set (WS-Management's `RequestPowerStateChange`, given as `-a
/// ACTION`; `set-power-state`): the machine is switched to it, as an option's value too.
fn sets_power_state(w: &str) -> bool {
    let ps = parts(w);
    ps.windows(2).any(|p| p[0] == "power" && p[1] == "state")
        && ps.iter().any(|p| matches!(p.as_str(), "change" | "set"))
}

/// Whether a host named on the line is this one (`-h 127.0.0.1`, `--host localhost`,
/// `"$(hostname -f)"`): its management controller switches this machine.
fn names_this_host(w: &str) -> bool {
    let w = w.trim_matches(['"', '\'']);
    let host = w
        .rsplit_once(':')
        .filter(|(h, _)| !h.is_empty() && !h.contains(':'))
        .map_or(w, |(h, _)| h);
    matches!(host, "localhost" | "127.0.0.1" | "::1" | "[::1]")
        || ["$(hostname", "`hostname", "$HOSTNAME", "${HOSTNAME}"]
            .iter()
            .any(|m| w.contains(m))
}

/// Words beside a power word that name this machine or say how (`system-halt`, `force-reboot`,
/// `shutdown-now`): no other thing goes down.
const THE_MACHINE_OR_A_MANNER: &[&str] = &[
    "system", "machine", "host", "computer", "node", "all", "force", "hard", "soft", "now",
];

/// Whether the power word is joined to what it stops, so that thing goes down, not this
/// machine.
fn stops_a_thing(word: &str) -> bool {
    // The power word joined to what it stops (`shutdown-agent`, `reboot_worker`,
    // `haltService`): that thing goes down, not this machine, unless the other word names it.
    // Only a word of its own: not an option's name (`--action=Powerdown`) nor a line of words
    // (`shutdown /r /t 0`).
    let ps = parts(word.split('=').next().unwrap_or(word));
    let of_another = !word.starts_with('-')
        && !word.contains(char::is_whitespace)
        && ps.len() > 1
        && ps.iter().any(|p| {
            p.len() >= 3
                && p.bytes().all(|b| b.is_ascii_alphabetic())
                && !POWER_WORDS.contains(&p.as_str())
                && !matches!(p.as_str(), "power" | "off" | "down" | "shut" | "cycle")
                // The state asked for (`RequestPowerStateChange`): no thing of its own.
                && !matches!(p.as_str(), "request" | "state" | "change" | "set")
                && !THE_MACHINE_OR_A_MANNER.contains(&p.as_str())
        });
    // A long flag naming what it stops before the act (`hosted-engine --vm-poweroff`,
    // `--guest-shutdown`): that thing goes down. Not a manner (`--force-reboot`,
    // `--hard-reset`) nor the machine itself (`--system-halt`).
    let flag_parts = word
        .strip_prefix("--")
        .filter(|f| !f.contains('='))
        .map(parts)
        .unwrap_or_default();
    of_another
        || flag_parts
            .iter()
            .position(|p| POWER_WORDS.contains(&p.as_str()) || p == "power")
            .is_some_and(|at| {
                flag_parts[..at].iter().any(|p| {
                    p.len() >= 2
                        && p.bytes().all(|b| b.is_ascii_alphabetic())
                        && !THE_MACHINE_OR_A_MANNER.contains(&p.as_str())
                        && !matches!(
                            p.as_str(),
                            "do" | "auto"
                                | "cold"
                                | "warm"
                                | "clean"
                                | "graceful"
                                | "immediate"
                                | "safe"
                        )
                })
            })
}

/// The script an interpreter or a shell is told to run, as a program of its own with the words
/// after it (`php /var/www/cli/joomla.php extension:install …` is `joomla.php extension:install
/// …`): a program trail does not model. Only a script named by a path or a file name: a bare
/// word may be an interpreter's own subcommand (`bun run`, `deno task`); none when the code is
/// given inline (`-c`, `-e`).
pub(super) fn script_run<'a>(c: &Cmd<'a>) -> Option<(Cmd<'a>, &'a str)> {
    if !(super::super::rules::is_shell(c.name) || code::code_flags(c.name).is_some()) {
        return None;
    }
    let args: &'a [super::super::parse::Arg] = c.args;
    let first = c.operands().next()?;
    let at = args.iter().position(|a| std::ptr::eq(a, first))?;
    let script = args[at].text.as_deref()?;
    // A shell told only to read its script (`sh -n build/post.sh`, a syntax check) runs none
    // of it.
    if super::super::rules::is_shell(c.name)
        && args[..at]
            .iter()
            .any(|a| a.text.as_deref().is_some_and(noexec_flag))
    {
        return None;
    }
    // An interpreter that has no subcommands takes its first operand as the script, named bare
    // too (`php artisan p:user:delete`).
    let no_subcommands = matches!(
        c.name,
        "php" | "perl" | "ruby" | "python" | "python3" | "python2"
    );
    if c.option_words().any(|w| w == "-c" || w == "-e")
        || !(script.contains('/') || script.contains('.') || no_subcommands)
    {
        return None;
    }
    let inner = Cmd {
        name: script.rsplit('/').next().unwrap_or(script),
        args: &args[at + 1..],
        writes: c.writes,
        reads: c.reads,
        zones: c.zones,
    };
    Some((inner, script))
}

/// A shell's flags that hold `-n`, read the script and run nothing (`-n`, `-xn`).
fn noexec_flag(t: &str) -> bool {
    t.len() <= 4
        && t.strip_prefix('-')
            .is_some_and(|f| f.bytes().all(|b| b.is_ascii_alphabetic()) && f.contains('n'))
}

/// A pretence switched on (`--dummy`, `--dummy=True`, `--simulate=yes`): the act is only
/// rehearsed.
pub(super) fn pretends(c: &Cmd<'_>) -> bool {
    c.option_words().any(|w| {
        let (f, v) = w.split_once('=').unwrap_or((w, "true"));
        let name = f.trim_start_matches('-');
        f.starts_with("--")
            && (matches!(
                name,
                "dummy" | "simulate" | "noop" | "pretend" | "dryrun" | "dry-run"
                    // Only fetched, kept for later (`install --download-only --to "$TMPDIR"`).
                    | "download-only"
                    | "fetch-only"
                    // Only checked or simulated, the act not done (`claims submit --validate`,
                    // `start --offline-sim`).
                    | "validate"
                    | "offline-sim"
                    // A test transmission or a draft: nothing goes out (`efile transmit
                    // --test-mode`, `invoices send --draft`).
                    | "test-mode"
                    | "draft"
            )
                // Or only checked, priced, proofed or reviewed (`--quote-only`, `--proof-only`,
                // `--review-only`, `--check-only`).
                || name.strip_suffix("-only").is_some_and(|what| {
                    matches!(
                        what,
                        "validate" | "check" | "quote" | "proof" | "review" | "preview"
                            | "plan" | "estimate" | "verify" | "lint"
                    )
                }))
            && ["true", "yes", "1", "on"]
                .iter()
                .any(|t| v.eq_ignore_ascii_case(t))
    })
}

/// A script run by a shell or an interpreter is the program: its name's verb counts
/// (`bash deploy/deploy.sh`, `python scripts/drop_db.py`).
pub(super) fn script_named(c: &Cmd<'_>, raw: &str, out: &mut Findings) {
    let Some((inner, script)) = script_run(c) else {
        return;
    };
    let name = inner.name;
    // The script is a program trail does not model (`php bin/console doctrine:database:drop
    // --force`, `python manage.py reset_db`): its subcommands and methods are read as such a
    // program's are.
    // A subcommand that empties the one directory an option names is judged by where that
    // is, in the script's own layer (`vm_cache.py purge --cache-dir build/vm-cache`).
    let empties_named = || super::dir_emptied_by_flag(&super::words_as_written(&inner)).is_some();
    if !shows_only(&inner)
        && let Some(v) = subcommand_verb(&inner)
            .filter(|v| !(v.class == Class::Destroys && empties_named()))
            .or_else(|| method_verb(&inner))
            // A script's own flags are its author's words (`--frame-drop`): only one
            // asking for hidden secrets counts.
            .or_else(|| flag_verb(&inner).filter(|v| v.class == Class::Reveals))
    {
        out.push(decide(
            Verdict::Junction,
            v.class.rule(),
            format!(
                "the script `{name}` is told to {} (`{}`): a person decides",
                v.class.meaning(),
                v.word
            ),
            raw,
        ));
        return;
    }
    // Asked for its help or a pretend run, a script named for an act does not do it (what it
    // writes meanwhile is judged by its places all the same).
    // Nor when its flags say what it does now: only looking (`bg_upload.py --list-cemeteries`),
    // or destroying, which the script's own layer judges (`--photo-cache DIR --clear`).
    // Nor when a subcommand only looks (`arcxp_publish.py story list`).
    if !script.contains('.')
        || shows_only(&inner)
        || looks(&inner)
        || pretends(&inner)
        || subcommands(&inner).is_empty() && flag_looks(&inner)
        || flag_verb(&inner).is_some_and(|f| f.class == Class::Destroys)
    {
        return;
    }
    if let Some(v) = name_verb(name) {
        out.push(decide(
            Verdict::Junction,
            v.class.rule(),
            format!(
                "the script `{}` is named to {}: a person decides",
                v.word,
                v.class.meaning()
            ),
            raw,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_split_at_separators_and_case() {
        assert_eq!(parts("StopUnit"), ["stop", "unit"]);
        assert_eq!(parts("--emptyOutDir"), ["empty", "out", "dir"]);
        assert_eq!(parts("apps:destroy"), ["apps", "destroy"]);
        assert_eq!(
            parts("org.freedesktop.login1"),
            ["org", "freedesktop", "login1"]
        );
        assert_eq!(parts("HTTPServer"), ["httpserver"]);
    }

    #[test]
    fn a_name_that_writes() {
        for name in [
            "writembr",
            "segywrite",
            "mkqnx6fs",
            "newfs",
            "flashrom",
            "mkfs.ext4",
            "mkvg",
            "mkwpar",
        ] {
            assert!(name_writes(name), "{name}");
        }
        for name in [
            "write", "lsblk", "fsck", "mkdir", "mknod", "mktemp", "rewriter", "hdparm",
        ] {
            assert!(!name_writes(name), "{name}");
        }
    }

    #[test]
    fn plurals_are_their_verbs() {
        assert_eq!(classify("refunds"), Some(Class::Reaches));
        assert_eq!(classify("deletes"), Some(Class::Destroys));
        assert_eq!(classify("status"), None);
    }
}
