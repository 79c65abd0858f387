//! Connecting without a working server: a server that accepts and never
//! answers once hung the oracle (60 s and counting; `connect_timeout` in
//! the URL did not help), and every connection error said only "error
//! connecting to server (give --url or PGURL)", with the hint even after
//! `--url`. Neither test needs PostgreSQL.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use oracle::connect_within;

/// A listener that accepts connections and never says a word: the
/// handshake times out, naming the server.
#[test]
fn a_server_that_never_answers_times_out() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let held = std::thread::spawn(move || {
        // Accept and hold the connection open, silent, until the test ends.
        let (stream, _) = listener.accept().unwrap();
        std::thread::sleep(Duration::from_secs(5));
        drop(stream);
    });
    let url = format!("postgresql://postgres@127.0.0.1:{port}/postgres");
    let started = Instant::now();
    let e = connect_within(Some(&url), Duration::from_secs(1))
        .err()
        .expect("no connection to a silent server");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        e,
        format!(
            "cannot connect to PostgreSQL at 127.0.0.1:{port}: no answer within 1 s (the server accepted the connection, or did not, and never answered)"
        )
    );
    held.join().unwrap();
}

/// A port nobody listens on: the error names host, port and cause, and
/// gives no hint to pass the URL that was passed.
#[test]
fn a_refused_connection_names_host_port_and_cause() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("postgresql://postgres@127.0.0.1:{port}/postgres");
    let e = connect_within(Some(&url), Duration::from_secs(5))
        .err()
        .expect("nobody listens");
    assert!(
        e.starts_with(&format!(
            "cannot connect to PostgreSQL at 127.0.0.1:{port}: error connecting to server: "
        )),
        "{e}"
    );
    assert!(e.contains("Connection refused"), "{e}");
    assert!(!e.contains("give --url"), "{e}");
}
