//! `SET`, `RESET` and `SHOW` of the session variables: the forms
//! Materialize's parser reads, each kind of value read and shown, its
//! errors in its order, and the refusals; other forms left to sqlparser.

use super::*;

/// What a `SET` or `RESET` plans: the variable and its value as `SHOW`
/// prints it (`None`: its default).
fn set(sql: &str) -> Result<(&'static str, Option<String>), String> {
    match plan(sql, &catalog()).map(|mut s| s.pop()) {
        Ok(Some(Statement::SetVariable { name, value })) => Ok((name, value)),
        Ok(other) => panic!("{sql}: {other:?}"),
        Err(e) => Err(e),
    }
}

fn value(sql: &str) -> Result<String, String> {
    set(sql).map(|(_, v)| v.unwrap_or_else(|| panic!("{sql}: a reset")))
}

fn zone(sql: &str) -> Result<String, String> {
    match set(sql)? {
        ("TimeZone", Some(v)) => Ok(v),
        ("TimeZone", None) => Ok("UTC".into()),
        other => panic!("{sql}: {other:?}"),
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
        assert_eq!(zone(sql).as_deref(), Ok("UTC"), "{sql}");
    }
    assert_eq!(zone("SET TIME ZONE 'gmt'").as_deref(), Ok("GMT"));
    assert_eq!(zone("SET timezone = '+00:00'").as_deref(), Ok("+00:00"));
}

#[test]
fn another_zone_is_materializes_error() {
    let invalid = |v: &str| Err(format!("invalid value for parameter \"TimeZone\": \"{v}\""));
    assert_eq!(zone("SET TIME ZONE bad"), invalid("bad"));
    assert_eq!(zone("SET TIME ZONE BAD"), invalid("bad"));
    assert_eq!(zone("SET TIME ZONE \"BAD\""), invalid("BAD"));
    assert_eq!(zone("SET TIME ZONE -5"), invalid("-5"));
    assert_eq!(zone("SET TIME ZONE 48"), invalid("48"));
    assert_eq!(zone("SET TIME ZONE TRUE"), invalid("true"));
    assert_eq!(
        zone("SET TIME ZONE 'America/New_York'"),
        invalid("America/New_York")
    );
    assert_eq!(zone("SET timezone = '+01:00'"), invalid("+01:00"));
    assert_eq!(zone("SET TIME ZONE 'a\"b'"), invalid("a\\\"b"));
    assert_eq!(
        zone("SET TIME ZONE 'UTC', 'GMT'"),
        Err(
            "parameter \"TimeZone\" cannot have value \"UTC\",\"GMT\": expects a single value"
                .into()
        )
    );
}

#[test]
fn each_kind_reads_and_shows_as_materialize() {
    assert_eq!(
        value("SET application_name = 'My App'").as_deref(),
        Ok("My App")
    );
    assert_eq!(value("SET application_name TO Mine").as_deref(), Ok("mine"));
    assert_eq!(value("SET sql_safe_updates = TRUE").as_deref(), Ok("on"));
    assert_eq!(value("SET sql_safe_updates = 'f'").as_deref(), Ok("off"));
    assert_eq!(value("SET extra_float_digits = -3").as_deref(), Ok("-3"));
    assert_eq!(value("SET extra_float_digits = '+2'").as_deref(), Ok("2"));
    assert_eq!(value("SET client_encoding = 'utf8'").as_deref(), Ok("UTF8"));
    assert_eq!(value("SET NAMES utf8").as_deref(), Ok("UTF8"));
    assert_eq!(
        value("SET client_min_messages = DEBUG").as_deref(),
        Ok("debug2")
    );
    assert_eq!(
        value("SET datestyle = 'mdy, \"iso\"', iso").as_deref(),
        Ok("ISO, MDY")
    );
    assert_eq!(
        value("SET intervalstyle = POSTGRES").as_deref(),
        Ok("postgres")
    );
    assert_eq!(
        value("SET transaction_isolation = 'strict serializable'").as_deref(),
        Ok("strict serializable")
    );
    assert_eq!(
        value("SET statement_timeout = '60000'").as_deref(),
        Ok("1 min")
    );
    assert_eq!(
        value("SET statement_timeout = '60 s'").as_deref(),
        Ok("1 min")
    );
    assert_eq!(value("SET search_path = public").as_deref(), Ok("public"));
    assert_eq!(value("SET SCHEMA public").as_deref(), Ok("public"));
    assert_eq!(
        value("SET cluster TO quickstart").as_deref(),
        Ok("quickstart")
    );
    assert_eq!(set("SET SCHEMA TO DEFAULT"), Ok(("search_path", None)));
    assert_eq!(set("RESET schema"), Ok(("search_path", None)));
    assert_eq!(
        set("SET server_version TO DEFAULT"),
        Ok(("server_version", None))
    );
}

