//! Where credentials live, and the commands that read them.

use super::Cmd;
use crate::Context;

/// Paths of credential stores under the home directory (private keys, cloud credentials).
pub(crate) fn credential_path(ctx: &Context, p: &std::path::Path) -> bool {
    let home = &ctx.places.home;
    let Ok(rel) = p.strip_prefix(home) else {
        // The system's own: account shadows, host keys, TLS private keys, Samba's machine
        // secrets. (Not Kerberos' keytab: `klist -k` lists its principals, and only `-K`
        // shows a key, which the labelled sets call a junction of its own.)
        return ["/etc/shadow", "/etc/gshadow"]
            .iter()
            .any(|f| p == std::path::Path::new(f))
            || ["/etc/ssl/private", "/var/lib/samba/private"]
                .iter()
                .any(|d| p.starts_with(d) && p != std::path::Path::new(d))
            || p.starts_with("/etc/ssh")
                && p.to_string_lossy().contains("_key")
                && !p.to_string_lossy().ends_with(".pub")
            // A service's TLS private key kept with its certificates (`/var/lib/gemini/
            // certs/capsule.key`), outside the project and the temporary directories.
            || key_file(p)
                && !p.starts_with(&ctx.places.project_root)
                && ctx.places.classify(&p.to_string_lossy()) != crate::paths::Place::Tmp;
    };
    let r = rel.to_string_lossy();
    if r == ".ssh" || r == ".gnupg" || r == ".password-store" || r == ".aws" {
        return true;
    }
    if let Some(f) = r.strip_prefix(".ssh/") {
        return (f.starts_with("id_") && !f.ends_with(".pub"))
            || f.ends_with(".pem")
            || f.ends_with("_key");
    }
    [
        ".aws/credentials",
        ".aws/sso/cache",
        ".docker/config.json",
        ".kube/config",
        ".netrc",
        ".git-credentials",
        ".pypirc",
        ".npmrc",
        ".config/gh/hosts.yml",
        ".config/gcloud/credentials.db",
        ".config/gcloud/application_default_credentials.json",
        ".config/gcloud/access_tokens.db",
        ".azure/accessTokens.json",
        ".azure/msal_token_cache.json",
        ".gnupg/private-keys-v1.d",
        ".password-store",
        ".config/hub",
        ".terraform.d/credentials.tfrc.json",
        ".vault-token",
        // Database clients' password files: PostgreSQL's, MySQL's, and their history-free
        // login paths.
        ".pgpass",
        ".my.cnf",
        ".mylogin.cnf",
        ".cargo/credentials",
        ".cargo/credentials.toml",
        "Library/Keychains",
        ".local/share/keyrings",
    ]
    .iter()
    .any(|f| r == *f || r.starts_with(&format!("{f}/")))
        || browser_store(&r)
        || !p.starts_with(&ctx.places.project_root) && (named_for_a_credential(&r) || key_file(p))
}

/// A browser's saved passwords and cookies in a profile under the home (Chromium's `Login
/// Data` and `Cookies` beside `Default/` or `Profile 1/`, Firefox's `logins.json`,
/// `key4.db`, `cookies.sqlite`): whoever copies them logs in as the person everywhere.
fn browser_store(rel: &str) -> bool {
    let Some((dir, name)) = rel.rsplit_once('/') else {
        return false;
    };
    let profile = dir.rsplit('/').next().unwrap_or(dir);
    matches!(name, "Login Data" | "Cookies" | "Web Data")
        && (profile == "Default" || profile.starts_with("Profile "))
        || matches!(
            name,
            "logins.json" | "key4.db" | "key3.db" | "cookies.sqlite" | "signons.sqlite"
        ) && (dir.contains(".mozilla/")
            || dir.contains("Firefox/")
            || dir.contains(".thunderbird/"))
}

