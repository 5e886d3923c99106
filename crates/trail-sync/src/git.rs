//! git, run on trail's own sync repository (`$TRAIL_HOME/sync/repo.git`, bare).
//!
//! Unlike a project's repository (`trail_base::git`, hostile ground), this one is trail's: no
//! one else writes it. What must still not happen is a program named by the person's global
//! config or the environment running inside a sync, so hooks and background work are off and
//! git's own redirections are cleared. The transport is the person's, though: their ssh agent,
//! `core.sshCommand` and credential helpers are what reach their remote, so the rest of the
//! environment is kept.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};

use crate::error::{Result, SyncError};

/// Variables that would point git at another repository, index or config.
const CLEARED: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_EXTERNAL_DIFF",
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_TRACE",
];

/// The sync repository.
pub struct Repo {
    dir: PathBuf,
}

impl Repo {
    /// The bare repository at `dir`, made when missing.
    pub fn open(dir: &Path) -> Result<Repo> {
        let repo = Repo {
            dir: dir.to_path_buf(),
        };
        if !dir.join("HEAD").exists() {
            std::fs::create_dir_all(dir).map_err(SyncError::io("create", dir))?;
            let out = Command::new("git")
                .args(["init", "--bare", "--quiet"])
                .arg(dir)
                .env_remove("GIT_DIR")
                .output()
                .map_err(SyncError::spawn)?;
            check(&out, "git init --bare")?;
        }
        Ok(repo)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `git` on this repository, hardened as the module says.
    pub fn command(&self) -> Command {
        let mut c = Command::new("git");
        c.arg("--git-dir")
            .arg(&self.dir)
            .args(["-c", "core.hooksPath=/dev/null"])
            .args(["-c", "gc.auto=0"])
            .args(["-c", "maintenance.auto=false"])
            .args(["-c", "core.fsmonitor=false"])
            .args(["-c", "fetch.recurseSubmodules=false"])
            .args(["-c", "transfer.fsckObjects=true"]);
        for v in CLEARED {
            c.env_remove(v);
        }
        c.env("GIT_TERMINAL_PROMPT", "0").stdin(Stdio::null());
        c
    }

    /// Run `git ARGS` and return its stdout; a failure carries git's own words.
    pub fn run(&self, args: &[&str]) -> Result<Vec<u8>> {
        let out = self
            .command()
            .args(args)
            .output()
            .map_err(SyncError::spawn)?;
        check(&out, &format!("git {}", args.first().unwrap_or(&"")))?;
        Ok(out.stdout)
    }

    /// Start `git ARGS` with its output captured, for a caller that has other work (or another
    /// git) to run meanwhile; `Started::finish` then reads it like `run` would.
    pub fn start(&self, args: &[&str]) -> Started {
        let what = format!("git {}", args.first().unwrap_or(&""));
        let child = self
            .command()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        Started { what, child }
    }

    /// Run `git ARGS` with `input` on stdin.
    pub fn run_input(&self, args: &[&str], env: &[(&str, &Path)], input: &[u8]) -> Result<Vec<u8>> {
        let mut c = self.command();
        c.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            c.env(k, v);
        }
        let mut child = c.spawn().map_err(SyncError::spawn)?;
        let mut stdin = child.stdin.take().expect("piped");
        // Written from a thread: git may fill its stdout before it has read all of stdin.
        let input = input.to_vec();
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let out = child.wait_with_output().map_err(SyncError::spawn)?;
        let wrote = writer.join().unwrap_or(Ok(()));
        check(&out, &format!("git {}", args.first().unwrap_or(&"")))?;
        wrote.map_err(SyncError::io("write to", Path::new("git")))?;
        Ok(out.stdout)
    }

    /// One line of output, trimmed (an object id, a ref's value).
    pub fn line(&self, args: &[&str]) -> Result<String> {
        Ok(String::from_utf8_lossy(&self.run(args)?).trim().to_string())
    }

    /// The commit a ref names, if it exists.
    pub fn resolve(&self, refname: &str) -> Result<Option<String>> {
        let out = self
            .command()
            .args([
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{refname}^{{commit}}"),
            ])
            .output()
            .map_err(SyncError::spawn)?;
        if out.status.success() {
            Ok(Some(
                String::from_utf8_lossy(&out.stdout).trim().to_string(),
            ))
        } else {
            Ok(None)
        }
    }

    /// A reader of object contents (`git cat-file --batch`), one process for many objects.
    pub fn objects(&self) -> Result<Objects> {
        let mut child = self
            .command()
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(SyncError::spawn)?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Ok(Objects {
            child,
            stdin,
            stdout,
        })
    }
}

/// Object contents read through one `git cat-file --batch`.
pub struct Objects {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Objects {
    /// The bytes of object `oid`, and its type.
    pub fn read(&mut self, oid: &str) -> Result<(String, Vec<u8>)> {
        match self.get(oid)? {
            Some((_, kind, bytes)) => Ok((kind, bytes)),
            None => Err(SyncError::Git {
                what: "git cat-file --batch".into(),
                detail: format!("no such object {oid}"),
            }),
        }
    }

