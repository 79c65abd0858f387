//! `ALTER SYSTEM SET` and `ALTER SYSTEM RESET` of the system variables the
//! engine has: the three that let a `CREATE TABLE` have constraints
//! (`sql::constraints`), off by default, and `enable_rbac_checks`, on by
//! default (`roles`). Materialize's test files set them as the `mz_system`
//! user on a connection of its own; the engine runs such a statement there
//! (`Engine::on_connection`), and a statement of another role is left to
//! the parser, which refuses it.

use super::Engine;
use crate::api::Outcome;
use crate::repr::unsupported;
use crate::sql::constraints::{TABLE_CHECK, TABLE_FOREIGN_KEY, TABLE_KEYS};

/// Whether RBAC checks apply (Materialize's `enable_rbac_checks`).
const RBAC_CHECKS: &str = "enable_rbac_checks";

/// The system variables the engine has, each a boolean.
const VARIABLES: [&str; 4] = [TABLE_KEYS, TABLE_CHECK, TABLE_FOREIGN_KEY, RBAC_CHECKS];

/// Whether `sql` starts `ALTER SYSTEM`.
pub(super) fn is_alter_system(sql: &str) -> bool {
    let mut words = sql.split_whitespace().map(str::to_lowercase);
    words.next().as_deref() == Some("alter") && words.next().as_deref() == Some("system")
}

impl Engine {
    /// Runs `sql`, one `ALTER SYSTEM SET name {= | TO} {value | DEFAULT}` or
    /// `ALTER SYSTEM RESET name`, as the `mz_system` user.
    pub(super) fn alter_system(&mut self, sql: &str) -> Result<Outcome, String> {
        let (name, value) = parse(sql)?;
        match name {
            RBAC_CHECKS => self.roles.rbac_checks = value.unwrap_or(true),
            _ if value == Some(true) => {
                self.catalog.enabled.insert(name);
            }
            _ => {
                self.catalog.enabled.remove(name);
            }
        }
        Ok(Outcome::Ok)
    }
}

/// The variable `sql` sets and its new value (`None`: its default).
fn parse(sql: &str) -> Result<(&'static str, Option<bool>), String> {
    let text = sql.trim().trim_end_matches(';').replace('=', " = ");
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    let (name, value) = match lower.as_slice() {
        ["alter", "system", "set", name, "=" | "to", _] => (*name, Some(words[5])),
        ["alter", "system", "reset", name] => (*name, None),
        _ => return Err(unsupported(format!("system statement: {}", sql.trim()))),
    };
    let Some(&name) = VARIABLES.iter().find(|v| **v == name) else {
        return Err(unsupported(format!("ALTER SYSTEM of {name}")));
    };
    let value = match value {
        None => return Ok((name, None)),
        Some(v) if v.eq_ignore_ascii_case("default") => return Ok((name, None)),
        // A quoted value is taken as written, a word as folded.
        Some(v) => match v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
            Some(quoted) => quoted.to_string(),
            None => v.to_lowercase(),
        },
    };
    match value.as_str() {
        "t" | "true" | "on" => Ok((name, Some(true))),
        "f" | "false" | "off" => Ok((name, Some(false))),
        _ => Err(format!("parameter \"{name}\" requires a \"boolean\" value")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forms_of_a_system_statement() {
        let boolean =
            |name: &str| Err(format!("parameter \"{name}\" requires a \"boolean\" value"));
        let cases = [
            (
                "ALTER SYSTEM SET unsafe_enable_table_keys = true",
                Ok((TABLE_KEYS, Some(true))),
            ),
            (
                "alter system set unsafe_enable_table_keys to ON;",
                Ok((TABLE_KEYS, Some(true))),
            ),
            (
                "ALTER SYSTEM SET unsafe_enable_table_keys='t'",
                Ok((TABLE_KEYS, Some(true))),
            ),
            (
                "ALTER SYSTEM SET unsafe_enable_table_keys = off",
                Ok((TABLE_KEYS, Some(false))),
            ),
            (
                "ALTER SYSTEM SET unsafe_enable_table_keys = DEFAULT",
                Ok((TABLE_KEYS, None)),
            ),
            (
                "ALTER SYSTEM RESET unsafe_enable_table_check_constraint",
                Ok((TABLE_CHECK, None)),
            ),
            (
                "ALTER SYSTEM SET unsafe_enable_table_keys = 'TRUE'",
                boolean(TABLE_KEYS),
            ),
            (
                "ALTER SYSTEM SET unsafe_enable_table_keys = yes",
                boolean(TABLE_KEYS),
            ),
            (
                "ALTER SYSTEM SET max_tables = 100",
                Err("unsupported: ALTER SYSTEM of max_tables".into()),
            ),
            (
                "ALTER SYSTEM SET enable_rbac_checks TO false;",
                Ok((RBAC_CHECKS, Some(false))),
            ),
            (
                "ALTER SYSTEM RESET enable_rbac_checks",
                Ok((RBAC_CHECKS, None)),
            ),
        ];
        for (sql, expected) in cases {
            assert_eq!(parse(sql), expected, "{sql}");
        }
        assert!(parse("SELECT 1")
            .unwrap_err()
            .starts_with("unsupported: system statement"));
        assert!(is_alter_system("alter  SYSTEM set x = 1"));
        assert!(!is_alter_system("ALTER TABLE t"));
    }
}
