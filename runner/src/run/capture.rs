//! Catching panics quietly, with their messages.
//!
//! A process-wide panic hook is installed once. While some thread is inside
//! [`catch`], panics are recorded (message, location, thread) instead of
//! printed; otherwise the previous hook runs as usual. Panics on threads that
//! are not themselves inside `catch` (for example an engine's worker threads)
//! are attributed as secondary panics to every `catch` active when they
//! happened (in the runner there is only ever one).

use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard, Once};
use std::thread::{self, ThreadId};

/// A caught panic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panic {
    /// The panic message (`<non-string panic payload>` if it had none).
    pub message: String,
    /// `file:line:col` of the panic, when the hook saw it.
    pub location: Option<String>,
    /// Panics on other threads during the same `catch`, as `thread: message at location`.
    pub others: Vec<String>,
}

impl std::fmt::Display for Panic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)?;
        if let Some(loc) = &self.location {
            write!(f, " (at {loc})")?;
        }
        for other in &self.others {
            write!(f, "; also panicked: {other}")?;
        }
        Ok(())
    }
}

#[derive(Clone)]
struct Record {
    /// Threads whose `catch` may still claim the record: the panicking thread
    /// itself if it is inside `catch`, else every thread inside `catch` then.
    claimants: Vec<ThreadId>,
    thread: ThreadId,
    thread_name: String,
    message: String,
    location: Option<String>,
}

struct State {
    /// Threads currently inside `catch` (a thread may nest).
    active: Vec<ThreadId>,
    records: Vec<Record>,
}

static STATE: Mutex<State> = Mutex::new(State {
    active: Vec::new(),
    records: Vec::new(),
});
static INSTALL: Once = Once::new();

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

fn install() {
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let mut st = state();
            if st.active.is_empty() {
                drop(st);
                previous(info);
                return;
            }
            let current = thread::current();
            let claimants = if st.active.contains(&current.id()) {
                vec![current.id()]
            } else {
                st.active.clone()
            };
            st.records.push(Record {
                claimants,
                thread: current.id(),
                thread_name: current.name().unwrap_or("<unnamed>").to_string(),
                message: info
                    .payload_as_str()
                    .unwrap_or("<non-string panic payload>")
                    .to_string(),
                location: info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())),
            });
        }));
    });
}

/// Runs `f`, turning a panic into a [`Panic`] without printing it. Any panic
/// while `f` runs counts, also one on another thread that `f` survived.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Panic> {
    install();
    let me = thread::current().id();
    state().active.push(me);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    let mut st = state();
    if let Some(i) = st.active.iter().position(|t| *t == me) {
        st.active.remove(i);
    }
    // Claim this scope's records; drop those nobody else can claim.
    let mut mine = Vec::new();
    st.records.retain_mut(|r| {
        if let Some(i) = r.claimants.iter().position(|t| *t == me) {
            r.claimants.remove(i);
            mine.push(r.clone());
        }
        !r.claimants.is_empty()
    });
    drop(st);
    let describe = |r: &Record| match &r.location {
        Some(l) => format!("thread {}: {} (at {l})", r.thread_name, r.message),
        None => format!("thread {}: {}", r.thread_name, r.message),
    };
    match result {
        // A panic that something inside `f` caught (a worker thread's, say)
        // still fails the catch: the code under test panicked.
        Ok(value) if mine.is_empty() => Ok(value),
        Ok(_) => {
            let first = &mine[0];
            Err(Panic {
                message: describe(first),
                location: first.location.clone(),
                others: mine[1..].iter().map(describe).collect(),
            })
        }
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "<non-string panic payload>".to_string());
            let own = mine.iter().rev().find(|r| r.thread == me);
            Err(Panic {
                message,
                location: own.and_then(|r| r.location.clone()),
                others: mine
                    .iter()
                    .filter(|r| r.thread != me)
                    .map(describe)
                    .collect(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// These tests run one at a time: a panic outside any `catch` (as two of
    /// them make) is attributed to every scope active when it happens.
    fn serial() -> MutexGuard<'static, ()> {
        static SERIAL: Mutex<()> = Mutex::new(());
        SERIAL.lock().unwrap_or_else(|e| e.into_inner())
    }

    #[test]
    fn returns_the_value() {
        let _serial = serial();
        assert_eq!(catch(|| 3), Ok(3));
    }

    #[test]
    fn captures_message_and_location() {
        let _serial = serial();
        let p = catch::<()>(|| panic!("boom {}", 7)).unwrap_err();
        assert_eq!(p.message, "boom 7");
        assert!(
            p.location.as_deref().unwrap().contains("capture.rs"),
            "{p:?}"
        );
        let p = catch::<()>(|| todo!("engine under construction")).unwrap_err();
        assert_eq!(p.message, "not yet implemented: engine under construction");
    }

    #[test]
    fn captures_other_threads() {
        let _serial = serial();
        let p = catch::<()>(|| {
            let h = thread::Builder::new()
                .name("worker-0".into())
                .spawn(|| panic!("worker died"))
                .unwrap();
            let _ = h.join();
            panic!("main gave up");
        })
        .unwrap_err();
        assert_eq!(p.message, "main gave up");
        assert_eq!(p.others.len(), 1, "{p:?}");
        assert!(
            p.others[0].starts_with("thread worker-0: worker died"),
            "{p:?}"
        );
    }

    #[test]
    fn a_survived_panic_on_another_thread_still_fails() {
        let _serial = serial();
        let p = catch(|| {
            let h = thread::Builder::new()
                .name("worker-1".into())
                .spawn(|| panic!("lost a worker"))
                .unwrap();
            h.join().is_err()
        })
        .unwrap_err();
        assert!(
            p.message.starts_with("thread worker-1: lost a worker (at "),
            "{p:?}"
        );
        assert!(p.others.is_empty());
    }
}
