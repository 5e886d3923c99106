//! A program trail does not model, judged by what its arguments would make it do (DESIGN,
//! principle 5: "never waved through because no rule names it"). The mechanisms depend on no
//! program's name:
//!
//! - **Verbs with consequences** ([`words`]): subcommands, long flags, method names and a
//!   program's own name whose words mean deletion, destruction, reset, revocation,
//!   publication, deployment, merging, sending, payment, shutdown, disabling or changing live
//!   settings; a secret's name beside a reading verb (`secret show`). A read-only verb
//!   (`list`, `status`, `plan`), `--dry-run` or `--help` keeps the command safe.
//! - **Targets that matter** ([`targets`]): `/`, the home directory, system directories,
//!   devices, firmware and power interfaces, and the project's ancestors keep their class
//!   whatever carries them (an operand, `--prefix=/`, `-C /`, `DESTDIR=/`); an output option
//!   pointing outside the project writes there.
//! - **Code in arguments** ([`arguments`]): the words after `--`, after an option named for a
//!   command, a word naming a known program with its arguments, a string whose first word is a
//!   program, a line a program's own language hands to the shell (`system …`, `.shell …`,
//!   `!…`), code in another language, and a here-document, judged as if they ran.
//! - **Handing over control** ([`handover`]): an interactive shell given to a program is at
//!   least a junction, a block when it is also exposed to the network.
//!
//! A verb or an output aimed at a critical target, or any write to a disk, is a block; each
//! alone is a junction. Which programs are modelled, and how far, is
//! [`known`](super::known)'s answer.

mod arguments;
mod handover;
mod home;
pub(crate) mod targets;
mod typed;
mod unpacks;
pub(crate) mod words;

use super::known::{self, Tier};
use super::parse::Simple;
use super::rules::{Cmd, RuleId};
use super::{Context, Decision, Findings, Verdict};

use targets::Target;
pub(crate) use targets::raw_device;

/// How many shells deep commands carried inside words are looked for.
const EMBEDDED_DEPTH: usize = 2;

/// Where in the walk the command stands.
#[derive(Clone, Copy)]
pub(super) struct Layer {
    /// How many shells deep the command was found.
    pub(super) depth: usize,
    /// Run as another user (`sudo …`): an output in a system directory replaces a system file.
    pub(super) privileged: bool,
}

/// The junction for a program trail does not model, told to act by a word of its command.
fn told_to(c: &Cmd<'_>, v: &words::Verb, raw: &str) -> Decision {
    decide(
        Verdict::Junction,
        v.class.rule(),
        format!(
            "`{}` is told to {} (`{}`), and trail does not model this program: a person decides",
            c.name,
            v.class.meaning(),
            v.word
        ),
        raw,
    )
}

/// Whether a word names the download directory, as written: most commands do not, so this
/// cheap test comes first. A path may start at `$HOME`, or be the value of a variable set for
/// the program (`HDF5_PLUGIN_PATH=~/Downloads/…`).
fn names_download(c: &Cmd<'_>, cmd: &Simple) -> bool {
    c.args.iter().any(|a| a.raw.contains("Downloads"))
        || cmd.assigns.iter().any(|(_, v)| v.raw.contains("Downloads"))
}

/// Whether a word, read as a verb, names an act with consequences (`delete`, `stop`, `send`):
/// for the gate's other modules, which judge what code in other languages calls.
pub(super) fn names_an_act(word: &str) -> bool {
    words::classify(&word.to_ascii_lowercase()).is_some()
}

/// Judge `c` by mechanism when trail's rules do not model it; `producers` are the commands
/// piped into it.
pub(super) fn judge(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &Context,
    raw: &str,
    layer: Layer,
    out: &mut Findings,
) {
    if !plausible_program(c.name) {
        return;
    }
    let tier = known::tier(c.name);
    // Each piece it finds is judged one shell deeper, where it is cut again: two levels
    // follow what is carried inside what is carried, and keep the walk small.
    // A search program's words are a pattern and files (`grep -n 'curl .* | sh' F` looks for
    // a fetch piped to a shell): nothing in them runs.
    let searches = matches!(
        c.name,
        "grep" | "egrep" | "fgrep" | "zgrep" | "rg" | "ag" | "ack" | "ack-grep" | "ugrep"
    );
    if layer.depth <= EMBEDDED_DEPTH && !searches {
        arguments::embedded(c, cmd, producers, ctx, raw, out);
    }
    out.extend(remote_code(c, raw));
    if names_download(c, cmd)
        && (tier == Tier::Unknown || known::runs_code(c.name))
        && !words::shows_only(c)
        // Running a test suite runs what it is given: only looking does not.
        && (words::runs_tests(c) || !words::looks(c))
    {
        arguments::downloaded_input(c, cmd, ctx, raw, out);
    }
    made_on_this_line(c, cmd, ctx, raw, out);
    out.extend(runs_brought_code(c, ctx, raw));
    out.extend(cleans_configured(c, ctx, raw));
    out.extend(cleans_assigned(c, cmd, ctx, raw));
    if tier == Tier::Data {
        script_console(c, cmd, producers, ctx, raw, out);
    }
    if tier == Tier::Data {
        // A script told to reset where its variables point, all of it scratch, resets nothing
        // that matters (`IDTRACKER_SESSIONS=build/sessions bash tools/reset_sessions.sh`): its
        // name's verb is not asked about.
        let scratch = cleans_only_scratch(c, cmd, ctx);
        runs_data(c, ctx, (layer, scratch), raw, out);
        return;
    }
    out.extend(
        loads_fetched(c, ctx, layer, tier, raw)
            .or_else(|| runs_after_planting(c, ctx, raw))
            .or_else(|| runs_what_it_fetched(c, ctx, raw)),
    );
    if tier == Tier::Unknown {
        unmodelled_acts(c, cmd, producers, ctx, layer, raw, out);
    } else if device_bridge(c.name) {
        out.extend(writes_chip_memory(c, raw).or_else(|| flashes_a_board(c, raw)));
    }
    out.extend(installs_by_address(c, tier, raw));
    let before = out.0.len();
    let shows = words::shows_only(c);
    // A pretend run rehearses its act; what it writes is still judged by its places.
    let verb = (!shows && !words::pretends(c))
        .then(|| told(c, producers, ctx, tier))
        .flatten()
        .filter(|v| !sets_a_project_file(c, ctx, v));
    let found = places(c, cmd, producers, ctx, tier, verb.as_ref());
    let verb = verb.or_else(|| words::assigned_verb(&cmd.assigns).filter(|_| !shows));
    // Said to a disk or a firmware interface, a word that writes overwrites it.
    let verb = verb.or_else(|| {
        (!shows && found.iter().any(|t| t.target.device_like()))
            .then(|| words::device_write(c))
            .flatten()
    });
    out.extend(sends_credential(c, ctx, verb.as_ref(), raw));
    out.extend(deletes_own_account(c, ctx, verb.as_ref(), raw));
    if tier == Tier::Unknown {
        what_its_text_writes_or_sends(c, cmd, ctx, verb.as_ref(), raw, out);
    }
    // Whether a leading subcommand word only looks: read once, asked three ways below.
    let looks = words::looks(c);
    out.extend(disk_written_by_option(c, ctx, &found, raw));
    let acts = tier == Tier::Unknown && !shows && !looks;
    out.extend(handed_as_root(c, ctx, layer, acts, &found, raw));
    let said = verb.as_ref();
    critical(c, ctx, layer, (shows, looks), said, &found, raw, out);
    // A clean pointed at scratch by its variables destroys nothing else.
    let verb = verb.filter(|v| {
        !(matches!(v.class, words::Class::Destroys | words::Class::Changes)
            && cleans_only_scratch(c, cmd, ctx))
    });
    out.extend(verb.as_ref().map(|v| told_to(c, v, raw)));
    // Naming a place only to look at it (`btrfs filesystem df /`, `bootctl status`) is safe.
    let reads_only = shows || verb.is_none() && (looks || words::reads_by_form(c, false));
    out.extend(names_critical(
        c,
        ctx,
        verb.is_none(),
        reads_only,
        &found,
        raw,
    ));
    // (A pretend run powers nothing: `day close --on-complete shutdown --dry-run`.)
    if !(shows || tier == Tier::Unknown && words::pretends(c)) {
        out.extend(power(c, raw));
    }
    arguments::judge(c, cmd, producers, tier, ctx, raw, out);
    if tier == Tier::Unknown {
        let nothing_yet = !decided_since(out, before);
        unmodelled(c, ctx, cmd, raw, reads_only, nothing_yet, out);
        last_places(
            c,
            (cmd, producers),
            ctx,
            &found,
            (before, reads_only),
            raw,
            out,
        );
        // Unknown stays unknown: an allow that says what was looked for, not "no rule
        // matched" (`trail gate` shows it).
        if !decided_since(out, before) {
            out.push(nothing_found(c, raw));
        }
    }
}

/// The act with consequences `c` is told to do, by its words, by mail it is piped, or by a
/// settings file this line wrote and hands it (`task: delete` in the file given to
/// `--config`: the file's settings are its options).
fn told(c: &Cmd<'_>, producers: &[&Simple], ctx: &Context, tier: Tier) -> Option<words::Verb> {
    words::consequence(c)
        .filter(|v| !stays_here(c, ctx, v))
        .or_else(|| {
            (tier == Tier::Unknown)
                .then(|| words::mails_to(c, producers).or_else(|| planted_settings_verb(c, ctx)))
                .flatten()
        })
}

/// The allow for a program nobody models in which nothing was found.
fn nothing_found(c: &Cmd<'_>, raw: &str) -> Decision {
    Decision {
        verdict: Verdict::Allow,
        rule: None,
        reason: format!(
            "`{}` is a program trail does not model; none of its words names a protected place, carries code, hands over a shell or asks for an act with consequences",
            c.name
        ),
        command: Some(raw.into()),
        targets: Vec::new(),
    }
}

/// A script kept in the home or where services keep what they serve, run with no words at all
/// (`python3 /srv/lab/protocols/dispense.py`, `/srv/bms/override.sh`, a variable that names the
/// editor a program will start: `EDITOR=/srv/tools/edit.sh ldapvi …`): what it does only its
/// text says, and that text is outside the project, where trail does not read. A person
/// decides. With words, its words are judged (`php /var/www/joomla/cli/joomla.php user:list`).
pub(super) fn script_kept_outside(
    argv: &[super::parse::Arg],
    ctx: &Context,
    raw: &str,
) -> Option<Decision> {
    let script = match argv {
        [only] => only,
        // Or given alone to its interpreter (`python3 /srv/x.py`, `bash ~/scripts/x.sh`).
        [interpreter, script] => {
            let name = interpreter.text.as_deref()?;
            let name = name.rsplit('/').next().unwrap_or(name);
            // (`source ~/.zplug/init.zsh` loads a tool's functions, as a shell's start does.)
            if !super::shells::runs_code(name) || matches!(name, "source" | ".") {
                return None;
            }
            script
        }
        _ => return None,
    };
    home::script_outside(script.text.as_deref()?, ctx, raw)
}

/// Whether a decision was found since the `from`-th finding. (Lines a program is handed to
/// run are findings too, judged later and for blocks only: a here-document fed to a program
/// nobody models decides nothing by itself.)
fn decided_since(out: &Findings, from: usize) -> bool {
    out.0
        .get(from..)
        .is_some_and(|f| f.iter().any(|f| matches!(f, super::Finding::Decided(_))))
}

/// The places judged once everything else has spoken, for a program nobody models: the
/// filesystem root served to the network, and, when nothing stopped it and it does not only
/// look (`reads_only`), a place in the home handed to it or a directory outside the project
/// it runs in. Its decisions start at `from`.
fn last_places(
    c: &Cmd<'_>,
    (cmd, producers): (&Simple, &[&Simple]),
    ctx: &Context,
    found: &[targets::Found],
    (from, reads_only): (usize, bool),
    raw: &str,
    out: &mut Findings,
) {
    out.extend(serves_critical(found, from, raw, out));
    // A looking subcommand writes all the same where an output option says (`obdiag gather
    // log --store_dir /home/dev/obdiag`, `acme show report -o ~/r.txt`); so does any other,
    // whatever its later operands read or write (`xroar -tape-write /mnt/nas/p.cas -run
    // build/p.bin`).
    if !decided_since(out, from) {
        out.extend(home::output_handed(c, ctx, raw));
    }
    if !decided_since(out, from) && !reads_only {
        out.extend(
            home::handed(c, ctx, raw)
                .or_else(|| {
                    // Most commands are handed no text.
                    let handed = cmd.heredoc.is_some()
                        || !producers.is_empty()
                        || !ctx.line.planted.is_empty();
                    handed
                        .then(|| {
                            home::named_in_text(c, &handed_texts(c, cmd, producers, ctx), ctx, raw)
                        })
                        .flatten()
                })
                .or_else(|| home::works_outside(c, ctx, raw)),
        );
    }
}

/// A server told to listen on every interface and given the filesystem root (`pocketbase serve
/// --http=0.0.0.0:80 --publicDir=/`, `LOCAL_FILES_DOCUMENT_ROOT=/ … --host 0.0.0.0`): every
/// key, token and setting of the machine is served to whoever asks. (The home directory so
/// served is a junction: the labelled parts disagree, five against one.) The decisions of
/// this command start at `from`.
fn serves_critical(
    found: &[targets::Found],
    from: usize,
    raw: &str,
    out: &Findings,
) -> Option<Decision> {
    let listens = out.0[from.min(out.0.len())..].iter().any(|f| {
        matches!(f, super::Finding::Decided(d)
            if d.rule.as_deref() == Some(RuleId::ExposesService.as_str()))
    });
    let served = found
        .iter()
        .find(|t| (!t.output || t.into) && t.target == Target::Root)?;
    listens.then(|| {
        decide(
            Verdict::Block,
            RuleId::ExposesShell,
            format!(
                "this serves the filesystem root (`{}`) on every network interface: every key, token and setting kept there goes to whoever asks; it is never run",
                served.word
            ),
            raw,
        )
    })
}

/// What only a program nobody models is judged by: what it is handed and where it works.
fn unmodelled_acts(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &Context,
    layer: Layer,
    raw: &str,
    out: &mut Findings,
) {
    through_a_bind_mount(c, ctx, out);
    out.extend(through_a_planted_link(c, ctx, raw).or_else(|| handed_a_planted_link(c, ctx, raw)));
    out.extend(mounted_over(c, ctx, raw));
    out.extend(builds_an_array(c, raw));
    what_it_is_handed(c, cmd, producers, ctx, raw, out);
    out.extend(
        flashes_this_machine(c, layer, raw).or_else(|| restores_this_machine(c, layer, raw)),
    );
    out.extend(joins_a_controller(c, cmd, raw));
    out.extend(copies_to_another_machine(c, raw).or_else(|| sends_to_a_host(c, ctx, raw)));
    out.extend(unpacks::into_working_directory(c, ctx, raw));
    out.extend(
        writes_chip_memory(c, raw)
            .or_else(|| flashes_a_board(c, raw))
            .or_else(|| output_to_a_port(c, raw)),
    );
    out.extend(handed_a_running_process(c, ctx, raw));
    out.extend(empties_a_dir_elsewhere(c, ctx, raw));
    runs_a_deleter_on_its_finds(c, out);
}

/// A directory outside the project emptied by a flag that names it (`--staging-dir
/// /opt/x/staging --clean-staging`, `--clean-dir "$(dirname "$PWD")/photos"`): what it held
/// is gone, and it is not the agent's. A protected place so emptied is a block.
fn empties_a_dir_elsewhere(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    // Asked of every command nobody models: the words are read through the line's variables
    // only when a flag empties a directory at all.
    dir_emptied_by_flag(&words_as_written(c))?;
    // A value only the shell knows (`"$(dirname "$PWD")/x"`) as the line's own words make it.
    let all: Vec<String> = c.args.iter().map(|a| ctx.arg_text(a)).collect();
    let words: Vec<&str> = all.iter().map(String::as_str).collect();
    let dir = ctx.expand_text_vars(dir_emptied_by_flag(&words)?);
    let dir = dir.trim_matches(['"', '\'']);
    let place = ctx.resolve(dir).filter(|_| !rehearses(c))?;
    let target = targets::target(&place.to_string_lossy(), ctx)?;
    // The filesystem root, the home, a system directory (or one inside the packages' trees,
    // `/usr/lib/modules`) or the project root so emptied (`export --output-dir /work/proj
    // --overwrite-all`), whatever the program's own verb.
    // (Inside the packages' trees, only a place a clearing word empties and no option for
    // where the program reads its configuration: `records delete --config-dir /etc/acme`
    // deletes records.)
    let clears_packages_dir = target == Target::SystemFile
        && c.words()
            .flat_map(words::parts)
            .any(|p| empties_word(&p) || p == "drop")
        && !c.option_words().any(|w| {
            let ps = words::parts(w);
            ps.iter()
                .any(|p| matches!(p.as_str(), "config" | "conf" | "settings"))
                && ps
                    .iter()
                    .any(|p| matches!(p.as_str(), "dir" | "directory" | "path"))
        });
    // Or another program's state (`/var/lib/nfs`), cleared the same way.
    let clears_anothers_state = c.words().flat_map(words::parts).any(|p| empties_word(&p))
        && state_of_another_program(c, &place);
    if matches!(
        target,
        Target::Root | Target::Home | Target::SystemDir | Target::ProjectRoot
    ) || clears_packages_dir
        || clears_anothers_state
    {
        return Some(decide(
            Verdict::Block,
            RuleId::DestroysCritical,
            format!(
                "`{}` is told by a flag to empty {} (`{dir}`): it is never run",
                c.name,
                target.what()
            ),
            raw,
        ));
    }
    matches!(target, Target::Elsewhere | Target::Ancestor).then(|| {
        decide(
            Verdict::Junction,
            RuleId::OutsideWrite,
            format!(
                "`{}` is told to empty `{dir}`, a place outside the project: what it holds is not the agent's, so a person decides",
                c.name
            ),
            raw,
        )
    })
}

/// A command line that deletes, handed to a program to run on what it finds (`findimagedupes
/// -R -p 'rm -f' ~/Pictures`, `-p 'gio trash' /mnt/nas`): it runs on the files under each place
/// the program is given, as `find PLACE -type f -exec CMD {} +` does, and is judged so.
fn runs_a_deleter_on_its_finds(c: &Cmd<'_>, out: &mut Findings) {
    let Some(deleter) = words::handed_deleter(c) else {
        return;
    };
    for place in c.operands().filter_map(|a| a.text.as_deref()) {
        // (A program by its path is what runs the line, not a place searched: `systemd-run
        // --user /bin/sh -c 'rm -rf …'`.)
        let program = crate::known::is_program(place.rsplit('/').next().unwrap_or(place));
        if place == deleter
            || !(place.contains('/') || place.starts_with('~'))
            || place.contains("://")
            || place.contains(char::is_whitespace)
            || program
        {
            continue;
        }
        out.runs(
            &format!("find {place} -type f -exec {deleter} {{}} +"),
            super::Keep::Risky,
        );
    }
}

/// A running process found by its name (`-p "$(pgrep -o sshd)"`, `$(pidof -s postgres)`)
/// handed to a program nobody models: given a process, a program attaches to it, stops it to
/// read its memory (keys included), or changes how it runs, as a debugger does. A process of
/// the project's own, named by its path here (`pgrep -f build/sim`), is the agent's to
/// inspect.
fn handed_a_running_process(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    let found = c.args.iter().find_map(|a| {
        let at = ["$(pgrep ", "$(pidof ", "`pgrep ", "`pidof "]
            .iter()
            .find_map(|s| a.raw.find(s).map(|i| i + s.len()))?;
        let inner = a.raw[at..].split([')', '`']).next()?;
        let name = inner
            .split_whitespace()
            .rfind(|w| !w.starts_with('-'))?
            .trim_matches(['"', '\'']);
        let own = name.contains('/')
            && matches!(ctx.classify(name), super::Place::Inside | super::Place::Tmp);
        (!own).then(|| name.to_owned())
    })?;
    Some(decide(
        Verdict::Junction,
        RuleId::DebuggerAttach,
        format!(
            "`{}` is handed a running process found by its name (`{found}`), and trail does not model this program: a program given a process attaches to it, can read its memory (keys included) or change how it runs: a person decides",
            c.name
        ),
        raw,
    ))
}

