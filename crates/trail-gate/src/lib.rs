//! trail-gate (trail-core re-exports it as `gate`). The gate: decides, before a shell command runs, whether it may (allow), needs a human
//! (junction), or must never run (block).
//!
//! 1. [`parse::flatten`] turns the command line into the simple commands it would run.
//! 2. The walk (`judge.rs`) sees through wrappers (`sudo`, `env`, `nice`, `timeout`, `nohup`,
//!    `command`, `exec`, `xargs`, `find -exec`, `parallel`: `wrappers.rs`, `feed.rs`), and
//!    parses in turn the strings handed to a shell (`bash -c`, `sh -c`, `eval`, a heredoc fed
//!    to a shell: `shells.rs`), what runs indirectly ([`indirect`]) and code in other
//!    languages ([`code`]).
//! 3. Every command is matched against [`rules::RULES`]; the worst verdict wins. Anything the
//!    gate cannot see through is at least a junction. Quoted text is data: `echo "rm -rf /"`
//!    runs `echo`.
//!
//! The gate reads no state and writes none; `trail gate -- CMD` shows its verdict. It is a crate
//! of its own so that this stays true by construction: it depends on the floor (`trail-base`),
//! the zones and verdicts (`trail-zones`) and Codex's patch format (`trail-host`), and on nothing
//! that holds a record, a setting or a session (`cargo tree -p trail-gate`). Nothing in the
//! library depends on it but the guard (`trail-guard`): editing a rule rebuilds the gate, the
//! guard and the binaries, not the library.

// The floor and the formats, named as they were when this was trail-core's `gate` module.
use trail_base::{fsutil, git, text};
use trail_host as host;

pub mod code;
pub mod custom;
pub mod edits;
mod effect;
mod encoded;
mod feed;
pub mod indirect;
mod judge;
mod known;
mod languages;
pub mod parse;
pub mod powershell;
pub mod rules;
mod shells;
mod wrappers;

use serde::Serialize;

// Where a path lands and what it protects, and the verdicts: below the gate, in `trail-zones`,
// so that the library can hold them without depending on the gate.
pub use rules::RuleId;
pub use trail_zones::{Place, Places, Verdict, paths, zones};

/// The gate's answer for one command line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub verdict: Verdict,
    /// The rule that decided (absent for allow).
    pub rule: Option<String>,
    pub reason: String,
    /// The simple command that decided, as written.
    pub command: Option<String>,
    /// What that command reaches, as written: its operands and redirection targets (what a
    /// person's dismissal is scoped to).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
}

impl Decision {
    fn allow() -> Decision {
        Decision {
            verdict: Verdict::Allow,
            rule: None,
            reason: "no rule matched".into(),
            command: None,
            targets: Vec::new(),
        }
    }
}

/// The path `mktemp` prints: under `-p DIR`/`--tmpdir=DIR` when given, under a template's
/// own directory, else under `$TMPDIR`. Its name is random: only where it is matters.
fn made_by_mktemp(args: &[&str]) -> Option<String> {
    let mut dir: Option<String> = None;
    let mut template = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let a = a.trim_matches(['"', '\'']);
        match a {
            "-p" | "--tmpdir" => dir = Some(it.next()?.trim_matches(['"', '\'']).to_string()),
            "-t" | "-d" | "-u" | "-q" | "--directory" | "--dry-run" | "--quiet" => {}
            _ if a.starts_with("--tmpdir=") => dir = Some(a["--tmpdir=".len()..].to_string()),
            _ if a.starts_with("--suffix=") => {}
            _ if a.starts_with('-') => return None,
            _ => template = Some(a),
        }
    }
    let name = template.map_or("tmp.mktemp", |t| t.rsplit('/').next().unwrap_or(t));
    if name.contains(['$', '`']) {
        return None;
    }
    let dir = match (dir, template) {
        (Some(d), _) => d,
        (None, Some(t)) if t.contains('/') => t.rsplit_once('/').map(|(d, _)| d.to_string())?,
        (None, _) => "$TMPDIR".to_string(),
    };
    Some(format!("{dir}/{name}"))
}

/// What a Python or Ruby one-liner reads to print where the interpreter keeps its own
/// libraries and programs.
const INSTALL_TREE: &[&str] = &[
    "sysconfig.get_path",
    "site.getsitepackages",
    "sys.prefix",
    "sys.base_prefix",
    "sys.exec_prefix",
    "get_python_lib",
    "RbConfig::CONFIG",
    "Gem.default_dir",
    "Gem.dir",
    // PHP's and Node's own places (`PHP_BINDIR`, `process.execPath`).
    "PHP_BINDIR",
    "PHP_EXTENSION_DIR",
    "PHP_LIBDIR",
    "process.execPath",
    // The standard library's own directory (`os.path.dirname(os.__file__)`).
    "os.__file__",
];

/// What the gate needs to know about where it runs.
#[derive(Clone, Debug)]
pub struct Context {
    pub places: Places,
    /// Whether a path inside the project is git-ignored build output (safe to delete).
    pub ignored: fn(&Places, &std::path::Path) -> bool,
    /// Rules added in configuration (checked after the built-in ones).
    pub extra: Vec<custom::UserRule>,
    /// Hosts whose installers a person trusts (`gate.trusted_installers` in the user's own
    /// config): their scripts piped to a shell are a junction, not a block.
    pub trusted_installers: Vec<String>,
    /// What earlier commands of the same line set up: variables, `cd` into the unknown,
    /// symlinks. Empty when judging starts.
    pub line: Line,
    /// Whether the command will run confined by the OS (`crate::confine`): what the
    /// confinement makes impossible need not stop it for a person as well.
    pub confined: bool,
}

