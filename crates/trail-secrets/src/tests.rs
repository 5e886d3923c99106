use std::borrow::Cow;
use std::collections::HashSet;
use std::os::unix::fs::PermissionsExt;

use proptest::prelude::*;

use super::*;

fn redact(text: &str) -> (Cow<'_, str>, Vec<Found>) {
    let mut found = Vec::new();
    let out = Redactor::builtin().redact(text, &mut found);
    (out, found)
}

/// The secret part of `rule`'s example according to its regex.
fn secret_of(rule: &Rule) -> &str {
    let compiled = rule.compiled(usize::MAX).expect("compiles");
    let example = &*rule.example;
    let haystack = haystack_of(rule, example);
    let mut caps = Locs(compiled.re.create_captures());
    compiled
        .re
        .search_captures(&Input::new(haystack.as_bytes()), &mut caps.0);
    assert!(caps.0.is_match(), "example does not match: {example}");
    let span = compiled
        .secret_groups
        .iter()
        .find_map(|&g| caps.get(g))
        .or_else(|| caps.get(0))
        .map_or("", |(s, e)| &example[s..e]);
    // A call's arguments: the secret is the last string among them.
    if rule.check == Check::CallArguments {
        return span
            .rsplit(['"', '\''])
            .find(|p| !p.trim().is_empty() && !p.trim().starts_with(','))
            .unwrap_or(span);
    }
    span
}

/// What a rule's regex runs on.
fn haystack_of(rule: &Rule, text: &str) -> String {
    if rule.lowered {
        text.to_ascii_lowercase()
    } else {
        text.to_string()
    }
}

#[test]
fn every_rule_compiles_matches_its_example_and_redacts_it() {
    let mut names = HashSet::new();
    for (rule, builtin) in builtin_rules().iter().zip(rules::BUILTIN) {
        let name = &*rule.name;
        assert!(names.insert(name), "duplicate rule name {name}");
        assert_eq!(
            sanitize_rule_name(name),
            name,
            "rule name {name} is not a clean token"
        );
        assert!(
            !rule.regex.contains("(?i"),
            "{name}: case-insensitive literals are slow to compile; use `lowered`"
        );
        let compiled = Compiled::new(&rule.regex, false)
            .unwrap_or_else(|e| panic!("rule {name} does not compile: {e}"));
        let lean = Compiled::new(&rule.regex, true)
            .unwrap_or_else(|e| panic!("rule {name}'s lean build does not compile: {e}"));
        let haystack = haystack_of(rule, &rule.example);
        assert!(
            compiled.re.is_match(haystack.as_bytes()) && lean.re.is_match(haystack.as_bytes()),
            "{name}: example does not match"
        );

        // A rule without keywords runs its shape on every text: only a one-pass shape may.
        assert!(
            !builtin.keywords.is_empty() || builtin.shape == Shape::PrefixedToken,
            "{name}: built-in rules need keywords"
        );
        for k in builtin.keywords {
            assert_eq!(
                k.to_ascii_lowercase(),
                *k,
                "{name}: keyword {k} is not lower case"
            );
        }
        assert!(
            rule.shape
                .admits(&rule.example, rule.example.to_ascii_lowercase().as_bytes()),
            "{name}: its shape check rejects its own example"
        );
        let secret = secret_of(rule);
        assert!(!secret.is_empty(), "{name}: empty secret");
        let whole = compiled
            .re
            .find(haystack.as_bytes())
            .map_or("", |m| &rule.example[m.range()]);
        let whole = whole.to_ascii_lowercase();
        assert!(
            builtin.keywords.is_empty() || builtin.keywords.iter().any(|k| whole.contains(k)),
            "{name}: the example's match contains none of the keywords"
        );

        let sentence = format!(
            "Output of the last step:\n{}\nDone, moving on.",
            rule.example
        );
        let (out, found) = redact(&sentence);
        assert!(
            !out.contains(secret),
            "{name}: secret survived redaction:\n{out}"
        );
        let hit = found
            .iter()
            .find(|f| f.value.contains(secret))
            .unwrap_or_else(|| panic!("{name}: not reported; found {found:?}"));
        assert_eq!(hit.rule, name, "{name}: reported under another rule");
        assert!(out.contains(&format!("${{secret:{}}}", hit.name)));
        assert!(hit.name.starts_with(&format!("{name}-")));
    }
    assert!(names.contains(rules::GENERIC_ASSIGNMENT));
}

#[test]
fn every_scanner_redacts_its_example_under_its_name() {
    for (name, example) in nearby::SCANNERS {
        let (out, found) = redact(example);
        assert!(
            found.iter().any(|f| f.rule == *name),
            "{name}: not reported in {out:?}; found {found:?}"
        );
    }
}

#[test]
fn rules_lists_every_rule_with_its_example() {
    let listed: Vec<(&str, &str)> = Redactor::builtin().rules().collect();
    // The table's rules, then the scanners that read a value by where it stands.
    assert_eq!(listed.len(), rules::BUILTIN.len() + nearby::SCANNERS.len());
    assert!(listed.contains(&(
        rules::GENERIC_ASSIGNMENT,
        "export DB_PASSWORD=\"hunter2-Correct-Horse-42\""
    )));
}

#[test]
fn ordinary_text_is_left_alone_and_borrowed() {
    let texts = [
        "",
        "The quick brown fox jumps over the lazy dog.",
        "the token is expired, please log in again",
        "Use an API key from the settings page; the key is not stored here.",
        "fn main() { let tokens = lexer.tokenize(&source)?; println!(\"{}\", tokens.len()); }",
        "let password = prompt_password(\"Password: \")?;",
        "if (auth.isLoggedIn()) { return this.authService.token; }",
        "config.api_key = os.environ[\"OPENAI_API_KEY\"]",
        "export GITHUB_TOKEN=$GITHUB_TOKEN",
        "password: ${DB_PASSWORD}",
        "password: \"${DB_PASSWORD}\"",
        "api_key: <your-api-key>",
        "API_KEY=your-api-key-here",
        "SECRET_KEY=changeme",
        "token: xxxxxxxxxxxxxxxxxxxxxxxx",
        "api_key = \"sk-xxxxxxxxxxxxxxxxxxxxxxxx\"",
        "use_auth: true\nverify_token: false\nmax_tokens: 4096\ntoken_count: 1523",
        "key_file: /etc/ssl/private/server.key\nPWD=/home/dev/projects/trail\nOLDPWD=/tmp",
        "token_path: ./secrets/token.txt",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b\nAuthor: Jane Doe <jane@example.com>",
        "Checked out 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main), 40 hex is a SHA",
        "request id 123e4567-e89b-12d3-a456-426614174000 failed",
        "see /usr/share/doc/keyutils/README and C:\\Users\\dev\\keys",
        "Already redacted: API_KEY=\"${secret:generic-assignment-1a2b3c4d}\"",
        "${secret:github-pat-0badc0de} and ${secret:aws-access-key-id-12345678}",
        "auth_url: https://login.example.com/oauth2/authorize",
        "AUTH_DOMAIN=login.example.com",
        "author: jane.doe@example.com",
        "primary_key: id\nsort_key: created_at_timestamp_desc",
        "auth_method: oauth2_client_credentials",
        "Authorization: Bearer $TOKEN",
        "curl -H \"Authorization: Bearer ${TOKEN}\" https://api.example.com",
        "git push -u origin main",
        "docker run --rm -u 1000:1000 -v $PWD:/src image\ndocker exec -u www-data:www-data app ls",
        "open http://localhost:5173/@vite/client and http://127.0.0.1:3000/@fs/src/main.ts",
        "https://docs.example.com:443/guide#section",
        "postgres://app:${DB_PASSWORD}@localhost/app",
        "The header must read -----BEGIN RSA PRIVATE KEY----- and end with the END line.",
        "const HEADER: &str = \"-----BEGIN PRIVATE KEY-----\";",
        "Ask the task runner to check the disk",
        "monkey: banana\nkeyboard: qwerty",
    ];
    for text in texts {
        let (out, found) = redact(text);
        assert!(
            matches!(out, Cow::Borrowed(_)),
            "redacted ordinary text {text:?} into {out:?}"
        );
        assert!(found.is_empty(), "{text:?}: {found:?}");
    }
}

/// A transcript line as an agent harness writes it: many keywords
/// (`tokens`, `auth`, `://`, `sk`), no secret, nothing to compile.
#[test]
fn agent_transcript_json_is_left_alone() {
    let line = r#"{"type":"assistant","message":{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","model":"claude-sonnet-4","content":[{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"Bash","input":{"command":"cargo test --workspace -- --test-threads 2","description":"Ask the task runner"}}],"usage":{"input_tokens":2095,"cache_creation_input_tokens":0,"cache_read_input_tokens":41821,"output_tokens":503}},"sessionId":"a4c5d0e2-8b3f-4f6a-9c1d-2e7b8a9f0c3d","cwd":"/home/dev/trail","gitBranch":"main","url":"https://api.anthropic.com/v1/messages","auth":"oauth","max_tokens":32000,"stop_reason":"max_tokens","key_path":"/home/dev/.ssh/id_ed25519"}"#;
    let (out, found) = redact(line);
    assert!(matches!(out, Cow::Borrowed(_)), "{out}");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn secrets_inside_json_escaped_commands() {
    let gh = "ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES";
    // Serialized JSON: quotes and newlines inside strings are escaped.
    let line = format!(
        r#"{{"input":{{"command":"export GITHUB_TOKEN={gh} && curl -H \"Authorization: Bearer 8f4e2b7c91d0a3f65e2c4b8d7a1f0e93\" https://api.example.com"}},"output":"DB_PASSWORD=Tr0ub4dor3x\nAPI_KEY=\"Zq8vN3kR7tLw2xP5mB9c\"\n"}}"#
    );
    let (out, found) = redact(&line);
    for secret in [
        gh,
        "8f4e2b7c91d0a3f65e2c4b8d7a1f0e93",
        "Tr0ub4dor3x",
        "Zq8vN3kR7tLw2xP5mB9c",
    ] {
        assert!(!out.contains(secret), "{secret} in {out}");
    }
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(
        out.contains(r#"\"Authorization: Bearer ${secret:authorization-header-"#),
        "{out}"
    );
    assert!(
        out.contains(r#"\nAPI_KEY=\"${secret:generic-assignment-"#),
        "{out}"
    );
    assert!(out.ends_with(r#"}\"\n"}"#), "{out}");
}

#[test]
fn cli_credentials() {
    let (out, found) =
        redact("curl -u deploy:hunter2 https://example.com\nmysqldump --password=Tr0ub4dor3x db");
    assert!(
        !out.contains("hunter2") && !out.contains("Tr0ub4dor3x"),
        "{out}"
    );
    assert!(
        out.starts_with("curl -u deploy:${secret:cli-credentials-"),
        "{out}"
    );
    assert_eq!(found.len(), 2, "{found:?}");
}

#[test]
fn assignment_forms_are_redacted_keeping_names_and_quotes() {
    let value = "Zq8vN3kR7tLw2xP5mB9c";
    let cases = [
        format!("API_KEY={value}"),
        format!("export API_KEY=\"{value}\""),
        format!("api_key: {value}"),
        format!("api_key: '{value}'"),
        format!("{{\"api_key\": \"{value}\"}}"),
        format!("{{\\\"api_key\\\":\\\"{value}\\\"}}"),
        format!("api_key = \"{value}\""),
        format!("apiKey := \"{value}\""),
        format!("'secret_token' => '{value}'"),
        format!("X-Api-Key: {value}"),
        format!("client_secret={value}&grant_type=client_credentials"),
        format!("docker run -e SERVICE_TOKEN={value} image"),
        format!("./deploy --api-key {value}"),
    ];
    for text in &cases {
        let (out, found) = redact(text);
        assert!(!out.contains(value), "{text} -> {out}");
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        assert_eq!(found[0].value, value);
    }
    let text = format!("export API_KEY=\"{value}\"");
    let (out, found) = redact(&text);
    assert_eq!(
        out,
        format!("export API_KEY=\"${{secret:{}}}\"", found[0].name)
    );
    assert_eq!(found[0].rule, rules::GENERIC_ASSIGNMENT);

    // A leading `$` is not enough to make a placeholder.
    let (out, found) = redact("PASSWORD='$ecr3tP@ss!' # not $VAR");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].value, "$ecr3tP@ss!");
    assert!(
        out.starts_with("PASSWORD='${secret:generic-assignment-"),
        "{out}"
    );

    // Password-like names accept shorter, less random values.
    let (out, found) = redact("DB_PASSWORD=Tr0ub4dor&3x\nmysql_pwd: s3cr3tPw!");
    assert!(!out.contains("Tr0ub4dor") && !out.contains("&3x"), "{out}");
    assert!(!out.contains("s3cr3tPw!"), "{out}");
    assert_eq!(found.len(), 2, "{found:?}");
}

#[test]
fn url_credentials_replace_only_the_password() {
    let (out, found) =
        redact("DATABASE=postgres://app_user:Xq7vR2mT9kLp4wZs@db:5432/app?sslmode=require");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].value, "Xq7vR2mT9kLp4wZs");
    assert_eq!(
        out,
        format!(
            "DATABASE=postgres://app_user:${{secret:{}}}@db:5432/app?sslmode=require",
            found[0].name
        )
    );
    // Passwords are often words: the URL context is enough.
    let (out, _) = redact("git clone https://deploy:hunter2@git.example.com/repo.git");
    assert!(!out.contains("hunter2"), "{out}");
    assert!(
        out.contains("https://deploy:${secret:url-credentials-"),
        "{out}"
    );
}

#[test]
fn private_keys_multi_line_and_json_escaped() {
    let body = "MIIEowIBAAKCAQEAx4Zb1dWd0mQ8+Lr3C7Pq1nTzHkP0sY2vJx9bQe3VqLm5cRtU\n\
                8wZt1nPq6Yb4aVd2Fh7Jk9Lm0No3Pq5Rs7Tu9Vw1Xy3Za5Bc7De9Fg1Hi3Jk5Lm7No\n\
                9Pq1Rs3Tu5Vw7Xy9Za1Bc3De5Fg7Hi9Jk1Lm3No5Pq7Rs9Tu1Vw3Xy5Za7Bc9De1==";
    let pem = format!("-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\n");
    let (out, found) = redact(&pem);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].value, body);
    assert_eq!(
        out,
        format!(
            "-----BEGIN RSA PRIVATE KEY-----\n${{secret:{}}}\n-----END RSA PRIVATE KEY-----\n",
            found[0].name
        )
    );

    let escaped = pem.replace('\n', "\\n");
    let json = format!("{{\"type\":\"service_account\",\"private_key\":\"{escaped}\"}}");
    let (out, found) = redact(&json);
    assert!(!out.contains("MIIEowIBAAKCAQEA"), "{out}");
    assert!(!out.contains("Bc9De1=="), "{out}");
    assert!(out.contains("-----END RSA PRIVATE KEY-----\\n\"}"), "{out}");
    assert_eq!(found[0].rule, "private-key");

    // Encrypted PEM with headers, and a truncated key without END.
    let encrypted = format!(
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17C3B1A2D4E5F6\n\n{body}\n-----END RSA PRIVATE KEY-----"
    );
    let (out, _) = redact(&encrypted);
    assert!(
        !out.contains("MIIEow") && !out.contains("3F17C3B1"),
        "{out}"
    );
    let truncated = format!("-----BEGIN OPENSSH PRIVATE KEY-----\n{}", &body[..100]);
    let (out, _) = redact(&truncated);
    assert!(!out.contains("MIIEow"), "{out}");
}

#[test]
fn authorization_headers() {
    let jwt = rules::BUILTIN
        .iter()
        .find(|b| b.name == "jwt")
        .map_or("", |b| b.example);
    let text = format!("curl -H 'Authorization: Bearer {jwt}' https://api.example.com");
    let (out, found) = redact(&text);
    assert!(!out.contains(jwt));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule, "jwt", "the more specific rule names it");

    let (out, found) = redact("Authorization: Bearer 8f4e2b7c91d0a3f65e2c4b8d7a1f0e93");
    assert!(
        out.starts_with("Authorization: Bearer ${secret:authorization-header-"),
        "{out}"
    );
    assert_eq!(found[0].value, "8f4e2b7c91d0a3f65e2c4b8d7a1f0e93");
}

#[test]
fn a_quoted_mysql_password_and_a_terraform_variable_default() {
    let (out, _) = redact("mysqldump -u phpvms -p'ATKx.GHITzCN33GZ' db");
    assert!(
        out.starts_with("mysqldump -u phpvms -p'${secret:cli-password-flag-"),
        "{out}"
    );
    let (out, _) = redact("mysql -p\"ATKx.GHITzCN33GZ\" db");
    assert!(!out.contains("ATKx"), "{out}");
    let tf = "variable \"lillio_client_secret\" {\n  type      = string\n  default   = \"kotPrEGe96LFYXGtYGhYoVJyvfHc03IFfzZSR1TqenwnZ7BQ\"\n  sensitive = true\n}";
    let (out, _) = redact(tf);
    assert!(
        out.contains("default   = \"${secret:named-value-pair-"),
        "{out}"
    );
    let region = "variable \"region\" {\n  default = \"kotPrEGe96LFYXGtYGhYoVJyvfHc\"\n}";
    assert_eq!(redact(region).0, region);
}

/// Read off the thirtieth sealed part's misses and false positives (seen).
#[test]
fn logins_by_their_syntax_and_what_is_not_a_secret_in_clear() {
    for (text, secret) in [
        (
            ".basic_auth(\"412877\", Some(\"c138df73-08c3-45b1-ac5e-760f28560637\"))",
            "c138df73-08c3-45b1-ac5e-760f28560637",
        ),
        (
            "{:basic-auth [\"sync@x.example\" \"34D6OsbHhC_za.WIQ\"]}",
            "34D6OsbHhC_za.WIQ",
        ),
        (
            "url=jdbc:oracle:thin:app_ro/Sd5ue-lr81grD1xs@//db.example.edu:1521/PROD",
            "Sd5ue-lr81grD1xs",
        ),
        ("sqlplus -s scott/Tg7xPq2Lm9@orcl @r.sql", "Tg7xPq2Lm9"),
        (
            "<Pass encoding=\"base64\">NUJ+clNOWnJuTDZqSHY=</Pass>",
            "NUJ+clNOWnJuTDZqSHY=",
        ),
        (
            "lftp -u dc305,'AeKibXT736.KB4' ftp://nas.local",
            "AeKibXT736.KB4",
        ),
        (
            "const STEDI_KEY = process.env.STEDI_API_KEY ?? \"pXw6Ai3vcAvddsuiHVNDQluNDEIeGGRopjKzTbMg\";",
            "pXw6Ai3vcAvddsuiHVNDQluNDEIeGGRopjKzTbMg",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "<Pass encoding=\"crypt\" pubkey=\"ca2c6fe3\">K51+ROZvGZQftBEDK7bKwV9HtwH</Pass>",
        "{\"signature\": {\"alg\": \"ed25519\", \"value\": \"lxE4Nu2kafKqfK7CXL5sAkIARK6iBqEudouxfZ4eSiqAfb+AW2kq46T20TLp8hapR2d/T0XdIToAbOkoNb7CAg==\"}}",
        "$ head -1 VAL-PKG-2026-11.sha512",
        "ps -u root,www-data",
        "req.SetBasicAuth(user, pass)",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Read off the thirty-first sealed part's misses (seen): formats that say where the password
/// is, whatever it looks like.
#[test]
fn passwords_where_a_format_puts_them() {
    for (text, secret) in [
        (
            "ap.add_argument(\"--api-key\", default=\"48t60mxikas0o95ytkpx36io9mhghuwi\")",
            "48t60mxikas0o95ytkpx36io9mhghuwi",
        ),
        (
            "# ~/.pgpass\ndb.shop.local:5432:inventory:ops:2Zq._Jmz4Aeeydim\ndb.shop.local:5432:*:ro:*",
            "2Zq._Jmz4Aeeydim",
        ),
        (
            "qrencode -o card.png 'WIFI:T:WPA;S:Staff;P:oKPTxU~kqgqDR7;;'",
            "oKPTxU~kqgqDR7",
        ),
        (
            "ncftpput -u shop -p 'oEwUdo.i8Ez.y5o' ftp.example.com /in ./r.xml",
            "oEwUdo.i8Ez.y5o",
        ),
        (
            "<setting name=\"ApiPassword\" serializeAs=\"String\"><value>8Su.5Dd3dOqB~cq44C</value></setting>",
            "8Su.5Dd3dOqB~cq44C",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "ap.add_argument(\"--api-key\", default=os.environ.get(\"K\"))",
        "mysql -h db.internal -u report -p analytics",
        "ssh -u dev -p 2222 host",
        "db.shop.local:5432:*:readonly:*",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the `redactor` fuzz target: a password recognised by its key was left in plain text
/// where the same text repeated it (an echo, a second command line), because no rule sees a bare
/// value on its own.
#[test]
fn a_secret_found_once_is_redacted_wherever_the_text_repeats_it() {
    let (out, found) =
        redact("password=hJ8kLq2Zt9Vw\nlogin ok for hJ8kLq2Zt9Vw (cached hJ8kLq2Zt9Vw)");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(!out.contains("hJ8kLq2Zt9Vw"), "{out}");
    assert_eq!(out.matches(&found[0].reference()).count(), 3, "{out}");
    // What is already a reference stays one reference.
    let (again, more) = redact(&out);
    assert_eq!(again, out);
    assert!(more.is_empty());
}

#[test]
fn redaction_is_idempotent_and_names_are_stable() {
    let gh = "ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES";
    let text = format!("first {gh}, again {gh}; GITHUB_TOKEN=\"{gh}\"");
    let (once, found) = redact(&text);
    assert_eq!(found.len(), 1, "one value, one name: {found:?}");
    let name = &found[0].name;
    assert_eq!(
        once.matches(&format!("${{secret:{name}}}")).count(),
        3,
        "{once}"
    );

    let (twice, found2) = redact(&once);
    assert!(matches!(twice, Cow::Borrowed(_)));
    assert_eq!(twice, once);
    assert!(found2.is_empty());

    // The name depends only on the rule and the value.
    let other = Redactor::with_extra(&[]).expect("no extra rules");
    let mut found3 = Vec::new();
    let text = format!("token: {gh}");
    let again = other.redact(&text, &mut found3);
    assert_eq!(found3[0].name, *name);
    assert_eq!(again, format!("token: ${{secret:{name}}}"));
    let digest = Sha256::digest(gh.as_bytes());
    let hex = crate::text::hex(&digest[..4]);
    assert_eq!(*name, format!("github-pat-{hex}"));

    // Already-reported names are not reported twice across calls.
    let mut found4 = found.clone();
    let _ = Redactor::builtin().redact(gh, &mut found4);
    assert_eq!(found4, found);
}

#[test]
fn overlapping_matches_are_merged() {
    // The generic rule sees the whole value, the GitHub rule a prefix of it.
    let text = "token=ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES";
    let (out, found) = redact(text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].rule, "github-pat");
    assert_eq!(out, format!("token=${{secret:{}}}", found[0].name));

    // A URL with a password and a token query parameter: two secrets.
    let text = "https://bot:Hk29sLq8Wm3z@example.com/hook?token=Ab3dE5gH7jK9mN1pQ3sT";
    let (out, found) = redact(text);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        !out.contains("Hk29sLq8Wm3z") && !out.contains("Ab3dE5gH7jK9mN1pQ3sT"),
        "{out}"
    );
}

#[test]
fn extra_rules() {
    let spec = RuleSpec {
        name: "Acme Token".into(),
        regex: r"acme_(?P<secret>[a-z0-9]{12})".into(),
        example: "acme_a1b2c3d4e5f6".into(),
        keywords: vec!["ACME_".into()],
        file: None,
    };
    let redactor = Redactor::with_extra(std::slice::from_ref(&spec)).expect("valid rule");
    assert!(
        redactor
            .rules()
            .any(|r| r == ("acme-token", "acme_a1b2c3d4e5f6"))
    );
    let mut found = Vec::new();
    let out = redactor.redact("deploy with acme_zz99yy88xx77 now", &mut found);
    assert_eq!(
        out,
        format!("deploy with acme_${{secret:{}}} now", found[0].name)
    );
    assert_eq!(found[0].rule, "acme-token");
    assert_eq!(found[0].value, "zz99yy88xx77");
    // Built-in rules still apply.
    let mut found = Vec::new();
    let out = redactor.redact("AKIAUJZDEGXDNCF32EPF", &mut found);
    assert!(out.starts_with("${secret:aws-access-key-id-"));
    // The built-in redactor does not know the user rule.
    assert!(matches!(redact("acme_zz99yy88xx77").0, Cow::Borrowed(_)));

    let bad = RuleSpec {
        regex: "acme_(".into(),
        ..spec.clone()
    };
    assert!(matches!(
        Redactor::with_extra(&[bad]),
        Err(SecretsError::BadRegex { name, .. }) if name == "Acme Token"
    ));
    let mismatch = RuleSpec {
        example: "acme_SHORT".into(),
        ..spec.clone()
    };
    let err = Redactor::with_extra(&[mismatch]).err();
    assert!(matches!(
        err,
        Some(SecretsError::ExampleDoesNotMatch { .. })
    ));
    assert_eq!(
        err.map(|e| e.to_string()).unwrap_or_default(),
        "secret rule `Acme Token`: its example does not match its regex"
    );
    let ungated = RuleSpec {
        keywords: vec!["zeta".into()],
        ..spec
    };
    assert!(matches!(
        Redactor::with_extra(&[ungated]),
        Err(SecretsError::ExampleDoesNotMatch { .. })
    ));

    // A rule without keywords runs on every text.
    let always = RuleSpec {
        name: "internal-id".into(),
        regex: r"INT-[0-9]{6}".into(),
        example: "INT-123456".into(),
        keywords: vec![],
        file: None,
    };
    let redactor = Redactor::with_extra(&[always]).expect("valid rule");
    let mut found = Vec::new();
    let out = redactor.redact("ticket INT-424242 closed", &mut found);
    assert!(out.starts_with("ticket ${secret:internal-id-"), "{out}");
}

#[test]
fn rule_specs_deserialize() {
    #[derive(serde::Deserialize)]
    struct Config {
        rules: Vec<RuleSpec>,
    }
    let config: Config =
        serde_json::from_str(r#"{"rules":[{"name":"x","regex":"x_[0-9]+","example":"x_1"}]}"#)
            .expect("valid json");
    assert!(config.rules[0].keywords.is_empty());
}

/// The built-in rules are shared by the whole test binary; this gives a
/// redactor with its own, not yet compiled, copy of them.
fn isolated_builtin() -> (Redactor, &'static [Rule]) {
    let rules: &'static [Rule] = Box::leak(
        rules::BUILTIN
            .iter()
            .map(Rule::builtin)
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    );
    (Redactor::build(rules, Vec::new()), rules)
}

fn compiled_names(rules: &[Rule]) -> Vec<&str> {
    rules
        .iter()
        .filter(|r| r.compiled.get().is_some() || r.lean.get().is_some())
        .map(|r| &*r.name)
        .collect()
}

#[test]
fn regexes_are_compiled_only_when_their_keywords_occur() {
    let (redactor, rules) = isolated_builtin();
    let mut found = Vec::new();
    let texts = [
        "plain words only, nothing to see",
        // Keywords without the shape of a secret: `token`, `key`, `auth`,
        // `://`, `sk` (in `task`), `sg.` (in `msg.`), `-u`.
        "the token count is 1523; the api key lives in the vault; ask the task runner; \
         msg.content = auth.user; see https://docs.rs/regex; git push -u origin main",
        r#"{"usage":{"input_tokens":2095,"output_tokens":503},"auth":"oauth","max_tokens":32000}"#,
    ];
    for text in texts {
        assert!(matches!(
            redactor.redact(text, &mut found),
            Cow::Borrowed(_)
        ));
    }
    assert!(
        compiled_names(rules).is_empty(),
        "{:?}",
        compiled_names(rules)
    );
    assert!(found.is_empty());

    let out = redactor.redact("token ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES", &mut found);
    assert!(out.starts_with("token ${secret:github-pat-"));
    // A token after `token` also opens the rules that know tokens by their shape, and a
    // line of a key-named setting and its value.
    assert_eq!(
        compiled_names(rules),
        [
            "github-pat",
            "rc-key-line",
            "cli-login-token",
            "prefixed-token"
        ]
    );
}

/// The keyword index is built without sorting (every redacting process builds it): each rule
/// must still be gated by exactly its own keywords, each keyword be kept once, and keywords
/// sharing a first byte sit together in byte order, as the one-pass search reads them.
#[test]
fn each_rule_is_gated_by_exactly_its_own_keywords() {
    let spec = RuleSpec {
        name: "acme".into(),
        regex: "acme_[a-z0-9]{8,}".into(),
        example: "acme_k3y9x0q2".into(),
        // `token` is a built-in keyword too: shared, it is kept once.
        keywords: vec!["ACME_".into(), "token".into()],
        file: None,
    };
    let redactor = Redactor::with_extra(&[spec]).unwrap();
    let keywords = &redactor.keywords.keywords;
    let mut distinct = keywords.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), keywords.len(), "a keyword kept twice");
    for pair in keywords.windows(2) {
        assert!(pair[0][0] <= pair[1][0], "not grouped by first byte");
    }
    for (byte, range) in redactor.keywords.first.windows(2).enumerate() {
        for k in &keywords[range[0]..range[1]] {
            assert_eq!(usize::from(k[0]), byte);
        }
    }
    for (i, rule) in redactor.all_rules().enumerate() {
        let gate: Vec<&[u8]> = redactor.gate_keywords
            [redactor.gate_starts[i]..redactor.gate_starts[i + 1]]
            .iter()
            .map(|&k| &*keywords[k])
            .collect();
        let own: Vec<&[u8]> = match &rule.keywords {
            Keywords::Static(ks) => ks.iter().map(|k| k.as_bytes()).collect(),
            Keywords::Owned(ks) => ks.iter().map(String::as_bytes).collect(),
        };
        assert_eq!(gate, own, "{}", rule.name);
    }
    let mut found = Vec::new();
    let out = redactor.redact("key acme_k3y9x0q2", &mut found);
    assert!(out.starts_with("key ${secret:acme-"), "{out}");
}

#[test]
fn store_permissions_roundtrip_and_idempotence() {
    let home = tempfile::tempdir().expect("tempdir");
    let store = SecretStore::new(home.path().join(".secrets"));
    assert_eq!(store.path(), home.path().join(".secrets").join("trail.env"));
    assert_eq!(store.lookup("nothing-12345678").ok().flatten(), None);

    let tricky = "line one\nline \"two\"\r\n\ttab \\ back $HOME `cmd` \u{1} é 🦀";
    let found = vec![
        Found {
            name: "generic-assignment-0123abcd".into(),
            rule: "generic-assignment".into(),
            value: tricky.into(),
        },
        Found {
            name: "github-pat-89abcdef".into(),
            rule: "github-pat".into(),
            value: "ghp_x".into(),
        },
    ];
    store.store(&found).expect("store");
    let dir_mode = std::fs::metadata(home.path().join(".secrets"))
        .expect("dir")
        .permissions()
        .mode();
    let file_mode = std::fs::metadata(store.path())
        .expect("file")
        .permissions()
        .mode();
    assert_eq!(dir_mode & 0o777, 0o700);
    assert_eq!(file_mode & 0o777, 0o600);

    assert_eq!(
        store
            .lookup("generic-assignment-0123abcd")
            .expect("lookup")
            .as_deref(),
        Some(tricky)
    );
    assert_eq!(
        store
            .lookup("${secret:github-pat-89abcdef}")
            .expect("lookup")
            .as_deref(),
        Some("ghp_x")
    );
    let contents = std::fs::read_to_string(store.path()).expect("read");
    assert!(
        !contents.contains('$') && !contents.contains('`'),
        "{contents}"
    );
    let lines = contents.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(lines, 2);

    store.store(&found).expect("store again");
    store.store(&[]).expect("store nothing");
    assert_eq!(
        std::fs::read_to_string(store.path()).expect("read"),
        contents
    );

    // Wider permissions are tightened on the next store.
    std::fs::set_permissions(store.path(), std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let more = [Found {
        name: "npm-token-00000001".into(),
        rule: "npm-token".into(),
        value: "npm_y".into(),
    }];
    store.store(&more).expect("store more");
    let file_mode = std::fs::metadata(store.path())
        .expect("file")
        .permissions()
        .mode();
    assert_eq!(file_mode & 0o777, 0o600);
    assert_eq!(
        store
            .lookup("npm-token-00000001")
            .expect("lookup")
            .as_deref(),
        Some("npm_y")
    );

    let bad = [Found {
        name: "bad name=\"x\"".into(),
        rule: "x".into(),
        value: "v".into(),
    }];
    assert!(matches!(store.store(&bad), Err(SecretsError::Store { .. })));
}

#[test]
fn store_from_redaction_then_lookup() {
    let home = tempfile::tempdir().expect("tempdir");
    let store = SecretStore::new(home.path().join("nested").join(".secrets"));
    let text = "export OPENAI_API_KEY=\"sk-proj-HgxzNNAL5wIScGebcy8F5n3-YNBDRzrZSgqbjG3uhkWKFLf6\"";
    let (out, found) = redact(text);
    store.store(&found).expect("store");
    let name = &found[0].name;
    assert!(out.contains(name.as_str()));
    assert_eq!(
        store.lookup(name).expect("lookup").as_deref(),
        Some("sk-proj-HgxzNNAL5wIScGebcy8F5n3-YNBDRzrZSgqbjG3uhkWKFLf6")
    );
}

#[test]
fn concurrent_stores_lose_nothing() {
    let home = tempfile::tempdir().expect("tempdir");
    let dir = home.path().join(".secrets");
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let store = SecretStore::new(dir.clone());
            std::thread::spawn(move || {
                for i in 0..25 {
                    let found = [
                        Found {
                            name: format!("t{t}-{i}"),
                            rule: "test".into(),
                            value: format!("value {t} {i}\nsecond line"),
                        },
                        // Shared by every thread: must be stored once.
                        Found {
                            name: format!("shared-{i}"),
                            rule: "test".into(),
                            value: format!("shared {i}"),
                        },
                    ];
                    store.store(&found).expect("store");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("thread");
    }
    let store = SecretStore::new(dir);
    for t in 0..8 {
        for i in 0..25 {
            assert_eq!(
                store.lookup(&format!("t{t}-{i}")).expect("lookup"),
                Some(format!("value {t} {i}\nsecond line"))
            );
        }
    }
    let contents = std::fs::read_to_string(store.path()).expect("read");
    for i in 0..25 {
        let prefix = format!("shared-{i}=");
        assert_eq!(
            contents.lines().filter(|l| l.starts_with(&prefix)).count(),
            1
        );
    }
    assert_eq!(
        contents.lines().filter(|l| !l.starts_with('#')).count(),
        8 * 25 + 25
    );
}

#[test]
fn escaping_roundtrips() {
    for value in [
        "",
        "plain",
        "\"quoted\"",
        "a\\b",
        "new\nline",
        "\u{0}\u{7f}\u{2028}",
        "$`",
        "🦀é",
    ] {
        let mut escaped = String::new();
        store::escape_into(value, &mut escaped);
        assert!(!escaped.contains('\n'), "{escaped}");
        assert_eq!(
            store::unescape(&escaped).as_deref(),
            Some(value),
            "{escaped}"
        );
    }
    assert_eq!(store::unescape("\\ud83e\\udd80").as_deref(), Some("🦀"));
    assert_eq!(store::unescape("bad\\"), None);
    assert_eq!(store::unescape("\\ud83e"), None);
    assert_eq!(store::unescape("un\"escaped"), None);
}

/// Fragments that make random texts hit the rules' keywords and edges.
/// The shapes' edges: a .pgpass line's colons, a login's blank, a hook's path, an armoured
/// block's label.
const SHAPE_EDGES: &[&str] = &[
    "db:5432:app:ops:",
    ":*:",
    " login ",
    "\tauthorize\t",
    "https://h.example/webhook/",
    "-----BEGIN OpenVPN Static key V1-----\n",
    "-----BEGIN PGP SECRET KEY BLOCK-----\n",
];

fn fragment() -> impl Strategy<Value = String> {
    let pieces: Vec<String> = vec![
        // Long runs of multi-byte characters, so that a look back by a byte count (600, 300)
        // from a value lands inside a character (a panic found by reading the change).
        "€".repeat(201),
        "é".repeat(151),
        "token".into(),
        "API_KEY".into(),
        "password".into(),
        "=".into(),
        ": ".into(),
        "\"".into(),
        "'".into(),
        "\\\"".into(),
        "\\n".into(),
        "\n".into(),
        " ".into(),
        "${secret:".into(),
        "}".into(),
        "${secret:github-pat-1a2b3c4d}".into(),
        "https://".into(),
        "user:".into(),
        "@".into(),
        "Authorization: Bearer ".into(),
        "-----BEGIN PRIVATE KEY-----".into(),
        "-----END PRIVATE KEY-----".into(),
        "-u ".into(),
        "--token ".into(),
        "Zq8vN3kR7tLw2xP5mB9c".into(),
        "Tr0ub4dor&3".into(),
        "é".into(),
        "🦀".into(),
        "\u{a0}".into(),
        "\u{b}".into(),
        "--password ".into(),
        "--api-key=".into(),
        " -u ".into(),
        "--user=".into(),
        "a:b".into(),
        ":".into(),
        "/".into(),
        "SK".into(),
        "0123456789abcdef0123456789abcdef".into(),
        "AKIA".into(),
        "SG.".into(),
        "eyJ".into(),
        "aws_secret_access_key".into(),
        "Bearer ".into(),
        "authorization".into(),
        "\\".into(),
        "=>".into(),
        ":=".into(),
        "!=".into(),
        "`".into(),
        "&x=".into(),
        "?=".into(),
        "===".into(),
        "!==".into(),
        "<-".into(),
        "@\"".into(),
        "[]".into(),
        ", ".into(),
        ")".into(),
        "(".into(),
        "<password>".into(),
        "</password>".into(),
        " value=\"".into(),
        " name=\"db.password\"".into(),
        ">".into(),
        "mysql ".into(),
        "docker login ".into(),
        " -p".into(),
        " -a ".into(),
        "redis-cli".into(),
        "==".into(),
        "Private-Lines: 1\n".into(),
        ":AA".into(),
        "6918273645".into(),
        "?sig=".into(),
        "&X-Amz-Signature=".into(),
        "machine h login u password ".into(),
        "-H \"".into(),
        "X-Api-Key: ".into(),
        "getenv(\"api_token\", ".into(),
        "lJzRc1YdHaAA2KCNJJ1tkYwF/+mKK6Ygw0NGe170Xu592euJv2wYUtBlV8z+qnlcNQSnIYVTkLWntUO1F8j8rQ"
            .into(),
        "m{{h}o)p${e]nob(ody".into(),
        "correct horse 42!".into(),
    ];
    let examples: Vec<String> = rules::BUILTIN
        .iter()
        .map(|b| b.example)
        .chain(nearby::SCANNERS.iter().map(|(_, example)| *example))
        .chain(SHAPE_EDGES.iter().copied())
        .map(str::to_string)
        .collect();
    prop_oneof![
        3 => proptest::sample::select(pieces),
        1 => proptest::sample::select(examples),
        2 => "[a-zA-Z0-9+/=_.-]{1,24}",
        1 => any::<String>(),
    ]
}

/// Every place a secret can sit, with `{ref}` where it was.
const REFERENCE_CONTEXTS: &[&str] = &[
    "export API_TOKEN={ref}",
    "password = \"{ref}\"",
    "apikey := '{ref}'",
    "if (token === \"{ref}\") {",
    "DB_PASSWORD ?= {ref}",
    "{\"client_secret\": \"{ref}\"}",
    "{\\\"password\\\": \\\"{ref}\\\"}",
    "postgres://app:{ref}@db:5432/app",
    "curl -u deploy:{ref} https://x.example",
    "curl -u deploy:'{ref}' https://x.example",
    "curl -H \"Authorization: Bearer {ref}\" https://x.example",
    "curl -H \"X-Api-Key: {ref}\" https://x.example",
    "mysql -u root -p{ref} app",
    "sshpass -p '{ref}' ssh host",
    "docker login -u ci -p {ref} registry.example",
    "redis-cli -a {ref} PING",
    "machine api.example.com login dev password {ref}",
    "<password>{ref}</password>",
    "<property name=\"db.password\" value=\"{ref}\"/>",
    "https://b.s3.amazonaws.com/k?X-Amz-Signature={ref}&X-Amz-Date=1",
    "-----BEGIN RSA PRIVATE KEY-----\n{ref}\n-----END RSA PRIVATE KEY-----",
    "PuTTY-User-Key-File-2: ssh-rsa\nPrivate-Lines: 1\n{ref}",
    "AccountKey={ref};EndpointSuffix=core.windows.net",
    "os.getenv(\"api_token\", \"{ref}\")",
    "--password {ref}",
    "token: {ref}, {ref}",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn redact_never_panics_and_is_idempotent(parts in proptest::collection::vec(fragment(), 0..16)) {
        let text = parts.concat();
        let (once, found) = redact(&text);
        let (twice, again) = redact(&once);
        prop_assert_eq!(&twice, &once);
        prop_assert!(again.is_empty(), "second pass found {:?}", again);
        for f in &found {
            let reference = format!("${{secret:{}}}", f.name);
            prop_assert!(once.contains(&reference), "missing {}", reference);
            prop_assert!(text.contains(&f.value));
        }
    }

    /// A shape check may only skip texts where its rule accepts nothing.
    #[test]
    fn shape_checks_are_necessary_conditions(parts in proptest::collection::vec(fragment(), 0..16)) {
        let text = parts.concat();
        let (references, lowered) = prepare(&text);
        for (index, rule) in builtin_rules().iter().enumerate() {
            if rule.shape == Shape::Any || rule.shape.admits(&text, &lowered) {
                continue;
            }
            let compiled = rule.compiled(text.len()).expect("compiles");
            let mut candidates = Vec::new();
            let haystack = haystack_of(rule, &text);
            collect(index, rule.check, compiled, &text, haystack.as_bytes(), &references, &mut candidates, None);
            prop_assert!(candidates.is_empty(), "{} skipped {:?} but matches {:?}", rule.name, text, candidates);
        }
    }

    /// A rule's lean build, which short texts get, finds exactly what its full build finds.
    #[test]
    fn lean_and_full_builds_find_the_same(parts in proptest::collection::vec(fragment(), 0..16)) {
        let text = parts.concat();
        let (references, _) = prepare(&text);
        for (index, rule) in builtin_rules().iter().enumerate() {
            let haystack = haystack_of(rule, &text);
            let found = |len| {
                let mut candidates = Vec::new();
                let compiled = rule.compiled(len).expect("compiles");
                collect(index, rule.check, compiled, &text, haystack.as_bytes(), &references, &mut candidates, None);
                candidates.iter().map(|c| (c.start, c.end)).collect::<Vec<_>>()
            };
            prop_assert_eq!(found(0), found(usize::MAX), "{} on {:?}", rule.name, text);
        }
    }

    /// Redaction is idempotent on its own output: a reference, wherever a
    /// secret can sit, is never taken for a secret again (no
    /// `${secret:${secret:…}}`).
    #[test]
    fn references_in_secret_positions_are_left_alone(
        rule in 0..rules::BUILTIN.len(),
        context in 0..REFERENCE_CONTEXTS.len(),
        hex in "[0-9a-f]{8}",
    ) {
        let reference = format!("${{secret:{}-{hex}}}", rules::BUILTIN[rule].name);
        let text = REFERENCE_CONTEXTS[context].replace("{ref}", &reference);
        let (out, found) = redact(&text);
        prop_assert_eq!(out.as_ref(), text.as_str());
        prop_assert!(found.is_empty(), "{:?}", found);
    }

    #[test]
    fn redact_never_panics_on_arbitrary_strings(text in any::<String>()) {
        let (once, _) = redact(&text);
        let (twice, _) = redact(&once);
        prop_assert_eq!(&twice, &once);
    }
}

/// One family of issue 9 (items 10 and 11): texts whose `secret` must go and
/// texts that must stay byte for byte. The examples are written for this
/// table, not taken from the labelled corpus, so that the corpus still
/// measures something the table did not teach.
struct Family {
    name: &'static str,
    redact: &'static [(&'static str, &'static str)],
    keep: &'static [&'static str],
}

const FAMILIES: &[Family] = &[
    // Found by the fifth sealed set's misses (issue 20, after its one frozen run).
    Family {
        name: "session cookies, credentials in protocol transcripts and in prose",
        redact: &[
            (
                "Cookie: lang=en; acme_session=Zk3q9VtR2mW8xY4pL7nB1cD6",
                "Zk3q9VtR2mW8xY4pL7nB1cD6",
            ),
            (
                "set-cookie: SID=Qp7Lm2Xv9Rt4Kw8Zn3Bc6Hy1; Path=/; Secure",
                "Qp7Lm2Xv9Rt4Kw8Zn3Bc6Hy1",
            ),
            (
                ".acme.example\tTRUE\t/\tTRUE\t1767225600\tacme-session-token\tV8mQ2rX5tK9wL3pZ7nB4cY1d",
                "V8mQ2rX5tK9wL3pZ7nB4cY1d",
            ),
            (
                "C: AUTH LOGIN\nS: 334 VXNlcm5hbWU6\nC: a1 LOGIN ops \"Wq8-Lz3Rv7Xk2\"",
                "Wq8-Lz3Rv7Xk2",
            ),
            (
                "USER deploy\r\nPASS Hv4#Tq9mZr2K\r\n230 Logged in",
                "Hv4#Tq9mZr2K",
            ),
            (
                "--> PRIVMSG NickServ :IDENTIFY acme-bot Rt5+Vw8Lq2Xz",
                "Rt5+Vw8Lq2Xz",
            ),
            (
                "ops: the vpn password is Tq8#wL2vZk9R for now",
                "Tq8#wL2vZk9R",
            ),
            ("staging login is deploy / Hx7-pQ2mZr9W", "Hx7-pQ2mZr9W"),
        ],
        keep: &[
            "the key is missing from the config; the token count is 1523",
            "the password is stored in the vault and the secret is rotated-weekly",
            "Cookie: theme=dark; lang=en-GB",
            "the session=expired message comes from the proxy",
            "Set-Cookie: sessionid=; Max-Age=0; Path=/",
            "USER anonymous\r\nPASS guest@\r\n230 Login successful",
            "S: 250-AUTH PLAIN LOGIN XOAUTH2",
            "a001 LOGIN {user} {password}",
        ],
    },
    // Found by the third sealed set's misses (issue 20, after its one frozen run).
    Family {
        name: "credentials by the call that takes them, a URL that is one, a JWK, a statement",
        redact: &[
            (
                "conn.SetBasicAuth(\"ci-reader\", \"Qm7Tx2Lp9Wv4Rk8Zn3\")",
                "Qm7Tx2Lp9Wv4Rk8Zn3",
            ),
            (
                "r = acme.get(url, auth=(\"deployer\", \"bWl_OsD8_ng._zz7w-\"))",
                "bWl_OsD8_ng._zz7w-",
            ),
            (
                "const h = crypto.createHmac('sha256', 'ce0ca5aa802fdd51a34f4e80030425a0c9f5517b')",
                "ce0ca5aa802fdd51a34f4e80030425a0c9f5517b",
            ),
            (
                "curl -X POST https://chat.acme.example/hooks/97kvz4lvoghhh3rcrfsgqc1qzb",
                "97kvz4lvoghhh3rcrfsgqc1qzb",
            ),
            (
                "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"qFTsMfv0uUxa_ELiUCeORfnkxvZ1aS7kUFywII8fKEY\",\"d\":\"oPhNwFEmq7x7rOZ_jzhQi6xuH7FSoPyc9xZ-5TCAKAw\"}",
                "oPhNwFEmq7x7rOZ_jzhQi6xuH7FSoPyc9xZ-5TCAKAw",
            ),
            (
                "ALTER USER app_owner IDENTIFIED BY \"SCmPadoSsP9LcVfN~u\" ACCOUNT UNLOCK;",
                "SCmPadoSsP9LcVfN~u",
            ),
            (
                "AccountID 1184203\nLicenseKey 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",
                "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",
            ),
            // Found by the shape property: an escaping backslash before a login's token.
            (
                "docker login \\ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES",
                "ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES",
            ),
        ],
        keep: &[
            "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"qFTsMfv0uUxa_ELiUCeORfnkxvZ1aS7kUFywII8fKEY\"}",
            "db.connect(\"localhost\", 5432)",
            "Authorization: GenieKey $OPSGENIE_API_KEY",
            "Authorization: Zoho-oauthtoken {{access_token}}",
            "MasterUserPassword: '{{resolve:secretsmanager:prod/billing/db:SecretString:password}}'",
            "<add key=\"ClearTextPassword\" value=\"%NUGET_FEED_PAT%\" />",
            "\"contentHash\": \"yTUNLDBngZ5jgXZ1Xlp2XMKZWM2TFsFaHOUuGupZtiBd5QidQQlcBXG95gTBLF8SftG/vCG+fU+D49jWQmfvIw==\"",
            "see https://docs.acme.example/hooks/using-hooks-in-react",
            "Key features include offline sync",
        ],
    },
    // Found by the sealed sets' misses and false positives (issue 20, after reading them).
    Family {
        name: "a credential's name and value in sibling fields; keys of data, digests, calls",
        redact: &[
            (
                "env:\n  - name: ACME_API_TOKEN\n    value: wuqxB-Qw1tcNBEOBRVYkK7aLm2",
                "wuqxB-Qw1tcNBEOBRVYkK7aLm2",
            ),
            (
                "<key>SYNC_API_SECRET</key>\n<string>c4ef68cd550df6f1daaa3411a167ef64</string>",
                "c4ef68cd550df6f1daaa3411a167ef64",
            ),
            (
                "<property><name>fs.s3a.secret.key</name><value>Zq9VbM2xR7tLp4Kw8Ns1Hd6Yc3Fj0Gu5</value></property>",
                "Zq9VbM2xR7tLp4Kw8Ns1Hd6Yc3Fj0Gu5",
            ),
            (
                "{\"name\": \"FEED_PAT\", \"value\": \"6tndol9t3j170a0y1guqsghh56dop8oy\"}",
                "6tndol9t3j170a0y1guqsghh56dop8oy",
            ),
            (
                "ACME_SIGNING_KEY=signkey-prod-8fd85a35ea58d6b368110c3f3674155ec25b1e49f09d371f",
                "signkey-prod-8fd85a35ea58d6b368110c3f3674155ec25b1e49f09d371f",
            ),
        ],
        keep: &[
            "foreignKey=v.rz4s7c_tzJcpMoRIZaEibXD6zlkc",
            "primaryKey=esDEuDwroz9elUahASSfDkaLK0c1N_",
            "Idempotency-Key: 60347de8-44d7-4a95-a59b-d8469060f1f3",
            "build cache key: node-modules-bc7f1c1b4f760f8df8bc51e804f92d4b5f5089d0b50628e7bd1c8b6fda779cd5",
            "config :acme, Acme.Mailer,\n  api_key: System.fetch_env!(\"MAILGUN_API_KEY\")",
            "set smtp_pass = \"`pass show mail/acme`\"",
            "token: eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJkZXZpY2UtODg0MSJ9.<signature>",
            "GET /authorize?code_challenge=eri-GBBb3xfyjQC7iyZ_ef9OqDmNYgLlNca05PwUJzc&code_challenge_method=S256",
            "env:\n  - name: LOG_LEVEL\n    value: debug",
        ],
    },
    Family {
        name: "tokens by shape: a short prefix and a long random body, any vendor",
        redact: &[
            (
                "const resend = new Resend('re_ycxBf143_A7h6tUqMXxm3cE3k2CUkXeL1');",
                "re_ycxBf143_A7h6tUqMXxm3cE3k2CUkXeL1",
            ),
            (
                "echo dckr_pat_4EuMLF9LgHOf6TZKTx1dSoW614h | docker login --password-stdin",
                "dckr_pat_4EuMLF9LgHOf6TZKTx1dSoW614h",
            ),
            (
                "client = Acme(\"qz-8f3d61c0a9e74b25d1f0c3b8a7e69d42\")",
                "qz-8f3d61c0a9e74b25d1f0c3b8a7e69d42",
            ),
        ],
        keep: &[
            "integrity sha512-Qw3rT9yU1iO5pA7sD2fG4hJ6kL8zX0cV3bN5mQ1wE9rT7yU2iO4pA6sD8fG0hJ==",
            "image: build-3f9a2c1b8e7d6c5b4a39281706f5e4d3c2b1a098",
            "charge ch_3MmlLrLkdIwHu7ix0snN0B15 succeeded",
            "sb_publishable_pxuZWeC4U-YXdV-do5IvDutmZMVJ59M",
            "request id req-a1b2c3d4-e5f6-7890-abcd-ef1234567890",
            "see the-quick-brown-fox-jumps-over-the-lazy-dog-twice",
            // A session file's name in a real transcript (issue 20, found by the corpus).
            "## Session spotter_4d5611e5_lines720-800_compact_window (14:30)",
        ],
    },
    Family {
        name: "credentials by where they stand: ENV lines, subscripts, typed constants, logins",
        redact: &[
            (
                "ENV SECRET_KEY 2RpLth+qlWtZa9RjrzdnX7Q8KuRUZ0x5",
                "2RpLth+qlWtZa9RjrzdnX7Q8KuRUZ0x5",
            ),
            (
                "os.environ[\"SERVICE_API_KEY\"] = \"mZFkNyYwkCdPvRTBlb5gPiL0y67e26GWPVxyLoeY\"",
                "mZFkNyYwkCdPvRTBlb5gPiL0y67e26GWPVxyLoeY",
            ),
            (
                "pub const WEBHOOK_SECRET: &str = \"fdaac2859ce392238fe5af059afe01c8a3f56a703d9ce99755f64d168bd08765\";",
                "fdaac2859ce392238fe5af059afe01c8a3f56a703d9ce99755f64d168bd08765",
            ),
            (
                "private static final String API_KEY = \"29476d8d151290e006d1a41aa51699d6\";",
                "29476d8d151290e006d1a41aa51699d6",
            ),
            (
                "ngrok config add-authtoken 2ANQ5VyfRyonFssS1yDkYM5Ratq_h41QPfyPVbiMBEU0ALBj1",
                "2ANQ5VyfRyonFssS1yDkYM5Ratq_h41QPfyPVbiMBEU0ALBj1",
            ),
            (
                "wandb login d6cbc12b41acd6748ef6e87c3a4246097a92bdc0",
                "d6cbc12b41acd6748ef6e87c3a4246097a92bdc0",
            ),
        ],
        keep: &[
            "ENV NODE_ENV production",
            "ENV API_KEY_FILE /run/secrets/api_key",
            "os.environ[\"API_KEY\"] = os.environ.get(\"FALLBACK_KEY\")",
            "npm login --registry https://registry.example.com",
            "gh auth login --with-token < token.txt",
            "JWT header: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
            "Public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
        ],
    },
    Family {
        name: "private-key blocks with an END line, whatever the body",
        redact: &[(
            "-----BEGIN PRIVATE KEY-----\nthis is the test key of the fixture suite\n-----END PRIVATE KEY-----",
            "this is the test key of the fixture suite",
        )],
        keep: &["-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----"],
    },
    Family {
        name: "credentials in URLs",
        redact: &[
            (
                "redis://default:Wm4Kp9Lq2Zx7@cache.internal:6379/0",
                "Wm4Kp9Lq2Zx7",
            ),
            (
                "git clone https://oauth2:Hy7Tq3Lm9Vz2Rk5P@gitlab.example.org/g/p.git",
                "Hy7Tq3Lm9Vz2Rk5P",
            ),
            (
                "ftp://ops:p%40ss%21W0rd9@files.example.net/",
                "p%40ss%21W0rd9",
            ),
        ],
        keep: &[
            "amqp://admin:admin@localhost/",
            "postgres://postgres:postgres@localhost:5432/test",
            "https://user:${DB_PASS}@db.example.com",
            "http://localhost:5173/@vite/client",
            "https://<user>:<password>@host/",
        ],
    },
    Family {
        name: "private-key blocks, any body, with or without END",
        redact: &[
            (
                "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB3f9Lq2Zx7Wm4Kp9Vb5Nc8Rt1Ys6Ud3Ie0Of\n-----END EC PRIVATE KEY-----",
                "MHcCAQEEIB3f9Lq2Zx7Wm4Kp9Vb5Nc8Rt1Ys6Ud3Ie0Of",
            ),
            (
                "key: \"-----BEGIN PRIVATE KEY-----\\nMC4CAQAwBQYDK2VwBCIEIQ==\\n\"",
                "MC4CAQAwBQYDK2VwBCIEIQ==",
            ),
            (
                "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nAAAAIHq3Lm9Vz2Rk5PWm4Kp9Lq2Zx7",
                "AAAAIHq3Lm9Vz2Rk5PWm4Kp9Lq2Zx7",
            ),
        ],
        keep: &[
            "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAq3Lm9Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Vz2Rk5P=\n-----END PUBLIC KEY-----",
            "Paste it after -----BEGIN OPENSSH PRIVATE KEY----- and keep the rest.",
            "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
        ],
    },
    Family {
        name: "assignments of any value shape",
        redact: &[
            (
                "admin_password = \"blue Falcon 77 rises\"",
                "blue Falcon 77 rises",
            ),
            ("SESSION_SECRET := \"k#9Lq!2Zx7@Wm4\"", "k#9Lq!2Zx7@Wm4"),
            (
                "service_token ?= Hy7Tq3Lm9Vz2Rk5PWm4K",
                "Hy7Tq3Lm9Vz2Rk5PWm4K",
            ),
            (
                "if (authToken == 'Zt5Rk8Wq2Lm7Nx4Vb1') {",
                "Zt5Rk8Wq2Lm7Nx4Vb1",
            ),
            (
                "if (clientSecret !== \"Qp3Ws8Ed1Rf6Tg9Yh2\") return;",
                "Qp3Ws8Ed1Rf6Tg9Yh2",
            ),
            (
                "var apiKey = @\"Lm9Vz2Rk5PWm4Kp9Lq\";",
                "Lm9Vz2Rk5PWm4Kp9Lq",
            ),
            ("api_key <- 'Kp9Lq2Zx7Hy7Tq3Lm9'", "Kp9Lq2Zx7Hy7Tq3Lm9"),
            ("my_password_super_secure=Vb5Nc8Rt1Ys6", "Vb5Nc8Rt1Ys6"),
            (
                "partnerApiKeyStaging: \"Wm4Kp9Lq2Zx7Hy7T\"",
                "Wm4Kp9Lq2Zx7Hy7T",
            ),
            ("password = q^7Z}$rT2@mL!xW", "q^7Z}$rT2@mL!xW"),
            (
                "token = os.environ.get(\"DEPLOY_TOKEN\", \"Rk5PWm4Kp9Lq2Zx7Hy\")",
                "Rk5PWm4Kp9Lq2Zx7Hy",
            ),
            (
                "signing_key 'Ys6Ud3Ie0OfVb5Nc8Rt1';",
                "Ys6Ud3Ie0OfVb5Nc8Rt1",
            ),
        ],
        keep: &[
            "password = get_password(user)",
            "api_key: settings.apiKey,",
            "apiKey: process.env.API_KEY!,",
            "token = tokens[i]",
            "password = \"Please enter your password.\"",
            "secret_name = \"PROD_DB_PASSWORD\"",
            "token_type = \"refresh\"",
            "password_min_length = 16",
            "key_file = \"config/master.key\"",
            "private_key_path: ~/.ssh/id_ed25519",
            "signing_key_id = \"0f6c1e2d-7a4b-4c3d-9e8f-1a2b3c4d5e6f\"",
            "auth_provider = github-oauth2-provider",
            "api_version = \"2024-06-01\"",
            "jwt-token-version: jjwt-api-0.12.5",
            "{\"tool\":\"Read\",\"tokens\":1523,\"auth\":\"ok\",\"max_tokens\":32000}",
        ],
    },
    Family {
        name: "UUIDs under credential names, not under id names",
        redact: &[
            (
                "DATADOG_API_KEY=6f1c2e3d-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
                "6f1c2e3d-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
            ),
            (
                "\"accessToken\": \"8b7a6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d\"",
                "8b7a6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d",
            ),
        ],
        keep: &[
            "tenant_id = \"6f1c2e3d-4b5a-4c6d-8e7f-9a0b1c2d3e4f\"",
            "secretId: 8b7a6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d",
            "<KeyVaultSecretId>0e9f8a7b-6c5d-4e3f-8a2b-9c1d8b7a6c5d</KeyVaultSecretId>",
        ],
    },
    Family {
        name: "40-character cloud secret access keys",
        redact: &[
            (
                "aws_secret_access_key=Hq2Wm8Zx5Cv1Bn7Kt4Lp9Rs3Yd6Fg0Jh2Mk5Nq8W",
                "Hq2Wm8Zx5Cv1Bn7Kt4Lp9Rs3Yd6Fg0Jh2Mk5Nq8W",
            ),
            (
                "\"SecretAccessKey\": \"Zk8p/Q2mV7xR4tY1uI9o+3aS6dF0gH5jK2lZ8cX4\"",
                "Zk8p/Q2mV7xR4tY1uI9o+3aS6dF0gH5jK2lZ8cX4",
            ),
        ],
        keep: &[
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "git checkout 4f9c2b7e1a8d3f6c0b5e9a2d7f1c4b8e3a6d9f2c",
        ],
    },
    Family {
        name: "vendor prefixes",
        redact: &[
            (
                "GH=ghp_Vq9Lm2Xz7Kp4Nb6Hc8Jd1Fe3Gs5Ta0Wy2Ur4",
                "ghp_Vq9Lm2Xz7Kp4Nb6Hc8Jd1Fe3Gs5Ta0Wy2Ur4",
            ),
            (
                "rk_live_Lm9Vz2Rk5PWm4Kp9Lq2Zx7",
                "rk_live_Lm9Vz2Rk5PWm4Kp9Lq2Zx7",
            ),
        ],
        keep: &[
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "sk_live_abcdefghijklmnopqrstuvwx1234",
            "AKIAAAAAAAAAAAAAAAAA",
        ],
    },
    Family {
        name: "password flags",
        redact: &[
            (
                "mysqldump -u backup -pQw8Er4Ty2Ui6 shop > shop.sql",
                "Qw8Er4Ty2Ui6",
            ),
            ("sshpass -p Zx7Hy7Tq3Lm9 scp f host:", "Zx7Hy7Tq3Lm9"),
            (
                "podman login -u bot -p Rk5PWm4Kp9Lq quay.io",
                "Rk5PWm4Kp9Lq",
            ),
            ("redis-cli -h cache -a Tq3Lm9Vz2Rk5 INFO", "Tq3Lm9Vz2Rk5"),
            ("psql --password=Hy7Tq3Lm9Vz2 -d app", "Hy7Tq3Lm9Vz2"),
            (
                "curl --user ops:\"Lq2Zx7Hy7Tq3\" https://x.example",
                "Lq2Zx7Hy7Tq3",
            ),
        ],
        keep: &[
            "mysql -u root -p shop",
            "ssh -p 2222 deploy@host",
            "mkdir -p build/out && cargo test -p trail-core",
            "docker run -p 8080:80 nginx",
            "docker login -u ci --password-stdin < token.txt",
            "redis-cli -a \"$REDIS_PASSWORD\" PING",
            "git push -u origin main",
        ],
    },
    Family {
        name: "tokens recognised by where they sit",
        redact: &[
            (
                "machine ci.example.org\n login builder\n password Kp9Lq2Zx7Hy7",
                "Kp9Lq2Zx7Hy7",
            ),
            (
                "<settings><password>Zx7!Hy7Tq3</password></settings>",
                "Zx7!Hy7Tq3",
            ),
            (
                "<add key=\"x\" name=\"smtp.password\" value=\"Vz2Rk5PWm4\"/>",
                "Vz2Rk5PWm4",
            ),
            (
                "Authorization: SSWS 00Tq3Lm9Vz2Rk5PWm4Kp9Lq2Zx7Hy7",
                "00Tq3Lm9Vz2Rk5PWm4Kp9Lq2Zx7Hy7",
            ),
            (
                "curl -H 'X-Auth-Token: Ud3Ie0Of9' https://x.example",
                "Ud3Ie0Of9",
            ),
            (
                "https://api.telegram.org/bot5092837461:AAGk3Lm9Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3L/getMe",
                "5092837461:AAGk3Lm9Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3L",
            ),
            (
                "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig=Xy9%2BLm2Vz7Rk5PWm4Kp9%3D",
                "Xy9%2BLm2Vz7Rk5PWm4Kp9%3D",
            ),
        ],
        keep: &[
            "machine ci.example.org login builder",
            "<password>${env.SMTP_PASSWORD}</password>",
            "<PasswordResetTimeout>3600</PasswordResetTimeout>",
            "curl -H 'X-Api-Version: 2024-06-01' https://x.example",
            "https://example.com/docs?topic=signature&lang=en",
        ],
    },
    Family {
        name: "placeholders",
        redact: &[],
        keep: &[
            "API_KEY=XXXXXXXXXXXXXXXXXXXXXXXX",
            "secret_key = \"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567\"",
            "auth_token: 12345678901234567890",
            "stripe_key = sk_test_xxxxxxxxxxxxxxxxxxxxxxxx",
            "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
            "curl -u <username:password> https://x.example",
            "password: {{ vault_db_password }}",
            "client_secret = \"your-client-secret-here\"",
        ],
    },
    Family {
        name: "public keys and public-by-design keys",
        redact: &[
            (
                "STRIPE_SECRET_KEY=sk_live_Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq",
                "sk_live_Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq",
            ),
            (
                "GOOGLE_MAPS_SERVER_KEY=AIzaSyVz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Ud3I",
                "AIzaSyVz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Ud3I",
            ),
        ],
        keep: &[
            "STRIPE_PUBLISHABLE_KEY=pk_live_Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq",
            "MAPBOX_TOKEN=pk.eyJ1IjoiZGV2IiwiYSI6ImNrMTIzIn0.Vz2Rk5PWm4Kp9Lq2Zx7Hy7",
            "firebase.initializeApp({ apiKey: \"AIzaSyVz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Ud3I\", projectId: \"demo\" })",
            "VITE_SUPABASE_ANON_KEY=eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiIsInJlZiI6Inh5eiJ9.Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9",
            "public_key = \"Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Ud3Ie0\"",
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIVz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Ud3Ie0 me@box",
            "ssh-rsa Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Ud3Ie0OfVb5Nc8Rt1Ys6Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Ud3Ie0OfVb5Nc8Rt1Ys6Aa== me@box",
            "deploy_public_keys:\n  - Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Ud3Ie0OfVb5Nc8Rt1Ys6Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Ud3Ie0OfVb5Nc8Rt1Ys6Aa==",
            "integrity: sha512-Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Ud3Ie0OfVb5Nc8Rt1Ys6Vz2Rk5PWm4Kp9Lq2Zx7Hy7Tq3Lm9Ud3Ie0OfVb5Nc8Rt1Ys6Aa==",
        ],
    },
    Family {
        name: "well-known demo tokens",
        redact: &[],
        keep: &[
            "curl https://api.telegram.org/bot110201543:AAHdqTcvCH1vGWJxfSe1ofSAs0K5PALDsaw/getMe",
            "Stripe.api_key = \"sk_test_4eC39HqLyjWDarjtT1zdp7dc\"",
            "token = eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
            "//registry.npmjs.org/:_auth=YWRtaW46YWRtaW4=",
        ],
    },
];

#[test]
fn every_family_redacts_its_secrets_and_keeps_its_neighbours() {
    let mut failures = Vec::new();
    for family in FAMILIES {
        for (text, secret) in family.redact {
            assert!(
                text.contains(secret),
                "{}: bad example {text:?}",
                family.name
            );
            let (out, _) = redact(text);
            if out.contains(secret) {
                failures.push(format!(
                    "{}: kept the secret in {text:?} -> {out:?}",
                    family.name
                ));
            }
            let (twice, _) = redact(&out);
            assert_eq!(twice, out, "{}: not idempotent", family.name);
        }
        for text in family.keep {
            let (out, _) = redact(text);
            if out != *text {
                failures.push(format!("{}: changed {text:?} -> {out:?}", family.name));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Found by the seventh sealed part, after its one run (issue 20): a key its writer calls
/// public in a comment, a secret's ARN, a YAML-tagged ciphertext and a `pubkey` attribute were
/// redacted. What stays secret beside them still goes.
#[test]
fn what_the_writer_calls_public_and_names_of_stored_secrets_stay() {
    for text in [
        "  key: \"rzp_live_bLvHhzMrstdu76\", // key id only; the secret stays on the server",
        "  accessToken: \"7a94efc159e06252fff7644a949dafe8\", // post_client_item, client-side",
        "DbSecretArn=arn:aws:secretsmanager:eu-west-1:843601078625:secret:prod/orders/db-Qw5cwd",
        "password: !encrypted/pkcs1-oaep\n  - LVcBrJy70SsSwmx+FTf5ws0uzC6W5NprWibROSSDe9tctm0zeBWUzcTmg71a",
        "<Pass encoding=\"crypt\" pubkey=\"ca2c6fe3bc19deec10d586cfdf4382d5e811d2514159ef7c34af0d15b654a32b\">",
    ] {
        let (out, found) = redact(text);
        assert_eq!(out, text, "changed: {found:?}");
    }
    for (text, secret) in [
        (
            "  accessToken: \"7a94efc159e06252fff7644a949dafe8\", // rotate monthly",
            "7a94efc159e06252fff7644a949dafe8",
        ),
        (
            "export DB_PASSWORD=\"hunter2-Correct-Horse-42\" # prod",
            "hunter2-Correct-Horse-42",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
}

/// Found by the eighth sealed part, after its one run (issue 20): password hashes, references
/// to where a secret is and colon-separated fingerprints were redacted under a password's name.
#[test]
fn hashes_references_and_fingerprints_hold_no_secret() {
    for text in [
        "authentication encrypted-password \"$6$a/xBUEp.dzOxJKcN$lRVR3O273jpcV1w5oCYRLR49NhFLId\"",
        "<oper name=\"dev\" password=\"$2a$10$9NJEAMgtyOhbI24ZF1ylut5v.lMdxL1.dTqqnB4FY8uX4Pb\"/>",
        "\tpassword \"$argon2id$v=19$m=6144,t=2,p=2$cVlEP3dplTg84+IGoImBYQ$MYCI8WhJ4j4IXYSvmb64\";",
        "bundletool build-apks --ks=upload.jks --ks-pass=env:UPLOAD_KS_PASS",
        "export COURSIER_CREDENTIALS=\"$HOME/.config/coursier/credentials.properties\"",
        "\tpassword \"F7:2E:D9:41:59:38:38:FB:A3:77:C8:C9:EE:A6:E1:23\" { spkifp; };",
        // Found by the ninth sealed part: a digest-named fingerprint and code reading the
        // environment.
        "expect \"key fingerprint is SHA256:Qm3vX9tLr0Pk2sWn8YbZc4Hd6Jf1Ge7Ta5Uo0Ei9Rx.\"",
        "el(By.ID, \"password\").send_keys(os.environ[\"ACME_PASSWORD\"])",
    ] {
        let (out, found) = redact(text);
        assert_eq!(out, text, "changed: {found:?}");
    }
    let (out, _) = redact("bundletool build-apks --ks-pass=pass:Qw7-vLx92Kp4ZtRm");
    assert!(!out.contains("Qw7-vLx92Kp4ZtRm"), "{out}");
}

/// Found by the tenth sealed part, after its one run (issue 20): a cookie is a credential by
/// its name (`--cookie`, `-setcookie`, `RELEASE_COOKIE`, an X authority's magic cookie) and a
/// password by its role (`masterauth`), a
/// long value of one alphabet under a token's, a secret's or a cookie's name is generated (hex,
/// capitals, base32), a login written `user:password@host` without a scheme, the pwdump layout
/// of an NT hash, and a passwd line whose password field holds the password. Their look-alikes
/// stay: a counted-out alphabet, a digest named as one, a factory default spelt in digits, the
/// empty password's hash, a real passwd line, an address after `mailto:`.
#[test]
fn cookies_uniform_tokens_logins_and_account_dumps() {
    for (text, secret) in [
        (
            "$ acme-vm --sname console --cookie QWPZKRTMBXLNVCHDYSGF --remsh app@web-2",
            "QWPZKRTMBXLNVCHDYSGF",
        ),
        (
            "$ acme-node -sname dbg -setcookie MZQXWLTRVKPNBYHCDGSF -hidden",
            "MZQXWLTRVKPNBYHCDGSF",
        ),
        (
            "ACME_RELEASE_COOKIE=K7QW2ZPL5MXR3TNB6VHC4JYD8SGF2ZQW====",
            "K7QW2ZPL5MXR3TNB6VHC4JYD8SGF2ZQW====",
        ),
        (
            "$ acme-xauth list\nhost-3/unix:10  ACME-MAGIC-COOKIE-1  5c1e9a07d3f24b86ae90c13f7d2b5e48",
            "5c1e9a07d3f24b86ae90c13f7d2b5e48",
        ),
        (
            "acme-agent.jar -url https://ci.acme.example/ -secret 8f3a1c9e5b7d2f4a6c0e8b1d3f5a7c9e2b4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a",
            "8f3a1c9e5b7d2f4a6c0e8b1d3f5a7c9e2b4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a",
        ),
        (
            "./acme-bmc config show Host --bmc ADMIN:Vt8-qLm2xR9wZk@10.0.0.9",
            "Vt8-qLm2xR9wZk",
        ),
        (
            "acme.local\\svc_app:1109:aad3b435b51404eeaad3b435b51404ee:9a4f7c2e1b8d3f6a0c5e7b9d2f4a6c8e:::",
            "9a4f7c2e1b8d3f6a0c5e7b9d2f4a6c8e",
        ),
        (
            "svc_app:Tq7Zk-m2Wx9L:1201:1201:App service:/home/svc_app:/bin/bash",
            "Tq7Zk-m2Wx9L",
        ),
        ("acmeauth Vq8WuLz_K3pR7m", "Vq8WuLz_K3pR7m"),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "acme_cookie_name = \"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567\"",
        "  \"hashed_secret\": \"c36509e75020abeb3bc08bb0bcdac69a259572c1\",",
        "./acme-bmc config set Host --bmc USERID:PASSW0RD@10.0.0.9",
        "acme.local\\Guest:501:aad3b435b51404eeaad3b435b51404ee:31d6cfe0d16ae931b73c59d7e0c089c0:::",
        "svc_app:x:1201:1201:App service:/home/svc_app:/usr/sbin/nologin",
        "write to mailto:Jo.Doe4@acme.example for access",
        "session cookie_max_age = 3600",
        "smtpauth = enabled",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the eleventh sealed part after its one run (issue 20; recall 0.75, false positives
/// 0.05): a command that asks for a credential by name (`getconfig rpcpassword`, `networkkey`,
/// a macaroon) or a password prompt before the value; a list under a credential's name; a
/// setting's name and value given by two options; a password echoed into `password_stdin`; a
/// value handed through a call (`JSON.stringify("…")`); a share's `//user:pass@host`; a
/// password letter's long one-alphabet value (`-p l52e…`); a login's two words. And what is no
/// secret: a public key's DER (`MIIBIjAN…`), values labelled by a digest's name after them,
/// a salt and a digest joined by `$`.
#[test]
fn asked_for_listed_piped_and_paired_credentials() {
    for (text, secret) in [
        (
            "$ acme-wallet getconfig rpcpassword\nQv7+kd2y/XmsTr5p",
            "Qv7+kd2y/XmsTr5p",
        ),
        (
            "$ sudo acme-ctl networkkey\n9f2b6c1d7e3a4058b9c2d1e6f7a8b3c4\nDone",
            "9f2b6c1d7e3a4058b9c2d1e6f7a8b3c4",
        ),
        (
            "$ acme-vcs login -p\nEnter password:\n7D3C9A1B2E4F60815A7C3E9B1D2F4A6C",
            "7D3C9A1B2E4F60815A7C3E9B1D2F4A6C",
        ),
        (
            "model: acme/large\napi-key:\n  - acme=bX8qTz2LwR5nV7kP3mD9sF4hJ6gC1aEy\nauto-commits: false",
            "bX8qTz2LwR5nV7kP3mD9sF4hJ6gC1aEy",
        ),
        (
            "acme-iscsi -m node --op=update --name node.session.auth.password --value=Kq7wNz3xP0RbTs",
            "Kq7wNz3xP0RbTs",
        ),
        (
            "echo 'Wm4tRz8qLx.kPd' | acme-fs -o password_stdin dev@10.0.4.17:/srv /mnt/srv",
            "Wm4tRz8qLx.kPd",
        ),
        (
            "  define: {\n    __ACME_WIDGET_SECRET__: JSON.stringify(\"5f1e9c3a7b2d4e6f8a0c1b3d5e7f9a2c4b6d8e0f\"),\n  },",
            "5f1e9c3a7b2d4e6f8a0c1b3d5e7f9a2c4b6d8e0f",
        ),
        (
            "$ acme_mount //ana:Rt5Qw_mZkPx2Lv9N@nas.local/Backup /Volumes/b",
            "Rt5Qw_mZkPx2Lv9N",
        ),
        (
            "$ npx acme-store publish -p q7m2x9k4t1w8z3r6v5n0b2c7d4f9g1h6j3k8l5p0s2",
            "q7m2x9k4t1w8z3r6v5n0b2c7d4f9g1h6j3k8l5p0s2",
        ),
        (
            "$ ./acme-cmd.sh +login builder QWe-r5tyzkxm7pLd +run_build x.vdf +quit",
            "QWe-r5tyzkxm7pLd",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "{\n  \"name\": \"Acme Tabs\",\n  \"key\": \"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA24C8dKYFg0jVRknqY7HIiHNuVtKL8goY1p/I1huYuwsdU7iQaRe0NgIwcL0h1aIvd5BGdm0iix9F2qCD0j1quUn+L4wdws8Ll1CzGCa3hSiuXOEKFzTQ9sZt8pZeV\"\n}",
        "monitorRole k4xmyrtWEQFcCHgxt3Tr5JSgneWivYSR/lI35a2f4NWVEi9wQ5ebQcMAifVFFXHej4OgSmNYGJMvsq8VlrTLKw== SHA3-512",
        "acmeauth=ops:cea9cdaba165e051c928f0a241f62bd9$76c73984d8963e7aff4e7661313b0efffb52e3c8d4a668310cdbb0278da83c41",
        "$ acme-ctl state\nleader\nDone",
        "tokens:\n  - <YOUR_TOKEN>\n  - changeme",
        "acme-cfg --name node.session.timeo.replacement_timeout --value=120",
        "echo \"$ACME_PASSWORD\" | acme login --password-stdin",
        "$ acme login ana",
        "$ acme -p 8080 serve",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the twelfth sealed part (issue 20), with invented values: a key handed to a long
/// option with a blank, a Windows `/p value`, a licence key by its name, `Authorization
/// "Basic …"` in a server's directive, a URL called to report or notify whose path carries a
/// generated segment. Left alone: a browser's `data-` attribute, a name joined to `Public`, a
/// published signature, a value from three symbols, a base64 block of a certificate or an
/// image, a file's name at a path's end, a plist's `<key>`, a digest named as an option's value.
#[test]
fn found_by_the_twelfth_sealed_part() {
    for (text, secret) in [
        (
            "acme-lora devices create n7 --root-keys.app-key.key 5E1B7C90A3D24F6E8B0C1D2E3F4A5B6C",
            "5E1B7C90A3D24F6E8B0C1D2E3F4A5B6C",
        ),
        (
            "acmesign sign /f C:\\certs\\a.pfx /p Tq8_vN2x.Lm4kR7w /fd SHA256 dist\\x.exe",
            "Tq8_vN2x.Lm4kR7w",
        ),
        (
            "ACME_LICENSE=7QKX2M4V9BN3C8ZL5PW1RT6YH0JD4FS2GA7EU3IO9KX5MN8BV2CL6ZQ1WP4RT7YH",
            "7QKX2M4V9BN3C8ZL5PW1RT6YH0JD4FS2GA7EU3IO9KX5MN8BV2CL6ZQ1WP4RT7YH",
        ),
        (
            "RequestHeader set Authorization \"Basic YWNtZS1wcm94eTpUcTh2TjJ4TG00a1I3dw==\"",
            "YWNtZS1wcm94eTpUcTh2TjJ4TG00a1I3dw==",
        ),
        (
            "      - ACME_PUSH_URL=https://status.acme.example/api/push/Rk7vQ2mXz9LpW4tN8bY3cH6dJ1?status=up",
            "Rk7vQ2mXz9LpW4tN8bY3cH6dJ1",
        ),
        (
            "args: [\"--then-ping\", \"https://beat.acme.example/hb/3f0c9a12-7d4e-4b8a-9c1f-2e6d5a7b8c90\"]",
            "3f0c9a12-7d4e-4b8a-9c1f-2e6d5a7b8c90",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "<div class=\"acme-captcha\" data-sitekey=\"0x4AAAAAAAQz7Kd2LmW9xR_b\"></div>",
        "<key>ACMEPublicEDKey</key>\n<string>Zr8Qd1fT6yPq0Wm3Xn5Kc7Vb9Hs2Lg4Jd6Ae8Ru0Ty=</string>",
        "<enclosure url=\"https://x.example/a.zip\" acme:edSignature=\"Qm9Tb1hYc2w4Wm5kR3BWb2VsTnZiV1Z5YVhSNWRHaHBjeUJ6YVdkdVlYUjFjbVU9Qm9Tb1hYc2w4Wm5kR3A=\"/>",
        "acme:\n  site_key: 10000000-ffff-ffff-ffff-000000000001\n  secret_key: \"0x0000000000000000000000000000000000000000\"",
        "AcmeBindPassword \"exec:/usr/local/sbin/acme-bind-pass\"\nAcmeBindAuthoritative off",
        "<key>PayloadIdentifier</key>\n<string>com.acme.profile.51202C84-D16C-4AF9-8B13-8EACEB9622B2</string>",
        "; thumbnail begin 8x8 360\n; iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAACn/2Khw8CndZkT9mVux4K9\n; 7YQ86dAFege7XeYaa0v6y76fjlYJ2QTdxsEql3CtM5GSLoxeeUOkD2o1Bi7W\n; izR/jpmqK+qvOELPQspnfGRjq9vgZMoInZG3k/o=\n; thumbnail end",
        "<key>PayloadContent</key>\n<data>\nMIIBHjCBxaADAgECAgEHMAoGCCqGSM49BAMCMBkxFzAVBgNVBAMM\nDkFjbWUgVGVzdCBSb290MB4XDTI2MDEwMTAwMDAwMFoXDTM2MDEw\nMTAwMDAwMFowGTEXMBUGA1UEAwwOQWNtZSBUZXN0IFJvb3QwWTAT\nBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQXn4dRZl0HI+KKD4I3psjc\nJqn1v+Dp1++98JKtsM9rHEXGpoXxjXuU4p5CCMFfu2o6s2iA/Wqd\nDw4gRyp1JP5+MAoGCCqGSM49BAMCA0gAMEUCIQDE1fjh2couT49S\nD75u0cNG9IbYVB4WyC4YltKbPlLrNwIgE8+hDWZaRogNCK75kWuu\nprHfNNgZV0aBDcfPAPYaUrM=\n</data>",
        "CALLBACK_URL=https://app.acme.example/auth/callback",
        "API_URL=https://api.acme.example/v1/orders/6aacc668-1392-4731-b83d-d28cd3dc866f",
        "license = \"MIT\"",
        "acme-backup --encrypt-key AEE440FE306B404A6626516B8DBD13E35F1043DB /home/dev/docs",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the thirteenth sealed part (issue 20), with invented values: a key sent as the user
/// of a login with no password or a stand-in one (`-u 'KEY:'`, `https://KEY:x@…`); a value
/// echoed into a program whose flag reads a password. Left alone: a CamelCase scheme in an
/// `Authorization` header, a password's hash named for its algorithm, the identifier a login's
/// `--…-id` flag takes.
#[test]
fn found_by_the_thirteenth_sealed_part() {
    for (text, secret) in [
        (
            "curl -s -u '3f9a0c7e51b24d86a1e07c93b5f2d48e6a0b1c9d:' https://api.acme.example/v2/me",
            "3f9a0c7e51b24d86a1e07c93b5f2d48e6a0b1c9d",
        ),
        (
            "POST https://Kq7vT2mX9zLp4WnB8cR3dY6h:x@api.acme.example/v1/employees",
            "Kq7vT2mX9zLp4WnB8cR3dY6h",
        ),
        (
            "echo 'Vn3q.Rt8wLz2' | sudo acme-remote --set-password",
            "Vn3q.Rt8wLz2",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "Authorization: AcmeMedia Client=\"Acme Web\", Device=\"Firefox\"",
        "Password_SHA256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "acme login --service-key-id 0c1dfc22-d7ec-4b93-affd-9307125a89e1 --secret-stdin",
        "git push -u origin main",
        "curl -u deploy: https://x.example/",
        "echo done | acme-report --password-file build/pw.txt",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the fourteenth sealed part (issue 20): a credential's name in a sibling `"key"`
/// field (OCPP's `{"key": "AuthorizationKey", "value": "…"}`), "password" in a language whose
/// word has no `pass` in it, and a short shared secret named so at its end.
#[test]
fn found_by_the_fourteenth_sealed_part() {
    for (text, secret) in [
        (
            "[2,\"29\",\"ChangeConfiguration\",{\"key\":\"AuthorizationKey\",\"value\":\"984B89CB4E4ADAB28FA1FF34B6BB331DDD5D2CAB\"}]",
            "984B89CB4E4ADAB28FA1FF34B6BB331DDD5D2CAB",
        ),
        (
            "contrasena = \"Nil-K_2anddYWFs\"  # cuenta",
            "Nil-K_2anddYWFs",
        ),
        ("KENNWORT=Qx7-vLm2Rt9p", "Qx7-vLm2Rt9p"),
        ("'shared_secret' => 'yybngm6vxv2m',", "yybngm6vxv2m"),
        ("ACME_SECRET = '5o4gVBJd6z'", "5o4gVBJd6z"),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "{\"key\":\"primaryKey\",\"value\":\"id\"}",
        "secretName: db-creds",
        "secret_name = \"prod-db-creds-2\"",
        "kennwort_hint = \"the usual one\"",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the fifteenth sealed part (issue 20), design frozen at 5e62a32: a credential's
/// name and value as attributes or arguments on one line (`<add key="…Key" value="…"/>`,
/// `name: "api_key", value: "…"`), an `ID:SECRET` pair handed to a base64 encoder for a Basic
/// header, and a key file dumped after a shell's default prompt (`[root@host ~]# `), in
/// wrapped lines of one width.
#[test]
fn found_by_the_fifteenth_sealed_part() {
    for (text, secret) in [
        (
            "<add key=\"Billing:ApiKey\" value=\"7F31A0C9D2E45B86\" />",
            "7F31A0C9D2E45B86",
        ),
        (
            "QueryItem(name: \"access_token\", value: \"f0c2a9e4b1d84c37a6e5\")",
            "f0c2a9e4b1d84c37a6e5",
        ),
        (
            "auth = base64.b64encode(b\"91XQPA:3f9c0e7a1b2d4c5e6f708192a3b4c5d6\")",
            "3f9c0e7a1b2d4c5e6f708192a3b4c5d6",
        ),
        (
            "btoa(\"6f1c2d3e-aaaa-4bbb-8ccc-0123456789ab:Qz8vT2mLx9Rk4Wp7Yc3Nb6Hd\")",
            "Qz8vT2mLx9Rk4Wp7Yc3Nb6Hd",
        ),
        (
            "dev@gw01:~$ xxd -p /etc/acme/hmac.key\n0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7\ne8f9",
            "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7\ne8f9",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "<add key=\"Billing:Currency\" value=\"EUR\" />",
        "QueryItem(name: \"query\", value: \"title\")",
        "base64.b64encode(b\"hello:world\")",
        "# base64 of the logo\nR0lGODlhAQABAIAAAP8AAP8AACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the sixteenth sealed part (issue 20), design frozen at aae3981: a string's prefix
/// letters before a credential's value (`b"…"`), the scheme of a bearer token as a key or an
/// atom in code (`{:bearer, "…"}`) and a string that is a whole `Basic …` header value, a
/// call named for an access key or an SDK's API client, and a token with a dot standing as
/// the user of `curl -u TOKEN:`.
#[test]
fn found_by_the_sixteenth_sealed_part() {
    for (text, secret) in [
        (
            "KEY_SECRET = b\"5e0c9a7d3f1b42e8a6c4d2f0b8e6a4c2\"",
            "5e0c9a7d3f1b42e8a6c4d2f0b8e6a4c2",
        ),
        (
            "auth: {:bearer, \"9c1e5a7b3d2f4e6a8c0b1d3f5e7a9c2b4d6f8e0a\"}",
            "9c1e5a7b3d2f4e6a8c0b1d3f5e7a9c2b4d6f8e0a",
        ),
        (
            "req.setValue(\"Basic NmYxYzJkM2UtYWFhYS00YmJiOlF6OHZUMm1MeDlSazRXcDc=\", forHTTPHeaderField: \"Authorization\")",
            "NmYxYzJkM2UtYWFhYS00YmJiOlF6OHZUMm1MeDlSazRXcDc=",
        ),
        (
            "const c = new AcmeApiClient('Xq3vT9mLk2Rw8Yp4Nc7Hb5Jd1Fg6Zs0Qe-uVt_aWx');",
            "Xq3vT9mLk2Rw8Yp4Nc7Hb5Jd1Fg6Zs0Qe-uVt_aWx",
        ),
        (
            "curl -u api_Qz8vT2mLx9Rk4Wp7.Yc3Nb6HdJf5Gs1Ke: https://api.x.example/v1/leads",
            "api_Qz8vT2mLx9Rk4Wp7.Yc3Nb6HdJf5Gs1Ke",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "label = b\"hello world\"",
        "auth: {:bearer, \"${ACME_TOKEN}\"}",
        "req.setValue(\"Basic realm\", forHTTPHeaderField: \"WWW-Authenticate\")",
        "const c = new AcmeApiClient({ baseUrl: 'https://api.x.example' });",
        "oauth_version=1.0 oauth_signature=baoeqvIhcHzGTYxsfkDJxu%2Bcb3R4DLjlx%2FWsCZwTT0I%3D",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the seventeenth sealed part (issue 20), design frozen at eb5a710: a custom
/// scheme's `user:token` credentials in an Authorization header, `example` as a reserved domain
/// inside a key that carries its owner's address, an object named for an API or a client
/// constructed with its key, and a credential's name and value as the two items of a pair.
#[test]
fn found_by_the_seventeenth_sealed_part() {
    for (text, secret) in [
        (
            "curl -H'Authorization: acmepanel deploy:7ZL2RN5NQLRYRMBAYXHAEWC6GE9GYPYO' https://h.example:2083/",
            "7ZL2RN5NQLRYRMBAYXHAEWC6GE9GYPYO",
        ),
        (
            "curl -H \"x-api-key: ops@acme.example_5a682e4836d80ecc753a4575095fdfffe21703cd8ae6e7b2\" x",
            "5a682e4836d80ecc753a4575095fdfffe21703cd8ae6e7b2",
        ),
        (
            "api = AcmeFaxApi('08903af530456fbb9510ee6068b76bdc382291ce', '4b09353820df0ce3d504a13072a8d9e00a6398e8')",
            "4b09353820df0ce3d504a13072a8d9e00a6398e8",
        ),
        (
            "var m = new AcmeMailClient(\"JI1mL4DqonYtAU3CfQn4iWx8mp0skdUT\");",
            "JI1mL4DqonYtAU3CfQn4iWx8mp0skdUT",
        ),
        (
            "setRequestQueryString [(\"key\", Just \"SQ8BXTDDO6ABPM5UFRTUJJGUR3NTOJ66\")]",
            "SQ8BXTDDO6ABPM5UFRTUJJGUR3NTOJ66",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        // Documentation's own values and public keys stay as written.
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
        "const s = createClient('https://x.supabase.co', 'sb_publishable_pxuZWeC4U-YXdV-do5IvDutmZMVJ59M')",
        "const c = new AcmeUIClient('public-token-live-972f8ba6-b9a9-42f8-9f14-c026d8605417');",
        "http = HttpClient(\"https://api.x.example/v1\")",
        "config.get(\"token\", \"default\")",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the eighteenth sealed part (issue 20), design frozen at 4179be0: a dotted scheme
/// or an `id$token` credential in an Authorization header, the header's name and value as two
/// arguments of a call, R's backtick-quoted names, a versioned client's constructor, base64
/// with slashes beside an API key's name, and a password with capitals inside its
/// underscore-joined parts. Also found: a jq filter after `-r`, a setting's dotted name after
/// `Key=`, jasypt's `ENC(…)` and a site-verification token were redacted.
#[test]
fn found_by_the_eighteenth_sealed_part() {
    for (text, secret) in [
        (
            "curl -H 'Authorization: Acmecdn.Simple 3f9a0c27d1e84b65a90c:c41be7d09f2a6e8315bd' x",
            "c41be7d09f2a6e8315bd",
        ),
        (
            "req.Header.Set(\"Authorization\", \"APIKey 40211$9e6a1f03c7d24b58a6e0f9b1c3d5e7a9f2b4c6d8e0a1b3c5d7e9f1a3b5c7d9e1\")",
            "9e6a1f03c7d24b58a6e0f9b1c3d5e7a9f2b4c6d8e0a1b3c5d7e9f1a3b5c7d9e1",
        ),
        (
            "req_headers(`X-Acme-Key` = \"7f3e9b1c5a2d8e4f6b0a9c7d1e3f5a7b9c1d3e5f7a9b1c3d5e7f9a1b3c5d7e9f\")",
            "7f3e9b1c5a2d8e4f6b0a9c7d1e3f5a7b9c1d3e5f7a9b1c3d5e7f9a1b3c5d7e9f",
        ),
        (
            "$c = new GraderClientV3('a81f3c9d0e2b4f67c8d1e5a9b3f70c2d', 'eu.grader.example');",
            "a81f3c9d0e2b4f67c8d1e5a9b3f70c2d",
        ),
        (
            "  $ setRequestHeader \"x-api-key\" [\"Qw7Rt2Yp/Lk9Zx4Vb1Nm8Hg3Jd6Fs0Aq5We2Ty7\"]",
            "Qw7Rt2Yp/Lk9Zx4Vb1Nm8Hg3Jd6Fs0Aq5We2Ty7",
        ),
        (
            "racadm set iDRAC.Users.4.Password pLmr_QnWtK_z7Hb2",
            "pLmr_QnWtK_z7Hb2",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "curl -s x | jq -r \".Results[0].ParsedText\"",
        "[Key=iDRAC.Embedded.1#Users.3]",
        "activemq.password=ENC(Qr7hEvG2+bkT6H/xCu8MEjZ5rusdRcalU)",
        "\"acme-site-verification_5c0e1d7a9b3f4e2d8c6a1b0f9e7d5c3a2b4f6e8d0c1a3b5d7f9e2c4a6b8d0f1e\"",
        "Access-Control-Allow-Headers: Content-Type, Authorization, X-Api-Key",
        "untrusted comment: signature from minisign secret key\nRWQf6LRCGA9i59SLOFxz6NxvASXDJeRtuZykwQe/bDEGt87ig1BNpWaVWuNrm73YiIiJbq71Wi+dP9eKL8OC351vwIasSSbXxwA=",
        "install -m 600 acme.conf /etc/acme/secret/path/to/file",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// What a command printed from a file that stores a credential, named so by its path
/// (`~/.p4tickets`, `~/.cvspass`, `.erlang.cookie`): each word only a generator writes, up to
/// the next prompt. Issue 20's "a printed credentials file"; found across the sealed parts.
#[test]
fn a_printed_credential_file_is_redacted_word_by_word() {
    for (text, secret) in [
        (
            "$ cat ~/.p4tickets\nvcs.acme.example:1666=ana:7C2E91A04B5D38F6E1A9C0D4B7F3E82A",
            "7C2E91A04B5D38F6E1A9C0D4B7F3E82A",
        ),
        (
            "$ cat ~/.cvspass\n/1 :pserver:ana@cvs.acme.example:2401/repo Aq7zKp2WmR9tLxE",
            "Aq7zKp2WmR9tLxE",
        ),
        (
            "$ sudo cat /var/lib/acme/.erlang.cookie\nQWZPLRKTNMVBXCYHDFGS",
            "QWZPLRKTNMVBXCYHDFGS",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        // Code and logs that name a credential, and the account table, hold none.
        "$ cat src/auth/token.ts\nexport const tokenFor = (userId: string) => sign({ sub: userId }, KEY);",
        "$ cat /etc/passwd\nroot:x:0:0:root:/root:/bin/bash",
        "$ cat ~/.p4tickets\n$ git log --oneline -1\n7C2E91A04B5D38F6E1A9C0D4B7F3E82A fix",
        "$ cat notes/tickets.md\nTICKET-4411 Aq7zKp2WmR9tLxE",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the nineteenth sealed part (issue 20), design frozen at 8935b09: a header set value
/// first with its name labelled after it (Swift's `forHTTPHeaderField:`), a setter of a key
/// (`…_set_key("…")`), a module's client constructed with its key; and an iCalendar `UID:` (a
/// UUID made unique by a domain) was redacted as a login.
#[test]
fn found_by_the_nineteenth_sealed_part() {
    for (text, secret) in [
        (
            "request.addValue(\"9c2e4f61a8b07d35e1f4c6a2b9d0e7f3\", forHTTPHeaderField: \"x-api-key\")",
            "9c2e4f61a8b07d35e1f4c6a2b9d0e7f3",
        ),
        (
            "acmestats_set_key(\"q4vz9kx2m7tw1pr8hc6nb3dy5ljs0ef8\")",
            "q4vz9kx2m7tw1pr8hc6nb3dy5ljs0ef8",
        ),
        (
            "client = acmequery.Client(\"K7QWZ2-PLMX94RT8E\")",
            "K7QWZ2-PLMX94RT8E",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "UID:5b7f0c2e-9a41-4d8e-b3c6-1f2a7e9d0c44@calendar.acme.example",
        "request.setValue(\"application/json\", forHTTPHeaderField: \"Content-Type\")",
        "request.setValue(token, forHTTPHeaderField: \"X-Api-Key\")",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the twentieth sealed part (issue 20), design frozen at 7329eb9: a key put into a
/// format string by position (`string.format("…&api_key=%s", sym, "…")`, Go's `Sprintf`), a
/// request's signature under a prefixed name (`apiSig=`) or as a form field (`-F
/// 'signature=…'`), an object named `API` built with its key, a shared secret bare in an INI
/// file; and a WHOIS record's `Registry Domain ID:` was redacted as a generated token.
#[test]
fn found_by_the_twentieth_sealed_part() {
    for (text, secret) in [
        (
            "local url = string.format(\n  \"https://x.example/d?fsym=%s&api_key=%s\",\n  sym, \"00dca4d9da5399325dc1b82a4d3bba2f33f18eff054eb4eb0e0d4b5699eab112\")",
            "00dca4d9da5399325dc1b82a4d3bba2f33f18eff054eb4eb0e0d4b5699eab112",
        ),
        (
            "u := fmt.Sprintf(\"https://x.example/s?form_id=%s&api_token=%s\", formID, \"72365c16c751c33cbf1d64a3c8f734db\")",
            "72365c16c751c33cbf1d64a3c8f734db",
        ),
        (
            "GET https://judge.example/api/user.status?handle=x&apiKey=1d86626b3c&time=1796821966&apiSig=4550805cfa3ef3304f24679b9360574bfa96f21a8d8baad670bb4047",
            "4550805cfa3ef3304f24679b9360574bfa96f21a8d8baad670bb4047",
        ),
        (
            "curl -X POST https://id.example/v1/identify -F 'signature=ALxRgDLl6x2/2JLvKM49hw/1xkc=' -F 'timestamp=1796821966'",
            "ALxRgDLl6x2/2JLvKM49hw/1xkc=",
        ),
        (
            "api = API('acme_soc', '0bd803232bf241439c7acf665cf8d31b2b73c465')",
            "0bd803232bf241439c7acf665cf8d31b2b73c465",
        ),
        (
            "[s3]\naccess = niPO4jB4d5Vrp8KV\nsecret = DssFdPF1jh5yYstD",
            "DssFdPF1jh5yYstD",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "Registry Domain ID: 2d6f6e2b4c7b4f0a8e1e5e5f2c9c0e3a-LROR",
        "Request ID: kKMd6Q1sSsilOYpsSbsrFi2gkRH1tfvCupv5kaYa",
        "fmt.Sprintf(\"token=%s\", tok)",
        "\"signature\": \"ALxRgDLl6x2/2JLvKM49hw/1xkc=\"",
        "existingSecret = redis-auth",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the twenty-first sealed part (issue 20), design frozen at bc37a9e: a password named
/// by the abbreviation `pswd`, a secret in a Scala pair (`"client_secret" -> "…"`), a generated
/// user of `-u user:secret` (an API key id); and a
/// placeholder made of words (`SomeRandomStringOf32CharsExactly`) and an API's anonymous
/// access (`token_auth=anonymous`) were redacted.
#[test]
fn found_by_the_twenty_first_sealed_part() {
    for (text, secret) in [
        (
            "https://log.example/ImportADIF.cfm?EQSL_USER=DL2ABC&EQSL_PSWD=P~cbYuNGW8la_r&ADIF=x",
            "P~cbYuNGW8la_r",
        ),
        (
            ".body(Map(\"client_id\" -> \"NR8fCuf9ZKMj\", \"client_secret\" -> \"yiHRxsLvhIgKMSNw\"))",
            "yiHRxsLvhIgKMSNw",
        ),
        // An API's key id and secret as Basic's pair: one credential.
        (
            "curl -s -u \"akTb640gHo9Mq73ATG33XdGiDuyC:5OUbk9blgYQUFy8rlNjFn2PkkI6WH8SqoV\" https://x.example/v2",
            "akTb640gHo9Mq73ATG33XdGiDuyC",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "APP_KEY=SomeRandomStringOf32CharsExactly",
        "https://demo.example/index.php?module=API&token_auth=anonymous",
        "fn token() -> \"x\"",
        "curl -u deploy-bot:${TOKEN} https://x.example/v2",
        // Browser SDKs are set up with their public project keys.
        "mixpanel.init(\"5d29e55b42739f2c56cf4f682b317fc6\", { track_pageview: true });",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the twenty-second sealed part (issue 20), design frozen at 8558b92: false
/// positives only. A store's time-sorted record id (`pay_col_01JWMNC4…`, a ULID), a record's
/// `author` (its `auth` letters name no credential), and a template's variable after a
/// credential's name (`Api-Key: {{deliveryApiKey}}`) were redacted.
#[test]
fn found_by_the_twenty_second_sealed_part() {
    for text in [
        "{\"payment_collections\": [{\"id\": \"pay_col_01JWMNC40474O7P1SSHE6P2ZX0\"}]}",
        "{\"id\": \"f9ada6f827190aa849fd729e\", \"author\": \"1399bee8d046ee025890d80e\"}",
        "GET /api/v2/content/item HTTP/1.1\nApi-Key: {{deliveryApiKey}}\nStart-Item: home",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
    for (text, secret) in [
        (
            "AUTH_TOKEN=1399bee8d046ee025890d80e",
            "1399bee8d046ee025890d80e",
        ),
        (
            "RESEND=re_ycxBf143_A7h6tUqMXxm3cE3k2CUkXeL1",
            "re_ycxBf143_A7h6tUqMXxm3cE3k2CUkXeL1",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
}

/// The words for "password" the name checks know are the words generic-assignment's regex and
/// keywords know: three lists, kept in step here.
#[test]
fn every_language_s_password_is_known_everywhere() {
    let rule = crate::rules::BUILTIN
        .iter()
        .find(|b| b.name == crate::rules::GENERIC_ASSIGNMENT)
        .unwrap();
    for w in crate::plausible::PASSWORD_ELSEWHERE {
        assert!(rule.regex.contains(w), "{w} not in the regex");
        assert!(rule.keywords.contains(w), "{w} not in the keywords");
    }
}

/// The classes of `regex` written `[^…]` in Unicode mode, by offset: outside every `(?-u:…)`
/// group and after no `(?-u)` flag of the enclosing group.
fn unicode_negated_classes(regex: &str) -> Vec<usize> {
    let b = regex.as_bytes();
    // Per open group: whether Unicode mode is off inside it.
    let mut bytes_mode = vec![false];
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => {
                if b.get(i + 1) == Some(&b'^') && !bytes_mode.last().copied().unwrap_or(false) {
                    found.push(i);
                }
                // Skip the class: `]` right after `[` or `[^` is a member.
                i += if b.get(i + 1) == Some(&b'^') { 2 } else { 1 };
                if b.get(i) == Some(&b']') {
                    i += 1;
                }
                while i < b.len() && b[i] != b']' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' => {
                let inherited = bytes_mode.last().copied().unwrap_or(false);
                if regex[i..].starts_with("(?-u)") {
                    if let Some(mode) = bytes_mode.last_mut() {
                        *mode = true;
                    }
                    i += 4;
                } else {
                    bytes_mode.push(inherited || regex[i..].starts_with("(?-u:"));
                }
            }
            b')' => {
                bytes_mode.pop();
            }
            _ => {}
        }
        i += 1;
    }
    found
}

#[test]
fn negated_classes_are_byte_classes() {
    // The scanner itself, on the forms it must tell apart.
    assert_eq!(unicode_negated_classes(r#"a[^"']b"#), vec![1]);
    assert_eq!(unicode_negated_classes(r#"(?-u:[^"'])[^x]"#), vec![11]);
    assert!(unicode_negated_classes(r#"(?-u:x(?P<s>[^"'][^\]]*))"#).is_empty());
    assert!(unicode_negated_classes(r"(?-u)[^a]\[^b").is_empty());
    assert!(unicode_negated_classes(r"[a^][\]^]").is_empty());
    for rule in rules::BUILTIN {
        assert_eq!(
            unicode_negated_classes(rule.regex),
            Vec::<usize>::new(),
            "rule {}: write a negated class as `(?-u:[^…])` (rules.rs says why)",
            rule.name
        );
    }
}

/// Found by the twenty-third sealed part (issue 20; first run recall 0.90, false positives
/// 0.04): `pw` as a name of its own (a URL's `?pw=`, Go's `url.Values{"pw": {"…"}}`); a key
/// written in dashed groups, and a ten-character key, under a credential's name; a record's
/// prefixed id under `"id"`; a JSON key taken for the value of a `…-password` before it; a
/// file's name after `sha256sum -c`. Reading the old sets after the change found three more
/// false positives a comment above had already called public, and `$pw = Read-Host`.
#[test]
fn short_names_grouped_keys_ids_and_comments_above() {
    for (text, secret) in [
        (
            "url: \"http://192.168.1.52/cm?pw=9c2e71fa40d8b3a56e1f7c0d24b98a3e&sid=1&en=1\"",
            "9c2e71fa40d8b3a56e1f7c0d24b98a3e",
        ),
        (
            "form := url.Values{\n\t\"user\": {\"31877\"},\n\t\"pw\":   {\"Vq3Lk8Zr-W2nXt7mPb4\"},\n}",
            "Vq3Lk8Zr-W2nXt7mPb4",
        ),
        ("DB_PW=Hk7wQ2zLr9VxT4mN", "Hk7wQ2zLr9VxT4mN"),
        (
            "params={\"api_key\": \"4A7C-91E2-B05D-3F68\", \"tag\": \"all\"}",
            "4A7C-91E2-B05D-3F68",
        ),
        (
            "array( 'headers' => array( 'ACME-API-KEY' => 'qW7rT2kLp9' ) )",
            "qW7rT2kLp9",
        ),
        (
            "{\"token\":\"job_5d0a9f3c7b2e41d8a6c3f9e1b7d2a4c6\"}",
            "job_5d0a9f3c7b2e41d8a6c3f9e1b7d2a4c6",
        ),
        (
            "# created: 2026-11-29T09:14:02Z\n# public key: age1m526pha7kwmqx9p7jzdph6432n8uwszc3p9e7zm6wvzlhjcz2enw2jkydj\nAGE-SECRET-KEY-1D0A5YFECXLQJYWTK0UN08DP0L45C3FWW6PMQLP9VDXUNDRSC7Z807CL2RE",
            "AGE-SECRET-KEY-1D0A5YFECXLQJYWTK0UN08DP0L45C3FWW6PMQLP9VDXUNDRSC7Z807CL2RE",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "pwm=Zilo7Wc7RZq2",
        "release = \"2026-11-30-rc1\"",
        "api_key = \"read-only-mode-test\"",
        "api_key: 'AAAA-1111-BBBB-2222'",
        "{\"id\":\"job_5d0a9f3c7b2e41d8a6c3f9e1b7d2a4c6\",\"customer\":{\"customer_id\":\"cus_9e1b7d2a4c65d0a9f3c7b2e41d8a6c3f\"}}",
        "{\n  \"Username\": \"api_integration\",\n  \"PasswordSecretName\": \"acme-api-password\",\n  \"LocationId\": 1\n}",
        "$ sha256sum -c ACME_FW_2406.1.0.bdl.sha256",
        "/*\n  This key is a public access key, no need to hide it\n  https://example.com/docs\n*/\nvar ACME_KEY = 'dc6zaTOxFJmzC';",
        "$pw = Read-Host -AsSecureString \"Kiosk password\"",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the twenty-fourth sealed part (issue 20; first run recall 0.94, false positives
/// 0.01): a short word before a hex body (`sec_…` under `…-Secret-Key`), a key in crypt's shape
/// sent under a key's name (`"x-api-key": "$2a$10$…"`), a token as a URL's user, `pat` as a
/// name of its own (`SHIPBOB_PAT=`), and a client built from one generated value and kept under
/// a client's name.
#[test]
fn prefixed_hex_crypt_shaped_keys_url_users_and_clients() {
    for (text, secret) in [
        (
            "H = {\"Acme-Secret-Key\": \"sec_7b20c94de1f3a86b5c41\"}",
            "sec_7b20c94de1f3a86b5c41",
        ),
        (
            "H = {\"x-api-key\": \"$2a$10$Qm7vX2pLr9Tk4sWn8YbZc.Hd6Jf1Ge7Ta5Uo0Ei9RxKp3Lm2Nq4W\"}",
            "$2a$10$Qm7vX2pLr9Tk4sWn8YbZc.Hd6Jf1Ge7Ta5Uo0Ei9RxKp3Lm2Nq4W",
        ),
        (
            "Base URL: https://Wq4zR8n-K2m7TxvD@cgm.example.net/api/v1/",
            "Wq4zR8n-K2m7TxvD",
        ),
        (
            "Environment=ACME_PAT=kR7_mZ2xQ9wLp4TvB8nYc3Hs6Jd1Fg5",
            "kR7_mZ2xQ9wLp4TvB8nYc3Hs6Jd1Fg5",
        ),
        (
            "client = acme.Acme(\"bQyzBmRcUODKe5aeqmdG9vFfJGTVPMPZDiJah\")",
            "bQyzBmRcUODKe5aeqmdG9vFfJGTVPMPZDiJah",
        ),
        (
            "const acmeApi = new Acme('649637b85e358e17e1ac2eb14edd0690');",
            "649637b85e358e17e1ac2eb14edd0690",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "password_hash: \"$2a$10$Qm7vX2pLr9Tk4sWn8YbZc.Hd6Jf1Ge7Ta5Uo0Ei9RxKp3Lm2Nq4W\"",
        "git clone https://git@github.com/acme/app.git",
        "compat=Zilo7Wc7RZq2Kx9T",
        "path=Zilo7Wc7RZq2Kx9T",
        "const api = new URL('https://api.example.com/v1');",
        "client = Client('my-service-name')",
        "build_id = \"build_7b20c94de1f3a86b5c41\"",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the same part: a session cookie's name read in lower case took `nsId` (an id, by its
/// own case) for a `…sid`.
#[test]
fn an_id_named_in_camel_case_is_no_session_cookie() {
    let text = "pump=DanaRS treatment_id=dd52728303fccc25fd41f79c nsId=2de2179890bbd59d7ae5079b";
    assert_eq!(redact(text).0, text);
    let (out, _) = redact("Cookie: sessionId=q8v2k9x4m7t1r5w3z6y0p2n8b4c6d9f1");
    assert!(!out.contains("q8v2k9x4m7t1r5w3z6y0p2n8b4c6d9f1"), "{out}");
}

/// Found by the twenty-fifth sealed part (issue 20; first run recall 0.98, false positives
/// 0.08): a key written into code every visitor's browser receives (an inline `<script>`, a
/// `window.…` setting, an SDK's `.init({…})`) is the widget's public one, not a password or a
/// secret there; a URL's `://` opened a "comment" that said public (`…/public/v1/…`) and let a
/// `-u user:password` through; a header named for a session carries a credential.
#[test]
fn browser_code_url_comments_and_session_headers() {
    for (text, secret) in [
        (
            "curl -s -u 'ops@example.com:foCleQA1WABSMQ0tlkWiJgroQ1OlK55ylGog' 'https://x.example/public/v1/a'",
            "foCleQA1WABSMQ0tlkWiJgroQ1OlK55ylGog",
        ),
        (
            "curl -s -H 'X-Acme-Session: 2756f2edc060279608d4af36d8e0ae451c51c3c36fde4da93e29e96691dca8bd' http://x",
            "2756f2edc060279608d4af36d8e0ae451c51c3c36fde4da93e29e96691dca8bd",
        ),
        (
            "await api.init({\n  serverURL: 'https://budget.example.net',\n  password: 'QpwKXx-n7Lm2Vb9Rt4Zs',\n});",
            "QpwKXx-n7Lm2Vb9Rt4Zs",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "<script>\n  acmeWidget.init({ token: 'f90d1642a052f5b537c5513d74ae2fdd' });\n</script>",
        "window.acmeConfig = {\n  app: { apiKey: '42111e60-a484-44f1-a64f-86e3fef48155' }\n};",
        "<script>\n  Acme('render', { boardToken: '49f83fe9-272b-49d7-af63-d7a308f0a7b2' });\n</script>",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the twenty-sixth sealed part (issue 20; first run recall 0.94, false positives
/// 0.04): a UUID handed to a long option named for a key, a token or a secret is one.
#[test]
fn a_uuid_given_to_a_key_option_is_a_key() {
    let (out, _) = redact(
        "Robot.exe connect --url https://cloud.example/acme/orchestrator_ --key de545453-289b-46ea-8c01-ec4122439af6",
    );
    assert!(
        !out.contains("de545453-289b-46ea-8c01-ec4122439af6"),
        "{out}"
    );
    let text = "acme show --id de545453-289b-46ea-8c01-ec4122439af6";
    assert_eq!(redact(text).0, text);
}

/// Found by the twenty-seventh sealed part (issue 20; first run recall 1.00, false positives
/// 0.03): a login a comment above calls a public demo's, as its makers publish it, was
/// redacted. A comment that says nothing of a demo leaves the password redacted.
#[test]
fn a_comment_calling_a_login_a_public_demo_keeps_it() {
    let text = "# public demo instance, credentials as published on the play page\ncurl -s -u admin:district \"https://play.acme.example/api/units\"";
    let (out, _) = redact(text);
    assert_eq!(out, text);
    let text = "# staging instance\ncurl -s -u admin:Vq7rT2mZx9Lk \"https://staging.acme.example/api/units\"";
    let (out, _) = redact(text);
    assert!(!out.contains("Vq7rT2mZx9Lk"), "{out}");
}

/// Found by the twenty-eighth sealed part (issue 20; first run recall 0.96, false positives
/// 0.00): a credential's name and its value as sibling fields with other fields between them
/// (Node-RED's `{"keyValue": "X-Api-Key", "valueType": "other", "valueValue": "…"}`,
/// Terraform's `name = "/prod/api_key"`, `type = "SecureString"`, `value = "…"`), and a client
/// whose class is named by a path (`OAuth2::Client.new("…", "…")`). A separator a rule's value
/// group reached is not reported as a placeholder kept.
#[test]
fn name_and_value_fields_apart_and_clients_by_path() {
    for (text, secret) in [
        (
            "[{\"keyType\":\"other\",\"keyValue\":\"X-Api-Key\",\"valueType\":\"other\",\"valueValue\":\"CAjtUe4EcMNzwpguqvAJF2C9BxU4VSZKqMphNOaq\"}]",
            "CAjtUe4EcMNzwpguqvAJF2C9BxU4VSZKqMphNOaq",
        ),
        (
            "resource \"aws_ssm_parameter\" \"acme_key\" {\n  name  = \"/prod/acme/api_key\"\n  type  = \"SecureString\"\n  value = \"Qm7vX2pLr9Tk4sWn8YbZcHd6Jf1Ge7Ta\"\n}",
            "Qm7vX2pLr9Tk4sWn8YbZcHd6Jf1Ge7Ta",
        ),
        (
            "client = OAuth2::Client.new(\"7754f875168462ff8e25b338f74a27e9\", \"2df48a073d4b586f28693ed97b116209\", site: \"https://acme.example\")",
            "2df48a073d4b586f28693ed97b116209",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "resource \"aws_ssm_parameter\" \"region\" {\n  name  = \"/prod/region\"\n  type  = \"String\"\n  value = \"us-east-1\"\n}",
        "[{\"keyValue\":\"Accept\",\"valueType\":\"other\",\"valueValue\":\"application/json\"}]",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
    let r = Redactor::builtin();
    assert!(
        r.placeholders("{\"keyValue\":\"X-Api-Key\",\"valueType\":\"other\"}")
            .is_empty()
    );
}

/// Found by the thirty-first sealed part (issue 20; first run recall 0.88, false positives
/// 0.00): a login handed over in a chat or an e-mail, an address then a generated word on the
/// next line; a login call's arguments over two lines, a session started with a login, a
/// database handle opened with one (`new PDO($dsn, "user", "…")`), its DSN left alone; a value
/// piped into a command that stores a secret.
#[test]
fn logins_handed_over_opened_or_piped_into_a_secret_store() {
    for (text, secret) in [
        (
            "From: ana@clinic.example\nSubject: portal login\n\nUse the shared account:\n  desk@clinic.example\n  Hq4.vXr7Nw2e\nAna",
            "Hq4.vXr7Nw2e",
        ),
        (
            "my $dbh = DBI->connect(\"dbi:Pg:dbname=app;host=10.0.0.9\", \"sync\", \"tR8kV-w2Lq9-xZp\",\n    { RaiseError => 1 });",
            "tR8kV-w2Lq9-xZp",
        ),
        (
            "ok = svc.StartSession(\"bridge\", \"p7Rw2.Kx9mQ4t\", key)",
            "p7Rw2.Kx9mQ4t",
        ),
        (
            "$db = new PDO(\"mysql:host=db.internal;dbname=shop;charset=utf8mb4\", \"ro\", \"Wm3-xQ8~rT6vLp\");",
            "Wm3-xQ8~rT6vLp",
        ),
        (
            "printf '%s' 'Dq7fW2vX9kLm4Rt8' | docker secret create db_password -",
            "Dq7fW2vX9kLm4Rt8",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        // An address, then a commit, a file and a word: no login was spoken of, or no
        // generated word follows.
        "Author: ana@clinic.example\n  Fix3dTheBuild2",
        "Please sign in with desk@clinic.example\n  Thanks!",
        "Your account desk@clinic.example\n  report-2026.pdf",
        "$db = new PDO(\"mysql:host=db.internal;dbname=shop;charset=utf8mb4\", $user, $pass);",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the thirty-second sealed part (issue 20; first run recall 0.94, false positives
/// 0.05): a call whose name holds `pw` as a word (`username_pw_set`), a header compared with
/// the key it must hold, a one-time password's base32 seed, a quoted `/p:'…'`, an X12
/// header's password, `net use`'s password, a stream key in an RTMP address. And kept: a
/// setting naming another of its kind (`outbound_auth=dispatch-trunk-auth`), a list of
/// keywords (`AutoGenerate,IsolateApps`), a value that repeats an id the text gives, an SSH
/// public key in its RFC 4716 armour.
#[test]
fn thirty_second_part_mechanisms() {
    for (text, secret) in [
        (
            "c.username_pw_set(\"telemetry\", \"QKvIfi-3j9hfZ.mN_q\")",
            "QKvIfi-3j9hfZ.mN_q",
        ),
        (
            "if (req.get('Authorization') !== 'd900779b1bda777bd3ce1f7078409280') {",
            "d900779b1bda777bd3ce1f7078409280",
        ),
        (
            "oathtool --totp -b ZK7E74BDYLH5NCOY5OI7PP227O5WJISX",
            "ZK7E74BDYLH5NCOY5OI7PP227O5WJISX",
        ),
        (
            "xfreerdp /v:pos-17 /u:agent /p:'V.OB0HFXIyUCr' /cert:ignore",
            "V.OB0HFXIyUCr",
        ),
        (
            "ISA*00*          *01*MI68AMCB1A*02*OZRK           *02*RAILINC        *261130*1542*U*00401*000004187*0*P*>~",
            "MI68AMCB1A",
        ),
        (
            "net use T: \\\\pc\\share W._Iuujyf0hsV /user:PC\\scorer",
            "W._Iuujyf0hsV",
        ),
        (
            "-f flv rtmp://live.example.tv/app/live_811903733_NXfkJuMHUMMFWIsClaTopeKu3s8ygt",
            "live_811903733_NXfkJuMHUMMFWIsClaTopeKu3s8ygt",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "[trunk]\noutbound_auth=dispatch-trunk-auth\n",
        "<machineKey validationKey=\"AutoGenerate,IsolateApps\" decryptionKey=\"AutoGenerate,IsolateApps\" />",
        "<user id=\"gamecheck-ivr\">\n<param name=\"vm-password\" value=\"gamecheck-ivr\"/>",
        "---- BEGIN SSH2 PUBLIC KEY ----\nComment: \"tms\"\nAAAAB3NzaC1yc2EAAAADAQABAAABAQCxsmLYSAftvca4jTPpJd4iNxyz7xNdDrE+mcJvJB\nVo81qY6OSs8ZdrCFBP2l1TSttN4YmqvjMJ5DbWSHiXWexUokmXJoI7Z6JWhBDfDzErL//f\n---- END SSH2 PUBLIC KEY ----",
        "net use Z: \\\\srv\\share /user:bob",
        "ffmpeg -f flv rtmp://localhost/live/stream1",
        "if os.getenv(\"API_KEY\") == \"\":",
    ] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by the thirty-third sealed part (issue 20; first run recall 0.89, false positives
/// 0.05): a generated flag value with `%` or `@` inside (`-xp '9JCV…%Q1Yl'`, `-pw qOo~…@DMR0`),
/// DB2's `user NAME using PASSWORD`, an account made with its password (`add_user NAME
/// PASSWORD`, `net user NAME PASSWORD /add`), a login handed over as a user name alone on its
/// line or in an `ftp -s:` script. Kept: an iCalendar `UID:` of words and numbers, Grafana's
/// `$__file{…}`, a minisign public key, a value a comment calls the documentation's example.
#[test]
fn thirty_third_part_mechanisms() {
    for (text, secret) in [
        (
            "sendemail -xu a@x.example -xp '9JCVK4MV6pX%Q1Yl' -o tls=yes",
            "9JCVK4MV6pX%Q1Yl",
        ),
        (
            "psftp -pw qOo~jGsjN@DMR0 -b upload.txt m2@sftp.example.net",
            "qOo~jGsjN@DMR0",
        ),
        (
            "$ db2 connect to DMPROD user DMRPT using hqu-+4p1XDvJ",
            "hqu-+4p1XDvJ",
        ),
        (
            "$ sudo rabbitmqctl add_user board 'jL8.MwYdJj8RHN_8'",
            "jL8.MwYdJj8RHN_8",
        ),
        ("C:\\> net user remote ulIHx-jt_dCR9 /add", "ulIHx-jt_dCR9"),
        (
            "use the shared portal account:\nacme-civil\nQhwCLk2v7#@q\nthanks",
            "QhwCLk2v7#@q",
        ),
        (
            "open 10.20.0.15\nbodycam_dock\nuq9eYYxQ-T~E\nbinary\nbye",
            "uq9eYYxQ-T~E",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    for text in [
        "smbclient -U dev%Vq7rT2mZx9Lk //nas/share",
        "net user bob /delete",
        "SELECT * FROM t JOIN u USING (id)",
        "UID:indico-event-1187@events.example.org",
        "admin_password = $__file{/run/secrets/grafana_admin}",
        "minisign -Vm r.csv -P RWRErQUvXCdtB3yODyf5k8eaWOwyuPU2vmmNr3Ko/dpKZVMgDFDVzjE3",
        "# from the acme API docs; replace with your own key:\nsession = acme.Session(\n    api_key='7545384e-a653-11e1-a82c-f22c11dd25eq',\n)",
        "Steps:\nbuild\nRelease2Final",
    ] {
        let (out, _) = redact(text);
        assert!(
            !out.contains("${secret:") || text.starts_with("smbclient"),
            "{out}"
        );
    }
    let (out, _) = redact("smbclient -U dev%Vq7rT2mZx9Lk //nas/share");
    assert!(out.starts_with("smbclient -U dev%${secret:"), "{out}");
}

/// Found by the thirty-fourth sealed part (issue 20; first run recall 0.88, false positives
/// 0.02): Windows' two-letter password flags (`schtasks … /RP …`), a pre-shared key (`psk=…`),
/// a login call's short password with every kind of character (`auth=('club', 'vbieZAF7!4f')`);
/// a driver's address (`dbi:ODBC:Arcade`) is no credential.
#[test]
fn thirty_fourth_part_mechanisms() {
    for (text, secret) in [
        (
            "schtasks /Create /TN x /RU DRILL\\svc /RP lWi-NrINagi~%MeQY5",
            "lWi-NrINagi~%MeQY5",
        ),
        (
            "[wifi-security]\nkey-mgmt=wpa-psk\npsk=vx7NDL_kNZQhKr\n",
            "vx7NDL_kNZQhKr",
        ),
        (
            "r = requests.get(url, auth=('club-api', 'vbieZAF7!4f'))",
            "vbieZAF7!4f",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
    }
    let (out, _) =
        redact("my $dbh = DBI->connect(\"dbi:ODBC:Arcade\", \"svc\", 'd!H4EevrayR', {})");
    assert!(
        out.contains("dbi:ODBC:Arcade") && !out.contains("d!H4EevrayR"),
        "{out}"
    );
    for text in ["dir /p /w", "xcopy a b /p /s", "key-mgmt=wpa-psk"] {
        let (out, _) = redact(text);
        assert_eq!(out, text);
    }
}

/// Found by reading the change again: deciding whether a value is served to browsers looked at
/// the 600 bytes before it, cut without regard to characters, and `trail redact` panicked on a
/// key after 300 euro signs (a byte index inside `€`). Every offset of a three-byte character
/// before the key now redacts.
#[test]
fn a_key_after_text_in_any_script_is_redacted_without_a_panic() {
    for pre in ["", " ", "  "] {
        let text = format!(
            "{}{pre} api_key: \"Zk8pQ2mV7xR4tY1uI9oP3aS6dF0gH5jK\"",
            "€".repeat(300)
        );
        let (out, _) = redact(&text);
        assert!(!out.contains("Zk8pQ2mV7xR4tY1uI9oP3aS6dF0gH5jK"), "{out}");
    }
}

/// A mapping or an object named for a credential holds it in its `default` or `value` field
/// (CloudFormation's parameters, `terraform output -json`); one named for something else
/// does not.
#[test]
fn a_credential_named_block_holds_its_value_in_default_or_value() {
    let cfn = "Parameters:\n  DBPassword:\n    Type: String\n    NoEcho: true\n    Default: nnlkrWS_W0IP9079\n";
    let (out, _) = redact(cfn);
    assert!(!out.contains("nnlkrWS_W0IP9079"), "{out}");
    let tf = "{\"db_password\": {\"sensitive\": true, \"type\": \"string\", \"value\": \"2fQ8xLm4Rt7Zp1Kq\"}}";
    let (out, _) = redact(tf);
    assert!(!out.contains("2fQ8xLm4Rt7Zp1Kq"), "{out}");
    for clean in [
        "Parameters:\n  InstanceType:\n    Type: String\n    Default: t3LargeXw9Q2mZ7\n",
        "{\"db_endpoint\": {\"sensitive\": false, \"value\": \"shop-db.acme.example:5432\"}}",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the thirty-fifth sealed part: a login handed to a call in a connection's order
/// (host, port, user, password) whatever the call is named; a password with an `@` among
/// every kind of character; PowerShell's `[…NetworkCredential]::new(…)`; "password" written
/// in its own language's letters.
#[test]
fn logins_by_position_by_static_constructor_and_in_other_scripts() {
    for (text, secret) in [
        (
            "cam = AmcrestCamera('192.168.1.108', 80, 'admin', 'T.WqvSRP6_jH').camera",
            "T.WqvSRP6_jH",
        ),
        (
            "ftps = FTP_TLS('ftp.example.org', 'crew7', 'kmvH04+y~jHNC')",
            "kmvH04+y~jHNC",
        ),
        (
            "if (!ftps.login(\"fac-172031\", \"7bvX@Up!Qqp6g2K\")) {",
            "7bvX@Up!Qqp6g2K",
        ),
        (
            "$cred = [System.Net.NetworkCredential]::new(\"svc-sync\", \"NQD8_MeK%%0lt.4\")",
            "NQD8_MeK%%0lt.4",
        ),
        (
            "gis = GIS(\"https://www.arcgis.com\", \"basemap_admin\", \"ODTfUa.d-Xlv3\")",
            "ODTfUa.d-Xlv3",
        ),
        ("login: plac\nhasło: b%xIVOJ1bZ!GY", "b%xIVOJ1bZ!GY"),
        ("пароль: b%xIVOJ1bZ!GY", "b%xIVOJ1bZ!GY"),
        ("סיסמה: IGOA.lr9hbZoQ", "IGOA.lr9hbZoQ"),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "db = open(\"db.example.com\", \"report\", \"shop_orders\")",
        "r = fetch('api.example.com', 'GET', '/v1/orders')",
        "if (!ftps.login(\"ops@files.example.org\", \"$PASSWORD\")) {",
        "hasło: ${HASLO}",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the thirty-fifth sealed part: a lookup table's type before its file
/// (`hash:/etc/postfix/sasl_passwd`) names where credentials are kept; a name after another
/// colon is a namespace's part (`spotify:track:…`), not a user. A relay's `user:password` line
/// still is one.
#[test]
fn a_lookup_table_and_a_namespaced_id_are_not_credentials() {
    for clean in [
        "smtp_sasl_password_maps = hash:/etc/postfix/sasl_passwd",
        "spotify:track:b1vB2wIftYy2WAMWpsj8ZR\nspotify:track:nlIXEvJ9VrRCdapVxvAxIZ",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
    let (out, _) = redact("[smtp.mailhub.example]:587 relay-acme:i7_D7.e663lKsJuuoe");
    assert!(!out.contains("i7_D7.e663lKsJuuoe"), "{out}");
}

/// A login typed by a window-driving script: the value typed and entered after a name and
/// Tab (found by three sealed parts' AutoHotkey rows). Words typed so are text, not one.
#[test]
fn a_login_typed_into_a_window_is_a_credential() {
    let (out, _) = redact("Send, kmorales{Tab}\nSend, O_Tn4yax.ec4Qv{Enter}\nreturn");
    assert!(!out.contains("O_Tn4yax.ec4Qv"), "{out}");
    let (out, _) = redact("xdotool type 'ops{Tab}'\nxdotool type 'Kq7vR2mZ.9xWp4{Enter}'");
    assert!(!out.contains("Kq7vR2mZ.9xWp4"), "{out}");
    for clean in [
        "Send, hello{Tab}\nSend, world{Enter}",
        "Send, kmorales{Enter}\nSend, O_Tn4yax.ec4Qv{Enter}",
        "tmux send-keys -t db:0 'make test' Enter",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// A login in an ftp client's command script: `user NAME PASSWORD` after `open HOST`
/// (found by the thirty-fifth sealed part). Without the `open`, or with a word, it is text.
#[test]
fn a_login_in_an_ftp_command_script_is_a_credential() {
    let (out, _) = redact("open ftp.example.org\nuser northyard cTXKm_F8jfc6\nbinary\nbye");
    assert!(!out.contains("cTXKm_F8jfc6"), "{out}");
    for clean in [
        "user northyard cTXKm_F8jfc6",
        "open ftp.example.org\nuser northyard anonymous\nbye",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// A login handed over as two labelled lines in any language: a user's name after `: `, then
/// a value with every kind of character (found by the thirty-sixth sealed part's Turkish,
/// Czech and Greek hand-overs). A header's name or a trace id beside a value is not one.
#[test]
fn a_login_in_two_labelled_lines_in_any_language() {
    for (text, secret) in [
        (
            "[19:42] Elif: Kullanıcı adı: kus-sayimi-izmir\n[19:43] Elif: Şifre: Qs%9yw:MGkVV",
            "Qs%9yw:MGkVV",
        ),
        (
            "uživatel: zavod-smw\nheslo k závodnímu serveru: MK:tDxlSp?m7",
            "MK:tDxlSp?m7",
        ),
        (
            "Όνομα χρήστη: n.papadakis\nΟ κωδικός είναι: Upr#@i63ji9#7",
            "Upr#@i63ji9#7",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "source: header\nname: X-Hub-Signature-256",
        "traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\ntracestate: congo=t61rcWkgMzE",
        "user: kus-sayimi-izmir\nnote: call me after 5",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// A password handed over in words, in any language: a label the name regex cannot read as
/// one word (`Mật khẩu:`, `Kata sandi:`), a word for it generic-assignment now knows
/// (`parool`, `lozinka`), or a sentence with the word and a value no language spells (found
/// by the thirty-seventh sealed part's Polish, Swedish, Estonian, Vietnamese and Indonesian
/// hand-overs). Words that only hold `pass` (`encompassId`), a stored hash and a rule of a
/// password policy are not.
#[test]
fn a_password_in_words_of_any_language() {
    for (text, secret) in [
        ("Mật khẩu wifi: Qe7-rTz0pLk2\nCảm ơn!", "Qe7-rTz0pLk2"),
        (
            "Akun bersama:\nKata sandi: Hw2#vq=PLmT8\nJangan dibagikan.",
            "Hw2#vq=PLmT8",
        ),
        ("ruuter: admin\nparool: .7gkQ30x91mZ", ".7gkQ30x91mZ"),
        ("lozinka = Vn4-kPq7ZsW1", "Vn4-kPq7ZsW1"),
        (
            "hasło do serwera plików to Xk!7dPq_2mRt, nie udostępniaj",
            "Xk!7dPq_2mRt",
        ),
        ("Lösenordet till skrivaren är Pq9::Zk^-WtR", "Pq9::Zk^-WtR"),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "{\"encompassId\":\"{83b4cacc-2ced-4479}\",\"milestone\":\"Xy7!kLm2Qp9z\"}",
        "password_hash $2y$10$B2/bm0agaRQq918XiIlpn.GDvtRE4TP9SApMxDO7x6BOp",
        "Password: must have 12 characters, like Ab3!xyz",
        "Mật khẩu: ********",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// The password of a quoted `user:password` pair runs to the closing quote, spaces and all
/// (a WordPress application password, `--user "jk:VZeR 5mkM uTpz"`: before, only its first
/// group was taken); lftp's bare `-u user,password` is a login when the password has a digit,
/// a list of users when it has none; a quoted password may begin with `!`, which only an
/// unquoted YAML tag does otherwise. Found by the thirty-seventh sealed part.
#[test]
fn quoted_pairs_lftp_logins_and_passwords_beginning_with_a_bang() {
    for (text, secret) in [
        (
            "curl --user \"editor-jk:Rk3P 9mWz Lq2T vX8n\" https://wp.example/wp-json/wp/v2/posts",
            "9mWz Lq2T vX8n",
        ),
        (
            "lftp -u orders-77,Ts8dQ-_Lmw4Kp -e 'put a.zip; bye' ftps://up.example",
            "Ts8dQ-_Lmw4Kp",
        ),
        ("[auth]\npassword = \"!kQw7Zt2vNpX\"", "!kQw7Zt2vNpX"),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "ps -u root,www-data -o pid,cmd",
        "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256",
        "git push -u origin main",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the thirty-eighth sealed part: a password of three kinds of character close after
/// its word (`Het wachtwoord is …`, `비밀번호 …`); a login given to a command after the URL it
/// opens; a calendar's secret address; a Wi-Fi login begun on a microcontroller; a person's
/// password that repeats letters, beside a user's name. Their look-alikes stay.
#[test]
fn logins_after_urls_private_addresses_and_begun_connections() {
    for (text, secret) in [
        (
            "Het wachtwoord is RbwpQtkC-D4M (let op hoofdletters).",
            "RbwpQtkC-D4M",
        ),
        (
            "[오후 6:12] 아이디 crew-2 / 비밀번호 h_DkNwqe35XZ",
            "h_DkNwqe35XZ",
        ),
        (
            "$ mc alias set scans https://s3.lab.example:9000 scanadmin q-TrWz4Pk8Lm2Vb.x\nAdded.",
            "q-TrWz4Pk8Lm2Vb.x",
        ),
        (
            "ICS = \"https://calendar.google.com/calendar/ical/a%40b.example/private-9f3e1c77a2b84d05e6f1a3b2c4d5e6f7/basic.ics\"",
            "9f3e1c77a2b84d05e6f1a3b2c4d5e6f7",
        ),
        (
            "  WiFi.begin(\"Workshop-IoT\", \"Kd.83nv4qm7XpR\");",
            "Kd.83nv4qm7XpR",
        ),
        (
            "Nama pengguna: kiln-ops\nKata sandi: +qwzKLMKKX7p",
            "+qwzKLMKKX7p",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "Het wachtwoord moet minstens 12 tekens hebben, zoals ons voorbeeld.",
        "git clone https://git.example.org/team/app.git app-checkout",
        "https://calendar.google.com/calendar/ical/en.usa%23holiday%40group.v.calendar.google.com/public/basic.ics",
        "  Serial.begin(115200);\n  display.begin();\n  mqtt.begin(\"broker.example.org\", 1883);",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the thirty-ninth sealed part, each by where the value stands: a key written as a
/// C array of bytes under a key's name; a value tagged with its encoding; a token echoed into
/// a login; a provider built from its key; an app password in four groups; a key right after
/// `/api/` in a URL's path; a key in one case as a URL's user; `--pat`; a password in a
/// sentence with a symbol but no digit. Their look-alikes stay: an identifier's array, a JSON
/// key or a share's label after the word password, a setting's dotted name, `--path`.
#[test]
fn byte_arrays_tagged_values_logins_fed_and_keys_in_paths() {
    for (text, secret) in [
        (
            "static const uint8_t NWK_KEY[16] = { 0x3A, 0x91, 0x0C, 0xE7, 0x52, 0x18, 0xB4, 0x6D, 0x2F, 0x99, 0x41, 0xC8, 0x07, 0x7E, 0xD3, 0x65 };",
            "0xD3, 0x65",
        ),
        (
            "radio --set psk base64:Zk3Pq9Lm2Vx8Tr5Wb1Nc6Yd4Hg7Jf0Ks2Qa9Ue3Ro=",
            "Zk3Pq9Lm2Vx8Tr5Wb1Nc6Yd4Hg7Jf0Ks2Qa9Ue3Ro=",
        ),
        (
            "echo t6qwbxs4jkf64f45kahngqrru7nmjvhqkb2o56dudxy4m4m7p2 | acme devops login --org x",
            "t6qwbxs4jkf64f45kahngqrru7nmjvhqkb2o56dudxy4m4m7p2",
        ),
        (
            "provider = AcmeQProvider(\"7B2wSYUuVgmJRlm86kmGaH6tlPWIHqAz\")",
            "7B2wSYUuVgmJRlm86kmGaH6tlPWIHqAz",
        ),
        (
            "server.login(\"ops@example.com\", \"qzvk hwpr tnyb xgdf\")",
            "qzvk hwpr tnyb xgdf",
        ),
        (
            "curl http://10.0.0.5/api/Qx7Edd9uXVmXPL39MrMJ2pIHdy300cckykKaXbpz/lights/1/state",
            "Qx7Edd9uXVmXPL39MrMJ2pIHdy300cckykKaXbpz",
        ),
        (
            "curl \"https://Q8FKVXRNUL4YH554FAY8204K6F9FIJO4@shop.example/api/products\"",
            "Q8FKVXRNUL4YH554FAY8204K6F9FIJO4",
        ),
        (
            "npx acme-publish x.vsix --pat 3cab99cf-4023-4451-a2e2-3cee9c764a71",
            "3cab99cf-4023-4451-a2e2-3cee9c764a71",
        ),
        (
            "Šiltnamio slaptažodis pasikeitė: dabar MGQYdDXVEz#p. Ačiū.",
            "MGQYdDXVEz#p",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "static const u1_t PROGMEM DEVEUI[8] = { 0xD1, 0xC3, 0xA3, 0x0C, 0x90, 0x00, 0x0F, 0x11 };",
        "static const uint8_t PUBKEY[16] = { 0x3A, 0x91, 0x0C, 0xE7, 0x52, 0x18, 0xB4, 0x6D, 0x2F, 0x99, 0x41, 0xC8, 0x07, 0x7E, 0xD3, 0x65 };",
        "{\"loginId\": \"<your username>\", \"password\": \"<your password>\", \"clientCode\": \"\"}",
        "net use P: \\\\SRV\\cores * /savecred\nType the password for \\\\SRV\\cores:",
        "redfishtool -u root -p \"$BMC_PASSWORD\" Systems -I System.Embedded.1 get",
        "cp --path src/a.txt backup/",
        "curl https://api.example.com/api/components/list",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the fortieth sealed part (issue 20), frozen at 23b2b35 (first run recall 0.89,
/// false positives 0.05): a key as a list of decimal bytes under a key's name; a password fed
/// to `sudo -S`; a Sanctum token (`id|secret`) after `Bearer`; a password after a host and a
/// port; Ruby's client built without brackets; a bot's token whose first part encodes an id;
/// "password" in Afrikaans and Welsh, and eight words from it. Their look-alikes stay: a
/// Twilio webhook's `…Sid=` ids, a manifest's file names as keys, a host key after its type.
#[test]
fn byte_lists_sudo_stdin_sanctum_tokens_and_id_tokens() {
    for (text, secret) in [
        (
            "advanced:\n  network_key: [209, 31, 211, 65, 42, 180, 17, 175, 216, 201, 77, 219, 231, 241, 165, 252]",
            "216, 201",
        ),
        (
            "echo 'izgB.yq%0aRgt5' | sudo -S systemctl restart acme.service",
            "izgB.yq%0aRgt5",
        ),
        (
            "headers: { Authorization: \"Bearer 955|grfv1Oct96zIgllKoHqJwP4hrKxioa1xySe7qzjt\" }",
            "grfv1Oct96zIgllKoHqJwP4hrKxioa1xySe7qzjt",
        ),
        (
            "ws = obsws(\"localhost\", 4455, \"1.Rf7hZKKVg!ptRm\")",
            "1.Rf7hZKKVg!ptRm",
        ),
        (
            "mg = Acme::Client.new 'b6f8965cc1fd7e1cd2359bf98b0690ee-04ad4077-6cec8b4f', 'api.eu.example.net'",
            "b6f8965cc1fd7e1cd2359bf98b0690ee",
        ),
        (
            "bot.run(\"MTg1NTAyMTM0MjUzNjE4NDc5OA.5dDY1B.vyTpVbAGWl7oYIjVJs6gIr47a6BBB4NgXq6jkL\")",
            "vyTpVbAGWl7oYIjVJs6gIr47a6BBB4NgXq6jkL",
        ),
        (
            "Hallo, die wagwoord vir die gilde se nuusbrief-rekening is 2km6R8eey_%Y",
            "2km6R8eey_%Y",
        ),
        (
            "Helo, y cyfrinair ar gyfer y system yw y!fZUbz-1j8T",
            "y!fZUbz-1j8T",
        ),
        (
            "Živjo, geslo za skupni računalnik v lopi je I3JBF.Q__kq4",
            "I3JBF.Q__kq4",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "MessageSid=SM834c5465d679484f2cddbda1495bbe0a&AccountSid=AC78643450362ccbcb67c9519dcf8f915f&ApiVersion=2010-04-01",
        "{\n  \"icon.png\": \"3d50408ef74d8a067bd66e03952a40f611a35cca\",\n  \"pass.json\": \"776423eff6402ac34c493769badba51d6e19004c\"\n}",
        "open sftp://results@ftp.example.org/ -hostkey=\"ssh-ed25519 255 gVXI5iSq+mly6bofCJwf6PORpxvzN4iBNVzehOrMWIA\"",
        "  pan_id: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
        "key_ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 300]",
        "com.example.app.MainActivity",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the forty-first sealed part (issue 20), frozen at 48c1906 (first run recall 0.91,
/// false positives 0.01): an account authorised with an id and a key (`b2 account authorize ID
/// KEY`, the key with `+` and `/`); "password" in Basque and Latvian; a value twelve words after
/// the word; a password holding `=` right after it. Their look-alikes stay: a password hash's
/// last field after `$` (mosquitto's `$7$101$salt$hash`), a flag or a setting with `=` after the
/// word (`--random-password --given-name=Jane --surname=Doe`).
#[test]
fn authorised_keys_and_passwords_holding_equals() {
    for (text, secret) in [
        (
            "b2 account authorize 005e7502de308910000000004 K005Lp+mGoT9TaKPJcqlVck9/gAlcq1",
            "K005Lp+mGoT9TaKPJcqlVck9/gAlcq1",
        ),
        (
            "Kaixo! Programaren sarbidea: erabiltzailea kupela, pasahitza 20Nb^3xlVeCG2. Eskerrik asko",
            "20Nb^3xlVeCG2",
        ),
        (
            "Sveiks! Planšetes administratora parole ir QhKakY!Bf~y1D (lietotājs: starts).",
            "QhKakY!Bf~y1D",
        ),
        (
            "Chào chị, mật khẩu vào máy tính điều khiển khung dệt số 2 là Lf%_S~B69@%ck nhé.",
            "Lf%_S~B69@%ck",
        ),
        (
            "l'usuari és prestecs i la contrasenya és y=ErVpNb88O@R\nGràcies",
            "y=ErVpNb88O@R",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "sensor01:$7$101$S90qxdwsBUt3qqFB$09fUQ/GkIfxBcq13mkwxwb2Y2nUjUH43empyPg6OrB02eooP2c/iAxgzrqvlbhIrrXm3LaOsGGE0bhMdZukR6A==",
        "sudo samba-tool user create jdoe --random-password --given-name=Jane --surname=Doe",
        "java -Dx.password.file=/etc/jmx/jmxremote.password -Dx.access.file=/etc/jmx/jmxremote.access -jar b.jar",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the forty-first sealed part (issue 20): a token as a constructor's only string
/// argument, with nothing naming it (`dropbox.Dropbox("sl.…")`, `new InvoiceNinja('…')`): the
/// string is read as a word of its own. A method's argument (`analytics.load("…")`,
/// `Square.payments('sq0idp-…', …)`) is as often a browser SDK's public key and stays.
#[test]
fn a_token_as_a_constructors_only_argument() {
    for (text, secret) in [
        (
            "dbx = dropbox.Dropbox(\"sl.BiUXvvhAojoDF2QDWWoiXygPeRO0uk1BK2fW1S2hRlIxdK8vSk-tAUaGmtOC_6nhiOortrh5\")",
            "BiUXvvhAojoDF2QDWWoiXygPeRO0uk1BK2fW1S2hRlIxdK8vSk",
        ),
        (
            "$ninja = new InvoiceNinja('9EZNfgfpM9PchViiWNJnklspWAR2rO0yipYnUT6TCWeNW88J2bjohBgrFwCQkk4i');",
            "9EZNfgfpM9PchViiWNJnklspWAR2rO0yipYnUT6TCWeNW88J2bjohBgrFwCQkk4i",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "analytics.load(\"BkXsrU66sKMVx3GaCWh0msPuImpelSkG\");",
        "const payments = Square.payments('sq0idp-Sy_S4N-4mSpfP3xjPTxh3V', 'LDBI9TCJ8AFYY');",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the forty-second sealed part (issue 20): a password piped into a program named
/// for passwords (`… | sudo chpasswd` reads `user:password`), a value echoed into a file
/// named for a key, a login printed from a file whose kind says so (`client.auth`), a
/// password quoted and joined to `-p` (`7z a -p'…'`), an app password in four groups under a
/// password's name, and a password handed over in Albanian. Left alone: a product's key
/// (`productKey`), a public key's file printed, a phone app's SDK key (`configure(withAPIKey:
/// "appl_…")`, a Flutter app's `PurchasesConfiguration('goog_…')`).
#[test]
fn piped_echoed_printed_and_app_passwords_by_mechanism() {
    for (text, secret) in [
        (
            "$ echo 'ops:Tq4#mWz8vLr2Ks' | sudo chpasswd",
            "Tq4#mWz8vLr2Ks",
        ),
        (
            "$ echo 'Tq4#mWz8vLr2Ks' | smbpasswd -s -a ops",
            "Tq4#mWz8vLr2Ks",
        ),
        (
            "$ echo \"9c1e4b7a2f6d8e03b5a7c9d1e2f4a6b8\" > config/credentials/production.key",
            "9c1e4b7a2f6d8e03b5a7c9d1e2f4a6b8",
        ),
        (
            "$ cat /etc/openvpn/office.auth\nnightshift\nHv7_Kq2#xPm9LwZt\n$ systemctl restart openvpn",
            "Hv7_Kq2#xPm9LwZt",
        ),
        ("$ 7z x -p'Rk8.vT3nQw5Zp2Lx' backups.7z", "Rk8.vT3nQw5Zp2Lx"),
        (
            "auth: { user: \"front@desk.example\", pass: \"qzvm rtek whpa xnol\" },",
            "qzvm rtek whpa xnol",
        ),
        (
            "Fjalëkalimi i ruterit është Mq7.vXk2LpZ9 – mos e ndaj.",
            "Mq7.vXk2LpZ9",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "{\"devId\": \"bf0a1b2c3d4e5f6a7b8c9d\", \"productKey\": \"k3vqp9xw2mzt7hrd\"}",
        "$ cat certs/jwt-public.key\n-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
        "Purchases.configure(withAPIKey: \"appl_Wq8ZrT5yUx3VbN7mKp2LsD4fGh\")",
        "final c = Platform.isAndroid ? PurchasesConfiguration('goog_Wq8ZrT5yUx3VbN7mKp2LsD4fGh') : null;",
        "$ echo 'hello world' | passwd --help",
        "mkdir -p'build output' && ssh -p'2222' host",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the forty-third sealed part (issue 20): a password handed over in Hungarian (its
/// word inflected), Irish, Scottish Gaelic, Swahili, Bulgarian (`паролата`) and Georgian; a
/// short token as a URL's query parameter (Gotify's `?token=A8Mi.Js4nj0xMpB`); IRC's
/// `IDENTIFY [nick] password`. Left alone: a dataset's key (GBIF's `datasetKey`), a TOTP
/// example's all-capitals seed in a query, a quoted name (`schemaKey = 'DOC_Vector_5_32'`).
#[test]
fn languages_query_tokens_and_irc_identify() {
    for (text, secret) in [
        (
            "A jelszava: Kp7_xQm2#vLr9 — ne add tovább.",
            "Kp7_xQm2#vLr9",
        ),
        (
            "is é an pasfhocal Rt4@wQx9_mZ2 — ná roinn é",
            "Rt4@wQx9_mZ2",
        ),
        (
            "is e am facal-faire mQ7.xK2vLp9Z — na cuir air adhart e.",
            "mQ7.xK2vLp9Z",
        ),
        (
            "jina la mtumiaji ni duka2 na nenosiri ni Zq8-vKx2LmR7w",
            "Zq8-vKx2LmR7w",
        ),
        ("паролата е Hw3-Rtx9vQk2m — моля", "Hw3-Rtx9vQk2m"),
        ("კამერის პაროლი არის Pz.4kQm8#_vLx, არავის", "Pz.4kQm8#_vLx"),
        (
            "curl \"https://push.example.org/message?token=Bq7r.Lk2mXn9Wz\" -F \"title=x\"",
            "Bq7r.Lk2mXn9Wz",
        ),
        ("/msg NickServ IDENTIFY bot Wq8_xK2vLm7R", "Wq8_xK2vLm7R"),
        ("/msg NickServ IDENTIFY Wq8_xK2vLm7R", "Wq8_xK2vLm7R"),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "{\"key\": 1242105724, \"datasetKey\": \"eae18d71-f11e-4600-8b76-8e4007b5d686\"}",
        "otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example",
        "schemaKey = 'DOC_Vector_5_32'",
        "please identify yourself first",
        "https://docs.example.org/search?token=pagination",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the forty-fourth sealed part (issue 20): a password handed over in Galician (and
/// the words of eighteen more languages the sets had not yet used); a value piped into a
/// password store (`pass insert`, `keepassxc-cli`); a password typed into a page's field by a
/// browser-driving script; a later call argument with every kind of character, whatever the
/// call (a Ruby SMTP login's, a device's local key); a URL's path segment that only a
/// generator writes, where a key stands (`/api/KEY`, `/t/TOKEN`, `/TOKEN/get/…`). Left alone:
/// a table's SID column, a key its comment calls search-only, a certificate pin, a user name
/// typed into its field, a call's ordinary strings, a document's id in its link.
#[test]
fn fields_stores_call_arguments_and_more_languages() {
    for (text, secret) in [
        (
            "O usuario é uxia e o contrasinal é N.c5jGci0O.S6x (cámbiao)",
            "N.c5jGci0O.S6x",
        ),
        ("la pasvorto estas Tq8_xK2vLm7R!", "Tq8_xK2vLm7R"),
        ("parola/parolă: parolă este Zq8-vKx2LmR7w", "Zq8-vKx2LmR7w"),
        (
            "$ echo 'stEt3Rx!s__QxVg6!oF3w' | pass insert -e shop/pos",
            "stEt3Rx!s__QxVg6!oF3w",
        ),
        (
            "$ echo '-n!%jWBEYv_S_ZSBmrnlJE0' | keepassxc-cli show -s gear.kdbx 'x'",
            "-n!%jWBEYv_S_ZSBmrnlJE0",
        ),
        (
            "driver.find_element(By.ID, \"password\").send_keys(\"d#LK=2iLHY+o7\")",
            "d#LK=2iLHY+o7",
        ),
        (
            "await page.fill('#password', 'Xk29fQm7LpW3vRt8');",
            "Xk29fQm7LpW3vRt8",
        ),
        (
            "cy.get('input[name=pwd]').type('Wq8_xK2vLm7R!')",
            "Wq8_xK2vLm7R!",
        ),
        (
            "Net::SMTP.start('smtp.example', 587, 'example', 'orders@example.com', '3H_=T6p+i.#A', :login)",
            "3H_=T6p+i.#A",
        ),
        (
            "d = tinytuya.OutletDevice('385dte8s29nio48ncj4qc5', '192.168.1.62', 'Z4FOGziCFA~KIo44')",
            "Z4FOGziCFA~KIo44",
        ),
        (
            "curl -X PUT http://192.168.1.40/api/uhiC6oKK-So15BlY2lBDryb1yJQxALLL2hoOGnFT/lights/3/state",
            "uhiC6oKK-So15BlY2lBDryb1yJQxALLL2hoOGnFT",
        ),
        (
            "curl -s http://iot.example.cc/06UkzVlIZPqr74RHJF4lQjOegxZ16SXl/get/v48",
            "06UkzVlIZPqr74RHJF4lQjOegxZ16SXl",
        ),
        (
            "channels:\n  - https://conda.example.org/t/3Zpulcmglfvh-KqOPLAJByfbEt5bWF/private",
            "3Zpulcmglfvh-KqOPLAJByfbEt5bWF",
        ),
        ("secret ||= 'R7u2Qp9LmX4c'", "R7u2Qp9LmX4c"),
        ("api_token ??= \"Rt4wQx9mZ2vLk7\";", "Rt4wQx9mZ2vLk7"),
        (
            "[18:57] <dana> pw a-U6gH1j4duZGzVAV -- change it",
            "a-U6gH1j4duZGzVAV",
        ),
        (
            "$ bmc-tool 10.20.0.52 ADMIN SdmOs.ze96BVJvsUA9 ipmi power status",
            "SdmOs.ze96BVJvsUA9",
        ),
        (
            "app.use(basicAuth({ users: { 'director': 'rgWzHH+!D!fn9%e' }, challenge: true }));",
            "rgWzHH+!D!fn9%e",
        ),
        (
            "{\"routing_key\":\"18c63cc42abb067be759b562ff524455\",\"event_action\":\"trigger\"}",
            "18c63cc42abb067be759b562ff524455",
        ),
        (
            "printf '%s\\n' 'gHN9m6o4-nqBRZ6#4T' | iinit",
            "gHN9m6o4-nqBRZ6#4T",
        ),
        (
            "echo 'Tq8_xK2vLm7R!' | kinit dev@EXAMPLE.ORG",
            "Tq8_xK2vLm7R!",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "SID                                 Phone Number\nPNb04ad4860d7c736575ad0950cab48455  +38659000111",
        "const c = algoliasearch('1FA288B4BD', 'f7114e9baba3315f3c15a797c5a44ec5'); // search-only API key",
        ".add(\"api.corp.test\", \"sha256/rlqowMbVdWxq3aVmVlwwrFanwTdd9v5zvbOxbkZqz6w=\")",
        "driver.find_element(By.ID, \"username\").send_keys(\"scraper\")",
        "cy.get('#password').type('{enter}')",
        "log.info('Started %s', 'Build-2024.11_Final!')",
        "$ echo 'hello' | compass compile",
        "https://docs.google.com/spreadsheets/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit",
        "https://arweave.net/oapT7gT7iaSA0XAd3tGu7HdHK1pYsUeJbHzkN3y8xcM",
        "https://www.signupgenius.com/go/C9FA820B0A502E16BEFF-59433135-spring",
        "count ||= 0",
        "the pwm pin is 18 and pw is the pulse width",
        "ping 10.20.0.52 admin status",
        "channel.basic_publish(exchange='orders', routing_key='orders.created.eu', body=b)",
        "users: { 'director': 'Jane Doe' }",
        "printf '%s\\n' 'hello world' | iinit",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the forty-sixth sealed part (issue 20): an armoured block whose label names a
/// key's seed (NATS' `USER NKEY SEED`), and a URL whose user is a token alone (a git host's
/// `https://TOKEN@host/…`). Left alone: a DSN's public key as its user, a plain user.
#[test]
fn armoured_seeds_and_url_token_users() {
    for (text, secret) in [
        (
            "-----BEGIN USER NKEY SEED-----\nSUSZEXMCPFFXHWEOLUX3MJ3OOK62YO27H3MQK2XXLJJUBS22MJNXRCZ6RS\n------END USER NKEY SEED------",
            "SUSZEXMCPFFXHWEOLUX3MJ3OOK62YO27H3MQK2XXLJJUBS22MJNXRCZ6RS",
        ),
        (
            "git remote add deploy https://72566eedb1c5c8884d4a0edaf3580ad7d1d14e21@git.example/o/r.git",
            "72566eedb1c5c8884d4a0edaf3580ad7d1d14e21",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "SENTRY_DSN=https://c926eba6a89a8acb258c1fd86e2a939d@o216200.ingest.sentry.io/2279173",
        "git clone https://git@github.com/acme/tool.git",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the forty-seventh sealed part (issue 20): a `user:token` pair given to an
/// `--auth` flag (Jenkins' CLI), a value echoed into a command that adds a variable named
/// for a password, a login's password right after its mail address in a call, an API's key
/// first after its version in a URL's path (in one case and digits), and a client made from
/// one generated string. Left alone: `--auth-type`, a value said to go "here", a word after
/// an address, an id after a version, a UUID made from hex.
#[test]
fn auth_pairs_added_variables_versioned_keys_and_clients() {
    for (text, secret) in [
        (
            "java -jar jenkins-cli.jar -s https://ci.acme.example/ -auth builder:11be31860c77ba578d9ea3ad0bd7ca0726 build shop",
            "11be31860c77ba578d9ea3ad0bd7ca0726",
        ),
        (
            "echo 'knlM_XdMZoblf3ea.7UW' | acme env add DATABASE_PASSWORD production",
            "knlM_XdMZoblf3ea.7UW",
        ),
        (
            "Net::SMTP.start('smtp.acme.example', 587, 'acme.example', 'yard@acme.example', 'ub_B6_6MewcrcgY4', :login)",
            "ub_B6_6MewcrcgY4",
        ),
        (
            "curl \"https://api.acme.example/v1/5G0D4DW5STWM7NWYB48EQ6XFVJ2TVSHRA3V99IHP4L5TAIADK6GOOAIUK3VGL0509QD80MZJSLU0469XCFJRYS02/sms/send.json?to=1\"",
            "5G0D4DW5STWM7NWYB48EQ6XFVJ2TVSHRA3V99IHP4L5TAIADK6GOOAIUK3VGL0509QD80MZJSLU0469XCFJRYS02",
        ),
        (
            "geocoder = OpenCage('92539a5bdaea68a7d6f76a27dee388c2')",
            "92539a5bdaea68a7d6f76a27dee388c2",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "acme --auth-type basic --user x",
        "define( 'DB_PASSWORD', 'password_here' );",
        "send_mail('ops@acme.example', 'Build2024Report', body)",
        "curl https://api.acme.example/v1/users/42/orders",
        "u = UUID('92539a5bdaea68a7d6f76a27dee388c2')",
        "echo 'hello world' | acme env add GREETING production",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the forty-eighth sealed part (issue 20): a credential handed to a call by its
/// place among the call's string arguments (a client made from a generated key, in
/// JavaScript, PHP or Python; a login's or an authentication's later argument, an app
/// password in groups; a signing call's key), and a password a person typed after a flag that
/// asks for one (a single capital, a dot). Left alone: a record type in capitals given an id,
/// a UUID, a public key, a login's user, words.
#[test]
fn call_arguments_by_place_and_typed_passwords() {
    for (text, secret) in [
        (
            "const ably = new Acme.Realtime('NFCbWR.4ynqFu:n53dEJNRJ6_ghFWnyzralh2hNaCftpYpMdUJbCSbHyN');",
            "NFCbWR.4ynqFu:n53dEJNRJ6_ghFWnyzralh2hNaCftpYpMdUJbCSbHyN",
        ),
        (
            "$pay = new \\Acme\\Acme('jodlerklub', 'HAugAZmNAczCrZWwZMVk0EXRdqFtUY');",
            "HAugAZmNAczCrZWwZMVk0EXRdqFtUY",
        ),
        (
            "events = AcmeEvents('QGX06UASGSLTUM3EM055')",
            "QGX06UASGSLTUM3EM055",
        ),
        (
            "client.login('oakleaf-morris.bsky.social', 'gz5a-xsfz-bd75-cam5')",
            "gz5a-xsfz-bd75-cam5",
        ),
        (
            "r = requests.post(url, auth=HTTPBasicAuth('clubsecretary', 'voaO XXPj LHKU nwhi 6d3Q Z4d2'))",
            "voaO XXPj LHKU nwhi 6d3Q Z4d2",
        ),
        (
            "const m = Acme.apiConnect(\n  '518180faa0f7a4c2ab19331353725f72',\n  '0bb9272a378fae3bd8c19941de9a75a1'\n);",
            "0bb9272a378fae3bd8c19941de9a75a1",
        ),
        (
            "$sig = $obj->createMerchantSignature('zFApf/SfusD9/mVm9ZqqNUBmilH+l8cp');",
            "zFApf/SfusD9/mVm9ZqqNUBmilH+l8cp",
        ),
        (
            "xfreerdp /v:pc.lan /u:chor /p:etYip3nx.s3uv859 /dynamic-resolution",
            "etYip3nx.s3uv859",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "#1=IFCPROJECT('3VPlSWpxK8t4ruJNYT72cB',#2,'Depot Extension',$,$,$,$,(#20),#7);",
        "u = UUID('92539a5bdaea68a7d6f76a27dee388c2')",
        "const stripe = new Stripe('pk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUvWxYz');",
        "client.login('ops@acme.example', 'password')",
        "conn = connect('localhost', 'orders_db')",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the forty-ninth sealed part (issue 20): a key given as bytes to a signing call its
/// module names (`hmac.new(b'…', body, hashlib.sha256)`: the hash named on the line is the
/// algorithm, not a digest), and a password put before the word for it, as Irish says it
/// (`is é … an pasfhocal`). Left alone: a value before a word that only starts like one
/// (`Passport`).
#[test]
fn signing_keys_as_bytes_and_passwords_before_their_word() {
    for (text, secret) in [
        (
            "sig = hmac.new(b'65b201216d083f0e5b9f0d4ff7fc63df6b24c07e53cabb65444694b99c855a26', body, hashlib.sha256).hexdigest()",
            "65b201216d083f0e5b9f0d4ff7fc63df6b24c07e53cabb65444694b99c855a26",
        ),
        (
            "A Sheáin, is é b3PWARYNfxPgvt-K an pasfhocal don chóras díolacháin anois.",
            "b3PWARYNfxPgvt-K",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "2026-11-29,Marc Olsen,Passport,****7720,Jurat,25.00",
        "digest = hashlib.sha256(b'65b201216d083f0e5b9f0d4ff7fc63df6b24c07e53cabb65444694b99c855a26').hexdigest()",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the fifty-first sealed part (issue 20): a key whose provider starts it with `$`
/// (Asaas's `$aact_…`) was read as a variable before a path (`$HOME/…`), Samba's `-U
/// user%password` was not read as a pair, and a PNG's base64 in a `data:` URI was taken for a
/// 512-bit key.
#[test]
fn dollar_keys_samba_pairs_and_data_uris() {
    for (text, secret) in [
        (
            "curl -H 'access_token: $aact_QIpCHwqUQ6cAdmDw0ubdw8n7bU/Y6yKo1c4U7a607VFGYJ5fie2EaqgswSGWFUMBhzBPMOfnqxHRXBH2Fn5RwsPyM2Nb5JOY' https://api.example.com/v3/payments",
            "aact_QIpCHwqUQ6cAdmDw0ubdw8n7bU/Y6yKo1c4U7a607VFGYJ5fie2EaqgswSGWFUMBhzBPMOfnqxHRXBH2Fn5RwsPyM2Nb5JOY",
        ),
        (
            "smbclient //nas.lan/scores -U league%K8wr48XW.jhp -c 'put standings.xlsx'",
            "K8wr48XW.jhp",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "curl -H \"X-Api-Key: $API_KEY\" https://api.example.com",
        "cat $HOME/.config/acme/token",
        "cat ${state_dir}/token",
        "date -u +%Y-%m-%d",
        "<img alt=\"stitch\" src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUk0CzufhC04CGTFPzTvhGxr0FrnLt57ln3F7GRX9jEf+8LlaRI1nsqvAm63HIx6aHw==\">",
        // Found by the fifty-fourth part: a run inside the payload that a scanner of names read
        // as a value after a credential's word.
        ".logo { background-image: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAP0lEQVR4nAE0AMv/ANa7OawOMU//KIkLPwBv3YJTRqFIoPZ01fQAVc+uorCpRWxkIskdAMshwv9WPCS+LLHjqG1MGJXsXQZuAAAAAElFTkSuQmCC); }",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the fifty-third sealed part (issue 20; 12 false positives of 88 on its first run):
/// a path in a secret store after the store's scheme (`vault:secret/data/…#password`), a
/// shell's message for an unset variable (`${DB_PASSWORD:?missing}`), and a search widget's key
/// in an object that names the page element it is drawn into (DocSearch's public key) were
/// redacted. A default after `:-` may be a real password, and a key beside no page element
/// may be an admin key: both are still redacted.
#[test]
fn store_paths_unset_messages_and_page_widgets_left_alone() {
    for clean in [
        "env:\n  DB_PASSWORD: vault:secret/data/kiln/db#password",
        "environment:\n  - DB_PASSWORD=${DB_PASSWORD:?missing}",
        "docsearch({ appId: 'IALHMJNFFX', apiKey: '257c22948a03333a9b3e7f92703d6356', indexName: 'willow-docs', container: '#search' });",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
    for (text, secret) in [
        ("DB_PASSWORD: vault:Xk9mQ2pL7vR4tY1u", "Xk9mQ2pL7vR4tY1u"),
        (
            "DB_PASSWORD=${DB_PASSWORD:-Xk9mQ2pL7vR4tY1u}",
            "Xk9mQ2pL7vR4tY1u",
        ),
        (
            "algoliasearch({ appId: 'IALHMJNFFX', apiKey: '257c22948a03333a9b3e7f92703d6356', indexName: 'willow-docs' });",
            "257c22948a03333a9b3e7f92703d6356",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
}

/// Found by the fifty-fifth sealed part (recall 0.95, 2 false positives of 88 on its first
/// run): a value piped into a command that stores it as a secret is one whatever its shape (a
/// provider's prefix before hex, bare hex: `… | wrangler secret put NAME`), and so is a parameter
/// store's value stored as a secure string; PostHog's `phc_` project keys ship in every page and
/// are public.
#[test]
fn values_stored_as_secrets_and_public_project_keys() {
    for (text, secret) in [
        (
            "echo 'shippo_live_893a0a753bf40d872c9b92977876f380c76462aa' | npx wrangler secret put SHIPPO_API_TOKEN",
            "893a0a753bf40d872c9b92977876f380c76462aa",
        ),
        (
            "echo '12d901a3de1febfa06ddff8410d6d6' | npx wrangler secret put PLAID_SECRET",
            "12d901a3de1febfa06ddff8410d6d6",
        ),
        (
            "aws ssm put-parameter --name /eyepunch/pushover/key --type SecureString --value a2u6g4uurtbfkoap229iqtq3xxnszk",
            "a2u6g4uurtbfkoap229iqtq3xxnszk",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "echo 'hello world' | acme env add GREETING production",
        "meta := map[string]string{\"ref\": \"phc_C5IhDFFtQksvdsmesRCmorC4GcBZBWflqWSq1Xomo9O\"}",
        "echo '${SHIPPO_TOKEN}' | npx wrangler secret put SHIPPO_API_TOKEN",
        "aws ssm put-parameter --name /app/log-level --type String --value debug-verbose-mode",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 56th sealed part: a weak entity tag's opaque value and a design tool's file
/// key were taken for tokens; an encryption key of a file, or a token beside an ETag, is not
/// left alone for it.
#[test]
fn entity_tags_and_file_ids() {
    for clean in [
        "ETAG = \"W/\"ef4efbe3-YbCJQNMC2dKTy7NVg0ytZ53USBj\"\"",
        "| etag | `W/\"c499439d-WmyMlRfCooypG29s1bEjX6BbtuB\"` | checked |",
        "curl -H 'If-None-Match: W/\"3f1c-kq7ZrX0pLm2VbN8sTd4HwYj6Ue\"' https://cdn.example.org/app.js",
        "[shearsmith]\nfile_key = \"7keioP0X0ZzEoyk7IoCktj\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
    for (text, secret) in [
        (
            "file_encryption_key = \"Qm9XrT2vLp8sKd4WfZ7yHc1N\"",
            "Qm9XrT2vLp8sKd4WfZ7yHc1N",
        ),
        (
            "ETag: W/\"ab12\"\nAuthorization: Bearer re_ycxBf143_A7h6tUqMXxm3cE3k2CUkXeL1",
            "re_ycxBf143_A7h6tUqMXxm3cE3k2CUkXeL1",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
}

/// From the redactor's known misses: a personal access token set by make's conditional
/// assignment (`DEPLOY_PAT ?= …`, `PAT?=…`) and a credential typed the way Visual Basic types
/// it (`Dim apiSecret As String = "…"`). Their look-alikes: a count typed the same way, a pat
/// in prose.
#[test]
fn make_conditionals_and_visual_basic_types() {
    for (text, secret) in [
        (
            "DEPLOY_PAT ?= Zk8vQ2mLp4rT9sXw1yB6nC3d",
            "Zk8vQ2mLp4rT9sXw1yB6nC3d",
        ),
        ("PAT?=Qm9XrT2vLp8sKd4WfZ7yHc1N", "Qm9XrT2vLp8sKd4WfZ7yHc1N"),
        (
            "Dim apiSecret As String = \"Zk8vQ2mLp4rT9sXw1yB6nC3d\"",
            "Zk8vQ2mLp4rT9sXw1yB6nC3d",
        ),
        (
            "Private Const DB_PASSWORD As String = \"hunter2-Tz9!\"",
            "hunter2-Tz9!",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "Dim tokenCount As Integer = 42",
        "a pat on the back = nice",
        "cast the key as string = later",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 57th sealed part: a bearer token that joins an id and a secret with a colon
/// was cut at the colon (only the part after it redacted), and a secret store's resource name
/// (an ARN under a task definition's `valueFrom`) was taken for the secret.
#[test]
fn bearer_ids_with_a_colon_and_resource_names() {
    let (out, _) = redact(
        "    http-request set-header Authorization \"Bearer fXvVwZ.PSkk2P:tYlIpaLwHg5lWP3QnVtHc4EAi6zZNOcgGJaK_gT8lae\"",
    );
    assert!(!out.contains("fXvVwZ.PSkk2P"), "{out}");
    assert!(!out.contains("tYlIpaLwHg5lWP3QnVtHc4EAi6z"), "{out}");
    let clean = "\"secrets\": [{\"name\": \"API_KEY\", \"valueFrom\": \"arn:aws:secretsmanager:eu-west-2:301818237331:secret:lighterlog/api-Vat0gl\"}]";
    assert_eq!(redact(clean).0, clean);
    let (out, _) =
        redact("\"secrets\": [{\"name\": \"API_KEY\", \"value\": \"Zk8vQ2mLp4rT9sXw1yB6nC3d\"}]");
    assert!(!out.contains("Zk8vQ2mLp4rT9sXw1yB6nC3d"), "{out}");
}

/// Found by the 58th sealed part: `net use`'s password after the user, a sign-in's tenant id
/// taken for its token, and a Key Vault reference taken for the key it names.
#[test]
fn net_use_after_the_user_tenant_ids_and_store_calls() {
    let (out, _) = redact(
        "net use Z: \\\\racks.example\\archive /user:WORKSHOP\\spatwatch Eo_Tl65LrKo2kvV8 /persistent:no",
    );
    assert!(!out.contains("Eo_Tl65LrKo2kvV8"), "{out}");
    let (out, _) = redact("acme login --token 4af37270-6b06-4128-b6e3-4f8658bf05d0");
    assert!(!out.contains("4af37270-6b06"), "{out}");
    for clean in [
        "net use Z: \\\\racks\\archive /user:WORKSHOP\\spatwatch /persistent:no",
        "az login --tenant 4af37270-6b06-4128-b6e3-4f8658bf05d0 --use-device-code",
        "\"ApiKey\": \"@Microsoft.KeyVault(SecretUri=https://zoetropia-kv.vault.azure.net/secrets/api-key/)\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 59th sealed part: a bearer token copied with its URL escapes (`…%3D…`) was cut
/// at the first `%`, its second half left. A Windows variable in its place stays.
#[test]
fn bearer_tokens_with_url_escapes() {
    let (out, _) = redact(
        "headers={'Authorization': 'Bearer AAAAAAAAAAAAAAAAAAAAAKJBFyZfAoDr2XmClSDkKObfRo%3DuSvWi2bOA4MKKXvDRPfbXxlTosi6SZbO85mgkCqIBp0tCzAWpJ'}",
    );
    assert!(!out.contains("uSvWi2bOA4MKKXvDRPfbX"), "{out}");
    let clean = "Authorization: Bearer %API_TOKEN%";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 60th sealed part: mysql's glued `-p` whose password starts with a dash was
/// kept; an image's tag before its digest (`python:3.12-slim@sha256:…`) was taken for a
/// login, and a message's typed id (`sid=SM` and 32 hex digits) for a session cookie.
#[test]
fn dashed_mysql_passwords_image_digests_and_typed_ids() {
    let (out, _) = redact("mysql -h db.example -u root -p-uK2VMh.pive6n~oAq prod");
    assert!(!out.contains("uK2VMh.pive6n"), "{out}");
    let (out, _) = redact("Cookie: sid=q8v2k9x4m7t1r5w3z6y0p2n8b4c6d9f1");
    assert!(!out.contains("q8v2k9x4m7t1r5w3"), "{out}");
    for clean in [
        "FROM python:3.12-slim@sha256:07e94f22eea7f6b75c2bdb9aee2f41ca74b66c14ebede31d66c7c4cb7cc6b006",
        "Message queued: sid=SM1e2a3784731540665318230be673be4b to=+44 7700 900466",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 61st sealed part (first run 0.94 recall): passwords holding `=` or an `@` that
/// opens no host were kept after a password flag (`sqlcmd -P A822f.=Jz8MB@LWLjGGc`, `7z
/// -pJME4…_j@S.`) and in prose (`… é =rpGzRq+t0e9…`, `… yw A=!_defXi50zrV`, `… ay
/// XHZmZn=28Cla…@`); a CSV's token column was read only under a password's header. Their
/// look-alikes: a setting handed to a flag, an address, a count named for tokens.
#[test]
fn passwords_with_equals_signs_and_token_columns() {
    for (text, secret) in [
        (
            "sqlcmd -S db.example,1433 -U sa -P A822f.=Jz8MB@LWLjGGc -d siphonmap",
            "A822f.=Jz8MB@LWLjGGc",
        ),
        (
            "7z a -pJME4Pw3AvJfaLb_j@S. -mhe=on x.7z ./t",
            "JME4Pw3AvJfaLb_j",
        ),
        (
            "o contrasinal de oakumlog é =rpGzRq+t0e9q5UBHa , non o compartas",
            "rpGzRq+t0e9q5UBHa",
        ),
        (
            "Y cyfrinair ar gyfer pyro-studio.example yw A=!_defXi50zrV , paid",
            "_defXi50zrV",
        ),
        (
            "ang password ng matrixdb ay XHZmZn=28ClaZwqxNp@ , huwag",
            "28ClaZwqxNp",
        ),
        (
            "service,host,token\nrillemap,lunar-atlas.example,ser.CKRIY0IwFDhDIBGahDvERN",
            "CKRIY0IwFDhDIBGahDvERN",
        ),
        (
            "# client\tserver\tsecret\tIP addresses\nlampcrew\t*\tiWIeOLy0BAmoW.GgfW\t*",
            "iWIeOLy0BAmoW.GgfW",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "docker run -e FOO=Bar123xYz9k -p 8080:80 acme",
        "mysql -u dev -p dev@example.org",
        "name,token_count,model\ngpt,1234,Llama3Instruct",
        "set the password via --surname=Doe today",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the sixty-second sealed part (issue 20): a 20-digit hex key under a header's name
/// fell under the entropy bar (a short random hex run often does), an `INSERT`'s value under
/// a credential's column was not read by its column, and a bearer token that goes on after an
/// `=` (Atlassian's checksum) was cut there.
#[test]
fn short_hex_keys_inserted_rows_and_tokens_past_padding() {
    for (text, secret) in [
        (
            "fetch(u, { headers: { 'X-Api-Key': 'b93f0fb84dbbe99b31bf' } })",
            "b93f0fb84dbbe99b31bf",
        ),
        (
            "INSERT INTO integrations (name, api_key) VALUES ('port', '122c8a19d6e5b80a72025716c7b9b61b02aeb996');",
            "122c8a19d6e5b80a72025716c7b9b61b02aeb996",
        ),
        (
            "insert into users (id, email, password) values (1, 'a@b.c', 'Xk9#mQ2vLp8!'), (2, 'd@e.f', 'Tr4$hZq1wE7^');",
            "Tr4$hZq1wE7^",
        ),
        (
            "Authorization: Bearer ATATT3xFfGF0ELEbFPRJoy07i2-V1W5HghgGhar40=230B4BA0",
            "230B4BA0",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "INSERT INTO t (name, token) VALUES ('x', 'changeme')",
        "INSERT INTO t (name, owner, token_count) VALUES ('x', 'platform-team', 1200)",
        "{ 'X-Api-Key': 'deadbeefdeadbeefdead' }",
        "commit 122c8a19d6e5b80a72025716c7b9b61b02aeb996",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by `shape_checks_are_necessary_conditions` on a cold CI run: the long-token shape
/// skipped `authorize\thf_sohd…/0`, whose key the `authorize` regex takes with a `/` in it and
/// whose only digit comes after that `/`. The shape must admit what the regex accepts.
#[test]
fn an_authorize_key_with_a_slash_is_not_skipped_by_its_shape() {
    let text = "\tauthorize\t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/0";
    assert!(crate::shape::Shape::LongToken.admits(text, text.to_ascii_lowercase().as_bytes()));
}

/// Found by the sixty-fourth sealed part (issue 20): a flag that marks the next value secret
/// (`pulumi config set --secret KEY VALUE`) had the key's name redacted and its value kept; a
/// password handed over in Irish (`focal faire`) was kept; a Secret Manager path after the
/// variable it fills (`--set-secrets=API_TOKEN=projects/…/versions/latest`) was redacted.
#[test]
fn a_secret_flags_key_name_irish_and_a_store_path() {
    let token = "ATATT3xFfGF0egEswKnGQ4VLR_Z1elkM6xEOlhDHSjHqYw_KKP1CFWlnj0FMxsdb3qhkfpWHTT9LXxcx9UjFd3E8WaqV1UHtpjHDg4QaFR011bujMeXm6PhiqXOEH9pVuerHz3LbmYro6KI9nutA9mhPP1aEp1_TczCjZffmCH2swMJ1LF04fgo=6D5C58DC";
    let line = format!("pulumi config set --secret acme:jiraToken {token} --stack prod");
    let (out, _) = redact(&line);
    assert!(
        out.contains("acme:jiraToken") && !out.contains(token),
        "{out}"
    );
    let (out, _) =
        redact("Aoife: Seo an focal faire do acme: zl%9S1eKj%VRcp7qVi%XxI . Ná roinn é.");
    assert!(!out.contains("zl%9S1eKj%VRcp7qVi%XxI"), "{out}");
    let refs = "gcloud run deploy acme --set-secrets=API_TOKEN=projects/400462309409/secrets/acme-api-token/versions/latest";
    assert_eq!(redact(refs).0, refs);
}

/// Found by the sixty-fifth sealed part (issue 20), redactor frozen at b15c40d (first run
/// 0.95 recall, no false positive): a token written as a word prefix and dash-joined groups
/// (`sk-acme-uqrwotg-rcrgry4-qx4bt8a-nfecac1`) read as words under its credential's name; a
/// prefixed token ending at an escaped quote inside a string (Gradle's `buildConfigField(…,
/// "\"dtn_…\"")`) was not standing alone; an extended private key (`xprv…`) had no rule. The
/// public key beside it (`xpub…`) and words with one version in them stay.
#[test]
fn grouped_tokens_escaped_quotes_and_extended_private_keys() {
    let grouped = "sk-acme-uqrwotg-rcrgry4-qx4bt8a-nfecac1";
    for line in [
        format!("export ACME_API_KEY := {grouped}"),
        format!("flutter run --dart-define=ACME_API_KEY={grouped} --dart-define=API_HOST=x"),
    ] {
        let (out, _) = redact(&line);
        assert!(!out.contains(grouped), "{out}");
    }
    let dtn = "dtn_7f54a85247bf3493a53b5227d2a45a5e811878b2085f9a97b7d604b0cc065b20";
    let gradle = format!(r#"buildConfigField("String", "ACME_API_KEY", "\"{dtn}\"")"#);
    let (out, _) = redact(&gradle);
    assert!(!out.contains(dtn), "{out}");
    let xprv = "xprv9s21ZrQH143K3FAubEYXM1Pf5uzCSiTsAWtbKyzaGgYqfL38hdUddzySH3otfByLk3SvgD9YMtT4CDUG5JjhH6GmndsPdSfDgWHjyTF9AJz";
    let descriptor = format!("bitcoin-cli getdescriptorinfo \"wpkh({xprv}/84h/0h/0h/0/*)\"");
    let (out, _) = redact(&descriptor);
    assert!(!out.contains(xprv), "{out}");
    for clean in [
        "wpkh(xpub6CUGRUonZSQ4TWtTMmzXdrXDtypWKiKrhko4egpiMZbpiaQL2jkwSB1icqYh2cfDfVxdx4df189oLKnC5fSwqPfgyP3hooxujYzAu3fDVmz/0/*)",
        "ACME_MODE=read-only-v2-mode",
        "ACME_API_KEY_NAME=acme-prod-key",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the sixty-sixth sealed part (issue 20), redactor frozen at 8c7a7d8 (first run
/// 0.98 recall, 0.03 false positives): a PKCS#12 bundle in base64 without armour under a
/// name that says neither key nor secret (`SIGNING_P12_BASE64=MIIEHQIBAz…`); a Nostr secret key
/// (`nsec1…`, Bech32); and three public values taken for secrets: GnuPG's `Keygrip = …`, a
/// `did:key:z6Mk…` identifier and a cache's key named for the system it was made on
/// (`Linux-pnpm-store-98e7…`). A certificate in base64 (`MIIDdzCCAl+g…`) and `npub1…` stay.
#[test]
fn unarmoured_keys_bech32_secrets_and_public_digests() {
    let p12 = "MIIEHQIBAzCCA9MGCSqGSIb3DQEHAaCCA8QEggPAMIIDvDCCAkoGCSqGSIb3DQEHBqCCAjswggI3AgEAMIICMAYJKoZIhvcNAQcBMF8GCSqGSIb3DQEFDTBSMDEGCSqGSIb3DQEFDDAkBBBOtsztv5qeBtqB3V8frJ3eAgJOIDAMBggqhkiG9w0CCQUA";
    let nsec = "nsec183m55xm8k9lyc8hxug4krm8pd70k2qqnuqmdlwm4v42ua8vkc5es0h47xp";
    for (text, secret) in [
        (format!("SIGNING_P12_BASE64={p12}"), p12),
        (
            format!("nak event --sec {nsec} -k 1 -c 'hi' wss://relay.example"),
            nsec,
        ),
    ] {
        let (out, _) = redact(&text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "      Keygrip = D69D2F62EC7AAE570401BEF8D8C3A462A216E3C6",
        "\"issuer\": \"did:key:z6MkpPr4zKYSgSfKEPtJpBRdz2Nod75e766J9VB5CnCd4F6r\"",
        "Cache restored from key: Linux-pnpm-store-98e7873424ab483f73dbe085db0ae570e7c1831570795911cdd0182d6c7d585e",
        "CA_CERT=MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJRTESMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQLEwpDeWJlclRydXN0MSIwIAYD",
        "npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the sixty-seventh sealed part (issue 20), redactor frozen at c8fff00 (first run
/// 0.94 recall, 0.02 false positives): a quoted password glued to its short flag in a program
/// no rule names (`rar a -hp'…'`, `unrar x -p'…'`), and a JSON Web Key's symmetric `k`. A
/// quoted path with a blank after `mkdir -p` and a port after `ssh -p` stay.
#[test]
fn glued_quoted_passwords_and_a_symmetric_jwk() {
    for (text, secret) in [
        (
            "rar a -hp'.P,yA34za0=nC0=f' -m5 ledger.rar ledger/",
            ".P,yA34za0=nC0=f",
        ),
        (
            "unrar x -p'2eJT.r.Lss_:Llv!Oxdj#iV' b.rar /srv/restore/",
            "2eJT.r.Lss_:Llv!Oxdj#iV",
        ),
        (
            "{\"kty\": \"oct\", \"kid\": \"hs-2026\", \"alg\": \"HS256\", \"k\": \"npBivDKb4R42nomStcL0MfqADtmInUGI0XVm9532WLM\"}",
            "npBivDKb4R42nomStcL0MfqADtmInUGI0XVm9532WLM",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "mkdir -p'build output' && ssh -p'2222' host",
        "{\"kty\": \"oct\", \"kid\": \"hs-2026\", \"use\": \"sig\"}",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the sixty-eighth sealed part: a password handed to someone in a sentence of a
/// language whose word for it trail does not list (Sesotho `phasewete`, Somali `furaha
/// sirta`, Kinyarwanda `ijambo ry'ibanga`). The value's own shape is the evidence: a random
/// run of both cases and digits alone in prose. Names in camel case, prefixed ids, ids an
/// id's word introduces, digests and names of words stay.
#[test]
fn a_generated_value_alone_in_a_sentence_of_any_language() {
    for (text, secret) in [
        (
            "Dumela Thabo,\n\nphasewete e ncha ya slanebank ke lqQu1-rIyexyVHb4b .\n\nKe a leboha,\nLerato",
            "lqQu1-rIyexyVHb4b",
        ),
        (
            "Hery: ny teny miafina vaovao ho an'ny crumpettray dia mcnF1r_OMGXXM26 , aza zaraina.",
            "mcnF1r_OMGXXM26",
        ),
        (
            "Tomorrow the new code for the shared mailbox will be Xk9mP2qLw7Rt, please keep it safe.",
            "Xk9mP2qLw7Rt",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "The crash was in parseJson2Xml when the input held an empty element.",
        "Webhook endpoint we_1rH0jF1qfSRJOiYeMfeNJUe8 enabled for the shop",
        "Account SID ACb219ca98b6a543625696957467bc3bf7 is the one the team uses",
        "Merged commit 3f9a2c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 into the release branch today",
        "Use it to verify X-Hub88-Signature on the wallet callbacks we receive.",
        "Reports for GEOL101-Lecture09 and the other lectures are in the shared folder.",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Also found by the sixty-eighth sealed part: a CDN's expiring signed URL whose token is
/// under a parameter named for nothing secret (`?sign=`, `?verify=`): a moment in Unix time,
/// then a nonce, a user and a digest. A cache buster's time and short hash stays.
#[test]
fn an_expiring_token_of_a_signed_url_under_any_name() {
    for (text, secret) in [
        (
            "https://static.distaff.example/videos/intro-4.mp4?sign=1765425409-rcsum878vx-0-6ffed7cc3d3818bcaf80605ef0fb7e4a",
            "6ffed7cc3d3818bcaf80605ef0fb7e4a",
        ),
        (
            "curl -O 'https://dl.example.org/a.exe?lang=en&verify=1765229490-oXJ_agu-AIPuZz_Fdl4kCMFpIyKPv9L_-52r_w-HoF4'",
            "AIPuZz_Fdl4kCMFpIyKPv9L_",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "<link rel=\"stylesheet\" href=\"/app.css?v=1765425409-3f2a1b\">",
        "https://example.org/feed?since=1765425409&limit=50",
        "build id=1765425409-release-candidate-final",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Also found by the sixty-eighth sealed part: an OpenVPN `tls-crypt-v2 client key` block, a
/// key's armour whose label says neither `PRIVATE` nor `SECRET`. A block whose label names a
/// key is a secret unless the label says `PUBLIC`.
#[test]
fn an_armoured_key_block_unless_its_label_says_public() {
    let body = "kVxF+l5Br065563xsGKG+rY43Y9uOFAQT1c26/WmaBO94kJK2oaIji7N8TZg/9fv\nxB159a8/gZdquep0PXCqYZAwAzbo8EaiN8NbslE6fO+2kQ1vW3tRm8Xo7Lz4Hd2PyJq";
    let secret = format!(
        "<tls-crypt-v2>\n-----BEGIN OpenVPN tls-crypt-v2 client key-----\n{body}\n-----END OpenVPN tls-crypt-v2 client key-----\n</tls-crypt-v2>"
    );
    let (out, _) = redact(&secret);
    assert!(!out.contains("kVxF+l5Br065563x"), "{out}");
    let public = format!(
        "-----BEGIN NEBULA X25519 PUBLIC KEY-----\n{body}\n-----END NEBULA X25519 PUBLIC KEY-----"
    );
    assert_eq!(redact(&public).0, public);
}

/// Also found by the sixty-eighth sealed part: a request's `Content-MD5` header after its
/// `Host:` line was taken for a login handed over as two labelled lines (a user's name, then
/// a value with every kind of character). A label that names a digest says what the value is.
#[test]
fn a_digest_under_its_label_is_no_login() {
    let clean = "PUT /b/reports/q3.pdf HTTP/1.1\nHost: s3.eu-west-1.amazonaws.com\nContent-MD5: 8W3MIDN0aIxqnU43L//9kw==\nContent-Type: application/pdf";
    assert_eq!(redact(clean).0, clean);
    let (out, _) =
        redact("Kullanıcı adı: kus-sayimi-izmir\nŞifre: Qs%9yw:MGkVV\nLütfen değiştirmeyin.");
    assert!(!out.contains("Qs%9yw:MGkVV"), "{out}");
}

/// Found by the sixty-ninth sealed part (first run 0.88 recall): a password given as a line
/// of its own under a label no list holds (`Нууц үг: Hg7v…`, `Գաղտնաբառ՝ cvoH…`, Yoruba's
/// accents written as marks); a chat line whose speaker comes first (`rudo: zita ndi …`) or
/// whose time is in brackets; a generated value split by dots (`P.qM2q.IsgrqCkioEs`); a
/// driver's scheme with `_` (`db2+ibm_db://`); a vault's `unlock` argument; a session's id.
#[test]
fn a_labelled_line_a_chat_line_a_driver_url_and_an_unlock() {
    for (text, secret) in [
        (
            "Нэвтрэх нэр: deploy\nНууц үг: Hg7vluxAgAP6~HvZMet .\nБаярлалаа",
            "Hg7vluxAgAP6~HvZMet",
        ),
        (
            "Մուտքանուն՝ ops\nԳաղտնաբառ՝ cvoHRm1msPim-os .",
            "cvoHRm1msPim-os",
        ),
        (
            "Orúkọ olùlò: admin\nỌ\u{300}rọ\u{300} aṣínà: jX2R4~3lDFoEeym2iWy .",
            "jX2R4~3lDFoEeym2iWy",
        ),
        (
            "rudo: zita ndi admin, pasiwedhi ndi jn3~1oJUsWa.i_~Rh7K . Uchichinja mangwana",
            "jn3~1oJUsWa.i_~Rh7K",
        ),
        (
            "[09:15] mart: jah, kasutaja on deploy ja salasõna on 2YLOv-G77EsNwtp9hLn , palun vaheta",
            "2YLOv-G77EsNwtp9hLn",
        ),
        (
            "ngozi 10:03: aha njirimara bụ admin, okwuntughe bụ P.qM2q.IsgrqCkioEs . Gbanwee ya ozugbo",
            "P.qM2q.IsgrqCkioEs",
        ),
        (
            "SQLALCHEMY_DATABASE_URI = \"db2+ibm_db://db2inst1:qpkhMVk9m3NxL-oify.K@db2.example:50000/S\"",
            "qpkhMVk9m3NxL-oify.K",
        ),
        (
            "export BW_SESSION=$(bw unlock 'tL-2OIAdPuSpHeAoNa' --raw)",
            "tL-2OIAdPuSpHeAoNa",
        ),
        (
            "export const SF_SESSION_ID: string = \"00Dhug7hWfdQBqA!AQHAQC.RUZ5fzNZSHfHKgwOTAsFDw3trSGUCgKRVFyTfCy1CjT11j_6PiGhhjlK8j8PjFymxoY6\";",
            "RUZ5fzNZSHfHKgwOTAsFDw3trSGUCgKRVFyTfCy1CjT11j",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "issuer: https://rubusdb.okta.com/oauth2/default\nclientId: 0oa9EkGb3JhypTLdryCy",
        "Thumbprint (SHA-1): F379ABBF7EEA46A3B2E214E2E71171448BF49F72\nSecurityPolicy: Basic256Sha256",
        "Order ID: Xk9mP2-qLw7Rt4Zb",
        "git-crypt unlock ~/keys/repo.key",
        "bw unlock --check",
        "The call went through System.Net2.Http before it failed.",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the sixty-ninth sealed part: dotenvx's committed `.env` keeps each value
/// encrypted under a tag (`API_TOKEN="encrypted:…"`), and the value was redacted as a token;
/// its private key, kept apart, still is.
#[test]
fn a_value_tagged_as_ciphertext_is_left_alone() {
    let clean =
        "API_TOKEN=\"encrypted:n1V5/ZF2p55FIV6BFSifNHINMDPx34PFhOYIMb5BwaVEsvXYr/CAuy+4Xob==\"";
    assert_eq!(redact(clean).0, clean);
    let (out, _) = redact("API_TOKEN=\"n1V5ZF2p55FIV6BFSifNHINMDPx34PFhOYIMb5Bwa\"");
    assert!(!out.contains("n1V5ZF2p55FIV6BFSif"), "{out}");
}

/// Found by the seventieth sealed part (first run 0.92 recall): Active Record's
/// `ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY` read as a table's primary key, and an extended
/// private key under `LTC_XPRV` (BIP 32's `xprv`, any coin's prefix) under no credential's
/// name; a WebSocket handshake's `Sec-WebSocket-Key` was redacted as a key.
#[test]
fn an_encryption_primary_key_an_xprv_and_a_websocket_nonce() {
    for (text, secret) in [
        (
            "ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY: \"6B8gCaLnekdnalGMWm2nGj5BMfjeRIVj\"",
            "6B8gCaLnekdnalGMWm2nGj5BMfjeRIVj",
        ),
        (
            "ltc_xprv = Ltpv78mohGvxgwP3DsahSXDuTmmpvLcYoV8WHUEx5QTkFWTL65TJjn8Rdp3BJ5KFKq1pWzrsDLKMCPzKdH7hYWa1YKwQpbBwcQ1846HWyhSsXsD",
            "Ltpv78mohGvxgwP3DsahSXDuTmmpvLcYoV8WHUEx5QT",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "Sec-WebSocket-Key: 7ltlJWJ59cG29Dfq64dz7A==",
        "add_index :orders, :customer_id\nPRIMARY_KEY: \"order_id\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 72nd sealed part: a wallet's or a signer's seed under its name
/// (`wallet_seed=snANH…`, `X-Signer-Seed: 0x…`) was left, as `seed` named no credential. A
/// random generator's seed, a playlist's and a test vector's stay.
#[test]
fn a_wallet_or_signer_seed() {
    for (text, secret) in [
        (
            "msg=\"config loaded\" wallet_seed=snANHsGPmWfQs4vGfjBTcEgcaqTAn region=eu-west-1",
            "snANHsGPmWfQs4vGfjBTcEgcaqTAn",
        ),
        (
            "X-Signer-Seed: 0xd25c13ce0a888a5d1eb97f10a1a80272ac373199e771b83ed2f838d33ddf3f0a",
            "d25c13ce0a888a5d1eb97f10a1a80272ac373199e771b83ed2f838d33ddf3f0a",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "random_seed = 42",
        "swalewatch playlist seed: spotify:track:irjSgcOHrC2Y6EHgcCpZdP",
        "SEED = \"GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ\".freeze",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 73rd sealed part: a mask's words between stars (`"secret":
/// "***REMOVED SENSITIVE VALUE***"`, as Nextcloud's `occ config:list` prints) were taken for
/// the secret and replaced.
#[test]
fn a_mask_between_stars_is_kept() {
    let clean = "{\"passwordsalt\": \"***REMOVED SENSITIVE VALUE***\", \"secret\": \"***REMOVED SENSITIVE VALUE***\"}";
    assert_eq!(redact(clean).0, clean);
    let (out, _) = redact("{\"secret\": \"Vb7qK2mLpT9wXv4RzN8s\"}");
    assert!(!out.contains("Vb7qK2mLpT9wXv4RzN8s"), "{out}");
}

/// Found by the 74th sealed part (and two earlier parts' look-alikes): a Web Push server's
/// public key (`applicationServerKey: 'BFmw…'`, an uncompressed P-256 point, 65 bytes opening
/// with 0x04) stood under a key's name and was replaced. Its private half, 32 bytes, is
/// still a secret.
#[test]
fn an_elliptic_curves_public_point_is_kept() {
    let clean = "applicationServerKey: 'BFmwlx8MYyUgOPUQg4xHP-T-GbdVsy4zOg0H4zo3tgSZ5zM1otYy8gopIloeJYKQ9FZ40qmPR5QwdkXfftdvt-c'";
    assert_eq!(redact(clean).0, clean);
    let (out, _) = redact("VAPID_PRIVATE_KEY=Xq3vN8pT2sLmR7wYbK5zH1cJ9fD4gA6eU0oI2nMqWtE");
    assert!(
        !out.contains("Xq3vN8pT2sLmR7wYbK5zH1cJ9fD4gA6eU0oI2nMqWtE"),
        "{out}"
    );
}

/// Found by the 74th sealed part: HTTP's digest fields (`Repr-Digest: sha-512=:…:`, RFC 9530)
/// were replaced as a 512-bit key, as only subresource integrity's `sha512-…` was known for a
/// digest after its algorithm's name.
#[test]
fn a_digest_after_its_algorithms_name() {
    for clean in [
        "Repr-Digest: sha-512=:rfWVtvarGZXKPG43K3W2MVC8UZNjsxjsXZtnYkS+QOCdZY3YeL2hQit870LAanVKqVphfvcaKUPfVgqKY6kayQ==:",
        "Content-Digest: sha-256=:RXnvAd6m3XmtfapvOQ9sTEL0cEl0QFIKJo6bWk1vDpY=:",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
    let key = "AccountKey=lJzRc1YdHaAA2KCNJJ1tkYwF/+mKK6Ygw0NGe170Xu592euJv2wYUtBlV8z+qnlcNQSnIYVTkLWntUO1F8j8rQ==";
    assert!(!redact(key).0.contains("lJzRc1YdHaAA2KCNJJ1tkYwF"));
}

/// Found by the 74th sealed part (and an earlier part's look-alike): a secret manager's entry
/// by its name and version (`--set-secrets=DB_PASSWORD=orders-db-password:latest`) was taken
/// for the password itself. A real value in the same place still goes.
#[test]
fn a_secret_managers_entry_by_name_and_version() {
    for clean in [
        "gcloud run deploy api --set-secrets=DB_PASSWORD=orders-db-password:latest",
        "gcloud run deploy api --set-secrets=API_TOKEN=api-token:3",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
    let (out, _) = redact("acme deploy --api-token=Qx7vN2pT9sLmR4wYbK8z");
    assert!(!out.contains("Qx7vN2pT9sLmR4wYbK8z"), "{out}");
}

/// Found by the 74th sealed part: a token's value told in a sentence with two words between
/// its name and it (`NAUTOBOT_SUPERUSER_API_TOKEN ist jetzt 596f…`, German for "is now") was
/// left: one word was all a name's value could stand behind, and no hex behind any.
#[test]
fn a_tokens_value_two_words_after_its_name() {
    for (text, secret) in [
        (
            "Zugangsdaten ergänzt: ACME_API_TOKEN ist jetzt 596f02160cf026618b799f84e6ec647d24851733 (bitte rotieren)",
            "596f02160cf026618b799f84e6ec647d24851733",
        ),
        (
            "the deploy token is now 8c1f4e7a2b9d3c6f0e5a1b8d7c2f9e4a",
            "8c1f4e7a2b9d3c6f0e5a1b8d7c2f9e4a",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "der ETag ist jetzt 596f02160cf026618b799f84e6ec647d24851733",
        "<key>AcmeAPIKey</key>\n<string>$(ACME_API_KEY)</string>\n<key>CFBundleShortVersionString</key>",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 74th sealed part: an index's id in `_cat/indices?v` output was replaced,
/// because its row's columns did not line up with the heading (`uuid`) once one index's name
/// was longer than the others. The heading's field at the same count of blanks names it.
#[test]
fn a_field_headed_an_id_when_columns_do_not_align() {
    let clean = "$ curl -s \"https://search.example:9200/_cat/indices?v\"\nhealth status index uuid pri rep docs.count\ngreen open logs-2026.12.03 sqpPXeG_gOUqtxuZw7OjlA 1 1 131851\ngreen open .kibana_8.15.0_001     XIrVt5WGl0xf_Qm3bT9kLw2Z 1 1 12";
    assert_eq!(redact(clean).0, clean);
    let (out, _) = redact(
        "name password note\nshop-admin wee^WPQsLFoIH6Tu8 main\nblog-admin Xq7vN2pT9sLmR4wYbK8z backup",
    );
    assert!(!out.contains("Xq7vN2pT9sLmR4wYbK8z"), "{out}");
}

/// Found by the 74th sealed part: a value labelled an id just before it, with no `:` between
/// (`(appId app_f2d1…)`) or in a header (`x-bce-debug-id: …`), was replaced as a token. A
/// client's id is some APIs' access key (Unsplash's `client_id`), and stays a credential.
#[test]
fn a_value_labelled_an_id_just_before_it() {
    for clean in [
        "Published: https://acme.example/app/shop (appId app_f2d1310338e40ea46ea71da8c3a61d80)",
        "x-acme-debug-id: YrUivWfx2u9oOTfC7e0wHuIGmnfVZxTW6bqvviXsvYk=",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
    let (out, _) = redact("params={'client_id': 'KWMxpQhGv0c0iJvD5DCMQtFrUsL1imubkMlm6rxn-yy'}");
    assert!(
        !out.contains("KWMxpQhGv0c0iJvD5DCMQtFrUsL1imubkMlm6rxn-yy"),
        "{out}"
    );
}

/// Found by the 75th sealed part: signed URLs whose parameters are not called a signature
/// (ImageKit's `?ik-t=<expiry>&ik-s=<40 hex>`, Thumbor's HMAC as the path's first segment,
/// `/4ydNwB0R8k8Dg6mCu2LFk9N2KDY=/640x0/smart/…`) kept their signatures in clear.
#[test]
fn a_signed_urls_signature_whatever_it_is_called() {
    for (text, secret) in [
        (
            "<img src=\"https://ik.imagekit.io/rwbrzsod/avatars/3643ad.png?ik-t=1795268239&ik-s=1c5dd2e2345b27c732157c87ca7182951d71ce93\">",
            "1c5dd2e2345b27c732157c87ca7182951d71ce93",
        ),
        (
            "curl -o a.jpg 'https://img.acme.example/4ydNwB0R8k8Dg6mCu2LFk9N2KDY=/640x0/smart/uploads/829d82bc/hero.jpg'",
            "4ydNwB0R8k8Dg6mCu2LFk9N2KDY=",
        ),
        // The request path alone, as a server's log writes it (76th part).
        (
            "203.0.113.91 - - [02/Nov/2026:10:31:27 +0000] \"GET /_J09XgM7Pgjy14fkAR6UKgjz2y0=/fit-in/640x400/uploads/a.jpg HTTP/2.0\" 200",
            "_J09XgM7Pgjy14fkAR6UKgjz2y0=",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "https://cdn.acme.example/app.js?v=1c5dd2e2345b27c732157c87ca7182951d71ce93",
        "https://api.acme.example/items?since=1795268239&page=2",
        "https://img.acme.example/unsafe/640x0/smart/uploads/829d82bc/hero.jpg",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 75th sealed part: a generated key written by an editor's substitution in place
/// of the placeholder (`sed -i "s|ultrasecretkey|9ac0…|g" settings.yml`) was left in clear.
#[test]
fn a_secret_written_by_a_substitution() {
    let secret = "9ac06a7f6dcf04a6f3ee3900da78d6d0a418af130e8ae84f60d8d010a61686dd";
    let line = format!("sed -i \"s|ultrasecretkey|{secret}|g\" acme/settings.yml");
    let (out, _) = redact(&line);
    assert!(!out.contains(secret), "{out}");
    for clean in [
        "sed -i 's/secret_key_base/secret_key/' config.rb",
        "sed -i \"s|version: 1.2.0|version: 1.3.0|\" chart.yaml",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 76th sealed part: a default written in code after an environment lookup
/// (`key: process.env.LIDARR__AUTH__APIKEY || '3f16…'`, `?? "…"`) was left in clear; the
/// lookup's name is the credential's, and the literal after `||` its value.
#[test]
fn a_default_after_a_credentials_lookup() {
    for (text, secret) in [
        (
            "key: process.env.ACME__AUTH__APIKEY || '3f16063336c5937906c3edf9a6d8ed0e',",
            "3f16063336c5937906c3edf9a6d8ed0e",
        ),
        (
            "const t = process.env.ACME_API_TOKEN ?? \"4052ee17d4b1f24b3d783f9663ca26ca86efd112\";",
            "4052ee17d4b1f24b3d783f9663ca26ca86efd112",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "baseUrl: process.env.ACME_URL || 'https://acme.example',",
        "const t = process.env.ACME_API_TOKEN || '';",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 72nd sealed part: Cilium's IPsec secret (`3+ rfc4106(gcm(aes)) <40 hex> 128`)
/// was left in clear in every context: the key has spaces around it and no name of its own.
/// A cipher's name is followed by its key; a ciphertext's header names its cipher among its
/// fields (`$ANSIBLE_VAULT;1.1;AES256`), and what follows is encrypted.
#[test]
fn a_hex_key_after_the_name_of_its_cipher() {
    for (text, secret) in [
        (
            "export CILIUM_IPSEC_KEYS='3+ rfc4106(gcm(aes)) 9917e26217c0a4c9611addbd622448bea8f5f2c5 128'",
            "9917e26217c0a4c9611addbd622448bea8f5f2c5",
        ),
        (
            "ip xfrm state add src 10.0.0.1 dst 10.0.0.2 proto esp spi 0x100 enc 'cbc(aes)' 0x6aed4975adf006d65c76f63923a6265b",
            "6aed4975adf006d65c76f63923a6265b",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    let clean = "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  375ac1445ba0b9b97a05f9c6475006b3c1255e7a340f86c1e70e1a956d1d91b8";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 72nd sealed part: a cluster's join key (`X-JFrog-Join-Key: b8f3…`,
/// `join_key=…`) was read as a data key, as a SQL join's is. A join's key names a column, not a
/// random run; a random run under that name lets a node in.
#[test]
fn a_clusters_join_key() {
    for (text, secret) in [
        (
            "X-Acme-Join-Key: b8f316ce6d0e2986bbfa50109778a3b7",
            "b8f316ce6d0e2986bbfa50109778a3b7",
        ),
        (
            "loaded config: join_key=a4305db47c76144ae8e7cf5c80d8e08e listen=:8443",
            "a4305db47c76144ae8e7cf5c80d8e08e",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    let clean = "join_key: customer_id";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 72nd sealed part: Vault's audit log writes every token it saw as an HMAC
/// (`"client_token": "hmac-sha256:c127…"`), and the HMAC was replaced as the token.
#[test]
fn an_hmac_in_hex_after_its_algorithms_name() {
    let clean = "{\"auth\": {\"client_token\": \"hmac-sha256:c1272e7d5c0cac0c9db55fdce90093ba06792fe7927b20f026c48c797e3d41b4\"}}";
    assert_eq!(redact(clean).0, clean);
    let (out, _) = redact("{\"auth\": {\"client_token\": \"hvs.CAESIJ3kL9qTmRz8wXb2VnY7pQeA\"}}");
    assert!(!out.contains("CAESIJ3kL9qTmRz8wXb2VnY7pQeA"), "{out}");
}

/// Found by the 72nd sealed part: a minisign signature, under `untrusted comment: signature from
/// minisign secret key`, was replaced as the secret key the comment names, when it had no
/// `/` in its base64. A value on the line after a line that says it is a signature's is the
/// signature.
#[test]
fn a_signature_under_a_line_that_says_so() {
    let clean = "untrusted comment: signature from minisign secret key\nRURjELkawGMtXAIX1zvTbE+LuHmbBNhsWDvj8C9HZX6nocqqSgNnnMLVhxGLnRrSZKzLtOWeclCXGbH5t31Iid4okDFOZt3t0gQ=\ntrusted comment: timestamp:1762816484";
    assert_eq!(redact(clean).0, clean);
    let (out, _) = redact("# the new secret key:\nsecret_key = Qx7vN2pT9sLmR4wYbK8zVb7qK2mL");
    assert!(!out.contains("Qx7vN2pT9sLmR4wYbK8zVb7qK2mL"), "{out}");
}

/// Found by the 77th sealed part: every `pk.` token was taken for Mapbox's public one, so
/// LocationIQ's secret access tokens (`pk.` and 32 hex digits) were left in clear under their
/// own names. Mapbox's public token is `pk.` and a JWT-like body.
#[test]
fn a_pk_dot_token_is_public_only_in_mapboxs_form() {
    let (out, _) = redact("LOCATIONIQ_TOKEN=pk.8bb3c772099327ab8ed1057580cf2c60");
    assert!(!out.contains("8bb3c772099327ab8ed1057580cf2c60"), "{out}");
    let clean = "MAPBOX_TOKEN=pk.eyJ1IjoiZXhhbXBsZSIsImEiOiJja2x6NXNhZ2owMDAwMnBvN2V4YW1wbGUifQ.c2lnbmF0dXJlX2hlcmU";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 77th sealed part: IPinfo's tokens are fourteen hex digits, too short for a hex
/// run to read as generated; under a name whose last word is `token` such a draw is the token.
/// A short hex run under a key's name is as often a digest's prefix.
#[test]
fn a_short_hex_token_under_a_tokens_name() {
    for (text, secret) in [
        ("IPINFO_TOKEN = \"2651fa044303fd\"", "2651fa044303fd"),
        (
            "<add key=\"IpinfoToken\" value=\"dda2479542b510\" />",
            "dda2479542b510",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "CACHE_KEY = \"2651fa044303fd\"",
        "BUILD_TOKEN = \"deadbeefdeadbe\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 77th sealed part: a signed URL whose one parameter joins the signature and its
/// expiry (UPYUN's `?_upt=fb6b7f061765216398`: eight hex digits, then a Unix time) kept it.
#[test]
fn a_signature_joined_to_its_expiry() {
    let (out, _) =
        redact("wget 'https://acme-img.example/plates/c7uvk9.jpg?_upt=7b4754db1765254529'");
    assert!(!out.contains("7b4754db1765254529"), "{out}");
    for clean in [
        "https://acme.example/feed?since=1765254529&page=2",
        "https://acme.example/a.js?v=20261204",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 77th sealed part: a key that calls itself public by its own prefix
/// (Bytescale's `apiKey: "public_vDhw…"`) was replaced under its `apiKey` name; its secret
/// sibling still goes.
#[test]
fn a_key_that_calls_itself_public() {
    let clean = "const uploader = Uploader({ apiKey: \"public_vDhw0UwqZgaVLjlQAOn7V5nK9nlR\" });";
    assert_eq!(redact(clean).0, clean);
    let (out, _) =
        redact("const u = Uploader({ apiKey: \"secret_vDhw0UwqZgaVLjlQAOn7V5nK9nlR\" });");
    assert!(!out.contains("vDhw0UwqZgaVLjlQAOn7V5nK9nlR"), "{out}");
}

/// Found by the 78th sealed part: lighttpd's secure downloads put the digest as a path segment
/// before the time it expires, in hex (`/dl/<md5>/693d57aa/releases/…`), and five were left in
/// clear. A content hash in a path is not followed by a time.
#[test]
fn a_path_digest_before_its_expiry_in_hex() {
    let (out, _) = redact(
        "aria2c \"https://dl.acme.example/dl/3516641cee52815b9a1828a4ad4c287f/693daf09/releases/acme-5.7.9.tar.gz\"",
    );
    assert!(!out.contains("3516641cee52815b9a1828a4ad4c287f"), "{out}");
    for clean in [
        "https://cache.acme.example/objects/3516641cee52815b9a1828a4ad4c287f/acme-5.7.9.tar.gz",
        "https://cache.acme.example/objects/3516641cee52815b9a1828a4ad4c287f/deadbeef/a.tar.gz",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by `redact_never_panics_and_is_idempotent`: a query value of many bytes but few
/// characters (`…6ffed7cc…aQÍ𑅪𞺸…`) was cut ten bytes from its end, inside a character, by the
/// test for a signature joined to its expiry (2c882a7).
#[test]
fn a_query_value_cut_inside_a_character_does_not_panic() {
    let text = "https://a.example/x?_upt=1765425409-rcsum878vx-0-6ffed7cc3d3818bcaf80605ef0fb7e4aQÍ𑅪𞺸𝼏=h$Ⱥ+D𞹋₄𑾰¥";
    let _ = redact(text);
    let text = "https://a.example/x?_upt=ab𞹋12345678";
    assert_eq!(redact(text).0, text);
}

/// Found by reading the labelled misses: a password store's entry whose scheme says it is
/// kept as written (Dovecot's `{PLAIN}`, LDAP's `{CLEARTEXT}`) held the password itself, and
/// nothing named it one. A digest's scheme (`{SSHA}`) stays.
#[test]
fn a_scheme_that_says_the_password_is_plain() {
    for (text, password) in [
        (
            "bob@example.org:{PLAIN}m9t+6eKX0XbvTsB:5000:5000::/var/mail/bob",
            "m9t+6eKX0XbvTsB",
        ),
        ("userPassword: {CLEARTEXT}Xk29fmQ7pLzT", "Xk29fmQ7pLzT"),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(password), "{out}");
    }
    for clean in [
        "userPassword: {SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=",
        "default_pass_scheme = PLAIN",
        "bob@example.org:{PLAIN}<password>:5000:5000::",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by reading the labelled misses: a header named for the session it carries
/// (`X-Metabase-Session`) and a token's name joined to its service (`bugsnagtoken` in a git
/// setting) held a UUID, which only a token's own name lets through. A session's id in a
/// response body stays an id.
#[test]
fn a_session_header_and_a_joined_token_name() {
    for text in [
        ".header(\"X-Acme-Session\", \"8cad5fc0-9d75-4846-990d-1cfb01bdb199\")",
        "git config --global acmedb.bugsnagtoken e509012b-277f-4302-a983-dc7b4cd1d612",
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains("-9d75-") && !out.contains("-277f-"), "{out}");
    }
    let clean = "{\"device_details\":{\"session_id\":\"6e93742f5dbc1e9e5b7409c5d39e0b61\"}}";
    assert_eq!(redact(clean).0, clean);
    let clean = "X-Request-Id: 8cad5fc0-9d75-4846-990d-1cfb01bdb199";
    assert_eq!(redact(clean).0, clean);
}

/// Found by reading the labelled misses: Windows' `/p:value` written with a dash (`winrs
/// -u:CORP\ops -p:…`) was not read as a password's flag. MSBuild's properties (`-p:Name=…`)
/// and numbers stay.
#[test]
fn a_dashed_windows_password_flag() {
    let (out, _) =
        redact("winrs -r:web01.corp.acme.io -u:CORP\\ops -p:JnGoztgA.5wo7rBN ipconfig /all");
    assert!(!out.contains("JnGoztgA.5wo7rBN"), "{out}");
    for clean in [
        "dotnet build -p:Version=1.2.3",
        "msbuild -p:Configuration=Release",
        "tool -p:8080 -u:admin",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by reading the labelled misses: Redis' `AUTH` as `MONITOR` prints it (`"AUTH" "app"
/// "…"`) and as typed at `redis-cli`'s prompt held the password with no name beside it.
#[test]
fn a_redis_auth_command() {
    for text in [
        "1764330012.123456 [0 10.0.3.15:50122] \"AUTH\" \"app\" \"rVkVrMdbm_7msV08Yq\"",
        "127.0.0.1:6379> AUTH default rVkVrMdbm_7msV08Yq",
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains("rVkVrMdbm_7msV08Yq"), "{out}");
    }
    for clean in [
        "C: AUTH LOGIN",
        "127.0.0.1:6379> AUTH <password>",
        "\"AUTH\" \"x\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 79th part's first run: a signed image's query written in a server's log as a
/// path alone (`"GET /hero.jpg?…&expires=1796002034&s=adb2…"`) was read only with a scheme and
/// a host before it.
#[test]
fn a_signed_query_in_a_request_line() {
    let text = "30.129.102.221 \"GET /acme/hero-xg6jd.jpg?w=1200&format=auto&expires=1796002034&s=adb23a7410b9861560a647ef18ddb4fc0c6e45825525122c36acca6c61042bbd\" 200 88413";
    let (out, _) = redact(text);
    assert!(!out.contains("adb23a7410b9861560a647ef18ddb4fc"), "{out}");
    for clean in [
        "\"GET /acme/hero.jpg?w=1200&format=auto HTTP/2.0\" 200",
        "\"GET /acme/hero.jpg?v=adb23a7410b9861560a647ef18ddb4fc0c6e45825525122c36acca6c61042bbd HTTP/2.0\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 79th part's first run: a share link whose path carries the gateway's access
/// key (`link.storjshare.io/s/<28 base32 characters>/bucket/object`), in a URL and in a
/// request line. A share link's own id, a nanoid of both cases, stays.
#[test]
fn a_share_links_access_key_in_its_path() {
    for text in [
        "Share link: https://link.acme.example/s/usnar2uhmjm34mu3mnfghhdw7s6n/acme-backups/a.tar.zst",
        "\"GET /s/j6bgpsy264zzamc5giz4mctyuoxy/acme-backups/a.tar.zst HTTP/2.0\" 200",
    ] {
        let (out, _) = redact(text);
        assert!(
            !out.contains("usnar2uhmjm34") && !out.contains("j6bgpsy264"),
            "{out}"
        );
    }
    let clean = "Share link: https://acme.example/s/by9rRkOuxotBBkZugfQGz";
    assert_eq!(redact(clean).0, clean);
}

/// Found by reading the labelled misses: `htpasswd -b FILE USER PASSWORD` (batch mode) takes
/// the password on its command line, and `-nb USER PASSWORD` prints the entry.
#[test]
fn htpasswd_in_batch_mode() {
    for text in [
        "htpasswd -b .htpasswd admin Qv5Lp9Xz2K",
        "htpasswd -nbB admin \"Qv5Lp9Xz2K\"",
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains("Qv5Lp9Xz2K"), "{out}");
    }
    for clean in [
        "htpasswd -c .htpasswd admin",
        "htpasswd -b .htpasswd admin <password>",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 80th part's first run: a Kubernetes `Secret`'s `stringData:` held a service's
/// key under a name that calls it an id (`BLOCKFROST_PROJECT_ID`); what a Secret keeps is
/// secret by where it is kept. A host's name, a short user, a port and a placeholder there
/// stay. And an EVM contract's address under a token's name (`token_address`) is an address.
#[test]
fn a_kubernetes_secret_keeps_secrets_and_an_address_is_none() {
    let text = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\nstringData:\n  ACME_PROJECT_ID: \"mainnetzdJ53GqoFlaXkwvSTtVC3xW4SixPht9e\"\n  DB_HOST: db.internal\n  DB_USER: app\n  PORT: \"5432\"\n  TOKEN: ${ACME_TOKEN}\n";
    let (out, _) = redact(text);
    assert!(!out.contains("zdJ53GqoFlaXkwvSTtVC3xW4"), "{out}");
    for kept in ["db.internal", "DB_USER: app", "\"5432\"", "${ACME_TOKEN}"] {
        assert!(out.contains(kept), "{out}");
    }
    let clean = "{\"token_address\": \"0x7a5ac1f490f0a2a5217cc54c419b0e4008fe8fca\", \"token_id\": \"220210\"}";
    assert_eq!(redact(clean).0, clean);
}

/// Found by reading the labelled secrets still missed: a wallet's recovery words under
/// `MNEMONIC` (twelve to twenty-four short lower-case words, BIP-39's lengths) are the wallet;
/// a mnemonic's language, an assembler's mnemonic and a call that makes one are not.
#[test]
fn a_wallets_recovery_words() {
    let words = "torch artwork person neutral know ramp toy satisfy tent muffin undo first";
    for text in [
        format!("MNEMONIC=\"{words}\""),
        format!("WALLET_MNEMONIC=\"{words}\""),
        format!("seed_phrase: \"{words}\""),
    ] {
        let (out, _) = redact(&text);
        assert!(!out.contains("satisfy tent"), "{out}");
    }
    for clean in [
        "MNEMONIC_LANGUAGE=\"english\"",
        "mnemonic = \"LDA\"",
        "const mnemonic = generateMnemonic();",
        "mnemonic: \"a short sentence of six words\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by reading the labelled secrets still missed: Rust's `Credentials::new("…".to_owned(),
/// "…".to_owned())` was no credential call, as a path's `::new` was not read after the
/// class's name and an argument's own empty call (`.to_owned()`) ended the arguments.
#[test]
fn a_credentials_constructor_with_owned_strings() {
    let text = "let creds = Credentials::new(\"mailer@corp.test\".to_owned(), \"EBPw1yKPVePL_0Z49pkg\".to_owned());";
    let (out, _) = redact(text);
    assert!(!out.contains("EBPw1yKPVePL_0Z49pkg"), "{out}");
    assert!(out.contains("mailer@corp.test"), "{out}");
    let clean = "let c = Credentials::new(user.to_owned(), pass.to_owned());";
    assert_eq!(redact(clean).0, clean);
}

/// Found by reading the labelled secrets still missed: IPinfo's fourteen hex digits under
/// `IPINFO_TOKEN` (`87aaa9e360d905`, 3.18 bits with three `a`s) fell under the bar of a short
/// hex token, 0.6 bits below log2 of its length, which a random draw of fourteen misses one
/// time in three. A digit run or a repeated letter stays far below the lowered bar.
#[test]
fn a_short_hex_token_with_a_repeated_digit() {
    for text in [
        "      IPINFO_TOKEN: \"87aaa9e360d905\"",
        "IPINFO_TOKEN=87aaa9e360d905",
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains("87aaa9e360d905"), "{out}");
    }
    for clean in ["ACME_TOKEN=aaaaaaaaaaaa11", "ACME_TOKEN=1111111111aaaa"] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by reading the labelled secrets still missed: recovery codes have no prefix and no
/// name before them (a column of `6ac63-d7b59`, numbered `8884 8746`, a lone
/// `WPPGX-K9Z6V-735SM-4MAAC-LZQPK`); a text that says it holds recovery codes, and their
/// shape, give them away. Ids, versions and dates in such a text, or codes in a text that
/// says nothing of recovery, are left.
#[test]
fn recovery_codes_by_what_the_text_says_and_their_shape() {
    let list = "Recovery codes for dev@example.com\n6ac63-d7b59\ne831a-bd46c\n215e6-d1ef2\n2756a-1e49a\na7bd8-3d070\n";
    let (out, _) = redact(list);
    assert!(
        !out.contains("6ac63-d7b59") && !out.contains("a7bd8-3d070"),
        "{out}"
    );
    let numbered =
        "BACKUP VERIFICATION CODES\n\n1. 8884 8746\n2. 4976 3228\n3. 9973 9832\n4. 8944 1580\n";
    let (out, _) = redact(numbered);
    assert!(
        !out.contains("8884 8746") && !out.contains("8944 1580"),
        "{out}"
    );
    let lone = "Your new recovery code\n\nWPPGX-K9Z6V-735SM-4MAAC-LZQPK\n\nKeep it safe.";
    let (out, _) = redact(lone);
    assert!(!out.contains("WPPGX-K9Z6V"), "{out}");
    for clean in [
        "Disaster recovery volumes:\n3f2c9a7e-1b2d-4c3e-9f00-1a2b3c4d5e6f\n",
        "Recovery releases:\nv1.2.3\nv1.2.4\nv1.3.0\nv1.4.0\n",
        "Recovery drills on:\n2026-01-05\n2026-02-05\n2026-03-05\n2026-04-05\n",
        "Order lines:\nAB12-CD34\nEF56-GH78\nIJ90-KL12\nMN34-OP56\n",
        "Two recovery codes left: see the vault.",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by reading the labelled secrets still missed: cntlm's `PassNT`/`PassLM`/
/// `PassNTLMv2` hold the hash a login presents instead of the password, so whoever holds one
/// logs in; hex under a password's name was read as a digest. Commented out, as cntlm's own
/// configuration ships the hashes of `password`, they are an example.
#[test]
fn an_ntlm_hash_under_a_password_name() {
    let text =
        "Username\tjdoe\nDomain\t\tCORP\nAuth\t\tNT\nPassNT\t\t536D56FDDF08369D83DE7B34A16B0B39\n";
    let (out, _) = redact(text);
    assert!(!out.contains("536D56FDDF08369D83DE7B34A16B0B39"), "{out}");
    for clean in [
        "# Example secure config shown below.\n# PassNT          77B9081511704EE852F94227CF48A793\n",
        "Username\tjdoe\nPassword_sha256\t536D56FDDF08369D83DE7B34A16B0B39\n",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by reading the labelled secrets still missed: a key in a URL's fragment, which the
/// browser keeps from the server (PrivateBin's `?ID#KEY`, Excalidraw's `#json=ID,KEY`), opens
/// what the link points at. An anchor, a route, an id, a download's digest or an app's name
/// there is no key.
#[test]
fn a_key_in_a_urls_fragment() {
    for (text, key) in [
        (
            "Logs: https://privatebin.net/?2a25992de5eed2f6#9Tub94HsmvrpE2pAC75vmpjQjFPrTWDR2ySHAj1KHvBw",
            "9Tub94HsmvrpE2pAC75vmpjQjFPrTWDR2ySHAj1KHvBw",
        ),
        (
            "Board: https://excalidraw.com/#json=VTEPLalxZmhzQ9VLyWcZ,JDjYZCXtESRVT1kbv3RS0Q",
            "JDjYZCXtESRVT1kbv3RS0Q",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(key), "{out}");
    }
    for clean in [
        "See https://docs.example.com/guide#installing-on-linux",
        "https://github.com/acme/app/blob/main/src/lib.rs#L10-L20",
        "https://app.example.com/#/settings/profile",
        "https://registry.yarnpkg.com/x/-/x-1.2.4.tgz#703e8ce0bcbfa4fa9989d86af89b5fe34649eccf",
        "https://cdn.example.net/Sortable.min.js#sha256=ZqQaGD0iotYM2D2lpQ1C74R9A6ctXPOdSaxPezwlVg",
        "https://www.appsheet.com/start/75ff7f8b#appName=FieldInspections-2070903&view=Sites",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 81st and 82nd sealed parts (ten keys missed): a settings export writes one
/// setting a row (`service,variable,value,updated_at`), the key's name in one cell and its
/// value in the next. The header's value column is read as assigned to the row's own name;
/// other settings, references and file paths in it stay.
#[test]
fn a_key_in_a_key_value_table() {
    let text = "service,variable,value,updated_at\n\
        api,LOG_LEVEL,info,2026-11-28T09:14:02Z\n\
        api,EVERHOUR_API_TOKEN,bb08-5775-8f7cda-8a82ca-52d46224,2026-11-28T09:14:02Z\n\
        api,GITHUB_TOKEN,${{ secrets.GH }},2026-11-28T09:14:02Z\n\
        api,DB_PASSWORD_FILE,/run/secrets/db,2026-11-28T09:14:02Z\n";
    let (out, _) = redact(text);
    assert!(!out.contains("bb08-5775-8f7cda-8a82ca-52d46224"), "{out}");
    for kept in ["info", "${{ secrets.GH }}", "/run/secrets/db"] {
        assert!(out.contains(kept), "{out}");
    }
    let clean = "name,value,unit\ncpu_key_count,8f7cda,bytes\nregion,eu-west-1,\n";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 81st sealed part: a page writes a signed URL's `&` as `&amp;` (`<source
/// src="…?Expires=…&amp;KeyName=…&amp;Signature=…">`), and the signature then read as one
/// published beside what it signs, not as a query's.
#[test]
fn a_signed_query_written_in_a_page() {
    let sig =
        "0QZZoKU3VgedjDDTvuhjpH60ClvKzd1RHf1U-aExRQWY2upcyso11x40gYTi9bkg1pvad4MRaFFnC_QZ25nwAA";
    let text = format!(
        "<source src=\"https://media.example/vod/index.m3u8?Expires=1796384144&amp;KeyName=vod-key-06&amp;Signature={sig}\">"
    );
    let (out, _) = redact(&text);
    assert!(!out.contains(sig), "{out}");
    let clean = "<item sparkle:edSignature=\"Z4kQw8fN2xJv7LmP3sR9tY6uB1cD5eG0hK\" length=\"1\"/>";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 82nd sealed part (five misses): a CDN's token authentication appends an
/// encrypted token as the URL's whole query (`movie_720p.mp4?Xe9M_i05…`), in a page, a JSON
/// answer, a playlist, code, or a request line in a server's log. A cache-buster (a digest, a
/// version) stays.
#[test]
fn a_token_as_a_urls_whole_query() {
    let token =
        "Xe9M_i05YVjHeQonP4psB3HX11hjAxxiYKw31kNgfcAZ3p_oKW26ViduViCvbaxGjSEooUgLkyVA-pBtL0DTQz";
    for text in [
        format!("<source src=\"https://wpc.6976.cdn.example.net/806976/movie_720p.mp4?{token}\">"),
        format!(
            "10.0.0.1 - - [01/Dec/2026:10:02:11 +0000] \"GET /806976/movie.mp4?{token} HTTP/1.1\" 206"
        ),
    ] {
        let (out, _) = redact(&text);
        assert!(!out.contains(token), "{out}");
    }
    for clean in [
        "<script src=\"https://cdn.example.com/app.js?8f7c9d0a1b2c3d4e5f6a7b8c9d0e1f2a\"></script>",
        "<link href=\"/css/site.css?v2.4.1\" rel=\"stylesheet\">",
        "https://example.com/search?q=rust",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 82nd sealed part (and an older part's same false positive): a value's own tag
/// opening a string that a field named public holds (`"PublicKey": "nodekey:b14e…"`, as
/// `tailscale status --json` prints a node) is a public key; the same tag under a private
/// field is not.
#[test]
fn a_tagged_value_in_a_public_field() {
    let clean = "{\"Self\": {\"PublicKey\": \"nodekey:b14e07794fa30567ee668777f01abb856a6c503a3e424fbb0ddf26215092af70\"}}";
    assert_eq!(redact(clean).0, clean);
    let text = "{\"PrivateKey\": \"privkey:b14e07794fa30567ee668777f01abb856a6c503a3e424fbb0ddf26215092af70\"}";
    assert!(!redact(text).0.contains("b14e0779"), "{}", redact(text).0);
}

/// Found by the 84th sealed part (after its first run): a key split across literals joined
/// with `+`, as a formatter wraps a long string, is judged joined under the name it is
/// assigned to, and every piece is redacted; a message built from pieces is no key.
#[test]
fn a_key_split_across_joined_literals() {
    let text = "const deepinfraToken =\n  'wltQ7DM9NmJSjoy1zc' +\n  'AXQgToO2Lk7989';\n";
    let (out, _) = redact(text);
    for piece in ["wltQ7DM9NmJSjoy1zc", "AXQgToO2Lk7989"] {
        assert!(!out.contains(piece), "{out}");
    }
    let clean = "const greeting =\n  'Hello, ' +\n  'world';\nconst tokenHelp = 'Paste your ' + 'token here';\n";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 84th sealed part (its one false positive): a presigned URL whose credential
/// was masked (`X-Amz-Credential=REDACTED%2F20261205%2Fdefault%2Fs3%2Faws4_request`) keeps
/// its scope, a path with its slashes percent-encoded, not a value a generator wrote.
#[test]
fn a_percent_encoded_path_beside_a_credentials_name() {
    let clean = "https://eu2.storage.example.com/b/report.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=REDACTED%2F20261205%2Fdefault%2Fs3%2Faws4_request&X-Amz-Date=20261205T101500Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=REDACTED";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 84th sealed part (after its first run): a prefix before two UUIDs (`luma-<uuid>-
/// <uuid>`) is a key's id and secret drawn together; a prefix before one UUID is a record's
/// id.
#[test]
fn a_prefix_before_two_uuids() {
    let key = "luma-6a7887dd-454d-437a-a2db-cee0a9c2e3bb-e570c964-e292-490a-a7c5-6e9e7fec567a";
    let text = format!("const c = new Client('{key}', {{ app: 'x' }});");
    assert!(!redact(&text).0.contains(key), "{}", redact(&text).0);
    let clean = "order: order-6a7887dd-454d-437a-a2db-cee0a9c2e3bb shipped";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 84th sealed part (after its first run): a key's id and secret written as one
/// word, `<uuid>:<32 hex>`, in a chat line, a comment or a table cell; a UUID alone, or two
/// joined, are ids.
#[test]
fn an_id_and_secret_joined_by_a_colon() {
    let key = "18fc72cf-c933-4b2d-959b-2f61451436e0:0f3390b20be3bc786912e9c22b5bc671";
    for text in [
        format!("[09:47] kofi: here's the key for the staging box: {key}"),
        format!("| svc | prod | {key} |"),
    ] {
        assert!(
            !redact(&text).0.contains("0f3390b20be3bc786912e9c22b5bc671"),
            "{}",
            redact(&text).0
        );
    }
    for clean in [
        "job 18fc72cf-c933-4b2d-959b-2f61451436e0 finished",
        "link 18fc72cf-c933-4b2d-959b-2f61451436e0:6a7887dd-454d-437a-a2db-cee0a9c2e3bb",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 84th sealed part (after its first run): a CLI that stores a key under a
/// profile's name takes it as the last positional argument (`snapi profile add prod
/// 9a0255af-…`, `newsdata profile add prod pub_6117…`); a profile added from a file or with
/// a region is no key.
#[test]
fn a_key_stored_under_a_profiles_name() {
    for (text, key) in [
        (
            "$ snapi profile add kentmaximus-prod 9a0255af-87e0-456c-9b15-c5bb75f9f37c",
            "9a0255af-87e0-456c-9b15-c5bb75f9f37c",
        ),
        (
            "$ acme credentials add ci wltQ7DM9NmJSjoy1zcAXQgToO2Lk7989",
            "wltQ7DM9NmJSjoy1zcAXQgToO2Lk7989",
        ),
    ] {
        assert!(!redact(text).0.contains(key), "{}", redact(text).0);
    }
    for clean in [
        "$ acme profile add staging ./profiles/staging.toml",
        "$ acme profile set prod region eu-west-1",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 84th sealed part (after its first run): a UUID a sentence calls a key (`a
/// Leonardo.Ai key, c3de1bc0-…, was printed`) is that key; a primary key's or an idempotency
/// key's UUID, and a UUID named as a job's, are ids.
#[test]
fn a_uuid_called_a_key_in_prose() {
    let text = "- 14:02 UTC a Leonardo.Ai key, c3de1bc0-e9dc-4553-bbe0-102f783bdafd, was printed by the worker";
    assert!(
        !redact(text).0.contains("c3de1bc0-e9dc"),
        "{}",
        redact(text).0
    );
    for clean in [
        "the row with primary key c3de1bc0-e9dc-4553-bbe0-102f783bdafd was updated",
        "retry with idempotency key c3de1bc0-e9dc-4553-bbe0-102f783bdafd",
        "job c3de1bc0-e9dc-4553-bbe0-102f783bdafd finished",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 85th sealed part (after its first run): `cred` as a name of its own is a
/// credential's (`cred='…'` in a client's config, `+    cred: "…"` in a diff, an
/// `X-Relay-Cred:` header); `credit` is not.
#[test]
fn cred_as_a_name_of_its_own() {
    for (text, key) in [
        (
            "ClientConfig(base='https://api.acme.example', cred='7538aaa346cb88f09d8c6302aa8e986260940d2c13f14744197c9e3ff378cfa7', retries=3)",
            "7538aaa346cb",
        ),
        (
            "+    cred: \"542af5fc-300a-48c8-8e1d-6922acb8ed7e\"",
            "542af5fc",
        ),
        (
            "X-Relay-Cred: 60a33a0d-99dc-409e-a177-39a28ba8e9e4",
            "60a33a0d",
        ),
    ] {
        assert!(!redact(text).0.contains(key), "{}", redact(text).0);
    }
    for clean in [
        "credit_card: \"4111 1111 1111 1111\"",
        "credits = 5000",
        "incredible: \"542af5fc-300a-48c8-8e1d-6922acb8ed7e\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 85th sealed part (after its first run): a credential's name given a
/// here-document of one line (HCL's `auth = <<-EOT`, a YAML block's `token: |`) has that line
/// as its value; a here-document given to a name that means no credential is text.
#[test]
fn a_one_line_here_document_under_a_credentials_name() {
    for (text, key) in [
        (
            "upstreams = {\n  acme = {\n    auth = <<-EOT\n      6fe9a2d2-a1d4-4fd8-acc1-04c7b4147f0b\n    EOT\n  }\n}",
            "6fe9a2d2",
        ),
        (
            "token: |\n  eca8f6b2215b975cc652b5580b74efd6143c0adba2bb8180971f400bfda6a17e\nx: 1",
            "eca8f6b2",
        ),
    ] {
        assert!(!redact(text).0.contains(key), "{}", redact(text).0);
    }
    for clean in [
        "description = <<-EOT\n  6fe9a2d2-a1d4-4fd8-acc1-04c7b4147f0b\nEOT",
        "auth = <<-EOT\n  ${var.acme_token}\nEOT",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the shape property test (given this stop's new rule's example): two shape checks
/// skipped texts their rules match (a single-dash password flag followed by a tab, a fallback's
/// value after `??`), which only other rules' matches covered. The seeds replay from
/// proptest-regressions; this asks the shapes directly.
#[test]
fn shape_checks_admit_a_tab_after_a_password_flag_and_a_fallback() {
    for (rule, text) in [
        ("password-flag", "acme-tool -dbpassword\tEzmyLYF_fq5rJgFO"),
        (
            crate::rules::GENERIC_ASSIGNMENT,
            "const token = process.env.ACME_TOKEN ?? `Qm3vT8xLr2Zp9sKw`;",
        ),
    ] {
        let (_, lowered) = prepare(text);
        let rule = builtin_rules()
            .iter()
            .find(|r| r.name == rule)
            .expect("a built-in rule");
        assert!(
            rule.shape.admits(text, &lowered),
            "{} skips {text:?}",
            rule.name
        );
    }
}

/// Found by the 85th sealed part (after its first run): a request collection's API-key auth
/// holds the key in a list of pairs named for it, under the pair keyed `value` (`"apikey":
/// [{"key": "value", "value": "…"}, {"key": "key", "value": "X-Api-Key"}]`), in either order;
/// the header's name beside it, and a list named for no credential, stay.
#[test]
fn a_key_in_a_list_of_pairs_named_for_it() {
    for text in [
        "\"apikey\": [\n  {\"key\": \"value\", \"value\": \"gWZUgYDJ6LMk7D4H3Jneho5SBIRwzLRC\", \"type\": \"string\"},\n  {\"key\": \"key\", \"value\": \"X-Api-Key\", \"type\": \"string\"}\n]",
        "\"apikey\": [\n  {\"key\": \"key\", \"value\": \"X-Api-Key\", \"type\": \"string\"},\n  {\"key\": \"value\", \"value\": \"gWZUgYDJ6LMk7D4H3Jneho5SBIRwzLRC\", \"type\": \"string\"}\n]",
    ] {
        let out = redact(text).0;
        assert!(!out.contains("gWZUgYDJ6LMk"), "{out}");
        assert!(out.contains("X-Api-Key"), "{out}");
    }
    let clean = "\"headers\": [{\"key\": \"value\", \"value\": \"application-json-utf8\"}]";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 85th sealed part (after its first run): a CSV export's column headed `cred`
/// holds credentials, as one headed `token` does; a column of a word containing it (`credit`)
/// does not.
#[test]
fn a_csv_column_headed_cred() {
    let text = "svc,env,cred,rot_dt,own\nacme,prod,yHZzL8uGDt9yGgOT4IaguXSDk5AL5Ty5,2026-11-22,ops\nacme,stg,,2026-10-24,ops";
    assert!(
        !redact(text).0.contains("yHZzL8uGDt9y"),
        "{}",
        redact(text).0
    );
    let clean =
        "svc,env,credit,rot_dt,own\nacme,prod,yHZzL8uGDt9yGgOT4IaguXSDk5AL5Ty5,2026-11-22,ops";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 85th sealed part (after its first run): an SQL `UPDATE` of a key-value
/// settings table sets a credential when its `WHERE` names the setting for one (`SET val =
/// '…' WHERE k = 'acme.auth'`); the same statement for a setting named for nothing (a theme)
/// stays.
#[test]
fn an_update_of_a_setting_named_for_a_credential() {
    let text = "UPDATE integration_settings\n   SET val = 'c17e8c865ad7c9b477144d61a55555ed74a6f695', updated_at = now()\n WHERE ns = 'acme' AND k = 'baselime.auth';";
    assert!(
        !redact(text).0.contains("c17e8c865ad7"),
        "{}",
        redact(text).0
    );
    for clean in [
        "UPDATE wp_options SET option_value = 'c17e8c865ad7c9b477144d61a55555ed74a6f695' WHERE option_name = 'theme_mods_hash';",
        "UPDATE settings SET val = 'Twenty Twenty-Four' WHERE k = 'api.key_rotation_note';",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 85th and 86th sealed parts (after their first runs): a JWT with no signature,
/// its header saying `alg: none` (`header.payload.`), is no credential, wherever it stands
/// (after "token" in prose too); a signed one is.
#[test]
fn an_unsigned_jwt_is_no_credential() {
    let clean = "Never accept tokens like eyJhbGciOiJub25lIn0.eyJzdWIiOiJ0ZXN0In0. (alg none) in the gateway.";
    assert_eq!(redact(clean).0, clean);
    let signed = "the token is eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.PWvHogU5nGYVHWVsUQk4DwgLGNOaeCtL31Ugq_Dfcga";
    assert!(
        !redact(signed).0.contains("PWvHogU5"),
        "{}",
        redact(signed).0
    );
}

/// Found by the 86th sealed part (after its first run): a query parameter named for signing
/// (`ci_sign=`, an image CDN's) carries a URL's signature as `…sig=` and `…signature=` do,
/// also after an encoded `&` (`%26ci_sign=`, a URL inside another's query); a parameter that
/// only ends in the letters (`design=modern`) does not.
#[test]
fn a_signing_query_named_sign() {
    for text in [
        "<img src=\"https://acme.cloudimg.io/v7/a/b.jpg?width=800&ci_sign=1c4720fdeb2aa2656c0bc1a2419e72945f008ff9\">",
        "GET /proxy?src=https://acme.cloudimg.io/v7/a/b.jpg?width=800%26ci_sign=1c4720fdeb2aa2656c0bc1a2419e72945f008ff9 HTTP/1.1",
    ] {
        assert!(
            !redact(text).0.contains("1c4720fdeb2a"),
            "{}",
            redact(text).0
        );
    }
    let clean = "https://shop.example/catalogue?design=modern&page=2";
    assert_eq!(redact(clean).0, clean);
}

/// Found reading the 95th sealed part's misses: a signed URL's separator escaped before a
/// prefixed name (`%26x-amz-signature=` in a URL inside another's query, `\u0026X-Amz-Signature=`
/// in JSON Go's encoder wrote) still opens the signing query; before, the name was read back
/// from inside the escape (`26x-amz-signature`) as a published signature's, and `\u0026` was
/// no separator at all.
#[test]
fn a_signing_query_after_an_escaped_separator() {
    let sig = "3f2a9c8e7d6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a09";
    for text in [
        format!(
            "GET /go?to=https://b.s3.amazonaws.com/o?X-Amz-Date=20261206T000000Z%26x-amz-signature={sig} HTTP/1.1"
        ),
        format!(
            "{{\"url\":\"https://b.s3.amazonaws.com/o?X-Amz-Expires=3600\\u0026X-Amz-Signature={sig}\"}}"
        ),
        format!("https://b.s3.amazonaws.com/o%3FX-Amz-Signature={sig}"),
    ] {
        assert!(!redact(&text).0.contains(&sig[..12]), "{}", redact(&text).0);
    }
    // A signature published beside what it signs stays, escaped or not.
    let clean = format!("{{\"file\":\"a.tar.gz\",\"signature\":\"{sig}\"}}");
    assert_eq!(redact(&clean).0, clean);
}

/// Found by the 96th sealed part's first run: a URL encoded whole into another's query writes
/// every `=` as `%3D` (an Azure SAS link in a `return_to=`: `…%26sig%3D7JSJ…%253D`), and a
/// token after `%3D` has no word's edge before it (`client_assertion%3DeyJ…` in an access log).
#[test]
fn percent_encoded_signing_queries_and_tokens() {
    let jwt = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiI2YTQ0ODJkZi05YmM1In0.E2bHe7ObBd0-NfeRQ1aeoODcqIuDZKk5U3nT0uTRHwZjCiAcWX76";
    let sas = "7JSJrMsQkcUahhxsCXJRRtrsJ7abowwx2%252FY%252FJWELicM%253D";
    for (text, secret) in [
        (
            format!(
                "GET /cms/preview?return_to=https%3A%2F%2Facme.blob.core.windows.net%2Fc%2Fa.jpg%3Fsp%3Dr%26sv%3D2022-11-02%26sr%3Db%26sig%3D{sas}&mode=embed HTTP/1.1"
            ),
            &sas[..12],
        ),
        (
            format!(
                "10.4.1.22 - - \"GET /lti/debug?replay=client_id%3D6a44%26client_assertion%3D{jwt} HTTP/1.1\" 200"
            ),
            &jwt[..20],
        ),
    ] {
        assert!(!redact(&text).0.contains(secret), "{}", redact(&text).0);
    }
    // An encoded query with no signature in it stays.
    let clean = "GET /go?to=https%3A%2F%2Facme.example%2Fa%3Fdesign%3Dmodern%26page%3D2 HTTP/1.1";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 96th sealed part's first run (four misses): a load tester's plan names a
/// header or a variable in one element and holds its value in the next, each told apart by a
/// `name` attribute (JMeter's `<stringProp name="Header.name">x-api-key</stringProp>` then
/// `<stringProp name="Header.value">…</stringProp>`, and `Argument.name`/`Argument.value`).
/// A pair naming no credential stays.
#[test]
fn a_credential_in_sibling_elements_named_for_its_halves() {
    for (name, value) in [
        ("x-api-key", "Vqt/927351b8ff557e9d2fcaf52d004f3dc0"),
        (
            "api_key",
            "FHHvnUS8AEJP4sxa3KcJxzMCDOA0KhUTbm4cWh0D24qEodxs",
        ),
    ] {
        let text = format!(
            "<elementProp name=\"\" elementType=\"Header\">\n  <stringProp name=\"Header.name\">{name}</stringProp>\n  <stringProp name=\"Header.value\">{value}</stringProp>\n</elementProp>"
        );
        assert!(!redact(&text).0.contains(value), "{}", redact(&text).0);
    }
    let clean = "<stringProp name=\"Header.name\">X-Request-Id</stringProp>\n<stringProp name=\"Header.value\">3f6c2a1e-9b7d-4e5f-8a2c-1d0e9f8b7a6c</stringProp>";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 96th sealed part's first run (four misses): an HTTP client file defines a value
/// under a name that says nothing (`@secretHeader = …`) and sends it by reference where a
/// header names it (`api-key: {{secretHeader}}`); judged with the value in its place, the
/// definition is redacted. A reference sent where nothing names a secret, and a placeholder
/// defined, stay.
#[test]
fn a_value_defined_once_and_sent_by_reference() {
    for (text, secret) in [
        (
            "@baseUrl = https://api.acme.example\n@secretHeader = ac832232-5e98-4682-b7b5-7444a2139426\n\n###\nGET {{baseUrl}}/v2/surveys\napi-key: {{secretHeader}}",
            "ac832232-5e98",
        ),
        (
            "vars {\n  k1: sUfTTvmo4dcr5Xz0XslbXoQLmGovifc2K_3gvuLh\n}\nheaders {\n  x-acme-client-secret: {{k1}}\n}",
            "sUfTTvmo4dcr5",
        ),
    ] {
        assert!(!redact(text).0.contains(secret), "{}", redact(text).0);
    }
    for clean in [
        "@pageSize = 3f6c2a1e9b7d4e5f8a2c1d0e9f8b7a6c\nGET https://api.acme.example/items?page={{pageSize}}",
        "@secretHeader = <your-api-key>\nGET https://api.acme.example/v2\napi-key: {{secretHeader}}",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 97th sealed part's first run (a look-alike redacted): an entity tag named for
/// what it versions (`secret_etag: "2319c0ab6f2e8c59"` beside a secret manager's version path)
/// is the version's id, not the secret.
#[test]
fn an_entity_tag_named_for_a_secret_is_no_secret() {
    let clean = "api_token_secret: projects/acme-data/secrets/api-token/versions/39\nsecret_etag: \"2319c0ab6f2e8c59\"";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 97th sealed part's first run (three misses): a YAML flow mapping named for a
/// credential holds it in its `default` (an MLproject's parameter: `api_token: {type: string,
/// default: "…"}`), as a block mapping does. A flow mapping naming none stays.
#[test]
fn a_credential_in_a_flow_mapping_default() {
    let text = "entry_points:\n  main:\n    parameters:\n      acme_api_token: {type: string, default: \"5e1d4353f0c753809eb49cb836378696\"}\n    command: \"python train.py\"";
    assert!(
        !redact(text).0.contains("5e1d4353f0c7"),
        "{}",
        redact(text).0
    );
    let clean = "parameters:\n  horizon: {type: int, default: 28}\n  run_id: {type: string, default: \"5e1d4353f0c753809eb49cb836378696\"}";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 96th sealed part's first run (a look-alike redacted): a flag handed `NAME=VALUE`
/// whose value is a reference (Hurl's `--secret api_token=$API_TOKEN`) carries no secret; the
/// same flag given a value still does.
#[test]
fn a_named_reference_handed_to_a_secret_flag_is_a_placeholder() {
    let clean = "hurl --variable base_url=https://x --secret api_token=$API_TOKEN me.hurl";
    assert_eq!(redact(clean).0, clean);
    let text = "hurl --secret api_token=Zx81kQ0pLm27VbN4cD9e me.hurl";
    assert!(!redact(text).0.contains("Zx81kQ0p"), "{}", redact(text).0);
}

/// Found by the 96th sealed part's first run (two misses): under Hurl's `[BasicAuth]` heading
/// each line is a user and a password (`svc-acme: DWU-XllkBNZV9~731FlD`), the pair a URL writes
/// as `user:password@host`, and judged so. A line that is no pair, or a word no URL's rule
/// takes for a password, stays; so do the same lines under another heading.
#[test]
fn a_pair_under_a_basic_auth_heading() {
    let text = "GET https://acme.example/api/orders\n[BasicAuth]\nsvc-acme: DWU-XllkBNZV9~731FlD\nHTTP 200\n[Asserts]\nheader \"Content-Type\" contains \"json\"";
    assert!(
        !redact(text).0.contains("DWU-XllkBNZV9"),
        "{}",
        redact(text).0
    );
    for clean in [
        "GET https://acme.example/api\n[BasicAuth]\nuser: {{password}}\nHTTP 200",
        "GET https://acme.example/api\n[Options]\nsvc-acme: DWU-XllkBNZV9~731FlD\nHTTP 200",
        "[basic_auth]\nmethod: token",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 98th sealed part's first run (a look-alike redacted): a digest after its
/// algorithm's name as a YAML or JSON key (electron-builder's `latest.yml`, `sha512:
/// bTPd…==`; `"sha512": "…"`) is a published checksum, as `sha512-…` and `sha512=…` were.
#[test]
fn a_digest_under_its_algorithms_key_is_public() {
    let digest =
        "bTPdZ05RV8cu0pU5rj0NXeh/+dnPPc/MDXmEmJAZW/KTgfRGBDjtqCyqKqSlgtVLA60L95nYezgc6clCfoza4w==";
    for clean in [
        format!("files:\n  - url: Setup-0.9.3.exe\n    sha512: {digest}\n    size: 88213004"),
        format!("{{\"sha512\": \"{digest}\"}}"),
    ] {
        assert_eq!(redact(&clean).0, clean);
    }
}

/// Found by the 98th sealed part's first run (a look-alike redacted): a minisign signature file
/// (Tauri's updater `.sig`: an untrusted comment saying `signature from tauri secret key`, the
/// signature, a trusted comment, the global signature) holds signatures anyone verifies. The
/// secret key file, whose comment says `secret key` and no signature, is still redacted.
#[test]
fn lines_under_a_signature_comment_are_public() {
    let clean = "untrusted comment: signature from tauri secret key\nRWQJu5v1ukbB2rAiKRvxyfmLAnqOdpoH32zrBDZj7cTw//0/xgy2+GXdudovzVu0zePCADp94HaRf+jZhaof9dVhR4pjIiUYw9A=\ntrusted comment: timestamp:1796572090\tfile:App_0.9.3_x64.msi\n75bym9ZgSfkC18LrrggA728bssIsmYeCIeXet2sEW5Y78EeJ/+J5rRoqUigXFrZIjWXNzVAgEaKYVn5QkQpjhg==";
    assert_eq!(redact(clean).0, clean);
    let key = "RWRTY0IyFoqUigXFrZIjWXNzVAgEaKYVn5QkQpjhg75bym9ZgSfkC18LrrggA728bssIsmYeCIeXet2sEW5Y78EeJ/+J5rRoqUigXFrZIjWXNzVAgEaKYVn5QkQpjhg75bym9ZgSfkC18LrrggA728bssIsmYeCIeXet2sEW5Y78==";
    let text = format!("untrusted comment: minisign encrypted secret key\n{key}");
    assert!(!redact(&text).0.contains(&key[..20]), "{}", redact(&text).0);
}

/// Found by the 98th sealed part's first run (a miss): a URL with a login, percent-encoded
/// whole into a dashboard's query (`var-server=nats%3A%2F%2Fsvc%3A<password>%40host`), keeps
/// its password there. An encoded URL with only a user, or a port, stays.
#[test]
fn a_password_in_a_percent_encoded_url() {
    let text = "https://grafana.acme.internal/d/nats?var-server=nats%3A%2F%2Fsvc-acme%3A_KU7AgMva_SmCFfabrZ%40nats.acme.internal%3A4222&orgId=1";
    assert!(!redact(text).0.contains("_KU7AgMva"), "{}", redact(text).0);
    for clean in [
        "https://grafana.acme.internal/d/nats?var-server=nats%3A%2F%2Fnats.acme.internal%3A4222&orgId=1",
        "/go?to=https%3A%2F%2Fsvc-acme%40acme.example%2Fa",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 99th sealed part's first run (two misses): a PuTTY key's private lines kept in
/// a JSON string (line breaks escaped as `\n`: the rule wanted two backslashes) or indented
/// in a YAML block (`key: |`) are the private key, as in a `.ppk` file.
#[test]
fn a_putty_key_escaped_in_json_or_indented_in_yaml() {
    let private = "AAABAAi2ajcZgibj2dl7yXKOhRIlomt6S50w83iqUT8zXMOzs1pxsBFo";
    let json = format!(
        "{{\"private_key\": \"PuTTY-User-Key-File-3: ssh-rsa\\nEncryption: none\\nPublic-Lines: 1\\nAAAAB3NzaC1yc2EAAAADAQAB\\nPrivate-Lines: 2\\n{private}\\nbmbcf6TZHcTyhp0jdCLfTptSRTvf\\nPrivate-MAC: 0a1b\"}}"
    );
    let yaml = format!(
        "auth:\n  key: |\n    PuTTY-User-Key-File-3: ssh-rsa\n    Private-Lines: 2\n    {private}\n    bmbcf6TZHcTyhp0jdCLfTptSRTvf\n    Private-MAC: 0a1b"
    );
    for text in [json, yaml] {
        let out = redact(&text).0;
        assert!(
            !out.contains(&private[..24]) && !out.contains("bmbcf6TZHcTy"),
            "{out}"
        );
    }
}

/// Found by the 99th sealed part's first run (a miss): an account's number, a colon and a hex
/// body under a credential's name (`token=7775446:1d2a8c…`, a chat platform's page token) is
/// the token; a port or a time under the same name is not.
#[test]
fn an_account_number_and_hex_body_under_a_token_name() {
    let text =
        "[manychat]\npage_id=794622112825502\ntoken=7775446:1d2a8c412347ca6d5cc261a14240ccd7";
    assert!(!redact(text).0.contains("1d2a8c4123"), "{}", redact(text).0);
    for clean in ["token_ttl=3600:1800", "token_host=localhost:8080"] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 86th sealed part (after its first run): a failing test prints the value it
/// found opposite the mask it expected (Jest's `Expected: "<masked>"` / `Received: "…"`,
/// pytest's `{'x-upstream': '…'} == {'x-upstream': '<redacted>'}`): that value is the
/// credential, whatever it is called. Two ordinary values compared stay.
#[test]
fn a_value_a_failing_test_prints_opposite_a_mask() {
    for (text, key) in [
        (
            "    Expected: \"<masked>\"\n    Received: \"ca59086dc58718df169a4e86d19af465a3f98b2876f13d74b84f2c85690aa155\"",
            "ca59086dc587",
        ),
        (
            "AssertionError: assert {'x-upstream': '090c6742-7383-4867-bd21-5f1512e53c8b'} == {'x-upstream': '<redacted>'}",
            "090c6742-7383",
        ),
    ] {
        assert!(!redact(text).0.contains(key), "{}", redact(text).0);
    }
    for clean in [
        "    Expected: \"2026-12-05T10:00:00Z\"\n    Received: \"2026-12-05T10:00:01Z\"",
        "assert {'etag': '090c6742-7383-4867-bd21-5f1512e53c8b'} == {'etag': 'abc'}",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 86th sealed part (after its first run): a prefixed token whose secret follows
/// its id after a dot (`secret_<name>_<hex>.<random>`) is one token, taken whole; a dotted
/// name of lower-case words (a package's, a host's) is not.
#[test]
fn a_prefixed_token_with_a_dotted_secret() {
    let text = "Chiave API\nsecret_acmemaps_5a7b26f481ca595e1ecfddb38b61b771.R5Bk10x0LgX0cDX308Aphoty3jxb9LHj\nCreata il 28/11/2026";
    let out = redact(text).0;
    assert!(
        !out.contains("5a7b26f481ca") && !out.contains("R5Bk10x0LgX0"),
        "{out}"
    );
    let clean = "import org_example_utilities_collections.immutable_sorted_multimap_builders";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 86th sealed part (after its first run): a block named for a credential holds
/// it in a field named for a value (protobuf's text format `auth { static_value: "…" }`, HCL's
/// `auth { value = "…" }`); a block named for nothing keeps its value.
#[test]
fn a_value_field_in_a_block_named_for_a_credential() {
    for text in [
        "upstream {\n  name: \"acme\"\n  auth {\n    static_value: \"1a03o0c6h03zax2ri9ndm9dbvuw80e1c\"\n  }\n}",
        "auth {\n  value = \"1a03o0c6h03zax2ri9ndm9dbvuw80e1c\"\n}",
    ] {
        assert!(
            !redact(text).0.contains("1a03o0c6h03z"),
            "{}",
            redact(text).0
        );
    }
    let clean = "retry {\n  static_value: \"1a03o0c6h03zax2ri9ndm9dbvuw80e1c\"\n}";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 86th sealed part (after its first run): a form body names its fields
/// percent-encoded (`f%5Bauth%5D=…` for `f[auth]=…`): a credential's name all the same, and
/// the value ends at the next field (`&f%5Bretries%5D=3`), which stays.
#[test]
fn a_percent_encoded_form_field_named_for_a_credential() {
    let text = "workspace=acme&endpoint=https%3A%2F%2Fapi.acme.example%2Fv1&f%5Bauth%5D=-Bv2wud4Svltx2pyc2ny-bfpssm_FVXfInz2oi_C2J3&f%5Bretries%5D=3&save=1";
    let out = redact(text).0;
    assert!(!out.contains("Bv2wud4Svltx"), "{out}");
    assert!(out.contains("&f%5Bretries%5D=3&save=1"), "{out}");
    let clean = "workspace=acme&f%5Bauthor%5D=Ada+Lovelace&save=1";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 86th sealed part (after its first run): a message that hands over a
/// credential ends its line with it after a colon, perhaps wrapped in Markdown (`new acme cred
/// for the team, use this until the vault sync is done: `<uuid>``, `*…*`, `__…__`): the
/// random word is the credential, a UUID or hex included. A setting's or a header's line
/// (`Idempotency-Key: <uuid>`), or a sentence about an id, is not such a message.
#[test]
fn a_value_a_message_hands_over_as_a_credential() {
    for (text, key) in [
        (
            "new acme cred for the team workspace, use this until the vault sync is done: `a5d9de52-a2fc-4b16-97ad-19f2ce3f4ed3`",
            "a5d9de52",
        ),
        (
            "new acme cred for the team workspace, use this until the vault sync is done: *3rYzy8FFGgaGbQUfwhEngHt6O3TyL7M8MZpArOTR*",
            "3rYzy8FF",
        ),
    ] {
        assert!(!redact(text).0.contains(key), "{}", redact(text).0);
    }
    for clean in [
        "Idempotency-Key: b58b23cb-e472-4482-803a-0be9579dd0f9",
        "the request id of the failed token refresh was: b58b23cb-e472-4482-803a-0be9579dd0f9",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 86th sealed part (after its first run): a Go table test declares its cases'
/// fields by name (`cred string`) and lists each case by position (`{"prod", "api.acme.example",
/// "…", 200}`): the value in a credential field's place is the credential. A table whose fields
/// name no credential keeps its values.
#[test]
fn a_value_given_by_position_to_a_credential_field() {
    let text = "func TestUpstream(t *testing.T) {\n\tcases := []struct {\n\t\tname string\n\t\thost string\n\t\tcred string\n\t\twant int\n\t}{\n\t\t{\"prod\", \"api.acme.example\", \"b231bc43-401a-4e96-a9bd-036b4b8c3681\", 200},\n\t\t{\"empty\", \"api.acme.example\", \"\", 401},\n\t}";
    assert!(!redact(text).0.contains("b231bc43"), "{}", redact(text).0);
    let clean = "cases := []struct {\n\tname string\n\thost string\n\tetag string\n}{\n\t{\"prod\", \"api.acme.example\", \"b231bc43-401a-4e96-a9bd-036b4b8c3681\"},\n}";
    assert_eq!(redact(clean).0, clean);
}

/// The positional scanner's window ends inside a text of many-byte characters without
/// panicking (its limit, 8 KB after a declaration, may fall inside one).
#[test]
fn a_struct_table_window_ends_on_a_character() {
    let text = format!("x := []struct {{\n\tcred string\n}}{{{}", "é".repeat(5000));
    let _ = redact(&text);
}

/// Found by the 88th sealed part (after its first run): a name that ends in a key's
/// abbreviation (`ACME_K`, `-Dacme.k`, `ak`, `sk`) holds a key when a long generated value is
/// set to it with `=`, or handed beside it as a pair's second item (`define('ACME_K', '…')`).
/// One letter says little: a short value, a number and a word keep theirs, and so does a
/// flag given a value with a blank (`sort -k 2`).
#[test]
fn a_value_under_a_keys_abbreviation() {
    for (text, key) in [
        (
            "java -Dacme.k=d33f9acd34ef0f11e7cf39f446a034fe6d33a81e -jar /opt/acme/sync.jar",
            "d33f9acd34ef",
        ),
        (
            "*/10 * * * * cd /srv/acme && ACME_K='vzJYe1TfyyVE9qBx1wyfBmSHrDZvNRu0UsU7M0mJ' ./bin/pull",
            "vzJYe1Tfyy",
        ),
        (
            "kubectl create secret generic acme --from-literal=ak=Y8uJioT4HC9F9LfOUeVvHJ54Ym8Etsj857fr",
            "Y8uJioT4HC9F",
        ),
        (
            "define( 'ACME_K', '190eedfe58a921ab52f2546fabd7f4f78d918492' );",
            "190eedfe58a9",
        ),
    ] {
        assert!(!redact(text).0.contains(key), "{}", redact(text).0);
    }
    for clean in [
        "sort -t, -k=2 data.csv",
        "ACME_K=20 ./bin/pull",
        "plot.k=interpolation_smoothing_window",
        "curl -k https://localhost:8443/health",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 89th sealed part (after its first run): a credential named in markup holds
/// its value in the element's text: Android's `<string name="acme_cred" translatable="false">…
/// </string>`, a plist's `<key>AcmeK</key>` then `<string>…</string>` (a key's abbreviation in
/// camel case), and Gradle's `buildConfigField("String", "ACME_K", "\"…\"")` quotes a quoted
/// string. Ordinary strings of the same files keep theirs.
#[test]
fn a_value_named_in_markup() {
    for (text, key) in [
        (
            "<string name=\"acme_cred\" translatable=\"false\">7A758CF2-B925-421E-BDF0-DD674A929800</string>",
            "7A758CF2",
        ),
        (
            "<string name=\"acme_k\" translatable=\"false\">e04d288f13f4b33bbf9e2d6dbb24a787</string>",
            "e04d288f13f4",
        ),
        (
            "\t<key>AcmeK</key>\n\t<string>dm6YZR86eWTaBxyabd84NGMhQ4rf88Y0SlY7SxbD</string>",
            "dm6YZR86eWTa",
        ),
        (
            "buildConfigField(\"String\", \"ACME_K\", \"\\\"8BibgApoIkbVnDbusFUgEkQfIOgof2kJeBSFc85C\\\"\")",
            "8BibgApoIkbV",
        ),
    ] {
        assert!(!redact(text).0.contains(key), "{}", redact(text).0);
    }
    for clean in [
        "<string name=\"app_name\">Acme Till</string>",
        "<string name=\"acme_k\">Try again</string>",
        "\t<key>CFBundleShortVersionString</key>\n\t<string>3.7.0</string>",
        "\t<key>AcmeBaseURL</key>\n\t<string>https://api.acme.example</string>",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 89th sealed part (after its first run): a link that expires carries the
/// digest that proves it was issued, under whatever name: nginx's secure links (`?md5=…
/// &expires=…`, even though `md5=` elsewhere names a published checksum), a CDN's `?e=…&h=…`,
/// also percent-encoded inside another URL's query and ended by a CSV's comma. A link with no
/// expiry keeps its checksum, and one with an expiry keeps its short or plain values.
#[test]
fn the_digest_of_a_link_that_expires() {
    for (text, key) in [
        (
            "mpv \"https://cdn.acme.example/a.jpg?md5=xSsqF3gQH2D1jZCSXLhQcg&expires=1797119674\"",
            "xSsqF3gQH2D1",
        ),
        (
            "GET /go?to=https://v.acme.example/a.mp4%3Fe%3D1796508958%26h%3D526c41fd39aa9fb5dd93b26f477af28e HTTP/1.1",
            "526c41fd39aa",
        ),
        (
            "sku,url\nX-1,https://cdn.acme.example/b.jpg?md5=ogq4XojZVp5yfvFOeEhTfg&expires=1796709570,2026-12-07",
            "ogq4XojZVp5y",
        ),
    ] {
        assert!(!redact(text).0.contains(key), "{}", redact(text).0);
    }
    for clean in [
        "https://dl.acme.example/app.dmg?md5=6sEdF0EP1oGHbF0tjqS2gA",
        "https://cdn.acme.example/a.jpg?w=800&expires=1797119674&format=webp",
        "https://cdn.acme.example/a.jpg?id=4f9c2a1b-8d7e-4c3b-9a2f-1e0d5c6b7a89&expires=1797119674",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 89th sealed part (after its first run): HTTP Basic credentials written
/// anywhere, not only after `Authorization:` (a cache's `HSET … auth "Basic …"`), are a login:
/// base64 that decodes to `user:password`. Base64 after `Basic` that decodes to no login, or
/// to a documented default, keeps its place.
#[test]
fn basic_credentials_wherever_written() {
    let text = "HSET upstream:acme auth \"Basic YWNtZS1zeW5jOlRyNHFMOXdadjJLbTdQeFI=\" ttl 900";
    assert!(
        !redact(text).0.contains("YWNtZS1zeW5j"),
        "{}",
        redact(text).0
    );
    for clean in [
        "WWW-Authenticate: Basic realm=\"acme\", charset=\"UTF-8\"",
        "auth \"Basic dXNlcjpwYXNzd29yZA==\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 90th sealed part (after its first run): a credential header named as one
/// string and its value as the next, in whatever syntax holds the pair (Kotlin's `to`, EDN's
/// map, Erlang's binaries, MATLAB's cell, an XML-RPC struct's next `<string>`, a SOAP header's
/// element text): the value's generated words are the credential. A value given by reference,
/// a header that only names a key (`Idempotency-Key`), and a field named with `_` are not read
/// here. And HTTP Basic credentials whose user is the key (`sk_live_…:`, `<hex>:X`) are one.
#[test]
fn a_credential_header_named_apart_from_its_value() {
    for (text, key) in [
        (
            "val h = mapOf(\"X-Acme-Token\" to \"acme-2127:21e249090666c6cedc2201f4e7c78c8e\")",
            "21e249090666",
        ),
        (
            "{:sync/headers {\"Authorization\" \"chave_api 5wrnzgl9z6ecqvb7ky3n aplicacao ae1931e8-cbba-4739-af8d-50406ea20532\"}}",
            "5wrnzgl9z6ec",
        ),
        (
            "{headers, [{<<\"X-Access-Token\">>, <<\"e35c30d38d00fd46be2aba77466a1ce100e671b4\">>}]}",
            "e35c30d38d00",
        ),
        (
            "<member><name>header</name><value><string>X-Auth-Token</string></value></member>\n<member><name>value</name><value><string>7b8021fe-439f-47f4-b1f5-fb7b3bc4c7a3</string></value></member>",
            "7b8021fe-439f",
        ),
        (
            "<gw:Header name=\"Authorization\">acme-1277:679dad90d9123dc2d67983686fea3668</gw:Header>",
            "679dad90d912",
        ),
        (
            "<gw:Header name=\"Authorization\">Basic ZWE0NDIyN2I4YTRjM2I5ZDU2ZjExZDhjM2EzNDc3MWQ4N2Q1MmNmNDpY</gw:Header>",
            "ZWE0NDIyN2I4",
        ),
    ] {
        assert!(!redact(text).0.contains(key), "{}", redact(text).0);
    }
    for clean in [
        "headers: {\"W-Token\": \"\\(secrets.apiKey)\", \"W-UserId\": \"16948770\"}",
        "Idempotence-Key: 8c925f43-c909-41d8-9996-8f01fe1524e2",
        "val h = mapOf(\"Idempotency-Key\" to \"8c925f43-c909-41d8-9996-8f01fe1524e2\")",
        "{\"token_address\": \"0x7a5ac1f490f0a2a5217cc54c419b0e4008fe8fca\"}",
        "val h = mapOf(\"Authorization\" to \"Bearer ${ACME_TOKEN}\")",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 90th sealed part (after its first run): a key sent as the user beside a dummy
/// password, as APIs that take their key by HTTP Basic ask, is the credential, in any syntax
/// (a Dhall record, systemd's `Environment=`, MATLAB's `weboptions`). A generated user beside
/// a real password, or a user that is a word, is a login's name.
#[test]
fn a_key_sent_as_the_user() {
    for (text, key) in [
        (
            "auth = Auth.Basic { user = \"91356e62e7fe3fe45a552a3ad0a156574c0d1550\", pass = \"X\" }",
            "91356e62e7fe",
        ),
        (
            "Environment=\"ACME_USER=2HhtQzJblHVsakzuBdh79YsoR8gPDgM5sjAefVjy\" \"ACME_PASS=x\"",
            "2HhtQzJblHVs",
        ),
        (
            "opts = weboptions('Username', 'd02fb13da4ada63a665fe8385d0894462818d2d7', 'Password', 'X');",
            "d02fb13da4ad",
        ),
    ] {
        assert!(!redact(text).0.contains(key), "{}", redact(text).0);
    }
    for clean in [
        "auth = Auth.Basic { user = \"deploy-bot\", pass = \"X\" }",
        "user = \"9f8e7d6c5b4a39281706f5e4d3c2b1a0\"\nregion = \"eu-west-1\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 90th sealed part (after its first run): a header's value that is code reading
/// the key from elsewhere (`"Authorization": ProcessInfo.processInfo.environment["KEY"]`) is no
/// credential, nor is a payer's id under a payment API's `customerKey`.
#[test]
fn a_code_path_and_a_customer_key_are_no_credentials() {
    for clean in [
        "let h = [\"Authorization\": ProcessInfo.processInfo.environment[\"ACME_KEY\"] ?? \"\"]",
        "acme.payment({ customerKey: 'ef111080-3e14-4005-b72a-428692f82b7a' });",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found on reading this stop's whole diff: the readers of queries (a signed request line, a
/// link that expires) looked back and ahead from every `?` to the word's ends, so a text of
/// many `?` in one word took time in the square of its length (18 s for 40 KB in a debug
/// build). Each now reads its text once; a signature after the request line's query, or
/// after a long word of `?`, is still found.
#[test]
fn many_question_marks_in_one_word_are_read_once() {
    let long = format!("\"GET /{} HTTP/1.1\"", "x?".repeat(50_000));
    assert_eq!(redact(&long).0, long);
    let text = format!(
        "{} \"GET /acme/hero.jpg?w=1200&expires=1796002034&s=adb23a7410b9861560a647ef18ddb4fc0c6e45825525122c36acca6c61042bbd\" 200",
        "x?".repeat(1_000)
    );
    assert!(
        !redact(&text).0.contains("adb23a7410b9861560a6"),
        "{}",
        redact(&text).0
    );
}

/// Found by the ninety-first sealed part (issue 20; first run recall 1.00, false positives
/// 0.023): an Insomnia template citing another request by its id (`'req_40b2…'`) was read as a
/// prefixed token, though the same export names `req_…` values as ids. A key under the same
/// prefix with no id in sight is still redacted.
#[test]
fn a_prefix_the_text_uses_for_ids_is_an_ids() {
    let cited = "{\n  \"_id\": \"req_03e00fab141d52d5f79702db0a8f6e44\",\n  \"value\": \"Bearer {% response 'body', 'req_40b2fdf0271b03d6067fabf955f7f1ba', 'b64::JC5hY2Nlc3NfdG9rZW4=::46b', 'never', 60 %}\"\n}";
    assert_eq!(redact(cited).0, cited);
    let key = "{\n  \"_id\": \"wrk_03e00fab141d52d5f79702db0a8f6e44\",\n  \"value\": \"Bearer req_40b2fdf0271b03d6067fabf955f7f1ba\"\n}";
    assert!(
        !redact(key)
            .0
            .contains("req_40b2fdf0271b03d6067fabf955f7f1ba")
    );
}

/// Found reading the misses of the 88th–90th sealed parts (five Markdown tables): a cell in a
/// code span (`` `64d3…` ``) under a credential's column, a hex key or a UUID there, and a
/// table that records when each value was rotated (`| Env | Upstream | Value | Rotated |`),
/// whose values are credentials. A table of ids and digests, and a cell that says where the
/// secret is kept, stay as they are.
#[test]
fn markdown_tables_of_credentials() {
    for (text, secret) in [
        (
            "| env | service | credential | rotated |\n|---|---|---|---|\n| prod | Acme | `64d3f5013fe152bb5018416b487a380aed7d8df9` | 2026-10-11 |\n| staging | Acme | in 1Password (acme-staging) | 2026-09-25 |",
            "64d3f5013fe152bb5018416b487a380aed7d8df9",
        ),
        (
            "| Env | Upstream | Value | Rotated |\n|---|---|---|---|\n| prod | `api.acme.example` | `d5c45cf6-e992-4a21-96a6-3fbdfeb934ea` | 2026-11-21 |",
            "d5c45cf6-e992-4a21-96a6-3fbdfeb934ea",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "kept {secret:?} in {out:?}");
        assert!(
            out.contains("1Password") || out.contains("2026-11-21"),
            "{out}"
        );
    }
    for text in [
        "| Env | Upstream | Value | Updated |\n|---|---|---|---|\n| prod | `api.acme.example` | `d5c45cf6-e992-4a21-96a6-3fbdfeb934ea` | 2026-11-21 |",
        "| id | file | sha256 |\n|---|---|---|\n| `d5c45cf6-e992-4a21-96a6-3fbdfeb934ea` | build.tar | `718460e416e1b87cca44d28bd74da629d156ce78c483f3076696778c31c4629e` |",
    ] {
        assert_eq!(redact(text).0, text);
    }
}

/// Found by the ninety-second sealed part's first run (false positive): a header's value in a
/// documented example counted out from the start of the digits and the alphabet (`1-23-ABC`)
/// is a value's form, not a value. A generated value that merely starts so stays a secret.
#[test]
fn a_value_counted_out_is_an_example() {
    for text in [
        "curl -X POST https://api.acme.example/connector.php -H \"X-Acme-Token: 1-23-ABC\"",
        "ACME_API_TOKEN=abc123",
    ] {
        assert_eq!(redact(text).0, text);
    }
    let text = "curl -H \"X-Acme-Token: 123-abc-9fQ2xLw7Rk4\" https://api.acme.example/";
    assert!(!redact(text).0.contains("9fQ2xLw7Rk4"), "{text}");
}

/// Found by the ninety-second sealed part's first run (false positive): a Matrix server's
/// published keys (`"verify_keys": {"ed25519:…": {"key": "…"}}`) are what others check its
/// signatures with. A key inside an object named for verifying or public keys is public; a
/// key inside an object merely named for verification (`AddressVerification`) is not.
#[test]
fn keys_inside_public_key_objects() {
    let text = "{\n  \"verify_keys\": {\n    \"ed25519:xyuNoa\": {\n      \"key\": \"EIohV+kjUGCYtSVLvzJKVjw77iLZChwFZLej6Ztfpqk\"\n    }\n  }\n}";
    assert_eq!(redact(text).0, text);
    let text =
        "{\n  \"AddressVerification\": {\n    \"LicenseKey\": \"kQ7vR2mZ9xWp4tLsB3nY8cFd\"\n  }\n}";
    assert!(
        !redact(text).0.contains("kQ7vR2mZ9xWp4tLsB3nY8cFd"),
        "{text}"
    );
}

/// Found by the ninety-third sealed part's first run (false positive): a comment saying the
/// values below are published in the vendor's documentation (`# values published in the
/// developer docs`) marks a documented example, as `from the docs` does. A comment naming the
/// docs for another reason does not.
#[test]
fn values_published_in_the_docs_are_examples() {
    let text = "# Integration environment (values published in the Acme developer docs)\nACME_API_KEY_SECRET=579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C";
    assert_eq!(redact(text).0, text);
    let text = "# see the developer docs for rotation\nACME_API_KEY_SECRET=579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C";
    assert!(!redact(text).0.contains("579B532A"), "{text}");
}

/// Found by the ninety-third sealed part's first run (three misses): a header configured as a
/// numbered pair of fields, its name in one and its value in the other (Grafana's
/// `httpHeaderName1: X-Acme-ApiKey` … `httpHeaderValue1: "…"`), sends the value under that
/// name. A pair whose header names no credential (`X-Request-Id`) sends no secret.
#[test]
fn numbered_header_name_and_value_fields() {
    let text = "jsonData:\n  httpHeaderName1: X-Acme-ApiKey\n  httpHeaderName2: X-Request-Id\nsecureJsonData:\n  httpHeaderValue1: \"e6b5b0b1967352498b0a3e64168be802\"\n  httpHeaderValue2: \"3f2a9c1d-5b6e-4f70-8a91-0c2d3e4f5a6b\"\n";
    let out = redact(text).0;
    assert!(!out.contains("e6b5b0b1967352498b0a3e64168be802"), "{out}");
    assert!(
        out.contains("3f2a9c1d-5b6e-4f70-8a91-0c2d3e4f5a6b"),
        "{out}"
    );
}

/// Found by the ninety-third sealed part's first run (a miss): a private key kept in a Java
/// properties file, its lines continued with `\n\` at each line's end, is one block: the whole
/// body is redacted, not its first line alone.
#[test]
fn a_private_key_in_continued_properties_lines() {
    let text = "acme.rp.key=-----BEGIN PRIVATE KEY-----\\n\\\n    MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCBffvyvP+0izlA\\n\\\n    REdM+dzhoCPe2aybeFgGV5aW542tDlpHRRrlhFtL0t5CL3/vCrzo0DNLmPtyE6M9\\n\\\n    -----END PRIVATE KEY-----\n";
    let out = redact(text).0;
    assert!(!out.contains("MIIEvQIBADAN"), "{out}");
    assert!(!out.contains("REdM+dzhoCPe2ayb"), "{out}");
    assert!(out.contains("-----BEGIN PRIVATE KEY-----"), "{out}");
}

/// Found by the ninety-fourth sealed part's first run (a miss; an older part had the same): a
/// private key typed into a here-document after a shell's continuation prompt, or quoted in a
/// reply, has `> ` before every line; the whole body is redacted.
#[test]
fn a_private_key_after_continuation_prompts() {
    let text = "$ docker secret create acme_rsa - <<'EOF'\n> -----BEGIN RSA PRIVATE KEY-----\n> MIIEpAIBAAKCAQEAs4d/+25UXKDlm6wtIy1YTr/jcUCQ9viB7+jah9R2pn1WKWcp\n> oQ9VXON947ADfADS8ySKuiG5XZSM5zZSw9netkMRtMVgLHfRRapAXcbPOIbxKfLA\n> -----END RSA PRIVATE KEY-----\n> EOF\n";
    let out = redact(text).0;
    assert!(!out.contains("MIIEpAIBAAKC"), "{out}");
    assert!(!out.contains("oQ9VXON947AD"), "{out}");
    assert!(out.contains("> EOF"), "{out}");
}

/// Found by the ninety-fourth sealed part's first run (false positive): an authenticated
/// cipher's tag (`"auth_tag": "QYbO…=="` beside `iv` and `encrypted_data`) is part of the
/// ciphertext, not an authentication's secret. An auth token is still one.
#[test]
fn an_authenticated_ciphers_tag_is_no_secret() {
    let text = "{\n  \"access_token\": {\n    \"encrypted_data\": \"CpmFWydiN8jE2IqP7g/S5eDhFLOxsXRxV8nVzfgmKHjK\\n\",\n    \"iv\": \"NzpaBTDUHPkb2/Ts\\n\",\n    \"auth_tag\": \"QYbO/JIkw4qc++2Ewmb/Yw==\\n\",\n    \"cipher\": \"aes-256-gcm\"\n  }\n}";
    assert!(redact(text).0.contains("QYbO/JIkw4qc++2Ewmb/Yw=="));
    let text = "{\"auth_token\": \"QYbO7JIkw4qc9x2Ewmb3Yw\"}";
    assert!(!redact(text).0.contains("QYbO7JIkw4qc9x2Ewmb3Yw"));
}

/// Found by the ninety-fourth sealed part's first run (false positive): a systemd credential
/// whose own name ends in a digest's algorithm (`SetCredential=artifact-sha256:7f35…`) holds
/// that digest, as `sha256:…` does. A credential named otherwise is still one.
#[test]
fn a_value_named_for_its_digest() {
    let text = "[Service]\nSetCredential=artifact-sha256:7f35763cd052500b51c8d53cc5b1503e22d4c0bf62f9da9065a38ded0eef5180\n";
    assert_eq!(redact(text).0, text);
    let text = "[Service]\nSetCredential=api-token:7f35763cd052500b51c8d53cc5b1503e22d4c0bf62f9da9065a38ded0eef5180\n";
    assert!(!redact(text).0.contains("7f35763cd052500b"));
}

/// Found by the 100th sealed part's two false positives: a string that interpolates an
/// environment variable in Ruby's or Elixir's way (`"#{System.get_env(\"API_KEY\")}"`) is no
/// value, and a password manager's own name (`kept in 1Password: "LibCal API"`) names an item,
/// not a credential. The same keys with values are still redacted.
#[test]
fn an_interpolation_and_a_password_managers_name_are_not_values() {
    for clean in [
        "config :app, App.Client,\n  api_key: \"#{System.get_env(\\\"API_KEY\\\")}\"",
        "LIBCAL_CLIENT_SECRET=\n# secret lives in 1Password: \"LibCal API (snufferbell)\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
    let (out, _) = redact("config :app, App.Client,\n  api_key: \"Zq8wK3vN7pT2sLmR4yBx9cD5\"");
    assert!(!out.contains("Zq8wK3vN7pT2sLmR4yBx9cD5"), "{out}");
}

/// Found by the 101st sealed part's false positives: a Postman variable's `"key"` holds a
/// name (`apiKeyLast4`), a `.netrc` password may be a secret store's reference
/// (`vault:secret/data/app/optix#api_token`), and `aws s3api head-object --key PATH` prints an
/// object's ETag, not a key. A password made of words, a real value under `key` and a key the
/// command prints are still redacted.
#[test]
fn a_keys_name_a_stores_reference_and_an_objects_key_are_not_secrets() {
    for clean in [
        "{\"variable\": [{\"key\": \"apiKeyLast4\", \"value\": \"kOV4\"}]}",
        "machine api.example.com\n  login svc\n  password vault:secret/data/creaser/optix#api_token\n",
        "$ aws s3api head-object --bucket exports --key 2026/12/report.csv --query ETag\n\"\\\"565938cd0a1f6f3a779ea2cd197eb441\\\"\"",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
    for (text, secret) in [
        ("password: \"MySecretPassword1\"", "MySecretPassword1"),
        (
            "{\"key\": \"Zq8wK3vN7pT2sLmR4yBx9cD5\"}",
            "Zq8wK3vN7pT2sLmR4yBx9cD5",
        ),
        (
            "machine api.example.com login svc password Vq9Lm2Xz7Kp4Tt8W",
            "Vq9Lm2Xz7Kp4Tt8W",
        ),
        (
            "$ vault kv get -field=api_key secret/app\nZq8wK3vN7pT2sLmR4yBx9cD5",
            "Zq8wK3vN7pT2sLmR4yBx9cD5",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
}

/// Found by the 100th and 101st sealed parts (five and three misses): the secret half of a key
/// pair stored beside its public key under a name of the person's own (`crumb`, `FC_SALT`,
/// `other_half`, `signature_seed`). Public material beside a public key (a Nostr event's `sig`,
/// an id, a fingerprint) and a public key alone stay.
#[test]
fn a_key_pairs_other_half_whatever_its_name() {
    for (text, secret) in [
        (
            "# gradle.properties\nfieldclimate.publicKey=cb66a25c663a0a3bf242dc48f784996fb92a3a456ef12eb6\nfieldclimate.crumb=e339b4fb6694a6a1d77806b8d49b2dd01fedbf4b\n",
            "e339b4fb6694a6a1d77806b8d49b2dd01fedbf4b",
        ),
        (
            "salonized:\n  key: pub_42cG3X3E9WG8l1L1j8BWk7ySky3iXU82\n  other_half: 5JFww7L2kThkFQZLn3aZiCyzekXmCMQ1eCgzoyMrT4UnL9DX",
            "5JFww7L2kThkFQZLn3aZiCyzekXmCMQ1eCgzoyMrT4UnL9DX",
        ),
        (
            "[salonized]\npublic = pub_bCELLJFmJtDm82iSe4IUPihzjocREwPo\nsignature_seed = t9zwdGYU55Hcm3wCBMVhbEoPLhgtFtE9mmW4SuroGD7WH9b9",
            "t9zwdGYU55Hcm3wCBMVhbEoPLhgtFtE9mmW4SuroGD7WH9b9",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "{\n  \"id\": \"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65\",\n  \"pubkey\": \"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93\",\n  \"sig\": \"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262\"\n}",
        "public_key = cb66a25c663a0a3bf242dc48f784996fb92a3a456ef12eb6\nkey_fingerprint = e339b4fb6694a6a1d77806b8d49b2dd01fedbf4b\n",
        "public_key = cb66a25c663a0a3bf242dc48f784996fb92a3a456ef12eb6\n\nbuild = e339b4fb6694a6a1d77806b8d49b2dd01fedbf4b\n",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 102nd sealed part's first run: a key pair whose public half carries a vendor's
/// prefix of its own (`lhpk_…`, not `pub_`); sixteen capitals and digits under `API_KEY` (a
/// repeated letter keeps such a draw under 3.5 bits); a value piped to `circleci context
/// store-secret` whose quotes hold a `|` (`'758|pvlb…'`); and, as false positives, what that
/// command stores under a name that says URL or SHA. The documentation's TOTP example stays.
#[test]
fn found_by_the_102nd_sealed_part() {
    for (text, secret) in [
        (
            "LAUNDRYHEAP_PUBLIC=lhpk_sZN9r5FDXdSBqeoI0U4AxSSjFzwtpoBX\nLAUNDRYHEAP_PEPPER=fswUrmV8q9ynyWOHxzYpU7XYIhBjWeKHy0VHx3LKKAYNBDQQ\n",
            "fswUrmV8q9ynyWOHxzYpU7XYIhBjWeKHy0VHx3LKKAYNBDQQ",
        ),
        ("    \"API_KEY\": \"VELRZVP5NEKEEEZB\",", "VELRZVP5NEKEEEZB"),
        (
            "$ printf '%s' '758|pvlbQ6RWUYNebynZTpsckwrcd1mEI8X2kTUc96q4' | circleci context store-secret github org prod AMPECO_API_TOKEN",
            "pvlbQ6RWUYNebynZTpsckwrcd1mEI8X2kTUc96q4",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "$ printf '%s' 'https://cp.example.tech/public-api' | circleci context store-secret github org prod AMPECO_BASE_URL",
        "$ printf '%s' '114e8690168541a3e437a8ad3a9cb46f53ff0ee7' | circleci context store-secret github org prod FEEDS_BUILD_SHA",
        "otpauth://totp/bench:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=bench",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 103rd sealed part's first run: a key pair whose public half has a two-part
/// prefix (`pk_live_…`), and, as a false positive, a hash among the inputs of a call that
/// makes a secret (a Tiltfile's `secret_from_dict`), whose key says what it is.
#[test]
fn found_by_the_103rd_sealed_part() {
    let (out, _) = redact(
        "EVERYORG_PUBLIC_KEY=pk_live_a51224d949d4f9d772f5f21e34804d3a\nEVERYORG_COUNTERSIGN=JJZ4esxJheJKV0VfHsqLYHi2MU3njFXycBrMOBTI\n",
    );
    assert!(
        !out.contains("JJZ4esxJheJKV0VfHsqLYHi2MU3njFXycBrMOBTI"),
        "{out}"
    );
    let clean = "k8s_yaml(secret_from_dict('creds', inputs={\n    'ASSET_HASH': 'b1ab884cb375037771e61eaa7fbe5e83b3d1b65b',\n}))";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 105th sealed part's first run: a key pair's secret half beside a public half
/// whose vendor prefix ends in `pub` (`mpub_…`), under a typed constant (`NAME: &str = "…"`)
/// or in a JSON object written on one line; a signed JWT in an HTML `data-…-token` attribute
/// (a page's `data-sitekey` stays public); a curl config's `user = "NAME:PASSWORD"`; and, as
/// false positives, a hash under an `.s3cfg`'s empty `secret_key =`, a Nostr profile's
/// `npub`, and a compose file's `user: "1000:1000"`.
#[test]
fn found_by_the_105th_sealed_part() {
    let jwt = "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2xvZ2luLmV4YW1wbGUuY29tIiwic3ViIjoic3ZjLTEifQ.Sz7-GX616RiQblrjDH4P0zc-LL5gg4EOyvi7y6HJN9YgpqtLHmyD_t6KqqDStK08Hozz6c8SLFe6VKJNw4IvWA";
    for (text, secret) in [
        (
            "pub const MP_PUB: &str = \"mpub_c102ab09b8addb78c3646c217b55b1d8\";\npub const MP_CHALICE: &str = \"tIb8Jr0d8GsHT16AZ26XTuj8UBBRjuy6o42WULDJd1aR7I0j\";".to_string(),
            "tIb8Jr0d8GsHT16AZ26XTuj8UBBRjuy6o42WULDJd1aR7I0j",
        ),
        (
            "{\"platform\":{\"publicId\":\"mpub_a652eb5ca2574a0857587d08736482bf\",\"titheSeal\":\"I6UVoUA1AwCGQ90Qxy7Xcv6296zUlEiYZCMYHgvdymmobmEr\"}}".to_string(),
            "I6UVoUA1AwCGQ90Qxy7Xcv6296zUlEiYZCMYHgvdymmobmEr",
        ),
        (
            format!("<div id=\"jobs\" data-ats-token=\"{jwt}\" data-endpoint=\"https://api.example.com\"></div>"),
            jwt,
        ),
        (
            "# ~/.curlrc\nsilent\nuser = \"174cb9da-82f0-422d-8216-9681211b7b4b:2_uOwtItOo4m1iTZWOejtXKYcCb\"".to_string(),
            "2_uOwtItOo4m1iTZWOejtXKYcCb",
        ),
        (
            "user = \"837:2371064e-8886-437d-8072-2946813373d6\"".to_string(),
            "2371064e-8886-437d-8072-2946813373d6",
        ),
    ] {
        let (out, _) = redact(&text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "[default]\nuse_https = True\naccess_key = \nsecret_key = \nsha = 074986b03e2d75e47fd8df147f1a294e48691c67",
        "{\"name\":\"marinebox\",\"pubkey\":\"be47f2d703c1c72f91ba69a99d6fdeeb89aed830969d522fd8badcdfa7e2b210\",\"npub\":\"npub1kjfhkg3524f450qtgcl009k2l9cvr4mde02su83q26j82n6qg6j4rneumn\"}",
        "services:\n  app:\n    user: \"1000:1000\"",
        "<div class=\"cf-turnstile\" data-sitekey=\"0x4AAAAAAAkPvQd7Xn1mRbzY\"></div>",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 106th sealed part's first run: an expiring link's digest in base64url that
/// happens to hold no digit (`?md5=HktZ…&expires=…`), and, as a false positive, a
/// `SealedSecret`'s `encryptedData` value, ciphertext only the cluster's controller opens.
#[test]
fn found_by_the_106th_sealed_part() {
    let (out, _) = redact(
        "\"url\": \"https://downloads.example.com/f/x.zip?md5=HktZaxkmqailivEtMJiSmQ&expires=1796745168\"",
    );
    assert!(!out.contains("HktZaxkmqailivEtMJiSmQ"), "{out}");
    let clean = "kind: SealedSecret\nspec:\n  encryptedData:\n    password: AgBHbS8HADCwCJ/kVxnWq3ggOHIjiKFcDMiZsxhQ2w8nE4mK7vLpR1tYzU0aXbN3cF6gH9jD5sV\n";
    assert_eq!(redact(clean).0, clean);
    let (out, _) = redact("spec:\n  data:\n    password: Agr53erK2i2oXrkU0eVycBs5dRMzKvFZ\n");
    assert!(!out.contains("Agr53erK2i2oXrkU0eVycBs5dRMzKvFZ"), "{out}");
}

/// Found by the 107th sealed part's first run: a key set as a property by the WildFly CLI
/// (`/system-property=….api.key:add(value="…")`), a `render.yaml` pair (`- key: …_API_KEY`
/// over `value:`), a Tomcat `<Environment name="app/…_partner_key" value="…">`, and a runit
/// environment directory printed by `head` (`==> env/…_API_KEY <==` over its value); and, as
/// false positives, the id a secret store prints for a secret created from a file or stdin,
/// an encrypted credentials file printed, a WebSocket handshake's nonce, and a type's URL in
/// an Envoy listener read as a password.
#[test]
fn found_by_the_107th_sealed_part() {
    for (text, secret) in [
        (
            "[standalone@localhost:9990 /] /system-property=app.opus1.api.key:add(value=\"87358ab69d26cd8b284823e18e8beaaa59cfb5320f66e49e38e5ed58406b3cca\")",
            "87358ab69d26cd8b284823e18e8beaaa59cfb5320f66e49e38e5ed58406b3cca",
        ),
        (
            "    envVars:\n      - key: RETUL_BASE_URL\n        value: \"https://api.retul.com/v2\"\n      - key: RETUL_PARTNER_KEY\n        value: \"bb3f0d3b2dc05bf0539d7f2579434eb1\"",
            "bb3f0d3b2dc05bf0539d7f2579434eb1",
        ),
        (
            "  <Environment name=\"app/retul_partner_key\" value=\"20be199c55254ed57fd0324b5a6d24cc\" type=\"java.lang.String\"/>",
            "20be199c55254ed57fd0324b5a6d24cc",
        ),
        (
            "$ sudo head /etc/sv/app/env/*\n==> /etc/sv/app/env/ENERFLO_API_KEY <==\n3ibtln50kwhh3l2qupd5dex3ml7fon5lgjepwqg1\n\n==> /etc/sv/app/env/ENERFLO_BASE_URL <==\nhttps://api.enerflo.io/api/v3",
            "3ibtln50kwhh3l2qupd5dex3ml7fon5lgjepwqg1",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "$ printf '%s' \"$GEOCODER_API_KEY\" | docker secret create app_geocoder_api_key -\nnvuaxrcjv88aolh81ke6sp8ev",
        "$ cat config/credentials.yml.enc\nS218hhQ4DI3si9aBwxk4+/Bgc9YjMPBvKMKCCaXW1HG9iyZo6DIynvwPKLPvKG43zwq3wH+8bXYQikRd--Lcyxb1h/234NNU9Z--i87rcYOEAP/UWeQii8j7TA==",
        "GET /live HTTP/1.1\nHost: app.internal.example\nUpgrade: websocket\nSec-WebSocket-Key: WenZJGGlKVjJE6KnWHWQig==",
        "          stat_prefix: app_egress\n          http_filters: [{name: envoy.filters.http.router, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router}}]",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 108th sealed part's first run (both goals met): the password of an OpenVPN
/// login written inline (`<auth-user-pass>`, the user's line, then the password's), and, as
/// a false positive, a webhook's `caBundle`, a certificate in base64.
#[test]
fn found_by_the_108th_sealed_part() {
    let (out, _) = redact(
        "client\nremote vpn.example.net 1194\n<auth-user-pass>\n913500\n05bee261113d975fb31302573070a5de\n</auth-user-pass>\n",
    );
    assert!(!out.contains("05bee261113d975fb31302573070a5de"), "{out}");
    assert!(out.contains("913500"), "{out}");
    let clean = "      caBundle: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJKekNCenFBREFnRUNBZ0VCTUFvR0NDcUdTTTQ5QkFNQ01BQT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 109th sealed part's first run (recall 0.925): an expiring link's signature
/// percent-encoded in its query (`verify=EXPIRY-…%2F…%3D`), and a key pair whose public half
/// says so in the second part of its prefix (`pp_pub_…`) beside a secret named as anyone likes.
#[test]
fn found_by_the_109th_sealed_part() {
    let (out, _) = redact(
        "GET /cam.jpg?verify=1796595965-jZyCzys8zCUwPsGcJwtNGyiBSYa9yyd24Lx%2FO8RE4nc%3D HTTP/1.1",
    );
    assert!(
        !out.contains("jZyCzys8zCUwPsGcJwtNGyiBSYa9yyd24Lx"),
        "{out}"
    );
    assert!(!out.contains("O8RE4nc"), "{out}");
    let (out, _) = redact(
        "PARCELPENDING_PROPERTY_ID=pp_pub_e8b84884b08e7019db0fc0d7\nPARCELPENDING_SEAL=tMRwctCDj02cwBGw5qzVHB1iJHDBiIi5c1jUWOJZ",
    );
    assert!(
        !out.contains("tMRwctCDj02cwBGw5qzVHB1iJHDBiIi5c1jUWOJZ"),
        "{out}"
    );
    assert!(out.contains("pp_pub_e8b84884b08e7019db0fc0d7"), "{out}");
}

/// Found by the 110th sealed part's first run (recall 0.917): Perl's hash subscript
/// (`$ENV{NAME} = '…'`), a setter's flag between a credential's name and its quoted value
/// (`defaults write D ApiKey -string '…'`, `security add-generic-password -s …_api_key -w
/// '…'`), and a JSON Web Key's private member written one per line, as YAML holds it.
#[test]
fn found_by_the_110th_sealed_part() {
    for (text, secret) in [
        (
            "$ENV{PROBAT_API_KEY} = 'XnUeC8zr12mkmptqhKBvJ28mTaiuNZY8M5BpMBwe';",
            "XnUeC8zr12mkmptqhKBvJ28mTaiuNZY8M5BpMBwe",
        ),
        (
            "defaults write com.x.desktop FuneraltechApiKey -string 'kvcnb9w42ajfubxq4iqg1k841t8f3i5y2rhq'",
            "kvcnb9w42ajfubxq4iqg1k841t8f3i5y2rhq",
        ),
        (
            "security add-generic-password -U -a \"588\" -s \"swage.toplogger.toplogger_api_key\" -w 'i0kki0af7zqov7ohrlurksbqww4ewbdvg7sizutj'",
            "i0kki0af7zqov7ohrlurksbqww4ewbdvg7sizutj",
        ),
        (
            "jwk:\n  kty: \"EC\"\n  crv: \"P-384\"\n  x: \"p697mVk6soBlczar5yWAgDlCq6o-6c5p_FUA92vogjNRfisQAbLcaVqJwDDQ2tF7\"\n  d: \"2zIzL8k3N90eFVsnMDv9YsK8Fa1UE97lOReuEyJNA7_xBl4z63BlENwcwbX94vnN\"\n",
            "2zIzL8k3N90eFVsnMDv9YsK8Fa1UE97lOReuEyJNA7_xBl4z63BlENwcwbX94vnN",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    // The public members of the same key stay.
    let (out, _) = redact(
        "jwk:\n  kty: \"EC\"\n  x: \"p697mVk6soBlczar5yWAgDlCq6o-6c5p_FUA92vogjNRfisQAbLcaVqJwDDQ2tF7\"\n",
    );
    assert!(out.contains("p697mVk6soBlczar5yWAgDlCq6o"), "{out}");
}

/// Found by the 111th sealed part's first run (recall 0.892, false positives 0.023): a .NET
/// RSA key written as XML, whose private members go (since the 136th part, with the whole key
/// between its tags, as a PEM block's body goes; a public key alone stays); a package source's
/// login after its host (`bundle config set --global HOST USER:PASSWORD`); the secret key
/// after an address and an access key (`mc alias set NAME URL ACCESS SECRET`); and, clean, a
/// hash or an id a secret store keeps under a name that says so.
#[test]
fn found_by_the_111th_sealed_part() {
    let (out, _) = redact(
        "<RSAKeyValue><Modulus>sz8Y1ZVOSN9tak0BTp0Ewcu8ylz2mTZA0itfWa4j0LuGGdw9wjrb==</Modulus><Exponent>AQAB</Exponent><P>4Qb9vQ2mXk7Lr1sTz8NwPc3HyJd6FgKa0UeRi5BnMt==</P><D>Zq7Wm2Xv9Kc4Rt1Ly8Ps3Nb6Hd0Gf5Ja2Ue7Qi4Vo1Mx==</D></RSAKeyValue>",
    );
    assert!(
        !out.contains("4Qb9vQ2mXk7Lr1sTz8NwPc3HyJd6FgKa0UeRi5BnMt"),
        "{out}"
    );
    assert!(
        !out.contains("Zq7Wm2Xv9Kc4Rt1Ly8Ps3Nb6Hd0Gf5Ja2Ue7Qi4Vo1Mx"),
        "{out}"
    );
    assert!(
        out.contains("<RSAKeyValue>") && out.contains("</RSAKeyValue>"),
        "{out}"
    );
    let public = "<RSAKeyValue><Modulus>sz8Y1ZVOSN9tak0BTp0Ewcu8ylz2mTZA0itfWa4j0LuGGdw9wjrb==</Modulus><Exponent>AQAB</Exponent></RSAKeyValue>";
    assert_eq!(redact(public).0, public);
    let (out, _) = redact(
        "$ bundle config set --global api.veritext.com 661133:mK6OfpzjK0Cf6O6HvzJVaNvK2ngHqIvjdh2DBXAA",
    );
    assert!(
        !out.contains("mK6OfpzjK0Cf6O6HvzJVaNvK2ngHqIvjdh2DBXAA"),
        "{out}"
    );
    assert!(out.contains("661133:"), "{out}");
    let (out, _) = redact(
        "$ mc alias set x https://api.example.com/v1 e35253b5-9770-4aff-b2fe-91694f60bad5 j9lwyfxqfs1o0yz34unho34nu3o27ca2kpzmfq6v5pf8yx3u",
    );
    assert!(
        !out.contains("j9lwyfxqfs1o0yz34unho34nu3o27ca2kpzmfq6v5pf8yx3u"),
        "{out}"
    );
    for clean in [
        "PS C:\\> Set-Secret -Vault v -Name STATUS_BUILD_SHA -Secret 'a577ec98fd82b3f6c25090f3041d5f48607a6d9f'",
        "$ echo \"02811663-6643-4576-b75d-a6244df9e5b4\" | npx wrangler secret put STATUS_INSTANCE_UUID",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 112th sealed part's first run (recall 0.908): pam_env's `NAME DEFAULT="…"`, a
/// signify secret key by its own bytes, a login given as `http-basic.REPO USER PASSWORD`, and,
/// clean, a hash a parameter store keeps under a name that says so.
#[test]
fn found_by_the_112th_sealed_part() {
    for (text, secret) in [
        (
            "RAPSODO_API_KEY          DEFAULT=\"ZRD7VH8N15AMBI7L0WKZ8DZ6KI9ZIR\"",
            "ZRD7VH8N15AMBI7L0WKZ8DZ6KI9ZIR",
        ),
        (
            "X_API_KEY     DEFAULT=\"ysj1zgvsQw9Wtr+6dAq3JfcqB/gUSMHS5E+ckhzmWa0=\"",
            "ysj1zgvsQw9Wtr+6dAq3JfcqB/gUSMHS5E+ckhzmWa0=",
        ),
        (
            "untrusted comment: signify secret key\nRWRCSwAAAACfm1sVFpbgjFxEd/9em+Ct/8+5SgnLolFQzOmlho+zD8YfxbwvEsRIWlpz9YWXL6Mj6ZZwWHBJCrdKeQXJ5qNGSVGA1rKB7PkMpl8H6HcD6RbqzXd3QkAe1Is3K2tWlgM=",
            "RWRCSwAAAACfm1sVFpbgjFxEd",
        ),
        (
            "$ poetry config http-basic.tuningcone 4705713 CJKOGIDTD3NUFIRXZK17A6PWFDREIJ",
            "CJKOGIDTD3NUFIRXZK17A6PWFDREIJ",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    let clean = "$ aws ssm put-parameter --name \"/swellbox/status_build_sha\" --type String --value \"fe2fca98da96462f4d12e4b04f629a63bf4bd744\" --overwrite";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 113th sealed part's first run (recall 0.842): an access key and its secret
/// after an address with the command's flags after them (`mc alias set … --api S3v4`), or one
/// `USER:SECRET` word keyed by the address (`bundle config set --global URL …`); `nuget
/// setapikey KEY`; a login's flag with a value before the token (`cargo login --registry NAME
/// TOKEN`), the token in base64; a setter's credential-named key and its value as two words; a
/// credentials file keyed by address; an image CDN's `s=` digest. Clean: a cache key set as a
/// header, a size given as `s=`.
#[test]
fn found_by_the_113th_sealed_part() {
    for (text, secret) in [
        (
            "$ mc alias set vault https://files.example.org 5239024 5d6fc8ebb2fa38dea860d9726e4d32ac --api S3v4",
            "5d6fc8ebb2fa38dea860d9726e4d32ac",
        ),
        (
            "$ bundle config set --global https://gems.example.org/v1/ AB203879:oYEsG9vP8kU6kiNLiF90wZwR2xj8LikOyw3O",
            "oYEsG9vP8kU6kiNLiF90wZwR2xj8LikOyw3O",
        ),
        (
            "PS C:\\src> nuget setapikey CO04BW-VTA605-YJQSX2-2259DF-8NL1GI-EYA82D -Source https://nuget.example.org/v3/index.json",
            "CO04BW-VTA605-YJQSX2-2259DF-8NL1GI-EYA82D",
        ),
        (
            "$ cargo login --registry shop I3Jm5gDMoDj5qoNuoucG6T33qbHmWsz/qC6Z2Qexj9U=",
            "I3Jm5gDMoDj5qoNuoucG6T33qbHmWsz/qC6Z2Qexj9U=",
        ),
        (
            "$ pnpm config set //npm.example.org/:_authToken 855f4f3ecd8029473bcfd56d",
            "855f4f3ecd8029473bcfd56d",
        ),
        (
            "$ cat ~/.gem/credentials\n---\nhttps://gems.example.org/v1/gems: 5SDO1G-SJ49SH-SE9V9Z-ZA2FE2-OWL2AW-N0RQZ7",
            "5SDO1G-SJ49SH-SE9V9Z-ZA2FE2",
        ),
        (
            "<img src=\"https://shop.imgix.net/p/rose.jpg?w=640&amp;s=cc63786fcd71bdfaaa4016119cae7bbc\">",
            "cc63786fcd71bdfaaa4016119cae7bbc",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "RequestHeader set X-Cache-Key \"19b65c1a5c22abeebf25ca84bd7c5e81\"",
        "https://www.gravatar.com/avatar/205e460b479e2e5b48aec07710c08d50?s=80",
        "https://example.org/search?s=rose+bouquet",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 114th sealed part's first run (recall 0.958): imgproxy's signature, the
/// unpadded URL-safe base64 of an HMAC as a path's first segment before the processing options
/// it signs, in a URL or a request line. Clean: an id of the same length before a plain path.
#[test]
fn found_by_the_114th_sealed_part() {
    for (text, secret) in [
        (
            "<img src=\"https://img.example.com/j5E6y1HouQf3XhIA1S4mOSeWGCt3GI-0PV37m2v4_dc/rs:fill:960:240/g:sm/aHR0cHM6Ly9tZWRpYS5leGFtcGxlLmNvbS9hLmpwZw.webp\">",
            "j5E6y1HouQf3XhIA1S4mOSeWGCt3GI-0PV37m2v4_dc",
        ),
        (
            "10.4.10.203 - - [07/Dec/2026:00:54:20 +0000] \"GET /wAB_C-26RxtzLnUlvxduO2ngsXsqabwm2P0hoH__Gl8/rs:fill:640:480/g:sm/aHR0cHM6Ly9t.webp HTTP/1.1\" 200 48211",
            "wAB_C-26RxtzLnUlvxduO2ngsXsqabwm2P0hoH__Gl8",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    let clean = "https://files.example.com/j5E6y1HouQf3XhIA1S4mOSeWGCt3GI-0PV37m2v4_dc/report.pdf";
    assert_eq!(redact(clean).0, clean);
}

/// Found by the 115th sealed part's first run (recall 0.933, false positives 0.023): a
/// Cloudinary path's `s--SIGNATURE--`, a token after a URL path's `t` segment (a conda
/// channel's), a key in equal dash-separated groups of lower case and digits. Clean: the
/// base64 of a sentence, a setting that names the command that prints a password.
#[test]
fn found_by_the_115th_sealed_part() {
    for (text, secret) in [
        (
            "url=https://res.cloudinary.com/demo/image/upload/s--vmSTqTAn--/c_thumb,w_200/v1766580515/covers/a.jpg",
            "vmSTqTAn",
        ),
        (
            "$ conda config --add channels https://conda.example.org/t/xzzahdje4r04le05vt171lwzvcsglcxlp232bdsq/rigging",
            "xzzahdje4r04le05vt171lwzvcsglcxlp232bdsq",
        ),
        (
            "PS C:\\src> nuget setapikey daeky-z6jdt-yf03q-tskp4-khnzd-oripk -Source https://nuget.example.org/v3/index.json",
            "daeky-z6jdt-yf03q-tskp4-khnzd-oripk",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "$ echo -n \"manila nightly report: 880 orders shipped, 1 delayed, no errors.\" | base64 -w0\nbWFuaWxhIG5pZ2h0bHkgcmVwb3J0OiA4ODAgb3JkZXJzIHNoaXBwZWQsIDEgZGVsYXllZCwgbm8gZXJyb3JzLg==",
        "export RESTIC_PASSWORD_COMMAND=\"op read op://ops/restic/password\"",
        "https://forum.example.org/t/how-to-rotate-a-restic-password/1234",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 116th sealed part's first run (recall 0.983, false positives 0.023): an access
/// key's secret in upper-case dash-separated groups after an address; clean, a Bitcoin address
/// (Base58Check, its checksum verified) in a donation line. A string of its shape whose
/// checksum fails is judged as any generated word is.
#[test]
fn found_by_the_116th_sealed_part() {
    let text = "$ mc alias set shop https://s3.example.org PRU95280 XIFI3MNP-AB4XIBKE-DCTWN4MG-FEGBSTV0 --api S3v4";
    assert!(!redact(text).0.contains("XIFI3MNP-AB4XIBKE"), "{text}");
    for clean in [
        "Donations for the volunteers: 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
        "send to 3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy please",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
    assert!(crate::plausible::bitcoin_address(
        "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"
    ));
    assert!(!crate::plausible::bitcoin_address(
        "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb"
    ));
}

/// Found by the 118th sealed part's first run (recall 0.942; five of seven misses): the SSH2
/// armour (`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`, four dashes and spaces, `Comment:`
/// headers before the body) was no private key's block to the redactor. Its body is replaced,
/// its headers and armour lines kept.
#[test]
fn found_by_the_118th_sealed_part() {
    let text = "KEY = \"\"\"---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"2048-bit rsa, gw@example\"\nP2/56wAAA+4AAAA3aWYtbW9kbntzaWdue3JzYS1wa2NzMS1zaGExfSxlbmNyeXB0e3JzYS1wa2NzMXYyLW9hZXB9fQAAAARub25l\nAAADnwAAA5sAAAARAQABAAAIAMZ1ckL9qvA0e3x\n---- END SSH2 ENCRYPTED PRIVATE KEY ----\"\"\"";
    let (out, _) = redact(text);
    assert!(!out.contains("AAADnwAAA5sAAAARAQAB"), "{out}");
    assert!(
        out.contains("Comment: \"2048-bit rsa, gw@example\""),
        "{out}"
    );
    assert!(
        out.contains("---- END SSH2 ENCRYPTED PRIVATE KEY ----"),
        "{out}"
    );
    let public = "---- BEGIN SSH2 PUBLIC KEY ----\nComment: \"dev@box\"\nAAAAB3NzaC1yc2EAAAADAQABAAABAQC7\n---- END SSH2 PUBLIC KEY ----";
    assert_eq!(redact(public).0, public);
}

/// Found by the 119th sealed part's first run (recall 0.958, false positives 0.034), each by
/// its mechanism: an object store's pre-authenticated path (`/p/<64 random>/n/…/b/…/o/…`), in
/// a URL or a path alone; a channel token after `/t/` with its issuer's prefix (`qz_…`); a
/// login after a gem server's host whose password is a UUID; a key file in base64 whose
/// opening text says `secret` (Tor's), under a name that says nothing. And the look-alikes
/// beside them: the same file's public half, printed from a file named public; an unsigned
/// JWT after "token"; a digest kept in a secret store under a name ending `_SHA256`.
#[test]
fn found_by_the_119th_sealed_part() {
    for (text, secret) in [
        (
            "\"access-uri\": \"/p/qoaH4_3pwoB12PbXizGnFOTezj2fbrCB3Mc3w8_sCkALDQ_HOwFXFdRvdgk3z1k1/n/ns/b/exports/o/a.csv\"",
            "qoaH4_3pwoB12PbXizGnFOTezj2fbrCB3Mc3w8_sCkALDQ_HOwFXFdRvdgk3z1k1",
        ),
        (
            "[bucket](https://objectstorage.example.com/p/qoaH4_3pwoB12PbXizGnFOTezj2fbrCB3Mc3w8_sCkALDQ_HOwFXFdRvdgk3z1k1/n/ns/b/exports/o/a.csv)",
            "qoaH4_3pwoB12PbXizGnFOTezj2fbrCB3Mc3w8_sCkALDQ_HOwFXFdRvdgk3z1k1",
        ),
        (
            "$ conda config --set channel_alias https://conda.example.com/t/qz_5vsgoyfi10cis4mkje43klvgqteo5kovrton",
            "qz_5vsgoyfi10cis4mkje43klvgqteo5kovrton",
        ),
        (
            "$ bundle config set --global gems.example.com BOT7:c9a06f56-5469-416d-9a25-099a8cfe596c",
            "c9a06f56-5469-416d-9a25-099a8cfe596c",
        ),
        (
            "const relayIdentity = \"PT0gZWQyNTUxOXYxLXNlY3JldDogdHlwZTAgPT0AAACJhm7WKZ2MjJbislOwPeqfQIrYatbmmUKuX6F6ezqB2F0Xr2iJMriyoNOfn0aYKVkToP28OzWessDb40RcZbVX\"",
            "PT0gZWQyNTUxOXYxLXNlY3JldDogdHlwZTAgPT0AAACJhm7WKZ2MjJbislOwPeqfQIrYatbmmUKuX6F6ezqB2F0Xr2iJMriyoNOfn0aYKVkToP28OzWessDb40RcZbVX",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "$ sudo base64 -w0 /var/lib/tor/relay/hs_ed25519_public_key; echo\nPT0gZWQyNTUxOXYxLXB1YmxpYzogdHlwZTAgPT0AAAC5CKxB3Vy3W8A/SjtDZShRn9zxLl32lcfNqc8D+syxpg==",
        "WARN rejected unsigned test token eyJhbGciOiAibm9uZSJ9.eyJzdWIiOiAidS04MSIsICJpYXQiOiAxNzk2NjEwNTY0fQ. (alg=none)",
        "PS> Set-Secret -Vault V -Name APP_ARTIFACT_SHA256 -Secret '3f1bca153b049ffefe6acffb81090e9dc987dad4de29ddf03bf37c9d9f07068b'",
        // A public key in base64 keeps its `/` digits: no path segment of it is a key.
        "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDOA/c6ZuwXO46C1xH9AqU5UpdIdIpGinmtV0EX4RgtgvNd0iAK9SDUYJXSvasiPUwO2THBQm9QRmltOLJ4t5a69omzyjb/QVWDSOdDuPWdtqdjKxeta7i78XTXBalITK5m dev@box",
    ] {
        assert_eq!(redact(clean).0, clean);
    }
}

/// Found by the 120th sealed part's first run (recall 0.908, false positives 0.023), each by
/// its mechanism: a private key in Wallet Import Format, known by its Base58Check checksum
/// wherever it stands (one character changed, it is no key and stays); a keypair's 64 raw
/// bytes written as a list of numbers, in any file or command (a list a line names as a
/// signature stays); a `…basic` setting's password drawn as a UUID; and a value that points
/// to where the secret is kept (`see-1password`) is no secret.
#[test]
fn found_by_the_120th_sealed_part() {
    let bytes = "183,135,246,71,68,78,210,158,102,167,248,5,177,44,233,223,23,125,230,113,6,234,142,121,210,198,6,167,155,231,218,224,188,93,134,210,89,194,86,168,1,99,79,216,95,191,97,199,52,41,145,235,138,125,70,194,26,174,158,73,107,253,58,141";
    for (text, secret) in [
        (
            "wif = \"L1VX9JMPtZmxPrXz4WepEh3PmAWq9zvi9ZeG9E12bGGgv48YRuwC\"".to_string(),
            "L1VX9JMPtZmxPrXz4WepEh3PmAWq9zvi9ZeG9E12bGGgv48YRuwC",
        ),
        (
            "import failed for 5JnRxMF8uTunBAQnZ4YgFRw1dHf2PtBow3s8WWE9Wy2HkJCDmah: locked"
                .to_string(),
            "5JnRxMF8uTunBAQnZ4YgFRw1dHf2PtBow3s8WWE9Wy2HkJCDmah",
        ),
        (format!("$ cat ~/.config/app/signer.json\n[{bytes}]"), bytes),
        (format!("RUN echo '[{bytes}]' > /root/id.json"), bytes),
        (
            "$ poetry config http-basic.vendor 203295 14972629-25e1-4b11-8f24-2e104a89cf9d"
                .to_string(),
            "14972629-25e1-4b11-8f24-2e104a89cf9d",
        ),
    ] {
        let (out, _) = redact(&text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "checksum off: L1VX9JMPtZmxPrXz4WepEh3PmAWq9zvi9ZeG9E12bGGgv48YRuw2".to_string(),
        format!("let signature: [u8; 64] = [{bytes}];"),
        "export BORG_PASSPHRASE='see-1password'".to_string(),
    ] {
        assert_eq!(redact(&clean).0, clean);
    }
}

/// Found by the 121st sealed part's first run (recall 0.983, no false positive): a login's
/// token drawn as a UUID after a flag's own value (`cargo login --registry NAME UUID`), where
/// a UUID right after such a flag is what the flag names (`az login --tenant UUID`); and a
/// UUID kept in a file of credentials printed by `cat` (`~/.gem/credentials`).
#[test]
fn found_by_the_121st_sealed_part() {
    for (text, secret) in [
        (
            "$ cargo login --registry vendor 8b0e3c51-5a8e-4f7c-9d59-0c2f6f4b9a17",
            "8b0e3c51-5a8e-4f7c-9d59-0c2f6f4b9a17",
        ),
        (
            "$ cat ~/.gem/credentials\n---\n:vendor: 2f7c1d9e-6b3a-4c8e-a1d4-93e5b7f20c68\n$ gem push a.gem",
            "2f7c1d9e-6b3a-4c8e-a1d4-93e5b7f20c68",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    let tenant = "$ az login --tenant 4af3c1d2-8e7b-4a6c-9f10-2b3d4e5f6a7b";
    assert_eq!(redact(tenant).0, tenant);
}

/// Found by the 122nd, 123rd and 124th sealed parts' first runs (seven rows over three parts):
/// a key pair's secret half under a name that says nothing, beside its public half
/// (`abc_pub_…`), was missed when it was URL-safe base64 (`-` and `_` among 32 random bytes).
/// A trace's dashed hex beside a public key (`sentry-trace: 7689…-8292…-1`) stays.
#[test]
fn a_key_pairs_secret_half_in_url_safe_base64() {
    for (text, secret) in [
        (
            "{\"voicing_pin\":\"zq_pub_cg8N2zQCfn8j1bVq9igSIFIONdD3CfRH\",\"soundboard\":\"yDz3Q9yXWKBrmExuCqh0q-kRyKjjCQtHyBN5odR2qlM\"}",
            "yDz3Q9yXWKBrmExuCqh0q-kRyKjjCQtHyBN5odR2qlM",
        ),
        (
            "APP_VOICING_PIN=zq_pub_FSsU2nbq5zEi8w3a8YIbeXp7D64KYAca\nAPP_SOUNDBOARD=0WE16-jOmSTFvM3cMMdXYvXhxPBv8MgDSWPwQhBdJgM",
            "0WE16-jOmSTFvM3cMMdXYvXhxPBv8MgDSWPwQhBdJgM",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    let trace = "sentry-trace: 7689bf792a662f813700f0df983d9d29-82928667b2d9c816-1\nbaggage: sentry-environment=production,sentry-public_key=17eceaf90a36b42c3f55654901a214fe";
    assert_eq!(redact(trace).0, trace);
}

/// Found by the property test (20,000 cases), in the path check the 119th sealed part's fix
/// added: a break wider than one byte before a path (an em quad, `\u{2001}`) was stepped over
/// by one byte, and the redactor panicked on a slice inside it.
#[test]
fn a_wide_blank_before_a_path_is_no_panic() {
    let text = "d\u{2001}/p/gEGXyak4pFTiaZauGMyF3_-_jr7K4OSLXqB-4zushMi8XYNpje4weiam59f1qT5X/n/ns";
    let (out, _) = redact(text);
    assert!(!out.contains("gEGXyak4pFTiaZauGMyF3"), "{out}");
}

/// Found by the 126th sealed part's first run (its one false positive, the 124th had one like
/// it): KSUIDs listed one per line were taken for keys pasted alone. A KSUID decodes to a
/// timestamp since 2014 and 16 random bytes; a random word of 27 characters rarely does, and
/// one that does not still counts as generated.
#[test]
fn a_ksuid_alone_is_an_id() {
    let ids =
        "2Xc93kvNxKeIlsqklbHjmQHs239\n2GtqpnnP2NbjDmYDh6J2lYJqAKl\n27cm8zLDV1QDUvXHWbMT0Pq4lbp";
    assert_eq!(redact(ids).0, ids);
    let pasted = "try this one: kKMd6Q1sSsilOYpsSbsrFi2gkRH";
    assert!(!redact(pasted).0.contains("kKMd6Q1sSsilOYpsSbsrFi2gkRH"));
}

/// Found by the 127th and 129th sealed parts' first runs (three rows; a fourth of the 122nd
/// was the same): a signed JWT a page hands its script in a `data-` attribute named neither
/// token nor secret (`data-src`, `data-auth`) was kept, as a page's widget key there is. A
/// bearer's token is one wherever it is written; an unsigned one, and a site key, stay.
#[test]
fn a_signed_jwt_in_a_pages_data_attribute() {
    let header = "eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9";
    let claims = "eyJzdWIiOiJ4IiwiaWF0IjoxfQ";
    let jwt = format!("{header}.{claims}.cXqVZyJqj2gk9pTzYhW7nRm3sLb8dF4eA1oK6uN0vB2xC5yD7wE9");
    let page = format!(
        "<div id=\"roster\" data-auth=\"{jwt}\" data-sitekey=\"6LcAbCdEfGhIjKlMnOpQrStUvWxYz0123456789\"></div>"
    );
    let out = redact(&page).0;
    assert!(!out.contains(&jwt), "{out}");
    assert!(
        out.contains("6LcAbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
        "{out}"
    );
    let unsigned = "<div data-src=\"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.\"></div>";
    assert_eq!(redact(unsigned).0, unsigned);
}

/// Found by the 130th sealed part's first run (recall 0.908; seven of its eleven misses): a
/// URL signed with its expiry then `_` and a hex HMAC (`?__gda__=1797331279_e9ea…`), where
/// the timed-token scanner wanted a `-`; and an SSH2 private key whose `Comment:` header sits
/// in a JSON string (the header's value ran on past its escaped line end to the body's last
/// line) or is indented in a YAML block.
#[test]
fn found_by_the_130th_sealed_part() {
    for (text, secret) in [
        (
            "{\"mediaUrl\":\"https://media.example.com/tours/a.mp4?__gda__=1798554034_0c563905198acaa7552cf65b3f31205c\"}",
            "0c563905198acaa7552cf65b3f31205c",
        ),
        (
            "{\"k\":\"---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\\nComment: \\\"rsa-key-1-lanes\\\"\\nP2/56wAAA+4AAAA3aWYtbW9kbntzaWdue3JzYS1wa2NzMS1zaGExfSxlbmNyeXB0e3JzYS\\n1wa2NzMXYyLW9hZXB9fQAAAARub25lAAADnwAAA5sAAAARAQABAAAH\\nfhuEGbESgzfQ==\\n---- END SSH2 ENCRYPTED PRIVATE KEY ----\"}",
            "1wa2NzMXYyLW9hZXB9fQAAAARub25lAAADnwAAA5sAAAARAQABAAAH",
        ),
        (
            "stringData:\n  k: |\n    ---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\n    Comment: \"rsa-key-2\"\n    P2/56wAAA+4AAAA3aWYtbW9kbntzaWdue3JzYS1wa2NzMS1zaGExfSxlbmNyeXB0e3JzYS\n    1wa2NzMXYyLW9hZXB9fQAAAARub25lAAADnwAAA5sAAAARAQABAAAH\n    ---- END SSH2 ENCRYPTED PRIVATE KEY ----",
            "1wa2NzMXYyLW9hZXB9fQAAAARub25lAAADnwAAA5sAAAARAQABAAAH",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
}

/// Found by the 132nd sealed part: a login's token in dotted parts after a `…basic…` setting
/// (`poetry config http-basic.NAME USER pfx.<id>.<draw>`), a UUID given to `-p` after `-u`, a
/// configuration's settings as pairs of words (`rclone config create … pass <hex>`), and a key
/// pair's secret half in base64url that opens with `_`. A database named after `-p` stays.
#[test]
fn found_by_the_132nd_sealed_part() {
    for (text, secret) in [
        (
            "$ poetry config http-basic.mills KR2207 mls.74fbaf14b8c430c98304.f2d36c9e624e1cf4cd3c026d8faa709fd8181873",
            "mls.74fbaf14b8c430c98304.f2d36c9e624e1cf4cd3c026d8faa709fd8181873",
        ),
        (
            "twine upload -u __token__ -p 84e2a1c4-de0f-4b76-81fd-17d5992247c0 dist/*",
            "84e2a1c4-de0f-4b76-81fd-17d5992247c0",
        ),
        (
            "rclone config create cellar sftp host=sftp.example.com user=cellar pass 543af4a1b7f1f1505bc1a14c4354c9d7",
            "543af4a1b7f1f1505bc1a14c4354c9d7",
        ),
        (
            "MILL_GATE = 'mg_pub_cVS5bXL5248UUjAVF1FjkphGDE8i3D6t'\nMILL_WHEEL = '_AOQIdfIpA9WhogzikIejRITAHqIrkihKH7uptpFUUs'",
            "_AOQIdfIpA9WhogzikIejRITAHqIrkihKH7uptpFUUs",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for text in [
        "mysql -u report -p analytics",
        "rclone config create cellar sftp host=sftp.example.com user=cellar key_file ~/.ssh/id_ed25519",
    ] {
        assert_eq!(redact(text).0, text);
    }
}

/// Found by the 133rd and 134th sealed parts: a token in dotted parts after its issuer's
/// prefix wherever a credential is expected (`pcnv_<hex>.<hex>` in `~/.gem/credentials`, after
/// a `poetry config http-basic` user), minisign's secret key with no password (`RWQAAEIy…`,
/// also after an escaped line end in JSON), and a key pair's secret half in a form's `data-`
/// attribute beside its public half (a page's widget key stays public).
#[test]
fn found_by_the_134th_sealed_part() {
    for (text, secret) in [
        (
            "$ cat ~/.gem/credentials\n---\nhttps://gems.example.com: pcnv_9a1c55e0b2d7f3e4a8c61b09.4e7d2c9b1a0f8e3d6c5b4a3928170f6e",
            "pcnv_9a1c55e0b2d7f3e4a8c61b09.4e7d2c9b1a0f8e3d6c5b4a3928170f6e",
        ),
        (
            "poetry config http-basic.x PC-6521 pcnv_9a1c55e0b2d7f3e4a8c61b09.4e7d2c9b1a0f8e3d6c5b4a3928170f6e",
            "pcnv_9a1c55e0b2d7f3e4a8c61b09.4e7d2c9b1a0f8e3d6c5b4a3928170f6e",
        ),
        (
            "{\"content\": \"untrusted comment: minisign secret key DF84F47F01BE440B\\nRWQAAEIyB3h5/z3b3xrVjZxoFwI34tNXDN3pAWRvCVMefFPNxFMAAAAAAAAAAAAAAAAAAAAAC0S+AX/0hN9uZkGkB1bGtL/itTPVISgQIHtHAQ7ep/gSYwe/ulf9\\n\"}",
            "RWQAAEIyB3h5/z3b3xrVjZxoFwI34tNXDN3pAWRvCVMefFPNxFMAAAAAAAAAAAAAAAAAAAAAC0S+AX/0hN9uZkGkB1bGtL/itTPVISgQIHtHAQ7ep/gSYwe/ulf9",
        ),
        (
            "<form data-kiln-public=\"kln_pub_ddZWqkGyE4iwZABeEqrz9rwV0m78hVgS\" data-kiln-seal=\"Z2oTIobw7vrvGPLYO_DOK10_gJyQEk-vBqa1JEmBMqk\" method=\"post\">",
            "Z2oTIobw7vrvGPLYO_DOK10_gJyQEk-vBqa1JEmBMqk",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for text in [
        "<div data-sitekey=\"6LdQx2kqAAAAAGq9m8kZr1Vt4bHc3nE5uW7yP0aS\"></div>",
        "host: builds.example.com.s3.amazonaws.com",
    ] {
        assert_eq!(redact(text).0, text);
    }
}

/// Found by the 135th and 136th sealed parts: a Windows CryptoAPI private key blob in base64
/// (`PRIVATEKEYBLOB`, `RSA2`; the public blob, `RSA1`, stays), a .NET XML private key taken
/// whole, a token of a two-part prefix in a channel's `/t/` path; not secrets: three ids of one
/// length alone in a list, a value whose vendor's prefix says public (`hrpub_…`).
#[test]
fn found_by_the_136th_sealed_part() {
    for (text, secret) in [
        (
            "pallet_scan_csp_blob = \"BwIAAACkAABSU0EyUfndy61iA3mZqz2aktGBOv7yXpvWXgzYStCsEtVZRTAnoKj7GrM1RlcCqUODMq+WKxuVEBY0vkjh0XPP+DvzQR7LdO44KjFpJ5EPpDSPSpEJnzaXlHp+fjvqp8k50amU9r9zfg==\"",
            "BwIAAACkAABSU0EyUfndy61iA3mZqz2aktGBOv7yXpvWXgzYStCsEtVZRTAnoKj7GrM1RlcCqUODMq",
        ),
        (
            "<RSAKeyValue><Modulus>sz8Y1ZVOSN9tak0BTp0Ewcu8ylz2mTZA0itfWa4j0LuGGdw9wjrb==</Modulus><Exponent>AQAB</Exponent><D>Zq7Wm2Xv9Kc4Rt1Ly8Ps3Nb6Hd0Gf5Ja2Ue7Qi4Vo1Mx==</D></RSAKeyValue>",
            "sz8Y1ZVOSN9tak0BTp0Ewcu8ylz2mTZA0itfWa4j0LuGGdw9wjrb",
        ),
        (
            "conda config --set channel_alias https://conda.example.com/t/swpx_live_ecx0sofnid3nyjip5hb654ofo4lmnom1",
            "swpx_live_ecx0sofnid3nyjip5hb654ofo4lmnom1",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for text in [
        "cert_blob = \"BgIAAACkAABSU0ExivRAi3EuLIMjaLZ2MQoJhc0q6pgl+qsTEA9c7TSAmbenMcj9Lewtmp99JGTEQgW82Tz/lhL+pG60zicTfdEq1LG2VDejm1cqGiEwXhB46AQfpnAZkIDwiWptnNgd+Fi9TnHc+A==\"",
        "event SAWP3GKvAggftTsH3CKdRcnjJOE accepted\nevent oVGuqqLONt7Bf0sGnv2eQxMO3q1 accepted\nevent yNHt44IrCLCEB0R5guSePBkcLMI accepted",
        "let dockTag = \"hrpub_IVnTUNKLqAYI6847M6z6E7xFPzXte76O\"",
    ] {
        assert_eq!(redact(text).0, text);
    }
}

/// Found by the 137th sealed part: a `.pvk` private key file in base64 by its magic, a dotted
/// token given bare to `-p` after `-u`, a Tink keyset's symmetric key material in escaped JSON
/// (a Go string's `\"`, a CSV cell's `""`); not a secret: a Tink keyset's public key.
#[test]
fn found_by_the_137th_sealed_part() {
    for (text, secret) in [
        (
            "const val SIGNER_PVK = \"HvG1sAAAAAABAAAApzIH9biQKdqbhq6sQToAUocsdLmim7+QvSqdG24sUSmguFhnBgsJtZh/j5aPV7G1FZAt7xQRDiiXm/syU3iJQr7LpzC3pT6TifEncI2WT2k=\"",
            "HvG1sAAAAAABAAAApzIH9biQKdqbhq6sQToAUocsdLmim7",
        ),
        (
            "twine upload -u LGST-8744 -p e2495fdda091765ff72cac9d.c874fc387c4829e2276f610db48adb0b dist/*",
            "e2495fdda091765ff72cac9d.c874fc387c4829e2276f610db48adb0b",
        ),
        (
            "keyset = \"{\\\"key\\\":[{\\\"keyData\\\":{\\\"typeUrl\\\":\\\"type.googleapis.com/google.crypto.tink.AesGcmKey\\\",\\\"value\\\":\\\"GiCnNV1GmI06etQdgx1vSqVEjP0DLuJvlkTkMyjkUNEJ7w==\\\",\\\"keyMaterialType\\\":\\\"SYMMETRIC\\\"}}]}\"",
            "GiCnNV1GmI06etQdgx1vSqVEjP0DLuJvlkTkMyjkUNEJ7w",
        ),
        (
            "site-1,\"{\"\"key\"\":[{\"\"keyData\"\":{\"\"typeUrl\"\":\"\"type.googleapis.com/google.crypto.tink.AesGcmKey\"\",\"\"value\"\":\"\"GiDlku+TI+z5MF+PnSiNJ7nFYIYNSJSu/LOvD2NN8wmKOw==\"\",\"\"keyMaterialType\"\":\"\"SYMMETRIC\"\"}}]}\"",
            "GiDlku+TI+z5MF+PnSiNJ7nFYIYNSJSu/LOvD2NN8wmKOw",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    let public = "{\"key\": [{\"keyData\": {\"typeUrl\": \"type.googleapis.com/google.crypto.tink.Ed25519PublicKey\", \"value\": \"EiCBm9MHLOkalfo6MPBER5xMkfJQAcRW5IhqdgHQgI+lAQ==\", \"keyMaterialType\": \"ASYMMETRIC_PUBLIC\"}}]}";
    assert_eq!(redact(public).0, public);
}

/// Found by the 138th sealed part: CDN77's secure token in a URL's path (`/<token>,<expiry>/…`),
/// a key pair's secret half beside a public half whose vendor prefix holds a digit
/// (`i360pub_…`); not a secret: an EC key's public `y` after an `x` whose letters happen to end
/// in `pw` (a drawn word is no credential's name).
#[test]
fn found_by_the_138th_sealed_part() {
    for (text, secret) in [
        (
            "proof_url = \"https://1646785590.rsc.cdn77.org/5Ho69cvN2TeVia6T4IIoow,1796667080/proofs/k4/p.pdf\"",
            "5Ho69cvN2TeVia6T4IIoow",
        ),
        (
            "PANEL_LABEL = \"i360pub_QnkEPQiR5DE0pGayz3yb4wupCmb1hMWE\"\nPANEL_STENCIL = \"CMZgPXWDWLUcW1ui81LGl1KTilPNkKak7KNPyCx-B48\"",
            "CMZgPXWDWLUcW1ui81LGl1KTilPNkKak7KNPyCx-B48",
        ),
    ] {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    let public = "{\"kty\": \"EC\", \"crv\": \"secp256k1\",\n\"x\": \"7PHehG0i1yWKMVAyd5b2QE45JXUdI2eCyUBa2yGWYpw\",\n\"y\": \"ZkYv8q4471wLPTUlKrJL0iwtBQlDC7acp26Ci05B8hc\"}";
    assert_eq!(redact(public).0, public);
}

/// Found by the 139th sealed part: a gpg-agent private key file (an S-expression's `d`, and an
/// RSA key's primes; an elliptic curve's public `q` stays), an encrypted keystore's ciphertext
/// however its JSON is escaped.
#[test]
fn found_by_the_139th_sealed_part() {
    let q = "4058B92E614E87BB0AB6959B1ED5DBCBE2CA034EF632C65E5E4866E9D735FFB752";
    let d = "22E805E188D63AD4A6F8BDF419878BB1639E6C1DF61C2DECF51856CD56F11F72";
    let keyfile = format!(
        "Created: 20251218T082005 Key: (private-key (ecc (curve Ed25519)(flags eddsa)(q #{q}#)(d #{d}#)))"
    );
    let (out, _) = redact(&keyfile);
    assert!(!out.contains(d) && out.contains(q), "{out}");
    let c = "11c824844c7a9c86d49ec32f95364e75a47e09d74329d357e2214be588792cda";
    for text in [
        format!(
            "{{\"crypto\":{{\"cipher\":\"aes-128-ctr\",\"ciphertext\":\"{c}\",\"kdf\":\"scrypt\"}}}}"
        ),
        format!(
            "x,\"{{\"\"crypto\"\":{{\"\"ciphertext\"\":\"\"{c}\"\",\"\"kdf\"\":\"\"scrypt\"\"}}}}\""
        ),
        format!(
            "<div data-k=\"{{&quot;crypto&quot;:{{&quot;ciphertext&quot;:&quot;{c}&quot;,&quot;kdf&quot;:&quot;scrypt&quot;}}}}\">"
        ),
    ] {
        let (out, _) = redact(&text);
        assert!(!out.contains(c), "{out}");
    }
}

/// Found by the 140th sealed part: what is typed in answer to a store's prompt after a command
/// that keeps a secret under a credential's name (`pass insert -m`, `vercel env add
/// …_API_TOKEN`), an ids' answer left; a signing key written as its algorithm, id and body
/// (Matrix's `ed25519 a_XXXX …`), a verifying key and a host key's fingerprint left; a URL's
/// password whatever name the URL is kept under. Clean: a deployment's id in a report's
/// `id` row, a zone's DNSKEY record, records' ids a sentence names by their kind.
#[test]
fn found_by_the_140th_sealed_part() {
    let typed = "c47cb41bf835ba43a6fe12d5.20791ae70b7c26c1179fbf21126f8c9c";
    let text1 = format!(
        "$ pass insert -m ops/depot/api\nEnter contents of ops/depot/api and press Ctrl+D when finished:\n\n{typed}\naccount: DPT-543353\n"
    );
    let (out, _) = redact(&text1);
    assert!(!out.contains(typed) && out.contains("DPT-543353"), "{out}");
    let answer = "98e23225842f564afba31e2f1c952bf3";
    let text2 = format!(
        "$ vercel env add DEPOT_API_TOKEN production\n? What's the value of DEPOT_API_TOKEN? {answer}\nSuccess!\n$ vercel env add DEPOT_ACCOUNT_ID production\n? What's the value of DEPOT_ACCOUNT_ID? DPT-01349\n"
    );
    let (out, _) = redact(&text2);
    assert!(!out.contains(answer) && out.contains("DPT-01349"), "{out}");
    let seed = "ITxCRXLqMlq6fVBXMma/7sY/nj8U957GGG9qmU64cGM";
    let text3 = format!("  signingKey: 'ed25519 a_PrlV {seed}',");
    let (out, _) = redact(&text3);
    assert!(!out.contains(seed), "{out}");
    for clean in [
        format!("  verify_key: 'ed25519 a_PrlV {seed}',"),
        format!("open sftp://u@h/ -privatekey=\"k.ppk\" -hostkey=\"ssh-ed25519 255 {seed}\""),
        "  id\t\tdpl_4E70ghjhwxEcTxlqbaOObI2Xih95".to_string(),
        "zone.test. 3600 IN DNSKEY 257 3 13 waHfIKR3AVUgWsObCCgnBqI60mcowH61zt8FskD0H84gpu1NmUJf+rdJUvtGFbxiziiw9zjpBgBEAW7D8svyzA==".to_string(),
        "order vWn1PfP3YWPlr2lIV88bo shipped; parcel XAYv2FxmqRWyT02kVLdCe".to_string(),
    ] {
        let (out, _) = redact(&clean);
        assert_eq!(out, clean);
    }
    let (out, _) = redact(
        "    set $depot_upload_url \"ftpes://kgsvc603:6ccSO~D5nQmpd~_sjN@ftp.depot.example/logs/\";",
    );
    assert!(!out.contains("6ccSO~D5nQmpd~_sjN"), "{out}");
}

/// Found by the 141st sealed part: a key whose own prefix calls it private (`ed25519-priv-0x…`),
/// also in a page's `data-private-key`; a vendor's prefix before a UUID under a token's name
/// (`glab variable set …_API_TOKEN --value 'rlc_<uuid>'`); the passphrase handed to a program
/// named for one (`wpa_passphrase SSID '…'`); a private key's column beside its public one.
/// Clean: a secret named where another program keeps it (`psk=ext:ops_psk`), a stored
/// secret's UUID named by its manager.
#[test]
fn found_by_the_141st_sealed_part() {
    let hex = "0192e27c97d303fc81f8a414287b35a490ca8b6e7bad074a3fd0a6d95fb6bc74";
    for text in [
        format!("name,public_key,private_key\nx,ed25519-pub-0x{hex},ed25519-priv-0x{hex}\n"),
        format!(
            "<div data-public-key=\"ed25519-pub-0x11\" data-private-key=\"ed25519-priv-0x{hex}\"></div>"
        ),
    ] {
        let (out, _) = redact(&text);
        assert!(
            out.matches(hex).count() < text.matches(hex).count(),
            "{out}"
        );
    }
    let cases = [
        (
            "glab variable set DEPOT_API_TOKEN --value 'rlc_f94d36a2-2e74-4678-985c-145ac19ab2a8' --masked",
            "f94d36a2-2e74-4678-985c-145ac19ab2a8",
        ),
        (
            "$ wpa_passphrase \"ops\" 'su081t6uiflkbotw8v194vv99vsngnz65bhl1zq9xhux5zsb' | sudo tee -a /etc/w.conf",
            "su081t6uiflkbotw8v194vv99vsngnz65bhl1zq9xhux5zsb",
        ),
        (
            "integration,vapid_subject,vapid_public_key,vapid_private_key\nv,mailto:w@v.example,BKj9QO9NBOBwgf0aydl4CbnA3hAbYGOZsAI_cqSjsQepyQWXA0PmbLQX4gIsOQqZJqAW9H64pN8OuTNN-6iC6mc,DJF8kRvDKLbsakb0EBaTFouA5fPT6TXwqDDLj6wD7Ac\n",
            "DJF8kRvDKLbsakb0EBaTFouA5fPT6TXwqDDLj6wD7Ac",
        ),
    ];
    for (text, secret) in cases {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "network={\n\tssid=\"ops\"\n\tpsk=ext:ops_psk\n}",
        "# DEPOT_API_TOKEN is injected from Bitwarden Secrets Manager secret a8787710-3d8e-4936-96d1-b16cbe9b48e2",
    ] {
        let (out, _) = redact(clean);
        assert_eq!(out, clean);
    }
}

/// Found by the 142nd sealed part: a value `printf`ed into a command that encrypts or stores
/// it under a credential's name (`systemd-creds encrypt --name=…-api-token -`) or told to read
/// a key from its input (`wg set … preshared-key /dev/stdin`); `htpasswd -b` with another flag
/// beside it; a key in a page's `data-private-key` attribute. Clean: a WireGuard peer's public
/// key after `peer`, a messaging API's resource ids (`SM` and 32 hex digits).
#[test]
fn found_by_the_142nd_sealed_part() {
    let cases = [
        (
            "$ printf '%s' 'XNQU5HY4-A4YLF4V4-86MPR5CN-U9WZVKHI-16' | sudo systemd-creds encrypt --name=depot-api-token - /etc/credstore.encrypted/depot-api-token",
            "XNQU5HY4-A4YLF4V4-86MPR5CN-U9WZVKHI-16",
        ),
        (
            "$ printf '%s' 'a6xbcimnjejghy6nnqd3qoujjpglorusk2pddx5yd7ua2r2oq3xq' | sudo wg set wg0 peer FBrj5zVJI0VDS0I+DnSXlNroDolXgstEv+O1JSvTSn0= preshared-key /dev/stdin",
            "a6xbcimnjejghy6nnqd3qoujjpglorusk2pddx5yd7ua2r2oq3xq",
        ),
        (
            "$ sudo htpasswd -b -B /etc/nginx/hook.htpasswd depot-1 'amvs_91lBKN2g1ca4MZsUEbz52pQx.GVZJtcYWADYGD8R4evn5RRpG'",
            "amvs_91lBKN2g1ca4MZsUEbz52pQx.GVZJtcYWADYGD8R4evn5RRpG",
        ),
        (
            "<div data-public-key=\"ed25519:78Ev2UMFfvQhr3uqZuf8oTjwzVtpPVyPJLJZuuAkD5fd\" data-private-key=\"ed25519:4QSDeD8h1pPqKFENgkVP6XkZnhZ17uouTsUx1mSP1jhX5bDYFvcbt5s4NRs48XEXEoQcuLc4kCkiCHtjiKWT8yHh\"></div>",
            "4QSDeD8h1pPqKFENgkVP6XkZnhZ17uouTsUx1mSP1jhX5bDYFvcbt5s4NRs48XEXEoQcuLc4kCkiCHtjiKWT8yHh",
        ),
    ];
    for (text, secret) in cases {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "$ sudo wg set wg0 private-key /etc/wireguard/private.key peer fMRKvCcDU3ReVWlkrvbKU75r0NR/lKpqor5sAUj1li0= preshared-key /etc/wireguard/psk",
        "SM19496e4d5a468b1e49b8659ef390e5af AC2529c08cf4a2646865d2292d1a237e4e",
    ] {
        let (out, _) = redact(clean);
        assert_eq!(out, clean);
    }
}

/// Found by the 143rd sealed part: a password an `expect` one-liner sends on the line that
/// waits for the prompt, its quotes escaped inside `expect -c "…"`; the password of a login
/// handed to an option named for credentials (`--dest-creds USER:PASSWORD`); any program named
/// for passwords in `-b FILE USER PASSWORD` batch form (`mosquitto_passwd`). Clean: what
/// `openssl enc -a` writes (`Salted__` in base64).
#[test]
fn found_by_the_143rd_sealed_part() {
    let cases = [
        (
            "unbuffer expect -c \"spawn mysql_config_editor set --login-path=depot --password; expect -nocase \\\"Enter password:\\\" {send \\\"q6w5emx5h5iclkgxxjsl5e7sskhoynovxiwiznobuvmrxp7g2ytrqzm7\\r\\\"; interact}\"",
            "q6w5emx5h5iclkgxxjsl5e7sskhoynovxiwiznobuvmrxp7g2ytrqzm7",
        ),
        (
            "$ skopeo copy --dest-creds DPT-5900:imtk1PASAE64KLLEAHAEGHTCJ42IR3J67NJ3ZXZ9O-08eb docker://a docker://b",
            "imtk1PASAE64KLLEAHAEGHTCJ42IR3J67NJ3ZXZ9O-08eb",
        ),
        (
            "$ sudo mosquitto_passwd -b /etc/mosquitto/passwd depot-bridge 'xhtgq5r235zjap7nwgnpi25mghrlttui25ecx2u2zz6fy3l7gv4ksjic'",
            "xhtgq5r235zjap7nwgnpi25mghrlttui25ecx2u2zz6fy3l7gv4ksjic",
        ),
    ];
    for (text, secret) in cases {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    let clean = "$ openssl enc -aes-256-cbc -pbkdf2 -a -in notes.txt -pass file:/run/secrets/notes.pass\nU2FsdGVkX1+wYpIv6ommRCHvXmretvO3tt8u0ApMk32VgUFVzlCGqskPaGCK75187l5DdysjMNiPpchNstd77Q==";
    let (out, _) = redact(clean);
    assert_eq!(out, clean);
}

/// Found by the 144th sealed part (issue 20): a value printed into a file named for a password
/// (`printf '%s\\n' '…' > ~/.acme-rsync.pass`), or piped into one under a credential store
/// (`| sudo install -m 0600 /dev/stdin /etc/credstore/acme-api-token`); a value printed into the
/// file the shell makes for a key's option (`preshared-key <(printf '%s' '…')`); a secret key in
/// a two-column settings table written as code; a wallet export in hex whose JSON holds a
/// private key, after a property's `=` too. Clean: the SHA-256 of a rotated token, named as
/// such.
#[test]
fn found_by_the_144th_sealed_part() {
    let wallet = "7b2254797065223a22736563703235366b31222c22507269766174654b6579223a22516d396e64584d676132563549474a356447567a49475a76636942305a584e304947397562486b3d227d";
    let property = format!("acme.wallet.export={wallet}");
    let config = format!("wallet_export:  {wallet}");
    let cases = [
        (
            "$ printf '%s\\n' 'stxr_esjj71b5f7bp17phtq96s5z8bp' > ~/.acme-rsync.pass && chmod 600 ~/.acme-rsync.pass",
            "stxr_esjj71b5f7bp17phtq96s5z8bp",
        ),
        (
            "$ printf '%s' 'hlsp_a17945c12c2ecfa4446676be6f25_00' | sudo install -m 0600 /dev/stdin /etc/credstore/acme-api-token",
            "hlsp_a17945c12c2ecfa4446676be6f25_00",
        ),
        (
            "$ sudo wg set wg0 peer hOnQXkv85G676+zkzv1ZlTSFNbqYg60vudOHEWe7Ozo= preshared-key <(printf '%s' 'cBnVeoxtpzayUBTiUh6mYMiToT9NgGu60Ptbas8/UqB4') endpoint vpn.acme.example:51820",
            "cBnVeoxtpzayUBTiUh6mYMiToT9NgGu60Ptbas8/UqB4",
        ),
        (
            "| setting | value |\n|---|---|\n| `box_public_key` | `At/H9rg53lL6ryc3stpxJN2IOV2d2Eg1dAnfzwy4UE0=` |\n| `box_secret_key` | `mHCnj4vhdVNrLOKfZ79a0+ZGCPG+E4Y217Tl+8mhe1A=` |",
            "mHCnj4vhdVNrLOKfZ79a0+ZGCPG+E4Y217Tl+8mhe1A=",
        ),
        (property.as_str(), wallet),
        (config.as_str(), wallet),
    ];
    for (text, secret) in cases {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "token rotated for ACME-23639; sha256 of new token: 05d92d769cbf97fe00c6dab89ac856f92034059b9d331598e015be0424c543ce",
        "| setting | value |\n|---|---|\n| `box_public_key` | `At/H9rg53lL6ryc3stpxJN2IOV2d2Eg1dAnfzwy4UE0=` |",
    ] {
        let (out, _) = redact(clean);
        assert_eq!(out, clean);
    }
}

/// Found by the 145th sealed part (issue 20): an `expect -c` one-liner that expects more after
/// its answer (`…; send "…\r"; expect eof`); a PASERK secret by its own prefix, and in a CSV
/// cell in quotes. Clean: a key whose type tag says public (`PUB_K1_…`), a token's fingerprint
/// named as one, a package's `.sha512` file printed, a URL's port after a host whose name holds
/// `pass`.
#[test]
fn found_by_the_145th_sealed_part() {
    let cases = [
        (
            "$ expect -c 'spawn mysql_config_editor set --login-path=acme --host=db.acme.example --user=acme_ro --password; expect \"Enter password:\"; send \"uvn_78ZHZYEPZY7NA8AG4QJAY24ZKM\\r\"; expect eof'",
            "uvn_78ZHZYEPZY7NA8AG4QJAY24ZKM",
        ),
        (
            "k3.secret.2ObVH3dA_vqgGoujV7Z-hgB4AWP_WQo66coIz4vbn__L_tefhNRrGqH1exZZsiKp",
            "2ObVH3dA_vqgGoujV7Z-hgB4AWP_WQo66coIz4vbn__L_tefhNRrGqH1exZZsiKp",
        ),
        (
            "provider,paserk_version,paserk_public,paserk_secret\nacme,\"v3\",\"k3.public.AngGKqzfrQdz3oF08cmZ_Hn2ZdhrD2bjv5aYty937EyM4uX\",\"k3.secret.2ObVH3dA_vqgGoujV7Z-hgB4AWP_WQo66coIz4vbn__L\"",
            "2ObVH3dA_vqgGoujV7Z-hgB4AWP_WQo66coIz4vbn__L",
        ),
        // A brand's `pub_` prefix names no public key.
        (
            "newsdata_api_key: pub_5304494c61f42d557bb66c67937f7d857d0e6",
            "pub_5304494c61f42d557bb66c67937f7d857d0e6",
        ),
    ];
    for (text, secret) in cases {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "$ cleos get account acme\npermissions: \n     owner     1:    1 PUB_K1_7jgCUSpePbBvaQxShKcBVaMFPNYZFFZtrhrVD5PPYdqRawDP4J",
        "Acme token fingerprint (sha256): 4a682a2019776a9b2100d98ba2e267ae20b5b8e083ae3f9fa7bbafe3db46b5c4",
        "$ cat ~/.nuget/packages/acme/1.15.0/acme.1.15.0.nupkg.sha512\nJEHoiV6gKgaqNSOIwuRfwrOMIi1jrbSX1ZUDQB+J63V+VC8S7Gi8kW1gvjaWHnhLhMSbzptYnhPBCKRK5dnrWA==",
        "SQLALCHEMY_URI = \"dremio+flight://bi-reader@dremio.deskpass.example:32010/dremio?UseEncryption=true\"",
    ] {
        let (out, _) = redact(clean);
        assert_eq!(out, clean);
    }
}

/// Found by the 146th sealed part (issue 20): a variable's value given by `--value` after its
/// credential's name (`glab variable set …_API_TOKEN --value '…'`); a Bech32 key whose kind after
/// its curve says secret (`ed25519e_sk1…`). Clean: one whose kind says public or verifying
/// (`ed25519_pk1…`, `acct_xvk1…`); digests a command that names them printed (`jq
/// '….sha512'`).
#[test]
fn found_by_the_146th_sealed_part() {
    let cases = [
        (
            "$ glab variable set ACME_API_TOKEN --value 'rlk_ba39a87101dc74087ef8fc8ac1ad8c_04' --masked --protected -R ops/acme-sync",
            "rlk_ba39a87101dc74087ef8fc8ac1ad8c_04",
        ),
        (
            "<signingKey>ed25519e_sk13qpe43w8q8ygcyvvd0ztzws6q0kcc0gdyhffpj49l0vw6snr9fxk2qxdk0rhcccahve3uu9mfvry79n2skxusgytfad5fe5xzng2rssv7mz2q</signingKey>",
            "ed25519e_sk13qpe43w8q8ygcyvvd0ztzws6q0kcc0gdyhffpj49l0vw6snr9fxk2qxdk0rhcccahve3uu9mfvry79n2skxusgytfad5fe5xzng2rssv7mz2q",
        ),
    ];
    for (text, secret) in cases {
        let (out, _) = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for clean in [
        "$ glab variable set ACME_ACCOUNT_ID --value RFLK-120633 -R ops/acme-sync",
        "$ cat acme.vkey.bech32\ned25519_pk1q509j0v5nsjwvn5ssjamm6aash80rszc88smard8m20vkzkdzpsqa293ql",
        "$ cat obj/project.assets.json | jq '.libraries | to_entries[] | .value.sha512'\n\"P+J02LQVxlumxGI4IPnkO6wAu6NJe8hUl8Wc6X/Ta1S8rNbX31VEFYGd9bPdInyhTGuDhBw4Py9E4I+0/6jfUw==\"\n\"ELXT/vdymS+gnN6UJInloYL6faxbpR3JipDxokNeCOr319HjMKERxhLLOmnOLgS2E1dSSqYWYpppPJi7TK5h+A==\"",
    ] {
        let (out, _) = redact(clean);
        assert_eq!(out, clean);
    }
}

/// Found by the 147th sealed part (issue 20): a private key in base64 PEM in a page's `data-`
/// attribute, beside its certificate: what it decodes to says what it is, whatever the page
/// ships. The certificate stays.
#[test]
fn found_by_the_147th_sealed_part() {
    let key = "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSUJrZzRMVldNOW51d05TazN5Qnl4WnBZUlRCblZKazVYREdvMmRJVXpZcXdvQW9HQ0NxR1NNNDkKLS0tLS1FTkQgRUMgUFJJVkFURSBLRVktLS0tLQo=";
    let cert = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJNekNCMnFBREFnRUNBaFIyTC9Ic3k4citkUFlxRU4zZDY4TWNwN1haTC9EQUtCZ2dxaGtqT1BRUURBakFhCi0tLS0tRU5EIENFUlRJRklDQVRFLS0tLS0K";
    let text = format!(
        "<div data-client-certificate-data=\"{cert}\" data-client-key-data=\"{key}\"></div>"
    );
    let (out, _) = redact(&text);
    assert!(!out.contains(key), "{out}");
    assert!(out.contains(cert), "{out}");
}

/// Found by the 149th sealed part (issue 20): a JSON Web Key's private member spelled as a
/// name of its own beside its `…_KTY` (environment variables, flat settings, a log line); a
/// table whose header names a credential column, and an `id:secret` value in it; a prefixed
/// token whose hex body comes in segments. Their public neighbours stay.
#[test]
fn found_by_the_149th_sealed_part() {
    let d = "2Z9MZZdeuMc87pSZGlHxNTmnTEtE8vJ551V2R7mcE8Q";
    let x = "BG7KJ6Qd056Oh0LkkA5U-BcjPc-ySWfKjyeJhahHDJs";
    let secret = "5gxpieiqKtHeomw5ijO8AwzZWkzQUubhBAurC-bjzSI";
    let token = "abcd_168ddbf2b051bcd1a017e5b80bf1f0_98a744";
    for text in [
        format!("ACME_JWK_KTY=OKP\nACME_JWK_CRV=Ed25519\nACME_JWK_X={x}\nACME_JWK_D={d}"),
        format!("[acme]\njwk_kty = \"OKP\"\njwk_x = \"{x}\"\njwk_d = \"{d}\""),
        format!("INFO loaded jwk_kty=OKP jwk_crv=Ed25519 jwk_x={x} jwk_d={d}"),
    ] {
        let (out, _) = redact(&text);
        assert!(!out.contains(d), "{out}");
        assert!(out.contains(x), "{out}");
    }
    let table = format!("provider,client_id,realtime_key\nacme,clinic-19368,Ab12Cd.EfGh3:{secret}");
    let (out, _) = redact(&table);
    assert!(!out.contains(secret), "{out}");
    assert!(out.contains("clinic-19368"), "{out}");
    let printed = format!("$ cat acme.auth\nACME-16709\n{token}");
    let (out, _) = redact(&printed);
    assert!(!out.contains(token), "{out}");
    for clean in [
        "provider,client_id,api_key\nacme,clinic-19368,<set in vault>",
        "name,key,value\nretries,max,5",
        "build_1a2b3c4d_5e6f7a8b9c0d",
    ] {
        let (out, _) = redact(clean);
        assert_eq!(out, clean);
    }
}

/// Found by the 150th sealed part (issue 20): a command that picks the one field it prints
/// (`--query VersionId`, `--query ETag`) prints that field, not the secret its other words
/// name; an S3 object's `--key` is a file's name; an id quoted after `id:` is labelled an id.
/// A field that names the secret is still its value.
#[test]
fn found_by_the_150th_sealed_part() {
    for clean in [
        "$ aws secretsmanager get-secret-value --secret-id ops/api-token --query VersionId\n\"7c1d54a2-0b7e-4b52-9a51-6f3e2c8d9a10\"",
        "$ aws s3api head-object --bucket exports --key visits.parquet --query ETag\n\"\\\"0d6f2c1b9e8a7d6c5b4a39281706f5e4-3\\\"\"",
        "const wards = [\n  { id: \"Qm3ZtY8vLp2Nw_Kd5Rx9a\", name: \"Ash\" },\n];",
    ] {
        let (out, _) = redact(clean);
        assert_eq!(out, clean);
    }
    let secret = "Zq8vK2mPx7LtR4nW9bYc3HdF";
    let printed = format!(
        "$ aws secretsmanager get-secret-value --secret-id ops/api-token --query SecretString --output text\n{secret}"
    );
    let (out, _) = redact(&printed);
    assert!(!out.contains(secret), "{out}");
}

/// Found by the 151st sealed part (issue 20): a value named a certificate that is too short to
/// be one (a shared secret some services call their app certificate); a JSON Web Key's members
/// spelled out with a `crv` and no `kty`, also as a tool's aligned listing; a `--query` long
/// option's value is its own, not a credential's named before it; a table's `…_name` and
/// `…_tag` columns under a line the tool printed first hold names.
#[test]
fn found_by_the_151st_sealed_part() {
    let cert = "760c3e7ab9660526b3e228ac3dcd798d";
    let text = format!("ACME_APP_ID=73a2697ce971993480e4ef4efca3c7c4\nACME_APP_CERT={cert}");
    let (out, _) = redact(&text);
    assert!(!out.contains(cert), "{out}");
    assert!(out.contains("73a2697ce971993480e4ef4efca3c7c4"), "{out}");
    let d = "PdLp17XecQY1dOjpIyASH05KaFrgnpJIk-Qdhxz6sjk";
    let x = "vC9R-njndQgpViUfVUtfTsLMZzxD_ikSXzEi8whx7M0";
    for text in [
        format!("[acme]\nacm_jwk_crv = \"Ed25519\"\nacm_jwk_x = \"{x}\"\nacm_jwk_d = \"{d}\""),
        format!("$ acmectl config show\nacm_jwk_crv  Ed25519\nacm_jwk_x    {x}\nacm_jwk_d    {d}"),
    ] {
        let (out, _) = redact(&text);
        assert!(!out.contains(d), "{out}");
    }
    for clean in [
        "cert_thumbprint: 3F2A9C1D0B8E7F6A5D4C3B2A1908F7E6D5C4B3A2",
        "$ aws secretsmanager describe-secret --secret-id prod/api-token --query \"VersionIdsToStages\"",
        "$ sudo rabbitmqctl list_consumers -p /sync\nListing consumers in vhost /sync ...\nqueue_name\tchannel_pid\tconsumer_tag\namq.gen-Qx81TogltS3DTw7CHXByA\t<rabbit@mq1.1.1620.1>\tamq.ctag-9kEYMSD0CSgeUFIz1L8yzg",
    ] {
        let (out, _) = redact(clean);
        assert_eq!(out, clean);
    }
}

/// Found by the 152nd sealed part (issue 20): three ids of one length alone on their lines are
/// a list of records' ids even when nanoid's `-` and `_` are in them.
#[test]
fn found_by_the_152nd_sealed_part() {
    let clean = "Qm3Zt-8vLp2Nw_Kd5Rx9a\nPx7Lt_4nW9bYc3HdFq2Zk\nYc3Hd-Fq2ZkQm3Zt8vLp2";
    let (out, _) = redact(clean);
    assert_eq!(out, clean);
}

/// Found by the 153rd sealed part (issue 20): a flattened JSON Web Key behind Make's `?=` and
/// in PascalCase (`AcmeJwkKty`, `AcmeJwkD`); a key's name said after the word `key` (`key name
/// xrf95k.4RnmAh`) names it, it is not it.
#[test]
fn found_by_the_153rd_sealed_part() {
    let d = "PdLp17XecQY1dOjpIyASH05KaFrgnpJIk-Qdhxz6sjk";
    for text in [
        format!("ACME_JWK_KTY ?= OKP\nACME_JWK_D ?= {d}"),
        format!(
            "static class AcmeSettings\n{{\n    public const string AcmeJwkKty = \"OKP\";\n    public const string AcmeJwkD = \"{d}\";\n}}"
        ),
    ] {
        let (out, _) = redact(&text);
        assert!(!out.contains(d), "{out}");
    }
    let clean = "// key name xrf95k.4RnmAh, capability scores:*";
    let (out, _) = redact(clean);
    assert_eq!(out, clean);
}

/// Found by the 155th sealed part (issue 20): a package's digest asked of its metadata by a
/// field named in camel case (`jq -r .contentHash`, NuGet's base64 SHA-512) was redacted as a
/// 512-bit key; a key shown by a command that names no digest still is.
#[test]
fn found_by_the_155th_sealed_part() {
    let clean = "$ jq -r .contentHash ~/.nuget/packages/acme.client/2.4.1/.nupkg.metadata\n+dtXjDUweeENAWRvdak1bON+QP6Sks7WxICKk/6oC5T5tRe5FA6f6kyZqj3kz1q8ueSesqbyzUTq8ppW8AeDSw==";
    let (out, _) = redact(clean);
    assert_eq!(out, clean);
    let key =
        "2vb7//KDfMbslybORTWPGkhJU/VpUBAwqj+rN9n7J01k9RFeOV6rsYIcNkmFLxPkySuEpraRCaX/YKKUAAK9uw==";
    let shown = format!("$ acme keys show --name storage\n{key}");
    let (out, _) = redact(&shown);
    assert!(!out.contains(key), "{out}");
}

/// Found by the 156th sealed part (issue 20): the user's name after a password program's file
/// (`htpasswd -b FILE USER`, `mosquitto_passwd FILE USER`) was taken for the password, and an
/// `otpauth://` URI with no secret in it for an assignment to `auth`; the password a batch
/// line gives, and a TOTP secret in the URI's query, still are redacted.
#[test]
fn found_by_the_156th_sealed_part() {
    for clean in [
        "htpasswd -b /etc/nginx/acme-partner.htpasswd partner-0372 \"$(cat /run/secrets/acme_htpasswd)\"",
        "$ sudo mosquitto_passwd /etc/mosquitto/passwd acme-sensor-536\nPassword:\nReenter password:",
        "otpauth://totp/Acme%20Stores:store585.manager?issuer=Acme%20Stores&algorithm=SHA1&digits=6&period=30",
        "otpauth://totp/Acme:store585.manager?issuer=Acme&algorithm=SHA1&digits=6",
    ] {
        let (out, _) = redact(clean);
        assert_eq!(out, clean);
    }
    let password = "Vq4mT9wLz2XkRb";
    let batch = format!("mosquitto_passwd -b /etc/mosquitto/passwd acme-sensor-536 {password}");
    let (out, _) = redact(&batch);
    assert!(!out.contains(password), "{out}");
    assert!(out.contains("acme-sensor-536"), "{out}");
    let seed = "QJ4FLKWZ2XV7HMN3R6TYPDAE5SBCGU2K";
    let uri = format!("otpauth://totp/Acme:bob?secret={seed}&issuer=Acme");
    let (out, _) = redact(&uri);
    assert!(!out.contains(seed), "{out}");
}

/// Found by the 157th sealed part (issue 20): a PASETO a server signed (`v4.public.` and its
/// claims, then their signature) was left as a public key is (`k3.public.…`); a JSON Web Key's
/// private member as an XML setting (`<add key="…_jwk_d" value="…"/>`) was missed; and a zlib
/// stream in base64 of a key's length was taken for a 512-bit key.
#[test]
fn found_by_the_157th_sealed_part() {
    let token = "v4.public.eyJpc3MiOiJodHRwczovL2Jvb2tpbmdzLmFjbWUuZXhhbXBsZSIsInN1YiI6InJvb20taG9zdC03IiwiZXhwIjoiMjAyNi0xMi0wMlQwOToxNzoxNSswMDowMCJ9NCmSTUzICvMoH70VyJX6vkqjKI_q1SYQEKweAkAKicxWSOiRluftuFWkMKstfvCCu8-eCA1NNAqPfgD6MDTGGQ";
    let d = "o9Cc_Ss6lzKvhf4kkW5vtrchb0ttuMPBNoptVe6zVNE";
    for (text, secret) in [
        (format!("set acme_token {{{token}}}"), token),
        (format!("acme.token={token}"), token),
        (
            format!(
                "<appSettings>\n  <add key=\"acme_jwk_kty\" value=\"EC\" />\n  <add key=\"acme_jwk_d\" value=\"{d}\" />\n</appSettings>"
            ),
            d,
        ),
    ] {
        let (out, _) = redact(&text);
        assert!(!out.contains(secret), "{out}");
    }
    let clean =
        "eJwBNQDK/92ihErcgheuMa5U4oPe0OTDXiC5NYXJxOMUO652o7ThFed3v6DAISu6nuSUwAcHFnSTZ7f4JRwdGQ==";
    let (out, _) = redact(clean);
    assert_eq!(out, clean);
}

/// Found by the property test while the compressed-data check was written: a value whose first
/// four characters are padding (`====…`) decodes to nothing, and must not be indexed.
#[test]
fn padding_alone_is_no_compressed_header() {
    for text in [
        "acme_key = \"====AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"",
        "x=\"==\"",
    ] {
        let _ = redact(text);
    }
    assert!(!crate::plausible::encodes_compressed("===="));
    assert!(!crate::plausible::encodes_compressed("eJ=="));
}

/// Found by the 159th sealed part (issue 20): an Azure SAS signature in a Windows batch file,
/// where every `%` is doubled (`sig=…%%2B…%%3D`), was cut at its first escape and half left.
#[test]
fn found_by_the_159th_sealed_part() {
    let tail = "Rk2mQp8vXw3LzN7tBc%%2BYhJd5sGfEa%%3D";
    let text = format!(
        "set \"ACME_PDF_URL=https://acme.blob.core.windows.net/m/x.pdf?sv=2022-11-02&sr=b&sp=r&sig=Ua9Lx{tail}\""
    );
    let (out, _) = redact(&text);
    assert!(!out.contains("Rk2mQp8vXw3LzN7tBc"), "{out}");
    assert!(!out.contains("YhJd5sGfEa"), "{out}");
}

/// Found by the 160th sealed part (issue 20): `-u rediss://user@host` read as `-u user:pass`
/// with the scheme for the user; a project's config key (`pulumi config set --secret
/// acme:apiToken`) read as the secret; a messaging API's typed account id (`AC` and 32 hex)
/// standing alone read as a token. A value given after the key is still one.
#[test]
fn found_by_the_160th_sealed_part() {
    for clean in [
        "$ redis-cli -u rediss://default@cache.acme.example:6380/0 --askpass\nPlease input password: ",
        "$ pulumi config set --secret acme:apiToken\nvalue: ",
        "The Account SID for your Acme Account: AC4f0e2a9c7b1d3e5f6a8b0c2d4e6f8a1b3c",
    ] {
        let (out, _) = redact(clean);
        assert_eq!(out, clean);
    }
    let value = "Wq7nTz3kLp9vRx2m";
    let line = format!("pulumi config set --secret acme:dbPassword {value}");
    let (out, _) = redact(&line);
    assert!(!out.contains(value), "{out}");
}

/// Found by the 162nd sealed part (issue 20): base64 of a bzip2 stream (an asset) read as a
/// generated token; a program whose name ends in a credential's word, run at a prompt
/// (`$ wpa_passphrase SSID < psk`), read as a setting with its value. The passphrase given
/// after the network's name is still one.
#[test]
fn found_by_the_162nd_sealed_part() {
    for clean in [
        "QlpoOTFBWSZTWdTbB+8AAAedgEAFMAABAC5v3EAgAEhqn6U9I9GpiPTSETamgaaABkxDrM2gKtXdpOUSgOSPR4Ca6wb8tb40EPxMSJj6",
        "$ wpa_passphrase acme-line-PRTL-650905 < /run/secrets/shopfloor_psk | sudo tee -a /etc/w.conf",
    ] {
        let (out, _) = redact(clean);
        assert_eq!(out, clean);
    }
    let value = "su081t6uiflkbotw8v194vv99vsngnz65bhl1zq9xhux5zsb";
    let line = format!("$ wpa_passphrase \"ops\" '{value}' | sudo tee -a /etc/w.conf");
    let (out, _) = redact(&line);
    assert!(!out.contains(value), "{out}");
}

/// Found by the property test while the 162nd part was read: a no-break space (two bytes)
/// before a word ending in a key's suffix, or before `--…creds`, was stepped over as one byte,
/// slicing inside it.
#[test]
fn a_no_break_space_before_a_name_is_stepped_over_whole() {
    for text in [
        "ww_d=_+g2/+m9h==tt.+mh/w4+=m=4xb=_y4f\u{a0}_crv[]2Ì( value=\"eyjwtw=r>",
        "\u{a0}_crv[]2( value=\"x\"",
        "skopeo copy\u{a0}--dest-creds ops:Wq7nTz3kLp9vRx2m docker://a docker://b",
    ] {
        let (out, _) = redact(text);
        let (again, _) = redact(&out);
        assert_eq!(out, again);
    }
}