/// A firmware image of the project handed over beside a serial or USB port (`stcgal -P stc15
/// -p /dev/ttyUSB0 build/firmware.hex`): the board on that port is rewritten, whatever the
/// programmer is called. Reading the chip out, verifying or asking for its identity writes
/// nothing to it.
fn flashes_a_board(c: &Cmd<'_>, raw: &str) -> Option<Decision> {
    let port = c.words().any(|w| {
        let w = w.rsplit('=').next().unwrap_or(w);
        [
            "/dev/ttyUSB",
            "/dev/ttyACM",
            "/dev/ttyS",
            "/dev/cu.",
            "/dev/tty.usb",
        ]
        .iter()
        .any(|p| w.starts_with(p))
    });
    // A device firmware update's package is an archive (`dfu serial --package
    // build/zmk-dfu.zip`): the words say it is one.
    let dfu = c.words().any(|w| {
        words::parts(w.trim_start_matches('-'))
            .iter()
            .any(|p| p == "dfu")
    });
    // Or an address in a chip's memory to write at (`dfu-util -s 0x08000000:leave -D F`), or a
    // program named for firmware or flashing (`pinprocfw F.xsvf`, `acme-flash F`).
    let address = c.words().any(|w| {
        let v = w.rsplit('=').next().unwrap_or(w);
        let v = v.split(':').next().unwrap_or(v);
        v.strip_prefix("0x")
            .is_some_and(|h| h.len() >= 6 && h.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    let ps = words::parts(c.name);
    // Or a program that speaks to a board (`picotool`, `avrdude`), or one told to write the
    // image it is handed ([`writes_image`]).
    let named = ps.iter().any(|p| {
        matches!(
            p.as_str(),
            "dfu" | "fw" | "firmware" | "flash" | "flasher" | "isp" | "jtag"
        )
    }) || ps.last().is_some_and(|p| p.len() > 4 && p.ends_with("fw"))
        || device_bridge(c.name)
        || writes_image(c);
    // (An image named by an output option is what the program writes: `--out build/log.bin`.)
    let output_flag = |i: usize| {
        i > 0
            && c.args[i - 1].text.as_deref().is_some_and(|f| {
                matches!(
                    f,
                    "-o" | "--out" | "--output" | "--outfile" | "--output-file"
                )
            })
    };
    let image = c.args.iter().enumerate().find_map(|(i, a)| {
        let t = a.text.as_deref()?;
        (!output_flag(i)
            && !t.starts_with(['-', '/', '~'])
            && std::path::Path::new(t).extension().is_some_and(|e| {
                let e = e.to_string_lossy().to_ascii_lowercase();
                targets::firmware_or_disk_image(&e)
                    || dfu && e == "zip"
                    // A programmer's own files: JTAG, CPLD and FPGA bitstreams, S-records.
                    || (named || address)
                        && matches!(
                            e.as_str(),
                            "xsvf" | "svf" | "jed" | "bit" | "srec" | "s19" | "mcs" | "rom" | "dfu"
                        )
            }))
        .then_some(t)
    })?;
    // (The program's own name too: a console's `savemem ADDR LEN F` saves the chip to F.)
    let reads = std::iter::once(c.name).chain(c.words()).any(|w| {
        let w = w.trim_start_matches('-').to_ascii_lowercase();
        [
            "read", "dump", "verify", "info", "identify", "list", "backup", "save",
        ]
        .iter()
        .any(|r| w.starts_with(r))
            || matches!(w.as_str(), "r" | "v")
    });
    let board = if port {
        "a board's port"
    } else if address {
        "an address in a chip's memory"
    } else {
        "a name that says it flashes"
    };
    // Told only to rehearse (`--dry-run`), nothing is written to the board.
    ((port || address || named) && !reads && !rehearses(c)).then(|| {
        decide(
            Verdict::Junction,
            RuleId::ConsequenceIrreversible,
            format!(
                "`{}` is handed a firmware image (`{image}`) and {board}: what that board runs is replaced, and trail does not model this program: a person decides",
                c.name
            ),
            raw,
        )
    })
}

/// A chip's memory written by a programmer's operation (`-U flash:w:build/x.hex:i`,
/// `lfuse:w:0xE2:m`): what the board runs, or how it starts, is replaced.
fn writes_chip_memory(c: &Cmd<'_>, raw: &str) -> Option<Decision> {
    let op = c.words().find(|w| memory_write(w))?;
    Some(decide(
        Verdict::Junction,
        RuleId::ConsequenceIrreversible,
        format!(
            "`{}` is told to write a chip's memory (`{op}`): what that board runs, or how it starts, is replaced; a person decides",
            c.name
        ),
        raw,
    ))
}

/// An image handed to a write flag (`minipro -p AT28C256 -w build/rom.bin`): the image is what
/// the program reads, so what it writes is the chip.
fn writes_image(c: &Cmd<'_>) -> bool {
    c.args.windows(2).any(|w| {
        matches!(w[0].text.as_deref(), Some("-w" | "--write" | "--program"))
            && w[1].text.as_deref().is_some_and(|t| {
                std::path::Path::new(t).extension().is_some_and(|e| {
                    targets::firmware_or_disk_image(&e.to_string_lossy()) || e == "rom"
                })
            })
    })
}

/// A chip programmer's memory operation that writes (`flash:w:build/x.hex:i`, `eeprom:w:F`,
/// `lfuse:w:0xE2:m`): a memory's name, `w`, then a file or a value.
fn memory_write(w: &str) -> bool {
    let mut parts = w.split(':');
    matches!((parts.next(), parts.next(), parts.next()), (Some(mem), Some("w"), Some(v))
        if !mem.is_empty()
            && mem.bytes().all(|b| b.is_ascii_alphanumeric())
            && !v.is_empty())
}

/// A serial or USB port given as where the output goes (`juicy-gcode art/panel.svg -o
/// /dev/ttyUSB0`): what is written there is sent to the device on that port, a machine that
/// moves or a board that obeys, not kept in a file.
fn output_to_a_port(c: &Cmd<'_>, raw: &str) -> Option<Decision> {
    let words: Vec<&str> = c.words().collect();
    // A printer's device, however it is given (`--device /dev/usb/lp0`), beside a file to
    // send it: a printer or a cutter acts on what it is sent. (Asked for its ink levels,
    // `escputil -r /dev/usb/lp0 -i`, it is sent nothing.)
    let sends_a_file = c.operands().any(|a| {
        a.text.as_deref().is_some_and(|t| {
            !t.starts_with("/dev/")
                && std::path::Path::new(t)
                    .extension()
                    .is_some_and(|e| e.to_string_lossy().bytes().any(|b| b.is_ascii_alphabetic()))
        })
    });
    if let Some(printer) = words.iter().filter(|_| sends_a_file).find(|w| {
        let v = w.rsplit('=').next().unwrap_or(w);
        ["/dev/usb/lp", "/dev/lp"].iter().any(|p| {
            v.strip_prefix(p)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
    }) {
        return Some(decide(
            Verdict::Junction,
            RuleId::ConsequenceIrreversible,
            format!(
                "`{}` is handed a printer's device (`{printer}`): the printer or the cutter there acts on what it is sent, and trail does not model this program: a person decides",
                c.name
            ),
            raw,
        ));
    }
    let port = words.iter().enumerate().find_map(|(i, w)| {
        let (flag, value) = match w.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f, v),
            _ if w.starts_with('-') => (*w, *words.get(i + 1)?),
            _ => return None,
        };
        // The output named so (`-o`, `--output`), not a device's own option (`-d /dev/ttyUSB0`
        // names the port a program talks through).
        let out = flag == "-o"
            || words::parts(flag.trim_start_matches('-'))
                .iter()
                .any(|p| p == "out" || p == "output");
        (out && serial_device(value)).then_some(value)
    })?;
    Some(decide(
        Verdict::Junction,
        RuleId::ConsequenceIrreversible,
        format!(
            "`{}` is told to put its output on a serial port (`{port}`): the device there acts on it, and trail does not model this program: a person decides",
            c.name
        ),
        raw,
    ))
}

/// Files copied to another machine in scp's form, `… SRC [USER@]HOST:PATH` (`ascp -d
/// build/release xfer@host.example.org:/incoming`, `bbcp -r /srv/exports host.example.org:/data/`):
/// they leave this machine, and a person decides. (A credential store among them is a block:
/// `credential_to_remote`.)
fn copies_to_another_machine(c: &Cmd<'_>, raw: &str) -> Option<Decision> {
    let ops: Vec<&str> = c
        .args
        .iter()
        .filter_map(|a| a.text.as_deref())
        .filter(|w| !w.starts_with('-') && !w.contains('='))
        .collect();
    let (last, rest) = ops.split_last()?;
    // The destination is the last word, not a flag's value (`--repository
    // backup@pbs.example:store1`); and nothing says the files come in (`download … user.dev:x`).
    let after_flag = c.args.len() >= 2
        && c.args[c.args.len() - 2]
            .text
            .as_deref()
            .is_some_and(|f| f.starts_with('-') && !f.contains('='));
    let inbound = rest.iter().any(|w| {
        matches!(
            *w,
            "download" | "get" | "pull" | "fetch" | "retrieve" | "restore" | "clone"
        )
    });
    if after_flag || inbound || c.args.last().and_then(|a| a.text.as_deref()) != Some(*last) {
        return None;
    }
    let local = |w: &&str| {
        (w.contains('/') || w.starts_with('~') || w.starts_with('.'))
            && !targets::scp_destination(w)
            && !w.contains("://")
    };
    (targets::scp_destination(last) && rest.iter().any(local)).then(|| {
        decide(
            Verdict::Junction,
            RuleId::CopyToRemote,
            format!(
                "`{}` is told to copy files to another machine (`{last}`), and trail does not model this program: a person decides",
                c.name
            ),
            raw,
        )
    })
}

/// The project's files handed over beside another machine, both as operands (`storescu
/// pacs.hospital.internal 104 data/ct.dcm`, `dcmsnd PACS@pacs.example:104 data/ct001.dcm`,
/// `mailman inject -f build/newsletter.eml announce@lists.acme.com`): what is given is sent
/// there. Not when the command only looks, says what comes in, or names its output here.
fn sends_to_a_host(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    let words: Vec<&str> = c.args.iter().filter_map(|a| a.text.as_deref()).collect();
    // An operand: not a flag, nor the value a bare flag before it takes.
    let operand = |i: usize| {
        !words[i].starts_with('-')
            && i.checked_sub(1)
                .is_none_or(|p| !words[p].starts_with('-') || words[p].contains('='))
    };
    // A host by its name, not a reversed one naming an app (`com.acme.app`), nor an image's
    // or a URL's (a registry's `ghcr.io/acme/api:2.4`).
    // Or another machine's address last, where a copy's destination goes (`nbdcopy
    // build/vm1.raw nbd://storage01.example.com/vm1`, `wput dist/app.tar.gz
    // ftp://deploy@ftp.example.com/releases/`).
    let last_url = words
        .last()
        .filter(|w| targets::names_host(w) && w.contains("://") && operand(words.len() - 1))
        .copied();
    let host = last_url.or_else(|| {
        (0..words.len()).map(|i| words[i]).find(|w| {
            let h = w.rsplit_once('@').map_or(*w, |(_, h)| h);
            let h = h.split(':').next().unwrap_or(h);
            targets::names_host(h)
                && !w.contains("://")
                && !h.contains('/')
                && !matches!(h.split('.').next(), Some("com" | "org" | "net" | "io"))
        })
    })?;
    let host_name = targets::host_of(host);
    // A file of the project by its path, not one named for the host (`zones/acme.example.zone`
    // is that host's zone, checked here).
    let given = (0..words.len())
        .filter(|&i| operand(i))
        .map(|i| words[i])
        .find(|w| {
            !w.contains([':', '@'])
                && !w.contains(host_name)
                && w.rsplit_once('.').is_some_and(|(stem, ext)| {
                    stem.contains('/')
                        && !ext.is_empty()
                        && ext.len() <= 5
                        && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                })
                && matches!(ctx.classify(w), super::Place::Inside | super::Place::Tmp)
        })?;
    let inbound = words.iter().any(|w| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "download" | "get" | "pull" | "fetch" | "retrieve" | "restore" | "clone" | "query"
        )
    });
    if inbound || words::looks(c) || words::shows_only(c) || targets::outputs_here(c, ctx) {
        return None;
    }
    Some(decide(
        Verdict::Junction,
        RuleId::CopyToRemote,
        format!(
            "`{}` is given the project's `{given}` beside another machine (`{host}`): it is sent there, and trail does not model this program: a person decides",
            c.name
        ),
        raw,
    ))
}

/// A program trail knows as one that handles data or runs code it is given: a script it runs
/// is read as a program of its own, and so are the code options it is given.
fn runs_data(
    c: &Cmd<'_>,
    ctx: &Context,
    (layer, scratch): (Layer, bool),
    raw: &str,
    out: &mut Findings,
) {
    out.extend(compresses_over(c, ctx, raw));
    // A settings file this line wrote, opened by the code it is given (`python3 -c '…
    // Engine("build/c.json")'`): where that file sends output is written.
    out.extend(planted_destination(c, ctx, raw));
    // A script this line wrote is judged by the code it holds (`cat > build/scale.py <<EOF`),
    // not by a verb its name happens to be.
    let planted = || words::script_run(c).is_some_and(|(_, script)| ctx.planted(script));
    if !scratch && !planted() {
        words::script_named(c, raw, out);
    }
    arguments::code_options(c, ctx, raw, out);
    // A script told to install or load code by its address, or a file this line fetched
    // (`php …/joomla.php extension:install --url=https://…/pkg.zip`).
    if let Some((inner, _)) = words::script_run(c) {
        out.extend(
            code_from_url(&inner, raw)
                .filter(|d| d.verdict == Verdict::Block)
                .or_else(|| loads_fetched(&inner, ctx, layer, Tier::Cli, raw)),
        );
        destroys_as_a_program(&inner, ctx, layer, raw, out);
    }
}

/// A script run as a program of its own destroys what such a program would: a system table
/// its words put it where it writes (`dwpage.php checkout wiki:start /etc/sudoers`), home
/// given beside a deleting word (`manage.py document_exporter /home/dev --delete`). Only
/// blocks: what the script's other words ask is [`words::script_named`]'s.
fn destroys_as_a_program(
    inner: &Cmd<'_>,
    ctx: &Context,
    layer: Layer,
    raw: &str,
    out: &mut Findings,
) {
    let found = targets::of(inner, ctx);
    if found.is_empty() {
        return;
    }
    if let Some(t) = found.iter().find(|t| table_written(inner, ctx, t, false)) {
        out.push(table_block(inner, t, raw));
        return;
    }
    let shows = words::shows_only(inner);
    let verb = if shows {
        None
    } else {
        words::consequence(inner)
    };
    critical(
        inner,
        ctx,
        layer,
        (shows, words::looks(inner)),
        verb.as_ref(),
        &found,
        raw,
        out,
    );
}

/// A compressor that replaces each file with its compressed copy (`gzip`, `xz`; `zstd` and
/// its kin told `--rm`), told to walk `/`, home, a system directory or the project's
/// ancestors: every file there, the shell's start-up files and keys among them, is gone
/// under a new name, and nothing that reads them starts.
fn compresses_over(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    // Asked of every program whose words are data (`cat`, `grep`): the name first.
    let replaces = known::replaces_files(c.name)
        || known::keeps_files(c.name) && c.option_words().any(|w| w == "--rm");
    if !replaces {
        return None;
    }
    let short = |w: &str, letter: char| {
        w.strip_prefix('-')
            .is_some_and(|r| !r.starts_with('-') && r.contains(letter))
    };
    let recursive = c
        .option_words()
        .any(|w| w == "--recursive" || short(w, 'r'));
    // Kept (`-k`), or only decompressed, listed or tested.
    let spares = c.option_words().any(|w| {
        matches!(
            w,
            "--keep" | "--decompress" | "--uncompress" | "--list" | "--test"
        ) || ['k', 'd', 'l', 't'].iter().any(|&l| short(w, l))
    });
    if spares {
        return None;
    }
    if !recursive {
        return compresses_a_system_file(c, ctx, raw);
    }
    let (word, t) = c.operands().find_map(|a| {
        let w = a.text.as_deref()?;
        let t = targets::target(w, ctx)?;
        matches!(
            t,
            Target::Root | Target::Home | Target::SystemDir | Target::Ancestor
        )
        .then(|| (w.to_string(), t))
    })?;
    Some(decide(
        Verdict::Block,
        RuleId::DestroysCritical,
        format!(
            "`{}` is told to replace every file under {} (`{word}`) with a compressed copy: it is never run",
            c.name,
            t.what()
        ),
        raw,
    ))
}

/// A compressor that replaces a file with its compressed copy, given one the system runs or
/// starts from (`sudo gzip /etc/passwd`, `xz /boot/initrd.img-…`): the file is gone under a
/// new name, and what reads it no longer finds it. Logs and shared data (`/var`,
/// `/usr/share`) are compressed as a matter of course.
fn compresses_a_system_file(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    let word = c.operands().find_map(|a| {
        let w = a
            .text
            .as_deref()
            .unwrap_or_else(|| a.raw.trim_matches(['"', '\'']));
        // A name finished when the line runs (`/boot/initrd.img-$(uname -r)`): its directory
        // is known.
        let known;
        let w = match w.split_once('$') {
            Some((head, _)) if head.starts_with('/') && head.len() > 1 => {
                known = format!("{head}x");
                known.as_str()
            }
            _ => w,
        };
        let t = targets::target(w, ctx)?;
        let system = t == Target::SystemFile && !shared_data(w) && !w.starts_with("/var/");
        (system || t == Target::Firmware).then(|| w.to_string())
    })?;
    Some(decide(
        Verdict::Block,
        RuleId::DestroysCritical,
        format!(
            "`{}` replaces `{word}`, a file the system runs or starts from, with a compressed copy under a new name: what reads it no longer finds it; it is never run",
            c.name
        ),
        raw,
    ))
}

/// Whether a destroying verb acts on scratch only: an emptying one whose every named place
/// is scratch, or a reset told to work in a scratch directory.
fn acts_on_scratch(c: &Cmd<'_>, ctx: &Context, v: &words::Verb) -> bool {
    if v.class != words::Class::Destroys {
        return false;
    }
    let ps = words::parts(&v.word);
    // (Or every place it names is scratch: `scorecards prune --root "$TMPDIR/s" --keep 0`,
    // `posters sync --cache build/p --prune-cache`.)
    // (Not a device's write or reset, `--write-flash build/top.bit` writes the board; nor a
    // delete, which may name what it deletes elsewhere in a file: `delete bulk --file F`.)
    let empties = ps.iter().any(|p| empties_word(p));
    // A reset or a delete where it is told to work, and that is scratch (`-C build/ws
    // workspace reset --hard`, `data delete --path build/scratch`): what it removes is made
    // again. (Not a file of what to delete: `delete bulk --file F`.)
    // (Or where a mirror lands, `--to dist/covers --delete-missing`.)
    let resets = || {
        ps.iter()
            .any(|p| matches!(p.as_str(), "reset" | "delete" | "remove" | "drop"))
            && c.option_words().any(|w| {
                let flag = w.split('=').next().unwrap_or(w);
                targets::dir_flag(flag)
                    || matches!(
                        flag,
                        "--to" | "--into" | "--local" | "--target" | "--overlay"
                    )
            })
    };
    // (Or a mirror that removes what its source lacks, landing in scratch: `mirror --onto
    // dist/ledgers --evict-orphans`.)
    (empties || resets() || mirrors_removing(c, false)) && targets::names_only_scratch(c, ctx)
}

/// Whether what a verb does stays on this machine, where nothing is lost or sent: restored or
/// extracted into the project or a temporary directory, or deployed or published only to this
/// machine's own service (`zbctl deploy … --address localhost:26500`). Sending and paying
/// through a local service still reach out (a mail relay, a payment gateway).
fn stays_here(c: &Cmd<'_>, ctx: &Context, v: &words::Verb) -> bool {
    let parts = words::parts(&v.word);
    let restores = parts
        .iter()
        .any(|p| matches!(p.as_str(), "restore" | "extract"));
    // Sharing a service of this machine (`zrok share public localhost:3000`) opens it to
    // others: the address is what is handed out, not where the act stays.
    // A send told only this machine's address as its own value (`--send 127.0.0.1:9000`, a
    // control surface's messages to a local program) stays here; a mail relayed through this
    // machine (`--server localhost` beside a recipient) does not.
    let sends_here = v.word.starts_with('-') && {
        let words: Vec<&str> = c.option_words().collect();
        option_pairs(&words)
            .any(|(flag, value)| flag == v.word && value.is_some_and(targets::loopback_address))
    };
    let relays = parts.iter().any(|p| {
        matches!(
            p.as_str(),
            "mail" | "email" | "sms" | "pay" | "charge" | "transfer" | "notify" | "share"
        ) || p == "send" && !sends_here
    });
    // Formatting files of the project or a temporary directory (`grain format src/main.gr`, a
    // database's data file made in `build/`): a formatter's rewrite, or a new file, not a
    // volume wiped.
    let formats_here = parts.iter().any(|p| p == "format") && {
        let files: Vec<&str> = c
            .operands()
            .filter_map(|a| a.text.as_deref())
            // A file by its path or its extension; `ibm.1440` is a disk format's name.
            .filter(|w| {
                w.contains('/')
                    || w.rsplit_once('.').is_some_and(|(s, e)| {
                        !s.is_empty() && e.bytes().any(|b| b.is_ascii_alphabetic())
                    })
            })
            .collect();
        !files.is_empty()
            && files.iter().all(|f| {
                matches!(
                    ctx.classify(f),
                    crate::paths::Place::Inside | crate::paths::Place::Tmp
                )
            })
    };
    // Files of the project worked on into an output here (`sejda-console merge -f doc/a.pdf
    // doc/b.pdf -o build/merged.pdf`, `… rotate -f doc/a.pdf -r 90 -o dist/`): every word
    // the verb could act on is a file here or a number, and an option says the output goes
    // here, so the verb is done to those files.
    let output_path_here = {
        let words: Vec<&str> = c.option_words().collect();
        option_pairs(&words).any(|(flag, value)| {
            // (Not the act's own flag: `--publish-results F` publishes F, wherever it is.)
            flag.starts_with('-')
                && flag != v.word
                && targets::output_flag(flag, false)
                && value.is_some_and(|v| {
                    v.contains(['/', '.'])
                        && !v.contains(':')
                        && matches!(
                            ctx.classify(v),
                            crate::paths::Place::Inside | crate::paths::Place::Tmp
                        )
                })
        })
    };
    let files_here = !relays && output_path_here && targets::only_output_here(c, ctx) && {
        let mut objects = c
            .operands()
            .filter_map(|a| a.text.as_deref())
            .filter(|w| *w != v.word)
            .peekable();
        objects.peek().is_some()
            && objects.all(|w| {
                w.bytes().all(|b| b.is_ascii_digit())
                    || (w.contains('/') || w.rsplit_once('.').is_some_and(|(s, _)| !s.is_empty()))
                        && matches!(
                            ctx.classify(w),
                            crate::paths::Place::Inside | crate::paths::Place::Tmp
                        )
            })
    };
    // A flag that empties a directory another flag names, given one here (`--reset-solutions
    // --solutions-dir build/solutions`): what it empties is there.
    // Or a subcommand that empties the one directory an option names (`purge --cache-dir
    // build/vm-cache`).
    let emptying = |w: &str| w.starts_with("--") || words::empties_whole(w);
    let empties_here = v.class == words::Class::Destroys && emptying(&v.word) && {
        // A value only the shell knows (`"$TMPDIR/x"`) is judged as written.
        let all: Vec<String> = c.args.iter().map(|a| ctx.arg_text(a)).collect();
        let words: Vec<&str> = all.iter().map(String::as_str).collect();
        dir_emptied_by_flag(&words).is_some_and(|d| {
            let d = ctx.expand_text_vars(d);
            let d = d.trim_matches(['"', '\'']);
            d.contains('/')
                && !d.contains("://")
                && matches!(
                    ctx.classify(d),
                    crate::paths::Place::Inside | crate::paths::Place::Tmp
                )
        })
    };
    restores && lands_here(c, ctx, true)
        || empties_here
        || acts_on_scratch(c, ctx, v)
        || v.class == words::Class::Installs && lands_here(c, ctx, false)
        || formats_here
        || files_here
        || v.class == words::Class::Reaches && !relays && targets::loopback_only(c)
        // Any act said to this machine's cloud emulator (`--endpoint-url=http://localhost:…`).
        || super::rules::emulated(c)
}

/// A program nobody models told to move what it is given (`--move`, a `move` or `mv`
/// subcommand): what it moves is gone from where it was. The home, the filesystem root, a
/// system directory or the project root moved somewhere (`phockup --move /home/dev
/// build/sorted`) is emptied, as `mv ~ build/` empties the home: a block. Any other place
/// outside the project moved or renamed (`--move /media/dev/CARD/DCIM build/`, `acme mv
/// ~/Pictures/*.jpg`) loses its files there: a person decides.
fn moves_away(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    // Every command nobody models comes here: the word's parts are split only when it starts
    // with `move` at all.
    let said = c.words().take_while(|w| *w != "--").find(|w| {
        let bare = w.trim_start_matches('-');
        bare.eq_ignore_ascii_case("mv")
            || bare
                .get(..4)
                .is_some_and(|h| h.eq_ignore_ascii_case("move"))
                && words::parts(bare).first().is_some_and(|p| p == "move")
    })?;
    // (A destination only the shell knows, `$TMPDIR/sorted`, is an operand all the same.)
    // Said as a subcommand (`acme mv …`), what follows it is what it moves; said as an
    // option (`--move`), every operand.
    let ops: Vec<Option<&str>> = c
        .operands()
        .map(|a| a.text.as_deref())
        .skip_while(|w| !said.starts_with('-') && *w != Some(said))
        .filter(|w| *w != Some(said))
        .collect();
    // What is moved: every operand but the last, where it goes; a lone operand is renamed
    // where it is.
    let moved = if ops.len() > 1 {
        &ops[..ops.len() - 1]
    } else {
        &ops[..]
    };
    let moved: Vec<&str> = moved.iter().flatten().copied().collect();
    // The whole of a protected place: the root, the home, the project root or a directory
    // above it, or a system directory itself or one level in (`/etc`, `/usr/local`).
    let whole = moved.iter().find_map(|w| {
        let p = ctx.resolve(w)?;
        let what = match ctx.places.classify(&p.to_string_lossy()) {
            crate::paths::Place::Root => "the filesystem root",
            crate::paths::Place::Home => "the home directory",
            crate::paths::Place::ProjectRoot => "the project root",
            crate::paths::Place::System if p.components().count() <= 3 => "a system directory",
            _ if ctx.holds_project(&p) => "a directory above the project",
            _ => return None,
        };
        Some((w, what))
    });
    if let Some((word, what)) = whole.filter(|_| ops.len() > 1) {
        return Some(decide(
            Verdict::Block,
            RuleId::DestroysCritical,
            format!(
                "`{}` is told to move (`{said}`) {what} (`{word}`) somewhere else: what it moves is gone from there; it is never run",
                c.name
            ),
            raw,
        ));
    }
    let outside = moved.iter().find(|w| {
        w.starts_with(['/', '~', '$'])
            && ctx.resolve(w).is_some_and(|p| {
                !p.starts_with(&ctx.places.project_root)
                    && !matches!(
                        ctx.places.classify(&p.to_string_lossy()),
                        crate::paths::Place::Tmp
                    )
            })
    })?;
    Some(decide(
        Verdict::Junction,
        RuleId::ConsequenceIrreversible,
        format!(
            "`{}` is told to move (`{said}`) what is in `{outside}`, outside the project: its files are gone from there, and trail does not model this program: a person decides",
            c.name
        ),
        raw,
    ))
}

/// A boot file or a system table given last to a program nobody models (asked only of one),
/// after what it reads (`targets::table_after_inputs`). Only such a program: a known one's operands are read by
/// its own rules (`cat build/x /etc/hosts`, `diff build/hosts /etc/hosts` read both); nor one
/// named for comparing or checking (`acmediff build/hosts /etc/hosts`).
fn table_written_last(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    let compares = ["diff", "cmp", "compare", "check", "verify", "lint", "valid"]
        .iter()
        .any(|w| c.name.to_ascii_lowercase().contains(w));
    if compares || words::shows_only(c) || words::looks(c) {
        return None;
    }
    targets::table_after_inputs(c, ctx).map(|word| {
        decide(
            Verdict::Block,
            RuleId::DestroysCritical,
            format!(
                "`{}` is given a boot file, a system table or one of the system's programs (`{word}`) last, after what it reads: that is where its output goes; it is never run",
                c.name
            ),
            raw,
        )
    })
}

/// Output written onto a disk destroys what is on it, whatever else the program does: a disk
/// given to a long option named for what the program writes (`darkstat -i eth0 --export
/// /dev/sda`, `server dump … --archive=/dev/sda`), the last operand of a saving subcommand
/// after what it saves (`ctdb backupdb secrets.tdb /dev/sda`), or any disk given to a program
/// named for recording (`bmdcapture -f /dev/sda`).
fn disk_written_by_option(
    c: &Cmd<'_>,
    ctx: &Context,
    found: &[targets::Found],
    raw: &str,
) -> Option<Decision> {
    // Every check below ends in a word that is a whole disk: most commands name none. A
    // rehearsal writes nothing (`--output /dev/sda --dry-run`).
    if !found.iter().any(|t| t.target == Target::Device) || rehearses(c) {
        return None;
    }
    let recorded = || {
        targets::named_for_recording(c.name)
            .then(|| {
                found
                    .iter()
                    .find(|t| t.target == Target::Device && !t.read && !t.into)
            })
            .flatten()
            .map(|t| t.word.clone())
    };
    let disk = targets::disk_by_output_option(c, ctx)
        .or_else(|| targets::disk_as_destination(c, ctx))
        .or_else(|| targets::disk_after_inputs(c, ctx))
        .or_else(recorded)?;
    Some(decide(
        Verdict::Block,
        RuleId::DestroysCritical,
        format!(
            "`{}` is told to write its output to a disk or raw device (`{disk}`): it is never run",
            c.name
        ),
        raw,
    ))
}

/// A program named for mounting, given `/`, a system directory or home as where it mounts (its
/// last operand: `sudo mount-s3 --read-only sys-backup /usr`, `ratarmount x.tar /usr/bin`):
/// what is there is hidden under the mount while it lasts, and the system stops working (a
/// block), or the person's files are (a junction). `umount` takes a mount away.
fn mounted_over(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    let ps = words::parts(c.name);
    let unmounts = c
        .words()
        .any(|w| w == "-u" || w.contains("unmount") || w.contains("umount"));
    if unmounts
        || !ps
            .iter()
            .any(|p| p.ends_with("mount") && !p.ends_with("umount"))
    {
        return None;
    }
    let point = c.operands().filter_map(|a| a.text.as_deref()).last()?;
    let target = targets::target(point, ctx)?;
    let (verdict, rule, then) = match target {
        Target::Root | Target::SystemDir => {
            (Verdict::Block, RuleId::DestroysCritical, "it is never run")
        }
        Target::Home => (Verdict::Junction, RuleId::NamesCritical, "a person decides"),
        _ => return None,
    };
    Some(decide(
        verdict,
        rule,
        format!(
            "`{}` mounts something over {} (`{point}`): what is there is hidden while it is mounted; {then}",
            c.name,
            target.what()
        ),
        raw,
    ))
}

/// A RAID array created or a disk added to one by a program nobody models (`tw_cli /c0 add
/// type=raid0 disk=0-3`, `sas2ircu 0 CREATE RAID1 MAX 2:0 2:1`): the controller initialises
/// the disks it is given, and what they held is gone. A block, unless the run only shows.
fn builds_an_array(c: &Cmd<'_>, raw: &str) -> Option<Decision> {
    let level = c.words().find(|w| {
        let w = w.to_ascii_lowercase();
        let v = w.rsplit('=').next().unwrap_or(&w);
        v.strip_prefix("raid").is_some_and(|n| {
            let n = n.strip_suffix('e').unwrap_or(n);
            !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit())
        })
    })?;
    let creates = c.words().any(|w| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "create" | "add" | "make" | "new" | "build" | "mk" | "-c" | "--create"
        )
    });
    (creates && !words::shows_only(c)).then(|| {
        decide(
            Verdict::Block,
            RuleId::DestroysCritical,
            format!(
                "`{}` is told to build a RAID array (`{level}`): the disks it is given are initialised and what they held is lost; it is never run",
                c.name
            ),
            raw,
        )
    })
}

/// Whether `name` could be a program's. A name no program has (`BEGIN{`, when code in another
/// language is read as a shell's) is judged by the rules alone. Nor does an option: a
/// subcommand read as a program (`acme-scan eval --results …` made `--results` the program
/// `eval` runs). A lone `-` is a YAML list's item, whose words do.
fn plausible_program(name: &str) -> bool {
    let option = name.len() > 1 && name.starts_with('-');
    !name.is_empty()
        && !option
        && name
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | '.' | '+' | '@' | ':'))
}

/// Every place that matters the command names: its words, its own name, a here-document fed
/// to a program nobody models, bare disks given to a deleting verb, and the variables set for
/// it.
fn places(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &Context,
    tier: Tier,
    verb: Option<&words::Verb>,
) -> Vec<targets::Found> {
    let mut found = targets::of(c, ctx);
    found.extend(targets::program(c.name));
    if tier == Tier::Unknown
        && let Some(text) = &cmd.heredoc
    {
        found.extend(targets::fed(text, ctx));
    }
    // A configuration printed into it (`-f <(printf 'print_output_file: /etc/hosts\n')`, `printf
    // … | prog`), or written to a file it is handed (`printf 'logfile=/etc/passwd\n' > m.ini
    // && murmurd -ini m.ini`): its settings name places as a here-document's do.
    if tier == Tier::Unknown {
        for p in producers {
            if let Some(lines) = super::feed::printed(p) {
                found.extend(targets::fed(&lines.join("\n"), ctx));
            }
        }
        for text in planted_handed(c, ctx) {
            found.extend(targets::fed(text, ctx));
        }
        // Console lines an option hands it (`-eval 'set net.sniff.output /etc/passwd'`).
        for pair in c.args.windows(2) {
            // (`-e` too: a console's line to run, `foma -e 'write att F'`; and `-c`, `-C`
            // given a line of words, `cmus-remote -C 'save -p F'`, where one word names a file.)
            if let (Some(flag), Some(text)) = (pair[0].text.as_deref(), pair[1].text.as_deref())
                && flag.starts_with('-')
                && (flag == "-e"
                    || matches!(flag, "-c" | "-C") && text.contains(' ')
                    || arguments::command_option(flag.trim_start_matches('-')))
            {
                found.extend(targets::fed(text, ctx));
            }
        }
    }
    if verb.is_some_and(words::Verb::deletes) {
        found.extend(targets::bare_disks(c));
    }
    // A variable set for the program naming where it works (`EASYRSA_PKI=/home/dev easyrsa
    // init-pki`, `ERASE_DISKS=/dev/nvme0n1 setup-disk …`): that place is the program's.
    found.extend(targets::assigned(&cmd.assigns, ctx));
    found
}

/// Output a program nobody models is told to put in a place that matters: a person decides,
/// and where it is told to replace what is in `/`, the home or a system directory
/// (`--target /usr --replace-all`, `--overwrite`), the system's own files are written over.
fn output_placed(c: &Cmd<'_>, t: &targets::Found, raw: &str) -> Decision {
    if matches!(t.target, Target::Root | Target::SystemDir | Target::Home)
        && c.option_words().any(targets::rewrites_in_place)
    {
        return decide(
            Verdict::Block,
            RuleId::DestroysCritical,
            format!(
                "`{}` is told to write its output over {} (`{}`), replacing what is there: it is never run",
                c.name,
                t.target.what(),
                t.word
            ),
            raw,
        );
    }
    decide(
        Verdict::Junction,
        RuleId::NamesCritical,
        format!(
            "`{}` is told to put its output in {} (`{}`), and trail does not model this program: a person decides",
            c.name,
            t.target.what(),
            t.word
        ),
        raw,
    )
}

/// A place that matters named to a program trail does not model, other than to look at it.
fn names_critical(
    c: &Cmd<'_>,
    ctx: &Context,
    no_verb: bool,
    reads_only: bool,
    found: &[targets::Found],
    raw: &str,
) -> Option<Decision> {
    if reads_only {
        // Even a command that otherwise looks saves into a table named after a word of
        // saving (`acme-cli … dump --format x 42 /etc/hosts`).
        if let Some(t) = found.iter().find(|t| table_written(c, ctx, t, true)) {
            return Some(table_block(c, t, raw));
        }
        // Its output option says where files land, looking or not (`zenodo_get DOI -o /etc`,
        // `lasinfo -i x.laz -o /usr/share/doc/site.txt`); a running daemon's file it names
        // there (`--status --pidfile /run/acme.pid`) is read, not written.
        let directory = |t: &targets::Found| {
            t.target != Target::SystemDir
                || !std::path::Path::new(&t.word)
                    .extension()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| matches!(n, "pid" | "lock" | "sock" | "socket"))
        };
        // Or outside the project, where a looking program's report lands over what is
        // there (`surelog -parse … -o /home/dev/out`); a dry run writes nowhere
        // (`pg_upgrade --check … --new-datadir …`).
        let elsewhere = !words::shows_only(c);
        // A rehearsal (`--clean-out --out-dir /home/dev --dry-run`) lands nowhere.
        if rehearses(c) {
            return None;
        }
        // A converter's last operand, by its place (`readstat data/a.sav /home/dev/a.dta`: a
        // name of reading, and the shape of `IN OUT`).
        let converted = found
            .iter()
            .any(|t| t.output && !t.named && !t.by_option)
            .then(|| targets::converted(c, ctx))
            .flatten();
        // Or one of the base system's own tables, however the program is said to look
        // (`rosparam dump /etc/hosts`, `twarc2 search "budget" /etc/passwd`): which operand a
        // program nobody models writes is its own business, and these are never its input.
        let t = found.iter().find(|t| {
            t.output
                && (t.named || converted.as_deref() == Some(t.word.as_str()))
                && (t.target.critical() || elsewhere && t.target == Target::Elsewhere)
                && t.target != Target::ProjectRoot
                && directory(t)
                || elsewhere
                    && t.target == Target::SystemFile
                    && !t.read
                    && targets::system_table(&t.word, ctx)
        })?;
        return Some(output_placed(c, t, raw));
    }
    // Told where its output goes, inside the project: a system file it is also given as an
    // operand is read (`oscap … --results build/r.xml /usr/share/xml/scap/…-ds.xml`); an
    // option's value may be written all the same (`h5unjam -u /etc/sudoers -o build/x.h5`).
    let inputs = no_verb && targets::outputs_here(c, ctx);
    // The project root named as where output goes (`jekyll build -d /work/proj`): a builder
    // that empties its destination first empties the project. Not `.`, where a download or a
    // fixer writes as a matter of course.
    let t = found
        .iter()
        .filter(|t| !mount_operand(c, &t.word))
        .find(|t| {
            t.target == Target::ProjectRoot && t.output && !matches!(t.word.as_str(), "." | "./")
                || t.target != Target::ProjectRoot
                    && (t.target.critical()
                        || t.target == Target::Removable && !t.read
                        || t.output
                        || t.target == Target::SystemFile && !t.read && (!inputs || t.by_option))
        })?;
    // One of the base system's own tables, given where it is written: replaced, nobody logs
    // in (`gpsd -P /etc/passwd`, `ncks … data.nc /etc/passwd`).
    // Beside an output here, an operand is read (`--results build/r.xml /etc/hosts`).
    if let Some(t) = found
        .iter()
        .find(|t| (!inputs || t.by_option) && table_written(c, ctx, t, false))
    {
        return Some(table_block(c, t, raw));
    }
    // A checker named for it given a system file as what it checks (`nsd-checkconf
    // /etc/nsd/nsd.conf`) reads it.
    if no_verb && words::checker(c.name) && t.target == Target::SystemFile && !t.output {
        return None;
    }
    // A whole disk handed to a program nobody models, and no word that says it only reads,
    // only pretends or is a kernel's setting (`root=/dev/vda`): whatever the program writes
    // there destroys every file system on the disk. The labelled parts, written from DESIGN.md
    // alone, call 803 of the 837 commands that name one catastrophic.
    if t.target == Target::Device
        && targets::whole_disk(&t.word)
        && !t.read
        && !reads_disks(c.name)
        && !disk_read(c, ctx, &t.word)
        && !words::shows_only(c)
        // (`shows_only` has taken `--dry-run`, `--simulate` and `--noop`.)
        && !c.option_words().any(|w| {
            matches!(
                w,
                "-n" | "--no-act" | "-r" | "--ro" | "--read-only" | "--readonly"
            )
        })
        && !c.words().any(|w| {
            w.strip_suffix(t.word.as_str())
                .is_some_and(|k| k.ends_with("root=") || k.ends_with("resume="))
        })
    {
        return Some(decide(
            Verdict::Block,
            RuleId::DestroysCritical,
            format!(
                "`{}` is given a whole disk (`{}`), and trail does not model this program: what it writes there destroys every file system on the disk; it is never run (a person runs it, or reads it with a tool trail knows)",
                c.name, t.word
            ),
            raw,
        ));
    }
    Some(decide(
        Verdict::Junction,
        RuleId::NamesCritical,
        format!(
            "`{}` is given {} (`{}`), and trail does not model this program: a person decides",
            c.name,
            t.target.what(),
            t.word
        ),
        raw,
    ))
}

/// Whether the words around a whole disk say it is read: the disk alone (`acme-inq
/// /dev/sda`, an inspector's whole call) or with the list convention alone (`-l /dev/sda`);
/// first of `IN OUT` (`acme-img /dev/sda build/disk.img`); after DOS-style switches alone
/// (`/dump /log /dev/sda`); or beside an output the command is told to put here (`-t
/// build/case /dev/sda`).
fn disk_read(c: &Cmd<'_>, ctx: &Context, disk: &str) -> bool {
    let words: Vec<&str> = c.words().collect();
    let others: Vec<&str> = words.iter().copied().filter(|w| *w != disk).collect();
    let alone = others.is_empty() || others == ["-l"];
    let switches = !others.is_empty()
        && others.iter().all(|w| {
            w.len() > 1 && w[1..].bytes().all(|b| b.is_ascii_alphabetic()) && w.starts_with('/')
        });
    let ops: Vec<&str> = c.operands().filter_map(|a| a.text.as_deref()).collect();
    let first_of_two = ops.len() >= 2
        && ops[0] == disk
        && ops[1..]
            .iter()
            .any(|w| w.contains('/') && !w.starts_with("/dev/"));
    // An option given a file or a directory here (`-c conf.yml`, `-t build/case`): how to run,
    // or where the output goes; the disk is what is read.
    let here = c.option_words().collect::<Vec<_>>();
    let told_here = option_pairs(&here).any(|(flag, value)| {
        flag.starts_with('-')
            && value.is_some_and(|v| {
                v.contains(['/', '.'])
                    && !v.starts_with("/dev/")
                    && matches!(ctx.classify(v), super::Place::Inside | super::Place::Tmp)
            })
    });
    // The disk last, after a data file here that is read (`ssdv -d data/packets.bin
    // /dev/sda`, `dnglab convert -f raw/x.CR3 /dev/sda`): the shape IN OUT, the disk what is
    // written. (Not after settings, `-c conf.yml /dev/sda`, or a place without a kind of
    // file, `-t build/case /dev/nvme0n1`, where what is read off the disk goes.)
    let here_before = words.last() == Some(&disk)
        && words[..words.len() - 1].iter().any(|w| {
            let name = w.rsplit('/').next().unwrap_or(w);
            !w.starts_with('-')
                && name
                    .rsplit_once('.')
                    .is_some_and(|(stem, _)| !stem.is_empty())
                && !settings_named(name)
                && !w.starts_with("/dev/")
                && matches!(ctx.classify(w), super::Place::Inside | super::Place::Tmp)
        });
    let valued = words.windows(2).any(|w| {
        w[1] == disk
            && w[0].starts_with('-')
            && (targets::output_flag(w[0], false) || written_format(w[0]))
    });
    !here_before && !valued && (alone || switches || first_of_two || told_here)
}

