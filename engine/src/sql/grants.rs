//! `GRANT` and `REVOKE` of privileges on objects, read on tokens as
//! Materialize's `parse_grant_privilege` reads them and resolved and
//! planned as its `plan_update_privilege` plans them: the objects' names
//! first (`unknown catalog item 'a'`, `unknown schema 'a'`, `unknown
//! database 'a'`), then the roles' (`unknown role 'a'`, by the coordinator),
//! then for each object in turn whether it is of the type named (`INDEX
//! materialize.public.i is not a TABLE`) and whether the privileges are
//! its type's (`invalid privilege types SELECT for SCHEMA "materialize.public"`).
//! The engine has tables, views, materialized views, indexes, schemas and
//! databases: any other target (`SYSTEM`, a cluster, a type, a secret, a
//! connection, `ALL TABLES` outside a schema, `ALL ... IN DATABASE`) and the
//! system privileges (`CREATEROLE`, ...) are refused by name, as is a name
//! in one of Materialize's system schemas, which the engine does not have.

use sqlparser::tokenizer::Token;

use super::words::word;
use crate::plan::{ObjectKind, Resolver, SchemaId};
use crate::repr::{quoted, unsupported};

/// Privileges, as Materialize's `AclMode` bits (`arwdUC`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct AclMode(pub u8);

impl AclMode {
    pub const INSERT: AclMode = AclMode(1);
    pub const SELECT: AclMode = AclMode(2);
    pub const UPDATE: AclMode = AclMode(4);
    pub const DELETE: AclMode = AclMode(8);
    pub const USAGE: AclMode = AclMode(16);
    pub const CREATE: AclMode = AclMode(32);
    /// A table's privileges: `arwd`.
    pub const TABLE: AclMode = AclMode(15);
    /// A schema's or database's: `UC`.
    pub const USAGE_CREATE: AclMode = AclMode(48);

    pub fn union(self, other: AclMode) -> AclMode {
        AclMode(self.0 | other.0)
    }
    pub fn difference(self, other: AclMode) -> AclMode {
        AclMode(self.0 & !other.0)
    }
    pub fn contains(self, other: AclMode) -> bool {
        self.0 & other.0 == other.0
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Materialize's `to_error_string`: the privileges' names, in its
    /// order, joined by `, `.
    pub fn names(self) -> String {
        let named = [
            (AclMode::SELECT, "SELECT"),
            (AclMode::INSERT, "INSERT"),
            (AclMode::UPDATE, "UPDATE"),
            (AclMode::DELETE, "DELETE"),
            (AclMode::USAGE, "USAGE"),
            (AclMode::CREATE, "CREATE"),
        ];
        let names: Vec<&str> = named
            .iter()
            .filter(|(mode, _)| self.contains(*mode))
            .map(|(_, name)| *name)
            .collect();
        names.join(", ")
    }
}

/// The object types a `GRANT` names that the engine has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrantType {
    Table,
    Schema,
    Database,
}

/// What a `GRANT` or `REVOKE` of privileges names, unresolved.
#[derive(Debug, PartialEq, Eq)]
pub enum GrantTarget {
    /// `[TABLE | SCHEMA | DATABASE] name [, ...]`: each name's parts.
    Objects(GrantType, Vec<Vec<String>>),
    /// `ALL TABLES IN SCHEMA name [, ...]`.
    AllTablesIn(Vec<Vec<String>>),
}

/// A `GRANT` or `REVOKE` of privileges, read.
#[derive(Debug, PartialEq, Eq)]
pub struct PrivilegeStatement {
    pub revoke: bool,
    /// `None`: `ALL [PRIVILEGES]`.
    pub privileges: Option<AclMode>,
    pub target: GrantTarget,
    /// The grantees' names, folded (`PUBLIC` is `public`).
    pub roles: Vec<String>,
}

/// An object a privilege is granted on, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrantObject {
    /// A relation or index, its kind and full name.
    Item(crate::repr::GlobalId, ObjectKind, String),
    /// A schema and its full name.
    Schema(SchemaId, String),
    Database(String),
}

