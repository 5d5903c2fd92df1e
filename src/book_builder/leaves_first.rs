//! `slimetrail book --leaves-first DIR`: an opening book for boards where proving
//! every position near the start one by one costs too much (8×8 and up).
//!
//! The walk ([`walk`]) is [`super::generate`]'s too, but here only the
//! positions at the last ply (the leaves) are proven, on `--jobs` threads, each with its own
//! table and the leaves in walk order, so that siblings share their proofs. Every
//! shallower position then takes its value from its children by minimax, with no
//! search at all. Each leaf's result is appended to `DIR/leaves.tsv` as soon as it
//! is proven, so a killed run loses at most the proofs in progress and a second run
//! proves only the rest. Last, every won position is tried from an empty table
//! within `--hard-nodes` nodes; those that need more go into the book.

use std::collections::HashMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use crate::board::{Position, Square};
use crate::search::{BookKey, BookLine, Engine, EngineOptions, Limits, Score, Verdict, book_key};

/// Leaves handed to a worker at a time: consecutive leaves are mostly siblings.
const CHUNK: usize = 8;

/// What is known of a position: who wins it and within how many plies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Value {
    /// Whether the side to move wins.
    pub won: bool,
    /// Plies to the end of the game under the winner's play, at most.
    pub plies: u32,
}

/// The positions of the walk, by ply, each once up to transposition and mirror image.
pub fn walk(starts: &[Position], plies: u32) -> Vec<Vec<Position>> {
    let mut seen = std::collections::HashSet::new();
    let mut layers = vec![Vec::new()];
    for start in starts {
        if !start.outcome().is_over() && seen.insert(book_key(start).0) {
            layers[0].push(*start);
        }
    }
    for _ in 0..plies {
        let mut next = Vec::new();
        for position in layers.last().into_iter().flatten() {
            for square in position.moves() {
                let child = position.after(square);
                if !child.outcome().is_over() && seen.insert(book_key(&child).0) {
                    next.push(child);
                }
            }
        }
        layers.push(next);
    }
    layers
}

/// A proven leaf: the position as proven, its value, and its winning move if won.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Leaf {
    /// The position as proven (the book key may be its mirror image's).
    pub position: Position,
    /// Who wins and how fast.
    pub value: Value,
    /// The proof's winning move, for a won leaf.
    pub square: Option<Square>,
}

/// The format of a leaf-results line, for error messages.
const RESULT_FORMAT: &str = "POSITION<TAB>win|loss<TAB>MOVE|-<TAB>PLIES<TAB>NODES<TAB>MS";

/// Reads the leaf results of `path`, lines of [`RESULT_FORMAT`]. A last line cut
/// short by a kill is ignored; any other bad line is an error.
pub fn read_results(path: &Path) -> Result<HashMap<BookKey, Leaf>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => {
            return Err(format!(
                "{}: cannot read the leaf results: {e}",
                path.display()
            ));
        }
    };
    let complete = match text.rfind('\n') {
        Some(end) => &text[..end],
        None => "",
    };
    let mut results = HashMap::new();
    for (number, line) in complete.lines().enumerate() {
        let bad = |what: &str| {
            format!(
                "{} line {}: {what} in {line:?}; expected {RESULT_FORMAT}",
                path.display(),
                number + 1
            )
        };
        let fields: Vec<&str> = line.split('\t').collect();
        let [position, verdict, square, plies, _, _] = fields[..] else {
            return Err(bad("not six fields"));
        };
        let position: Position = position.parse().map_err(|e| bad(&format!("{e}")))?;
        let won = match verdict {
            "win" => true,
            "loss" => false,
            _ => return Err(bad("a verdict other than win or loss")),
        };
        let square = match square {
            "-" => None,
            name => Some(
                position
                    .parse_move(name)
                    .map_err(|e| bad(&format!("{e}")))?,
            ),
        };
        if won && square.is_none() {
            return Err(bad("a win without a move"));
        }
        let plies = plies
            .parse()
            .map_err(|_| bad("plies that are not a number"))?;
        let value = Value { won, plies };
        let leaf = Leaf {
            position,
            value,
            square,
        };
        results.insert(book_key(&position).0, leaf);
    }
    Ok(results)
}

