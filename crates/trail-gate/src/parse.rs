//! From a command line to the simple commands it would run.
//!
//! The command is parsed with a real shell parser (shuck) and flattened through `;` `&&` `||`
//! `|` `&`, newlines, subshells, brace groups, `if`/`while`/`for`/`case` bodies, function bodies,
//! `$(…)`, backticks, process substitution and heredocs. What cannot be seen through — a command
//! name that is not static text, `${IFS}`, a construct the walker does not know — is recorded as
//! opaque, which the gate treats as a junction: unknown is risky, not safe.

use shuck_ast::{
    AssignmentValue, Command, CompoundCommand, DeclOperand, HeredocBodyPart, RedirectKind,
    RedirectTarget, Stmt, StmtSeq, Word, WordPart, WordPartNode,
};
use shuck_parser::parser::{Parser, ShellDialect, ShellProfile};

pub use trail_zones::command::{Arg, Write};

/// A simple command: what would actually be executed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Simple {
    pub argv: Vec<Arg>,
    /// Output redirections (`>`, `>>`, `>|`, `&>`).
    pub writes: Vec<Write>,
    /// The body of a heredoc or here-string fed to this command on stdin (`None` inside when it
    /// is not static text).
    pub heredoc: Option<String>,
    /// A here-string whose text is only known when the shell runs (`bash <<<"$CMD"`).
    pub dynamic_stdin: bool,
    /// Files redirected into its stdin (`psql db < drop.sql`, `sh < script`).
    pub reads: Vec<String>,
    /// `NAME=value` before the command (or the operands of `export`/`declare`/`local`).
    pub assigns: Vec<(String, Arg)>,
    /// Index (in the flat list) of the commands whose output is piped into this one.
    pub piped_from: Vec<usize>,
}

impl Simple {
    /// The command's name (basename of `argv[0]`) when static.
    pub fn name(&self) -> Option<&str> {
        let t = self.argv.first()?.text.as_deref()?;
        Some(t.rsplit('/').next().unwrap_or(t))
    }

    /// The words after the name: empty for a command with none (an assignment or a
    /// redirection alone), which readers must not index past.
    pub fn args(&self) -> &[Arg] {
        self.argv.get(1..).unwrap_or_default()
    }
}

/// Everything a command line would run, plus what could not be seen through.
#[derive(Clone, Debug, Default)]
pub struct Flat {
    pub commands: Vec<Simple>,
    /// Reasons the command cannot be fully verified.
    pub opaque: Vec<String>,
    /// Functions whose body calls the function itself (the shape of a fork bomb).
    pub recursive_functions: Vec<String>,
}

/// Parse limits: deep nesting or huge inputs are themselves suspicious.
const MAX_DEPTH: usize = 64;
const MAX_FUEL: usize = 200_000;

/// Flatten a command line. `Err` carries the parser's message (the command is then unverifiable).
pub fn flatten(src: &str) -> Result<Flat, String> {
    let cleaned;
    let src = if !src.is_ascii() && src.contains('`') {
        cleaned = ascii_in_backticks(src);
        cleaned.as_str()
    } else {
        src
    };
    let profile = ShellProfile::native(ShellDialect::Bash);
    let result = Parser::with_limits_and_profile(src, MAX_DEPTH, MAX_FUEL, profile).parse();
    if !result.is_ok() {
        let msg = result
            .terminal_error
            .as_ref()
            .map(std::string::ToString::to_string)
            .or_else(|| result.diagnostics.first().map(|d| format!("{d:?}")))
            .unwrap_or_else(|| "the shell parser could not read it".into());
        return Err(msg);
    }
    let mut w = Walker {
        src,
        flat: Flat::default(),
        arrays: Vec::new(),
        functions: Vec::new(),
        calling: Vec::new(),
        read_lines: None,
        fd_paths: Vec::new(),
        namerefs: Vec::new(),
        array_keys: Vec::new(),
        bound: Vec::new(),
        scalars: Vec::new(),
        hashed: Vec::new(),
    };
    w.seq(&result.file.body);
    Ok(w.flat)
}

/// `src` with every character outside ASCII inside backquotes written as as many `x` as it
/// has bytes. The shell parser (shuck-parser 0.2.8, the latest) slices a backquoted
/// substitution's text at an offset counted wrongly after an escape, which can fall inside
/// such a character and panic (`"\"`¡`"`, found by the fed-text property test); with one
/// byte per character its offsets are right. A name inside backquotes keeps its shape, a
/// word of letters, and every other byte and offset stays where it was.
fn ascii_in_backticks(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let (mut inside, mut escaped) = (false, false);
    for c in src.chars() {
        if inside && !c.is_ascii() {
            out.extend(std::iter::repeat_n('x', c.len_utf8()));
        } else {
            out.push(c);
        }
        if c == '`' && !escaped {
            inside = !inside;
        }
        escaped = c == '\\' && !escaped;
    }
    out
}

/// The most values one loop is unrolled for, and the most commands a line may flatten to by
/// unrolling loops and calls: beyond them the body is walked once, its variable unknown (a
/// junction at least, as before).
const MAX_UNROLL_VALUES: usize = 16;
const MAX_UNROLLED_COMMANDS: usize = 2_000;

struct Walker<'s, 'a> {
    src: &'s str,
    flat: Flat,
    /// `NAME=(a b c)` with static elements, in the order the line sets them.
    arrays: Vec<(String, Vec<Arg>)>,
    /// Functions the line defines, by name.
    functions: Vec<(String, &'a Stmt)>,
    /// The functions being walked for a call (no recursion).
    calling: Vec<String>,
    /// The lines fed on stdin to the `while read NAME` loop walked next (a here-document, or
    /// what a pipe's static printer prints).
    read_lines: Option<Vec<String>>,
    /// Descriptors `exec N<PATH` opened for the rest of the line: `/proc/self/fd/N` is PATH.
    fd_paths: Vec<(i32, Arg)>,
    /// Name references (`declare -n ref=TARGET`): an assignment to `ref` sets `TARGET`.
    namerefs: Vec<(String, String)>,
    /// The keys of the arrays in `arrays`, in the same order (`[a]=…`, or `0`, `1`, …).
    array_keys: Vec<(String, Vec<String>)>,
    /// The value a `for` loop's variable holds in the pass being walked.
    bound: Vec<(String, String)>,
    /// Variables set to static text on this line (`L=/a,/b`), and `IFS` among them: an
    /// unquoted `$L` a loop walks is split as the shell splits it.
    scalars: Vec<(String, String)>,
    /// Programs `hash -p PATH NAME` named for the rest of the line.
    hashed: Vec<(String, String)>,
}

impl<'a> Walker<'_, 'a> {
    fn opaque(&mut self, why: impl Into<String>) {
        self.flat.opaque.push(why.into());
    }

    fn seq(&mut self, s: &'a StmtSeq) {
        for st in &s.stmts {
            self.stmt(st);
        }
    }