impl GrantObject {
    /// Materialize's `ObjectType` of the object, as its errors print it.
    pub fn type_name(&self) -> &'static str {
        match self {
            GrantObject::Item(_, ObjectKind::Table, _) => "TABLE",
            GrantObject::Item(_, ObjectKind::View, _) => "VIEW",
            GrantObject::Item(_, ObjectKind::MaterializedView, _) => "MATERIALIZED VIEW",
            GrantObject::Item(_, _, _) => "INDEX",
            GrantObject::Schema(..) => "SCHEMA",
            GrantObject::Database(_) => "DATABASE",
        }
    }

    /// Its full name, as Materialize's errors print it.
    pub fn full_name(&self) -> &str {
        match self {
            GrantObject::Item(_, _, name) | GrantObject::Schema(_, name) => name,
            GrantObject::Database(name) => name,
        }
    }

    /// Materialize's `all_object_privileges` of its type.
    pub fn all_privileges(&self) -> AclMode {
        match self {
            GrantObject::Item(_, ObjectKind::Table, _) => AclMode::TABLE,
            GrantObject::Item(_, ObjectKind::View | ObjectKind::MaterializedView, _) => {
                AclMode::SELECT
            }
            GrantObject::Item(..) => AclMode::default(),
            GrantObject::Schema(..) | GrantObject::Database(_) => AclMode::USAGE_CREATE,
        }
    }
}

/// Materialize's `parse_grant_privilege` (or its `REVOKE` kin) after the
/// first word: `None` where the first word names no privilege (a grant of
/// roles) or the text is no such statement the engine reads, left to the
/// usual parser, which refuses it by name.
pub fn privilege_statement(
    revoke: bool,
    rest: &[Token],
) -> Option<Result<PrivilegeStatement, String>> {
    let on = rest.iter().position(|t| word(t, "on"))?;
    let privileges = privileges(&rest[..on])?;
    let privileges = match privileges {
        Ok(privileges) => privileges,
        Err(e) => return Some(Err(e)),
    };
    let to = rest
        .iter()
        .position(|t| word(t, if revoke { "from" } else { "to" }))?;
    let target = match target(rest.get(on + 1..to)?) {
        Ok(target) => target?,
        Err(e) => return Some(Err(e)),
    };
    let mut roles = Vec::new();
    for name in split(&rest[to + 1..])? {
        match name {
            [g, name] if word(g, "group") => roles.push(name_part(name)?),
            [name] => roles.push(name_part(name)?),
            _ => return None,
        }
    }
    Some(Ok(PrivilegeStatement {
        revoke,
        privileges,
        target,
        roles,
    }))
}

/// `ALL [PRIVILEGES]` or `privilege [, ...]`; `None` for no privilege.
fn privileges(tokens: &[Token]) -> Option<Result<Option<AclMode>, String>> {
    match tokens {
        [a] | [a, _] if word(a, "all") => {
            let rest_ok = tokens.len() == 1 || word(&tokens[1], "privileges");
            return rest_ok.then_some(Ok(None));
        }
        _ => {}
    }
    let mut mode = AclMode::default();
    for privilege in split(tokens)? {
        let [privilege] = privilege else { return None };
        let named = [
            ("insert", AclMode::INSERT),
            ("select", AclMode::SELECT),
            ("update", AclMode::UPDATE),
            ("delete", AclMode::DELETE),
            ("usage", AclMode::USAGE),
            ("create", AclMode::CREATE),
        ];
        match named.iter().find(|(name, _)| word(privilege, name)) {
            Some((_, m)) => mode = mode.union(*m),
            None if SYSTEM_PRIVILEGES.iter().any(|p| word(privilege, p)) => {
                return Some(Err(unsupported(format!(
                    "GRANT and REVOKE of {}",
                    privilege.to_string().to_uppercase()
                ))))
            }
            None => return None,
        }
    }
    Some(Ok(Some(mode)))
}

/// The system privileges Materialize's parser reads.
const SYSTEM_PRIVILEGES: [&str; 4] = [
    "createrole",
    "createdb",
    "createcluster",
    "createnetworkpolicy",
];

/// Materialize's `expect_grant_target_specification`, for the targets the
/// engine has; the outer error refuses the others by name.
fn target(tokens: &[Token]) -> Result<Option<GrantTarget>, String> {
    let refuse = |what: &str| Err(unsupported(format!("GRANT and REVOKE ON {what}")));
    let (first, rest) = match tokens.split_first() {
        Some(split) => split,
        None => return Ok(None),
    };
    if word(first, "all") {
        return match rest {
            [t, i, s, names @ ..] if word(t, "tables") && word(i, "in") && word(s, "schema") => {
                Ok(names_of(names).map(GrantTarget::AllTablesIn))
            }
            [t, ..] => refuse(&format!("ALL {}", t.to_string().to_uppercase())),
            [] => Ok(None),
        };
    }
    let (kind, names) = match first {
        t if word(t, "table") => (GrantType::Table, rest),
        t if word(t, "schema") => (GrantType::Schema, rest),
        t if word(t, "database") => (GrantType::Database, rest),
        t if OTHER_TYPES.iter().any(|o| word(t, o)) => {
            return refuse(&t.to_string().to_uppercase())
        }
        _ => (GrantType::Table, tokens),
    };
    Ok(names_of(names).map(|names| GrantTarget::Objects(kind, names)))
}