/// Proves every leaf not in `known` on `jobs` threads with `hash_mb` MiB of table
/// each, appending each result to `path` at once. `progress` gets a line now and then.
pub fn prove_leaves(
    leaves: &[Position],
    known: &HashMap<BookKey, Leaf>,
    path: &Path,
    jobs: usize,
    hash_mb: usize,
    progress: &(dyn Fn(String) + Sync),
) -> Result<HashMap<BookKey, Leaf>, String> {
    let todo: Vec<&Position> = leaves
        .iter()
        .filter(|p| !known.contains_key(&book_key(*p).0))
        .collect();
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: cannot open the leaf results: {e}", path.display()))?;
    let file = Mutex::new(file);
    let found = Mutex::new(known.clone());
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = Mutex::new(None::<String>);
    let started = Instant::now();
    progress(format!(
        "{} leaves, {} proven before, {} to prove on {jobs} threads",
        leaves.len(),
        leaves.len() - todo.len(),
        todo.len()
    ));
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                let options = EngineOptions {
                    hash_mb,
                    huge_pages: true,
                    ..EngineOptions::default()
                };
                let mut engine = Engine::new(options);
                let stop = AtomicBool::new(false);
                loop {
                    let first = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if first >= todo.len() || failed.lock().is_ok_and(|f| f.is_some()) {
                        break;
                    }
                    for position in &todo[first..(first + CHUNK).min(todo.len())] {
                        let out = engine.prove(position, &Limits::default(), &stop, &mut |_| {});
                        let (Some(verdict), Some(Score::Mate(n))) = (out.verdict, out.info.score)
                        else {
                            let why = format!("{position}: the unlimited proof gave no verdict");
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
                            return;
                        };
                        let value = Value {
                            won: verdict == Verdict::Win,
                            plies: n.unsigned_abs(),
                        };
                        let square = out.best_move.filter(|_| value.won);
                        let line = format!(
                            "{position}\t{}\t{}\t{}\t{}\t{}\n",
                            if value.won { "win" } else { "loss" },
                            square.map_or("-".to_string(), |s| position.name(s).to_string()),
                            value.plies,
                            out.proof_nodes,
                            out.proof_time.as_millis()
                        );
                        let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                        if let Err(e) = file.write_all(line.as_bytes()).and_then(|_| file.flush()) {
                            let why = format!("{}: cannot append a result: {e}", path.display());
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
                            return;
                        }
                        drop(file);
                        let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
                        let leaf = Leaf {
                            position: **position,
                            value,
                            square,
                        };
                        found.insert(book_key(*position).0, leaf);
                        let count = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if count % 50 == 0 || count == todo.len() {
                            progress(format!(
                                "{count} of {} leaves proven, {:.0} s",
                                todo.len(),
                                started.elapsed().as_secs_f64()
                            ));
                        }
                    }
                }
            });
        }
    });
    if let Some(why) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(why);
    }
    Ok(found.into_inner().unwrap_or_else(|e| e.into_inner()))
}

/// The value of `position` and its winning move from its children's values in
/// `values`; `None` if a child needed for it is not known.
pub fn minimax(
    position: &Position,
    values: &HashMap<BookKey, Value>,
) -> Option<(Value, Option<Square>)> {
    let mover = position.side_to_move();
    let mut best_win: Option<(u32, Square)> = None;
    let mut longest_loss = 0;
    let mut unknown = false;
    for square in position.moves() {
        let child = position.after(square);
        let (child_won, child_plies) = if child.outcome().is_over() {
            (child.outcome().winner() != Some(mover), 0)
        } else {
            match values.get(&book_key(&child).0) {
                Some(value) => (value.won, value.plies),
                None => {
                    unknown = true;
                    continue;
                }
            }
        };
        let plies = child_plies + 1;
        if child_won {
            longest_loss = longest_loss.max(plies);
        } else if best_win.is_none_or(|(best, _)| plies < best) {
            best_win = Some((plies, square));
        }
    }
    match best_win {
        Some((plies, square)) => Some((Value { won: true, plies }, Some(square))),
        None if unknown => None,
        None => Some((
            Value {
                won: false,
                plies: longest_loss,
            },
            None,
        )),
    }
}

