//! The agent's command line as trail hands it back to the host, rewritten to run confined
//! (`trail confine -- COMMAND`), and read back from a host's later report of it.
//!
//! This is wire format: the host's shell runs the rewrite, and only trail's own binary and a
//! `cd` run outside the confinement. The agent's text is one single-quoted word, so nothing in
//! it is interpreted by the outer shell. Hosts keep the working directory from one command to
//! the next (Claude Code reads `pwd -P` after the command): the confined shell hands its last
//! directory back, and the outer shell changes to it, so `cd src` still carries over. What
//! runs inside the confinement is `trail_core::confine`'s.

use std::path::Path;

/// `text` as one word for a POSIX shell.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The command the host's shell runs instead of `command`: `trail confine` on it, then the
/// directory it ended in (handed back on descriptor 3 and captured, so no file is left behind
/// and no `rm` runs: Codex refuses a command holding `rm -f`), and its exit status.
pub fn rewrite(trail: &Path, project: &Path, command: &str) -> String {
    format!(
        "{{ __trail_cwd=$({trail} confine --project {project} --cwd-fd 3 -- {command} \
         {REDIRECTS}); }} 4>&1; __trail_rc=$?; \
         if [ -n \"$__trail_cwd\" ]; then cd -- \"$__trail_cwd\" 2>/dev/null; fi; (exit $__trail_rc)",
        trail = quote(&trail.to_string_lossy()),
        project = quote(&project.to_string_lossy()),
        command = quote(command),
    )
}

/// Descriptor 3 to the capture, standard output back to the host's, via 4.
const REDIRECTS: &str = "3>&1 1>&4 4>&-";

/// The agent's own command inside a [`rewrite`] (what a host reports after the call, in its
/// PostToolUse), or `None` when `command` is not one.
pub fn original(command: &str) -> Option<String> {
    let rest = command.strip_prefix("{ __trail_cwd=$('")?;
    let (_, rest) = rest.split_once("' confine --project '")?;
    let at = rest.find(" -- '")?;
    let (word, after) = unquote(&rest[at + 4..])?;
    after
        .strip_prefix(' ')?
        .starts_with(REDIRECTS)
        .then_some(word)
}

/// One POSIX word made of single-quoted parts and `\'`, as [`quote`] writes it; the word and
/// what follows it.
fn unquote(text: &str) -> Option<(String, &str)> {
    let mut word = String::new();
    let mut rest = text;
    loop {
        if let Some(r) = rest.strip_prefix('\'') {
            let end = r.find('\'')?;
            word.push_str(&r[..end]);
            rest = &r[end + 1..];
        } else if let Some(r) = rest.strip_prefix("\\'") {
            word.push('\'');
            rest = r;
        } else {
            return Some((word, rest));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// The rewrite, run by a real shell, gives the command its text unchanged, whatever
    /// quotes and expansions it holds.
    #[test]
    fn the_command_reaches_the_confined_shell_as_written() {
        for cmd in [
            "echo 'it'\"'\"'s' \"$HOME\" `id -u` $(pwd)",
            "printf '%s\\n' a'b'c; echo \\' ; echo \"'\"",
            "cat <<'EOF'\n$x 'y'\nEOF",
        ] {
            let quoted = quote(cmd);
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("printf %s {quoted}"))
                .output()
                .unwrap();
            assert_eq!(String::from_utf8(out.stdout).unwrap(), cmd);
        }
    }

    #[test]
    fn the_original_command_is_read_back_from_its_rewrite() {
        for cmd in [
            "ls",
            "echo 'a'\"b\" $x; cd src",
            "",
            "it's -- '; __trail_rc=$?;",
        ] {
            let r = rewrite(Path::new("/usr/bin/trail"), Path::new("/p q"), cmd);
            assert_eq!(original(&r).as_deref(), Some(cmd), "{r}");
        }
        assert_eq!(original("ls -la"), None);
        assert_eq!(original("'/x' confine --project '/p' -- 'ls'"), None);
    }
}
