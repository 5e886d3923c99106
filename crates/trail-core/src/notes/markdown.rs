//! Just enough Markdown to find sections: ATX headings and fenced blocks, line by line, with
//! each line's byte range so that an edit can leave every other byte where it was. The
//! grounding reader ([`crate::grounding::notes`]) reads headings the same way.

/// One line of a document: where it is and, when it is a heading outside a fence, its level and
/// text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past its line break (the document's end for a last line without one).
    pub next: usize,
    pub heading: Option<(usize, String)>,
    /// Whether the line holds nothing but whitespace.
    pub blank: bool,
    /// Whether it opens, closes or lies inside a fenced block (its text is not Markdown).
    pub fenced: bool,
}

/// Every line of `text`. A `#` line inside a fenced block is text, not a heading.
pub fn lines(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut fence: Option<(u8, usize)> = None;
    let mut start = 0;
    while start < text.len() {
        let next = text[start..]
            .find('\n')
            .map_or(text.len(), |i| start + i + 1);
        let body = text[start..next].trim_end_matches(['\n', '\r']);
        let mut line = Line {
            start,
            next,
            heading: None,
            blank: body.trim().is_empty(),
            fenced: fence.is_some(),
        };
        if let Some(f) = fence_of(body) {
            line.fenced = true;
            fence = match fence {
                None => Some(f),
                Some((c, n)) if f.0 == c && f.1 >= n => None,
                open => open,
            };
        } else if fence.is_none() {
            line.heading = heading(body).map(|(l, t)| (l, t.to_string()));
        }
        out.push(line);
        start = next;
    }
    out
}

/// `#### text`: its level and text (closing `#`s dropped).
pub fn heading(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    let level = t.bytes().take_while(|&b| b == b'#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let rest = &t[level..];
    (rest.is_empty() || rest.starts_with(' '))
        .then(|| (level, rest.trim().trim_end_matches('#').trim()))
}

/// A fence line's character and length (three or more backticks or tildes).
pub fn fence_of(line: &str) -> Option<(u8, usize)> {
    let t = line.trim_start();
    let c = *t.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = t.bytes().take_while(|&x| x == c).count();
    (n >= 3).then_some((c, n))
}

/// The line break a document uses: `\r\n` when its first line ends so, else `\n`.
pub fn eol(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_outside_fences_with_their_byte_ranges() {
        let text = "# A\r\ntext\n```\n## not\n```\n  ### B ##\nlast";
        let l = lines(text);
        assert_eq!(l.len(), 7);
        assert_eq!(l[0].heading, Some((1, "A".into())));
        assert_eq!((l[0].start, l[0].next), (0, 5));
        assert_eq!(l[3].heading, None);
        assert!(l[2].fenced && l[3].fenced && l[4].fenced && !l[5].fenced);
        assert_eq!(l[5].heading, Some((3, "B".into())));
        assert_eq!(l[6].next, text.len());
        assert_eq!(eol(text), "\r\n");
        assert_eq!(eol("a\nb"), "\n");
        assert!(lines("").is_empty());
    }
}
