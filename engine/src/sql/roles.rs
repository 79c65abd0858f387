//! `CREATE ROLE`, `ALTER ROLE`, `DROP ROLE` and `GRANT` and `REVOKE` of
//! roles, read on tokens as Materialize's parser reads them and planned as
//! its `plan_create_role`, `plan_alter_role`, `plan_drop_role` and
//! `plan_grant_role` plan them (`plan_role_attributes`: which attributes it
//! takes, and its errors for the others). The engine keeps no password and
//! no login, so an attribute that would set either (`SUPERUSER`, `LOGIN`,
//! `PASSWORD` and their negations) is refused by name, as is `ALTER ROLE
//! ... SET`. The coordinator keeps the roles (`coordinator/roles.rs`) and
//! their memberships (`coordinator/privileges.rs`); a text that is no single
//! such statement is left to sqlparser, which refuses it by name.

use sqlparser::tokenizer::Token;

use super::parse::tokenize;
use super::words::word;
use crate::repr::unsupported;

/// A statement about roles, planned: names folded, attributes checked.
#[derive(Debug, PartialEq, Eq)]
pub enum RoleStatement {
    /// `CREATE ROLE name [[WITH] INHERIT]`.
    Create { name: String },
    /// `ALTER ROLE name [WITH] INHERIT`, which changes nothing; its
    /// attributes' error comes after the name is resolved, as
    /// Materialize resolves names before it plans.
    Alter {
        name: String,
        planned: Result<(), String>,
    },
    /// `DROP ROLE [IF EXISTS] name [, ...]`.
    Drop { if_exists: bool, names: Vec<String> },
    /// `GRANT role [, ...] TO [GROUP] member [, ...]`, or with `revoke`,
    /// `REVOKE role [, ...] FROM [GROUP] member [, ...]`.
    Membership {
        revoke: bool,
        roles: Vec<String>,
        members: Vec<String>,
    },
    /// `GRANT privilege [, ...] ON ... TO role [, ...]`, or its `REVOKE`.
    Privileges(super::grants::PrivilegeStatement),
}

/// The role statement `sql` is, if it is one: `None` leaves it to the
/// usual parser.
pub fn role_statement(sql: &str) -> Option<Result<RoleStatement, String>> {
    let mut tokens: Vec<Token> = tokenize(sql).ok()?.into_iter().map(|t| t.token).collect();
    while tokens.last() == Some(&Token::SemiColon) {
        tokens.pop();
    }
    if tokens.contains(&Token::SemiColon) {
        return None;
    }
    match tokens.as_slice() {
        [c, r, name, rest @ ..] if word(c, "create") && word(r, "role") => {
            let name = role_name(name)?;
            Some(attributes(rest).map(|()| RoleStatement::Create { name }))
        }
        [a, r, name, rest @ ..] if word(a, "alter") && word(r, "role") => {
            let name = role_name(name)?;
            match rest.first() {
                None => None,
                Some(t) if word(t, "set") || word(t, "reset") => {
                    Some(Err(unsupported("ALTER ROLE ... SET and RESET")))
                }
                // A syntax error is the parser's, before any name.
                Some(_) => match attributes(rest) {
                    Err(e) if e.starts_with("unsupported: syntax") => Some(Err(e)),
                    planned => Some(Ok(RoleStatement::Alter { name, planned })),
                },
            }
        }
        [d, r, rest @ ..] if word(d, "drop") && word(r, "role") => {
            let (if_exists, rest) = match rest {
                [i, e, rest @ ..] if word(i, "if") && word(e, "exists") => (true, rest),
                _ => (false, rest),
            };
            let names = names(rest)?;
            Some(Ok(RoleStatement::Drop { if_exists, names }))
        }
        [g, rest @ ..] if word(g, "grant") => membership(false, rest),
        [r, rest @ ..] if word(r, "revoke") => membership(true, rest),
        _ => None,
    }
}

