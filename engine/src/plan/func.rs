//! The scalar functions a plan can call (`ScalarExpr::Call`), each one
//! overload of the real system's function of that name, already resolved
//! by the planner (`sql/expr/functions.rs`) and evaluated by
//! `eval/functions.rs`. How each treats NULLs and errors is said there.

use crate::repr::range::RangeKind;

/// One resolved overload of a scalar function; its arguments are in the
/// order the SQL function takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    /// `abs(integer)`.
    AbsInt32,
    /// `abs(bigint)`.
    AbsInt64,
    /// `abs(smallint)`.
    AbsInt16,
    /// `length(text)`, `char_length(text)`: characters.
    CharLength,
    /// `octet_length(text)`: bytes.
    OctetLength,
    /// `bit_length(text)`: bits.
    BitLength,
    /// `substr(text, integer[, integer])`, `substring(...)`.
    Substr,
    Upper,
    Lower,
    /// `position(substring, string)`: the 1-based character position, 0 if absent.
    Position,
    /// `strpos(string, substring)`.
    Strpos,
    /// `replace(text, from, to)`.
    Replace,
    /// `left(text, n)`.
    Left,
    /// `right(text, n)`.
    Right,
    /// `btrim`, `ltrim`, `rtrim` of spaces (one argument) or of the
    /// characters of the second argument.
    Trim(TrimSide),
    /// `repeat(text, n)`.
    Repeat,
    Reverse,
    /// `chr(integer)`: the character of that code point.
    Chr,
    /// `lpad(text, length[, fill])`: cut to, or filled on the left to,
    /// `length` characters.
    Lpad,
    /// `concat(...)`: every argument as text, NULLs skipped.
    Concat,
    /// `concat_ws(separator, ...)`.
    ConcatWs,
    /// `greatest(...)`, of arguments of one type, NULLs skipped.
    Greatest,
    /// `least(...)`.
    Least,
    /// A function of floats (`FloatFunc`), of its one overload's width.
    Float(FloatFunc),
    /// A function of `numeric`s (`NumericFunc`).
    Numeric(NumericFunc),
    /// A function or operator of ranges (`RangeFunc`).
    Range(RangeFunc),
    /// A bitwise operator of unsigned integers (`Bitwise`).
    Bitwise(Bitwise),
    /// A function or operator of `jsonb` (`JsonbFunc`).
    Jsonb(JsonbFunc),
    /// A function or operator of text (`TextFunc`).
    Text(TextFunc),
    /// A function or operator of arrays (`ArrayFunc`).
    Array(ArrayFunc),
    /// A function or operator of lists (`ListFunc`).
    List(ListFunc),
    /// A function or operator of `bytea` (`BytesFunc`).
    Bytes(BytesFunc),
    /// `date_trunc(text, timestamp)` and `date_trunc(text, timestamptz)`:
    /// the unit a text evaluated per row (`repr::time::units`).
    DateTrunc,
    /// `extract(text, x)` of a `date`, `timestamp`, `timestamptz` or
    /// `interval`, a `numeric`: the unit a text evaluated per row
    /// (`repr::time::parts`).
    Extract,
    /// `date_part(text, x)` of a `timestamp`, `timestamptz` (a `date` is
    /// cast to one) or `interval`, a `double precision`.
    DatePart,
}

/// The real system's functions and operators of `bytea`, its digests
/// among them, that `eval/bytes.rs` evaluates; a digest's input is a text's
/// UTF-8 bytes or a `bytea`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BytesFunc {
    /// `length(bytea)`, `octet_length(bytea)`: bytes.
    Length,
    /// `bit_length(bytea)`.
    BitLength,
    /// `get_byte(bytea, integer)`.
    GetByte,
    /// `get_bit(bytea, integer)`: the bit counted from each byte's lowest.
    GetBit,
    /// `encode(bytea, format)`: a text in `base64`, `escape` or `hex`.
    Encode,
    /// `decode(text, format)`.
    Decode,
    /// `convert_from(bytea, encoding)`: UTF-8 bytes as a text.
    ConvertFrom,
    /// `md5(text)`, `md5(bytea)`: the digest's hex digits, a text.
    Md5,
    /// `digest(x, algorithm)`, the algorithm a text evaluated per row.
    Digest,
    /// `sha224(bytea)` and the others: `digest` of that algorithm.
    Sha(&'static str),
    /// `hmac(x, key, algorithm)`.
    Hmac,
}

