//! cutechess-cli and fastchess spellings of the flags the arena shares with them, mapped onto
//! its own before the arguments are parsed: `-engine` is `--engine`, `-pgnout FILE min` is
//! `--pgn FILE min`, `-games 2 -repeat` is one colour-swapped pair per round, and so on.

/// Single-dash flags that are the arena's own long flags under another spelling.
const RENAMED: &[(&str, &str)] = &[
    ("-engine", "--engine"),
    ("-each", "--each"),
    ("-rounds", "--rounds"),
    ("-games", "--games"),
    ("-concurrency", "--concurrency"),
    ("-openings", "--openings"),
    ("-pgnout", "--pgn"),
    ("-sprt", "--sprt"),
    ("-event", "--event"),
    ("-tournament", "--format"),
    ("-srand", "--seed"),
    ("-seed", "--seed"),
];

/// Flags whose behaviour the arena always has: colour-swapped pairs (`-repeat`) and engine
/// restarts after a crash (`-recover`).
const ALWAYS_ON: &[&str] = &["-repeat", "-recover"];

/// Adjudication flags with `key=value` words after them; the arena plays every game out,
/// as Slime Trail games are short and have no draws.
const IGNORED_WITH_WORDS: &[&str] = &["-draw", "-resign", "-maxmoves"];

/// The arguments with cutechess-cli and fastchess spellings replaced by the arena's, and
/// notes for the user about flags that change nothing here.
pub fn translate(args: Vec<String>) -> (Vec<String>, Vec<String>) {
    let mut out = Vec::with_capacity(args.len());
    let mut notes = Vec::new();
    let mut words = args.into_iter().peekable();
    if let Some(program) = words.next() {
        out.push(program);
    }
    // A subcommand (`stats`, `merge`, `mock-engine`) keeps its arguments as written.
    if words
        .peek()
        .is_some_and(|w| !w.starts_with('-') && !w.contains('='))
    {
        out.extend(words);
        return (out, notes);
    }
    while let Some(word) = words.next() {
        if let Some((_, ours)) = RENAMED.iter().find(|(theirs, _)| *theirs == word) {
            out.push((*ours).to_string());
            if word == "-pgnout" {
                // fastchess writes `-pgnout file=NAME`; cutechess `-pgnout NAME [min]`.
                if let Some(file) = words.next_if(|w| !w.starts_with('-')) {
                    out.push(file.strip_prefix("file=").unwrap_or(&file).to_string());
                }
                if let Some(min) = words.next_if(|w| w == "min") {
                    out.push(min);
                }
            }
        } else if ALWAYS_ON.contains(&word.as_str()) {
            // `-repeat [N]`: the arena always repeats each opening with colours swapped.
            let _ = words.next_if(|w| w.parse::<u32>().is_ok());
        } else if IGNORED_WITH_WORDS.contains(&word.as_str()) {
            let mut given = vec![word.clone()];
            while let Some(w) = words.next_if(|w| !w.starts_with('-')) {
                given.push(w);
            }
            notes.push(format!(
                "note: {} ignored: the arena plays every game to its end",
                given.join(" ")
            ));
        } else if word == "-log" {
            // fastchess: `-log file=NAME [level=…]`: the protocol traffic.
            out.push("--protocol-log".to_string());
            while let Some(w) = words.next_if(|w| !w.starts_with('-')) {
                if let Some(file) = w.strip_prefix("file=") {
                    out.push(file.to_string());
                }
            }
        } else {
            out.push(word);
        }
    }
    (out, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn cutechess_spellings_become_the_arenas() {
        let (args, notes) = translate(words(
            "arena -engine cmd=a name=A -each proto=uci tc=40/60 -rounds 5 -games 2 -repeat \
             -concurrency 2 -pgnout out.pgn min -sprt elo0=0 elo1=5 -event Test -recover \
             -resign movecount=3 score=400 -tournament gauntlet -srand 7",
        ));
        assert_eq!(
            args.join(" "),
            "arena --engine cmd=a name=A --each proto=uci tc=40/60 --rounds 5 --games 2 \
             --concurrency 2 --pgn out.pgn min --sprt elo0=0 elo1=5 --event Test \
             --format gauntlet --seed 7"
        );
        assert_eq!(
            notes,
            ["note: -resign movecount=3 score=400 ignored: the arena plays every game to its end"]
        );
        let (args, _) = translate(words("arena -pgnout file=g.pgn -log file=p.log level=info"));
        assert_eq!(args.join(" "), "arena --pgn g.pgn --protocol-log p.log");
        // Subcommands keep their arguments.
        let (args, _) = translate(words("arena stats --wins 1 --losses 1"));
        assert_eq!(args.join(" "), "arena stats --wins 1 --losses 1");
    }
}
