//! A place outside the project that a program trail does not model works on: a place in the
//! person's home (or where services keep what they serve) handed to it, by a word, inside a
//! spec, glued to a short option, given to an output option or named in the text it is
//! handed; a script kept there and run; or the directory `cd` took the line to.
//!
//! The agent's own ground is the project and the temporary directories (DESIGN). The home
//! around them holds the person's documents, pictures, mail, keys and other projects. What a
//! program nobody models does with a file there (rewrite it in place, as `jhead -purejpg
//! ~/Pictures/*.jpg` does; write its result over it, `fslmaths … -bin ~/mask`; run it, `hhvm
//! ~/scripts/cleanup.php`) its words do not say, so a person decides. Across the labelled
//! parts such commands were labelled risky four times as often as safe, and the safe ones
//! only looked or wrote their result into the project.

use super::super::rules::Cmd;
use super::super::{Context, Decision, Verdict};
use super::RuleId;

/// The first word of `c` that names a place inside the home but outside the project (not the
/// home itself, which is judged as a protected place, nor the person's tool caches), unless
/// `c` writes its output into the project, where what it takes from the home is read.
pub(super) fn handed(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    // Asked of every command nobody models that nothing else stopped: no allocation unless a
    // word could name the home at all.
    if !c
        .args
        .iter()
        .any(|a| a.raw.contains('~') || a.raw.contains("HOME") || a.raw.contains('/'))
    {
        return None;
    }
    // Two places on mounted disks, directories too (`overviewer.py /mnt/nas/world
    // /mnt/nas/www/map`): one is read, the other written. (One directory alone there is as
    // often only read, `du -sh /mnt/nas/photos`.)
    let on_mounts = c
        .operands()
        .filter_map(|a| a.text.as_deref())
        .filter(|w| w.starts_with("/mnt/") || w.starts_with("/media/"))
        .count()
        >= 2;
    let word = c.args.iter().enumerate().find_map(|(i, a)| {
        let text = a.text.as_deref().unwrap_or(&a.raw);
        // A line of code or a phrase is judged where it runs.
        if text.contains(char::is_whitespace) {
            return None;
        }
        // An option's value, or a `key=value` operand's; a quoted expansion (`"$HOME/x.nc"`)
        // names the same place as a bare one.
        let value = text.split_once('=').map_or(text, |(_, v)| v);
        // A short option glued to its value (`-h/home/dev/.redeclipse`).
        let value = glued_value(value).unwrap_or(value);
        let value = value.trim_start_matches(['"', '\'']);
        let value = value.strip_prefix("file://").unwrap_or(value);
        let (value, after_kind) = within_spec(value)?;
        let p = ctx.resolve(value)?;
        let mounted_dir =
            on_mounts && !after_kind && ["/mnt", "/media"].iter().any(|d| p.starts_with(d));
        (outside_ground(&p, ctx, after_kind) || mounted_dir).then(|| {
            // The option that hands it over: `--config=~/x`, or `-c ~/x`.
            let option = match text.split_once('=') {
                Some((flag, _)) if flag.starts_with('-') => Some(flag),
                _ => i
                    .checked_sub(1)
                    .and_then(|j| c.args[j].text.as_deref())
                    .filter(|f| f.starts_with('-')),
            };
            (
                value.to_string(),
                served(&p),
                option.is_some_and(takes_code),
            )
        })
    })?;
    let (word, served, code) = word;
    let place = if word.starts_with("/mnt") || word.starts_with("/media") {
        "a mounted disk or share (`/mnt`, `/media`)"
    } else if served {
        "a place where this machine's services keep what they serve (`/srv`, `/var/www`, `/var/lib`)"
    } else {
        "a place in the home outside the project"
    };
    // Or, in `/srv`, told only to look by a word among its operands (`trac-admin
    // /srv/trac/proj permission list`, `acmehedit /srv/obs/x.fits operation=list`). (In the
    // home a looking word may print a credential: `kcat -F ~/.config/kcat.conf -X dump`.)
    let looks = served
        && c.operands().filter_map(|a| a.text.as_deref()).any(|w| {
            let v = w.rsplit_once('=').map_or(w, |(_, v)| v);
            super::words::LOOKS.contains(&v.to_ascii_lowercase().as_str())
        });
    // What it takes from there is read, with its output in the project; unless what it takes
    // is configuration, a plugin or a script it runs (`-c ~/configs/site.json`,
    // `--sli-plugins-path ~/plugins`): code the gate never sees.
    // A file on a mounted share copied or converted into the project (`pvfs2-cp -t
    // /mnt/…/out.h5 build/out.h5`): the last operand, here, is what is written.
    let into_here = word.starts_with("/mnt") || word.starts_with("/media");
    let into_here = into_here
        && c.operands()
            .filter_map(|a| a.text.as_deref())
            .last()
            .is_some_and(|w| {
                w != word
                    && w.contains('/')
                    && matches!(
                        ctx.classify(w),
                        crate::paths::Place::Inside | crate::paths::Place::Tmp
                    )
            });
    if looks || into_here || !code && super::targets::outputs_here(c, ctx) {
        return None;
    }
    Some(super::decide(
        Verdict::Junction,
        RuleId::NamesCritical,
        format!(
            "`{}` is handed {place} (`{word}`), and trail does not model this program: whether it reads, rewrites or runs what is there its words do not say, so a person decides",
            c.name
        ),
        raw,
    ))
}