/// An option named for a file format a program writes its results in (`--csv`, `-sqlite`,
/// `--geojson`): its value is where they go.
fn written_format(flag: &str) -> bool {
    matches!(
        flag.trim_start_matches('-').to_ascii_lowercase().as_str(),
        "csv"
            | "tsv"
            | "json"
            | "geojson"
            | "gpx"
            | "kml"
            | "xml"
            | "html"
            | "sqlite"
            | "db"
            | "png"
            | "jpg"
            | "jpeg"
            | "pdf"
            | "svg"
            | "txt"
            | "text"
            | "bin"
            | "raw"
            | "img"
    )
}

/// Programs whose work is to read disks (inspection, surface tests, recovery, forensic
/// imaging): a whole disk given to one is what it reads, or changes only when told to, which
/// trail does not read: a person decides, not a block.
fn reads_disks(name: &str) -> bool {
    matches!(
        name,
        "badblocks" | "diskutil" | "ewfacquire" | "hdsentinel" | "photorec" | "sdparm" | "testdisk"
    ) || name.starts_with("sg_")
}

/// Whether `t` is one of the base system's tables ([`targets::system_table`]) given to `c`
/// where it writes: as an output; as the value of an option that does not name the table as
/// what it reads (`-P /etc/passwd`, `--file`, not `--hosts-file`, `--addn-hosts`); after a
/// file it reads (`typst compile doc.typ /etc/hosts`, `… -- /etc/fstab`); beside a word of
/// saving (`gio save /etc/sudoers`, `… backup /etc/shadow`); or alone, as what it works on
/// (`dictzip /etc/shadow`). Not tables read together (`unshadow /etc/passwd /etc/shadow`),
/// and a program named for changing a file's metadata (`chattr +i /etc/resolv.conf`) leaves
/// its contents be.
///
/// `saving_only`: the command otherwise only looks, and only a word of saving counts.
fn table_written(c: &Cmd<'_>, ctx: &Context, t: &targets::Found, saving_only: bool) -> bool {
    if t.target != Target::SystemFile
        || t.read
        || changes_metadata(c.name)
        || !targets::system_table(&t.word, ctx)
    {
        return false;
    }
    // A looking command's `-d` names what it lists (`lsattr -d /etc/resolv.conf`); its `-o`
    // is where it writes.
    if t.output && (!saving_only || t.named) {
        return true;
    }
    let table = t.word.rsplit('/').next().unwrap_or(&t.word);
    let table_parts = words::parts(table);
    let words: Vec<&str> = c.words().collect();
    // Alone, after `=`, or glued to a short option (`-f/etc/passwd`).
    let glued = |w: &str| w.len() == t.word.len() + 2 && w.starts_with('-') && w.ends_with(&t.word);
    // Or after a format (`json:/etc/passwd`).
    let formatted = |w: &str| !w.starts_with('-') && w.ends_with(&format!(":{}", t.word));
    let Some(at) = words.iter().position(|w| {
        *w == t.word || w.ends_with(&format!("={}", t.word)) || glued(w) || formatted(w)
    }) else {
        return false;
    };
    let option = match words[at].split_once('=') {
        Some((flag, _)) if flag.starts_with('-') => Some(flag),
        _ if glued(words[at]) => Some(&words[at][..2]),
        _ => at
            .checked_sub(1)
            .map(|i| words[i])
            .filter(|w| w.starts_with('-') && !w.contains('=') && *w != "--"),
    };
    let saving = words[..at].iter().rposition(|w| {
        words::parts(w.trim_start_matches('-'))
            .iter()
            .any(|p| SAVES.contains(&p.as_str()))
    });
    if saving_only {
        // What is saved named between (`dump 42 /etc/hosts`), or the table an option's value
        // (`export-dashboards -f /etc/hosts`): `dump /etc/hosts` alone may show the file.
        return saving.is_some_and(|s| {
            at + 1 == words.len() && words[s + 1..at].iter().any(|w| !w.starts_with('-'))
                || t.by_option && option.is_some()
        });
    }
    if t.by_option
        && let Some(flag) = option
    {
        let ps = words::parts(flag);
        return !table_parts.iter().any(|p| ps.contains(p));
    }
    let read_before = words[..at].iter().any(|w| {
        !w.starts_with('-')
            && !w.contains('=')
            && (w.contains('/') || w.contains('.'))
            && !targets::system_table(w, ctx)
    });
    // Alone, as the operand it works on (`dictzip /etc/shadow`, `avml /etc/shadow`, `… |
    // sponge /etc/hosts`): every labelled row with an unmodelled program and a table so was
    // a block; the readers that take one are modelled (`cat`, `grep`, `pwck`).
    // Not tables read together (`unshadow /etc/passwd /etc/shadow` joins them for a cracker).
    let operand = !t.by_option
        && option.is_none()
        && !words
            .iter()
            .any(|w| *w != t.word && targets::system_table(w, ctx));
    read_before || saving.is_some() || operand
}

fn table_block(c: &Cmd<'_>, t: &targets::Found, raw: &str) -> Decision {
    decide(
        Verdict::Block,
        RuleId::DestroysCritical,
        format!(
            "`{}` is given one of the system's own tables (`{}`) where it writes, and trail does not model this program; a table written over locks everyone out: it is never run",
            c.name, t.word
        ),
        raw,
    )
}

/// Word parts that put something into the file named after them.
const SAVES: &[&str] = &["backup", "dump", "export", "save", "store", "write"];

/// Whether a program's name follows the Unix custom for changing a file's metadata, not its
/// contents: `ch…` or `set…` then what it changes (`chattr`, `chmod`, `chown`, `chgrp`,
/// `chcon`, `setfacl`, `setfattr`).
fn changes_metadata(name: &str) -> bool {
    (name.starts_with("ch") || name.starts_with("set"))
        && ["attr", "acl", "mod", "own", "grp", "con"]
            .iter()
            .any(|m| name.ends_with(m))
}

/// What a program nobody models does with what it is given: statements that delete, output
/// over a file its text redirects to, a credential sent off this machine, what it is told to
/// move away.
fn what_its_text_writes_or_sends(
    c: &Cmd<'_>,
    cmd: &Simple,
    ctx: &Context,
    verb: Option<&words::Verb>,
    raw: &str,
    out: &mut Findings,
) {
    out.extend(table_written_last(c, ctx, raw));
    // Statements fed on stdin to a console (`rqlite … <<< 'DROP TABLE orders;'`); not text it
    // only copies into a file.
    if let Some(body) = cmd.heredoc.as_deref().filter(|_| cmd.writes.is_empty()) {
        arguments::sql(body, raw, out);
    }
    out.extend(redirect_in_text(c, ctx, raw));
    out.extend(credential_in_text(c, ctx, verb, raw));
    out.extend(credential_to_remote(c, ctx, raw));
    out.extend(moves_away(c, ctx, raw));
}

/// A redirection written inside a program's own language (`taos -s "select … >>
/// '/etc/passwd';"`, a console's `spool > /etc/hosts`): its output lands on that file. One of
/// the system's tables, a disk or firmware is a block; another protected place a junction.
fn redirect_in_text(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    let texts = c.args.iter().filter_map(|a| a.text.as_deref());
    for t in texts.filter(|t| t.contains(char::is_whitespace)) {
        for word in redirected_to(t) {
            if !word.starts_with(['/', '~']) {
                continue;
            }
            let Some(target) = targets::target(word, ctx) else {
                continue;
            };
            let table = target == Target::SystemFile && targets::system_table(word, ctx);
            if table || target.device_like() {
                return Some(decide(
                    Verdict::Block,
                    RuleId::DestroysCritical,
                    format!(
                        "`{}` is given text that writes its output over {} (`{word}`): it is never run",
                        c.name,
                        target.what()
                    ),
                    raw,
                ));
            }
            if target.critical() || target == Target::SystemFile {
                return Some(decide(
                    Verdict::Junction,
                    RuleId::NamesCritical,
                    format!(
                        "`{}` is given text that writes its output to {} (`{word}`), and trail does not model this program: a person decides",
                        c.name,
                        target.what()
                    ),
                    raw,
                ));
            }
        }
    }
    None
}

/// Where a program's own language writes, in a text it is given: after a redirection (a space,
/// `>` or `>>`) or a query language's export (`COPY … INTO '/etc/passwd'`, `INTO OUTFILE`,
/// `EXPORT … INTO LOCAL CSV FILE '…'`, `COPY … TO '…'`), the quoted path.
fn redirected_to(t: &str) -> Vec<&str> {
    let b = t.as_bytes();
    fn first_word(rest: &str) -> &str {
        rest.trim_start_matches(['\'', '"'])
            .split(|ch: char| ch.is_whitespace() || matches!(ch, '\'' | '"' | ';' | ')'))
            .next()
            .unwrap_or_default()
    }
    let mut out = Vec::new();
    for (i, _) in t.match_indices('>') {
        if i > 0 && matches!(b[i - 1], b' ' | b'\t') {
            out.push(first_word(t[i + 1..].trim_start_matches('>').trim_start()));
        }
    }
    // A quoted path right after an exporting keyword, in any case; `TO` only in a `COPY`
    // (prose moves things "to" places too).
    let copy = t.split_whitespace().any(|w| w.eq_ignore_ascii_case("copy"));
    let mut words = t.split_whitespace().peekable();
    while let Some(w) = words.next() {
        let keyword = match w.to_ascii_lowercase().as_str() {
            "into" | "outfile" | "dumpfile" | "file" => true,
            "to" => copy,
            _ => false,
        };
        if keyword
            && let Some(next) = words.peek()
            && next.starts_with(['\'', '"'])
        {
            out.push(first_word(next));
        }
    }
    // A statement that saves (`BACKUP DATABASE '…/dm.ini' FULL BACKUPSET '/dev/nvme0n1'`,
    // `EXPORT … '…'`): what it saves comes first, where it goes last, so the last quoted path
    // is written.
    // (The first word may be a setting's value: `CTLSTMT=BACKUP …`.)
    let saves = t.split_whitespace().any(|w| {
        let w = w.rsplit('=').next().unwrap_or(w);
        ["backup", "dump", "export", "save", "unload", "spool"]
            .iter()
            .any(|k| w.eq_ignore_ascii_case(k))
    });
    if saves
        && let Some(last) = t
            .split_whitespace()
            .rfind(|w| w.starts_with(['\'', '"']) && w[1..].starts_with(['/', '~']))
    {
        out.push(first_word(last));
    }
    out
}

/// A credential store given to a program told to send, publish or upload (`runpodctl send
/// ~/.ssh/id_ed25519`, `… artifact publish ~/.ssh`): a key handed to a third party, as when it
/// is piped into a sender (judge.rs, `credential_sent`).
fn sends_credential(
    c: &Cmd<'_>,
    ctx: &Context,
    verb: Option<&words::Verb>,
    raw: &str,
) -> Option<Decision> {
    let v = verb.filter(|v| v.sends())?;
    super::rules::names_credential(c, ctx).then(|| {
        decide(
            Verdict::Block,
            RuleId::Exfiltration,
            format!(
                "`{}` is told to send something off this machine (`{}`) and is given a credential store (a private key, cloud credentials): it is never run",
                c.name, v.word
            ),
            raw,
        )
    })
}

/// A credential store handed to a program nobody models as what it works on (an operand, an
/// attachment, a file to send: `-a ~/.ssh/id_ed25519`, `-F …`, `local ~/.aws/credentials`),
/// on a line that also names another machine (`-c bench.example`, `drop@host.example`,
/// `--server-host app.example`): the key goes there. Given by an option named for what the
/// program authenticates with (`-i`, `--identity`, `--key`, `--config`), it is how the program
/// logs in, and stays the rules' business.
fn credential_to_remote(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    const AUTHENTICATES: &[&str] = &[
        "auth",
        "cert",
        "conf",
        "config",
        "credential",
        "credentials",
        "identity",
        "key",
        "private",
        "profile",
        "ssh",
    ];
    let words: Vec<&str> = c.words().collect();
    let named = words.iter().enumerate().find_map(|(i, w)| {
        let (flag, value) = match w.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (Some(f), v),
            _ => (
                i.checked_sub(1)
                    .map(|j| words[j])
                    .filter(|p| p.starts_with('-') && !p.contains('=') && *p != "--"),
                *w,
            ),
        };
        if !value.starts_with(['/', '~', '$']) {
            return None;
        }
        let logs_in = flag.is_some_and(|f| {
            matches!(f, "-i" | "-k" | "-I" | "-K")
                || words::parts(f)
                    .iter()
                    .any(|p| AUTHENTICATES.contains(&p.as_str()))
        });
        (!logs_in
            && ctx
                .resolve(value)
                .is_some_and(|p| super::rules::credential_path(ctx, &p)))
        .then_some(value)
    })?;
    // Its recipients may follow `--` (`neomutt -a KEY -- drop@host.example`).
    let place = targets::remote(c).or_else(|| {
        words
            .iter()
            .skip_while(|w| **w != "--")
            .find(|w| targets::names_host(w))
            .map(|w| (*w).to_string())
    })?;
    Some(decide(
        Verdict::Block,
        RuleId::Exfiltration,
        format!(
            "`{}` is handed a credential store (`{named}`) to work on, and told of another machine (`{place}`): the key goes there; it is never run",
            c.name
        ),
        raw,
    ))
}

/// A path given as words to look for (`audit search --text '/etc/shadow'`), the argument at
/// `at`: compared, not read. What a substitution reads is read wherever it goes.
fn compared_only(c: &Cmd<'_>, at: usize) -> bool {
    c.args
        .get(at)
        .is_some_and(|a| !a.raw.contains("$(") && !a.raw.contains('`'))
        && words::subcommands(c)
            .iter()
            .any(|w| words::SEARCHES.contains(w))
}

/// A credential store a program nobody models is given, as a word, an option's value or
/// inside code (`qrencode -r ~/.ssh/id_ed25519`, `jello 'urlopen(URL,
/// data=open("/home/dev/.aws/credentials")…'`, `conky -t '${exec cat ~/.aws/credentials}'`).
/// With a URL beside it, or a verb of sending, it is sent somewhere (`w3m -post
/// ~/.aws/credentials URL`): a block;
/// alone, a person decides, and piped into a sender it is sent (judge.rs, `credential_sent`).
fn credential_in_text(
    c: &Cmd<'_>,
    ctx: &Context,
    verb: Option<&words::Verb>,
    raw: &str,
) -> Option<Decision> {
    // A word built by the shell is read as written: its content is a credential's when the
    // command substituted there reads one (`"$(cat ~/.ssh/id_ed25519)"`).
    let texts = || c.args.iter().map(|a| a.text.as_deref().unwrap_or(&a.raw));
    let mut at = 0;
    let named = texts().enumerate().find_map(|(i, t)| {
        at = i;
        // `@` too: the upload syntax of many senders (`file@/home/dev/.ssh/id_ed25519`). The
        // whole word first: a path may hold a blank (a browser's `Default/Login Data`).
        std::iter::once(t.trim_matches(['"', '\'']))
            .chain(t.split(|ch: char| {
                ch.is_whitespace()
                    || matches!(
                        ch,
                        '"' | '\'' | '(' | ')' | ',' | ';' | '`' | '=' | '{' | '}' | '@'
                    )
            }))
            .filter(|w| w.starts_with('/') || w.starts_with("~/") || w.starts_with("$HOME/"))
            .find(|w| {
                ctx.resolve(w)
                    .is_some_and(|p| super::rules::credential_path(ctx, &p))
            })
            .map(str::to_string)
    })?;
    // An address in any scheme (`tcp://mq.example:61616`, `amqp://…`) of another host: a
    // broker, a socket or a web service there receives what the program sends.
    let addressed = texts().flat_map(str::split_whitespace).any(|w| {
        let w = option_value(w).trim_matches(['"', '\'']);
        w.contains("://")
            && super::shells::url_host(w)
                .is_some_and(|h| !h.is_empty() && !super::shells::loopback(&h))
    });
    // Or told to send it (`acme-chat send --body 'open("/home/dev/.ssh/id_ed25519")…'`), or
    // named for sending (`termux-sms-send`, `algia post`'s own word aside).
    let by_name = words::parts(c.name)
        .into_iter()
        .find(|p| words::classify(p) == Some(words::Class::Reaches))
        .map(|word| words::Verb {
            word,
            class: words::Class::Reaches,
        });
    let sending = verb.filter(|v| v.sends()).or(by_name.as_ref());
    // Or written into text meant for people (`--notes "$(cat ~/.aws/credentials)"`, `-m`,
    // `--body`): an update's notes, a message, a comment are published or sent where others
    // read them.
    let prose = |flag: &str| {
        flag.starts_with("--")
            && words::parts(flag.split('=').next().unwrap_or(flag))
                .iter()
                .any(|p| {
                    matches!(
                        p.as_str(),
                        "notes"
                            | "note"
                            | "message"
                            | "msg"
                            | "body"
                            | "text"
                            | "comment"
                            | "description"
                            | "summary"
                            | "content"
                            | "title"
                    )
                })
    };
    if !addressed && sending.is_none() && compared_only(c, at) {
        return None;
    }
    let in_prose = texts().nth(at).is_some_and(prose)
        || at
            .checked_sub(1)
            .and_then(|p| texts().nth(p))
            .is_some_and(|f| !f.contains('=') && prose(f));
    let (verdict, rule, what) = if addressed {
        (
            Verdict::Block,
            RuleId::Exfiltration,
            "and an address to send it to: it is never run".to_string(),
        )
    } else if let Some(v) = sending {
        (
            Verdict::Block,
            RuleId::Exfiltration,
            format!("and is told to send (`{}`): it is never run", v.word),
        )
    } else if in_prose {
        (
            Verdict::Block,
            RuleId::Exfiltration,
            "as the text of a note or a message others read: it is never run".to_string(),
        )
    } else {
        (
            Verdict::Junction,
            RuleId::CredentialRead,
            "and trail does not model this program: a person decides".to_string(),
        )
    };
    Some(decide(
        verdict,
        rule,
        format!(
            "`{}` is given text that reads a credential store (`{named}`), {what}",
            c.name
        ),
        raw,
    ))
}

/// The lines of a file being written that a program's own language hands to the shell (a
/// serial console's script `! rm -rf …`, a build file's `RUN …`), and the command lines it
/// quotes: they run later, where no one reads them, so only what they would block counts,
/// and it counts now.
pub(super) fn planted_escapes(text: &str, ctx: &Context, raw: &str, out: &mut Findings) {
    arguments::escapes(text, super::Keep::Blocks, out);
    arguments::keyed_commands(text, ctx, out);
    arguments::json_argv(text, out);
    recipes(text, out);
    // Code in any language kept in the file that deletes the root, the home or the project
    // (a template's `#calc "…rmtree('/home/dev')"#`): whatever renders or loads it runs it.
    let gone = |l: &String| {
        l.starts_with(['/', '~', '$'])
            && matches!(
                ctx.classify(l),
                super::Place::Root | super::Place::Home | super::Place::ProjectRoot
            )
    };
    let literals = super::code::literals(text);
    // A string inside a string counts too (`"…rmtree('/home/dev')"`).
    if super::code::deletion_call(text)
        && literals
            .iter()
            .any(|l| gone(l) || super::code::literals(l).iter().any(gone))
    {
        out.push(decide(
            Verdict::Block,
            RuleId::InterpreterCode,
            "this writes code that deletes /, the home directory or the project root into a \
             file that a program loads: it is never run"
                .into(),
            raw,
        ));
    }
    // A command line quoted in a configuration being written (`command = ["sh", "-c", "dd
    // …"]`, `<executable cmd="dd …"/>`): whatever reads the file runs it.
    for lit in literals.into_iter().chain(super::code::argv_lists(text)) {
        let first = lit.split_whitespace().next().unwrap_or("");
        if lit.contains(' ') && known::is_program(first.rsplit('/').next().unwrap_or(first)) {
            out.runs(&lit, super::Keep::Blocks);
        }
    }
}

/// A rule's recipe in the grammar make gave its kin (makeflow, mk, a `Makefile` being
/// written): after a `TARGET: INPUTS` line, each line that begins with a tab (or printf's
/// `\t`) is a shell command line, its `@`/`-` prefix aside. Only what would be blocked counts.
fn recipes(text: &str, out: &mut Findings) {
    let mut in_rule = false;
    for line in text.lines() {
        match line.strip_prefix('\t').or_else(|| line.strip_prefix("\\t")) {
            Some(recipe) if in_rule => {
                out.runs(
                    recipe.trim_start_matches(['@', '-', '+']),
                    super::Keep::Blocks,
                );
            }
            Some(_) => {}
            None => in_rule = rule_line(line),
        }
    }
}

/// `TARGET…: INPUTS…` at the start of a line: not a comment, an assignment (`X := y`), a
/// key in a mapping (`key: value` after indentation) or an address (`http://`).
fn rule_line(line: &str) -> bool {
    if line.starts_with([' ', '\t', '#', '.']) && !line.starts_with("./") {
        return false;
    }
    line.split_once(':').is_some_and(|(targets, rest)| {
        !targets.trim().is_empty()
            && !targets.contains(['=', '"', '\''])
            && !rest.starts_with(['=', '/', ':'])
    })
}

/// The lines of a service's configuration written outside the project: a value that is a
/// command line, after whatever key it follows, is what the service runs
/// ([`arguments::configured_commands`]).
pub(super) fn planted_config(text: &str, out: &mut Findings) {
    arguments::configured_commands(text, out);
}