    /// The object `name` (an id or a ref) names, if any: its id, type and bytes.
    pub fn get(&mut self, name: &str) -> Result<Option<(String, String, Vec<u8>)>> {
        let oid = name;
        let bad = |what: &str| SyncError::Git {
            what: "git cat-file --batch".into(),
            detail: format!("{what} for object {oid}"),
        };
        writeln!(self.stdin, "{oid}")
            .and_then(|()| self.stdin.flush())
            .map_err(SyncError::io("write to", Path::new("git cat-file")))?;
        let mut header = String::new();
        self.stdout
            .read_line(&mut header)
            .map_err(SyncError::io("read from", Path::new("git cat-file")))?;
        let mut parts = header.split_whitespace();
        let (Some(id), Some(kind)) = (parts.next(), parts.next()) else {
            return Err(bad(&format!("an unreadable answer ({})", header.trim())));
        };
        if kind == "missing" || kind == "ambiguous" {
            return Ok(None);
        }
        let Some(size) = parts.next() else {
            return Err(bad(&format!("an unreadable answer ({})", header.trim())));
        };
        let id = id.to_string();
        let kind = kind.to_string();
        let size: usize = size.parse().map_err(|_| bad("a malformed header"))?;
        let mut buf = vec![0u8; size + 1];
        self.stdout
            .read_exact(&mut buf)
            .map_err(SyncError::io("read from", Path::new("git cat-file")))?;
        buf.pop();
        Ok(Some((id, kind, buf)))
    }
}

impl Drop for Objects {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An entry of `git ls-tree -r -l -z`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub oid: String,
    pub size: u64,
    pub path: String,
}

impl Repo {
    /// Every blob under commit (or tree) `rev`, with its size.
    pub fn blobs(&self, rev: &str) -> Result<Vec<Entry>> {
        let out = self.run(&["ls-tree", "-r", "-l", "-z", rev])?;
        let mut entries = Vec::new();
        for item in out.split(|&b| b == 0).filter(|i| !i.is_empty()) {
            let text = String::from_utf8_lossy(item);
            let Some((meta, path)) = text.split_once('\t') else {
                continue;
            };
            let f: Vec<&str> = meta.split_whitespace().collect();
            if f.len() != 4 || f[1] != "blob" {
                return Err(SyncError::Rejected(format!(
                    "`{path}` in {rev} is a {} where only files belong",
                    f.get(1).unwrap_or(&"?")
                )));
            }
            entries.push(Entry {
                oid: f[2].to_string(),
                size: f[3].parse().unwrap_or(0),
                path: path.to_string(),
            });
        }
        Ok(entries)
    }
}

/// A git process `Repo::start` began.
pub struct Started {
    what: String,
    child: std::io::Result<Child>,
}

impl Started {
    /// Everything the process said, once it has exited (success or not).
    pub fn output(self) -> Result<Output> {
        self.child
            .and_then(Child::wait_with_output)
            .map_err(SyncError::spawn)
    }

    /// Its stdout, or git's own words for why it failed.
    pub fn finish(self) -> Result<Vec<u8>> {
        let what = self.what.clone();
        let out = self.output()?;
        check(&out, &what)?;
        Ok(out.stdout)
    }
}

/// The oldest git a sync works with: negative refspecs (2.29) and geometric repacking (2.33).
pub const MIN_GIT: (u32, u32) = (2, 33);

/// Why the git on PATH cannot sync, when it is older than [`MIN_GIT`].
pub fn too_old() -> Option<String> {
    let out = Command::new("git").arg("--version").output().ok()?;
    older(&String::from_utf8_lossy(&out.stdout))
}

/// [`too_old`] of what `git --version` printed (`git version 2.39.5`, `… 2.45.1.windows.1`).
fn older(said: &str) -> Option<String> {
    let version = said.split_whitespace().nth(2)?;
    let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
    let (major, minor) = (parts.next()??, parts.next()??);
    ((major, minor) < MIN_GIT).then(|| {
        format!(
            "git {version} is older than {}.{}, which trail sync needs: install a newer git",
            MIN_GIT.0, MIN_GIT.1
        )
    })
}

fn check(out: &Output, what: &str) -> Result<()> {
    if out.status.success() {
        return Ok(());
    }
    let detail = String::from_utf8_lossy(&out.stderr).trim().to_string();
    Err(SyncError::Git {
        what: what.to_string(),
        detail: if detail.is_empty() {
            format!("exited with {}", out.status)
        } else {
            detail
        },
    })
}

#[cfg(test)]
mod tests {
    /// A false "too old" would hide every real failure behind advice to upgrade.
    #[test]
    fn only_a_git_older_than_the_minimum_is_called_too_old() {
        use super::older;
        assert!(
            older("git version 2.25.1\n")
                .unwrap()
                .contains("2.25.1 is older than 2.33")
        );
        assert!(older("git version 1.9.5").is_some());
        for new_enough in [
            "git version 2.33.0",
            "git version 2.47.3\n",
            "git version 2.45.1.windows.1",
            "git version 3.0.0",
            "not git at all",
        ] {
            assert_eq!(older(new_enough), None, "{new_enough}");
        }
        assert_eq!(super::too_old(), None, "the git these tests run with");
    }
}