/// Materialize's `parse_grant_role` and `parse_revoke_role`: a `GRANT` or
/// `REVOKE` whose first word names no privilege grants or revokes roles;
/// one whose first word names one grants or revokes privileges
/// (`grants.rs`). Anything else (`WITH ADMIN OPTION`, `GRANTED BY`) is left
/// to the usual parser, which refuses it by name.
fn membership(revoke: bool, rest: &[Token]) -> Option<Result<RoleStatement, String>> {
    if PRIVILEGES
        .iter()
        .any(|p| rest.first().is_some_and(|t| word(t, p)))
    {
        let statement = super::grants::privilege_statement(revoke, rest)?;
        return Some(statement.map(RoleStatement::Privileges));
    }
    let to = rest
        .iter()
        .position(|t| word(t, if revoke { "from" } else { "to" }))?;
    let roles = names(&rest[..to])?;
    // Each member may be written `GROUP name`.
    let members: Vec<&Token> = rest[to + 1..]
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            let first = *i == 0 || rest[to + *i] == Token::Comma;
            !(first && word(t, "group"))
        })
        .map(|(_, t)| t)
        .collect();
    let members = names(&members.into_iter().cloned().collect::<Vec<_>>())?;
    Some(Ok(RoleStatement::Membership {
        revoke,
        roles,
        members,
    }))
}

/// The keywords Materialize's `parse_privilege_specification` reads.
const PRIVILEGES: [&str; 11] = [
    "all",
    "insert",
    "select",
    "update",
    "delete",
    "usage",
    "create",
    "createrole",
    "createdb",
    "createcluster",
    "createnetworkpolicy",
];

/// Materialize's `plan_role_attributes`, for the attributes the engine
/// keeps: `INHERIT` once, and the errors of the others.
fn attributes(rest: &[Token]) -> Result<(), String> {
    let rest = match rest.split_first() {
        Some((w, rest)) if word(w, "with") => rest,
        _ => rest,
    };
    // Materialize parses every attribute before it plans any.
    let mut attributes = Vec::new();
    for token in rest {
        match token {
            Token::Word(w)
                if w.quote_style.is_none()
                    && ATTRIBUTES.contains(&w.value.to_uppercase().as_str()) =>
            {
                attributes.push(w.value.to_uppercase())
            }
            _ => return Err(unsupported(format!("syntax: role attribute {token}"))),
        }
    }
    let mut inherit = None;
    for attribute in attributes {
        match attribute.as_str() {
            "INHERIT" | "NOINHERIT" if inherit.is_some() => {
                return Err("conflicting or redundant options".into())
            }
            "INHERIT" => inherit = Some(true),
            "NOINHERIT" => inherit = Some(false),
            "CREATECLUSTER" | "NOCREATECLUSTER" => return Err(never_supported("CREATECLUSTER")),
            "CREATEDB" | "NOCREATEDB" => return Err(never_supported("CREATEDB")),
            "CREATEROLE" | "NOCREATEROLE" => return Err(never_supported("CREATEROLE")),
            _ => return Err(unsupported(format!("role attribute {attribute}"))),
        }
    }
    match inherit {
        Some(false) => Err("non inherit roles not yet supported".into()),
        _ => Ok(()),
    }
}

/// The attributes Materialize's parser reads (`PASSWORD` is followed by a
/// value, which the engine never reads: it refuses the attribute).
const ATTRIBUTES: [&str; 13] = [
    "INHERIT",
    "NOINHERIT",
    "CREATECLUSTER",
    "NOCREATECLUSTER",
    "CREATEDB",
    "NOCREATEDB",
    "CREATEROLE",
    "NOCREATEROLE",
    "SUPERUSER",
    "NOSUPERUSER",
    "LOGIN",
    "NOLOGIN",
    "PASSWORD",
];

/// Materialize's `bail_never_supported!` of an attribute, with its detail.
fn never_supported(attribute: &str) -> String {
    format!(
        "{attribute} attribute is not supported, for more information consult the \
         documentation at https://materialize.com/docs/sql/create-role/#details\n\
         DETAIL: Use system privileges instead."
    )
}

/// `a, b, c`: one or more role names.
fn names(tokens: &[Token]) -> Option<Vec<String>> {
    let mut names = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        match i % 2 {
            0 => names.push(role_name(token)?),
            _ if *token == Token::Comma => {}
            _ => return None,
        }
    }
    (!names.is_empty() && tokens.len() % 2 == 1).then_some(names)
}

