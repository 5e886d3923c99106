//! The report as one self-contained HTML file: no script at all, no font, no image but inline
//! SVG, and a Content-Security-Policy that forbids every load (`default-src 'none'`), so the
//! page makes no request and runs nothing even if a text slipped through unescaped. Every text
//! of the report goes through [`esc`]; the only URLs written are `file://` links to a cited
//! file under the project root, percent-encoded ([`file_url`]).
//!
//! Big ledgers: sessions are `<details>` closed past the latest few, each project section is
//! laid out only when scrolled to (`content-visibility: auto`), and the page stops writing
//! events at [`BUDGET`] bytes, saying how many it left out.

use std::fmt::Write as _;

use trail_core::report::{
    DecisionRow, Event, EventKind, FillPoint, ProjectPart, Report, SessionPart, StopFamily,
};

use super::{duration, minute, short};

/// Past this many bytes of HTML no more events are written (each session then says how many
/// it holds that the page does not show).
const BUDGET: usize = 3 << 20;
/// Sessions shown open per project.
const OPEN: usize = 3;

const STYLE: &str = "
:root{--fg:#1d2330;--muted:#5b6475;--line:#dfe3ea;--bg:#fff;--panel:#f6f8fb;
--ok:#1f8f4e;--fail:#c62828;--block:#8e1b1b;--junction:#d97706;--grant:#1d4ed8;--note:#6b21a8}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;
color:var(--fg);background:var(--bg);margin:0 auto;max-width:1100px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 6px;border-bottom:2px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:18px 0 6px}.meta{color:var(--muted);margin:0 0 14px}
.summary{display:grid;grid-template-columns:repeat(auto-fill,minmax(120px,1fr));gap:8px;margin:0}
.summary div{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px 10px}
.summary dt{color:var(--muted);font-size:12px}.summary dd{margin:0;font-size:20px;font-weight:600}
nav{margin:14px 0}nav a{margin-right:12px}
section.project{content-visibility:auto;contain-intrinsic-size:auto 800px}
table{border-collapse:collapse;width:100%;margin:4px 0 10px}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600}
details{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:var(--bg)}
details>summary{cursor:pointer;padding:6px 10px;background:var(--panel);border-radius:6px}
details[open]>summary{border-bottom:1px solid var(--line);border-radius:6px 6px 0 0}
.counts{color:var(--muted);font-size:12px;margin-left:8px}
ol.events{list-style:none;margin:0;padding:4px 10px}
.ev{display:grid;grid-template-columns:150px 92px 1fr;gap:8px;padding:2px 0;border-bottom:1px dotted var(--line)}
.ev time{color:var(--muted);font-variant-numeric:tabular-nums}
.badge{display:inline-block;font-size:11px;border-radius:10px;padding:0 8px;color:#fff;background:var(--muted);text-align:center;height:18px;line-height:18px}
.k-tool.ok .badge{background:var(--ok)}.k-tool.fail .badge{background:var(--fail)}
.k-blocked .badge,.k-refused .badge{background:var(--block)}.k-junction .badge{background:var(--junction)}
.k-approved .badge,.k-dismissed .badge{background:var(--grant)}.k-prompt .badge{background:#0f766e}
.k-decision .badge{background:var(--note)}.k-compaction .badge,.k-clear .badge{background:#374151}
.k-tangent .badge,.k-switch .badge{background:#a16207}
.fail .text{color:var(--fail)}.detail{display:block;color:var(--muted);font-size:12px;white-space:pre-wrap;overflow-wrap:anywhere}
.text{overflow-wrap:anywhere;white-space:pre-wrap}
.cut{color:var(--muted);font-style:italic;padding:4px 0}
svg.fill{display:block;margin:8px 10px;background:var(--panel);border:1px solid var(--line);border-radius:4px}
svg.fill .z-green{fill:var(--ok)}svg.fill .z-yellow{fill:#ca8a04}svg.fill .z-orange{fill:#ea580c}svg.fill .z-red{fill:var(--fail)}
svg.fill polyline{fill:none;stroke:#64748b;stroke-width:1.2}svg.fill .mark{stroke:#111;stroke-dasharray:3 3}
svg.fill .window{stroke:var(--fail);stroke-dasharray:6 3}svg.fill text{font-size:10px;fill:var(--muted)}
.legend span{margin-right:10px;font-size:12px;color:var(--muted)}
.zl::before{content:'';display:inline-block;width:9px;height:9px;border-radius:50%;margin-right:4px;background:currentColor}
.zl.z-green{color:var(--ok)}.zl.z-yellow{color:#ca8a04}.zl.z-orange{color:#ea580c}.zl.z-red{color:var(--fail)}
.status-verified{color:var(--ok)}.status-bad{color:var(--fail)}
footer{margin-top:30px;color:var(--muted);font-size:12px}
";

/// `s` safe as HTML text and as a double- or single-quoted attribute value.
pub(super) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters have no business on the page (a terminal escape in a tool's
            // output, say): shown as the replacement character.
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A `file://` URL for `path` under `root`, every byte but the unreserved ones and `/`
/// percent-encoded, so nothing in a path can end the attribute or change the scheme. `None`
/// for a path that climbs out of the root.
pub(super) fn file_url(root: &str, path: &str) -> Option<String> {
    if path.split('/').any(|seg| seg == "..") || path.starts_with('/') || root.is_empty() {
        return None;
    }
    let full = format!("{}/{}", root.trim_end_matches('/'), path);
    let mut out = String::from("file://");
    for b in full.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    Some(out)
}

/// The whole page.
pub(super) fn render(r: &Report) -> String {
    let mut h = String::with_capacity(64 << 10);
    h.push_str("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    h.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">",
    );
    h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    h.push_str("<meta name=\"referrer\" content=\"no-referrer\">");
    let _ = write!(h, "<title>trail report: {}</title>", esc(&r.here));
    let _ = write!(h, "<style>{STYLE}</style></head><body>");
    header(&mut h, r);
    let mut budget = Budget { left: BUDGET };
    for (i, p) in r.projects.iter().enumerate() {
        project(&mut h, r, i, p, &mut budget);
    }
    h.push_str("<footer>");
    if !r.problems.is_empty() {
        h.push_str("<p><strong>Not read whole:</strong></p><ul class=\"problems\">");
        for x in &r.problems {
            let _ = write!(h, "<li>{}</li>", esc(x));
        }
        h.push_str("</ul>");
    }
    let _ = write!(
        h,
        "<p>Made by <code>trail report</code> at {} UTC from the pulse stream and this project's \
         journals. Every text is redacted (<code>${{secret:…}}</code>) and shown as text.</p>",
        esc(&minute(r.generated))
    );
    h.push_str("</footer></body></html>\n");
    h
}

fn header(h: &mut String, r: &Report) {
    let s = &r.summary;
    let _ = write!(h, "<header><h1>What the agents did</h1><p class=\"meta\">");
    match (&s.first, &s.last) {
        (Some(a), Some(b)) => {
            let _ = write!(
                h,
                "{} to {} UTC",
                esc(&super::minute_of(a)),
                esc(&super::minute_of(b))
            );
        }
        _ => h.push_str("Nothing recorded yet"),
    }
    if let Some(since) = &r.since {
        let _ = write!(h, " · since {}", esc(since));
    }
    if let Some(p) = &r.proj {
        let _ = write!(h, " · project {}", esc(p));
    }
    h.push_str("</p><dl class=\"summary\">");
    let tiles: [(&str, &str, String); 11] = [
        ("projects", "projects", s.projects.to_string()),
        ("sessions", "sessions", s.sessions.to_string()),
        ("hours", "in sessions", duration(s.minutes)),
        ("prompts", "prompts", s.prompts.to_string()),
        ("commands", "commands run", s.commands.to_string()),
        ("failures", "failed", s.failures.to_string()),
        ("blocked", "blocked", s.blocked.to_string()),
        ("junctions", "junctions", s.junctions.to_string()),
        ("approvals", "approvals", s.approvals.to_string()),
        ("decisions", "decisions", s.decisions.to_string()),
        (
            "injected",
            "tokens injected by trail",
            s.injected_tokens.to_string(),
        ),
    ];
    for (id, label, value) in tiles {
        let _ = write!(
            h,
            "<div data-tile=\"{id}\"><dt>{}</dt><dd>{}</dd></div>",
            esc(label),
            esc(&value)
        );
    }
    h.push_str("</dl>");
    if r.projects.len() > 1 {
        h.push_str("<nav>");
        for (i, p) in r.projects.iter().enumerate() {
            let _ = write!(h, "<a href=\"#p-{i}\">{}</a>", esc(&p.name));
        }
        h.push_str("</nav>");
    }
    h.push_str("</header>");
}

struct Budget {
    left: usize,
}

fn project(h: &mut String, r: &Report, i: usize, p: &ProjectPart, budget: &mut Budget) {
    let _ = write!(
        h,
        "<section class=\"project\" id=\"p-{i}\" data-project=\"{}\"><h2>{}{}</h2>",
        esc(&p.name),
        esc(&p.name),
        if p.name == r.here {
            " <span class=\"counts\">this project</span>"
        } else {
            ""
        }
    );
    let c = &p.counts;
    let _ = write!(
        h,
        "<p class=\"meta\">{} command(s), {} failed · {} prompt(s) · {} blocked · {} junction(s) · \
         {} approval(s) · {} checkpoint(s) · {} tangent(s) · {} focus switch(es) · {} record(s){}</p>",
        c.tools,
        c.failures,
        c.prompts,
        c.blocked,
        c.junctions,
        c.approvals,
        c.checkpoints,
        c.tangents,
        c.switches,
        c.records,
        if p.journals {
            ""
        } else {
            " · only the pulse stream: this project's own journals are read when the report is made in it"
        }
    );
    if !p.stops.is_empty() {
        stops(h, &p.stops);
    }
    if !p.decisions.is_empty() {
        decisions(h, &r.root, p.name == r.here, &p.decisions);
    }
    h.push_str("<h3>Sessions</h3>");
    for (k, s) in p.sessions.iter().enumerate() {
        session(h, s, k < OPEN, budget);
    }
    if p.sessions_omitted > 0 {
        let _ = write!(
            h,
            "<p class=\"cut\">{} older session(s) not shown (<code>trail report --sessions N</code> shows more)</p>",
            p.sessions_omitted
        );
    }
    h.push_str("</section>");
}

fn stops(h: &mut String, families: &[StopFamily]) {
    h.push_str(
        "<details class=\"stops\" open><summary>What the gate stopped</summary><table>\
         <tr><th>kind</th><th>rule</th><th>blocked</th><th>junctions</th><th>approved</th>\
         <th>dismissed</th><th>latest</th></tr>",
    );
    for f in families {
        for rule in &f.rules {
            let _ = write!(
                h,
                "<tr class=\"stop\" data-rule=\"{}\"><td>{}</td><td><code>{}</code></td><td>{}</td>\
                 <td>{}</td><td>{}</td><td>{}</td><td>",
                esc(&rule.rule),
                esc(&f.kind),
                esc(&rule.rule),
                rule.blocked,
                rule.junctions,
                rule.approved,
                rule.dismissed
            );
            for e in &rule.examples {
                let _ = write!(h, "<code class=\"detail\">{}</code>", esc(e));
            }
            h.push_str("</td></tr>");
        }
    }
    h.push_str("</table></details>");
}

fn decisions(h: &mut String, root: &str, here: bool, rows: &[DecisionRow]) {
    h.push_str(
        "<details class=\"decisions\" open><summary>Decisions, and their grounding now</summary>\
         <table><tr><th>when</th><th>decision</th><th>grounding</th><th>citations</th></tr>",
    );
    for d in rows {
        let verified = d.grounding == "verified";
        let _ = write!(
            h,
            "<tr class=\"decision\" data-decision=\"{}\"><td>{}</td><td><strong>{}</strong> {}\
             <span class=\"detail\">{}</span></td><td class=\"{}\">{}</td><td>",
            esc(&d.id),
            esc(&minute(d.at)),
            esc(&d.id),
            esc(&d.title),
            esc(&d.decision),
            if verified {
                "status-verified"
            } else {
                "status-bad"
            },
            esc(&d.grounding)
        );
        for c in &d.citations {
            let label = match (&c.path, c.line) {
                (Some(p), Some(l)) => format!("{p}:{l}"),
                _ => c.citation.clone(),
            };
            let url = c
                .path
                .as_deref()
                .filter(|_| here)
                .and_then(|p| file_url(root, p));
            match url {
                Some(u) => {
                    let _ = write!(
                        h,
                        "<a class=\"cite\" href=\"{}\" title=\"{}\">{}</a> ",
                        esc(&u),
                        esc(&c.citation),
                        esc(&label)
                    );
                }
                None => {
                    let _ = write!(h, "<code class=\"cite\">{}</code> ", esc(&label));
                }
            }
            let _ = write!(h, "<span class=\"detail\">{}</span>", esc(&c.status));
        }
        h.push_str("</td></tr>");
    }
    h.push_str("</table></details>");
}

fn session(h: &mut String, s: &SessionPart, open: bool, budget: &mut Budget) {
    let c = &s.counts;
    let minutes =
        u64::try_from((s.end.as_micros() - s.start.as_micros()) / 60_000_000).unwrap_or(0);
    let name = s.id.as_deref().map_or_else(
        || "Outside a session".to_string(),
        |id| format!("Session {}", short(id)),
    );
    let _ = write!(
        h,
        "<details class=\"session\" data-session=\"{}\"{}><summary><strong>{}</strong> {} UTC, {}\
         <span class=\"counts\">{} prompt(s) · {} command(s) · {} failed · {} stopped · {} approved · \
         ~{} tokens injected</span></summary>",
        esc(s.id.as_deref().unwrap_or("")),
        if open { " open" } else { "" },
        esc(&name),
        esc(&minute(s.start)),
        esc(&duration(minutes)),
        c.prompts,
        c.tools,
        c.failures,
        c.blocked + c.junctions,
        c.approvals,
        c.injected_tokens
    );
    if let Some(id) = &s.id {
        let _ = write!(
            h,
            "<p class=\"detail\" style=\"padding:0 10px\">id {}</p>",
            esc(id)
        );
    }
    if !s.fill.is_empty() {
        fill_chart(h, s);
    }
    h.push_str("<ol class=\"events\">");
    if s.omitted > 0 {
        let _ = write!(
            h,
            "<li class=\"cut\">{} earlier event(s) not shown (<code>trail report --events N</code>)</li>",
            s.omitted
        );
    }
    for (k, e) in s.events.iter().enumerate() {
        let before = h.len();
        if budget.left == 0 {
            let _ = write!(
                h,
                "<li class=\"cut\">{} more event(s) of this session are not shown: the page keeps \
                 to a few MB (narrow it with --since or --proj)</li>",
                s.events.len() - k
            );
            break;
        }
        event(h, e);
        budget.left = budget.left.saturating_sub(h.len() - before);
    }
    h.push_str("</ol></details>");
}

fn event(h: &mut String, e: &Event) {
    let outcome = match e.ok {
        Some(true) => " ok",
        Some(false) => " fail",
        None => "",
    };
    let kind = e.kind.as_str();
    let _ = write!(
        h,
        "<li class=\"ev k-{kind}{outcome}\" data-kind=\"{kind}\"><time>{}</time>\
         <span class=\"badge\">{}</span><span class=\"text\">{}",
        esc(&e
            .at
            .to_string()
            .get(..19)
            .unwrap_or_default()
            .replace('T', " ")),
        badge(e.kind, e.ok),
        esc(&e.text)
    );
    if !e.detail.is_empty() {
        let _ = write!(h, "<span class=\"detail\">{}</span>", esc(&e.detail));
    }
    h.push_str("</span></li>");
}

fn badge(k: EventKind, ok: Option<bool>) -> &'static str {
    match (k, ok) {
        (EventKind::Tool, Some(false)) => "failed",
        (EventKind::Switch, _) => "focus",
        (k, _) => k.as_str(),
    }
}

/// The context fill of a session over time: a line through its points, each point coloured
/// by its attention zone, the window (when known) as a dashed line, compactions and `/clear`
/// as dashed marks.
fn fill_chart(h: &mut String, s: &SessionPart) {
    const W: f64 = 720.0;
    const HT: f64 = 150.0;
    const PAD: f64 = 28.0;
    let t0 = s.start.as_micros() as f64;
    let span = ((s.end.as_micros() - s.start.as_micros()) as f64).max(1.0);
    let window = s.fill.iter().filter_map(|p| p.window).max();
    let top_tokens = s
        .fill
        .iter()
        .map(|p| p.context)
        .chain(window)
        .max()
        .unwrap_or(1)
        .max(1);
    let top = top_tokens as f64;
    let x = |at: i64| PAD + (at as f64 - t0) / span * (W - 2.0 * PAD);
    let y = |v: u64| HT - PAD + 6.0 - v as f64 / top * (HT - PAD - 6.0);
    let _ = write!(
        h,
        "<svg class=\"fill\" role=\"img\" aria-label=\"context fill\" width=\"{W}\" height=\"{HT}\" \
         viewBox=\"0 0 {W} {HT}\" xmlns=\"http://www.w3.org/2000/svg\">"
    );
    let _ = write!(
        h,
        "<text x=\"{PAD}\" y=\"12\">context tokens (max {top_tokens})</text>"
    );
    if let Some(w) = window {
        let _ = write!(
            h,
            "<line class=\"window\" x1=\"{PAD}\" x2=\"{}\" y1=\"{:.1}\" y2=\"{:.1}\"><title>window {w}</title></line>",
            W - PAD,
            y(w),
            y(w)
        );
    }
    for e in s
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Compaction | EventKind::Clear))
    {
        let at = x(e.at.as_micros());
        let _ = write!(
            h,
            "<line class=\"mark\" data-mark=\"{}\" x1=\"{at:.1}\" x2=\"{at:.1}\" y1=\"16\" y2=\"{}\"><title>{}</title></line>",
            e.kind.as_str(),
            HT - PAD + 6.0,
            esc(&e.text)
        );
    }
    h.push_str("<polyline points=\"");
    for p in &s.fill {
        let _ = write!(h, "{:.1},{:.1} ", x(p.at.as_micros()), y(p.context));
    }
    h.push_str("\"/>");
    for p in &s.fill {
        point(h, p, x(p.at.as_micros()), y(p.context));
    }
    h.push_str(
        "</svg><p class=\"legend\" style=\"padding:0 10px\"><span>attention zone of each point, \
         by tokens added since the session's start or its last compaction:</span>\
         <span class=\"zl z-green\">green</span><span class=\"zl z-yellow\">yellow</span>\
         <span class=\"zl z-orange\">orange</span><span class=\"zl z-red\">red</span></p>",
    );
}

fn point(h: &mut String, p: &FillPoint, x: f64, y: f64) {
    let _ = write!(
        h,
        "<circle class=\"pt z-{}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"2.6\"><title>{} UTC: {} tokens ({})</title></circle>",
        p.zone.as_str(),
        esc(&minute(p.at)),
        p.context,
        p.zone.as_str()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_cannot_become_markup() {
        let hostile =
            "</span><script>alert(1)</script><a href=\"javascript:alert(2)\" onclick='x'>";
        let e = esc(hostile);
        assert!(!e.contains('<') && !e.contains('>') && !e.contains('"') && !e.contains('\''));
        assert_eq!(esc("a\u{1b}[31mb"), "a\u{fffd}[31mb");
    }

    /// Every text of a report hostile at once, multibyte and control characters included: the
    /// page holds none of it as markup, and every link it writes is its own.
    #[test]
    fn every_text_of_a_report_reaches_the_page_as_text() {
        use trail_core::attention::{Zone, Zones};
        use trail_core::report::{CitationRow, Counts, DecisionRow, FillPoint, StopRule, Summary};
        use trail_core::time::Ts;
        let bad = "é<script>alert(1)</script>\u{1b}[2J\"'><img src=x onerror=alert(2)>&amp;ü";
        let at = Ts::from_micros(1_700_000_000_000_000);
        let event = |kind| Event {
            at,
            kind,
            text: bad.into(),
            ok: Some(false),
            detail: bad.into(),
        };
        let session = SessionPart {
            id: Some(bad.into()),
            start: at,
            end: Ts::from_micros(1_700_000_060_000_000),
            counts: Counts::default(),
            events: vec![
                event(EventKind::Tool),
                event(EventKind::Compaction),
                event(EventKind::Prompt),
            ],
            omitted: 3,
            fill: vec![FillPoint {
                at,
                context: 10,
                window: Some(100),
                zone: Zone::Red,
            }],
        };
        let r = Report {
            generated: at,
            since: Some(bad.into()),
            proj: Some(bad.into()),
            here: bad.into(),
            root: format!("/tmp/{bad}"),
            zones: Zones::DEFAULT,
            summary: Summary {
                first: Some(bad.into()),
                last: Some(bad.into()),
                ..Summary::default()
            },
            projects: vec![ProjectPart {
                name: bad.into(),
                journals: true,
                counts: Counts::default(),
                sessions: vec![session],
                sessions_omitted: 1,
                decisions: vec![DecisionRow {
                    id: bad.into(),
                    title: bad.into(),
                    decision: bad.into(),
                    at,
                    session: None,
                    grounding: bad.into(),
                    citations: vec![CitationRow {
                        citation: bad.into(),
                        path: Some(format!("src/{bad}")),
                        line: Some(1),
                        status: bad.into(),
                    }],
                }],
                stops: vec![StopFamily {
                    kind: bad.into(),
                    rules: vec![StopRule {
                        rule: bad.into(),
                        examples: vec![bad.into()],
                        ..StopRule::default()
                    }],
                }],
            }],
            problems: vec![bad.into()],
        };
        let page = render(&r);
        assert!(!page.contains('\u{1b}') && !page.contains("'>"));
        // Every element on the page is one the renderer writes.
        let ours = [
            "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p",
            "dl", "div", "dt", "dd", "nav", "a", "section", "span", "details", "summary", "table",
            "tr", "th", "td", "code", "strong", "ol", "li", "time", "svg", "text", "line",
            "polyline", "circle", "footer", "ul",
        ];
        for tag in page.split('<').skip(1) {
            let name: String = tag
                .trim_start_matches(['/', '!'])
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            assert!(
                ours.contains(&name.as_str()) || tag.starts_with("!doctype"),
                "<{name} reached the page"
            );
        }
        for href in page.split("href=\"").skip(1) {
            assert!(
                href.starts_with("file:///tmp/") || href.starts_with("#p-"),
                "{href}"
            );
        }
    }

    #[test]
    fn a_file_link_stays_under_the_root_and_in_its_attribute() {
        assert_eq!(
            file_url("/home/me/proj", "src/a b.rs").as_deref(),
            Some("file:///home/me/proj/src/a%20b.rs")
        );
        assert_eq!(
            file_url("/p", "x\"onmouseover=alert(1).rs").as_deref(),
            Some("file:///p/x%22onmouseover%3Dalert%281%29.rs")
        );
        assert_eq!(file_url("/p", "../../etc/passwd"), None);
        assert_eq!(file_url("/p", "/etc/passwd"), None);
        assert_eq!(
            file_url("/p", "javascript:alert(1)").as_deref(),
            Some("file:///p/javascript%3Aalert%281%29")
        );
    }
}
