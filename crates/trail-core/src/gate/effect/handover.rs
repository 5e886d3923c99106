//! Control handed over: an interactive shell given to a program trail does not model.

use super::super::rules::Cmd;
use super::super::{Findings, Verdict};
use super::decide;

const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "ksh",
    "dash",
    "ash",
    "fish",
    "csh",
    "tcsh",
    "mksh",
    "pwsh",
    "powershell",
    "cmd",
    "cmd.exe",
    "login",
];

/// An interactive shell among the words (a shell's name with nothing but flags after it, or
/// the value of an `exec:`/`--shell=` word): at least a junction; with a port, a listener, a
/// host or a URL among the words, a shell others can reach, a block.
pub(super) fn judge(c: &Cmd<'_>, raw: &str, out: &mut Findings) {
    let words: Vec<&str> = c.words().collect();
    let shell_at = |i: usize| {
        let w = words[i];
        let w = w
            .rsplit_once(['=', ':'])
            .filter(|(k, _)| {
                let k = k.to_ascii_lowercase();
                ["exec", "system", "shell", "cmd"]
                    .iter()
                    .any(|s| k.ends_with(s))
            })
            .map_or(w, |(_, v)| v);
        let mut inner = w.split_whitespace();
        let first = inner.next().unwrap_or("");
        SHELLS.contains(&first.rsplit('/').next().unwrap_or(first))
            && inner.all(|r| r.starts_with('-') && !r.starts_with("-c"))
            && words[i + 1..]
                .iter()
                .all(|r| r.starts_with('-') && !r.starts_with("-c") && r.len() <= 8)
    };
    let Some(i) = (0..words.len()).find(|&i| shell_at(i)) else {
        return;
    };
    let network = words.iter().any(|w| {
        let l = w.to_ascii_lowercase();
        l.contains("listen")
            || l.contains("tcp")
            || l.contains("udp")
            || l.contains("port")
            || l.contains("://")
            || l.contains('@')
            || matches!(l.as_str(), "--web" | "--listen" | "--public")
            || l.rsplit(':').next().is_some_and(|p| {
                !p.is_empty() && p.len() <= 5 && p.chars().all(|d| d.is_ascii_digit())
            })
    });
    out.push(if network {
        decide(
            Verdict::Block,
            "exposes-shell",
            format!(
                "`{}` is given a shell (`{}`) and a network endpoint: a shell others can reach is never run",
                c.name, words[i]
            ),
            raw,
        )
    } else {
        decide(
            Verdict::Junction,
            "hands-over",
            format!(
                "`{}` is given an interactive shell (`{}`), and trail does not model this program: a person decides",
                c.name, words[i]
            ),
            raw,
        )
    });
}