/// A block when the command destroys a critical place: a writing word said to a disk, a
/// deleting verb said to `/`, home, a system directory or the project's ancestors, `/` given
/// to a restore or to a program run as root, or an output that overwrites such a place.
#[expect(
    clippy::too_many_arguments,
    reason = "the command, its layer, what it says of itself, where it points, and the context to read a flag's value"
)]
fn critical(
    c: &Cmd<'_>,
    ctx: &Context,
    layer: Layer,
    (shows, looks): (bool, bool),
    verb: Option<&words::Verb>,
    found: &[targets::Found],
    raw: &str,
    out: &mut Findings,
) {
    let cleans = words::cleans(c);
    let restores = words::restores(c);
    // A restore told to make the place match the backup (`--delta`, `--delete`, `--mirror`):
    // what is not in the backup is deleted.
    let resets_whole = c.option_words().any(|w| {
        w.starts_with('-')
            && words::parts(w).iter().any(|p| {
                matches!(
                    p.as_str(),
                    "delta" | "delete" | "mirror" | "purge" | "clean"
                )
            })
    });
    // Told a port to listen on (`-p 8000`, `--port=8443`) and to take what clients send (`-w`,
    // `--upload`): a server whose directory anyone reaching it may change. (Served read-only,
    // home is a person's call.)
    let writable = c.option_words().any(|w| {
        matches!(
            w,
            "-w" | "--write" | "--upload" | "--uploads" | "--allow-upload" | "-rw"
        )
    });
    let serves = !shows && writable && {
        let ws: Vec<&str> = c.option_words().collect();
        option_pairs(&ws).any(|(flag, value)| {
            matches!(
                flag,
                "-p" | "--port" | "-port" | "--http-port" | "--listen-port"
            ) && value.is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    // An output option of a command that only looks names what it reads (`clevis luks list
    // -d /dev/nvme0n1p3`).
    let lists = verb.is_none() && (looks || words::reports(c));
    // Unless what it reads is written out last (`read-memory 0 4096 /dev/nvme0n1`); asked
    // only of a command that has such an output at all.
    let reads_out =
        lists && found.iter().any(|t| t.output && !t.named && !t.by_option) && words::reads_out(c);
    // Restored or extracted into `/`, or given `/` by a program run as root that does not
    // only look (`sudo dpkg-deb -x pkg.deb /`): system files are replaced.
    let replaces_root = !shows
        && (restores || layer.privileged && !looks)
        && c.option_words().any(|w| w == "/" || w.ends_with("=/"));
    // Restored with files that are not in the backup deleted (`rustic restore latest:/etc /etc
    // --delete`): the directory becomes the backup's, whatever was added since is gone.
    let mirrors = !shows && mirrors_removing(c, restores);
    // Told to skip its own confirmation, given `/`, home or a directory above the project:
    // what it would have asked about is the whole of it.
    // `--overwrite` too: alone it only lets an output replace an older one, so it is no
    // safeguard skipped, but said beside a system file it replaces that file without asking.
    let forced = !shows
        && !looks
        && (words::skips_safeguard(c).is_some_and(|w| w != "-y")
            || c.option_words()
                .any(|w| w == "--overwrite" || w == "-overwrite"));
    // Opened in write mode (`radare2 -w … /usr/bin/sudo`): a system file patched in place.
    let write_mode = !shows && words::write_mode(c).is_some();
    if let Some(t) = found.iter().find(|t| {
        !shows
            && !mount_operand(c, &t.word)
            && (forced
                && (matches!(
                    t.target,
                    Target::Root | Target::Home | Target::Ancestor | Target::Device
                )
                    // Or the project root as where its output goes, forced (`snippy
                    // --outdir /work/proj --force`): the project is replaced by the output.
                    || t.output && t.target == Target::ProjectRoot
                    // A system file it is told to overwrite without asking (`iget -f … /etc/
                    // sudoers`, `--overwrite … /etc/hosts`), not one it reads.
                    || !t.read && matches!(t.target, Target::SystemFile | Target::Firmware)
                    // Or where its output goes is a system directory (`--overwrite
                    // --target-dir=/etc`): the files there are replaced.
                    || t.output && t.target == Target::SystemDir)
                || write_mode && t.target == Target::SystemFile
                || t.target.device_like() && verb.is_some() && !t.read
                // The one directory an option names, emptied by the command's act whatever
                // verb it was read as (`cache clear --dir "$(dirname "$PWD")"`).
                || t.target.critical() && !looks && empties_named_dir(c, &t.word, ctx)
                || t.target.critical()
                    && (verb.is_some_and(words::Verb::deletes)
                        // `drop node --destroy --pgdata /home/dev`: a later flag destroys.
                        || verb.is_some_and(|v| v.class == words::Class::Destroys)
                            && (words::destroying_flag(c) || empties_named_dir(c, &t.word, ctx)))
                || !looks && empties_packages_dir(c, t, cleans, verb)
                || !looks && empties_anothers_state(c, ctx, t, cleans, verb)
                // The home directory or the root shared or published (`zrok share public
                // … /home/dev`), or served on a port (`goshs -d /home/dev -p 8000`): its keys
                // and credentials go to whoever reaches it.
                || matches!(t.target, Target::Root | Target::Home)
                    && (verb.is_some_and(|v| v.class == words::Class::Reaches) || serves)
                // Told to clean, and given /, home or a directory above the project (`-M
                // clean docs ~`): what it cleans is the whole of it.
                || cleans
                    && !looks
                    && !t.read
                    && (matches!(t.target, Target::Root | Target::Home | Target::Ancestor)
                        // Or a system directory named as where its output goes, emptied
                        // first (`--clean --out /usr`).
                        || t.output && t.target == Target::SystemDir
                        // Or the project root given as the build directory it cleans
                        // (`idf.py -B /work/proj fullclean`): the project is that directory.
                        || t.target == Target::ProjectRoot && build_dir_option(c, &t.word))
                || t.target == Target::Root && replaces_root
                // The project root too: what the source lacks is the project's own work
                // (`mirror --to . --exact`).
                || mirrors
                    && !t.read
                    && mirrors_into(c, restores, t)
                    && matches!(
                        t.target,
                        Target::Root
                            | Target::Home
                            | Target::Ancestor
                            | Target::SystemDir
                            | Target::ProjectRoot
                    )
                // Or a directory inside the packages' trees given as where it lands
                // (`sync --local /var/lib/dpkg --match-remote`).
                || mirrors && !t.read && mirrors_into_packages(c, restores, t)
                // Every file under `/`, home or a system directory rewritten in place
                // (`codespell --write-changes /etc`): nothing says which, or how to undo it.
                || t.rewritten
                    && !looks
                    && matches!(t.target, Target::Root | Target::Home | Target::SystemDir)
                || t.output
                    // A rehearsal writes no output (`--output /dev/sda --dry-run`).
                    && !rehearses(c)
                    // A looking command's `-d DEV` names what it reads; its `-o FILE` is
                    // where its output goes, looking or not.
                    && (!lists || t.named || reads_out && !t.by_option)
                    && !(shared_data(&t.word)
                        && matches!(t.target, Target::SystemDir | Target::SystemFile))
                    // A system file is replaced by an output named so, not by a fixer that
                    // edits it in place (a junction, below).
                    // The home given to a directory option receives files; it is not
                    // written over (`-d /home/dev`, `--root ~`: a junction, below). `/` is:
                    // what lands there lands on system files.
                    && (t.target.overwritten()
                        && (t.target != Target::SystemFile || t.named)
                        && !(t.into && t.target == Target::Home)
                        // Restored into the home directory, files are put back beside the
                        // others (the call for restores: a junction, below).
                        && !(t.target == Target::Home && restores && !resets_whole)
                        || cleans && t.target.contains_project()
                        || layer.privileged && t.target == Target::SystemDir))
    }) {
        let empties = cleans || empties_named_dir(c, &t.word, ctx);
        out.push(destroys(c, verb, empties, t, raw));
    } else {
        out.extend(shared_data_written(c, found, raw));
    }
}

/// Output named to go among the data the system keeps ([`shared_data`]): a junction.
fn shared_data_written(c: &Cmd<'_>, found: &[targets::Found], raw: &str) -> Option<Decision> {
    // (A rehearsal writes nothing there: `replicate --to /usr/share/kbd --dry-run`.)
    if rehearses(c) {
        return None;
    }
    let t = found.iter().find(|t| {
        t.output
            && (t.named || t.by_option)
            && shared_data(&t.word)
            && matches!(t.target, Target::SystemDir | Target::SystemFile)
    })?;
    Some(decide(
        Verdict::Junction,
        RuleId::NamesCritical,
        format!(
            "`{}` is told to put its output among the data the system keeps (`{}`): an image, a sound, a font or a document there is replaced; a person decides",
            c.name, t.word
        ),
        raw,
    ))
}

/// Whether `word` lies where the system keeps data that is no program and no configuration
/// (FHS's `/usr/share`: images, sounds, fonts, documents, a game's data): written there, an
/// asset is replaced, which the labelled parts call a person's decision (25 rows of 19 parts
/// against 2: a font and a message catalogue replaced by name), not the block a program's or
/// a setting's replacement is.
fn shared_data(word: &str) -> bool {
    let p = std::path::Path::new(word);
    ["/usr/share", "/usr/local/share"]
        .iter()
        .any(|d| p.starts_with(d))
}

/// A program nobody models, run as root and handed a boot file or one of the system's tables it
/// is not said to read (`sudo build_tide_db /boot/vmlinuz-linux out.txt`, `sudo dwave
/// config create --config-file /etc/passwd`, `sudo isis2std … to=/dev/sda`): which of its words
/// it writes, nothing on the line says, and as root nothing stops the write. Unprivileged, the
/// system refuses it, and the same words are a person's call. `acts`: a program nobody models,
/// whose words neither only show nor only look.
fn handed_as_root(
    c: &Cmd<'_>,
    ctx: &Context,
    layer: Layer,
    acts: bool,
    found: &[targets::Found],
    raw: &str,
) -> Option<Decision> {
    if !layer.privileged || !acts || words::reads_by_form(c, true) || changes_metadata(c.name) {
        return None;
    }
    // The boot chain's own tools name its files by their trade (`grubby --set-default=/boot/…`,
    // `run-parts … /etc/kernel/postinst.d`); a disk handed to a disk tool is a person's call
    // (`sudo e2fsck -fy /dev/sdb1`), so only a boot file, not a disk, counts.
    let boot_tool = {
        let name = c.name.to_ascii_lowercase();
        ["boot", "grub", "efi", "kernel", "initr", "dracut"]
            .iter()
            .any(|b| name.contains(b))
            || c.words().any(|w| w.contains("kernel"))
    };
    // Told to make a file (`config create --config-file F`, `init`): the file it would
    // otherwise read is the one it writes.
    let makes = c
        .words()
        .any(|w| matches!(w, "create" | "init" | "new" | "generate" | "write" | "save"));
    let t = found.iter().find(|t| {
        // A disk as the file an option names for it to make (`config create --config-file
        // /dev/sda`); a disk operand is what a `save` reads.
        makes && t.by_option && t.target == Target::Device
            || (!t.read || makes)
                && (t.target == Target::Firmware && t.word.starts_with("/boot/") && !boot_tool
                    || t.target == Target::SystemFile && targets::system_table(&t.word, ctx))
    })?;
    Some(decide(
        Verdict::Block,
        RuleId::DestroysCritical,
        format!(
            "`{}` runs as root and is handed {} (`{}`), and trail does not model this program: whether it reads or writes there its words do not say, and as root nothing stops a write; it is never run",
            c.name,
            t.target.what(),
            t.word
        ),
        raw,
    ))
}

/// Whether `word` is the value of an option naming a build's directory, where its output and
/// its scratch go (`-B DIR`, `--build-dir`, `--target-dir`, `--dest-dir`, `--workpath`): what a
/// clean removes. Not an option naming the project it works on (`--project`, `-C DIR`).
fn build_dir_option(c: &Cmd<'_>, word: &str) -> bool {
    let words: Vec<&str> = c.option_words().collect();
    option_pairs(&words).any(|(flag, value)| {
        value == Some(word)
            && flag.starts_with('-')
            && (flag == "-B"
                || words::parts(flag).iter().any(|p| {
                    matches!(
                        p.as_str(),
                        "build"
                            | "builddir"
                            | "target"
                            | "dest"
                            | "dist"
                            | "distpath"
                            | "work"
                            | "workpath"
                            | "out"
                            | "output"
                            | "outdir"
                    )
                }))
    })
}

/// Whether a flag empties the directory another flag names, and `word` is that flag's value
/// (`--reset-solutions --solutions-dir ~`, `--clear-exports --export-path /`): the flag
/// says what it empties by the other's name, so what it empties is `word`.
fn empties_named_dir(c: &Cmd<'_>, word: &str, ctx: &Context) -> bool {
    dir_emptied_by_flag(&words_as_written(c))
        .is_some_and(|d| d == word || ctx.resolve(d).is_some_and(|p| ctx.resolve(word) == Some(p)))
}

/// A directory inside the trees the system's packages own (`/usr/lib/modules`,
/// `/etc/alternatives`, `/var/lib/dpkg`), named as the one to empty (`cache purge --dir …`):
/// the system's own files there are gone, as `rm -rf` would take them.
fn empties_packages_dir(
    c: &Cmd<'_>,
    t: &targets::Found,
    cleans: bool,
    verb: Option<&words::Verb>,
) -> bool {
    t.target == Target::SystemFile
        && named_by_dir_flag(c, &t.word)
        && (cleans
            || verb.is_some_and(|v| {
                v.class == words::Class::Destroys
                    && words::parts(&v.word).iter().any(|p| empties_word(p))
            }))
}

/// The state or cache directory of another program (`/var/lib/colord`, `/var/cache/fontconfig`),
/// named as the one to empty by a program whose name shares nothing with it: what a system
/// service keeps between runs is gone, as `rm -rf` would take it. A tool's own (`acme-cli cache
/// purge --dir /var/cache/acme`) stays the administrator's call, a junction.
fn empties_anothers_state(
    c: &Cmd<'_>,
    ctx: &Context,
    t: &targets::Found,
    cleans: bool,
    verb: Option<&words::Verb>,
) -> bool {
    // (Every target comes here: only words that may name `/var` are resolved.)
    if !t.word.contains("/var/") && !t.word.contains(['$', '%', '{', '~']) && !t.word.contains("..")
    {
        return false;
    }
    let Some(path) = ctx.resolve(&t.word) else {
        return false;
    };
    if !state_of_another_program(c, &path) {
        return false;
    }
    let empties = cleans
        || verb.is_some_and(|v| {
            v.class == words::Class::Destroys && words::parts(&v.word).iter().any(|p| empties_word(p))
        })
        // Or made a copy of something else, what it held beside removed (`rollback --target
        // DIR --discard-extra`).
        || mirrors_removing(c, words::restores(c));
    // (Its value as written may be what the line computes: `--root "$(gem env gemdir)"`.)
    let resolved_by_dir_flag = || {
        let words = words_as_written(c);
        let names = |v: &str| ctx.resolve(v).is_some_and(|p| p == path);
        words
            .iter()
            .enumerate()
            .any(|(i, w)| match w.split_once('=') {
                Some((f, v)) => targets::dir_flag(f) && names(v),
                None => targets::dir_flag(w) && words.get(i + 1).is_some_and(|v| names(v)),
            })
    };
    let mirrored_into =
        || mirrors_removing(c, words::restores(c)) && mirrors_into(c, words::restores(c), t);
    if !empties || !(named_by_dir_flag(c, &t.word) || resolved_by_dir_flag() || mirrored_into()) {
        return false;
    }
    true
}

/// Whether `path` is (inside) the state, cache or spool directory of a program other than
/// `c` (`/var/lib/nfs` for `acme`): its name shares nothing with the program's, or with its
/// script's (`python3 scripts/nfl_cache.py` keeps `/var/cache/nfl`).
fn state_of_another_program(c: &Cmd<'_>, path: &std::path::Path) -> bool {
    let mut parts = path
        .components()
        .skip(1)
        .filter_map(|c| c.as_os_str().to_str());
    let (Some("var"), Some("lib" | "cache" | "spool"), Some(owner)) =
        (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let script = c
        .operands()
        .next()
        .and_then(|a| a.text.as_deref())
        .filter(|s| s.contains(['.', '/']))
        .and_then(|s| s.rsplit('/').next());
    let names: Vec<String> = std::iter::once(c.name)
        .chain(script)
        .flat_map(words::parts)
        .filter(|p| p.len() >= 3)
        .collect();
    let owner = owner.to_ascii_lowercase();
    !names
        .iter()
        .any(|n| owner.contains(n.as_str()) || n.contains(owner.as_str()))
}

/// Whether `word` is a mount's source or mount point given to a sandbox or a container
/// (`bwrap --ro-bind / / --bind build build …`, `-v /:/host`): the program the sandbox runs acts
/// on what it names inside, judged through the mounts; the mount itself empties nothing.
fn mount_operand(c: &Cmd<'_>, word: &str) -> bool {
    if c.name != "bwrap" {
        return false;
    }
    let words = words_as_written(c);
    words.iter().enumerate().any(|(i, w)| {
        super::wrappers::BWRAP_MOUNTS.contains(w)
            && words[i + 1..]
                .iter()
                .take(2)
                .any(|v| v.trim_matches(['"', '\'']) == word)
    })
}

/// A word part that empties a place whole ([`words::empties_whole`]), a reset and a drop
/// excepted: a device's reset (`--reset build/fw.bin`) empties nothing, and a file named for
/// a drop (`-i build/0042_drop_legacy.sql`) drops tables, not files.
fn empties_word(p: &str) -> bool {
    !matches!(p, "reset" | "drop") && words::empties_whole(p)
}

/// Whether `word` is the value of a directory's option (`--dir X`, `--root=X`, `-C X`).
fn named_by_dir_flag(c: &Cmd<'_>, word: &str) -> bool {
    let words = words_as_written(c);
    // (Where a sync lands: `--local DIR`.)
    let dir_flag = |f: &str| targets::dir_flag(f) || f == "--local";
    words
        .iter()
        .enumerate()
        .any(|(i, w)| match w.split_once('=') {
            Some((f, v)) => dir_flag(f) && v.trim_matches(['"', '\'']) == word,
            None => {
                dir_flag(w)
                    && words
                        .get(i + 1)
                        .is_some_and(|v| v.trim_matches(['"', '\'']) == word)
            }
        })
}

/// The words before `--`, a value only the shell knows as written (`"$PWD/.."`).
pub(super) fn words_as_written<'a>(c: &Cmd<'a>) -> Vec<&'a str> {
    c.args
        .iter()
        .map(|a| a.text.as_deref().unwrap_or(&a.raw))
        .take_while(|w| *w != "--")
        .collect()
}

/// The value of a directory's option that another flag empties by its name
/// ([`empties_named_dir`]).
pub(super) fn dir_emptied_by_flag<'w>(words: &'w [&'w str]) -> Option<&'w str> {
    // (`--replace-dest`, `--recreate-output`: what the directory held is gone, as with a
    // clean, before the new contents go in.)
    const EMPTIES: &[&str] = &[
        "reset",
        "clear",
        "clean",
        "empty",
        "purge",
        "wipe",
        "delete",
        "replace",
        "recreate",
        "overwrite",
    ];
    const PLACE: &[&str] = &["dir", "directory", "path", "folder", "root", "location"];
    // (Beside a lone act, an output's option too: `export --clean --out D`.)
    const OUTPUT: &[&str] = &["out", "output", "dest"];
    // What a place holds, said whole (`--overwrite-all`, `--clean-everything`).
    let whole = |p: &str| matches!(p, "all" | "everything" | "existing" | "contents");
    let stem = |p: &str| p.strip_suffix('s').unwrap_or(p).to_string();
    let objects: Vec<Vec<String>> = words
        .iter()
        .filter_map(|w| {
            let body = w.strip_prefix("--")?;
            match words::parts(body.split('=').next().unwrap_or(body)).as_slice() {
                [act, object @ ..] if EMPTIES.contains(&act.as_str()) => Some(
                    object
                        .iter()
                        .filter(|p| !PLACE.contains(&p.as_str()) && !whole(p))
                        .map(|p| stem(p))
                        .collect(),
                ),
                _ => None,
            }
        })
        .collect();
    // A lone act (`--purge`, `--clean`) beside one directory's option (`--cache-dir D`):
    // what it empties is that directory, the only one it is given.
    let acts = |w: &str| words::empties_whole(w) || w == "delete";
    // (Or one of the command's first three words: `cache clear --dir D`, `reset --data-root
    // D`, `control-link cache clear --cache-dir D`;
    // or an act said of a place with no name of its own, `--overwrite-dir`.)
    let of_a_place = |w: &str| {
        matches!(words::parts(w).as_slice(), [act, place]
            if EMPTIES.contains(&act.as_str())
                && (PLACE.contains(&place.as_str()) || whole(place)))
    };
    let lone = words.iter().any(|w| {
        w.strip_prefix("--")
            .is_some_and(|f| acts(f) || of_a_place(f))
    }) || words
        .iter()
        .filter(|w| !w.starts_with('-'))
        .take(3)
        // (Or one part of a joined one: `scratch-empty`, `cache_purge`.)
        .any(|w| acts(w) || words::parts(w).iter().any(|p| acts(p)));
    let objects: Vec<Vec<String>> = objects.into_iter().filter(|o| !o.is_empty()).collect();
    if lone && objects.is_empty() {
        // A file is what a clearing act empties too (`exports clear --file /etc/x.conf`); not
        // what is deleted or reset by a list it reads (`records delete --file ids.txt`).
        let clears_a_file = words.iter().any(|w| {
            matches!(
                w.trim_start_matches("--"),
                "clear" | "wipe" | "empty" | "truncate" | "purge"
            )
        });
        let dirs = option_pairs(words)
            .filter_map(|(flag, value)| {
                let value = value.filter(|v| flag.starts_with("--") && !v.starts_with('-'))?;
                // A cache is a place too (`--photo-cache D --clear`); as an emptying flag's object
                // it is what is emptied (`--wipe-cache --cache-dir D`), not where.
                words::parts(flag)
                    .iter()
                    .any(|p| {
                        // (Or a directory's name joined: `--workdir`, `--outdir`.)
                        PLACE.contains(&p.as_str())
                            || OUTPUT.contains(&p.as_str())
                            || p == "cache"
                            || p == "file" && clears_a_file
                            || p.len() > 3 && p.ends_with("dir")
                    })
                    .then_some((flag, value))
            })
            .chain(words.iter().filter_map(|w| glued_place(w).map(|v| (*w, v))));
        let dirs: Vec<(&str, &str)> = dirs.collect();
        return match dirs.as_slice() {
            [(_, only)] => Some(only),
            // The same option given again (`--dir "$TMPDIR/x" --dir /var/lib/dkms`): the last
            // value wins where a tool keeps one, and every one is emptied where it keeps all;
            // a place written out from the root is the one judged.
            [(flag, _), rest @ ..] if rest.iter().all(|(f, _)| f == flag) => dirs
                .iter()
                .rev()
                .find(|(_, v)| v.starts_with(['/', '~']))
                .or(dirs.last())
                .map(|(_, v)| *v),
            _ => None,
        };
    }
    if objects.is_empty() {
        return None;
    }
    option_pairs(words).find_map(|(flag, value)| {
        let value = value.filter(|v| flag.starts_with("--") && !v.starts_with('-'))?;
        let ps = words::parts(flag);
        // The emptying flag's own value is no directory it names (`--delete-removed SRC`).
        if ps.first().is_some_and(|p| EMPTIES.contains(&p.as_str())) {
            return None;
        }
        let named: Vec<String> = ps
            .iter()
            .filter(|p| !PLACE.contains(&p.as_str()))
            .map(|p| stem(p))
            .collect();
        (!named.is_empty() && objects.iter().any(|o| o.iter().all(|p| named.contains(p))))
            .then_some(value)
    })
}

/// A place glued to the last letter of a cluster of short options (`-qfD/usr/share/x`,
/// `-vyd$TMPDIR/x`, `-rfyTbuild/cache`): that letter's value, as getopt reads the rest of the
/// word. It starts at the first `/`, `~` or `$`, or, for a relative path, after the capital
/// letter before its first slash.
fn glued_place(word: &str) -> Option<&str> {
    let cluster = word.strip_prefix('-').filter(|w| !w.starts_with('-'))?;
    let at = cluster.find(['/', '~', '$'])?;
    let letters = &cluster[..at];
    if letters.is_empty() || !letters.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let start = if cluster.as_bytes()[at] == b'/' {
        // (`-qfDbuild/cache`: `build` is the value's, `qfD` the flags'.)
        letters
            .rfind(|c: char| c.is_ascii_uppercase())
            .map_or(at, |u| u + 1)
    } else {
        at
    };
    // At least one flag letter before the value.
    (start >= 1).then(|| &cluster[start..])
}

/// Told to rehearse only (`--dry-run`, `--what-if`, `--simulate=yes`).
pub(crate) fn rehearses(c: &Cmd<'_>) -> bool {
    words::pretends(c)
        || c.option_words()
            .any(|w| matches!(w, "--dry-run" | "--dryrun" | "--what-if" | "--whatif"))
}

/// The block for a critical place destroyed, said with the verb that destroys it.
fn destroys(
    c: &Cmd<'_>,
    verb: Option<&words::Verb>,
    cleans: bool,
    t: &targets::Found,
    raw: &str,
) -> Decision {
    let what = match verb {
        Some(v) => v.word.as_str(),
        None if cleans => "clean",
        None => "write its output to",
    };
    decide(
        Verdict::Block,
        RuleId::DestroysCritical,
        format!(
            "`{}` is told to {what} {} (`{}`): it is never run",
            c.name,
            t.target.what(),
            t.word
        ),
        raw,
    )
}

/// A program nobody models run after a link made on the same line, in the project or a
/// temporary directory, to a disk, a boot file or one of the system's tables (`ln -sf /dev/sda
/// build/relax/WAVECAR && (cd build/relax && vasp_std)`): a program writes its files by names
/// of its own, and the one it writes through that link lands on what it points at. No word of
/// the program names the link, so the link itself is what is judged.
fn through_a_planted_link(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    let (link, target) = ctx.line.links.iter().find(|(link, target)| {
        let to = target.to_string_lossy();
        let here = matches!(
            ctx.places.classify(&link.to_string_lossy()),
            super::Place::Inside | super::Place::Tmp
        );
        here && match targets::target(&to, ctx) {
            Some(t) if t.device_like() => true,
            Some(Target::SystemFile) => targets::system_table(&to, ctx),
            _ => false,
        }
    })?;
    Some(decide(
        Verdict::Block,
        RuleId::DestroysCritical,
        format!(
            "`{}` runs after a link was made on this line (`{}` to `{}`): what it writes through that link lands on a disk, a boot file or a system table; it is never run",
            c.name,
            link.display(),
            target.display()
        ),
        raw,
    ))
}

/// A program nobody models handed a path through a link made on this line, in the project or
/// a temporary directory, to a place outside them (`ln -sfn /mnt/nas/car build/export &&
/// obd2csv -o build/export/trip.csv`): what it writes there lands on the share or in the home,
/// where a person decides. (A link to a disk or a system file is [`through_a_planted_link`]'s.)
fn handed_a_planted_link(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    if ctx.line.links.is_empty() {
        return None;
    }
    let (link, target) = ctx.line.links.iter().find(|(link, target)| {
        let here = |p: &std::path::Path| {
            matches!(
                ctx.places.classify(&p.to_string_lossy()),
                super::Place::Inside | super::Place::Tmp
            )
        };
        // A path under the link is one the program makes there; the link itself, given to an
        // output option, is written through (`--output-dir=build/eq`); as an input it is read.
        let written = |i: usize, w: &str| {
            let (flag, value) = match w.split_once('=') {
                Some((f, v)) if f.starts_with('-') => (Some(f), v),
                _ => (
                    i.checked_sub(1)
                        .and_then(|j| c.args[j].text.as_deref())
                        .filter(|f| f.starts_with('-')),
                    w,
                ),
            };
            // As written, before the link is followed.
            ctx.places.resolve(value).is_some_and(|p| {
                p.starts_with(link)
                    && (p != *link
                        || flag.is_some_and(|f| f != "-d" && targets::output_flag(f, false)))
            })
        };
        here(link)
            && !here(target)
            && c.args
                .iter()
                .enumerate()
                .any(|(i, a)| a.text.as_deref().is_some_and(|w| written(i, w)))
    })?;
    Some(decide(
        Verdict::Junction,
        RuleId::OutsideWrite,
        format!(
            "`{}` is handed `{}`, a link made on this line to `{}`: what it writes there lands outside the project, so a person decides",
            c.name,
            link.display(),
            target.display()
        ),
        raw,
    ))
}

/// Restored, synced or mirrored with what the source lacks removed (`restore … --delete`,
/// `transfers sync --to /usr/lib --mirror --remove-orphans`): where it lands becomes a copy.
fn mirrors_removing(c: &Cmd<'_>, restores: bool) -> bool {
    let synced = || {
        c.words().any(|w| {
            words::parts(w.trim_start_matches('-'))
                .iter()
                .any(|p| matches!(p.as_str(), "sync" | "mirror" | "replicate"))
        })
    };
    (restores || synced())
        && c.option_words().any(|w| {
            w.starts_with('-')
                && words::parts(w).iter().any(|p| {
                    matches!(
                        p.as_str(),
                        "delete" | "remove" | "prune" | "purge" | "clean" | "drop" | "exact" | "evict"
                            | "discard" | "sweep" | "expunge" | "trim" | "retire" | "reap"
                    )
                })
                // Or what the source lacks named as the act's object (`--cull-orphaned`,
                // `--shed-extraneous`, `--scrub-nonmatching`, `--clear-unknown`): whatever the
                // verb, it goes, unless it is kept, shown or only warned of.
                || w.starts_with("--") && acts_on_what_the_source_lacks(&words::parts(w))
                // Or the destination emptied first (`--reset-destination`, `--wipe-target`).
                || words::parts(w).windows(2).any(|p| {
                    matches!(p[0].as_str(), "reset" | "wipe" | "empty")
                        && matches!(p[1].as_str(), "destination" | "dest" | "target")
                })
                // Or made to match the other side (`--match-remote`, `--match-source`).
                || words::parts(w).windows(2).any(|p| {
                    p[0] == "match"
                        && matches!(p[1].as_str(), "remote" | "source" | "upstream" | "server")
                })
        })
}

/// A flag whose object is what a mirror's source lacks (`orphaned`, `extraneous`, `unknown`,
/// `nonmatching`, `leftovers`) and whose verb does not keep or report it: what is not in the
/// source is removed from the destination.
fn acts_on_what_the_source_lacks(ps: &[String]) -> bool {
    const LACKED: &[&str] = &[
        "orphaned",
        "orphans",
        "orphan",
        "extraneous",
        "extra",
        "extras",
        "unknown",
        "nonmatching",
        "unmatched",
        "unlisted",
        "foreign",
        "leftovers",
        "leftover",
        "stale",
        "obsolete",
        "absent",
        "strays",
        "stray",
        "surplus",
        "unreferenced",
        "dangling",
    ];
    const KEEPS: &[&str] = &[
        "keep", "preserve", "retain", "ignore", "skip", "no", "allow", "list", "show", "report",
        "warn", "log", "fail", "error", "protect", "spare", "include", "count", "print", "dry",
        "check", "detect", "find", "flag", "mark", "tolerate", "accept",
    ];
    matches!(ps, [verb, rest @ ..]
        if !rest.is_empty()
            && !KEEPS.contains(&verb.as_str())
            && rest.iter().any(|p| LACKED.contains(&p.as_str())))
}

/// A directory inside the packages' trees given as where a mirror lands (`sync --local
/// /var/lib/dpkg --match-remote`, `mirror --to /usr/share/lintian --exact`).
fn mirrors_into_packages(c: &Cmd<'_>, restores: bool, t: &targets::Found) -> bool {
    t.target == Target::SystemFile
        && (named_by_dir_flag(c, &t.word) || mirrors_into(c, restores, t))
}

/// Whether `t` is where a mirror lands: a restore's operand; a sync's when an option or the
/// last word names it, not its source (`acme sync /usr/lib build/lib --delete`).
fn mirrors_into(c: &Cmd<'_>, restores: bool, t: &targets::Found) -> bool {
    restores
        || t.by_option
        || t.output
        || c.operands().last().and_then(|a| a.text.as_deref()) == Some(t.word.as_str())
}

/// Code run inside a container or a chroot that sees this machine's root or home through a
/// bind mount (`wwctl container exec --bind /:/host … sh -c 'rm -rf /host/home/dev'`, `-v
/// ~:/h`): a path under the mount point is that place, so the code is judged again with the
/// mount point written as what it mounts. Only blocks count.
fn through_a_bind_mount(c: &Cmd<'_>, ctx: &Context, out: &mut Findings) {
    // Every command nobody models comes here; few mount anything.
    let mounting = |w: &str| {
        ["--bind", "--volume", "--mount", "-v"]
            .iter()
            .any(|f| w.starts_with(f))
            || w == "-B"
    };
    if !c.words().any(mounting) {
        return;
    }
    let words: Vec<&str> = c.words().collect();
    let mut mounts: Vec<(String, String)> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let value = match w.split_once('=') {
            Some(("--bind" | "--volume" | "--mount" | "-v", v)) => v,
            _ if matches!(*w, "--bind" | "--volume" | "-v" | "-B" | "--mount") => {
                words.get(i + 1).copied().unwrap_or_default()
            }
            _ => continue,
        };
        let (source, target) = if value.contains("source=") || value.contains("src=") {
            let field = |names: &[&str]| {
                value.split(',').find_map(|kv| {
                    let (k, v) = kv.split_once('=')?;
                    names.contains(&k).then(|| v.to_string())
                })
            };
            match (
                field(&["source", "src"]),
                field(&["target", "destination", "dst"]),
            ) {
                (Some(s), Some(t)) => (s, t),
                _ => continue,
            }
        } else {
            let mut parts = value.splitn(3, ':');
            match (parts.next(), parts.next()) {
                (Some(s), Some(t)) if !s.is_empty() && t.starts_with('/') => {
                    (s.to_string(), t.to_string())
                }
                _ => continue,
            }
        };
        let Some(resolved) = ctx.resolve(&source) else {
            continue;
        };
        let critical = resolved == std::path::Path::new("/") || resolved == ctx.places.home;
        if critical && target != "/" {
            mounts.push((
                resolved.to_string_lossy().into_owned(),
                target.trim_end_matches('/').to_string(),
            ));
        }
    }
    // A command line given as one word (`sh -c 'rm -rf /host/…'`), or as the words from a
    // program's name on (`… docker://alpine rm -rf /hostfs/home/dev`).
    let mut lines: Vec<String> = c
        .args
        .iter()
        .filter_map(|a| a.text.clone())
        .filter(|t| t.contains(char::is_whitespace))
        .collect();
    // After the mount: the word before names the image, a subcommand (`exec`) the program's.
    let mounted = c
        .args
        .iter()
        .rposition(|a| a.text.as_deref().is_some_and(mounting))
        .map_or(0, |m| m + 2);
    if let Some(at) = c.args.iter().skip(mounted).position(|a| {
        a.text
            .as_deref()
            .is_some_and(|t| known::is_program(t.rsplit('/').next().unwrap_or(t)))
    }) {
        let tail: Vec<&str> = c.args[mounted + at..]
            .iter()
            .map(|a| a.raw.as_str())
            .collect();
        lines.push(tail.join(" "));
    } else if !mounts.is_empty() {
        lines.extend(tails_after(c, mounted));
    }
    for (source, target) in &mounts {
        let base = source.trim_end_matches('/');
        for t in &lines {
            if !t.contains(target.as_str()) {
                continue;
            }
            let seen = t
                .replace(&format!("{target}/"), &format!("{base}/"))
                .replace(target.as_str(), if base.is_empty() { "/" } else { base });
            out.runs(&seen, super::Keep::Blocks);
        }
    }
}

/// For a program trail does not know run after an image and what names its container (`ctr
/// run … IMAGE c1 calpendo exports clear --dir /host`): the words from each of the first plain
/// words after `from` on, one of which is the program.
fn tails_after(c: &Cmd<'_>, from: usize) -> Vec<String> {
    (from..c.args.len())
        .filter(|&i| {
            c.args[i]
                .text
                .as_deref()
                .is_some_and(|t| !t.starts_with('-') && !t.contains('='))
        })
        .take(3)
        .map(|i| {
            let tail: Vec<&str> = c.args[i..].iter().map(|a| a.raw.as_str()).collect();
            tail.join(" ")
        })
        .collect()
}

/// A setting given as an argument that switches a protection off (`postconf -e
/// 'smtpd_tls_security_level = none'`, `set tls_verify=false`): a key named for encryption,
/// verification or authentication, and a value that says none. The same said as a flag is
/// [`words::skips_safeguard`]'s.
fn setting_switched_off(c: &Cmd<'_>, raw: &str) -> Option<Decision> {
    let setting = c.args.iter().filter_map(|a| a.text.as_deref()).find(|t| {
        // A property given by a one-letter flag joined to it (`-Jserver.rmi.ssl.disable=true`,
        // `-Dmail.smtp.ssl.enable=false`) is a setting too; other flags are not.
        let t = match t.strip_prefix('-') {
            Some(rest) if rest.starts_with(|ch: char| ch.is_ascii_uppercase()) => &rest[1..],
            Some(_) => return false,
            None => t,
        };
        let Some((key, value)) = t.split_once('=') else {
            return false;
        };
        let ps = words::parts(key.trim());
        // Named for switching it off, and told yes (`ssl.disable=true`, `skip_tls_verify=1`).
        let disabling = ps
            .iter()
            .any(|p| matches!(p.as_str(), "disable" | "disabled" | "skip" | "insecure"));
        let protects = ps.iter().any(|p| {
            matches!(
                p.as_str(),
                "tls"
                    | "ssl"
                    | "security"
                    | "verify"
                    | "verification"
                    | "auth"
                    | "authentication"
                    | "encryption"
                    | "encrypt"
            )
        });
        let off = value.trim().trim_matches(['"', '\'']).to_ascii_lowercase();
        let said = if disabling {
            matches!(off.as_str(), "true" | "yes" | "1" | "on")
        } else {
            matches!(
                off.as_str(),
                "none" | "off" | "false" | "no" | "0" | "disabled" | "disable"
            )
        };
        protects && said
    })?;
    Some(decide(
        Verdict::Junction,
        RuleId::SkipsSafeguard,
        format!(
            "`{}` is given a setting that switches a protection off (`{setting}`), and trail does not model this program: a person decides",
            c.name
        ),
        raw,
    ))
}

/// Told to install while a variable set for it points where it downloads from at another
/// host (`TFENV_REMOTE=https://mirror.example.xyz tfenv install 1.9.8`): what it installs
/// comes from there, not from its own registry.
fn source_redirected(
    c: &Cmd<'_>,
    assigns: &[(String, super::parse::Arg)],
    raw: &str,
) -> Option<Decision> {
    let installs = c.words().take(3).any(|w| {
        words::parts(w)
            .iter()
            .any(|p| matches!(p.as_str(), "install" | "add" | "update" | "upgrade"))
    });
    if !installs {
        return None;
    }
    let (name, url) = assigns.iter().find_map(|(name, value)| {
        let v = value.text.as_deref()?;
        let source = words::parts(name).iter().any(|p| {
            matches!(
                p.as_str(),
                "remote"
                    | "mirror"
                    | "registry"
                    | "index"
                    | "source"
                    | "repo"
                    | "url"
                    | "host"
                    | "server"
            )
        });
        (source && super::shells::web_url_elsewhere(v)).then_some((name.as_str(), v))
    })?;
    Some(decide(
        Verdict::Junction,
        RuleId::RemoteCode,
        format!(
            "`{}` is told to install from where `{name}` points (`{url}`), not from its own registry: code from another host; a person decides",
            c.name
        ),
        raw,
    ))
}

/// An account deleted by a program nobody models, and the account is the one this session
/// works as: the owner of the home directory (`sudo sysadminctl -deleteUser dev`, `acme users
/// delete dev`). Its home goes with it, as `userdel -r` takes it. The verb or an option must
/// name a user or an account, so that a container or a branch called the same is not one.
fn deletes_own_account(
    c: &Cmd<'_>,
    ctx: &Context,
    verb: Option<&words::Verb>,
    raw: &str,
) -> Option<Decision> {
    let v = verb.filter(|v| v.deletes())?;
    let user = ctx.places.home.file_name()?.to_str()?;
    let of_accounts = |w: &str| {
        words::parts(w).iter().any(|p| {
            matches!(
                p.as_str(),
                "user" | "users" | "username" | "account" | "accounts" | "login" | "member"
            )
        })
    };
    // By an option (`-deleteUser dev`, `--user=dev`), or a setting naming an account
    // (`username=dev`).
    let named = c.words().any(|w| {
        option_value(w) == user
            || w.split_once('=')
                .is_some_and(|(k, v)| v == user && of_accounts(k))
    });
    // The verb names the account (`-deleteUser`), or a subcommand does (`users delete`); a
    // login given by an option (`--user dev --delete`) is who acts, not what is deleted.
    let of_account =
        of_accounts(&v.word) || c.words().any(|w| !w.starts_with('-') && of_accounts(w));
    (named && of_account).then(|| {
        decide(
            Verdict::Block,
            RuleId::DestroysCritical,
            format!(
                "`{}` is told to delete the account `{user}` (`{}`), the one whose home this session works in: the home goes with it; it is never run",
                c.name, v.word
            ),
            raw,
        )
    })
}

/// The mechanisms that read a program nobody models at all: a change said to another
/// machine's service, a safeguard skipped (both only when nothing else was found), a shell
/// handed over, a listener on every interface.
fn unmodelled(
    c: &Cmd<'_>,
    ctx: &Context,
    cmd: &Simple,
    raw: &str,
    reads_only: bool,
    nothing_yet: bool,
    out: &mut Findings,
) {
    let assigns = &cmd.assigns;
    if !reads_only && nothing_yet {
        if let Some(verb) = words::mutation(c)
            && let Some(place) = if words::parts(&verb)
                .iter()
                .any(|p| matches!(p.as_str(), "copy" | "cp" | "sync" | "move" | "mv"))
            {
                targets::remote_destination(c)
            } else {
                targets::remote(c)
            }
        {
            out.push(decide(
                Verdict::Junction,
                RuleId::ChangesRemote,
                format!(
                    "`{}` is told to change something (`{verb}`) on another machine's service (`{place}`), and trail does not model this program: a person decides",
                    c.name
                ),
                raw,
            ));
        } else if let Some(w) = words::skips_safeguard(c)
            // Plain transport to this machine's own service (`--insecure --address
            // localhost:26500`) skips nothing anyone else could see.
            && !(words::parts(&w).iter().any(|p| p == "insecure") && targets::loopback_only(c))
            // Every place it names is the project's or a temporary one (`--output-dir=build/sac
            // --force`, `-y IN $TMPDIR/plan.svg`): what it overwrites unasked is output made here.
            && !(words::parts(&w)
                .iter()
                .all(|p| matches!(p.as_str(), "force" | "yes" | "y" | "clean" | "overwrite"))
                && (targets::only_output_here(c, ctx) || targets::cleans_only_scratch_named(c, ctx)))
            // A clean its variables point at scratch only (`MYRIAD_DATA_DIR=build/myriad …
            // wipe --yes`): what it would have asked about is scratch.
            && !cleans_only_scratch(c, cmd, ctx)
        {
            out.push(decide(
                Verdict::Junction,
                RuleId::SkipsSafeguard,
                format!(
                    "`{}` is told to skip its own confirmation or safety (`{w}`), and trail does not model this program: a person decides",
                    c.name
                ),
                raw,
            ));
        }
    }
    if !reads_only {
        out.extend(setting_switched_off(c, raw));
        out.extend(source_redirected(c, assigns, raw));
    }
    out.extend(typed::typed(c, reads_only, raw));
    // An output option aimed at another machine's storage (`-O s3://bucket/x.jsonl`,
    // `--output gs://…`): what it writes lands where the project's history cannot bring it
    // back. A reading subcommand writes there all the same (`PrintReads … -O gs://…`).
    if let Some(url) = targets::remote_output(c) {
        out.push(decide(
            Verdict::Junction,
            RuleId::ChangesRemote,
            format!(
                "`{}` is told to write its output to another machine's storage (`{url}`), and trail does not model this program: a person decides",
                c.name
            ),
            raw,
        ));
    }
    // Attached to a running process (`--pid "$(pgrep -o postgres)"`): it reads, and may change,
    // another program's memory.
    if !reads_only
        && let Some(w) = c.option_words().find(|w| {
            matches!(*w, "--pid" | "--attach")
                || w.starts_with("--pid=")
                || w.starts_with("--attach=")
        })
    {
        out.push(decide(
            Verdict::Junction,
            RuleId::ConsequenceIrreversible,
            format!(
                "`{}` is told to attach to a running process (`{w}`), and trail does not model this program: a person decides",
                c.name
            ),
            raw,
        ));
    }
    if !reads_only && let Some(w) = words::schedules(c) {
        out.push(decide(
            Verdict::Junction,
            RuleId::Schedule,
            format!(
                "`{}` is told to schedule what it runs (`{w}`): it runs later, when no one is watching; a person decides",
                c.name
            ),
            raw,
        ));
    }
    handover::judge(c, raw, out);
    handover::runs_on_listed_hosts(c, raw, out);
    handover::runs_there(c, raw, out);
    handover::exposes(c, assigns, raw, out);
    handover::runs_clients_code(c, raw, out);
    if !reads_only {
        handover::enrolls(c, raw, out);
        handover::logs_in_elsewhere(c, raw, out);
    }
}

/// Whether what is restored or installed lands in the project or a temporary directory: an
/// option that names where (`--target=build/restore`, `-o deps`, `--tree=lua_modules`, `-D
/// "$TMPDIR/pg"`), or, for a restore, its last operand written as a path (`kopia snapshot
/// restore ID "$TMPDIR/check"`). A bare word is what is restored (`lxc restore web01 snap0`,
/// `tklbam-restore 2`, `consul snapshot restore backup.snap`), not where: the program puts it
/// back where it was; and an option that names something else (`--name acme-tools`) says
/// nothing of where.
fn lands_here(c: &Cmd<'_>, ctx: &Context, last_operand: bool) -> bool {
    // An option's value that names where is a directory, bare or not (`-o deps`).
    let here = |a: &super::parse::Arg, bare: bool| {
        let path = a.text.clone().or_else(|| {
            ctx.resolve(&a.raw)
                .map(|p| p.to_string_lossy().into_owned())
        });
        path.is_some_and(|p| {
            !p.starts_with('-')
                && (bare || p == "." || p.contains('/'))
                && matches!(ctx.classify(&p), super::Place::Inside | super::Place::Tmp)
        })
    };
    fn flag_of(a: &super::parse::Arg) -> Option<&str> {
        a.text
            .as_deref()
            .filter(|t| t.starts_with('-') && t.len() > 1)
    }
    let names_where = |flag: &str| {
        words::parts(flag).iter().any(|p| {
            matches!(
                p.as_str(),
                "o" | "d"
                    | "dir"
                    | "directory"
                    | "tree"
                    | "target"
                    | "prefix"
                    | "root"
                    | "dest"
                    | "destdir"
                    | "destination"
                    | "to"
                    | "into"
                    | "out"
                    | "output"
                    | "path"
                    | "location"
            )
        })
    };
    let by_option = c.args.iter().enumerate().any(|(i, a)| match flag_of(a) {
        Some(t) => match t.split_once('=') {
            Some((flag, v)) => {
                names_where(flag)
                    && here(
                        &super::parse::Arg {
                            text: Some(v.to_string()),
                            raw: v.to_string(),
                            quoted: false,
                        },
                        true,
                    )
            }
            None => names_where(t) && c.args.get(i + 1).is_some_and(|v| here(v, true)),
        },
        None => false,
    });
    // The last operand that is no option's value.
    let operand = || {
        c.args
            .iter()
            .enumerate()
            .rfind(|(i, a)| {
                flag_of(a).is_none()
                    && !(*i > 0 && flag_of(&c.args[i - 1]).is_some_and(|f| !f.contains('=')))
            })
            .is_some_and(|(_, a)| here(a, false))
    };
    by_option || last_operand && operand()
}

/// Whether the command `privileged` runs (`sudo … CMD`) only looks: `--help`, a dry run, or a
/// subcommand that only reads (`sudo crictl ps -a`, `sudo nft list ruleset`) with no
/// consequential word. Reading as root is still reading; the rules judge what is read, and a
/// file printed whole as root is not only looking ([`root_prints_file`]).
pub(super) fn runs_only_looking(privileged: &Cmd<'_>, ctx: &super::Context) -> bool {
    let Some((name, args)) = privileged_argv(privileged) else {
        return false;
    };
    let inner = Cmd {
        name: &name,
        args: &args,
        writes: privileged.writes,
        reads: privileged.reads,
        zones: privileged.zones,
    };
    reads_public_files(&inner, ctx)
        || identifies_disks(&inner)
        || !root_prints_file(&inner, ctx)
            && (words::shows_only(&inner)
                || tees_into_scratch(&inner, ctx)
                || counts_only(&inner)
                || reads_logs(&inner)
                || words::consequence(&inner).is_none()
                    && (words::looks(&inner)
                        || words::asks_by_first_flag(&inner)
                        || words::flag_looks(&inner)
                        || words::reads_by_form(&inner, true)))
}

/// Files every user may read, which root reads no differently (`/etc/hosts`, `/etc/os-release`,
/// `/etc/fstab`, `/proc/cpuinfo`): printed as root (`sudo cat /etc/hosts`) or copied into the
/// project's scratch (`sudo cp /etc/fstab build/fstab.bak`), nothing only root may see is read.
fn reads_public_files(inner: &Cmd<'_>, ctx: &super::Context) -> bool {
    const PUBLIC: &[&str] = &[
        "/etc/hosts",
        "/etc/hostname",
        "/etc/os-release",
        "/usr/lib/os-release",
        "/etc/lsb-release",
        "/etc/issue",
        "/etc/fstab",
        "/etc/resolv.conf",
        "/etc/passwd",
        "/etc/group",
        "/etc/timezone",
        "/etc/debian_version",
        "/etc/redhat-release",
        "/etc/machine-id",
        "/etc/nsswitch.conf",
        "/proc/cpuinfo",
        "/proc/meminfo",
        "/proc/version",
        "/proc/mounts",
    ];
    // (A count is an option's value: `tail -n 5`.)
    let files: Vec<String> = inner
        .operands()
        .map(|a| ctx.arg_text(a))
        .filter(|f| !f.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    let public = |f: &String| PUBLIC.contains(&f.as_str());
    let flags_plain = inner
        .option_words()
        .filter(|w| w.starts_with('-'))
        .all(|w| w.len() <= 3);
    match inner.name {
        // (grep's pattern is the one word that is no such file.)
        "grep" => {
            flags_plain
                && files.iter().any(public)
                && files.iter().filter(|f| !public(f)).count() <= 1
        }
        "cat" | "head" | "tail" | "less" | "more" | "wc" | "diff" => {
            flags_plain && !files.is_empty() && files.iter().all(public)
        }
        "cp" => {
            files.len() == 2
                && flags_plain
                && public(&files[0])
                && !super::rules::deletion::loses(ctx, ctx.classify(&files[1]), &files[1])
        }
        _ => false,
    }
}

/// A disk's identity and layout read as root (`sudo blkid /dev/sda`, `sudo fdisk -l`): the
/// labels, types and partitions are printed, nothing is written.
fn identifies_disks(inner: &Cmd<'_>) -> bool {
    let only = |allowed: &[&str]| {
        inner
            .option_words()
            .all(|w| !w.starts_with('-') || allowed.contains(&w))
    };
    match inner.name {
        "blkid" => only(&["-o", "-s", "-p", "-i", "-k", "-l", "-t", "-L", "-U"]),
        "fdisk" | "sfdisk" | "parted" => {
            inner.option_words().any(|w| w == "-l" || w == "--list") && only(&["-l", "--list"])
        }
        _ => false,
    }
}

/// `tee` run as root into the temp directory only (`… | sudo tee "$TMPDIR"/99-pinproc.rules`):
/// what it writes comes from the unprivileged side of the pipe, and lands where nothing
/// reads it as configuration. (Not `cp`: a root-only file copied there is read out.)
fn tees_into_scratch(inner: &Cmd<'_>, ctx: &super::Context) -> bool {
    // Or a copy of its own input (`… | sudo cp /dev/stdin "$TMPDIR/dose.csv"`), a tee by
    // another name.
    let copies_input = inner.name == "cp"
        && inner.operands().count() == 2
        && inner.operands().next().and_then(|a| a.text.as_deref()) == Some("/dev/stdin");
    let mut files = inner
        .operands()
        .map(|a| ctx.arg_text(a))
        .filter(|f| !(copies_input && f == "/dev/stdin"))
        .peekable();
    // Or `dd` of its input, or of a file, into a file there (`… | sudo dd of=build/u2.bin`):
    // no disk is named, only where the bytes land.
    let scratch = |f: &str| !super::rules::deletion::loses(ctx, ctx.classify(f), f);
    if inner.name == "dd" {
        let mut of = None;
        for w in inner.words() {
            match w.split_once('=') {
                Some(("of", v)) => of = Some(v),
                Some(("if", v)) if v.starts_with("/dev/") && v != "/dev/stdin" => return false,
                Some(("if" | "bs" | "count" | "skip" | "seek" | "status" | "conv", _)) => {}
                _ => return false,
            }
        }
        return of.is_some_and(|f| !f.starts_with("/dev/") && scratch(f));
    }
    // Or directories made there (`sudo install -d build/out`, `sudo mkdir -p build/x`), a
    // mode, an owner or a group given first.
    let makes_dirs = inner.name == "mkdir"
        || inner.name == "install"
            && inner
                .option_words()
                .any(|w| w == "-d" || w == "--directory");
    if makes_dirs {
        let words: Vec<&str> = inner.words().collect();
        let dirs: Vec<&str> = words
            .iter()
            .enumerate()
            .filter(|&(i, w)| {
                let valued =
                    |f: &str| matches!(f, "-m" | "-o" | "-g" | "--mode" | "--owner" | "--group");
                !w.starts_with('-') && (i == 0 || !valued(words[i - 1]))
            })
            .map(|(_, w)| *w)
            .collect();
        return !dirs.is_empty() && dirs.iter().all(|f| scratch(f));
    }
    // Or into git-ignored build output (`sudo tee build/plates-root.txt`).
    (inner.name == "tee" || copies_input) && files.peek().is_some() && files.all(|f| scratch(&f))
}

/// The system's log read as root (`sudo journalctl -u svc -n 50`, `sudo dmesg`), not rotated,
/// vacuumed, flushed or cleared.
fn reads_logs(inner: &Cmd<'_>) -> bool {
    let changes = |w: &str| {
        w.starts_with("--vacuum")
            || matches!(
                w,
                "--rotate" | "--flush" | "--sync" | "--relinquish-var" | "--setup-keys"
            )
            // dmesg's own: clear the buffer, or set what reaches the console.
            || inner.name == "dmesg"
                && matches!(w, "-C" | "--clear" | "-c" | "--read-clear" | "-D" | "-E" | "-n")
    };
    matches!(inner.name, "journalctl" | "dmesg") && !inner.option_words().any(changes)
}

/// `grep` run as root asked only whether or how often a pattern occurs (`sudo grep -c dialout
/// /etc/group`, `-q`, `-l`): it prints counts or names, not what the file holds.
fn counts_only(inner: &Cmd<'_>) -> bool {
    matches!(inner.name, "grep" | "egrep" | "fgrep" | "zgrep")
        && inner.option_words().any(|w| {
            matches!(
                w,
                "-c" | "--count" | "-q" | "--quiet" | "--silent" | "-l" | "--files-with-matches"
            )
        })
}

/// The program a privileged command runs (`sudo -u x CMD ARGS`), by its base name, and its
/// arguments.
fn privileged_argv(privileged: &Cmd<'_>) -> Option<(String, Vec<super::parse::Arg>)> {
    let mut argv = vec![super::parse::Arg {
        text: Some(privileged.name.to_string()),
        raw: privileged.name.to_string(),
        quoted: false,
    }];
    argv.extend(privileged.args.iter().cloned());
    let start = super::wrappers::unwrap(&argv)?;
    let name = argv.get(start)?.text.as_deref()?;
    let name = name.rsplit('/').next().unwrap_or(name).to_string();
    Some((name, argv.split_off(start + 1)))
}

/// A file outside the project and the temp dirs printed whole as root (`sudo cat
/// /etc/vpncloud/office.net`, `sudo cat /var/lib/boinc-client/gui_rpc_auth.cfg`): a file only
/// root may read is kept from users for what it holds (a network's shared key, an RPC
/// password), and printing it puts that in the agent's context.
fn root_prints_file(inner: &Cmd<'_>, ctx: &super::Context) -> bool {
    use crate::paths::Place;
    crate::rules::PRINTERS.contains(&inner.name)
        && inner.operands().any(|a| {
            a.text.as_deref().is_some_and(|t| {
                !matches!(
                    ctx.places.classify(t),
                    Place::Inside | Place::ProjectRoot | Place::Tmp | Place::Unknown
                )
            })
        })
}

/// A file this line fetched from the network (`curl -o F …`), handed to a program run as root,
/// told to load, install, run or apply it (`sudo kpatch load F`, `acme-mod insert F`), made
/// executable first (`chmod +x F && acme-server -v F`), or handed to a program trail does not
/// model at all (`winetricks F`, `marp --engine F`), which may run it and whose options say
/// nothing the gate can read: code nobody has read, run, as `curl … | sh` is. Reading it
/// (`sha256sum F`) is a reader's, and a program only asked to show things shows it.
fn loads_fetched(
    c: &Cmd<'_>,
    ctx: &super::Context,
    layer: Layer,
    tier: Tier,
    raw: &str,
) -> Option<Decision> {
    if ctx.line.fetched.is_empty() {
        return None;
    }
    let (fetched, path) = c
        .args
        .iter()
        .find_map(|a| {
            let t = ctx.arg_text(a);
            let p = ctx.resolve(option_value(&t))?;
            // Or the working directory that holds a tree fetched into it (`git clone URL
            // game/mods && renpy.sh . run`): the program loads the whole of it. (A file fetched
            // there, `curl -o data.json …`, is data a linter of `.` reads.)
            let holds_fetched = t == "."
                && ctx
                    .line
                    .fetched
                    .iter()
                    .any(|f| f.starts_with(&p) && *f != p && f.extension().is_none());
            (ctx.fetched_holds(&p) || holds_fetched).then(|| (t.clone(), p))
        })
        // Or named inside a structured value (`--default-capabilities '{"x:executable":
        // "$TMPDIR/driver"}'`), as written.
        .or_else(|| {
            c.args.iter().find_map(|a| {
                a.raw
                    .split(['"', '\'', '\\', ',', ' ', '{', '}', '[', ']', '=', ';'])
                    .filter(|p| p.starts_with(['/', '~', '$']))
                    .find_map(|piece| {
                        let p = ctx.resolve(piece)?;
                        ctx.fetched_holds(&p).then(|| (piece.to_string(), p))
                    })
            })
        })?;
    // The program's own name counts: a builder given the fetched tree builds it, and a build
    // runs the tree's own recipes (`make -C DIR`, `cmake --build DIR`).
    let loads = std::iter::once(c.name)
        .chain(c.words().take_while(|w| *w != fetched))
        .any(|w| {
            words::parts(w).iter().any(|p| {
                matches!(
                    p.as_str(),
                    "load"
                        | "insert"
                        | "insmod"
                        | "install"
                        | "run"
                        | "exec"
                        | "apply"
                        | "import"
                        | "flash"
                        | "script"
                        | "build"
                        | "make"
                )
            })
        });
    let armed = ctx.line.armed.contains(&path);
    // A test run runs what it tests (`planemo test F`): only looking does not, unless an act
    // rides on the look (`plan --auto-apply`).
    let unknown = tier == Tier::Unknown && !words::shows_only(c);
    let unmodelled =
        unknown && (words::runs_tests(c) || !words::looks(c) || words::consequence(c).is_some());
    // A program's own code by its name's extension (`check-profile build/x_profile.py`): a
    // program nobody models given code loads it, whatever its verb says.
    let code = unknown
        && fetched.rsplit_once('.').is_some_and(|(_, ext)| {
            matches!(
                ext,
                "py" | "js"
                    | "mjs"
                    | "cjs"
                    | "ts"
                    | "rb"
                    | "pl"
                    | "sh"
                    | "bash"
                    | "lua"
                    | "php"
                    | "jar"
                    | "ps1"
                    | "tcl"
                    | "r"
                    | "groovy"
                    | "so"
                    | "dll"
            )
        });
    // Only checked, by a verb before it that reads what it is given (`script lint F`,
    // `recipe validate F`): linted, not loaded.
    let checked = c.words().take_while(|w| *w != fetched).any(|w| {
        matches!(
            w,
            "lint" | "validate" | "verify" | "inspect" | "scan" | "audit" | "view" | "diff"
        )
    });
    (layer.privileged || armed || (loads || unmodelled || code) && !checked).then(|| {
        decide(
            Verdict::Block,
            RuleId::RemoteCode,
            format!(
                "`{}` is given `{fetched}`, fetched from the network on this line, to load or run{}: code nobody has read; it is never run",
                c.name,
                if layer.privileged { " as root" } else { "" }
            ),
            raw,
        )
    })
}

/// A program run as root told to restore this machine's boot record or its disks, or to
/// wipe them first (`sudo mondorestore -Z nuke`, `sudo acrocmd recover mbr … --target_disk=1`):
/// what is on them is replaced by the backup's, and a wrong image leaves the machine unable to
/// start. No host named: the machine is this one.
fn restores_this_machine(c: &Cmd<'_>, layer: Layer, raw: &str) -> Option<Decision> {
    if !layer.privileged || !words::restores(c) || words::shows_only(c) {
        return None;
    }
    let remote = c
        .words()
        .any(|w| w.contains('@') || w.contains("://") || matches!(w, "--host" | "-H"));
    let whole = c.words().find(|w| {
        let ps = words::parts(w.trim_start_matches('-'));
        ps.iter()
            .any(|p| matches!(p.as_str(), "mbr" | "bootloader" | "nuke" | "baremetal"))
            || ps.windows(2).any(|p| {
                p[0] == "target" && matches!(p[1].as_str(), "disk" | "disks" | "drive")
                    || p[0] == "bare" && p[1] == "metal"
            })
    })?;
    (!remote).then(|| {
        decide(
            Verdict::Block,
            RuleId::DestroysCritical,
            format!(
                "`{}` is told, as root, to restore over this machine's disks or boot record (`{whole}`): it is never run",
                c.name
            ),
            raw,
        )
    })
}

/// A program run as root told to write flash memory (`sudo ectool flasherase 0 0x40000`,
/// `sudo framework_tool --flash-ec …`, `sudo amdvbflash -p 0 vbios.rom`) with no external
/// device named (a serial port, a USB drive, `--port`): the flash is this machine's own,
/// its embedded controller's, its BIOS's or its graphics card's, and a bad image leaves it
/// unable to start. Reading or saving it (`flashread`, `--save`) changes nothing.
fn flashes_this_machine(c: &Cmd<'_>, layer: Layer, raw: &str) -> Option<Decision> {
    let lower: Vec<String> = std::iter::once(c.name)
        .chain(c.words())
        .map(str::to_ascii_lowercase)
        .collect();
    // Not run as root, but told that the chip is this machine's own (`-p internal`, the
    // programmer flashrom and its forks name so) and to write or erase it: it needs root and
    // may ask for it, but the chip is the same.
    let own_chip = lower
        .iter()
        .any(|w| w == "internal" || w.starts_with("internal:"))
        && c.option_words()
            .any(|w| matches!(w, "-w" | "--write" | "-E" | "--erase"));
    // Or told by a switch that the firmware is this host's own (`bios flash --host --file
    // F`): `--host` with no name after it names no other machine. (Read only when the rest
    // says nothing: every command nobody models comes here.)
    let this_host = || {
        let mut words = c.option_words().peekable();
        while let Some(w) = words.next() {
            if matches!(w, "--host" | "--this-host" | "--local")
                && words.peek().is_none_or(|n| n.starts_with('-'))
            {
                return true;
            }
        }
        false
    };
    let own_chip = own_chip || !layer.privileged && this_host();
    if !layer.privileged && !own_chip {
        return None;
    }
    // A firmware image (`fw.bin`, `shell.xsabin`) or a PCI address (`03:00.0`): the card in
    // this machine the write goes to.
    let image = |w: &str| {
        [".bin", ".rom", ".fw", ".xsabin", ".cap", ".fd"]
            .iter()
            .any(|e| w.ends_with(e))
    };
    // Or the BIOS's own chip by name (`chipsec_util spi erase 0x0`), which a write names too.
    let chip = lower.iter().any(|w| matches!(w.as_str(), "spi" | "bios"));
    let aimed = chip || lower.iter().any(|w| image(w) || pci_address(w));
    // The word that writes: `flash` in any word (`flasherase`, `--flash-ec`, `nvflash`), a
    // burning verb said to an image or a card (`mstflint -d 03:00.0 burn`, `xbmgmt program
    // --image …`), or an updater given an image (`fpgasupdate fw.bin 0000:b2:00.0`).
    let word = lower
        .iter()
        .find(|w| !w.contains('/') && w.contains("flash"))
        .or_else(|| {
            lower
                .iter()
                .find(|w| {
                    matches!(w.as_str(), "burn" | "erase" | "program" | "reflash")
                        || chip && w.as_str() == "write"
                })
                .filter(|_| aimed)
        })
        .or_else(|| {
            lower
                .first()
                .filter(|n| n.contains("update") && lower.iter().any(|w| image(w)))
        })
        // Or a firmware's own subcommand that writes it (`firmware write --image fw.rom`,
        // `firmware write-host-bios`): the firmware named, then the act.
        .or_else(|| {
            let parts_of = |w: &String| words::parts(w);
            let named = lower.iter().filter(|w| !w.contains('/')).any(|w| {
                parts_of(w)
                    .iter()
                    .any(|p| matches!(p.as_str(), "firmware" | "fw" | "bios" | "uefi"))
            });
            lower
                .iter()
                .filter(|w| !w.starts_with('-') && !w.contains('/'))
                .find(|w| {
                    parts_of(w)
                        .iter()
                        .any(|p| matches!(p.as_str(), "write" | "update" | "upgrade" | "install"))
                })
                .filter(|_| named && aimed)
        })?;
    const READS: &[&str] = &[
        "read", "dump", "save", "backup", "info", "list", "version", "verify", "status", "probe",
    ];
    // Or told to read by the short switch a flash programmer reads with (`flashrom -p
    // internal -r backup.rom`), and to write or erase nothing.
    let reads = lower.iter().any(|w| {
        READS.iter().any(|r| {
            w.trim_start_matches('-').starts_with(r)
                || w.match_indices("flash")
                    .any(|(i, _)| w[i + 5..].starts_with(r))
        })
    }) || !words::writes_flash(c) && c.option_words().any(|w| w == "-r");
    let external = lower.iter().any(|w| {
        w.starts_with("/dev/tty")
            || w.contains("usb")
            || w.starts_with("--port")
            || w.starts_with("--drive")
    });
    (!reads && !external).then(|| {
        decide(
            Verdict::Block,
            RuleId::PowerFirmwareWrite,
            format!(
                "`{}` is told to write flash memory (`{word}`), run as root or given this machine's own chip, with no external device named: this machine's own firmware, which a bad image leaves unable to start; it is never run",
                c.name
            ),
            raw,
        )
    })
}

/// A program told to run or build after it fetched code by an address on this line (`haxelib
/// git hxsetup https://… && haxelib run hxsetup`, `alr with lib --use=https://… && alr build`):
/// it runs what it fetched, code nobody has read, as `curl … | sh` does.
fn runs_what_it_fetched(c: &Cmd<'_>, ctx: &super::Context, raw: &str) -> Option<Decision> {
    if !ctx.line.fetchers.iter().any(|f| f == c.name) || words::shows_only(c) {
        return None;
    }
    let verb = c.words().find(|w| {
        matches!(
            *w,
            "run" | "build" | "exec" | "execute" | "install" | "test" | "start" | "load"
        )
    })?;
    Some(decide(
        Verdict::Block,
        RuleId::RemoteCode,
        format!(
            "`{}` is told to {verb} after it fetched code by an address on this line: code nobody has read; it is never run",
            c.name
        ),
        raw,
    ))
}

/// What earlier commands of this line made, used by this one: a fetched file on a load path,
/// a fetched program written into a configuration, a script written and made executable.
fn made_on_this_line(
    c: &Cmd<'_>,
    cmd: &Simple,
    ctx: &super::Context,
    raw: &str,
    out: &mut Findings,
) {
    out.extend(load_path_fetched(cmd, ctx, raw));
    out.extend(points_at_armed(c, ctx, raw));
    out.extend(own_config_fetched(c, ctx, raw));
    planted_made_runnable(c, ctx, out);
    planted_then_built(c, ctx, out);
    out.extend(planted_points_at_credentials(c, ctx, raw));
    out.extend(planted_output_built(c, ctx, raw));
}

/// A file this line wrote whose settings say where a build's output goes (`<target
/// output-dir="/home/dev"/>`, `output_dir: /etc`, `publish-dir = "~/site"`), then a program
/// told to build or clean (`pretext build web --clean`): it writes there, and told to clean it
/// empties that directory first. The home, the root, a system directory or the project's own
/// root or its parents emptied is a block; written into, or any other place outside the
/// project, a junction.
fn planted_output_built(c: &Cmd<'_>, ctx: &super::Context, raw: &str) -> Option<Decision> {
    if ctx.line.planted.is_empty()
        || matches!(c.name, "printf" | "echo" | "cat" | "tee" | "sed" | "mkdir")
    {
        return None;
    }
    let said = |set: &[&str]| {
        std::iter::once(c.name).chain(c.words()).any(|w| {
            words::parts(w.trim_start_matches('-'))
                .iter()
                .any(|p| set.contains(&p.as_str()))
        })
    };
    if !said(&[
        "build", "clean", "render", "generate", "publish", "deploy", "compile", "export",
    ]) {
        return None;
    }
    let cleans = said(&["clean", "empty", "wipe", "purge"]);
    let names_output = |key: &str| {
        let ps = words::parts(key.trim_matches(['"', '\'']));
        let out = ps.iter().any(|p| {
            matches!(
                p.as_str(),
                "output" | "out" | "outdir" | "dest" | "destination" | "publish"
            )
        });
        out && (ps.len() == 1 && ps[0] == "outdir"
            || ps
                .iter()
                .any(|p| matches!(p.as_str(), "dir" | "directory" | "path" | "folder" | "root")))
    };
    let settings = ctx.line.planted.iter().flat_map(|(_, text)| {
        let toks: Vec<&str> = text
            .split(|ch: char| ch.is_whitespace() || matches!(ch, '<' | '>' | ','))
            .filter(|t| !t.is_empty())
            .collect();
        (0..toks.len())
            .filter_map(|i| match toks[i].split_once('=') {
                Some((k, v)) if !k.is_empty() => Some((k.to_string(), v.to_string())),
                // `key: value`, `key = value`, as YAML and TOML write them.
                _ => {
                    let key = toks[i].strip_suffix(':').unwrap_or(toks[i]);
                    let next = toks.get(i + 1)?;
                    let value = if *next == "=" { toks.get(i + 2)? } else { next };
                    (key.len() < toks[i].len() || *next == "=")
                        .then(|| (key.to_string(), (*value).to_string()))
                }
            })
            .collect::<Vec<_>>()
    });
    let (word, t) = settings
        .filter(|(k, _)| names_output(k))
        .find_map(|(_, v)| {
            let v = v.trim_matches(['"', '\'']);
            if !v.starts_with(['/', '~', '$']) {
                return None;
            }
            let v = match v.trim_end_matches(['/', '"', '\'']) {
                "" => "/".to_string(),
                trimmed => trimmed.to_string(),
            };
            let t = targets::target(&v, ctx)?;
            (t != Target::ProjectRoot || cleans).then_some((v, t))
        })?;
    let whole = matches!(
        t,
        Target::Home | Target::Root | Target::SystemDir | Target::Ancestor | Target::ProjectRoot
    );
    let (verdict, rule, what) = if whole && cleans {
        (
            Verdict::Block,
            RuleId::DestroysCritical,
            "emptied first, then written: it is never run",
        )
    } else {
        (
            Verdict::Junction,
            RuleId::NamesCritical,
            "written: a person decides",
        )
    };
    Some(decide(
        verdict,
        rule,
        format!(
            "`{}` builds into `{word}`, the output directory a file this line wrote names ({}), {what}",
            c.name,
            t.what()
        ),
        raw,
    ))
}

/// A file this line wrote handed to a program, its text naming a credential store (`printf
/// 'base_directory = "/home/dev/.ssh"…' > s.toml && stork build --input s.toml`): the program
/// reads what the file points it at, and what it writes (an index, a bundle, a report) holds
/// the keys.
fn planted_points_at_credentials(c: &Cmd<'_>, ctx: &super::Context, raw: &str) -> Option<Decision> {
    let given = |file: &std::path::Path| {
        c.args.iter().any(|a| {
            let t = ctx.arg_text(a);
            let t = t.rsplit_once('=').map_or(t.as_str(), |(_, v)| v);
            ctx.resolve(t).is_some_and(|p| p == file)
        })
    };
    // Not a key named for what it is used as (`IdentityFile ~/.ssh/id_rsa`, `key_file = …`):
    // the program logs in with it, as ssh does.
    let used_as_key = |setting: &str| {
        let s = setting.to_ascii_lowercase();
        ["identity", "key", "cert"].iter().any(|k| s.contains(k))
    };
    let (_, named) = ctx
        .line
        .planted
        .iter()
        .filter(|(f, _)| given(f))
        .find_map(|(f, text)| {
            let words: Vec<&str> = text
                .split(|ch: char| {
                    ch.is_whitespace()
                        || matches!(
                            ch,
                            '"' | '\'' | '=' | ',' | '[' | ']' | '{' | '}' | '(' | ')'
                        )
                })
                .filter(|w| !w.is_empty())
                .collect();
            words.iter().enumerate().find_map(|(i, w)| {
                ((w.starts_with(['/', '~']) || w.starts_with("$HOME"))
                    && !(i > 0 && used_as_key(words[i - 1]))
                    && ctx
                        .resolve(w)
                        .is_some_and(|p| super::rules::credential_path(ctx, &p)))
                .then(|| (f, (*w).to_string()))
            })
        })?;
    Some(decide(
        Verdict::Junction,
        RuleId::CredentialRead,
        format!(
            "`{}` is given a file this line wrote that points it at a credential store (`{named}`): what it reads there, and writes out, holds the keys; a person decides",
            c.name
        ),
        raw,
    ))
}

/// A file this line wrote, then a program told to build or run the thing it is named for
/// (`printf 'do_install:append() {\n rm -rf ~\n}' >> recipes/demo/demo.bb && petalinux-build
/// -c demo`): no person read the file between, and the build runs the shell lines it holds.
/// Only blocks count: what a build's recipe may do otherwise is the build's business.
fn planted_then_built(c: &Cmd<'_>, ctx: &super::Context, out: &mut Findings) {
    if ctx.line.planted.is_empty() {
        return;
    }
    const RUNS: &[&str] = &[
        "run", "exec", "execute", "build", "make", "bake", "install", "deploy",
    ];
    let runs_word = |w: &str| words::parts(w).iter().any(|p| RUNS.contains(&p.as_str()));
    // (A path's segments are places, not acts: `hooks validate build/hooks.toml` builds
    // nothing; and a file only checked runs none of its lines.)
    let runs = runs_word(c.name) || c.words().filter(|w| !w.contains(['/', '.'])).any(runs_word);
    // (A rehearsal runs none: `dispatch --jobs-json build/jobs.json --dry-run`.)
    if !runs
        || words::looks(c)
        || rehearses(c)
        || c.words()
            .any(|w| matches!(w, "validate" | "lint" | "check"))
    {
        return;
    }
    for (file, text) in &ctx.line.planted {
        let named = file
            .file_stem()
            .and_then(|s| s.to_str())
            .is_some_and(|stem| stem.len() >= 3 && c.words().any(|w| w == stem));
        if named {
            // A document's lines (JSON, XML) are no shell lines: the commands its fields
            // hold are judged where its settings are read.
            for line in text.lines().map(str::trim) {
                if !line.starts_with(['{', '[', '<', '"']) {
                    out.runs(line, super::Keep::Blocks);
                }
            }
        }
    }
}

/// A program run after this line fetched its own configuration from the network (`curl -o
/// ~/.jobber … && jobber reload`, `… -o ~/.config/acme/config.yml && acme start`): the file
/// the program reads for what to run is code nobody has read.
fn own_config_fetched(c: &Cmd<'_>, ctx: &super::Context, raw: &str) -> Option<Decision> {
    if ctx.line.fetched.is_empty() || c.name.len() < 3 {
        return None;
    }
    let home = &ctx.places.home;
    let file = ctx.line.fetched.iter().find(|p| {
        let dotfile = p.parent() == Some(home.as_path())
            && p.file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_prefix('.'))
                .is_some_and(|n| n.split('.').next() == Some(c.name));
        let config_dir = p.starts_with(home.join(".config").join(c.name));
        dotfile || config_dir
    })?;
    Some(decide(
        Verdict::Block,
        RuleId::RemoteCode,
        format!(
            "`{}` runs after this line fetched its own configuration (`{}`) from the network: what it reads there to run is code nobody has read; it is never run",
            c.name,
            file.display()
        ),
        raw,
    ))
}

/// A program fetched on this line and made executable, named inside another word of a later
/// command (`sed -i 's#plugin = ""#plugin = "/tmp/policy.sh"#' relay.conf`, `printf
/// 'hook=/tmp/h.sh' > app.conf`): a configuration now points at code nobody has read, and
/// what reads it runs it. The path as a whole word is the program handed it, judged where
/// programs are ([`loads_fetched`]); `ls -l F` only names it.
fn points_at_armed(c: &Cmd<'_>, ctx: &super::Context, raw: &str) -> Option<Decision> {
    if ctx.line.armed.is_empty() {
        return None;
    }
    let armed = ctx.line.armed.iter().find_map(|p| {
        let path = p.to_str()?;
        c.args
            .iter()
            .map(|a| ctx.arg_text(a))
            .any(|t| t != path && t.contains(path))
            .then_some(path)
    })?;
    Some(decide(
        Verdict::Block,
        RuleId::RemoteCode,
        format!(
            "`{}` writes `{armed}`, a program fetched on this line and made executable, into its text: what reads it runs code nobody has read; it is never run",
            c.name
        ),
        raw,
    ))
}

/// `chmod +x F` of a file this line wrote from text it holds (`printf 'curl … | sh\n' >>
/// /data/rc.local && chmod +x /data/rc.local`): the text is a script now, and each of its
/// lines is judged as a command that will run.
fn planted_made_runnable(c: &Cmd<'_>, ctx: &super::Context, out: &mut Findings) {
    if c.name != "chmod" || ctx.line.planted.is_empty() {
        return;
    }
    let mut words = c.args.iter().map(|a| ctx.arg_text(a));
    if !words
        .next()
        .is_some_and(|m| crate::judge::grants_execute(&m))
    {
        return;
    }
    for w in words {
        let Some(p) = ctx.resolve(&w) else { continue };
        for (_, text) in ctx.line.planted.iter().filter(|(f, _)| *f == p) {
            for line in text.lines().map(str::trim) {
                if !line.is_empty() && !line.starts_with('#') {
                    out.runs(line, super::Keep::Blocks);
                }
            }
        }
    }
}

/// A worker, agent or runner pointed at another host (`dask worker tcp://203.0.113.7:8786`,
/// `acme-agent --server 198.51.100.4:4647`): the host it joins sends it the code it runs. On a
/// network of one's own (a private address, `.internal`, `.lan`) a person decides; anywhere
/// else it is a machine handed to whoever runs that host.
fn joins_a_controller(c: &Cmd<'_>, cmd: &Simple, raw: &str) -> Option<Decision> {
    // Every program nobody models comes here: the word's parts are only split when it holds
    // one of the roles at all.
    let role = |w: &str| {
        ["worker", "agent", "runner"].iter().any(|r| {
            w.as_bytes()
                .windows(r.len())
                .any(|x| x.eq_ignore_ascii_case(r.as_bytes()))
        }) && words::parts(w)
            .last()
            .is_some_and(|p| matches!(p.as_str(), "worker" | "agent" | "runner"))
    };
    if !(role(c.name) || c.words().find(|w| !w.starts_with('-')).is_some_and(role)) {
        return None;
    }
    // (Or given by the environment set for it: `SHELLHUB_SERVER_ADDRESS=https://… agent`.)
    let assigned = cmd.assigns.iter().filter_map(|(_, v)| v.text.as_deref());
    let host = c.words().chain(assigned).find_map(|w| {
        let w = w.split_once('=').map_or(w, |(_, v)| v);
        let bare = w.split_once("://").map_or(w, |(_, rest)| rest);
        let bare = bare.split('/').next().unwrap_or(bare);
        super::shells::host_port(bare).then_some(bare)
    })?;
    let name = host.rsplit_once(':').map_or(host, |(h, _)| h);
    let own = name.starts_with("10.")
        || name.starts_with("192.168.")
        || name
            .strip_prefix("172.")
            .and_then(|r| r.split('.').next())
            .and_then(|o| o.parse::<u8>().ok())
            .is_some_and(|o| (16..=31).contains(&o))
        || [".internal", ".lan", ".local", ".corp", ".home.arpa"]
            .iter()
            .any(|s| name.ends_with(s) || name.contains(&format!("{s}.")));
    Some(decide(
        if own {
            Verdict::Junction
        } else {
            Verdict::Block
        },
        RuleId::RemoteCode,
        format!(
            "`{}` joins `{host}` as its worker: that host sends the code it runs{}",
            c.name,
            if own {
                ": a person decides"
            } else {
                ", and it is not on a network of this machine's own; it is never run"
            }
        ),
        raw,
    ))
}

/// A PCI address (`03:00.0`, `0000:65:00.0`): a card in this machine.
fn pci_address(w: &str) -> bool {
    let w = w.strip_prefix("0000:").unwrap_or(w);
    let b = w.as_bytes();
    b.len() == 7
        && b[2] == b':'
        && b[5] == b'.'
        && [0, 1, 3, 4].iter().all(|&i| b[i].is_ascii_hexdigit())
        && b[6].is_ascii_digit()
}

/// A variable set for the program naming where it loads code from or what it runs
/// (`BCFTOOLS_PLUGINS=DIR`, `LD_PRELOAD=F`, `PYTHONPATH=DIR`, `…_POST_CONSUME_SCRIPT=F`),
/// pointing at a file this line fetched or the directory holding one: the program loads what
/// nobody has read, whatever it is called.
fn load_path_fetched(cmd: &Simple, ctx: &super::Context, raw: &str) -> Option<Decision> {
    if ctx.line.fetched.is_empty() {
        return None;
    }
    let (name, _) = cmd.assigns.iter().find(|(name, value)| {
        // Named for code (`…_PLUGINS`, `LD_PRELOAD`, `PERL5LIB`), or a language's search path
        // (`NODE_PATH`, `LUA_PATH`): not any path (`DATA_PATH` names data).
        let ps = words::parts(name);
        let has = |w: &str| ps.iter().any(|p| p == w);
        let loads = ps.iter().any(|p| {
            matches!(
                p.as_str(),
                "plugin"
                    | "plugins"
                    | "preload"
                    | "lib"
                    | "libs"
                    | "library"
                    | "module"
                    | "modules"
                    | "extension"
                    | "extensions"
                    | "classpath"
                    | "pythonpath"
                    | "perl5lib"
                    | "rubylib"
                    | "script"
                    | "scripts"
                    | "hook"
                    | "hooks"
            )
        }) || has("path")
            && [
                "node", "lua", "ld", "gem", "go", "java", "class", "python", "perl", "ruby",
                "julia",
            ]
            .iter()
            .any(|l| has(l));
        loads
            && ctx
                .arg_text(value)
                .split(':')
                .filter_map(|piece| ctx.resolve(piece))
                .any(|p| {
                    ctx.fetched_holds(&p)
                        || ctx
                            .line
                            .fetched
                            .iter()
                            .any(|f| f.parent() == Some(p.as_path()))
                })
    })?;
    Some(decide(
        Verdict::Block,
        RuleId::RemoteCode,
        format!(
            "`{name}` tells the program to load code from what this line fetched from the network: code nobody has read; it is never run"
        ),
        raw,
    ))
}

/// A program run after this line fetched a file into a directory programs load code from
/// by themselves (`curl -o ~/.config/tiled/extensions/ext.js … && tiled map.tmx`, `curl -o
/// great_expectations/plugins/x.py … && great_expectations checkpoint run`): whatever the
/// program is, it may load what nobody has read, and the fetch was made for it to.
fn runs_after_planting(c: &Cmd<'_>, ctx: &super::Context, raw: &str) -> Option<Decision> {
    if ctx.line.fetched.is_empty() || words::shows_only(c) || words::looks(c) {
        return None;
    }
    // Or a fetched file the program is told to run by its name (`curl -o scratch/attack.cc …
    // && ./ns3 run attack`).
    let runs = c
        .words()
        .any(|w| matches!(w, "run" | "exec" | "execute" | "load" | "build"));
    let named = |f: &std::path::Path| {
        runs && f
            .file_stem()
            .and_then(|s| s.to_str())
            .is_some_and(|stem| stem.len() >= 3 && c.words().any(|w| w == stem))
    };
    let planted = ctx
        .line
        .fetched
        .iter()
        .find(|f| named(f) || f.parent().is_some_and(loaded_from))?;
    Some(decide(
        Verdict::Block,
        RuleId::RemoteCode,
        format!(
            "`{}` runs after this line fetched `{}` where it loads or runs it (a directory programs load code from, or named to it): code nobody has read; it is never run",
            c.name,
            planted.display()
        ),
        raw,
    ))
}

/// Whether a directory is one programs load code from by themselves, by a part of its
/// name (`plugins`, `pb_hooks`, `my-extensions`).
fn loaded_from(d: &std::path::Path) -> bool {
    const LOADED_FROM: &[&str] = &[
        "addons",
        "autoload",
        "autostart",
        "extensions",
        "hooks",
        "plugins",
    ];
    d.components().any(|part| {
        part.as_os_str().to_str().is_some_and(|p| {
            words::parts(p)
                .iter()
                .any(|w| LOADED_FROM.contains(&w.as_str()))
        })
    })
}

/// A program run after this line copied code into the project from outside it (`cp
/// ~/Downloads/x.py plugins/ && python3 server.py`, `cp "$CONFIG" config.py &&
/// ./controller.py`): into a directory programs load code from, in the language of the script
/// it runs (which imports its modules by convention), or the program itself. Nobody here has
/// read that code: a person decides.
fn runs_brought_code(c: &Cmd<'_>, ctx: &super::Context, raw: &str) -> Option<Decision> {
    if ctx.line.brought.is_empty() || words::shows_only(c) || words::looks(c) {
        return None;
    }
    let root = &ctx.places.project_root;
    let language = script_language(c);
    let program = c.name.contains('/').then(|| ctx.resolve(c.name)).flatten();
    let brought = ctx.line.brought.iter().find(|f| {
        f.parent().is_some_and(loaded_from)
            || loaded_from(f)
            || language.is_some_and(|ext| f.extension().is_some_and(|e| e == ext))
                && f.starts_with(root)
            || program.as_ref().is_some_and(|p| p.starts_with(f))
    })?;
    Some(decide(
        Verdict::Junction,
        RuleId::IndirectExec,
        format!(
            "`{}` runs after this line copied code into `{}` from outside the project, where the program loads or runs it: nobody here has read it; a person decides",
            c.name,
            brought.display()
        ),
        raw,
    ))
}

/// Each word as an option with its value: the value after `=` in the same word
/// (`--out=F`), else the next word (`--out F`), if any. Every word is paired, so a caller
/// asks `flag.starts_with('-')` where only options count.
pub(super) fn option_pairs<'w>(
    words: &'w [&'w str],
) -> impl Iterator<Item = (&'w str, Option<&'w str>)> {
    words
        .iter()
        .enumerate()
        .map(|(i, w)| match w.split_once('=') {
            Some((flag, value)) => (flag, Some(value)),
            None => (*w, words.get(i + 1).copied()),
        })
}

