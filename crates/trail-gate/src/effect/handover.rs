//! Control handed over: an interactive shell given to a program trail does not model.

use super::super::rules::Cmd;
use super::super::{Findings, Verdict};
use super::decide;
use crate::RuleId;

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

/// The command's words, a console line given whole split into its own (`-r '/set
/// relay.network.bind_address "0.0.0.0";…'`): its settings are the program's words. Quotes
/// around a piece are the console's (`"0.0.0.0"`); a piece of quotes alone is an empty value,
/// kept as `""`.
fn console_words<'c>(c: &'c Cmd<'_>) -> Vec<&'c str> {
    c.words()
        .flat_map(|w| {
            let whole = w.contains(char::is_whitespace);
            w.split(|ch: char| ch.is_whitespace() || ch == ';')
                .filter(|p| !p.is_empty())
                .map(move |p| {
                    let bare = p.trim_matches(['"', '\'']);
                    if whole && !bare.is_empty() { bare } else { p }
                })
        })
        .collect()
}

/// Whether a setting's name, in parts, names authentication (`ServerApp.token`, `--no-auth`,
/// `WERKZEUG_DEBUG_PIN`).
fn names_auth(parts: &[String]) -> bool {
    parts.iter().any(|p| {
        matches!(
            p.as_str(),
            "token"
                | "password"
                | "auth"
                | "authentication"
                | "authenticator"
                | "passwd"
                | "security"
                | "pin"
                | "login"
        )
    })
}

/// A variable set for the program that switches its authentication off
/// (`WERKZEUG_DEBUG_PIN=off odoo-bin … --http-interface=0.0.0.0`): a debugger's console open to
/// whoever reaches it.
fn auth_assigned_off(assigns: &[(String, super::super::parse::Arg)]) -> Option<&str> {
    assigns.iter().find_map(|(name, value)| {
        let v = value.text.as_deref().unwrap_or("-").to_ascii_lowercase();
        (names_auth(&super::words::parts(name))
            && matches!(
                v.as_str(),
                "" | "off" | "false" | "0" | "none" | "no" | "disabled"
            ))
        .then_some(name.as_str())
    })
}

/// An option that switches authentication off (`--ServerApp.token=''`, `--no-auth`,
/// `--auth=none`, `-SecurityTypes None`, `--disable-rpc-login`).
fn auth_flag_off<'w>(words: &[&'w str]) -> Option<&'w str> {
    words
        .iter()
        .find(|w| {
            let Some(flag) = w.strip_prefix('-') else {
                return false;
            };
            let (name, value) = flag.split_once('=').unwrap_or((flag, "-"));
            let ps = super::words::parts(name);
            let names_auth = names_auth(&ps);
            // `-SecurityTypes None`: the value may be the next word.
            let value = if value == "-" {
                words
                    .iter()
                    .position(|x| x == *w)
                    .and_then(|i| words.get(i + 1))
                    .map_or("-", |v| *v)
            } else {
                value
            };
            // `--auth trust` (PostgreSQL's: no password asked), `authenticator_class=dummy`
            // (any password taken): authentication that lets everyone in.
            names_auth
                && (value.is_empty()
                    || ["none", "false", "off", "0", "trust", "dummy", "anonymous", "null"]
                        .iter()
                        .any(|n| value.eq_ignore_ascii_case(n)))
                || ps
                    .first()
                    .is_some_and(|p| matches!(p.as_str(), "no" | "disable" | "without"))
                    && ps.iter().skip(1).any(|p| {
                        matches!(
                            p.as_str(),
                            "auth" | "authentication" | "token" | "password" | "login" | "security"
                        )
                    })
                // An interactive debugger served with it (`--debugger`, `--with-debugger`): a
                // page that runs any code its visitor types.
                || ps.last().is_some_and(|p| p == "debugger")
                || ps.len() == 1 && matches!(ps[0].as_str(), "noauth" | "nopw" | "nopass")
                // Anyone let in without a login (`--allow-anonymous`, `--anonymous-login`).
                || ps.iter().any(|p| p == "anonymous")
                    && !ps
                        .first()
                        .is_some_and(|p| matches!(p.as_str(), "no" | "disable" | "deny"))
        })
        .copied()
}

/// A debugger as what is served: the program, the module it runs (`-m debugpy`) or its first
/// subcommand (`dlv debug`) says so. A debugger's protocol evaluates whatever its client sends.
/// A flag (`--debug`) only makes a server say more, and is not counted.
fn debugger_served<'c>(c: &Cmd<'c>) -> Option<&'c str> {
    let debugger = |w: &str| {
        let w = w.rsplit('/').next().unwrap_or(w).to_ascii_lowercase();
        w.contains("debug") || w == "gdbserver"
    };
    if debugger(c.name) {
        return Some(c.name);
    }
    let mut words = c.args.iter().filter_map(|a| a.text.as_deref());
    let mut first = true;
    while let Some(w) = words.next() {
        if w == "-m" {
            return words.next().filter(|m| debugger(m));
        }
        if !w.starts_with('-') {
            return (first && debugger(w)).then_some(w);
        }
        first = false;
    }
    None
}

/// A console's settings that let anyone in: an empty password allowed, or a password set to
/// nothing (`/set relay.network.allow_empty_password on`, `/set relay.network.password ""`).
fn empty_password_set<'w>(words: &[&'w str]) -> Option<&'w str> {
    words.windows(2).find_map(|p| {
        let ps = super::words::parts(p[0]);
        let names_auth = ps
            .last()
            .is_some_and(|l| matches!(l.as_str(), "password" | "auth" | "token"));
        let empty_allowed = ps.iter().any(|x| x == "empty")
            && ps.iter().any(|x| x == "password" || x == "auth")
            && matches!(p[1], "on" | "true" | "yes" | "1");
        let set_empty = names_auth && !p[0].starts_with('-') && matches!(p[1], "\"\"" | "''");
        (empty_allowed || set_empty).then_some(p[0])
    })
}

