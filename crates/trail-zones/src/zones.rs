//! The places trail protects from the agent, and the targets a person's dismissal never covers.
//!
//! A rule that matched the words `.trail/state` as written was passed by `.trail/st*/gr*.jsonl`,
//! by `cd .trail && … >> state/grants.jsonl`, and by a symlink to the directory. So a path is
//! judged by where it lands: `..` and the working directory (tracked through `cd` by the
//! caller) resolved, globs matched against the zones and expanded against the filesystem, and
//! symlinks followed to their real target. A word that names a zone's file by its distinctive
//! tail (`state/gr?nts.jsonl`) counts even where the directory it is in cannot be known.

use std::path::{Component, Path, PathBuf};

use super::paths::Places;
use crate::command::{Arg, Write};
use crate::layout::Layout;

/// What a protected place is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Zone {
    /// The person's key (`<secrets>/trail.key`): never touched by the agent, not even read.
    Key,
    /// trail's own records in the project (`.trail/state/`): the grants journal, the pending
    /// junction, hashes, locks.
    TrailState,
    /// The secret store (`~/.secrets/`): every redacted original.
    SecretStore,
    /// The personal ledger (`$TRAIL_HOME`).
    TrailHome,
    /// trail's configuration and the hosts' hook settings: what decides whether trail runs.
    AgentSettings,
    /// `active_context.yaml`, which trail checks only when it is edited with the edit tools.
    StateView,
    /// trail's journals in the project: the trajectory (`.trail/trajectory/`: decisions,
    /// checkpoint verdicts) and the proof log (`.proof/`: every tool call). They are the
    /// evidence of what happened; a line written by the agent would be a forged checkpoint
    /// (lifting the strict-red and PreCompact holds) or a forged test run.
    Journal,
    /// Memory (`.trail/memory/`, `.trail/MEMORY.md`): distilled by trail from what happened,
    /// and verified against its sources; an agent's own line in a daily file would become a
    /// "verified" core memory at the next dream.
    Memory,
    /// What runs or lets in when the person opens a shell or connects: shell start-up files,
    /// `~/.ssh`, git's global configuration, credentials ([`START_UP`]).
    StartUp,
    /// The project's git files that name commands git runs: `.git/config`, `.git/hooks/`.
    GitInternals,
}

impl Zone {
    /// Whether the agent may read it through search, `trail show` and the MCP tools: trail's
    /// journals and memory are what search is for; writing them is what is refused.
    pub fn readable(self) -> bool {
        matches!(
            self,
            Zone::Journal | Zone::Memory | Zone::StartUp | Zone::GitInternals
        )
    }

    /// The zone in words, for a refusal ("… is in {what}").
    pub fn what(self) -> &'static str {
        match self {
            Zone::Key => "the person's key",
            Zone::TrailState => "trail's own state (.trail/state/)",
            Zone::SecretStore => "the secret store",
            Zone::TrailHome => "the personal ledger",
            Zone::AgentSettings => "trail's or the agent's settings",
            Zone::StateView => "the state file",
            Zone::Journal => "trail's journals (the trajectory, the proof log)",
            Zone::Memory => "trail's memory (.trail/memory/, .trail/MEMORY.md)",
            Zone::StartUp => "shell start-up files, SSH or git configuration, or credentials",
            Zone::GitInternals => "git's own configuration (.git/config, .git/hooks)",
        }
    }
}

/// How a command uses a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// Written only if what is unpacked or copied (an archive, a directory's contents, which
    /// trail cannot see) holds it: contents spilled into the project root, or a directory of
    /// the project two or more levels above the zone (`tar xf x.tar` at the root could hold
    /// `.trail/state/…`).
    /// Everywhere else, unseen contents count as a [`Access::Write`].
    Spill,
}

/// Names that put a word in the running for a zone: a word without any of them (and without a
/// glob or a symlink) cannot reach one, and costs no filesystem call.
const HINTS: &[&str] = &[
    ".trail",
    "state",
    "grants",
    "pending",
    "trail.key",
    "trail.env",
    ".secrets",
    ".ledger",
    ".leger",
    "pulses",
    ".claude",
    ".codex",
    "settings",
    "hooks.json",
    "config.toml",
    "edge.md",
    "active_context",
    "trail",
    ".proof",
    "session_log",
    "trajectory",
    "memory",
];

/// Tails distinctive enough to name a zone's file wherever the word sits.
const TAILS: &[(&str, Zone)] = &[
    ("trail.key", Zone::Key),
    ("state/grants.jsonl", Zone::TrailState),
    ("state/pending.json", Zone::TrailState),
    ("state/active_context.sha256", Zone::TrailState),
    (".trail/state", Zone::TrailState),
    ("grants.jsonl", Zone::TrailState),
    ("trail.env", Zone::SecretStore),
    ("stream/pulses.log.md", Zone::TrailHome),
    (".claude/settings.json", Zone::AgentSettings),
    (".claude/settings.local.json", Zone::AgentSettings),
    (".claude/commands/edge.md", Zone::AgentSettings),
    (".claude/scheduled_tasks.json", Zone::AgentSettings),
    (".codex/hooks.json", Zone::AgentSettings),
    (".trail/config.toml", Zone::AgentSettings),
    // The person's choice to keep the project's records off every remote: an agent that
    // removes it sends them, one that plants it hides its work from the other machines.
    (".trail/no-sync", Zone::AgentSettings),
    ("active_context.yaml", Zone::StateView),
    (".trail/trajectory", Zone::Journal),
    (".proof/session_log.jsonl", Zone::Journal),
    (".proof/archive.jsonl", Zone::Journal),
    (".trail/memory", Zone::Memory),
    (".trail/MEMORY.md", Zone::Memory),
];

impl Places {
    fn secrets(&self) -> PathBuf {
        self.secrets_dir
            .clone()
            .unwrap_or_else(|| self.home.join(".secrets"))
    }

    fn trail_home(&self) -> PathBuf {
        self.trail_home
            .clone()
            .unwrap_or_else(|| self.home.join(".ledger"))
    }

