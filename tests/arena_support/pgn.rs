//! A PGN reader written from the standard, to check that the arena's records follow it.

/// One game of a PGN file: its tag pairs in order and its movetext.
#[derive(Debug)]
pub struct PgnGame {
    /// Tag names and values, in order.
    pub tags: Vec<(String, String)>,
    /// The movetext, up to and with the termination marker.
    pub movetext: String,
}

impl PgnGame {
    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads PGN by the standard's grammar (sections 8.1 and 8.2): a game is tag pairs
/// `[Symbol "String"]`, a symbol starting with a letter or digit and continuing with letters,
/// digits and `_+#=:-`, a string quoted with `\\` and `\"` its only escapes; then movetext
/// ending with a game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`) outside comments.
pub fn read_pgn(text: &str) -> Result<Vec<PgnGame>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut at = 0;
    let mut games = Vec::new();
    let skip_space = |at: &mut usize| {
        while *at < chars.len() && chars[*at].is_whitespace() {
            *at += 1;
        }
    };
    loop {
        skip_space(&mut at);
        if at == chars.len() {
            return Ok(games);
        }
        let mut tags = Vec::new();
        while at < chars.len() && chars[at] == '[' {
            at += 1;
            skip_space(&mut at);
            let start = at;
            if !chars.get(at).is_some_and(|c| c.is_ascii_alphanumeric()) {
                return Err(format!(
                    "a tag name must start with a letter or digit at {at}"
                ));
            }
            while chars
                .get(at)
                .is_some_and(|c| c.is_ascii_alphanumeric() || "_+#=:-".contains(*c))
            {
                at += 1;
            }
            let name: String = chars[start..at].iter().collect();
            skip_space(&mut at);
            if chars.get(at) != Some(&'"') {
                return Err(format!("tag {name}: expected a quoted string"));
            }
            at += 1;
            let mut value = String::new();
            loop {
                match chars.get(at) {
                    None | Some('\n') => return Err(format!("tag {name}: unterminated string")),
                    Some('"') => break,
                    Some('\\') => {
                        match chars.get(at + 1) {
                            Some(c @ ('\\' | '"')) => value.push(*c),
                            other => return Err(format!("tag {name}: bad escape {other:?}")),
                        }
                        at += 2;
                    }
                    Some(c) => {
                        value.push(*c);
                        at += 1;
                    }
                }
            }
            at += 1;
            skip_space(&mut at);
            if chars.get(at) != Some(&']') {
                return Err(format!("tag {name}: expected ]"));
            }
            at += 1;
            tags.push((name, value));
            skip_space(&mut at);
        }
        if tags.is_empty() {
            return Err(format!("expected a tag pair at {at}"));
        }
        // Movetext up to the termination marker, skipping brace comments.
        let start = at;
        let mut depth = 0;
        let mut word = String::new();
        loop {
            let Some(&c) = chars.get(at) else {
                return Err("movetext without a termination marker".to_string());
            };
            at += 1;
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                c if depth == 0 && !c.is_whitespace() => word.push(c),
                _ => word.clear(),
            }
            let ends_word = chars.get(at).is_none_or(|c| c.is_whitespace());
            if depth == 0 && ends_word && ["1-0", "0-1", "1/2-1/2", "*"].contains(&word.as_str()) {
                break;
            }
        }
        games.push(PgnGame {
            tags,
            movetext: chars[start..at].iter().collect(),
        });
    }
}

/// Whether a `TimeControl` value has the standard's form (section 9.6): `?`, `-`, or
/// periods separated by `:`, each `moves/seconds`, `seconds`, `seconds+increment` or
/// `*seconds`; the arena also writes `moves/seconds+increment`, as cutechess-cli does.
pub fn standard_time_control(value: &str) -> bool {
    let number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    let period = |p: &str| {
        let p = p.strip_prefix('*').unwrap_or(p);
        let p = match p.split_once('/') {
            Some((moves, rest)) if moves.bytes().all(|b| b.is_ascii_digit()) => rest,
            Some(_) => return false,
            None => p,
        };
        match p.split_once('+') {
            Some((base, inc)) => number(base) && number(inc),
            None => number(p),
        }
    };
    value == "?" || value == "-" || value.split(':').all(period)
}
