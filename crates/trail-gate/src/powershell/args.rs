//! A cmdlet's words as the gate's arguments: its parameters, Windows paths on the gate's
//! places, and the words a translation puts in their stead.

use super::syntax::text_of;
use crate::Context;
use crate::parse::Arg;

/// A cmdlet's parameters: named (lower-case, with their values) and positional.
pub(super) struct Params {
    named: Vec<(String, Option<String>)>,
    /// The words given without a name, in order.
    pub(super) positional: Vec<String>,
}

impl Params {
    /// Reads `words`; `switches` are the parameters that take no value (a prefix names one,
    /// as PowerShell allows).
    pub(super) fn read(words: &[String], switches: &[&str]) -> Params {
        let mut named = Vec::new();
        let mut positional = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let w = &words[i];
            if w.starts_with('-')
                && w.len() > 1
                && !w[1..].starts_with(|c: char| c.is_ascii_digit())
            {
                let body = &w[1..];
                let (n, v) = match body.split_once(':') {
                    Some((n, v)) => (n.to_ascii_lowercase(), Some(v.to_string())),
                    None => (body.to_ascii_lowercase(), None),
                };
                if v.is_none() && !switches.iter().any(|s| s.starts_with(&n)) && i + 1 < words.len()
                {
                    named.push((n, Some(words[i + 1].clone())));
                    i += 2;
                    continue;
                }
                named.push((n, v));
            } else {
                positional.push(w.clone());
            }
            i += 1;
        }
        Params { named, positional }
    }

    /// Whether the switch `full` is on, spelt with at least `min` of its letters (`-r` for
    /// `-Recurse` needs `min` 1), and not `:$false`.
    pub(super) fn has(&self, full: &str, min: usize) -> bool {
        self.named.iter().any(|(n, v)| {
            n.len() >= min
                && full.starts_with(n.as_str())
                && v.as_deref()
                    .is_none_or(|v| !v.eq_ignore_ascii_case("$false"))
        })
    }

    /// The value of the parameter `full`, spelt with at least `min` of its letters.
    pub(super) fn value(&self, full: &str, min: usize) -> Option<&str> {
        self.named
            .iter()
            .find(|(n, _)| n.len() >= min && full.starts_with(n.as_str()))
            .and_then(|(_, v)| v.as_deref())
    }

    /// The first of `names` given a value.
    pub(super) fn any_value(&self, names: &[&str], min: usize) -> Option<&str> {
        names.iter().find_map(|n| self.value(n, min))
    }
}

/// A Windows path (or PowerShell variable path) in the gate's terms.
pub(super) fn path(w: &str, ctx: &Context) -> Arg {
    let Some(t) = text_of(w) else {
        return dynamic(w);
    };
    let home = ctx.places.home.to_string_lossy().into_owned();
    let root = ctx.places.project_root.to_string_lossy().into_owned();
    let mut s = t.replace('\\', "/");
    let lower = s.to_ascii_lowercase();
    let swap = |s: &str, n: usize, with: &str| format!("{with}{}", &s[n..]);
    for (var, with) in [
        ("$env:userprofile", home.as_str()),
        ("$home", home.as_str()),
        ("${env:userprofile}", home.as_str()),
        ("$env:temp", "$TMPDIR"),
        ("$env:tmp", "$TMPDIR"),
        ("$pwd", "."),
        ("$psscriptroot", "."),
        ("$env:systemroot", "/usr/windows"),
        ("$env:windir", "/usr/windows"),
        ("$env:programfiles", "/usr/program files"),
        ("$env:appdata", &format!("{home}/AppData/Roaming")),
        ("$env:localappdata", &format!("{home}/AppData/Local")),
    ] {
        if lower.starts_with(var) {
            s = swap(&s, var.len(), with);
            return arg_for(&s);
        }
    }
    if s.starts_with('$') {
        return dynamic(w);
    }
    if lower.len() >= 2 && lower.as_bytes()[1] == b':' && lower.as_bytes()[0].is_ascii_alphabetic()
    {
        let rest = s[2..].to_string();
        let rest_l = rest.to_ascii_lowercase();
        let mapped = if rest_l.is_empty() || rest_l == "/" {
            "/".to_string()
        } else if rest_l.starts_with("/windows/system32/drivers/etc") {
            format!("/etc{}", &rest["/windows/system32/drivers/etc".len()..])
        } else if [
            "/windows",
            "/program files",
            "/programdata",
            "/program files (x86)",
            "/boot",
            "/recovery",
            "/system volume information",
        ]
        .iter()
        .any(|p| rest_l == *p || rest_l.starts_with(&format!("{p}/")))
        {
            format!("/usr{rest}")
        } else if rest_l.starts_with("/users/") || rest_l == "/users" {
            // C:\Users\<name>: this home, or another person's, next to it.
            let tail = &rest["/users".len()..];
            let parent = ctx
                .places
                .home
                .parent()
                .map_or_else(|| "/home".into(), |p| p.to_string_lossy().into_owned());
            format!("{parent}{tail}")
        } else if rest_l.starts_with("/temp") || rest_l.starts_with("/tmp") {
            format!(
                "/tmp{}",
                &rest[rest
                    .find('/')
                    .map_or(0, |_| rest[1..].find('/').map_or(rest.len(), |i| i + 1))..]
            )
        } else {
            rest
        };
        // The project as Windows names it (`C:\work\proj`) is the project.
        let _ = &root;
        return arg_for(&mapped);
    }
    arg_for(&s)
}

pub(super) fn arg_for(s: &str) -> Arg {
    Arg {
        text: Some(s.to_string()),
        raw: if s.contains([' ', '\'']) {
            format!("'{s}'")
        } else {
            s.to_string()
        },
        quoted: false,
    }
}

pub(super) fn dynamic(w: &str) -> Arg {
    Arg {
        text: None,
        raw: format!("\"{}\"", w.replace('"', "")),
        quoted: true,
    }
}

pub(super) fn word(t: &str) -> Arg {
    Arg {
        text: Some(t.to_string()),
        raw: t.to_string(),
        quoted: false,
    }
}