/// What the earlier commands of one line changed for the later ones.
#[derive(Clone, Debug, Default)]
pub struct Line {
    /// `X=value` and `export X=value` (the value as written).
    pub vars: Vec<(String, String)>,
    /// After `cd "$SOMEWHERE"`: relative paths land where only the shell knows.
    pub cwd_unknown: bool,
    /// `ln -s TARGET LINK`: paths under LINK land under TARGET.
    pub links: Vec<(std::path::PathBuf, std::path::PathBuf)>,
    /// Files fetched from the network (`curl -o F`, `wget -O F`): running one runs remote code.
    pub fetched: Vec<std::path::PathBuf>,
    /// Fetched files made executable on this line (`chmod +x F`): programs nobody has read.
    pub armed: Vec<std::path::PathBuf>,
    /// Programs that fetched code by an address into their own store on this line (`haxelib git
    /// NAME URL`): the same program told to run or build later runs it.
    pub fetchers: Vec<String>,
    /// Files this line wrote from text it holds (`cat > F <<EOF`, `printf '…' > F`), with that
    /// text: a program handed one reads it, and a configuration's hooks run.
    pub planted: Vec<(std::path::PathBuf, String)>,
    /// Places a copy or a move on this line brought from outside the project into it (`cp
    /// ~/Downloads/x.py plugins/`, `cp "$PLUGIN" app/`), each with the name it arrives under
    /// when copied into a directory: code nobody here has read, which a program may load.
    pub brought: Vec<std::path::PathBuf>,
    /// `export X=value` on this line: the environment of every command after it, as a
    /// `X=value` before that command would be.
    pub exported: Vec<(String, crate::parse::Arg)>,
    /// After `set -a`: every later assignment of the line is exported.
    pub allexport: bool,
    /// After `set -k`: an assignment among a command's words is its environment's.
    pub keyword: bool,
    /// Names exported before they were given a value (`export NAME; NAME=/x`): the value
    /// they are given later is exported.
    pub export_marked: Vec<String>,
    /// A program's own directory set on this line (`acme par path_output D`, `acme config set
    /// scratch_dir D`): the program told later to clean, cleans D.
    pub configured: Vec<(String, std::path::PathBuf)>,
    /// Places a program nobody models wrote on this line by its output option (`msfvenom … -o
    /// F`) or was handed in a temporary directory (`ubi … --in "$TMPDIR"`): what they hold no
    /// one here has read, so a program run from there is unknown code.
    pub made: Vec<std::path::PathBuf>,
}

/// The path a `$(realpath …)`, `$(readlink …)` or `$(dirname …)` prints, past its options:
/// a path made canonical, whether or not it exists (`realpath -m`, `readlink -f`). `readlink`
/// alone prints a link's target, and `--relative-to` a path from elsewhere: `None`, unknown.
fn canonical_operand<'o>(program: &str, mut operand: &'o str) -> Option<&'o str> {
    let mut canonical = program != "$(readlink ";
    while let Some(opt) = operand
        .split_whitespace()
        .next()
        .filter(|o| o.starts_with('-'))
    {
        if opt.starts_with("--relative") || opt == "--" {
            return None;
        }
        canonical |= !opt.starts_with("--") && opt.contains(['f', 'e', 'm'])
            || matches!(
                opt,
                "--canonicalize" | "--canonicalize-existing" | "--canonicalize-missing"
            );
        operand = operand[opt.len()..].trim_start();
    }
    canonical.then_some(operand)
}

impl Context {
    /// A context that asks git (`git check-ignore`) about ignored paths.
    pub fn new(places: Places) -> Context {
        Context {
            places,
            ignored: git_ignored,
            extra: Vec::new(),
            trusted_installers: Vec::new(),
            line: Line::default(),
            confined: false,
        }
    }

    /// Whether `p` is a directory the project sits in (`/work` for `/work/proj`): it holds
    /// the project and the projects beside it.
    pub(crate) fn holds_project(&self, p: &std::path::Path) -> bool {
        let root = &self.places.project_root;
        root.starts_with(p) && p != root
    }

    /// A word as a path, after what this line did to variables, the working directory and
    /// symlinks: `None` when only the shell knows. A remote address of this machine
    /// (`sftp://localhost/boot`) is its path.
    pub fn resolve(&self, raw: &str) -> Option<std::path::PathBuf> {
        let computed = self.computed(raw).or_else(|| self.placeholder_filled(raw));
        let raw = computed.as_deref().unwrap_or(raw);
        // (Every word a path is asked of comes here: quotes are taken off, into a copy, only
        // for a word that has both a colon and a quote.)
        let here;
        let raw = if !raw.contains(':') {
            raw
        } else if raw.contains(['"', '\'']) {
            here = raw.replace(['"', '\''], "");
            effect::targets::path_on_this_machine(&here).unwrap_or(raw)
        } else {
            effect::targets::path_on_this_machine(raw).unwrap_or(raw)
        };
        let expanded;
        let mut word = raw;
        if raw.contains('$') && !self.line.vars.is_empty() {
            expanded = self.expand_line_vars(raw);
            word = &expanded;
        }
        if self.line.cwd_unknown {
            let bare = word.trim_start_matches(['"', '\'']);
            if !(bare.starts_with('/') || bare.starts_with('~') || bare.starts_with('$')) {
                return None;
            }
        }
        let mut p = self.places.resolve(word)?;
        for (link, target) in &self.line.links {
            if let Ok(rest) = p.strip_prefix(link) {
                p = target.join(rest);
                break;
            }
        }
        Some(p)
    }

