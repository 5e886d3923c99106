//! The places a program is given that keep their class whatever program receives them.

use super::super::parse::Arg;
use super::super::rules::Cmd;
use super::super::{Context, Place};
use super::words;

/// A place that matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
    Root,
    Home,
    /// A system directory itself, or one level in (`/etc`, `/usr/local`).
    SystemDir,
    /// A file or directory inside the trees the system's packages own (`/etc/hosts`,
    /// `/usr/bin/sudo`, `/etc/cron.d/job`): it counts when written, where it replaces a system
    /// file, not when only named.
    SystemFile,
    /// A disk, a partition, raw memory (`/dev/sda`, `/dev/nvme0n1`, `/dev/mem`).
    Device,
    /// Firmware, boot and power interfaces (`/boot`, `/sys/firmware`, `/proc/sysrq-trigger`).
    Firmware,
    /// A directory the project sits in (other projects sit there too).
    Ancestor,
    /// The project root itself: it counts with a destroying verb only.
    ProjectRoot,
    /// Anywhere else outside the project and the temporary directories: it counts as an
    /// output only.
    Elsewhere,
    /// A removable medium (a disk named as USB-attached, an optical disc): not this machine's,
    /// so what is done to it is a person's call, never a block.
    Removable,
}

impl Target {
    pub(super) fn critical(self) -> bool {
        !matches!(
            self,
            Target::Elsewhere | Target::SystemFile | Target::Removable
        )
    }

    pub(super) fn device_like(self) -> bool {
        matches!(self, Target::Device | Target::Firmware)
    }

    /// Written as an output, this place is overwritten whole.
    pub(super) fn overwritten(self) -> bool {
        matches!(
            self,
            Target::Root | Target::Home | Target::Device | Target::Firmware | Target::SystemFile
        )
    }

    /// Cleaned as an output, the project goes with it.
    pub(super) fn contains_project(self) -> bool {
        matches!(
            self,
            Target::Root | Target::Home | Target::Ancestor | Target::ProjectRoot
        )
    }

    pub(super) fn what(self) -> &'static str {
        match self {
            Target::Root => "the filesystem root",
            Target::Home => "the home directory",
            Target::SystemDir => "a system directory",
            Target::SystemFile => "a file or directory the system's packages own",
            Target::Device => "a disk or raw device",
            Target::Firmware => "a firmware, boot or power interface",
            Target::Ancestor => "a directory above the project",
            Target::ProjectRoot => "the project root",
            Target::Elsewhere => "a place outside the project",
            Target::Removable => "a removable disk or disc",
        }
    }
}

/// A target found among a command's words.
pub(super) struct Found {
    /// The word as the command names it.
    pub(super) word: String,
    pub(super) target: Target,
    /// Named by an output option (`--out-dir`, `--site-dir`, `-d`, `-o`).
    pub(super) output: bool,
    /// Named by an output option itself, not written because the program rewrites what it is
    /// given in place (`--fix`) or writes its last operand.
    pub(super) named: bool,
    /// Named by a directory option (`-d DIR`, `-C DIR`, `--root DIR`): files are put into it
    /// or served from it, and it is not itself written over.
    pub(super) into: bool,
    /// Named by an operand whose key says it is read (`if=/dev/sda`, `src=…`): a disk read
    /// into an image is not written.
    pub(super) read: bool,
    /// Given to a program told to rewrite what it is given in place (`--write-changes`,
    /// `--fix`): every file under it may be rewritten.
    pub(super) rewritten: bool,
    /// An option's value (`-u /etc/sudoers`, `--key=/etc/x`): what the option does with it
    /// is the program's to say, unlike an operand among inputs.
    pub(super) by_option: bool,
}

impl Found {
    /// A place the command names as what it works on: neither where its output goes nor
    /// something it only reads.
    fn named_as(word: String, target: Target) -> Found {
        Found {
            word,
            target,
            output: false,
            named: false,
            into: false,
            read: false,
            rewritten: false,
            by_option: false,
        }
    }

    /// A place a setting names as where the program writes (`PidFile /etc/passwd`,
    /// `.EXPORT REPORT FILE=…`).
    fn written(word: String, target: Target) -> Found {
        Found {
            output: true,
            named: true,
            ..Found::named_as(word, target)
        }
    }
}

/// Parts of a name that make the program itself a firmware or boot interface (`efibootmgr`,
/// `grub-install`, `bootctl`, `fwupdmgr`, `flashrom`).
const FIRMWARE_NAMES: &[&str] = &[
    "bios",
    "bootctl",
    "bootloader",
    "efi",
    "firmware",
    "flashrom",
    "fwupd",
    "grub",
    "uefi",
];

/// The disks and firmware interfaces a here-document fed to the program names, wherever its
/// syntax puts them (`device=/dev/nvme0n1`, `disk: /dev/sdb`): a stanza file is how many
/// storage tools are told which disk to take.
pub(super) fn fed(text: &str, ctx: &Context) -> Vec<Found> {
    let mut found: Vec<Found> = text
        .split(|c: char| c.is_whitespace() || matches!(c, '=' | ',' | ':' | '"' | '\'' | ';'))
        .filter(|w| w.starts_with("/dev/") || w.starts_with("/sys/") || w.starts_with("/boot"))
        .filter_map(|w| {
            let t = target(w, ctx).filter(|t| t.device_like())?;
            Some(Found::named_as(w.to_string(), t))
        })
        .collect();
    for line in text.lines().flat_map(|l| l.split(';')) {
        if let Some(f) = configured_output(line, ctx) {
            found.push(f);
            continue;
        }
        if let Some(written) = exported(line, ctx) {
            found.extend(written);
            continue;
        }
        // A console's `set KEY VALUE` (`set net.sniff.output /etc/passwd`): the key and the
        // value as a configuration line has them.
        if let Some(rest) = line.trim().strip_prefix("set ")
            && let Some(f) = configured_output(rest, ctx)
        {
            found.push(f);
            continue;
        }
        // A console's own redirection (`ratings >/srv/www/club.txt` to a rating tool): the
        // place after `>` is where it writes.
        found.extend(console_redirect(line, ctx));
        // A command-style line setting it among other words (`set console log=/etc/hosts`).
        found.extend(
            line.split_whitespace()
                .skip(1)
                .filter(|w| w.contains('='))
                .filter_map(|w| configured_output(w, ctx)),
        );
    }
    found
}

/// The place a console line sends its output to with `>` or `>>` (`ratings >/srv/x.txt`,
/// `print > ~/out.txt`), after a command word: only a path, not an arrow or a comparison.
fn console_redirect(line: &str, ctx: &Context) -> Option<Found> {
    let words: Vec<&str> = line.split_whitespace().collect();
    (1..words.len()).find_map(|i| {
        let w = words[i];
        let rest = w.trim_start_matches('>');
        if rest.len() == w.len() || w.len() - rest.len() > 2 {
            return None;
        }
        let path = if rest.is_empty() {
            *words.get(i + 1)?
        } else {
            rest
        };
        let path = path.trim_matches(['"', '\'']);
        if !path.starts_with(['/', '~']) {
            return None;
        }
        Some(Found::written(path.to_string(), target(path, ctx)?))
    })
}

/// A console's or a script language's exporting statement (`.EXPORT REPORT FILE=/etc/passwd`
/// to a database's batch client, `dump stats "/etc/hosts"` to an engine's shell): the places
/// it names, as operands or as a place's setting (`FILE=`), are where it writes. Not a shell's
/// `export NAME=value`.
fn exported(line: &str, ctx: &Context) -> Option<Vec<Found>> {
    let mut ws = line.split_whitespace();
    let first = ws.next()?;
    let verb = first
        .trim_start_matches(['.', '!', '/', '\\'])
        .to_ascii_lowercase();
    // Or a verb of saving joined to what it saves (a chess console's `pgnsave F`).
    let saves = matches!(
        verb.as_str(),
        "export" | "dump" | "save" | "spool" | "backup" | "output" | "write"
    ) || verb.len() > 4 && verb.ends_with("save");
    if !saves {
        return None;
    }
    let rest: Vec<&str> = ws.collect();
    if first == "export" && rest.first().is_some_and(|w| w.contains('=')) {
        return None;
    }
    let written = rest
        .iter()
        .filter_map(|w| {
            let value = match w.split_once('=') {
                Some((key, v)) => {
                    let ps = words::parts(key);
                    ps.last()
                        .is_some_and(|p| PLACES.contains(&p.as_str()))
                        .then_some(v)?
                }
                None => w,
            };
            let value = value.trim_matches(['"', '\'', ';', ',']);
            if !value.starts_with(['/', '~']) {
                return None;
            }
            Some(Found::written(value.to_string(), target(value, ctx)?))
        })
        .collect();
    Some(written)
}

/// A configuration line naming a file the program writes (`PidFile "/etc/passwd"`,
/// `log_file = /etc/hosts`, `dumpfile: ~/x`), as its option would (`--pidfile`): the place
/// it names is an output.
fn configured_output(line: &str, ctx: &Context) -> Option<Found> {
    let line = line.trim();
    let key_end = line.find(|c: char| c.is_whitespace() || matches!(c, '=' | ':'))?;
    let (key, rest) = line.split_at(key_end);
    let value = rest
        .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '=' | ':'))
        .trim()
        .trim_matches(['"', '\'']);
    if value.is_empty()
        || value.contains(char::is_whitespace)
        || !value.starts_with(['/', '~', '$'])
    {
        return None;
    }
    let ps = words::parts(key);
    // A dotted setting ending in `output` names it too (`net.sniff.output`), and a setting
    // named for what the program writes, alone or last (`out = /dev/…`, `AccessLog = …`).
    let output = ps
        .last()
        .is_some_and(|l| matches!(l.as_str(), "output" | "out" | "log" | "logfile" | "dump"));
    // A server's document root (`DocBase`, `DocumentRoot`, `webroot`) is what it serves.
    let served = ps
        .iter()
        .any(|p| matches!(p.as_str(), "docbase" | "docroot" | "webroot" | "htdocs"))
        || ps.first().is_some_and(|p| p == "doc" || p == "document")
            && ps.last().is_some_and(|p| p == "base" || p == "root");
    if served {
        let t = target(value, ctx)?;
        return matches!(
            t,
            Target::Home | Target::Root | Target::Ancestor | Target::SystemDir
        )
        .then(|| Found::named_as(value.to_string(), t));
    }
    if !(product_option(&ps) || output) || reads_from(&ps) {
        return None;
    }
    Some(Found::written(value.to_string(), target(value, ctx)?))
}

/// The program itself, when its name says it works on firmware or boot: a target whatever
/// its words. A word of the name begins or ends with one (`efibootmgr`, `grub2-install`,
/// `uefitool`, `linux-firmware`), not one found inside another word (`pagefind` holds `efi`).
pub(super) fn program(name: &str) -> Option<Found> {
    let lower = name.to_ascii_lowercase();
    lower
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| {
            FIRMWARE_NAMES
                .iter()
                .any(|f| w.starts_with(f) || w.ends_with(f))
        })
        .then(|| Found::named_as(name.to_string(), Target::Firmware))
}

/// Whether an option names where output goes (`--out F`, `-o F`, `--output-dir D`),
/// whatever the place.
pub(super) fn outputs_here_named(c: &Cmd<'_>) -> bool {
    // (A value only the shell knows counts: `--out "$TMPDIR/x.sh"`.)
    c.args.iter().enumerate().any(|(i, a)| {
        a.text.as_deref().is_some_and(|w| {
            let (flag, joined) = w.split_once('=').map_or((w, false), |(f, _)| (f, true));
            flag.starts_with('-')
                && output_flag(flag, false)
                && (joined || c.args.get(i + 1).is_some_and(|n| !n.raw.starts_with('-')))
        })
    })
}

/// Whether the command names where its output goes, and that place is the project or a
/// temporary directory (`--results build/r.xml`, `-o "$TMPDIR/x"`): its other paths are then
/// what it reads.
pub(super) fn outputs_here(c: &Cmd<'_>, ctx: &Context) -> bool {
    let words: Vec<&str> = c.option_words().collect();
    super::option_pairs(&words).any(|(flag, value)| {
        // A number is no place (`fetchmail -d 300`: an interval, not a directory), nor a
        // bare word after a writing verb's option (`--export-map json`: a format) or after
        // `--to` (`gemmi convert --to=pdb`, `pandoc --to=html`: what it converts to).
        flag.starts_with('-')
            && output_flag(flag, false)
            && value.is_some_and(|v| {
                let number = v.bytes().all(|b| b.is_ascii_digit());
                let ps = words::parts(flag);
                let format = v.bytes().all(|b| b.is_ascii_alphanumeric())
                    && (verb_output(&ps) || ps == ["to"]);
                // Nor the next option (`comictagger -d -t cr`: `-d` deletes, and takes no
                // value), nor a colon's spec (`-d vamp:qm:keydetector`, `host:dir`; a URL's
                // place is its path, `-dst=fs:///run/user/1000/tmp/b`).
                let spec = v.starts_with('-') || v.contains(':') && !v.contains("://");
                // A bare name after a one-letter flag other than `-o` may name no place at
                // all (`dbschema -d stores_demo`: a database, not a directory).
                let bare = flag.len() == 2 && flag != "-o" && !v.contains(['/', '.']);
                // A file by its extension after `-d` is data given (`ssdv -d packets.bin
                // OUT`, `curl -d body.json`), not a directory to write in.
                let data = flag == "-d"
                    && v.rsplit('/')
                        .next()
                        .and_then(|f| f.rsplit_once('.'))
                        .is_some_and(|(stem, ext)| {
                            !stem.is_empty() && ext.bytes().all(|b| b.is_ascii_alphabetic())
                        });
                !number
                    && !format
                    && !spec
                    && !bare
                    && !data
                    && matches!(ctx.classify(v), Place::Inside | Place::Tmp)
            })
    })
}

