//! Disks, and the system files whose loss stops a machine booting or letting anyone in.

use super::Cmd;
use crate::Context;
use crate::parse::Arg;
use crate::paths::Place;

/// A disk device path.
pub(super) fn device(t: &str) -> bool {
    let t = t.trim_matches('"');
    [
        "/dev/sd",
        "/dev/nvme",
        "/dev/vd",
        "/dev/hd",
        "/dev/xvd",
        "/dev/mmcblk",
        "/dev/disk",
        "/dev/md",
        "/dev/mapper",
        "/dev/dm-",
        "/dev/loop",
        "/dev/rdisk",
        // Other systems' and volume managers' names for a disk or a volume on one: Solaris's
        // `dsk`/`rdsk`, VxVM's, ZFS's volumes, network and cache block devices, AIX's disks.
        "/dev/dsk/",
        "/dev/rdsk/",
        "/dev/vx/",
        "/dev/zvol/",
        "/dev/nbd",
        "/dev/rbd",
        "/dev/drbd",
        "/dev/bcache",
        "/dev/cciss/",
        "/dev/pmem",
        "/dev/emcpower",
        "/dev/hdisk",
        "/dev/rhdisk",
        "/dev/ada",
        r"\\.\PhysicalDrive",
    ]
    .iter()
    .any(|d| t.starts_with(d))
}

/// An archiver told to create its archive on a disk (`tar -cvf /dev/sda /work/proj`, `tar
/// --create --file=/dev/nvme0n1 …`): the archive is written over the disk from its first byte.
/// (Reading one back, `tar -xf /dev/nst0`, writes nothing there.)
pub(super) fn archive_to_device(c: &Cmd<'_>) -> bool {
    if !matches!(c.name, "tar" | "bsdtar" | "gtar" | "pax" | "star") {
        return false;
    }
    let words: Vec<&str> = c.words().collect();
    // `tar cvf DEV`, `-cvf DEV`, `--create`: the mode, bundled or spelt out.
    let bundle = |w: &str| {
        let letters = w.strip_prefix('-').unwrap_or(w);
        !w.starts_with("--") && letters.bytes().all(|b| b.is_ascii_alphabetic())
    };
    let creates = words.iter().enumerate().any(|(i, w)| {
        *w == "--create"
            || *w == "--append"
            || (w.starts_with('-') || i == 0)
                && bundle(w)
                && w.contains(['c', 'r', 'u'])
                && (w.starts_with('-') || w.len() <= 6)
    }) || c.name == "pax" && words.contains(&"-w");
    if !creates {
        return false;
    }
    words.iter().enumerate().any(|(i, w)| {
        w.strip_prefix("--file=").is_some_and(device)
            || (*w == "-f" || *w == "--file" || bundle(w) && w.ends_with('f'))
                && words.get(i + 1).is_some_and(|v| device(v))
    })
}

/// A boot loader's text settings (`/boot/config.txt`, `/boot/firmware/cmdline.txt`,
/// `/boot/loader/loader.conf`): a line added to them (`… | sudo tee -a`, `>>`) configures the
/// next boot, as `/etc` is configured, which asks; written over whole, they can leave nothing
/// that boots.
pub(super) fn boot_settings(target: &str) -> bool {
    let t = target.trim_matches(['"', '\'']);
    t.starts_with("/boot/") && [".txt", ".conf", ".cfg"].iter().any(|e| t.ends_with(e))
}

/// Where a downloader saves what it fetches, when told (`curl -o F`, `-sSo F`, `--output F`,
/// `--output=F`, `-oF`; `wget -O F`, `--output-document F`; `http`/`xh --output F`).
pub(super) fn download_target<'c>(c: &'c Cmd<'_>) -> Option<&'c str> {
    let (short, long): (&str, &[&str]) = match c.name {
        "curl" => ("-o", &["--output"]),
        "wget" => ("-O", &["--output-document"]),
        "http" | "https" | "xh" | "xhs" => ("-o", &["--output"]),
        _ => return None,
    };
    let words: Vec<&str> = c.words().collect();
    words.iter().enumerate().find_map(|(i, w)| {
        // Alone, or last of a bundle of short flags (`-sSo F`).
        let bundled = w.len() > 2
            && !w.starts_with("--")
            && w.ends_with(&short[1..])
            && w.get(1..)
                .is_some_and(|r| r.bytes().all(|b| b.is_ascii_alphabetic()));
        if *w == short || bundled || long.contains(w) {
            return words.get(i + 1).copied();
        }
        if let Some((flag, value)) = w.split_once('=')
            && long.contains(&flag)
        {
            return Some(value);
        }
        w.strip_prefix(short)
            .filter(|v| !v.is_empty() && !v.starts_with('-'))
    })
}

