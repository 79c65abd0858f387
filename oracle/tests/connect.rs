//! Connecting without a working server: a server that accepts and never
//! answers once hung the oracle (60 s and counting; `connect_timeout` in
//! the URL did not help), and every connection error said only "error
//! connecting to server (give --url or PGURL)", with the hint even after
//! `--url`; and a server that answered the handshake and then fell silent
//! held it for ever too. None of these tests needs PostgreSQL.

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
    let e = connect_within(
        Some(&url),
        Duration::from_secs(1),
        oracle::STATEMENT_TIMEOUT,
    )
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
    let e = connect_within(
        Some(&url),
        Duration::from_secs(5),
        oracle::STATEMENT_TIMEOUT,
    )
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

/// A server that completes the handshake and then never answers a
/// statement once held the oracle for ever: the server's own
/// `statement_timeout` is the server's to enforce, and the client has no
/// read time-out. The oracle gives up half as long again after that time,
/// exits 2 and names the server and the statement it waited on.
#[test]
fn a_server_that_stops_answering_after_the_handshake_is_given_up_on() {
    use std::io::{Read, Write};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        // The startup message: its length (counting itself), then the rest.
        let mut length = [0u8; 4];
        stream.read_exact(&mut length).unwrap();
        let mut rest = vec![0u8; u32::from_be_bytes(length) as usize - 4];
        stream.read_exact(&mut rest).unwrap();
        // AuthenticationOk, then ReadyForQuery (idle): connected.
        stream
            .write_all(b"R\0\0\0\x08\0\0\0\0Z\0\0\0\x05I")
            .unwrap();
        // Read whatever comes, answer nothing, until the client is gone.
        let mut sink = [0u8; 1024];
        while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
    });
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let started = Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_oracle"))
        .arg(repo.join("testdata"))
        .args(["--filter", "tables/basic.dd", "--statement-timeout", "1"])
        .args([
            "--url",
            &format!("postgresql://postgres@127.0.0.1:{port}/postgres"),
        ])
        .args(["--annotations", "none"])
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Without the watch the oracle waits for ever: fail instead of hanging.
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("the oracle still waits on a silent server after 30 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let waited = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(waited < Duration::from_secs(20), "{waited:?}");
    assert!(
        stderr.starts_with(&format!(
            "oracle: PostgreSQL at 127.0.0.1:{port}: the server gave no answer for 1."
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("s to `CREATE SCHEMA oracle_") && stderr.contains("it stopped answering"),
        "{stderr}"
    );
}
