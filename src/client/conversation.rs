//! The one conversation with an engine, as the arena and the GUI hold it: the start-up
//! handshake (`ugi` … `ugiok`, collecting `id name` and the declared options), options
//! checked against the declarations and sent, the `isready` … `readyok` ping, `go` until
//! `bestmove` under a deadline, `stop`, and `quit` with one grace. Every way an engine
//! can fail is a [`Fault`] with a [`FaultKind`].
//!
//! Output is read in one of two ways: blocking with a deadline ([`EngineClient::ping`],
//! [`EngineClient::search`], [`EngineClient::recv_until`]), or pushed as
//! [`EngineEvent`]s into the caller's channel ([`EngineClient::forward_to`]), for a
//! caller with other inputs to wait for, which then never needs to poll.

use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use super::events::{EngineEvent, Fault, FaultKind, read_event, shown};
use super::exit::ExitReport;
use super::log::EngineLog;
use super::options::check_options;
use super::process::{EngineProcess, Launch, Received};
use crate::board::SquareName;
use crate::protocol::{GoArgs, Id, Info, Message, OptionDecl, OptionKind, PositionSetup};

/// Time an engine gets to exit after `quit` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(200);

/// The answer to `go`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BestMove {
    /// The square named by `bestmove` (not checked by the rules), or `None` for
    /// `bestmove (none)`.
    pub square: Option<SquareName>,
    /// Time from sending `go` to receiving `bestmove`.
    pub elapsed: Duration,
}

/// How to start an engine: the program, its options, and the wait for each answer of
/// its start-up (`ugiok`, `readyok`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineSetup {
    /// The program, its arguments and working directory.
    pub launch: Launch,
    /// `setoption` values sent after `ugiok`, checked against the declared options.
    pub options: Vec<(String, String)>,
    /// Wait for `ugiok`, and then for `readyok`.
    pub timeout: Duration,
}

impl EngineSetup {
    /// The whole start-up: [`EngineClient::start`], the options checked against the
    /// declarations and sent, then a ping; each step within the timeout.
    pub fn start(&self, log: &EngineLog) -> Result<EngineClient, Fault> {
        let mut client = EngineClient::start(&self.launch, log, self.timeout)?;
        client.set_options(&self.options)?;
        client.ping(self.timeout)?;
        Ok(client)
    }
}

/// A running engine that finished its start-up handshake.
pub struct EngineClient {
    process: EngineProcess,
    launch_name: String,
    /// The name it gave in `id name`.
    id_name: Option<String>,
    declared: Vec<OptionDecl>,
    /// The `Level` value last sent.
    level_sent: Option<i64>,
    /// Whether the output goes to a caller's channel instead of the blocking reads.
    forwarded: bool,
}

impl EngineClient {
    /// Starts the program and runs the handshake, `ugi` … `ugiok`, within `timeout`;
    /// banners and other chatter before `ugiok` are tolerated, as GUIs do.
    pub fn start(
        launch: &Launch,
        log: &EngineLog,
        timeout: Duration,
    ) -> Result<EngineClient, Fault> {
        let process = EngineProcess::spawn(launch, log).map_err(|e| {
            Fault::new(
                FaultKind::Startup,
                format!("could not be started: {}: {e}", launch.cmd.display()),
            )
        })?;
        let mut client = EngineClient {
            process,
            launch_name: launch.name.clone(),
            id_name: None,
            declared: Vec::new(),
            level_sent: None,
            forwarded: false,
        };
        let deadline = Instant::now() + timeout;
        if client.send_lines(&[Message::Ugi]).is_err() {
            return Err(client.exited_at_start());
        }
        loop {
            match client.process.read_line(deadline) {
                Received::Line { text, .. } => match text.parse::<Message>() {
                    Ok(Message::UgiOk) => return Ok(client),
                    Ok(Message::Id(Id::Name(name))) => client.id_name = Some(name),
                    Ok(Message::DeclareOption(decl)) => client.declared.push(decl),
                    Ok(_) | Err(_) => log::debug!("{}: before ugiok: {text}", launch.name),
                },
                Received::TooLong { .. } => {}
                Received::Timeout => {
                    return Err(Fault::new(
                        FaultKind::Startup,
                        format!(
                            "did not finish its start-up handshake: no ugiok within {} ms",
                            timeout.as_millis()
                        ),
                    ));
                }
                Received::Closed => return Err(client.exited_at_start()),
            }
        }
    }

    /// The engine's name: the one it gave in `id name`, or the launch's.
    pub fn name(&self) -> &str {
        self.id_name.as_deref().unwrap_or(&self.launch_name)
    }

    /// The options the engine declared in its handshake.
    pub fn declared_options(&self) -> &[OptionDecl] {
        &self.declared
    }

