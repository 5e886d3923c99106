//! Programs the rules name by what they are: shells and database clients, and the SQL that
//! destroys.

/// Whether a program is a shell (its `-c` string and stdin are command lines).
pub(crate) fn is_shell(name: &str) -> bool {
    SHELLS.contains(&name)
}

/// Shells that run a command line given with `-c` (and a script given as a file), whatever
/// lineage: the Bourne and Korn ones, the C shells, and the newer ones with `-c` too.
pub(super) const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox", "rc", "tcsh", "csh",
    "yash", "loksh", "oksh", "pdksh", "posh", "lksh", "hush", "nu", "elvish", "osh", "ysh",
];

/// Programs that run SQL (or a database's own query language) handed to them.
pub(crate) fn sql_client(name: &str) -> bool {
    matches!(
        name,
        "psql"
            | "mysql"
            | "mariadb"
            | "sqlite3"
            | "sqlite"
            | "mongosh"
            | "mongo"
            | "clickhouse-client"
            | "clickhouse"
            | "cockroach"
            | "duckdb"
            | "sqlcmd"
            | "bq"
            | "snowsql"
            | "cqlsh"
            | "usql"
            | "pgcli"
            | "mycli"
            | "litecli"
            | "trino"
            | "presto"
            | "sqlplus"
            | "isql"
            | "osql"
            | "beeline"
            | "impala-shell"
            | "spanner-cli"
            | "dolt"
            | "turso"
            | "surreal"
            | "influx"
            | "db2"
            | "mssql-cli"
            | "vsql"
            | "hive"
            | "spark-sql"
            | "redshift"
    )
}

/// SQL that drops, empties, deletes or changes rows or structures.
pub(crate) const DESTRUCTIVE_SQL: &[&str] = &[
    "drop table",
    "drop database",
    "drop schema",
    "drop view",
    "drop index",
    "drop collection",
    "drop keyspace",
    "drop user",
    "truncate",
    "delete from",
    "delete ",
    "alter table",
    "update ",
    "dropdatabase()",
    ".drop()",
    "deletemany",
    "deleteone",
    "remove(",
    "flushall",
    "flushdb",
    "grant ",
    "revoke ",
];

/// Whether SQL text drops, deletes or changes data; text inside its own string literals
/// (`INSERT … VALUES ('drop table x')`) is data and does not count.
/// Whether a query selects a column named for a credential (`SELECT username, password FROM
/// mysql_users`, `select api_key from integrations`): what it prints is the secret itself. Not
/// a column that holds what stands for one (`password_hash`, `token_expires_at`, `key_id`).
pub(crate) fn selects_secret(sql: &str) -> bool {
    let lower = sql.to_ascii_lowercase();
    let Some(select) = lower.find("select ") else {
        return false;
    };
    let rest = &lower[select + "select ".len()..];
    let Some(from) = rest.find(" from ") else {
        return false;
    };
    rest[..from].split(',').any(|column| {
        // The column itself, not what it is called in the result (`x AS y`).
        let column = column.split(" as ").next().unwrap_or(column);
        let column = column.rsplit('.').next().unwrap_or(column);
        let words = crate::text::words(column.trim());
        let names = words.iter().any(|w| {
            matches!(
                w.as_str(),
                "password"
                    | "passwd"
                    | "secret"
                    | "token"
                    | "apikey"
                    | "credential"
                    | "credentials"
            )
        }) || words.windows(2).any(|p| {
            p[1] == "key" && matches!(p[0].as_str(), "api" | "private" | "secret" | "access")
        });
        let stands_for = words.iter().any(|w| {
            matches!(
                w.as_str(),
                "hash"
                    | "hashed"
                    | "digest"
                    | "salt"
                    | "id"
                    | "expires"
                    | "expiry"
                    | "type"
                    | "count"
                    | "length"
                    | "at"
                    | "set"
                    | "changed"
                    | "updated"
                    | "created"
                    | "last"
            )
        });
        names && !stands_for
    })
}

pub(crate) fn destructive_sql(sql: &str) -> bool {
    let mut code = String::with_capacity(sql.len());
    let mut in_str = false;
    for ch in sql.chars() {
        if ch == '\'' {
            in_str = !in_str;
            code.push(' ');
        } else if !in_str {
            code.push(ch.to_ascii_lowercase());
        }
    }
    let code = code.split_whitespace().collect::<Vec<_>>().join(" ") + " ";
    DESTRUCTIVE_SQL.iter().any(|k| code.contains(k))
}