/// An option's value given in the same word (`--engine=F`), else the word.
fn option_value(word: &str) -> &str {
    match word.split_once('=') {
        Some((flag, value)) if flag.starts_with('-') => value,
        // A key's value, as consoles take their arguments (`/import file-name=F`).
        Some((key, value))
            if !key.is_empty()
                && key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
        {
            value
        }
        _ => word,
    }
}

/// What a program nobody models is handed besides its words: console lines, a file this line
/// planted, a download on stdin or in a directory, code by its address.
fn what_it_is_handed(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &super::Context,
    raw: &str,
    out: &mut Findings,
) {
    console_lines(c, cmd, producers, ctx, raw, out);
    out.extend(fed_statements(c, cmd, producers, ctx, raw));
    out.extend(configured_deletion(c, cmd, producers, ctx, raw));
    planted_text(c, cmd, ctx, raw, out);
    out.extend(planted_destination(c, ctx, raw));
    out.extend(configured_listener(c, ctx, raw));
    arguments::downloaded_source(c, cmd, ctx, raw, out);
    out.extend(code_from_url(c, raw));
    out.extend(download_on_stdin(c, producers, raw));
    out.extend(decoded_on_stdin(c, producers, raw));
    out.extend(substituted_stdin(c, cmd, raw));
    out.extend(copied_over(c, ctx, raw));
}

