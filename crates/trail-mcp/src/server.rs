//! The MCP side: rmcp's `ServerHandler` over the tables in `tools.rs`, `resources.rs` and
//! `prompts.rs`. Each request loads the configuration, runs, and passes its whole answer
//! through [`redact`](crate::redact) before it is sent.
//!
//! Requests run on the one runtime thread, one at a time: trail-core's functions are
//! synchronous, short, and each takes trail's own locks where it writes.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    Prompt, PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Resource, ResourceContents, ResourceTemplate, Role, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};

use crate::context::Ctx;
use crate::error::ToolError;
use crate::{prompts, redact, resources, session, tools};

/// What a client's model is told about the server once, when it connects.
const INSTRUCTIONS: &str = "trail keeps this project's session ledger, tool-call log, trajectory and memory. Start with search (one line per hit), then timeline or get on a hit's id. resume rebuilds where the work stands. decide records a choice with its citations, checkpoint runs before /clear, show retrieves an identifier's lines. Junctions are decided only by the person.";

/// trail's MCP server. It holds nothing: every request reads what it needs.
#[derive(Clone, Copy, Debug, Default)]
pub struct TrailServer;

pub(crate) async fn serve_stdio() -> Result<(), String> {
    let running = TrailServer
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| e.to_string())?;
    running.waiting().await.map_err(|e| e.to_string())?;
    Ok(())
}

/// Every tool as `tools/list` shows it.
pub fn tool_list() -> Vec<Tool> {
    tools::TOOLS
        .iter()
        .map(|t| {
            let schema: Map<String, Value> =
                serde_json::from_str(t.schema).expect("tool schemas are valid JSON objects");
            Tool::new(t.name, t.description, Arc::new(schema))
                .with_title(t.title)
                .with_annotations(
                    ToolAnnotations::new()
                        .read_only(t.effects.read_only)
                        .destructive(t.effects.destructive)
                        .idempotent(t.effects.idempotent)
                        .open_world(false),
                )
        })
        .collect()
}

/// A failed request's answer, redacted (an error can quote what it read).
fn failed(ctx: Option<&Ctx>, e: &ToolError) -> String {
    let msg = e.to_string();
    match ctx.and_then(|c| c.redactor().ok()) {
        Some(r) => redact::text(r, &msg),
        None => redact::text(trail_core::secrets::Redactor::builtin(), &msg),
    }
}

/// Runs tool `name`: its JSON answer as structured content and as text, or an error result the
/// model can read.
fn call(name: &str, args: Value) -> Result<CallToolResult, ErrorData> {
    let Some(tool) = tools::find(name) else {
        return Err(ErrorData::invalid_params(
            format!("no tool named `{name}`"),
            None,
        ));
    };
    let ctx = match Ctx::load() {
        Ok(c) => c,
        Err(e) => return Ok(error_result(failed(None, &e))),
    };
    let out = (tool.run)(&ctx, args).and_then(|v| Ok(redact::value(ctx.redactor()?, v)));
    Ok(match out {
        Ok(v) => {
            let mut r = CallToolResult::success(vec![ContentBlock::text(v.to_string())]);
            r.structured_content = Some(v);
            r
        }
        Err(e) => error_result(failed(Some(&ctx), &e)),
    })
}

fn error_result(msg: String) -> CallToolResult {
    let mut r = CallToolResult::error(vec![ContentBlock::text(msg.clone())]);
    r.structured_content = Some(serde_json::json!({ "error": msg }));
    r
}

fn resource_list(ctx: Option<&Ctx>) -> Vec<Resource> {
    let mut out: Vec<Resource> = resources::FIXED
        .iter()
        .map(|f| {
            Resource::new(f.uri, f.name)
                .with_description(f.description)
                .with_mime_type(f.mime)
        })
        .collect();
    let Some((ctx, redactor)) = ctx.and_then(|c| Some((c, c.redactor().ok()?))) else {
        return out;
    };
    for id in session::recent(ctx, resources::RECENT_SESSIONS) {
        // A session id is the host's, and what a hook payload carried: redacted like the rest.
        let id = redact::text(redactor, &id);
        out.push(
            Resource::new(
                format!("{}{id}", resources::SESSION_PREFIX),
                format!("session {id}"),
            )
            .with_description("A recent session's tool calls and trajectory")
            .with_mime_type("application/json"),
        );
    }
    out
}

fn read(uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let ctx = Ctx::load().map_err(|e| ErrorData::internal_error(failed(None, &e), None))?;
    let Some(answer) = resources::read(&ctx, uri) else {
        return Err(ErrorData::resource_not_found(
            format!("no resource `{uri}`: resources/list names them"),
            None,
        ));
    };
    let (text, mime) = answer.map_err(|e| match e {
        ToolError::NoSession(_) => ErrorData::resource_not_found(failed(Some(&ctx), &e), None),
        _ => ErrorData::internal_error(failed(Some(&ctx), &e), None),
    })?;
    let redactor = ctx
        .redactor()
        .map_err(|e| ErrorData::internal_error(failed(None, &e), None))?;
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(redact::text(redactor, &text), uri).with_mime_type(mime),
    ]))
}

fn prompt(name: &str) -> Result<GetPromptResult, ErrorData> {
    let Some(p) = prompts::find(name) else {
        return Err(ErrorData::invalid_params(
            format!("no prompt named `{name}`"),
            None,
        ));
    };
    let ctx = Ctx::load().map_err(|e| ErrorData::internal_error(failed(None, &e), None))?;
    let text = (p.text)(&ctx)
        .and_then(|t| Ok(redact::text(ctx.redactor()?, &t)))
        .map_err(|e| ErrorData::internal_error(failed(Some(&ctx), &e), None))?;
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(p.description),
    )
}

impl ServerHandler for TrailServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(Implementation::new("trail", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tool_list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        call(&request.name, args).map(CallToolResponse::from)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let ctx = Ctx::load().ok();
        Ok(ListResourcesResult::with_all_items(resource_list(
            ctx.as_ref(),
        )))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(resources::SESSION_TEMPLATE, "session")
                .with_description(
                    "One session's tool calls and trajectory, by the host's session id",
                )
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        read(&request.uri).map(ReadResourceResponse::from)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(
            prompts::PROMPTS
                .iter()
                .map(|p| Prompt::new(p.name, Some(p.description), None).with_title(p.title))
                .collect(),
        ))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        prompt(&request.name).map(GetPromptResponse::from)
    }
}

/// The answer to `tools/list`, as a client receives it (its size is the schemas' token cost).
pub fn tools_list_json() -> String {
    serde_json::json!({ "tools": tool_list() }).to_string()
}