    /// The zone an absolute, normalised path is in.
    pub fn zone(&self, p: &Path) -> Option<Zone> {
        let secrets = self.secrets();
        if p == secrets.join(crate::secrets::key::FILE_NAME) {
            return Some(Zone::Key);
        }
        let root = &self.project_root;
        let layout = Layout::new(root);
        if p.starts_with(layout.state_dir()) {
            return Some(Zone::TrailState);
        }
        if p.starts_with(&secrets) {
            return Some(Zone::SecretStore);
        }
        if p.starts_with(self.trail_home()) {
            return Some(Zone::TrailHome);
        }
        if p == layout.state_view() {
            return Some(Zone::StateView);
        }
        if p.starts_with(layout.trajectory_dir()) || p.starts_with(layout.proof_dir()) {
            return Some(Zone::Journal);
        }
        if p.starts_with(layout.memory_dir()) || p == layout.core_memory() {
            return Some(Zone::Memory);
        }
        let home = &self.home;
        if self.agent_settings().iter().any(|s| p.starts_with(s)) {
            return Some(Zone::AgentSettings);
        }
        for dir in [root.join(".claude"), home.join(".claude")] {
            if let Ok(rest) = p.strip_prefix(&dir)
                && rest
                    .to_str()
                    .is_some_and(|r| r.starts_with("settings") && r.ends_with(".json"))
            {
                return Some(Zone::AgentSettings);
            }
        }
        if let Ok(rest) = p.strip_prefix(home)
            && START_UP.iter().any(|f| rest.starts_with(f))
        {
            return Some(Zone::StartUp);
        }
        let git = root.join(".git");
        if p == git.join("config") || p.starts_with(git.join("hooks")) {
            return Some(Zone::GitInternals);
        }
        None
    }

    /// What [`Zone::AgentSettings`] holds, beside the hosts' `settings*.json` files: trail's
    /// configuration and the hosts' other settings.
    fn agent_settings(&self) -> [PathBuf; 10] {
        let (root, home) = (&self.project_root, &self.home);
        [
            Layout::new(root).config(),
            // Which NOTES.md trail keeps: moved only by a person (`trail notes move`).
            Layout::new(root).notes_location(),
            // Whether the project's records stay on this machine: the person's choice.
            Layout::new(root).no_sync_marker(),
            home.join(".config").join("trail"),
            home.join(".codex"),
            // Transcripts (read back to tell typed prompts from delivered ones), scheduled
            // tasks, settings: the agent's host keeps them all here.
            home.join(".claude"),
            root.join(".claude").join("scheduled_tasks.json"),
            root.join(".codex").join("hooks.json"),
            root.join(".codex").join("config.toml"),
            root.join(".claude").join("commands").join("edge.md"),
        ]
    }

    /// One path in every zone (its file or its directory, whether it exists yet or not): what
    /// a directory must contain to hold a zone.
    fn landmarks(&self) -> Vec<PathBuf> {
        let secrets = self.secrets();
        let root = &self.project_root;
        let home = &self.home;
        let layout = Layout::new(root);
        let mut marks = vec![
            secrets.join(crate::secrets::key::FILE_NAME),
            secrets.join("trail.env"),
            secrets,
            layout.state_dir(),
            layout.grants(),
            layout.pending(),
            self.trail_home(),
            layout.state_view(),
            layout.trajectory_dir(),
            layout.proof_dir(),
            layout.memory_dir(),
            layout.core_memory(),
            home.join(".claude").join("settings.json"),
            root.join(".claude").join("settings.json"),
            root.join(".claude").join("settings.local.json"),
            root.join(".git").join("config"),
            root.join(".git").join("hooks"),
        ];
        marks.extend(self.agent_settings());
        marks.extend(START_UP.iter().map(|f| home.join(f)));
        marks
    }

    /// Every zone that lies at or beneath `dir` (absolute, normalised): what a search of the
    /// directory reads, and what a copy or an archive into it may replace. With `filter` (a
    /// file-name glob, as a search's `--glob` or an archive member may be), only the zones a
    /// name matching it can reach: a directory above a match counts, as the match is in it.
    pub fn zones_beneath(&self, dir: &Path, filter: Option<&str>) -> Vec<Zone> {
        let dirs = [dir.to_path_buf(), real(dir)];
        let mut out = Vec::new();
        for mark in self.landmarks() {
            let beneath = |m: &Path| dirs.iter().any(|d| m.starts_with(d));
            if !(beneath(&mark) || beneath(&real(&mark))) {
                continue;
            }
            // A directory is reached through the names in it (one level is looked at).
            let named = filter.is_none_or(|g| {
                let last = g.rsplit('/').next().unwrap_or(g);
                let hit = |n: &std::ffi::OsStr| glob_match_any(last, &n.to_string_lossy());
                mark.file_name().is_some_and(hit)
                    || std::fs::read_dir(&mark)
                        .into_iter()
                        .flatten()
                        .flatten()
                        .any(|e| hit(&e.file_name()))
            });
            if named
                && let Some(z) = self.zone(&mark)
                && !out.contains(&z)
            {
                out.push(z);
            }
        }
        out
    }

    /// How many levels below `dir` the nearest landmark of `zone` lies (0: `dir` itself).
    pub fn shallowest_beneath(&self, dir: &Path, zone: Zone) -> usize {
        self.landmarks()
            .iter()
            .filter(|m| self.zone(m) == Some(zone))
            .filter_map(|m| m.strip_prefix(dir).ok())
            .map(|rest| rest.components().count())
            .min()
            .unwrap_or(0)
    }

    /// Every zone a word (as written, in a command run from `self.cwd`) may reach.
    pub fn zones_of_word(&self, raw: &str) -> Vec<Zone> {
        let word = raw.trim_matches(|c| c == '"' || c == '\'');
        let glob = word.contains(['*', '?', '[']);
        let hinted = HINTS.iter().any(|h| contains_ci(word, h));
        let mut out = Vec::new();
        let mut add = |z: Zone| {
            if !out.contains(&z) {
                out.push(z);
            }
        };
        // A path the shell would build from an option (`--output=x`) or an assignment.
        let valued = word.rsplit_once('=');
        let word = valued.map_or(word, |(_, v)| v);
        // The shell expands a glob over the whole word, which no file's name starts with
        // (`highway=*`, `--tag=*`): the value reaches the program as written, a pattern it
        // matches itself, not the files of the working directory. Named zones still count.
        let expands = glob && valued.is_none();
        if hinted || glob {
            let plain = strip_glob(word);
            for (tail, z) in TAILS {
                if tail_matches(word, tail) || (!plain.is_empty() && tail_matches(&plain, tail)) {
                    add(*z);
                }
            }
        }
        let Some(abs) = self.absolute(word) else {
            return out;
        };
        if expands {
            for z in self.zones_matching_glob(&abs) {
                add(z);
            }
            for p in expand(&abs, 256) {
                if let Some(z) = self.zone(&real(&p)) {
                    add(z);
                }
            }
        } else {
            if let Some(z) = self.zone(&abs) {
                add(z);
            }
            // A bare word that names nothing on disk lands in the working directory as written;
            // anything else may lead somewhere else through a symlink.
            if (word.contains('/') || std::fs::symlink_metadata(&abs).is_ok())
                && let Some(z) = self.zone(&real(&abs))
            {
                add(z);
            }
        }
        out
    }

