//! The `trail` a hook runs: found the way the host's shell finds it, and whether it is the
//! static build. A hook whose program is missing exits 127, which the hosts treat as a failed
//! hook and let the tool call through; a dynamically linked `trail` costs about twice the start
//! of the static one on every tool call.

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::Finding;

pub const CHECK_STATIC: &str = "static-build";

/// The program of a shell command (its first word, unquoted).
pub fn program(command: &str) -> Option<String> {
    let command = command.trim_start();
    let word = match command.chars().next()? {
        q @ ('"' | '\'') => command[1..].split(q).next()?,
        _ => command.split_whitespace().next()?,
    };
    Some(word.to_string())
}

/// `program` resolved as a shell would: a name with a slash as it is, any other through `path`.
pub fn resolve(program: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return executable(&p).then_some(p);
    }
    std::env::split_paths(path?)
        .map(|d| d.join(program))
        .find(|p| executable(p))
}

fn executable(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Whether the ELF file at `path` asks for a dynamic loader (has a `PT_INTERP` program header).
/// `None` when it is not an ELF file this can read.
pub fn is_dynamic(path: &Path) -> Option<bool> {
    let mut head = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(64 << 10)
        .read_to_end(&mut head)
        .ok()?;
    let elf = Elf::parse(&head)?;
    const PT_INTERP: u32 = 3;
    let found = (0..elf.phnum).any(|i| {
        let at = elf.phoff + i * elf.phentsize;
        elf.u32(&head, at) == Some(PT_INTERP)
    });
    Some(found)
}

/// The few header fields needed to walk the program headers.
struct Elf {
    little: bool,
    phoff: usize,
    phentsize: usize,
    phnum: usize,
}

impl Elf {
    fn parse(b: &[u8]) -> Option<Elf> {
        if b.get(..4)? != b"\x7fELF" {
            return None;
        }
        let wide = *b.get(4)? == 2;
        let little = *b.get(5)? == 1;
        let mut e = Elf {
            little,
            phoff: 0,
            phentsize: 0,
            phnum: 0,
        };
        let (phoff, size_at) = if wide {
            (e.u64(b, 32)?, 54)
        } else {
            (u64::from(e.u32(b, 28)?), 42)
        };
        e.phoff = usize::try_from(phoff).ok()?;
        e.phentsize = usize::from(e.u16(b, size_at)?);
        e.phnum = usize::from(e.u16(b, size_at + 2)?);
        Some(e)
    }

    fn bytes<const N: usize>(&self, b: &[u8], at: usize) -> Option<[u8; N]> {
        let mut a: [u8; N] = b.get(at..at + N)?.try_into().ok()?;
        if !self.little {
            a.reverse();
        }
        Some(a)
    }
    fn u16(&self, b: &[u8], at: usize) -> Option<u16> {
        self.bytes(b, at).map(u16::from_le_bytes)
    }
    fn u32(&self, b: &[u8], at: usize) -> Option<u32> {
        self.bytes(b, at).map(u32::from_le_bytes)
    }
    fn u64(&self, b: &[u8], at: usize) -> Option<u64> {
        self.bytes(b, at).map(u64::from_le_bytes)
    }
}

/// A finding when the `trail` at `path` is a dynamic build: a recommendation (slower hooks,
/// nothing switched off or weakened), so doctor still exits 0 for it.
pub fn static_build(path: &Path) -> Option<Finding> {
    is_dynamic(path)?.then(|| {
        Finding::warning(Finding::new(
            CHECK_STATIC,
            format!(
                "{} is dynamically linked: every hook starts about twice as slowly as the \
                 static build's",
                path.display()
            ),
            match path
                .parent()
                .filter(|d| d.file_name().is_some_and(|n| n == "bin"))
                .and_then(Path::parent)
            {
                // `cargo install` puts binaries in ROOT/bin: the static one goes over this one.
                Some(root) => format!(
                    "install the static build over it, in trail's source: `cargo install-trail \
                     --force --root {}`",
                    root.display()
                ),
                None => format!(
                    "build the static binary with `cargo dist` in trail's source and install it \
                     over this one: install -m 755 target/x86_64-unknown-linux-gnu/release/trail \
                     {}",
                    path.display()
                ),
            },
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_is_the_first_word_unquoted() {
        assert_eq!(
            program("/bin/trail hook codex").as_deref(),
            Some("/bin/trail")
        );
        assert_eq!(
            program("\"/a b/trail\" hook claude-code").as_deref(),
            Some("/a b/trail")
        );
        assert_eq!(program("trail hook codex").as_deref(), Some("trail"));
        assert_eq!(program("  "), None);
    }

    #[test]
    fn a_name_is_looked_up_on_path_and_a_path_is_taken_as_it_is() {
        let t = tempfile::tempdir().unwrap();
        let exe = t.path().join("trail");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = std::env::join_paths(["/nonexistent".into(), t.path().to_path_buf()]).unwrap();
        assert_eq!(resolve("trail", Some(&path)), Some(exe.clone()));
        assert_eq!(resolve("trail", None), None);
        assert_eq!(resolve(exe.to_str().unwrap(), None), Some(exe.clone()));
        assert_eq!(resolve("/nonexistent/trail", Some(&path)), None);
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(resolve("trail", Some(&path)), None, "not executable");
    }

    #[test]
    fn the_running_test_binary_is_read_as_elf() {
        // Test binaries are built without the static flag (`cargo dist` sets it for release).
        let exe = std::env::current_exe().unwrap();
        assert_eq!(is_dynamic(&exe), Some(true));
        assert!(static_build(&exe).is_some());
        let t = tempfile::tempdir().unwrap();
        // Installed by `cargo install` (ROOT/bin/trail): the fix installs the static build there.
        let bin = t.path().join("root/bin/trail");
        std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
        std::fs::copy(&exe, &bin).unwrap();
        let f = static_build(&bin).unwrap();
        let root = t.path().join("root");
        assert!(
            f.fix.ends_with(&format!(
                "cargo install-trail --force --root {}`",
                root.display()
            )),
            "{}",
            f.fix
        );
        let text = t.path().join("x");
        std::fs::write(&text, "#!/bin/sh\n").unwrap();
        assert_eq!(is_dynamic(&text), None);
    }

    #[test]
    fn an_elf_without_an_interpreter_is_static() {
        // A minimal 64-bit little-endian header with one PT_LOAD program header.
        let mut b = vec![0u8; 64 + 56];
        b[..4].copy_from_slice(b"\x7fELF");
        b[4] = 2;
        b[5] = 1;
        b[32..40].copy_from_slice(&64u64.to_le_bytes());
        b[54..56].copy_from_slice(&56u16.to_le_bytes());
        b[56..58].copy_from_slice(&1u16.to_le_bytes());
        b[64..68].copy_from_slice(&1u32.to_le_bytes());
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("static");
        std::fs::write(&f, &b).unwrap();
        assert_eq!(is_dynamic(&f), Some(false));
        b[64..68].copy_from_slice(&3u32.to_le_bytes());
        std::fs::write(&f, &b).unwrap();
        assert_eq!(is_dynamic(&f), Some(true));
    }
}
