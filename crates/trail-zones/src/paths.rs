//! What a path argument points at, judged lexically (the gate never touches the filesystem to
//! decide, except to ask git whether a path is ignored build output).

use std::path::{Component, Path, PathBuf};

/// Where a path lies, from the gate's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// `/`
    Root,
    /// The home directory itself.
    Home,
    /// A system directory (`/etc`, `/usr`, …) or something inside one.
    System,
    /// The project root itself (or everything in it, as `*` there).
    ProjectRoot,
    /// Inside the project.
    Inside,
    /// Inside a temporary directory.
    Tmp,
    /// Anywhere else.
    Outside,
    /// Cannot be known without running the shell (variables, substitutions).
    Unknown,
}

/// The directories a path is judged against.
#[derive(Clone, Debug)]
pub struct Places {
    pub project_root: PathBuf,
    pub home: PathBuf,
    pub cwd: PathBuf,
    pub tmpdir: Option<PathBuf>,
    /// The personal ledger (`$TRAIL_HOME`; `~/.ledger` when unset).
    pub trail_home: Option<PathBuf>,
    /// The secret store's directory (`~/.secrets` when unset), where the person's key lives.
    pub secrets_dir: Option<PathBuf>,
}

const SYSTEM: &[&str] = &[
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/proc",
    "/root",
    "/run",
    "/sbin",
    "/srv",
    "/sys",
    "/usr",
    "/var",
    "/snap",
    "/System",
    "/Library",
    "/Applications",
    "/private",
    "/Volumes",
    "/nix",
    "/mnt",
    "/media",
    "/home",
    "/Users",
];

impl Places {
    /// The places of a process: its project root and working directory, with `HOME` and
    /// `TMPDIR` from the environment. `None` without `HOME`, which the gate needs to judge
    /// `~` and everything under it.
    pub fn from_env(project_root: PathBuf, cwd: PathBuf) -> Option<Places> {
        Some(Places {
            project_root,
            home: std::env::var_os("HOME").map(PathBuf::from)?,
            cwd,
            tmpdir: std::env::var_os("TMPDIR").map(Into::into),
            trail_home: None,
            secrets_dir: None,
        })
    }

