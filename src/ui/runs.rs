//! The run controller: starts an exercise's run on a background thread, cancels it, enforces
//! its wall limit and hands back what happened. At most one run is in flight.
//!
//! Every run ends. The engine stops a run at the runner's wall limit and on the cancel flag
//! (Ctrl-c); if a run is still going a second after its limit, the controller sets the flag
//! itself; if a cancelled run has still not answered [`STOP_GRACE`] later, it is abandoned:
//! the pager stops waiting and says so, and the thread is left to end on its own (a thread
//! cannot be killed; the flag stays set, so the engine's next check ends it).

use super::exercise::ExerciseRunner;
use crate::run::diff::DiffReport;
use crate::run::{BackendLabel, RunOptions, RunReport};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// How long past the wall limit before the pager cancels a run itself.
pub const WALL_GRACE: Duration = Duration::from_secs(1);
/// How long a cancelled run has to answer before it is abandoned.
pub const STOP_GRACE: Duration = Duration::from_secs(2);
/// A comparison (`D`) runs the exercise twice, and its first use starts the resident Python
/// process, which imports torch (seconds, up to a minute on a loaded machine): its limit is
/// two run limits and this.
pub(super) const COMPARE_STARTUP: Duration = Duration::from_secs(60);

/// What a run in flight does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Job {
    /// The exercise and its checks on the pager's backend (`r`).
    Run,
    /// The exercise on the engine and on real PyTorch, compared (`D`).
    Compare,
}

/// What the run's thread sends back.
enum Done {
    Run(Box<RunReport>),
    Compare(Box<DiffReport>),
}

/// Why a run was asked to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Ctrl-c.
    Learner,
    /// It ran past the wall limit.
    WallLimit,
}

/// A run in flight.
pub struct Running {
    pub exercise: String,
    /// The code it runs, kept with the report.
    pub code: String,
    pub job: Job,
    rx: Receiver<Done>,
    cancel: Arc<AtomicBool>,
    /// Past this (and [`WALL_GRACE`]) the controller stops it.
    limit: Duration,
    pub started: Instant,
    /// When and why it was asked to stop.
    pub stopping: Option<(Instant, Stop)>,
}

impl Running {
    /// What the card's spinner and the footer say it is doing: cancelling once asked to stop,
    /// else comparing or running.
    pub(crate) fn state_word(&self, s: &super::strings::Strings) -> &'static str {
        if self.stopping.is_some() {
            s.cancelling
        } else if self.job == Job::Compare {
            s.comparing
        } else {
            s.running
        }
    }
}

/// How a run ended.
pub enum Outcome {
    Finished {
        exercise: String,
        code: String,
        report: Box<RunReport>,
        stopped: Option<Stop>,
    },
    /// A comparison (`D`) ended.
    Compared {
        exercise: String,
        diff: Box<DiffReport>,
        stopped: Option<Stop>,
    },
    /// The thread ended without a report (it panicked).
    Lost { exercise: String },
    /// It did not answer the cancel in time; the pager no longer waits for it.
    Abandoned { exercise: String, stop: Stop },
}

pub struct RunController {
    runner: Arc<dyn ExerciseRunner>,
    running: Option<Running>,
}

impl RunController {
    pub fn new(runner: Arc<dyn ExerciseRunner>) -> RunController {
        RunController {
            runner,
            running: None,
        }
    }

    pub fn backend_label(&self) -> BackendLabel {
        self.runner.backend_label()
    }

    pub(crate) fn wall_limit(&self) -> Duration {
        self.runner.wall_limit()
    }

