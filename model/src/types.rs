//! The column types the model stores, a leaf so that a scope (`scalar/`)
//! and a relation (`relation.rs`) can carry them as the catalog does: what
//! `char` and `varchar` comparisons need to know of their operands.

/// A column type the model stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Int,
    BigInt,
    Text,
    Bool,
    /// `real` (false) or `double precision` (true).
    Float(bool),
    /// `char(n)`: kept trimmed, held by the model blank padded to `n`, as
    /// it is shown (`None`: `bpchar`, shown as kept).
    Char(Option<u32>),
    /// `varchar(n)`: kept and shown as it is.
    VarChar(Option<u32>),
}

/// Whether `t` is `char` (which comparisons trim) or `varchar`.
pub fn is_string_type(t: Option<Type>) -> bool {
    matches!(t, Some(Type::Char(_) | Type::VarChar(_)))
}