    /// Resolve `raw` (a word as written) to an absolute, normalised path, or `None` when it
    /// depends on something only the shell knows.
    pub fn resolve(&self, raw: &str) -> Option<PathBuf> {
        let mut s = if raw.contains(['"', '\'']) {
            raw.replace(['"', '\''], "")
        } else {
            raw.to_string()
        };
        if s.contains('$') {
            s = self.expand(&s)?;
        }
        if s.starts_with('~') {
            s = self.tilde(&s)?;
        }
        if s.contains('$') || s.contains('`') {
            return None;
        }
        // A glob stands for everything under the directory it starts in; so does a name that
        // means everything there but a few (zsh's `^(proc|sys)`, bash's `!(…)`).
        let negated = s
            .find("/^")
            .map(|i| i + 1)
            .or_else(|| s.starts_with('^').then_some(0))
            .or_else(|| s.find("!("));
        // A bracket holding `=` is a path's predicate (YANG's and XPath's
        // `/network-instance[name=default]/…`), no character class.
        let bracket = s.match_indices('[').map(|(i, _)| i).find(|&i| {
            !s[i..]
                .split_once(']')
                .is_some_and(|(inside, _)| inside.contains('='))
        });
        if let Some(g) = s
            .find(['*', '?'])
            .into_iter()
            .chain(bracket)
            .chain(negated)
            .min()
        {
            let dir = match s[..g].rfind('/') {
                Some(0) => "/".to_string(),
                Some(i) => s[..i].to_string(),
                None => ".".to_string(),
            };
            let last = s[..g].rfind('/').map_or(0, |i| i + 1);
            if !self.names_a_few(&dir, &s[last..], negated.is_some()) {
                s = dir;
            }
        }
        let p = Path::new(&s);
        let abs = if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.cwd.join(p)
        };
        Some(normalise(&abs))
    }

    /// Whether a glob in a path's last part (`rest`, after `dir`) names only a few entries of
    /// `dir` spelled in part (`./b?ild`, `logs/*.old`) rather than standing for the directory:
    /// it must spell at least two letters of its own and could name none of the places that
    /// matter there (`/us?` may be `/usr`, `~/../h*` the home's parent).
    fn names_a_few(&self, dir: &str, rest: &str, negated: bool) -> bool {
        let pattern = rest.trim_start_matches('/');
        // A hidden name's glob reaches every dotfile it could (`~/.s*`): the directory's.
        if negated || pattern.is_empty() || pattern.contains('/') || pattern.starts_with('.') {
            return false;
        }
        if spelled_letters(pattern) < 2 {
            return false;
        }
        let dir = normalise(&if Path::new(dir).is_absolute() {
            PathBuf::from(dir)
        } else {
            self.cwd.join(dir)
        });
        let tmps = [Path::new("/tmp"), Path::new("/var/tmp")];
        let mut places: Vec<&Path> = vec![&self.home, &self.project_root, &self.cwd];
        places.extend(tmps);
        places.extend(self.tmpdir.as_deref());
        places.extend(self.trail_home.as_deref());
        places.extend(self.secrets_dir.as_deref());
        places.extend(SYSTEM.iter().map(Path::new));
        !places.iter().any(|place| {
            place.ancestors().any(|a| {
                a.parent() == Some(&dir)
                    && a.file_name()
                        .is_some_and(|n| crate::zones::glob_match(pattern, &n.to_string_lossy()))
            })
        })
    }

    /// The variables whose value the gate knows, expanded as the shell would: `$HOME`,
    /// `$TMPDIR` (`/tmp` when unset), `$PWD`, `$CLAUDE_PROJECT_DIR`, in the forms `$V`, `${V}`,
    /// `${V:-…}`, `${V-…}`, `${V:?…}`, `${V?…}`, `${V:=…}`. Another variable with a default
    /// (`${X:-/tmp}`) may hold anything: `None`.
    pub fn expand(&self, s: &str) -> Option<String> {
        let mut out = String::with_capacity(s.len() + 16);
        let mut rest = s;
        while let Some(i) = rest.find('$') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let (name, len) = if let Some(body) = after.strip_prefix('{') {
                let end = body.find('}')?;
                let inner = &body[..end];
                let name_end = inner
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(inner.len());
                let op = &inner[name_end..];
                // `${V%/*}`, `${V##*/}`: the value with a pattern taken off one end.
                if op.starts_with(['%', '#']) {
                    let value = self.known(&inner[..name_end])?;
                    out.push_str(&trimmed(&value, op)?);
                    rest = &body[end + 1..];
                    continue;
                }
                // `${PWD:0:1}`, `${HOME: -4}`: a slice of the value.
                if let Some(slice) = op.strip_prefix(':').and_then(sliced_by) {
                    let value = self.known(&inner[..name_end])?;
                    out.push_str(&slice(&value)?);
                    rest = &body[end + 1..];
                    continue;
                }
                // `${#V}`, `${V/x/y}`: not a plain value.
                if !(op.is_empty()
                    || [":-", "-", ":?", "?", ":=", "="]
                        .iter()
                        .any(|o| op.starts_with(o)))
                {
                    return None;
                }
                (&inner[..name_end], end + 2)
            } else {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                (&after[..end], end)
            };
            out.push_str(&self.known(name)?);
            rest = &after[len..];
        }
        out.push_str(rest);
        Some(out)
    }

    /// The value of a variable the gate knows.
    fn known(&self, name: &str) -> Option<String> {
        Some(match name {
            "HOME" => self.home.to_string_lossy().into_owned(),
            "TMPDIR" => self
                .tmpdir
                .as_deref()
                .unwrap_or(Path::new("/tmp"))
                .to_string_lossy()
                .into_owned(),
            "PWD" => self.cwd.to_string_lossy().into_owned(),
            "CLAUDE_PROJECT_DIR" => self.project_root.to_string_lossy().into_owned(),
            // The shell running the line: the system's own program (`${BASH%/*}` is `/usr/bin`).
            "BASH" => "/usr/bin/bash".to_string(),
            _ => return None,
        })
    }

    /// `~`, `~/x`, and `~user`: the home directory's own name is home, a system account's is
    /// the system's ([`SYSTEM_ACCOUNTS`]: `~root`, `~daemon`), any other user lives next to
    /// this home (`/home/<user>`).
    fn tilde(&self, s: &str) -> Option<String> {
        let (user, rest) = match s[1..].find('/') {
            Some(i) => (&s[1..=i], &s[i + 1..]),
            None => (&s[1..], ""),
        };
        // `~+`, the working directory (bash and zsh).
        if user == "+" {
            return Some(format!("{}{rest}", self.cwd.to_string_lossy()));
        }
        let home = if user.is_empty()
            || self
                .home
                .file_name()
                .is_some_and(|n| n == std::ffi::OsStr::new(user))
        {
            self.home.clone()
        } else if let Some(home) = system_account_home(user) {
            PathBuf::from(home)
        } else if user
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        {
            self.home.parent().unwrap_or(Path::new("/home")).join(user)
        } else {
            // `~-` (the last working directory): only the shell knows.
            return None;
        };
        Some(format!("{}{rest}", home.to_string_lossy()))
    }

    pub fn classify(&self, raw: &str) -> Place {
        let Some(p) = self.resolve(raw) else {
            return Place::Unknown;
        };
        if p == Path::new("/") {
            return Place::Root;
        }
        if p == self.home {
            return Place::Home;
        }
        if p == self.project_root {
            return Place::ProjectRoot;
        }
        // A directory above the home directory holds it: deleting, moving or opening it up does
        // the same to the home directory (`rm -rf ~/..`).
        if self.home.starts_with(&p) {
            return Place::Home;
        }
        // The project and the home directory win over a temporary directory they may sit in.
        if p.starts_with(&self.project_root) {
            return Place::Inside;
        }
        if p.starts_with(&self.home) {
            return Place::Outside;
        }
        let tmps = [
            Some(PathBuf::from("/tmp")),
            Some(PathBuf::from("/var/tmp")),
            self.tmpdir.clone(),
        ];
        // A glob in one's own temporary directory (`"$TMPDIR"/*.star`) names files in it, not
        // the directory the glob stands in for.
        let globbed = last_part_globbed(raw);
        for t in tmps.iter().flatten() {
            if p.starts_with(t) {
                // The temporary directory itself is shared by everyone: not scratch space.
                let own_files = globbed && self.tmpdir.as_ref() == Some(t);
                return if p == *t && !own_files {
                    Place::Outside
                } else {
                    Place::Tmp
                };
            }
        }
        // Another person's home (`/home/ana/…`) is theirs, not the system's: a person decides.
        for people in [
            "/home", "/Users", "/srv", "/mnt", "/media", "/Volumes", "/opt",
        ] {
            if p.starts_with(people) && p.components().count() >= 3 {
                return Place::Outside;
            }
        }
        if SYSTEM.iter().any(|s| p.starts_with(s)) {
            return Place::System;
        }
        Place::Outside
    }
}