/// Whether the command names where its output goes, by an option or as the last of `IN OUT`,
/// and every place it names, as an operand or an option's value, is in the project or a
/// temporary directory (`--output-dir=build/sac`, `models/house.ifc $TMPDIR/plan.svg`): what a
/// forced overwrite replaces is output made here. Not a file it only reads (`up -y
/// cluster.yaml` acts on what the file describes), nor the project's root itself (`--force .`).
pub(super) fn only_output_here(c: &Cmd<'_>, ctx: &Context) -> bool {
    // Told to install what it builds (`--install`): it lands beyond the project.
    if c.option_words()
        .any(|w| w.starts_with('-') && words::parts(w).iter().any(|p| p == "install"))
    {
        return false;
    }
    let (mut operands, mut places) = (0, 0);
    for a in c.args {
        let Some(w) = word_text(a, ctx) else {
            return false;
        };
        let (value, operand) = match w.split_once('=') {
            Some((_, v)) => (v, false),
            None if w.starts_with('-') => continue,
            None => (w.as_str(), true),
        };
        let pathy = value.contains('/')
            || value.rsplit_once('.').is_some_and(|(stem, ext)| {
                !stem.is_empty()
                    && !ext.is_empty()
                    && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                    && ext.bytes().any(|b| b.is_ascii_alphabetic())
            });
        if !pathy {
            continue;
        }
        if value.contains(['@', ':']) || !matches!(ctx.classify(value), Place::Inside | Place::Tmp)
        {
            return false;
        }
        operands += usize::from(operand);
        places += 1;
    }
    places > 0 && (operands >= 2 || outputs_here(c, ctx))
}

/// Whether a clean is pointed only at what is made again (`logs clean --path build/orton-*
/// --yes`, `cache purge --dir $TMPDIR/c -y`): an emptying subcommand, and every place it names
/// the project's git-ignored build output or a temporary directory. The question its switch
/// skips is about scratch.
pub(super) fn cleans_only_scratch_named(c: &Cmd<'_>, ctx: &Context) -> bool {
    let empties = words::subcommands(c)
        .iter()
        .any(|w| words::empties_whole(&w.to_ascii_lowercase()));
    empties && names_only_scratch(c, ctx)
}

/// An option that names the directory a program works in, or on: a place without a slash
/// too (`-C build`, `--dir out`, `--root build/x`).
pub(super) fn dir_flag(f: &str) -> bool {
    f == "-C"
        || f.starts_with("--")
            && words::parts(f).last().is_some_and(|p| {
                matches!(
                    p.as_str(),
                    "dir" | "directory" | "root" | "path" | "workdir" | "store" | "cache"
                        // (Where a mirror or a copy lands: `--dest dist/cabins`.)
                        | "dest" | "destination"
                )
            })
}

/// Whether every place `c` names is the project's git-ignored build output or a temporary
/// directory, and it names one at least.
pub(super) fn names_only_scratch(c: &Cmd<'_>, ctx: &Context) -> bool {
    let mut places = 0;
    let mut after_dir_flag = false;
    let mut after_source = false;
    // What a sync reads from another machine is no place it empties (`--source s3://docs`).
    let source = |f: &str| matches!(f, "--source" | "--from" | "--src" | "--remote");
    for a in c.args {
        let Some(mut w) = word_text(a, ctx) else {
            return false;
        };
        // This machine's own address is a path here (`--remote "127.0.0.1:$TMPDIR/c"`).
        if a.raw.contains(':') && path_on_this_machine(&a.raw.replace(['"', '\''], "")).is_some() {
            if let Some(path) = path_on_this_machine(&w) {
                w = path.to_string();
            }
            after_source = false;
            after_dir_flag = true;
        }
        let read_from = std::mem::replace(&mut after_source, source(&w));
        // (Nor what it names on the other side: `--remote 'Practice/Clients'`.)
        if (w.contains("://") || read_from && !w.starts_with('-'))
            && (read_from || w.split_once('=').is_some_and(|(f, _)| source(f)))
        {
            continue;
        }
        let placed = std::mem::replace(&mut after_dir_flag, dir_flag(&w));
        let value = match w.split_once('=') {
            Some((f, v)) if dir_flag(f) => {
                if !v.contains('/') && !v.is_empty() {
                    if super::super::rules::deletion::loses(ctx, ctx.classify(v), v) {
                        return false;
                    }
                    places += 1;
                    continue;
                }
                v
            }
            Some((_, v)) => v,
            None if w.starts_with('-') => continue,
            None => w.as_str(),
        };
        if !value.contains('/') && !placed {
            continue;
        }
        // (A directory the program is told to work in may be the temporary directory itself:
        // `--dir "$TMPDIR"`, or `.` after `pushd "$TMPDIR"`; what it clears there is its own.)
        let temp_itself = placed && temp_dir_itself(ctx, value);
        if value.contains(['@', ':'])
            || !temp_itself && super::super::rules::deletion::loses(ctx, ctx.classify(value), value)
        {
            return false;
        }
        places += 1;
    }
    places > 0
}

/// Whether `path` is a temporary directory itself (what is in it is temporary, though the
/// directory is not the program's to remove).
fn temp_dir_itself(ctx: &Context, path: &str) -> bool {
    ctx.classify(&format!("{}/x", path.trim_end_matches('/'))) == crate::Place::Tmp
}

/// Operands that name a disk the way the kernel does, without `/dev/` (`gpart destroy -F
/// nda0`, `disk.wipe sda`): Linux's `sda`, `vdb`, `xvdc`, `hda`, `nvme0n1`, `mmcblk0`, the
/// BSDs' `ada0`, `da1`, `nda0`, and their partitions. Counted only beside a destroying verb,
/// where such a word is the disk it destroys.
pub(super) fn bare_disks(c: &Cmd<'_>) -> Vec<Found> {
    c.args
        .iter()
        .filter_map(|a| a.text.as_deref())
        .filter(|w| kernel_disk_name(w))
        .map(|w| Found::named_as(w.to_string(), Target::Device))
        .collect()
}

