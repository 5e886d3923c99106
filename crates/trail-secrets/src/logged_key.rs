//! A private key printed inside a log whose every line carries a prefix of its own: a build
//! step's number and time (`#8 0.211 b3Bl…`), a timestamp, a container's name. The block's
//! lines are no longer one run of base64, so the private-key rule, which reads the body as
//! it follows the BEGIN line, stops at the first prefix. Here the prefix's shape is read off
//! the BEGIN line (how many words stand before `-----BEGIN`), the same number of words is set
//! aside on each line after it, and with the END line found that way the lines' rests are the
//! key's body.

/// Words of prefix at most: a log's columns, not a sentence.
const MAX_PREFIX_WORDS: usize = 4;

/// The spans of the bodies of private keys printed with a prefix on every line, each from the
/// start of its first body line to the end of its last.
pub(crate) fn bodies(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("-----BEGIN") {
        let begin = from + i;
        from = begin + 10;
        let line_start = text[..begin].rfind('\n').map_or(0, |n| n + 1);
        let line_end = text[begin..].find('\n').map_or(text.len(), |n| begin + n);
        if !text[begin..line_end].contains("PRIVATE KEY") {
            continue;
        }
        let words = text[line_start..begin].split_whitespace().count();
        if words == 0 || words > MAX_PREFIX_WORDS {
            continue;
        }
        let mut spans = Vec::new();
        let mut at = line_end + 1;
        let mut ended = false;
        while at < text.len() {
            let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
            let Some(rest) = after_words(&text[at..end], words) else {
                break;
            };
            let rest_at = end - rest.len();
            let body = rest.trim_end_matches('\r');
            if body.starts_with("-----END") {
                ended = true;
                break;
            }
            if body.is_empty()
                || !body
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
            {
                break;
            }
            spans.push((at, rest_at + body.len()));
            at = end + 1;
        }
        let material: usize = spans.iter().map(|(s, e)| e - s).sum();
        // One span over the body's lines, their prefixes with them: a log's step numbers and
        // times say nothing once the key is gone.
        if ended
            && material >= 16
            && let (Some(first), Some(last)) = (spans.first(), spans.last())
        {
            from = at;
            out.push((first.0, last.1));
        }
    }
    out
}

/// The line after its first `n` words and the blanks after them, if it has that many.
fn after_words(line: &str, n: usize) -> Option<&str> {
    let mut rest = line;
    for _ in 0..n {
        rest = rest.trim_start_matches([' ', '\t']);
        let word_end = rest.find([' ', '\t'])?;
        rest = &rest[word_end..];
    }
    Some(rest.trim_start_matches([' ', '\t']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_in_a_build_log_and_nothing_else() {
        let text = "#8 0.210 -----BEGIN OPENSSH PRIVATE KEY-----\n#8 0.211 b3BlbnNzaC1rZXktdjEAAAAA\n#8 0.212 OQAAACDo/9/77tt6HN8NzJV0\n#8 0.216 -----END OPENSSH PRIVATE KEY-----\n";
        let spans = bodies(text);
        assert_eq!(spans.len(), 1);
        assert_eq!(
            &text[spans[0].0..spans[0].1],
            "#8 0.211 b3BlbnNzaC1rZXktdjEAAAAA\n#8 0.212 OQAAACDo/9/77tt6HN8NzJV0"
        );
        // No END line: not read this way (the private-key rule judges a cut-off key).
        assert!(bodies("#8 0.210 -----BEGIN RSA PRIVATE KEY-----\n#8 0.211 b3Blbn\n").is_empty());
        // A public key, and a key with no prefix (the private-key rule's).
        assert!(bodies("x -----BEGIN PUBLIC KEY-----\nx MFkwEwYHKoZIzj0CAQYIKoZIzj0D\nx -----END PUBLIC KEY-----").is_empty());
        assert!(
            bodies("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----")
                .is_empty()
        );
    }
}