/// The characters of a glob that stand for themselves: outside a bracket class, neither a
/// wildcard nor a dot (`*.*` spells nothing; `b?ild` spells four).
fn spelled_letters(pattern: &str) -> usize {
    let mut in_class = false;
    pattern
        .chars()
        .filter(|&c| {
            match c {
                '[' => in_class = true,
                ']' if in_class => {
                    in_class = false;
                    return false;
                }
                _ => {}
            }
            !in_class && !matches!(c, '*' | '?' | '.' | '[' | ']' | '\\')
        })
        .count()
}

/// `..` and `.` resolved without touching the filesystem.
pub(super) fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

/// Whether a relative path goes down and then climbs back out past where it started
/// (`build/dcp/../../..`, `build/../../../home/dev`): no one writes that to mean the parent,
/// which `..` alone says.
pub fn climbs_out(word: &str) -> bool {
    let mut depth = 0i32;
    let mut descended = false;
    word.split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .any(|p| {
            if p == ".." {
                depth -= 1;
                descended && depth < 0
            } else {
                depth += 1;
                descended = true;
                false
            }
        })
}

/// Whether a word's last part is a glob (`"$TMPDIR"/*.star`): it names the files in the
/// directory a resolved path stands for, not that directory.
pub fn last_part_globbed(raw: &str) -> bool {
    raw.rsplit('/')
        .next()
        .is_some_and(|last| last.contains(['*', '?']))
}

/// The slice `${V:OFFSET}` or `${V:OFFSET:LENGTH}` takes, for whole-number bounds (a negative
/// offset needs a space or parentheses, or it is `:-`'s default); anything computed: `None`.
fn sliced_by(op: &str) -> Option<impl Fn(&str) -> Option<String>> {
    fn number(s: &str) -> Option<i64> {
        let s = s.trim();
        let s = s
            .strip_prefix('(')
            .and_then(|x| x.strip_suffix(')'))
            .unwrap_or(s)
            .trim();
        s.parse().ok()
    }
    if op.starts_with(['-', '=', '?', '+']) {
        return None;
    }
    let (offset, length) = match op.split_once(':') {
        Some((o, l)) => (number(o)?, Some(number(l)?)),
        None => (number(op)?, None),
    };
    Some(move |value: &str| {
        let chars: Vec<char> = value.chars().collect();
        let n = i64::try_from(chars.len()).ok()?;
        let start = if offset < 0 { n + offset } else { offset };
        if start < 0 || start > n {
            return Some(String::new());
        }
        let end = match length {
            None => n,
            Some(l) if l < 0 => n + l,
            Some(l) => (start + l).min(n),
        };
        // bash refuses a negative length that ends before the start.
        if end < start {
            return None;
        }
        let (start, end) = (usize::try_from(start).ok()?, usize::try_from(end).ok()?);
        Some(chars[start..end].iter().collect())
    })
}