#[test]
fn errors_are_materializes_in_its_order() {
    let e = |sql: &str| set(sql).unwrap_err();
    assert_eq!(
        e("SET nope = 1"),
        "unrecognized configuration parameter \"nope\""
    );
    assert_eq!(
        e("SET \"Nope\" = 1"),
        "unrecognized configuration parameter \"Nope\""
    );
    assert_eq!(
        e("RESET all"),
        "unrecognized configuration parameter \"all\""
    );
    assert_eq!(
        e("SET NAMES = 'utf8'"),
        "unrecognized configuration parameter \"names\""
    );
    assert_eq!(
        e("SET max_identifier_length = 'x'"),
        "parameter \"max_identifier_length\" cannot be changed"
    );
    assert_eq!(
        e("RESET is_superuser"),
        "parameter \"is_superuser\" cannot be changed"
    );
    assert_eq!(
        e("SET server_version_num = 'x'"),
        "parameter \"server_version_num\" requires a \"integer\" value"
    );
    assert_eq!(
        e("SET server_version = '1'"),
        "parameter \"server_version\" cannot be changed"
    );
    assert_eq!(
        e("SET standard_conforming_strings = off"),
        "parameter \"standard_conforming_strings\" can only be set to \"on\""
    );
    assert_eq!(
        e("SET standard_conforming_strings = 'yes'"),
        "parameter \"standard_conforming_strings\" requires a \"boolean\" value"
    );
    assert_eq!(
        e("SET sql_safe_updates = 'ON'"),
        "parameter \"sql_safe_updates\" requires a \"boolean\" value"
    );
    assert_eq!(
        e("SET datestyle = 'iso, dmy'"),
        "parameter \"DateStyle\" can only be set to \"ISO, MDY\""
    );
    assert_eq!(
        e("SET intervalstyle = iso_8601"),
        "invalid value for parameter \"IntervalStyle\": \"iso_8601\""
    );
    assert_eq!(
        e("SET application_name = a, b"),
        "parameter \"application_name\" cannot have value \"a\",\"b\": expects a single value"
    );
    assert_eq!(
        e("SET statement_timeout = '1 m'"),
        "parameter \"statement_timeout\" cannot have value \"m\": \
         expected us, ms, s, min, h, or d but got {o:?}"
    );
    assert_eq!(
        e("SET statement_timeout = '1.5'"),
        "parameter \"statement_timeout\" cannot have value \".5\": \
         expected us, ms, s, min, h, or d but got {o:?}"
    );
    assert_eq!(
        e("SET statement_timeout = 'x'"),
        "parameter \"statement_timeout\" requires a \"duration\" value"
    );
    assert_eq!(
        e("SET transaction_isolation = 'snapshot'"),
        "invalid value for parameter \"transaction_isolation\": \"snapshot\""
    );
}

#[test]
fn durations_show_in_their_largest_whole_unit() {
    for (input, shown) in [
        ("1", "1 ms"),
        ("0", "0 s"),
        ("1000ms", "1 s"),
        ("1001ms", "1001 ms"),
        ("1000us", "1 ms"),
        ("1001us", "1001 us"),
        ("3660s", "61 min"),
        ("24h", "1 d"),
        ("  1   s ", "1 s"),
        ("18446744073709551615", "18446744073709551615 ms"),
        ("18446744073709551615 s", "0"),
    ] {
        let sql = format!("SET idle_in_transaction_session_timeout = '{input}'");
        match set(&sql) {
            Ok(_) => assert_eq!(shown, "2 min", "{input}"),
            Err(e) => assert_eq!(
                e,
                format!(
                    "unsupported: SET idle_in_transaction_session_timeout to a value other than 2 min"
                ),
                "{input} ({shown})"
            ),
        }
    }
    assert_eq!(
        value("SET idle_in_transaction_session_timeout = '120 s'").as_deref(),
        Ok("2 min")
    );
    assert_eq!(
        value("SET idle_in_transaction_session_timeout = '120000'").as_deref(),
        Ok("2 min")
    );
}

#[test]
fn what_is_not_exact_is_refused() {
    for sql in [
        "SET LOCAL TIME ZONE 'UTC'",
        "SET TIME ZONE INTERVAL '1' HOUR",
        "SET application_name = NULL",
        // Materialize's parser needs `=` or `TO` after a variable's name.
        "SET TIMEZONE 'UTC'",
        "RESET TIME ZONE",
        // The engine finds its system relations before any user schema.
        "SET search_path = public, pg_catalog",
        "SET search_path = mz_temp",
        "SET cluster = c",
        "SET cluster_replica = r1",
        "SET transaction_isolation = serializable",
        "SET statement_timeout = 0",
        "SET enable_session_rbac_checks = on",
        "SET failpoints = 'x'",
        "SHOW failpoints",
        "SHOW is_superuser",
        "SHOW ALL",
        "SHOW schema",
        "SHOW max_tables",
        "SET datestyle = 'iso mdy'",
        "SET SCHEMA = a, b",
        "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE",
    ] {
        let e = plan(sql, &catalog()).unwrap_err();
        assert!(e.starts_with("unsupported: "), "{sql}: {e}");
    }
}

#[test]
fn show_names_the_variable_and_its_column() {
    for (sql, name, column) in [
        ("SHOW TIMEZONE", "TimeZone", "timezone"),
        ("SHOW TIME ZONE", "TimeZone", "timezone"),
        ("show timezone", "TimeZone", "timezone"),
        ("SHOW \"TimeZone\"", "TimeZone", "TimeZone"),
        ("SHOW cluster", "cluster", "cluster"),
        ("SHOW SEARCH_PATH", "search_path", "search_path"),
        ("SHOW datestyle", "DateStyle", "datestyle"),
        (
            "SHOW TRANSACTION ISOLATION LEVEL",
            "transaction_isolation",
            "transaction_isolation",
        ),
        (
            "SHOW max_identifier_length",
            "max_identifier_length",
            "max_identifier_length",
        ),
    ] {
        assert_eq!(
            plan(sql, &catalog()),
            Ok(vec![Statement::ShowVariable {
                name,
                column: column.into()
            }]),
            "{sql}"
        );
    }
}
