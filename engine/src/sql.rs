//! SQL front end (in progress).