    /// The range of its `Level` spin option, if it declares one (bounds it leaves open
    /// are taken as 1 and 10, the protocol's range).
    pub fn level_range(&self) -> Option<(i64, i64)> {
        self.declared.iter().find_map(|decl| match decl.kind {
            OptionKind::Spin { min, max, .. } if decl.name.eq_ignore_ascii_case("level") => {
                Some((min.unwrap_or(1), max.unwrap_or(10)))
            }
            _ => None,
        })
    }

    /// Checks `options` against the declared ones, then sends them as `setoption`; an
    /// option the engine would not take is a [`FaultKind::Options`] fault, and none is sent.
    pub fn set_options(&mut self, options: &[(String, String)]) -> Result<(), Fault> {
        check_options(&self.declared, options)
            .map_err(|e| Fault::new(FaultKind::Options, e.to_string()))?;
        let messages: Vec<Message> = options
            .iter()
            .map(|(name, value)| Message::SetOption {
                name: name.clone(),
                value: Some(value.clone()),
            })
            .collect();
        self.send(&messages)
    }

    /// Sets the `Level` option to `level`, clamped to its declared range, if the engine
    /// declares one and that value is not the one set already.
    pub fn set_level(&mut self, level: u32) -> Result<(), Fault> {
        let Some((min, max)) = self.level_range() else {
            return Ok(());
        };
        let level = i64::from(level).clamp(min, max);
        if self.level_sent == Some(level) {
            return Ok(());
        }
        self.level_sent = Some(level);
        self.send(&[Message::SetOption {
            name: "Level".to_string(),
            value: Some(level.to_string()),
        }])
    }

    /// Sends messages; a closed pipe means the engine is gone (a [`FaultKind::Crash`]).
    pub fn send(&mut self, messages: &[Message]) -> Result<(), Fault> {
        self.send_lines(messages).map_err(|_| self.crashed())
    }

    /// `stop`: the search running ends with its `bestmove`.
    pub fn stop(&mut self) -> Result<(), Fault> {
        self.send(&[Message::Stop])
    }

