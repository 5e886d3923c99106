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
    ] {
        assert!(re.is_match(hit), "{hit} against {q2}");
    }
    for miss in [
        "accurate limits",
        "rate limiting in prose",
        "generate_limit",
    ] {
        assert!(!re.is_match(miss), "{miss} against {q2}");
    }
    let (c1, c2) = queries(&g, Engine::Ck);
    assert_eq!(
        (c1.as_str(), c2.as_str()),
        ("Rate limiting", "throttle rate_limiting rateLimiting")
    );
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
    log(root, &checked, Some("s1"), Redactor::builtin(), &mut |_| {
        Ok(())
    })
    .unwrap();
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
