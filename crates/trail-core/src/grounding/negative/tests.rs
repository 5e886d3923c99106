use super::*;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn lexical() -> Options {
    Options {
        ambiguous_at: 3,
        similarity: 0.4,
        ck: None,
    }
}

const NOTES: &str = "\
# NOTES.md

## Ghost Features
<!-- documented, not built -->
- **Rate limiting**: per-client request caps (also: throttle)
- Webhooks (also: callback URL, event hook)
- SSO login — single sign-on for teams
- Billing
- [x] Dark mode (resolved: it shipped)
- [ ] Audit log (also: activity history)
- [Placeholder ghost]

```
## Ghost Features
- Not a ghost: inside a fence
```

### Notes on ghosts
| Feature | Why |
|---------|-----|
| Offline sync | promised in the README |

## Decision Log
- Webhooks are out of scope
";

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "NOTES.md", NOTES);
    // Rate limiting exists, as code names it.
    write(
        root,
        "src/server.rs",
        "pub struct RateLimiter;\nfn check_rate_limit() {}\n",
    );
    // Webhooks: promised all over the docs, nowhere in the code.
    write(
        root,
        "README.md",
        "Webhooks notify you.\nConfigure webhooks in settings.\nA callback URL per project.\nSSO login is planned.\n",
    );
    write(root, "docs/api.md", "## Webhooks\nEvent hook payloads.\n");
    // Code that git ignores, or hidden, is not the project's code.
    write(root, ".gitignore", "target/\n");
    write(
        root,
        "target/gen.rs",
        "fn sso_login() {}\nfn audit_log() {}\n",
    );
    write(root, ".hidden/x.rs", "fn billing() {}\n");
    write(root, "src/billing_notes.txt", "billing is someday\n");
    dir
}