/// Told to listen on every network interface (`--ip=0.0.0.0`, `--host ::`,
/// `/ip4/0.0.0.0/tcp/5001`, `--rpc-listen-all`): what it serves (files, a notebook's code, a
/// browser's debugger, an RPC) is reachable by others on the network: a junction.
pub(super) fn exposes(
    c: &Cmd<'_>,
    assigns: &[(String, super::super::parse::Arg)],
    raw: &str,
    out: &mut Findings,
) {
    let words = console_words(c);
    let all_interfaces = |v: &str| {
        let v = v.trim_matches(['"', '\'']);
        // Or said in words (`--database-listen network`, `--listen all`, `--bind any`).
        matches!(
            v,
            "0.0.0.0" | "::" | "[::]" | "*" | "network" | "all" | "any" | "public"
        ) || v.starts_with("0.0.0.0:")
            // A port with no host before it (`--listen :8080`): every interface.
            || v.strip_prefix(':').is_some_and(|port| {
                !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit())
            })
            || v.starts_with("[::]:")
            || v.contains("/0.0.0.0/")
    };
    let names_listener = |flag: &str| {
        super::words::parts(flag.trim_start_matches('-'))
            .iter()
            .any(|p| {
                matches!(
                    p.as_str(),
                    "host" | "ip" | "bind" | "listen" | "address" | "addr" | "interface"
                )
            })
    };
    let found = words.iter().enumerate().find(|(i, w)| {
        let listen_all = w.starts_with('-') && {
            let ps = super::words::parts(w.split('=').next().unwrap_or(w).trim_start_matches('-'));
            ps.iter().any(|p| p == "listen") && ps.iter().any(|p| p == "all")
        };
        let attached = w
            .split_once('=')
            .is_some_and(|(k, v)| names_listener(k) && all_interfaces(v));
        let detached = w.starts_with('-')
            && !w.contains('=')
            && names_listener(w)
            && words.get(i + 1).is_some_and(|v| all_interfaces(v));
        // `tcp:0.0.0.0:8001`, `0.0.0.0 5900`, `/ip4/0.0.0.0/tcp/5001`: every interface named
        // as a host, whatever carries it; `-localhost no` takes the loopback limit off.
        // `tcp,0.0.0.0,2000`: a listener's settings, comma-separated.
        // `rist://@0.0.0.0:1968`: a listener's URL, `@` before the address it binds.
        let named = w.split([':', '/', '=', ',', '@']).any(|p| p == "0.0.0.0")
            // Every address let in, in the short forms of a network's mask (`--allow=0/0`,
            // `--web-allow=::/0`).
            || w.split(['=', ',']).any(|p| matches!(p, "0/0" | "::/0"))
            // A server's address with no host (`tcpsvr://:2101`, `tcp://:9000`): bound to
            // every interface.
            || w.split_once("://:").is_some_and(|(scheme, port)| {
                !scheme.is_empty() && port.starts_with(|ch: char| ch.is_ascii_digit())
            });
        let unlimited = w.trim_start_matches('-').eq_ignore_ascii_case("localhost")
            && words
                .get(i + 1)
                .is_some_and(|v| v.eq_ignore_ascii_case("no"));
        listen_all || attached || detached || named || unlimited || remote_allowed(&words, *i)
    });
    // Told to listen with no address at all (`rnx --listen --noauth`): where is the
    // program's to choose, and with its authentication off that is exposure enough.
    let bare = || {
        words.iter().enumerate().find(|(i, w)| {
            matches!(**w, "--listen" | "-listen" | "--serve")
                && words.get(i + 1).is_none_or(|n| n.starts_with('-'))
                && auth_flag_off(&words).is_some()
        })
    };
    // Or told so by a variable set for it (`ZEPPELIN_ADDR=0.0.0.0 zeppelin-daemon.sh start`).
    let assigned = assigns.iter().find_map(|(name, value)| {
        let v = value.text.as_deref()?;
        (names_listener(name) && all_interfaces(v)).then_some(v)
    });
    // Not told to listen on every interface: nothing is exposed, whatever its authentication.
    let (w, place) = match (found, bare(), assigned) {
        (Some((_, w)), _, _) => (*w, "on every network interface"),
        (None, Some((_, w)), _) => (*w, "on an address of its own choosing"),
        (None, None, Some(v)) => (v, "on every network interface"),
        (None, None, None) => return,
    };
    // Rehearsed (`webshell start --bind 0.0.0.0 --dry-run`): nothing listens.
    if super::words::pretends(c) {
        return;
    }
    // Its authentication switched off as well (`--ServerApp.token=''`, `--no-auth`,
    // `--auth=none`), or a debugger served (`python -m debugpy --listen 0.0.0.0:5678`, `dlv
    // debug --headless --listen=0.0.0.0:2345`, `gdbserver 0.0.0.0:1234 …`): anyone on the
    // network who reaches it runs what it runs.
    let open = auth_flag_off(&words)
        .or_else(|| debugger_served(c))
        .or_else(|| auth_assigned_off(assigns))
        .or_else(|| empty_password_set(&words))
        // Or everyone let in, whatever the words.
        .or_else(|| everyone_let_in(&words).copied());
    if let Some(off) = open {
        out.push(decide(
            Verdict::Block,
            RuleId::ExposesShell,
            format!(
                "`{}` is told to listen {place} (`{w}`) with its authentication off (`{off}`): anyone on the network runs what it runs, it is never run",
                c.name
            ),
            raw,
        ));
        return;
    }
    out.push(decide(
        Verdict::Junction,
        RuleId::ExposesService,
        format!(
            "`{}` is told to listen on every network interface (`{w}`): what it serves is \
             reachable from the network, and trail does not model this program: a person \
             decides",
            c.name
        ),
        raw,
    ));
}

