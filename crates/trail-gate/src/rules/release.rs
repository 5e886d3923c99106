//! Deploys and database migrations, whatever tool runs them.

use super::Cmd;

/// Deploys and releases, by tool, with their read-only neighbours left out.
pub(super) fn deploys(c: &Cmd<'_>) -> bool {
    let sub = c.sub();
    let any = |set: &[&str]| c.words().any(|w| set.contains(&w));
    // Asked only to say what it would do: nothing is deployed, whichever tool it is.
    if any(&[
        "--dry-run",
        "--dryrun",
        "--simulate",
        "--noop",
        "--no-op",
        "--what-if",
        "--pretend",
    ]) {
        return false;
    }
    match c.name {
        "vercel" => {
            c.has("--prod")
                || matches!(
                    sub,
                    Some("deploy" | "promote" | "rollback" | "remove" | "rm" | "alias")
                )
                || sub.is_none()
        }
        "netlify" => matches!(sub, Some("deploy")),
        "fly" | "flyctl" => {
            matches!(sub, Some("deploy" | "destroy" | "scale" | "launch"))
                || any(&["deploy", "destroy"])
        }
        "firebase" => matches!(sub, Some("deploy")) || any(&["hosting:disable"]),
        "cdk" => matches!(sub, Some("deploy" | "destroy")),
        "sam" | "serverless" | "sls" => matches!(sub, Some("deploy" | "remove" | "delete")),
        "eb" => matches!(sub, Some("deploy" | "terminate" | "swap")),
        "wrangler" => any(&["deploy", "publish", "delete", "rollback"]),
        "heroku" => c.words().any(|w| {
            w.starts_with("container:release")
                || w.starts_with("releases:rollback")
                || w.starts_with("apps:destroy")
                || w == "pg:reset"
        }),
        "gh" => {
            (sub == Some("workflow") && any(&["run", "enable", "disable"]))
                || (sub == Some("run") && any(&["rerun", "cancel"]))
        }
        "goreleaser" => {
            (matches!(sub, Some("release" | "publish")) || sub.is_none())
                && !c.has("--snapshot")
                && !c.has("--skip=publish")
        }
        "ansible-playbook" => !any(&[
            "--check",
            "-C",
            "--syntax-check",
            "--list-tasks",
            "--list-hosts",
            "--list-tags",
        ]),
        "ansible" => {
            any(&["-m", "--module-name", "-a", "--args"])
                && !any(&["--check", "-C"])
                && !c.words().any(|w| w == "ping")
        }
        "cap" | "kamal" | "mina" | "dep" | "railway" | "render" | "dokku" | "porter" => {
            // A task runner's looking subcommand names the task it shows (`dep tree deploy`).
            !matches!(sub, Some("tree" | "describe" | "help" | "list" | "show"))
                && any(&["deploy", "up", "rollback", "redeploy", "destroy"])
        }
        "skaffold" => matches!(sub, Some("run" | "deploy" | "delete")),
        "argocd" => c.has("sync") || c.has("delete") || c.has("rollback"),
        "docker" => sub == Some("stack") && any(&["deploy", "rm"]),
        "npm" | "pnpm" | "yarn" | "bun" | "make" | "just" | "task" | "mage" => c.words().any(|w| {
            w == "deploy" || w == "release" || w.starts_with("deploy:") || w.starts_with("release:")
        }),
        "semantic-release" | "release-it" | "changeset" | "lerna" => {
            !c.has("--dry-run")
                && (c.name != "changeset" || c.has("publish"))
                && (c.name != "lerna" || any(&["publish", "version"]))
        }
        "helm" => any(&["upgrade", "install", "rollback", "uninstall"]),
        "kubectl" | "oc" => c.has("rollout") && any(&["restart", "undo"]),
        "gcloud" => any(&["deploy"]) || (c.has("run") && c.has("services") && c.has("update")),
        "az" => any(&["deploy"]) || (c.has("webapp") && any(&["restart", "up"])),
        "pulumi" => any(&["up", "destroy"]),
        "terraform" | "tofu" | "terragrunt" => any(&["apply", "destroy"]),
        _ => false,
    }
}

