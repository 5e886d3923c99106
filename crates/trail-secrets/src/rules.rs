//! The built-in rule table: each rule a regex, the keywords one of which
//! every match contains, a realistic example that must match, the shape a
//! text must have before the regex is compiled ([`Shape`], `shape.rs`) and
//! the check a match must pass to be redacted ([`Check`], `plausible.rs`).
//!
//! This file will probably trigger secret scanners: every example below is a
//! made-up value shaped like the real thing, so that the table test can prove
//! each rule still catches what it is meant to catch.
//!
//! Conventions every rule follows (the table test enforces them):
//! - if the regex has capture groups named `secret…`, only the first one that
//!   participates in a match is replaced, so key names, quotes and URL hosts
//!   stay readable; otherwise the whole match is replaced;
//! - every possible match contains at least one of the rule's keywords
//!   (compared in ASCII lower case), because a rule whose keywords are absent
//!   from a text is never compiled nor run on it;
//! - token regexes end on an unbounded class or a word boundary, so that
//!   replacing a match can never create a new match right after it;
//! - repetitions are unbounded and there is no `(?i)`: bounded repetitions
//!   and case-insensitive literals multiply the regex crate's compile time,
//!   which is paid inside the 1 ms budget. Rules that must ignore case run on
//!   the lower-cased text instead (`Builtin::lowered`);
//! - a negated class is a byte class, `(?-u:[^…])`. In Unicode mode `[^"']`
//!   is every code point but two, an automaton of UTF-8 sequences the regex
//!   crate builds twice (forward and reverse): `prefixed-token` compiled in
//!   535 µs against 195 µs. The classes only exclude ASCII delimiters, and a
//!   run of them stops at the same ASCII byte in either mode (a span that
//!   would end inside a character is skipped, as for user rules). Built that
//!   way, the nine rules a secret-heavy tool output opens compile in 1.5 ms
//!   instead of 2.06 ms, and all 77 in 12.0 ms instead of 19.8 ms; every
//!   labelled set redacts exactly as before.

use super::plausible::Check;
use super::shape::Shape;

/// One row of the built-in table.
pub(crate) struct Builtin {
    pub name: &'static str,
    pub regex: &'static str,
    pub example: &'static str,
    pub keywords: &'static [&'static str],
    pub check: Check,
    pub shape: Shape,
    /// The regex runs on the text in ASCII lower case (same offsets; values
    /// are still read from the original). Its literals are then written in
    /// lower case instead of `(?i)`: case-insensitive literals multiply into
    /// every casing, and `(?i)authorization` alone costs the regex crate
    /// hundreds of microseconds to compile.
    pub lowered: bool,
}

/// The name of the entropy-checked assignment rule.
pub(crate) const GENERIC_ASSIGNMENT: &str = "generic-assignment";