/// Connections from elsewhere let in by a switch that says so (`--allow-remote`,
/// `--allow-remote-connections`, `allow_remote True`): the word at `i` of `words`.
fn remote_allowed(words: &[&str], i: usize) -> bool {
    let w = words[i];
    let truthy = |v: &str| {
        matches!(
            v.trim_matches(['"', '\'']).to_ascii_lowercase().as_str(),
            "true" | "1" | "yes" | "on"
        )
    };
    let (key, on) = match w.split_once('=') {
        Some((k, v)) => (k, truthy(v)),
        None if w.starts_with('-') => (w, true),
        None => (w, words.get(i + 1).is_some_and(|v| truthy(v))),
    };
    let ps = super::words::parts(key.trim_start_matches('-'));
    let remote = |p: &String| matches!(p.as_str(), "remote" | "external" | "wan");
    // Or a switch that names who it lets in from elsewhere (`--remote-clients`,
    // `--remote-access`, `--external-connections`).
    let admitted = matches!(ps.as_slice(), [r, who] if remote(r)
        && matches!(who.as_str(), "clients" | "connections" | "access" | "hosts" | "peers"));
    on && (admitted
        || ps
            .iter()
            .any(|p| matches!(p.as_str(), "allow" | "accept" | "enable"))
            && ps.iter().any(remote))
}

/// A server told to run the code its clients send (`mb --port 2525 --allowInjection`,
/// `"ExecuteLuaEnabled": true`, `--enable-scripts`): a flag or setting that both allows and
/// names code. Serving (a port, a listener, every interface named), anyone who reaches it runs
/// what they like: a block; otherwise a person decides.
pub(super) fn runs_clients_code(c: &Cmd<'_>, raw: &str, out: &mut Findings) {
    const CODE: &[&str] = &[
        "injection",
        "exec",
        "execute",
        "eval",
        "script",
        "scripts",
        "lua",
        "code",
        "shell",
        "commands",
    ];
    let words = console_words(c);
    let on = |w: &str| {
        let (key, value) = w.split_once(['=', ':']).unwrap_or((w, "true"));
        let value = value.trim_matches(['"', '\'', ' ', ',', '}']);
        let ps = super::words::parts(key.trim_matches(['-', '"', '\'', '{', ' ']));
        let allows = ps
            .iter()
            .any(|p| matches!(p.as_str(), "allow" | "enable" | "enabled"));
        let code = ps.iter().any(|p| CODE.contains(&p.as_str()));
        allows
            && code
            && matches!(
                value.to_ascii_lowercase().as_str(),
                "true" | "1" | "yes" | "on"
            )
    };
    let Some(w) = words.iter().flat_map(|w| w.split(',')).find(|w| on(w)) else {
        return;
    };
    let serves = words.iter().any(|w| {
        let ps = super::words::parts(
            w.split(['=', ':'])
                .next()
                .unwrap_or(w)
                .trim_matches(['-', '"', '{']),
        );
        ps.iter()
            .any(|p| matches!(p.as_str(), "port" | "listen" | "bind" | "serve"))
            || w.split([':', '/', '=', ',']).any(|p| p == "0.0.0.0")
    });
    out.push(if serves {
        decide(
            Verdict::Block,
            RuleId::ExposesShell,
            format!(
                "`{}` is told to serve and to run the code its clients send (`{w}`): anyone who reaches it runs what they like, it is never run",
                c.name
            ),
            raw,
        )
    } else {
        decide(
            Verdict::Junction,
            RuleId::ExposesService,
            format!(
                "`{}` is told to run the code its clients send (`{w}`), and trail does not model this program: a person decides",
                c.name
            ),
            raw,
        )
    });
}

/// Everyone let in, whatever the words (`anonymous-auth=true`, `authorization-mode=
/// AlwaysAllow`, `--allow 0.0.0.0/0`): the word that says so.
fn everyone_let_in<'a, 'b>(words: &'b [&'a str]) -> Option<&'b &'a str> {
    words.iter().enumerate().find_map(|(i, w)| {
        let lower = w.to_ascii_lowercase();
        let anonymous = lower
            .split_once("anonymous")
            .is_some_and(|(_, rest)| rest.ends_with("=true") || rest.ends_with("=1"));
        let squeezed = lower.replace(['-', '_'], "");
        // `--Authenticator.allow_all=True`: every account that asks is let in.
        let always = squeezed.contains("alwaysallow")
            || squeezed.ends_with("=allowall")
            || squeezed.ends_with("allowall=true")
            || squeezed.ends_with("allowall=1");
        // Every address, as an address range: `*` is as often an origin or a name.
        let everyone = |v: &str| {
            matches!(
                v.trim_matches(['"', '\'']),
                "0.0.0.0/0" | "::/0" | "any" | "all"
            )
        };
        // A flag saying who may connect (`--allow`, `--allow-ip`, `--acl`), not what else is
        // allowed (`--allow-websocket-origin`).
        let allow_flag = |f: &str| {
            let ps = super::words::parts(f.trim_start_matches('-'));
            matches!(
                ps.iter().map(String::as_str).collect::<Vec<_>>().as_slice(),
                ["allow" | "whitelist" | "allowlist" | "acl"]
                    | [
                        "allow",
                        "ip" | "ips" | "from" | "hosts" | "clients" | "net" | "networks"
                    ]
            )
        };
        let all_allowed = w.starts_with('-')
            && match w.split_once('=') {
                Some((f, v)) => allow_flag(f) && everyone(v),
                None => allow_flag(w) && words.get(i + 1).is_some_and(|v| everyone(v)),
            };
        (anonymous || always || all_allowed).then_some(w)
    })
}

