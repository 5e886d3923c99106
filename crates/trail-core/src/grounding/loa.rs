//! What trail reads of a Loa project, so that it can switch to trail without losing its
//! history: `.loa.config.yaml` (grounding enforcement and threshold, where the trajectory is)
//! and the `cite` entries of Loa's own trajectory.
//!
//! Loa's agents write cite entries in two shapes (its citations and grounding-enforcement
//! protocols): one claim with `grounding` and an `evidence` object, or a `citations` list of
//! `{claim, code, path, line, grounding}`. Loa counted one claim per `cite` line, grounded when
//! the line said `citation`, `code_reference` or `user_input`. trail counts the same lines, but
//! a line is grounded only when one of its citations verifies now: what the agent said about
//! its own grounding is a claim too.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use super::{Cited, Claim, GroundError};
use crate::cite::{Malformed, PROJECT_ROOT, Quote, Target};
use crate::trajectory::journal::{self, Place};

pub use crate::loa::{
    LoaConfig, LoaError, LoaGrounding, LoaMemory, LoaPaths, Scalar, read_config, trajectory_dir,
};

/// One `cite` line of Loa's trajectory (both shapes). Unknown fields are Loa's business.
#[derive(Debug, Deserialize)]
struct CiteLine {
    #[serde(default)]
    claim: Option<String>,
    #[serde(default)]
    decision: Option<String>,
    #[serde(default)]
    grounding: Option<Value>,
    #[serde(default)]
    evidence: Option<Value>,
    #[serde(default)]
    citations: Option<Vec<Value>>,
}

/// Every `cite` claim of the `*.jsonl` files in `dir`, and the lines that could not be read.
pub fn claims(root: &Path, dir: &Path) -> Result<(Vec<Claim>, Vec<Place>), GroundError> {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    let files = journal::jsonl_files(root, dir)?;
    for (name, path) in files {
        let lines = journal::read_objects(root, &path, &name, true)?;
        bad.extend(lines.bad);
        for (place, v) in lines.items {
            if v.get("phase").and_then(Value::as_str) != Some("cite") {
                continue;
            }
            match serde_json::from_value::<CiteLine>(v) {
                Ok(line) => out.push(claim(root, &line, place)),
                Err(_) => bad.push(place),
            }
        }
    }
    Ok((out, bad))
}

/// One Loa cite line as a claim.
fn claim(root: &Path, line: &CiteLine, place: Place) -> Claim {
    let mut evidence = Vec::new();
    let mut kinds = Vec::new();
    kinds.extend(grounding_kind(line.grounding.as_ref()));
    if let Some(e) = &line.evidence {
        evidence.extend(cited(root, e));
    }
    let mut title = line.claim.clone().or_else(|| line.decision.clone());
    for c in line.citations.iter().flatten() {
        kinds.extend(grounding_kind(c.get("grounding")));
        if title.is_none() {
            title = c.get("claim").and_then(Value::as_str).map(String::from);
        }
        evidence.extend(cited(root, c));
    }
    let note = (!kinds.is_empty()).then(|| format!("Loa grounding: {}", kinds.join(", ")));
    Claim {
        title: title.unwrap_or_else(|| "(a claim without text)".into()),
        source: format!("loa trajectory {place}"),
        evidence,
        note,
    }
}

/// The grounding a line or a citation gives itself: `"citation"`, or `{"type": "citation"}`.
fn grounding_kind(v: Option<&Value>) -> Option<String> {
    let v = v?;
    v.as_str()
        .or_else(|| v.get("type").and_then(Value::as_str))
        .map(String::from)
}

