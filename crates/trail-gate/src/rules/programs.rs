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