/// A private key by its file's kind (`/var/lib/gemini/certs/capsule.key`, `~/keys/account.key`,
/// `~/.config/didkit/issuer.jwk`). (Not yet `.secret` or a
/// `privkey*.pem`: handed with an address, those made a client's own login file an
/// exfiltration, `ldapvi -y /etc/ldap.secret -h ldap://…`, which two parts label asked.)
fn key_file(p: &std::path::Path) -> bool {
    // A JSON Web Key kept alone (`issuer.jwk`) is a private one: a public key is published in
    // a set (`jwks.json`) or named so (`public.jwk`).
    let public = || {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().to_ascii_lowercase().contains("pub"))
    };
    p.extension().is_some_and(|e| {
        e.eq_ignore_ascii_case("key") || e.eq_ignore_ascii_case("jwk") && !public()
    })
}

/// A file in a hidden directory of the home (where tools keep their settings) whose own name
/// says it holds a credential, whichever tool wrote it (`~/.config/acme/api-key`,
/// `~/.acme/token`, `~/.config/x/credentials.json`, `~/.minisign/minisign.key`): not a public
/// key (`.pub`), not source code about tokens (`token-safety.ts`), nothing in the project.
fn named_for_a_credential(rel: &str) -> bool {
    // A dotfile of the home itself is in a hidden place too (`~/.erlang.cookie`).
    let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    if !(dir.split('/').any(|d| d.starts_with('.')) || dir.is_empty() && name.starts_with('.')) {
        return false;
    }
    let lower = name.to_ascii_lowercase();
    // The home's own file of environment variables (`~/.env`, R's `~/.Renviron`, direnv's
    // `~/.envrc`): the person's tokens are set there.
    if dir.is_empty() && matches!(lower.as_str(), ".env" | ".renviron" | ".envrc") {
        return true;
    }
    // A dotfile's leading dot is no extension (`~/.mindat_api_key`).
    let stem = lower.strip_prefix('.').unwrap_or(&lower);
    let data = stem.rsplit_once('.').is_none_or(|(_, ext)| {
        matches!(
            ext,
            "json"
                | "yaml"
                | "yml"
                | "toml"
                | "txt"
                | "key"
                | "pem"
                | "env"
                | "cfg"
                | "conf"
                | "ini"
                | "dat"
                | "db"
                // A key written out in hex or base64 (`~/.config/nostr/nsec.hex`).
                | "hex"
                | "b64"
                // The credential as the file's own kind (`.erlang.cookie`).
                | "cookie"
                | "token"
                | "secret"
        )
    });
    if !data || lower.ends_with(".pub") {
        return false;
    }
    let parts: Vec<&str> = lower
        .split(['-', '_', '.'])
        .filter(|p| !p.is_empty())
        .collect();
    let has = |w: &str| parts.contains(&w);
    has("token")
        || has("tokens")
        // An Erlang node's cookie, a session's: whoever holds it is let in.
        || has("cookie")
        || has("secret")
        || has("secrets")
        || has("credentials")
        // A saved login or authorisation (`login.json`, Composer's `auth.json`), or a
        // session a tool keeps signed in (`~/.config/hudl/session.json`), or a passcode.
        || has("login")
        || has("session")
        || has("passcode")
        || has("auth")
        || has("password")
        || has("passwd")
        || has("apikey")
        || has("api") && has("key")
        // A private key by its own name: Nostr's `nsec`, a wallet's mnemonic, `privkey`.
        || has("nsec")
        || has("mnemonic")
        || has("privkey")
        // A file of keys by its name (`card-keys.txt`, `keys.json`), not a key's map of
        // values or bindings.
        || (has("keys") || has("key")) && !has("value") && !has("map") && !has("bindings")
        || lower.ends_with(".key")
}