fn kernel_disk_name(w: &str) -> bool {
    let digits_then = |rest: &str| {
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        n > 0
            && (rest.len() == n
                || rest[n..]
                    .strip_prefix('p')
                    .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
    };
    // `sda`, `sdb2`, `vdc`, `xvdf1`, `hda`: the disk's letter after the kind, then a
    // partition. Only the first eight letters: `sdk` is more often a kit than a disk.
    let lettered = ["sd", "vd", "xvd", "hd"].iter().any(|k| {
        w.strip_prefix(k).is_some_and(|rest| {
            rest.as_bytes()
                .first()
                .is_some_and(|b| (b'a'..=b'h').contains(b))
                && rest[1..].bytes().all(|b| b.is_ascii_digit())
        })
    });
    let nvme = w.strip_prefix("nvme").is_some_and(|rest| {
        rest.split_once('n').is_some_and(|(ctl, ns)| {
            !ctl.is_empty() && ctl.bytes().all(|b| b.is_ascii_digit()) && digits_then(ns)
        })
    });
    // AIX names its disks `hdisk0`, `hdisk1`.
    let numbered = ["mmcblk", "ada", "nda", "da", "hdisk"]
        .iter()
        .any(|k| w.strip_prefix(k).is_some_and(digits_then));
    lettered || nvme || numbered
}

/// Devices that are data, not disks.
const PLAIN_DEVICES: &[&str] = &[
    // bash's own network paths (`> /dev/tcp/host/port`): a socket, no node at all.
    "tcp",
    "udp",
    "null",
    "zero",
    "random",
    "urandom",
    "stdin",
    "stdout",
    "stderr",
    "tty",
    "full",
    "ptmx",
    "fd",
    "shm",
    "mqueue",
    "log",
    "hugepages",
    "console",
];

/// Kinds of character devices that hold no file system: cameras, modems' control channels,
/// input, sound, buses and clocks (`/dev/video0`, `/dev/cdc-wdm0`, `/dev/i2c-1`), an HDMI
/// link's or an infrared remote's adapter (`/dev/cec0`, `/dev/lirc0`). Talking to one is not
/// writing over a disk. (Not `hidraw`: a security key's reset wipes what it holds.)
const PLAIN_DEVICE_KINDS: &[&str] = &[
    "video", "media", "v4l", "cdc-wdm", "input", "snd", "i2c", "spidev", "gpiochip", "rtc", "dri",
    "uinput", "vhost", "net", "kvm", "fuse", "cu.", "serial", "usb", "cec", "lirc",
];

/// Option names that say where output goes.
const OUTPUT_PARTS: &[&str] = &[
    // A directory given for temporary files (`--temp DIR`, `--tmpdir=DIR`, `--scratch DIR`)
    // is written, and emptied or removed when the program is done with it.
    "scratch",
    "temp",
    "tempdir",
    "tmp",
    "tmpdir",
    "dest",
    "destination",
    "dst",
    "into",
    "out",
    "outdev",
    "outdir",
    "outfile",
    "output",
    "results",
    "root",
    // Where a stream's data is poured (`--sink FILE`, a recorder's or a pipeline's).
    "sink",
    "site",
    "target",
];

/// Flags that make a program rewrite the files it is given. (Not `-w`: a container's working
/// directory as often as `gofmt`'s write.)
const IN_PLACE: &[&str] = &["-I", "--in-place", "--inplace"];

/// Whether `flag` tells a program to change the files it is given where they are: the exact
/// spellings above, and a long flag whose first word is a rewriting verb (`--write`,
/// `--write-changes`, `--overwrite`, `--fix`, `--fix-only`, `--clobber`), whatever the program.
pub(super) fn rewrites_in_place(flag: &str) -> bool {
    if IN_PLACE.contains(&flag) {
        return true;
    }
    let Some(body) = flag.strip_prefix("--") else {
        return false;
    };
    let name = body.split('=').next().unwrap_or(body);
    words::parts(name).first().is_some_and(|p| {
        matches!(
            p.as_str(),
            "write" | "overwrite" | "rewrite" | "fix" | "replace" | "clobber"
        )
    })
}

/// Short options that name where output goes (`-o DIR`, `-d DIR`, `-C DIR`, and `-oDIR`).
const OUTPUT_SHORT: &[&str] = &["-o", "-d", "-O", "-C", "-of"];
/// The short output options that name a directory (`unzip -d DIR`, `tar -C DIR`): given a
/// file, they do not write over it (`lsattr -d /etc/resolv.conf` lists the entry itself).
const DIRECTORY_SHORT: &[&str] = &["-d", "-C"];

/// Whether `flag` names an output: `-o`, `-d`, `--output`, and the single-dash long form some
/// programs use (`-outdev`); `--root` only where `root_counts` (an install root, not where a
/// remote copy goes).
pub(super) fn output_flag(flag: &str, root_counts: bool) -> bool {
    if OUTPUT_SHORT.contains(&flag) {
        return true;
    }
    let ps = words::parts(flag);
    // `--to DIR` alone names where it goes (`--compare-to` names what is read, below), and
    // Go's single-dash form (`plakar restore -to build/restore`).
    // (Or `--onto DIR`: a restore's.)
    if ps.len() == 1
        && matches!(ps[0].as_str(), "to" | "onto")
        && (flag.starts_with("--") || flag == "-to")
    {
        return true;
    }
    // `--storage DIR` alone names where downloads are kept (`eodag download --storage DIR`);
    // a storage's data path (`-storageDataPath=…`) is what is read.
    if ps.len() == 1 && ps[0] == "storage" && flag.starts_with("--") {
        return true;
    }

    flag.len() > 3
        && (ps
            .iter()
            .any(|p| OUTPUT_PARTS.contains(&p.as_str()) && (root_counts || p != "root"))
            // What it makes and `out` joined, before the place's name (`-IMAGEOUT_NAME`,
            // `--dataout-file`).
            || joined_out(&ps)
            || verb_output(&ps)
            // What it writes and the verb joined (`--diskwrite=FILE`, `-imagewrite`).
            || ps.len() == 1 && ps[0].strip_suffix("write").is_some_and(|noun| noun.len() >= 3)
            // `out` and a file's kind joined, one word (`--outputlogfile=F`, `-outfolder`).
            || ps.len() == 1 && glued_output(&ps[0])
            // `--export-picture-to`, `--save-to`: a writing verb, then where to.
            || ps.last().is_some_and(|p| p == "to")
                && ps.iter().any(|p| WRITES_TO.contains(&p.as_str())))
}

/// A variable named for a kind of file and `OUT`, the logical names crystallography suites
/// give their outputs (`HKLOUT`, `XYZOUT`, `MTZOUT`, `MAPOUT`): its value is the file written.
/// Not the standard stream or an English word (`STDOUT`, `LAYOUT`, `LOGOUT`).
fn logical_output_name(parts: &[String]) -> bool {
    matches!(parts, [p] if p.strip_suffix("out").is_some_and(|noun| {
        noun.len() == 3
            && noun.bytes().all(|b| b.is_ascii_lowercase())
            && !matches!(noun, "std" | "lay" | "log" | "cut" | "tim" | "sho")
    }))
}

/// One word that starts with `out` and ends with a file's or a directory's kind
/// (`outputlogfile`, `outdir`, `outputfolder`): where output goes, whatever is between.
fn glued_output(p: &str) -> bool {
    p.starts_with("out")
        && p.len() > 6
        && ["file", "dir", "path", "folder", "log"]
            .iter()
            .any(|k| p.ends_with(k))
}

/// A whole disk given to a long option named for what the program writes (`--export
/// /dev/sda`, `--archive=/dev/sda`, `--error-log /dev/sda`): the disk is written over. Not an
/// option that says it reads (`--read`, `--input-dump`).
pub(super) fn disk_by_output_option(c: &Cmd<'_>, ctx: &Context) -> Option<String> {
    let words: Vec<&str> = c.option_words().collect();
    // (Not in a run told to stay read-only: `fio --readonly --filename=/dev/nvme0n1`.)
    let read_only = words
        .iter()
        .any(|w| matches!(*w, "--readonly" | "--read-only"));
    super::option_pairs(&words).find_map(|(flag, value)| {
        let value = value?;
        let name = flag.strip_prefix("--")?;
        let ps = words::parts(name);
        // Or named for a file alone (`--filename=/dev/sda`, `--file DEV`): a disk is not what
        // a program names a file option for, unless the option says it reads.
        let file =
            !read_only && matches!(ps.as_slice(), [p] if matches!(p.as_str(), "file" | "filename"));
        let output = (output_flag(flag, false) || product_option(&ps) || file) && !reads_from(&ps);
        (output && !ps.iter().any(|p| p == "read") && target(value, ctx) == Some(Target::Device))
            .then(|| value.to_string())
    })
}

/// A whole disk as the last operand of a saving subcommand, after what it saves (`ctdb
/// backupdb secrets.tdb /dev/sda`, `acme export db1 /dev/sdb`): source, then destination, so
/// the disk is written. A disk first is what is saved (`partimage save /dev/sda out.img`).
pub(super) fn disk_as_destination(c: &Cmd<'_>, ctx: &Context) -> Option<String> {
    let operands: Vec<&str> = c.operands().filter_map(|a| a.text.as_deref()).collect();
    let verb = operands.iter().take(2).position(|w| {
        // A bare word (`/dump` is Windows' switch, or a path).
        !w.starts_with(['/', '-', '.', '~'])
            && words::parts(w).first().is_some_and(|p| {
                matches!(
                    p.as_str(),
                    "backup" | "backupdb" | "dump" | "export" | "save" | "copy" | "write" | "store"
                )
            })
    })?;
    let (last, between) = operands[verb + 1..].split_last()?;
    let disk = |w: &str| target(w, ctx) == Some(Target::Device);
    (disk(last) && !between.is_empty() && !between.iter().any(|w| disk(w)))
        .then(|| (*last).to_string())
}

/// A disk last among the operands, after a file of the project or a temporary directory (or
/// `-`, what is piped in) that it is given (`atinout - /dev/ttyUSB2 /dev/sda`, `vips rawsave
/// build/x.jpg /dev/sda`): a program's operands run from what it reads to where it writes,
/// so the disk is where the output goes. A disk alone, or first, is what a reader reads
/// (`sg_inq /dev/sda`, `ddrescue /dev/sda build/disk.img`).
///
/// A disk that stands alone as an operand counts only after operands that stand alone too: a
/// file given to an option before it is that option's (`nanddump -f build/x.bin /dev/mtd2`
/// reads the disk into the file). A disk given to an option (`hisat2 … -S /dev/sda`) follows
/// any input.
pub(super) fn disk_after_inputs(c: &Cmd<'_>, ctx: &Context) -> Option<String> {
    written_after_inputs(c, ctx, |w| target(w, ctx) == Some(Target::Device))
}

/// A boot file, one of the system's tables or one of its programs last among the operands,
/// after an input (`kraken -i scans/p1.png /boot/grub/grub.cfg …`, `ocrd zip bag … -i ms-112
/// /etc/passwd`, `ofxstatement convert … build/statement.csv /usr/lib/systemd/systemd`), as
/// [`disk_after_inputs`] reads a disk there.
pub(super) fn table_after_inputs(c: &Cmd<'_>, ctx: &Context) -> Option<String> {
    // A program named last is written only as the line's last word, not as a command to run
    // (`--inetd /usr/sbin/efingerd -n`, `-- /bin/true`).
    let words: Vec<&str> = c.args.iter().filter_map(|a| a.text.as_deref()).collect();
    let written_last = |w: &str| words.last() == Some(&w) && !words.contains(&"--");
    written_after_inputs(c, ctx, |w| {
        target(w, ctx) == Some(Target::Firmware)
            || system_table(w, ctx)
            || written_last(w) && system_program(w, ctx)
    })
}

fn written_after_inputs(c: &Cmd<'_>, ctx: &Context, disk: impl Fn(&str) -> bool) -> Option<String> {
    let words: Vec<&str> = c.args.iter().filter_map(|a| a.text.as_deref()).collect();
    let operands: Vec<&str> = c.operands().filter_map(|a| a.text.as_deref()).collect();
    let (last, before) = operands.split_last()?;
    // Whether the word at its first place among the arguments follows an option.
    let after_option = |w: &str| {
        words
            .iter()
            .position(|x| *x == w)
            .and_then(|i| i.checked_sub(1))
            .is_some_and(|i| words[i].starts_with('-') && words[i].len() > 1)
    };
    let by_option = after_option(last);
    let input = |w: &&str| {
        (by_option || !after_option(w))
            && !w.contains(char::is_whitespace)
            && (*w == "-"
                || (w.contains('/') || w.rsplit_once('.').is_some_and(|(s, _)| !s.is_empty()))
                    && matches!(ctx.classify(w), Place::Inside | Place::Tmp))
    };
    (disk(last) && before.iter().any(input) && !before.iter().any(|w| disk(w)))
        .then(|| (*last).to_string())
}

/// Whether an option's parts join a noun to `out` and end with a place (`-IMAGEOUT_NAME`,
/// `--dataout-file`): the place is where that output goes. A word that only ends in `out`
/// (`--timeout`, `--checkout`) names no place after it.
fn joined_out(ps: &[String]) -> bool {
    let Some((last, rest)) = ps.split_last() else {
        return false;
    };
    // Alone, a noun of four letters or more joined to `out` (`--fastqout`, `-imageout`).
    if rest.is_empty() {
        return last.strip_suffix("out").is_some_and(|noun| {
            noun.len() >= 4
                && noun.bytes().all(|b| b.is_ascii_lowercase())
                && !matches!(
                    noun,
                    "time" | "check" | "roll" | "lock" | "drop" | "read" | "black" | "break"
                )
        });
    }
    (PLACES.contains(&last.as_str()) || last == "name")
        && rest.iter().any(|p| {
            p.strip_suffix("out").is_some_and(|noun| {
                noun.len() >= 4 && !matches!(noun, "time" | "check" | "roll" | "lock" | "drop")
            })
        })
}

/// A writing verb and what it writes (`--export-schematics=F`, `--save-image F`): the
/// option's value is where that goes, unless a word says it is read (`--copy-from`). Not
/// `dump`: `-dump_head URL` prints.
fn verb_output(ps: &[String]) -> bool {
    // Saving or writing what is usually read names where it is written (`gource --save-config
    // FILE`, `--write-config`); exporting a configuration may print it.
    let writes = matches!(ps.first().map(String::as_str), Some("save" | "write"));
    ps.len() >= 2
        && ps[0] != "dump"
        && WRITES_TO.contains(&ps[0].as_str())
        && (writes || !reads_from(ps))
}

/// Verbs whose option, ending in `to`, names where something is written (`--export-to`,
/// `--save-to`, `--extract-to`); `--compare-to` and `--relative-to` name what is read.
const WRITES_TO: &[&str] = &[
    "copy", "download", "dump", "export", "extract", "move", "record", "render", "save", "stream",
    "write",
];

/// Verbs that bring something from elsewhere and write it down: given a source and a place,
/// the place is written (`dfs -get SRC DEST`, `rt download SRC DEST`, `file get … --path P`).
const TRANSFERS: &[&str] = &[
    "checkout", "copy", "cp", "download", "export", "extract", "fetch", "get", "mirror", "pull",
    "put", "restore", "retrieve", "sync",
];

/// Verbs whose next path is where the output goes (`redirect csv FILE`, `cat output FILE`).
/// (Not `dump` or `save`: `acme dump /etc/hosts` prints it, `partimage save DISK FILE` reads
/// the disk.)
const REDIRECTS: &[&str] = &["redirect", "tee", "output"];

/// Nouns of what a program produces, in an option's name beside where it goes
/// (`--reporter-json-export`, `-exact_artifact_path`, `--log-file`, `--pid-file`, a call
/// recorded to `--rec-file`): that option names a file the program writes.
const PRODUCTS: &[&str] = &[
    "artifact",
    "capture",
    "coverage",
    "dump",
    "export",
    "log",
    "logfile",
    "pid",
    "pidfile",
    "rec",
    "record",
    "recording",
    "report",
    "result",
    "results",
    "save",
    "trace",
];

/// The last part of an option's name that names a place (`--path`, `--filename`, `-dir`).
const PLACES: &[&str] = &[
    "dir",
    "directory",
    "file",
    "filename",
    "location",
    "path",
    "prefix",
];

/// Whether an option's name (its `parts`) names a file the program produces: a product noun,
/// and the option ends with it or with a place (`--report-dir`; not `--log-level`), or is it
/// alone.
fn product_option(parts: &[String]) -> bool {
    // An option that is the product alone, or a recording (`--pid FILE`, `--record FILE`):
    // its value is the file written.
    matches!(
        parts,
        [p] if matches!(
            p.as_str(),
            "pid" | "pidfile" | "record" | "dump" | "save" | "log" | "res" | "result" | "archive"
        )
    )
        // A product named last, after what kind it is (`--error-log`, `--crash-dump`,
        // `--packet-capture`), unless a word says it is read (`--input-log`).
        || parts.len() >= 2
            && parts.last().is_some_and(|l| {
                matches!(
                    l.as_str(),
                    "log" | "dump" | "capture" | "trace" | "export" | "archive" | "recording"
                )
            })
            && !reads_from(parts)
        || parts
        .iter()
        .any(|p| PRODUCTS.contains(&p.as_str()) || matches!(p.as_str(), "output" | "out"))
        && parts.last().is_some_and(|l| {
            PLACES.contains(&l.as_str()) || matches!(l.as_str(), "export" | "dump" | "save")
        })
        || parts.last().is_some_and(|l| product_place(l))
}

/// A product and a place written as one word (`--pidfile`, `--logfile`, `--outdir`,
/// `-dumpfile`), as many daemons spell the option that names what they write.
fn product_place(word: &str) -> bool {
    PLACES.iter().any(|place| {
        word.strip_suffix(place).is_some_and(|stem| {
            PRODUCTS.contains(&stem)
                || matches!(stem, "out" | "output" | "lock" | "state" | "cache" | "data")
        })
    })
}

/// Whether an option's parts say it names something read (`--config-file`, `--ca-path`,
/// `--input-dir`), whatever else it names.
fn reads_from(parts: &[String]) -> bool {
    const READS: &[&str] = &[
        "ca",
        "cert",
        "conf",
        "config",
        "cred",
        "credentials",
        "filter",
        "from",
        "identity",
        "in",
        "include",
        "input",
        "key",
        "module",
        "schema",
        "source",
        "src",
        "template",
        "token",
    ];
    parts.iter().any(|p| READS.contains(&p.as_str()))
}

/// The words of `c` as a transfer reads them: the index of the word (a subcommand or a flag,
/// `-get`, `--get-file`) whose verb brings something in.
fn transfer_verb(c: &Cmd<'_>) -> Option<usize> {
    c.args.iter().take(6).position(|a| {
        a.text.as_deref().is_some_and(|t| {
            let ps = words::parts(t);
            // A verb word (not a file, `sync.py`), or a flag that is one (`-get`,
            // `--get-file`), not an option naming a thing (`--pull-policy`).
            let word = if t.starts_with('-') {
                ps.len() == 1 || ps.len() == 2 && PLACES.contains(&ps[1].as_str())
            } else {
                t.chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_'))
            };
            word && ps.first().is_some_and(|p| TRANSFERS.contains(&p.as_str()))
        })
    })
}

/// Whether `w` is an operand (not a flag, `+opt`, or `KEY=VALUE`).
fn operand(w: &str) -> bool {
    !(w.starts_with('-') || w.starts_with('+') && w.len() > 1 || w.contains('='))
}

/// The index of the word a transfer writes: its last operand, when a source comes before it
/// (`get SRC DEST`; `get KEY` alone names what is read).
fn transfer_destination(c: &Cmd<'_>, verb: usize) -> Option<usize> {
    let operands: Vec<usize> = (verb + 1..c.args.len())
        .filter(|&i| c.args[i].text.as_deref().is_some_and(operand))
        .collect();
    operands.last().copied().filter(|_| operands.len() >= 2)
}

/// The index of the path right after a redirecting verb (and a format word): `redirect csv
/// /etc/passwd print users`.
fn redirected(c: &Cmd<'_>) -> Option<usize> {
    let at = c.args.iter().take(6).position(|a| {
        a.text
            .as_deref()
            .is_some_and(|t| REDIRECTS.contains(&t.to_ascii_lowercase().as_str()))
    })?;
    (at + 1..(at + 3).min(c.args.len())).find(|&i| {
        c.args[i]
            .text
            .as_deref()
            .is_some_and(|t| t.starts_with(['/', '~', '.']))
    })
}

/// The convention of converters given no verb: `PROGRAM [OPTIONS] IN OUT`. When the first of
/// two or more path operands is the project's or a temporary file and the last names a place
/// outside, the last is where the output goes (`dcmj2pnm +on build/ct/a.dcm /etc/motd`); not
/// for a program named for comparing (`colordiff a /etc/hosts`).
fn converter_output(c: &Cmd<'_>, ctx: &Context) -> Option<usize> {
    let name = c.name.to_ascii_lowercase();
    if ["diff", "cmp", "compare", "merge", "meld"]
        .iter()
        .any(|d| name.contains(d))
    {
        return None;
    }
    // Operands only: not a line (`-R 'stat /etc/hosts'`), nor a word right after a flag (it
    // may be the flag's value: `--check-static /home/dev`).
    let operands: Vec<(usize, &str)> = c
        .args
        .iter()
        .enumerate()
        .filter_map(|(i, a)| a.text.as_deref().map(|t| (i, t)))
        .filter(|&(i, t)| {
            operand(t)
                && !t.contains(char::is_whitespace)
                && (i == 0 || after_flag_read(&c.args[i - 1], t, ctx, false))
        })
        .collect();
    // A file's name: a directory in it, or an extension of letters (`a.dcm`; not
    // `0.0.0.0:8080`).
    let pathy = |t: &str| {
        t.contains('/')
            || t.rsplit_once('.').is_some_and(|(stem, ext)| {
                !stem.is_empty() && !ext.is_empty() && ext.bytes().all(|b| b.is_ascii_alphabetic())
            })
    };
    // One read before the last is the project's (`mbrola /usr/share/mbrola/en1/en1
    // build/hello.pho /boot/vmlinuz`: a voice read from the system, a file of the project).
    let (last, before) = operands.split_last()?;
    (!before.is_empty()
        && operands.iter().all(|(_, t)| pathy(t))
        && before.iter().any(|(_, t)| {
            !t.starts_with(['/', '~']) && !t.contains("://") && target(t, ctx).is_none()
        })
        && target(last.1, ctx).is_some_and(|t| t != Target::ProjectRoot))
    .then_some(last.0)
}

/// The word a converter writes by its place (`readstat in.sav /srv/out.csv`), for a program
/// whose name alone would say it reads.
pub(super) fn converted(c: &Cmd<'_>, ctx: &Context) -> Option<String> {
    converter_output(c, ctx).and_then(|n| c.args[n].text.clone())
}

/// A disk as the last operand, after operands that say what to read or how much (`typst
/// compile doc.typ /dev/nvme0n1`, `d64copy 8 /dev/nvme0n1`, `sadc 1 10 /dev/nvme0n1`,
/// `… rl 0 65536 /dev/nvme0n1`): by the Unix convention the output comes last, and a disk read
/// from comes first (`tsk_recover /dev/nvme0n1p2 ~/out`). Subcommand words do not count as
/// what is read (`mmc extcsd read /dev/mmcblk0` reads it), nor a DOS-style switch (`testdisk
/// /dump /log /dev/nvme0n1`), nor a word given to a flag (`ewfacquire -t ~/case /dev/…`).
fn disk_last(c: &Cmd<'_>, ctx: &Context) -> Option<usize> {
    let mut operands = c.args.iter().enumerate().filter(|&(i, a)| {
        a.text.as_deref().is_some_and(|t| {
            operand(t)
                && !t.contains(char::is_whitespace)
                && (i == 0 || after_flag_read(&c.args[i - 1], t, ctx, true))
        })
    });
    let (last, word) = operands.next_back()?;
    if target(word.text.as_deref()?, ctx) != Some(Target::Device) || last + 1 != c.args.len() {
        return None;
    }
    if saves(c) {
        return None;
    }
    let switch = |t: &str| {
        t.strip_prefix('/')
            .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_alphabetic()))
    };
    operands
        .any(|(_, a)| {
            a.text.as_deref().is_some_and(|t| {
                t.bytes()
                    .any(|b| b.is_ascii_digit() || b == b'/' || b == b'.')
                    && !switch(t)
                    && target(t, ctx).is_none_or(|t| !t.device_like())
            })
        })
        .then_some(last)
}

