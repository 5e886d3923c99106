//! What trail knows of a program: whether its rules model it, and how far. A program they do
//! not model is judged by mechanism ([`effect`](super::effect)); this is the only place that
//! says which programs those are.
//!
//! The lists name programs, not dangers: they say where a word is data (a pattern for `grep`,
//! a file for `cat`, a test filter for `pytest`) and where trail's own rules already read the
//! words precisely. Forgetting a program here never lets a danger through: an unlisted program
//! gets every mechanism, which at worst asks a person once too often.

/// How much of a program trail's rules model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tier {
    /// Its arguments are data or files, and the rules (or the walk's own modules: shells,
    /// interpreters, wrappers, editors) read them precisely: no mechanism applies.
    Data,
    /// A program with subcommands some rules model (`docker`, `gh`, `kubectl`): its verbs and
    /// the places it names are still judged, but code and shells in its arguments are the
    /// rules' business (`docker exec … sh` is no shell handed to a stranger).
    Cli,
    /// A program trail has never modelled: every mechanism applies.
    Unknown,
}

/// Whether `name` runs the code it is given: a shell or an interpreter.
pub(super) fn runs_code(name: &str) -> bool {
    super::shells::runs_code(name)
        || super::code::code_flags(name).is_some()
        || super::rules::is_shell(name)
}

/// The tier of `name` (a basename; a script's extension is kept: `deploy.sh` is unknown).
pub(super) fn tier(name: &str) -> Tier {
    if DATA.binary_search(&name).is_ok()
        || name.starts_with("mkfs.")
        || super::shells::runs_code(name)
        || super::code::code_flags(name).is_some()
        || super::rules::is_shell(name)
    {
        Tier::Data
    } else if CLI.binary_search(&name).is_ok() {
        Tier::Cli
    } else {
        Tier::Unknown
    }
}

/// Whether `name` is a program trail knows by name (any tier but unknown): a word that names
/// one, inside another program's arguments, is probably a command that program will run.
pub(super) fn is_program(name: &str) -> bool {
    tier(name) != Tier::Unknown || PROGRAMS.binary_search(&name).is_ok()
}

/// Whether `name` compresses a file by replacing it with its compressed copy, as `gzip` does
/// unless told `-k`.
pub(super) fn replaces_files(name: &str) -> bool {
    matches!(
        name,
        "gzip"
            | "pigz"
            | "bzip2"
            | "pbzip2"
            | "lbzip2"
            | "xz"
            | "pixz"
            | "lzma"
            | "lzip"
            | "plzip"
            | "compress"
    )
}

/// Whether `name` compresses a file beside the original, and removes it when told `--rm`.
pub(super) fn keeps_files(name: &str) -> bool {
    matches!(name, "zstd" | "pzstd" | "lz4" | "brotli" | "lzop")
}

/// Subcommands of package managers that only change the project's own manifest and lock file
/// (git brings them back): not the "uninstall" a person must approve.
pub(super) fn local_verb(name: &str, word: &str) -> bool {
    let words: &[&str] = match name {
        "npm" | "pnpm" | "yarn" | "bun" => &[
            "uninstall",
            "remove",
            "rm",
            "r",
            "un",
            "unlink",
            "prune",
            "dedupe",
        ],
        "cargo" => &["remove", "rm"],
        "uv" | "poetry" | "pdm" | "rye" | "hatch" | "pipenv" | "composer" | "dotnet" => {
            &["remove", "uninstall", "rm"]
        }
        "go" => &["clean"],
        _ => &[],
    };
    words.contains(&word)
}