    pub fn running(&self) -> Option<&Running> {
        self.running.as_ref()
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Starts `job` on `code` (then `check`) for `exercise`: a run on the pager's backend, or
    /// a comparison on the engine and on real PyTorch. Err when a run is already in flight or
    /// the thread could not start.
    pub fn start(
        &mut self,
        exercise: &str,
        code: String,
        check: Option<String>,
        mut opts: RunOptions,
        job: Job,
    ) -> Result<(), StartError> {
        self.spawn(exercise, code, check, &mut opts, job)
    }

    fn spawn(
        &mut self,
        exercise: &str,
        code: String,
        check: Option<String>,
        opts: &mut RunOptions,
        job: Job,
    ) -> Result<(), StartError> {
        if self.running.is_some() {
            return Err(StartError::Busy);
        }
        let cancel = Arc::new(AtomicBool::new(false));
        opts.cancel = Some(cancel.clone());
        opts.max_wall = self.runner.wall_limit();
        let limit = match job {
            Job::Run => self.runner.wall_limit(),
            Job::Compare => self.runner.wall_limit() * 2 + COMPARE_STARTUP,
        };
        let opts = opts.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        let runner = self.runner.clone();
        let backend = runner.backend_label().backend;
        let source = code.clone();
        // One thread and one panic guard per run: the engine runs right on this run thread.
        // A runner that panics (a bug in cudatutor) gives an internal-error report.
        crate::run::spawn_run(
            move || match job {
                Job::Run => Done::Run(Box::new(runner.run(&source, check.as_deref(), &opts))),
                Job::Compare => {
                    Done::Compare(Box::new(runner.compare(&source, check.as_deref(), &opts)))
                }
            },
            move |result| {
                let done = result.unwrap_or_else(|why| {
                    let report = crate::run::internal_error_report(
                        &crate::run::contain::panic_message(&why),
                        backend.name(),
                    );
                    match job {
                        Job::Run => Done::Run(Box::new(report)),
                        Job::Compare => Done::Compare(Box::new(DiffReport {
                            pytorch_failed: report.internal_error.clone(),
                            engine: report.clone(),
                            pytorch: report,
                            differences: Vec::new(),
                        })),
                    }
                });
                let _ = tx.send(done);
            },
        )
        .map_err(|_| StartError::Thread)?;
        self.running = Some(Running {
            exercise: exercise.to_string(),
            code,
            job,
            rx,
            cancel,
            limit,
            started: Instant::now(),
            stopping: None,
        });
        Ok(())
    }

    /// Asks the run in flight to stop (Ctrl-c, quitting). Returns whether there was one.
    pub fn cancel(&mut self, now: Instant) -> bool {
        self.stop(now, Stop::Learner)
    }

    fn stop(&mut self, now: Instant, why: Stop) -> bool {
        let Some(running) = self.running.as_mut() else {
            return false;
        };
        running.cancel.store(true, Ordering::SeqCst);
        if running.stopping.is_none() {
            running.stopping = Some((now, why));
        }
        true
    }

    /// Checks the run in flight: its report, its wall limit, its stop grace.
    pub fn poll(&mut self, now: Instant) -> Option<Outcome> {
        let running = self.running.as_ref()?;
        let received = running.rx.try_recv();
        match received {
            Ok(report) => return Some(self.finish(report)),
            Err(TryRecvError::Disconnected) => return Some(self.lost()),
            Err(TryRecvError::Empty) => {}
        }
        let limit = running.limit + WALL_GRACE;
        match running.stopping {
            None if now.saturating_duration_since(running.started) >= limit => {
                self.stop(now, Stop::WallLimit);
                None
            }
            Some((since, stop)) if now.saturating_duration_since(since) >= STOP_GRACE => {
                let exercise = self.running.take()?.exercise;
                Some(Outcome::Abandoned { exercise, stop })
            }
            _ => None,
        }
    }

    /// Waits up to `timeout` for the run in flight to end (tests, callers without a loop).
    pub fn wait(&mut self, timeout: Duration) -> Option<Outcome> {
        let running = self.running.as_ref()?;
        match running.rx.recv_timeout(timeout) {
            Ok(report) => Some(self.finish(report)),
            Err(RecvTimeoutError::Disconnected) => Some(self.lost()),
            Err(RecvTimeoutError::Timeout) => None,
        }
    }

    fn finish(&mut self, done: Done) -> Outcome {
        let running = self.running.take().expect("a run in flight");
        let stopped = running.stopping.map(|(_, why)| why);
        match done {
            Done::Run(report) => Outcome::Finished {
                exercise: running.exercise,
                code: running.code,
                report,
                stopped,
            },
            Done::Compare(diff) => Outcome::Compared {
                exercise: running.exercise,
                diff,
                stopped,
            },
        }
    }

    fn lost(&mut self) -> Outcome {
        let running = self.running.take().expect("a run in flight");
        Outcome::Lost {
            exercise: running.exercise,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartError {
    Busy,
    Thread,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ignores the cancel flag for `ignore` then honours it; reports how it ended.
    struct Stubborn {
        ignore: Duration,
    }

    impl ExerciseRunner for Stubborn {
        fn run(&self, _: &str, _: Option<&str>, opts: &RunOptions) -> RunReport {
            let cancel = opts.cancel.clone().unwrap();
            let start = Instant::now();
            while start.elapsed() < self.ignore || !cancel.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(2));
                if start.elapsed() > Duration::from_secs(20) {
                    break;
                }
            }
            RunReport {
                stderr: "KeyboardInterrupt\n".into(),
                ..RunReport::default()
            }
        }
        fn backend_label(&self) -> BackendLabel {
            BackendLabel {
                backend: crate::run::Backend::Sim,
                device: "stub".into(),
            }
        }
        fn wall_limit(&self) -> Duration {
            Duration::from_millis(50)
        }
    }

    #[test]
    fn a_run_past_its_wall_limit_is_cancelled_then_abandoned() {
        let mut runs = RunController::new(Arc::new(Stubborn {
            ignore: Duration::from_secs(10),
        }));
        runs.start("e", "x".into(), None, RunOptions::default(), Job::Run)
            .unwrap();
        let t0 = runs.running().unwrap().started;
        assert!(runs.poll(t0).is_none());
        // Past the limit and its grace: the controller sets the flag itself.
        assert!(runs.poll(t0 + Duration::from_secs(2)).is_none());
        let (_, why) = runs.running().unwrap().stopping.unwrap();
        assert_eq!(why, Stop::WallLimit);
        // The run ignores the flag: abandoned after the stop grace; the pager is free.
        match runs.poll(t0 + Duration::from_secs(5)) {
            Some(Outcome::Abandoned { exercise, stop }) => {
                assert_eq!(exercise, "e");
                assert_eq!(stop, Stop::WallLimit);
            }
            _ => panic!("not abandoned"),
        }
        assert!(!runs.is_running());
    }

    #[test]
    fn a_cancelled_run_reports_why_it_stopped() {
        let mut runs = RunController::new(Arc::new(Stubborn {
            ignore: Duration::ZERO,
        }));
        runs.start("e", "x".into(), None, RunOptions::default(), Job::Run)
            .unwrap();
        assert_eq!(
            runs.start("f", "y".into(), None, RunOptions::default(), Job::Run),
            Err(StartError::Busy)
        );
        assert!(runs.cancel(Instant::now()));
        match runs.wait(Duration::from_secs(10)) {
            Some(Outcome::Finished { stopped, code, .. }) => {
                assert_eq!(stopped, Some(Stop::Learner));
                assert_eq!(code, "x");
            }
            _ => panic!("no report"),
        }
        assert!(!runs.cancel(Instant::now()), "nothing left to cancel");
    }
}