/// Whether a word after `prev` is an operand read: `prev` is no flag that may take it as its
/// value, or the word is a project file that flag does not write (`pasmo --tap src/game.asm
/// OUT`, `makebin -p build/main.ihx /dev/sda`; not `-f FILE`, `-w FILE`, `-o FILE`).
///
/// `before_disk`: the word comes before a disk named last, where a directory of the project
/// after a long flag is what is read too (`xapian-compact --single-file build/omega
/// /dev/sda`); elsewhere such a flag may take it as its value (`--db build/omega`).
fn after_flag_read(prev: &Arg, t: &str, ctx: &Context, before_disk: bool) -> bool {
    prev.text.as_deref().is_none_or(|f| {
        !(f.starts_with('-') && !f.contains('=') && f != "--")
            || (project_file(t, ctx)
                || before_disk && f.starts_with("--") && project_dir(t, ctx)
                // A stream's address is where it reads from (`multicat -u @239.1.1.1:5000`).
                || stream_address(t))
                && !matches!(f, "-f" | "-w")
                && !output_flag(f, true)
    })
}

/// A relative path with a directory in it, inside the project (`build/omega`).
fn project_dir(t: &str, ctx: &Context) -> bool {
    !t.starts_with(['/', '~', '-', '$', '.'])
        && t.contains('/')
        && !t.contains(['=', ':'])
        && target(t, ctx).is_none()
}

/// A multicast or network stream's address (`@239.255.1.1:5000`, `udp://@239.1.1.1:1234`).
fn stream_address(t: &str) -> bool {
    let t = t
        .strip_prefix("udp://")
        .or_else(|| t.strip_prefix("rtp://"))
        .unwrap_or(t);
    t.strip_prefix('@').is_some_and(|a| {
        a.split_once(':').is_some_and(|(ip, port)| {
            ip.split('.').count() == 4
                && ip.split('.').all(|o| o.parse::<u8>().is_ok())
                && port.parse::<u16>().is_ok()
        })
    })
}

/// A file of the project by its relative name and extension (`build/main.ihx`): after a
/// one-letter flag it is still what the program reads, whether or not the flag takes a value
/// (`makebin -p build/main.ihx /dev/sda`); a flag's value that names a place to write has no
/// extension (`ewfacquire -t case /dev/…`).
fn project_file(t: &str, ctx: &Context) -> bool {
    !t.starts_with(['/', '~', '-', '$'])
        && t.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && !stem.ends_with('/')
                && (1..=5).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                && ext.bytes().any(|b| b.is_ascii_alphabetic())
                // A settings file is read for how to run (`-c conf.yml /dev/sda`).
                && !matches!(
                    ext.to_ascii_lowercase().as_str(),
                    "conf" | "cfg" | "ini" | "yml" | "yaml" | "toml" | "json" | "xml" | "rc"
                )
        })
        && target(t, ctx).is_none()
}

/// Told to save, back up or dump what it is given (`ocs-sr … savedisk IMAGE nvme0n1`): a disk
/// named last is read, not written.
fn saves(c: &Cmd<'_>) -> bool {
    c.words().any(|w| {
        ["save", "backup", "dump"]
            .iter()
            .any(|v| w.get(..v.len()).is_some_and(|p| p.eq_ignore_ascii_case(v)))
    })
}

/// A word's text: as written when static, else the path a variable the gate knows gives it
/// (`"$HOME"`).
fn word_text(a: &Arg, ctx: &Context) -> Option<String> {
    if let Some(t) = &a.text {
        return Some(t.clone());
    }
    // A process substitution is a pipe's name, not a path under here (`--config <(printf
    // '[cache]\n…')` names no glob of the project).
    if a.raw.starts_with("<(") || a.raw.starts_with(">(") {
        return None;
    }
    // A setting's or an option's value the shell expands (`msout="$HOME"`, `--output=$HOME`):
    // the place it names, under its key (read whole, the word is no path).
    if let Some((k, v)) = a.raw.split_once('=') {
        let key = k.trim_start_matches('-');
        let keyed = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
        if keyed {
            return ctx
                .resolve(v)
                .map(|p| format!("{k}={}", p.to_string_lossy()));
        }
    }
    ctx.resolve(&a.raw)
        .map(|p| p.to_string_lossy().into_owned())
}

/// A path inside a container is the host's directory mounted there.
fn host_side(value: String, mounts: &[(String, String)], ctx: &Context) -> String {
    if mounts.is_empty() {
        value
    } else {
        super::super::indirect::through_mounts(&value, mounts, ctx)
    }
}

/// The bind mounts `c` gives a container (`-v "$PWD/build:/data"`, `-v /:/host`), their host
/// side as this line resolves it: what runs inside names the host's places through them, the
/// project's output directory or the host's root alike.
fn mounts(c: &Cmd<'_>, ctx: &Context) -> Vec<(String, String)> {
    let mounting = |a: &Arg| {
        a.raw.starts_with("-v")
            || a.raw.starts_with("--volume")
            || a.raw.starts_with("--mount")
            || a.raw.starts_with("--bind")
    };
    if !c.args.iter().any(mounting) {
        return Vec::new();
    }
    let args: Vec<Arg> = c
        .args
        .iter()
        .map(|a| Arg {
            text: word_text(a, ctx),
            ..a.clone()
        })
        .collect();
    // (Not another option's words: `setcap -v cap_net_raw+ep /usr/bin/ping` verifies.)
    super::super::indirect::bind_mounts(&args)
        .into_iter()
        .filter(|(host, dest)| host.starts_with(['/', '.', '~']) && dest.starts_with('/'))
        .collect()
}

/// Whether a name only the shell knows is a place `c` is given, output or not: for a program
/// nobody models, unless the line names its output here and so reads its other paths (`-c
/// "/boot/config-$(uname -r)" -o build/kp`). Asked only of such a word, which most lines lack.
fn names_dynamic_places(c: &Cmd<'_>, ctx: &Context) -> bool {
    super::super::known::tier(c.name) == super::super::known::Tier::Unknown && !outputs_here(c, ctx)
}

/// Where an output goes, when its last name only the shell knows (`-o
/// "/boot/initrd.img-$(uname -r)"`, after an output option, or `--output=…`): a file of that
/// directory is written all the same. (Read, such a file is the program's business: `-c
/// "/boot/config-$(uname -r)"`.)
fn dynamic_output(a: &Arg, after_output: bool) -> Option<String> {
    dynamic_name(&a.raw).filter(|d| {
        after_output
            || d.split_once('=').is_some_and(|(f, _)| {
                f.starts_with('-') && (output_flag(f, true) || product_option(&words::parts(f)))
            })
    })
}

/// `/boot/initrd.img-$(uname -r)` → `/boot/initrd.img-…`: one file of a directory written out,
/// whose name only the shell knows (not a glob: it names one file there, not all of them).
/// `$X/boot` is anywhere, and stays unknown.
fn dynamic_name(raw: &str) -> Option<String> {
    let bare = raw.trim_matches(['"', '\'']);
    let (key, path) = match bare.split_once('=') {
        Some((k, v)) if k.starts_with('-') => (Some(k), v.trim_matches(['"', '\''])),
        _ => (None, bare),
    };
    let dynamic = path.find('$')?;
    let slash = path[..dynamic].rfind('/')?;
    (path.starts_with('/') && slash > 0 && !path[..dynamic].contains(char::is_whitespace)).then(
        || {
            let file = format!("{}…", &path[..dynamic]);
            match key {
                Some(k) => format!("{k}={file}"),
                None => file,
            }
        },
    )
}

/// The places that matter among the values of variables set for the program (`NAME=/home/dev
/// prog …`), named as the program's own: what it works on. A variable whose name says the
/// program writes there, as an option's would (`AUTOSSH_PIDFILE=/etc/passwd`,
/// `ACME_LOG_FILE=…`), names its output, and a system file counts as well.
pub(super) fn assigned(assigns: &[(String, Arg)], ctx: &Context) -> Vec<Found> {
    assigns
        .iter()
        .filter_map(|(name, value)| {
            let text = word_text(value, ctx)?;
            // A database kept in one file, by its URL (`DATABASE_URL=sqlite:////etc/passwd`):
            // the file the program writes its data to, and drops with it.
            let parts = words::parts(name);
            let output = product_option(&parts)
                || joined_out(&parts)
                || logical_output_name(&parts)
                || local_url_path(&text).is_some();
            let t = target(&text, ctx).filter(|t| {
                (t.critical() || output && *t == Target::SystemFile) && *t != Target::ProjectRoot
            })?;
            if output {
                let mut found = Found::named_as(text, t);
                found.output = true;
                found.by_option = true;
                return Some(found);
            }
            Some(Found::named_as(format!("{name}={text}"), t))
        })
        .collect()
}

/// A recorder by its name (`arecordmidi`, `wf-recorder`): the file it is given is where the
/// recording goes. (Not `rec` alone: `photorec` recovers from what it is given.)
fn recorder(c: &Cmd<'_>) -> bool {
    // Or told to dump or export as its first word (`rethinkdb dump -f FILE`): its `-f` is what
    // it writes.
    c.name.to_ascii_lowercase().contains("record")
        || c.words()
            .next()
            .is_some_and(|w| matches!(w, "dump" | "export" | "backup" | "save"))
}

/// A program named for recording or capturing, by a part of its name (`bmdcapture`,
/// `grgsm_capture`, `arecord`): any disk it is given is where the recording goes. Narrower
/// than [`recorder`]'s test, which also makes its `-f` an output for any file.
pub(super) fn named_for_recording(name: &str) -> bool {
    words::parts(name)
        .iter()
        .any(|p| p.ends_with("capture") || p.ends_with("record"))
}

/// Whether the operand at an index is written by its place: a converter's output, the last
/// operand of a program given its input by option (`ffmpeg -i … out.mp4`), or a recorder's
/// path.
fn written_operands<'c>(
    c: &'c Cmd<'_>,
    ctx: &Context,
    recorder: bool,
) -> impl Fn(usize) -> bool + 'c {
    let converted = converter_output(c, ctx).or_else(|| disk_last(c, ctx));
    // The last word is an operand, not the value of the option before it (`-sd /home/dev`).
    // Nor a disc, the input itself given last (`dvdbackup -i /dev/sr0`); a disk given so
    // stays in doubt (`mksysb -i /dev/hdisk0` writes the system's image to it).
    let disc_last = c
        .args
        .last()
        .and_then(|a| a.text.as_deref())
        .is_some_and(|t| target(t, ctx) == Some(Target::Removable));
    let flag_before_last = c.args.len() >= 2
        && c.args[c.args.len() - 2].text.as_deref().is_some_and(|t| {
            t.starts_with('-') && !t.contains('=') && t.trim_start_matches('-').len() >= 2
                || disc_last && matches!(t, "-i" | "--input" | "-input")
        });
    let last_is_output = c
        .option_words()
        .any(|w| matches!(w, "-i" | "--input" | "-input"))
        && !flag_before_last
        && !saves(c)
        && c.args.last().is_some_and(|a| {
            a.text
                .as_deref()
                .is_some_and(|t| !t.starts_with('-') && !t.contains('='))
        });
    // Its input named by option, a disk given to another option is where the output goes
    // (`SvtAv1EncApp -i clip.y4m -b /dev/nvme0n1 --preset 8`), unless that option says it is
    // read (`--config`, `--key`).
    let input_by_option = c.args.windows(2).any(|w| {
        w[0].text
            .as_deref()
            .is_some_and(|f| matches!(f, "-i" | "--input" | "-input"))
            && w[1]
                .text
                .as_deref()
                .is_some_and(|v| !v.starts_with('-') && target(v, ctx).is_none())
    });
    let disk_output = (1..c.args.len()).find(|&n| {
        input_by_option
            && c.args[n - 1].text.as_deref().is_some_and(|f| {
                f.starts_with('-')
                    && !f.contains('=')
                    && !matches!(f, "-i" | "--input" | "-input" | "--")
                    && !reads_from(&words::parts(f))
            })
            && c.args[n]
                .text
                .as_deref()
                .is_some_and(|t| target(t, ctx) == Some(Target::Device))
    });
    let imaged = image_onto_disk(c, ctx);
    let clobbered = clobbered_operand(c);
    move |n| {
        last_is_output && n + 1 == c.args.len()
            || disk_output == Some(n)
            || clobbered == Some(n)
            || imaged == Some(n)
            || converted == Some(n)
            || recorder
                && c.args[n]
                    .text
                    .as_deref()
                    .is_some_and(|t| operand(t) && t.contains('/'))
    }
}

