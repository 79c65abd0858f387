//! Choosing a function's overload for its arguments' types, as the real
//! system chooses one (`sql/src/func.rs`, `find_match`, after PostgreSQL's
//! rules in "Type Conversion: Functions"): an exact match, else the
//! candidates the arguments cast to implicitly, narrowed by exact matches,
//! by preferred types, and for arguments of unknown type by their type
//! category. The overloads name the real system's parameter types, the
//! engine's and the others, so that an argument resolves as it does there
//! even when the overload it picks is one the engine does not implement.

use crate::plan::Func;
use crate::repr::ScalarType;

/// An overload: its parameters, and what the engine evaluates it with
/// and of what type (`None`: the engine does not implement it).
pub type Overload = (&'static [Param], Option<(Func, ScalarType)>);

/// A parameter type of one of the real system's overloads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    Int16,
    Int32,
    Int64,
    Numeric,
    Float32,
    Float64,
    Text,
    /// `char(n)`: of the string category, a text casts to it implicitly.
    Char,
    Bytes,
    /// A range of any element type (`upper(anyrange)`).
    Range,
}

/// PostgreSQL's type categories, as far as these parameters need them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Category {
    Numeric,
    String,
    Boolean,
    DateTime,
    Timespan,
    UserDefined,
    Range,
    Array,
}

impl Param {
    /// The engine's type of this parameter, if the engine has it.
    pub fn scalar_type(self) -> Option<ScalarType> {
        match self {
            Param::Int16 => Some(ScalarType::Int16),
            Param::Int32 => Some(ScalarType::Int32),
            Param::Int64 => Some(ScalarType::Int64),
            Param::Numeric => Some(ScalarType::Numeric),
            Param::Float32 => Some(ScalarType::Float32),
            Param::Float64 => Some(ScalarType::Float64),
            Param::Text => Some(ScalarType::Text),
            Param::Bytes => Some(ScalarType::Bytes),
            _ => None,
        }
    }

    /// The name the real system prints for the type.
    pub fn name(self) -> &'static str {
        match self {
            Param::Int16 => "smallint",
            Param::Int32 => "integer",
            Param::Int64 => "bigint",
            Param::Numeric => "numeric",
            Param::Float32 => "real",
            Param::Float64 => "double precision",
            Param::Text => "text",
            Param::Char => "character",
            Param::Bytes => "bytea",
            Param::Range => "anyrange",
        }
    }

    fn category(self) -> Category {
        match self {
            Param::Text | Param::Char => Category::String,
            Param::Bytes => Category::UserDefined,
            Param::Range => Category::Range,
            _ => Category::Numeric,
        }
    }

    /// Whether a value of type `t` casts to this parameter implicitly (the
    /// real system's `typeconv.rs`, `CastContext::Implicit`).
    fn accepts(self, t: ScalarType) -> bool {
        use ScalarType as T;
        matches!(
            (t, self),
            (T::Int16, Param::Int16)
                | (T::Int16 | T::Int32, Param::Int32)
                | (T::Int16 | T::Int32 | T::Int64, Param::Int64)
                | (
                    T::Int16 | T::Int32 | T::Int64 | T::Numeric,
                    Param::Numeric | Param::Float32 | Param::Float64
                )
                | (T::Float32, Param::Float32 | Param::Float64)
                | (T::Float64, Param::Float64)
                | (T::Text, Param::Text | Param::Char)
                | (T::Bytes, Param::Bytes)
        )
    }

    /// Whether this parameter is the preferred type of its own category.
    fn prefers_self(self) -> bool {
        matches!(self, Param::Float64 | Param::Text)
    }

    /// Whether this parameter is the preferred type of `t`'s category.
    fn is_preferred_by(self, t: ScalarType) -> bool {
        match category_of(t) {
            Category::Numeric => self == Param::Float64,
            Category::String => self == Param::Text,
            _ => false,
        }
    }
}

