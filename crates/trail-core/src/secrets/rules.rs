//! The built-in rule table and the checks that decide whether a regex match
//! really is a secret.
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
//!   the lower-cased text instead (`Builtin::lowered`).

use memchr::arch::all::memchr::One;

/// What must hold, beyond the regex, for a match to be redacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// The token format is specific enough on its own. Like every check but
    /// `PrivateKey`, it still refuses placeholders (`${VAR}`, `<token>`,
    /// `xxxx`, `1234567…`) and values public by design or published as demos
    /// ([`public_or_demo`]).
    Exact,
    /// Not a placeholder, and random-looking (digits or mixed case).
    Token,
    /// The body of a PEM/PGP block must contain real key material.
    PrivateKey,
    /// `name = value`: see [`plausible_assignment`]. Applies when a group
    /// named `name…` participates. Otherwise, for `user:password` (`curl
    /// -u`), the password must not be a placeholder, a number or the user
    /// again, which `docker -u 1000:1000` or `-u www-data:www-data` are.
    Assignment,
    /// `scheme://user:password@`: not a placeholder, and not the user again
    /// (`guest:guest`, `postgres:postgres` are the services' defaults).
    UserPassword,
    /// A value that a command-line flag says is a password: the password
    /// bar of [`plausible_assignment`].
    Password,
    /// A signature or session token in a URL's query: long and random.
    Signature,
    /// A header named for a key or token: see [`plausible_header_value`].
    Header,
}

/// A hand-written test, run after the keywords matched and before the regex
/// is compiled, that some match is possible at all. Each is a necessary
/// condition for its rule (a property test checks this), so it can only save
/// work, never miss a secret. Broad keywords such as `token` or `://` are in
/// most agent transcripts, but an assignment of a long value or a URL with a
/// password rarely is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Keywords are enough.
    Any,
    /// One of these occurs with this exact case (keywords are compared
    /// case-insensitively, so `task` opens the gate for `SK…`).
    Literal(&'static [&'static str]),
    /// A name keyword followed by an operator and an 8-byte value.
    Assignment,
    /// `authorization` followed by `:`/`=`, or `bearer` and a space.
    Authorization,
    /// `://` followed, in the same token, by `:` and then `@`.
    UrlCredentials,
    /// `-u`/`--user` or a `--…password…` style flag.
    Cli,
    /// Markup that can hold a value: `</`, `value=` or `name=`.
    Markup,
    /// `==` right after 86 base64 characters.
    Base64Key,
    /// `-H`/`--header` then a header name with `token`, `key`, `secret` or
    /// `api` in it, then `:`. `curl -H 'Authorization: …'` is the usual
    /// header flag, and the authorization rule's.
    HeaderFlag,
}