/// The place a word names: the word itself, or a place inside a spec, after a kind's prefix
/// (`ephemeral:/home/dev/x`, which ImageMagick deletes once read; `/action-script:~/a.sh`;
/// `fb:$HOME/browse.sh`) or among a list's items (`--generic=file,out,10,~/log.csv`). Not after
/// a host's name (`backup.example.net:/srv/x`, `dev@host:/srv`): a place on another machine.
/// Says whether the place followed a kind's prefix.
fn within_spec(value: &str) -> Option<(&str, bool)> {
    let place = |w: &str| w.starts_with(['/', '~', '$']);
    if value.contains(',') {
        return value.split(',').find(|p| place(p)).and_then(within_spec);
    }
    if let Some((kind, rest)) = value.split_once(':')
        && place(rest)
        && !kind.contains(['.', '@'])
        && !rest.starts_with("//")
    {
        return Some((rest, true));
    }
    place(value).then_some((value, false))
}

/// A place in the home or a served one given to an output option (`--store_dir DIR`, `-o F`,
/// `--output=F`): what the program writes goes there, whatever its subcommand says it looks at.
pub(super) fn output_handed(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    let words: Vec<&str> = c.option_words().collect();
    if words
        .iter()
        .any(|w| matches!(*w, "--dry-run" | "--dryrun" | "-n"))
    {
        return None;
    }
    let (flag, place) = super::option_pairs(&words).find_map(|(flag, value)| {
        let value = value?;
        // (Not `-d DIR`, which names as often what is scanned: `czkawka_cli dup -d
        // ~/Pictures`.)
        let output = flag.starts_with('-')
            && !matches!(flag, "-d" | "-C")
            && (super::targets::output_flag(flag, false)
                || super::words::parts(flag)
                    .iter()
                    .any(|p| matches!(p.as_str(), "store" | "save" | "dump" | "export" | "write")));
        if !output || !value.starts_with(['/', '~', '$']) {
            return None;
        }
        let p = ctx.resolve(value)?;
        outside_ground(&p, ctx, false).then_some((flag, value))
    })?;
    Some(super::decide(
        Verdict::Junction,
        RuleId::NamesCritical,
        format!(
            "`{}` is told to write outside the project (`{flag} {place}`), and trail does not model this program: a person decides",
            c.name
        ),
        raw,
    ))
}

/// A script file (by its extension) in the home or a served place: see
/// [`super::script_kept_outside`].
pub(super) fn script_outside(word: &str, ctx: &Context, raw: &str) -> Option<Decision> {
    // Named by where it is kept, not by where `cd` went (`cd /var/www/wiki && php
    // bin/report.php` is the site's own tool, judged as `works_outside` says).
    if !word.starts_with(['/', '~', '$']) {
        return None;
    }
    let (_, ext) = word.rsplit('/').next()?.rsplit_once('.')?;
    if !matches!(
        ext,
        "py" | "sh"
            | "bash"
            | "zsh"
            | "pl"
            | "rb"
            | "php"
            | "js"
            | "mjs"
            | "R"
            | "jl"
            | "lua"
            | "tcl"
    ) {
        return None;
    }
    let p = ctx.resolve(word)?;
    outside_ground(&p, ctx, false).then(|| {
        super::decide(
            Verdict::Junction,
            RuleId::NamesCritical,
            format!(
                "a script kept outside the project (`{word}`) is run with no words: what it does only its text says, which trail does not read there; a person decides"
            ),
            raw,
        )
    })
}

