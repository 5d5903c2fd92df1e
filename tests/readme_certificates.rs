//! The proof certificates printed in the README are the committed ones
//! (`tests/certificates/`), byte for byte, and every committed 9x9 certificate is
//! printed: the unit tests check the committed files under the rules, so the
//! README's copies hold too.

use crate::markdown;

use std::collections::BTreeMap;
use std::path::Path;

/// The first line of every certificate.
const HEADER: &str = "# slimetrail proof certificate 1";

/// The README's fenced `text` blocks that are certificates, each with a newline
/// after every line, as `solve --merge --certificate` writes them.
fn readme_certificates() -> Vec<String> {
    markdown::fenced_blocks("README.md", "text")
        .into_iter()
        .map(|lines| {
            lines
                .iter()
                .map(|line| format!("{line}\n"))
                .collect::<String>()
        })
        .filter(|block| block.starts_with(HEADER))
        .collect()
}

/// The committed certificates, by file name.
fn committed_certificates() -> BTreeMap<String, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/certificates");
    let entries = std::fs::read_dir(&dir).expect("tests/certificates is readable");
    entries
        .map(|entry| {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().expect("a file name");
            let text = std::fs::read_to_string(&path).expect("a readable certificate");
            (name.to_string_lossy().into_owned(), text)
        })
        .collect()
}

#[test]
fn every_certificate_in_the_readme_is_a_committed_one() {
    let printed = readme_certificates();
    let committed = committed_certificates();
    assert!(!printed.is_empty(), "the README prints no certificate");
    for block in &printed {
        let root = block.lines().nth(1).unwrap_or("(no root line)");
        assert!(
            committed.values().any(|text| text == block),
            "the README's certificate of {root} differs from every file in tests/certificates"
        );
    }
    for (name, text) in committed.iter().filter(|(n, _)| n.starts_with("9x9")) {
        assert!(
            printed.contains(text),
            "tests/certificates/{name} is not printed in the README"
        );
    }
}