impl Shape {
    /// `lowered` is `text` in ASCII lower case (same length and offsets).
    pub(crate) fn admits(self, text: &str, lowered: &[u8]) -> bool {
        match self {
            Shape::Any => true,
            Shape::Literal(literals) => literals
                .iter()
                .any(|l| find_all(text.as_bytes(), l.as_bytes()).next().is_some()),
            Shape::Assignment => assignment_shape(lowered),
            Shape::Authorization => authorization_shape(lowered),
            Shape::UrlCredentials => url_credentials_shape(lowered),
            Shape::Cli => cli_shape(lowered),
            Shape::HeaderFlag => header_flag_shape(lowered),
            Shape::Base64Key => find_all(lowered, b"==").any(|at| {
                at >= 86
                    && lowered[at - 86..at]
                        .iter()
                        .all(|&c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/')
            }),
            Shape::Markup => [&b"</"[..], b"value=", b"name="]
                .iter()
                .any(|k| find_all(lowered, k).next().is_some()),
        }
    }
}

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
        // body may use real or JSON-escaped (`\n`) line breaks, and may stop
        // without an END line when a tool printed a truncated key.
        regex: r"-----BEGIN[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----(?:[ \t\r\n]|\\[rn])*(?P<secret>[A-Za-z0-9+/=](?:[A-Za-z0-9+/=:,.]|-{1,4}[A-Za-z0-9+/=:,.]|(?:[ \t\r\n]|\\[rn])+[A-Za-z0-9+/=:,.])*)",
        example: "-----BEGIN RSA PRIVATE KEY-----\nmdVPlW354z9gY69gmsXlO85zSLAAUkNEbCiW69DD48gKSdUkz+Pe/pIlRvnZzM6M\nr8bpf1iIFYqNfMxhM8nAuO77O0+bDq1ld7U07UGWwALKYnWKFonOWsUQO2WUheVC\n4tWFUnqBljMwNjEXLs6zSlyTkFtnx4TbJj8L7P9+X90bX6F2yRQnUJgHWEeEmwUY\nCDT93t2Q\n-----END RSA PRIVATE KEY-----",
        keywords: &["-----begin"],
        check: Check::PrivateKey,
        shape: Shape::Literal(&["-----BEGIN"]),
        lowered: false,
    },
    Builtin {
        name: "putty-private-key",
        // PuTTY's `.ppk`: the private half follows `Private-Lines: N`.
        regex: r"Private-Lines:[ \t]*[0-9]+(?:\r?\n|\\r?\\n)(?P<secret>[A-Za-z0-9+/=](?:[A-Za-z0-9+/=]|\r?\n|\\r?\\n)*)",
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
        name: "jwt",
        regex: r"(?-u:\b)eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]+)?",
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
        // (`sha512-…`) have the same shape and are refused by the check.
        regex: r"(?:^|[^A-Za-z0-9+/-])(?P<secret>[A-Za-z0-9+/]{86}==)",
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
        // with `$`, `<` or `{` is a template and cannot start the token.
        regex: r#"(?-u:\b)(?:proxy-)?authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:[a-z][a-z0-9-]*[ \t]+)?(?P<secret>[a-z0-9._~+/@=-]{8,})|(?-u:\b)bearer[ \t]+(?P<secret2>[a-z0-9._~+/-]{16,}=*)"#,
        example: "Authorization: Basic ZGVwbG95OlRyNDFsLXMzY3IzdC1wNTU=",
        keywords: &["authorization", "bearer"],
        check: Check::Token,
        shape: Shape::Authorization,
        lowered: true,
    },
    Builtin {
        name: "credential-header",
        // `curl -H "Api-Token: …"`: inside a header flag, a header named for a key or token
        // carries one, however short (`Sk94HG7f6KB`).
        regex: r#"(?:-h|--header)[ \t]*=?[ \t]*\\?["']?(?P<name>[a-z0-9_-]*(?:token|key|secret|api)[a-z0-9_-]*):[ \t]*(?P<secret>(?-u:[^\s"'\\$<{])(?-u:[^\s"'\\])*)"#,
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
        // followed by `@` in a path (`localhost:5173/@vite`) out.
        regex: r#"(?-u:\b)[A-Za-z][A-Za-z0-9+.-]*://(?P<user>(?-u:[^:@/?#\s"'<>])*):(?P<secret>(?-u:[^@/?#\s"'<>])+)@"#,
        example: "postgres://app_user:Xq7vR2mT9kLp4wZs@db.internal.example:5432/app",
        keywords: &["://"],
        check: Check::UserPassword,
        shape: Shape::UrlCredentials,
        lowered: false,
    },
    Builtin {
        name: "cli-credentials",
        // `-u user:password` (user may be empty, password may be quoted) or a long flag
        // named for a credential. A user starting with `<` is a template (`<user:password>`).
        regex: r#"(?:(?m:^)|[ \t])(?:-u|--user)(?:[ \t]+|=)\\?["']?(?P<user>(?-u:[^\s:"'$<])*):(?:(?P<q>["'])(?P<secret3>(?-u:[^\s"'$][^\s"']*))["']|(?P<secret>(?-u:[^\s"'$][^\s"']*)))|(?:(?m:^)|[ \t])--(?P<name>[a-z0-9-]*(?:password|passwd|token|secret|api-key|apikey|access-key)[a-z0-9-]*)(?:[ \t]+|=)\\?(?P<q2>["']?)(?P<secret2>(?-u:[^\s"'$-][^\s"']*))"#,
        example: "curl -u deploy:Tr41lS3cr3tPassw0rd https://api.example.com/v1/items",
        keywords: &[
            "-u",
            "password",
            "passwd",
            "token",
            "secret",
            "api-key",
            "apikey",
            "access-key",
        ],
        check: Check::Assignment,
        shape: Shape::Cli,
        lowered: true,
    },
    Builtin {
        name: "cli-password-flag",
        // Short password flags, only for the tools where they mean a password: mysql's
        // attached `-pSECRET` (a detached `-p db` prompts, and `db` is a database), `-p
        // SECRET` of `sshpass`, `mongo*` and the `… login` commands (docker, podman, helm,
        // az, oc, cf), and `redis-cli -a SECRET`. The flag must sit in the same command.
        regex: r#"(?:mysql|mysqldump|mysqladmin|mariadb)(?-u:\b)(?-u:[^\n|;&])*?[ \t]-p(?P<secret>(?-u:[^\s"'$-][^\s"']*))|(?:sshpass|mongo|mongosh|mongodump|mongorestore|login)(?-u:\b)(?-u:[^\n|;&])*?[ \t]-p[ \t]+\\?["']?(?P<secret2>(?-u:[^\s"'$-][^\s"']*))|redis-cli(?-u:\b)(?-u:[^\n|;&])*?[ \t]-a[ \t]+\\?["']?(?P<secret3>(?-u:[^\s"'$-][^\s"']*))"#,
        example: "docker login -u ci -p W8nQ2vX5kL1m registry.example.com",
        keywords: &["mysql", "mariadb", "sshpass", "mongo", "login", "redis-cli"],
        check: Check::Password,
        shape: Shape::Literal(&[" -p", "\t-p", " -a", "\t-a"]),
        lowered: true,
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
        // XML and HTML: an element named for a credential (`<password>…</password>`, with a
        // `value` attribute or text content), or a `name="…password"` attribute with its
        // `value` (in either order) or the element's text.
        regex: r#"<(?P<name>[a-z0-9_.:-]*(?:password|passwd|pwd|secret|token|apikey|api_key|private_key)[a-z0-9_.:-]*)(?:[ \t](?-u:[^>])*?value=["'](?P<secret>(?-u:[^"'\n])+)["']|(?:[ \t](?-u:[^>])*)?>[ \t\r\n]*(?P<secret2>(?-u:[^<\s])(?:(?-u:[^<\n])*(?-u:[^<\s]))?)[ \t\r\n]*</)|name=["'](?P<name2>(?-u:[^"'<>\n])*(?:password|passwd|pwd|secret|token|apikey|api_key)(?-u:[^"'<>\n])*)["'](?:(?-u:[^>])*?[ \t]value=["'](?P<secret3>(?-u:[^"'\n])+)["']|(?-u:[^>])*>[ \t]*(?P<secret4>(?-u:[^<\s])(?:(?-u:[^<\n])*(?-u:[^<\s]))?)[ \t]*<)|value=["'](?P<secret5>(?-u:[^"'\n])+)["'](?-u:[^>])*?[ \t]name=["'](?P<name3>(?-u:[^"'<>\n])*(?:password|passwd|pwd|secret|token|apikey|api_key)(?-u:[^"'<>\n])*)["']"#,
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
        ],
        check: Check::Assignment,
        shape: Shape::Markup,
        lowered: true,
    },
    Builtin {
        name: "url-signature",
        // Signed URLs (S3 and GCS presigned, CloudFront, Azure SAS) carry their signature or
        // session token as a query parameter: whoever holds the URL holds the access.
        regex: r#"[?&](?P<name>x-amz-signature|x-goog-signature|x-amz-security-token|signature|sig)=(?P<secret>(?-u:[^&\s"'#<>\\])+)"#,
        example: "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=7a3f9c1e5b2d8f4a6c0e9b3d7a1f5c2e8b4d6f0a",
        keywords: &["signature=", "sig=", "security-token="],
        check: Check::Signature,
        shape: Shape::Any,
        lowered: true,
    },
    Builtin {
        name: "telegram-bot-token",
        // `<bot id>:AA<35 characters>`, bare or in the Bot API's URL (`/bot<token>/`).
        regex: r#"(?-u:\b)(?:bot)?(?P<secret>[0-9]{5,}:AA[0-9A-Za-z_-]{30,})"#,
        example: "https://api.telegram.org/bot6918273645:AAFq8Lm2Vx9Zt4Rw7Yp3Ns1Dj6Fh0Gc5Bv2/sendMessage",
        keywords: &[":aa"],
        check: Check::Token,
        shape: Shape::Literal(&[":AA"]),
        lowered: false,
    },
    Builtin {
        name: GENERIC_ASSIGNMENT,
        // The name from its keyword on (what precedes it is read back by the check), `[]`,
        // an optional closing quote of a JSON/YAML key, an operator (assignment, comparison,
        // R's `<-`, make's `?=`), then a quoted value (which may hold spaces and symbols;
        // C#'s `@"…"` too) or a bare one up to whitespace or a quote. Without an operator
        // only a quoted token counts: `password 'x';`, and a lookup's default value
        // `getenv("api_token", "…")` (the `)` keeps JSON's `"k","v"` lists out).
        // `plausible_assignment` trims bare values and judges them.
        regex: r#"(?P<name>(?:key|token|secret|pass|pwd|credential|creds|auth)[a-z0-9_.-]*)(?:\[\])?\\?["']?[ \t]*(?:(?P<op>===|!==|[:!=?]=|=>|<-|=|:)[ \t]*@?(?:\\?"(?P<secret>(?-u:[^"\\\n]|\\[^"\n])+)\\?"|\\?'(?P<secret2>(?-u:[^'\\\n]|\\[^'\n])+)\\?'|`(?P<secret3>(?-u:[^`\n])+)`|(?P<secret4>(?-u:[^\s"'`\\,;&|(){}\[\]<>:=])(?-u:[^\s"'`\\])*))|@?\\?"(?P<secret5>(?-u:[^"\\\s])+)\\?"|@?\\?'(?P<secret6>(?-u:[^'\\\s])+)\\?'|,[ \t]*(?:"(?P<secret7>(?-u:[^"\\\s])+)"|'(?P<secret8>(?-u:[^'\\\s])+)')[ \t]*\))"#,
        example: "export DB_PASSWORD=\"hunter2-Correct-Horse-42\"",
        keywords: &[
            "key",
            "token",
            "secret",
            "pass",
            "pwd",
            "credential",
            "creds",
            "auth",
        ],
        check: Check::Assignment,
        shape: Shape::Assignment,
        lowered: true,
    },
];

