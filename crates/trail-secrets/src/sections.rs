//! A section named for HTTP Basic authentication (Hurl's `[BasicAuth]`, a `[basic_auth]`
//! table): each line under it is a user and a password (`user: password`), the pair a URL
//! writes as `user:password@host`.

/// The user's and the password's spans of every pair under a Basic-auth section's heading,
/// up to a blank line or the next heading.
pub(crate) fn basic_auth_pairs(text: &str) -> Vec<((usize, usize), (usize, usize))> {
    let mut pairs = Vec::new();
    let mut inside = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let trimmed = body.trim();
        if trimmed.is_empty() {
            inside = false;
            continue;
        }
        if let Some(name) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            let words = crate::text::words(name);
            inside = words.iter().any(|w| w == "basic") && words.iter().any(|w| w == "auth");
            continue;
        }
        if !inside {
            continue;
        }
        // `user: password`, one word each; a comment or anything longer is not a pair.
        let Some((user, password)) = trimmed.split_once(':') else {
            continue;
        };
        let (user, password) = (user.trim(), password.trim());
        if user.is_empty()
            || password.is_empty()
            || user.starts_with('#')
            || user.contains(char::is_whitespace)
            || password.contains(char::is_whitespace)
        {
            continue;
        }
        let user_at = start + (user.as_ptr() as usize - line.as_ptr() as usize);
        let password_at = start + (password.as_ptr() as usize - line.as_ptr() as usize);
        pairs.push((
            (user_at, user_at + user.len()),
            (password_at, password_at + password.len()),
        ));
    }
    pairs
}