/// The book entries of `layers`, the leaves' results given: every won position
/// whose proof from an empty table needs more than `hard_nodes` nodes (tried on
/// `jobs` threads), shallowest first. The second result counts the positions whose
/// value is not known yet.
pub fn book_lines(
    layers: &[Vec<Position>],
    leaves: &HashMap<BookKey, Leaf>,
    hard_nodes: u64,
    jobs: usize,
) -> (Vec<BookLine>, usize) {
    let mut values: HashMap<BookKey, Value> = leaves
        .iter()
        .map(|(key, leaf)| (*key, leaf.value))
        .collect();
    let mut won: Vec<(usize, usize, BookLine)> = Vec::new();
    let leaf_layer = layers.len().saturating_sub(1);
    for (i, position) in layers.last().into_iter().flatten().enumerate() {
        if let Some(Leaf {
            position,
            value: value @ Value { won: true, .. },
            square: Some(square),
        }) = leaves.get(&book_key(position).0)
        {
            won.push((leaf_layer, i, line_of(*position, *square, *value)));
        }
    }
    // Deepest first, again and again: a child may share its key with a position of
    // a shallower ply, whose value comes later in the pass.
    let mut pending: Vec<(usize, usize)> = (0..leaf_layer)
        .rev()
        .flat_map(|ply| (0..layers[ply].len()).map(move |i| (ply, i)))
        .collect();
    loop {
        let before = pending.len();
        pending.retain(|&(ply, i)| {
            let position = &layers[ply][i];
            let Some((value, square)) = minimax(position, &values) else {
                return true;
            };
            values.insert(book_key(position).0, value);
            if let Some(square) = square {
                won.push((ply, i, line_of(*position, square, value)));
            }
            false
        });
        if pending.len() == before {
            break;
        }
    }
    won.sort_by_key(|&(ply, i, _)| (ply, i));
    let candidates: Vec<BookLine> = won.into_iter().map(|(_, _, line)| line).collect();
    let unknown = pending.len()
        + layers
            .last()
            .into_iter()
            .flatten()
            .filter(|p| !leaves.contains_key(&book_key(*p).0))
            .count();
    (keep_hard(candidates, hard_nodes, jobs), unknown)
}

/// A book line for a won position.
fn line_of(position: Position, square: Square, value: Value) -> BookLine {
    BookLine {
        position,
        square,
        plies: value.plies.min(u32::from(u16::MAX)) as u16,
    }
}

