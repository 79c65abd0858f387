//! `ALTER SYSTEM SET` and `ALTER SYSTEM RESET` of the system variables the
//! engine has: the three that let a `CREATE TABLE` have constraints
//! (`sql::constraints`). Materialize's test files set them as the
//! `mz_system` user before using keys; the runner sends such a record here
//! (`Engine::system`), and the engine's own sessions cannot (an `ALTER
//! SYSTEM` there is refused, as the `materialize` user may not run it).

use super::Engine;
use crate::api::Outcome;
use crate::repr::unsupported;
use crate::sql::constraints::{TABLE_CHECK, TABLE_FOREIGN_KEY, TABLE_KEYS};

/// The system variables the engine has, each a boolean that is off by
/// default.
const VARIABLES: [&str; 3] = [TABLE_KEYS, TABLE_CHECK, TABLE_FOREIGN_KEY];

impl Engine {
    /// Runs `sql`, one `ALTER SYSTEM SET name {= | TO} {value | DEFAULT}` or
    /// `ALTER SYSTEM RESET name`, as the `mz_system` user.
    pub fn system(&mut self, sql: &str) -> Outcome {
        self.directive(|engine| {
            let (name, value) = parse(sql)?;
            match value {
                true => engine.catalog.enabled.insert(name),
                false => engine.catalog.enabled.remove(name),
            };
            Ok(Outcome::Ok)
        })
    }
}

/// The variable `sql` sets and its new value.
fn parse(sql: &str) -> Result<(&'static str, bool), String> {
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
        None => return Ok((name, false)),
        Some(v) if v.eq_ignore_ascii_case("default") => return Ok((name, false)),
        // A quoted value is taken as written, a word as folded.
        Some(v) => match v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
            Some(quoted) => quoted.to_string(),
            None => v.to_lowercase(),
        },
    };
    match value.as_str() {
        "t" | "true" | "on" => Ok((name, true)),
        "f" | "false" | "off" => Ok((name, false)),
        _ => Err(format!("parameter \"{name}\" requires a \"boolean\" value")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forms_of_a_system_statement() {
        let keys = |sql| parse(sql);
        assert_eq!(
            keys("ALTER SYSTEM SET unsafe_enable_table_keys = true"),
            Ok((TABLE_KEYS, true))
        );
        assert_eq!(
            keys("alter system set unsafe_enable_table_keys to ON;"),
            Ok((TABLE_KEYS, true))
        );
        assert_eq!(
            keys("ALTER SYSTEM SET unsafe_enable_table_keys='t'"),
            Ok((TABLE_KEYS, true))
        );
        assert_eq!(
            keys("ALTER SYSTEM SET unsafe_enable_table_keys = off"),
            Ok((TABLE_KEYS, false))
        );
        assert_eq!(
            keys("ALTER SYSTEM SET unsafe_enable_table_keys = DEFAULT"),
            Ok((TABLE_KEYS, false))
        );
        assert_eq!(
            keys("ALTER SYSTEM RESET unsafe_enable_table_check_constraint"),
            Ok((TABLE_CHECK, false))
        );
        assert_eq!(
            keys("ALTER SYSTEM SET unsafe_enable_table_keys = 'TRUE'"),
            Err("parameter \"unsafe_enable_table_keys\" requires a \"boolean\" value".into())
        );
        assert_eq!(
            keys("ALTER SYSTEM SET unsafe_enable_table_keys = yes"),
            Err("parameter \"unsafe_enable_table_keys\" requires a \"boolean\" value".into())
        );
        assert_eq!(
            keys("ALTER SYSTEM SET max_tables = 100"),
            Err("unsupported: ALTER SYSTEM of max_tables".into())
        );
        assert!(keys("SELECT 1")
            .unwrap_err()
            .starts_with("unsupported: system statement"));
    }
}