/// Whether a word expands a variable named for a credential (`$API_TOKEN`, `"${DB_PASSWORD}"`,
/// `${STRIPE_SECRET_KEY:0:8}`), not only its length or whether it is set (`${#API_TOKEN}`,
/// `${API_TOKEN:+set}`).
pub(crate) fn expands_secret_variable(raw: &str) -> bool {
    // (`$'…'` quoting is no variable.)
    raw.match_indices('$').any(|(i, _)| {
        let rest = &raw[i + 1..];
        let (braced, rest) = match rest.strip_prefix('{') {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(end);
        if name.is_empty() || braced && (after.starts_with(":+") || after.starts_with('+')) {
            return false;
        }
        let ps = crate::text::words(name);
        // Named for something about the credential (`TOKEN_URL`, `PASSWORD_FILE`).
        let about = ps.len() > 1
            && ps.last().is_some_and(|l| {
                matches!(
                    l.as_str(),
                    "url"
                        | "uri"
                        | "file"
                        | "path"
                        | "dir"
                        | "name"
                        | "id"
                        | "type"
                        | "expiry"
                        | "expires"
                        | "ttl"
                        | "len"
                        | "length"
                        | "endpoint"
                        | "host"
                        | "ref"
                        | "version"
                        | "hash"
                        | "set"
                        | "count"
                )
            });
        !about && names_a_secret(&ps)
    })
}

/// Whether a name's words (lower case, [`crate::text::words`]) say it holds a secret: a
/// secret, a password, a token, a credential, a passphrase, or a key for an API, signing,
/// encryption, access or an app (`STRIPE_SECRET_KEY`, `appKey`), not any key (`sort_key`).
pub(crate) fn names_a_secret(ps: &[String]) -> bool {
    ps.iter().any(|p| {
        matches!(
            p.as_str(),
            "secret"
                | "password"
                | "passwd"
                | "token"
                | "apikey"
                | "credential"
                | "credentials"
                | "passphrase"
        )
    }) || ps.windows(2).any(|w| {
        w[1] == "key"
            && matches!(
                w[0].as_str(),
                "api"
                    | "app"
                    | "secret"
                    | "private"
                    | "access"
                    | "auth"
                    | "signing"
                    | "encryption"
                    | "master"
            )
    })
}

/// Reading a credential store into the agent's context: a program (not one that only lists or
/// moves) given a credential path, or a keychain / password-manager lookup.
pub(super) fn credential_read(c: &Cmd<'_>, ctx: &Context) -> bool {
    let tool = match c.name {
        "security" => c.words().any(|w| {
            w.starts_with("find-") && w.ends_with("-password")
                || w == "dump-keychain"
                || w == "export"
        }),
        "pass" | "gopass" => {
            matches!(c.sub(), Some("show" | "cat"))
                || (c.sub().is_some_and(|s| {
                    !matches!(
                        s,
                        "ls" | "list"
                            | "find"
                            | "search"
                            | "init"
                            | "git"
                            | "generate"
                            | "insert"
                            | "edit"
                            | "rm"
                            | "mv"
                            | "cp"
                            | "help"
                            | "version"
                    )
                }))
        }
        "vault" => c.words().any(|w| w == "read") || (c.has("kv") && c.has("get")),
        "op" => {
            c.words().any(|w| matches!(w, "read" | "inject"))
                || (c.has("item") && c.has("get"))
                || c.has("--reveal")
        }
        "gcloud" => c.has("auth") && c.words().any(|w| w.starts_with("print-")),
        "gh" => c.has("auth") && c.has("token"),
        "az" => c.has("get-access-token"),
        "aws" => {
            (c.has("configure") && c.has("get") && c.any_word_ci(&["secret", "key", "token"]))
                || c.has("get-session-token")
                || c.has("get-secret-value")
                || (c.has("ecr") && c.has("get-login-password"))
                || (c.has("ssm") && c.has("--with-decryption"))
        }
        "secret-tool" => c.has("lookup"),
        "heroku" => c.words().any(|w| w == "auth:token"),
        "doppler" => c.has("secrets") && !c.has("--only-names"),
        "kubectl" => {
            c.has("secret")
                && c.has("get")
                && c.words().any(|w| {
                    w.starts_with("-o") || w.starts_with("--output") || w == "yaml" || w == "json"
                })
        }
        "cmdkey" => c.has("/list"),
        // The value of a variable named for a credential, printed (`echo $API_TOKEN`).
        "echo" | "printf" => c.args.iter().any(|a| expands_secret_variable(&a.raw)),
        _ => false,
    };
    if tool {
        return true;
    }
    const NOT_READING: &[&str] = &[
        "ls",
        "stat",
        "test",
        "[",
        "du",
        "file",
        "realpath",
        "readlink",
        "dirname",
        "basename",
        "echo",
        "printf",
        "touch",
        "mkdir",
        "chmod",
        "chown",
        "mv",
        "rm",
        "unlink",
        "ssh-add",
        "ssh",
        "scp",
        "git",
        "ssh-keygen",
        "find",
        "exa",
        "eza",
        "tree",
        "wc",
    ];
    if NOT_READING.contains(&c.name) || c.name.is_empty() {
        return false;
    }
    names_credential(c, ctx)
        || searched_for_a_credential(c, ctx)
        || printed_settings(c, ctx)
        || metadata_credentials(c)
        || browser_cookies(c)
}

/// A browser's cookie store taken by an option named for cookies (`--cookies-from-browser
/// firefox`, `--load-cookies=chrome:Profile 1`): its signed-in sessions are credentials to
/// every site the person uses, whatever program reads them.
fn browser_cookies(c: &Cmd<'_>) -> bool {
    const BROWSERS: &[&str] = &[
        "firefox",
        "chrome",
        "chromium",
        "brave",
        "edge",
        "safari",
        "opera",
        "vivaldi",
        "librewolf",
        "waterfox",
        "whale",
    ];
    // Every command comes here: most name no cookie.
    if !c.any_word_ci(&["cookie"]) {
        return false;
    }
    let browser = |v: &str| {
        let v = v.trim_matches(['"', '\'']).to_ascii_lowercase();
        let head = v.split([':', '+', '/', ' ']).next().unwrap_or_default();
        BROWSERS.contains(&head)
    };
    let words: Vec<&str> = c.words().collect();
    crate::effect::option_pairs(&words).any(|(flag, value)| {
        flag.starts_with('-')
            && flag.to_ascii_lowercase().contains("cookie")
            && value.is_some_and(browser)
    })
}

/// The cloud's instance metadata service hands a machine's own credentials to whatever asks
/// from inside it (AWS's and Azure's `169.254.169.254`, AWS's IPv6 `fd00:ec2::254` and its
/// containers' `169.254.170.2`, Google's `metadata.google.internal`, Alibaba's
/// `100.100.100.200`): a path there that names credentials or a token, asked by any program
/// (`curl`, a scraper's `-u URL`, a library's fetcher), reads a credential. The session token
/// IMDSv2 asks for first (`/latest/api/token`) only unlocks the service.
fn metadata_credentials(c: &Cmd<'_>) -> bool {
    const HOSTS: &[&str] = &[
        "169.254.169.254",
        "169.254.170.2",
        "fd00:ec2::254",
        "metadata.google.internal",
        "100.100.100.200",
    ];
    // Every command comes here: a word is lowered only when it names one of the hosts.
    if !c.any_word_ci(HOSTS) {
        return false;
    }
    c.words().any(|w| {
        let w = w.to_ascii_lowercase();
        HOSTS.iter().any(|h| w.contains(h))
            && ["credential", "token", "secret", "password"]
                .iter()
                .any(|p| w.contains(p))
            && !w.trim_end_matches('/').ends_with("/latest/api/token")
    })
}

/// Programs that print a file as it is, whole.
pub(crate) const PRINTERS: &[&str] = &[
    "cat", "bat", "batcat", "less", "more", "most", "head", "tail", "tac", "nl", "strings", "xxd",
    "od", "hexdump", "hd", "jq", "yq", "view",
];

/// A tool's settings file in a hidden place of the home printed whole (`cat
/// ~/.obdiag/config.yml`, `bat ~/.config/tolgee/authentication.json`, `cat ~/.ofxclient.ini`):
/// settings are where a tool keeps its tokens and passwords, whatever the tool, so the whole
/// file lands in the agent's context. Only programs that print a file as it is; a shell's
/// start-up file or ssh's host list (no extension: `~/.bashrc`, `~/.ssh/config`) and caches
/// are not a tool's settings. In the project, a file named for a secret ([`project_secret`]).
fn printed_settings(c: &Cmd<'_>, ctx: &Context) -> bool {
    if !PRINTERS.contains(&c.name) && !dumps_settings(c) {
        return false;
    }
    let home = &ctx.places.home;
    c.operands()
        .filter_map(|a| ctx.resolve(a.text.as_deref()?))
        .chain(c.reads.iter().filter_map(|r| ctx.resolve(r)))
        .any(|p| {
            if p.starts_with(&ctx.places.project_root) {
                return project_secret(&p);
            }
            p.strip_prefix(home)
                .is_ok_and(|rel| home_settings(&p, &rel.to_string_lossy()))
                || ctx.places.classify(&p.to_string_lossy()) != crate::paths::Place::Tmp
                    && secret_by_its_name(&p)
        })
}

/// A program told, by its name or its first word, to print the settings it is given
/// (`feed2imap-dumpconfig -f ~/.feed2imaprc`, `acme config dump -c FILE`): it prints the file
/// as it reads it, tokens and passwords with it.
fn dumps_settings(c: &Cmd<'_>) -> bool {
    let mut words = crate::text::words(c.name);
    if let Some(sub) = c.operands().next().and_then(|a| a.text.as_deref()) {
        words.extend(crate::text::words(sub));
    }
    let joined = |w: &String| {
        ["dump", "print", "show"].iter().any(|v| {
            w.strip_prefix(v)
                .is_some_and(|r| r == "config" || r == "conf")
        })
    };
    words.iter().any(joined)
        || words
            .iter()
            .any(|w| matches!(w.as_str(), "dump" | "print" | "show"))
            && words
                .iter()
                .any(|w| matches!(w.as_str(), "config" | "conf" | "settings"))
}

/// A key store's or a secret's own file kind, by its extension (`.p12`, `.jks`, `.secret`).
fn key_store(ext: &str) -> bool {
    matches!(
        ext,
        // A signing key by its kind (Cardano's and others' `payment.skey`).
        "secret" | "private" | "p12" | "pfx" | "jks" | "keystore" | "skey"
    )
}

/// A file of the project whose name says it holds the project's own secrets, printed whole
/// (`cat etc/dbpasswords.secret`, `cat developer_key.pem`): the agent needs what the file
/// configures, not the values, which would land in its context. Only a key store's kinds and
/// data files named for a secret: not source code about one (`token-safety.ts`), nor a file
/// made to be shown (`secrets.example.yaml`, a test's fixture). (Not `.env` itself: sending
/// it out is labelled a junction, not the block a credential sent out is.)
fn project_secret(p: &std::path::Path) -> bool {
    let name = lowered_name(p);
    let shown = [
        "example", "sample", "template", "dist", "test", "fake", "dummy", "mock", "public",
    ];
    if shown.iter().any(|w| name.contains(w)) {
        return false;
    }
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name.as_str(), ""));
    let words = || stem.split(['-', '_', '.']);
    let store = key_store(ext) || key_file(p);
    let data = matches!(
        ext,
        "" | "json" | "yaml" | "yml" | "toml" | "ini" | "cfg" | "conf" | "properties" | "txt"
    );
    let named = words().any(|w| {
        matches!(
            w,
            "secret"
                | "secrets"
                | "password"
                | "passwords"
                | "passwd"
                | "credentials"
                | "token"
                | "tokens"
                | "apikey"
                | "privkey"
        ) || w.ends_with("passwords")
    });
    let private_pem = ext == "pem" && words().any(|w| matches!(w, "key" | "private" | "priv"));
    store || private_pem || data && named
}