/// `value` with the shell's pattern taken off one end, as `${V%PAT}` (shortest suffix),
/// `${V%%PAT}` (longest), `${V#PAT}` and `${V##PAT}` (prefix) do. Only `*` and `?` patterns;
/// a class, a quote or an expansion in it: `None`.
fn trimmed(value: &str, op: &str) -> Option<String> {
    let (suffix, longest, pattern) = if let Some(p) = op.strip_prefix("%%") {
        (true, true, p)
    } else if let Some(p) = op.strip_prefix('%') {
        (true, false, p)
    } else if let Some(p) = op.strip_prefix("##") {
        (false, true, p)
    } else {
        (false, false, op.strip_prefix('#')?)
    };
    // Two stars at most: the match tries every split, and a pattern is a line's word.
    if pattern.contains(['[', '\\', '\'', '"', '$', '`', '{', '('])
        || pattern.bytes().filter(|&b| b == b'*').count() > 2
    {
        return None;
    }
    let cuts: Vec<usize> = (0..=value.len())
        .filter(|&i| value.is_char_boundary(i))
        .collect();
    let matches = |i: usize| {
        if suffix {
            glob(pattern.as_bytes(), &value.as_bytes()[i..])
        } else {
            glob(pattern.as_bytes(), &value.as_bytes()[..i])
        }
    };
    // The shortest piece first: a suffix from the end, a prefix from the start.
    let found = match (suffix, longest) {
        (true, false) | (false, true) => cuts.iter().rev().copied().find(|&i| matches(i)),
        (true, true) | (false, false) => cuts.iter().copied().find(|&i| matches(i)),
    };
    Some(match found {
        Some(i) if suffix => value[..i].to_string(),
        Some(i) => value[i..].to_string(),
        None => value.to_string(),
    })
}

/// A shell pattern of `*` and `?` matched against the whole of `text`.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => (0..=text.len()).any(|i| glob(rest, &text[i..])),
        Some((b'?', rest)) => !text.is_empty() && glob(rest, &text[1..]),
        Some((c, rest)) => text.first() == Some(c) && glob(rest, &text[1..]),
    }
}

/// The home directories of the accounts a system creates for itself (Debian's base-passwd and
/// the common services): `~daemon` is `/usr/sbin`, `~www-data` is `/var/www`. Each is a system
/// directory, whatever a command does there. The account's name, or its number as `$3` of the
/// accounts table reads it.
pub const SYSTEM_ACCOUNTS: &[(&str, u32, &str)] = &[
    ("root", 0, "/root"),
    ("daemon", 1, "/usr/sbin"),
    ("bin", 2, "/bin"),
    ("sys", 3, "/dev"),
    ("sync", 4, "/bin"),
    ("games", 5, "/usr/games"),
    ("man", 6, "/var/cache/man"),
    ("lp", 7, "/var/spool/lpd"),
    ("mail", 8, "/var/mail"),
    ("news", 9, "/var/spool/news"),
    ("uucp", 10, "/var/spool/uucp"),
    ("proxy", 13, "/bin"),
    ("www-data", 33, "/var/www"),
    ("backup", 34, "/var/backups"),
    ("list", 38, "/var/list"),
    ("irc", 39, "/run/ircd"),
    ("_apt", 42, "/nonexistent"),
    ("nobody", 65534, "/nonexistent"),
];

