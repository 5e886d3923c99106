//! The file cmdlets in the gate's terms: `Remove-Item` is `rm`, `Get-ChildItem` is `find`,
//! `Get-Content` is `cat`, `Set-Content` is `tee`, `Copy-Item` is `cp`, `Expand-Archive` is
//! `unzip`.

use super::args::{Params, arg_for, dynamic, path, word};
use super::syntax::text_of;
use crate::Context;
use crate::parse::{Arg, Simple};

/// `Remove-Item [-Recurse] PATH…` as `rm [-r] -f PATH…`; fed by the pipeline, what the
/// producer listed.
pub(super) fn remove_item(rest: &[String], producers: &[&Simple], ctx: &Context) -> Vec<Arg> {
    let p = Params::read(rest, &["recurse", "force", "whatif", "confirm"]);
    let mut argv = vec![word("rm")];
    if p.has("recurse", 1) {
        argv.push(word("-r"));
    }
    argv.push(word("-f"));
    let mut paths: Vec<String> = p.positional.clone();
    for k in ["path", "literalpath"] {
        if let Some(v) = p.value(k, 1) {
            paths.extend(v.split(',').map(str::to_string));
        }
    }
    if paths.is_empty() {
        for producer in producers {
            if producer.name() == Some("find") {
                argv.extend(
                    producer
                        .argv
                        .iter()
                        .skip(1)
                        .take_while(|a| !a.raw.starts_with('-'))
                        .cloned(),
                );
            } else {
                argv.push(dynamic("$input"));
            }
        }
    }
    argv.extend(paths.iter().map(|p| path(p, ctx)));
    argv
}

/// `Get-ChildItem PATH` as `find PATH`, with a name filter when one is given.
pub(super) fn list(rest: &[String], ctx: &Context) -> Vec<Arg> {
    let p = Params::read(
        rest,
        &["recurse", "force", "name", "file", "directory", "hidden"],
    );
    let mut argv = vec![word("find")];
    let dir = p
        .value("path", 1)
        .map(str::to_string)
        .or(p.positional.first().cloned())
        .unwrap_or_else(|| ".".into());
    argv.push(path(&dir, ctx));
    if p.value("filter", 2).is_some()
        || p.value("include", 2).is_some()
        || p.positional.len() > 1
        || dir.contains('*')
    {
        argv.push(word("-name"));
        argv.push(word("x"));
    }
    argv
}

/// `Get-Content` as `cat`; the cmdlets that search or describe files as `grep PATTERN`.
pub(super) fn read(name: &str, rest: &[String], ctx: &Context) -> Vec<Arg> {
    let p = Params::read(rest, &["raw", "wait", "simplematch", "recurse"]);
    let mut argv = vec![word(if name == "get-content" { "cat" } else { "grep" })];
    if name != "get-content"
        && let Some(pattern) = p.value("pattern", 2)
    {
        argv.push(arg_for(&text_of(pattern).unwrap_or_default()));
    }
    let mut paths = p.positional.clone();
    if let Some(v) = p.any_value(&["path", "literalpath"], 2) {
        paths.push(v.to_string());
    }
    argv.extend(paths.iter().map(|p| path(p, ctx)));
    argv
}

/// `Set-Content`, `Add-Content`, `New-Item`, `Clear-Content` as `tee [-a] PATH`.
pub(super) fn write(name: &str, rest: &[String], ctx: &Context) -> Vec<Arg> {
    let p = Params::read(rest, &["force", "nonewline", "append"]);
    let target = p
        .any_value(&["path", "filepath"], 1)
        .map(str::to_string)
        .or(p.positional.first().cloned());
    let mut argv = vec![word("tee")];
    if name == "add-content" || p.has("append", 2) {
        argv.push(word("-a"));
    }
    if let Some(t) = target {
        argv.push(path(&t, ctx));
    }
    argv
}

/// `Copy-Item` as `cp`; `Move-Item` and `Rename-Item` as `mv`.
pub(super) fn copy_or_move(name: &str, rest: &[String], ctx: &Context) -> Vec<Arg> {
    let p = Params::read(rest, &["recurse", "force", "container", "passthru"]);
    let mut argv = vec![word(if name == "copy-item" { "cp" } else { "mv" })];
    let mut paths: Vec<String> = p
        .any_value(&["path", "literalpath"], 1)
        .map(|v| vec![v.to_string()])
        .unwrap_or_default();
    paths.extend(p.positional.iter().cloned());
    if let Some(d) = p.any_value(&["destination", "newname"], 1) {
        paths.push(d.to_string());
    }
    argv.extend(paths.iter().map(|p| path(p, ctx)));
    argv
}

/// An archive unpacked: judged as `unzip ARCHIVE -d DEST` (members of any name land beneath
/// DEST; the working directory when none is named).
pub(super) fn expand_archive(rest: &[String], ctx: &Context) -> Vec<Arg> {
    let p = Params::read(rest, &["force", "passthru"]);
    let mut argv = vec![word("unzip")];
    let archive = p
        .any_value(&["path", "literalpath"], 1)
        .map(String::from)
        .or_else(|| p.positional.first().cloned());
    argv.extend(archive.iter().map(|a| path(a, ctx)));
    let dest = p
        .value("destinationpath", 1)
        .map(String::from)
        .or_else(|| p.positional.get(1).cloned())
        .unwrap_or_else(|| ".".into());
    argv.push(word("-d"));
    argv.push(path(&dest, ctx));
    argv
}