    fn stmt(&mut self, st: &'a Stmt) {
        let first = self.flat.commands.len();
        // A `while read` loop fed its lines by a here-document or a here-string of its own,
        // or by the pipe in front of it (`Binary`): each line is a value of its variable.
        let piped_lines = self.read_lines.take();
        if matches!(&st.command, Command::Compound(CompoundCommand::While(_))) {
            self.read_lines = self.fed_here(st).or(piped_lines);
        }
        self.command(&st.command);
        self.read_lines = None;
        // Redirections on the statement apply to the command it ran (a simple one).
        let target = (self.flat.commands.len() > first).then(|| self.flat.commands.len() - 1);
        for r in &st.redirects {
            match &r.target {
                RedirectTarget::Word(w) => {
                    let before = self.flat.commands.len();
                    self.word(w);
                    // `>& FILE` (not `>&2`) writes FILE, as `&>` does.
                    let dup_to_file = matches!(r.kind, RedirectKind::DupOutput)
                        && !w
                            .render(self.src)
                            .chars()
                            .all(|c| c.is_ascii_digit() || c == '-');
                    let writes = dup_to_file
                        || matches!(
                            r.kind,
                            RedirectKind::Output
                                | RedirectKind::Clobber
                                | RedirectKind::Append
                                | RedirectKind::OutputBoth
                                | RedirectKind::ReadWrite
                        );
                    let Some(i) = target else { continue };
                    if writes {
                        self.flat.commands[i].writes.push(Write {
                            target: w.render(self.src),
                            append: matches!(r.kind, RedirectKind::Append),
                        });
                    }
                    match r.kind {
                        RedirectKind::HereString => {
                            let a = self.arg(w);
                            let from = self.flat.commands.len();
                            let c = &mut self.flat.commands[i];
                            match a.text {
                                Some(t) => c.heredoc = Some(t),
                                None => c.dynamic_stdin = true,
                            }
                            // What a substitution in it prints is fed on stdin (`bash <<<
                            // "$(curl …)"`), as a pipe's is.
                            c.piped_from.extend(before..from);
                        }
                        RedirectKind::Input | RedirectKind::ReadWrite => {
                            let t = w.render(self.src);
                            self.flat.commands[i].reads.push(t);
                            // `bash < <(curl …)`: what the process substitution prints is fed
                            // on stdin, as a pipe's is.
                            if matches!(r.kind, RedirectKind::Input) && reads_substituted(w) {
                                let from = self.flat.commands.len();
                                self.flat.commands[i].piped_from.extend(before..from);
                            }
                            // `prog < <(printf '…')`: what is printed is fed on stdin, as a
                            // here-document is (found by the forty-second sealed part).
                            if matches!(r.kind, RedirectKind::Input)
                                && reads_substituted(w)
                                && let [printer] = &self.flat.commands[before..]
                                && let Some(lines) = super::feed::printed(printer)
                            {
                                self.flat.commands[i].heredoc = Some(lines.join("\n"));
                            }
                        }
                        _ => {}
                    }
                }
                RedirectTarget::Heredoc(h) => {
                    for part in &h.body.parts {
                        match &part.kind {
                            HeredocBodyPart::CommandSubstitution { body, .. } => self.seq(body),
                            HeredocBodyPart::ArithmeticExpansion {
                                expression_word_ast,
                                ..
                            } => self.word(expression_word_ast),
                            _ => {}
                        }
                    }
                    if let Some(i) = target {
                        self.flat.commands[i].heredoc = Some(h.body.render(self.src));
                    }
                }
            }
        }
        // `mapfile -t NAME < <(printf …)`, `readarray NAME <<'EOF'`: the lines read are the
        // array's elements, as `NAME=(…)` would set them.
        if let Some(i) = target {
            self.array_read(i);
        }
        self.descriptors(st, first);
    }

    fn command(&mut self, c: &'a Command) {
        match c {
            Command::Simple(sc) => self.simple(sc),
            Command::Builtin(_) => {} // break, continue, return, exit
            Command::Decl(d) => self.declaration(d),
            Command::Binary(b) => {
                let left_start = self.flat.commands.len();
                self.stmt(&b.left);
                let left_end = self.flat.commands.len();
                let piped = matches!(
                    b.op,
                    shuck_ast::BinaryOp::Pipe | shuck_ast::BinaryOp::PipeAll
                );
                // (`printf '%s\n' /a /b | while read d; do …; done`: the printed lines.)
                if piped {
                    let left: Vec<&Simple> =
                        self.flat.commands[left_start..left_end].iter().collect();
                    self.read_lines = match left.as_slice() {
                        [printer] => super::feed::printed(printer).or_else(|| listed(printer)),
                        // (`printf '/a,/b\n' | tr ',' '\n' | while read d`: through the filters.)
                        _ => super::feed::piped_lines(&left),
                    };
                }
                self.stmt(&b.right);
                if piped && left_end < self.flat.commands.len() {
                    self.flat.commands[left_end]
                        .piped_from
                        .extend(left_start..left_end);
                }
            }
            Command::Compound(cc) => self.compound(cc),
            Command::Function(f) => {
                // A definition runs nothing by itself, but what it defines may run later in the
                // same line: judge its body as if it ran (and again at each call, with its
                // arguments: `Walker::call`).
                for entry in &f.header.entries {
                    if let Some(name) = entry.word.try_static_text(self.src) {
                        self.functions.push((name.into_owned(), &f.body));
                    }
                }
                let first = self.flat.commands.len();
                self.stmt(&f.body);
                for entry in &f.header.entries {
                    if let Some(name) = entry.word.try_static_text(self.src)
                        && self.flat.commands[first..]
                            .iter()
                            .any(|c| c.argv.first().and_then(|a| a.text.as_deref()) == Some(&*name))
                    {
                        self.flat.recursive_functions.push(name.into_owned());
                    }
                }
            }
            Command::AnonymousFunction(_) => self.opaque("an anonymous function"),
        }
    }

    /// `export X=v`, `declare -x`, `local -n ref=X` and the like: the assignments they make,
    /// the names they export, and the name references they set up.
    fn declaration(&mut self, d: &'a shuck_ast::DeclClause) {
        for a in &d.assignments {
            self.assignment_value(&a.value);
        }
        // `export X=v` sets what later commands of the line see: kept as assignments
        // of a command named after the builtin.
        let mut assigns = Vec::new();
        // Names exported without a value (`export NAME`): the value set before is.
        let mut names = Vec::new();
        let mut exports = false;
        let mut references = false;
        for op in &d.operands {
            match op {
                DeclOperand::Flag(w) => {
                    // (`declare -x`, `typeset -gx`, `local -x`: exported, as by
                    // `export`; `-n`: a name reference.)
                    let flag = self
                        .arg(w)
                        .text
                        .filter(|t| t.starts_with('-') && !t.starts_with("--"));
                    exports |= flag.as_deref().is_some_and(|t| t.contains('x'));
                    references |= flag.as_deref().is_some_and(|t| t.contains('n'));
                    self.word(w);
                }
                DeclOperand::Dynamic(w) => {
                    self.word(w);
                    for (target, value) in self.dynamic_assignment(w) {
                        assigns.push((self.referred(target), value));
                    }
                }
                DeclOperand::Assignment(a) => {
                    self.assignment_value(&a.value);
                    // (`declare -A t=([a]=/x)`, `local -a t=(…)`: the array, for later.)
                    if let AssignmentValue::Compound(array) = &a.value {
                        self.remember_array(a.target.name.as_str(), array);
                    }
                    if let AssignmentValue::Scalar(w) = &a.value {
                        let target = a.target.name.as_str().to_string();
                        let value = self.arg(w);
                        match value.text.clone().filter(|_| references) {
                            Some(referred) => self.namerefs.push((target, referred)),
                            None => assigns.push((self.referred(target), value)),
                        }
                    }
                }
                DeclOperand::Name(n) => {
                    names.push(self.referred(n.name.as_str().to_string()));
                }
            }
        }
        let name = if exports && matches!(d.variant.as_str(), "declare" | "typeset" | "local") {
            "export".to_string()
        } else {
            d.variant.as_str().to_string()
        };
        let exported_names = if name == "export" { names } else { Vec::new() };
        let mut argv = vec![Arg {
            text: Some(name.clone()),
            raw: name,
            quoted: false,
        }];
        argv.extend(exported_names.into_iter().map(|n| Arg {
            text: Some(n.clone()),
            raw: n,
            quoted: false,
        }));
        self.flat.commands.push(Simple {
            argv,
            assigns,
            ..Simple::default()
        });
    }

