//! A server that stops answering after the handshake. The `postgres`
//! client has no read time-out, and the server's `statement_timeout` is
//! the server's to enforce, so a server that accepts a statement and then
//! says nothing (hung, stopped with SIGSTOP, a proxy that lost its peer)
//! once held the oracle for ever. Every call to the server is recorded
//! here while it is under way ([`on_server`]), and [`watched`] runs the
//! oracle's work on a thread of its own and gives up, naming the SQL, when
//! one call outlives its limit.

use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The call to the server under way, if any: when it was sent and its SQL.
static IN_FLIGHT: Mutex<Option<(Instant, String)>> = Mutex::new(None);

/// How long the call to the server under way has waited, and its SQL.
pub fn waiting() -> Option<(Duration, String)> {
    let call = IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner());
    call.as_ref()
        .map(|(sent, sql)| (sent.elapsed(), sql.clone()))
}

/// Runs `call`, a call to the server that sends `sql`, as the one in flight.
pub fn on_server<T>(sql: &str, call: impl FnOnce() -> T) -> T {
    let record = |call| *IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner()) = call;
    record(Some((Instant::now(), sql.to_string())));
    let answer = call();
    record(None);
    answer
}

/// How long a call may wait for the server before the oracle gives up: the
/// server's own `statement_timeout` and half as long again, so that a
/// server that answers (even with its time-out error) always does so first.
pub fn limit(statement_timeout: Duration) -> Duration {
    statement_timeout + statement_timeout / 2
}

/// Runs `work` on a thread of its own, and its result; or an error naming
/// the SQL as soon as one call to the server has waited longer than
/// `limit`. The thread is then left blocked on its socket; it ends with
/// the process, which has nothing left to wait for.
pub fn watched<T: Send + 'static>(
    limit: Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let (done, result) = channel();
    std::thread::spawn(move || {
        let _ = done.send(work());
    });
    let tick = Duration::from_millis(100).min(limit);
    loop {
        match result.recv_timeout(tick) {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Disconnected) => {
                return Err("the oracle's work panicked (see above)".into())
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        if let Some((waited, sql)) = waiting().filter(|(waited, _)| *waited > limit) {
            let sql: String = sql.chars().take(200).collect();
            return Err(format!(
                "the server gave no answer for {:.1} s to `{sql}`, past its own statement_timeout: it stopped answering",
                waited.as_secs_f64()
            ));
        }
    }
}