impl BytesFunc {
    /// The name the real system gives the function or operator.
    pub fn name(self) -> &'static str {
        match self {
            BytesFunc::Length => "length",
            BytesFunc::BitLength => "bit_length",
            BytesFunc::GetByte => "get_byte",
            BytesFunc::GetBit => "get_bit",
            BytesFunc::Encode => "encode",
            BytesFunc::Decode => "decode",
            BytesFunc::ConvertFrom => "convert_from",
            BytesFunc::Md5 => "md5",
            BytesFunc::Digest => "digest",
            BytesFunc::Sha(name) => name,
            BytesFunc::Hmac => "hmac",
        }
    }
}

/// The real system's functions and operators of text that `eval/text.rs`
/// evaluates; each takes and gives the types its one overload has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextFunc {
    /// `text || text`; the planner casts another operand to text first.
    Concat,
    /// `text ~ pattern` (`~*` ignoring case): a regular expression found
    /// anywhere in the text.
    RegexMatch {
        case_insensitive: bool,
    },
    /// `regexp_replace(text, pattern, replacement[, flags])`.
    RegexpReplace,
    /// `quote_ident(text)`.
    QuoteIdent,
    /// `translate(text, from, to)`.
    Translate,
    /// `split_part(text, delimiter, n)`.
    SplitPart,
    /// `ascii(text)`: the first character's code point.
    Ascii,
    Initcap,
    /// `starts_with(text, prefix)`.
    StartsWith,
    /// `normalize(text, form)`: the form a string the parser made of
    /// `NFC`, `NFD`, `NFKC` or `NFKD`.
    Normalize,
    /// `regexp_match(text, pattern[, flags])`: a `text[]` of the first
    /// match's groups (or of the match), NULL where there is none.
    RegexpMatch,
    /// `regexp_split_to_array(text, pattern[, flags])`.
    RegexpSplitToArray,
    /// `string_to_array(text, delimiter[, null_string])`: not strict in its
    /// delimiter (NULL splits into characters) nor its NULL string.
    StringToArray,
    /// `try_parse_monotonic_iso8601_timestamp(text)`: a `timestamp`, NULL
    /// for a text not of its one form.
    TryParseMonotonicIso8601Timestamp,
}

impl TextFunc {
    /// The name the real system gives the function or operator.
    pub fn name(self) -> &'static str {
        match self {
            TextFunc::Concat => "||",
            TextFunc::RegexMatch {
                case_insensitive: false,
            } => "~",
            TextFunc::RegexMatch {
                case_insensitive: true,
            } => "~*",
            TextFunc::RegexpReplace => "regexp_replace",
            TextFunc::QuoteIdent => "quote_ident",
            TextFunc::Translate => "translate",
            TextFunc::SplitPart => "split_part",
            TextFunc::Ascii => "ascii",
            TextFunc::Initcap => "initcap",
            TextFunc::StartsWith => "starts_with",
            TextFunc::Normalize => "normalize",
            TextFunc::RegexpMatch => "regexp_match",
            TextFunc::RegexpSplitToArray => "regexp_split_to_array",
            TextFunc::StringToArray => "string_to_array",
            TextFunc::TryParseMonotonicIso8601Timestamp => "try_parse_monotonic_iso8601_timestamp",
        }
    }
}