    /// `raw` made absolute against the working directory, `~` and `$HOME` expanded and `..`
    /// resolved; `None` when only the shell can know it.
    fn absolute(&self, word: &str) -> Option<PathBuf> {
        let home = self.home.to_string_lossy();
        let mut s = word.to_string();
        for var in ["${HOME}", "$HOME"] {
            if let Some(rest) = s.strip_prefix(var) {
                s = format!("{home}{rest}");
            }
        }
        if s == "~" || s.starts_with("~/") {
            s = format!("{home}{}", &s[1..]);
        }
        if s.is_empty() || s.contains('$') || s.contains('`') || s.starts_with('~') {
            return None;
        }
        let p = Path::new(&s);
        let abs = if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.cwd.join(p)
        };
        Some(normalise(&abs))
    }

    /// The zones beneath any directory a glob names (`/home/*` names `/home/dev`, above the
    /// secret store), found without listing the disk.
    fn zones_below_glob(&self, pattern: &Path) -> Vec<Zone> {
        let pat = pattern.to_string_lossy();
        let mut out = Vec::new();
        for mark in self.landmarks() {
            let named = mark
                .ancestors()
                .any(|a| a != Path::new("/") && glob_match(&pat, &a.to_string_lossy()));
            if named
                && let Some(z) = self.zone(&mark)
                && !out.contains(&z)
            {
                out.push(z);
            }
        }
        out
    }

    /// Zones whose paths a glob pattern could match (also those not on disk yet).
    fn zones_matching_glob(&self, pattern: &Path) -> Vec<Zone> {
        let secrets = self.secrets();
        let root = &self.project_root;
        let layout = Layout::new(root);
        let probes = [
            secrets.join(crate::secrets::key::FILE_NAME),
            secrets.join("trail.env"),
            layout.grants(),
            layout.pending(),
            layout.state_dir(),
            layout.config(),
            layout.state_view(),
            layout.trajectory_dir().join("x.jsonl"),
            layout.proof_log(),
            layout.proof_archive(),
            layout.memory_dir().join("x.md"),
            layout.core_memory(),
            root.join(".claude").join("settings.json"),
            root.join(".claude").join("settings.local.json"),
            root.join(".claude").join("commands").join("edge.md"),
            root.join(".codex").join("hooks.json"),
            self.trail_home().join("stream").join("pulses.log.md"),
        ];
        let pat = pattern.to_string_lossy();
        let mut out: Vec<Zone> = probes
            .iter()
            .filter(|p| {
                // The pattern names the file, or a directory above it that is the zone's own
                // (`cp -r x .trail/st*`). Not any directory further up (`ls -d /h*/dev` names
                // the home, as `ls -d /home/dev` does: a whole read of it is judged apart).
                glob_match(&pat, &p.to_string_lossy())
                    || p.ancestors().skip(1).any(|a| {
                        a != Path::new("/")
                            && glob_match(&pat, &a.to_string_lossy())
                            && self.zone(a).is_some()
                    })
            })
            .filter_map(|p| self.zone(p))
            .collect();
        // Or a file of any name inside a zone's directory (`.trail/mem*/2026-11-27.md`).
        let dirs = [
            layout.state_dir(),
            layout.trajectory_dir(),
            layout.proof_dir(),
            layout.memory_dir(),
        ];
        for dir in &dirs {
            let dir = dir.to_string_lossy();
            let inside = pattern
                .ancestors()
                .skip(1)
                .any(|a| a != Path::new("/") && glob_match(&a.to_string_lossy(), &dir));
            if inside
                && let Some(z) = self.zone(Path::new(&*dir))
                && !out.contains(&z)
            {
                out.push(z);
            }
        }
        out
    }
}

/// Files under the home directory whose change runs code at the next shell or connection, or
/// hands over credentials: the [`Zone::StartUp`] zone.
pub const START_UP: &[&str] = &[
    ".ssh",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".kshrc",
    ".cshrc",
    ".tcshrc",
    ".config/fish",
    ".inputrc",
    ".gitconfig",
    ".config/git",
    ".aws",
    ".kube",
    ".gnupg",
    ".bash_history",
    ".zsh_history",
];

/// Programs whose arguments are text, not paths (`echo .trail/state` writes nothing there).
const DATA: &[&str] = &[
    "echo", "printf", "true", "false", ":", "test", "[", "type", "which",
];

/// Programs that only read the paths they are given.
const READERS: &[&str] = &[
    "cat",
    "less",
    "more",
    "head",
    "tail",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ack",
    "wc",
    "ls",
    "stat",
    "file",
    "diff",
    "cmp",
    "bat",
    "jq",
    "yq",
    "sha256sum",
    "sha1sum",
    "md5sum",
    "b2sum",
    "cksum",
    "od",
    "xxd",
    "hexdump",
    "strings",
    "tree",
    "du",
    "realpath",
    "readlink",
    "basename",
    "dirname",
    "base64",
    "sort",
    "uniq",
    "nl",
    "column",
    "view",
    "zcat",
    "gunzip",
    "source",
    ".",
    "ssh",
    "ssh-add",
];

/// Subcommands of git that leave the working tree as it is.
const GIT_READS: &[&str] = &[
    "log",
    "show",
    "diff",
    "status",
    "blame",
    "grep",
    "ls-files",
    "add",
    "annotate",
    "shortlog",
    "whatchanged",
    "describe",
    "cat-file",
    "rev-parse",
    "check-ignore",
];