/// A launcher told which machines to run on (`mpirun -hostfile hosts.txt …`, `--machinefile`,
/// `-host node1,node2`): the program and what it is handed run there, under this user's
/// login. Control is handed to other hosts; a person decides.
pub(super) fn runs_on_listed_hosts(c: &Cmd<'_>, raw: &str, out: &mut Findings) {
    // Asked of every command nobody models: nothing is allocated unless a flag could say so.
    let flagged = |w: &str| {
        w.starts_with('-')
            && ["host", "machine", "node"]
                .iter()
                .any(|k| super::words::holds(w, k))
    };
    if !c.option_words().any(flagged) {
        return;
    }
    let words: Vec<&str> = c.option_words().collect();
    let found = words.iter().enumerate().find_map(|(i, w)| {
        let (flag, value) = match w.split_once('=') {
            Some((f, v)) => (f, Some(v)),
            None => (*w, words.get(i + 1).copied()),
        };
        let name: String = flag
            .strip_prefix('-')?
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        let listed = matches!(
            name.as_str(),
            "hostfile" | "hostsfile" | "machinefile" | "nodefile"
        );
        // Several hosts named at once (`-host node1,node2`).
        let several = matches!(name.as_str(), "host" | "hosts")
            && value.is_some_and(|v| {
                let host = |h: &&str| {
                    !h.is_empty()
                        && h.bytes().any(|b| b.is_ascii_alphabetic())
                        && h.bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
                };
                v.split(',').filter(host).count() >= 2
            });
        (listed || several).then(|| w.to_string())
    });
    if let Some(w) = found {
        out.push(decide(
            Verdict::Junction,
            RuleId::HandsOver,
            format!(
                "`{}` is told to run on the machines it is given (`{w}`): what it runs runs there; a person decides",
                c.name
            ),
            raw,
        ));
    }
}

/// A running subcommand pointed at one named machine, with the command it runs there after
/// `--` (`robot exec --unit consis-1 -- apt-get upgrade -y`, `fleet run --host web1 -- …`,
/// `grader exec G4 -- reboot`): that command runs on the other machine, under the program's
/// login there, where trail judges nothing of what it changes. Control is handed over; a
/// person decides. (The command is also judged as if here, where it may be worse.)
pub(super) fn runs_there(c: &Cmd<'_>, raw: &str, out: &mut Findings) {
    if let Some(w) = runs_there_target(c) {
        out.push(decide(
            Verdict::Junction,
            RuleId::HandsOver,
            format!(
                "`{}` is told to run a command on another machine (`{w}`): it runs there, beyond what trail sees; a person decides",
                c.name
            ),
            raw,
        ));
    }
}

/// The machine [`runs_there`] finds: a target option's flag, or the one word between an
/// `exec` (or `ssh`, `shell`, `attach`) and the `--`.
pub(super) fn runs_there_target<'c>(c: &'c Cmd<'_>) -> Option<&'c str> {
    // Every command nobody models comes here: the `--` first.
    let mut words = c.words();
    if !words.any(|w| w == "--") || words.next().is_none() {
        return None;
    }
    let before: Vec<&str> = c.words().take_while(|w| *w != "--").collect();
    // Not this machine, nor a device of its own that computes (`--device cuda:0`).
    let here = |v: &str| {
        let v = v.to_ascii_lowercase();
        matches!(
            v.as_str(),
            "localhost" | "127.0.0.1" | "::1" | "local" | "auto"
        ) || ["cuda", "cpu", "gpu", "mps", "xpu", "tpu", "npu"]
            .iter()
            .any(|d| v.starts_with(d))
            || v.bytes().all(|b| b.is_ascii_digit() || b == b',')
    };
    // `exec G4 --`: the one word left before the `--` is where it runs (not a path, not a
    // program's name: `exec /bin/sh --`, `exec python --`).
    let named = before.iter().rposition(|w| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "exec" | "ssh" | "shell" | "attach"
        )
    });
    // (After a noun that names the kind of machine, `grader exec G4`; first, the word is as
    // often a profile or an environment the command runs under here: `exec dev -- aws …`.)
    if let Some(k) = named
        && k > 0
        && !before[k - 1].starts_with('-')
        && before.len() == k + 2
        && let Some(target) = before.get(k + 1)
        && !target.starts_with('-')
        && !target.contains('/')
        && !here(target)
        && !crate::known::is_program(target)
    {
        return Some(target);
    }
    let runs = super::words::subcommands(c).iter().any(|w| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "exec" | "run" | "execute" | "ssh" | "shell" | "cmd" | "command"
        )
    });
    if !runs {
        return None;
    }
    before.iter().enumerate().find_map(|(i, w)| {
        let flag = w.split('=').next().unwrap_or(w);
        (flag.starts_with("--")
            && matches!(
                flag.trim_start_matches('-'),
                "host"
                    | "node"
                    | "unit"
                    | "module"
                    | "controller"
                    | "device"
                    | "robot"
                    | "machine"
                    | "server"
                    | "remote"
                    | "instance"
                    | "vm"
            )
            && w.split_once('=')
                .map(|(_, v)| v)
                .or_else(|| before.get(i + 1).copied())
                .is_some_and(|v| !v.starts_with('-') && !here(v)))
        .then_some(*w)
    })
}