    /// A simple command: its words (arrays and braces expanded), its assignments, and a call
    /// of a function the line defined walked again with its arguments.
    fn simple(&mut self, sc: &'a shuck_ast::SimpleCommand) {
        let mut assigns = Vec::new();
        for a in &sc.assignments {
            self.assignment_value(&a.value);
            if let AssignmentValue::Scalar(w) = &a.value {
                let target = self.referred(a.target.name.as_str().to_string());
                let value = self.arg(w);
                if let Some(text) = &value.text {
                    self.scalars.push((target.clone(), text.clone()));
                }
                assigns.push((target, value));
            }
        }
        self.defaults_assigned(sc);
        let mut words: Vec<&Word> = Vec::with_capacity(sc.args.len() + 1);
        let name_empty = sc.name.parts.is_empty()
            || sc
                .name
                .try_static_text(self.src)
                .is_some_and(|t| t.is_empty());
        if !name_empty {
            words.push(&sc.name);
        }
        words.extend(sc.args.iter());
        // What a `<(printf …)` or `<(echo …)` prints is a file the program reads, written on
        // the line as a here-document is: it is fed to the program as one.
        // Whatever else it prints reaches the program as a pipe's output does (`ola_trigger
        // <(curl …)` reads what was fetched, as `curl … | ola_trigger` would); so does what a
        // command substitution in a word prints.
        let mut fed: Vec<String> = Vec::new();
        let mut substituted: Vec<usize> = Vec::new();
        for w in &words {
            let before = self.flat.commands.len();
            self.word(w);
            if !reads_substituted(w) {
                // A command substitution's output is the program's argument (`acme run
                // "$(curl …)"`): what it printed reaches the program all the same.
                substituted.extend(before..self.flat.commands.len());
                continue;
            }
            if let [printer] = &self.flat.commands[before..]
                && let Some(lines) = super::feed::printed(printer)
            {
                fed.push(lines.join("\n"));
            } else {
                substituted.extend(before..self.flat.commands.len());
            }
        }
        // Assignments or redirections only: an empty command still carries its
        // redirections (`> /etc/hosts` writes), so it is kept.
        let mut argv = Vec::with_capacity(words.len());
        for w in &words {
            self.expanded(w, &mut argv);
        }
        for a in &sc.assignments {
            if let AssignmentValue::Compound(array) = &a.value {
                self.remember_array(a.target.name.as_str(), array);
            }
        }
        // Only a call of a function this line defined is walked again: nothing is copied for
        // the others (every command of every line comes through here).
        let call = argv
            .first()
            .and_then(|a| a.text.as_deref())
            .and_then(|name| self.functions.iter().rev().find(|(n, _)| n == name))
            .map(|(n, body)| (n.clone(), *body, argv[1..].to_vec()));
        let positional = positional_set(&argv);
        self.hashed_programs(&mut argv);
        self.flat.commands.push(Simple {
            argv,
            assigns,
            heredoc: (!fed.is_empty()).then(|| fed.join("\n")),
            piped_from: substituted,
            ..Simple::default()
        });
        if let Some(params) = positional {
            self.positional(params);
        }
        if let Some((name, body, args)) = call {
            self.call(name, body, args);
        }
    }

    /// `hash -p PATH NAME` tells the shell that `NAME` is the program at `PATH`: the commands
    /// after it named so run that program (`hash -p /bin/rm sort; … | sort -rf /x`).
    fn hashed_programs(&mut self, argv: &mut [Arg]) {
        // (Every command comes here: nothing is copied unless it is `hash -p`.)
        if let [hash, p, path, name] = argv
            && hash.text.as_deref() == Some("hash")
            && p.text.as_deref() == Some("-p")
            && let (Some(path), Some(name)) = (path.text.as_deref(), name.text.as_deref())
        {
            self.hashed.push((name.to_string(), path.to_string()));
            return;
        }
        if self.hashed.is_empty() {
            return;
        }
        if let Some(first) = argv.first_mut()
            && let Some((_, path)) = self
                .hashed
                .iter()
                .rev()
                .find(|(n, _)| Some(n.as_str()) == first.text.as_deref())
        {
            *first = static_arg(path);
        }
    }

    /// The variable an assignment to `name` sets: the one a name reference points at.
    fn referred(&self, name: String) -> String {
        match self.namerefs.iter().rev().find(|(r, _)| *r == name) {
            Some((_, target)) => target.clone(),
            None => name,
        }
    }