/// Start offsets of `needle` in `haystack`.
///
/// This uses `memchr`'s portable word-at-a-time search on the first byte,
/// then a comparison. The SIMD entry points detect CPU features on first
/// use, which costs tens of microseconds where `cpuid` traps to a
/// hypervisor: too much for a process that lives one millisecond and, most
/// of the time, needs a single pass over a few kilobytes.
pub(crate) fn find_all<'a>(
    haystack: &'a [u8],
    needle: &'a [u8],
) -> impl Iterator<Item = usize> + 'a {
    let finder = needle.first().map(|&b| One::new(b));
    let mut pos = 0;
    std::iter::from_fn(move || {
        let finder = finder.as_ref()?;
        loop {
            let at = pos + finder.find(haystack.get(pos..)?)?;
            pos = at + 1;
            if haystack[at..].starts_with(needle) {
                return Some(at);
            }
        }
    })
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-'
}

fn is_space_or_quote(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b'"' || b == b'\'' || b == b'`'
}

/// Some operator (`:`, `=`, `!`, `?`, `<`, `,`) or opening quote has, before
/// it, a name containing a name keyword (then an optional `[]`, closing quote
/// and blanks) and, after it, a value of at least 8 bytes: the least that
/// `generic-assignment` (and `aws-secret-access-key`) can accept. A quoted
/// value runs to its closing quote (it may hold spaces), a bare one to
/// whitespace or a quote.
fn assignment_shape(lowered: &[u8]) -> bool {
    const fn table() -> [bool; 256] {
        let mut t = [false; 256];
        let ops = b":=!?<,\"'";
        let mut i = 0;
        while i < ops.len() {
            t[ops[i] as usize] = true;
            i += 1;
        }
        t
    }
    static OPERATORS: [bool; 256] = table();
    lowered.iter().enumerate().any(|(op, &c)| {
        OPERATORS[usize::from(c)] && value_after(lowered, op) && secret_name_before(lowered, op)
    })
}

fn secret_name_before(b: &[u8], op: usize) -> bool {
    const NAMES: &[&[u8]] = &[
        b"key",
        b"token",
        b"secret",
        b"pass",
        b"pwd",
        b"credential",
        b"creds",
        b"auth",
    ];
    let mut end = op;
    // `name @"…"` (C#) puts the `@` between the name and the quote.
    if end > 0 && matches!(b.get(op), Some(b'"' | b'\'')) && b[end - 1] == b'@' {
        end -= 1;
    }
    while end > 0 && matches!(b[end - 1], b' ' | b'\t') {
        end -= 1;
    }
    if end > 0 && matches!(b[end - 1], b'"' | b'\'') {
        end -= 1;
    }
    if end > 0 && b[end - 1] == b'\\' {
        end -= 1;
    }
    if end > 1 && &b[end - 2..end] == b"[]" {
        end -= 2;
    }
    let mut start = end;
    while start > 0 && is_name_byte(b[start - 1]) {
        start -= 1;
    }
    let name = &b[start..end];
    NAMES.iter().any(|k| name.windows(k.len()).any(|w| w == *k))
}