    /// Where a word lands, judged. A path in a temporary directory counts as temporary only if
    /// its real target is there too (a symlink in `/tmp` may lead home): that one case asks the
    /// filesystem.
    pub fn classify(&self, raw: &str) -> Place {
        let Some(p) = self.resolve(raw) else {
            return Place::Unknown;
        };
        let text = p.to_string_lossy();
        // A glob's files, not the directory it stands in for (`"$TMPDIR"/*.star`).
        let place = if paths::last_part_globbed(raw) && !paths::last_part_globbed(&text) {
            self.places.classify(&format!("{text}/*"))
        } else {
            self.places.classify(&text)
        };
        if place == Place::Tmp {
            let real = zones::real(&p);
            if real != p {
                let again = self.places.classify(&real.to_string_lossy());
                if again != Place::Tmp {
                    return again;
                }
            }
        }
        place
    }

    /// Whether `p` came from the network on this line: a fetched file, anything inside a
    /// directory a download was unpacked or cloned into, or the directory holding a fetched
    /// file made executable (`run-parts DIR` runs it).
    pub(crate) fn fetched_holds(&self, p: &std::path::Path) -> bool {
        self.line.fetched.iter().any(|f| p.starts_with(f))
            || self.line.armed.iter().any(|a| a.parent() == Some(p))
    }

    /// A word's text: as written when static, else with this line's text variables put in
    /// and its double quotes taken off (`"$TMPDIR/x"`), as the file tests compare paths.
    pub(crate) fn arg_text(&self, a: &parse::Arg) -> String {
        a.text
            .clone()
            .unwrap_or_else(|| self.expand_text_vars(&a.raw).trim_matches('"').to_string())
    }

    /// Whether `raw` names a file this line wrote from text it holds (`cat > F <<EOF`): its
    /// text is judged where it is handed, as the code it is.
    pub(crate) fn planted(&self, raw: &str) -> bool {
        !self.line.planted.is_empty()
            && self
                .resolve(raw)
                .is_some_and(|p| self.line.planted.iter().any(|(f, _)| *f == p))
    }