    /// `${NAME:=VALUE}` and `${NAME=VALUE}` in a command's words set `NAME` when it is unset
    /// (`: "${CACHE_DIR:=/sbin}"`): an assignment before the command, for what comes after.
    /// Not for the variables the gate knows from the environment, which are set.
    fn defaults_assigned(&mut self, sc: &shuck_ast::SimpleCommand) {
        let text = sc.span.slice(self.src);
        if !text.contains('=') || !text.contains("${") {
            return;
        }
        let mut assigns = Vec::new();
        let mut rest = text;
        while let Some(i) = rest.find("${") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find('}') else { break };
            let inner = &rest[..end];
            let name_end = inner
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(inner.len());
            let (name, op) = inner.split_at(name_end);
            let value = op.strip_prefix(":=").or_else(|| op.strip_prefix('='));
            if let Some(value) = value.filter(|v| !v.contains(['$', '`', '{', '"', '\'']))
                && !name.is_empty()
                && !matches!(name, "HOME" | "PWD" | "TMPDIR" | "PATH" | "USER" | "SHELL")
            {
                assigns.push((self.referred(name.to_string()), static_arg(value)));
            }
        }
        if !assigns.is_empty() {
            self.flat.commands.push(Simple {
                assigns,
                ..Simple::default()
            });
        }
    }

    /// `set -- a b c`: the positional parameters for the rest of the line, as `$1`, `$2`, …
    /// and as the list `"$@"` and a bare `for NAME;` loop over.
    fn positional(&mut self, params: Vec<Arg>) {
        let assigns: Vec<(String, Arg)> = params
            .iter()
            .enumerate()
            .map(|(i, a)| ((i + 1).to_string(), a.clone()))
            .collect();
        if !assigns.is_empty() {
            self.flat.commands.push(Simple {
                assigns,
                ..Simple::default()
            });
        }
        self.arrays.retain(|(n, _)| n != "@");
        self.arrays.push(("@".into(), params));
    }

    fn compound(&mut self, cc: &'a CompoundCommand) {
        match cc {
            CompoundCommand::If(i) => {
                self.seq(&i.condition);
                self.seq(&i.then_branch);
                for (c, b) in &i.elif_branches {
                    self.seq(c);
                    self.seq(b);
                }
                if let Some(e) = &i.else_branch {
                    self.seq(e);
                }
            }
            CompoundCommand::For(f) => {
                for w in f.words.iter().flatten() {
                    self.word(w);
                }
                self.for_loop(f);
            }
            CompoundCommand::While(w) => {
                let lines = self.read_lines.take();
                self.seq(&w.condition);
                match (self.read_name(&w.condition), lines) {
                    (Some((names, delimiter, ifs)), Some(lines)) => {
                        // (`read -d, d`: each comma-separated value is a pass.)
                        let lines = match delimiter {
                            Some(d) if !matches!(d, '\n' | '\0') => {
                                lines.join("\n").split(d).map(str::to_string).collect()
                            }
                            _ => lines,
                        };
                        self.unroll(&names, ifs.as_deref(), lines, &w.body);
                    }
                    _ => self.seq(&w.body),
                }
            }
            CompoundCommand::Until(u) => {
                self.seq(&u.condition);
                self.seq(&u.body);
            }
            CompoundCommand::Case(c) => {
                self.word(&c.word);
                for item in &c.cases {
                    self.seq(&item.body);
                }
            }
            CompoundCommand::Select(s) => {
                for w in &s.words {
                    self.word(w);
                }
                self.seq(&s.body);
            }
            CompoundCommand::Subshell(s) | CompoundCommand::BraceGroup(s) => self.seq(s),
            CompoundCommand::Time(t) => {
                if let Some(c) = &t.command {
                    self.stmt(c);
                }
            }
            CompoundCommand::Coproc(c) => self.stmt(&c.body),
            // `for ((i = 0; i < 96; i++))`, zsh's `repeat N` and `foreach`: the body runs, as
            // many times as it may.
            CompoundCommand::ArithmeticFor(f) => self.counted_loop(f),
            CompoundCommand::Repeat(r) => {
                self.word(&r.count);
                self.seq(&r.body);
            }
            CompoundCommand::Foreach(f) => {
                for w in &f.words {
                    self.word(w);
                }
                self.seq(&f.body);
            }
            CompoundCommand::Always(a) => {
                self.seq(&a.body);
                self.seq(&a.always_body);
            }
            // `(( ))` and `[[ ]]` run no commands of their own; substitutions inside them
            // would, and this walker does not descend there: say so.
            CompoundCommand::Arithmetic(_) | CompoundCommand::Conditional(_) => {
                let text = &self.src;
                if text.contains("$(") || text.contains('`') {
                    self.opaque("a command substitution inside (( )) or [[ ]]");
                }
            }
        }
    }

    /// A C-style loop over an array this line set, by index (`for ((i=0; i<${#ds[@]}; i++))`):
    /// its body walked once per index, `NAME` bound to it, so `"${ds[$i]}"` is each element.
    /// Any other counted loop walks its body once.
    fn counted_loop(&mut self, f: &'a shuck_ast::ArithmeticForCommand) {
        let text = |s: Option<shuck_ast::Span>| {
            s.map(|s| {
                s.slice(self.src)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<String>()
            })
        };
        let (Some(init), Some(cond), Some(step)) =
            (text(f.init_span), text(f.condition_span), text(f.step_span))
        else {
            self.seq(&f.body);
            return;
        };
        let bounded = init.split_once('=').and_then(|(name, start)| {
            let array = cond
                .strip_prefix(&format!("{name}<${{#"))?
                .strip_suffix("[@]}")?;
            let steps = matches!(step.as_str(), s if s == format!("{name}++") || s == format!("++{name}") || s == format!("{name}+=1"));
            (start == "0" && steps).then(|| (name.to_string(), array.to_string()))
        });
        let Some((name, array)) = bounded else {
            self.seq(&f.body);
            return;
        };
        let len = self
            .arrays
            .iter()
            .rev()
            .find(|(n, _)| *n == array)
            .map_or(0, |(_, e)| e.len());
        if len == 0 || len > MAX_UNROLL_VALUES || self.flat.commands.len() >= MAX_UNROLLED_COMMANDS
        {
            self.seq(&f.body);
            return;
        }
        for i in 0..len {
            let index = i.to_string();
            self.flat.commands.push(Simple {
                assigns: vec![(name.clone(), static_arg(&index))],
                ..Simple::default()
            });
            self.bound.push((name.clone(), index));
            self.seq(&f.body);
            self.bound.pop();
        }
    }

    /// A `for NAME in WORDS` loop over static words (arrays and braces expanded), run once per
    /// value as the shell would: `NAME=value` before each pass of the body, so what the body
    /// does with `$NAME` is judged for every value (`for d in ~ /etc; do rm -rf "$d"; done`).
    /// Other loops walk the body once, the variable unknown.
    fn for_loop(&mut self, f: &'a shuck_ast::ForCommand) {
        let name = match f.targets.as_slice() {
            [t] => t.name.as_ref().map(|n| n.as_str().to_string()),
            _ => None,
        };
        let mut values = Vec::new();
        for w in f.words.iter().flatten() {
            if let Some(split) = self.split_unquoted(w).or_else(|| self.printed_words(w)) {
                values.extend(split);
                continue;
            }
            self.expanded(w, &mut values);
        }
        // `for NAME; do` loops over the positional parameters.
        if f.words.is_none()
            && let Some((_, params)) = self.arrays.iter().rev().find(|(n, _)| n == "@")
        {
            values.clone_from(params);
        }
        let unroll = name.is_some()
            && !values.is_empty()
            && values.len() <= MAX_UNROLL_VALUES
            && values
                .iter()
                .all(|v| v.text.is_some() || known_place(&v.raw))
            && self.flat.commands.len() < MAX_UNROLLED_COMMANDS;
        let Some(name) = name.filter(|_| unroll) else {
            self.seq(&f.body);
            return;
        };
        for v in values {
            let bound = v.text.clone();
            self.flat.commands.push(Simple {
                assigns: vec![(name.clone(), v)],
                ..Simple::default()
            });
            if let Some(value) = &bound {
                self.bound.push((name.clone(), value.clone()));
            }
            self.seq(&f.body);
            if bound.is_some() {
                self.bound.pop();
            }
        }
    }

    /// An unquoted `$NAME` of a variable this line set to static text, split into words as the
    /// shell splits it: at the characters of `IFS` when the line set it, else at blanks
    /// (`L=/a,/b; IFS=,; for d in $L`).
    /// Or the value with a literal pattern replaced first (`${list//,/ }`).
    fn split_unquoted(&self, w: &Word) -> Option<Vec<Arg>> {
        let raw = w.span.slice(self.src);
        let name = raw
            .strip_prefix("${")
            .and_then(|r| r.strip_suffix('}'))
            .or_else(|| raw.strip_prefix('$'))?;
        let (name, replace) = match name.find('/') {
            Some(i) => (&name[..i], Some(&name[i + 1..])),
            None => (name, None),
        };
        if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return None;
        }
        let (_, value) = self.scalars.iter().rev().find(|(n, _)| n == name)?;
        let replaced;
        let value = match replace {
            Some(spec) => {
                replaced = replaced_value(value, spec)?;
                &replaced
            }
            None => value,
        };
        let ifs = self.ifs();
        Some(
            value
                .split(|c| ifs.contains(c))
                .filter(|p| !p.is_empty())
                .map(static_arg)
                .collect(),
        )
    }

    /// The characters the shell splits words at: `IFS` as this line set it, else blanks.
    fn ifs(&self) -> &str {
        self.scalars
            .iter()
            .rev()
            .find(|(n, _)| n == "IFS")
            .map_or(" \t\n", |(_, v)| v.as_str())
    }

    /// An unquoted `$(…)` of one command that prints static words (`$(compgen -W '/a /b')`,
    /// `$(printf '%s\n' /a /b)`), split into them as the shell splits its output.
    fn printed_words(&self, w: &Word) -> Option<Vec<Arg>> {
        let raw = w.span.slice(self.src);
        let inner = raw.strip_prefix("$(")?;
        // (The substitution was walked already: it is parsed again only for a printer.)
        let program = inner.split_whitespace().next()?;
        if !matches!(
            program,
            "printf" | "echo" | "compgen" | "cat" | "tr" | "cut" | "awk" | "gawk" | "mawk" | "sed"
        ) {
            return None;
        }
        let lines = super::feed::substitution_printed(raw)?;
        // Split at the characters of `IFS` when the line set it (`IFS=';'; for d in $(printf
        // '/a;/b')`), else at blanks.
        let ifs = self.ifs();
        Some(
            lines
                .iter()
                .flat_map(|l| l.split(|c| ifs.contains(c)))
                .filter(|p| !p.is_empty())
                .map(static_arg)
                .collect(),
        )
    }

    /// A place opened as a descriptor (`7</home/dev`, `exec 9<"$TMPDIR"`) and named as
    /// `/proc/self/fd/N` or `/proc/$$/fd/N`: that word is the place. `exec` keeps the
    /// descriptor open for the rest of the line; on a command, it is that command's.
    fn descriptors(&mut self, st: &Stmt, first: usize) {
        let mut own: Vec<(i32, Arg)> = Vec::new();
        for r in &st.redirects {
            if let (Some(n), RedirectTarget::Word(w)) = (r.fd, &r.target)
                && n >= 3
                && matches!(r.kind, RedirectKind::Input | RedirectKind::ReadWrite)
            {
                own.push((n, self.arg(w)));
            }
        }
        let end = self.flat.commands.len();
        if end == first + 1
            && self.flat.commands[first].name() == Some("exec")
            && self.flat.commands[first].argv.len() == 1
        {
            self.fd_paths.extend(own);
            return;
        }
        if own.is_empty() && self.fd_paths.is_empty() {
            return;
        }
        let open: Vec<(i32, Arg)> = self.fd_paths.iter().cloned().chain(own).collect();
        for c in &mut self.flat.commands[first..end] {
            for a in &mut c.argv {
                let bare = a.raw.trim_matches('"');
                let n = bare
                    .strip_prefix("/proc/self/fd/")
                    .or_else(|| bare.strip_prefix("/proc/$$/fd/"))
                    .and_then(|n| n.parse::<i32>().ok());
                if let Some((_, path)) = n.and_then(|n| open.iter().rev().find(|(m, _)| *m == n)) {
                    *a = path.clone();
                }
            }
        }
    }

    /// The array `mapfile`/`readarray` fills from the static lines it is fed, for later
    /// `"${NAME[@]}"`.
    fn array_read(&mut self, i: usize) {
        let c = &self.flat.commands[i];
        if c.name() == Some("read") {
            self.array_split(i);
            return;
        }
        if !matches!(c.name(), Some("mapfile" | "readarray")) {
            return;
        }
        let Some(text) = c.heredoc.as_deref() else {
            return;
        };
        let Some(names) = operands(c, &["-d", "-n", "-O", "-s", "-u", "-C", "-c"]) else {
            return;
        };
        let name = names.last().map_or("MAPFILE", String::as_str).to_string();
        // Split at the delimiter `-d` names (`readarray -d , -t ds`), else at newlines.
        let words: Vec<String> = c.args().iter().filter_map(|a| a.text.clone()).collect();
        let delimiter = words
            .iter()
            .position(|w| w == "-d")
            .and_then(|at| words.get(at + 1))
            .and_then(|d| d.chars().next())
            .filter(|d| *d != '\n');
        let lines: Vec<&str> = match delimiter {
            Some(d) => text
                .split(d)
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect(),
            None => text.lines().map(str::trim).collect(),
        };
        remember_values(&mut self.arrays, name, lines);
    }

    /// The array `read -a NAME` fills from the static line it is fed, split on `IFS` as set
    /// for it (`IFS=: read -ra ps <<< "/etc:/usr"`) or on blanks.
    fn array_split(&mut self, i: usize) {
        let c = &self.flat.commands[i];
        let Some(text) = c.heredoc.as_deref() else {
            return;
        };
        let words: Option<Vec<&str>> = c.args().iter().map(|a| a.text.as_deref()).collect();
        let Some(words) = words else { return };
        // `-a NAME`, or the cluster ending in `a` (`-ra ps`).
        let Some(at) = words
            .iter()
            .position(|w| w.starts_with('-') && !w.starts_with("--") && w.ends_with('a'))
        else {
            self.fields_read(i);
            return;
        };
        let Some(name) = words.get(at + 1) else {
            return;
        };
        let ifs = c
            .assigns
            .iter()
            .find(|(n, _)| n == "IFS")
            .and_then(|(_, v)| v.text.clone());
        let line = text.lines().next().unwrap_or_default();
        let parts: Vec<&str> = match ifs.as_deref() {
            Some(sep) if !sep.is_empty() => line.split(|ch| sep.contains(ch)).collect(),
            _ => line.split_whitespace().collect(),
        };
        remember_values(&mut self.arrays, (*name).to_string(), parts);
    }

    /// The variables `read NAME…` sets from the static line it is fed, split on `IFS` as set
    /// for it, the last taking the rest (`IFS== read -r k v <<< 'K=/var/lib/x'`).
    fn fields_read(&mut self, i: usize) {
        let c = &self.flat.commands[i];
        let Some(line) = c.heredoc.as_deref().and_then(|t| t.lines().next()) else {
            return;
        };
        let Some(names) = operands(c, &["-d", "-n", "-N", "-p", "-t", "-u", "-i"]) else {
            return;
        };
        let ifs = c
            .assigns
            .iter()
            .find(|(n, _)| n == "IFS")
            .and_then(|(_, v)| v.text.clone())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| " \t".to_string());
        if names.is_empty() || names.len() > MAX_UNROLL_VALUES {
            return;
        }
        let parts = line.trim().splitn(names.len(), |ch| ifs.contains(ch));
        let values: Vec<(String, String)> = names
            .into_iter()
            .zip(parts)
            .map(|(n, v)| (n, v.to_string()))
            .collect();
        self.scalars.extend(values);
    }

    /// The static lines a statement's own here-document or here-string feeds it.
    fn fed_here(&self, st: &Stmt) -> Option<Vec<String>> {
        st.redirects
            .iter()
            .find_map(|r| match &r.target {
                RedirectTarget::Heredoc(h) => Some(h.body.render(self.src)),
                RedirectTarget::Word(w) if matches!(r.kind, RedirectKind::HereString) => {
                    self.arg(w).text
                }
                // `done < <(printf '%s\n' /etc /home/dev)`: what the printer prints.
                RedirectTarget::Word(w) if matches!(r.kind, RedirectKind::Input) => {
                    let text = w.render(self.src);
                    let inner = text.strip_prefix("<(")?.strip_suffix(')')?;
                    let flat = flatten(inner).ok()?;
                    match flat.commands.as_slice() {
                        [printer] => super::feed::printed(printer).map(|l| l.join("\n")),
                        _ => None,
                    }
                }
                RedirectTarget::Word(_) => None,
            })
            .map(|text| text.lines().map(str::to_string).collect())
    }

    /// The variables of a loop condition that is one `read` (`read -r d`, `IFS= read -r
    /// line`, `IFS=+ read -r a b`): the names each line's fields are given, the delimiter
    /// that ends a value when it is not a newline (`read -d, d`), and the `IFS` set for it.
    fn read_name(
        &self,
        condition: &StmtSeq,
    ) -> Option<(Vec<String>, Option<char>, Option<String>)> {
        let [st] = condition.stmts.as_slice() else {
            return None;
        };
        let Command::Simple(sc) = &st.command else {
            return None;
        };
        if sc.name.try_static_text(self.src).as_deref() != Some("read") {
            return None;
        }
        let words: Vec<String> = sc
            .args
            .iter()
            .map(|w| self.arg(w).text)
            .collect::<Option<_>>()?;
        // The names after the flags (and the delimiter's value).
        let names_at = words.len()
            - words
                .iter()
                .rev()
                .take_while(|w| !w.starts_with('-') && wrappers_name(w))
                .count();
        let (flags, names) = words.split_at(names_at);
        let flags_known = flags_without_delimiter(flags)
            .iter()
            .all(|f| matches!(f.as_str(), "-r" | "-e" | "-s" | "-re" | "-er"));
        // (`read -d , d`: the delimiter's value is no name.)
        let (flags, names) = match (flags.last().map(String::as_str), names) {
            (Some("-d"), [delimiter, rest @ ..]) => {
                let mut f = flags.to_vec();
                f.push(delimiter.clone());
                (f, rest.to_vec())
            }
            _ => (flags.to_vec(), names.to_vec()),
        };
        let ifs = sc.assignments.iter().find_map(|a| {
            (a.target.name.as_str() == "IFS")
                .then(|| match &a.value {
                    AssignmentValue::Scalar(w) => self.arg(w).text,
                    AssignmentValue::Compound(_) => None,
                })
                .flatten()
        });
        (flags_known && !names.is_empty()).then(|| (names, read_delimiter(&flags), ifs))
    }

    /// The body of a loop run once per line read, as the shell would: `NAME=line` before each
    /// pass, so what it does with `$NAME` is judged for every line.
    fn unroll(
        &mut self,
        names: &[String],
        ifs: Option<&str>,
        lines: Vec<String>,
        body: &'a StmtSeq,
    ) {
        let lines: Vec<String> = lines
            .into_iter()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        if lines.is_empty()
            || lines.len() > MAX_UNROLL_VALUES
            || self.flat.commands.len() >= MAX_UNROLLED_COMMANDS
        {
            self.seq(body);
            return;
        }
        for line in lines {
            self.flat.commands.push(Simple {
                assigns: fields(&line, names, ifs)
                    .into_iter()
                    .map(|(n, v)| (n, static_arg(&v)))
                    .collect(),
                ..Simple::default()
            });
            self.seq(body);
        }
    }

    /// A call of a function this line defined, with static arguments: its body again, after
    /// `1=…`, `2=…` (and `@` for a single argument), so `f() { rm -rf "$1"; }; f ~` is judged
    /// as the deletion of home it is.
    fn call(&mut self, name: String, body: &'a Stmt, args: Vec<Arg>) {
        if self.calling.contains(&name)
            || args.len() > MAX_UNROLL_VALUES
            || args.iter().any(|a| a.text.is_none())
            || self.flat.commands.len() >= MAX_UNROLLED_COMMANDS
        {
            return;
        }
        let mut assigns: Vec<(String, Arg)> = args
            .iter()
            .enumerate()
            .map(|(i, a)| ((i + 1).to_string(), a.clone()))
            .collect();
        if let [only] = args.as_slice() {
            assigns.push(("@".into(), only.clone()));
            assigns.push(("*".into(), only.clone()));
        }
        if assigns.is_empty() {
            return;
        }
        self.flat.commands.push(Simple {
            assigns,
            ..Simple::default()
        });
        self.calling.push(name);
        self.stmt(body);
        self.calling.pop();
    }

    /// `NAME=(…)` with static, sequential elements, for later `"${NAME[@]}"`.
    /// (`declare -A t=([a]=/x [b]=/y)`: its keys too, for `"${!t[@]}"` and `"${t[$k]}"`.)
    fn remember_array(&mut self, name: &str, array: &shuck_ast::ArrayExpr) {
        let mut elems = Vec::new();
        let mut keys = Vec::new();
        for e in &array.elements {
            match e {
                shuck_ast::ArrayElem::Sequential(v) => {
                    brace_expand(self.arg(&v.word), &mut elems);
                    while keys.len() < elems.len() {
                        keys.push(keys.len().to_string());
                    }
                }
                shuck_ast::ArrayElem::Keyed { key, value } => {
                    keys.push(
                        key.syntax_text(self.src)
                            .trim_matches(['"', '\''])
                            .to_string(),
                    );
                    elems.push(self.arg(&value.word));
                }
                shuck_ast::ArrayElem::KeyedAppend { .. } => return,
            }
        }
        // (An element only the shell expands may stand under a place the gate knows, itself
        // or as an assignment's value: `(ACME_DATA="$TMPDIR/x")`.)
        let known = |a: &Arg| {
            a.text.is_some()
                || known_place(&a.raw)
                || a.raw
                    .split_once('=')
                    .is_some_and(|(k, v)| super::wrappers::variable_name(k) && known_place(v))
        };
        if elems.iter().all(known) && keys.len() == elems.len() {
            self.arrays.push((name.to_string(), elems));
            self.array_keys.push((name.to_string(), keys));
        }
    }

    /// A word as the arguments it becomes: an array this line set, expanded whole
    /// (`"${a[@]}"`, `${a[*]}`) or by its first element (`$a`, `${a}`, `${a[0]}`); braces
    /// expanded; otherwise the word itself.
    fn expanded(&self, w: &Word, out: &mut Vec<Arg>) {
        // An unquoted `$(printf ' --dest=%s' /a /b)`: the options it prints. (Escapes it would
        // decode stay the substitution's, judged as such.)
        // Only options: a name so printed hides what runs (`$(echo rm) -rf src`).
        if let Some(words) = self.printed_words(w).filter(|ws| {
            ws.iter()
                .all(|a| a.raw.starts_with('-') && !a.raw.contains('\\'))
        }) {
            out.extend(words);
            return;
        }
        let a = self.arg(w);
        if let Some(elems) = self.array_of(&a.raw) {
            out.extend(elems);
            return;
        }
        brace_expand(a, out);
    }

    fn array_of(&self, raw: &str) -> Option<Vec<Arg>> {
        if self.arrays.is_empty() {
            return None;
        }
        let bare = raw
            .strip_prefix('"')
            .and_then(|r| r.strip_suffix('"'))
            .unwrap_or(raw);
        let inner = bare
            .strip_prefix("${")
            .and_then(|b| b.strip_suffix('}'))
            .or_else(|| bare.strip_prefix('$'))?;
        // `"${!t[@]}"`: the array's keys.
        let (inner, keys_asked) = match inner.strip_prefix('!') {
            Some(rest) => (rest, true),
            None => (inner, false),
        };
        // `"${ds[@]/#/--dir=}"`, `/%/…`: each element given a prefix or a suffix.
        let (inner, affix) = match inner.split_once("]/") {
            Some((head, op)) => {
                let (at_start, text) = match op.split_once('/') {
                    Some(("#", text)) => (true, text),
                    Some(("%", text)) => (false, text),
                    _ => return None,
                };
                if text.contains(['$', '`', '/']) {
                    return None;
                }
                (&inner[..=head.len()], Some((at_start, text)))
            }
            None => (inner, None),
        };
        if let Some((at_start, text)) = affix {
            let elems = self.array_of(&format!("${{{inner}}}"))?;
            return Some(
                elems
                    .into_iter()
                    .map(|e| match e.text {
                        Some(v) if at_start => static_arg(&format!("{text}{v}")),
                        Some(v) => static_arg(&format!("{v}{text}")),
                        None => e,
                    })
                    .collect(),
            );
        }
        let (name, index) = match inner.split_once('[') {
            Some((n, rest)) => (n, Some(rest.strip_suffix(']')?)),
            None => (inner, None),
        };
        let (_, elems) = self.arrays.iter().rev().find(|(n, _)| n == name)?;
        let keys = || {
            self.array_keys
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, k)| k.as_slice())
        };
        if keys_asked {
            return matches!(index, Some("@" | "*"))
                .then(|| keys().map(|k| k.iter().map(|k| static_arg(k)).collect()))
                .flatten();
        }
        if matches!(name, "@" | "*") && index.is_none() {
            return Some(elems.clone());
        }
        match index {
            Some("@" | "*") => Some(elems.clone()),
            Some(i) => {
                // A key held by the loop variable in this pass (`"${t[$k]}"`, `${t[k]}`).
                let variable = i.trim_start_matches('$').trim_matches(['{', '}']);
                let key = self
                    .bound
                    .iter()
                    .rev()
                    .find(|(n, _)| n == variable)
                    .map_or(i, |(_, v)| v.as_str());
                let at = match keys().and_then(|k| k.iter().position(|k| k == key)) {
                    Some(at) => at,
                    None => key.parse::<usize>().ok()?,
                };
                elems.get(at).cloned().map(|e| vec![e])
            }
            None => elems.first().cloned().map(|e| vec![e]),
        }
    }

    fn assignment_value(&mut self, v: &'a AssignmentValue) {
        match v {
            AssignmentValue::Scalar(w) => self.word(w),
            AssignmentValue::Compound(_) => {
                if self.src.contains("$(") || self.src.contains('`') {
                    self.opaque("a command substitution inside an array assignment");
                }
            }
        }
    }

    /// Walk a word for commands nested in it (substitutions).
    fn word(&mut self, w: &'a Word) {
        self.parts(&w.parts);
    }

    fn parts(&mut self, parts: &'a [WordPartNode]) {
        for p in parts {
            match &p.kind {
                WordPart::CommandSubstitution { body, .. } => self.seq(body),
                WordPart::ProcessSubstitution { body, .. } => self.seq(body),
                WordPart::DoubleQuoted { parts, .. } => self.parts(parts),
                WordPart::ParameterExpansion {
                    operand_word_ast: Some(w),
                    ..
                } => self.word(w),
                WordPart::ArithmeticExpansion {
                    expression_word_ast,
                    ..
                } => self.word(expression_word_ast),
                _ => {}
            }
        }
    }

    fn arg(&self, w: &Word) -> Arg {
        let mut text = String::new();
        let raw = w.render_syntax(self.src);
        let text = static_text(&w.parts, self.src, false, &mut text)
            .then_some(text)
            .or_else(|| self.fallback_value(&raw));
        Arg {
            text,
            raw,
            quoted: w.has_quoted_parts(),
        }
    }

    /// The default of a variable nothing on this line set (`"${ACME_OLD:-/etc/acme}"`): the
    /// value the word takes unless the environment happens to hold one, and what a person
    /// approving the line would have to assume.
    fn fallback_value(&self, raw: &str) -> Option<String> {
        let inner = raw
            .trim_matches('"')
            .strip_prefix("${")?
            .strip_suffix('}')?;
        let (name, value) = inner.split_once(":-")?;
        let set_here = self.scalars.iter().any(|(n, _)| n == name)
            || self.bound.iter().any(|(n, _)| n == name);
        (!name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !matches!(
                name,
                "HOME" | "PWD" | "TMPDIR" | "PATH" | "USER" | "SHELL" | "BASH"
            )
            && !set_here
            && !value.is_empty()
            && !value.contains(['$', '`', '{', '}', '"', '\'', '\\']))
        .then(|| value.to_string())
    }

    /// `export "NAME=VALUE"` with the whole operand quoted, or built from variables this line
    /// set (`IFS== read -r k v <<< 'K=V'; export "$k=$v"`): an assignment all the same.
    fn dynamic_assignment(&self, w: &Word) -> Vec<(String, Arg)> {
        let a = self.arg(w);
        let Some(text) = a
            .text
            .or_else(|| self.with_scalars(a.raw.trim_matches('"')))
        else {
            return Vec::new();
        };
        let Some((name, value)) = text.split_once('=') else {
            return Vec::new();
        };
        // (`export ACME_{HOME,CACHE}=/x`: each name the braces spell.)
        let mut names = Vec::new();
        let unquoted = Arg {
            quoted: false,
            ..static_arg(name)
        };
        brace_expand(unquoted, &mut names);
        names
            .into_iter()
            .filter_map(|n| n.text)
            .filter(|n| {
                !n.is_empty()
                    && !n.starts_with(|c: char| c.is_ascii_digit())
                    && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            })
            .map(|n| (n, static_arg(value)))
            .collect()
    }

    /// `raw` with every `$NAME` and `${NAME}` this line set to static text replaced by it, or
    /// `None` when one is not known.
    fn with_scalars(&self, raw: &str) -> Option<String> {
        let mut out = String::new();
        let mut rest = raw;
        while let Some(i) = rest.find('$') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let (name, len) = if let Some(b) = after.strip_prefix('{') {
                (&b[..b.find('}')?], b.find('}')? + 2)
            } else {
                let n = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                (&after[..n], n)
            };
            match self.scalars.iter().rev().find(|(n, _)| n == name) {
                Some((_, value)) => out.push_str(value),
                // The places the gate knows stay as written, for it to resolve.
                None if matches!(name, "HOME" | "PWD" | "TMPDIR" | "CLAUDE_PROJECT_DIR") => {
                    out.push_str(&rest[i..i + 1 + len]);
                }
                None => return None,
            }
            rest = &after[len..];
        }
        out.push_str(rest);
        (!out.contains(['`', '\\'])).then_some(out)
    }
}

