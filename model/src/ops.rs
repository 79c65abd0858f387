//! What every evaluation of the model shares, apart from the expressions
//! themselves so that the value rules of floats (`floats.rs`) and of the
//! scalar functions (`functions.rs`) sit beside `scalar.rs` rather than in
//! it: the reason for no claim, a failed evaluation, and the arithmetic and
//! comparison operators.

/// Why the model makes no claim: the construct lies outside what it models.
pub type Unsupported = &'static str;

/// A failed evaluation: an error the engine carries as data, or a case the
/// model does not decide (a read that hits it makes no claim).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    Error(String),
    Unsupported(Unsupported),
}

/// An evaluation error with the real system's prefix.
pub fn error(text: &str) -> EvalError {
    EvalError::Error(format!("Evaluation error: {text}"))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// Whether an operand ordered `o` against the other satisfies it.
    pub fn holds(self, o: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            Cmp::Eq => o == Equal,
            Cmp::Ne => o != Equal,
            Cmp::Lt => o == Less,
            Cmp::Le => o != Greater,
            Cmp::Gt => o == Greater,
            Cmp::Ge => o != Less,
        }
    }
}
