//! The console examples in `commands/*.md` are run against the real binary: the pages cannot
//! drift from what it prints. `TRYCMD=overwrite cargo test --test all command_pages::` rewrites them.

#[test]
fn command_pages() {
    trycmd::TestCases::new()
        .env("NO_COLOR", "1")
        .case("commands/README.md")
        .case("commands/explain.md")
        .case("commands/emulator.md")
        .case("commands/completions.md")
        .case("commands/man.md")
        .case("commands/snapshot.md")
        .case("commands/capture.md")
        .case("commands/plan-chunks.md")
        .case("commands/offsets.md")
        .case("commands/doctor.md")
        .case("commands/signal.md");
}