fn access_of(name: &str, args: &[Arg]) -> Access {
    let words = || args.iter().filter_map(|a| a.text.as_deref());
    let read = match name {
        "git" => words()
            .find(|w| !w.starts_with('-'))
            .is_some_and(|sub| GIT_READS.contains(&sub)),
        "sed" | "perl" => !words().any(|w| w.starts_with("-i") || w == "--in-place"),
        // What `-exec` runs is judged as its own command; find itself only reads, unless it
        // deletes or writes a listing.
        "find" => {
            !words().any(|w| matches!(w, "-delete" | "-fprint" | "-fprint0" | "-fprintf" | "-fls"))
        }
        _ => READERS.contains(&name),
    };
    if read { Access::Read } else { Access::Write }
}

/// The protected places a simple command reaches: its redirections write; its arguments are
/// read or written as the program does (anything not known to only read is taken to write).
/// A write is judged by every path it can create or replace (`destinations`): a directory
/// destination stands for what lands beneath it.
pub fn of_command(
    name: &str,
    args: &[Arg],
    writes: &[Write],
    places: &Places,
) -> Vec<(Zone, Access)> {
    let mut out = Vec::new();
    let add = |out: &mut Vec<(Zone, Access)>, z: Zone, a: Access| {
        if !out.contains(&(z, a)) {
            out.push((z, a));
        }
    };
    for w in writes {
        for z in places.zones_of_word(&w.target) {
            add(&mut out, z, Access::Write);
        }
    }
    if DATA.contains(&name) {
        return out;
    }
    let access = access_of(name, args);
    let dests = destinations(name, args);
    // `find`'s name tests are patterns matched beneath its roots, not paths.
    let pattern = |i: usize| {
        name == "find"
            && i > 0
            && args[i - 1].text.as_deref().is_some_and(|t| {
                matches!(
                    t,
                    "-name"
                        | "-iname"
                        | "-path"
                        | "-ipath"
                        | "-wholename"
                        | "-iwholename"
                        | "-regex"
                        | "-iregex"
                        | "-lname"
                        | "-ilname"
                )
            })
    };
    // A glob given to an option named for leaving things out (`grcov --ignore "/*"`,
    // `--exclude='*.key'`) is a pattern of what not to touch. (A path there is still judged:
    // some such options name a file of patterns, which is read.)
    let left_out = |i: usize| {
        let excluding = |flag: &str| matches!(flag, "--ignore" | "--exclude");
        let word = a_text(&args[i]);
        word.contains(['*', '?', '['])
            && (word
                .split_once('=')
                .is_some_and(|(flag, _)| excluding(flag))
                || i > 0 && excluding(&a_text(&args[i - 1])))
    };
    for (i, a) in args.iter().enumerate() {
        // `-rf` names nothing; `--output=.trail/state/x` does.
        if a.raw.starts_with('-') && !a.raw.contains('=') || pattern(i) || left_out(i) {
            continue;
        }
        // A copy only reads its sources: its destinations are judged below. A link's target
        // is written through the link later (`ln -s .trail/state s`).
        let access = if name != "ln" && dests.sources.contains(&i) {
            Access::Read
        } else {
            access
        };
        for z in places.zones_of_word(&a.raw) {
            add(&mut out, z, access);
        }
        // Written or deleted through a glob that names a directory above a zone (`rm -rf
        // /*`, `restore "/*"`): the zones beneath it are written too.
        if access != Access::Read && a.raw.contains(['*', '?', '[']) {
            let word = a.raw.trim_matches(['"', '\'']);
            for z in places
                .absolute(word)
                .map(|p| places.zones_below_glob(&p))
                .unwrap_or_default()
            {
                add(&mut out, z, access);
            }
        }
    }
    for z in secrets_read_whole(name, args, places) {
        add(&mut out, z, Access::Read);
    }
    for (word, whole) in dests.paths(args, places) {
        for z in places.zones_of_word(&word) {
            add(&mut out, z, Access::Write);
        }
        if whole
            && !word.contains(['*', '?', '['])
            && let Some(dir) = places.resolve(&word)
        {
            // The project root is where work is unpacked; a directory right above a zone
            // (`.trail`, `~`) is not.
            let root = dir == places.project_root;
            let spill = dir.starts_with(&places.project_root);
            for z in places.zones_beneath(&dir, None) {
                let deep = root || places.shallowest_beneath(&dir, z) >= 2;
                let access = if spill && deep {
                    Access::Spill
                } else {
                    Access::Write
                };
                add(&mut out, z, access);
            }
        }
    }
    out
}

/// An argument's text, or as written when the shell's meaning of it is unknown.
fn a_text(a: &Arg) -> String {
    a.text.clone().unwrap_or_else(|| a.raw.clone())
}

/// Where a command writes, beyond the words that name a file.
#[derive(Debug, Default)]
struct Destinations {
    /// Indexes (into the arguments) of the sources of a copy: read, not written.
    sources: Vec<usize>,
    /// The destination of a copy as written, and whether it is a directory whatever the disk
    /// says (`-t DIR`, several sources).
    copy_to: Option<(String, bool)>,
    /// The directory an archive is unpacked into (`-C DIR`, `-d DIR`; the working directory
    /// when none is named): members of any name land beneath it.
    unpack_into: Option<String>,
}

impl Destinations {
    /// Every path the command may create or replace, as a word, and whether everything
    /// beneath it counts: a source copied into a directory lands at `DIR/<its name>` (its
    /// contents, for `src/` and `src/.`); an archive's members anywhere beneath its directory.
    fn paths(&self, args: &[Arg], places: &Places) -> Vec<(String, bool)> {
        let unquote = |w: &str| w.trim_matches(|c| c == '"' || c == '\'').to_string();
        let mut out = Vec::new();
        if let Some(dir) = &self.unpack_into {
            out.push((unquote(dir), true));
        }
        let Some((dest, forced)) = &self.copy_to else {
            return out;
        };
        let dest = unquote(dest);
        let is_dir = *forced
            || dest.ends_with('/')
            || places.resolve(&dest).is_some_and(|p| real(&p).is_dir());
        if !is_dir {
            return out;
        }
        let base = dest.trim_end_matches('/');
        for &i in &self.sources {
            let src = unquote(&args[i].raw);
            let name = src.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            // A glob's matches are unseen, like a directory's contents (`tmp/.*`).
            let contents = src.ends_with('/')
                || matches!(name, "" | "." | "..")
                || name.contains(['*', '?', '[']);
            out.push(if contents {
                (dest.clone(), true)
            } else {
                (format!("{base}/{name}"), true)
            });
        }
        out
    }
}