/// Programs whose arguments are data or files, and programs the walk's own modules read
/// (wrappers, the feeders, editors, debuggers, database shells, `make`). Sorted.
const DATA: &[&str] = &[
    "[",
    "ack",
    "ag",
    "alias",
    "apply_patch",
    "applypatch",
    "ast-grep",
    "at",
    "ava",
    "awk",
    "base32",
    "base64",
    "basename",
    "bat",
    "batcat",
    "batch",
    "bats",
    "blkdiscard",
    "blkid",
    "builtin",
    "bunx",
    "bunzip2",
    "busybox",
    "bzcat",
    "bzip2",
    "cat",
    "cd",
    "cfdisk",
    "chgrp",
    "chmod",
    "chown",
    "chroot",
    "cksum",
    "cloc",
    "cmp",
    "column",
    "comby",
    "comm",
    "command",
    "cowsay",
    "cp",
    "cryptsetup",
    "csplit",
    "ctags",
    "ctest",
    "curl",
    "cut",
    "date",
    "dd",
    "declare",
    "del-cli",
    "delta",
    "df",
    "diff",
    "dirname",
    "doas",
    "du",
    "duf",
    "dust",
    "echo",
    "egrep",
    "emacs",
    "emacsclient",
    "env",
    "envsubst",
    "espeak",
    "ex",
    "exa",
    "exec",
    "exit",
    "expand",
    "export",
    "expr",
    "eza",
    "faketime",
    "false",
    "fd",
    "fdfind",
    "fdisk",
    "fgrep",
    "figlet",
    "file",
    "find",
    "firejail",
    "firewall-cmd",
    "flock",
    "fmt",
    "fold",
    "free",
    "fzf",
    "gawk",
    "gdb",
    "gdisk",
    "getconf",
    "git",
    "goreleaser",
    "grep",
    "gron",
    "groupdel",
    "grpck",
    "gunzip",
    "gvim",
    "gzip",
    "halt",
    "hdparm",
    "head",
    "help",
    "hexdump",
    "hostname",
    "http",
    "iconv",
    "id",
    "info",
    "ionice",
    "ip6tables",
    "iptables",
    "jest",
    "join",
    "jq",
    "karma",
    "kill",
    "killall",
    "last",
    "lastb",
    "less",
    "ln",
    "local",
    "locale",
    "logger",
    "ls",
    "lsblk",
    "lsd",
    "lsof",
    "ltrace",
    "man",
    "mawk",
    "md5sum",
    "mdadm",
    "mkdir",
    "mke2fs",
    "mkfs",
    "mkswap",
    "mlr",
    "mocha",
    "more",
    "mv",
    "nawk",
    "nc",
    "ncat",
    "netcat",
    "nft",
    "nice",
    "nl",
    "nohup",
    "notify-send",
    "nproc",
    "npx",
    "nvim",
    "nvme",
    "od",
    "parallel",
    "parted",
    "paste",
    "pgrep",
    "phpunit",
    "pidof",
    "pkill",
    "pnpx",
    "popd",
    "poweroff",
    "print",
    "printenv",
    "printf",
    "proxychains",
    "proxychains4",
    "ps",
    "pushd",
    "puts",
    "pwck",
    "pwd",
    "py.test",
    "pytest",
    "read",
    "readelf",
    "readlink",
    "readonly",
    "realpath",
    "reboot",
    "rev",
    "rg",
    "rimraf",
    "rlwrap",
    "rm",
    "rmdir",
    "rspec",
    "rsync",
    "say",
    "scp",
    "sd",
    "sed",
    "semgrep",
    "seq",
    "set",
    "sfdisk",
    "sftp",
    "sg",
    "sgdisk",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "shift",
    "shred",
    "shutdown",
    "sleep",
    "smartctl",
    "socat",
    "sort",
    "split",
    "sqlite",
    "sqlite3",
    "srm",
    "ssh",
    "stat",
    "stdbuf",
    "strace",
    "strings",
    "sudo",
    "tac",
    "tail",
    "tar",
    "tee",
    "telnet",
    "test",
    "time",
    "timeout",
    "tokei",
    "top",
    "torify",
    "torsocks",
    "touch",
    "tox",
    "tr",
    "trail",
    "trash",
    "trash-put",
    "tree",
    "true",
    "truncate",
    "type",
    "typeset",
    "ufw",
    "ugrep",
    "uname",
    "unexpand",
    "uniq",
    "unset",
    "unxz",
    "unzip",
    "uptime",
    "useradd",
    "userdel",
    "usermod",
    "uvx",
    "valgrind",
    "vi",
    "view",
    "vim",
    "vimdiff",
    "vitest",
    "wait",
    "watch",
    "wc",
    "wget",
    "whereis",
    "which",
    "whoami",
    "wine",
    "wine64",
    "wipefs",
    "xargs",
    "xxd",
    "xz",
    "yes",
    "yq",
    "zcat",
    "zgrep",
    "zip",
    "zstd",
];

/// Programs with subcommands or operations that some of trail's rules model. Sorted.
const CLI: &[&str] = &[
    "alembic",
    "ansible",
    "ansible-playbook",
    "apt",
    "apt-get",
    "argocd",
    "aws",
    "az",
    "azcopy",
    "bmake",
    "borg",
    "brew",
    "bun",
    "bundle",
    "cargo",
    "cdk",
    "composer",
    "consul",
    "crontab",
    "dnf",
    "docker",
    "docker-compose",
    "doctl",
    "dotnet",
    "eb",
    "etcdctl",
    "firebase",
    "fly",
    "flyctl",
    "flyway",
    "gcloud",
    "gem",
    "gh",
    "gmake",
    "go",
    "gsutil",
    "helm",
    "heroku",
    "just",
    "kubectl",
    "launchctl",
    "liquibase",
    "make",
    "mc",
    "mix",
    "mongosh",
    "mysql",
    "netlify",
    "npm",
    "oc",
    "pip",
    "pip3",
    "pipx",
    "pnpm",
    "podman",
    "podman-compose",
    "poetry",
    "prisma",
    "psql",
    "pulumi",
    "rails",
    "railway",
    "rake",
    "rclone",
    "redis-cli",
    "restic",
    "rustup",
    "service",
    "supabase",
    "systemctl",
    "task",
    "terraform",
    "terragrunt",
    "tofu",
    "twine",
    "uv",
    "vault",
    "vercel",
    "wrangler",
    "yarn",
    "yum",
];

/// Other programs common enough that a word naming one, in an unknown program's arguments, is
/// probably the command it runs (`entr -r rm -rf build`). Sorted.
const PROGRAMS: &[&str] = &[
    "chattr",
    "dropdb",
    "efibootmgr",
    "flashrom",
    "gio",
    "killall5",
    "mkfs",
    "mkswap",
    "rsh",
    "zfs",
    "zpool",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_so_binary_search_finds_every_entry() {
        for list in [DATA, CLI, PROGRAMS] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
    }

    #[test]
    fn a_program_is_in_one_tier() {
        for name in DATA {
            assert!(
                CLI.binary_search(name).is_err(),
                "{name} is in DATA and CLI"
            );
        }
    }
}