/// A path's last part in lower case (empty for none).
fn lowered_name(p: &std::path::Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// A file whose own name says it holds a secret, wherever a service keeps it outside the
/// project (`/etc/ldap.secret`, `/etc/opendkim/keys/example.com/mail.private`,
/// `/etc/keys/privkey_evm.pem`, `/srv/jetty-base/etc/keystore.p12`): printed, the secret is
/// in the agent's context. Only the file's name counts, not its directory (`/etc/ssl/private`
/// is [`credential_path`]'s), and not a public table (`/etc/passwd` holds no password).
fn secret_by_its_name(p: &std::path::Path) -> bool {
    let name = lowered_name(p);
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name.as_str(), ""));
    // A key store's own kinds, and a file named for what it keeps.
    key_store(ext)
        || ext == "key"
        || !matches!(
            ext,
            "pub" | "crt" | "cer" | "md" | "html" | "txt" | "py" | "rs" | "js"
        ) && stem.split(['-', '_', '.']).any(|w| {
            matches!(
                w,
                "secret"
                    | "secrets"
                    | "privkey"
                    | "credentials"
                    | "password"
                    | "passwords"
                    | "keystore"
                    | "apikey"
                    | "token"
            )
        })
}

/// A file of a tool's settings in the home: in a hidden directory of it (or a dotfile of the
/// home itself), a settings file by its name ([`settings_file`]) or one named for a PIN, a
/// licence or a login (`~/.aqbanking/pinfile`, `~/.config/prince/license.dat`).
fn home_settings(p: &std::path::Path, rel: &str) -> bool {
    let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let hidden =
        dir.split('/').any(|d| d.starts_with('.')) || dir.is_empty() && name.starts_with('.');
    let lower = name.to_ascii_lowercase();
    // What a tool recomputes is no setting (`~/.cache/…`, `~/.npm/_cacache/…`).
    if dir.split('/').any(|d| d.contains("cache")) {
        return false;
    }
    // (A dotfile's leading dot is no extension.)
    let bare = lower.strip_prefix('.').unwrap_or(&lower);
    let (stem, ext) = bare.rsplit_once('.').unwrap_or((bare, ""));
    let structured = matches!(
        ext,
        "json" | "yaml" | "yml" | "toml" | "ini" | "conf" | "cfg" | "cnf" | "xml" | "properties"
    );
    // Outside a hidden directory, a file a program reads its settings from by that name
    // (`~/rtkbase/settings.conf`, `~/rh-data/config.json`): an installed tool's, in the home.
    // Or named for the tool whose directory holds it (`~/octoeverywhere-store/
    // octoeverywhere.conf`).
    if !hidden {
        let tools_own = stem.len() >= 4
            && dir
                .rsplit('/')
                .next()
                .is_some_and(|d| d.to_ascii_lowercase().contains(stem));
        return structured
            && (tools_own || matches!(stem, "config" | "settings" | "conf" | "configuration"));
    }
    // A structured file of `~/.config` itself is a tool's settings, named after the tool
    // (`~/.config/nyuu.json`; in the tool's own directory, a file of any name may be its data,
    // `~/.config/acme/key-value.json`, or a public key set, `jwks.json`); a dotfile of the home
    // without an extension is a tool's own (`~/.cellartracker`), unless it sets up a session
    // (`~/.profile`, `~/.gitconfig`, a history; a start-up file, `…rc`, is judged below).
    let config_dir = dir == ".config";
    let tools_dotfile = dir.is_empty()
        && ext.is_empty()
        && lower.starts_with('.')
        && !lower.ends_with("rc")
        && !lower.contains("history")
        && !matches!(
            lower.as_str(),
            ".profile"
                | ".bash_profile"
                | ".bash_login"
                | ".bash_logout"
                | ".zprofile"
                | ".zshenv"
                | ".zlogin"
                | ".zlogout"
                | ".gitconfig"
                | ".gitignore"
                | ".hushlogin"
                | ".viminfo"
                | ".lesshst"
                | ".selected_editor"
                | ".sudo_as_admin_successful"
                | ".xsession"
                | ".xprofile"
                | ".face"
                | ".dmrc"
        );
    if config_dir && structured || tools_dotfile {
        return true;
    }
    // A tool's own file named `config` in its hidden directory (`~/.config/twarc/config`,
    // `~/.aws/config`), not ssh's host list.
    let tools_config = lower == "config" && !dir.is_empty() && dir != ".ssh";
    // A tool's start-up file in the home (`~/.kattisrc`, `~/.npmrc`), not a shell's or a line
    // editor's, which set up a session and hold no login (`~/.bashrc`, `~/.inputrc`).
    let tools_rc = dir.is_empty()
        && lower
            .strip_prefix('.')
            .and_then(|n| n.strip_suffix("rc"))
            .is_some_and(|tool| {
                !tool.is_empty()
                    && !tool.ends_with("sh")
                    && !matches!(
                        tool,
                        "input" | "vim" | "gvim" | "ex" | "nano" | "screen" | "xinit" | "xsession"
                    )
            });
    tools_config
        || tools_rc
        || settings_file(p)
        || lower.split(['-', '_', '.']).any(|w| {
            matches!(
                w,
                "pin" | "pinfile" | "license" | "licence" | "auth" | "authentication"
            )
        })
}