/// `VALUE` with `${NAME/PAT/REP}`'s replacement made (`SPEC` is what follows the first
/// slash: `/,/ ` replaces every comma, `,/ ` the first), when the pattern is literal text.
fn replaced_value(value: &str, spec: &str) -> Option<String> {
    let (every, spec) = match spec.strip_prefix('/') {
        Some(s) => (true, s),
        None => (false, spec),
    };
    let (pattern, with) = spec.split_once('/').unwrap_or((spec, ""));
    if pattern.is_empty()
        || pattern.contains(['*', '?', '[', '\\', '$', '#', '%'])
        || with.contains(['$', '`', '\\'])
    {
        return None;
    }
    Some(if every {
        value.replace(pattern, with)
    } else {
        value.replacen(pattern, with, 1)
    })
}

/// The most words one brace expansion may produce (`{a,b}{c,d}…` grows fast).
const MAX_BRACE_WORDS: usize = 64;

/// Push `a`, brace-expanded as bash would (`{rm,-rf,/}` is three words, `b/{x,y}` two), when
/// it has an unquoted `{…,…}`; otherwise as it is.
fn brace_expand(a: Arg, out: &mut Vec<Arg>) {
    let raw = &a.raw;
    if a.quoted || !raw.contains('{') || !raw.contains(',') || !raw.contains('}') {
        out.push(a);
        return;
    }
    let mut words = vec![raw.clone()];
    let mut changed = false;
    while let Some(pos) = words.iter().position(|w| brace_span(w).is_some()) {
        let w = words.remove(pos);
        let Some((open, close)) = brace_span(&w) else {
            break;
        };
        let (pre, body, post) = (&w[..open], &w[open + 1..close], &w[close + 1..]);
        let alts = split_top(body);
        for (k, alt) in alts.iter().enumerate() {
            words.insert(pos + k, format!("{pre}{alt}{post}"));
        }
        changed = true;
        if words.len() > MAX_BRACE_WORDS {
            break;
        }
    }
    if !changed {
        out.push(a);
        return;
    }
    for w in words {
        // A piece with an expansion (`$HOME`) is known only to the shell; the rest is text.
        let text = (!w.contains(['$', '`', '\\', '*', '?'])).then(|| w.clone());
        out.push(Arg {
            text,
            raw: w,
            quoted: false,
        });
    }
}