/// Told to write over what is there (`clobber=yes`, `overwrite=true`, as HEASoft's and
/// IRAF's tasks take it): the last operand, where such tasks put their output, is written
/// (`ftmerge @list.txt /dev/sda clobber=yes`). Its index.
fn clobbered_operand(c: &Cmd<'_>) -> Option<usize> {
    let told = c.words().any(|w| {
        w.split_once('=').is_some_and(|(k, v)| {
            let key = k.rsplit(['.', '_']).next().unwrap_or(k);
            (key.eq_ignore_ascii_case("clobber") || key.eq_ignore_ascii_case("overwrite"))
                && ["yes", "y", "true", "1", "on"]
                    .iter()
                    .any(|t| v.eq_ignore_ascii_case(t))
        })
    });
    if !told {
        return None;
    }
    (0..c.args.len())
        .rev()
        .find(|&i| c.args[i].text.as_deref().is_some_and(operand))
}

/// A disk image of the project (`build/data.iso`, `out.img`) handed over beside a disk, as a
/// burner or a writer takes them (`cdrskin dev=stdio:/dev/sda build/data.iso`, `foo --device
/// /dev/sda build/os.img`): the image is written onto the disk. Not an image named as where
/// the output goes (`-o build/disk.img /dev/sda` copies the disk into it). The disk's index.
fn image_onto_disk(c: &Cmd<'_>, ctx: &Context) -> Option<usize> {
    let image = c.args.iter().enumerate().position(|(i, a)| {
        a.text.as_deref().is_some_and(|t| {
            // The extension first: resolving a project file is the dearer look.
            !t.contains('=')
                && std::path::Path::new(t)
                    .extension()
                    .is_some_and(|e| firmware_or_disk_image(&e.to_string_lossy()))
                && project_file(t, ctx)
                && (i == 0 || after_flag_read(&c.args[i - 1], t, ctx, false))
        })
    });
    let image = image?;
    // The disk as a device's setting (`dev=`, `--device`, `--drive`), or after the image
    // (by the convention that the output comes last); a disk before it is read into it.
    let device_word = |w: &str| {
        words::parts(w.trim_start_matches('-'))
            .iter()
            .any(|p| matches!(p.as_str(), "dev" | "device" | "drive" | "disk" | "target"))
    };
    (0..c.args.len()).find(|&n| {
        let Some(t) = c.args[n].text.as_deref() else {
            return false;
        };
        let (key, value) = t.split_once('=').map_or(("", t), |(k, v)| (k, v));
        // Any option's value but an input's (`stcgal -p /dev/sda build/fw.hex`: the port
        // the image is written through).
        target(value, ctx) == Some(Target::Device)
            && (!key.is_empty() && device_word(key)
                || key.is_empty()
                    && n > 0
                    && c.args[n - 1].text.as_deref().is_some_and(|f| {
                        f.starts_with('-')
                            && (device_word(f) || !reads_from(&words::parts(f)) && f != "-i")
                    })
                || key.is_empty() && n > image)
    })
}

/// A word's value as the place it names, and whether it is written there: a programmer's
/// `read:FILE:…`, a format or a table, a volume's source, a disk given as where a program
/// keeps its data (`--db-filename /dev/nvme0n1`, a VM's `--disk path=/dev/nvme0n1`,
/// `--backing-store /dev/sda`).
fn settled(value: String, output: bool, store: bool, ctx: &Context) -> (String, bool) {
    let (value, output) = match read_into(&value) {
        Some(path) => (path.to_string(), true),
        None => (value, output),
    };
    let value = format_or_table(value, output, ctx);
    let value = volume_source(&value, ctx).unwrap_or(value);
    match stored_disk(&value, store, ctx) {
        Some(disk) => (disk, true),
        None => (value, output),
    }
}

/// A programmer's command that reads memory out into a file, as `VERB:FILE[:ADDR:LEN]`
/// (`sam-ba … -c read:/dev/nvme0n1:0x0:0x100000`): the file is written.
fn read_into(value: &str) -> Option<&str> {
    let (verb, rest) = value.split_once(':')?;
    if !matches!(
        verb.to_ascii_lowercase().as_str(),
        "read" | "dump" | "save" | "backup" | "readmem"
    ) || !rest.starts_with('/')
    {
        return None;
    }
    Some(rest.split(':').next().unwrap_or(rest))
}

/// The words that give a URL's path, not a file's (`--url /`, `--base-url=/docs`): the
/// indices of an option's value, or of the option holding it.
fn web_paths(c: &Cmd<'_>) -> Vec<usize> {
    let url = |flag: &str| {
        flag.starts_with('-')
            && (words::holds(flag, "ur") || words::holds(flag, "href"))
            && words::parts(flag)
                .iter()
                .any(|p| matches!(p.as_str(), "url" | "uri" | "href" | "baseurl"))
    };
    let mut out = Vec::new();
    for (n, a) in c.args.iter().enumerate() {
        let Some(w) = a.text.as_deref() else { continue };
        match w.split_once('=') {
            Some((f, _)) if url(f) => out.push(n),
            None if url(w) => out.push(n + 1),
            _ => {}
        }
    }
    out
}

/// An image written whole onto a device: a disk's (`.iso`, `.img`, `.raw`, `.wic`, `.dd`) or
/// a chip's firmware (`.hex`, `.bin`, `.elf`, `.ihx`, `.uf2`).
pub(super) fn firmware_or_disk_image(ext: &str) -> bool {
    matches!(
        ext.to_ascii_lowercase().as_str(),
        "iso" | "img" | "raw" | "wic" | "dd" | "hex" | "bin" | "elf" | "ihx" | "uf2"
    )
}

/// The targets among `c`'s words: operands, `--opt=VALUE`, `NAME=VALUE`, and the values of
/// output options.
pub(super) fn of(c: &Cmd<'_>, ctx: &Context) -> Vec<Found> {
    let mut out = Vec::new();
    // What the word before asked of the next one: an output, a name, a directory, a read, a value.
    let (mut output_next, mut named_next, mut into_next) = (false, false, false);
    let (mut read_next, mut option_next, mut store_next) = (false, false, false);
    // After an option of exclusion, its pattern ([`excluded`]).
    let mut excluded_next = false;
    // Brought in and written down: the destination, and an option naming a place, is written.
    let transfer = transfer_verb(c);
    let destination = transfer
        .and_then(|v| transfer_destination(c, v))
        .or_else(|| redirected(c));
    // Told to change its files in place (`prettier --write`, `ruff --fix`, `mlr -I`): every
    // place it is given is written to.
    let in_place = c
        .args
        .iter()
        .any(|a| a.text.as_deref().is_some_and(rewrites_in_place));
    let recorder = recorder(c);
    let written = written_operands(c, ctx, recorder);
    let web = web_paths(c);
    let mounts = mounts(c, ctx);
    for (n, a) in c.args.iter().enumerate() {
        if web.contains(&n) {
            continue;
        }
        let last = written(n);
        let destined = destination == Some(n) && receives(a, ctx);
        // For a program nobody models, a file of a directory that matters named by a name
        // only the shell knows is named all the same (`-F /boot/vmlinuz-$(uname -r)`), unless
        // the line says its output goes here.
        let Some(w) = word_text(a, ctx)
            .or_else(|| dynamic_output(a, output_next))
            .or_else(|| dynamic_name(&a.raw).filter(|_| names_dynamic_places(c, ctx)))
            .filter(|w| !excluded(w, &mut excluded_next))
        else {
            (output_next, named_next, into_next, option_next) = (false, false, false, false);
            continue;
        };
        let mut by_option = std::mem::take(&mut option_next);
        let output = std::mem::take(&mut output_next);
        let named = std::mem::take(&mut named_next);
        let mut into = std::mem::take(&mut into_next);
        let mut read_key = std::mem::take(&mut read_next);
        let mut store = std::mem::take(&mut store_next);
        let (value, output, named) = if w.starts_with('-') {
            let (flag, value) = flag_and_value(&w, ctx);
            let flag = flag.as_ref();
            // `--config /etc/x.yml`, `--module /usr/lib/…so`: what the option names is read.
            let ps = words::parts(flag);
            let reads = reads_from(&ps);
            read_key = flag.len() > 2 && reads;
            let next = c.args.get(n + 1).and_then(|a| a.text.as_deref());
            let names_output = output_flag(flag, true)
                || value.is_none() && writes_next(flag, next, n > 0, more_than_disks(c, n + 2, ctx), ctx)
                || flag == "-w" && value.is_some()
                // A chip's memory read out goes to the file named (`pymcuprog read … -f
                // FILE`).
                || matches!(flag, "-f" | "--file") && words::reads_out(c)
                || recorder && matches!(flag, "-f" | "--file")
                || !reads
                    && (product_option(&ps)
                        || transfer.is_some()
                            && ps.last().is_some_and(|p| PLACES.contains(&p.as_str())));
            let directory = names_output && directory_option(flag, &ps);
            store = !reads && flag.starts_with("--") && holds_data(&ps);
            let Some(v) = value else {
                store_next = store;
                output_next = names_output;
                named_next = names_output && !DIRECTORY_SHORT.contains(&flag);
                into_next = directory;
                read_next = read_key && !names_output;
                option_next = flag != "--";
                continue;
            };
            into = directory;
            by_option = true;
            let named = names_output && !DIRECTORY_SHORT.contains(&flag);
            (v.to_string(), names_output, named)
        } else if let Some((k, v)) = w.split_once('=')
            && let Some(k) = setting_key(k)
        {
            // `of=/dev/sda`, `out=…`: an operand whose key names an output (dd's style, and
            // the imaging tools that copy it); `O=` as the Java toolkits take their output
            // beside `I=` (`SortSam I=in.bam O=out.bam`); `to=` beside `from=`, as ISIS's
            // planetary tasks take both (`pds2isis from=a.IMG to=b.cub`).
            let key_output = matches!(k, "of" | "O" | "to") || key_names_output(k) || written(n);
            read_key = matches!(k, "if" | "in" | "input" | "src" | "source");
            (v.to_string(), output || key_output, named || key_output)
        } else {
            let twice = given_twice(c, &w);
            (
                w.clone(),
                output || in_place || last || destined || twice,
                output && named || destined || twice,
            )
        };
        let (value, output) = settled(value, output, store, ctx);
        let value = host_side(value, &mounts, ctx);
        out.extend(listed_output(&value, ctx));
        out.extend(settings_in(&value, ctx));
        if let Some(t) = target(&value, ctx).filter(|t| output || *t != Target::Elsewhere) {
            out.push(Found {
                word: value,
                target: t,
                output,
                named,
                into,
                read: read_key || disc_input(c, n, t),
                rewritten: in_place && !w.starts_with('-') && !w.contains('='),
                by_option,
            });
        }
    }
    out.extend(internal_programmer(c));
    out
}

/// A firmware written through the programmer that is this machine's own flash chip
/// (`bios flash --image F --programmer internal`, as `flashrom -p internal`): this machine's
/// firmware is what is written, whatever the image.
fn internal_programmer(c: &Cmd<'_>) -> Option<Found> {
    // Every command comes here: the word `internal` first.
    if !c.words().any(|w| w.ends_with("internal")) {
        return None;
    }
    let words: Vec<&str> = c.option_words().collect();
    let (flag, _) = super::option_pairs(&words).find(|(flag, value)| {
        (*value == Some("internal") || flag.ends_with("=internal"))
            && words::parts(flag.split('=').next().unwrap_or(flag))
                .iter()
                .any(|p| matches!(p.as_str(), "programmer" | "interface" | "chip" | "flasher"))
    })?;
    let firmware = c.words().any(|w| {
        ["firmware", "bios", "uefi", "bootloader", "flash", "rom"]
            .iter()
            .any(|n| words::holds(w, n))
    });
    // Written, not read out (`bios read --programmer internal -o F` is a backup).
    let writes = words::subcommands(c).iter().any(|w| {
        words::parts(w).iter().any(|p| {
            matches!(
                p.as_str(),
                "write" | "flash" | "update" | "upgrade" | "program" | "burn" | "erase"
            )
        })
    });
    (firmware && writes && !words::looks(c))
        .then(|| Found::written(flag.to_string(), Target::Firmware))
}

/// An option's name and its value, given after `=` or glued to a short flag; a scoped
/// setting's name is its own last part ([`scoped_setting`]).
fn flag_and_value<'w>(w: &'w str, ctx: &Context) -> (std::borrow::Cow<'w, str>, Option<&'w str>) {
    let (flag, value) = match w.split_once('=') {
        Some((f, v)) => (f, Some(v)),
        None => glued(w, ctx).map_or((w, None), |(f, v)| (f, Some(v))),
    };
    match scoped_setting(flag) {
        Some(own) => (own.into(), value),
        None => (flag.into(), value),
    }
}