/// The real system's functions of arrays (`eval/array.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrayFunc {
    /// `ARRAY[a, b, ...]`: of scalars a one-dimensional array (NULLs
    /// kept), of arrays (`nested`) one of a dimension more; not strict.
    Create { nested: bool },
    /// `a[i][j]...`: the element at those 1-based indexes, NULL out of
    /// range or of another number of indexes than dimensions.
    Index,
    /// `array_length(a, bigint)`: the length of a dimension.
    Length,
    /// `array_lower(a, bigint)`: its lower bound.
    Lower,
    /// `array_upper(a, bigint)`: its upper bound.
    Upper,
    /// `x op ANY (a)` (`all: false`) or `x op ALL (a)` of its operand `x`
    /// and array `a`, `op` a comparison: SQL's OR (AND) of `x op e` over
    /// every element `e`, false (true) of an empty or NULL array.
    Quantified { op: super::BinaryOp, all: bool },
    /// `array_to_string(a, delimiter[, null_string])`: its elements'
    /// texts, a NULL one skipped or written as the NULL string; not
    /// strict in the NULL string.
    ToString,
    /// `array_position(a, x[, start])`: the first index of `x` from
    /// `start` on, NULL if none; not strict in `x` nor `start`.
    Position,
    /// `a || b` and `array_cat(a, b)` of two arrays of one type; a NULL
    /// one is the other.
    Cat,
    /// `array_remove(a, x)`: `a` without the elements equal to `x` (NULL
    /// ones of a NULL `x`); not strict in `x`.
    Remove,
}

impl ArrayFunc {
    /// The name the real system gives the function.
    pub fn name(self) -> &'static str {
        match self {
            ArrayFunc::Create { .. } => "array_create",
            ArrayFunc::Index => "array_index",
            ArrayFunc::Length => "array_length",
            ArrayFunc::Lower => "array_lower",
            ArrayFunc::Upper => "array_upper",
            ArrayFunc::Quantified { all: false, .. } => "any",
            ArrayFunc::Quantified { all: true, .. } => "all",
            ArrayFunc::ToString => "array_to_string",
            ArrayFunc::Position => "array_position",
            ArrayFunc::Cat => "array_cat",
            ArrayFunc::Remove => "array_remove",
        }
    }
}

/// The real system's functions and operators of lists (`eval/list.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ListFunc {
    /// `LIST[a, b, ...]`: the list of them, NULLs kept; not strict.
    Create,
    /// `l[i][j]...` of `bigint` indexes: NULL out of range.
    Index,
    /// `l[a:b][c:d]...` of `bigint` bounds, two a slice.
    Slice,
    /// `list_length(l)`.
    Length,
    /// `list_append(l, x)` and `l || x`; not strict.
    Append,
    /// `list_prepend(x, l)` and `x || l`; not strict.
    Prepend,
    /// `list_cat(a, b)` and `a || b`; not strict.
    Cat,
    /// `list_remove(l, x)`; not strict in `x`.
    Remove,
}

impl ListFunc {
    /// The name the real system gives the function.
    pub fn name(self) -> &'static str {
        match self {
            ListFunc::Create => "list_create",
            ListFunc::Index => "list_index",
            ListFunc::Slice => "list_slice_linear",
            ListFunc::Length => "list_length",
            ListFunc::Append => "list_append",
            ListFunc::Prepend => "list_prepend",
            ListFunc::Cat => "list_cat",
            ListFunc::Remove => "list_remove",
        }
    }
}

/// The real system's functions and operators of `jsonb` (`eval/jsonb.rs`),
/// `<@` planned as `@>` with its operands swapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JsonbFunc {
    /// `jsonb -> text`: an object's field.
    GetField,
    /// `jsonb ->> text`: its text.
    GetFieldText,
    /// `jsonb -> bigint`: an array's element.
    GetElement,
    /// `jsonb ->> bigint`: its text.
    GetElementText,
    /// `jsonb @> jsonb`.
    Contains,
    /// `jsonb ? text`.
    HasKey,
    /// `jsonb || jsonb`.
    Concat,
    /// `jsonb - text`.
    DeleteKey,
    /// `jsonb - bigint`.
    DeleteElement,
    TypeOf,
    ArrayLength,
    StripNulls,
    Pretty,
    /// `j[k1][k2]...`: `j #> ARRAY[k1, k2, ...]`, its keys texts.
    GetPath,
    /// `to_jsonb(x)` of a value of any type (`eval/to_jsonb.rs`).
    From,
    /// `jsonb_build_array(x, ...)`: not strict, a NULL is `null`.
    BuildArray,
    /// `jsonb_build_object(key, value, ...)`, its keys texts: not strict.
    BuildObject,
}