/// Given another machine's shell login as an address (`ssh://root@web-1.acme.internal`,
/// `--hosts='ssh://…'`, `xpra start ssh://dev@build01/100`): a program trail does not model
/// logs in there with this user's keys and runs what it likes (tests, a session, a password
/// list tried). A reading subcommand is judged before this is asked.
pub(super) fn logs_in_elsewhere(c: &Cmd<'_>, raw: &str, out: &mut Findings) {
    // Asked of every command nobody models: nothing is allocated unless a word could say so.
    if !c.option_words().any(|w| w.contains("ssh://")) {
        return;
    }
    let shell_login = |w: &&str| {
        let v = w
            .split_once('=')
            .map_or(*w, |(_, v)| v)
            .trim_matches(['\'', '"']);
        v.split_once("://").is_some_and(|(scheme, rest)| {
            scheme.split('+').any(|p| p.eq_ignore_ascii_case("ssh"))
                && !rest.is_empty()
                && !super::targets::loopback_address(v)
        })
    };
    if let Some(w) = c.option_words().find(shell_login) {
        out.push(decide(
            Verdict::Junction,
            RuleId::HandsOver,
            format!(
                "`{}` is given another machine's shell login (`{w}`): it runs what it likes there with this user's keys, and trail does not model this program; a person decides",
                c.name
            ),
            raw,
        ));
    }
}

/// A session or a shell opened by a program's own subcommand: see [`judge`].
fn session_opened(c: &Cmd<'_>, raw: &str) -> Option<super::super::Decision> {
    // A program's own `ssh` or `login` subcommand (`dep ssh web-1`, `molecule login --host
    // x`, `plesk login admin`): a shell on a machine, or a session as someone, opened for
    // whoever holds the terminal.
    // Told only to show what it would do (`itamae ssh --dry-run …`), it opens nothing.
    if let Some(sub) = c
        .sub()
        .filter(|s| matches!(*s, "ssh" | "login"))
        .filter(|_| !super::words::shows_only(c))
    {
        return Some(decide(
            Verdict::Junction,
            RuleId::HandsOver,
            format!(
                "`{}` is told to open a session (`{sub}`): a shell or a login is handed to whoever runs it; a person decides",
                c.name
            ),
            raw,
        ));
    }
    // A shell, a console or a command opened on another machine (`scopectl shell
    // 192.168.1.50`, `acme exec db1.example.org '…'`, `--url wss://…`): whatever is typed or
    // sent runs there.
    // On this machine (`poetry shell`, `rails console`) it is a developer's own.
    if let Some(sub) = c.sub().filter(|s| {
        matches!(
            *s,
            "shell" | "console" | "terminal" | "exec" | "execute" | "cmd" | "command"
        )
    }) && let Some(host) = super::targets::remote(c)
        // A web page is fetched into the shell, not a machine run on (`scrapy shell
        // https://example.org/`).
        && !host.starts_with("http://")
        && !host.starts_with("https://")
    {
        return Some(decide(
            Verdict::Junction,
            RuleId::HandsOver,
            format!(
                "`{}` is told to run what it is given on another machine (`{sub}` on `{host}`): a person decides",
                c.name
            ),
            raw,
        ));
    }
    None
}

/// Whether a shell's code ends by starting an interactive shell (`app & exec bash`, `cd /srv;
/// sh -i`): its last statement a shell's name with nothing but flags.
fn ends_interactive(code: &str) -> bool {
    code.rsplit([';', '&', '|', '\n'])
        .map(str::trim)
        .find(|s| !s.is_empty())
        .is_some_and(|last| {
            let mut ws = last.split_whitespace();
            let mut first = ws.next().unwrap_or("");
            if first == "exec" {
                first = ws.next().unwrap_or("");
            }
            SHELLS.contains(&first.rsplit('/').next().unwrap_or(first))
                && ws.all(|r| r.starts_with('-') && r != "-c")
        })
}

