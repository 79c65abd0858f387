//! The dialect's rules, one test per record form or rule.

use super::*;

fn records(text: &str) -> Vec<Written> {
    parse(text).unwrap().records
}

fn one(text: &str) -> Record {
    let mut all = records(text);
    assert_eq!(all.len(), 1, "{all:?}");
    all.remove(0).record
}

fn results(text: &str) -> Results {
    match one(text) {
        Record::Query { expect: Ok(r), .. } => r,
        other => panic!("{other:?}"),
    }
}

fn values(v: &[&str]) -> Output {
    Output::Values(v.iter().map(|s| s.to_string()).collect())
}

#[test]
fn statements_ok_count_and_error_with_pgcode() {
    assert_eq!(
        one("statement ok\nCREATE TABLE t (a int)\n\n"),
        Record::Statement {
            sql: "CREATE TABLE t (a int)".into(),
            expect: StatementExpect::Ok
        }
    );
    assert!(matches!(
        one("statement OK\nSELECT 1"),
        Record::Statement {
            expect: StatementExpect::Ok,
            ..
        }
    ));
    assert!(matches!(
        one("statement count 3\nINSERT INTO t VALUES (1), (2), (3)\n"),
        Record::Statement {
            expect: StatementExpect::Count(3),
            ..
        }
    ));
    let text = "statement error pgcode 42P01 unknown catalog item 'x'\nDROP TABLE x\n";
    match one(text) {
        Record::Statement {
            expect: StatementExpect::Error(e),
            sql,
        } => {
            assert_eq!(e.pattern, "unknown catalog item 'x'");
            assert_eq!(&text[e.span.clone()], "unknown catalog item 'x'");
            assert_eq!(sql, "DROP TABLE x");
        }
        other => panic!("{other:?}"),
    }
    // An empty pattern matches any error.
    match one("statement error\nDROP TABLE x\n") {
        Record::Statement {
            expect: StatementExpect::Error(e),
            ..
        } => assert_eq!(e.pattern, ""),
        other => panic!("{other:?}"),
    }
}

#[test]
fn sql_runs_to_the_first_blank_line() {
    let all = records("statement ok\nCREATE TABLE t\n  (a int)\n\n\n# c\nstatement ok\nSELECT 1\n");
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].line, 7);
    assert!(
        matches!(&all[0].record, Record::Statement { sql, .. } if sql == "CREATE TABLE t\n  (a int)")
    );
}

#[test]
fn the_first_line_is_cut_at_a_comment() {
    let all = records("query I rowsort # a comment\nSELECT 1\n----\n1\n");
    assert_eq!(all[0].head, "query I rowsort");
    let e = "statement error column \"#x\" does not exist\nSELECT 1\n";
    match one(e) {
        Record::Statement {
            expect: StatementExpect::Error(e),
            ..
        } => assert_eq!(e.pattern, "column \""),
        other => panic!("{other:?}"),
    }
}

#[test]
fn queries_types_sorts_and_labels() {
    let r = results("query ITRBO nosort label\nSELECT 1\n----\n1\n2\n");
    use Type::*;
    assert_eq!(r.types, [Integer, Text, Real, Bool, Oid]);
    assert_eq!(r.sort, Sort::No);
    assert_eq!(r.output, values(&["1", "2"]));
    assert_eq!(
        results("query I rowsort\nSELECT 1\n----\n2\n1\n").sort,
        Sort::Row
    );
    // Standard mode leaves expected values as written, unless valuesort.
    assert_eq!(
        results("query I rowsort\nSELECT 1\n----\n2\n1\n").output,
        values(&["2", "1"])
    );
    assert_eq!(
        results("query II valuesort\nSELECT 1\n----\n2\n1\n").output,
        values(&["1", "2"])
    );
    // partialsort's arguments are commas too: it is read as rowsort.
    let r = results("query II partialsort(1),colnames\nSELECT 1\n----\n1 2\n");
    assert_eq!((r.sort, r.columns), (Sort::Row, None));
    assert!(parse("query I sorted\nSELECT 1\n----\n").is_err());
    assert!(parse("query X\nSELECT 1\n----\n").is_err());
}

#[test]
fn cockroach_mode_splits_rows_and_sorts_them() {
    let r = results("mode cockroach\n\nquery IT rowsort\nSELECT 1\n----\n2   b␠c\n1  a\n");
    assert_eq!(r.mode, Mode::Cockroach);
    assert_eq!(r.output, values(&["1", "a", "2", "b c"]));
    // One column: the whole trimmed line, spaces and all.
    let r = results("mode cockroach\nquery T\nSELECT 1\n----\n  a b ⏎c \n");
    assert_eq!(r.output, values(&["a b \nc"]));
    assert!(parse("mode cockroach\nquery II rowsort\nSELECT 1\n----\n1 2 3\n").is_err());
    assert!(parse("mode fast\n").is_err());
    let r = results("mode cockroach\nmode standard\nquery T\nSELECT 1\n----\na⏎b\n");
    assert_eq!(r.output, values(&["a\nb"]));
}