/// A search whose pattern names a credential, over a file of a tool's settings in the home
/// (`grep -o '<ApiKey>[^<]*' ~/.config/Radarr/config.xml`): what it prints is the value.
fn searched_for_a_credential(c: &Cmd<'_>, ctx: &Context) -> bool {
    if !matches!(
        c.name,
        "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "sed" | "awk" | "jq" | "yq"
    ) {
        return false;
    }
    let texts: Vec<&str> = c.operands().filter_map(|a| a.text.as_deref()).collect();
    let Some((pattern, files)) = texts.split_first() else {
        return false;
    };
    let flagged = c.args.windows(2).filter_map(|w| {
        matches!(w[0].text.as_deref(), Some("-e" | "--regexp"))
            .then(|| w[1].text.as_deref())
            .flatten()
    });
    let names = |p: &str| {
        // A word of the pattern that is a key's or a password's name (`grep key
        // ~/.config/weblate`, `db_pass`), or a setting's in capitals that ends in one
        // (`'DBPASS|REDISPASS'`; not `bypass`).
        let word = p.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
            matches!(
                w.to_ascii_lowercase().as_str(),
                "key" | "pass" | "pwd" | "auth"
            ) || w.len() > 4
                && !w.bytes().any(|b| b.is_ascii_lowercase())
                && (w.ends_with("PASS") || w.ends_with("PWD"))
        });
        let p = p.to_ascii_lowercase();
        word || [
            "apikey",
            "api_key",
            "api-key",
            "token",
            "secret",
            "password",
            "passwd",
            "passcode",
            "passphrase",
            "credential",
            "adminpass",
            "rootpass",
            // A connection's address holds its password (`DATABASE_URL`, a DSN).
            "database_url",
            "db_url",
            "dsn",
            "connection_string",
            "connectionstring",
        ]
        .iter()
        .any(|w| p.contains(w))
    };
    let home = &ctx.places.home;
    // Searched through a whole directory outside the project (`grep -r db.password /srv/app/`):
    // every settings file under it is read for the value.
    let recursive = c
        .option_words()
        .any(|w| w.starts_with('-') && !w.starts_with("--") && w.contains(['r', 'R']));
    // What another program printed, searched for a password's name given as one word
    // (`debconf-get-selections | grep -i password`, `… config --ava | grep -i password`): the
    // lines it finds hold the value. Not a phrase, which is what a test says (`grep "if API
    // key is missing"`), nor a choice of words, which checks what a list covers (`cat
    // .gitignore | grep -E "(env|secret|key)"`).
    // The name must end in the credential's word (`db_pass`, `pre-shared-secret`,
    // `access_token`): `token_count` in a test's output is a counter.
    let piped = files.is_empty()
        && !matches!(c.name, "sed" | "awk" | "jq" | "yq")
        && pattern
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'))
        && names_a_credential_last(pattern);
    (names(pattern) || flagged.into_iter().any(names))
        && (piped
            || files.iter().filter_map(|f| ctx.resolve(f)).any(|p| {
                recursive
                    && matches!(
                        ctx.places.classify(&p.to_string_lossy()),
                        crate::paths::Place::Outside | crate::paths::Place::System
                    )
                    && p.extension().is_none()
                    || !p.starts_with(&ctx.places.project_root)
                        && p.strip_prefix(home).is_ok_and(|r| {
                            r.components()
                                .next()
                                .is_some_and(|d| d.as_os_str().to_string_lossy().starts_with('.'))
                        })
                    || settings_file(&p)
                    || searched_settings(&p)
            }))
}