#[test]
fn ghosts_are_read_from_a_notes_section_as_bullets_and_table_rows() {
    let g = in_notes(NOTES, "${PROJECT_ROOT}/NOTES.md");
    let names: Vec<(&str, Vec<&str>, u32)> = g
        .iter()
        .map(|g| {
            (
                g.name.as_str(),
                g.also.iter().map(String::as_str).collect(),
                g.listed.as_ref().unwrap().line,
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("Rate limiting", vec!["throttle"], 5),
            ("Webhooks", vec!["callback URL", "event hook"], 6),
            ("SSO login", vec![], 7),
            ("Billing", vec![], 8),
            ("Audit log", vec!["activity history"], 10),
            ("Offline sync", vec![], 21),
        ]
    );
    assert_eq!(
        Ghost::parse("  `Export` (also: csv download; backup)  ").unwrap(),
        Ghost {
            name: "Export".into(),
            also: vec!["csv download".into(), "backup".into()],
            listed: None
        }
    );
    assert_eq!(Ghost::parse("  "), None);
}

#[test]
fn the_two_queries_look_from_two_angles() {
    let g = Ghost::parse("Rate limiting (also: throttle)").unwrap();
    let (q1, q2) = queries(&g, Engine::Lexical);
    assert_eq!(q1, "\"rate limit\" \"throttl\"");
    let re = regex::Regex::new(&q2).unwrap();
    for hit in [
        "fn check_rate_limit()",
        "RATE_LIMIT = 5",
        "struct RateLimiter",
        "let rateLimit",
        "ratelimit",
        "rate-limits",
        "throttled()",
        // Issue 21: a stem that is not the whole word, words in another order, parts between.
        "fn limit_the_rate()",
        "LimitByRate",
        "rate_window_limit",
    ] {
        assert!(re.is_match(hit), "{hit} against {q2}");
    }
    for miss in [
        "accurate limits",
        "rate limiting in prose",
        "generate_limit",
        "rate = limit",
        "separate_limit",
    ] {
        assert!(!re.is_match(miss), "{miss} against {q2}");
    }
    let (c1, c2) = queries(&g, Engine::Ck);
    assert_eq!(
        (c1.as_str(), c2.as_str()),
        ("Rate limiting", "throttle rate_limiting rateLimiting")
    );
}

/// Found by issue 21: identifiers whose first word's stem is shorter than the word
/// (`rotat`e, `validat`e, `compar`e) never matched, so code that defines them was called a
/// ghost. Snake, camel, kebab and screaming case, parts between, either order.
#[test]
fn identifiers_match_whatever_their_case_style() {
    for (ghost, code) in [
        ("rotate_refresh_token", "def rotate_refresh_token(t):"),
        ("rotate refresh token", "async rotateRefreshToken() {"),
        ("token rotation", "fn rotate_refresh_token() {}"),
        ("validate_token", "    return validate_token(t)"),
        ("compare digest", "hmac.compare_digest(a, b)"),
        ("compare_digest", "const COMPARE_DIGEST = 1"),
        ("refresh token", "--refresh-token <T>"),
        ("support for SSO login", "class SsoLoginHandler:"),
        ("OAuth login", "impl OAuthLogin for X"),
        ("rate limit", "let r = ratelimiter::new();"),
    ] {
        let g = Ghost::parse(ghost).unwrap();
        let (_, q2) = queries(&g, Engine::Lexical);
        let re = regex::Regex::new(&q2).unwrap();
        assert!(re.is_match(code), "{ghost}: {code} against {q2}");
    }
    for (ghost, code) in [
        ("rotate refresh token", "rotate(log); refresh(token)"),
        ("token rotation", "let token = rotation;"),
        ("validate token", "invalidate_token()"),
        ("compare digest", "# compare the digest"),
    ] {
        let g = Ghost::parse(ghost).unwrap();
        let (_, q2) = queries(&g, Engine::Lexical);
        let re = regex::Regex::new(&q2).unwrap();
        assert!(!re.is_match(code), "{ghost}: {code} against {q2}");
    }
}

#[test]
fn each_ghost_gets_its_verdict() {
    let dir = project();
    let root = dir.path();
    let ghosts = in_notes(NOTES, "${PROJECT_ROOT}/NOTES.md");
    let checked = check(root, &ghosts, &lexical(), Redactor::builtin());
    let verdicts: Vec<(&str, Class, u64)> = checked
        .iter()
        .map(|c| (c.feature.as_str(), c.class, c.doc_mentions))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("Rate limiting", Class::NotGhost, 0),
            // README ×3 (a synonym's line too), docs/api.md ×2 and the Decision Log's line;
            // the listing line itself is not a mention.
            ("Webhooks", Class::HighAmbiguity, 6),
            // One-word names cannot have two different queries.
            ("SSO login", Class::ConfirmedGhost, 1),
            ("Billing", Class::Unverified, 1),
            ("Audit log", Class::ConfirmedGhost, 0),
            ("Offline sync", Class::ConfirmedGhost, 0),
        ]
    );
    let rate = &checked[0];
    assert_eq!(rate.engine, Engine::Lexical);
    assert_eq!(
        rate.queries[1].examples,
        [
            "${PROJECT_ROOT}/src/server.rs:1",
            "${PROJECT_ROOT}/src/server.rs:2"
        ]
    );
    assert_eq!(rate.flag, "[NOT A GHOST]");
    assert_eq!(checked[1].flag, "[HIGH AMBIGUITY]");
    assert!(checked[3].why.contains("(also:"), "{}", checked[3].why);
    assert!(checked[3].class.needs_attention() && checked[1].class.needs_attention());
    assert!(!checked[2].class.needs_attention());
}