/// Where an archiver extracts (`tar -xzf a.tgz -C /etc`, `--directory=/usr`, `unzip a.zip -d
/// /usr/local/bin`, `7z x a.7z -o/etc`): every file of the archive is written there, over
/// what is there. `None` when it only creates or lists.
pub(super) fn extracts_into<'c>(c: &'c Cmd<'_>) -> Option<&'c str> {
    // Two rules ask this of every command: others are turned away before their words are read.
    if !matches!(
        c.name,
        "tar" | "bsdtar" | "gtar" | "unzip" | "7z" | "7za" | "7zz"
    ) {
        return None;
    }
    let words: Vec<&str> = c.words().collect();
    let after = |flag: &str| {
        words.iter().enumerate().find_map(|(i, w)| {
            if *w == flag {
                words.get(i + 1).copied()
            } else {
                w.strip_prefix(flag)
                    .and_then(|v| v.strip_prefix('=').or(Some(v)))
                    .filter(|v| v.starts_with(['/', '~', '$']))
            }
        })
    };
    match c.name {
        "tar" | "bsdtar" | "gtar" => {
            let bundle = |w: &str| {
                let letters = w.strip_prefix('-').unwrap_or(w);
                !w.starts_with("--") && letters.bytes().all(|b| b.is_ascii_alphabetic())
            };
            let extracts = words.iter().enumerate().any(|(i, w)| {
                matches!(*w, "--extract" | "--get")
                    || (w.starts_with('-') || i == 0) && bundle(w) && w.contains('x')
            });
            if !extracts {
                return None;
            }
            after("--directory").or_else(|| after("-C"))
        }
        "unzip" => after("-d"),
        "7z" | "7za" | "7zz" if matches!(words.first(), Some(&("x" | "e"))) => words
            .iter()
            .find_map(|w| w.strip_prefix("-o").filter(|v| v.starts_with('/'))),
        _ => None,
    }
}

/// Partitioning, formatting and wiping tools, minus their read-only uses and image files in
/// temporary directories or the project.
pub(super) fn disk_tool(c: &Cmd<'_>, ctx: &Context) -> bool {
    let on_image_only = || {
        let ops: Vec<&Arg> = c.operands().collect();
        !ops.is_empty()
            && ops.iter().all(|a| {
                !device(&a.raw) && matches!(ctx.classify(&a.raw), Place::Tmp | Place::Inside)
            })
    };
    let listing = c.flag("--list", Some('l')) || c.has("print") || c.has("--print") || c.has("-p");
    match c.name {
        // With nothing named to format it only says its version or its usage (`mkfs.jfs -V`).
        n if n.starts_with("mkfs") || n == "mkswap" || n == "mke2fs" => {
            c.operands().next().is_some() && !on_image_only()
        }
        "wipefs" => {
            !c.has("--no-act")
                && !c.has("-n")
                && c.operands().count() > 0
                && (c.flag("--all", Some('a')) || c.has("-o") || c.has("--offset"))
        }
        "fdisk" | "sfdisk" | "gdisk" | "cfdisk" => {
            !listing && !c.has("-d") && !c.has("--dump") && !c.has("-s") && !on_image_only()
        }
        "sgdisk" => !listing && !c.has("-v") && !on_image_only(),
        "parted" => {
            !listing
                && c.words().any(|w| {
                    matches!(
                        w,
                        "mklabel" | "mkpart" | "rm" | "resizepart" | "mkpartfs" | "rescue"
                    )
                })
        }
        "blkdiscard" => true,
        "cryptsetup" => c
            .words()
            .any(|w| matches!(w, "luksFormat" | "erase" | "luksErase" | "reencrypt")),
        "lvremove" | "vgremove" | "pvremove" => true,
        "mdadm" => c.has("--zero-superblock") || c.has("--create") || c.has("-C"),
        "zpool" => matches!(c.sub(), Some("destroy" | "labelclear" | "create")),
        "zfs" => c.sub() == Some("destroy"),
        "diskutil" => c.words().any(|w| {
            w.starts_with("erase")
                || w.starts_with("partition")
                || w == "zeroDisk"
                || w == "randomDisk"
        }),
        "hdparm" => c
            .words()
            .any(|w| w.starts_with("--security-erase") || w == "--trim-sector-ranges"),
        "nvme" => matches!(c.sub(), Some("format" | "sanitize")),
        "format" | "diskpart" | "Format-Volume" | "Clear-Disk" | "Remove-Partition"
        | "Initialize-Disk" => true,
        _ => false,
    }
}