/// The lines of `candidates` whose proof from an empty table does not finish
/// within `hard_nodes` nodes, in their order.
fn keep_hard(candidates: Vec<BookLine>, hard_nodes: u64, jobs: usize) -> Vec<BookLine> {
    let next = AtomicUsize::new(0);
    let hard = Mutex::new(vec![false; candidates.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                let mut trial = Engine::new(EngineOptions::default());
                let stop = AtomicBool::new(false);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(line) = candidates.get(i) else { break };
                    trial.new_game();
                    let limits = Limits::nodes(hard_nodes);
                    let quick = trial.prove(&line.position, &limits, &stop, &mut |_| {});
                    if quick.verdict.is_none() {
                        hard.lock().unwrap_or_else(|e| e.into_inner())[i] = true;
                    }
                }
            });
        }
    });
    let hard = hard.into_inner().unwrap_or_else(|e| e.into_inner());
    candidates
        .into_iter()
        .zip(hard)
        .filter_map(|(line, hard)| hard.then_some(line))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::search::verify_book;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("slimetrail-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    }

    fn start(size: &str, square: &str) -> Position {
        let size: Size = size.parse().expect("a size");
        Position::start_named(size, square).expect("a start")
    }

    /// The same positions as proving each one, with winning moves and lengths no
    /// shorter than `solve`'s.
    #[test]
    fn the_leaves_first_book_holds_the_positions_of_the_one_by_one_book() {
        let starts = [start("5x5", "c3"), start("5x5", "d4")];
        let (plies, hard) = (4, 30);
        let one_by_one = super::super::generate(&starts, plies, hard, &mut |_| {});
        let dir = scratch("leaves-first");
        let layers = walk(&starts, plies);
        let leaves = &layers[plies as usize];
        let path = dir.join("leaves.tsv");
        let proven = prove_leaves(leaves, &HashMap::new(), &path, 2, 1, &|_| {}).unwrap();
        assert_eq!(proven.len(), leaves.len());
        let (lines, unknown) = book_lines(&layers, &proven, hard, 2);
        assert_eq!(unknown, 0);
        assert!(
            lines.len() > 20,
            "a book of {} lines tests little",
            lines.len()
        );
        let keys = |lines: &[BookLine]| -> Vec<BookKey> {
            let mut keys: Vec<_> = lines.iter().map(|l| book_key(&l.position).0).collect();
            keys.sort();
            keys
        };
        assert_eq!(keys(&lines), keys(&one_by_one));
        let failures = verify_book(&lines, &mut |_, _| {});
        assert!(failures.is_empty(), "{failures:#?}");
        let exact: HashMap<BookKey, u16> = one_by_one
            .iter()
            .map(|l| (book_key(&l.position).0, l.plies))
            .collect();
        for line in &lines {
            let solved = exact[&book_key(&line.position).0];
            assert!(line.plies >= solved, "{line}: solve proves {solved} plies");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A run killed in the middle of a line: the line is dropped, the leaves proven
    /// before are not proven again, and each leaf ends up in the file once.
    #[test]
    fn a_killed_run_resumes_with_the_leaves_it_had_not_proven() {
        let dir = scratch("leaves-resume");
        let path = dir.join("leaves.tsv");
        let layers = walk(&[start("5x5", "c3")], 2);
        let leaves = &layers[2];
        assert!(leaves.len() > 3);
        let first = prove_leaves(&leaves[..2], &HashMap::new(), &path, 1, 1, &|_| {}).unwrap();
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str(&format!("{}\twi", leaves[2]));
        std::fs::write(&path, &text).unwrap();
        let known = read_results(&path).unwrap();
        assert_eq!(known, first);
        // The cut line is completed by nothing: start the next one on a new line.
        std::fs::write(&path, text.trim_end_matches(|c| c != '\n')).unwrap();
        let all = prove_leaves(leaves, &known, &path, 2, 1, &|_| {}).unwrap();
        assert_eq!(all.len(), leaves.len());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), leaves.len(), "{text}");
        assert_eq!(read_results(&path).unwrap(), all);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_result_lines_say_what_is_wrong_and_what_was_expected() {
        let dir = scratch("leaves-bad");
        let path = dir.join("leaves.tsv");
        let cases = [
            ("5/5/2s2/5/5 1\twin\tc4\t7\n", "not six fields"),
            (
                "5/5/2s2/5/5 1\tdraw\tc4\t7\t1\t0\n",
                "a verdict other than win or loss",
            ),
            ("5/5/2s2/5/5 1\twin\t-\t7\t1\t0\n", "a win without a move"),
            (
                "5/5/2s2/5/5 1\twin\tc4\tmany\t1\t0\n",
                "plies that are not a number",
            ),
            ("5/5/2s2/5/5 1\twin\ta1\t7\t1\t0\n", "a1"),
        ];
        for (text, problem) in cases {
            std::fs::write(&path, text).unwrap();
            let error = read_results(&path).unwrap_err();
            assert!(error.contains(problem), "{error}");
            assert!(
                error.contains("line 1") && error.contains(RESULT_FORMAT),
                "{error}"
            );
        }
        std::fs::write(&path, "5/5/2s2/5/5 1\tloss\t-\t7\t1\t0\n").unwrap();
        assert_eq!(read_results(&path).unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A move into the mover's own goal wins in one ply; otherwise the fastest win.
    #[test]
    fn minimax_takes_a_win_at_once_and_needs_every_child_for_a_loss() {
        // Player 2 on g6 next to its goal g7: stepping there wins.
        let position: Position = "7/6s/7/7/7/7/7 2".parse().unwrap();
        let (value, square) = minimax(&position, &HashMap::new()).unwrap();
        assert_eq!(
            value,
            Value {
                won: true,
                plies: 1
            }
        );
        assert_eq!(
            square.map(|s| position.name(s).to_string()),
            Some("g7".into())
        );
        // Far from both goals, nothing is known without the children. (Off the
        // diagonal, so that no two children are mirror images sharing a key.)
        let start = start("7x7", "b4");
        assert_eq!(minimax(&start, &HashMap::new()), None);
        // Every child lost for the opponent but one: still a win, by the fastest.
        let mut values = HashMap::new();
        for (i, square) in start.moves().into_iter().enumerate() {
            let child = start.after(square);
            let value = Value {
                won: i != 3,
                plies: 10 + i as u32,
            };
            values.insert(book_key(&child).0, value);
        }
        let (value, square) = minimax(&start, &values).unwrap();
        assert_eq!(
            value,
            Value {
                won: true,
                plies: 14
            }
        );
        assert_eq!(square, start.moves().into_iter().nth(3));
        // Every child won for the opponent: lost, as slowly as possible.
        for value in values.values_mut() {
            value.won = true;
        }
        let (value, square) = minimax(&start, &values).unwrap();
        assert_eq!((value.won, value.plies, square), (false, 18, None));
    }
}