#[test]
fn every_check_is_one_trajectory_line() {
    let dir = project();
    let root = dir.path();
    let ghosts = vec![Ghost::parse("Webhooks (also: callback url)").unwrap()];
    let checked = check(root, &ghosts, &lexical(), Redactor::builtin());
    std::fs::create_dir_all(root.join(".trail")).unwrap();
    let secrets = crate::secrets::Secrets::new(root.join(".secrets"), Vec::new());
    log(root, &checked, Some("s1"), &secrets).unwrap();
    let read = crate::trajectory::journal::read(root, None).unwrap();
    assert!(read.bad.is_empty());
    let crate::trajectory::Body::NegativeGrounding(n) = &read.items[0].1.body else {
        panic!("{:?}", read.items);
    };
    assert_eq!(n.feature, "Webhooks");
    assert_eq!(n.classification, "high_ambiguity");
    assert_eq!(n.engine, "lexical");
    assert_eq!((n.results1, n.results2), (0, 0));
    assert_eq!(n.query1, "\"webhook\" \"callback url\"");
}

/// The project's ghosts are read from the NOTES.md trail keeps (here a `notes.path` of
/// `docs/NOTES.md`), a ghost named besides is added once, and the listing line of the file
/// where they were found is not a mention of them.
#[test]
fn a_projects_ghosts_come_from_its_own_notes_file() {
    let dir = project();
    let root = dir.path();
    std::fs::remove_file(root.join("NOTES.md")).unwrap();
    write(
        root,
        "docs/NOTES.md",
        "## Ghost Features\n- Offline sync (also: local replica)\n- Rate limiting (also: throttle)\n",
    );
    let loc = crate::notes::locate(root, Some(("docs/NOTES.md", "test".into())), None).unwrap();
    let named = [
        Ghost::parse("rate limiting").unwrap(),
        Ghost::parse("Audit log (also: activity history)").unwrap(),
    ];
    let found = project::check(root, &loc, &named, &lexical(), Redactor::builtin()).unwrap();
    assert_eq!(
        found.notes.as_deref(),
        Some("${PROJECT_ROOT}/docs/NOTES.md")
    );
    assert_eq!(found.engine, Engine::Lexical);
    let got: Vec<(&str, Class, u64)> = found
        .ghosts
        .iter()
        .map(|c| (c.feature.as_str(), c.class, c.doc_mentions))
        .collect();
    assert_eq!(
        got,
        [
            ("Offline sync", Class::ConfirmedGhost, 0),
            ("Rate limiting", Class::NotGhost, 0),
            ("Audit log", Class::ConfirmedGhost, 0),
        ]
    );
    assert_eq!(
        found.named(Class::ConfirmedGhost),
        ["Offline sync", "Audit log"]
    );
    assert_eq!(
        found.ghosts[0]
            .listed
            .as_ref()
            .map(|l| (l.file.as_str(), l.line)),
        Some(("${PROJECT_ROOT}/docs/NOTES.md", 2))
    );
}

/// No NOTES.md: no ghost listed, and nothing claimed about a file that is not there. One that
/// cannot be read (a symlink in its place) is an error, never an empty list.
#[test]
fn no_notes_lists_nothing_and_an_unreadable_one_is_an_error() {
    let dir = project();
    let root = dir.path();
    std::fs::remove_file(root.join("NOTES.md")).unwrap();
    let loc = crate::notes::locate(root, None, None).unwrap();
    let found = project::check(root, &loc, &[], &lexical(), Redactor::builtin()).unwrap();
    assert_eq!((found.notes, found.ghosts.len()), (None, 0));
    std::os::unix::fs::symlink(root.join("README.md"), root.join("NOTES.md")).unwrap();
    assert!(project::check(root, &loc, &[], &lexical(), Redactor::builtin()).is_err());
}

/// Names and queries are the project's text: a secret in a ghost's name is searched for as
/// written and never shown.
#[test]
fn what_a_check_shows_is_redacted() {
    let dir = project();
    let root = dir.path();
    let token = "ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES";
    let ghosts = [Ghost::parse(&format!("Deploy hook {token}")).unwrap()];
    let checked = check(root, &ghosts, &lexical(), Redactor::builtin());
    let shown = serde_json::to_string(&checked).unwrap();
    assert!(!shown.contains(token), "{shown}");
    assert!(checked[0].feature.starts_with("Deploy hook "), "{shown}");
}
