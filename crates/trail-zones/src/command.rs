//! A command's words and redirections as the gate's parser hands them on: what a zone is
//! judged from.

/// One word of a command as the gate sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The word after quote removal, when it is static (no expansion).
    pub text: Option<String>,
    /// The word as written (quotes and expansions included).
    pub raw: String,
    /// Whether any part was quoted (quoted text is data).
    pub quoted: bool,
}

/// A redirection that writes somewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    pub target: String,
    /// `>>`: added to the end, what was there stays.
    pub append: bool,
}