fn category_of(t: ScalarType) -> Category {
    match t {
        ScalarType::Int16 | ScalarType::Int32 | ScalarType::Int64 => Category::Numeric,
        ScalarType::UInt16 | ScalarType::UInt32 | ScalarType::UInt64 => Category::Numeric,
        ScalarType::Numeric => Category::Numeric,
        ScalarType::NumericScale(_) => Category::Numeric,
        ScalarType::Float32 | ScalarType::Float64 => Category::Numeric,
        ScalarType::Text | ScalarType::Char(_) | ScalarType::VarChar(_) => Category::String,
        ScalarType::Bool => Category::Boolean,
        ScalarType::Date | ScalarType::Timestamp | ScalarType::TimestampTz | ScalarType::Time => {
            Category::DateTime
        }
        ScalarType::Interval => Category::Timespan,
        ScalarType::Range(_) => Category::Range,
        ScalarType::Jsonb | ScalarType::List(_) | ScalarType::Bytes => Category::UserDefined,
        ScalarType::Array(_) => Category::Array,
    }
}

fn exactly(p: Param, t: ScalarType) -> bool {
    p.scalar_type() == Some(t)
}

/// The overload of `overloads` (each its parameter list) that arguments of
/// `types` (`None`: unknown, a NULL or a string literal) resolve to, or
/// how many candidates were left when none could be chosen (0: the
/// function does not exist for them; more: it is not unique).
pub fn find_match(types: &[Option<ScalarType>], overloads: &[&[Param]]) -> Result<usize, usize> {
    // Candidates: the same number of parameters, each taking its argument
    // by an implicit cast (an unknown argument casts to anything).
    let mut candidates: Vec<usize> = (0..overloads.len())
        .filter(|&i| {
            let params = overloads[i];
            params.len() == types.len()
                && types
                    .iter()
                    .zip(params.iter())
                    .all(|(t, p)| t.is_none_or(|t| p.accepts(t)))
        })
        .collect();
    let known = types.iter().all(Option::is_some);
    if known {
        let exact: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| {
                types
                    .iter()
                    .zip(overloads[i])
                    .all(|(t, p)| exactly(*p, t.expect("known")))
            })
            .collect();
        if let [one] = exact[..] {
            return Ok(one);
        }
    }
    let count = |i: usize, each: &dyn Fn(Option<ScalarType>, Param) -> bool| {
        types
            .iter()
            .zip(overloads[i])
            .filter(|(t, p)| each(**t, **p))
            .count()
    };
    let exact = |t: Option<ScalarType>, p: Param| t.is_some_and(|t| exactly(p, t));
    let preferred = |t: Option<ScalarType>, p: Param| match t {
        Some(t) => p.is_preferred_by(t),
        None => p.prefers_self(),
    };
    for narrowing in [&exact as &dyn Fn(_, _) -> bool, &preferred] {
        match candidates.len() {
            0 => return Err(0),
            1 => return Ok(candidates[0]),
            _ => {}
        }
        let best = candidates.iter().map(|&i| count(i, narrowing)).max();
        candidates.retain(|&i| Some(count(i, narrowing)) == best);
    }
    if let [one] = candidates[..] {
        return Ok(one);
    }
    if known {
        return Err(candidates.len());
    }
    by_category(types, overloads, candidates)
}

