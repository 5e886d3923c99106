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

use memchr::arch::all::memchr::{One, Three};

/// What must hold, beyond the regex, for a match to be redacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// The token format is specific enough on its own.
    Exact,
    /// Reject template placeholders such as `${VAR}`, `<token>` or `xxxx`.
    NotPlaceholder,
    /// Not a placeholder, and random-looking (digits or mixed case).
    Token,
    /// The body of a PEM/PGP block must contain real key material.
    PrivateKey,
    /// `name = value`: the value must be a single high-entropy token that is
    /// not a placeholder, path, URL, number or identifier. Applies when the
    /// regex's `name` group participates. Otherwise, for `user:password`
    /// (`curl -u`), the password must not be a placeholder, a number or the
    /// user again, which `docker -u 1000:1000` or `-u www-data:www-data` are.
    Assignment,
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
    // Context rules: a secret recognised by what surrounds it rather than by
    // its own shape. They come after the token rules so that a token inside
    // a header or an assignment keeps its more precise name.
    Builtin {
        name: "authorization-header",
        regex: r#"(?-u:\b)(?:proxy-)?authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:(?:bearer|basic|token|bot|apikey)[ \t]+)?(?P<secret>[a-z0-9._~+/-]{8,}=*)|(?-u:\b)bearer[ \t]+(?P<secret2>[a-z0-9._~+/-]{16,}=*)"#,
        example: "Authorization: Basic ZGVwbG95OlRyNDFsLWZha2UtcGFzcw==",
        keywords: &["authorization", "bearer"],
        check: Check::Token,
        shape: Shape::Authorization,
        lowered: true,
    },
    Builtin {
        name: "url-credentials",
        // Only the password between `user:` and `@` is replaced. A raw `/`,
        // `?` or `#` cannot be part of it (RFC 3986), which keeps ports
        // followed by `@` in a path (`localhost:5173/@vite`) out.
        regex: r#"(?-u:\b)[A-Za-z][A-Za-z0-9+.-]*://(?-u:[^:@/?#\s"'<>])*:(?P<secret>(?-u:[^@/?#\s"'<>])+)@"#,
        example: "postgres://app_user:Xq7vR2mT9kLp4wZs@db.internal.example:5432/app",
        keywords: &["://"],
        check: Check::NotPlaceholder,
        shape: Shape::UrlCredentials,
        lowered: false,
    },
    Builtin {
        name: "cli-credentials",
        regex: r#"(?:(?m:^)|[ \t])(?:-u|--user)(?:[ \t]+|=)\\?["']?(?P<user>(?-u:[^\s:"'$])+):(?P<secret>(?-u:[^\s"'$][^\s"']*))|(?:(?m:^)|[ \t])--(?P<name>[a-z0-9-]*(?:password|passwd|token|secret|api-key|apikey|access-key)[a-z0-9-]*)(?:[ \t]+|=)\\?(?P<q>["']?)(?P<secret2>(?-u:[^\s"'$-][^\s"']*))"#,
        example: "curl -u deploy:Tr41lFakePassw0rd https://api.example.com/v1/items",
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
        name: GENERIC_ASSIGNMENT,
        // The name from its keyword on (what precedes it adds nothing to
        // the check and costs compile time), an optional closing quote of a
        // JSON/YAML key, an operator, then a quoted single token or a bare
        // one. A bare value stops at shell and code punctuation, and `=` only
        // ends it (base64 padding); a bare `&` is kept here and cut by
        // `bare_value_len` only where a query parameter (`&name=`) follows.
        regex: r#"(?P<name>(?:key|token|secret|pass|pwd|credential|creds|auth)[a-z0-9_.-]*)\\?["']?[ \t]*(?:[:!=]=|=>|=|:)[ \t]*(?:(?P<q>\\?["'`])(?P<secret>(?-u:[^\s"'`\\]|\\[^\s"'`])+)\\?["'`]|(?P<secret2>(?-u:[^\s"'`\\,;&|(){}\[\]<>:=][^\s"'`\\,;|(){}\[\]<>=]*)=*))"#,
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

/// Some operator (`:`, `=`, `!`) has, before it, a name containing a name
/// keyword (then an optional closing quote and blanks) and, after it, at
/// least 8 bytes of value: the least that `generic-assignment` (and
/// `aws-secret-access-key`) can accept. Operators are rarer than the letters
/// keywords start with, so the search starts from them.
fn assignment_shape(lowered: &[u8]) -> bool {
    let operators = Three::new(b':', b'=', b'!');
    let mut pos = 0;
    while let Some(found) = lowered.get(pos..).and_then(|rest| operators.find(rest)) {
        let op = pos + found;
        if value_after(lowered, op + 1) && secret_name_before(lowered, op) {
            return true;
        }
        pos = op + 1;
    }
    false
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
    while end > 0 && matches!(b[end - 1], b' ' | b'\t') {
        end -= 1;
    }
    if end > 0 && matches!(b[end - 1], b'"' | b'\'') {
        end -= 1;
    }
    if end > 0 && b[end - 1] == b'\\' {
        end -= 1;
    }
    let mut start = end;
    while start > 0 && is_name_byte(b[start - 1]) {
        start -= 1;
    }
    let name = &b[start..end];
    NAMES.iter().any(|k| name.windows(k.len()).any(|w| w == *k))
}

/// At least 8 value bytes after an operator that starts at `j - 1`.
fn value_after(b: &[u8], mut j: usize) -> bool {
    let at = |j: usize| b.get(j).copied().unwrap_or(0);
    // The rest of `:=`, `==`, `!=`, `=>`: no value starts with these.
    while matches!(at(j), b'=' | b'>') {
        j += 1;
    }
    while matches!(at(j), b' ' | b'\t') {
        j += 1;
    }
    if at(j) == b'\\' {
        j += 1;
    }
    if matches!(at(j), b'"' | b'\'' | b'`') {
        j += 1;
    }
    let run = b
        .get(j..)
        .unwrap_or_default()
        .iter()
        .take_while(|&&c| !is_space_or_quote(c))
        .take(8)
        .count();
    run >= 8
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
        rest.get(user_len) == Some(&b':')
            && rest
                .get(user_len + 1)
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

/// A value that looks like a generated token rather than a word.
pub(crate) fn looks_random(v: &str) -> bool {
    has_digit(v) || has_mixed_case(v)
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

/// `oauth2_client_credentials`, `read-write`: lower-case words joined by
/// `_` or `-`, each starting with a letter.
fn looks_like_words(v: &str) -> bool {
    let parts: Vec<&str> = v.split(['_', '-']).collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            p.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// The entropy rule: is `value`, assigned to a variable called `name`, a
/// secret?
pub(crate) fn plausible_assignment(name: &str, value: &str, quoted: bool) -> bool {
    if value.contains(char::is_whitespace)
        || is_placeholder(value)
        || is_number(value)
        || looks_like_path(value)
        || looks_like_url(value)
        || looks_like_address(value)
        || looks_like_identifier(value, quoted)
    {
        return false;
    }
    let lname = name.to_ascii_lowercase();
    let passwordish = lname.contains("pass") || lname.contains("pwd");
    let len = value.chars().count();
    let h = entropy(value);
    if passwordish {
        // Entropy cannot exceed log2(len): short passwords with one repeated
        // character would never reach a flat 3.0 bits.
        len >= 8 && h >= 3.0_f64.min((len as f64).log2() - 0.5)
    } else {
        len >= 16 && h >= 3.5 && looks_random(value) && !looks_like_words(value)
    }
}

/// The private-key body must hold real key material, not a sentence that
/// happens to follow a BEGIN line in documentation.
pub(crate) fn plausible_key_body(body: &str) -> bool {
    let mut run = 0usize;
    for b in body.bytes() {
        if b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=' {
            run += 1;
            if run >= 40 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Length of a bare assignment value up to a query-string separator:
/// `abc&grant_type=x` ends before `&grant_type=`, `Tr0ub4dor&3x` is kept.
pub(crate) fn bare_value_len(value: &str) -> usize {
    let bytes = value.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'&' {
            continue;
        }
        let name_len = bytes[i + 1..]
            .iter()
            .take_while(|&&c| c.is_ascii_alphanumeric() || b"_.-[]".contains(&c))
            .count();
        if name_len > 0 && bytes.get(i + 1 + name_len) == Some(&b'=') {
            return i;
        }
    }
    value.len()
}