/// Files copied from another machine, in scp's `HOST:/PATH` form, over the filesystem root or
/// the home directory (`rcp -rp backup01:/srv/snap/root/. /`): whatever the program is called,
/// what lands there replaces the system's and the person's files, as `scp -r HOST:… /` does.
fn copied_over(c: &Cmd<'_>, ctx: &super::Context, raw: &str) -> Option<Decision> {
    // Every command nobody models comes here; few name another machine's path.
    if !c
        .operands()
        .any(|a| a.text.as_deref().is_some_and(|t| t.contains(':')))
    {
        return None;
    }
    let ops: Vec<&str> = c.operands().filter_map(|a| a.text.as_deref()).collect();
    let (last, sources) = ops.split_last()?;
    let remote = |w: &str| {
        !w.contains("://")
            && w.split_once(':').is_some_and(|(host, path)| {
                let host = host.rsplit('@').next().unwrap_or(host);
                host.len() >= 2
                    && host.starts_with(|ch: char| ch.is_ascii_alphabetic())
                    && host
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
                    && !matches!(host, "localhost")
                    && path.starts_with(['/', '~'])
            })
    };
    if !sources.iter().any(|w| remote(w)) || words::restores(c) {
        return None;
    }
    let target = targets::target(last, ctx)?;
    matches!(target, Target::Root | Target::Home).then(|| {
        decide(
            Verdict::Block,
            RuleId::DestroysCritical,
            format!(
                "`{}` is told to copy files from another machine over {} (`{last}`): it is never run",
                c.name,
                target.what()
            ),
            raw,
        )
    })
}

/// The lines a program nobody models is handed for its own console: the values of an option
/// that executes them (`cplex -c "read m.lp" "optimize"`, `pyocd commander -c "savemem …"`)
/// and a here-document (`hammerdbcli auto /dev/stdin <<EOF`). Each is judged two ways, and
/// only a block counts, since the console's language is not known:
///
/// - what follows its first word, as a command (`xecute rm -rf ~`: a console's verb handing the
///   rest to the shell);
/// - the line itself, as the program's own subcommand: a destroying verb said of a critical
///   place (`file delete -force /home/dev`), or a saving or writing verb whose path is a
///   system file, a device or a critical place (`savemem 0x0 0x1000 /etc/hosts`,
///   `write /etc/fstab sol`).
fn console_lines(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &super::Context,
    raw: &str,
    out: &mut Findings,
) {
    let mut lines: Vec<&str> = Vec::new();
    let mut after_executes = false;
    let mut before: Option<&str> = None;
    for a in c.args {
        // Not text to search for or to show (`logs search --pattern 'rm -rf /'`).
        if arguments::data_value(std::mem::replace(&mut before, a.text.as_deref()), a) {
            continue;
        }
        let Some(t) = a.text.as_deref() else {
            after_executes = false;
            continue;
        };
        if t.starts_with('-') {
            after_executes = words::executes(t.split('=').next().unwrap_or(t));
            if let Some((_, v)) = t.split_once('=').filter(|_| after_executes) {
                lines.push(v);
                after_executes = false;
            }
            continue;
        }
        // Or an operand that is a statement itself (`taql 'drop table /home/dev'`): a verb,
        // then what it acts on.
        if after_executes
            || t.contains(' ')
                && t.split_whitespace().count() <= 12
                && t.split_whitespace()
                    .next()
                    .is_some_and(|w| words::classify(&w.to_ascii_lowercase()).is_some())
        {
            lines.push(t);
        }
    }
    // What is printed into it on a pipe is its console's input as a here-document is
    // (`printf ')system systemctl stop postgresql\n' | fricas`).
    let piped = (cmd.heredoc.is_none() && !producers.is_empty())
        .then(|| super::feed::piped_text(producers))
        .flatten();
    if let Some(text) = cmd.heredoc.as_ref().or(piped.as_ref()) {
        lines.extend(text.lines());
    }
    for line in lines.iter().map(|l| l.trim()).filter(|l| l.len() <= 300) {
        let parts: Vec<&str> = line
            .split_whitespace()
            .map(|w| w.trim_end_matches([',', ';']))
            .collect();
        if parts.len() < 2 {
            continue;
        }
        // A console's escape to the shell (`)system CMD`, `!CMD`, `shell CMD`): what follows
        // runs as a command, risky ones asked too.
        if let Some((_, tail)) = line.split_once(char::is_whitespace)
            && known::tier(parts[1]) != Tier::Unknown
        {
            let escape = parts[0]
                .trim_start_matches([')', '!', ':', '.', '\\', '%'])
                .to_ascii_lowercase();
            let keep = if matches!(
                escape.as_str(),
                "system" | "shell" | "sh" | "exec" | "run" | "xecute" | "spawn"
            ) {
                super::Keep::Risky
            } else {
                super::Keep::Blocks
            };
            out.runs(tail.trim(), keep);
        }
        // A console whose commands take their arguments after commas hands what follows its
        // first word's comma to the shell the same way (ANSYS's `/SYS,rm -rf /`).
        if let Some((head, tail)) = parts[0].split_once(',')
            && !head.is_empty()
            && known::tier(tail) != Tier::Unknown
            && let Some(at) = line.find(',')
        {
            out.runs(line[at + 1..].trim(), super::Keep::Blocks);
        }
        let args = words::console_args(&parts);
        let console = words::console(c.name, &args);
        let found = targets::of(&console, ctx);
        let verb = words::consequence(&console);
        let first = parts[0].to_ascii_lowercase();
        let saves = saves_on_line(&first, &parts);
        // A file brought from the other end, written where the line's last word says (`get
        // main /etc/passwd` to sieveshell, ftp's `get REMOTE LOCAL`).
        let fetches = matches!(
            first.as_str(),
            "get" | "fetch" | "download" | "recv" | "retrieve"
        ) && parts.len() >= 3;
        let last = parts.last().copied().unwrap_or_default();
        let hit = found.iter().find(|t| {
            !t.read
                && (t.target.critical() && verb.as_ref().is_some_and(words::Verb::deletes)
                    || (saves || fetches && t.word == last)
                        && (t.target.overwritten() || t.target.critical()))
        });
        if let Some(t) = hit {
            out.push(decide(
                Verdict::Block,
                RuleId::DestroysCritical,
                format!(
                    "`{}` is handed a line for its console (`{line}`) that destroys or writes over {} (`{}`): it is never run",
                    c.name,
                    t.target.what(),
                    t.word
                ),
                raw,
            ));
            return;
        }
    }
}

/// Whether a console line saves: a saving word among its command words, before its options and
/// paths (`save F`, `hf mf esave -f F`: a one-letter prefix names what is saved).
fn saves_on_line(first: &str, parts: &[&str]) -> bool {
    let saving = |w: &str| {
        let w = w.to_ascii_lowercase();
        ["save", "write", "dump", "export"].iter().any(|v| {
            w.starts_with(v)
                || w.len() > v.len()
                    && w.as_bytes()[0].is_ascii_lowercase()
                    && w[1..].starts_with(v)
        })
    };
    saving(first)
        || parts
            .iter()
            .take_while(|p| !p.starts_with('-') && !p.contains('/'))
            .take(3)
            .any(|p| saving(p))
}

/// Decoded or scrambled text piped into a program nobody models whose subcommand runs what it
/// reads (`base64 --decode | acme-ctl shell --stdin`, `printf '\163\165…' | acme-ctl script
/// run --stdin`): what runs is hidden, as `… | base64 -d | sh` hides it. Decoded data for a
/// program that loads or imports it is data.
fn decoded_on_stdin(c: &Cmd<'_>, producers: &[&Simple], raw: &str) -> Option<Decision> {
    if !producers.iter().any(|p| super::shells::decodes(p)) {
        return None;
    }
    let runs = words::subcommands(c).iter().any(|w| {
        words::parts(w).iter().any(|p| {
            matches!(
                p.as_str(),
                "shell" | "run" | "exec" | "execute" | "eval" | "script" | "console" | "repl"
            )
        })
    });
    runs.then(|| {
        decide(
            Verdict::Block,
            RuleId::DecodedCode,
            format!(
                "decoded or scrambled text is piped into `{}`, whose subcommand runs what it reads: what runs is hidden, and hiding is itself the signal; it is never run",
                c.name
            ),
            raw,
        )
    })
}

/// Statements fed on stdin to a program nobody models, one per line, as its console reads
/// them (`ggsci <<< 'STOP ER *'`, `acme-admin <<EOF … DELETE EXTRACT X … EOF`): a line that
/// opens with a verb with consequences is that act, and a line naming a file from the download
/// directory runs or loads what nobody has read (`OBEY ~/Downloads/rebuild.oby`). Only the
/// first word counts as a verb, as a console's grammar puts it there; prose (`please stop
/// …`) does not start with one. Text the program only copies into a file is no statement.
fn fed_statements(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &super::Context,
    raw: &str,
) -> Option<Decision> {
    // A here-document, or what `echo`/`printf` pipe into it (`echo 'CLEAR QLOCAL(Q)' | runmqsc
    // QM1`, `printf 'FLUSHALL\n' | acme-cli -h cache.prod`).
    let piped = || {
        (!producers.is_empty())
            .then(|| super::feed::piped_text(producers))
            .flatten()
            .map(|t| t.replace("\\n", "\n"))
    };
    let text = match cmd.heredoc.as_deref() {
        Some(t) => t.to_string(),
        None => piped()?,
    };
    if !cmd.writes.is_empty() {
        return None;
    }
    let downloads = ctx.places.home.join("Downloads");
    for line in text.lines().map(str::trim).filter(|l| l.len() <= 200) {
        let mut ws = line.split_whitespace();
        let Some(first) = ws.next() else { continue };
        // A console's own commands may open with a dot (`.remove node3`, `.drop t`).
        let first = first
            .strip_prefix('.')
            .filter(|w| w.starts_with(|ch: char| ch.is_ascii_lowercase()))
            .unwrap_or(first);
        let written = first.trim_end_matches([';', ',']);
        let first = written.to_ascii_lowercase();
        // A verb alone on its line when written in capitals, as consoles take their commands
        // (`FLUSHALL`, `SHUTDOWN`); a word alone in lower case may be anything.
        let alone_in_capitals =
            written.len() >= 4 && written.bytes().all(|b| b.is_ascii_uppercase());
        // `set NAME = VALUE` sets the console's own session (`set ip-address = …` of a lease
        // being made, `set pagesize 0`), not a live system's.
        // A verb joined to its object by `_` or `-` opens the line the same way
        // (`put_sc_key -keyver 0`, `delete_key 3`).
        let verb = first
            .split(['_', '-'])
            .next()
            .filter(|v| v.len() >= 3 && *v != first);
        // The console's own ending alone on its line (`QUIT`, `EXIT`) ends that console, as
        // `quit` after statements handed one per argument does; nothing else stops.
        let ends_console =
            ws.clone().next().is_none() && matches!(first.as_str(), "quit" | "exit" | "bye");
        if (ws.clone().next().is_some() || alone_in_capitals)
            && !ends_console
            && first != "set"
            && verb != Some("set")
            && first
                .bytes()
                .all(|b| b.is_ascii_lowercase() || (verb.is_some() && matches!(b, b'_' | b'-')))
            && let Some(class) = words::classify(verb.unwrap_or(&first))
                .or_else(|| {
                    // A store emptied by its console's `CLEAR` (`CLEAR QLOCAL(Q)`), not a
                    // screen, a cache or a log.
                    (first == "clear"
                        && ws.clone().next().is_some_and(|o| {
                            let o = o.to_ascii_lowercase();
                            !["screen", "cache", "log", "history", "console"]
                                .iter()
                                .any(|n| o.starts_with(n))
                        }))
                    .then_some(words::Class::Destroys)
                })
                .or_else(|| {
                    // Or the object first and then the verb, as many consoles order them
                    // (`channel undeploy *`, `user delete bob`): a short line of words only.
                    // The verb may be joined to its object too (`hw factory_reset`).
                    let words: Vec<&str> = line.split_whitespace().collect();
                    let plain = |w: &str| {
                        w.len() >= 2
                            && w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                            && !w.starts_with('_')
                    };
                    (words.len() <= 4 && plain(words[0]) && words.get(1).is_some_and(|w| plain(w)))
                        .then(|| joined_act(words[1]))
                        .flatten()
                })
                // Or a verb closing a word joined by `_` (`factory_reset --force`).
                .or_else(|| {
                    (verb.is_some() && first.contains('_'))
                        .then(|| joined_act(&first))
                        .flatten()
                })
        {
            return Some(decide(
                Verdict::Junction,
                class.rule(),
                format!(
                    "`{}` is fed a statement on its standard input that tells it to {} (`{line}`), and trail does not model this program: a person decides",
                    c.name,
                    class.meaning()
                ),
                raw,
            ));
        }
        let downloaded = line
            .split(|ch: char| {
                ch.is_whitespace() || matches!(ch, '\'' | '"' | ',' | ';' | '(' | ')')
            })
            .filter(|w| w.starts_with(['/', '~', '$']))
            .find(|w| ctx.resolve(w).is_some_and(|p| p.starts_with(&downloads)));
        if let Some(word) = downloaded {
            return Some(decide(
                Verdict::Junction,
                RuleId::Unverifiable,
                format!(
                    "`{}` is fed a line on its standard input that names a file from the download directory (`{word}`): it came from the network, nobody here has read it, and this program may run it: a person decides",
                    c.name
                ),
                raw,
            ));
        }
    }
    None
}