/// The citation an evidence or citation object holds: a path (`path` or `file`), a line
/// (`line`, a number or `45-67`), and a quote (`quote` or `code`).
fn cited(root: &Path, v: &Value) -> Option<Cited> {
    let path = v.get("path").or_else(|| v.get("file"))?.as_str()?;
    let line = match v.get("line") {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let quote = v
        .get("quote")
        .or_else(|| v.get("code"))
        .and_then(Value::as_str)
        .map(Quote::inline)
        .unwrap_or_default();
    let (written, target) = target(root, path, &line);
    Some(Cited {
        citation: format!("[{written}:{line}]"),
        target,
        quote,
    })
}

/// A trajectory's path and line as a citation. Loa's scripts set `PROJECT_ROOT` to the
/// repository's absolute path, so an absolute path inside this project is read as
/// `${PROJECT_ROOT}/…`; one elsewhere keeps its form (and its status says so).
fn target(root: &Path, path: &str, line: &str) -> (String, Result<Target, Malformed>) {
    let rooted = path
        .strip_prefix(PROJECT_ROOT)
        .map(|r| r.trim_start_matches('/').to_string())
        .or_else(|| {
            let canonical = std::fs::canonicalize(root).ok()?;
            [root, canonical.as_path()].iter().find_map(|r| {
                Path::new(path)
                    .strip_prefix(r)
                    .ok()
                    .map(|p| p.to_string_lossy().into_owned())
            })
        });
    let written = match &rooted {
        Some(rel) => format!("{PROJECT_ROOT}/{rel}"),
        None => path.to_string(),
    };
    let parsed = crate::cite::parse::parse_target(&format!("{written}:{line}"));
    (written, parsed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grounding::Threshold;

    #[test]
    fn the_corpus_config_reads_as_loa_wrote_it() {
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/labelled/citations/tree/.loa.config.yaml"),
        )
        .unwrap();
        let c: LoaConfig = serde_saphyr::from_str(&text).unwrap();
        assert_eq!(c.enforcement(), Some("warn"));
        assert_eq!(
            Threshold::parse(&c.threshold().unwrap()),
            Ok(Threshold::DEFAULT)
        );
        let root = Path::new("/p");
        assert_eq!(
            c.trajectory_dir(root),
            Path::new("/p/loa-grimoire/a2a/trajectory")
        );
    }

    #[test]
    fn the_prd_key_wins_and_thresholds_keep_their_digits() {
        let c: LoaConfig = serde_saphyr::from_str(
            "grounding_enforcement: strict\ngrounding:\n  threshold: 0.950\n  enforcement: warn\npaths:\n  grimoire: g\n",
        )
        .unwrap();
        assert_eq!(c.enforcement(), Some("strict"));
        assert_eq!(
            Threshold::parse(&c.threshold().unwrap())
                .unwrap()
                .to_string(),
            "0.95"
        );
        assert_eq!(
            c.trajectory_dir(Path::new("/p")),
            Path::new("/p/g/a2a/trajectory")
        );
        let c: LoaConfig = serde_saphyr::from_str("grounding:\n  threshold: \"0.9\"\n").unwrap();
        assert_eq!(c.threshold().as_deref(), Some("0.9"));
        assert!(serde_saphyr::from_str::<LoaConfig>("grounding: [1, 2]\n").is_err());
    }

    #[test]
    fn both_shapes_of_cite_lines() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let t = root.join("loa-grimoire/a2a/trajectory");
        std::fs::create_dir_all(&t).unwrap();
        let abs = root.canonicalize().unwrap().join("src/auth/jwt.ts");
        std::fs::write(
            t.join("implementing-tasks-2025-12-27.jsonl"),
            format!(
                concat!(
                    r#"{{"phase":"cite","claim":"JWT validates expiry","grounding":"citation","evidence":{{"quote":"if (isExpired(token))","path":"${{PROJECT_ROOT}}/src/auth/jwt.ts","line":67}}}}"#,
                    "\n",
                    r#"{{"phase":"cite","claim":"Users prefer dark mode","grounding":"assumption","evidence":null}}"#,
                    "\n",
                    r#"{{"ts":"2025-12-27T10:30:10Z","agent":"implementing-tasks","phase":"cite","citations":[{{"claim":"System uses JWT validation","code":"export async function validateToken()","path":"{abs}","line":45,"score":0.89,"grounding":"citation"}}]}}"#,
                    "\n",
                    r#"{{"phase":"intent","intent":"x"}}"#,
                    "\n",
                    "{{\n  \"phase\": \"cite\",\n  \"claim\": \"pretty\",\n  \"grounding\": {{\"type\": \"user_input\", \"source\": \"msg-1\"}}\n}}\n"
                ),
                abs = abs.display()
            ),
        )
        .unwrap();
        let (claims, bad) = claims(root, &t).unwrap();
        assert!(bad.is_empty(), "{bad:?}");
        let titles: Vec<&str> = claims.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "JWT validates expiry",
                "Users prefer dark mode",
                "System uses JWT validation",
                "pretty"
            ]
        );
        assert_eq!(
            claims[0].evidence[0].citation,
            "[${PROJECT_ROOT}/src/auth/jwt.ts:67]"
        );
        assert_eq!(
            claims[0].evidence[0].quote,
            Quote::inline("if (isExpired(token))")
        );
        assert!(claims[1].evidence.is_empty());
        // Loa's absolute path inside the project reads as ${PROJECT_ROOT}.
        assert_eq!(
            claims[2].evidence[0].citation,
            "[${PROJECT_ROOT}/src/auth/jwt.ts:45]"
        );
        assert_eq!(claims[3].note.as_deref(), Some("Loa grounding: user_input"));
        assert_eq!(
            claims[3].source,
            "loa trajectory implementing-tasks-2025-12-27.jsonl:5"
        );
    }
}
