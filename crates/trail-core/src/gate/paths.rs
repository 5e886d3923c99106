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
        let unquoted = raw.trim_matches(|c| c == '"' || c == '\'');
        let home = self.home.to_string_lossy();
        let mut s = unquoted.to_string();
        for var in ["${HOME}", "$HOME"] {
            if let Some(rest) = s.strip_prefix(var) {
                s = format!("{home}{rest}");
            }
        }
        if s == "~" || s.starts_with("~/") {
            s = format!("{home}{}", &s[1..]);
        }
        if s.contains('$') || s.contains('`') || s.starts_with('~') {
            return None;
        }
        // A glob stands for everything under the directory it starts in.
        if let Some(g) = s.find(['*', '?', '[']) {
            let dir = match s[..g].rfind('/') {
                Some(0) => "/".to_string(),
                Some(i) => s[..i].to_string(),
                None => ".".to_string(),
            };
            s = dir;
        }
        let p = Path::new(&s);
        let abs = if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.cwd.join(p)
        };
        Some(normalise(&abs))
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
        for t in tmps.iter().flatten() {
            if p.starts_with(t) && p != *t {
                return Place::Tmp;
            }
        }
        if SYSTEM.iter().any(|s| p.starts_with(s)) {
            return Place::System;
        }
        Place::Outside
    }
}

/// `..` and `.` resolved without touching the filesystem.
fn normalise(p: &Path) -> PathBuf {
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
