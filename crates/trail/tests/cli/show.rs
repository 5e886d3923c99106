//! `trail show IDENTIFIER [--full-section]` (issue 12 item 14, FR-5's JIT retrieval): the lines
//! an identifier names, numbered and redacted, from inside the project only; every refusal is
//! exit 2 with a hint, and nothing is written.

use std::path::Path;

use serde_json::Value;

use crate::common::{TestEnv, code, files_under, stderr, stdout};

const KEY: &str = "AKIAQ3EGRRZ7JXLM4KVD";

fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn project() -> TestEnv {
    let env = TestEnv::new();
    write(
        &env.cwd.join("src/auth.rs"),
        format!(
            "pub struct Auth;\n\nimpl Auth {{\n    pub fn validate(token: &str) -> bool {{\n        let aws = \"{KEY}\";\n        !token.is_empty() && !aws.is_empty()\n    }}\n}}\n"
        ),
    );
    env
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}\nstdout: {}\nstderr: {}", stdout(out), stderr(out)))
}

#[test]
fn a_range_comes_back_numbered_and_redacted_and_nothing_is_kept() {
    let env = project();
    let out = env.ok(&["show", "${PROJECT_ROOT}/src/auth.rs:4-6"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "${PROJECT_ROOT}/src/auth.rs:4-6", "{out}");
    assert_eq!(
        lines[1], "4      pub fn validate(token: &str) -> bool {",
        "{out}"
    );
    assert!(
        lines[2].starts_with("5          let aws = \"${secret:aws-access-key-id-"),
        "{out}"
    );
    assert_eq!(
        lines[3], "6          !token.is_empty() && !aws.is_empty()",
        "{out}"
    );
    assert!(
        lines[4].starts_with("(redacted: aws-access-key-id-")
            && lines[4].ends_with("; the originals are in the file)"),
        "{out}"
    );
    assert!(!out.contains(KEY), "{out}");

    let v = json(&env.run(&["show", "--json", "[${PROJECT_ROOT}/src/auth.rs:5]"]));
    assert_eq!(v["identifier"], "${PROJECT_ROOT}/src/auth.rs:5");
    assert_eq!(v["path"], "src/auth.rs");
    assert_eq!((v["start"].as_u64(), v["end"].as_u64()), (Some(5), Some(5)));
    assert_eq!(v["asked"], serde_json::json!({"start": 5, "end": 5}));
    assert_eq!(v["total"], 8);
    assert_eq!(v["cut"], 0);
    assert_eq!(v["lines"][0]["line"], 5);
    assert!(!v.to_string().contains(KEY), "{v}");
    assert_eq!(v["redacted"].as_array().unwrap().len(), 1, "{v}");
    // A file still holding the secret is where its original lives: the store gets no copy.
    assert!(!env.secrets_file().exists(), "show kept an original");
}

#[test]
fn project_root_comes_from_the_environment_and_an_expanded_one_is_understood() {
    let env = project();
    let other = env.root.join("other");
    write(&other.join("notes/plan.md"), "# Plan\n\nship it\n");
    let env = env.env("PROJECT_ROOT", other.to_str().unwrap());
    let out = env.ok(&["show", "${PROJECT_ROOT}/notes/plan.md:3"]);
    assert_eq!(out, "${PROJECT_ROOT}/notes/plan.md:3\n3  ship it\n");
    // `trail show ${PROJECT_ROOT}/…` unquoted: the shell hands over the absolute path.
    let expanded = format!("{}/notes/plan.md:1", other.display());
    let out = env.ok(&["show", &expanded]);
    assert_eq!(out, "${PROJECT_ROOT}/notes/plan.md:1\n1  # Plan\n");
}

#[test]
fn every_refusal_is_exit_2_with_a_hint_and_writes_nothing() {
    let env = project();
    write(&env.root.join("outside.txt"), "private\n");
    write(&env.cwd.join("empty.txt"), "");
    write(
        &env.cwd.join("logo.png"),
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    );
    write(&env.cwd.join(".trail/state/pending.json"), "{}\n");
    std::os::unix::fs::symlink(env.root.join("outside.txt"), env.cwd.join("src/link.rs")).unwrap();
    let before: Vec<_> = files_under(&env.root);
    for (id, message, hint) in [
        (
            "${PROJECT_ROOT}/../outside.txt:1",
            "leads outside the project root",
            "only files inside the project",
        ),
        (
            "${PROJECT_ROOT}/src/link.rs:1",
            "leads outside the project root",
            "only files inside the project",
        ),
        (
            "/etc/hostname:1",
            "is an absolute path outside the project root",
            "an identifier is '${PROJECT_ROOT}/path:LINE' or '${PROJECT_ROOT}/path:START-END', \
             in single quotes",
        ),
        (
            "${PROJECT_ROOT}/src/auth.rs:7-9",
            "src/auth.rs has 8 lines; lines 7-9 are not all in it",
            "the file changed since the identifier was written: `trail search --code`",
        ),
        (
            "${PROJECT_ROOT}/empty.txt:1",
            "empty.txt is empty",
            "the file changed since the identifier was written: `trail search --code`",
        ),
        (
            "${PROJECT_ROOT}/gone.rs:1",
            "gone.rs does not exist in the project",
            "the file changed since the identifier was written: `trail search --code`",
        ),
        (
            "${PROJECT_ROOT}/logo.png:1",
            "logo.png is not text (a binary file)",
            "trail shows text",
        ),
        (
            "${PROJECT_ROOT}/.trail/state/pending.json:1",
            "is in trail's own state (.trail/state/), which is not shown",
            "trail does not show its own state",
        ),
        (
            "${PROJECT_ROOT}/src/auth.rs",
            "is not an identifier: no line number",
            "an identifier is '${PROJECT_ROOT}/path:LINE'",
        ),
        (
            "${PROJECT_ROOT}/src/auth.rs:0",
            "lines are counted from 1",
            "an identifier is '${PROJECT_ROOT}/path:LINE'",
        ),
    ] {
        for json in [false, true] {
            let mut args = vec!["show", id];
            if json {
                args.push("--json");
            }
            let out = env.run(&args);
            let err = stderr(&out);
            assert_eq!(code(&out), 2, "{id}: {err}");
            assert!(stdout(&out).is_empty(), "{id}: {}", stdout(&out));
            assert!(err.contains(message), "{id}: {err}");
            assert!(err.contains(&format!("hint: {hint}")), "{id}: {err}");
            assert!(!err.contains("private"), "{id}: {err}");
        }
    }
    assert_eq!(files_under(&env.root), before, "a refusal wrote something");
}

#[cfg(not(feature = "section-rust"))]
#[test]
fn full_section_without_the_grammar_shows_the_lines_and_says_why() {
    let env = project();
    let out = env.ok(&["show", "--full-section", "${PROJECT_ROOT}/src/auth.rs:6"]);
    assert_eq!(
        out,
        "${PROJECT_ROOT}/src/auth.rs:6\n(no section: this trail was built without the Rust \
         section parser (cargo feature section-rust); the lines as asked)\n6          \
         !token.is_empty() && !aws.is_empty()\n"
    );
    let v = json(&env.run(&[
        "show",
        "--json",
        "--full-section",
        "${PROJECT_ROOT}/src/auth.rs:6",
    ]));
    assert_eq!(v["fallback"]["why"], "not-built", "{v}");
    assert!(v.get("section").is_none(), "{v}");
    // A language trail has no parser for, in any build.
    write(&env.cwd.join("README.md"), "# x\n");
    let v = json(&env.run(&[
        "show",
        "--json",
        "--full-section",
        "${PROJECT_ROOT}/README.md:1",
    ]));
    assert_eq!(v["fallback"]["why"], "no-parser", "{v}");
}

#[cfg(feature = "section-rust")]
#[test]
fn full_section_grows_to_the_enclosing_function() {
    let env = project();
    let out = env.ok(&["show", "--full-section", "${PROJECT_ROOT}/src/auth.rs:6"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "${PROJECT_ROOT}/src/auth.rs:4-7 (function_item validate, around line 6)",
        "{out}"
    );
    assert_eq!(
        lines[1], "4      pub fn validate(token: &str) -> bool {",
        "{out}"
    );
    assert_eq!(lines[4], "7      }", "{out}");
    assert!(!out.contains(KEY), "{out}");
    let v = json(&env.run(&[
        "show",
        "--json",
        "--full-section",
        "${PROJECT_ROOT}/src/auth.rs:1",
    ]));
    assert_eq!(v["section"]["kind"], "struct_item", "{v}");
    assert_eq!(v["section"]["name"], "Auth", "{v}");
}