/// The words that begin another object type, which the engine refuses or
/// Materialize's parser does.
const OTHER_TYPES: [&str; 14] = [
    "system",
    "type",
    "cluster",
    "secret",
    "connection",
    "network",
    "view",
    "materialized",
    "source",
    "sink",
    "index",
    "role",
    "function",
    "continual",
];

/// `name [, ...]`, each of one to three dotted parts.
fn names_of(tokens: &[Token]) -> Option<Vec<Vec<String>>> {
    let mut names = Vec::new();
    for name in split(tokens)? {
        let mut parts = Vec::new();
        for (i, token) in name.iter().enumerate() {
            match i % 2 {
                0 => parts.push(name_part(token)?),
                _ if *token == Token::Period => {}
                _ => return None,
            }
        }
        (name.len() % 2 == 1 && parts.len() <= 3).then_some(())?;
        names.push(parts);
    }
    Some(names)
}

/// Splits on commas; `None` for an empty part.
fn split(tokens: &[Token]) -> Option<Vec<&[Token]>> {
    let parts: Vec<&[Token]> = tokens.split(|t| *t == Token::Comma).collect();
    parts.iter().all(|p| !p.is_empty()).then_some(parts)
}

/// An identifier, folded as the catalog knows it.
fn name_part(token: &Token) -> Option<String> {
    match token {
        Token::Word(w) if w.quote_style == Some('"') => Some(w.value.clone()),
        Token::Word(w) if w.quote_style.is_none() => Some(w.value.to_lowercase()),
        _ => None,
    }
}

/// Resolves a statement's objects, as Materialize's name resolution does,
/// and checks each as `plan_update_privilege` does; each with the
/// privileges granted or revoked on it.
pub fn resolve_grant(
    catalog: &dyn Resolver,
    statement: &PrivilegeStatement,
) -> Result<Vec<(GrantObject, AclMode)>, String> {
    let objects = match &statement.target {
        GrantTarget::Objects(kind, names) => names
            .iter()
            .map(|name| resolve_object(catalog, *kind, name))
            .collect::<Result<Vec<_>, _>>()?,
        GrantTarget::AllTablesIn(schemas) => {
            let mut objects = Vec::new();
            for name in schemas {
                let GrantObject::Schema(schema, _) =
                    resolve_object(catalog, GrantType::Schema, name)?
                else {
                    unreachable!("a schema resolves to a schema")
                };
                for id in catalog.items_in(schema) {
                    // Materialize's filter: relations, not indexes.
                    match item_object(catalog, id) {
                        Some(GrantObject::Item(_, ObjectKind::Index, _)) | None => {}
                        Some(object) => objects.push(object),
                    }
                }
            }
            objects
        }
    };
    let kind = match &statement.target {
        GrantTarget::Objects(kind, _) => *kind,
        GrantTarget::AllTablesIn(_) => GrantType::Table,
    };
    let mut planned = Vec::new();
    for object in objects {
        let mode = statement
            .privileges
            .unwrap_or_else(|| object.all_privileges());
        let reference = match (&object, kind) {
            (GrantObject::Item(_, ObjectKind::Index, _), _) => {
                return Err(format!(
                    "{} {} is not a TABLE",
                    object.type_name(),
                    object.full_name()
                ))
            }
            (GrantObject::Item(..), _) => AclMode::TABLE,
            _ => object.all_privileges(),
        };
        let invalid = mode.difference(reference);
        if !invalid.is_empty() {
            return Err(format!(
                "invalid privilege types {} for {} {}",
                invalid.names(),
                object.type_name(),
                quoted(object.full_name())
            ));
        }
        planned.push((object, mode));
    }
    Ok(planned)
}