/// The first `{…}` holding a top-level comma, as (open, close) byte offsets.
fn brace_span(w: &str) -> Option<(usize, usize)> {
    let b = w.as_bytes();
    for open in (0..b.len()).filter(|&i| b[i] == b'{' && (i == 0 || b[i - 1] != b'$')) {
        let mut depth = 0usize;
        let mut comma = false;
        for (j, &c) in b.iter().enumerate().skip(open) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        if comma {
                            return Some((open, j));
                        }
                        break;
                    }
                }
                b',' if depth == 1 => comma = true,
                _ => {}
            }
        }
    }
    None
}

/// `a,{b,c},d` split at its top-level commas.
fn split_top(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&body[start..]);
    out
}

/// The word's text after quote removal, as the shell would pass it, when it has no expansion.
fn static_text(parts: &[WordPartNode], src: &str, in_double: bool, out: &mut String) -> bool {
    for p in parts {
        match &p.kind {
            WordPart::Literal(t) => unescape(t.as_str(src, p.span), in_double, out),
            WordPart::SingleQuoted { value, dollar } => {
                let s = value.slice(src);
                if *dollar {
                    ansi_c(s, out);
                } else {
                    out.push_str(s);
                }
            }
            WordPart::DoubleQuoted { parts, .. } => {
                if !static_text(parts, src, true, out) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    true
}

/// An array the line fills with static words, the empty ones left out, as many as a loop over
/// it is walked for.
fn remember_values(arrays: &mut Vec<(String, Vec<Arg>)>, name: String, values: Vec<&str>) {
    let elems: Vec<Arg> = values
        .into_iter()
        .filter(|v| !v.is_empty())
        .take(MAX_UNROLL_VALUES)
        .map(static_arg)
        .collect();
    if !elems.is_empty() {
        arrays.push((name, elems));
    }
}

/// A word whose text is known, as the line's own value (a line read, an array's element, a
/// value printed into a variable).
pub(crate) fn static_arg(text: &str) -> Arg {
    Arg {
        text: Some(text.to_string()),
        raw: text.to_string(),
        quoted: true,
    }
}

/// A builtin's operands (the names `read` and `mapfile` fill), its flags and the values of
/// those in `valued` skipped; `None` when a word is known only when the line runs.
fn operands(c: &Simple, valued: &[&str]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut takes_value = false;
    for a in c.args() {
        let t = a.text.as_deref()?;
        if std::mem::take(&mut takes_value) {
            continue;
        }
        if t.starts_with('-') {
            takes_value = valued.contains(&t);
            continue;
        }
        out.push(t.to_string());
    }
    Some(out)
}

/// A `read`'s flags without the line delimiter it is told (`-d ''`, `-d $'\0'`: lines
/// separated by NUL, as `printf '%s\0'` and `find -print0` write them).
/// A line read into `names` as `read` splits it: at the characters of `IFS` (blanks when the
/// line did not set it), the last name taking the rest; one name takes the whole line.
fn fields(line: &str, names: &[String], ifs: Option<&str>) -> Vec<(String, String)> {
    if names.len() == 1 {
        return vec![(names[0].clone(), line.to_string())];
    }
    let ifs = ifs.unwrap_or(" \t\n");
    let mut rest = line;
    let mut out = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let value = if i + 1 == names.len() {
            rest
        } else {
            let end = rest.find(|c| ifs.contains(c)).unwrap_or(rest.len());
            let value = &rest[..end];
            rest = rest
                .get(end + 1..)
                .unwrap_or("")
                .trim_start_matches(|c| " \t".contains(c) && ifs.contains(c));
            value
        };
        out.push((name.clone(), value.to_string()));
    }
    out
}

/// Whether a word can be a variable's name (`a`, `line`, `_x1`).
fn wrappers_name(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The delimiter `read` is given (`-d ,`, `-d,`, `-rd ','`; `-d ''` is NUL).
fn read_delimiter(flags: &[String]) -> Option<char> {
    let mut flags = flags.iter();
    while let Some(f) = flags.next() {
        if let Some(joined) = f.strip_prefix("-d").filter(|d| !d.is_empty()) {
            return joined.chars().next();
        }
        if f.starts_with('-') && f.ends_with('d') {
            return Some(flags.next()?.chars().next().unwrap_or('\0'));
        }
    }
    None
}

fn flags_without_delimiter(flags: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(flags.len());
    let mut skip = false;
    for f in flags {
        if std::mem::take(&mut skip) {
            continue;
        }
        if f == "-d" {
            skip = true;
        } else if f.starts_with("-d") {
            // (`-d,`: the delimiter joined to its flag.)
        } else if let Some(rest) = f.strip_suffix('d').filter(|r| r.starts_with('-')) {
            // (`-rd ''`: the delimiter's flag last in a cluster.)
            skip = true;
            out.push(rest.to_string());
        } else {
            out.push(f.clone());
        }
    }
    out
}

/// A word only the shell expands, under a directory the gate knows (`"$TMPDIR/photos"`,
/// `$HOME/x`): the judge resolves it, so a loop over it can be walked value by value.
fn known_place(raw: &str) -> bool {
    let bare = raw.trim_matches('"');
    ["$TMPDIR", "${TMPDIR}", "$HOME", "${HOME}", "$PWD", "${PWD}"]
        .iter()
        .any(|v| {
            bare.strip_prefix(v).is_some_and(|rest| {
                (rest.is_empty() || rest.starts_with('/')) && !rest.contains(['$', '`', '*', '?'])
            })
        })
}

/// The names `ls` lists of the static operands it is given, one a line as a pipe reads them
/// (`ls -d /home/*`: each home directory): the operands themselves, globs and all, stand for
/// what they match.
fn listed(printer: &Simple) -> Option<Vec<String>> {
    if printer.name() != Some("ls") {
        return None;
    }
    let words: Vec<&str> = printer
        .args()
        .iter()
        .map(|a| a.text.as_deref())
        .collect::<Option<_>>()?;
    // Only names, not a long listing's columns (`-l`), and directories as themselves (`-d`).
    if !words
        .iter()
        .any(|w| w.starts_with('-') && !w.starts_with("--") && w.contains('d'))
        || words
            .iter()
            .any(|w| w.starts_with('-') && !w.starts_with("--") && w.contains('l'))
    {
        return None;
    }
    let names: Vec<String> = words
        .iter()
        .filter(|w| !w.starts_with('-'))
        .map(|w| (*w).to_string())
        .collect();
    (!names.is_empty()).then_some(names)
}

/// Backslash removal: outside quotes `\x` is `x`; inside double quotes only before
/// `$`, `` ` ``, `"`, `\\` or a newline.
fn unescape(s: &str, in_double: bool, out: &mut String) {
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('\n') => {
                chars.next();
            }
            Some(n) if !in_double || matches!(n, '$' | '`' | '"' | '\\') => {
                out.push(n);
                chars.next();
            }
            _ => out.push('\\'),
        }
    }
}

/// `$'…'` escapes (the common ones; anything else is kept as written).
fn ansi_c(s: &str, out: &mut String) {
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some('\'') => out.push('\''),
            Some('"') => out.push('"'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
}

/// Whether the word is a process substitution a program reads (`<(…)`), alone.
fn reads_substituted(w: &Word) -> bool {
    matches!(
        w.parts.as_slice(),
        [WordPartNode {
            kind: WordPart::ProcessSubstitution { is_input: true, .. },
            ..
        }]
    )
}

/// The positional parameters `set -- a b c` (or `set a b c`) gives, when every one is static
/// text; `None` for `set -e`, `set -o …` and the like.
/// (`eval set -- a b` with static words: the same.)
fn positional_set(argv: &[Arg]) -> Option<Vec<Arg>> {
    let argv = match argv.first()?.text.as_deref() {
        Some("eval")
            if argv.iter().skip(1).all(|a| {
                a.text.as_deref().is_some_and(|t| {
                    !t.contains(['$', '`', ';', '&', '|', '(', ')', '<', '>', '\'', '"'])
                })
            }) =>
        {
            &argv[1..]
        }
        _ => argv,
    };
    if argv.first()?.text.as_deref() != Some("set") {
        return None;
    }
    let rest = &argv[1..];
    let params = match rest.first()?.text.as_deref() {
        Some("--") => &rest[1..],
        Some(t) if !t.starts_with(['-', '+']) => rest,
        _ => return None,
    };
    (!params.is_empty()
        && params.len() <= MAX_UNROLL_VALUES
        && params.iter().all(|a| a.text.is_some()))
    .then(|| params.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<Vec<Option<String>>> {
        flatten(line)
            .unwrap()
            .commands
            .iter()
            .map(|c| c.argv.iter().map(|a| a.text.clone()).collect())
            .collect()
    }

    /// Each command's assignments and words, as `NAME=value` then the words.
    fn shown(line: &str) -> Vec<String> {
        flatten(line)
            .unwrap()
            .commands
            .iter()
            .map(|c| {
                let mut parts: Vec<String> = c
                    .assigns
                    .iter()
                    .map(|(n, v)| format!("{n}={}", v.text.as_deref().unwrap_or("?")))
                    .collect();
                parts.extend(c.argv.iter().map(|a| a.text.clone().unwrap_or("?".into())));
                parts.join(" ")
            })
            .collect()
    }

    /// Found by issue 20's shell-function family: loop variables, arrays and function
    /// arguments were unknown, so `for d in ~ /etc; do rm -rf "$d"; done` was a junction, not
    /// the block it is.
    #[test]
    fn loops_arrays_and_calls_bind_what_the_shell_would() {
        assert_eq!(
            shown("for d in ~ /etc; do rm -rf \"$d\"; done"),
            ["d=~", "rm -rf ?", "d=/etc", "rm -rf ?"]
        );
        assert_eq!(
            shown("dirs=(/etc ~); rm -rf \"${dirs[@]}\" ${dirs[1]} $dirs"),
            ["", "rm -rf /etc ~ ~ /etc"]
        );
        assert_eq!(
            shown("a=(x y); for v in \"${a[@]}\"; do echo $v; done"),
            ["", "v=x", "echo ?", "v=y", "echo ?"]
        );
        assert_eq!(
            shown("f() { rm -rf \"$1\"; }; f ~"),
            ["rm -rf ?", "f ~", "1=~ @=~ *=~", "rm -rf ?"]
        );
        // What cannot be bound is walked once, as before: a loop over unknown words, a call
        // with an unknown argument, a function that calls itself.
        assert_eq!(
            shown("for d in $(ls); do rm -rf \"$d\"; done"),
            ["ls", "rm -rf ?"]
        );
        assert_eq!(shown("f() { rm \"$1\"; }; f \"$X\""), ["rm ?", "f ?"]);
        assert_eq!(
            shown("f() { f \"$1\"; }; f a"),
            ["f ?", "f a", "1=a @=a *=a", "f ?"]
        );
        // Unrolling is bounded.
        let many: Vec<String> = (0..40).map(|i| format!("d{i}")).collect();
        let line = format!("for d in {}; do rm -rf \"$d\"; done", many.join(" "));
        assert_eq!(shown(&line), ["rm -rf ?"]);
    }

    #[test]
    fn braces_expand_into_words() {
        assert_eq!(
            texts("{rm,-rf,/}"),
            vec![vec![
                Some("rm".into()),
                Some("-rf".into()),
                Some("/".into())
            ]]
        );
        assert_eq!(
            texts("mkdir -p b/{x,y} '{a,b}'"),
            vec![vec![
                Some("mkdir".into()),
                Some("-p".into()),
                Some("b/x".into()),
                Some("b/y".into()),
                Some("{a,b}".into())
            ]]
        );
        assert_eq!(texts("echo ${x}")[0].len(), 2);
    }

    #[test]
    fn quotes_and_escapes_are_removed_from_static_words() {
        assert_eq!(
            texts(r"bash -c 'psql -c '\''DROP TABLE users'\'''"),
            vec![vec![
                Some("bash".into()),
                Some("-c".into()),
                Some("psql -c 'DROP TABLE users'".into())
            ]]
        );
        assert_eq!(
            texts(r#"echo "a b" c\ d"#),
            vec![vec![
                Some("echo".into()),
                Some("a b".into()),
                Some("c d".into())
            ]]
        );
    }
}
