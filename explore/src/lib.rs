//! The explorer: scenarios nobody wrote. From a seed it generates a valid
//! datadriven scenario ([`generate`]), checks it the way the suite checks a
//! file and against the independent model ([`check`]), and shrinks a
//! failing one to a small scenario that still fails the same way
//! ([`shrink`]), ready to review and move into `testdata/`; under GitHub
//! Actions its findings are annotated and summarised for a reviewer
//! ([`github`]).

pub mod check;
pub mod generate;
pub mod github;
pub mod shrink;