/// Programs that copy, move or link their sources to a destination: the last operand, or
/// (GNU's convention, for those that have it) the directory of `-t DIR`.
const COPIERS: &[&str] = &[
    "cp",
    "mv",
    "install",
    "ln",
    "rsync",
    "scp",
    "ditto",
    "Copy-Item",
    "Move-Item",
];
const TARGET_DIRECTORY: &[&str] = &["cp", "mv", "install", "ln"];

/// The value of an option: `-X VALUE`, `--long VALUE`, `--long=VALUE`, and `-XVALUE` when
/// `joined`; with the index of a separate value.
fn option_value(
    words: &[&str],
    short: &str,
    long: &str,
    joined: bool,
) -> Option<(Option<usize>, String)> {
    for (i, w) in words.iter().enumerate() {
        if (!short.is_empty() && *w == short) || *w == long {
            return Some((Some(i + 1), (*words.get(i + 1)?).to_string()));
        }
        if let Some(v) = w.strip_prefix(long).and_then(|v| v.strip_prefix('=')) {
            return Some((None, v.to_string()));
        }
        if joined
            && !short.is_empty()
            && !w.starts_with("--")
            && let Some(v) = w.strip_prefix(short)
            && !v.is_empty()
        {
            return Some((None, v.to_string()));
        }
    }
    None
}

/// What a command writes besides its own words: a copy's destination (its sources only read)
/// and an archive's directory.
fn destinations(name: &str, args: &[Arg]) -> Destinations {
    let mut out = Destinations::default();
    let words: Vec<&str> = args.iter().map(|a| a.raw.as_str()).collect();
    // rsync told to show what it would do (`-n` alone or in a bundle, `--dry-run`) writes
    // nothing at its destination (`rsync -an --delete SRC/ ~/`).
    if name == "rsync" && (words.contains(&"--dry-run") || short_flag(&words, 'n')) {
        return out;
    }
    if COPIERS.contains(&name) {
        let operands = (0..args.len()).filter(|&i| !words[i].starts_with('-'));
        let target = TARGET_DIRECTORY
            .contains(&name)
            .then(|| option_value(&words, "-t", "--target-directory", false))
            .flatten();
        if let Some((at, dir)) = target {
            out.sources = operands.filter(|&i| Some(i) != at).collect();
            out.copy_to = Some((dir, true));
            return out;
        }
        let operands: Vec<usize> = operands.collect();
        if let Some((&last, rest)) = operands.split_last()
            && !rest.is_empty()
        {
            out.sources = rest.to_vec();
            out.copy_to = Some((words[last].to_string(), rest.len() > 1));
        }
        return out;
    }
    out.unpack_into = unpacks(name, &words);
    out
}

/// Whether one of `words` is a bundle of short flags holding `c` (`-xzf`, `-an`).
fn short_flag(words: &[&str], c: char) -> bool {
    words.iter().any(|w| {
        w.starts_with('-')
            && !w.starts_with("--")
            && w[1..].chars().all(|x| x.is_ascii_alphanumeric())
            && w.contains(c)
    })
}

/// The key and the secret store beneath a directory read whole (`tar czf x.tgz ~`, `grep -r
/// token ~`, `cp -r ~ build/h`): every file there is read, as if named. (The project's own
/// records, read whole, are what an archive of the project holds.)
fn secrets_read_whole(name: &str, args: &[Arg], places: &Places) -> Vec<Zone> {
    let mut out = Vec::new();
    if !reads_recursively(name, args) {
        return out;
    }
    let mut add = |z: Zone| {
        if matches!(z, Zone::Key | Zone::SecretStore) && !out.contains(&z) {
            out.push(z);
        }
    };
    // A copy's last operand is where it writes; `tar -C DIR` names where the operands after
    // it are read from, not something read.
    let copies = matches!(name, "cp" | "scp" | "rsync");
    let directory = |i: usize| i > 0 && matches!(args[i - 1].raw.as_str(), "-C" | "--directory");
    let operands: Vec<usize> = (0..args.len())
        .filter(|&i| !args[i].raw.starts_with('-') && !directory(i))
        .collect();
    let last = operands.last().copied();
    let mut from: Option<PathBuf> = None;
    for (i, a) in args.iter().enumerate() {
        if directory(i) {
            from = places.resolve(&a_text(a));
            continue;
        }
        if !operands.contains(&i) || copies && Some(i) == last {
            continue;
        }
        let word = match &from {
            Some(dir) if !a_text(a).starts_with(['/', '~', '$']) => {
                dir.join(a_text(a)).to_string_lossy().into_owned()
            }
            _ => a_text(a),
        };
        if word.contains(['*', '?', '[']) {
            // What the pattern would name above each zone (`/home/*` names the home).
            for z in places
                .absolute(&word)
                .map(|p| places.zones_below_glob(&p))
                .unwrap_or_default()
            {
                add(z);
            }
        } else if let Some(dir) = places.resolve(&word) {
            for z in places.zones_beneath(&dir, None) {
                add(z);
            }
        }
    }
    out
}

/// Whether `name` reads the files beneath a directory it is given, not only its names: a
/// recursive copy or search (`cp -r`, `scp -r`, `rsync`, `grep -r`, `rg`), an archive made
/// (`tar c…`, `zip -r`).
fn reads_recursively(name: &str, args: &[Arg]) -> bool {
    let words: Vec<&str> = args.iter().map(|a| a.raw.as_str()).collect();
    let first = words.first().copied().unwrap_or("");
    let long = |l: &[&str]| words.iter().any(|w| l.contains(w));
    match name {
        "cp" | "scp" => {
            short_flag(&words, 'r')
                || short_flag(&words, 'R')
                || short_flag(&words, 'a')
                || long(&["--recursive", "--archive"])
        }
        // A dry run reads names and sizes, not what is in the files.
        "rsync" => !(long(&["--dry-run"]) || short_flag(&words, 'n')),
        "rg" | "ag" | "ack" => true,
        "grep" | "egrep" | "fgrep" => {
            short_flag(&words, 'r') || short_flag(&words, 'R') || long(&["--recursive"])
        }
        "tar" | "bsdtar" | "gtar" => {
            (!first.starts_with('-') && first.contains('c'))
                || short_flag(&words, 'c')
                || long(&["--create"])
        }
        "zip" => short_flag(&words, 'r') || long(&["--recurse-paths"]),
        _ => false,
    }
}