/// Where a copy lands: `cp`'s, `install`'s and a local `rsync`'s target directory (`-t DIR`,
/// `--target-directory=DIR`) or last operand. `None` for one operand, a remote destination
/// (`host:path`) or a destination only the shell knows.
pub(crate) fn copy_destination<'c>(c: &'c super::Cmd<'_>) -> Option<&'c str> {
    if !matches!(c.name, "cp" | "install" | "rsync") {
        return None;
    }
    let words: Vec<&str> = c.args.iter().filter_map(|a| a.text.as_deref()).collect();
    if words.len() != c.args.len() {
        return None;
    }
    if let Some(at) = words
        .iter()
        .position(|w| matches!(*w, "-t" | "--target-directory"))
    {
        return words.get(at + 1).copied();
    }
    if let Some(dir) = words
        .iter()
        .find_map(|w| w.strip_prefix("--target-directory="))
    {
        return Some(dir);
    }
    let operands: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !w.starts_with('-'))
        .collect();
    let last = *operands.last()?;
    // `host:path` (rsync, scp-style) is another machine's.
    let remote = last
        .split_once(':')
        .is_some_and(|(host, _)| !host.contains('/'));
    (operands.len() >= 2 && !remote).then_some(last)
}

/// Whether a copy only rehearses: `--dry-run`, or rsync's `-n` alone or among short flags
/// (`rsync -avn`; `cp -n` is no-clobber, and copies).
pub(crate) fn rehearses(c: &super::Cmd<'_>) -> bool {
    c.args.iter().filter_map(|a| a.text.as_deref()).any(|w| {
        w == "--dry-run"
            || c.name == "rsync"
                && w.strip_prefix('-').is_some_and(|f| {
                    !f.starts_with('-')
                        && f.contains('n')
                        && f.chars().all(|ch| ch.is_ascii_alphabetic())
                })
    })
}

/// A terminal multiplexer's session opened to other users of the machine: screen's
/// `multiuser on` and its access lists (`acladd guest`), tmux's `server-access -a USER`
/// (writable unless `-r`). Whoever is let in types into this shell.
pub(crate) fn multiplexer_opened_to_others(c: &super::Cmd<'_>) -> bool {
    match c.name {
        "screen" => {
            c.words().any(|w| {
                let w = w.trim();
                ["acladd", "addacl", "aclchg", "chacl"]
                    .iter()
                    .any(|a| w == *a || w.starts_with(&format!("{a} ")))
                    || w.split_whitespace().eq(["multiuser", "on"])
            }) || c
                .words()
                .zip(c.words().skip(1))
                .any(|(a, b)| a == "multiuser" && b == "on")
        }
        "tmux" => {
            c.words().any(|w| w == "server-access")
                && c.words().any(|w| matches!(w, "-a" | "-w"))
                && !c.words().any(|w| matches!(w, "-r" | "-d" | "-l"))
        }
        _ => false,
    }
}

/// A login server started so that it asks no password: sshd with empty passwords permitted or
/// no authentication method, dropbear's `-B`, a telnet daemon handing out a shell (`telnetd -l
/// /bin/sh`). Whoever reaches its port has a shell on this machine.
pub(crate) fn login_without_a_password(c: &super::Cmd<'_>) -> bool {
    let setting = |key: &str, value: &str| {
        c.words().any(|w| {
            let w = w.to_ascii_lowercase();
            w == format!("{key}={value}") || w == format!("{key} {value}")
        })
    };
    match c.name {
        "sshd" => {
            setting("permitemptypasswords", "yes") || setting("authenticationmethods", "none")
        }
        "dropbear" => c.words().any(|w| w == "-B"),
        "telnetd" | "in.telnetd" | "utelnetd" => c.words().any(|w| w == "-l"),
        "busybox" => c.sub() == Some("telnetd") && c.words().any(|w| w == "-l"),
        _ => false,
    }
}

/// Programs whose one purpose is to hand this terminal over: tmux's fork that registers every
/// session with a relay, and its kin.
pub(crate) const TERMINAL_SHARERS: &[&str] = &[
    "tmate",
    "upterm",
    "sshx",
    "tty-share",
    "teleconsole",
    "tmate-ssh-server",
    // Global Socket's netcat: `-i` serves an interactive shell to whoever knows the secret.
    "gs-netcat",
];