/// An interactive shell among the words (a shell's name with nothing but flags after it, or
/// the value of an `exec:`/`--shell=` word): at least a junction; with a port, a listener, a
/// host or a URL among the words, a shell others can reach, a block.
/// First, a session its own subcommand opens ([`session_opened`]).
pub(super) fn judge(c: &Cmd<'_>, raw: &str, out: &mut Findings) {
    if let Some(d) = shell_reached(c, raw) {
        out.push(d);
        return;
    }
    let words: Vec<&str> = c.words().collect();
    let shell_at = |i: usize| {
        let w = words[i];
        // A URL's last segment is a page, not a program (`http://localhost:3000/login`).
        if w.contains("://") || searched(&words, i) {
            return false;
        }
        let w = w
            .rsplit_once(['=', ':'])
            .filter(|(k, _)| {
                let k = k.to_ascii_lowercase();
                ["exec", "system", "shell", "cmd"]
                    .iter()
                    .any(|s| k.ends_with(s))
            })
            .map_or(w, |(_, v)| v);
        // A configuration given whole whose last setting is a shell by its path (ser2net's
        // `connector: pty,/bin/bash`): the program runs it for whoever connects.
        let configured = w.contains([',', ' ', '#', ';'])
            && w.rsplit([',', ' ', '\t', '#', ';', '\n'])
                .find(|p| !p.is_empty())
                .is_some_and(|last| {
                    last.starts_with('/')
                        && SHELLS.contains(&last.rsplit('/').next().unwrap_or(last))
                });
        let mut inner = w.split_whitespace();
        let first = inner.next().unwrap_or("");
        let is_shell = SHELLS.contains(&first.rsplit('/').next().unwrap_or(first));
        let flags_after = |from: usize| {
            words
                .get(from..)
                .unwrap_or_default()
                .iter()
                .all(|r| r.starts_with('-') && !r.starts_with("-c") && r.len() <= 8)
        };
        // Or a shell told to run code that ends in a shell of its own (`bash -c 'app & exec
        // bash'`): whoever holds the terminal types into that one.
        let ends_in_shell = is_shell
            && inner.clone().next().is_none()
            && words.get(i + 1) == Some(&"-c")
            && words.get(i + 2).is_some_and(|code| ends_interactive(code))
            && flags_after(i + 3);
        ends_in_shell
            || (configured || is_shell && inner.all(|r| r.starts_with('-') && !r.starts_with("-c")))
                && (flags_after(i + 1)
                    || names_a_shell(i.checked_sub(1).and_then(|j| words.get(j))))
    };
    let Some(i) = (0..words.len()).find(|&i| shell_at(i)) else {
        serves_a_program(c, &words, raw, out);
        return;
    };
    // A shell named for what to print its completions for (`innernet completions bash`,
    // `tool --generate-completion zsh`) is a format, not a session.
    if words[..i]
        .iter()
        .any(|w| w.to_ascii_lowercase().contains("complet"))
    {
        return;
    }
    let network = words.iter().enumerate().any(|(at, w)| {
        let l = w.to_ascii_lowercase();
        // A number alone is a port (`tcpserver 0.0.0.0 4444 /bin/sh`, `-p 7681`) unless it is
        // a count (`howdoi -n 3 … bash`, `nsenter -t 1`: a process).
        let counted = at
            .checked_sub(1)
            .and_then(|p| words.get(p))
            .is_some_and(|p| matches!(*p, "-n" | "--num" | "-c" | "--count" | "-t"));
        let bare_port =
            (2..=5).contains(&l.len()) && l.chars().all(|d| d.is_ascii_digit()) && !counted;
        l.contains("listen")
            || l.contains("tcp")
            || l.contains("udp")
            || l.contains("port")
            || l.contains("://")
            || l.contains('@')
            || matches!(l.as_str(), "--web" | "--listen" | "--public")
            // Clients let type into it (`gotty -w bash`, `ttyd -W bash`): a served terminal,
            // on the default port it listens on.
            || matches!(*w, "-w" | "-W" | "--permit-write" | "--writable")
            || bare_port
            || l.rsplit_once(':').is_some_and(|(_, p)| {
                !p.is_empty() && p.len() <= 5 && p.chars().all(|d| d.is_ascii_digit())
            })
    });
    out.push(if network {
        decide(
            Verdict::Block,
            RuleId::ExposesShell,
            format!(
                "`{}` is given a shell (`{}`) and a network endpoint: a shell others can reach is never run",
                c.name, words[i]
            ),
            raw,
        )
    } else {
        decide(
            Verdict::Junction,
            RuleId::HandsOver,
            format!(
                "`{}` is given an interactive shell (`{}`), and trail does not model this program: a person decides",
                c.name, words[i]
            ),
            raw,
        )
    });
}

/// Whether the word at `i` is words to search for or to show (`logs search --pattern 'nc -e
/// /bin/bash'`), not a shell handed over.
fn searched(words: &[&str], i: usize) -> bool {
    // (Or anywhere after a subcommand that searches: `sample search --name 'bash -i'`.)
    i.checked_sub(1)
        .is_some_and(|p| super::arguments::data_option(words[p]))
        || words[..i]
            .iter()
            .any(|w| super::words::SEARCHES.contains(w))
        || words[i]
            .split_once('=')
            .is_some_and(|(f, _)| super::arguments::data_option(f))
}

/// A session opened, a shell granted or shared, or a shell opened on another machine.
fn shell_reached(c: &Cmd<'_>, raw: &str) -> Option<super::super::Decision> {
    session_opened(c, raw)
        .or_else(|| shell_granted(c, raw))
        .or_else(|| session_shared_writable(c, raw))
        .or_else(|| remote_shell(c, raw))
}

/// This machine's session shared with a remote party for writing (`helpdesk share-session
/// --via R --writable`, `support connect --writable`): whoever is at the other end types into
/// it, whatever relays it. Shared to watch, or kept on this machine, it is not.
fn session_shared_writable(c: &Cmd<'_>, raw: &str) -> Option<super::super::Decision> {
    // Every command comes here: the writing switch first.
    let writable = c.option_words().find(|w| {
        matches!(
            w.split('=').next().unwrap_or(w),
            "--writable" | "--read-write" | "--allow-write" | "--allow-input" | "--full-control"
        )
    })?;
    if super::words::pretends(c) {
        return None;
    }
    let subs = super::words::subcommands(c);
    let parts: Vec<String> = subs.iter().flat_map(|w| super::words::parts(w)).collect();
    let any = |set: &[&str]| parts.iter().any(|p| set.contains(&p.as_str()));
    // What is shared, said by a subcommand or a switch (`share --terminal`).
    let shared = |set: &[&str]| {
        any(set)
            || c.option_words().any(|w| {
                w.starts_with("--")
                    && super::words::parts(w)
                        .iter()
                        .any(|p| set.contains(&p.as_str()))
            })
    };
    // A session shared or connected, for a party elsewhere (a helpdesk, support, a pairing).
    let shares = any(&[
        "share", "connect", "attach", "join", "invite", "start", "open",
    ]) && shared(&["session", "screen", "desktop", "terminal", "console", "tty"])
        || any(&["support", "helpdesk", "assist", "pair", "remote"])
            && any(&["share", "connect", "attach", "session", "start", "open"]);
    shares.then(|| {
        decide(
            Verdict::Block,
            RuleId::ExposesShell,
            format!(
                "`{}` shares this machine's session with someone at another end and lets them type into it (`{writable}`): a shell others can reach is never run",
                c.name
            ),
            raw,
        )
    })
}

