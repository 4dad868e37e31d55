//! Links, other users' directories, FIFOs and modes (the process runs as any user; the
//! ownership case needs root to hand a directory to another user and is skipped otherwise).

use super::*;
use std::os::unix::fs::{symlink, PermissionsExt};

fn mode(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777
}

#[test]
fn a_link_is_refused_and_its_target_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside");
    std::fs::write(&outside, b"precious").unwrap();
    std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).unwrap();
    let link = dir.path().join("capture.lock");
    symlink(&outside, &link).unwrap();
    for r in [
        read_write(&link, Kind::State).map(drop),
        append(&link, Kind::State).map(drop),
        create(&link, Kind::Data).map(drop),
        remove_file(&link),
        read_limited(&link, 100).map(drop),
    ] {
        let e = r.unwrap_err();
        assert_eq!(e.code(), Code::Cdc6301, "{e}");
        assert!(e.to_string().contains("capture.lock"), "{e}");
    }
    assert_eq!(std::fs::read(&outside).unwrap(), b"precious");
    assert_eq!(mode(&outside), 0o644, "not chmod'ed through the link");
    // A directory that is a link.
    let target = dir.path().join("elsewhere");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("tx-1-a.spill"), b"x").unwrap();
    let spill = dir.path().join("spill");
    symlink(&target, &spill).unwrap();
    assert_eq!(ensure_dir(&spill).unwrap_err().code(), Code::Cdc6301);
    assert!(
        target.join("tx-1-a.spill").exists(),
        "nothing deleted outside"
    );
}

#[test]
fn directories_others_control_are_refused_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let open = dir.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let e = ensure_dir(&open).unwrap_err();
    assert_eq!(e.code(), Code::Cdc6303);
    assert!(e.to_string().contains("chmod go-w"), "{e}");
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o770)).unwrap();
    assert_eq!(ensure_dir(&open).unwrap_err().code(), Code::Cdc6303);
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
    ensure_dir(&open).unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, b"").unwrap();
    assert_eq!(ensure_dir(&file).unwrap_err().code(), Code::Cdc6304);
    if euid() == 0 {
        let theirs = dir.path().join("theirs");
        std::fs::create_dir(&theirs).unwrap();
        std::os::unix::fs::chown(&theirs, Some(54321), Some(54321)).unwrap();
        let e = ensure_dir(&theirs).unwrap_err();
        assert_eq!(e.code(), Code::Cdc6302);
        assert!(e.to_string().contains("54321"), "{e}");
    }
}

#[test]
fn created_directories_and_files_are_private_and_a_fifo_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("a/b/state");
    ensure_dir(&d).unwrap();
    assert_eq!(mode(&d), 0o700);
    let f = d.join("segment-000001.jsonl");
    std::fs::write(&f, b"old").unwrap();
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o666)).unwrap();
    drop(read_write(&f, Kind::Data).unwrap());
    assert_eq!(mode(&f), 0o600, "an existing file is made private too");
    write(&d.join("new"), b"x", Kind::Data).unwrap();
    assert_eq!(mode(&d.join("new")), 0o600);
    // The FIFO: refused at once, never blocking.
    let fifo = d.join("ops.jsonl");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    assert_eq!(
        append(&fifo, Kind::State).unwrap_err().code(),
        Code::Cdc6304
    );
    assert_eq!(read_limited(&fifo, 10).unwrap_err().code(), Code::Cdc6304);
    assert_eq!(remove_file(&fifo).unwrap_err().code(), Code::Cdc6304);
    // Too large to read.
    std::fs::write(d.join("big"), vec![b'x'; 11]).unwrap();
    assert_eq!(
        read_limited(&d.join("big"), 10).unwrap_err().code(),
        Code::Cdc6305
    );
    assert_eq!(read_limited(&d.join("big"), 11).unwrap().len(), 11);
}