/// The value of a short option written with it as one word (`-h/home/dev/x`, `-d~/out`).
fn glued_value(word: &str) -> Option<&str> {
    let rest = word.strip_prefix('-')?;
    let mut chars = rest.chars();
    chars.next().filter(char::is_ascii_alphabetic)?;
    let value = chars.as_str();
    value.starts_with(['/', '~']).then_some(value)
}

/// Whether `p` lies in the home (not the home itself) or where services keep what they serve,
/// outside the project and the tools' caches. (A served place after a bare name, `after_kind`,
/// is as often another machine's: `rcp fileserv1:/srv/x build/`.)
fn outside_ground(p: &std::path::Path, ctx: &Context, after_kind: bool) -> bool {
    let home = &ctx.places.home;
    (p.starts_with(home) && p != home || (served(p) || mounted(p)) && !after_kind)
        && !cached(p)
        && !p.starts_with(&ctx.places.project_root)
        && !ctx.holds_project(p)
}

/// A place in the home, or a served one, named in the text a program nobody models is handed
/// (its here-document, what the line prints into it, a file this line wrote for it): `recorder
/// Node -file /home/dev/disp.out` fed to OpenSees, `PRINT … FILE=/srv/shared/COLVAR` in a
/// PLUMED input, `(set-option :regular-output-channel "/home/dev/r.txt")` fed to an SMT solver,
/// on a line whose words say it writes. What the program does there its text says in a
/// language trail does not read, as its words would on its command line: a person decides. (A
/// line that only reads, `File.read("/home/dev/notes.txt")`, or names a place by a setting that
/// says neither, `path = "/home/dev/notes"`, is let be.)
pub(super) fn named_in_text(
    c: &Cmd<'_>,
    texts: &[String],
    ctx: &Context,
    raw: &str,
) -> Option<Decision> {
    // Statements one by one, as a line may hold several (`ReadVSPFile(…); ExportFile(…);`):
    // one that reads does not make another's place a place read.
    let statements = texts
        .iter()
        .flat_map(|t| t.lines())
        .flat_map(|l| l.split(';'));
    let word = statements.into_iter().find_map(|line| {
        let place = line
            .split(|ch: char| {
                ch.is_whitespace()
                    || matches!(
                        ch,
                        '"' | '\''
                            | '('
                            | ')'
                            | '['
                            | ']'
                            | '{'
                            | '}'
                            | ';'
                            | '='
                            | '<'
                            | '>'
                            | '`'
                    )
            })
            .find_map(|token| {
                let (value, after_kind) = within_spec(token)?;
                let p = ctx.resolve(value)?;
                outside_ground(&p, ctx, after_kind).then(|| value.to_string())
            })?;
        // A line that is the place alone answers a program's question for a file, which it
        // may write as well as read.
        (says_output(line) || line.trim() == place).then_some(place)
    })?;
    Some(super::decide(
        Verdict::Junction,
        RuleId::NamesCritical,
        format!(
            "`{}` is handed text that names a place outside the project (`{word}`), and trail does not model this program: whether it reads, rewrites or runs what is there the text does not say in words trail reads, so a person decides",
            c.name
        ),
        raw,
    ))
}

/// Whether a line's words say it writes (`-file`, `output-channel`, `FILE=`, `#log`, `put`,
/// `setCoutFile`) and none says it only reads (`File.read`, `source`, `IdentityFile`): a
/// place on such a line is where the program's output goes.
fn says_output(line: &str) -> bool {
    let mut writes = false;
    for p in super::words::parts(line) {
        match p.as_str() {
            "read" | "load" | "include" | "source" | "import" | "identity" | "input" | "from" => {
                return false;
            }
            "write" | "out" | "output" | "file" | "files" | "log" | "save" | "put" | "record"
            | "recorder" | "dump" | "export" | "dest" | "destination" | "overwrite" | "channel"
            | "into" | "target" | "result" | "results" => writes = true,
            _ => {}
        }
    }
    writes
}