/// At least 8 value bytes after an operator or opening quote at `op`.
fn value_after(b: &[u8], op: usize) -> bool {
    let at = |j: usize| b.get(j).copied().unwrap_or(0);
    let rest = b.get(op..).unwrap_or_default();
    // The longest operator, as the regex's alternation prefers it; a quote
    // at `op` is the value's own.
    let op_len = [
        &b"==="[..],
        b"!==",
        b":=",
        b"!=",
        b"==",
        b"?=",
        b"=>",
        b"<-",
        b"=",
        b":",
        b",",
    ]
    .iter()
    .find(|o| rest.starts_with(o))
    .map_or(0, |o| o.len());
    let mut j = op + op_len;
    while matches!(at(j), b' ' | b'\t') {
        j += 1;
    }
    if at(j) == b'@' {
        j += 1;
    }
    if at(j) == b'\\' {
        j += 1;
    }
    let rest = b.get(j + 1..).unwrap_or_default();
    let comma = b.get(op) == Some(&b',');
    // Counting stops at 8 except where the closing quote must be found, so
    // that a text full of quotes stays linear.
    let cap = if comma { usize::MAX } else { 8 };
    let run = match at(j) {
        q @ (b'"' | b'\'' | b'`') => rest
            .iter()
            .take_while(|&&c| c != q && c != b'\n')
            .take(cap)
            .count(),
        0 => 0,
        _ => {
            1 + rest
                .iter()
                .take_while(|&&c| !is_space_or_quote(c))
                .take(7)
                .count()
        }
    };
    if run >= 8 && comma {
        // `getenv("name", "value")`: the value is quoted and closes the call.
        let after = j + 2 + run;
        let blanks = b
            .get(after..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| matches!(c, b' ' | b'\t'))
            .count();
        return matches!(at(j), b'"' | b'\'') && at(after + blanks) == b')';
    }
    run >= 8
}

fn header_flag_shape(lowered: &[u8]) -> bool {
    let at = |j: usize| lowered.get(j).copied().unwrap_or(0);
    find_all(lowered, b"-h")
        .map(|i| i + 2)
        .chain(find_all(lowered, b"--header").map(|i| i + 8))
        .any(|mut j| {
            while matches!(at(j), b' ' | b'\t' | b'=' | b'\\' | b'"' | b'\'') {
                j += 1;
            }
            let name_len = lowered
                .get(j..)
                .unwrap_or_default()
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
                .count();
            let name = &lowered[j..j + name_len];
            at(j + name_len) == b':'
                && [&b"token"[..], b"key", b"secret", b"api"]
                    .iter()
                    .any(|k| find_all(name, k).next().is_some())
        })
}

fn authorization_shape(lowered: &[u8]) -> bool {
    let header = find_all(lowered, b"authorization").any(|at| {
        let mut j = at + "authorization".len();
        let at = |j: usize| lowered.get(j).copied().unwrap_or(0);
        if at(j) == b'\\' {
            j += 1;
        }
        if matches!(at(j), b'"' | b'\'') {
            j += 1;
        }
        while matches!(at(j), b' ' | b'\t') {
            j += 1;
        }
        matches!(at(j), b':' | b'=')
    });
    header
        || find_all(lowered, b"bearer")
            .any(|at| matches!(lowered.get(at + "bearer".len()), Some(b' ' | b'\t')))
}

fn url_credentials_shape(lowered: &[u8]) -> bool {
    find_all(lowered, b"://").any(|at| {
        let rest = lowered.get(at + 3..).unwrap_or_default();
        let token_len = rest
            .iter()
            .take_while(|&&c| !c.is_ascii_whitespace() && !b"\"'<>".contains(&c))
            .count();
        let token = &rest[..token_len];
        token
            .iter()
            .position(|&c| c == b':')
            .is_some_and(|colon| token[colon..].contains(&b'@'))
    })
}

fn cli_shape(lowered: &[u8]) -> bool {
    let starts_word =
        |at: usize| at == 0 || matches!(lowered[at - 1], b' ' | b'\t' | b'\n' | b'\r');
    let user = find_all(lowered, b"-u").any(|at| {
        let flag_start = if at > 0 && lowered[at - 1] == b'-' {
            at - 1
        } else {
            at
        };
        let after = if lowered[at..].starts_with(b"-user") {
            at + 5
        } else {
            at + 2
        };
        if !starts_word(flag_start) || !matches!(lowered.get(after), Some(b' ' | b'\t' | b'=')) {
            return false;
        }
        // `user:password`: `git push -u origin main` has no colon.
        let rest = &lowered[after..];
        let blanks = rest
            .iter()
            .take_while(|&&c| matches!(c, b' ' | b'\t' | b'='))
            .count();
        let rest = &rest[blanks..];
        let rest = rest.strip_prefix(b"\\").unwrap_or(rest);
        let rest = rest
            .strip_prefix(b"\"")
            .or_else(|| rest.strip_prefix(b"'"))
            .unwrap_or(rest);
        let user_len = rest
            .iter()
            .take_while(|&&c| !c.is_ascii_whitespace() && !b":\"'$".contains(&c))
            .count();
        // The password may be quoted on its own (`kevin:'pRf7…'`).
        let password = rest.get(user_len + 1..).unwrap_or_default();
        let password = password
            .strip_prefix(b"\"")
            .or_else(|| password.strip_prefix(b"'"))
            .unwrap_or(password);
        rest.get(user_len) == Some(&b':')
            && password
                .first()
                .is_some_and(|&c| !c.is_ascii_whitespace() && !b"\"'$".contains(&c))
    });
    user || find_all(lowered, b"--").any(|at| {
        let name_len = lowered[at + 2..]
            .iter()
            .take_while(|&&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
            .count();
        let name = &lowered[at + 2..at + 2 + name_len];
        starts_word(at)
            && matches!(lowered.get(at + 2 + name_len), Some(b' ' | b'\t' | b'='))
            && [
                "password",
                "passwd",
                "token",
                "secret",
                "api-key",
                "apikey",
                "access-key",
            ]
            .iter()
            .any(|k| find_all(name, k.as_bytes()).next().is_some())
    })
}

/// Shannon entropy of `s` in bits per byte.
pub(crate) fn entropy(s: &str) -> f64 {
    let bytes = s.as_bytes();
    if bytes.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in bytes {
        counts[usize::from(b)] += 1;
    }
    let len = bytes.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / len;
            -p * p.log2()
        })
        .sum()
}