/// The directory a command fills with files whose names the command line does not show: an
/// archive unpacked (`tar x… [-C DIR]`, `unzip [-d DIR]`, `7z x [-oDIR]`, `cpio -i [-D DIR]`,
/// `ar x`, `unrar x … [DIR/]`, `jar x`: the working directory when none is named), a download
/// named by the server (`wget -P DIR`, `curl --output-dir DIR`), a clone (`git clone URL DIR`).
fn unpacks(name: &str, words: &[&str]) -> Option<String> {
    let first = words.first().copied().unwrap_or("");
    let cluster = |c: char| short_flag(words, c);
    let dir = |short: &str, long: &str| option_value(words, short, long, true).map(|(_, d)| d);
    match name {
        "tar" | "bsdtar" | "gtar" | "star" => {
            let extracts = (!first.starts_with('-') && first.contains('x'))
                || cluster('x')
                || words.iter().any(|w| matches!(*w, "--extract" | "--get"));
            // Members sent to standard output or to a command (`--to-command='wc -c'`, `-O`)
            // are written to no file.
            let to_stdout = cluster('O')
                || words
                    .iter()
                    .any(|w| *w == "--to-stdout" || w.starts_with("--to-command"));
            (extracts && !to_stdout).then(|| dir("-C", "--directory").unwrap_or_else(|| ".".into()))
        }
        "unzip" => {
            let lists = words
                .iter()
                .any(|w| matches!(*w, "-l" | "-t" | "-v" | "-z" | "-Z" | "-p"));
            (!lists).then(|| dir("-d", "--d").unwrap_or_else(|| ".".into()))
        }
        "7z" | "7za" | "7zz" | "7zr" => {
            matches!(first, "x" | "e").then(|| dir("-o", "--output").unwrap_or_else(|| ".".into()))
        }
        "cpio" => (cluster('i') || words.contains(&"--extract"))
            .then(|| dir("-D", "--directory").unwrap_or_else(|| ".".into())),
        "ar" | "jar" => (first.trim_start_matches('-').contains('x'))
            .then(|| dir("-C", "--directory").unwrap_or_else(|| ".".into())),
        "unrar" => matches!(first, "x" | "e").then(|| {
            words
                .iter()
                .skip(1)
                .rev()
                .find(|w| w.ends_with('/'))
                .map_or_else(|| ".".into(), |w| (*w).to_string())
        }),
        // Downloads named by the server, into a directory.
        "wget" => dir("-P", "--directory-prefix"),
        "curl" => dir("", "--output-dir"),
        // A clone fills its directory with whatever the repository holds.
        "git" => {
            let ops: Vec<&str> = words
                .iter()
                .copied()
                .filter(|w| !w.starts_with('-'))
                .collect();
            (ops.first() == Some(&"clone") && ops.len() >= 3).then(|| ops[2].to_string())
        }
        _ => None,
    }
}

/// Files under the home directory whose change runs code or hands over credentials.
const SENSITIVE_HOME: &[(&str, &str)] = &[
    (".bashrc", "a shell start-up file"),
    (".bash_profile", "a shell start-up file"),
    (".bash_login", "a shell start-up file"),
    (".bash_logout", "a shell start-up file"),
    (".profile", "a shell start-up file"),
    (".zshrc", "a shell start-up file"),
    (".zprofile", "a shell start-up file"),
    (".zshenv", "a shell start-up file"),
    (".zlogin", "a shell start-up file"),
    (".kshrc", "a shell start-up file"),
    (".cshrc", "a shell start-up file"),
    (".tcshrc", "a shell start-up file"),
    (".config/fish", "a shell start-up file"),
    (".inputrc", "a shell start-up file"),
    (".ssh", "ssh keys and configuration"),
    (".gnupg", "gpg keys"),
    (".aws", "cloud credentials"),
    (".azure", "cloud credentials"),
    (".config/gcloud", "cloud credentials"),
    (".kube", "cluster credentials"),
    (".docker", "registry credentials"),
    (".netrc", "credentials"),
    (".npmrc", "credentials"),
    (".pypirc", "credentials"),
    (".git-credentials", "credentials"),
    (".config/gh", "credentials"),
    (".cargo/credentials", "credentials"),
    (".cargo/credentials.toml", "credentials"),
    (".password-store", "credentials"),
    (".terraform.d", "credentials"),
    (".pgpass", "credentials"),
    (".my.cnf", "credentials"),
    (".mylogin.cnf", "credentials"),
    (
        ".gitconfig",
        "git's global configuration (it can run commands)",
    ),
    (
        ".config/git",
        "git's global configuration (it can run commands)",
    ),
    (".claude", "the agent's settings"),
    (".claude.json", "the agent's settings"),
    (".codex", "the agent's settings"),
    (".cursor", "the agent's settings"),
    (".config/trail", "trail's configuration"),
    (".config/autostart", "programs started at login"),
    (".config/systemd", "services started at login"),
    (".local/bin", "programs on the PATH"),
];