    /// `$(python3 -c '…print(os.path.abspath("../.."))')`, `$(perl -MCwd=abs_path -e 'print
    /// abs_path("…")')` in `out` replaced by the path: a one-liner whose only work is to print
    /// a literal path made absolute, normal or expanded prints that path.
    fn path_printed_by_code(&self, out: &mut String) {
        const CALLS: &[&str] = &[
            "abspath(",
            "realpath(",
            // (`pathlib.Path("build").resolve()`: the path made absolute.)
            "Path(",
            "normpath(",
            "expanduser(",
            "abs_path(",
        ];
        for runner in [
            "$(python3 -c ",
            "$(python -c ",
            "$(perl ",
            "$(ruby ",
            "$(php -r ",
            "$(node -p ",
            "$(node -e ",
        ] {
            let Some(at) = out.find(runner) else { continue };
            // The one-liner's code, quoted, then the substitution's end.
            let rest = &out[at + runner.len()..];
            let Some(open) = rest.find(['\'', '"']) else {
                continue;
            };
            let quote = rest.as_bytes()[open] as char;
            let Some(len) = rest[open + 1..].find(quote) else {
                continue;
            };
            let code = rest[open + 1..open + 1 + len].replace("\\\"", "\"");
            let after = &rest[open + 2 + len..];
            if !after.trim_start().starts_with(')') {
                continue;
            }
            let end = out.len() - after.len() + after.find(')').unwrap_or(0) + 1;
            // The interpreter's own install tree (`sysconfig.get_paths()["stdlib"]`,
            // `site.getsitepackages()`, `$Config{privlib}`): the system's libraries.
            if INSTALL_TREE.iter().any(|t| code.contains(t)) && !code.contains(['$', '`'])
                || runner == "$(perl "
                    && code.contains("$Config{")
                    && code.matches('$').count() == 1
            {
                out.replace_range(at..end, "/usr/lib");
                continue;
            }
            // The home directory asked of the language (`pathlib.Path.home().parent`), climbed
            // by each `.parent`.
            if let Some(home) = ["Path.home()", "expanduser('~')", "expanduser(\"~\")"]
                .iter()
                .find_map(|h| code.find(h).map(|i| (i, h.len())))
                .filter(|_| code.matches(['\'', '"']).count() <= 2 || code.contains("expanduser"))
            {
                let after_home = &code[home.0 + home.1..];
                let mut path = self.places.home.clone();
                for _ in 0..after_home.matches(".parent").count() {
                    path.pop();
                }
                out.replace_range(at..end, &path.to_string_lossy());
                continue;
            }
            // One call, one string literal: `os.path.abspath("../..")`.
            let Some(call) = CALLS.iter().find_map(|c| code.find(c).map(|i| i + c.len())) else {
                continue;
            };
            let arg = code[call..].trim_start();
            let Some(q) = arg.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
                continue;
            };
            let Some(lit_len) = arg[1..].find(q) else {
                continue;
            };
            let literal = &arg[1..=lit_len];
            if literal.contains(['$', '`']) || code.matches('(').count() > 4 {
                continue;
            }
            let Some(path) = self.places.resolve(literal) else {
                continue;
            };
            out.replace_range(at..end, &path.to_string_lossy());
        }
    }

    /// Substitutions whose output the gate knows from the machine alone: `$(mktemp -d)` is a
    /// new entry of the temporary directory (or of the one `-p DIR` names), `$(id -un)`,
    /// `$(whoami)` and `$(logname)` the home directory's owner, and the directory of `$(command
    /// -v sh)` or `$(which sh)` the system's `/usr/bin`.
    fn known_outputs(&self, out: &mut String) {
        let mut from = 0;
        while let Some(found) = out[from..].find("$(") {
            let at = from + found;
            let Some(len) = out[at + 2..].find(')') else {
                break;
            };
            let inner = out[at + 2..at + 2 + len].trim();
            let words: Vec<&str> = inner.split_whitespace().collect();
            let value = match words.as_slice() {
                ["id", "-un" | "-nu"] | ["id", "-u", "-n"] | ["whoami" | "logname"] => self
                    .places
                    .home
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned()),
                // Only its directory is known, and only in general: one on the PATH, the
                // system's (`$(dirname "$(command -v sh)")`); the program's own file may be
                // anywhere.
                ["command", "-v", name] | ["which", name] | ["type", "-P", name]
                    if name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
                        && (out[..at].ends_with("$(dirname \"")
                            || out[..at].ends_with("$(dirname ")) =>
                {
                    Some(format!("/usr/bin/{name}"))
                }
                ["mktemp", rest @ ..] => made_by_mktemp(rest),
                // The project's own root, as git finds it.
                ["git", "rev-parse", "--show-toplevel"] => {
                    Some(self.places.project_root.to_string_lossy().into_owned())
                }
                // The mount point a path is on: `/` or a directory above the project, which
                // holds it either way (`stat -c %m "$PWD"`, `df --output=target .`).
                ["stat", "-c", "%m", _]
                | ["stat", "--format=%m", _]
                | ["df", "--output=target", ..] => Some("/".to_string()),
                // The first directories of the system's default PATH (`getconf PATH | cut
                // -d: -f1`: `/bin`).
                ["getconf", "PATH", "|", "cut", "-d:", field] => match *field {
                    "-f1" => Some("/bin".to_string()),
                    "-f2" => Some("/usr/bin".to_string()),
                    _ => None,
                },
                ["systemd-path", key] => self.systemd_path(key),
                // A directory above the project or `/`: the mount point a path is on
                // (`findmnt -no TARGET -T .`).
                ["findmnt", rest @ ..]
                    if rest.iter().any(|w| matches!(*w, "-T" | "--target"))
                        && rest.iter().any(|w| w.contains("TARGET")) =>
                {
                    Some("/".to_string())
                }
                ["pkg-config", rest @ ..] => pkg_config_variable(rest).map(str::to_string),
                // One word, no slash, whatever the machine (`uname -m`, `hostname -s`, `nproc`,
                // `date +%F`, `id -u`, `git rev-parse --short HEAD`): under a directory, the
                // place stays under it.
                ["uname" | "arch" | "nproc" | "hostname" | "whoami", ..]
                | ["id", "-u" | "-g" | "-gn"]
                | ["git", "rev-parse", "--short", "HEAD"]
                    if under_a_known_place(&out[..at]) =>
                {
                    Some("x86_64".to_string())
                }
                ["date", format]
                    if format.starts_with('+')
                        && !format.contains('/')
                        && under_a_known_place(&out[..at]) =>
                {
                    Some("2026-01-01".to_string())
                }
                // Where the system's Ruby keeps its gems, R its home, npm its global packages.
                ["gem", "env" | "environment", "gemdir" | "gempath"] => {
                    Some("/var/lib/gems".to_string())
                }
                ["R", "RHOME", ..] => Some("/usr/lib/R".to_string()),
                // (Or any file of its own it is asked for: `-print-libgcc-file-name`.)
                ["gcc" | "cc" | "clang", flag]
                    if flag.starts_with("-print-") && flag.contains("file-name") =>
                {
                    Some("/usr/lib/gcc".to_string())
                }
                ["npm", "root", "-g" | "--global"] => Some("/usr/lib/node_modules".to_string()),
                // A system file's real place: the file, or one in the system's trees it
                // points to (`readlink -f /etc/os-release`); its directory is the system's.
                ["readlink", "-f" | "-e" | "-m" | "--canonicalize", path] | ["realpath", path]
                    if path.trim_matches('"').starts_with('/')
                        && !path.contains(['$', '`', '*', '?'])
                        && (out[..at].ends_with("$(dirname \"")
                            || out[..at].ends_with("$(dirname ")) =>
                {
                    Some(path.trim_matches('"').to_string())
                }
                _ => self
                    .account_home(inner, &words)
                    .or_else(|| installed_tree(&words)),
            };
            match value {
                Some(v) => {
                    out.replace_range(at..at + 3 + len, &v);
                    from = at + v.len();
                }
                None => from = at + 2,
            }
        }
    }

    /// The home directory an account lookup prints (`getent passwd www-data | cut -d: -f6`,
    /// `awk -F: '$3==2{print $6}' /etc/passwd`): the agent's own account's is its home, a system
    /// account's is the system's (`/var/www`, `/bin`).
    fn account_home(&self, inner: &str, words: &[&str]) -> Option<String> {
        let squeezed: String = inner.chars().filter(|c| !c.is_whitespace()).collect();
        if !(squeezed.contains("-f6") || squeezed.contains("print$6")) {
            return None;
        }
        let own = self.places.home.file_name().and_then(|n| n.to_str());
        let by_name = |name: &str| {
            let name = name.trim_matches(['"', '\'']);
            if own == Some(name) {
                Some(self.places.home.to_string_lossy().into_owned())
            } else {
                trail_zones::paths::system_account_home(name).map(str::to_string)
            }
        };
        match words {
            ["getent", "passwd", name, "|", ..] => by_name(name),
            [awk, ..]
                if matches!(*awk, "awk" | "gawk" | "mawk") && inner.contains("/etc/passwd") =>
            {
                let (_, cond) = squeezed
                    .split_once("$3==")
                    .or(squeezed.split_once("$1=="))?;
                let key: String = cond
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '"'))
                    .collect();
                match key.parse::<u32>() {
                    Ok(uid) => trail_zones::paths::SYSTEM_ACCOUNTS
                        .iter()
                        .find(|(_, id, _)| *id == uid)
                        .map(|(_, _, home)| (*home).to_string()),
                    Err(_) => by_name(&key),
                }
            }
            _ => None,
        }
    }

    /// A path opening with a placeholder a tool fills from its table of directories, as
    /// systemd's specifiers (`%S/NetworkManager` is `/var/lib/NetworkManager`, `%E` is `/etc`)
    /// and autoconf's names (`{sysconfdir}/x`, `{localstatedir}/lib/x`) do: the system's own
    /// directories, whichever tool fills them.
    fn placeholder_filled(&self, raw: &str) -> Option<String> {
        let bare = raw.trim_matches(['"', '\'']);
        // (Every word a path is asked of comes here; nearly none holds one of these.)
        if !bare.contains(['%', '\\', '{']) {
            return None;
        }
        // Or its slashes in an escape the tool decodes itself (`%2Fusr%2Fshare`, `\x2fvar`,
        // `\057usr`): the path they spell.
        if !bare.contains('/') {
            let decoded = ["%2F", "%2f", "\\x2f", "\\x2F", "\\057"]
                .iter()
                .fold(bare.to_string(), |s, e| s.replace(e, "/"));
            if decoded.contains('/') {
                return Some(decoded);
            }
        }
        let (head, rest) = match bare.find('/') {
            Some(i) => bare.split_at(i),
            None => (bare, ""),
        };
        if head == "%h" {
            return Some(format!("{}{rest}", self.places.home.to_string_lossy()));
        }
        let dir = match head {
            "%S" => "/var/lib",
            "%L" => "/var/log",
            "%E" => "/etc",
            "%C" => "/var/cache",
            "%t" => "/run",
            "%V" => "/var/tmp",
            "{sysconfdir}" => "/etc",
            "{localstatedir}" => "/var",
            "{sharedstatedir}" => "/var/lib",
            "{runstatedir}" => "/run",
            "{datadir}" | "{datarootdir}" => "/usr/share",
            "{prefix}" | "{exec_prefix}" => "/usr",
            "{libdir}" => "/usr/lib",
            "{libexecdir}" => "/usr/libexec",
            "{bindir}" => "/usr/bin",
            "{sbindir}" => "/usr/sbin",
            "{includedir}" => "/usr/include",
            _ => return None,
        };
        Some(format!("{dir}{rest}"))
    }

    /// What `systemd-path KEY` prints, by systemd's own table: the `user…` keys are under the
    /// home directory, the `system…` keys are the system's directories.
    fn systemd_path(&self, key: &str) -> Option<String> {
        let home = self.places.home.to_string_lossy();
        Some(match key.trim_matches(['"', '\'']) {
            "user" => home.into_owned(),
            "user-configuration" => format!("{home}/.config"),
            "user-cache" => format!("{home}/.cache"),
            "user-state-private" => format!("{home}/.local/state"),
            "user-shared" => format!("{home}/.local/share"),
            "user-binaries" => format!("{home}/.local/bin"),
            "user-library-private" => format!("{home}/.local/lib"),
            "system-binaries" => "/usr/bin".into(),
            "system-include" => "/usr/include".into(),
            "system-library-private" => "/usr/lib".into(),
            "system-library-arch" => "/usr/lib/x86_64-linux-gnu".into(),
            "system-shared" => "/usr/share".into(),
            "system-configuration" | "system-configuration-factory" => "/etc".into(),
            "system-runtime" => "/run".into(),
            "system-runtime-logs" => "/run/log".into(),
            "system-state-private" => "/var/lib".into(),
            "system-state-logs" => "/var/log".into(),
            "system-state-cache" => "/var/cache".into(),
            "system-state-spool" => "/var/spool".into(),
            "temporary" => "/tmp".into(),
            "temporary-large" => "/var/tmp".into(),
            _ => return None,
        })
    }

    /// `$(cd DIR && pwd)` in `out` replaced by the directory's path (`$(cd ../.. && pwd)`,
    /// several steps in turn, `cd -P`).
    fn cd_then_pwd(&self, out: &mut String) {
        // A directory's own path, asked of the shell (`$(cd ../.. && pwd)`).
        while let Some(at) = out.find("$(cd ") {
            let inner_start = at + "$(cd ".len();
            let Some(len) = out[inner_start..].find(')') else {
                break;
            };
            // (`cd -P`, `cd -L`: the same directory, links resolved or not.)
            let inner = out[inner_start..inner_start + len]
                .trim_start()
                .trim_start_matches("-P ")
                .trim_start_matches("-L ");
            let Some(dir) = ["&& pwd", "; pwd"]
                .iter()
                .find_map(|p| inner.trim_end().strip_suffix(p))
                .map(|d| d.trim().trim_matches(['"', '\'']))
            else {
                break;
            };
            // Several steps taken in turn (`$(cd build && cd ../.. && pwd)`): one path.
            let steps: Vec<&str> = dir
                .split("&& cd ")
                .flat_map(|s| s.split("; cd "))
                .map(|s| s.trim().trim_matches(['"', '\'']))
                .collect();
            if steps
                .iter()
                .any(|d| d.is_empty() || d.contains(['$', '`', ' ', '&', ';']))
                || steps[1..].iter().any(|d| d.starts_with(['/', '~']))
            {
                break;
            }
            let dir = steps.join("/");
            let Some(path) = self.places.resolve(&dir) else {
                break;
            };
            out.replace_range(at..=inner_start + len, &path.to_string_lossy());
        }
    }

    /// `raw` with the command substitutions whose output the gate knows put in: the working
    /// directory (`$(pwd)`, `` `pwd` ``), and the directory or the path of a place it can
    /// resolve (`$(dirname "$PWD")` is the project's parent, `$(realpath build)`). `None` when
    /// there is none. Only these: any other command's output stays unknown.
    pub(crate) fn computed(&self, raw: &str) -> Option<String> {
        if !raw.contains("$(") && !raw.contains("`pwd`") {
            return None;
        }
        let mut out = raw.to_string();
        for pwd in ["$(pwd)", "$(pwd -P)", "$(pwd -L)", "`pwd`"] {
            out = out.replace(pwd, "$PWD");
        }
        self.path_printed_by_code(&mut out);
        self.known_outputs(&mut out);
        // A user's home asked of the account database (`$(getent passwd dev | cut -d: -f6)`):
        // the person's own home when the name is theirs, another's under `/home` otherwise.
        while let Some(at) = out.find("$(getent passwd ") {
            let inner_start = at + "$(getent passwd ".len();
            let Some(len) = out[inner_start..].find(')') else {
                break;
            };
            let inner = &out[inner_start..inner_start + len];
            let mut pieces = inner.split('|');
            let user = pieces.next().unwrap_or("").trim();
            let sixth = pieces.next().is_some_and(|cut| {
                cut.split_whitespace().collect::<Vec<_>>() == ["cut", "-d:", "-f6"]
            });
            if !sixth
                || user.is_empty()
                || !user
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
            {
                break;
            }
            let home = &self.places.home;
            let path = if home.file_name().is_some_and(|n| n == user) {
                home.clone()
            } else {
                std::path::Path::new("/home").join(user)
            };
            out.replace_range(at..=inner_start + len, &path.to_string_lossy());
        }
        self.cd_then_pwd(&mut out);
        for (program, parent) in [
            ("$(dirname ", true),
            ("$(realpath ", false),
            ("$(readlink ", false),
        ] {
            // The innermost first (`$(dirname "$(dirname "$PWD")")`).
            while let Some(at) = out.rfind(program) {
                let inner_start = at + program.len();
                let Some(len) = out[inner_start..].find(')') else {
                    break;
                };
                let Some(operand) =
                    canonical_operand(program, out[inner_start..inner_start + len].trim())
                else {
                    break;
                };
                let bare = operand.trim_matches(['"', '\'']);
                // (The working directory and the home are known: `$(dirname "$HOME")`.)
                let known = ["$PWD", "$HOME", "${HOME}", "$TMPDIR", "${TMPDIR}"]
                    .iter()
                    .any(|v| bare.starts_with(v) && !bare[v.len()..].contains(['$', '`', ' ']));
                if bare.is_empty() || bare.contains(['$', '`', ' ']) && !known {
                    break;
                }
                let Some(path) = self.places.resolve(bare) else {
                    break;
                };
                let path = if parent {
                    path.parent()
                        .map_or(path.clone(), std::path::Path::to_path_buf)
                } else {
                    path
                };
                out.replace_range(at..=inner_start + len, &path.to_string_lossy());
            }
        }
        (out != raw).then_some(out)
    }

    /// `$X` and `${X…}` replaced by values this line assigned.
    pub(crate) fn expand_line_vars(&self, raw: &str) -> String {
        self.expand_vars(raw, false)
    }

    /// The same, with only the values that are text: a variable set to a command's output
    /// (`X=$(git branch)`) holds that output, not the command, and is left as it is.
    pub(crate) fn expand_text_vars(&self, raw: &str) -> String {
        self.expand_vars(raw, true)
    }

    fn expand_vars(&self, raw: &str, text_only: bool) -> String {
        // A value may name a variable set before it (`a=$b`): a few passes, each left to
        // right, and no more (a value that names its own variable, `X=${X:-unknown}`).
        let mut out = raw.to_string();
        for _ in 0..4 {
            let next = self.expand_once(&out, text_only);
            if next == out {
                break;
            }
            out = next;
        }
        out
    }

    /// One left-to-right pass: each `$X`, `${X}` and `${X:…}` of a variable this line set is
    /// its latest value; `$XY` is not `$X` then `Y`, and `$X$Y` is both (`of="$t$u"`).
    fn expand_once(&self, raw: &str, text_only: bool) -> String {
        let value_of = |name: &str| {
            let (_, v) = self.line.vars.iter().rev().find(|(n, _)| n == name)?;
            (!(text_only && (v.contains("$(") || v.contains('`')))).then_some(v.as_str())
        };
        let name_len = |s: &str| {
            s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(s.len())
        };
        let mut out = String::with_capacity(raw.len());
        let mut rest = raw;
        while let Some(i) = rest.find('$') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            if let Some(inner) = after.strip_prefix('{')
                && let Some(close) = inner.find('}')
            {
                let body = &inner[..close];
                let n = name_len(body);
                let (name, tail) = body.split_at(n);
                // `${X}`, and `${X:-…}` and friends, which take the assigned value.
                if let Some(v) = value_of(name).filter(|_| tail.is_empty() || tail.starts_with(':'))
                {
                    out.push_str(v);
                    rest = &inner[close + 1..];
                    continue;
                }
                out.push_str(&rest[i..=i + 2 + close]);
                rest = &inner[close + 1..];
                continue;
            }
            let n = name_len(after);
            match value_of(&after[..n]).filter(|_| n > 0) {
                Some(v) => out.push_str(v),
                None => out.push_str(&rest[i..i + 1 + n]),
            }
            rest = &after[n..];
        }
        out.push_str(rest);
        out
    }
}