impl JsonbFunc {
    /// The name the real system gives the function or operator.
    pub fn name(self) -> &'static str {
        match self {
            JsonbFunc::GetField | JsonbFunc::GetElement => "->",
            JsonbFunc::GetFieldText | JsonbFunc::GetElementText => "->>",
            JsonbFunc::Contains => "@>",
            JsonbFunc::HasKey => "?",
            JsonbFunc::Concat => "||",
            JsonbFunc::DeleteKey | JsonbFunc::DeleteElement => "-",
            JsonbFunc::TypeOf => "jsonb_typeof",
            JsonbFunc::ArrayLength => "jsonb_array_length",
            JsonbFunc::StripNulls => "jsonb_strip_nulls",
            JsonbFunc::Pretty => "jsonb_pretty",
            JsonbFunc::GetPath => "#>",
            JsonbFunc::From => "to_jsonb",
            JsonbFunc::BuildArray => "jsonb_build_array",
            JsonbFunc::BuildObject => "jsonb_build_object",
        }
    }
}

/// The real system's functions and operators of ranges
/// (`eval/range.rs`), each of ranges of one type, `<@` planned as `@>`
/// with its operands swapped, as the real system plans it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RangeFunc {
    /// `int4range(lower, upper, flags)` and the others of their type: a
    /// NULL bound is infinite, NULL flags an error (not strict).
    Create(RangeKind),
    Lower,
    Upper,
    IsEmpty,
    LowerInc,
    UpperInc,
    LowerInf,
    UpperInf,
    /// `range @> element`.
    ContainsElem,
    /// `range @> range`.
    ContainsRange,
    /// `&&`.
    Overlaps,
    /// `<<`.
    Before,
    /// `>>`.
    After,
    /// `&<`.
    OverLeft,
    /// `&>`.
    OverRight,
    /// `-|-`.
    Adjacent,
    /// `+`.
    Union,
    /// `*`.
    Intersection,
    /// `-`.
    Difference,
}

impl RangeFunc {
    /// The name the real system gives the function or operator.
    pub fn name(self) -> &'static str {
        match self {
            RangeFunc::Create(kind) => kind.name(),
            RangeFunc::Lower => "lower",
            RangeFunc::Upper => "upper",
            RangeFunc::IsEmpty => "isempty",
            RangeFunc::LowerInc => "lower_inc",
            RangeFunc::UpperInc => "upper_inc",
            RangeFunc::LowerInf => "lower_inf",
            RangeFunc::UpperInf => "upper_inf",
            RangeFunc::ContainsElem | RangeFunc::ContainsRange => "@>",
            RangeFunc::Overlaps => "&&",
            RangeFunc::Before => "<<",
            RangeFunc::After => ">>",
            RangeFunc::OverLeft => "&<",
            RangeFunc::OverRight => "&>",
            RangeFunc::Adjacent => "-|-",
            RangeFunc::Union => "+",
            RangeFunc::Intersection => "*",
            RangeFunc::Difference => "-",
        }
    }
}

/// The real system's `numeric` overloads of the rounding functions, each
/// of a `numeric` (and `round`'s second argument an `integer`), giving a
/// `numeric` (`eval/numeric_functions.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumericFunc {
    Abs,
    /// `round(n)`: to the nearest integer, half away from zero.
    Round,
    /// `round(n, places)`: to `places` places (before the point if
    /// negative), half away from zero.
    RoundTo,
    Trunc,
    /// `ceil(n)` and `ceiling(n)`.
    Ceil,
    Floor,
    /// `sqrt(n)`.
    Sqrt,
    /// `exp(n)`.
    Exp,
    /// `ln(n)`.
    Ln,
    /// `log10(n)` and `log(n)`.
    Log10,
    /// `log(base, n)`.
    LogBase,
}

impl NumericFunc {
    /// The name the real system gives the function.
    pub fn name(self) -> &'static str {
        match self {
            NumericFunc::Abs => "abs",
            NumericFunc::Round | NumericFunc::RoundTo => "round",
            NumericFunc::Trunc => "trunc",
            NumericFunc::Ceil => "ceil",
            NumericFunc::Floor => "floor",
            NumericFunc::Sqrt => "sqrt",
            NumericFunc::Exp => "exp",
            NumericFunc::Ln => "ln",
            NumericFunc::Log10 => "log10",
            NumericFunc::LogBase => "log",
        }
    }
}