impl Places {
    /// Why a change to `p` (absolute, normalised) is never covered by a dismissal, if it is
    /// not: trail's own files, shell start-up files, keys and credentials, agent settings,
    /// system paths.
    pub fn sensitive(&self, p: &Path) -> Option<&'static str> {
        match self.zone(p) {
            None | Some(Zone::StartUp) => {}
            Some(Zone::StateView) => return None,
            Some(Zone::AgentSettings) => return Some("the agent's or trail's settings"),
            Some(Zone::GitInternals) => {
                return Some("git's own configuration (it names commands git runs)");
            }
            Some(_) => return Some("trail's own records"),
        }
        if let Ok(rest) = p.strip_prefix(&self.home) {
            if rest.as_os_str().is_empty() {
                return Some("the home directory");
            }
            for (f, why) in SENSITIVE_HOME {
                if rest.starts_with(f) {
                    return Some(why);
                }
            }
            return None;
        }
        if p.starts_with(&self.project_root) {
            return None;
        }
        match self.classify(&p.to_string_lossy()) {
            super::Place::Root => Some("the root directory"),
            super::Place::System => Some("a system path"),
            _ => None,
        }
    }

    /// The target class of an action (what a dismissal of it covers) and why it cannot be
    /// dismissed, if it cannot: hosts for URLs and `host:path` copies, the directories of
    /// paths, and otherwise the words themselves (a remote and a branch).
    pub fn target_class(&self, targets: &[String]) -> (String, Option<&'static str>) {
        let mut hosts = Vec::new();
        let mut dirs = Vec::new();
        let mut words = Vec::new();
        let mut sensitive = None;
        for t in targets {
            let w = t.trim_matches(|c| c == '"' || c == '\'');
            if let Some(h) = host_of(w) {
                hosts.push(h);
                continue;
            }
            let pathish =
                w.contains('/') || w.starts_with('.') || w.starts_with('~') || w.starts_with('$');
            if pathish || std::fs::symlink_metadata(self.cwd.join(w)).is_ok() {
                let abs = self.absolute(w).map(|a| real(&a));
                match abs {
                    Some(a) => {
                        sensitive = sensitive.or(self.sensitive(&a));
                        let dir = a.parent().map_or(a.clone(), Path::to_path_buf);
                        dirs.push(dir.to_string_lossy().into_owned());
                    }
                    None => dirs.push(w.to_string()),
                }
                continue;
            }
            words.push(w.to_string());
        }
        let mut class = if !hosts.is_empty() {
            hosts
        } else if !dirs.is_empty() {
            dirs
        } else {
            words
        };
        class.sort();
        class.dedup();
        (class.join(" "), sensitive)
    }
}

/// The host of `scheme://[user@]host[:port]/…` or of an scp-style `[user@]host:path`.
fn host_of(w: &str) -> Option<String> {
    if let Some((_, rest)) = w.split_once("://") {
        let auth = rest.split(['/', '?', '#']).next()?;
        let host = auth.rsplit('@').next()?;
        return Some(host.to_ascii_lowercase()).filter(|h| !h.is_empty());
    }
    let (before, _) = w.split_once(':')?;
    if before.contains('/') || before.is_empty() || before.contains('=') {
        return None;
    }
    Some(before.rsplit('@').next()?.to_ascii_lowercase())
}

fn contains_ci(hay: &str, needle: &str) -> bool {
    hay.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// The word with its glob characters dropped (`gr?nts` → `grnts` is no help, so only trailing
/// and leading stars are dropped: `*grants.jsonl` → `grants.jsonl`).
fn strip_glob(word: &str) -> String {
    word.trim_matches('*').to_string()
}

/// Whether `word` ends with the path components of `tail` (as a glob may match them).
fn tail_matches(word: &str, tail: &str) -> bool {
    let w: Vec<&str> = word.trim_end_matches('/').split('/').collect();
    let t: Vec<&str> = tail.split('/').collect();
    if w.len() < t.len() {
        return false;
    }
    // A component that is all wildcards (`*`) names nothing in particular: it is judged by
    // where it lands (expansion against the disk), not by a tail it could match.
    let literal = |c: &str| c.chars().filter(|x| !matches!(x, '*' | '?')).count() >= 2;
    w[w.len() - t.len()..]
        .iter()
        .zip(&t)
        .all(|(wc, tc)| literal(wc) && glob_match(wc, tc))
}

use super::paths::normalise;

/// Where a path really leads: its longest existing ancestor with symlinks resolved, and the
/// rest appended (a file about to be created inside a symlinked directory lands in the target).
pub fn real(p: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut cur = p;
    loop {
        if let Ok(r) = std::fs::canonicalize(cur) {
            let mut out = r;
            for c in rest.iter().rev() {
                out.push(c);
            }
            return out;
        }
        match (cur.parent(), cur.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                cur = parent;
            }
            _ => return p.to_path_buf(),
        }
    }
}