    /// `isready`, then waits up to `timeout` for `readyok`, reading and discarding what
    /// came before it (such as a late `bestmove` of an earlier search).
    pub fn ping(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send(&[Message::IsReady])?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.recv_until(deadline) {
                Some(EngineEvent::Message(Message::ReadyOk, _)) => return Ok(()),
                Some(EngineEvent::Message(Message::BestMove(_), _)) => {
                    log::debug!("{}: discarded a bestmove outside a search", self.name());
                }
                Some(EngineEvent::Message(..)) => {}
                Some(other) => {
                    let fault = other.fault(|| self.crashed());
                    return Err(fault.unwrap_or_else(|| self.crashed()));
                }
                None => {
                    return Err(Fault::new(
                        FaultKind::Hang,
                        format!(
                            "hung: no readyok to isready within {} ms",
                            timeout.as_millis()
                        ),
                    ));
                }
            }
        }
    }

    /// One search: `position`, a ping within `ping_timeout` (so that nothing the engine
    /// printed before is taken as the answer), then `go` and its `bestmove` within
    /// `limit` of sending `go`. Every `info` line on the way goes to `on_info`. No answer
    /// in time is a [`FaultKind::NoMove`] fault; a `bestmove` that arrived before `go`
    /// was sent is a [`FaultKind::Protocol`] fault.
    pub fn search(
        &mut self,
        position: PositionSetup,
        go: GoArgs,
        ping_timeout: Duration,
        limit: Duration,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<BestMove, Fault> {
        self.send(&[Message::Position(position)])?;
        self.ping(ping_timeout)?;
        let sent = Instant::now();
        self.send(&[Message::Go(go)])?;
        let deadline = sent + limit;
        loop {
            match self.recv_until(deadline) {
                Some(EngineEvent::Message(early @ Message::BestMove(_), at)) if at < sent => {
                    return Err(Fault::new(
                        FaultKind::Protocol,
                        format!(
                            "sent an unrequested bestmove: `{}` came before it was sent go",
                            shown(&early.to_string())
                        ),
                    ));
                }
                Some(EngineEvent::Message(Message::BestMove(square), at)) => {
                    return Ok(BestMove {
                        square,
                        elapsed: at.saturating_duration_since(sent),
                    });
                }
                Some(EngineEvent::Message(Message::Info(info), _)) => on_info(&info),
                Some(EngineEvent::Message(..)) => {}
                Some(other) => {
                    let fault = other.fault(|| self.crashed());
                    return Err(fault.unwrap_or_else(|| self.crashed()));
                }
                None => {
                    return Err(Fault::new(
                        FaultKind::NoMove,
                        format!("no bestmove within {} ms", limit.as_millis()),
                    ));
                }
            }
        }
    }

    /// The next piece of output, waiting until `deadline`; `None` when nothing came in
    /// time. A line that arrived after the deadline counts as nothing, so that a flood of
    /// output cannot hold a deadline open. After [`EngineClient::forward_to`], the output
    /// goes to the channel and this reports [`EngineEvent::Closed`].
    pub fn recv_until(&mut self, deadline: Instant) -> Option<EngineEvent> {
        loop {
            let event = match self.process.read_line(deadline) {
                Received::Timeout => return None,
                received => read_event(received),
            };
            if let Some(event) = event {
                return Some(event);
            }
        }
    }

    /// The next piece of output if it is there already, without waiting.
    pub fn try_recv(&mut self) -> Option<EngineEvent> {
        self.recv_until(Instant::now())
    }

    /// Pushes every later piece of output into `to`, wrapped by `wrap`, from a thread of
    /// its own, until the output closes (then [`EngineEvent::Closed`] comes once) or the
    /// receiver of `to` is gone. Nothing polls; the caller blocks on its own channel,
    /// which may carry its other inputs too. The blocking reads ([`EngineClient::ping`],
    /// [`EngineClient::search`], [`EngineClient::recv_until`]) are not used afterwards:
    /// they see the output as closed. Sending (`send`, `stop`, `set_level`) goes on as
    /// before.
    pub fn forward_to<T: Send + 'static>(
        &mut self,
        to: Sender<T>,
        wrap: impl Fn(EngineEvent) -> T + Send + 'static,
    ) {
        self.forwarded = true;
        self.process
            .forward(move |received| match read_event(received) {
                Some(event) => to.send(wrap(event)).is_ok(),
                None => true,
            });
    }

    /// Why the engine went away: its exit code or signal and its last stderr line.
    pub fn exit_report(&mut self) -> ExitReport {
        self.process.exit_report()
    }

    /// `quit`, then [`QUIT_GRACE`] to exit before what is left of its process group is
    /// killed.
    pub fn quit(mut self) {
        let _ = self.send_lines(&[Message::Quit]);
        self.process.close(QUIT_GRACE);
    }

    /// Writes messages as protocol lines.
    fn send_lines(&mut self, messages: &[Message]) -> std::io::Result<()> {
        let lines: Vec<String> = messages.iter().map(Message::to_string).collect();
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        self.process.send(&refs)
    }

    /// The fault of an engine whose output closed or whose input broke.
    fn crashed(&mut self) -> Fault {
        if self.forwarded {
            log::debug!("{}: read after its output was forwarded", self.name());
        }
        Fault::new(
            FaultKind::Crash,
            format!("crashed: {}", self.process.exit_report()),
        )
    }

    /// The fault of an engine that went away during its handshake.
    fn exited_at_start(&mut self) -> Fault {
        Fault::new(
            FaultKind::Crash,
            format!(
                "exited during its start-up handshake: {}",
                self.process.exit_report()
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::mpsc;

    use super::*;
    use crate::protocol::PositionBase;

    /// An engine written in shell: `ugi` is answered with `id name`, a `Level` option
    /// and `ugiok`, then each line by `script`'s `case` arms (`isready` gets `readyok`).
    fn engine(arms: &str) -> Launch {
        let script = format!(
            "read l; echo 'id name Shell'; \
             echo 'option name Level type spin default 5 min 1 max 8'; echo ugiok; \
             while read l; do case \"$l\" in {arms} isready) echo readyok;; quit) exit 0;; esac; done"
        );
        Launch {
            name: "sh".to_string(),
            cmd: PathBuf::from("/bin/sh"),
            args: vec!["-c".to_string(), script],
            dir: None,
        }
    }

    fn start(arms: &str) -> EngineClient {
        EngineClient::start(&engine(arms), &EngineLog::default(), Duration::from_secs(5)).unwrap()
    }

    fn from_start() -> PositionSetup {
        PositionSetup {
            base: PositionBase::StartPos,
            moves: Vec::new(),
        }
    }

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn the_handshake_collects_the_name_and_the_declared_options() {
        let mut client = start("");
        assert_eq!(client.name(), "Shell");
        assert_eq!(client.level_range(), Some((1, 8)));
        assert_eq!(client.declared_options().len(), 1);
        client.ping(SECOND).unwrap();
        client.quit();
    }

    #[test]
    fn options_are_checked_against_the_declarations_before_any_is_sent() {
        let mut client = start("");
        let refused = client
            .set_options(&[("Hash".to_string(), "16".to_string())])
            .unwrap_err();
        assert_eq!(refused.kind, FaultKind::Options);
        assert!(refused.detail.contains("no option `Hash`"), "{refused}");
        let high = [("level".to_string(), "9".to_string())];
        assert_eq!(
            client.set_options(&high).unwrap_err().kind,
            FaultKind::Options
        );
        client
            .set_options(&[("Level".to_string(), "8".to_string())])
            .unwrap();
        client.quit();
    }

    #[test]
    fn a_search_reports_its_info_lines_and_its_best_move() {
        let mut client = start(
            "go*) echo 'info depth 3 score cp 12 nodes 5 pv c3'; echo; echo 'bestmove c3 ponder b3';;",
        );
        let mut depths = Vec::new();
        let best = client
            .search(
                from_start(),
                GoArgs::default(),
                SECOND,
                SECOND,
                &mut |info| depths.extend(info.depth),
            )
            .unwrap();
        assert_eq!(best.square, Some("c3".parse().unwrap()));
        assert_eq!(depths, [3]);
        client.quit();
    }

    #[test]
    fn a_stale_bestmove_is_discarded_by_the_ping_and_silence_is_no_move() {
        // A `bestmove` left over from before is read and dropped up to `readyok`; then
        // the engine never answers `go`.
        let mut client = start("position*) echo 'bestmove a1';;");
        let short = Duration::from_millis(50);
        let fault = client
            .search(from_start(), GoArgs::default(), SECOND, short, &mut |_| {})
            .unwrap_err();
        assert_eq!(fault.kind, FaultKind::NoMove, "{fault}");
        client.quit();
    }

    #[test]
    fn garbage_and_a_crash_are_faults_of_their_kind() {
        let mut client = start("go*) echo 'bestmove!';;");
        let fault = client
            .search(from_start(), GoArgs::default(), SECOND, SECOND, &mut |_| {})
            .unwrap_err();
        assert_eq!(fault.kind, FaultKind::Garbage, "{fault}");
        assert!(
            fault.detail.starts_with("sent garbage `bestmove!`"),
            "{fault}"
        );
        let mut client = start("go*) exit 3;;");
        let fault = client
            .search(from_start(), GoArgs::default(), SECOND, SECOND, &mut |_| {})
            .unwrap_err();
        assert_eq!(fault.kind, FaultKind::Crash);
        assert_eq!(fault.detail, "crashed: exited with code 3");
    }

    #[test]
    fn an_engine_that_exits_or_stays_silent_fails_its_start() {
        let mut exits = engine("");
        exits.args[1] = "exit 2".to_string();
        let fault = EngineClient::start(&exits, &EngineLog::default(), SECOND)
            .err()
            .unwrap();
        assert_eq!(fault.kind, FaultKind::Crash);
        assert!(
            fault
                .detail
                .starts_with("exited during its start-up handshake")
        );
        let mut silent = engine("");
        silent.args[1] = "sleep 5".to_string();
        let short = Duration::from_millis(50);
        let fault = EngineClient::start(&silent, &EngineLog::default(), short)
            .err()
            .unwrap();
        assert_eq!(fault.kind, FaultKind::Startup);
        assert!(fault.detail.contains("no ugiok within 50 ms"), "{fault}");
        let mut missing = engine("");
        missing.cmd = PathBuf::from("/no/such/engine");
        let fault = EngineClient::start(&missing, &EngineLog::default(), SECOND)
            .err()
            .unwrap();
        assert_eq!(fault.kind, FaultKind::Startup);
        assert!(
            fault
                .detail
                .starts_with("could not be started: /no/such/engine")
        );
    }

    #[test]
    fn forwarded_output_arrives_in_the_callers_channel_without_polling() {
        let mut client = start("go*) echo 'info depth 1 score cp 5 pv c3'; echo 'bestmove c3';;");
        let (tx, rx) = mpsc::channel();
        client.forward_to(tx, |event| event);
        client
            .send(&[
                Message::Position(from_start()),
                Message::Go(GoArgs::default()),
            ])
            .unwrap();
        let first = rx.recv_timeout(SECOND).unwrap();
        assert!(
            matches!(first, EngineEvent::Message(Message::Info(_), _)),
            "{first:?}"
        );
        let second = rx.recv_timeout(SECOND).unwrap();
        assert!(
            matches!(second, EngineEvent::Message(Message::BestMove(Some(_)), _)),
            "{second:?}"
        );
        client.send(&[Message::Quit]).unwrap();
        assert_eq!(rx.recv_timeout(SECOND).unwrap(), EngineEvent::Closed);
        assert!(
            client
                .recv_until(Instant::now() + SECOND)
                .is_some_and(|e| e == EngineEvent::Closed)
        );
    }

    #[test]
    fn set_level_clamps_to_the_declared_range_and_sends_a_change_once() {
        let mut client = start("");
        client.set_level(10).unwrap();
        assert_eq!(client.level_sent, Some(8));
        client.set_level(9).unwrap();
        assert_eq!(client.level_sent, Some(8));
        client.quit();
    }
}