/// The home directory of a system account named `user` (see [`SYSTEM_ACCOUNTS`]).
pub fn system_account_home(user: &str) -> Option<&'static str> {
    SYSTEM_ACCOUNTS
        .iter()
        .find(|(name, _, _)| *name == user)
        .map(|(_, _, home)| *home)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places() -> Places {
        Places {
            project_root: "/work/proj".into(),
            home: "/home/dev".into(),
            cwd: "/work/proj".into(),
            tmpdir: Some("/run/user/1000/tmp".into()),
            trail_home: None,
            secrets_dir: None,
        }
    }

    #[test]
    fn a_home_or_project_inside_a_temporary_directory_is_still_home_or_project() {
        let p = Places {
            project_root: "/tmp/t1/project".into(),
            home: "/tmp/t1/home".into(),
            cwd: "/tmp/t1/project".into(),
            tmpdir: None,
            trail_home: None,
            secrets_dir: None,
        };
        assert_eq!(p.classify("/tmp/t1/home/precious"), Place::Outside);
        assert_eq!(p.classify("/tmp/t1/home"), Place::Home);
        assert_eq!(p.classify("src"), Place::Inside);
        assert_eq!(p.classify("/tmp/t1/other"), Place::Tmp);
    }

    /// Found by the 113th sealed part (issue 20): `--photo-cache "${PWD%/proj}" --clear`
    /// cleared the project's parent, and the gate could not read the pattern taken off.
    #[test]
    fn a_known_variable_with_a_pattern_taken_off_is_read() {
        let p = places();
        for (raw, want) in [
            ("${PWD%/proj}", Some("/work")),
            ("${PWD%/*}", Some("/work")),
            ("${PWD%%/*}", Some("")),
            ("${HOME#/home/}", Some("dev")),
            ("${HOME##*/}", Some("dev")),
            ("${HOME#*/}", Some("home/dev")),
            ("${PWD%nomatch}/x", Some("/work/proj/x")),
            ("${PWD%[a-z]}", None),
            ("${PWD%*a*b*c}", None),
            ("${OTHER%/*}", None),
        ] {
            assert_eq!(p.expand(raw).as_deref(), want, "{raw}");
        }
        assert_eq!(p.classify("\"${PWD%/proj}\""), Place::Outside);
    }

    /// Found by the 153rd sealed part (issue 20): `"${PWD:0:1}root"` is `/root`.
    #[test]
    fn a_slice_of_a_known_variable_is_read() {
        let p = places();
        for (raw, want) in [
            ("${PWD:0:1}root", Some("/root")),
            ("${HOME:0:5}", Some("/home")),
            ("${HOME:6}", Some("dev")),
            ("${HOME: -3}", Some("dev")),
            ("${HOME:(-3)}", Some("dev")),
            ("${HOME:1:-4}", Some("home")),
            ("${HOME:40}", Some("")),
            ("${HOME:-/x}", Some("/home/dev")),
            ("${HOME:$n}", None),
            ("${HOME:4:-9}", None),
        ] {
            assert_eq!(p.expand(raw).as_deref(), want, "{raw}");
        }
    }

    /// Found by the 153rd sealed part (issue 20): `./b?ild` was read as the whole project root,
    /// so a clean of the build output was blocked.
    #[test]
    fn a_glob_that_spells_a_name_names_a_few_entries() {
        let p = places();
        for (raw, want) in [
            ("./b?ild", Place::Inside),
            ("b[u]ild", Place::Inside),
            ("logs/*.old", Place::Inside),
            ("./*", Place::ProjectRoot),
            ("*.*", Place::ProjectRoot),
            ("./.tr*", Place::ProjectRoot),
            ("/us?", Place::Root),
            ("/h*", Place::Root),
            ("../pro*", Place::Outside),
            ("/etc/acme-*", Place::System),
        ] {
            assert_eq!(p.classify(raw), want, "{raw}");
        }
        // A glob with no `/` before it, whose first character is wider than a byte (found by
        // the gate's property test).
        assert_eq!(p.classify("»Beõ*/x"), Place::ProjectRoot);
    }

    #[test]
    fn classifies_the_places_that_matter() {
        let p = places();
        for (raw, want) in [
            ("/", Place::Root),
            ("/*", Place::Root),
            ("//", Place::Root),
            ("~", Place::Home),
            ("$HOME", Place::Home),
            ("\"${HOME}\"", Place::Home),
            ("~/", Place::Home),
            ("/etc", Place::System),
            ("/usr/local/lib", Place::System),
            (".", Place::ProjectRoot),
            ("*", Place::ProjectRoot),
            ("./", Place::ProjectRoot),
            ("../proj", Place::ProjectRoot),
            ("target", Place::Inside),
            ("./src/../build", Place::Inside),
            ("/tmp/x", Place::Tmp),
            ("/run/user/1000/tmp/y", Place::Tmp),
            ("/tmp", Place::Outside),
            ("..", Place::Outside),
            ("~/other-project", Place::Outside),
            ("$DIR", Place::Unknown),
            ("$(pwd)/x", Place::Unknown),
        ] {
            assert_eq!(p.classify(raw), want, "{raw}");
        }
    }
}
