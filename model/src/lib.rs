//! An independent, naive model of the engine's SQL subset. It evaluates a
//! scenario without differential dataflow and without the engine's planner
//! or evaluator (only the engine's plain value types are shared), and
//! claims what each directive must print, or makes no claim and says why.
//! Agreement between configurations cannot catch a bug in code they share;
//! a disagreement with this model can.
//!
//! Layers, each using only those before it: [`types`] (column types),
//! [`ops`] (operators and failures), [`floats`] (float values), [`functions`] (scalar functions),
//! [`scalar`] (expressions),
//! [`window`] (window functions over a SELECT's rows),
//! [`relation`] (a relation's rows and errors, the catalog a query reads),
//! [`from`] (FROM: joins inner and outer, by nested loops),
//! [`query`] (SELECT over whole collections, subqueries per outer row),
//! [`body`] (set operations over SELECTs),
//! [`catalog`] (tables with their history, views, indexes, ids), [`assign`]
//! (a value stored in a column), [`parse`]
//! (directive text to statements), [`statement`] (DDL and writes),
//! [`session`] (directives: time, reads, peeks, holds, pauses) and
//! [`check`] (a script against one run's outputs).

pub mod assign;
pub mod body;
pub mod catalog;
pub mod check;
pub mod floats;
pub mod from;
pub mod functions;
pub mod ops;
pub mod ordering;
pub mod parse;
pub mod query;
pub mod relation;
pub mod scalar;
pub mod session;
pub mod statement;
pub mod types;
pub mod window;

pub use check::{check, Mismatch};
pub use session::{Expectation, Model};