/// Template syntax, filler and stock phrases that stand in for a secret.
pub(crate) fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    if v.is_empty() {
        return true;
    }
    let bytes = v.as_bytes();
    let first = bytes[0];
    let last = bytes[bytes.len() - 1];
    // `${VAR}`, `$VAR`, `$env:VAR`, `$(cmd)`, `{{ var }}`, `<token>`,
    // `%VAR%`, `%(x)s`, `@VAR@`, `[REDACTED]`; `${secret:…}` references are
    // among them. `$ecr3t!` is not.
    let variable = |s: &[u8]| {
        s.first()
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
            && s.iter()
                .all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b':')
    };
    if (first == b'$' && (v.starts_with("${") || v.starts_with("$(") || variable(&bytes[1..])))
        || (first == b'{' && last == b'}')
        || (first == b'<' && last == b'>')
        || (first == b'[' && last == b']')
        || (first == b'%' && last == b'%')
        || (v.starts_with("%(") && v.ends_with(")s"))
        || (first == b'@' && last == b'@')
    {
        return true;
    }
    // A single repeated character: `xxxxxxxx`, `********`, `........`.
    if bytes.iter().all(|&b| b == first) {
        return true;
    }
    if is_filler(v) {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    const CONTAINS: &[&str] = &[
        "xxxx",
        "****",
        "....",
        "changeme",
        "change_me",
        "change-me",
        "changeit",
        "placeholder",
        "redacted",
        "your_",
        "your-",
        "yourapi",
        "yourtoken",
        "yoursecret",
        "yourpassword",
        "insert_",
        "replace_me",
        "replace-me",
        "example",
        "dummy",
        // A value that calls itself fake (`somefakesecret`) is a test fixture.
        "fake",
    ];
    if CONTAINS.iter().any(|p| lower.contains(p)) {
        return true;
    }
    const EXACT: &[&str] = &[
        "secret",
        "password",
        "passwd",
        "pass",
        "token",
        "key",
        "apikey",
        "api_key",
        "none",
        "null",
        "nil",
        "undefined",
        "true",
        "false",
        "yes",
        "no",
        "on",
        "off",
        "required",
        "optional",
        "string",
        "str",
        "test",
        "sample",
        "default",
        "empty",
        "hidden",
        "masked",
        "todo",
        "fixme",
        "unset",
    ];
    EXACT.contains(&lower.as_str())
}

fn has_digit(v: &str) -> bool {
    v.bytes().any(|b| b.is_ascii_digit())
}

fn has_mixed_case(v: &str) -> bool {
    v.bytes().any(|b| b.is_ascii_uppercase()) && v.bytes().any(|b| b.is_ascii_lowercase())
}

/// A value that looks like a generated token rather than a word: digits,
/// mixed case, or several kinds of symbol (`m{{h}o)p${e]nob(ody…`).
pub(crate) fn looks_random(v: &str) -> bool {
    has_digit(v) || has_mixed_case(v) || symbol_kinds(v) >= 3
}

fn symbol_kinds(v: &str) -> usize {
    let mut seen = [false; 128];
    for b in v.bytes() {
        if b.is_ascii_punctuation() && !matches!(b, b'_' | b'-' | b'.' | b'/') {
            seen[usize::from(b)] = true;
        }
    }
    seen.iter().filter(|&&s| s).count()
}

/// Filler that stands in for a token: a run of seven characters in
/// alphabet order (`1234567`, `abcdefg`, `ABCDEFG`), or one character making
/// up most of the value (`AIzaaaaaaaaaaaaaa…`, `AKIAZZZZZZZZZZZZZZZZ`). A random
/// token almost never has either; a fixture almost always does.
pub(crate) fn is_filler(v: &str) -> bool {
    let b = v.as_bytes();
    let mut run = 1;
    for w in b.windows(2) {
        if w[1] == w[0].wrapping_add(1)
            && w[1].is_ascii_alphanumeric()
            && w[0].is_ascii_alphanumeric()
        {
            run += 1;
            if run >= 7 {
                return true;
            }
        } else {
            run = 1;
        }
    }
    if b.len() >= 8 {
        let mut counts = [0usize; 256];
        for &c in b {
            counts[usize::from(c)] += 1;
        }
        let most = counts.iter().copied().max().unwrap_or(0);
        if most * 10 >= b.len() * 7 {
            return true;
        }
    }
    false
}

pub(crate) fn is_number(v: &str) -> bool {
    let digits = v.trim_start_matches(['-', '+']);
    let mut seen_digit = false;
    for b in digits.bytes() {
        match b {
            b'0'..=b'9' => seen_digit = true,
            b'.' | b'_' | b'e' | b'E' => {}
            _ => return false,
        }
    }
    // Long digit strings can be real secrets (PINs excepted): card-like
    // numbers and numeric API keys are kept.
    seen_digit && digits.bytes().filter(u8::is_ascii_digit).count() < 16
}