/// A shell opened on another machine by a subcommand (`remote shell --module ixl-2`, `hub
/// ssh --hub gl-5`), with no line for it to run: whatever is typed there runs there, as after
/// `ssh HOST`. (A program's own shell, `manage.py shell`, is this machine's.)
fn remote_shell(c: &Cmd<'_>, raw: &str) -> Option<super::super::Decision> {
    // Every command comes here: a shell's word among its words first.
    let shell_word = |w: &str| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "shell" | "console" | "ssh" | "terminal"
        )
    };
    if !c.words().any(shell_word) {
        return None;
    }
    let subs = super::words::subcommands(c);
    let remote = subs.iter().any(|w| {
        super::words::parts(w)
            .iter()
            .any(|p| matches!(p.as_str(), "remote" | "ssh"))
    });
    let shell = subs.iter().find(|w| shell_word(w))?;
    // (Not one told what to run there, after `--` or as a file: `itamae ssh -h web1
    // recipes/web.rb`; nor a pretend run.)
    let told = c
        .words()
        .any(|w| w == "--" || w.contains('/') && !w.starts_with('-'));
    (remote && !told && !super::words::pretends(c)).then(|| {
        decide(
            Verdict::Junction,
            RuleId::HandsOver,
            format!(
                "`{}` opens a shell on another machine (`{shell}`): whatever is typed there runs there; a person decides",
                c.name
            ),
            raw,
        )
    })
}

/// A shell or a terminal granted or shared by an option (`support pair --code 81-442 --grant
/// shell`, `remote-support start --share-terminal --public`): whoever is at the other end
/// types into this machine. To a remote party (a pairing, a support session, the public, an
/// address) it is never run; otherwise its path and a port, if given, decide ([`judge`]).
fn shell_granted(c: &Cmd<'_>, raw: &str) -> Option<super::super::Decision> {
    // Every command comes here: a word that holds a shell's name first (a flag's or a value's
    // part that names one is inside a word).
    let named = c.words().any(|w| {
        ["shell", "term", "console", "tty", "pty", "tmux"]
            .iter()
            .any(|n| super::words::holds(w, n))
    });
    if !named {
        return None;
    }
    let words: Vec<&str> = c.words().collect();
    let words = words.as_slice();
    // Shared to watch only (`--read-only`, `--view-only`): nobody types into it.
    if super::words::pretends(c)
        || c.option_words().any(|w| {
            matches!(
                w,
                "--read-only" | "--readonly" | "--view-only" | "--viewonly"
            )
        })
    {
        return None;
    }
    let shell = |p: &str| {
        matches!(
            p,
            "shell" | "terminal" | "term" | "console" | "tty" | "pty" | "tmux"
        )
    };
    // (Or a giving subcommand, the shell named by any option: `remote-assist grant --scope
    // shell`.)
    let subs = super::words::subcommands(c);
    let granting = subs
        .iter()
        .any(|w| super::words::parts(w).iter().any(|p| gives(p)));
    // (Or both said by subcommands: `term share --public-url`.)
    let by_subcommands = || {
        granting
            .then(|| {
                subs.iter()
                    .find(|w| super::words::parts(w).iter().any(|p| shell(p)))
                    .copied()
            })
            .flatten()
    };
    let word = super::option_pairs(words)
        .find(|(flag, value)| {
            let Some(body) = flag.strip_prefix("--") else {
                return false;
            };
            let ps = super::words::parts(body);
            let named = granting || ps.iter().any(|p| gives(p));
            // `--share-terminal` says both; `--grant shell` names it by its value.
            // (Or a terminal given a shell to run: `--pty /bin/bash`.)
            named && ps.iter().any(|p| shell(p))
                || named
                    && ps.len() == 1
                    && value.is_some_and(|v| super::words::parts(v).iter().any(|p| shell(p)))
                || ps.len() == 1 && shell(&ps[0]) && value.is_some_and(shell_program)
        })
        .map(|(w, _)| w)
        .or_else(by_subcommands)?;
    let remote = words.iter().any(|w| {
        let ps = super::words::parts(w.trim_start_matches('-'));
        // (Or served on every address: `--bind 0.0.0.0:9000`.)
        w.contains("://")
            || w.contains('@')
            || w.starts_with("0.0.0.0")
            || w.starts_with("[::]")
            || ps.iter().any(|p| {
                matches!(
                    p.as_str(),
                    "remote" | "support" | "pair" | "public" | "relay" | "tunnel" | "invite"
                )
            })
    });
    // (Not to a remote party: the shell's own path and a port, if given, decide below.)
    remote.then(|| {
        decide(
            Verdict::Block,
            RuleId::ExposesShell,
            format!(
                "`{}` is told to grant or share a shell (`{word}`) with someone at another end: a shell others can reach is never run",
                c.name
            ),
            raw,
        )
    })
}

/// A word that gives access (`grant`, `share`, `expose`, `attach`…).
fn gives(p: &str) -> bool {
    matches!(
        p,
        "grant"
            | "allow"
            | "permit"
            | "access"
            | "share"
            | "expose"
            | "give"
            | "open"
            | "spawn"
            | "serve"
            | "enable"
            | "attach"
    )
}