#[test]
fn colnames_multiline_hashes_and_empty_outputs() {
    let r = results("query IT colnames\nSELECT 1\n----\na b␠c\n1\nx\n");
    assert_eq!(r.columns, Some(vec!["a".to_string(), "b c".to_string()]));
    assert_eq!(r.output, values(&["1", "x"]));
    let text = "query T multiline\nSELECT 1\n----\nline one\n\nline three\nEOF\n\nquery I\nSELECT 2\n----\n2\n";
    let all = records(text);
    assert_eq!(all.len(), 2);
    match &all[0].record {
        Record::Query { expect: Ok(r), .. } => {
            assert_eq!(r.output, values(&["line one\n\nline three"]))
        }
        other => panic!("{other:?}"),
    }
    assert!(parse("query T multiline,rowsort\nSELECT 1\n----\nx\nEOF\n").is_err());
    let r = results("query I\nSELECT 1\n----\n30 values hashing to 0123abcd\n");
    assert_eq!(
        r.output,
        Output::Hashed {
            values: 30,
            md5: "0123abcd".into()
        }
    );
    let all = records("query I\nSELECT 1\n----\n\nquery I\nSELECT 2\n----\n2\n");
    assert!(
        matches!(&all[0].record, Record::Query { expect: Ok(r), .. } if r.output == values(&[]))
    );
    assert_eq!(all.len(), 2);
}

#[test]
fn query_errors_and_spans() {
    let text = "query error pgcode 22012 division by zero\nSELECT 1/0\n";
    match one(text) {
        Record::Query {
            expect: Err(e),
            sql,
        } => {
            assert_eq!(e.pattern, "division by zero");
            assert_eq!(sql, "SELECT 1/0");
        }
        other => panic!("{other:?}"),
    }
    let text = "query I\nSELECT 1\n----\n1\n2\n\nhalt\n";
    let r = results(text);
    assert_eq!(&text[r.span.clone()], "1\n2");
}

#[test]
fn simple_records_and_their_options() {
    let text = "simple conn=mz_system,user=mz_system\nALTER SYSTEM SET x = 1\n----\nCOMPLETE 0\n";
    match one(text) {
        Record::Simple {
            conn, user, output, ..
        } => {
            assert_eq!(
                (conn.as_deref(), user.as_deref()),
                (Some("mz_system"), Some("mz_system"))
            );
            assert_eq!(output, ["COMPLETE 0"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(parse("simple user=a\nSELECT 1\n----\n").is_err());
    assert!(parse("simple conn=a,password=p\nSELECT 1\n----\n").is_err());
    let text = "mode cockroach\nsimple rowsort\nSELECT 1\n----\nb\na\nCOMPLETE 2\n";
    match one(text) {
        Record::Simple { output, sort, .. } => {
            assert_eq!(sort, Sort::Row);
            assert_eq!(output, ["COMPLETE 2", "a", "b"]);
        }
        other => panic!("{other:?}"),
    }
    let text = "simple multiline\nSELECT 1\n----\na\n\nb\nEOF\nCOMPLETE 1\n";
    match one(text) {
        Record::Simple { output, .. } => assert_eq!(output, ["a\n\nb", "COMPLETE 1"]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn skipif_and_onlyif_follow_postgresql() {
    let text = "skipif postgresql\nquery I\nSELECT 1\n----\n1\n\n\
                skipif cockroachdb\nquery I\nSELECT 2\n----\n2\n\n\
                onlyif postgresql\nquery I\nSELECT 3\n----\n3\n\n\
                onlyif mysql\nquery I\nSELECT 4\n----\n4\n";
    let all = records(text);
    let sql: Vec<&str> = all
        .iter()
        .map(|r| match &r.record {
            Record::Query { sql, .. } => sql.as_str(),
            _ => "",
        })
        .collect();
    assert_eq!(sql, ["SELECT 2", "SELECT 3"]);
    // A dropped `halt` does not end the file.
    assert_eq!(
        records("skipif postgresql\nhalt\n\nreset-server\n").len(),
        1
    );
    assert!(parse("skipif\n").is_err());
}

#[test]
fn halt_ignored_lines_copy_and_reset() {
    let text = "subtest a\nuser root\nkv-batch-size 2\nhash-threshold 8\n\
                copy t test/t.data\nreset-server\nhalt\nstatement ok\nSELECT 1\n";
    let all: Vec<Record> = records(text).into_iter().map(|r| r.record).collect();
    assert_eq!(
        all,
        [
            Record::HashThreshold,
            Record::Copy {
                table: "t".into(),
                path: "test/t.data".into()
            },
            Record::ResetServer
        ]
    );
    assert!(parse("hash-threshold x\n").is_err());
    assert!(parse("copy t\n").is_err());
}

#[test]
fn malformed_records_name_their_line() {
    assert_eq!(parse("\n\nfrobnicate\n").unwrap_err().0, 3);
    assert_eq!(parse("statement maybe\nSELECT 1\n").unwrap_err().0, 1);
    let (line, message) = parse("query I\nSELECT 1\n").unwrap_err();
    assert_eq!(line, 1);
    assert!(message.contains("----"), "{message}");
}

#[test]
fn an_expected_error_that_is_not_a_regex_is_the_records_problem() {
    // Materialize's runner reads such a record and fails only if an error
    // comes (`compare` refuses the record then); the file reads on.
    let layout = parse("statement error (\nSELECT 1\n\nquery I\nSELECT 1\n----\n1\n").unwrap();
    assert_eq!(layout.records.len(), 2);
    match &layout.records[0].record {
        Record::Statement {
            expect: StatementExpect::Error(e),
            ..
        } => assert_eq!((e.pattern.as_str(), e.regex.is_none()), ("(", true)),
        other => panic!("{other:?}"),
    }
}