/// The real system's overloads of the float functions: `real` ones keep
/// the width (`round(real)` is a `real`), the others take and give a
/// `double precision`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatFunc {
    Abs(FloatWidth),
    /// `round(f)`: to the nearest integer, ties to even.
    Round(FloatWidth),
    Trunc(FloatWidth),
    Ceil(FloatWidth),
    Floor(FloatWidth),
    Sqrt,
    Cbrt,
    Exp,
    Ln,
    /// `log10(f)` and `log(f)`.
    Log10,
    /// `power(a, b)` and `pow(a, b)`.
    Power,
}

/// Which float a `FloatFunc` takes and gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatWidth {
    /// `real`.
    F32,
    /// `double precision`.
    F64,
}

impl FloatFunc {
    /// The name the real system gives the function.
    pub fn name(self) -> &'static str {
        match self {
            FloatFunc::Abs(_) => "abs",
            FloatFunc::Round(_) => "round",
            FloatFunc::Trunc(_) => "trunc",
            FloatFunc::Ceil(_) => "ceil",
            FloatFunc::Floor(_) => "floor",
            FloatFunc::Sqrt => "sqrt",
            FloatFunc::Cbrt => "cbrt",
            FloatFunc::Exp => "exp",
            FloatFunc::Ln => "ln",
            FloatFunc::Log10 => "log10",
            FloatFunc::Power => "power",
        }
    }
}

/// The bitwise operators of the unsigned integers, as Materialize's
/// `bit_and_uint16`, `bit_shift_left_uint64`, `bit_not_uint32`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bitwise {
    And,
    Or,
    Xor,
    /// `a << b`, `b` a `uint4`.
    ShiftLeft,
    /// `a >> b`, `b` a `uint4`.
    ShiftRight,
    /// `~a`.
    Not,
}

impl Bitwise {
    /// The operator's name.
    pub fn name(self) -> &'static str {
        match self {
            Bitwise::And => "&",
            Bitwise::Or => "|",
            Bitwise::Xor => "#",
            Bitwise::ShiftLeft => "<<",
            Bitwise::ShiftRight => ">>",
            Bitwise::Not => "~",
        }
    }
}

/// Which end `Func::Trim` trims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrimSide {
    Both,
    Leading,
    Trailing,
}

impl Func {
    /// The name the real system gives the function.
    pub fn name(self) -> &'static str {
        match self {
            Func::AbsInt32 | Func::AbsInt64 | Func::AbsInt16 => "abs",
            Func::CharLength => "char_length",
            Func::OctetLength => "octet_length",
            Func::BitLength => "bit_length",
            Func::Substr => "substr",
            Func::Upper => "upper",
            Func::Lower => "lower",
            Func::Position => "position",
            Func::Strpos => "strpos",
            Func::Replace => "replace",
            Func::Left => "left",
            Func::Right => "right",
            Func::Trim(TrimSide::Both) => "btrim",
            Func::Trim(TrimSide::Leading) => "ltrim",
            Func::Trim(TrimSide::Trailing) => "rtrim",
            Func::Repeat => "repeat",
            Func::Reverse => "reverse",
            Func::Chr => "chr",
            Func::Lpad => "lpad",
            Func::Concat => "concat",
            Func::ConcatWs => "concat_ws",
            Func::Greatest => "greatest",
            Func::Least => "least",
            Func::Float(f) => f.name(),
            Func::Numeric(f) => f.name(),
            Func::Range(f) => f.name(),
            Func::Bitwise(b) => b.name(),
            Func::Jsonb(f) => f.name(),
            Func::Text(f) => f.name(),
            Func::Array(f) => f.name(),
            Func::List(f) => f.name(),
            Func::Bytes(f) => f.name(),
            Func::DateTrunc => "date_trunc",
            Func::Extract => "extract",
            Func::DatePart => "date_part",
        }
    }
}