/// Built-in rules. Specific token formats come first: when two rules claim
/// the same span, the earlier one names the placeholder.
pub(crate) static BUILTIN: &[Builtin] = &[
    Builtin {
        name: "aws-access-key-id",
        regex: r"(?-u:\b)(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?-u:\b)",
        example: "AKIAUJZDEGXDNCF32EPF",
        keywords: &["akia", "asia", "abia", "acca", "a3t"],
        check: Check::Exact,
        shape: Shape::Literal(&["AKIA", "ASIA", "ABIA", "ACCA", "A3T"]),
        lowered: false,
    },
    Builtin {
        name: "aws-secret-access-key",
        regex: r#"aws[_.-]?secret[_.-]?(?:access[_.-]?)?key\\?["']?[ \t]*(?::=|=>|=|:)[ \t]*\\?["']?(?P<secret>[A-Za-z0-9/+]{40,})"#,
        example: "aws_secret_access_key = 2hpChYgCfrL1spNxnyVmihA+2O76UMFxFkM+R5Kj",
        keywords: &["aws_secret", "aws-secret", "aws.secret", "awssecret"],
        check: Check::Exact,
        shape: Shape::Assignment,
        lowered: true,
    },
    Builtin {
        name: "github-pat",
        regex: r"(?-u:\b)ghp_[A-Za-z0-9]{36,}",
        example: "ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES",
        keywords: &["ghp_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "github-fine-grained-pat",
        regex: r"(?-u:\b)github_pat_[A-Za-z0-9_]{22,}",
        example: "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",
        keywords: &["github_pat_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "github-oauth",
        regex: r"(?-u:\b)gho_[A-Za-z0-9]{36,}",
        example: "gho_QedUStPKR0CsTy4Qwb8DwkNhFdnXsiVpzz63",
        keywords: &["gho_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "github-app-token",
        regex: r"(?-u:\b)gh[us]_[A-Za-z0-9]{36,}",
        example: "ghs_ajAIxNKu8iS2G8NPRVdD53X83RZJzzzzgEOz",
        keywords: &["ghu_", "ghs_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "github-refresh-token",
        regex: r"(?-u:\b)ghr_[A-Za-z0-9]{36,}",
        example: "ghr_dmenCkhvMdgaKjIg8xNbe3nNyjOq9wMxEhh2",
        keywords: &["ghr_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "gitlab-pat",
        regex: r"(?-u:\b)glpat-[0-9A-Za-z_-]{20,}(?:\.[0-9A-Za-z_-]+)*",
        example: "glpat-kCnD8zRA9a9SkpXz9w3Q",
        keywords: &["glpat-"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "gitlab-token",
        regex: r"(?-u:\b)gl(?:dt|ptt|rt|soat|cbt|ft|imt|oas|agent|ffct)-[0-9A-Za-z_-]{20,}(?:\.[0-9A-Za-z_-]+)*",
        example: "glrt-t1_Zb4kQm9XvR2sLp7WnE3yTa",
        keywords: &[
            "gldt-", "glptt-", "glrt-", "glsoat-", "glcbt-", "glft-", "glimt-", "gloas-",
            "glagent-", "glffct-",
        ],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "slack-token",
        regex: r"(?-u:\b)(?:xox[abeoprs]-[0-9A-Za-z-]{10,}|xapp-[0-9]-[0-9A-Za-z-]{10,})",
        example: "xoxb-16761222029-729975288200-ZUPgHV7iB3m03nbqnsGpWLuq",
        keywords: &["xox", "xapp-"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "slack-webhook",
        regex: r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9+/_-]{20,})",
        example: "https://hooks.slack.com/services/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",
        keywords: &["hooks.slack.com"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "stripe-key",
        regex: r"(?-u:\b)(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}",
        example: "sk_live_mrcXgGCJbW56eCuNGMGmSrCGIZEG8pSH4487q7J58m1CiAhzCueQpBen",
        keywords: &[
            "sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_",
        ],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "stripe-webhook-secret",
        regex: r"(?-u:\b)whsec_[A-Za-z0-9+/]{24,}=*",
        example: "whsec_r8bOfZqfM2oeq3hDavJA76rNicHTp8hk",
        keywords: &["whsec_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "openai-key",
        regex: r"(?-u:\b)sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}",
        example: "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",
        keywords: &["sk-proj-", "sk-svcacct-", "sk-admin-", "sk-none-"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "openai-legacy-key",
        regex: r"(?-u:\b)sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20,}",
        example: "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",
        keywords: &["t3blbkfj"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "anthropic-key",
        regex: r"(?-u:\b)sk-ant-[a-z]{2,10}[0-9]{2}-[A-Za-z0-9_-]{20,}",
        example: "sk-ant-api03-oUD-_Ydua_5ZMs1SWOpQaPRYpzbLGViYXjU2JgJngKtFI3OyV2dZAkg05rK_gqv81RKMGHZEM9YpvujA-C5Q52ryFlwRlAA",
        keywords: &["sk-ant-"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "openrouter-key",
        regex: r"(?-u:\b)sk-or-v1-[a-f0-9]{64,}",
        example: "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",
        keywords: &["sk-or-v1-"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "google-api-key",
        regex: r"(?-u:\b)AIza[0-9A-Za-z_-]{35,}",
        example: "AIzaOEVHzc0X0AWIRh-JUqBlIFXZ53Ncqe28_aj",
        keywords: &["aiza"],
        check: Check::Exact,
        shape: Shape::Literal(&["AIza"]),
        lowered: false,
    },
    Builtin {
        name: "google-oauth-secret",
        regex: r"(?-u:\b)GOCSPX-[A-Za-z0-9_-]{28,}",
        example: "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",
        keywords: &["gocspx-"],
        check: Check::Exact,
        shape: Shape::Literal(&["GOCSPX-"]),
        lowered: false,
    },
    Builtin {
        name: "google-oauth-token",
        regex: r"(?-u:\b)ya29\.[0-9A-Za-z_-]{20,}",
        example: "ya29.abM6JOF8EFd0Nhcy-1kGD2VD-eR1UYzaLiA-zNyD7CHLn-xC_1hsYgBds1ghxY5OokvQyx7eNWVQ4vnakJkS1pAWTN3lg8zV5yPU8d0FZfWe7ihGyiRUIQfH",
        keywords: &["ya29."],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "private-key",
        // Only the body is replaced so the BEGIN/END lines stay readable. The
        // body may use real or JSON-escaped (`\n`) line breaks, a properties file's
        // continued lines (`\n\` at a line's end), or lines typed after a shell's
        // continuation prompt or quoted in a reply (`\n> `), and may stop without an END line
        // when a tool printed a truncated key.
        regex: r"-----BEGIN[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----(?:[ \t\r\n]|\\[rn]|\\\r?\n|\n>)*(?P<secret>[A-Za-z0-9+/=](?:[A-Za-z0-9+/=:,.]|-{1,4}[A-Za-z0-9+/=:,.]|(?:[ \t\r\n]|\\[rn]|\\\r?\n|\n>)+[A-Za-z0-9+/=:,.])*)",
        example: "-----BEGIN RSA PRIVATE KEY-----\nmdVPlW354z9gY69gmsXlO85zSLAAUkNEbCiW69DD48gKSdUkz+Pe/pIlRvnZzM6M\nr8bpf1iIFYqNfMxhM8nAuO77O0+bDq1ld7U07UGWwALKYnWKFonOWsUQO2WUheVC\n4tWFUnqBljMwNjEXLs6zSlyTkFtnx4TbJj8L7P9+X90bX6F2yRQnUJgHWEeEmwUY\nCDT93t2Q\n-----END RSA PRIVATE KEY-----",
        keywords: &["-----begin"],
        check: Check::PrivateKey,
        shape: Shape::Literal(&["-----BEGIN"]),
        lowered: false,
    },
    Builtin {
        name: "ssh2-private-key",
        // The SSH2 (SECSH, RFC 4716's armour) private key that ssh.com's tools and PuTTYgen's
        // export write: four dashes and spaces around the label, then `Header: value` lines
        // (a `Comment:`) before the body. Only the body is replaced. A header's value stops at
        // its line's end, escaped or not: inside a JSON string it would otherwise run on to the
        // body's last line and leave the rest. (Indented too, in a YAML block.)
        regex: r"---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----(?:[ \t]*(?:\r?\n|\\n))+(?:[ \t]*[A-Za-z][A-Za-z0-9-]*:(?-u:[^\n\\]|\\[^n\n])*(?:\r?\n|\\n))*[ \t]*(?P<secret>[A-Za-z0-9+/=](?:[A-Za-z0-9+/=]|(?:[ \t\r\n]|\\[rn])+[A-Za-z0-9+/=])*)",
        example: "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"2048-bit rsa, dev@box\"\nP2/56wAAA+4AAAA3aWYtbW9kbntzaWdue3JzYS1wa2NzMS1zaGExfSxlbmNyeXB0e3JzYS1wa2NzMXYyLW9hZXB9fQAAAARub25lAAADnwAAA5sAAAARAQABAAAIAMZ1\n---- END SSH2 ENCRYPTED PRIVATE KEY ----",
        keywords: &["---- begin ssh2"],
        check: Check::PrivateKey,
        shape: Shape::Literal(&["---- BEGIN SSH2"]),
        lowered: false,
    },
    Builtin {
        name: "putty-private-key",
        // PuTTY's `.ppk`: the private half follows `Private-Lines: N`; also indented in a YAML
        // block (`key: |`), or in a JSON string with its line breaks escaped (`\n`, `\r\n`).
        regex: r"Private-Lines:[ \t]*[0-9]+(?:\r?\n[ \t]*|(?:\\r)?\\n)(?P<secret>[A-Za-z0-9+/=](?:[A-Za-z0-9+/=]|\r?\n[ \t]*|(?:\\r)?\\n)*)",
        example: "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nPrivate-Lines: 1\nAAABAGk4ZmFrZXB1dHR5cHJpdmF0ZWtleWJvZHlmb3J0ZXN0c29ubHk=",
        keywords: &["private-lines:"],
        check: Check::PrivateKey,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "age-secret-key",
        regex: r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}(?-u:\b)",
        example: "AGE-SECRET-KEY-146ADTE8KRS3CERQY66KSXWNEWEAD2GYV7WFK6AJG7KW3CSMT7Q3K0N57LM",
        keywords: &["age-secret-key-1"],
        check: Check::Exact,
        shape: Shape::Literal(&["AGE-SECRET-KEY-1"]),
        lowered: false,
    },
    Builtin {
        name: "der-private-key",
        // A private key or a PKCS#12 bundle in base64 without its armour (`SIGNING_P12_BASE64=
        // MIIEHQIBAz…`, a secret store's `tls.key: MIIEvQIBAD…`): DER's outer SEQUENCE, then
        // the version a private key starts with (INTEGER 0 for PKCS#1 and PKCS#8, 1 for an EC
        // key, 3 for PKCS#12). A certificate or a public key starts with a SEQUENCE there
        // (`MIIDdzCCAl+g…`), and is left alone. Also SEC1's P-256 key and PKCS#8's Ed25519.
        // (A two-byte length under 16 KB: every key's `MII…`.)
        regex: r"(?-u:\b)(?:MII[A-Za-z0-9+/]{2}[AQgw]IBA[ADQz]|MHcCAQEE|MC4CAQAwBQYDK2Vw)[A-Za-z0-9+/]{60,}={0,2}",
        example: "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvuNMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ",
        keywords: &["mii", "mhccaqee", "mc4caqaw"],
        check: Check::Exact,
        shape: Shape::Literal(&["MII", "MHcCAQEE", "MC4CAQAw"]),
        lowered: false,
    },
    Builtin {
        name: "bech32-secret-key",
        // A secret key in Bech32, by the part before its `1` that says so (`nsec1…` for Nostr,
        // `AGE-SECRET-KEY-1…`, a chain's `…priv1…`): 38 or more characters of the Bech32
        // alphabet. Its public twin (`npub1…`) names no secret.
        // Or `…_sk1…`, a key's kind after its curve (Cardano's `ed25519e_sk1…`, `acct_xsk1…`).
        regex: r"(?-u:\b)[a-z0-9_-]*(?:sec|priv|prv|_sk|_xsk)[a-z0-9_-]*1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38,}(?-u:\b)",
        example: "nsec183m55xm8k9lyc8hxug4krm8pd70k2qqnuqmdlwm4v42ua8vkc5es0h47xp",
        keywords: &["sec", "priv", "prv", "_sk", "_xsk"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "extended-private-key",
        // A wallet's extended private key (BIP32's `xprv…`/`tprv…`, SLIP-132's `yprv`,
        // `zprv`, `Zprv`…, in a descriptor as `wpkh(xprv…/84h/0h)`): every key of its tree.
        // The prefix says private; the public one (`xpub…`) stays.
        regex: r"(?-u:\b)[a-zA-Z]{1,2}prv[1-9A-HJ-NP-Za-km-z]{100,}",
        example: "xprv9s21ZrQH143K3FAubEYXM1Pf5uzCSiTsAWtbKyzaGgYqfL38hdUddzySH3otfByLk3SvgD9YMtT4CDUG5JjhH6GmndsPdSfDgWHjyTF9AJz",
        keywords: &["prv"],
        check: Check::Exact,
        shape: Shape::Literal(&["prv"]),
        lowered: false,
    },
    Builtin {
        name: "jwt",
        // After a word's edge, or a percent-escape (`client_assertion%3DeyJ…` in a URL-encoded
        // query a log line kept).
        regex: r"(?:(?-u:\b)|%[0-9A-Fa-f]{2})(?P<secret>eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,})",
        example: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IlRyYWlsIFRlc3QiLCJpYXQiOjE3MTYyMzkwMjJ9.PWvHogU5nGYVHWVsUQk4DwgLGNOaeCtL31Ugq_Dfcga",
        keywords: &["eyj"],
        check: Check::Exact,
        shape: Shape::Literal(&["eyJ"]),
        lowered: false,
    },
    Builtin {
        name: "npm-token",
        regex: r"(?-u:\b)npm_[A-Za-z0-9]{36,}",
        example: "npm_VTSu7rtaUWM6ZO88eb0ogET9D9XyYq6B0Fi7",
        keywords: &["npm_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "pypi-token",
        regex: r"(?-u:\b)pypi-AgE[A-Za-z0-9_-]{50,}",
        example: "pypi-AgEIcHlwaS5vcmc-xbMtEPO6UkzYuF0ie9Pu2njHkAm1-5wDr16EpLLJIVGHz4FxFEtKyPiYGFDm7ena8D5Vf",
        keywords: &["pypi-age"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "huggingface-token",
        regex: r"(?-u:\b)(?:hf|api_org)_[A-Za-z0-9]{30,}",
        example: "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",
        keywords: &["hf_", "api_org_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "sendgrid-key",
        regex: r"(?-u:\b)SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,}",
        example: "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",
        keywords: &["sg."],
        check: Check::Exact,
        shape: Shape::Literal(&["SG."]),
        lowered: false,
    },
    Builtin {
        name: "twilio-api-key",
        regex: r"(?-u:\b)SK[0-9a-fA-F]{32}(?-u:\b)",
        example: "SK41fa1c257c6f561c5cb347611a3ce9d9",
        keywords: &["sk"],
        check: Check::Exact,
        shape: Shape::Literal(&["SK"]),
        lowered: false,
    },
    Builtin {
        name: "digitalocean-token",
        regex: r"(?-u:\b)do[opr]_v1_[a-f0-9]{64,}",
        example: "dop_v1_7dcbee500fe7ee5fc324bdb2e1142a21c402364f9572b85a8e48f687ab165c58",
        keywords: &["dop_v1_", "doo_v1_", "dor_v1_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "groq-key",
        regex: r"(?-u:\b)gsk_[A-Za-z0-9]{48,}",
        example: "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",
        keywords: &["gsk_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "xai-key",
        regex: r"(?-u:\b)xai-[A-Za-z0-9]{70,}",
        example: "xai-V7S82qTdrOJRBRY6HqsP795nf4Gakq5p1Vm8kV6um4yvMpy62O6SQ1IEE1HSa2bB9UoK4tYnzNLeK6kj",
        keywords: &["xai-"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "replicate-token",
        regex: r"(?-u:\b)r8_[A-Za-z0-9]{37,}",
        example: "r8_cbhgN7kwjSbbciSPOcSeVce2LWxm090I5Qe43",
        keywords: &["r8_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "perplexity-key",
        regex: r"(?-u:\b)pplx-[A-Za-z0-9]{40,}",
        example: "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",
        keywords: &["pplx-"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "vault-token",
        regex: r"(?-u:\b)hv[sbr]\.[A-Za-z0-9_-]{24,}",
        example: "hvs.4GDqQ7EyIMttFPSuEPyHnvnzXtsMM3JznnJAX7ebZ3CL7csGZaF31DDxp63OHm1FZuG296c0xPbX_neGBuzSm6A8cV",
        keywords: &["hvs.", "hvb.", "hvr."],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "shopify-token",
        regex: r"(?-u:\b)shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32,}",
        example: "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",
        keywords: &["shpat_", "shpca_", "shppa_", "shpss_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "databricks-token",
        regex: r"(?-u:\b)dapi[a-f0-9]{32}(?:-[0-9])?(?-u:\b)",
        example: "dapie338d74ff1fe4f7f505aef9ebdd25b00",
        keywords: &["dapi"],
        check: Check::Exact,
        shape: Shape::Literal(&["dapi"]),
        lowered: false,
    },
    Builtin {
        name: "linear-api-key",
        regex: r"(?-u:\b)lin_api_[A-Za-z0-9]{40,}",
        example: "lin_api_NcRV7vZgGEFW5jcnTAOivg3QxvEXHJX6nsBvBqJd",
        keywords: &["lin_api_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "pulumi-token",
        regex: r"(?-u:\b)pul-[a-f0-9]{40,}",
        example: "pul-99bfca8b6f3a6a9421cc1c93016f1c4261e5351d",
        keywords: &["pul-"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "sentry-token",
        regex: r"(?-u:\b)(?:sntryu_[a-f0-9]{64,}|sntrys_eyJ[A-Za-z0-9+/=_]{40,})",
        example: "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",
        keywords: &["sntryu_", "sntrys_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "grafana-token",
        regex: r"(?-u:\b)(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?-u:\b)|glc_[A-Za-z0-9+/]{32,}=*)",
        example: "glsa_931FMdux8KUCERkj9Zhx9PkOZAEyXYC8_8a981a04",
        keywords: &["glsa_", "glc_"],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "base64-512-bit-key",
        // 64 random bytes in base64 (88 characters ending `==`): Azure storage account keys
        // and other HMAC-SHA512 keys, wherever they sit. Subresource-integrity digests
        // (`sha512-…`) have the same shape and are refused by the check; after a `$` it is a
        // password hash's last field (mosquitto's `$7$101$salt$hash`).
        regex: r"(?:^|(?-u:[^A-Za-z0-9+/$-]))(?P<secret>[A-Za-z0-9+/]{86}==)",
        example: "DefaultEndpointsProtocol=https;AccountName=devstore;AccountKey=lJzRc1YdHaAA2KCNJJ1tkYwF/+mKK6Ygw0NGe170Xu592euJv2wYUtBlV8z+qnlcNQSnIYVTkLWntUO1F8j8rQ==;EndpointSuffix=core.windows.net",
        keywords: &["=="],
        check: Check::Token,
        shape: Shape::Base64Key,
        lowered: false,
    },
    // Context rules: a secret recognised by what surrounds it rather than by
    // its own shape. They come after the token rules so that a token inside
    // a header or an assignment keeps its more precise name.
    Builtin {
        name: "authorization-header",
        // Any one-word scheme (`Bearer`, `Basic`, `SSWS`, `Api-Token`, …) or none; the token
        // may carry the symbols of hashed or vendor formats (`sha256~…@=`). A value starting
        // with `$`, `<` or `{` is a template and cannot start the token. A server's directive
        // sets the header without a colon (`RequestHeader set Authorization "Basic …"`). In
        // code, the scheme is a key or an atom before the token (`{:bearer, "…"}`, `bearer:
        // "…"`), or a string is the whole header value (`setValue("Basic …", forHTTPHeaderField:
        // "Authorization")`). A scheme's credentials may be a user and a token
        // (`Authorization: cpanel deploybot:7ZL2…`, Gcore's `APIKey 22725$8131…`): both go.
        // A scheme may be dotted (`Uploadcare.Simple PUB:SECRET`). In code, the header's name
        // and its value may be two arguments (`Header.Set("Authorization", "APIKey …")`).
        // Laravel Sanctum's tokens are the token's id, a bar, then the secret (`Bearer 955|…`);
        // others join an id and a secret with a colon (`Bearer fXvVwZ.PSkk2P:tYlI…`). A token
        // copied from a URL keeps its escapes (`…KObfRo%3DuSvW…`), and one may go on after
        // an `=` (Atlassian's `ATATT…=230B4BA0`, its checksum after the padding).
        regex: r#"(?-u:\b)(?:proxy-)?authorization\\?["']?[ \t]*(?:[:=]|,[ \t]*\\?["'])[ \t]*\\?["']?(?:[a-z][a-z0-9.-]*[ \t]+)?(?P<secret>[a-z0-9._~+/@=-]{1,64}[:$|][a-z0-9._~+/@=-]{8,}|(?:[a-z0-9._~+/@=-]|%[0-9a-f]{2}){8,})|(?-u:\b)bearer[ \t]+(?P<secret2>(?:[0-9]{1,10}\||[a-z0-9._~+/-]{1,64}:)?(?:[a-z0-9._~+/-]|%[0-9a-f]{2}){16,}(?:=+[a-z0-9._~+/-]+)*=*)|(?-u:\b)authorization["']?[ \t]+["']?basic[ \t]+(?P<secret3>[a-z0-9+/]{12,}=*)|(?-u:\b)bearer["']?[ \t]*(?:,|=>|:|=)[ \t]*["'](?P<secret4>[a-z0-9._~+/-]{16,}=*)["']|["']basic[ \t]+(?P<secret5>[a-z0-9+/]{16,}=*)["']"#,
        example: "Authorization: Basic ZGVwbG95OlRyNDFsLXMzY3IzdC1wNTU=",
        keywords: &["authorization", "bearer"],
        check: Check::Token,
        shape: Shape::Authorization,
        lowered: true,
    },
    Builtin {
        name: "credential-header",
        // `curl -H "Api-Token: …"`: inside a header flag, a header named for a key, a token or
        // a session (`X-ArchivesSpace-Session: …`) carries one, however short (`Sk94HG7f6KB`).
        regex: r#"(?:-h|--header)[ \t]*=?[ \t]*\\?["']?(?P<name>[a-z0-9_-]*(?:token|key|secret|api|session)[a-z0-9_-]*):[ \t]*(?P<secret>(?-u:[^\s"'\\<{])(?-u:[^\s"'\\])*)"#,
        example: r#"curl -X POST --header "Api-Token: Sk94HG7f6KB""#,
        keywords: &["-h", "--header"],
        check: Check::Header,
        shape: Shape::HeaderFlag,
        lowered: true,
    },
    Builtin {
        name: "url-credentials",
        // Only the password between `user:` and `@` is replaced. A raw `/`,
        // `?` or `#` cannot be part of it (RFC 3986), which keeps ports
        // followed by `@` in a path (`localhost:5173/@vite`) out. A scheme may hold `_`, as
        // SQLAlchemy names a database's driver (`oracle+cx_oracle://`, `db2+ibm_db://`).
        regex: r#"(?-u:\b)[A-Za-z][A-Za-z0-9+._-]*://(?P<user>(?-u:[^:@/?#\s"'<>])*):(?P<secret>(?-u:[^@/?#\s"'<>])+)@"#,
        example: "postgres://app_user:Xq7vR2mT9kLp4wZs@db.internal.example:5432/app",
        keywords: &["://"],
        check: Check::UserPassword,
        shape: Shape::UrlCredentials,
        lowered: false,
    },
    Builtin {
        name: "url-credentials-encoded",
        // The same login in a URL percent-encoded whole into another's query (a dashboard's
        // `?var-server=nats%3A%2F%2Fsvc%3A<password>%40nats.internal%3A4222`): `:` is `%3A`,
        // `@` is `%40`, and the password may hold other escapes.
        regex: r#"[a-z][a-z0-9+._-]*%3a%2f%2f(?P<user>(?-u:[^%@/?#\s"'<>&:])*)%3a(?P<secret>(?:(?-u:[^%@/?#\s"'<>&])|%(?:[0-35-9a-f][0-9a-f]|4[1-9a-f]))+)%40"#,
        example: "https://grafana.example/d/nats?var-server=nats%3A%2F%2Fsvc-acme%3A_KU7AgMva_SmCFfabrZ%40nats.internal%3A4222&orgId=1",
        keywords: &["%3a%2f%2f"],
        check: Check::UserPassword,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "url-token-user",
        // A key sent as the user of a login whose password is empty or a stand-in, as HTTP
        // Basic APIs take one (`https://<key>:x@api.…`, `:x-oauth-basic@`): the user is the
        // secret. Twenty characters at least, so that a name (`deploy:x@`) is not taken.
        regex: r"(?-u:\b)[a-z][a-z0-9+.-]*://(?P<secret>(?-u:[a-z0-9_-]){20,}):(?:x|x-oauth-basic|api_token|-)?@",
        example: "https://5f0741a170d728a024c96c3307ce5b75a57d00b6:x@api.bamboohr.com/api/gateway.php",
        keywords: &["://"],
        check: Check::Token,
        shape: Shape::UrlCredentials,
        lowered: true,
    },
    Builtin {
        name: "cli-token-user",
        // The same on a command line: `curl -u '<key>:'` (the colon says "no password").
        regex: r#"(?:(?m:^)|[ \t])(?:-u|--user)(?:[ \t]+|=)\\?["']?(?P<secret>(?-u:[a-z0-9_.-]){20,}):(?:x|x-oauth-basic|api_token|-)?(?:["']|[ \t]|$)"#,
        example: "curl -s -u 'bd00fc81567217bef9348f1db9ef0a19821c850b80e8a75a561b636f8322d165:' https://api.hellosign.com/v3/account",
        keywords: &["-u"],
        check: Check::Token,
        shape: Shape::Cli,
        lowered: true,
    },
    Builtin {
        name: "piped-password",
        // A value echoed into a program whose flag reads a password, token or secret from
        // stdin (`echo 'pw' | anydesk --set-password`, `… | login --password-stdin`). A flag
        // stands after a blank: `store-secret` is a subcommand, judged with the name it
        // stores under (`nearby.rs`).
        regex: r#"(?:(?m:^)|[ \t;&(])(?:echo(?:[ \t]+-n)?|printf(?:[ \t]+["']?%s["']?)?)[ \t]+(?P<q>["']?)(?P<secret>(?-u:[^\s"'|;&$<>`\\])(?-u:[^\s"'|;&`\\]){5,})["']?[ \t]*\|[ \t]*(?-u:[^|\n;&])*?[ \t]--?[a-z0-9-]*(?:password|passwd|passphrase|secret|token)"#,
        example: "echo 'ga1CdtyYmty.iOxw' | sudo anydesk --set-password",
        keywords: &["password", "passwd", "passphrase", "secret", "token"],
        check: Check::Password,
        // `token` and `secret` fill transcripts: only a line that echoes into a pipe is read.
        shape: Shape::Literal(&["echo ", "printf "]),
        lowered: true,
    },
    Builtin {
        name: "userinfo-credentials",
        // `user:password@host` without a scheme, as management tools and scp-like clients
        // take a login (`--bmc USERID:O7L-5rroeoxFWU@10.20.0.60`, `admin:…@switch1`). A
        // scheme-like user (`mailto:`, `sip:`) is an address; the password must read as
        // generated (`dev:docs@host` is a path, not a login).
        // A share's path written without a scheme (`mount_smbfs //user:…@nas/share`) is one
        // too; after a scheme's `://` the URL rule judges it.
        regex: r#"(?:^|[\s='"]|\s//)(?P<user>(?-u:[A-Za-z0-9_.-]){2,32}):(?P<secret>(?-u:[^\s:@/'"<>]){6,64})@(?-u:[A-Za-z0-9])(?-u:[A-Za-z0-9.-])*"#,
        example: "./OneCli config show IMM.HostName1 --bmc USERID:O7L-5rroeoxFWU@10.20.0.60",
        keywords: &["@"],
        check: Check::Login,
        shape: Shape::Userinfo,
        lowered: false,
    },
    Builtin {
        name: "pwdump-hash",
        // A Windows account's NT hash in the pwdump layout secretsdump and its kin print
        // (`user:rid:lmhash:nthash:::`): the hash logs in as the account by itself
        // (pass-the-hash). The empty password's hash (`31d6cfe0…`) guards nothing.
        regex: r"(?m:^)(?-u:[^\s:])+:[0-9]+:(?-u:[0-9a-f]){32}:(?P<secret>(?-u:[0-9a-f]){32}):::",
        example: "corp.local\\svc_sql:1107:aad3b435b51404eeaad3b435b51404ee:6995d3f17224c1a30266add7a0d3b89f:::",
        keywords: &[":::"],
        check: Check::Exact,
        shape: Shape::Literal(&[":::"]),
        lowered: true,
    },
    Builtin {
        name: "passwd-plaintext",
        // A passwd-format line whose password field holds the password itself, as a
        // cracker's `--show` prints it (`svc:Wq…:1104:1104:Backup:/home/svc:/bin/bash`): the
        // field is `x`, `*`, `!` or a `$`-hash in a real passwd file.
        regex: r"(?m:^)(?-u:[a-z_][a-z0-9_.-]*):(?P<secret>(?-u:[^:\s$*!][^:\s]{3,})):[0-9]+:[0-9]+:(?-u:[^:\n])*:/(?-u:[^:\n])*:/(?-u:[^:\s])+",
        example: "svc_backup:WqBCZrR2c5mW.ksZ:1104:1104:Backup service:/home/svc_backup:/bin/bash",
        // The login shell closes the line (`:/bin/bash`, `:/usr/sbin/nologin`): a URL's `:/`
        // alone does not wake the rule.
        keywords: &[":/bin/", ":/usr/", ":/sbin/"],
        check: Check::Password,
        shape: Shape::Literal(&[":/bin/", ":/usr/", ":/sbin/"]),
        lowered: false,
    },
    Builtin {
        name: "plain-scheme-password",
        // A password store's entry whose scheme says the password is kept as it is (Dovecot's
        // `bob@example.org:{PLAIN}…:5000:5000::`, LDAP's `userPassword: {CLEARTEXT}…`): what
        // follows the tag is the password itself, where `{SSHA}`, `{CRYPT}` or `{ARGON2ID}`
        // are followed by a digest.
        regex: r"\{(?:plain|clear|cleartext|plaintext|plain-trunc)\}(?P<secret>(?-u:[^\s:\x22'<>])+)",
        example: "bob@example.org:{PLAIN}m9t+6eKX0XbvTsB:5000:5000::/var/mail/bob",
        keywords: &["{plain", "{clear"],
        check: Check::Password,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "cli-credentials",
        // `-u user:password`, and an `--auth` flag given the same pair (Jenkins' CLI `-auth
        // user:token`, HTTPie's `--auth`) (user may be empty, password may be quoted, and with spaces when
        // the pair is: `--user "jk:VZeR 5mkM uTpz"`, a WordPress application password), lftp's `-u
        // user,'password'` (quoted: `ps -u root,www-data` lists users), or a long flag
        // named for a credential. A user starting with `<` is a template (`<user:password>`).
        // Samba's tools join them with `%` (`smbclient -U user%password`).
        regex: r#"(?:(?m:^)|[ \t])(?:-u|--user|-auth|--auth)(?:[ \t]+|=)\\?(?P<q0>["'])(?P<user0>(?-u:[^\s:"'$<])*):(?P<secret0>(?-u:[^\s"'$])(?-u:[^"'\n])*(?-u:[^\s"']))["']|(?:(?m:^)|[ \t])(?:-u|--user|-auth|--auth)(?:[ \t]+|=)\\?["']?(?P<user>(?-u:[^\s:"'$<])*):(?:(?P<q>["'])(?P<secret3>(?-u:[^\s"'$][^\s"']*))["']|(?P<secret>(?-u:[^\s"'$][^\s"']*)))|(?:(?m:^)|[ \t])--(?P<name>[a-z0-9-]*(?:password|passwd|token|secret|api-key|apikey|access-key)[a-z0-9-]*|pat)(?:[ \t]+|=)\\?(?P<q2>["']?)(?P<secret2>(?-u:[^\s"'$-][^\s"']*))|(?:(?m:^)|[ \t])-u[ \t]+(?-u:[^\s:,"'$<])+,["'](?P<secret4>(?-u:[^\s"'$][^"'\n]*))["']|(?:(?m:^)|[ \t])-u[ \t]+["']?(?-u:[a-z0-9_.\\-])+%(?P<secret5>(?-u:[^\s"'$%])(?-u:[^\s"'])*)"#,
        example: "curl -u deploy:Tr41lS3cr3tPassw0rd https://api.example.com/v1/items",
        keywords: &[
            "-u",
            "auth",
            "password",
            "passwd",
            "token",
            "secret",
            "api-key",
            "apikey",
            "access-key",
            // A personal access token's own flag (`ovsx publish --pat …`).
            "--pat",
        ],
        check: Check::Assignment,
        shape: Shape::Cli,
        lowered: true,
    },
    Builtin {
        name: "cli-password-flag",
        // Short password flags, only for the tools where they mean a password: mysql's (glued,
        // the password may itself start with a dash: `-p-uK2V…`),
        // attached `-pSECRET` or `-p'SECRET'` (a detached `-p db` prompts, and `db` is a
        // database), `-p SECRET` of `sshpass`, `mongo*` and the `… login` commands (docker,
        // podman, helm,
        // az, oc, cf), and `redis-cli -a SECRET`; and any command's quoted `-p '…'` right
        // after `-u USER` (`ncftpput -u shop -p '…'`), where the user says what the `-p` is
        // (bare, `mysql -u report -p analytics` names a database; bare and drawn, a UUID or
        // a long run of letters and digits, no database is so named: `twine upload -u
        // __token__ -p 5d91…`). The flag must sit in the
        // same command. lftp's bare `-u user,password` when the password has a digit (`ps -u
        // root,www-data` lists users, and no user list ends in a generated word).
        regex: r#"(?:mysql|mysqldump|mysqladmin|mariadb)(?-u:\b)(?-u:[^\n|;&])*?[ \t]-p(?:(?P<secret>(?-u:[^\s"'$][^\s"']*))|'(?P<secret4>(?-u:[^'\n$])+)'|"(?P<secret5>(?-u:[^"\n$])+)")|(?:sshpass|mongo|mongosh|mongodump|mongorestore|login)(?-u:\b)(?-u:[^\n|;&])*?[ \t]-p(?:[ \t]+|=)\\?["']?(?P<secret2>(?-u:[^\s"'$-][^\s"']*))|redis-cli(?-u:\b)(?-u:[^\n|;&])*?[ \t]-a[ \t]+\\?["']?(?P<secret3>(?-u:[^\s"'$-][^\s"']*))|[ \t]-u[ \t]+(?-u:[^\s-])(?-u:[^\s])*[ \t]+-p[ \t]+["'](?P<secret6>(?-u:[^\s"'$-][^"'\n]*))["']|[ \t]-u[ \t]+(?-u:[^\s,"'$<-])(?-u:[^\s,"'])*,(?P<secret7>(?-u:[^\s,"'$-])(?-u:[^\s,"'])*[0-9](?-u:[^\s,"'])*)(?:[ \t]|$)|[ \t]-u[ \t]+(?-u:[^\s-])(?-u:[^\s])*[ \t]+-p[ \t]+(?P<secret8>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z0-9]{24,}|[a-z0-9]{16,}\.[a-z0-9]{16,})(?:[ \t]|$)"#,
        example: "docker login -u ci -p W8nQ2vX5kL1m registry.example.com",
        keywords: &[
            "mysql",
            "mariadb",
            "sshpass",
            "mongo",
            "login",
            "redis-cli",
            "-u ",
        ],
        check: Check::Password,
        // The regex runs on the lower-cased text, so `-P` and `-A` match it too.
        shape: Shape::PasswordFlag,
        lowered: true,
    },
    Builtin {
        name: "glued-password-flag",
        // A quoted password glued to its short flag, whatever the program (`rar a -hp'…'`,
        // `unrar x -p'…'`, `7z -p"…"`): a value is quoted there because it holds what the shell
        // would read, as a generated password does. Not a path with a blank (`mkdir -p'build
        // output'`) nor a search's pattern (`grep -P'…'`): the check wants a password's mix.
        regex: r#"(?:^|[ \t])-h?p(?:'(?P<secret>(?-u:[^'\s$]){6,})'|"(?P<secret2>(?-u:[^"\s$]){6,})")"#,
        example: "rar a -hp'.P,yA34za0=nC0=f' -m5 ledger.rar ledger/",
        keywords: &["-p'", "-p\"", "-hp'", "-hp\""],
        check: Check::Password,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "unlock-password",
        // A vault or a keychain unlocked with its password as the argument (`bw unlock '…'
        // --raw`, a wallet's `unlock PASSPHRASE`): the word after `unlock` is what opens it,
        // whatever the program. Judged as a password (a mix of kinds, no path, no flag).
        regex: r#"(?-u:\b)unlock[ \t]+(?:'(?P<secret>(?-u:[^'\s$]){6,})'|"(?P<secret2>(?-u:[^"\s$]){6,})"|(?P<secret3>(?-u:[^\s"'$/~<-])(?-u:[^\s"'/]){5,}))"#,
        example: "export BW_SESSION=$(bw unlock 'tL-2OIAdPuSpHeAoNa' --raw)",
        keywords: &["unlock "],
        check: Check::Password,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "netrc-password",
        // `.netrc`: `machine host login user password secret`, on one line or several.
        regex: r#"(?-u:\b)login[ \t\r\n]+(?-u:[^\s])+[ \t\r\n]+(?P<name>password)[ \t\r\n]+(?P<secret>(?-u:[^\s"'])+)"#,
        example: "machine api.example.com login dev password Vq9Lm2Xz7Kp4",
        keywords: &["login"],
        check: Check::Assignment,
        shape: Shape::Literal(&["password"]),
        lowered: true,
    },
    Builtin {
        name: "markup-password",
        // XML and HTML: an element named for a credential (`<password>…</password>`, FileZilla's
        // `<Pass encoding="base64">…</Pass>`, with a
        // `value` attribute or text content), or a `name="…password"` attribute with its
        // `value` (in either order) or the element's text.
        regex: r#"<(?P<name>[a-z0-9_.:-]*(?:password|passwd|pwd|secret|token|apikey|api_key|private_key)[a-z0-9_.:-]*|pass)(?:[ \t](?-u:[^>])*?value=["'](?P<secret>(?-u:[^"'\n])+)["']|(?:[ \t](?-u:[^>])*)?>[ \t\r\n]*(?P<secret2>(?-u:[^<\s])(?:(?-u:[^<\n])*(?-u:[^<\s]))?)[ \t\r\n]*</)|(?:name|key)=["'](?P<name2>(?-u:[^"'<>\n])*(?:password|passwd|pwd|secret|token|apikey|api_key|_key)(?-u:[^"'<>\n])*)["'](?:(?-u:[^>])*?[ \t]value=["'](?P<secret3>(?-u:[^"'\n])+)["']|(?-u:[^>])*>[ \t]*(?:<value>[ \t]*)?(?P<secret4>(?-u:[^<\s])(?:(?-u:[^<\n])*(?-u:[^<\s]))?)[ \t]*<)|value=["'](?P<secret5>(?-u:[^"'\n])+)["'](?-u:[^>])*?[ \t](?:name|key)=["'](?P<name3>(?-u:[^"'<>\n])*(?:password|passwd|pwd|secret|token|apikey|api_key|_key)(?-u:[^"'<>\n])*)["']"#,
        example: "<server><id>nexus</id><username>ci</username><password>Mk2$Pq8vLz</password></server>",
        keywords: &[
            "password",
            "passwd",
            "pwd",
            "secret",
            "token",
            "apikey",
            "api_key",
            "private_key",
            "<pass",
            // `partner_key`, `instacode_passcode` as a `name=` attribute's end.
            "_key\"",
            "passcode",
        ],
        check: Check::Assignment,
        shape: Shape::Markup,
        lowered: true,
    },
    Builtin {
        name: "named-value-pair",
        // A credential's name and its value in two sibling fields, the way environment lists
        // and property files hold them: YAML `- name: API_TOKEN` then `value: …` (Kubernetes,
        // pipelines), a plist's `<key>…</key><string>…</string>`, Hadoop-style
        // `<name>…</name><value>…</value>`, JSON `{"name": "…", "value": "…"}` (task
        // definitions) and `{"key": "…", "value": "…"}` (OCPP's configuration, tag lists). A name ending in `pat` is a personal access token.
        // And as attributes or arguments on one line: .NET's `<add key="…Key" value="…" />`,
        // Swift's `URLQueryItem(name: "api_key", value: "…")`. Fields between them do not part
        // them: Node-RED's `{"keyValue": "X-Api-Key", "valueType": "other", "valueValue": "…"}`,
        // Terraform's `name = "/prod/api_key"`, `type = "SecureString"`, `value = "…"`; and a
        // Terraform variable named for a credential, with its `default = "…"`. A YAML mapping
        // or JSON object named for a credential holds it in its `default`/`value` field
        // (CloudFormation's `DBPassword:` … `Default: …`, `terraform output -json`'s
        // `"db_password": {"sensitive": true, …, "value": "…"}`), or in a list of pairs named
        // for it, under the pair keyed `value` (a request collection's `"apikey": [{"key":
        // "value", "value": "…"}, {"key": "key", "value": "X-Api-Key"}]`), or in a block
        // named for it, under a field named for a value (protobuf's text format: `auth {
        // static_value: "…" }`; HCL's `auth { value = "…" }`). And in two sibling elements
        // named by a `name` attribute for the pair's halves (JMeter's `<stringProp
        // name="Header.name">x-api-key</stringProp>` then `name="Header.value"`). And in a
        // YAML flow mapping named for it (an MLproject's parameter: `api_token: {type: string,
        // default: "…"}`).
        regex: r#"(?:name|key):[ \t]*["']?(?P<name>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*|[a-z0-9_.-]*pat)["']?[ \t]*\r?\n[ \t]*value:[ \t]*["']?(?P<secret>(?-u:[^\s"'])+)|<key>[ \t]*(?P<name2>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*|[a-z0-9_.-]*pat)[ \t]*</key>[ \t\r\n]*<string>[ \t]*(?P<secret2>(?-u:[^<\s])+)[ \t]*</string>|<name>[ \t]*(?P<name3>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*|[a-z0-9_.-]*pat)[ \t]*</name>[ \t\r\n]*<value>[ \t]*(?P<secret3>(?-u:[^<\s])+)[ \t]*</value>|"(?:name|key)[a-z]*"[ \t]*:[ \t]*"(?P<name4>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*|[a-z0-9_.-]*pat)"(?:[ \t]*,[ \t]*"[a-z]+"[ \t]*:[ \t]*"(?-u:[^"\n])*"){0,2}[ \t]*,[ \t\r\n]*"value[a-z]*"[ \t]*:[ \t]*"(?P<secret4>(?-u:[^"\s])+)"|(?:^|[\s(,])(?:name|key)[ \t]*[=:][ \t]*"(?P<name5>[a-z0-9_.:/-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*)"[ \t]*,?[ \t]*value[ \t]*[=:][ \t]*"(?P<secret5>(?-u:[^"\s])+)"|(?:^|\n)[ \t]*name[ \t]*=[ \t]*"(?P<name6>[a-z0-9_./:-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*)"[ \t]*(?:\r?\n[ \t]*[a-z_]+[ \t]*=(?-u:[^\n])*){0,3}\r?\n[ \t]*value[ \t]*=[ \t]*"(?P<secret6>(?-u:[^"\s])+)"|(?:^|\n)[ \t]*variable[ \t]+"(?P<name7>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*)"[ \t]*\{(?:\r?\n[ \t]*[a-z_]+[ \t]*=(?-u:[^\n])*){0,3}\r?\n[ \t]*default[ \t]*=[ \t]*"(?P<secret7>(?-u:[^"\s])+)"|(?:^|\n)[ \t]*(?P<name8>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*):[ \t]*\r?\n(?:[ \t]+[a-z_]+:(?-u:[^\n])*\r?\n){0,4}[ \t]+(?:default|value):[ \t]*["']?(?P<secret8>(?-u:[^\s"'])+)|"(?P<name9>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*)"[ \t]*:[ \t]*\{(?-u:[^{}"]|"(?-u:[^"\n])*")*?"value"[ \t]*:[ \t]*"(?P<secret9>(?-u:[^"\s])+)"|"(?P<name10>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*)"[ \t]*:[ \t]*\[[ \t\r\n]*(?:\{(?-u:[^{}])*\}[ \t\r\n]*,[ \t\r\n]*){0,3}\{[ \t]*"key"[ \t]*:[ \t]*"value"[ \t]*,[ \t]*"value"[ \t]*:[ \t]*"(?P<secret10>(?-u:[^"\s])+)"|(?:^|\n)[ \t]*(?P<name11>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|credential|cred|auth)[a-z0-9_.-]*)[ \t]*:?[ \t]*\{[ \t]*\r?\n(?:[ \t]*[a-z_]+[ \t]*[:=](?-u:[^\n])*\r?\n){0,3}[ \t]*[a-z_]*value[ \t]*[:=][ \t]*"(?P<secret11>(?-u:[^"\s])+)"|<[a-z]+[ \t]+name="[a-z0-9_.-]*name"[ \t]*>[ \t]*(?P<name12>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*)[ \t]*</[a-z]+>[ \t\r\n]*<[a-z]+[ \t]+name="[a-z0-9_.-]*value"[ \t]*>[ \t]*(?P<secret12>(?-u:[^<\s])+)[ \t]*</[a-z]+>|(?:^|\n)[ \t]*(?P<name13>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*)[ \t]*:[ \t]*\{(?-u:[^{}\n])*?(?:^|[{, \t])(?:default|value)[ \t]*:[ \t]*["']?(?P<secret13>(?-u:[^\s"',}])+)|=(?P<name14>[a-z0-9_./-]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_.-]*):[a-z-]+\((?-u:[^)\n])*?value=["'](?P<secret14>(?-u:[^"'\s])+)["']"#,
        example: "env:\n  - name: ACME_API_TOKEN\n    value: wuqxB-Qw1tcNBEOBRVYkK7aLm2",
        keywords: &["value", "<string>", "default"],
        check: Check::Assignment,
        shape: Shape::Literal(&[
            "name:",
            "<key>",
            "<name>",
            "\"name",
            "\"key",
            "key=",
            "name=",
            "name ",
            "variable ",
            "default:",
            "Default:",
            "value:",
            "Value:",
            "\"value\"",
            "\"Value\"",
            "value =",
            "value=",
            // Aligned with its siblings (`value  = "…"`, `value\t= "…"`).
            "value  ",
            "value\t",
        ]),
        lowered: true,
    },
    Builtin {
        name: "secret-set-value",
        // A secret stored by a CLI's `secret set NAME` with its value on the command line
        // (`gh secret set AMO_JWT_SECRET --body "…"`, `… secrets create NAME --value …`,
        // `aws secretsmanager put-secret-value … --secret-string …`): the value is the secret,
        // whatever its name says. So is a parameter store's value stored as a secure string or
        // under a credential's name (`aws ssm put-parameter --name /app/key --type SecureString
        // --value …`).
        regex: r#"secrets?[ \t]*(?:set|put|create|add|update)[a-z-]*[ \t](?-u:[^\n|;&]){0,200}?(?:--body|--value|--secret-string|--data|-b)(?:[ \t]+|=)["']?(?P<secret>(?-u:[^"'\s]){8,})|put-parameter[ \t](?-u:[^\n|;&]){0,300}?(?:securestring|(?:key|token|secret|password|passwd)[ \t])(?-u:[^\n|;&]){0,300}?--value(?:[ \t]+|=)["']?(?P<secret2>(?-u:[^"'\s]){8,})"#,
        example: "gh secret set AMO_JWT_SECRET --repo acme/ext --body \"7a449f12b6cc6d9bb075cb595d806984341351d82f6116c35398e6c920c049f2\"",
        keywords: &[
            "secret set",
            "secrets set",
            "secret put",
            "secret create",
            "secrets create",
            "secret add",
            "secret update",
            "secretsmanager put",
            "secretsmanager create",
            "secretsmanager update",
            "put-parameter",
        ],
        check: Check::Token,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "login-after-host",
        // A login handed to a call in the order connections take it, whatever the call is
        // named: a host first (an address, `localhost`, a domain or a URL: `GIS("https://…",
        // "user", "…")`), perhaps a port, then a user and
        // the password (`AmcrestCamera('192.168.1.108', 80, 'admin', '…')`, `open("db.example",
        // "report", "…", "shop")`), or a port and the password alone (`obsws("localhost", 4455,
        // "…")`). It must read as generated, as a credential call's
        // arguments must: a database's name, a path or a word is not one.
        regex: r#"\([ \t]*["'](?:https?://)?(?:(?:[0-9]{1,3}\.){3}[0-9]{1,3}|localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::[0-9]+)?(?:/[a-z0-9._/-]*)?["'][ \t]*,(?:(?-u:[^()\n]){0,40}?["'][a-z0-9_.@\\-]{1,40}["'][ \t]*,|[ \t]*[0-9]{2,5}[ \t]*,)[ \t]*(?P<secret>["'](?-u:[^"'\s]){6,128}["'])"#,
        example: "cam = AmcrestCamera('192.168.1.108', 80, 'admin', 'T.WqvSRP6_jH').camera",
        keywords: &["('", "(\"", "( '", "( \""],
        check: Check::CallArguments,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "credential-pair",
        // A credential's name and its value as the two items of a pair, in any language's
        // tuple, list or argument list (Haskell's `("key", Just "…")`, Python's `("X-Api-Key",
        // "…")`, Lua's `{"api_token", "…"}`, `Header.Set("X-API-KEY", "…")`).
        regex: r#"[(\[{][ \t]*["'](?P<name>[a-z0-9_.-]*(?:key|token|secret|password|passwd|pass|pwd|credentials?))["'][ \t]*,[ \t]*(?:just[ \t]+|some\([ \t]*)?["'](?P<secret>(?-u:[^"'\s])+)["']"#,
        example: "screen = setRequestQueryString [(\"key\", Just \"SQ8BXTDDO6ABPM5UFRTUJJGUR3NTOJ66\")]",
        keywords: &[
            "key\",",
            "key',",
            "token\",",
            "token',",
            "secret\",",
            "secret',",
            "pass\",",
            "pass',",
            "password\",",
            "password',",
            "passwd\",",
            "pwd\",",
            "pwd',",
            "credential\",",
            "credentials\",",
        ],
        check: Check::Assignment,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "flag-default",
        // A command-line option named for a credential, declared with its default value
        // (`add_argument("--api-key", default="…")`, click's `option("--token", default=…)`):
        // the default is the credential every run without the flag uses.
        regex: r#"["']--?(?P<name>[a-z0-9-]*(?:key|token|secret|password|passwd|pass|pwd)[a-z0-9-]*)["'](?-u:[^)\n])*?default[ \t]*=[ \t]*["'](?P<secret>(?-u:[^"'\s])+)["']"#,
        example: "ap.add_argument(\"--api-key\", default=\"48t60mxikas0o95ytkpx36io9mhghuwi\")",
        keywords: &["default"],
        check: Check::Assignment,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "pgpass-line",
        // A PostgreSQL password file's line, `host:port:database:user:password` (the port a
        // number or `*`): the fifth field.
        regex: r"(?m:^)[ \t]*(?-u:[^:\s#])+:(?:[0-9]{1,5}|\*):(?-u:[^:\s])+:(?-u:[^:\s])+:(?P<secret>(?-u:[^\s])+)[ \t]*\r?(?m:$)",
        example: "db.example.internal:5432:inventory:ops:2Zq._Jmz4Aeeydim",
        keywords: &[":5432:", ":*:", ".pgpass", ":543"],
        check: Check::Password,
        // A URL's `host:5432/db` has the keyword, not the five fields.
        shape: Shape::ColonFields,
        lowered: false,
    },
    Builtin {
        name: "wifi-qr-password",
        // A Wi-Fi network's QR text (`WIFI:T:WPA;S:Staff;P:…;;`): the `P:` field.
        regex: r"WIFI:(?-u:[^\n])*?(?:;|:)P:(?P<secret>(?:\\;|(?-u:[^;\n]))+);",
        example: "qrencode -o card.png 'WIFI:T:WPA;S:Staff;P:oKPTxU~kqgqDR7;;'",
        keywords: &["wifi:"],
        check: Check::Password,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "oracle-login",
        // Oracle's connect string, `user/password@database`: in a JDBC thin or OCI URL
        // (`jdbc:oracle:thin:app/Sd5u…@//db:1521/PROD`) and on the command line of the tools
        // that take it as their first word (`sqlplus scott/…@orcl`, `expdp`, `rman target`).
        regex: r#"(?:jdbc:oracle:(?:thin|oci):|(?:sqlplus|sqlldr|expdp|impdp|exp|imp|rman[ \t]+target)[ \t]+(?:-[sl][ \t]+)?["']?)(?P<user>[a-z0-9_$#.]{1,64})/(?P<secret>(?-u:[^/@\s"'])+)@"#,
        example: "spring.datasource.url=jdbc:oracle:thin:app_ro/Sd5ue-lr81grD1xs@//db.example.com:1521/PROD",
        keywords: &[
            "jdbc:oracle",
            "sqlplus",
            "sqlldr",
            "expdp",
            "impdp",
            "exp ",
            "imp ",
            "rman",
        ],
        check: Check::UserPassword,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "sql-login-clause",
        // A login said in DB2's grammar: `connect to DB user NAME using PASSWORD` (`sql-password`
        // reads `identified by`).
        regex: r#"\buser[ \t]+["']?[a-z0-9_.$#@-]{1,64}["']?[ \t]+using[ \t]+["']?(?P<secret>(?-u:[^\s"';(])(?-u:[^\s"';])*)"#,
        example: "$ db2 connect to DMPROD user DMRPT using hqu-+4p1XDvJ",
        keywords: &[" using "],
        check: Check::Password,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "htpasswd-batch",
        // Apache's `htpasswd -b FILE USER PASSWORD` (batch mode: the password on the command
        // line), or `-nb USER PASSWORD`, which prints the entry instead of writing a file;
        // other flags may stand beside `-b` (`-b -B`, bcrypt). Any program named for
        // passwords that takes the same batch form (`mosquitto_passwd -b FILE USER PASSWORD`).
        regex: r#"[a-z_]*passwd[ \t]+(?:-[a-zA-Z]*(?:n[a-zA-Z]*b|b[a-zA-Z]*n)[a-zA-Z]*[ \t]+["']?(?-u:[^\s"'])+["']?[ \t]+["']?(?P<secret>(?-u:[^\s"'])+)|(?:-[a-mo-zA-Z]+[ \t]+)*-[a-mo-zA-Z]*b[a-mo-zA-Z]*(?:[ \t]+-[a-mo-zA-Z]+)*[ \t]+(?-u:[^\s-])(?-u:[^\s])*[ \t]+["']?(?-u:[^\s"'])+["']?[ \t]+["']?(?P<secret2>(?-u:[^\s"'])+))"#,
        example: "htpasswd -b .htpasswd admin Qv5Lp9Xz2K",
        keywords: &["passwd"],
        check: Check::Password,
        shape: Shape::Literal(&["passwd"]),
        lowered: false,
    },
    Builtin {
        name: "user-add-password",
        // An account made with its password as the word after its name: `rabbitmqctl add_user
        // NAME PASSWORD`, `net user NAME PASSWORD /add`, `… user add NAME PASSWORD`.
        regex: r#"(?:add_user|adduser|useradd|user[ \t]+add|add[ \t]+user|create[ \t]+user|change_password|net[ \t]+user)[ \t]+["']?[a-z0-9_.@-]{1,64}["']?[ \t]+["']?(?P<secret>(?-u:[^\s"'/*-])(?-u:[^\s"'])*)"#,
        example: "$ sudo rabbitmqctl add_user manifest-board 'jL8.MwYdJj8RHN_8'",
        keywords: &[
            "add_user",
            "adduser",
            "useradd",
            "user add",
            "add user",
            "create user",
            "change_password",
            "net user",
        ],
        check: Check::Password,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "x12-security",
        // An X12 interchange's header (EDI between railroads, carriers, insurers): `ISA*00*
        // *01*…*`, the fourth field is a password when the third says `01`.
        regex: r"isa\*[0-9]{2}\*(?-u:[^*\n]){10}\*01\*(?P<secret>(?-u:[^*\s])(?-u:[^*\n]){0,9}?)[ ]*\*",
        example: "ISA*00*          *01*MI68AMCB1A*02*OZRK           *02*RAILINC        *261130*1542*U*00401*000004187*0*P*>~",
        keywords: &["isa*"],
        check: Check::Password,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "net-use-password",
        // Windows' `net use [D:] \\server\share PASSWORD /user:…`: the word after the share,
        // or after the user when it comes first (`… \\server\share /user:DOM\name PASSWORD`).
        regex: r#"net[ \t]+use[ \t]+(?:[a-z]:[ \t]+|\*[ \t]+)?\\\\(?-u:[^\s])+[ \t]+(?:/user:(?-u:[^\s])+[ \t]+)?["']?(?P<secret>(?-u:[^\s/"'*])(?-u:[^\s"'])*)"#,
        example: "net use T: \\\\timing-pc\\Orbits5 W._Iuujyf0hsV /user:TIMING-PC\\scorer /persistent:no",
        keywords: &["net use"],
        check: Check::Password,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "stream-key-url",
        // A live stream's key, the last part of an RTMP address (`rtmp://live.example/app/
        // live_8119…`): whoever holds it broadcasts as the channel.
        regex: r"rtmps?://(?-u:[^/\s])+/(?-u:[^/\s])+/(?P<secret>[a-z0-9_-]{16,})",
        example: "-f flv rtmp://live.twitch.tv/app/live_811903733_NXfkJuMHUMMFWIsClaTopeKu3s8ygt",
        keywords: &["rtmp"],
        check: Check::Signature,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "basic-auth-pair",
        // A user and a password handed together to whatever says basic authentication, where
        // `credential-call` cannot read the arguments: reqwest's `.basic_auth("412877",
        // Some("…"))` (an argument in parentheses of its own), a Lisp's `:basic-auth ["user"
        // "…"]` (no comma). The second is the password, whatever it looks like (a UUID too).
        regex: r#"basic[_-]?auth["']?[ \t]*[:=]?[ \t]*[(\[][ \t]*["'](?P<user>(?-u:[^"'\n]){0,64})["'](?:[ \t]*,[ \t]*some\([ \t]*|[ \t]+)["'](?P<secret>(?-u:[^"'\s])+)["']"#,
        example: "client.get(url).basic_auth(\"412877\", Some(\"Xk29fQm7LpW3vRt8\")).send()?",
        keywords: &["basic"],
        check: Check::UserPassword,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "header-value-first",
        // A header set value first, its name as a labelled argument after it (Swift's and
        // Objective-C's `setValue("…", forHTTPHeaderField: "api-key")`, `addValue`): the
        // value of a header whose name means a credential.
        regex: r#"["'](?P<secret>(?-u:[^"'\s]){8,})["'][ \t]*,[ \t]*forhttpheaderfield:[ \t]*["'](?P<name>[a-z0-9_.-]*(?:key|token|secret|password|passwd|auth|credential)[a-z0-9_.-]*)["']"#,
        example: "request.setValue(\"148ef5a157c97051031db0554a6013aa\", forHTTPHeaderField: \"app_key\")",
        keywords: &["forhttpheaderfield"],
        check: Check::Assignment,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "credential-call",
        // The arguments may run over lines (`DBI->connect("dbi:Pg:…", "sync",
        // "…",\n { RaiseError => 1 })`).
        // A call named for a credential (`SetBasicAuth`, `NetworkCredential`, `createHmac`,
        // `bearer_auth`, `getConnection`, `jwt.encode`, `auth=(…)`, `setAccessKey`, an SDK's
        // `new AcmeApiClient('…')`, Ruby's `basic_auth 'u', 'p'`), or an object named for an
        // API or a client (`PhaxioApi('…', '…')`, `new MailosaurClient("…")`, a versioned
        // `CompilersClientV4('…')`, a module's `wolframalpha.Client('…')`), or a setter of a key
        // (`fredr_set_key('…')`): each string argument that reads as generated is a
        // credential, whatever the language, the vendor or the argument's position, and
        // whatever path names the class (`client = OAuth2::Client.new("…", "…")`, Ruby's
        // `Mailgun::Client.new '…'` without brackets; Rust's `Credentials::new("…".to_owned(),
        // "…".to_owned())`, an argument's empty call kept in). A call's arguments hold a string where
        // the shape looks for one, first or after a comma (a call with none redacts nothing, and
        // the shape must be a necessary condition of a match: `token(curl -u '…')`, found by
        // `shape_checks_are_necessary_conditions`).
        regex: r#"(?P<name>[a-z0-9_]*(?:auth|credential|password|passwd|secret|token|hmac|login|logon|signin|connect|session|begin|apikey|api_key|apiclient|api_client|accesskey|access_key|jwt|setkey|set_key)[a-z0-9_]*(?:\.[a-z0-9_]+|\]?::[a-z0-9_]+)?|database|[a-z0-9_]*_pw(?:_[a-z0-9_]*)?|[a-z0-9_]*\.?(?:api|client|provider)(?:v[0-9]+)?|new[ \t]+(?:pdo|mysqli))[ \t]*(?:=[ \t]*)?\((?P<secret>[ \t\n]*["'](?-u:[^()]|\(\)){3,400}|(?-u:[^()]|\(\))*,[ \t\n]*["'](?-u:[^()]|\(\))*)\)|(?P<name2>[a-z_]*auth) (?P<secret2>["'](?-u:[^\n]){4,200})|(?P<name3>[a-z0-9_]*(?:client|api|sdk)[a-z0-9_]*)[ \t]*=[ \t]*(?:new[ \t]+)?[a-z0-9_.:]+[ \t]*\((?P<secret3>[ \t]*["'](?-u:[^()\n]){3,400}|(?-u:[^()\n])*,[ \t]*["'](?-u:[^()\n])*)\)|(?P<name4>[a-z0-9_]*(?:client|api|sdk))\.new (?P<secret4>["'](?-u:[^\n]){4,200})"#,
        example: "req.SetBasicAuth(\"ci-reader\", \"WLnoUWbtL3-fsykRoX\")",
        keywords: &[
            "auth",
            "credential",
            "password",
            "passwd",
            "secret",
            "token",
            "hmac",
            "login",
            "logon",
            "signin",
            "connect",
            "session",
            // A connection begun with its login (Arduino's `WiFi.begin("ssid", "…")`, as
            // MicroPython's `wlan.connect(…)`).
            ".begin(",
            // A database handle opened with its login (`new PDO($dsn, "user", "…")`, `new
            // mysqli("host", "user", "…", "db")`).
            "new pdo",
            "new mysqli",
            // `username_pw_set("user", "…")`: `pw` as a word of the call's name.
            "_pw",
            "apikey",
            "api_key",
            "apiclient",
            "api_client",
            "accesskey",
            "access_key",
            "jwt",
            "api(",
            "client(",
            // A provider of a service built from its key (`IonQProvider("…")`).
            "provider(",
            "clientv",
            "setkey",
            "set_key",
            // A client built from one value and kept under a client's name (`client =
            // smartsheet.Smartsheet("…")`, `const onfleetApi = new Onfleet('…')`): the value
            // is what the client authenticates with.
            "client =",
            "client=",
            // Ruby's call without brackets (`Mailgun::Client.new '…', 'api.eu.mailgun.net'`).
            "client.new ",
            "api.new ",
            "database(",
            "api =",
            "api=",
            "sdk =",
            "sdk=",
        ],
        check: Check::CallArguments,
        shape: Shape::CallString,
        lowered: true,
    },
    Builtin {
        name: "url-path-token",
        // A URL that is itself the credential: a webhook's or a key's path segment followed by
        // a generated one (`/hooks/8QCaDV…`, `/api/webhook/GDePDL…`, `/with/key/BZG3us…`), or a
        // segment that says it is private and holds a generated body (a calendar's secret
        // address, `/ical/…/private-cfd0…/basic.ics`), or a run of 32 to 48 letters and digits
        // right after `/api/` with more path after it (a Hue bridge's user, `/api/<key>/lights`).
        regex: r#"https?://[a-z0-9.-]+(?::[0-9]+)?/(?:(?-u:[^\s"'<>?#])*/)?(?:hooks?|webhooks?|webhookb2|incomingwebhook|key|keys|token|tokens)/(?P<secret>[a-z0-9][a-z0-9_@/-]{15,})|https?://[a-z0-9.-]+(?::[0-9]+)?/api/(?P<secret3>[a-z0-9]{32,48})/|https?://[a-z0-9.-]+(?::[0-9]+)?/(?-u:[^\s"'<>?#])*/(?P<secret2>(?:private|secret)[-_][a-z0-9]{16,})(?:[/?#"'\s]|$)"#,
        example: "curl -X POST https://ha.acme.example/api/webhook/GDePDLbVA3Tn9KZmLnWH6fR7WQDD2kMb",
        // A path segment's start: `hook_event_name` in a hook's own payload is none.
        keywords: &[
            "/hook",
            "/webhook",
            "/incomingwebhook",
            "/key",
            "/token",
            "/private-",
            "/private_",
            "/secret-",
            "/secret_",
            "/api/",
        ],
        check: Check::LoginArgument,
        shape: Shape::Literal(&["://"]),
        lowered: true,
    },
    Builtin {
        name: "jwk-private-key",
        // A JSON Web Key's private members (`d`, RSA's `p`, `q`, `dp`, `dq`, `qi`, a symmetric
        // key's `k`), after its `"kty"`: from the first of them to the end of the object, so the
        // public `x`, `y`, `n`, `e` before them stay.
        regex: r#""kty"(?-u:[^{}])*?(?P<secret>"(?:d|p|q|dp|dq|qi|k)"[ \t]*:[ \t]*"[a-z0-9_-]{20,}"(?:[ \t\r\n]*,[ \t\r\n]*"[a-z0-9_]+"[ \t]*:[ \t]*"(?-u:[^"])*")*)"#,
        example: "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"qFTsMfv0uUxa_ELiUCeORfnkxvZ1aS7kUFywII8fKEY\",\"d\":\"oPhNwFEmq7x7rOZ_jzhQi6xuH7FSoPyc9xZ-5TCAKAw\"}",
        keywords: &["\"kty\""],
        check: Check::Exact,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "sql-password",
        // A password set by a statement: `IDENTIFIED [WITH plugin] BY '…'`, `SET PASSWORD
        // [FOR user] = '…'`, Redis's `ACL SETUSER name … >password`.
        regex: r#"identified[ \t]+(?:with[ \t]+[a-z0-9_]+[ \t]+)?by[ \t]+(?:password[ \t]+)?["'](?P<secret>(?-u:[^"'\n]){4,})["']|set[ \t]+password[ \t]+(?:for[ \t]+(?-u:[^=\n]){1,80})?=[ \t]*(?:password[ \t]*\([ \t]*)?["'](?P<secret2>(?-u:[^"'\n]){4,})["']|acl[ \t]+setuser[ \t]+(?-u:[^\n])*?[ \t]>(?P<secret3>(?-u:[^\s]){4,})"#,
        example: "CREATE USER 'etl'@'10.20.%' IDENTIFIED BY '5Xu5RYsMm1PSouzhY_';",
        keywords: &["identified", "set password", "setuser"],
        check: Check::Password,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "rc-key-line",
        // A configuration line that is only a key-named setting and its value, without an
        // operator (`LicenseKey hQZYuI_…` in GeoIP.conf, `api_token xyz…`).
        regex: r#"(?m:^)[ \t]*(?P<name>[a-z0-9_-]*(?:key|token|secret)[a-z0-9_-]*)[ \t]+(?P<secret>(?-u:[^\s"'=$#])(?-u:[^\s"'])*)[ \t]*\r?(?m:$)"#,
        example: "# GeoIP.conf\nAccountID 1184203\nLicenseKey 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",
        keywords: &["key", "token", "secret"],
        check: Check::Assignment,
        shape: Shape::NameLine,
        lowered: true,
    },
    Builtin {
        name: "session-cookie",
        // A cookie that holds a session: its name says so (`sessionid`, `PHPSESSID`,
        // `connect.sid`, `laravel_session`, `.AspNetCore.Cookies`), in a `Cookie:` or
        // `Set-Cookie:` header, `document.cookie`, or a Netscape cookie file's
        // `name<TAB>value` columns. Whoever holds it is logged in. `sid` is a session's alone
        // or after a separator; joined to a noun it is that thing's id (Twilio's `AccountSid=`,
        // `MessageSid=` in a webhook's body).
        regex: r#"(?:^|(?-u:[^a-z0-9_.-]))(?:(?P<name>[a-z0-9_.-]*(?:sessid|session|sessionid|\.cookies)|(?:[a-z0-9_.-]*[._-])?sid)=|(?P<name2>[a-z0-9_.-]*session[_-]token)[=\t])(?P<secret>(?-u:[^;\s"'&<>,\\]){16,})"#,
        example: "Cookie: theme=dark; sessionid=q8v2k9x4m7t1r5w3z6y0p2n8b4c6d9f1",
        keywords: &[
            "sessid=",
            "session=",
            "sessionid=",
            "sid=",
            ".cookies=",
            "session_token",
            "session-token",
        ],
        check: Check::Token,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "protocol-auth",
        // A credential a client sends in a line-oriented protocol, as a transcript or a
        // capture shows it: SMTP and IMAP `AUTH[ENTICATE] PLAIN|XOAUTH2|LOGIN <base64>`, IMAP
        // `LOGIN user pass`, POP3 and FTP `PASS`, NNTP `AUTHINFO PASS`, NickServ `IDENTIFY`,
        // XMPP's SASL `<auth mechanism='PLAIN'>`. The commands are written in capitals, as
        // protocols and captures write them; a tag or a `C:` may come first. An anonymous FTP
        // login's password is by convention an address ending in `@` (RFC 1635): not one.
        regex: r#"(?m:^)[ \t]*(?:[A-Za-z]:[ \t]*|-->[ \t]*|[A-Za-z0-9.]{1,12}[ \t]+){0,2}(?:AUTH(?:ENTICATE)? +(?:PLAIN|XOAUTH2|OAUTHBEARER|LOGIN)[ \t]+(?P<secret>[A-Za-z0-9+/=]{12,})|LOGIN +"?(?-u:[^\s"])+"?[ \t]+"?(?P<secret2>(?-u:[^\s"]){4,})"?|(?:AUTHINFO[ \t]+)?PASS +(?P<secret3>(?-u:[^\s]){3,}(?-u:[^\s@])))[ \t]*\r?(?m:$)|PRIVMSG[ \t]+NickServ[ \t]+:IDENTIFY +(?:(?-u:[^\s])+[ \t]+)?(?P<secret4>(?-u:[^\s]){6,})|mechanism=['"](?:PLAIN|XOAUTH2)['"](?-u:[^>])*>(?P<secret5>[A-Za-z0-9+/=]{12,})</auth>"#,
        example: "S: 334\nC: AUTH PLAIN AGRldkBleGFtcGxlLm5ldABxN3ZLMnhQOW1SNHRX\nS: 235 2.7.0 Authentication successful",
        keywords: &[
            "auth ",
            "authenticate ",
            "login ",
            "pass ",
            "identify ",
            "mechanism=",
        ],
        check: Check::Password,
        shape: Shape::Literal(&["AUTH", "LOGIN", "PASS", "IDENTIFY", "mechanism="]),
        lowered: false,
    },
    Builtin {
        name: "redis-auth",
        // Redis' `AUTH [user] password`, typed at `redis-cli`'s prompt (`127.0.0.1:6379> AUTH
        // default …`) or as `MONITOR` prints every command a client sends (`"AUTH" "app"
        // "…"`): the last word is the password.
        regex: r#"(?:(?m:^)|> )[ \t]*AUTH[ \t]+(?:(?-u:[^\s"])+[ \t]+)?(?P<secret>(?-u:[^\s"]){6,})[ \t]*\r?(?m:$)|"AUTH"(?:[ \t]+"(?-u:[^"\s])*")?[ \t]+"(?P<secret2>(?-u:[^"\s]){6,})""#,
        example: "1764330012.123456 [0 10.0.3.15:50122] \"AUTH\" \"app\" \"rVkVrMdbm_7msV08Yq\"",
        keywords: &["auth ", "\"auth\""],
        check: Check::Password,
        shape: Shape::Literal(&["AUTH"]),
        lowered: false,
    },
    Builtin {
        name: "prose-credential",
        // A credential handed over in prose, as people write it in chat, a handoff or a
        // commit message: a word naming it, up to three short words, `is` or `was`, then the
        // value, possibly after `user /` (`the password is x!2I6…`, `login is admin / OPX!…`).
        // Only a value that reads as generated counts: `the key is missing` is prose.
        regex: r#"(?P<name>password|passphrase|passcode|pwd|key|token|secret|login)(?:[ \t][a-z0-9_-]{1,16}){0,3}[ \t](?:is|was)[ \t](?:now[ \t])?(?:[a-z0-9_.@-]{1,40}[ \t]?/[ \t]?)?["'`]?(?P<secret>(?-u:[^\s"'`]){8,})"#,
        example: "hey, the staging db password is now Vq7!rT2xKp9mZ4 until friday",
        keywords: crate::shape::PROSE_NAMES,
        check: Check::Token,
        shape: Shape::Prose,
        lowered: true,
    },
    Builtin {
        name: "url-signature",
        // Signed URLs (S3 and GCS presigned, CloudFront, Azure SAS) carry their signature or
        // session token as a query parameter: whoever holds the URL holds the access.
        // Any vendor's parameter named for a signature or an HMAC (`q-signature`,
        // `X-Oss-Signature`, a CDN token's `~hmac=`, Codeforces' `apiSig=`, an image CDN's
        // `ci_sign=`), whatever prefix
        // it has; and the same field of a form a request sends (curl's `-F 'signature=…'`).
        // An image CDN's one-letter `s=` (Imgix) only as a hex digest (`Check::Signature`).
        // A page writes the query's `&` as `&amp;` (`<source src="…&amp;Signature=…">`), a URL
        // inside another's query as `%26` (`/proxy?src=https://…?w=800%26ci_sign=…`), a JSON
        // string as `\u0026` (Go's encoder escapes every `&`); a URL encoded whole into another's
        // query writes `=` as `%3D` too (`…%26sig%3D7JSJ…%253D`), and its `&` as `%26`, which
        // ends the value as `&` does. A Windows batch file doubles each `%` (`sig=…%%2B…`).
        regex: r#"(?:[?&~]|&amp;|%26|%3f|\\u0026|-[fd][ \t]+["']?|--form[ \t]+["']?)(?P<name>[a-z0-9_.-]*(?:signature|sig|sign)|hmac|x-amz-security-token|s)(?:=|%3d)(?P<secret>(?:(?-u:[^&\s"'#<>\\%)])|%%?(?:[013-9a-f][0-9a-f]|2[0-57-9a-f]))+)"#,
        example: "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=7a3f9c1e5b2d8f4a6c0e9b3d7a1f5c2e8b4d6f0a",
        keywords: &[
            "signature=",
            "sig=",
            "sign=",
            "security-token=",
            "hmac=",
            "signature%3d",
            "sig%3d",
            "sign%3d",
            "?s=",
            "&s=",
            ";s=",
        ],
        check: Check::Signature,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "telegram-bot-token",
        // `<bot id>:AA<35 characters>`, bare or in the Bot API's URL (`/bot<token>/`).
        regex: r"(?-u:\b)(?:bot)?(?P<secret>[0-9]{5,}:AA[0-9A-Za-z_-]{30,})",
        example: "https://api.telegram.org/bot6918273645:AAFq8Lm2Vx9Zt4Rw7Yp3Ns1Dj6Fh0Gc5Bv2/sendMessage",
        keywords: &[":aa"],
        check: Check::Token,
        shape: Shape::Literal(&[":AA"]),
        lowered: false,
    },
    Builtin {
        name: "env-directive",
        // A Dockerfile's `ENV NAME value` and `ARG NAME value`: a name and its value without
        // an operator (the `NAME=value` form is an assignment like any other).
        regex: r#"(?m:^)[ \t]*(?:ENV|ARG)[ \t]+(?P<name>[A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASS|PWD|CREDENTIAL|AUTH)[A-Za-z0-9_]*)[ \t]+\\?["']?(?P<secret>(?-u:[^\s"'=$])(?-u:[^\s"'])*)"#,
        example: "ENV SECRET_KEY 2RpLth+qlWtZa9RjrzdnX7Q8KuRUZ0x5",
        keywords: &["env ", "arg ", "env\t", "arg\t"],
        check: Check::Assignment,
        shape: Shape::Literal(&["ENV", "ARG"]),
        lowered: false,
    },
    Builtin {
        name: "cli-login-token",
        // A command-line login's positional argument: `wandb login KEY`, `ngrok config
        // add-authtoken TOKEN`, `nuget setapikey KEY`, `cargo login --registry NAME TOKEN`
        // (a flag's lower-case value skipped), `fly auth token`'s output pasted back, an account authorised
        // with an id and a key (`b2 account authorize KEY_ID KEY`), a key stored under a
        // profile's name (`snapi profile add prod KEY`). The argument is judged
        // by its shape (long, random), as nothing names it.
        // The flags it skips are kept (`name`): after one that names an identifier
        // (`--service-key-id UUID`), the argument is that flag's value, not a token.
        regex: r#"(?:(?-u:\b)login|(?-u:\b)auth|authtoken|set-?(?:api-?)?(?:key|token)|(?-u:\b)token)(?P<name>(?:[ \t]+--?[a-z][a-z0-9-]*(?:[ \t]+[a-z][a-z0-9_.-]{0,40})?)*)[ \t]+\\?["']?(?P<secret>[A-Za-z0-9][A-Za-z0-9_+/-]{19,}=*)|(?-u:\b)authori[sz]e[ \t]+(?:[A-Za-z0-9_-]{8,40}[ \t]+)?\\?["']?(?P<secret2>[A-Za-z0-9][A-Za-z0-9_+/-]{19,}=*)|(?-u:\b)(?:profiles?|credentials?)[ \t]+(?:add|set|save|create)[ \t]+[A-Za-z0-9_.@-]{1,40}[ \t]+\\?["']?(?P<secret3>[A-Za-z0-9][A-Za-z0-9_-]{19,})(?-u:\b)"#,
        example: "wandb login d6cbc12b41acd6748ef6e87c3a4246097a92bdc0",
        // Each word as the regex needs it, a blank after it: `SLACK_TOKEN=…` and
        // `hook_event_name` compile nothing (every PostToolUse of a secret-heavy output did).
        keywords: &[
            "login ",
            "login\t",
            "auth ",
            "auth\t",
            "token ",
            "token\t",
            "set-key ",
            "set-key\t",
            "setapikey ",
            "set-api-key ",
            "authorize ",
            "authorize\t",
            "authorise ",
            "authorise\t",
            "profile add ",
            "profile set ",
            "profiles add ",
            "credentials add ",
            "credential add ",
            "credentials set ",
        ],
        check: Check::LoginArgument,
        shape: Shape::LongToken,
        lowered: false,
    },
    Builtin {
        name: "secret-key-block",
        // An armored block whose label says it is a key or a secret, whatever the tool:
        // OpenVPN's `Static key` and `tls-crypt-v2 client key`, a `SECRET KEY` of any kind, a
        // key's `SEED` (NATS' `USER NKEY SEED`, from which the private key is derived);
        // private keys have their own rule, and a label that says `PUBLIC` is left alone
        // (`Check::SecretBlock`). Only the body is replaced.
        regex: r"-----BEGIN[ A-Za-z0-9_-]*(?:SECRET|SEED|[Kk][Ee][Yy])[ A-Za-z0-9_-]*-----(?:[ \t\r\n]|\\[rn])*(?P<secret>[A-Za-z0-9+/=](?:[A-Za-z0-9+/=:,.]|(?:[ \t\r\n]|\\[rn])+[A-Za-z0-9+/=:,.])*)",
        example: "-----BEGIN OpenVPN Static key V1-----\nfc2859b8929fab1a0adc6d6f8e3cbf84\nf6fa3d136938842167d20bf1e8cc9051\n943abe2d6cb6d8962d094907c81fe7a4\n-----END OpenVPN Static key V1-----",
        keywords: &["-----begin"],
        check: Check::SecretBlock,
        // What the label must say: a private key's block compiles nothing here.
        shape: Shape::SecretLabel,
        lowered: false,
    },
    Builtin {
        name: "commented-secret-key",
        // A key file whose first line says it holds a secret key and whose second is the
        // key (minisign's and signify's `untrusted comment: … secret key`).
        // (A signature's comment names the key it was made with: `signature from … secret
        // key`; at most the tool's name and `encrypted` come before `secret key` here.)
        regex: r"untrusted comment:[ \t]*(?:[a-z]+[ \t]+)?(?:encrypted[ \t]+)?secret key(?-u:[^\n])*(?:\r?\n|\\r?\\n)(?P<secret>[A-Za-z0-9+/=]{40,})",
        example: "untrusted comment: signify secret key\nRWRCSwAAACoIzNtzZuyNa1df1J8hLY3aDeng3kpmy5W5Pr9g96julTGo8mRjvTzH2O6Eis87jDeRPpxGHPL9rIGQv9ri5GnDocjRE4EvYPHiblnMLSpFhYf/JtjC0nPRgZ65lehFOQE=",
        keywords: &["untrusted comment"],
        check: Check::PrivateKey,
        shape: Shape::Any,
        lowered: false,
    },
    Builtin {
        name: "password-flag",
        // A single-dash long flag named for a password, as Java's and OpenSSL's tools write
        // them (`-storepass`, `-keypass`, `-srcstorepass`, `-passin pass:…`). Two dashes are
        // `cli-credentials`'.
        // OpenSSL's `-passin`/`-passout` name where the password comes from; only `pass:…`
        // is the password itself (`env:`, `file:`, `fd:` are references).
        regex: r#"(?:(?m:^)|[ \t])-(?P<name>[a-z]*pass(?:word|wd)?)(?:[ \t]+|=)\\?["']?(?P<secret>(?-u:[^\s"'$-][^\s"']*))|(?:(?m:^)|[ \t])-pass(?:in|out)[ \t]+\\?["']?pass:(?P<secret2>(?-u:[^\s"'$][^\s"']*))"#,
        example: "keytool -genkeypair -alias upload -keystore upload.jks -storepass EzmyLYF_fq5rJgFO",
        keywords: &["pass"],
        check: Check::Password,
        // Not `passed` (every test run's output): the flag's name ends the word.
        // Each name the regex takes, before each separator it takes (a tab too: found by the
        // shape property test, `-Forcepassword\tauthorize`).
        shape: Shape::Literal(&[
            "pass ",
            "pass=",
            "pass\t",
            "password ",
            "password=",
            "password\t",
            "passwd ",
            "passwd=",
            "passwd\t",
            "passin ",
            "passin\t",
            "passout ",
            "passout\t",
        ]),
        lowered: true,
    },
    Builtin {
        name: "shell-set-variable",
        // A variable named for a credential set without `=`, in the shells that do so: fish's
        // `set -gx NAME value`, csh's `setenv NAME value`, Windows' `setx NAME value`.
        regex: r#"(?:(?-u:\b)set(?:[ \t]+-[a-z]+)*|(?-u:\b)setx|(?-u:\b)setenv)[ \t]+(?P<name>[a-z0-9_]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_]*)[ \t]+\\?["']?(?P<secret>(?-u:[^\s"'$=][^\s"']*))"#,
        example: "set -gx ACME_API_TOKEN wuqxB-Qw1tcNBEOBRVYkK7",
        // The name carries one of these; `set` alone is in half of all text (`reset`, `setup`).
        keywords: &[
            "key",
            "token",
            "secret",
            "pass",
            "pwd",
            "credential",
            "auth",
        ],
        check: Check::Assignment,
        shape: Shape::Literal(&["set -", "set ", "setx ", "setenv "]),
        lowered: true,
    },
    Builtin {
        name: "rc-password-line",
        // A configuration line of the `name value` kind (msmtp, fetchmail, mutt, many rc
        // files): a line that starts with a password keyword and gives its value.
        regex: r#"(?m:^)[ \t]*(?P<name>password|passwd|passphrase|pass)[ \t]+\\?["']?(?P<secret>(?-u:[^\s"'=$][^\s"']*))"#,
        example: "account acme\nhost smtp.acme.example\nuser ana@acme.example\npassword -r.W1X6J8fR.IKgWFR",
        keywords: &["pass"],
        check: Check::Assignment,
        shape: Shape::Literal(&[
            "password ",
            "password\t",
            "passwd ",
            "passphrase ",
            "pass ",
            "pass\t",
        ]),
        lowered: true,
    },
    Builtin {
        name: "powershell-secret",
        // PowerShell: an environment variable named for a credential set with `-Value`, and
        // the string `ConvertTo-SecureString` is given, a password by definition.
        regex: r#"env:(?P<name>[a-z0-9_]*(?:key|token|secret|pass|pwd|credential|auth)[a-z0-9_]*)(?-u:[^\n])*?-value[ \t]+["']?(?P<secret>(?-u:[^\s"'$][^\s"']*))"#,
        example: "Set-Item -Path Env:WEBHOOK_SIGNING_SECRET -Value 'PYRR2MTQl2Y1C2zPhgEGhycGWp7aHpJxRECZ61ZmmyRE'",
        keywords: &["env:"],
        check: Check::Assignment,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "powershell-securestring",
        regex: r#"convertto-securestring[ \t]+(?:-string[ \t]+)?["'](?P<secret>(?-u:[^"'$\n])+)["']"#,
        example: "$p = ConvertTo-SecureString \"5K.o5NDYf4vKyO02m6\" -AsPlainText -Force",
        keywords: &["convertto-securestring"],
        check: Check::Password,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "prefixed-token",
        // Any vendor's token by its shape: a short lower-case prefix of one or two parts
        // (`re_`, `csk-`, `dckr_pat_`, `sb_secret_`) and a long random body, standing alone
        // (after a blank, a quote, `=`, `:` or a bracket; not inside a longer word or a path),
        // and ending as a word does, or at an escaped quote or line break inside a string
        // (`"\"dtn_…\""`, Gradle's `buildConfigField`). A second part may follow a dot
        // (`secret_<name>_<hex>.<random>`: a key's id, then its secret). The check weighs the
        // body; digests (`sha512-…`) and UUIDs are left alone.
        regex: r#"(?:^|[\s"'`=:(,\[{<>|])(?P<secret>[a-z][a-z0-9]{1,11}(?:[_-][a-z0-9]{1,10})?[_-][A-Za-z0-9][A-Za-z0-9_-]{25,}(?:\.[A-Za-z0-9_-]{16,})?)(?:$|[\s"'`,;)\]}>&|]|\\["'nrt]|\.(?:$|(?-u:[^A-Za-z0-9])))"#,
        example: "RESEND=re_ycxBf143_A7h6tUqMXxm3cE3k2CUkXeL1",
        keywords: &[],
        check: Check::PrefixedToken,
        shape: Shape::PrefixedToken,
        lowered: false,
    },
    Builtin {
        name: GENERIC_ASSIGNMENT,
        // The name from its keyword on (what precedes it is read back by the check), `[]`,
        // an optional closing quote of a JSON/YAML key (or R's backtick), an operator
        // (assignment, comparison, R's `<-`, make's `?=`, Scala's pair `->`, a fallback's `??`:
        // `KEY = process.env.API_KEY ?? "…"`), then a quoted value (which may hold spaces and symbols;
        // C#'s `@"…"` too) or a bare one up to whitespace or a quote. Without an operator
        // only a quoted token counts: `password 'x';`, and a lookup's default value
        // (a string's prefix letters are no part of it: Python's `b"…"`, `r'…'`)
        // `getenv("api_token", "…")` (the `)` keeps JSON's `"k","v"` lists out).
        // A lookup's closing bracket, brace (Perl's `$ENV{KEY} = …`) or parenthesis may follow
        // the name (`env["KEY"] = …`,
        // `req.get('Authorization') !== '…'`: a header compared with the key it must hold),
        // or a form body's percent-encoded one (`f%5Bauth%5D=…`).
        // `plausible_assignment` trims bare values and judges them. A double-quoted value may
        // open a one-element list (Go's `url.Values{"pw": {"…"}}`). A type may stand between
        // the name and the operator, said with `:` or as Visual Basic says it (`Dim apiSecret As
        // String = "…"`).
        regex: r#"(?P<name>(?:key|token|secret|pass|pwd|pswd|psk|seed|mnemonic|credential|creds|auth|licen[cs]e|contrase|kennwort|senha|wachtwoord|salasana|haslo|jelszo|heslo|sifre|losenord|adgangskode|parool|lozinka|geslo|parola|slaptazodis|lykilord|wagwoord|cyfrinair|pasahitza|parole|fjalekalim|fjalëkalim|jelszav|pasfhocal|facal-faire|nenosiri|contrasinal|pasvorto|modpas|parol|şifrə|şîfre|ger-tremen|iphasiwedi|kupuhipa|tenimiafina|loyniorð|лозинка|գաղտնաբառ|கடவுச்சொல்|මුරපදය|сырсөз|ລະຫັດຜ່ານ|ពាក្យសម្ងាត់|စကားဝှက်|পাসওয়ার্ড|парол|პაროლ|hasło|jelszó|şifre|lösenord|slaptažodis|lykilorð|contraseña|пароль|Пароль|סיסמה|密码|密碼|パスワード|비밀번호)[a-z0-9_.-]*|(?:pw|pat|cred)(?:[_.-][a-z0-9_.-]*)?)(?:\[\])?\\?["'`]?[\])}]?(?:%5d)?[ \t]*(?:(?::|as[ \t]+)[ \t]*&?(?:'[a-z]+[ \t]+)?[a-z_][a-z0-9_:<>]*(?:\[\])?[ \t]*)?(?:(?P<op>===|!==|\|\|=|&&=|\?\?=|\?\?|[:!=?]=|=>|->|<-|=|:)[ \t]*@?(?:(?:\{[ \t]*)?[bru]{0,2}\\?"(?P<secret>(?-u:[^"\\\n]|\\(?-u:[^"\n]))+)\\?"|[bru]{0,2}\\?'(?P<secret2>(?-u:[^'\\\n]|\\(?-u:[^'\n]))+)\\?'|`(?P<secret3>(?-u:[^`\n])+)`|(?P<secret4>(?-u:[^\s"'`\\,;&|(){}\[\]<>:=])(?-u:[^\s"'`\\])*))|@?\\?"(?P<secret5>(?-u:[^"\\\s])+)\\?"|@?\\?'(?P<secret6>(?-u:[^'\\\s])+)\\?'|,[ \t]*(?:"(?P<secret7>(?-u:[^"\\\s])+)"|'(?P<secret8>(?-u:[^'\\\s])+)')[ \t]*\))"#,
        example: "export DB_PASSWORD=\"hunter2-Correct-Horse-42\"",
        keywords: &[
            "key",
            "token",
            "secret",
            "pass",
            "pwd",
            "credential",
            // `creds`, and `cred` as a name of its own (`cred='…'`, `X-Relay-Cred:`; not
            // `credit`, which the regex's name leaves out).
            "cred",
            "auth",
            // A Wi-Fi's or a VPN's pre-shared key (`psk=…` in a NetworkManager profile).
            "psk",
            // A wallet's or a signer's seed (`wallet_seed=snAa21…`, `X-Signer-Seed: 0x…`): the
            // key it derives from. A random generator's seed is a number, which the value's
            // check leaves alone.
            "seed",
            // A licence key unlocks what was paid for (`VAULT_LICENSE=02MV4UU…`); a licence's
            // name (`license = "MIT"`) is a word, not a generated value.
            "license",
            // A wallet's recovery words (`MNEMONIC="torch artwork … first"`).
            "mnemonic",
            "licence",
            // "Password" in the languages whose word has no `pass` in it (`contrasena`,
            // `Kennwort`, `senha`, `wachtwoord`…): a name means a credential in any language.
            "contrase",
            "kennwort",
            "senha",
            "wachtwoord",
            "salasana",
            "haslo",
            "jelszo",
            "heslo",
            "sifre",
            "losenord",
            "adgangskode",
            "parool",
            "lozinka",
            "geslo",
            "parola",
            "slaptazodis",
            "lykilord",
            "wagwoord",
            "cyfrinair",
            "pasahitza",
            "parole",
            "fjalekalim",
            "jelszav",
            "pasfhocal",
            "facal-faire",
            "nenosiri",
            // And as written in their own letters (`hasło`, `пароль`, `סיסמה`, `密码`).
            "hasło",
            "jelszó",
            "şifre",
            "lösenord",
            "contraseña",
            "пароль",
            "Пароль",
            "סיסמה",
            "密码",
            "密碼",
            "パスワード",
            "비밀번호",
            "slaptažodis",
            "lykilorð",
            "fjalëkalim",
            "парол",
            "პაროლ",
            // Galician, Esperanto, Haitian Creole, Uzbek's and Romanian's stem, Azerbaijani,
            // Kurdish, Breton, Zulu, Māori, Malagasy, Faroese; Serbian Cyrillic, Armenian,
            // Tamil, Sinhala, Kyrgyz, Lao, Khmer, Burmese, Bengali.
            "contrasinal",
            "pasvorto",
            "modpas",
            "parol",
            "şifrə",
            "şîfre",
            "ger-tremen",
            "iphasiwedi",
            "kupuhipa",
            "tenimiafina",
            "loyniorð",
            "лозинка",
            "գաղտնաբառ",
            "கடவுச்சொல்",
            "මුරපදය",
            "сырсөз",
            "ລະຫັດຜ່ານ",
            "ពាក្យសម្ងាត់",
            "စကားဝှက်",
            "পাসওয়ার্ড",
            // Written with a space or in scripts the name regex does not read as one word
            // (`Mật khẩu: …`, `Kata sandi: …`): the worded-credential scanner reads them.
            "mật khẩu",
            "mat khau",
            "kata sandi",
            "kata laluan",
            "κωδικός",
            "Κωδικός",
            "كلمة المرور",
            "كلمة السر",
            "رمز عبور",
            "รหัสผ่าน",
            "पासवर्ड",
            "پاس ورڈ",
            "የይለፍ ቃል",
            "нууц үг",
            "құпия сөз",
            "kalmar sirri",
            "focal faire",
            // And the abbreviation with neither (`EQSL_PSWD=`).
            "pswd",
            // And the shortest, only as a word of its own (`?pw=…`, `"pw": {…}`, `DB_PW=`, a
            // personal access token's `SHIPBOB_PAT=`): the regex takes no letter after them
            // (`pwm`, `path`), and the keywords want what a name's end meets, since two
            // letters alone are found inside any base64.
            "pw=",
            "pw\"",
            "pw'",
            "pw:",
            "pw ",
            "pat=",
            "pat\"",
            "pat'",
            "pat:",
            // make's conditional and its kin, spaced or not (`DEPLOY_PAT ?= …`, `PW?=…`).
            "pat ",
            "pat?",
            "pw?",
        ],
        check: Check::Assignment,
        shape: Shape::Assignment,
        lowered: true,
    },
    Builtin {
        name: "heredoc-assignment",
        // A credential's name given a here-document of one line (Terraform's and HCL's `auth =
        // <<-EOT`, a YAML block's `token: |`): that line is the value. The closing line is
        // the tag alone, or the block's end.
        regex: r#"(?P<name>[a-z0-9_.-]*(?:key|token|secret|pass|pwd|cred|auth)[a-z0-9_.-]*)["']?[ \t]*(?:=|:)[ \t]*(?:<<[-~]?[ \t]*["']?[a-z_]+["']?|\|[-+]?)[ \t]*\r?\n[ \t]*(?P<secret>(?-u:[^\s"'`]){8,})[ \t]*(?:\r?\n|$)"#,
        example: "auth = <<-EOT\n  6fe9a2d2-a1d4-4fd8-acc1-04c7b4147f0b\nEOT",
        keywords: &["<<", ": |", ":|"],
        check: Check::Assignment,
        shape: Shape::Any,
        lowered: true,
    },
];
