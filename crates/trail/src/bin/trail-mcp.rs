//! `trail-mcp`: trail's MCP server over stdio (`trail mcp` runs it). Everything is in the
//! `trail-mcp` crate; this binary exists apart from `trail` so that the hooks never load an
//! async runtime.

fn main() -> std::process::ExitCode {
    trail_mcp::run()
}
