//! The core tier, `.trail/MEMORY.md`: `- ` bullets under `## ` headings, each ending with its
//! source (`(src: memory/2026-11-25.md#L12)`).
//!
//! [`parse`] reads what a person wrote or a model answered, so it accepts the usual Markdown
//! variations (`*` bullets, `###` headings, code fences, indented bullets) and never fails: what it
//! cannot use is returned in [`Core::ignored`] so the diary can say so. [`render`] writes the one
//! canonical form.

use std::fmt::Write as _;

/// The title [`render`] puts on top.
pub const TITLE: &str = "# Core Memory";
/// Longer bullets are not facts but pasted text; they are ignored (and reported).
pub const MAX_BULLET_CHARS: usize = 1000;
const MAX_HEADING_CHARS: usize = 120;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Entry {
    pub text: String,
    /// `memory/YYYY-MM-DD.md#Lnn`, when well formed.
    pub src: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Section {
    /// None for bullets before the first heading.
    pub heading: Option<String>,
    pub entries: Vec<Entry>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Core {
    pub sections: Vec<Section>,
    /// Lines that were neither headings nor usable bullets (blank lines and titles aside).
    pub ignored: Vec<String>,
}

impl Core {
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.sections.iter().flat_map(|s| s.entries.iter())
    }

    pub fn len(&self) -> usize {
        self.sections.iter().map(|s| s.entries.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The section named `heading`, created at the end when missing.
    pub fn section_mut(&mut self, heading: Option<&str>) -> &mut Section {
        let i = if let Some(i) = self
            .sections
            .iter()
            .position(|s| s.heading.as_deref() == heading)
        {
            i
        } else {
            self.sections.push(Section {
                heading: heading.map(str::to_string),
                entries: Vec::new(),
            });
            self.sections.len() - 1
        };
        &mut self.sections[i]
    }
}

/// One line, no control characters, whitespace collapsed.
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `memory/YYYY-MM-DD.md#L12` exactly, or None.
pub fn well_formed_src(s: &str) -> Option<String> {
    let s = s.trim();
    let rest = s.strip_prefix("memory/")?;
    let (file, line) = rest.split_once(".md#L")?;
    let date_ok = file.len() == 10
        && file.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    let line_ok = !line.is_empty()
        && line.len() <= 9
        && line.bytes().all(|b| b.is_ascii_digit())
        && !line.trim_start_matches('0').is_empty();
    (date_ok && line_ok).then(|| s.to_string())
}

/// Split `text (src: ref)` into its text and reference (the first well-formed one, when several
/// are given).
pub fn split_src(b: &str) -> (String, Option<String>) {
    let Some(i) = b.rfind("(src:") else {
        return (clean(b), None);
    };
    let inner = b[i + 5..].trim_end();
    let inner = inner.strip_suffix(')').unwrap_or(inner);
    match inner.split([',', ';', ' ']).find_map(well_formed_src) {
        Some(src) => (clean(&b[..i]), Some(src)),
        // A malformed reference says nothing: drop every `(src:` part, so that reading the
        // rendered entry again gives the same entry.
        None => (clean(&b[..b.find("(src:").unwrap_or(i)]), None),
    }
}

/// The key under which two entries are the same fact.
pub fn normalize(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric() && !"_./-".contains(c))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn heading_of(line: &str) -> Option<&str> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    if hashes == 0 || !line[hashes..].starts_with(' ') {
        return None;
    }
    let text = line[hashes..].trim();
    // A closing run of `#` counts only after a space (CommonMark): `## C#` is about C#, and a
    // heading trail writes reads back the same.
    let open = text.trim_end_matches('#');
    let text = if open.is_empty() || open.ends_with(char::is_whitespace) {
        open.trim_end()
    } else {
        text
    };
    Some(text).filter(|_| hashes >= 2)
}

fn bullet_of(line: &str) -> Option<&str> {
    let t = line.trim_start();
    ["- ", "* ", "+ "].iter().find_map(|p| t.strip_prefix(p))
}

/// Read MEMORY.md (or a model's `[MEMORY]` section). Never fails.
pub fn parse(text: &str) -> Core {
    let mut core = Core::default();
    let mut current: Option<String> = None;
    for raw in text.lines() {
        let line = raw.trim_end();
        let t = line.trim();
        if t.is_empty() || t.starts_with("```") || t.starts_with("<!--") {
            continue;
        }
        if t.starts_with("# ") || t == "#" {
            // The document's title.
            continue;
        }
        if let Some(h) = heading_of(t) {
            let h = clean(h);
            if h.is_empty() || h.chars().count() > MAX_HEADING_CHARS {
                core.ignored.push(crate::text::head(t, 200).to_string());
                current = None;
            } else {
                current = Some(h);
            }
            continue;
        }
        if let Some(b) = bullet_of(line) {
            let (text, src) = split_src(b);
            if text.is_empty() || text.chars().count() > MAX_BULLET_CHARS {
                core.ignored.push(crate::text::head(t, 200).to_string());
                continue;
            }
            core.section_mut(current.as_deref())
                .entries
                .push(Entry { text, src });
            continue;
        }
        core.ignored.push(crate::text::head(t, 200).to_string());
    }
    core.sections.retain(|s| !s.entries.is_empty());
    core
}

/// The canonical MEMORY.md, and for each of its lines the (section, entry) it shows, if any.
pub fn render_mapped(core: &Core) -> (String, Vec<Option<(usize, usize)>>) {
    let mut out = format!("{TITLE}\n");
    let mut map = vec![None];
    // Bullets without a heading go first: anywhere else they would read as the previous
    // heading's.
    let mut order: Vec<usize> = (0..core.sections.len()).collect();
    order.sort_by_key(|&i| core.sections[i].heading.is_some());
    for si in order {
        let s = &core.sections[si];
        if s.entries.is_empty() {
            continue;
        }
        out.push('\n');
        map.push(None);
        if let Some(h) = &s.heading {
            // A heading ending in ` #` would lose it to the closing-sequence rule on reading:
            // an explicit closing sequence keeps it.
            let open = h.trim_end_matches('#');
            let closing =
                h.ends_with('#') && (open.is_empty() || open.ends_with(char::is_whitespace));
            let _ = writeln!(out, "## {h}{}", if closing { " #" } else { "" });
            map.push(None);
        }
        for (ei, e) in s.entries.iter().enumerate() {
            match &e.src {
                Some(src) => {
                    let _ = writeln!(out, "- {} (src: {src})", e.text);
                }
                None => {
                    let _ = writeln!(out, "- {}", e.text);
                }
            }
            map.push(Some((si, ei)));
        }
    }
    (out, map)
}

pub fn render(core: &Core) -> String {
    render_mapped(core).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn markdown_variations_are_read_into_the_canonical_form() {
        let text = "# Memory\n\n```markdown\n## Infra ##\n* The DB listens on 5433 (src: memory/2026-11-25.md#L4)\n  - nested: CI uses cargo nextest (src: memory/2026-11-25.md#L9, memory/2026-11-24.md#L2)\n### Decisions\n- Round once per order (src: somewhere else)\nsome prose\n- \n```\n";
        let core = parse(text);
        assert_eq!(core.len(), 3);
        assert_eq!(core.sections[0].heading.as_deref(), Some("Infra"));
        assert_eq!(
            core.sections[0].entries[1].src.as_deref(),
            Some("memory/2026-11-25.md#L9")
        );
        assert_eq!(core.sections[1].entries[0].src, None);
        assert_eq!(
            core.ignored,
            vec!["some prose".to_string(), "-".to_string()]
        );
        let out = render(&core);
        assert_eq!(
            out,
            "# Core Memory\n\n## Infra\n- The DB listens on 5433 (src: memory/2026-11-25.md#L4)\n- nested: CI uses cargo nextest (src: memory/2026-11-25.md#L9)\n\n## Decisions\n- Round once per order\n"
        );
        assert_eq!(
            parse(&out),
            Core {
                ignored: vec![],
                ..core
            }
        );
    }

    #[test]
    fn only_well_formed_sources_are_kept() {
        assert!(well_formed_src("memory/2026-11-25.md#L12").is_some());
        for bad in [
            "memory/2026-11-25.md#L",
            "memory/2026-11-25.md#L0",
            "memory/2026-1-25.md#L3",
            "memory/../../etc/passwd.md#L1",
            "MEMORY.md#L3",
            "memory/2026-11-25.md#L99999999999",
        ] {
            assert_eq!(well_formed_src(bad), None, "{bad}");
        }
    }

    proptest! {
        #[test]
        fn parse_never_panics_and_render_is_a_fixed_point(text in "(?s).{0,400}") {
            let core = parse(&text);
            let out = render(&core);
            let again = parse(&out);
            prop_assert_eq!(again.len(), core.len());
            prop_assert!(again.ignored.is_empty());
            prop_assert_eq!(render(&again), out);
        }

        #[test]
        fn parse_survives_markdown_shaped_noise(
            lines in proptest::collection::vec(
                prop_oneof![
                    Just("## ".to_string()),
                    Just("#".to_string()),
                    Just("- (src:".to_string()),
                    Just("- x (src: memory/2026-01-01.md#L1))".to_string()),
                    "[-*#+ ]{0,4}[a-z(): /#.0-9\\[\\]]{0,30}",
                ],
                0..40,
            )
        ) {
            let text = lines.join("\n");
            let core = parse(&text);
            let out = render(&core);
            prop_assert_eq!(render(&parse(&out)), out);
        }
    }
}

#[cfg(test)]
mod heading_regression {
    use super::*;

    /// Found by the `memory_files` fuzz target: a heading ending in `#` without a space before
    /// it (`## C#`) lost its `#` on each rewrite.
    #[test]
    fn a_heading_ending_in_a_hash_reads_back_the_same() {
        assert_eq!(heading_of("## C#"), Some("C#"));
        assert_eq!(heading_of("## Notes ##"), Some("Notes"));
        let once = render(&parse(
            "## C#\n- uses C# 12 (src: memory/2026-11-26.md#L3)\n",
        ));
        assert_eq!(render(&parse(&once)), once);
        assert!(once.contains("## C#\n"), "{once}");
        // Its sibling: a heading that itself ends in ` #`.
        let core = parse("## a #\n- x\n");
        assert_eq!(core.sections[0].heading.as_deref(), Some("a"));
        let mut odd = core.clone();
        odd.sections[0].heading = Some("a #".into());
        let text = render(&odd);
        assert_eq!(
            parse(&text).sections[0].heading.as_deref(),
            Some("a #"),
            "{text}"
        );
    }
}