fn looks_like_path(v: &str) -> bool {
    if v.starts_with("./") || v.starts_with("../") || v.starts_with("~/") {
        return true;
    }
    let b = v.as_bytes();
    if b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/')
    {
        return true;
    }
    if v.starts_with('/') {
        // Base64 can start with `/` too; a path has several word-like segments.
        let segments: Vec<&str> = v.split('/').filter(|s| !s.is_empty()).collect();
        return segments.len() >= 2
            && !v.contains(['+', '='])
            && segments.iter().all(|s| {
                s.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"._-@".contains(&c))
            });
    }
    // `secrets/token.txt`: a relative path ending in a short extension.
    if let Some((dir, file)) = v.rsplit_once('/')
        && !dir.is_empty()
        && !v.contains(['+', '='])
        && let Some((stem, ext)) = file.rsplit_once('.')
    {
        return !stem.is_empty()
            && (1..=5).contains(&ext.len())
            && ext.bytes().all(|c| c.is_ascii_alphabetic());
    }
    false
}

fn looks_like_url(v: &str) -> bool {
    match v.find("://") {
        Some(i) if i > 0 => v[..i]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+.-".contains(&b)),
        _ => false,
    }
}

/// `host.example.com`, `me@example.com`: addresses, not secrets.
fn looks_like_address(v: &str) -> bool {
    let host = match v.split_once('@') {
        Some((local, host)) if !local.is_empty() => host,
        Some(_) => return false,
        None => v,
    };
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
        && labels.last().is_some_and(|tld| {
            (2..=24).contains(&tld.len()) && tld.bytes().all(|b| b.is_ascii_lowercase())
        })
}

/// Code that names a secret instead of containing it: `self.token`,
/// `userPassword`, `get_secret`, `GITHUB_TOKEN`. Inside quotes a value is a
/// literal, so only an environment variable name is taken for a reference.
fn looks_like_identifier(v: &str, quoted: bool) -> bool {
    let b = v.as_bytes();
    let Some(&first) = b.first() else {
        return false;
    };
    let lower = v.to_ascii_lowercase();
    let names_secret = [
        "key",
        "token",
        "secret",
        "pass",
        "pwd",
        "credential",
        "auth",
    ]
    .iter()
    .any(|k| lower.contains(k));
    let env_name = v.contains('_')
        && b.iter()
            .all(|&c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_');
    if env_name && names_secret {
        return true;
    }
    if quoted {
        return false;
    }
    let ident_chars = b
        .iter()
        .all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.');
    if !ident_chars || !(first.is_ascii_alphabetic() || first == b'_') || has_digit(v) {
        return false;
    }
    if names_secret {
        return true;
    }
    if v.contains('.') {
        // Member access: `config.db.password`.
        return v.split('.').all(|s| !s.is_empty());
    }
    // camelCase: lower-case start, then capitalised words.
    first.is_ascii_lowercase()
        && b.iter().any(u8::is_ascii_uppercase)
        && !v.contains('_')
        && b.windows(2)
            .all(|w| !(w[0].is_ascii_uppercase() && w[1].is_ascii_uppercase()))
}

/// `oauth2_client_credentials`, `read-write`, `jetbrains.mps.v8_elimination`:
/// lower-case words joined by `_`, `-` or `.`, each starting with a letter.
fn looks_like_words(v: &str) -> bool {
    let parts: Vec<&str> = v.split(['_', '-', '.']).collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            p.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// `jjwt-jackson-0.11.2`, `rc0.13.0_20230412-SNAPSHOT`: an artifact and its
/// version.
fn looks_like_version(v: &str) -> bool {
    let b = v.as_bytes();
    b.windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit())
        && v.split(['-', '_', '.', ':']).all(|p| {
            p.bytes().all(|c| c.is_ascii_digit())
                || p.bytes().all(|c| c.is_ascii_alphabetic())
                || p.len() <= 3
        })
}

/// Code rather than a literal: a call or an index (`foo(hey)you`,
/// `fs.readFileSync('foo',`, `map.get(&id)`, `ENV["X"]`), as detect-secrets
/// reads an indirect reference.
fn looks_like_code(v: &str) -> bool {
    let b = v.as_bytes();
    let head = b
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b':'))
        .count();
    head > 0
        && b[0].is_ascii_alphabetic() | matches!(b[0], b'_' | b'$')
        && matches!(b.get(head), Some(b'(' | b'['))
}

/// `struct_X509_pubkey_st`, `DOC_Vector_5_32`: an identifier made of words
/// and short parts, as opposed to a token with underscores in it.
fn looks_like_snake_identifier(v: &str) -> bool {
    let parts: Vec<&str> = v.split('_').collect();
    parts.len() >= 3
        && v.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        && parts
            .iter()
            .all(|p| p.len() <= 4 || p.bytes().all(|c| c.is_ascii_alphabetic()))
}

/// The last word of a name that says it holds something *about* a
/// credential, not the credential: `kms_key_id`, `LLM_SECRET_NAME`,
/// `key_length`, `private_key_path`, `TokenFile`, `issuerKeyHash`.
const METADATA_WORDS: &[&str] = &[
    "id",
    "ids",
    "name",
    "names",
    "file",
    "files",
    "path",
    "dir",
    "url",
    "uri",
    "type",
    "types",
    "length",
    "len",
    "size",
    "hash",
    "event",
    "count",
    "version",
    "env",
    "var",
    "ref",
    "field",
    "header",
    "prefix",
    "suffix",
    "format",
    "mode",
    "policy",
    "expiry",
    "expires",
    "expiration",
    "ttl",
    "timeout",
    "algorithm",
    "alg",
    "index",
    "pressed",
    "selector",
    "label",
    "location",
    "provider",
    "stdin",
    "source",
    "store",
    "arn",
    "region",
    "hint",
    "help",
    "description",
    "enabled",
    "required",
    "min",
    "max",
    "regex",
    "pattern",
    "schema",
];

/// Names whose credential is public by design or no credential at all:
/// publishable and anonymous keys, public keys, CSRF tokens.
const PUBLIC_NAME_WORDS: &[&str] = &["public", "publishable", "anon", "csrf", "xsrf", "pub"];