/// Schema migrations of the common frameworks, with status/plan/generate neighbours left out.
#[expect(
    clippy::too_many_lines,
    reason = "one arm per program or flag family: a dispatch table read top to bottom"
)]
pub(super) fn migrates(c: &Cmd<'_>) -> bool {
    let words: Vec<&str> = c.words().collect();
    let any = |set: &[&str]| words.iter().any(|w| set.contains(w));
    let readonly = words.iter().any(|w| {
        matches!(
            *w,
            "status"
                | "history"
                | "current"
                | "show"
                | "list"
                | "info"
                | "--plan"
                | "--sql"
                | "check"
                | "validate"
                | "heads"
                | "branches"
                | "new"
                | "create"
                | "generate"
                | "revision"
                | "makemigrations"
                | "showmigrations"
                | "sqlmigrate"
                | "--dry-run"
                | "--help"
                | "diff"
                | "--check"
                | "pending"
                | "make:migration"
                | "migrate:status"
                | "db:migrate:status"
                | "migration:show"
                | "migration:generate"
                | "migration:create"
                | "db:version"
                | "dry-run"
                // A framework's help for the command (`php spark help migrate:rollback`).
                | "help"
                | "-h"
        ) || w.ends_with(":status")
    });
    if readonly {
        return false;
    }
    let i = |w: &str| words.contains(&w);
    match c.name {
        "alembic" => any(&["upgrade", "downgrade", "stamp"]),
        "python" | "python3" | "django-admin" | "manage.py" => any(&["migrate"]),
        "rails" | "rake" | "bin/rails" | "bundle" => words.iter().any(|w| {
            w.starts_with("db:") && !matches!(*w, "db:version" | "db:seed" | "db:prepare")
                || *w == "db:prepare"
        }),
        "npx" | "pnpm" | "yarn" | "bunx" | "prisma" | "pnpx" | "npm" => {
            (i("prisma") || c.name == "prisma")
                && (i("migrate") && any(&["deploy", "dev", "reset", "resolve"])
                    || i("db") && any(&["push", "execute"]))
                || words.iter().any(|w| {
                    w.starts_with("migrate:")
                        || w.starts_with("db:migrate")
                        || w.starts_with("migration:run")
                        || w.starts_with("migration:revert")
                        || *w == "schema:drop"
                        || *w == "schema:sync"
                        || w.starts_with("migrate")
                }) && (any(&[
                    "knex",
                    "sequelize",
                    "sequelize-cli",
                    "typeorm",
                    "typeorm-ts-node-commonjs",
                    "mikro-orm",
                    "db-migrate",
                    "migrate-mongo",
                    "node-pg-migrate",
                    "umzug",
                ]) || c.name == "npm" && i("run")
                    || c.name == "yarn"
                    || c.name == "pnpm")
                || i("drizzle-kit") && any(&["push", "migrate", "drop", "up"])
                || i("supabase") && i("db") && any(&["push", "reset"])
        }
        "knex" | "sequelize" | "sequelize-cli" | "typeorm" | "mikro-orm" | "db-migrate"
        | "node-pg-migrate" | "migrate-mongo" => words.iter().any(|w| {
            w.starts_with("migrate")
                || w.starts_with("db:migrate")
                || w.starts_with("migration:run")
                || w.starts_with("migration:revert")
                || *w == "schema:drop"
                || *w == "schema:sync"
                || *w == "up"
                || *w == "down"
        }),
        "drizzle-kit" => any(&["push", "migrate", "drop", "up"]),
        "supabase" => i("db") && any(&["push", "reset"]),
        "sqlx" | "sqlx-cli" => {
            (i("migrate") && any(&["run", "revert"])) || (i("database") && any(&["drop", "reset"]))
        }
        "diesel" => {
            (i("migration") && any(&["run", "redo", "revert"]))
                || (i("database") && any(&["reset", "drop"]))
        }
        "dbmate" => any(&["up", "down", "rollback", "drop", "migrate"]),
        "liquibase" => words.iter().any(|w| {
            w.starts_with("update")
                || w.starts_with("rollback")
                || *w == "drop-all"
                || *w == "dropAll"
        }),
        "flyway" => any(&["migrate", "clean", "repair", "undo", "baseline"]),
        "goose" => any(&[
            "up",
            "down",
            "reset",
            "redo",
            "up-to",
            "down-to",
            "up-by-one",
        ]),
        "migrate" => any(&["up", "down", "drop", "force", "goto"]),
        "atlas" => (i("schema") && i("apply")) || (i("migrate") && any(&["apply", "down"])),
        "mix" => words.iter().any(|w| {
            matches!(
                *w,
                "ecto.migrate" | "ecto.rollback" | "ecto.drop" | "ecto.reset"
            )
        }),
        "php" => {
            words.iter().any(|w| {
                w.starts_with("migrate")
                    || w.starts_with("doctrine:migrations:migrate")
                    || *w == "doctrine:schema:drop"
            }) || (i("doctrine:schema:update") && i("--force"))
        }
        "dotnet" => i("ef") && i("database") && any(&["update", "drop"]),
        "ef" => i("database") && any(&["update", "drop"]),
        "sea-orm-cli" => i("migrate") && !any(&["generate", "init", "status"]),
        "refinery" => i("migrate"),
        "hasura" => i("migrate") && i("apply") || i("metadata") && i("apply"),
        "prisma2" => false,
        _ => false,
    }
}