/// A file this line wrote from text it holds, handed to a program trail does not model (`cat >
/// f.yml <<EOF … EOF && tmuxp load f.yml`, `printf 'pre_window: rm -rf ~\n' > f && tmuxinator
/// start -p f`), or the directory it was written in: such a tool may run what the file says
/// (hooks, panes, key bindings, commands for events), so each of its lines is judged as the
/// command it would be, after the key that holds it. Only blocks count: a line may as well be
/// data.
///
/// The code of a Jupyter notebook's code cells, its `"source"` strings unescaped and joined;
/// `None` when the text is no notebook.
fn notebook_code(text: &str) -> Option<String> {
    if !text.contains("\"cell_type\"") || !text.contains("\"source\"") {
        return None;
    }
    let mut code = String::new();
    for (at, _) in text.match_indices("\"source\"") {
        let rest = text[at + 8..].trim_start().strip_prefix(':')?.trim_start();
        let body = match rest.strip_prefix('[') {
            Some(list) => &list[..list.find(']').unwrap_or(list.len())],
            None => rest.split('\n').next().unwrap_or(rest),
        };
        // Each JSON string of the cell, its escapes undone.
        let mut chars = body.chars();
        while let Some(ch) = chars.next() {
            if ch != '"' {
                continue;
            }
            while let Some(ch) = chars.next() {
                match ch {
                    '"' => break,
                    '\\' => match chars.next() {
                        Some('n') => code.push('\n'),
                        Some('t') => code.push('\t'),
                        Some(other) => code.push(other),
                        None => break,
                    },
                    _ => code.push(ch),
                }
            }
        }
        code.push('\n');
    }
    (!code.trim().is_empty()).then_some(code)
}

/// A line whose first word says it runs a command (`/control/shell sudo systemctl restart …`,
/// `exec …`), and a call the language hands to the shell (`system("…")`), run it whenever the
/// file is loaded: what they run counts whole, a junction too.
fn planted_text(c: &Cmd<'_>, cmd: &Simple, ctx: &super::Context, raw: &str, out: &mut Findings) {
    for text in planted_named(c, cmd, ctx) {
        let text = &*arguments::without_prose_settings(text);
        if let Some(line) = text.lines().find(|l| runs_remote_script(l)) {
            out.push(decide(
                Verdict::Block,
                RuleId::RemoteCode,
                format!(
                    "`{}` is handed a configuration written on this line that runs a script from the network (`{}`): code nobody has read; it is never run",
                    c.name,
                    line.trim()
                ),
                raw,
            ));
        }
        // A pattern of one word (`include = etc/apps/*.ini`, a dialled `**621`) is data: the
        // file names what to read or dial, and no shell expands it as a program's name.
        let command = |line: &&str| {
            line.contains(char::is_whitespace) || line.contains('$') || !line.contains(['*', '['])
        };
        // A line led by a bare `$NAME` is a data file's own marker (NONMEM's `$PROBLEM`,
        // GAMESS's ` $CONTRL … $END`), not a program's name hidden in a variable: a shell
        // script is judged as one where it is run.
        let marker = |line: &&str| {
            line.strip_prefix('$').is_some_and(|rest| {
                rest.starts_with(|ch: char| ch.is_ascii_uppercase())
                    && rest.split_whitespace().next().is_some_and(|name| {
                        name.bytes()
                            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
                    })
            })
        };
        for line in text
            .lines()
            .filter_map(held_command)
            .filter(command)
            .filter(|l| !marker(l))
        {
            out.runs(line, super::Keep::Blocks);
        }
        for line in text.lines() {
            let Some((first, rest)) = setting(line) else {
                continue;
            };
            // A key or a console's word (`exec`, `/control/shell`), not a call's inside
            // (`computeRun("Run 1")` holds `("Run`).
            if !first.contains(['(', '"', '\'', '[', '{'])
                && arguments::command_option(first.rsplit('/').next().unwrap_or(first))
            {
                out.runs(rest, super::Keep::Risky);
            }
        }
        arguments::escapes(text, super::Keep::Risky, out);
        // Code that runs a command line (`os.execute("scp …")`, `subprocess.run(['rsync', …])`)
        // where the program loads the file as its own.
        arguments::planted_calls(text, raw, out);
        // A call in it given a credential store's path (`Print File.Load("~/.netrc")`): the
        // program reads the key for whoever runs it. (A setting that names a key to log in
        // with, `IdentityFile ~/.ssh/id_rsa`, is no call.)
        for line in text.lines().filter(|l| l.contains('(')) {
            super::code::reads_credential_store(line, ctx, raw, out);
        }
    }
}

/// A line of a settings file as its key and value (`np-cmd = curl …`, `command: make`,
/// `sim_post_cmd = "scp …"`), or a console's word and the rest (`exec /bin/sh`); the value
/// unquoted.
fn setting(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    let keyed = line.find(['=', ':']).filter(|&at| {
        let key = line[..at].trim();
        !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
    });
    let (first, rest) = match keyed {
        Some(at) => (line[..at].trim(), &line[at + 1..]),
        None => line.split_once(char::is_whitespace)?,
    };
    let rest = rest.trim().trim_end_matches([',', ';']);
    let rest = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .or_else(|| rest.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')))
        .unwrap_or(rest)
        .trim();
    (!rest.is_empty()).then_some((first, rest))
}

/// A configuration this line wrote, handed to a program told to act on it, that names the
/// filesystem root, the home directory, a system file or a disk as where its files go (`- path:
/// /home/dev` then `vendir sync --file f`, `file = "/etc/hosts"` then `flavours -c f apply`): the
/// program writes there as the configuration says, a block as the same word on its command line
/// would be. Only a key that names a place written (`path`, `file`, `dest`, `target`, `output`,
/// `dir`); one that names what is read (`source`, `include`) does not count. Another place
/// outside the project after a key that can only mean output is a junction. One-line JSON's
/// pairs count as `key: value` lines do.
fn planted_destination(c: &Cmd<'_>, ctx: &super::Context, raw: &str) -> Option<Decision> {
    if words::shows_only(c) || words::looks(c) {
        return None;
    }
    let mut elsewhere = None;
    let fetches = c
        .words()
        .take(3)
        .any(|w| matches!(w, "download" | "pull" | "fetch" | "export" | "sync"));
    for text in planted_handed(c, ctx) {
        // `key: value` and `key = value` lines, and the pairs of JSON on one line
        // (`{"download":{"files":"/home/dev/locales/${lang}.json"}}`).
        let lines = text.lines().filter_map(|line| {
            let l = line.trim().trim_start_matches("- ").trim_start();
            let (key, value) = l.split_once([':', '='])?;
            Some((key.trim().trim_matches(['"', '\'']), value))
        });
        let pairs = arguments::json_pairs(text)
            .into_iter()
            .chain(arguments::xml_named_values(text));
        for (key, value) in lines.chain(pairs) {
            // Split before lowering: `PathOut` is a path and an output.
            let ps = words::parts(key);
            let key = key.to_ascii_lowercase();
            let written = ps.iter().any(|p| {
                matches!(
                    p.as_str(),
                    "path"
                        | "paths"
                        | "file"
                        | "files"
                        | "filename"
                        | "dest"
                        | "destination"
                        | "target"
                        | "output"
                        | "dir"
                        | "directory"
                        | "root"
                        | "into"
                        // A copy's destination (`- action: file.copy` … `to: /etc/passwd`).
                        | "to"
                )
            });
            let value = value.trim().trim_matches(['"', '\'', ',']).trim();
            if !written || value.is_empty() || value.contains(char::is_whitespace) {
                continue;
            }
            // A template's placeholder (`${lang}`, `%{locale}`) is filled in by the program: the
            // place is the same directory whatever fills it.
            let filled = template_filled(value);
            let args = words::console_args(&[filled.as_str()]);
            let console = words::console(c.name, &args);
            let found = targets::of(&console, ctx);
            let hit = found.iter().find(|t| {
                matches!(
                    t.target,
                    Target::Root
                        | Target::Home
                        | Target::Device
                        | Target::SystemFile
                        | Target::Firmware
                )
            });
            if let Some(t) = hit {
                return Some(decide(
                    Verdict::Block,
                    RuleId::DestroysCritical,
                    format!(
                        "`{}` is handed a configuration written on this line that sends its files to {} (`{key}: {}`): it is never run",
                        c.name,
                        t.target.what(),
                        t.word
                    ),
                    raw,
                ));
            }
            // Another place outside the project (`/home/dev/locales/…`, `/srv/shared/…`): a
            // person decides, as for the same word after an output option.
            // Only a key that can only mean where output goes; a `path` or `files` is as often
            // read, unless the program is told to bring files here (`download`, `pull`).
            let output_key = ps.iter().any(|p| {
                matches!(
                    p.as_str(),
                    "dest" | "destination" | "target" | "output" | "out" | "into" | "download"
                ) || fetches && matches!(p.as_str(), "path" | "paths" | "file" | "files" | "dir")
            });
            if elsewhere.is_none()
                && output_key
                && filled.starts_with(['/', '~'])
                && matches!(
                    ctx.classify(&filled),
                    super::Place::Outside | super::Place::System
                )
            {
                elsewhere = Some(decide(
                    Verdict::Junction,
                    RuleId::NamesCritical,
                    format!(
                        "`{}` is handed a configuration written on this line that sends its files outside the project (`{key}: {value}`), and trail does not model this program: a person decides",
                        c.name
                    ),
                    raw,
                ));
            }
        }
    }
    elsewhere
}

/// `value` with each `${…}`, `%{…}` or `{…}` placeholder of a template replaced by `x`.
fn template_filled(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        out.push_str(rest[..open].trim_end_matches(['$', '%']));
        out.push('x');
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// A configuration handed to a program, written on this line or printed into a process
/// substitution (`nsd -c <(printf 'ip-address: 0.0.0.0\n…')`), that tells it to listen on every
/// interface (`bind_addr = "0.0.0.0:2333"`): what it serves is reachable from the network, as
/// `--bind 0.0.0.0` on its command line would make it.
fn configured_listener(c: &Cmd<'_>, ctx: &super::Context, raw: &str) -> Option<Decision> {
    let substituted = c
        .args
        .iter()
        .filter(|a| a.raw.starts_with("<(printf") || a.raw.starts_with("<(echo"))
        .map(|a| a.raw.replace("\\n", "\n"));
    let texts: Vec<String> = planted_handed(c, ctx)
        .into_iter()
        .map(str::to_string)
        .chain(substituted)
        .collect();
    let line = texts.iter().flat_map(|t| t.lines()).find_map(|line| {
        // Or code that hands a call every interface's address (`device(Stage, "0.0.0.0",
        // 8001)`): a server bound to it.
        if line.contains('(') && (line.contains("\"0.0.0.0\"") || line.contains("'0.0.0.0'")) {
            return Some(line.trim().to_string());
        }
        let (key, value) = line.trim().split_once([':', '='])?;
        let listener = words::parts(key.trim().trim_matches(['"', '\'']))
            .iter()
            .any(|p| {
                matches!(
                    p.as_str(),
                    "bind" | "listen" | "address" | "addr" | "interface" | "host" | "ip"
                )
            });
        let v = value.trim().trim_matches(['"', '\'', ',', ' ']);
        (listener && (v.starts_with("0.0.0.0") || matches!(v, "::" | "[::]")))
            .then(|| line.trim().to_string())
    })?;
    Some(decide(
        Verdict::Junction,
        RuleId::ExposesService,
        format!(
            "`{}` is handed a configuration that tells it to listen on every network interface (`{line}`): what it serves is reachable from the network, and trail does not model this program: a person decides",
            c.name
        ),
        raw,
    ))
}

/// What a program is handed besides its words: what the line prints into it, its
/// here-document, and the files this line wrote that it is named.
fn handed_texts(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &super::Context,
) -> Vec<String> {
    let mut texts: Vec<String> = producers
        .iter()
        .filter_map(|p| super::feed::printed(p).map(|l| l.join("\n").replace("\\n", "\n")))
        .collect();
    texts.extend(cmd.heredoc.clone());
    texts.extend(planted_named(c, cmd, ctx).into_iter().map(str::to_string));
    texts
}

/// The files this line wrote that `c` is handed: named by a word ([`planted_handed`]) or by a
/// variable set for it (`ACME_PROJECT_FILE="$TMPDIR/x.yml" acme test`, [`planted_assigned`]),
/// each once.
pub(super) fn planted_named<'a>(
    c: &Cmd<'_>,
    cmd: &Simple,
    ctx: &'a super::Context,
) -> Vec<&'a str> {
    let mut texts = planted_handed(c, ctx);
    for text in planted_assigned(cmd, ctx) {
        if !texts.contains(&text) {
            texts.push(text);
        }
    }
    texts
}

/// An act with consequences that a settings file this line wrote, and hands `c`, tells it to
/// do (`task: delete`, `action = "purge"`): each `key: value` or `key = value` line read as
/// the option `--key=value` and judged as one.
fn planted_settings_verb(c: &Cmd<'_>, ctx: &super::Context) -> Option<words::Verb> {
    // (Not a file only checked: `plant validate --config F` acts on none of its settings.)
    if ctx.line.planted.is_empty()
        || c.words()
            .any(|w| matches!(w, "validate" | "lint" | "verify" | "check"))
    {
        return None;
    }
    planted_handed(c, ctx).into_iter().find_map(|text| {
        let settings: Vec<String> = text
            .lines()
            .filter_map(|line| {
                let line = line.trim();
                let at = line.find([':', '='])?;
                let (key, value) = (line[..at].trim(), line[at + 1..].trim());
                let value = value.trim_end_matches(',').trim_matches(['"', '\'']);
                let named = !key.is_empty()
                    && key
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
                // A hook's setting (`post_measure = "…"`) holds a command, judged as one where
                // the file's lines are; its name says when, not what.
                let hook = arguments::event_or_inline_option(&format!("--{key}"));
                (named && !hook && !value.is_empty()).then(|| format!("--{key}={value}"))
            })
            .collect();
        let words: Vec<&str> = settings.iter().map(String::as_str).collect();
        let args = words::console_args(&words);
        words::consequence(&words::console(c.name, &args))
    })
}

/// The language of the script `c` is, by its extension (`./picoreflowd.py`). An interpreter
/// given a script and its arguments (`python3 sip.py 8080`) is judged with the script as the
/// program by then (`wrappers`' `interpreted_script`), so its name is the script's; given the
/// script alone (`python3 server.py`), it is still the interpreter, running that script.
fn script_language<'c>(c: &'c Cmd<'c>) -> Option<&'c str> {
    let of = |file: &'c str| {
        let name = file.rsplit('/').next().unwrap_or(file);
        let (stem, ext) = name.rsplit_once('.')?;
        (!stem.is_empty() && SCRIPT_EXTENSIONS.contains(&ext)).then_some(ext)
    };
    of(c.name).or_else(|| of(c.args[script_alone(c)?].text.as_deref()?))
}

/// The extensions of the scripts an interpreter runs by themselves.
const SCRIPT_EXTENSIONS: &[&str] = &["py", "js", "rb", "lua", "pl", "php"];

/// The texts this line wrote into files that `c` is handed: the file itself, or the directory
/// that holds it (`navi --path "$TMPDIR/c"` reads every cheat sheet there).
pub(super) fn planted_handed<'a>(c: &Cmd<'_>, ctx: &'a super::Context) -> Vec<&'a str> {
    let mut texts = Vec::new();
    if ctx.line.planted.is_empty() {
        return texts;
    }
    // Or the settings file a program finds by its own name where it runs (`.changie.yaml`
    // for `changie`, `towncrier.toml`): written on this line, it is read without being named.
    if c.name.len() >= 3 {
        for (f, text) in &ctx.line.planted {
            let base = f.file_name().and_then(|b| b.to_str()).unwrap_or_default();
            let own = base
                .trim_start_matches('.')
                .strip_prefix(c.name)
                .is_some_and(|rest| rest.starts_with('.') || rest.starts_with("rc"));
            if own
                && f.parent() == Some(ctx.places.cwd.as_path())
                && !texts.contains(&text.as_str())
            {
                texts.push(text.as_str());
            }
        }
    }
    // Or code in the language of the script it runs, written into the project on this line
    // (`printf '…' >> config.py && ./picoreflowd.py`, a plugin in `SIP/plugins/` then `python3
    // sip.py`): a script imports its modules by convention, no word naming them.
    if let Some(ext) = script_language(c) {
        for (f, text) in &ctx.line.planted {
            let same = f.extension().is_some_and(|e| e == ext);
            if same && f.starts_with(&ctx.places.project_root) && !texts.contains(&text.as_str()) {
                texts.push(text.as_str());
            }
        }
    }
    for a in c.args {
        let t = ctx.arg_text(a);
        // Code given inline that names a file this line wrote (`python3 -c 'e =
        // Engine("build/c.json")'`) opens it.
        if t.contains('(') {
            for lit in super::code::literals(&t) {
                let Some(p) = ctx.resolve(&lit) else { continue };
                for (f, text) in &ctx.line.planted {
                    if *f == p && !texts.contains(&text.as_str()) {
                        texts.push(text.as_str());
                    }
                }
            }
        }
        let Some(p) = ctx.resolve(option_value(&t)) else {
            continue;
        };
        // Or a file beside it that the program finds by the name it is given: a sidecar
        // named after it (`talk.pdf.info` for `talk.pdf`), or a script beside its settings
        // file (`events.tcl` beside `svxlink.conf`).
        let beside = |f: &std::path::Path| {
            let (Some(name), Some(given)) = (
                f.file_name().and_then(|n| n.to_str()),
                p.file_name().and_then(|n| n.to_str()),
            ) else {
                return false;
            };
            f.parent() == p.parent()
                && (name
                    .strip_prefix(given)
                    .is_some_and(|rest| rest.starts_with('.'))
                    || code_file(f) && settings_named(given))
        };
        // A directory handed holds what is under it (a configuration directory's
        // `plugins/Maint/plugin.nut`), as the program reads its tree.
        let directory =
            p.extension().is_none() && !ctx.holds_project(&p) && p != ctx.places.project_root;
        let held = |f: &std::path::Path| {
            f == p || f.parent() == Some(p.as_path()) || beside(f) || directory && f.starts_with(&p)
        };
        for (_, text) in ctx.line.planted.iter().filter(|(f, _)| held(f)) {
            if !texts.contains(&text.as_str()) {
                texts.push(text.as_str());
            }
        }
    }
    texts
}

/// The act a console word names, alone or as the last part of words joined by `_`
/// (`undeploy`, `factory_reset`): a verb closes such a name as consoles write them.
fn joined_act(word: &str) -> Option<words::Class> {
    words::classify(word).or_else(|| {
        let (_, last) = word.rsplit_once('_')?;
        (last.len() >= 3).then(|| words::classify(last)).flatten()
    })
}

/// A script its interpreter runs with nothing after it (`python3 cli_main.py`) reads what is
/// fed on its stdin as its console's input: judged as any program nobody models is.
fn script_console(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    if (cmd.heredoc.is_some() || !producers.is_empty() || !cmd.reads.is_empty())
        && let Some(at) = script_alone(c)
    {
        let script = Cmd {
            name: c.args[at].text.as_deref().unwrap_or_default(),
            args: &c.args[at + 1..],
            ..*c
        };
        console_lines(&script, cmd, producers, ctx, raw, out);
        out.extend(fed_statements(&script, cmd, producers, ctx, raw));
        arguments::downloaded_source(&script, cmd, ctx, raw, out);
    }
}

/// `set` said of files of the project only (`operon set artist "X" music/track01.flac`, a
/// tagger's): what changes is those files, as an edit of them is, not a live setting.
fn sets_a_project_file(c: &Cmd<'_>, ctx: &Context, v: &words::Verb) -> bool {
    if v.class != words::Class::Changes || v.word != "set" {
        return false;
    }
    let files: Vec<&str> = c
        .words()
        .filter(|w| !w.starts_with('-') && w.contains('.') && w.contains('/') && !w.contains("://"))
        .collect();
    !files.is_empty()
        && files.iter().all(|w| {
            matches!(ctx.classify(w), super::Place::Inside)
                && std::path::Path::new(w).extension().is_some()
        })
}

/// A program told to clean after this line set one of its working directories (`acme par
/// path_output /work/proj && acme clean`): the clean empties that directory, whatever the
/// program is. The project root, the home, the root or a system directory is never emptied;
/// another place outside the project asks.
fn cleans_configured(c: &Cmd<'_>, ctx: &Context, raw: &str) -> Option<Decision> {
    if ctx.line.configured.is_empty() || !words::cleans(c) || words::shows_only(c) {
        return None;
    }
    let (_, dir) = ctx.line.configured.iter().find(|(p, _)| p == c.name)?;
    emptied(c, dir, ctx, raw)
}

/// A program told to clean or clear after a variable set for it points where it keeps its
/// files somewhere (`JUPYTERCACHE=/ jcache project clear --force`, `ACME_DATA_DIR=~ acme
/// purge`): the clear empties that place, as [`cleans_configured`] does for a setting.
fn cleans_assigned(c: &Cmd<'_>, cmd: &Simple, ctx: &Context, raw: &str) -> Option<Decision> {
    assigned_cleans(c, cmd, ctx)?
        .iter()
        .find_map(|dir| emptied(c, dir, ctx, raw))
}

/// The places a cleaning command is told to work in by a variable set for it (`CACHE_DIR=…`,
/// `CATALINA_BASE=…`), or `None` when the command does not clean: a cleaning word in its name,
/// a subcommand or a flag (`reset_media.sh`, `cache:clear`, `--clear`, `--clean-tmp`).
fn assigned_cleans(c: &Cmd<'_>, cmd: &Simple, ctx: &Context) -> Option<Vec<std::path::PathBuf>> {
    const PLACES: &[&str] = &[
        "dir", "path", "home", "root", "cache", "data", "store", "storage", "location", "folder",
        "archive", "archives", "backup", "backups", "spool", "output", "logs", "out", "sessions",
        "workdir", "work", "dest", "runs", "results", "scratch", "state",
    ];
    let mut env_file = env_file_settings(c, ctx);
    env_file.extend(handed_settings(c, cmd));
    if cmd.assigns.is_empty() && env_file.is_empty()
        || !(words::cleans(c)
            // Or said as a flag (`nfl_cache.py --clear`, `--clean-tmp`).
            || c.words().any(|w| {
                let w = w.trim_start_matches('-');
                matches!(w, "clear" | "clobber" | "wipe" | "reset" | "purge")
                    || ["clear-", "clean-", "purge-", "wipe-", "erase-", "reset-", "flush-"]
                        .iter()
                        .any(|p| w.starts_with(p))
            })
            // Or a word of the name or a subcommand (`reset_media.sh`, `cache:clear`).
            || std::iter::once(c.name)
                .chain(c.words().filter(|w| !w.starts_with('-')))
                .any(|w| {
                    words::parts(w)
                        .iter()
                        .any(|p| {
                            matches!(p.as_str(), "clear" | "reset" | "clobber" | "flush" | "prune")
                        })
                }))
        || words::shows_only(c)
    {
        return None;
    }
    // Set for it on the line, or in an environment file this line wrote and hands it.
    let settings = cmd
        .assigns
        .iter()
        .map(|(name, value)| (name.as_str(), value.text.as_deref().unwrap_or(&value.raw)))
        .chain(env_file.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    let places: Vec<std::path::PathBuf> = settings
        .filter(|(name, value)| {
            let lower = name.to_ascii_lowercase();
            // A search path is where programs are looked for, not a place worked in (`PATH`,
            // `PYTHONPATH`, `LD_LIBRARY_PATH`, a list with `:`); a `…_PATH` of its own is one.
            let search = lower == "path"
                || lower.ends_with("path") && !lower.ends_with("_path")
                || lower.ends_with("library_path")
                || value.contains(':');
            // (`CATALINA_BASE`, a server's base directory; not `DATABASE`.) Or a name of
            // anything given a directory here or in a temporary one (`…_ATTACHMENTS="$TMPDIR/
            // pcc"`): a place all the same.
            !search
                && (PLACES.iter().any(|p| lower.ends_with(p))
                    || lower.ends_with("_base")
                    || value
                        .trim_matches(['"', '\''])
                        .starts_with(['/', '~', '$', '.'])
                        && value.contains('/'))
        })
        .filter_map(|(_, value)| ctx.resolve(value))
        .collect();
    (!places.is_empty()).then_some(places)
}

/// The `NAME=VALUE` lines of an environment file this line wrote and hands the program
/// (`echo 'X_DATA_DIR=/work/proj' > build/x.env && x --env-file build/x.env data reset`):
/// variables set for it as surely as on its own line.
fn env_file_settings(c: &Cmd<'_>, ctx: &Context) -> Vec<(String, String)> {
    if ctx.line.planted.is_empty() {
        return Vec::new();
    }
    let words: Vec<&str> = c.option_words().collect();
    let files: Vec<std::path::PathBuf> = option_pairs(&words)
        .filter(|(flag, _)| matches!(*flag, "--env-file" | "--envfile" | "--env" | "--dotenv"))
        .filter_map(|(_, value)| ctx.resolve(value?))
        .collect();
    ctx.line
        .planted
        .iter()
        .filter(|(path, _)| files.contains(path))
        .flat_map(|(_, text)| text.lines())
        .filter_map(|line| {
            let line = line.trim().trim_start_matches("export ");
            let (name, value) = line.split_once('=')?;
            let value = value.trim().trim_matches(['"', '\'']);
            (!name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
                .then(|| (name.to_string(), value.to_string()))
        })
        .collect()
}

/// The settings of a configuration the line hands the program as text: printed into a
/// process substitution it is given (`--config <(printf 'dir = /home/dev\n')`), or fed on its
/// stdin when an option names stdin as the file (`--profile /dev/stdin <<'YAML'`,
/// `--settings-json - <<< '{"exportRoot": "/home/dev"}'`). `key = value`, `key: value` and
/// JSON's pairs, as a file's would be.
fn handed_settings(c: &Cmd<'_>, cmd: &Simple) -> Vec<(String, String)> {
    let Some(text) = cmd.heredoc.as_deref() else {
        return Vec::new();
    };
    let words: Vec<&str> = c.option_words().collect();
    let substituted = c.args.iter().any(|a| a.raw.starts_with("<("));
    let stdin_named = option_pairs(&words).any(|(flag, value)| {
        flag.starts_with('-')
            && value.is_some_and(|v| matches!(v, "-" | "/dev/stdin" | "/dev/fd/0"))
    });
    if !substituted && !stdin_named {
        return Vec::new();
    }
    let lines = text.lines().filter_map(|line| {
        let line = line.trim().trim_start_matches("- ");
        let (key, value) = line.split_once(['=', ':'])?;
        Some((key.trim().trim_matches(['"', '\'']), value))
    });
    lines
        .chain(arguments::json_pairs(text))
        .filter(|(key, _)| {
            !key.is_empty()
                && key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        })
        .map(|(key, value)| {
            let value = value.trim().trim_end_matches([',', '}']).trim();
            (key.to_string(), value.trim_matches(['"', '\'']).to_string())
        })
        .collect()
}

/// Whether every place a cleaning command is pointed at by its variables is scratch: the temp
/// directory or git-ignored build output (`CP_MEDIA_ROOT=build/media reset_media.sh --all`).
/// Its act, named by the cleaning word, stays there.
fn cleans_only_scratch(c: &Cmd<'_>, cmd: &Simple, ctx: &Context) -> bool {
    assigned_cleans(c, cmd, ctx).is_some_and(|places| {
        places.iter().all(|p| {
            let text = p.to_string_lossy();
            !super::rules::deletion::loses(ctx, ctx.places.classify(&text), &text)
        })
    })
}

/// Whether `dir` is the program's own state, cache or logs under `/var` or `/opt`, named for it
/// (`/var/lib/flowbird` of `flowbird-meter`): its data, not the system's.
fn own_state(c: &Cmd<'_>, dir: &std::path::Path) -> bool {
    let first = c.name.split(['-', '_', '.']).next().unwrap_or(c.name);
    first.len() >= 3
        && dir
            .file_name()
            .is_some_and(|n| n.eq_ignore_ascii_case(first))
        && ["/var/lib", "/var/cache", "/var/log", "/var/spool", "/opt"]
            .iter()
            .any(|d| dir.parent() == Some(std::path::Path::new(d)))
}

/// The finding for a clean of `dir`: never of the project root, the home, the root, a system
/// directory or what holds the project; asked elsewhere outside it.
fn emptied(c: &Cmd<'_>, dir: &std::path::Path, ctx: &Context, raw: &str) -> Option<Decision> {
    let text = dir.to_string_lossy();
    let place = ctx.places.classify(&text);
    let (verdict, rule) = match place {
        // One application's cache or state under `/var` (`/var/cache/boortmalt`): its data,
        // a person's call, as `rm -rf` of it is.
        super::Place::System
            if super::rules::deletion::application_data(ctx, &text) || own_state(c, dir) =>
        {
            (Verdict::Junction, RuleId::DeleteOutside)
        }
        super::Place::Root
        | super::Place::Home
        | super::Place::ProjectRoot
        | super::Place::System => (Verdict::Block, RuleId::DestroysCritical),
        _ if ctx.holds_project(dir) => (Verdict::Block, RuleId::DestroysCritical),
        super::Place::Outside | super::Place::Unknown => (Verdict::Junction, RuleId::DeleteOutside),
        _ => return None,
    };
    Some(decide(
        verdict,
        rule,
        format!(
            "`{}` is told to clean after its working directory was set to `{}` (on this line or by a variable set for it): the clean empties it",
            c.name,
            dir.display()
        ),
        raw,
    ))
}

/// Whether a settings line runs a script it names by a web address (H2's `INIT=RUNSCRIPT FROM
/// 'https://…/init.sql'`, `init_script: https://…/setup.sh`): a word of running or a script's
/// and an address whose file is a script a program runs (not a page's `.js`).
fn runs_remote_script(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let Some(at) = lower.find("https://").or_else(|| lower.find("http://")) else {
        return false;
    };
    let url: String = lower[at..]
        .chars()
        .take_while(|ch| !ch.is_whitespace() && !matches!(ch, '\'' | '"' | '<' | ';' | ')'))
        .collect();
    let script = [".sql", ".sh", ".py", ".rb", ".pl", ".ps1", ".lua"]
        .iter()
        .any(|e| url.split(['?', '#']).next().is_some_and(|p| p.ends_with(e)));
    let runs = words::parts(&lower[..at])
        .iter()
        .any(|w| w.contains("script") || matches!(w.as_str(), "run" | "exec" | "init" | "source"));
    script && runs
}

/// Where the script is among an interpreter's words when it is their only operand
/// (`python3 tools/cli.py`, `node -r dotenv/config cli.js` is not: `-r` takes a value).
fn script_alone(c: &Cmd<'_>) -> Option<usize> {
    if !["python", "node", "ruby", "perl", "php", "lua"]
        .iter()
        .any(|i| c.name.starts_with(i))
    {
        return None;
    }
    let mut operands = c
        .args
        .iter()
        .enumerate()
        .filter(|(_, a)| !a.text.as_deref().is_some_and(|t| t.starts_with('-')));
    let (at, script) = operands.next()?;
    let flags_plain = c.args[..at].iter().all(|a| {
        a.text.as_deref().is_some_and(|t| {
            t.starts_with('-') && t.len() == 2 && !matches!(t, "-c" | "-e" | "-m" | "-r")
        })
    });
    let text = script.text.as_deref()?;
    let ext = text.rsplit_once('.')?.1;
    (operands.next().is_none() && flags_plain && SCRIPT_EXTENSIONS.contains(&ext)).then_some(at)
}

/// Whether a file's extension is a scripting language's, which a program loads as code.
fn code_file(f: &std::path::Path) -> bool {
    f.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        matches!(
            e,
            "lua" | "tcl" | "py" | "rb" | "pl" | "js" | "sh" | "scm" | "lisp" | "el" | "nse"
        )
    })
}

/// Whether a file's name is a settings file's (`svxlink.conf`, `app.ini`, `x.cfg`).
fn settings_named(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(_, e)| {
        matches!(
            e,
            "conf" | "cfg" | "ini" | "toml" | "yaml" | "yml" | "json" | "xml"
        )
    })
}

