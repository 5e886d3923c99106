//! The tool schemas: each one the arguments its tool really takes, and all of them small. Every
//! client sends `tools/list` to its model with every request, so their size is context the
//! user pays for on every turn (Beads measured 10–50k tokens for some servers' schemas).

use serde_json::{Value, json};
use trail_mcp::tools::TOOLS;

/// Tokens as o200k (the GPT-4o family's tokenizer) counts them; Claude's own tokenizer is not
/// published, and o200k is what issue 12 asks every token figure to be measured with.
fn tokens(s: &str) -> usize {
    tiktoken_rs::o200k_base()
        .expect("o200k is built into tiktoken-rs")
        .encode_with_special_tokens(s)
        .len()
}

/// A value of the type a property's schema names.
fn sample(schema: &Value) -> Value {
    match schema["type"].as_str() {
        Some("string") => json!("x"),
        Some("integer") => json!(schema["minimum"].as_u64().unwrap_or(1).max(1)),
        Some("boolean") => json!(true),
        Some("array") => json!([sample(&schema["items"])]),
        other => panic!("a property of type {other:?}"),
    }
}

#[test]
fn every_schema_is_exactly_the_arguments_its_tool_takes() {
    for t in TOOLS {
        let schema: Value = serde_json::from_str(t.schema).unwrap();
        assert_eq!(schema["type"], "object", "{}", t.name);
        assert_eq!(schema["additionalProperties"], false, "{}", t.name);
        let props = schema["properties"].as_object().unwrap();
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().map(|v| v.as_str().unwrap()).collect())
            .unwrap_or_default();
        // Every property together is accepted…
        let all: serde_json::Map<String, Value> =
            props.iter().map(|(k, s)| (k.clone(), sample(s))).collect();
        (t.accepts)(Value::Object(all.clone())).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        // …the required ones alone too, and nothing without one of them…
        let min: serde_json::Map<String, Value> = all
            .iter()
            .filter(|(k, _)| required.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        (t.accepts)(Value::Object(min.clone())).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        for r in &required {
            let mut less = min.clone();
            less.remove(*r);
            assert!(
                (t.accepts)(Value::Object(less)).is_err(),
                "{} without {r}",
                t.name
            );
        }
        // …and a property the schema does not have is refused, not ignored.
        let mut more = all;
        more.insert("approve".into(), json!(true));
        assert!((t.accepts)(Value::Object(more)).is_err(), "{}", t.name);
    }
}

#[test]
fn every_tool_says_what_it_does_to_the_world() {
    for t in TOOLS {
        let e = t.effects;
        assert!(!e.destructive, "{} destroys nothing", t.name);
        // These append to journals (memory, the trajectory, the stream, NOTES.md); the rest
        // only read.
        let appends = ["remember", "decide", "checkpoint"].contains(&t.name);
        assert_eq!(e.read_only, !appends, "{}", t.name);
        assert_eq!(e.idempotent, e.read_only, "{}", t.name);
    }
}

/// The figures docs/GUIDE.md gives ("MCP server", o200k tokens): change them together.
const TOOLS_LIST_TOKENS: usize = 1_300;
const INSTRUCTIONS_TOKENS: usize = 80;

#[test]
fn the_tool_list_and_instructions_cost_what_the_readme_says() {
    use rmcp::ServerHandler;
    let listed = trail_mcp::tools_list_json();
    let n = tokens(&listed);
    let instructions = trail_mcp::TrailServer
        .get_info()
        .instructions
        .unwrap_or_default();
    let m = tokens(&instructions);
    println!(
        "tools/list: {} characters, {n} o200k tokens; instructions: {} characters, {m} tokens",
        listed.chars().count(),
        instructions.chars().count()
    );
    assert!(
        n <= TOOLS_LIST_TOKENS,
        "tools/list grew to {n} tokens (docs/GUIDE.md says ≤ {TOOLS_LIST_TOKENS}): {listed}"
    );
    assert!(
        m <= INSTRUCTIONS_TOKENS,
        "the instructions grew to {m} tokens (docs/GUIDE.md says ≤ {INSTRUCTIONS_TOKENS}): {instructions}"
    );
}