/// Settings a search for a password's name reads, by the name alone: with no kind or as text
/// (`localconfig`, `conf/import/inter_conf.txt`), or written as code in the languages whose
/// frameworks keep them so (Django's `settings.py`, `local_settings.py`, WordPress's
/// `wp-config.php`). Printed whole they are not (`cat ~/.ssh/config` is ssh's host list).
fn searched_settings(p: &std::path::Path) -> bool {
    let name = lowered_name(p);
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name.as_str(), ""));
    matches!(ext, "" | "txt")
        && ["config", "conf", "settings"]
            .iter()
            .any(|w| name.contains(w))
        || matches!(ext, "py" | "php" | "rb")
            && matches!(
                stem,
                "settings" | "local_settings" | "localsettings" | "wp-config" | "secrets"
            )
}

/// Whether a name's last word is a credential's (`password`, `DB_PASS`, `pre-shared-secret`,
/// `access_token`, `api_key`), or a key's after what kind it is (`apiKey`, `private_key`).
fn names_a_credential_last(name: &str) -> bool {
    let ps = crate::text::words(name);
    let Some(last) = ps.last() else {
        return false;
    };
    matches!(
        last.as_str(),
        "password"
            | "passwd"
            | "pass"
            | "pwd"
            | "passphrase"
            | "secret"
            | "token"
            | "apikey"
            | "credential"
            | "credentials"
    ) || last == "key"
        && ps.len() > 1
        && matches!(
            ps[ps.len() - 2].as_str(),
            "api" | "private" | "secret" | "access"
        )
        || ps.iter().any(|p| p.ends_with("password"))
}