/// A role's name as the catalog knows it: an unquoted one folded to lower
/// case; `None` for a token that is no name, or a word Materialize always
/// reserves (`is_always_reserved`).
fn role_name(token: &Token) -> Option<String> {
    match token {
        Token::Word(w) if w.quote_style == Some('"') => Some(w.value.clone()),
        Token::Word(w) if w.quote_style.is_none() => {
            let name = w.value.to_lowercase();
            (!RESERVED.contains(&name.as_str())).then_some(name)
        }
        _ => None,
    }
}

/// Materialize's always reserved keywords.
const RESERVED: [&str; 17] = [
    "with",
    "select",
    "from",
    "where",
    "group",
    "having",
    "qualify",
    "window",
    "order",
    "limit",
    "offset",
    "fetch",
    "options",
    "returning",
    "union",
    "except",
    "intersect",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn planned(sql: &str) -> Option<Result<RoleStatement, String>> {
        role_statement(sql)
    }

    #[test]
    fn the_forms_of_a_role_statement() {
        let create = |name: &str| Some(Ok(RoleStatement::Create { name: name.into() }));
        assert_eq!(planned("CREATE ROLE Joe"), create("joe"));
        assert_eq!(planned("create role \"Joe\" WITH INHERIT;"), create("Joe"));
        assert_eq!(
            planned("ALTER ROLE joe INHERIT"),
            Some(Ok(RoleStatement::Alter {
                name: "joe".into(),
                planned: Ok(())
            }))
        );
        assert_eq!(
            planned("DROP ROLE IF EXISTS a, \"B\""),
            Some(Ok(RoleStatement::Drop {
                if_exists: true,
                names: vec!["a".into(), "B".into()]
            }))
        );
        assert_eq!(planned("DROP ROLE a,"), None);
        assert_eq!(planned("DROP ROLE a b"), None);
        assert_eq!(planned("ALTER ROLE a"), None);
        assert_eq!(planned("CREATE ROLE a; CREATE ROLE b"), None);
        assert_eq!(planned("CREATE TABLE t (a int)"), None);
    }

    #[test]
    fn the_forms_of_a_membership() {
        let membership = |revoke, roles: &[&str], members: &[&str]| {
            Some(Ok(RoleStatement::Membership {
                revoke,
                roles: roles.iter().map(|r| r.to_string()).collect(),
                members: members.iter().map(|m| m.to_string()).collect(),
            }))
        };
        assert_eq!(
            planned("GRANT a, \"B\" TO GROUP c, d"),
            membership(false, &["a", "B"], &["c", "d"])
        );
        assert_eq!(
            planned("revoke A from c, group D;"),
            membership(true, &["a"], &["c", "d"])
        );
        // Options and reserved words are the usual parser's.
        assert!(matches!(
            planned("GRANT SELECT ON t TO a"),
            Some(Ok(RoleStatement::Privileges(_)))
        ));
        assert_eq!(planned("GRANT ALL ON t"), None);
        assert_eq!(planned("GRANT a TO b WITH ADMIN OPTION"), None);
        assert_eq!(planned("GRANT a TO group"), None);
        assert_eq!(planned("GRANT a TO GROUP group"), None);
        assert_eq!(planned("REVOKE a TO b"), None);
        assert_eq!(planned("GRANT TO b"), None);
        assert_eq!(planned("CREATE ROLE select"), None);
    }

    #[test]
    fn attributes_as_materialize_plans_them() {
        let error = |sql| planned(sql).expect("a role statement").unwrap_err();
        assert_eq!(
            error("CREATE ROLE a INHERIT NOINHERIT"),
            "conflicting or redundant options"
        );
        assert_eq!(
            error("CREATE ROLE a NOINHERIT"),
            "non inherit roles not yet supported"
        );
        let Some(Ok(RoleStatement::Alter { planned, .. })) = planned("ALTER ROLE a CREATEDB")
        else {
            panic!("an ALTER ROLE");
        };
        assert!(planned
            .unwrap_err()
            .starts_with("CREATEDB attribute is not supported"));
        assert!(error("ALTER ROLE a bogus").starts_with("unsupported: syntax"));
        assert!(error("CREATE ROLE a NOINHERIT CREATEROLE")
            .starts_with("CREATEROLE attribute is not supported"));
        assert_eq!(
            error("CREATE ROLE a SUPERUSER"),
            "unsupported: role attribute SUPERUSER"
        );
        assert_eq!(
            error("ALTER ROLE a SET cluster = x"),
            "unsupported: ALTER ROLE ... SET and RESET"
        );
    }
}