/// The setting a scoped option names, as an option of its own (`--config:controler.outputDirectory`
/// → `--outputDirectory`), when its name holds a scope's `:` or `.` (not a file's extension:
/// the last part is a word of three letters or more).
fn scoped_setting(flag: &str) -> Option<String> {
    let bare = flag.trim_start_matches('-');
    let at = bare.rfind([':', '.'])?;
    let last = &bare[at + 1..];
    (at > 0 && last.len() >= 3 && last.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .then(|| format!("--{last}"))
}

/// Whether a transfer's destination is written: a directory given as where things land
/// receives them, and is not replaced: `/`, home and the project's ancestors are named there
/// (a junction), not written over; a system file is.
fn receives(a: &Arg, ctx: &Context) -> bool {
    a.text.as_deref().is_some_and(|t| {
        !matches!(
            target(t, ctx),
            Some(Target::Root | Target::Home | Target::Ancestor | Target::SystemDir)
        )
    })
}

/// Whether `w` is an option of exclusion or what one is given: a pattern the program leaves
/// alone (`kcov --exclude-pattern=/usr/include`, `--ignore "/*"`), not a place it works on.
fn excluded(w: &str, excluded_next: &mut bool) -> bool {
    if std::mem::take(excluded_next) {
        return true;
    }
    let Some(rest) = w.strip_prefix('-') else {
        return false;
    };
    let flag = excludes(rest.split('=').next().unwrap_or(rest));
    *excluded_next = flag && !w.contains('=');
    flag
}

/// Whether an option's name says its value is excluded (`--exclude`, `--ignore`,
/// `--exclude-pattern`, `--ignore-dir`): exclusion alone, or with the kind of pattern it takes;
/// not a switch that only mentions it (`--ignore-errors`, `--exclude-from-sync`).
fn excludes(flag: &str) -> bool {
    let ps = words::parts(flag);
    ps.first()
        .is_some_and(|f| matches!(f.as_str(), "exclude" | "ignore"))
        && (ps.len() == 1
            || ps.len() == 2
                && matches!(
                    ps[1].as_str(),
                    "pattern" | "patterns" | "dir" | "dirs" | "path" | "paths" | "glob" | "regex"
                ))
}

/// A disc or tape given as the input (`dvdbackup -i /dev/sr0`): it is read.
fn disc_input(c: &Cmd<'_>, n: usize, t: Target) -> bool {
    t == Target::Removable
        && n > 0
        && matches!(
            c.args[n - 1].text.as_deref(),
            Some("-i" | "--input" | "-input")
        )
}

/// Whether a flag without `=` writes the word after it: `-w` with a file's name (`pico2wave -w
/// /srv/a.wav`; with a directory it is where a program works, `-w /app`), and `--read` given
/// a whole disk (a programmer's read of its chip goes to the file the flag names, `cc-tool
/// --read FILE`; nothing reads a disk by that flag).
///
/// And `-l`/`-L` after the first word given a whole disk or a boot file: a log is written
/// there (`udpxy -p 4022 -l /dev/sda`, `db_checkpoint -h env -L /boot/grub/grub.cfg`). First,
/// it is the list convention for a disk alone (`fdisk -l DEV`) and a loader's for a boot file
/// (`kexec -l /boot/vmlinuz …`), but a disk with more after it is a log again (`pffexport -l
/// DISK -t DIR FILE`; `more`: something other than disks follows, [`more_than_disks`]).
fn writes_next(flag: &str, next: Option<&str>, later: bool, more: bool, ctx: &Context) -> bool {
    let Some(v) = next else {
        return false;
    };
    match flag {
        "-l" | "-L" => match target(v, ctx) {
            Some(Target::Device) => later || more,
            Some(Target::Firmware) => later,
            _ => false,
        },
        "-w" => std::path::Path::new(v).extension().is_some_and(|e| {
            e.len() <= 5
                && e.to_string_lossy()
                    .chars()
                    .any(|ch| ch.is_ascii_alphabetic())
        }),
        // A one-letter `-r` given a whole disk: a read or a recording goes to it (`ch341prog
        // -r /dev/sda`, `airspy_rx -r /dev/sda`); nothing recurses into a disk.
        "--read" | "-read" | "-r" => target(v, ctx) == Some(Target::Device),
        _ => false,
    }
}

/// The name of a `KEY=VALUE` operand's key, if it is one: letters, digits and `_`, and a key
/// in a scope read by its last name (`mtz.hklout=FILE`, as PHIL and Hydra settings are
/// written).
fn setting_key(key: &str) -> Option<&str> {
    (key.chars()
        .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '.'))
        && !key.starts_with('.'))
    .then(|| key.rsplit('.').next().unwrap_or(key))
}

/// Whether a word from `from` on is something other than a disk (`fdisk -l /dev/sda /dev/sdb`
/// lists two disks; `pffexport -l /dev/sda -t DIR FILE` goes on).
fn more_than_disks(c: &Cmd<'_>, from: usize, ctx: &Context) -> bool {
    c.args.iter().skip(from).any(|a| {
        a.text
            .as_deref()
            .is_none_or(|t| target(t, ctx) != Some(Target::Device))
    })
}

/// A short option with its value attached (`-o/srv/restore`): an output option's, or any
/// option's when the value is one of the system's tables (`cscope -b -f/etc/passwd`) or a whole
/// disk (`ckpdb -m/dev/sda`). (`get`: the second character may be any letter of any width.)
fn glued<'w>(w: &'w str, ctx: &Context) -> Option<(&'w str, &'w str)> {
    let flag = w.get(..2).filter(|_| w.len() > 2 && !w.starts_with("--"))?;
    // `-wFILE` writes it as `-w FILE` does (`sidplayfp -w/dev/sda`).
    if matches!(w.as_bytes()[2], b'/' | b'~' | b'.')
        && (OUTPUT_SHORT.contains(&flag)
            || flag == "-w"
            || flag.as_bytes()[1].is_ascii_alphabetic()
                && (system_table(&w[2..], ctx)
                    || w[2..].starts_with("/dev/") && target(&w[2..], ctx) == Some(Target::Device)))
    {
        return Some((flag, &w[2..]));
    }
    // Two letters before a table (`pk2cmd -GF/etc/passwd`: a function and its file).
    let flag = w.get(..3).filter(|f| {
        f.as_bytes()[1..].iter().all(u8::is_ascii_alphabetic) && w.as_bytes().get(3) == Some(&b'/')
    })?;
    system_table(&w[3..], ctx).then(|| (flag, &w[3..]))
}

/// Parts of an option's name that say its value is where a program keeps its data: a
/// database, a store, a guest's disk or drive, a target's backing store.
fn holds_data(parts: &[String]) -> bool {
    const STORES: &[&str] = &[
        "backing",
        "database",
        "datastore",
        "db",
        "disk",
        "drive",
        "storage",
        "store",
    ];
    parts.iter().any(|p| STORES.contains(&p.as_str()))
}

/// The disk a data option's value names, alone or as its `path=`/`file=` setting.
fn stored_disk(value: &str, store: bool, ctx: &Context) -> Option<String> {
    if !store || !value.contains("/dev/") {
        return None;
    }
    let path = match value.split_once('=') {
        Some(("path" | "file" | "filename" | "dev" | "device", v)) => {
            v.split(',').next().unwrap_or(v)
        }
        Some(_) => return None,
        None => value,
    };
    (target(path, ctx) == Some(Target::Device)).then(|| path.to_string())
}

/// The place a volume is made of, in the `SOURCE:MOUNT[:FLAGS]` form servers and runtimes
/// take (`-v /home/dev::rwmd`, `-v /:/host`): `/`, home, a system directory or an ancestor of
/// the project is given as surely as alone.
fn volume_source(value: &str, ctx: &Context) -> Option<String> {
    let (source, _) = value.split_once(':')?;
    // Not a build label (`//:app`, `//src:lib`).
    (source.starts_with(['/', '~'])
        && !source.starts_with("//")
        && !value.contains("://")
        && target(source, ctx).is_some_and(Target::critical))
    .then(|| source.to_string())
}

/// An output's value without its format ([`format_named`]); any option's, when what the
/// format names is one of the system's tables (`-F json:/etc/passwd`).
fn format_or_table(value: String, output: bool, ctx: &Context) -> String {
    if output {
        return format_named(value);
    }
    let named = format_named(value.clone());
    if named != value && system_table(&named, ctx) {
        named
    } else {
        value
    }
}

/// An output named with its format first (`-o mboxrd:/etc/passwd`, `--out json:~/x`), or as
/// a setting of a file (`-o file_output.filename=/etc/passwd`): the path after the format's or
/// the setting's name. Not a URL (`https://…`).
fn format_named(value: String) -> String {
    // The setting's last word names the file (`filename`, not `media_dirs`); a list of
    // settings (`type=local,dest=…`) is `listed_output`'s.
    if let Some((key, path)) = value.split_once('=')
        && path.starts_with(['/', '~'])
        && !key.contains(',')
        && words::parts(key).last().is_some_and(|p| {
            matches!(
                p.as_str(),
                "file" | "filename" | "path" | "output" | "log" | "logfile"
            )
        })
    {
        return path.to_string();
    }
    match value.split_once(':') {
        Some((format, path))
            if (2..=16).contains(&format.len())
                && format.starts_with(|c: char| c.is_ascii_alphabetic())
                && format
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'_'))
                && path.starts_with(['/', '~'])
                && !path.starts_with("//") =>
        {
            path.to_string()
        }
        _ => value,
    }
}

/// Given twice as an operand, a file is read and written back (`bspatch F F patch`, `pdal
/// translate F F`): rewritten in place. Not a mount's source and target (`--ro-bind / /`).
fn given_twice(c: &Cmd<'_>, w: &str) -> bool {
    let mapped = || {
        c.args.windows(2).any(|pair| {
            pair[1].text.as_deref() == Some(w)
                && pair[0].text.as_deref().is_some_and(|f| {
                    f.starts_with('-')
                        && words::parts(f).iter().any(|p| {
                            matches!(p.as_str(), "bind" | "mount" | "volume" | "map" | "link")
                        })
                })
        })
    };
    w.contains('/')
        && c.args
            .iter()
            .filter(|b| b.text.as_deref() == Some(w))
            .count()
            >= 2
        && !mapped()
}

/// A list of settings in one value (`--output type=local,dest=/`): the piece whose key names
/// an output is where the program writes.
fn listed_output(value: &str, ctx: &Context) -> Option<Found> {
    if !value.contains(',') || target(value, ctx).is_some() {
        return None;
    }
    let dest = value.split(',').find_map(|piece| {
        let (k, v) = piece.split_once('=')?;
        key_names_output(k).then_some(v)
    })?;
    Some(Found {
        word: dest.to_string(),
        target: target(dest, ctx)?,
        output: true,
        named: true,
        into: true,
        read: false,
        rewritten: false,
        by_option: true,
    })
}

/// The settings one word holds, chained by colons or spaced ([`chained_settings`],
/// [`spaced_settings`]).
fn settings_in(value: &str, ctx: &Context) -> Vec<Found> {
    let mut found = chained_settings(value, ctx);
    found.extend(spaced_settings(value, ctx));
    found.extend(comma_listed(value, ctx));
    found
}

/// A place among a comma-separated list of one word (`-s 3,virtio-blk,/dev/nda0`, a VM's
/// disk given by slot and kind): the program is given it as surely as alone.
fn comma_listed(value: &str, ctx: &Context) -> Vec<Found> {
    if !value.contains(',') || value.contains(char::is_whitespace) || value.contains("://") {
        return Vec::new();
    }
    value
        .split(',')
        .filter(|piece| piece.starts_with('/') && !piece.contains('='))
        .filter_map(|piece| {
            let t = target(piece, ctx).filter(|t| t.critical())?;
            let mut found = Found::named_as(piece.to_string(), t);
            found.by_option = true;
            Some(found)
        })
        .collect()
}

/// Whether a setting's key names where output goes (`of`'s kin: `dest`, `out_dir`,
/// `outfile`; not `root`, which names what a program works in).
fn key_names_output(key: &str) -> bool {
    // A wrapper is a program the tool writes there (`git_wrapper=/usr/bin/sudo`).
    let lower = key.to_ascii_lowercase();
    words::parts(key)
        .iter()
        .any(|p| OUTPUT_PARTS.contains(&p.as_str()) && p != "root" || p == "wrapper")
        // Or `out` joined after what is written (`msout=`, `hklout=`, as radio astronomy's
        // and crystallography's tasks take it; not `layout=`, `stdout=`, `timeout=`).
        || joined_out(std::slice::from_ref(&lower))
        || lower.strip_suffix("out").is_some_and(|n| {
            (2..=3).contains(&n.len()) && !matches!(n, "lay" | "std" | "log" | "time")
        })
}

/// Settings chained by colons in one word, as media filters and sinks take them
/// (`httpout:port=8080:rdirs=/home/dev`, `fout:dst=/etc/passwd`): each setting's value is a
/// place the program is given, an output when its key names one. Not a URL, and not a plain
/// `KEY=VALUE` (read whole by the caller).
fn chained_settings(value: &str, ctx: &Context) -> Vec<Found> {
    if !value.contains(':') || !value.contains('=') || value.contains("://") {
        return Vec::new();
    }
    value
        .split(':')
        .filter_map(|piece| {
            let (k, v) = piece.split_once('=')?;
            if k.is_empty() || !k.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_') {
                return None;
            }
            let t = target(v, ctx).filter(|t| *t != Target::Elsewhere)?;
            let mut found = Found::named_as(v.to_string(), t);
            found.output = key_names_output(k);
            found.by_option = true;
            Some(found)
        })
        .collect()
}