/// A file of settings by its name, wherever it is (`serverDZ.cfg`, `/etc/ngircd/ngircd.conf`,
/// `.env`): its values are what a search for a password prints. Not source code, a workflow
/// or a manifest, where a credential's name stands for a value kept elsewhere
/// (`${{ secrets.TOKEN }}`), nor the system's public tables (`/etc/passwd` holds no password).
fn settings_file(p: &std::path::Path) -> bool {
    let name = lowered_name(p);
    let ext = p
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    // A structured file named for settings (`serversettings.xml`, `ServerHostSettings.json`),
    // or a markup of settings whatever its name (`server.xml`, `application-prod.yml`): a
    // program's data is seldom searched for a password.
    // A CI workflow names secrets kept elsewhere (`${{ secrets.TOKEN }}`).
    let workflow = p.components().any(|c| {
        matches!(
            c.as_os_str().to_str(),
            Some(".github" | ".gitlab" | ".circleci" | "workflows")
        )
    });
    let named_settings = matches!(ext.as_str(), "xml" | "yaml" | "yml" | "toml") && !workflow
        || ext == "json"
            && ["settings", "config", "conf"]
                .iter()
                .any(|w| name.contains(w));
    name == ".env"
        || name.starts_with(".env.")
        || named_settings
        || matches!(
            ext.as_str(),
            "cfg" | "conf" | "cnf" | "ini" | "env" | "properties" | "htpasswd"
        )
        || p.starts_with("/etc") && !matches!(name.as_str(), "passwd" | "group" | "hosts")
}

/// Whether an operand, an option's `=path` value or a file fed to stdin is a credential store.
pub(crate) fn names_credential(c: &Cmd<'_>, ctx: &Context) -> bool {
    c.operands()
        .chain(c.args.iter().filter(|a| {
            a.text
                .as_deref()
                .is_some_and(|t| t.contains('=') && t.contains('/'))
        }))
        .filter_map(|a| {
            let raw = a
                .raw
                .split_once('=')
                .filter(|(k, _)| k.starts_with('-') || k.starts_with("if"))
                .map_or(a.raw.as_str(), |(_, v)| v);
            // A local file by its URL (`file:///home/dev/.aws/credentials`) is that file.
            let raw = raw
                .trim_matches(['"', '\''])
                .strip_prefix("file://")
                .filter(|p| p.starts_with('/'))
                .unwrap_or(raw);
            ctx.resolve(raw)
        })
        .chain(c.reads.iter().filter_map(|r| ctx.resolve(r)))
        .any(|p| credential_path(ctx, &p))
}