/// A shell's program, by its path's last part (`/bin/bash`, `zsh`).
pub(super) fn shell_program(v: &str) -> bool {
    matches!(
        v.rsplit('/').next().unwrap_or(v),
        "bash" | "sh" | "zsh" | "fish" | "dash" | "ksh" | "csh" | "tcsh" | "pwsh"
    )
}

/// An option named for the shell it is given (`--web-shell /bin/bash --bind …`): the program
/// hands that shell out, whatever options follow.
fn names_a_shell(flag: Option<&&str>) -> bool {
    flag.is_some_and(|f| {
        f.starts_with("--")
            && super::words::parts(f)
                .iter()
                .any(|p| matches!(p.as_str(), "shell" | "console" | "terminal"))
            // Or the program to run for a connection (`nc -e /bin/sh HOST PORT`, `--exec`,
            // `rcat connect -s bash HOST PORT`).
            || matches!(*f, "-e" | "-s" | "--exec" | "--sh-exec")
    })
}

/// A program given a port and, last, another program to run (`ttyd -p 7681 htop`,
/// `websocketd --port=9000 … cat`): it runs that program for whoever connects, its terminal
/// or its input and output served on the network. Bound to the loopback (`--address=127.0.0.1`),
/// it serves only this machine.
fn serves_a_program(c: &Cmd<'_>, words: &[&str], raw: &str, out: &mut Findings) {
    let Some(last) = words.last() else {
        return;
    };
    if last.starts_with('-') || last.contains(['/', '=', '.']) || !crate::known::is_program(last) {
        return;
    }
    let number = |v: &str| !v.is_empty() && v.len() <= 5 && v.bytes().all(|b| b.is_ascii_digit());
    let port = words.iter().enumerate().any(|(i, w)| {
        let (flag, value) = match w.split_once('=') {
            Some((f, v)) => (f, Some(v)),
            None => (*w, words.get(i + 1).copied()),
        };
        matches!(flag, "-p" | "--port" | "-port" | "-P") && value.is_some_and(number)
    });
    let loopback = words
        .iter()
        .any(|w| w.contains("127.0.0.1") || w.contains("localhost") || w.contains("[::1]"));
    if port && !loopback {
        out.push(decide(
            Verdict::Junction,
            RuleId::ExposesService,
            format!(
                "`{}` is given a port and a program to run (`{last}`): it runs it for whoever connects from the network; a person decides",
                c.name
            ),
            raw,
        ));
    }
}

/// Told to enroll this machine with another host that then controls it (`--bootstrap
/// policy.x.example`, `--enroll=10.0.0.5`, `enroll mgmt.x.example`, a volunteer-computing
/// client's `--project_attach https://grid.x.example/`): a configuration agent or a
/// management client runs what that host says from then on. A host is an address or a dotted
/// name, not a file (`--join cluster.yaml`).
pub(super) fn enrolls(c: &Cmd<'_>, raw: &str, out: &mut Findings) {
    const ENROLLING: &[&str] = &["bootstrap", "enroll", "enrol", "join", "attach"];
    // Asked of every command nobody models: the words are gathered only when one may enroll.
    let enrolling = |w: &str| {
        let name = w.trim_start_matches('-');
        ENROLLING.iter().any(|e| {
            name.starts_with(e)
                || name
                    .split(['=', ' '])
                    .next()
                    .is_some_and(|n| n.ends_with(e))
        })
    };
    if !c.words().any(enrolling) {
        return;
    }
    let words: Vec<&str> = c.words().collect();
    let hit = words.iter().enumerate().find_map(|(i, w)| {
        let (name, value) = match w.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (*w, words.get(i + 1).copied()),
        };
        let bare = name.trim_start_matches('-');
        // A subcommand only as the first word; a flag anywhere, its last word the act
        // (`--project_attach URL`).
        let placed = name.starts_with("--") || i == 0;
        let act = if name.starts_with("--") {
            bare.rsplit(['_', '-']).next().unwrap_or(bare)
        } else {
            bare
        };
        (placed && ENROLLING.contains(&act))
            .then_some(value)
            .flatten()
            // A host, or a site's address (`https://grid.example.org/`).
            .filter(|v| {
                let v = v.trim_matches(['"', '\'']);
                let host = v
                    .split_once("://")
                    .map_or(v, |(_, rest)| rest.split('/').next().unwrap_or(rest));
                names_host(host)
            })
            .map(|v| format!("{name} {v}"))
    });
    if let Some(said) = hit {
        out.push(decide(
            Verdict::Junction,
            RuleId::HandsOver,
            format!(
                "`{}` is told to enroll this machine with another host (`{said}`), which then runs what it says here: a person decides",
                c.name
            ),
            raw,
        ));
    }
}

/// An IPv4 address (with a port or not) or a dotted host name whose last label is letters.
fn names_host(v: &str) -> bool {
    let v = v.trim_matches(['"', '\'']);
    let host = v.split(':').next().unwrap_or(v);
    let ipv4 = host.split('.').count() == 4
        && host
            .split('.')
            .all(|o| !o.is_empty() && o.len() <= 3 && o.bytes().all(|b| b.is_ascii_digit()));
    let labels: Vec<&str> = host.split('.').collect();
    let dotted = labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        && labels.last().is_some_and(|t| {
            t.len() >= 2
                && t.bytes().all(|b| b.is_ascii_alphabetic())
                && !matches!(
                    *t,
                    "yaml" | "yml" | "json" | "toml" | "conf" | "cfg" | "txt" | "sh" | "py" | "md"
                )
        });
    ipv4 || dotted
}