/// Settings inside one argument of several words, as a media pipeline takes them (`-vs
/// "filesink location=/dev/nvme0n1"`, `"filesrc location=/home/dev/x.mp4 ! decodebin"`) or
/// a command language its parameters (`"RMVDIR DIR('/home/dev') SUBTREE(*ALL)"`):
/// each setting's value is a place the program is given, and an output when its key names
/// one or its element is a sink.
fn spaced_settings(value: &str, ctx: &Context) -> Vec<Found> {
    let spaced = value.contains(char::is_whitespace) && value.contains('=');
    if !(spaced || value.ends_with(')') && value.contains('(')) {
        return Vec::new();
    }
    let mut element = "";
    let mut out = Vec::new();
    for w in value.split(|c: char| c.is_whitespace() || c == '!') {
        // Or a parameter as a command language writes it (`RMVDIR DIR('/home/dev')`).
        let setting = w
            .split_once('=')
            .or_else(|| w.strip_suffix(')').and_then(|inner| inner.split_once('(')));
        let Some((k, v)) = setting else {
            if !w.is_empty() {
                element = w;
            }
            continue;
        };
        if k.is_empty()
            || !k
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '-')
        {
            continue;
        }
        let v = v.trim_matches(['"', '\'']);
        let Some(t) = target(v, ctx).filter(|t| *t != Target::Elsewhere) else {
            continue;
        };
        let mut found = Found::named_as(v.to_string(), t);
        found.output = element.to_ascii_lowercase().ends_with("sink") || key_names_output(k);
        found.by_option = true;
        // A device named only as a setting is what the program is told of (a kernel's
        // `root=/dev/mmcblk0p2` among boot arguments), not what it writes.
        if found.output || !t.device_like() {
            out.push(found);
        }
    }
    out
}

/// `-d DIR`, `-C DIR`, `--root DIR`: a directory things are put into or served from. (A
/// builder's `--site-dir`, `--output-dir` is its own tree, emptied first.)
fn directory_option(flag: &str, parts: &[String]) -> bool {
    DIRECTORY_SHORT.contains(&flag) || flag.starts_with("--") && parts.iter().any(|p| p == "root")
}

/// What a path under `/dev/` (its part after `/dev/`) is: a disk or raw device, a removable
/// medium, or nothing that matters (`null`, a terminal, a camera).
fn device_kind(dev: &str) -> Option<Target> {
    let head = dev.split('/').next().unwrap_or(dev);
    // A disk named as USB-attached (`/dev/disk/by-id/usb-SanDisk_…`) is a removable one,
    // not this machine's: what is written to it is a person's call, as with any
    // external device.
    // So is an optical drive's disc: reading it (a CD ripped) or writing one touches no
    // disk of this machine.
    // And a tape drive's tape (`/dev/nst0`, `/dev/st0`): a medium, not this machine's disk.
    let tape = ["st", "nst"].iter().any(|k| {
        head.strip_prefix(k)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    let optical = tape
        || ["sr", "cdrom", "cdrw", "dvd"]
            .iter()
            .any(|k| head.starts_with(k));
    if head == "disk" && dev.contains("/usb-") || optical {
        return Some(Target::Removable);
    }
    // A loop device is a file's image, not a disk.
    let plain = PLAIN_DEVICES.contains(&head)
        || PLAIN_DEVICE_KINDS.iter().any(|k| head.starts_with(k))
        || head.starts_with("tty")
        || head.starts_with("pts")
        || head.starts_with("loop");
    (!plain).then_some(Target::Device)
}

/// Whether `path` names a whole disk, not a partition (`/dev/sda`, `/dev/nvme0n1`,
/// `/dev/mmcblk0`, macOS' `/dev/disk4` and `/dev/rdisk4`): every file system on it at once.
pub(crate) fn whole_disk(path: &str) -> bool {
    let Some(d) = path.strip_prefix("/dev/") else {
        return false;
    };
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let letter = |s: &str| s.len() == 1 && s.bytes().all(|b| b.is_ascii_lowercase());
    ["sd", "vd", "hd", "xvd"]
        .iter()
        .any(|p| d.strip_prefix(p).is_some_and(letter))
        || d.strip_prefix("nvme")
            .and_then(|r| r.split_once('n'))
            .is_some_and(|(a, b)| number(a) && number(b))
        || ["mmcblk", "disk", "rdisk"]
            .iter()
            .any(|p| d.strip_prefix(p).is_some_and(number))
}

/// The file a URL with no host names (`sqlite:////etc/passwd`, `duckdb:///build/x.db`: a
/// database kept in one file, the convention SQLAlchemy and its kin share, where three slashes
/// close the empty host and a fourth starts an absolute path).
pub(super) fn local_url_path(word: &str) -> Option<&str> {
    let (scheme, rest) = word.split_once(":///")?;
    let scheme = scheme.rsplit_once(':').map_or(scheme, |(_, s)| s);
    (!scheme.is_empty()
        && scheme
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'+')
        && !rest.is_empty())
    .then_some(rest)
}

/// The absolute path a remote address names when its host is this machine
/// (`sftp://localhost/boot`, `rsync://127.0.0.1/root`, `dev@[::1]:/usr/local`,
/// `ip6-localhost:/opt`): whatever the program does there, it does to this machine's files.
pub(crate) fn path_on_this_machine(word: &str) -> Option<&str> {
    let (host, path) = if let Some((scheme, rest)) = word.split_once("://") {
        // Protocols that name files by their paths (an HTTP path is the server's to map).
        let files = [
            "sftp", "scp", "ssh", "rsync", "ftp", "ftps", "fish", "smb", "cifs", "nfs", "sshfs",
        ];
        if !files.contains(&scheme.to_ascii_lowercase().as_str()) {
            return None;
        }
        let cut = rest.find(['/', '$'])?;
        (&rest[..cut], &rest[cut..])
    } else {
        let (host, path) = match word.find("]:") {
            Some(i) => (&word[..=i], &word[i + 2..]),
            None => word.split_once(':')?,
        };
        (host, path)
    };
    let host = host.rsplit('@').next().unwrap_or(host);
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => host.split(':').next().unwrap_or(host),
    };
    let here = matches!(
        host.to_ascii_lowercase().as_str(),
        "localhost" | "localhost.localdomain" | "ip6-localhost" | "ip6-loopback" | "::1"
    ) || host.strip_prefix("127.").is_some_and(|r| {
        r.split('.').count() == 3 && r.split('.').all(|o| o.parse::<u8>().is_ok())
    });
    (here && path.starts_with(['/', '$', '~'])).then_some(path)
}

/// Whether `path` is a device node a write destroys: a disk, a partition, a volume, any node
/// under `/dev/` that is not a pseudo-device, a terminal or a removable medium
/// (`dd … of=/dev/rcgd0d`, NetBSD's raw encrypted disk).
pub(crate) fn raw_device(path: &str) -> bool {
    path.strip_prefix("/dev/")
        .is_some_and(|d| device_kind(d) == Some(Target::Device))
}

pub(super) fn target(word: &str, ctx: &Context) -> Option<Target> {
    // A local file's URL is its path (`file:///home/dev`, `file:///etc`).
    let word = word
        .strip_prefix("file://")
        .filter(|p| p.starts_with('/'))
        .or_else(|| local_url_path(word))
        .or_else(|| path_on_this_machine(word))
        .unwrap_or(word);
    // A device behind the driver that opens it (`stdio:/dev/sda`, `raw:/dev/sdb`), or last
    // in a colon-separated spec (`disk:avio_stor::disk:/dev/rdisk/disk0`, a guest's disk):
    // the device.
    let word = word
        .split_once(":/dev/")
        .filter(|(driver, _)| {
            driver
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_lowercase())
                && driver
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b':')
        })
        .map_or(word, |(driver, _)| &word[driver.len() + 1..]);
    let word = unclobbered(word);
    // AIX names a disk without `/dev/` to its volume managers (`reducevg rootvg hdisk0`), and
    // installers and volume managers take a disk's bare kernel name (`disklist=sda`,
    // `vxdisksetup -i sda`, Solaris's `c0t0d0s0`).
    if bare_disk(word.split_once('=').map_or(word, |(_, v)| v)) {
        return Some(Target::Device);
    }
    // Or a path that goes down into the project and climbs back out past it
    // (`build/../../../home/dev`), or back to where it started (`build/..`: the project).
    let pathy = word.starts_with('/')
        || word.starts_with('~')
        || word == "."
        || word == ".."
        || word.starts_with("../")
        || word.contains("/..")
            && (crate::paths::climbs_out(word)
                || ctx.resolve(word).is_some_and(|p| p == ctx.places.cwd));
    // Or a path through a link this line made to a protected place (`ln -sfn /etc build/x &&
    // … clean --dir build/x`): the place is where the link points. (A link to a file beside
    // the project, read through, is the program's input: `ln -sf ../data/a.db build/a.db`.)
    if !pathy && !ctx.line.links.is_empty() && !word.contains("://") {
        let through = ctx
            .places
            .resolve(word)
            .is_some_and(|p| ctx.line.links.iter().any(|(link, _)| p.starts_with(link)));
        let place = ctx.resolve(word).filter(|_| through)?;
        return target(&place.to_string_lossy(), ctx).filter(|t| t.critical());
    }
    if !pathy || word.contains("://") {
        return None;
    }
    let p = ctx.resolve(word)?;
    let text = p.to_string_lossy();
    if let Some(dev) = text.strip_prefix("/dev/") {
        return device_kind(dev);
    }
    if [
        "/boot",
        "/efi",
        "/sys/firmware",
        "/sys/power",
        "/proc/sysrq-trigger",
        "/sys/kernel",
    ]
    .iter()
    .any(|f| p.starts_with(f))
    {
        return Some(Target::Firmware);
    }
    match ctx.classify(word) {
        Place::Root => return Some(Target::Root),
        Place::Home => return Some(Target::Home),
        Place::ProjectRoot => return Some(Target::ProjectRoot),
        Place::System if owned_by_packages(&p) => return Some(Target::SystemFile),
        Place::System if p.components().count() <= 3 || documentation(&p) => {
            return Some(Target::SystemDir);
        }
        Place::Inside | Place::Tmp | Place::Unknown => return None,
        _ => {}
    }
    if ctx.holds_project(&p) {
        return Some(Target::Ancestor);
    }
    // A temporary directory itself, as where output goes (`rinoh --output "$TMPDIR"`): new
    // files land among everyone's scratch, nothing is written over.
    let scratch = [
        Some(std::path::Path::new("/tmp")),
        Some(std::path::Path::new("/var/tmp")),
    ]
    .into_iter()
    .chain([ctx.places.tmpdir.as_deref()])
    .flatten()
    .any(|t| p == t);
    if scratch {
        return None;
    }
    // The person's tool caches are made again from what they cache (DESIGN: the agent may
    // write there, as in the project and temporary directories).
    if p.starts_with(ctx.places.home.join(".cache")) && p != ctx.places.home.join(".cache") {
        return None;
    }
    Some(Target::Elsewhere)
}

/// A disk's kernel name without `/dev/`: `hdisk0`, `sda`, `sdb2`, `vdb`, `xvda1`, `nvme0n1`,
/// `nvme0n1p2`, `mmcblk0`, and Solaris's `c0t0d0` with its slice (`c0t0d0s0`).
fn bare_disk(w: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    // The first eight disks (`sda`…`sdh`), or any with its partition's number (`sdk1`): `sdk`
    // and `vdo0` are more often a kit and a volume's name.
    let letters_then_digits = |rest: &str| {
        let letters = rest.bytes().take_while(u8::is_ascii_lowercase).count();
        letters == 1
            && (rest.len() == 1 && (b'a'..=b'h').contains(&rest.as_bytes()[0])
                || rest.as_bytes()[0] <= b'h' && digits(&rest[1..]))
    };
    if let Some(n) = w.strip_prefix("hdisk").or_else(|| w.strip_prefix("mmcblk")) {
        return digits(n.split('p').next().unwrap_or(n));
    }
    if let Some(rest) = w.strip_prefix("nvme") {
        let (ctrl, ns) = rest.split_once('n').unwrap_or((rest, ""));
        return digits(ctrl) && digits(ns.split('p').next().unwrap_or(ns));
    }
    if let Some(rest) = w
        .strip_prefix("xvd")
        .or_else(|| w.strip_prefix("sd"))
        .or_else(|| w.strip_prefix("vd"))
    {
        return letters_then_digits(rest);
    }
    // `c0t0d0`, `c1t2d0s7`: controller, target, disk, slice.
    let mut rest = w;
    for mark in ['c', 't', 'd'] {
        let Some(r) = rest.strip_prefix(mark) else {
            return false;
        };
        let n = r.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &r[n..];
    }
    rest.is_empty() || rest.strip_prefix('s').is_some_and(digits)
}

/// The tables at the top of `/etc` that the base system reads to let anyone log in, to boot,
/// to mount and to resolve names: the files FHS 3.0 (section 3.7) names in `/etc`, and the
/// account shadows and sudo rules beside them. A package's own configuration has a directory
/// or a name of its own (`/etc/nginx/…`, `/etc/minidlna.conf`); these belong to no program.
const SYSTEM_TABLES: &[&str] = &[
    "crontab",
    "environment",
    "exports",
    "fstab",
    "group",
    "gshadow",
    "host.conf",
    "hostname",
    "hosts",
    "hosts.allow",
    "hosts.deny",
    "hosts.equiv",
    "inittab",
    "issue",
    "ld.so.conf",
    "ld.so.preload",
    "login.defs",
    "mailcap",
    "motd",
    "networks",
    "nsswitch.conf",
    "passwd",
    "profile",
    "protocols",
    "resolv.conf",
    "securetty",
    "services",
    "shadow",
    "shells",
    "subgid",
    "subuid",
    "sudoers",
];

