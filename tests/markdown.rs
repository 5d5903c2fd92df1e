//! Reads the fenced blocks of the project's Markdown files (README.md, protocol.md),
//! shared by the tests that check what those documents show.

/// The lines of every block fenced as ```` ```LANG ```` in FILE (a path relative to the
/// crate root), in order. Panics, naming the file, if it is unreadable or a block is
/// left open.
pub fn fenced_blocks(file: &str, lang: &str) -> Vec<Vec<String>> {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    blocks_of(&text, lang).unwrap_or_else(|| panic!("{path}: a ```{lang} block is never closed"))
}

/// The blocks fenced as LANG in TEXT, or `None` if the last one is never closed.
fn blocks_of(text: &str, lang: &str) -> Option<Vec<Vec<String>>> {
    let opening = format!("```{lang}");
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in text.lines() {
        match &mut current {
            None if line == opening => current = Some(Vec::new()),
            None => {}
            Some(_) if line == "```" => blocks.extend(current.take()),
            Some(lines) => lines.push(line.to_string()),
        }
    }
    current.is_none().then_some(blocks)
}

#[test]
fn blocks_of_one_language_are_read_in_order_and_others_skipped() {
    let text = "intro\n```text\na\n\nb\n```\n```console\n$ x\n```\n```text\nc\n```\n";
    let texts = blocks_of(text, "text").expect("every block is closed");
    assert_eq!(texts, vec![vec!["a", "", "b"], vec!["c"]]);
    let consoles = blocks_of(text, "console").expect("every block is closed");
    assert_eq!(consoles, vec![vec!["$ x"]]);
    assert_eq!(blocks_of(text, "session"), Some(Vec::new()));
}

#[test]
fn a_block_left_open_is_reported() {
    assert_eq!(blocks_of("```text\na\n", "text"), None);
    assert_eq!(blocks_of("```text\n```\n```text\n", "text"), None);
}

#[test]
fn a_fence_with_another_language_or_indent_does_not_open_a_block() {
    assert_eq!(blocks_of("```textile\na\n```\n", "text"), Some(Vec::new()));
    assert_eq!(blocks_of("  ```text\na\n```\n", "text"), Some(Vec::new()));
}