/// Words of a name: split at `_`, `-`, `.`, `:`, `$` and lower-to-upper case
/// changes, in lower case.
fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// The name describes a credential or holds one that is public.
pub(crate) fn name_rules_out(name: &str) -> bool {
    let words = name_words(name);
    words
        .last()
        .is_some_and(|w| METADATA_WORDS.contains(&w.as_str()))
        || words
            .iter()
            .any(|w| PUBLIC_NAME_WORDS.contains(&w.as_str()))
        || {
            let lower = name.to_ascii_lowercase();
            lower.contains("csrf") || lower.contains("xsrf") || lower.contains("publishable")
        }
}

fn passwordish(name: &str) -> bool {
    let lname = name.to_ascii_lowercase();
    lname.contains("pass") || lname.contains("pwd")
}

/// How a value was written, as far as judging it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    /// `name = value`.
    Bare,
    /// `name = "value"` and the other operators.
    Quoted,
    /// `name "value"` without an operator, or `("name", "value")`: only a
    /// token-like value counts, never a phrase.
    QuotedLoose,
}

/// The entropy rule: is `value`, assigned to a variable called `name`, a
/// secret?
pub(crate) fn plausible_assignment(name: &str, value: &str, written: Written) -> bool {
    let quoted = written != Written::Bare;
    if is_placeholder(value)
        || is_number(value)
        || looks_like_path(value)
        || looks_like_url(value)
        || looks_like_address(value)
        || looks_like_identifier(value, quoted)
        || looks_like_version(value)
        || name_rules_out(name)
        || default_credentials(value)
    {
        return false;
    }
    if !quoted
        && (looks_like_code(value)
            || looks_like_snake_identifier(value)
            // `process.env.API_KEY!`: TypeScript's non-null assertion.
            || looks_like_identifier(value.trim_end_matches(['!', '?']), false))
    {
        return false;
    }
    // Code that reads the credential from where it is named: `apiKey:
    // this.apiKey`, `X509_pubkey_st = struct_X509_pubkey_st`.
    let bare_name = name.trim_start_matches(['$', '_', '.']);
    if bare_name.len() >= 4
        && value
            .to_ascii_lowercase()
            .contains(&bare_name.to_ascii_lowercase())
    {
        return false;
    }
    if value.contains(char::is_whitespace) {
        return written == Written::Quoted && plausible_passphrase(name, value);
    }
    // A UUID under a credential name (npm `_authToken`, license keys) is a
    // token. Its 16-symbol alphabet puts its entropy around the bar below,
    // which would make the verdict a matter of chance.
    if is_uuid(value) {
        return true;
    }
    let len = value.chars().count();
    let h = entropy(value);
    if passwordish(name) && written != Written::QuotedLoose {
        // Entropy cannot exceed log2(len): short passwords with one repeated
        // character would never reach a flat 3.0 bits.
        len >= 8 && h >= 3.0_f64.min((len as f64).log2() - 0.5)
    } else {
        // Below 16 characters only a value using every class (lower, upper,
        // digit, symbol) reads as generated: `k#9Lq!2Zx7@Wm4`, not
        // `DOC_Vector_5_32`.
        let every_class = has_mixed_case(value) && has_digit(value) && symbol_kinds(value) >= 1;
        (len >= 16 || (len >= 12 && every_class))
            && h >= 3.5
            && looks_random(value)
            && !looks_like_words(value)
    }
}

/// `8-4-4-4-12` hexadecimal digits.
fn is_uuid(v: &str) -> bool {
    let groups: Vec<&str> = v.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A quoted value with spaces is a passphrase (`correct horse battery
/// staple 42!`, `Zq4!mT8p Lx2W&k9`) under a password or secret name, and a
/// sentence or a label otherwise.
fn plausible_passphrase(name: &str, value: &str) -> bool {
    let v = value.trim();
    let spaces = v.bytes().filter(u8::is_ascii_whitespace).count();
    (passwordish(name) || name.to_ascii_lowercase().contains("secret"))
        && (8..=100).contains(&v.len())
        && spaces <= 6
        && !v.ends_with('.')
        && !v.contains(". ")
        && (has_digit(v) || symbol_kinds(v) >= 1)
        && !v.contains('\n')
}

/// A header named for a key or token (`Api-Token: Sk94HG7f6KB`) carries
/// one even when short, unless the name describes it (`X-Api-Version`,
/// `X-Api-Key-Id`) or the value is a number, date, version or word.
pub(crate) fn plausible_header_value(name: &str, value: &str) -> bool {
    value.len() >= 8
        && !name_rules_out(name)
        && !is_placeholder(value)
        && !is_number(value)
        && value.bytes().any(|b| b.is_ascii_alphabetic())
        && looks_random(value)
        && !looks_like_version(value)
        && !looks_like_words(value)
        && !looks_like_url(value)
        && !looks_like_address(value)
        && !looks_like_path(value)
}

/// A password flag's value (`-pS3cretPass42`, `sshpass -p …`).
pub(crate) fn plausible_password(value: &str) -> bool {
    let len = value.chars().count();
    !is_placeholder(value)
        && !is_number(value)
        && len >= 8
        && entropy(value) >= 3.0_f64.min((len as f64).log2() - 0.5)
}

/// The private-key body must hold key material, not a sentence that follows
/// a BEGIN line in documentation: a run of 16 base64 characters (a word is
/// shorter), and any length beyond that (a DSA or EC key, a truncated paste).
pub(crate) fn plausible_key_body(body: &str) -> bool {
    let mut run = 0usize;
    for b in body.bytes() {
        if b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=' {
            run += 1;
            if run >= 16 {
                return !is_placeholder(body.trim());
            }
        } else {
            run = 0;
        }
    }
    false
}