/// Whether `word` names one of the base system's tables ([`SYSTEM_TABLES`]). Only a program
/// modelled as a reader reads one on purpose (`cat`, `grep`, `getent`, `diff`); handed to a
/// program nobody models, other than to look, the file is most likely where it writes
/// (`hadd -f /etc/passwd …`, `typst compile doc.typ /etc/hosts`, `-P /etc/passwd` for a pid
/// file), and the machine no longer logs anyone in or boots.
pub(super) fn system_table(word: &str, ctx: &Context) -> bool {
    let word = unclobbered(
        word.strip_prefix("file://")
            .or_else(|| local_url_path(word))
            .unwrap_or(word),
    );
    ctx.resolve(word).is_some_and(|p| {
        p.parent() == Some(std::path::Path::new("/etc"))
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| SYSTEM_TABLES.binary_search(&n).is_ok())
    })
}

/// One of the system's own programs or libraries (`/usr/bin/ssh`, `/usr/lib/systemd/systemd`,
/// `/lib/x86_64-linux-gnu/libc.so.6`): written over, the machine no longer starts or logs in.
/// The data packages keep under `/usr/share` is a system file, not this.
pub(super) fn system_program(word: &str, ctx: &Context) -> bool {
    use std::path::Path;
    let word = unclobbered(
        word.strip_prefix("file://")
            .or_else(|| local_url_path(word))
            .unwrap_or(word),
    );
    ctx.resolve(word).is_some_and(|p| {
        let in_bin = p.parent().is_some_and(|d| {
            ["/bin", "/sbin", "/usr/bin", "/usr/sbin"]
                .iter()
                .any(|b| d == Path::new(b))
        });
        let run_by_system = ["/usr/libexec", "/usr/lib/systemd", "/lib/systemd"]
            .iter()
            .any(|d| p.starts_with(d) && p != Path::new(d));
        let library = ["/lib", "/lib64", "/usr/lib", "/usr/lib64"]
            .iter()
            .any(|d| p.starts_with(d))
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".so") || n.contains(".so."));
        in_bin || run_by_system || library
    })
}

/// A path without the `!` some programs put before an output to say it may be written over
/// (CFITSIO's `'!out.fits'`, read by every FITS tool): the place is the same.
fn unclobbered(word: &str) -> &str {
    word.strip_prefix('!')
        .filter(|w| w.starts_with(['/', '~']))
        .unwrap_or(word)
}

/// Whether `p` is inside (not one of) the trees the system's packages own: configuration,
/// programs and libraries. `/usr/local`, `/opt`, `/srv` and `/var` are the administrator's;
/// but a program everyone runs, in `/usr/local/bin` on everyone's PATH, is the system's too
/// (`go test -c -o /usr/local/bin/go` replaces the toolchain; `-o /usr/local/bin/acme`
/// installs a build of one's own, a junction).
fn owned_by_packages(p: &std::path::Path) -> bool {
    let on_path = p.parent().is_some_and(|d| {
        d == std::path::Path::new("/usr/local/bin") || d == std::path::Path::new("/usr/local/sbin")
    });
    if on_path
        && p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(super::super::known::is_program)
    {
        return true;
    }
    [
        "/etc",
        "/bin",
        "/sbin",
        "/lib",
        "/lib64",
        "/usr/bin",
        "/usr/sbin",
        "/usr/lib",
        "/usr/lib64",
        "/usr/libexec",
        "/usr/share",
    ]
    .iter()
    .any(|d| p.starts_with(d) && p != std::path::Path::new(d))
        && !documentation(p)
        && !crate::code::new_data_file(p)
        // The package managers' own records of what is installed: without them no package
        // can be removed, upgraded or checked.
        || [
            "/var/lib/dpkg",
            "/var/lib/apt",
            "/var/lib/rpm",
            "/var/lib/pacman",
            "/var/lib/dnf",
        ]
        .iter()
        .any(|d| p.starts_with(d))
        || system_programs_state(p)
}

/// Whether `p` is (or is inside) the state or cache directory of a program the system ships
/// (`/var/lib/sudo`, `/var/lib/python`, `/var/cache/ldconfig`): what that program keeps
/// between runs, as the packages' trees hold what it runs. A tool trail does not know keeps
/// its own (`/var/cache/acme`), which stays the administrator's.
fn system_programs_state(p: &std::path::Path) -> bool {
    let mut parts = p
        .components()
        .skip(1)
        .map(|c| c.as_os_str().to_str().unwrap_or_default());
    matches!(
        (parts.next(), parts.next(), parts.next()),
        (Some("var"), Some("lib" | "cache"), Some(name)) if super::super::known::is_program(name)
    )
}

/// Documentation the system never reads (`/usr/share/doc/app/manual.pdf`): a file written
/// there is added to a system directory, not one the system needs replaced.
fn documentation(p: &std::path::Path) -> bool {
    ["/usr/share/doc", "/usr/share/man", "/usr/share/info"]
        .iter()
        .any(|d| p.starts_with(d) && p != std::path::Path::new(d))
}

/// The value of an output option that is another machine's storage: a URL of a scheme that
/// names a remote store (`s3://`, `gs://`, `az://`, `hdfs://`, `sftp://`, `ssh://`,
/// `http(s)://` to a host that is not this one).
pub(super) fn remote_output(c: &Cmd<'_>) -> Option<String> {
    let words: Vec<&str> = c.option_words().collect();
    words.iter().enumerate().find_map(|(i, &w)| {
        let (flag, value) = match w.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f, Some(v)),
            // An operand whose key names an output (`out='jdbc:mysql://db.example.org/s'`,
            // `of=`, `to=`), as the table and imaging tools take it.
            Some((k, v)) if setting_key(k).is_some_and(|k| matches!(k, "out" | "of" | "to")) => {
                ("--out", Some(v))
            }
            _ => (w, words.get(i + 1).copied()),
        };
        let names_output = flag.starts_with('-') && (flag == "-O" || output_flag(flag, false));
        let v = value?.trim_matches(['\'', '"']);
        // A store's scheme (`s3://bucket/…`), or any scheme with a host's name that is not
        // this machine (a database's through its driver, `jdbc:mysql://db.example.org/…`); not
        // a local file's (`sqlite3://data/events.sqlite`).
        let remote = v.split_once("://").is_some_and(|(scheme, rest)| {
            let host = rest.split(['/', ':', '?', '#']).next().unwrap_or_default();
            let host = host.rsplit('@').next().unwrap_or(host);
            matches!(
                scheme,
                "s3" | "s3a"
                    | "gs"
                    | "az"
                    | "abfs"
                    | "abfss"
                    | "hdfs"
                    | "sftp"
                    | "ssh"
                    | "scp"
                    | "ftp"
            ) || scheme != "file"
                && host.contains('.')
                && !host.starts_with("127.")
                && !host.eq_ignore_ascii_case("localhost")
        });
        (names_output && remote).then(|| v.to_string())
    })
}

/// Where a command reaches another machine's service: a URL to a host that is not this one,
/// `user@host`, a connection option (`--host`, `--db`, `--rpc-url`),
/// an environment option naming production (`--app acme-prod`, `--branch production`), or a
/// registry or domain name (`ghcr.io/acme/api:2.4`, `--zone acme.example`).
pub(super) fn remote(c: &Cmd<'_>) -> Option<String> {
    const CONNECTS: &[&str] = &[
        "address",
        "api",
        "cluster",
        "context",
        "controller",
        "database",
        "db",
        "endpoint",
        "host",
        "region",
        "remote",
        "rpc",
        "server",
        "url",
        "zone",
    ];
    const ENVIRONS: &[&str] = &[
        "alias",
        "app",
        "branch",
        "env",
        "environment",
        "org",
        "project",
        "site",
        "stack",
        "track",
        "workspace",
    ];
    let words: Vec<&str> = c.option_words().collect();
    words.iter().enumerate().find_map(|(i, &w)| {
        let hit = || Some(w.to_string());
        if let Some(flag) = w.strip_prefix("--") {
            let (name, value) = match flag.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (
                    flag,
                    words.get(i + 1).copied().filter(|n| !n.starts_with('-')),
                ),
            };
            let ps = words::parts(name);
            let value = value?;
            // (Not an option that says what is done to it: `--host-power hibernate`.)
            let what = ps
                .last()
                .is_some_and(|l| matches!(l.as_str(), "power" | "action" | "state" | "mode"))
                // (Nor one that names a power act on the host: `--restart-host now`.)
                || ps.iter().any(|p| {
                    matches!(
                        p.as_str(),
                        "restart" | "reboot" | "shutdown" | "poweroff" | "halt"
                    )
                });
            if ps.iter().any(|p| CONNECTS.contains(&p.as_str())) && !what && !local_value(value) {
                return hit();
            }
            if ps.iter().any(|p| ENVIRONS.contains(&p.as_str()))
                && words::parts(value)
                    .iter()
                    .any(|p| matches!(p.as_str(), "prod" | "production" | "live"))
            {
                return hit();
            }
            return None;
        }
        if w.starts_with('-') {
            return None;
        }
        (url_elsewhere(w) || user_at_host(w) || domain_like(w) || other_address(w))
            .then(|| w.to_string())
    })
}

/// An IPv4 address of another machine, with or without a port (`192.168.1.75`,
/// `10.0.3.7:25575`): not this one's (`127.…`), nor every interface (`0.0.0.0`), nor a
/// version (`1.2.3.4` has four parts too, but a version rarely stands alone as an operand
/// whose parts all fit a byte and whose first is a private or public network's).
fn other_address(w: &str) -> bool {
    let host = w.split_once(':').map_or(w, |(h, _)| h);
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
        && !matches!(parts[0], "127" | "0")
}

/// For a copy (`copy SRC DEST`, `sync`), only where it writes counts: its last operand.
pub(super) fn remote_destination(c: &Cmd<'_>) -> Option<String> {
    // Where an option says it goes (`--dest "$TMPDIR/docs"`), even as a value only the shell
    // knows; otherwise the last word that is not what it reads (`--source s3://docs`).
    let mut dest: Option<Option<&str>> = None;
    let mut last = None;
    let mut before: Option<&crate::parse::Arg> = None;
    for a in c.args {
        let prev = before.replace(a).and_then(|p| p.text.as_deref());
        if prev.is_some_and(|f| matches!(f, "--dest" | "--destination" | "--to" | "--target")) {
            dest = Some(a.text.as_deref());
        }
        let Some(w) = a.text.as_deref() else { continue };
        if w == "--" {
            break;
        }
        if !w.starts_with('-')
            && !prev.is_some_and(|f| matches!(f, "--source" | "--from" | "--src"))
        {
            last = Some(w);
        }
    }
    let last = match dest {
        Some(d) => d?,
        None => last?,
    };
    (url_elsewhere(last) || user_at_host(last) || domain_like(last)).then(|| last.to_string())
}

/// Whether the command names this machine's own address (`--address localhost:26500`,
/// `http://127.0.0.1:8080`) and no other machine.
pub(super) fn loopback_only(c: &Cmd<'_>) -> bool {
    c.option_words()
        .any(|w| loopback_address(w.split_once('=').map_or(w, |(_, v)| v)))
        && remote(c).is_none()
}

/// Whether a value names this machine (`localhost:26500`, `http://127.0.0.1:8080`, `[::1]`).
pub(super) fn loopback_address(v: &str) -> bool {
    let host = v.split("://").nth(1).unwrap_or(v);
    ["localhost", "127.", "[::1]"]
        .iter()
        .any(|l| host.starts_with(l))
}

fn local_value(v: &str) -> bool {
    let host = v.split("://").nth(1).unwrap_or(v);
    let host = host.rsplit('@').next().unwrap_or(host);
    host.is_empty()
        || v.starts_with("file:")
        || v.starts_with("sqlite")
        || v.starts_with('/')
        || v.starts_with('.')
        || ["localhost", "127.", "0.0.0.0", "[::1]", "::1"]
            .iter()
            .any(|l| host.starts_with(l))
}

fn url_elsewhere(w: &str) -> bool {
    w.split_once("://").is_some_and(|(scheme, rest)| {
        !rest.is_empty()
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'+')
            && !local_value(w)
    })
}

/// The host a word names: past a URL's scheme and a user's `@`, before a port, a path or a
/// query (`tcp://mq-prod.acme.example:61616` → `mq-prod.acme.example`).
pub(super) fn host_of(w: &str) -> &str {
    let h = w.split_once("://").map_or(w, |(_, rest)| rest);
    let h = h.rsplit_once('@').map_or(h, |(_, h)| h);
    h.split(['/', ':', '?']).next().unwrap_or(h)
}

/// Whether a word names another machine: a URL elsewhere, `user@host`, a domain name.
pub(super) fn names_host(w: &str) -> bool {
    url_elsewhere(w) || user_at_host(w) || domain_like(w)
}

/// `deploy@web1`, `admin@db.acme.example:5432`: not an npm scope (`@acme/x`) or a version.
fn user_at_host(w: &str) -> bool {
    w.split_once('@').is_some_and(|(user, host)| {
        // Or in scp's form, with a path after the host (`drop@host.example:/incoming`).
        let host = host.split_once(':').map_or(host, |(h, _)| h);
        !user.is_empty()
            && !host.is_empty()
            && user
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
            && host.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
            && !host.contains('/')
            && !host.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && !w.contains("://")
    })
}

/// Whether `w` names a place on another machine in scp's form, `[USER@]HOST:PATH`
/// (`xfer@aspera.example.org:/incoming`, `dtn.example.org:/data/`): a host that is a domain
/// name or has a user before it, and no scheme.
pub(super) fn scp_destination(w: &str) -> bool {
    let Some((host, _)) = w.split_once(':') else {
        return false;
    };
    let (user, host) = host
        .rsplit_once('@')
        .map_or((None, host), |(u, h)| (Some(u), h));
    !w.contains("://")
        && !host.is_empty()
        && (domain_like(host) || user.is_some_and(|u| !u.is_empty()) && user_at_host(w))
}

/// A domain name, alone or leading a registry path: its last label is a top-level domain.
fn domain_like(w: &str) -> bool {
    const TLDS: &[&str] = &[
        "app", "cloud", "co", "com", "dev", "example", "internal", "io", "net", "org", "sh",
    ];
    let host = w.split(['/', ':']).next().unwrap_or(w);
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
        && labels.last().is_some_and(|t| TLDS.contains(t))
}