/// One object's name, resolved as Materialize resolves it.
fn resolve_object(
    catalog: &dyn Resolver,
    kind: GrantType,
    parts: &[String],
) -> Result<GrantObject, String> {
    let system = |schema: &String| match super::names::system_schema(schema) {
        true => Err(unsupported(format!("GRANT and REVOKE in schema {schema}"))),
        false => Ok(()),
    };
    let schema_of = |database: Option<&String>, schema: &String| {
        system(schema)?;
        let id = catalog.schema(database.map(String::as_str), schema)?;
        let (database, name) = catalog.schema_names(id);
        Ok::<_, String>((id, format!("{database}.{name}")))
    };
    match (kind, parts) {
        (GrantType::Database, [name]) => match catalog.database_exists(name) {
            true => Ok(GrantObject::Database(name.clone())),
            false => Err(format!("unknown database '{name}'")),
        },
        (GrantType::Schema, [schema]) => {
            schema_of(None, schema).map(|(id, n)| GrantObject::Schema(id, n))
        }
        (GrantType::Schema, [database, schema]) => {
            if !catalog.database_exists(database) {
                return Err(format!("unknown database '{database}'"));
            }
            schema_of(Some(database), schema).map(|(id, n)| GrantObject::Schema(id, n))
        }
        (GrantType::Table, parts) if !parts.is_empty() => {
            let given = parts.join(".");
            let unknown = || format!("unknown catalog item '{given}'");
            let item = parts.last().expect("a name");
            let found = match parts {
                [] | [_] => catalog.resolve(item),
                [database, schema, _] if !catalog.database_exists(database) => {
                    system(schema)?;
                    return Err(format!("unknown database '{database}'"));
                }
                [.., schema, _] => {
                    let database = (parts.len() == 3).then(|| &parts[0]);
                    let (id, _) = schema_of(database, schema)?;
                    catalog.resolve_in(id, item)
                }
            };
            let (id, _) = found.ok_or_else(unknown)?;
            item_object(catalog, id)
                .ok_or_else(|| unsupported(format!("GRANT and REVOKE on system relation {given}")))
        }
        _ => Err(unsupported(format!(
            "GRANT and REVOKE of the name {}",
            parts.join(".")
        ))),
    }
}

/// A user object of the catalog by id, with its kind and full name;
/// `None` for a system relation.
fn item_object(catalog: &dyn Resolver, id: crate::repr::GlobalId) -> Option<GrantObject> {
    let name = catalog.name(id)?;
    let schema = catalog.schema_of(id);
    let (_, kind) = catalog.resolve_in(schema, &name)?;
    if kind == ObjectKind::Introspection {
        return None;
    }
    let (database, schema) = catalog.schema_names(schema);
    Some(GrantObject::Item(
        id,
        kind,
        format!("{database}.{schema}.{name}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::parse::tokenize;

    fn read(sql: &str) -> Option<Result<PrivilegeStatement, String>> {
        let tokens: Vec<Token> = tokenize(sql).ok()?.into_iter().map(|t| t.token).collect();
        let revoke = word(&tokens[0], "revoke");
        privilege_statement(revoke, &tokens[1..])
    }

    #[test]
    fn the_forms_of_a_grant_of_privileges() {
        let parts = |names: &[&[&str]]| -> Vec<Vec<String>> {
            let name = |n: &&[&str]| n.iter().map(|p| p.to_string()).collect();
            names.iter().map(name).collect()
        };
        assert_eq!(
            read("GRANT select, INSERT ON d.\"S\".t, u TO GROUP Joe, public"),
            Some(Ok(PrivilegeStatement {
                revoke: false,
                privileges: Some(AclMode::SELECT.union(AclMode::INSERT)),
                target: GrantTarget::Objects(GrantType::Table, parts(&[&["d", "S", "t"], &["u"]])),
                roles: vec!["joe".into(), "public".into()],
            }))
        );
        assert_eq!(
            read("REVOKE ALL PRIVILEGES ON ALL TABLES IN SCHEMA s FROM a"),
            Some(Ok(PrivilegeStatement {
                revoke: true,
                privileges: None,
                target: GrantTarget::AllTablesIn(parts(&[&["s"]])),
                roles: vec!["a".into()],
            }))
        );
        let refused = |sql| read(sql).expect("read").unwrap_err();
        assert_eq!(
            refused("GRANT USAGE ON CLUSTER c TO a"),
            "unsupported: GRANT and REVOKE ON CLUSTER"
        );
        assert_eq!(
            refused("GRANT CREATEDB ON SYSTEM TO a"),
            "unsupported: GRANT and REVOKE of CREATEDB"
        );
        assert_eq!(
            refused("GRANT SELECT ON ALL TABLES TO a"),
            "unsupported: GRANT and REVOKE ON ALL TABLES"
        );
        // Not read here: left to the usual parser, which refuses them.
        assert_eq!(read("GRANT SELECT ON t TO"), None);
        assert_eq!(read("GRANT SELECT ON a.b.c.d TO x"), None);
        assert_eq!(read("GRANT SELECT ON t TO a WITH GRANT OPTION"), None);
        assert_eq!(read("GRANT SELECT, ON t TO a"), None);
    }

    #[test]
    fn privileges_are_named_in_materializes_order() {
        let all = AclMode::TABLE.union(AclMode::USAGE_CREATE);
        assert_eq!(all.names(), "SELECT, INSERT, UPDATE, DELETE, USAGE, CREATE");
        assert_eq!(
            AclMode::TABLE.difference(AclMode::SELECT).names(),
            "INSERT, UPDATE, DELETE"
        );
        assert!(AclMode::default().is_empty());
    }
}
