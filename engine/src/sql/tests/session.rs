//! `SET`, `RESET` and `SHOW` of the time zone: the forms Materialize's
//! parser reads, its values and its error; other forms left to sqlparser.

use super::*;

fn zone(sql: &str) -> Result<&'static str, String> {
    match plan(sql, &catalog()).map(|mut s| s.pop()) {
        Ok(Some(Statement::SetTimeZone { zone })) => Ok(zone),
        Ok(other) => panic!("{sql}: {other:?}"),
        Err(e) => Err(e),
    }
}

#[test]
fn every_form_that_names_the_zone_sets_it() {
    for sql in [
        "SET TIME ZONE 'UTC'",
        "SET TIME ZONE UTC",
        "set time zone 'uTc'",
        "SET SESSION TIME ZONE utc",
        "SET TimeZone = 'utc'",
        "SET timezone TO 'UTC'",
        "SET \"TimeZone\" = UTC",
        "SET TIME ZONE DEFAULT",
        "SET timezone TO DEFAULT",
        "RESET timezone",
        "RESET TimeZone",
    ] {
        assert_eq!(zone(sql), Ok("UTC"), "{sql}");
    }
    assert_eq!(zone("SET TIME ZONE 'gmt'"), Ok("GMT"));
    assert_eq!(zone("SET timezone = '+00:00'"), Ok("+00:00"));
}

#[test]
fn another_zone_is_materializes_error() {
    let invalid = |v: &str| format!("invalid value for parameter \"TimeZone\": \"{v}\"");
    assert_eq!(zone("SET TIME ZONE bad"), Err(invalid("bad")));
    assert_eq!(zone("SET TIME ZONE BAD"), Err(invalid("bad")));
    assert_eq!(zone("SET TIME ZONE \"BAD\""), Err(invalid("BAD")));
    assert_eq!(zone("SET TIME ZONE -5"), Err(invalid("-5")));
    assert_eq!(zone("SET TIME ZONE 48"), Err(invalid("48")));
    assert_eq!(
        zone("SET TIME ZONE 'America/New_York'"),
        Err(invalid("America/New_York"))
    );
    assert_eq!(zone("SET timezone = '+01:00'"), Err(invalid("+01:00")));
    assert_eq!(zone("SET TIME ZONE 'a\"b'"), Err(invalid("a\\\"b")));
}

#[test]
fn what_is_not_exact_is_refused() {
    for sql in [
        "SET LOCAL TIME ZONE 'UTC'",
        "SET TIME ZONE 'UTC', 'GMT'",
        "SET TIME ZONE INTERVAL '1' HOUR",
        "SET TIME ZONE TRUE",
        // Materialize's parser needs `=` or `TO` after a variable's name.
        "SET TIMEZONE 'UTC'",
        "RESET TIME ZONE",
        "SET search_path = public",
        "SHOW search_path",
    ] {
        let e = zone(sql).unwrap_err();
        assert!(e.starts_with("unsupported: "), "{sql}: {e}");
    }
}

#[test]
fn show_names_the_zone() {
    for sql in [
        "SHOW TIMEZONE",
        "SHOW TIME ZONE",
        "show timezone",
        "SHOW \"TimeZone\"",
    ] {
        assert_eq!(
            plan(sql, &catalog()),
            Ok(vec![Statement::ShowTimeZone]),
            "{sql}"
        );
    }
}