/// Whether an option's name says its value is configuration or code the program runs.
fn takes_code(flag: &str) -> bool {
    flag == "-c"
        || super::words::parts(flag).iter().any(|p| {
            matches!(
                p.as_str(),
                "config"
                    | "conf"
                    | "cfg"
                    | "plugin"
                    | "plugins"
                    | "script"
                    | "scripts"
                    | "rc"
                    | "hook"
                    | "hooks"
                    | "module"
                    | "modules"
                    | "macro"
                    | "macros"
                    | "extension"
                    | "extensions"
                    | "init"
            )
        })
}

/// Whether `p` lies where this machine's services keep what they serve and what they hold
/// (FHS: `/srv`, a web server's `/var/www`, a service's state in `/var/lib`): a site's files,
/// a shared dataset, a service's database. Across the labelled parts a command naming such a
/// place was labelled risky 470 times and safe 15 times in `/srv`, 127 against 15 in
/// `/var/www` and 82 against 10 in `/var/lib`, the safe ones looking or writing into the
/// project, as in the home. (Not `/mnt`, 59 against 22: a mounted file system is as often
/// only read, `pvfs2-ping -m /mnt/orangefs`.)
/// Whether `p` is a file on a disk or a share mounted for people (`/mnt/nas/rec/desk.mp4`,
/// `/media/dev/CARD/game.po`): shared with, or carried to, others. Only a file by its
/// extension: a mount's directory is as often only looked at or checked (`mergerfs.fsck
/// /mnt/pool`, `pvfs2-ping -m /mnt/orangefs`).
fn mounted(p: &std::path::Path) -> bool {
    ["/mnt", "/media"].iter().any(|d| p.starts_with(d))
        && p.extension().is_some_and(|e| {
            let e = e.to_string_lossy();
            !e.is_empty() && e.bytes().any(|b| b.is_ascii_alphabetic())
        })
}

fn served(p: &std::path::Path) -> bool {
    ["/srv", "/var/www", "/var/lib"]
        .iter()
        .any(|d| p.starts_with(d))
}

/// Whether `p` lies in a tool's cache (`~/.cache/…`, `~/.gradle/caches/…`): made again from
/// what it caches, and read as a matter of course (an agent lists a cached library's jar to
/// read its classes).
fn cached(p: &std::path::Path) -> bool {
    p.components().any(|c| {
        matches!(
            c.as_os_str().to_str(),
            Some(".cache" | "cache" | "caches" | "Caches")
        )
    })
}

/// A program nobody models run where this line moved to, outside the project and the
/// temporary directories (`cd /home/dev/runs/md && vasp_std`, `(cd /srv/wrf/operational &&
/// ./real.exe)`): such a program reads its input and writes its output where it runs, by
/// names of its own, so what is there may be rewritten. A person decides.
pub(super) fn works_outside(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    let cwd = &ctx.places.cwd;
    // The temporary directory itself is where scratch work goes (`cd /tmp && jar xf …`).
    let scratch = cwd == std::path::Path::new("/tmp")
        || cwd == std::path::Path::new("/var/tmp")
        || ctx.places.tmpdir.as_ref() == Some(cwd);
    // An installed application's own directory (`cd /opt/paperless/src && python3 manage.py
    // …`) is where its tools are meant to be run; what they do is their words' business.
    let installed = cwd.starts_with("/opt");
    if ctx.line.cwd_unknown || *cwd == ctx.places.project_root || scratch || installed {
        return None;
    }
    let place = ctx.places.classify(&cwd.to_string_lossy());
    let outside = match place {
        super::super::Place::Outside => !cached(cwd) && !ctx.holds_project(cwd),
        // (`cd /` before an archive's listing or a system directory's tool is judged by what
        // is unpacked or written there.)
        super::super::Place::Home => true,
        _ => false,
    };
    outside.then(|| {
        super::decide(
            Verdict::Junction,
            RuleId::NamesCritical,
            format!(
                "`{}` runs in `{}`, outside the project, where it reads and writes by names of its own, and trail does not model this program: a person decides",
                c.name,
                cwd.display()
            ),
            raw,
        )
    })
}