/// A shell glob (`*`, `?`, `[…]`) matched against a whole text; `*` also crosses `/` here,
/// which only makes the zone check stricter, but not into a hidden name's leading `.`.
pub fn glob_match(pat: &str, text: &str) -> bool {
    let p: Vec<char> = pat.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ti < t.len() {
        if pi < p.len() {
            match p[pi] {
                '*' => {
                    star = Some(pi);
                    mark = ti;
                    pi += 1;
                    continue;
                }
                '?' => {
                    pi += 1;
                    ti += 1;
                    continue;
                }
                '[' => {
                    if let Some((ok, next)) = class(&p, pi, t[ti])
                        && ok
                    {
                        pi = next;
                        ti += 1;
                        continue;
                    }
                }
                c if c == t[ti] => {
                    pi += 1;
                    ti += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            // As in the shell, a wildcard never stands for the leading `.` of a hidden name:
            // `mv * backup/` does not move `.trail`.
            Some(_) if t[mark] == '.' && (mark == 0 || t[mark - 1] == '/') => return false,
            Some(s) => {
                pi = s + 1;
                mark += 1;
                ti = mark;
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// [`glob_match`] where a wildcard also stands for a hidden name's leading `.`: what a search
/// that lists hidden files matches.
fn glob_match_any(pat: &str, text: &str) -> bool {
    glob_match(pat, text) || text.strip_prefix('.').is_some_and(|t| glob_match(pat, t))
}

/// A bracket class at `p[start]`: whether `c` is in it, and where the pattern goes on.
fn class(p: &[char], start: usize, c: char) -> Option<(bool, usize)> {
    let mut i = start + 1;
    let negate = matches!(p.get(i), Some('!' | '^'));
    if negate {
        i += 1;
    }
    let mut hit = false;
    let mut first = true;
    while i < p.len() && (p[i] != ']' || first) {
        first = false;
        if i + 2 < p.len() && p[i + 1] == '-' && p[i + 2] != ']' {
            hit |= p[i] <= c && c <= p[i + 2];
            i += 3;
        } else {
            hit |= p[i] == c;
            i += 1;
        }
    }
    (i < p.len()).then_some((hit != negate, i + 1))
}

/// The existing paths a glob expands to (at most `limit`), walking one component at a time.
fn expand(pattern: &Path, limit: usize) -> Vec<PathBuf> {
    let mut found = vec![PathBuf::from("/")];
    for c in pattern.components() {
        let Component::Normal(name) = c else { continue };
        let name = name.to_string_lossy();
        let mut next = Vec::new();
        for dir in &found {
            if !name.contains(['*', '?', '[']) {
                let p = dir.join(name.as_ref());
                if std::fs::symlink_metadata(&p).is_ok() {
                    next.push(p);
                }
                continue;
            }
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for e in entries.flatten().take(limit) {
                let n = e.file_name();
                let n = n.to_string_lossy();
                // The shell's `*` does not match a leading dot; ours does, to be strict.
                if glob_match(&name, &n) {
                    next.push(dir.join(n.as_ref()));
                }
            }
        }
        next.truncate(limit);
        found = next;
        if found.is_empty() {
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_like_the_shell() {
        assert!(glob_match("gr?nts.jsonl", "grants.jsonl"));
        assert!(glob_match("gr*.jsonl", "grants.jsonl"));
        assert!(glob_match("st*", "state"));
        assert!(glob_match("[gx]rants.jsonl", "grants.jsonl"));
        assert!(glob_match("[!x]rants.jsonl", "grants.jsonl"));
        assert!(glob_match("[a-h]rants.jsonl", "grants.jsonl"));
        assert!(!glob_match("[!g]rants.jsonl", "grants.jsonl"));
        assert!(!glob_match("gr?nts.json", "grants.jsonl"));
        assert!(glob_match("*", ""));
    }

    fn places(root: &Path) -> Places {
        Places {
            project_root: root.join("proj"),
            home: root.join("home"),
            cwd: root.join("proj"),
            tmpdir: None,
            trail_home: None,
            secrets_dir: None,
        }
    }

    #[test]
    fn a_path_is_judged_by_where_it_lands() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let p = places(&root);
        std::fs::create_dir_all(root.join("proj/.trail/state")).unwrap();
        std::fs::write(root.join("proj/.trail/state/grants.jsonl"), "").unwrap();
        std::os::unix::fs::symlink(root.join("proj/.trail/state"), root.join("proj/s")).unwrap();
        let z = |w: &str| p.zones_of_word(w);
        assert_eq!(z(".trail/state/grants.jsonl"), vec![Zone::TrailState]);
        assert_eq!(z(".trail/st*/gr*.jsonl"), vec![Zone::TrailState]);
        assert_eq!(z("s/grants.jsonl"), vec![Zone::TrailState]);
        assert_eq!(z("s/new-file"), vec![Zone::TrailState]);
        assert_eq!(z("state/gr?nts.jsonl"), vec![Zone::TrailState]);
        assert_eq!(z("./x/../.trail/state"), vec![Zone::TrailState]);
        assert_eq!(z("~/.secrets/trail.key"), vec![Zone::Key]);
        assert_eq!(z("$HOME/.secrets/trail.env"), vec![Zone::SecretStore]);
        assert_eq!(z(".claude/settings.json"), vec![Zone::AgentSettings]);
        assert_eq!(z("~/.claude/settings.json"), vec![Zone::AgentSettings]);
        assert_eq!(z(".claude/commands/edge.md"), vec![Zone::AgentSettings]);
        assert_eq!(z("active_context.yaml"), vec![Zone::StateView]);
        assert_eq!(z("~/.ledger/stream/pulses.log.md"), vec![Zone::TrailHome]);
        for clean in [
            "src/main.rs",
            "README.md",
            "target",
            "-rf",
            "/tmp/x",
            "docs/state.md",
        ] {
            assert!(z(clean).is_empty(), "{clean}: {:?}", z(clean));
        }
    }

    #[test]
    fn a_directory_holds_every_zone_beneath_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let p = places(&root);
        let home = root.join("home");
        let z = |d: &Path, f: Option<&str>| p.zones_beneath(d, f);
        assert!(z(&home, None).contains(&Zone::Key));
        assert!(z(&home, Some("*.key")).contains(&Zone::Key));
        assert!(!z(&home, Some("*.rs")).contains(&Zone::Key));
        assert_eq!(
            z(&home.join(".secrets"), Some("*.env")),
            [Zone::SecretStore]
        );
        let proj = root.join("proj");
        assert!(z(&proj, None).contains(&Zone::TrailState));
        assert_eq!(z(&proj.join(".claude"), None), [Zone::AgentSettings]);
        assert!(z(&proj.join("src"), None).is_empty());
    }

    #[test]
    fn a_copy_into_a_directory_writes_what_lands_beneath_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let p = places(&root);
        std::fs::create_dir_all(root.join("proj/.claude")).unwrap();
        std::fs::create_dir_all(root.join("home")).unwrap();
        let of = |line: &str| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let args: Vec<Arg> = words[1..]
                .iter()
                .map(|w| Arg {
                    text: Some((*w).to_string()),
                    raw: (*w).to_string(),
                    quoted: false,
                })
                .collect();
            of_command(words[0], &args, &[], &p)
        };
        let writes = |line: &str, z: Zone| of(line).contains(&(z, Access::Write));
        assert!(writes("cp a/settings.json .claude", Zone::AgentSettings));
        assert!(writes("cp -t .claude a/settings.json", Zone::AgentSettings));
        assert!(writes("rsync -a a/ .trail/", Zone::TrailState));
        assert!(writes("tar xf a.tar -C ../home", Zone::Key));
        assert!(writes("mv a/.bashrc ../home", Zone::StartUp));
        assert!(writes(
            "wget -P ../home/.ssh https://x/authorized_keys",
            Zone::StartUp
        ));
        assert!(writes(
            "curl -O --output-dir=.claude https://x/settings.json",
            Zone::AgentSettings
        ));
        assert!(writes(
            "git clone https://x/r .trail/state",
            Zone::TrailState
        ));
        assert!(of("curl -O https://x/a.tgz").is_empty());
        assert!(of("git clone https://x/r vendor/r").is_empty());
        // The sources of a copy are only read.
        assert_eq!(
            of("cp .trail/state/grants.jsonl /tmp/g"),
            [(Zone::TrailState, Access::Read)]
        );
        assert!(of("cp a/notes.md .claude").is_empty());
        // An archive made of the home writes nothing there, and reads the key beneath it.
        let home_archived = of("tar cf a.tar -C ../home .");
        assert!(
            home_archived.contains(&(Zone::Key, Access::Read)),
            "{home_archived:?}"
        );
        assert!(home_archived.iter().all(|&(_, a)| a == Access::Read));
        assert!(of("tar cf a.tar -C ../home notes").is_empty());
        assert!(of("ls -d ../home").is_empty());
    }
}