/// Files whose replacement breaks logging in, booting or privilege: writing over them is a
/// block; other system configuration is a junction (`sensitive-write`).
pub(super) const CRITICAL_SYSTEM_FILES: &[&str] = &[
    "/etc/passwd",
    "/etc/shadow",
    "/etc/group",
    "/etc/gshadow",
    "/etc/sudoers",
    "/etc/fstab",
    "/etc/crypttab",
    "/etc/inittab",
    "/etc/ld.so.preload",
    "/etc/ld.so.conf",
    "/etc/pam.d",
    "/etc/sudoers.d",
    "/etc/ssh/sshd_config",
    "/etc/default/grub",
    "/boot",
    "/bin",
    "/sbin",
    "/usr/bin",
    "/usr/sbin",
    "/lib",
    "/lib64",
    "/usr/lib",
    "/usr/lib64",
    // The system's store of trusted certificate authorities, whole: replaced, every TLS
    // connection trusts what it now holds.
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/pki/ca-trust/extracted",
];

/// Packages no system runs without, by what they are: the C library, the kernel and its
/// boot loader, init, the shell and core utilities, the package manager itself, and what lets
/// anyone log in. Removed, every program (the package manager among them) stops, or the
/// machine does not start again.
const ESSENTIAL_PACKAGES: &[&str] = &[
    "base-files",
    "bash",
    "coreutils",
    "dash",
    "dpkg",
    "glibc",
    "glibc-common",
    "grub",
    "grub-common",
    "grub2",
    "grub2-common",
    "kernel",
    "kernel-core",
    "kernel-generic",
    "kernel-modules",
    "libc-bin",
    "libc6",
    "libpam-modules",
    "libpam-runtime",
    "linux",
    "linux-image-generic",
    "login",
    "musl",
    "pacman",
    "pam",
    "passwd",
    "rpm",
    "shadow",
    "shadow-utils",
    "systemd",
    "systemd-sysv",
    "util-linux",
];

/// A package manager's removal, in any program's words (`xbps-remove -Fy glibc`, `tdnf erase
/// glibc`, `slackpkg remove kernel-generic`), of a package no system runs without.
pub(super) fn removes_essential(c: &Cmd<'_>) -> bool {
    let removal = |w: &str| {
        matches!(
            w,
            "remove"
                | "erase"
                | "purge"
                | "uninstall"
                | "del"
                | "autoremove"
                | "--remove"
                | "--erase"
                | "--purge"
        ) || w.starts_with("-R") && w.len() <= 5 && c.name == "pacman"
    };
    let named = c
        .name
        .split(['-', '_'])
        .any(|p| matches!(p, "remove" | "erase" | "uninstall" | "purge"));
    // The package after the removal's word: a wrapper names the program it runs before its
    // verb (`xargs sudo dpkg --purge …`), and that program is judged on its own.
    let words: Vec<&str> = c.words().collect();
    let Some(from) = (if named {
        Some(0)
    } else {
        words.iter().position(|w| removal(w)).map(|i| i + 1)
    }) else {
        return false;
    };
    words[from..].iter().any(|w| {
        let w = w.split(':').next().unwrap_or(w);
        ESSENTIAL_PACKAGES.binary_search(&w).is_ok() || w.starts_with("linux-image-")
    })
}

/// A signal init takes as a request to go down, sent to process 1 by `kill`: systemd's
/// `SIGRTMIN+3` to `+6` (halt, power off, reboot, kexec) and `+13` to `+16` (the same, at
/// once), its `SIGINT` (ctrl-alt-del: a reboot), sysvinit's `SIGPWR`; by name or by number
/// (`SIGRTMIN` is 34 on Linux).
pub(super) fn signals_init_to_go_down(c: &Cmd<'_>) -> bool {
    let words: Vec<&str> = c.words().collect();
    if words.last() != Some(&"1") {
        return false;
    }
    let signal = words.iter().enumerate().find_map(|(i, w)| match *w {
        "-s" | "--signal" | "-n" => words.get(i + 1).copied(),
        _ => w.strip_prefix('-').filter(|s| !s.is_empty() && *s != "1"),
    });
    let Some(signal) = signal else {
        return false;
    };
    let name = signal.trim_start_matches("SIG").to_ascii_uppercase();
    let rtmin = |offset: u32| matches!(offset, 3..=6 | 13..=16);
    match name.as_str() {
        "INT" | "PWR" | "2" | "30" => true,
        n => n
            .strip_prefix("RTMIN+")
            .and_then(|o| o.parse().ok())
            .or_else(|| n.parse::<u32>().ok().and_then(|k| k.checked_sub(34)))
            .is_some_and(rtmin),
    }
}