/// Asks git whether `path` is ignored in the project. Only called for recursive deletions
/// inside the project, never on the common path. Through trail's hardened git
/// ([`crate::git::command`]): a `core.fsmonitor` in the project's `.git/config` would otherwise
/// run inside the PreToolUse hook.
pub fn git_ignored(places: &Places, path: &std::path::Path) -> bool {
    crate::git::command(&places.project_root)
        .args(["check-ignore", "-q", "--"])
        .arg(path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Judge a command line: the worst of everything that matched (allow when nothing did; an
/// allow that says why, for a program trail does not model, over a bare one).
pub fn evaluate(line: &str, ctx: &Context) -> Decision {
    let mut worst = Decision::allow();
    for d in findings(line, ctx) {
        if d.verdict > worst.verdict || d.verdict == worst.verdict && worst.command.is_none() {
            worst = d;
        }
    }
    worst
}

/// Judge a tool call that reaches `zones` (a read tool's files, a search's tree) by the rules a
/// shell command reaching them meets; `targets` are the paths as written, `action` the call.
pub fn evaluate_reach(
    zones: &[(zones::Zone, zones::Access)],
    targets: &[String],
    action: &str,
    ctx: &Context,
) -> Decision {
    let mut worst = Decision::allow();
    for d in judge::reached(zones, ctx, action) {
        if d.verdict > worst.verdict {
            worst = d;
        }
    }
    worst.targets = targets.to_vec();
    worst
}

/// Every rule that matched anywhere in the command line, in order.
pub fn findings(line: &str, ctx: &Context) -> Vec<Decision> {
    judge::line(line, ctx, 0)
}

/// What judging one command found, in order: decisions, and the command lines it runs.
///
/// The modules that see what a command runs indirectly ([`indirect`], [`code`], [`shells`])
/// report those command lines here instead of judging them: [`judge`] judges each in its
/// place, one shell deeper, so the walk is the only code that recurses.
#[derive(Default)]
struct Findings(Vec<Finding>);

enum Finding {
    Decided(Decision),
    /// A command line the command runs, and which of its findings count here.
    Runs(String, Keep),
    /// PowerShell code the command runs (`pwsh -c`).
    RunsPowerShell(String),
}

/// Which findings of a command line run indirectly count for the command that runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keep {
    All,
    /// Junctions and blocks: the line is a value that may run, not what the command does.
    Risky,
    /// Blocks only: the line runs where the gate sees only part of what it reaches (inside a
    /// container).
    Blocks,
    /// Blocks of the commands it would run, not of its shell syntax: code in another language
    /// judged as if a shell ran it (`awk '{print $1}'` is no brace group hiding a name).
    CommandBlocks,
    /// Everything, for a line run on another host (`ssh HOST CMD`): what it would do to this
    /// machine it does there, and that host's power is a person's call, not this one's.
    Remote,
}

impl Keep {
    fn keeps(self, d: &Decision) -> bool {
        match self {
            Keep::All | Keep::Remote => true,
            Keep::Risky => d.verdict > Verdict::Allow,
            Keep::Blocks => d.verdict == Verdict::Block,
            Keep::CommandBlocks => {
                d.verdict == Verdict::Block
                    && !matches!(
                        d.rule.as_deref().and_then(RuleId::parse),
                        Some(RuleId::Obfuscation | RuleId::ForkBomb)
                    )
                    // A member of an object, in another language's code, is no program
                    // (`os.home / ".aws"` divides no disk).
                    && !d.command.as_deref().is_some_and(|c| {
                        member_access(c.split_whitespace().next().unwrap_or_default())
                    })
            }
        }
    }
}

/// Whether a word is a member of an object as code writes it (`os.home`, `process.env`):
/// identifiers joined by dots, the last one letters only, no verb of consequence (`Dir.delete`
/// is a call) and not a script's extension (`x.sh`; a program's own dot has a digit or a known
/// name, `mkfs.ext4`).
fn member_access(word: &str) -> bool {
    let Some((head, last)) = word.rsplit_once('.') else {
        return false;
    };
    let identifier = |p: &str| {
        p.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    head.split('.').all(identifier)
        && last.bytes().all(|b| b.is_ascii_alphabetic())
        && last.len() >= 2
        && !matches!(
            last,
            "sh" | "bash" | "py" | "pl" | "rb" | "js" | "ts" | "php" | "lua" | "tcl" | "exe"
        )
        // A member that is an act is called with what follows (`Dir.delete "/home/dev"`).
        && !effect::names_an_act(last)
        && !known::is_program(word)
}

impl Findings {
    fn push(&mut self, d: Decision) {
        self.0.push(Finding::Decided(d));
    }

    fn extend(&mut self, ds: impl IntoIterator<Item = Decision>) {
        self.0.extend(ds.into_iter().map(Finding::Decided));
    }

    /// The command runs `line` (a shell command line).
    fn runs(&mut self, line: &str, keep: Keep) {
        self.0.push(Finding::Runs(line.into(), keep));
    }

    /// The command runs PowerShell code.
    fn runs_powershell(&mut self, code: String) {
        self.0.push(Finding::RunsPowerShell(code));
    }
}

pub(crate) fn junction(rule: RuleId, reason: &str, command: &str) -> Decision {
    Decision {
        verdict: Verdict::Junction,
        rule: Some(rule.into()),
        reason: reason.into(),
        command: Some(command.into()),
        targets: Vec::new(),
    }
}

pub(crate) fn block(rule: RuleId, reason: String, command: &str) -> Decision {
    Decision {
        verdict: Verdict::Block,
        rule: Some(rule.into()),
        reason,
        command: Some(command.into()),
        targets: Vec::new(),
    }
}

/// Whether the word that ends with `before` is a path under the project, the home or the
/// temporary directory as the shell writes it (`"$PWD/build/`, `build/`): a one-word value
/// put there names a place under it. (Elsewhere, `/boot/config-$(uname -r)`, the gate keeps
/// the value unknown.)
fn under_a_known_place(before: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '=')
        .next()
        .unwrap_or("")
        .trim_start_matches(['"', '\'']);
    word.ends_with('/')
        && (["$PWD/", "${PWD}/", "$TMPDIR/", "${TMPDIR}/", "$HOME/", "~/"]
            .iter()
            .any(|p| word.starts_with(p))
            || !word.starts_with(['/', '$', '~']))
}

/// Where a toolchain asked where it was installed says it lives (`pg_config --sharedir`,
/// `ghc --print-libdir`, `ocamlc -where`, `go env GOROOT`, `git --exec-path`, `kpsewhich
/// -var-value TEXMFDIST`, `guile-config info pkgdatadir`): a directory of the system's
/// packages, whatever the program is called. A word for the installed tree decides (`where`,
/// `prefix`, `sysroot`, a `…dir` of libraries, data or extensions, a `…root`, an exec path);
/// one for what a person keeps (`--cache-dir`, `GOPATH`, `--git-dir`, `--config-dir`) rules it
/// out.
fn installed_tree(words: &[&str]) -> Option<String> {
    const QUALIFIERS: &[&str] = &[
        "lib",
        "share",
        "data",
        "include",
        "bin",
        "sbin",
        "pkgdata",
        "pkglib",
        "pkginclude",
        "sysconf",
        "libexec",
        "extension",
        "plugin",
        "module",
        "man",
        "doc",
        "locale",
        "install",
    ];
    const PERSONAL: &[&str] = &[
        "cache",
        "tmp",
        "temp",
        "user",
        "state",
        "config",
        "gopath",
        "path",
        "workspace",
        "project",
        "git",
        "home",
        "local",
        "out",
        "output",
        "build",
    ];
    let (program, rest) = words.split_first()?;
    if rest.is_empty()
        || !program
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.+".contains(&b))
        || rest
            .iter()
            .any(|w| w.contains(['|', '$', '`', '/', ';', '&']))
    {
        return None;
    }
    let parts: Vec<String> = rest
        .iter()
        .flat_map(|w| trail_base::text::words(w))
        .collect();
    let tree = parts.iter().enumerate().any(|(i, p)| {
        let before = i.checked_sub(1).map(|j| parts[j].as_str());
        matches!(p.as_str(), "where" | "prefix" | "sysroot")
            || p.len() > 3
                && p.strip_suffix("dir")
                    .is_some_and(|q| QUALIFIERS.contains(&q))
            || p == "dir" && before.is_some_and(|b| QUALIFIERS.contains(&b))
            || p.len() > 4 && (p.ends_with("root") || p.ends_with("dist"))
            || p == "path" && before == Some("exec")
    });
    let personal = parts.iter().enumerate().any(|(i, p)| {
        PERSONAL.contains(&p.as_str()) && !(p == "path" && i > 0 && parts[i - 1] == "exec")
    });
    (tree && !personal).then(|| format!("/usr/lib/{program}"))
}

/// What `pkg-config --variable=NAME PACKAGE` prints for a package of the system's own: the
/// directories it was installed under (`prefix` is `/usr`).
fn pkg_config_variable(words: &[&str]) -> Option<&'static str> {
    let name = words.iter().enumerate().find_map(|(i, w)| {
        w.strip_prefix("--variable=").or_else(|| {
            (*w == "--variable")
                .then(|| words.get(i + 1).copied())
                .flatten()
        })
    })?;
    Some(match name {
        "prefix" | "exec_prefix" => "/usr",
        "libdir" => "/usr/lib/x86_64-linux-gnu",
        "includedir" => "/usr/include",
        "datadir" | "datarootdir" => "/usr/share",
        "bindir" => "/usr/bin",
        "sbindir" => "/usr/sbin",
        "sysconfdir" => "/etc",
        "localstatedir" => "/var",
        "completionsdir" => "/usr/share/bash-completion/completions",
        "systemdsystemunitdir" => "/usr/lib/systemd/system",
        "systemduserunitdir" => "/usr/lib/systemd/user",
        // Any other variable of a system package's `.pc` file names a place it installed
        // (`udevdir`, `moduledir`): in the system's trees.
        _ => "/usr/lib",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use trail_testkit::git::git_ok as git;

    /// The gate asks git whether `rm -rf build` deletes ignored output; a repository whose
    /// config names programs (an fsmonitor, a pager, filters) must not make that question run one.
    #[test]
    fn asking_whether_a_path_is_ignored_runs_nothing_a_repository_names() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q"]);
        std::fs::write(root.join(".gitignore"), "build/\n").unwrap();
        std::fs::create_dir_all(root.join("build")).unwrap();
        let ran = root.join("ran");
        let evil = format!("sh -c 'touch {}'", ran.display());
        for k in [
            "core.fsmonitor",
            "core.pager",
            "filter.x.smudge",
            "filter.x.clean",
        ] {
            git(root, &["config", k, &evil]);
        }
        std::fs::write(root.join(".gitattributes"), "* filter=x\n").unwrap();
        let places = Places {
            project_root: root.to_path_buf(),
            home: root.to_path_buf(),
            cwd: root.to_path_buf(),
            tmpdir: None,
            trail_home: None,
            secrets_dir: None,
        };
        assert!(git_ignored(&places, &root.join("build")));
        assert!(!git_ignored(&places, &root.join("src")));
        assert!(!ran.exists(), "a repository's config ran a program");
    }
}
