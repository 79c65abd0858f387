//! SQL's own syntax for some function calls, read as the calls they are:
//! `SUBSTRING(x FROM a FOR b)`, `POSITION(a IN b)`, `TRIM(... FROM x)`,
//! `EXTRACT(unit FROM x)`, and `CEIL(x)` and `FLOOR(x)`, which sqlparser
//! parses apart.
//! The planner plans the call (`functions.rs`); the walks that look for
//! aggregates and refusals look through its arguments.

use sqlparser::ast::{CeilFloorKind, DateTimeField, Expr, ExtractSyntax, TrimWhereField};

use super::super::ident;
use crate::repr::unsupported;

/// The function and arguments a call in SQL's own syntax stands for, as
/// the real system's parser reads it: `SUBSTRING(x FROM a [FOR b])` (and
/// `SUBSTRING(x, a, b)`, `SUBSTR(...)`) is `substring(x, a[, b])`,
/// `POSITION(a IN b)` is `position(a, b)`, `TRIM([BOTH | LEADING |
/// TRAILING] [chars] FROM x)` is `btrim`, `ltrim` or `rtrim` of `x[,
/// chars]`; `CEIL(x)` and `FLOOR(x)` are the calls `ceil(x)` and
/// `floor(x)`; `EXTRACT(unit FROM x)` is `extract('unit', x)`, its unit
/// not an expression of the text (`extract_unit`), so the arguments here
/// are `x` alone. `SUBSTRING(x FOR b)` and the other forms are refused
/// (`CEIL(x TO DAY)` and `CEIL(x, 2)` too: sqlparser reads them apart,
/// where the real system's parser reads a plain call).
pub fn special_form(e: &Expr) -> Result<(&'static str, Vec<&Expr>), String> {
    match e {
        // The real system's parser reads `SUBSTR(x FROM a)` as a syntax
        // error: only SUBSTRING has that syntax.
        Expr::Substring {
            shorthand: true,
            special: false,
            ..
        } => Err(unsupported(format!("syntax: {e}"))),
        Expr::Substring {
            expr,
            substring_from: Some(from),
            substring_for,
            shorthand,
            ..
        } => {
            let name = if *shorthand { "substr" } else { "substring" };
            let mut args = vec![&**expr, &**from];
            args.extend(substring_for.as_deref());
            Ok((name, args))
        }
        Expr::Position { expr, r#in } => Ok(("position", vec![&**expr, &**r#in])),
        Expr::Trim {
            expr,
            trim_where,
            trim_what,
            trim_characters: None,
        } => {
            let name = match trim_where {
                None | Some(TrimWhereField::Both) => "btrim",
                Some(TrimWhereField::Leading) => "ltrim",
                Some(TrimWhereField::Trailing) => "rtrim",
            };
            let mut args = vec![&**expr];
            args.extend(trim_what.as_deref());
            Ok((name, args))
        }
        Expr::Ceil {
            expr,
            field: CeilFloorKind::DateTimeField(DateTimeField::NoDateTime),
        } => Ok(("ceil", vec![&**expr])),
        Expr::Floor {
            expr,
            field: CeilFloorKind::DateTimeField(DateTimeField::NoDateTime),
        } => Ok(("floor", vec![&**expr])),
        Expr::Extract {
            syntax: ExtractSyntax::From,
            expr,
            ..
        } => Ok(("extract", vec![&**expr])),
        _ => Err(unsupported(format!("function call form: {e}"))),
    }
}

/// The unit of `EXTRACT(unit FROM x)`, the string the real system's
/// parser makes of it (`parse_extract_expr`): a keyword or an unquoted
/// name folded to lower case, a quoted name or a string as written.
/// `None` for any other form.
pub fn extract_unit(e: &Expr) -> Option<String> {
    let Expr::Extract { field, .. } = e else {
        return None;
    };
    Some(match field {
        DateTimeField::Custom(name) => ident(name),
        // sqlparser names a keyword in upper case.
        keyword => keyword.to_string().to_lowercase(),
    })
}

/// The arguments of a call in SQL's own syntax (none if it is refused),
/// in a frame of its own: the walks that call it recurse.
#[inline(never)]
pub fn special_args(e: &Expr) -> Vec<&Expr> {
    special_form(e).map_or(Vec::new(), |(_, args)| args)
}

/// The refusal of a call in SQL's own syntax, if it is refused.
#[inline(never)]
pub fn special_refusal(e: &Expr) -> Option<String> {
    special_form(e).err()
}