/// PostgreSQL's steps 4.e and 4.f, for arguments of unknown type: at each
/// such position, the string category if a candidate takes it, else the
/// one category all candidates take (else no more narrowing there), and
/// of that category its preferred type if a candidate takes it; then, if
/// the known arguments are of one type, the candidates that take it at
/// the unknown positions too.
fn by_category(
    types: &[Option<ScalarType>],
    overloads: &[&[Param]],
    mut candidates: Vec<usize>,
) -> Result<usize, usize> {
    let mut common: Option<ScalarType> = None;
    let mut one_type = true;
    for (position, t) in types.iter().enumerate() {
        if let Some(t) = t {
            match common {
                Some(c) => one_type &= c == *t,
                None => common = Some(*t),
            }
            continue;
        }
        let categories: Vec<Category> = candidates
            .iter()
            .map(|&i| overloads[i][position].category())
            .collect();
        let selected = match categories.first() {
            _ if categories.contains(&Category::String) => Category::String,
            Some(c) if categories.iter().all(|d| d == c) => *c,
            _ => break,
        };
        candidates.retain(|&i| overloads[i][position].category() == selected);
        // The category's preferred type (`double precision`, `text`), if
        // a candidate takes it there.
        let takes_preferred = |i: &usize| match selected {
            Category::Numeric => overloads[*i][position] == Param::Float64,
            Category::String => overloads[*i][position].accepts(ScalarType::Text),
            _ => false,
        };
        if candidates.iter().any(takes_preferred) {
            candidates.retain(takes_preferred);
        }
    }
    if let [one] = candidates[..] {
        return Ok(one);
    }
    if let (Some(common), true) = (common, one_type) {
        candidates.retain(|&i| overloads[i].iter().all(|p| p.accepts(common)));
        if let [one] = candidates[..] {
            return Ok(one);
        }
    }
    Err(candidates.len())
}

#[cfg(test)]
mod tests {
    use super::Param::*;
    use super::*;
    use ScalarType as T;

    const ABS: &[&[Param]] = &[
        &[Int16],
        &[Int32],
        &[Int64],
        &[Numeric],
        &[Float32],
        &[Float64],
    ];

    #[test]
    fn an_exact_match_wins_else_the_preferred_type() {
        assert_eq!(find_match(&[Some(T::Int32)], ABS), Ok(1));
        assert_eq!(find_match(&[Some(T::Int64)], ABS), Ok(2));
        assert_eq!(find_match(&[Some(T::Numeric)], ABS), Ok(3));
        // Unknown: the numeric category's preferred `double precision`.
        assert_eq!(find_match(&[None], ABS), Ok(5));
        assert_eq!(find_match(&[Some(T::Bool)], ABS), Err(0));
        assert_eq!(find_match(&[Some(T::Text)], ABS), Err(0));
        assert_eq!(find_match(&[], ABS), Err(0));
    }

    #[test]
    fn integers_widen_and_never_narrow() {
        let mods: &[&[Param]] = &[&[Int32, Int32], &[Int64, Int64], &[Numeric, Numeric]];
        let (int, big) = (Some(T::Int32), Some(T::Int64));
        assert_eq!(find_match(&[int, int], mods), Ok(0));
        assert_eq!(find_match(&[int, big], mods), Ok(1));
        assert_eq!(find_match(&[None, int], mods), Ok(0));
        assert_eq!(find_match(&[None, big], mods), Ok(1));
        let substr: &[&[Param]] = &[&[Text, Int32]];
        assert_eq!(find_match(&[Some(T::Text), big], substr), Err(0));
        assert_eq!(find_match(&[None, None], substr), Ok(0));
    }

    #[test]
    fn unknown_arguments_choose_the_string_category() {
        let upper: &[&[Param]] = &[&[Text], &[Range]];
        assert_eq!(find_match(&[None], upper), Ok(0));
        // `text` is preferred over `char`, which takes a text too.
        let octet: &[&[Param]] = &[&[Bytes], &[Text], &[Char]];
        assert_eq!(find_match(&[None], octet), Ok(1));
        assert_eq!(find_match(&[Some(T::Text)], octet), Ok(1));
    }

    #[test]
    fn no_single_choice_is_not_unique() {
        // Both numeric, neither the preferred type: nothing decides.
        let two: &[&[Param]] = &[&[Int64], &[Numeric]];
        assert_eq!(find_match(&[None], two), Err(2));
        // A known integer decides between them: both take it, and the
        // unknown is taken to be of its type.
        let pairs: &[&[Param]] = &[&[Int64, Int64], &[Numeric, Numeric]];
        assert_eq!(find_match(&[Some(T::Int32), None], pairs), Err(2));
        assert_eq!(find_match(&[Some(T::Int64), None], pairs), Ok(0));
    }
}