/// A bare value ends where the statement or the next parameter starts:
/// before `&name=` (a query string), `;name=` and `,name=` (connection
/// strings), `&&` and `||`, then trailing `,`, `;` and `.` and unbalanced
/// closing brackets are shed. `Tr0ub4dor&3x` and `N8v!qL2p;Xz` are kept.
pub(crate) fn trim_bare_value(value: &str) -> usize {
    let bytes = value.as_bytes();
    let mut end = bytes.len();
    for (i, &b) in bytes.iter().enumerate() {
        if matches!(b, b'&' | b'|') && bytes.get(i + 1) == Some(&b) {
            end = i;
            break;
        }
        if !matches!(b, b'&' | b';' | b',') {
            continue;
        }
        let name_len = bytes[i + 1..]
            .iter()
            .take_while(|&&c| c.is_ascii_alphanumeric() || b"_.-[] ".contains(&c))
            .count();
        if name_len > 0 && bytes.get(i + 1 + name_len) == Some(&b'=') {
            end = i;
            break;
        }
    }
    loop {
        let v = &bytes[..end];
        let Some(&last) = v.last() else { break };
        let unbalanced = |open: u8, close: u8| {
            last == close
                && v.iter().filter(|&&c| c == close).count()
                    > v.iter().filter(|&&c| c == open).count()
        };
        if matches!(last, b',' | b';' | b'.')
            || unbalanced(b'(', b')')
            || unbalanced(b'[', b']')
            || unbalanced(b'{', b'}')
        {
            end -= 1;
        } else {
            break;
        }
    }
    end
}

/// Decoded base64 (standard or URL alphabet, padding optional), or `None`.
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// Base64 of `user:password` where the password is a placeholder or the
/// user again (`test:test`, `admin:password`): a default, not a secret.
fn default_credentials(value: &str) -> bool {
    let Some(decoded) = base64_decode(value) else {
        return false;
    };
    let Ok(text) = std::str::from_utf8(&decoded) else {
        return false;
    };
    match text.split_once(':') {
        Some((user, pass)) if text.chars().all(|c| !c.is_control()) => {
            pass == user || is_placeholder(pass) || pass.len() < 4
        }
        _ => false,
    }
}

/// Well-known public demo values, each published in documentation as an
/// example: the Telegram Bot API's sample token, Stripe's documented test
/// key.
const DEMO_VALUES: &[&str] = &[
    "110201543:AAHdqTcvCH1vGWJxfSe1ofSAs0K5PALDsaw",
    "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
];

/// A token that is public by design or a published demo, judged on the
/// value and the text around it (`around`, the same line and its
/// neighbours):
/// - publishable payment keys (`pk_live_…`) and Mapbox public tokens (`pk.…`);
/// - Google API keys in a Firebase web config or the Maps JavaScript URL,
///   which Google documents as safe to ship to browsers;
/// - JWTs whose claims say `"role":"anon"` (Supabase's anon key) or carry
///   the jwt.io debugger's sample claims (`"iat":1516239022`);
/// - the demo values above, and base64 `user:password` defaults.
pub(crate) fn public_or_demo(value: &str, around: &str) -> bool {
    if value.starts_with("pk_live_") || value.starts_with("pk_test_") || value.starts_with("pk.") {
        return true;
    }
    if DEMO_VALUES.iter().any(|d| value.contains(d)) {
        return true;
    }
    if value.starts_with("AIza") {
        let lower = around.to_ascii_lowercase();
        if ["firebase", "authdomain", "maps.googleapis.com/maps/api/js"]
            .iter()
            .any(|k| lower.contains(k))
        {
            return true;
        }
    }
    if let Some(claims) = jwt_claims(value) {
        let compact: String = claims.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.contains("\"role\":\"anon\"") || compact.contains("\"iat\":1516239022") {
            return true;
        }
    }
    false
}

/// What precedes a token says it is public or no credential: it is the value
/// of `NEXT_PUBLIC_…`, `publishable_key`, `csrf-token`, or an integrity
/// digest (`sha512-…`).
pub(crate) fn public_context(before: &str) -> bool {
    let b = before.as_bytes();
    let lower_tail = |n: usize| {
        before
            .get(before.len().saturating_sub(n)..)
            .unwrap_or_default()
            .to_ascii_lowercase()
    };
    if ["sha512-", "sha384-", "sha256-"]
        .iter()
        .any(|p| lower_tail(7).ends_with(p))
    {
        return true;
    }
    // The blob of an OpenSSH public key line (`ssh-rsa AAAA… comment`).
    let tail = lower_tail(40);
    let last_word = tail.trim_end().rsplit(' ').next().unwrap_or_default();
    if tail.ends_with(' ')
        && (["ssh-rsa", "ssh-dss", "ssh-ed25519", "ssh-ed448"].contains(&last_word)
            || ["ecdsa-sha2-", "sk-ssh-", "sk-ecdsa-"]
                .iter()
                .any(|p| last_word.starts_with(p)))
    {
        return true;
    }
    // Back over the operator, quotes, blanks and a YAML list marker to the
    // name (`SshPublicKeys:\n- …`).
    let mut end = b.len();
    while end > 0
        && matches!(
            b[end - 1],
            b' ' | b'\t' | b'"' | b'\'' | b'=' | b':' | b'\\' | b'-' | b'\n' | b'\r'
        )
    {
        end -= 1;
    }
    if end == b.len() {
        return false;
    }
    let mut start = end;
    while start > 0
        && (b[start - 1].is_ascii_alphanumeric() || matches!(b[start - 1], b'_' | b'-' | b'.'))
    {
        start -= 1;
    }
    let words = name_words(&before[start..end]);
    words
        .iter()
        .any(|w| PUBLIC_NAME_WORDS.contains(&w.as_str()))
        || ["csrf", "xsrf", "publishable"]
            .iter()
            .any(|k| before[start..end].to_ascii_lowercase().contains(k))
}

/// The decoded claims of a JWT-shaped value (`eyJ….eyJ….…`).
fn jwt_claims(value: &str) -> Option<String> {
    let start = value.find("eyJ")?;
    let mut parts = value[start..].split('.');
    let _header = parts.next()?;
    let claims = parts.next()?;
    let claims: String = claims
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    String::from_utf8(base64_decode(&claims)?).ok()
}