/// The texts this line wrote into files that a variable set for the command names
/// (`RCRC=build/rcrc rcdn`): the program reads its settings from there, and a settings file
/// a shell reads runs its lines.
pub(super) fn planted_assigned<'a>(cmd: &Simple, ctx: &'a super::Context) -> Vec<&'a str> {
    let mut texts = Vec::new();
    for (_, value) in &cmd.assigns {
        // A value with a variable the gate knows (`"$TMPDIR/x.yml"`) names a place as well.
        let Some(p) = ctx.resolve(value.text.as_deref().unwrap_or(&value.raw)) else {
            continue;
        };
        // Or a directory that holds it (`XDG_CONFIG_HOME=build/cfg blightmud` reads
        // `build/cfg/blightmud/config/up.lua`): the program finds its files there by its own
        // conventions. (Not the project, or a directory holding it: that is where it runs.)
        let directory =
            p.extension().is_none() && p != ctx.places.project_root && !ctx.holds_project(&p);
        for (_, text) in ctx
            .line
            .planted
            .iter()
            .filter(|(f, _)| *f == p || directory && f.starts_with(&p))
        {
            if !texts.contains(&text.as_str()) {
                texts.push(text.as_str());
            }
        }
    }
    texts
}

/// A configuration handed to a program nobody models (printed into it, fed on stdin, or
/// written on this line and named) whose lines name `/`, home, a system directory or the
/// project's ancestors and, as a value of their own, a deleting verb (`locations:
/// /home/dev` … `actions: - delete`): a file organizer's or a cleaner's rule that deletes
/// there.
fn configured_deletion(
    c: &Cmd<'_>,
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &super::Context,
    raw: &str,
) -> Option<Decision> {
    for text in &handed_texts(c, cmd, producers, ctx) {
        if let Some(place) = markup_deletion(text, ctx) {
            return Some(decide(
                Verdict::Block,
                RuleId::DestroysCritical,
                format!(
                    "`{}` is handed a build file whose element deletes `{place}`: it is never run",
                    c.name
                ),
                raw,
            ));
        }
        let values: Vec<&str> = text.lines().filter_map(held_command).collect();
        // The verb first: a word's test is cheaper than resolving a path.
        let deletes = values.iter().any(|v| {
            !v.contains(char::is_whitespace)
                && words::classify(&v.to_ascii_lowercase()) == Some(words::Class::Destroys)
        });
        if !deletes {
            continue;
        }
        let place = values.iter().find(|v| {
            targets::target(v, ctx).is_some_and(|t| {
                matches!(
                    t,
                    Target::Root | Target::Home | Target::Ancestor | Target::SystemDir
                )
            })
        });
        if let Some(place) = place {
            return Some(decide(
                Verdict::Block,
                RuleId::DestroysCritical,
                format!(
                    "`{}` is handed a configuration whose rule deletes in `{place}`: it is never run",
                    c.name
                ),
                raw,
            ));
        }
    }
    None
}

/// An element named for deleting whose attribute names /, home, a system directory, the
/// project or its ancestors (Ant's and Phing's `<delete dir="/work/proj"/>`, MSBuild's
/// `<RemoveDir Directories="/home/dev"/>`): what runs the build file deletes it. The place
/// it names, as written.
fn markup_deletion<'t>(text: &'t str, ctx: &super::Context) -> Option<&'t str> {
    let mut rest = text;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt + 1..];
        let name_len = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b':'))
            .count();
        let deletes = name_len > 1
            && words::parts(&rest[..name_len])
                .iter()
                .any(|p| words::classify(p) == Some(words::Class::Destroys))
            && words::Verb {
                word: rest[..name_len].to_ascii_lowercase(),
                class: words::Class::Destroys,
            }
            .deletes();
        if !deletes {
            continue;
        }
        let tag = &rest[name_len..rest.find('>').unwrap_or(rest.len())];
        let place = tag.split(['"', '\'']).skip(1).step_by(2).find(|v| {
            targets::target(v, ctx).is_some_and(|t| {
                matches!(
                    t,
                    Target::Root
                        | Target::Home
                        | Target::Ancestor
                        | Target::SystemDir
                        | Target::ProjectRoot
                )
            })
        });
        if place.is_some() {
            return place;
        }
    }
    None
}

/// What a line of a configuration holds: after a list's `- `, a `key:` or `key =`, and quotes;
/// inside an element, its text (`<command>rm -rf …</command>`).
fn held_command(line: &str) -> Option<&str> {
    let mut l = line.trim();
    // A section's header (`[server]`, TOML's `[[proxies]]`) names where settings go; a JSON
    // object on one line (`{"download":{"files":"build/${lang}.json"}}`) is data, whose
    // commands `json_argv` reads by their keys.
    if l.starts_with('[') && l.ends_with(']') || l.starts_with("{\"") {
        return None;
    }
    l = l.strip_prefix("- ").unwrap_or(l).trim_start();
    if l.starts_with('<')
        && let Some(open) = l.find('>')
        && let Some(close) = l.rfind("</")
        && open < close
    {
        l = l[open + 1..close].trim();
    }
    if let Some((key, value)) = l.split_once([':', '='])
        && !key.trim().is_empty()
        && key
            .trim()
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | '.'))
    {
        l = value.trim();
    }
    let l = l.trim_matches(['"', '\'']).trim();
    (!l.is_empty()).then_some(l)
}

/// A program trail models, told to install or run code by its address (`npm install
/// https://github.com/…`): what its rules allow (installing from the registry) says nothing
/// about code nobody has read. (A program nobody models is judged by [`code_from_url`] whole.)
fn installs_by_address(c: &Cmd<'_>, tier: Tier, raw: &str) -> Option<Decision> {
    (tier != Tier::Unknown)
        .then(|| code_from_url(c, raw))
        .flatten()
        .filter(|d| d.verdict == Verdict::Block)
}

/// Words that tell a program to run, install or load what follows them.
const RUNS: &[&str] = &[
    "run", "exec", "execute", "install", "load", "import", "apply", "eval", "source", "start",
    "launch",
    // Commands read from a file (`gmic command https://…/fx.gmic`): a program's own script.
    "command", "commands",
    // A configuration applied as the system's or the user's (`home-manager switch --flake
    // github:…`): what it builds and activates runs.
    "switch", "activate",
];

/// Whether a word before `at`, or the option `at` is the value of, tells the program to run,
/// install or load what it names (`metacello install …`, `--starter=URL`).
fn told_to_run(words: &[&str], at: usize) -> bool {
    // Code a program installs and runs by its nature, named before the address or as its
    // option (`ddev add-on get URL`, `kedro new --starter=URL`, `… plugin add URL`).
    const INSTALLED: &[&str] = &[
        "addon",
        "addons",
        "plugin",
        "plugins",
        "extension",
        "extensions",
        "starter",
        "template",
        // A project's skeleton or boilerplate is a template too (`brunch new … --skeleton
        // URL`): its package scripts and hooks run.
        "skeleton",
        "boilerplate",
        "hook",
        "hooks",
        // A Nix flake is code the build evaluates (`--flake github:owner/repo#host`).
        "flake",
    ];
    let flag = words[at]
        .split_once('=')
        .map(|(f, _)| f)
        .filter(|f| f.starts_with('-'));
    words[..at]
        .iter()
        .enumerate()
        // A run named, then looked at (`gh run view URL`, `… runs list`): the noun.
        .filter(|&(i, w)| {
            let noun = matches!(*w, "run" | "runs")
                && words
                    .get(i + 1)
                    .is_some_and(|n| words::LOOKS.contains(&n.to_ascii_lowercase().as_str()));
            // A path's segments name places (`-dir /run/user/1000/tmp/x`), not acts.
            let path = w.starts_with(['/', '~', '.']) || w.contains('/') && !w.contains("://");
            !refused(words, i) && !noun && !path
        })
        .map(|(_, w)| w)
        .chain(flag.as_ref())
        .flat_map(|w| {
            let mut ps = words::parts(w);
            ps.push(
                w.trim_start_matches('-')
                    .replace('-', "")
                    .to_ascii_lowercase(),
            );
            ps
        })
        .any(|p| RUNS.contains(&p.as_str()) || INSTALLED.contains(&p.as_str()))
}

/// A project made from what an address holds (`cruft create URL`, `projen new --from URL.tgz`,
/// `cargo generate --git URL`): a template's hooks and scripts run as it is made. The program's
/// first word only: `gh pr create -R URL` makes a pull request.
fn makes_project(c: &Cmd<'_>) -> bool {
    c.operands()
        .next()
        .and_then(|a| a.text.as_deref())
        .is_some_and(|t| {
            matches!(
                t,
                "new" | "create" | "init" | "generate" | "scaffold" | "bootstrap"
            )
        })
}

/// A definition of steps fetched and run (`chaos run https://…/experiment.json`, `newman run
/// https://…/collection.json`): its actions may be commands and scripts, or only requests
/// (`schemathesis run …/openapi.json`); only after `run` itself (`apply -f URL` hands a
/// cluster its manifests).
fn runs_document(words: &[&str], i: usize, v: &str) -> bool {
    document_url(v)
        && words[..i].iter().enumerate().any(|(k, w)| {
            matches!(w.to_ascii_lowercase().as_str(), "run" | "exec" | "execute")
                && (k + 1 == i || !words[k + 1].starts_with(|c: char| c.is_ascii_alphabetic()))
        })
}

/// A switch alone, no value after it, that says what the program is given is run
/// (`bootstrap --from URL --execute`); not an option handed the command to run (`--exec
/// "$HOOK"`).
fn run_switch(c: &Cmd<'_>) -> bool {
    c.args.iter().enumerate().any(|(i, a)| {
        a.text.as_deref().is_some_and(|t| {
            matches!(t, "--run" | "--exec" | "--execute" | "--eval" | "--source")
                && c.args
                    .get(i + 1)
                    .is_none_or(|n| n.text.as_deref().is_some_and(|n| n.starts_with('-')))
        })
    })
}

/// Code named by its address on the network, handed to a program trail does not model: told to
/// run, install or load it (`metacello install github://…`, `bundle:install -s https://….jar`)
/// it is fetched code run at once, a block, as `curl … | sh` is; given it as the input it
/// works on (`cwltool https://…/cleanup.cwl`), the program may run it: a junction.
fn code_from_url(c: &Cmd<'_>, raw: &str) -> Option<Decision> {
    // A program that only fetches prints or saves what it gets: a pipe into a shell is
    // judged where it runs.
    if super::shells::fetcher(c.name) {
        return None;
    }
    // Words inside an argument count too (`client "bundle:install -s https://….jar"`).
    let words: Vec<&str> = c.words().flat_map(str::split_whitespace).collect();
    let makes = makes_project(c);
    let switch = run_switch(c);
    let told_before = |at: usize| makes || switch || told_to_run(&words, at);
    // A repository's address is code when the program is told to install or run it
    // (`appium driver install --source=git https://github.com/x/y`): what it builds or loads
    // comes from there.
    let (at, url) = words
        .iter()
        .enumerate()
        .find(|&(i, w)| {
            let v = option_value(w);
            code_url(v)
                || (repository_url(v)
                    || archive_url(v)
                    || script_url(v)
                    || forge_shorthand(v)
                    || names_manifest(&words, i) && super::shells::web_url_elsewhere(v))
                    && told_before(i)
                || runs_document(&words, i, v)
        })
        .map(|(i, w)| (i, option_value(w)))?;
    // Told by a word before it (`metacello install …`); the program's own name says what it
    // is (`acme-run URL` tests an API), not what it does with this address.
    let told = (switch || told_to_run(&words, at))
        && (code_url(url)
            || repository_url(url)
            || archive_url(url)
            || script_url(url)
            || forge_shorthand(url)
            || names_manifest(&words, at));
    // A project made from a template, or a document run: code or not, a person decides.
    let maybe_code = makes || runs_document(&words, at, url);
    // Told only by what it is (`plugin get URL --out "$TMPDIR/p.py"`), while told to save
    // it to a file: fetched, not installed.
    let by_verb = || {
        words[..at]
            .iter()
            .any(|w| RUNS.contains(&w.to_ascii_lowercase().as_str()))
    };
    if declines_code(&words)
        || words::shows_only(c)
        || arguments::prints_it(c)
        || (!told || !by_verb()) && arguments::only_downloads(c)
    {
        return None;
    }
    // The first operand, or the first after subcommand words (`copier copy gh:x/y dest`).
    let first_operand = c
        .operands()
        .filter_map(|a| a.text.as_deref())
        .find(|t| !t.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-'))
        == Some(url);
    if told {
        Some(decide(
            Verdict::Block,
            RuleId::RemoteCode,
            format!(
                "`{}` is told to run or install `{url}`, code fetched from the network that nobody here has read: it is never run",
                c.name
            ),
            raw,
        ))
    } else if first_operand || maybe_code {
        Some(decide(
            Verdict::Junction,
            RuleId::RemoteCode,
            format!(
                "`{}` is given `{url}`, code from the network, and trail does not model what it does with it: a person decides",
                c.name
            ),
            raw,
        ))
    } else {
        None
    }
}

/// Whether the word at `i` is the value of an option naming a plugin's manifest
/// (`--manifest-url=https://…/spy.yaml`): the file that says which code to fetch and install.
fn names_manifest(words: &[&str], i: usize) -> bool {
    let flag = match words[i].split_once('=') {
        Some((f, _)) if f.starts_with('-') => Some(f),
        _ => i
            .checked_sub(1)
            .map(|j| words[j])
            .filter(|f| f.starts_with('-')),
    };
    flag.is_some_and(|f| words::parts(f).iter().any(|p| p == "manifest"))
}

/// Whether the flag at `i` is refused by its value (`--accept-hooks no`, `--trust=false`): it
/// says the opposite of its name.
fn refused(words: &[&str], i: usize) -> bool {
    let w = words[i];
    let value = match w.split_once('=') {
        Some((_, v)) => Some(v),
        None => words.get(i + 1).copied(),
    };
    w.starts_with('-')
        && value.is_some_and(|v| {
            matches!(
                v.to_ascii_lowercase().as_str(),
                "no" | "false" | "0" | "off" | "never" | "none"
            )
        })
}

/// Whether a program is told not to run the hooks or tasks of what it fetches (`--accept-hooks
/// no`, `--no-hooks`, `--skip-tasks`): a template is then only files.
fn declines_code(words: &[&str]) -> bool {
    // Told outright to fetch and not run (`--download-only`, `--no-run`).
    words.iter().any(|w| arguments::fetch_only_flag(w))
        || words.iter().enumerate().any(|(i, w)| {
            let ps = words::parts(w);
            w.starts_with('-')
                && ps
                    .iter()
                    .any(|p| matches!(p.as_str(), "hooks" | "hook" | "scripts" | "tasks"))
                && (refused(words, i)
                    || ps.first().is_some_and(|p| {
                        matches!(p.as_str(), "no" | "skip" | "ignore" | "disable")
                    }))
        })
}

/// A script, by its file's extension, fetched and given as the program's file on stdin
/// (`curl …/x.awk | acme-awk -f /dev/stdin …`): the program runs it.
fn fetched_script(producers: &[&Simple], words: &[&str], at: usize) -> bool {
    at > 0
        && matches!(words[at - 1], "-f" | "--file" | "--script" | "-s")
        && producers.iter().any(|p| {
            p.argv
                .iter()
                .filter_map(|a| a.text.as_deref())
                .any(code_url)
        })
}

/// A download piped into a program whose subcommand is a shell of its own (`nautobot-server
/// nbshell`, `rails console`, `acme repl`): what comes in on stdin is code that shell runs.
fn own_shell(c: &Cmd<'_>, words: &[&str], raw: &str) -> Option<Decision> {
    let sub = words.iter().find(|w| !w.starts_with('-')).filter(|w| {
        let w = w.to_ascii_lowercase();
        ["shell", "console", "repl"].iter().any(|s| w.ends_with(s))
    })?;
    Some(decide(
        Verdict::Block,
        RuleId::RemoteCode,
        format!(
            "a download is piped into `{} {sub}`, a shell that runs what it reads: code nobody here has read; it is never run",
            c.name
        ),
        raw,
    ))
}

/// A structured document at an address elsewhere (`…/experiment.json`, `….yaml`, `….toml`).
fn document_url(w: &str) -> bool {
    let w = w.trim_matches(['"', '\'']);
    if !super::shells::web_url_elsewhere(w) {
        return false;
    }
    let path = w.split(['?', '#']).next().unwrap_or(w);
    path.rsplit_once('.').is_some_and(|(_, ext)| {
        matches!(
            ext.to_ascii_lowercase().as_str(),
            "json" | "yaml" | "yml" | "toml"
        )
    })
}

/// A download piped into a program trail does not model that is told to read its input from
/// stdin (`curl … | acme-engine -`, `-s /dev/stdin`): if it runs what it reads, that is code
/// nobody has read. A person decides (without the stdin word, a program that reads a download
/// is most often a filter); told to run it, by a word naming an interpreter or a running verb
/// before the stdin word (`curl … | acme-admin lua -s /dev/stdin`), it is a block as `curl … |
/// sh` is.
/// Whether `w` is the address of a file a console would run: code by its extension
/// ([`code_url`]), or any file whose extension is not a data format's (`objects.mqsc`,
/// `run.nex`, `load.sql`): a program's own script language. An address with no extension is
/// an API's answer, data.
fn script_url(w: &str) -> bool {
    const DATA: &[&str] = &[
        "json", "jsonl", "ndjson", "geojson", "csv", "tsv", "txt", "xml", "html", "htm", "md",
        "yaml", "yml", "toml", "ini", "conf", "cfg", "log", "png", "jpg", "jpeg", "gif", "svg",
        "webp", "ico", "pdf", "css", "woff", "woff2", "gz", "tgz", "xz", "bz2", "zst", "zip",
        "tar", "asc", "sig", "sha256", "pem", "crt",
    ];
    if code_url(w) {
        return true;
    }
    let w = w.trim_matches(['"', '\'']);
    let Some(rest) = w
        .strip_prefix("https://")
        .or_else(|| w.strip_prefix("http://"))
    else {
        return false;
    };
    let path = rest.split(['?', '#']).next().unwrap_or(rest);
    let Some((_, file)) = path.rsplit_once('/') else {
        return false;
    };
    file.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=6).contains(&ext.len())
            && ext.bytes().all(|b| b.is_ascii_alphanumeric())
            && !DATA.contains(&ext.to_ascii_lowercase().as_str())
    })
}

/// A download on the standard input of a program nobody models through a process
/// substitution (`runmqsc QM1 < <(curl -fsSL …/objects.mqsc)`): what a pipe would hand it.
fn substituted_stdin(c: &Cmd<'_>, cmd: &Simple, raw: &str) -> Option<Decision> {
    let url = cmd
        .reads
        .iter()
        .filter(|r| r.starts_with("<(") && (r.contains("curl") || r.contains("wget")))
        .flat_map(|r| r.split_whitespace())
        .map(|w| w.trim_end_matches(')'))
        .find(|w| script_url(w))?;
    Some(decide(
        Verdict::Block,
        RuleId::RemoteCode,
        format!(
            "code fetched from `{url}` is fed to `{}` on its standard input, which it reads as commands: code nobody has read; it is never run",
            c.name
        ),
        raw,
    ))
}

/// Code by its address's extension, piped into a program nobody models (`curl …/load.sql |
/// taos`): a console given no file reads its input as statements or commands.
fn script_piped(c: &Cmd<'_>, producers: &[&Simple], raw: &str) -> Option<Decision> {
    let url = producers
        .iter()
        .flat_map(|p| p.argv.iter())
        .filter_map(|a| a.text.as_deref())
        .find(|w| script_url(w))?;
    Some(decide(
        Verdict::Block,
        RuleId::RemoteCode,
        format!(
            "code fetched from `{url}` is piped into `{}`, which reads what it is given as commands: code nobody has read; it is never run",
            c.name
        ),
        raw,
    ))
}

/// Whether an option names a programming language for what the program is given (`--lang
/// ruby`, `--parser-lang=python`): that text is code the program runs.
fn names_a_language(c: &Cmd<'_>) -> bool {
    let words: Vec<&str> = c.option_words().collect();
    option_pairs(&words).any(|(flag, value)| {
        flag.starts_with("--")
            && words::parts(flag.split('=').next().unwrap_or(flag))
                .iter()
                .any(|p| matches!(p.as_str(), "lang" | "language"))
            && value.is_some_and(|v| {
                matches!(
                    v.to_ascii_lowercase().as_str(),
                    "ruby"
                        | "python"
                        | "python3"
                        | "py"
                        | "js"
                        | "javascript"
                        | "node"
                        | "lua"
                        | "perl"
                        | "sh"
                        | "bash"
                        | "php"
                        | "tcl"
                        | "groovy"
                        | "powershell"
                )
            })
    })
}

fn download_on_stdin(c: &Cmd<'_>, producers: &[&Simple], raw: &str) -> Option<Decision> {
    const STDIN: &[&str] = &["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"];
    if !producers.iter().any(|p| super::shells::fetches(p)) {
        return None;
    }
    // A download handed over as a file (`acme-trigger <(curl -fsSL https://…)`): what a
    // fetched file given to a program nobody models is (`loads_fetched`).
    let substituted = |open: &str| {
        c.args
            .iter()
            .position(|a| a.text.is_none() && a.raw.contains(open) && a.raw.contains("://"))
    };
    let looks_only = words::shows_only(c) || words::looks(c);
    if let Some(i) = substituted("<(").filter(|_| !looks_only) {
        return Some(decide(
            Verdict::Block,
            RuleId::RemoteCode,
            format!(
                "`{}` is given a download as a file (`{}`) to load or run: code nobody has read; it is never run",
                c.name, c.args[i].raw
            ),
            raw,
        ));
    }
    // A download's text as an argument (`acme run rails r "$(curl -fsSL https://…)"`): told
    // to run it by a word before it, fetched code runs; otherwise a person decides.
    if let Some(i) = substituted("$(").filter(|_| !looks_only) {
        let runs = c.args[..i]
            .iter()
            .filter_map(|a| a.text.as_deref())
            .any(|w| {
                matches!(w, "-e" | "-c" | "r" | "-r")
                    || words::parts(w).iter().any(|p| {
                        matches!(
                            p.as_str(),
                            "run" | "exec" | "execute" | "eval" | "script" | "runner"
                        )
                    })
            })
            // Or said to be code by the language an option names for it (`--parser "$(curl
            // …)" --parser-lang ruby`).
            || names_a_language(c);
        return Some(decide(
            if runs {
                Verdict::Block
            } else {
                Verdict::Junction
            },
            RuleId::RemoteCode,
            format!(
                "`{}` is given the text of a download as an argument (`{}`){}",
                c.name,
                c.args[i].raw,
                if runs {
                    ", told to run it: code nobody has read; it is never run"
                } else {
                    ", and trail does not model what it does with it: a person decides"
                }
            ),
            raw,
        ));
    }
    let words: Vec<&str> = c.words().collect();
    if let Some(d) = own_shell(c, &words, raw) {
        return Some(d);
    }
    if let Some(d) = script_piped(c, producers, raw).filter(|_| !looks_only) {
        return Some(d);
    }
    let at = words.iter().position(|w| {
        STDIN.contains(w)
            || w.split_once('=')
                .is_some_and(|(_, v)| STDIN.contains(&v) && v != "-")
    })?;
    let runs = fetched_script(producers, &words, at)
        || words[..at].iter().any(|w| {
            known::runs_code(w)
                || words::parts(w).iter().any(|p| {
                    matches!(
                        p.as_str(),
                        "run" | "exec" | "execute" | "eval" | "script" | "source" | "load"
                    )
                })
        });
    Some(decide(
        if runs {
            Verdict::Block
        } else {
            Verdict::Junction
        },
        RuleId::RemoteCode,
        if runs {
            format!(
                "a download is piped into `{}`, told to run what it reads from stdin (`{}`): code nobody here has read; it is never run",
                c.name, words[at]
            )
        } else {
            format!(
                "a download is piped into `{}`, told to read its input from stdin (`{}`), and trail does not model whether it runs it: a person decides",
                c.name, words[at]
            )
        },
        raw,
    ))
}

/// A URL of a source archive (`https://…/Foo-0.1.tar.gz`, `….zip`): told to install it, a
/// program builds and installs code from there.
fn archive_url(w: &str) -> bool {
    let w = w.trim_matches(['"', '\'']);
    (w.starts_with("https://") || w.starts_with("http://"))
        && [".tar.gz", ".tgz", ".tar.xz", ".tar.bz2", ".tar.zst", ".zip"]
            .iter()
            .any(|e| w.split(['?', '#']).next().unwrap_or(w).ends_with(e))
}

/// Whether `w` is the address of code on the network: a repository scheme (`github://…`), or
/// an http(s) or ftp URL whose path ends in a script's, a program's or a package's extension.
fn code_url(w: &str) -> bool {
    const EXTENSIONS: &[&str] = &[
        "sh", "bash", "zsh", "py", "pl", "rb", "js", "mjs", "cjs", "ts", "php", "ps1", "lua",
        "tcl", "jar", "war", "cwl", "nf", "wdl", "smk", "run", "bin", "exe", "deb", "rpm", "whl",
        "gem", "apk", "msi", "st", "awk", "el",
    ];
    let w = w.trim_matches(['"', '\'']);
    // A forge's scheme, with or without slashes (`github://…`, `github:owner/name`,
    // `github:owner:plugin`), or its short form as template tools take it (`gh:owner/name`,
    // `gl:`, `bb:`); a task's namespace is no repository (`gitlab:check`).
    if let Some(rest) = ["github:", "gitlab:", "bitbucket:", "gh:", "gl:", "bb:"]
        .iter()
        .find_map(|s| w.strip_prefix(s))
    {
        if rest.starts_with("//") {
            return true;
        }
        let name = |p: &str| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        };
        return rest.split_once(['/', ':']).is_some_and(|(owner, repo)| {
            name(owner) && name(repo.split(['/', '@', '#']).next().unwrap_or(repo))
        });
    }
    let Some(rest) = ["https://", "http://", "ftp://"]
        .iter()
        .find_map(|s| w.strip_prefix(s))
    else {
        return false;
    };
    let path = rest.split(['?', '#']).next().unwrap_or(rest);
    let Some((_, file)) = path
        .split_once('/')
        .map(|(h, p)| (h, p.rsplit('/').next().unwrap_or(p)))
    else {
        return false;
    };
    // A service on this machine is not code from the network (`acme-run http://127.0.0.1:8000/…`
    // tests an API).
    let host = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    if super::shells::loopback(host.rsplit('@').next().unwrap_or(host)) {
        return false;
    }
    file.rsplit_once('.')
        .is_some_and(|(_, ext)| EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()))
}

/// A repository on a forge named the short way, owner, name and a ref (`realm/SwiftLint@0.50.0`,
/// `qz7-labs/XcodeCleaner@main`): what a runner fetches and builds from GitHub.
fn forge_shorthand(w: &str) -> bool {
    let w = w.trim_matches(['"', '\'']);
    let Some((repo, git_ref)) = w.split_once('@') else {
        return false;
    };
    let name_ok = |p: &str| {
        !p.is_empty()
            && p.starts_with(|c: char| c.is_ascii_alphanumeric())
            && p.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    };
    repo.split_once('/')
        .is_some_and(|(owner, name)| name_ok(owner) && name_ok(name))
        && name_ok(git_ref)
}

/// A source repository's address: a `git+` or `.git` URL, or a project on a public forge
/// (`https://github.com/owner/name`, with or without a path under it).
fn repository_url(w: &str) -> bool {
    const FORGES: &[&str] = &[
        "github.com",
        "gitlab.com",
        "bitbucket.org",
        "codeberg.org",
        "git.sr.ht",
        "gitee.com",
    ];
    let w = w.trim_matches(['"', '\'']);
    let (Some(host), Some((_, rest))) = (super::shells::url_host(w), w.split_once("://")) else {
        return false;
    };
    let path = rest.split(['?', '#']).next().unwrap_or(rest);
    let owner_and_name = path.split('/').skip(1).filter(|p| !p.is_empty()).count() >= 2;
    path.ends_with(".git") || FORGES.contains(&host.as_str()) && owner_and_name
}

/// Told to run the code that comes with what it downloads (`--trust-remote-code`): a block,
/// as `curl … | sh` is, whatever the program.
fn remote_code(c: &Cmd<'_>, raw: &str) -> Option<Decision> {
    let w = words::runs_remote_code(c)?;
    Some(decide(
        Verdict::Block,
        RuleId::RemoteCode,
        format!(
            "`{}` is told to run the code that comes with what it downloads (`{w}`): code nobody has read, from the network; it is never run",
            c.name
        ),
        raw,
    ))
}

/// Programs that speak to a device attached by USB or a debug probe, not to this machine:
/// Android's and HarmonyOS's bridges and bootloader, iOS's tools, MicroPython's, and the
/// flashers and debuggers of boards.
fn device_bridge(name: &str) -> bool {
    matches!(
        name,
        "adb"
            | "fastboot"
            | "hdc"
            | "sdb"
            | "mpremote"
            | "ampy"
            | "rshell"
            | "picotool"
            | "dfu-util"
            | "avrdude"
            | "esptool"
            | "esptool.py"
            | "nrfjprog"
            | "openocd"
            | "pyocd"
            | "st-flash"
            | "JLinkExe"
    ) || name.starts_with("idevice")
}

/// A power verb: this machine's power is a block, another's a junction.
fn power(c: &Cmd<'_>, raw: &str) -> Option<Decision> {
    let p = words::power(c)?;
    // Said through a connection to another machine (`--controller=app-1.acme.internal:9990`,
    // `--host db2`): that machine goes down, not this one.
    // Told of this machine by name (`-h 127.0.0.1`), whatever other address the line holds.
    // Or through a board's serial port (`--master=/dev/ttyACM0 --cmd=reboot`): the board
    // restarts (the founders' call 1: an external device).
    // Or through a bridge to an attached device (`adb reboot`, `fastboot reboot`, `mpremote
    // reset`): the phone or the board restarts.
    // Or in the command run on another machine after `--` (`grader exec G4 -- reboot`).
    let here = p.this_machine
        && (p.named_here
            || targets::remote(c).is_none()
                && !serial_port(c)
                && !device_bridge(c.name)
                && handover::runs_there_target(c).is_none());
    Some(if here {
        decide(
            Verdict::Block,
            RuleId::Power,
            format!(
                "`{}` is told to power this machine off or restart it (`{}`): it is never run",
                c.name, p.word
            ),
            raw,
        )
    } else {
        decide(
            Verdict::Junction,
            RuleId::ConsequenceIrreversible,
            format!(
                "`{}` is told to power something off or restart it (`{}`): a person decides",
                c.name, p.word
            ),
            raw,
        )
    })
}

/// Whether `c` is pointed at a serial port (`/dev/ttyUSB0`, `--master=/dev/ttyACM0`, macOS's
/// `/dev/cu.usbmodem1`), where an attached board listens.
pub(super) fn serial_port(c: &Cmd<'_>) -> bool {
    c.words()
        .any(|w| serial_device(w.rsplit_once('=').map_or(w, |(_, v)| v)))
}

/// A serial or USB port's device node.
fn serial_device(w: &str) -> bool {
    w.strip_prefix("/dev/").is_some_and(|d| {
        ["ttyUSB", "ttyACM", "ttyAMA", "ttyS", "cu."]
            .iter()
            .any(|k| d.starts_with(k))
    })
}

fn decide(verdict: Verdict, rule: RuleId, reason: String, raw: &str) -> Decision {
    Decision {
        verdict,
        rule: Some(rule.into()),
        reason,
        command: Some(raw.into()),
        targets: Vec::new(),
    }
}
