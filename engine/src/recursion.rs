//! How deep whatever the engine walks recursively may nest, the error past
//! that, and the stack those walks run on.
//!
//! Two rules keep every recursive walk off the end of its thread's stack,
//! whatever that thread's size (a 2 MiB test thread, the runner's child,
//! a timely worker): a structure that can nest is held to
//! [`RECURSION_LIMIT`] where it is built (the planner, lowering), and
//! every walk over it runs inside [`grown`], which moves to a new stack
//! segment when the current one runs low, as Materialize's `maybe_grow`
//! does. So the limit, and never the stack, decides what is refused.

/// How deep a planned expression, and a plan after views are inlined, may
/// nest: every stage after planning (lowering, rendering, evaluation on a
/// worker, cloning, dropping) walks them recursively.
pub const RECURSION_LIMIT: usize = 512;

/// The real system's text for a too-deep expression or plan (`mz_ore`'s
/// `RecursionLimitError`).
pub fn recursion_limit_error() -> String {
    format!("exceeded recursion limit of {RECURSION_LIMIT}")
}

/// Stack that must be left for one level of a walk, beyond which [`grown`]
/// moves to a new segment: a level of lowering or rendering takes tens of
/// KiB in a debug build, so this is generous.
const RED_ZONE: usize = 1 << 20;

/// The size of each new segment.
const SEGMENT: usize = 16 << 20;

/// Runs `f`, one level of a recursive walk, on the current stack if at
/// least [`RED_ZONE`] of it is left, else on a new segment.
pub fn grown<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// Gives sqlparser's own recursion (the `recursive` crate's `maybe_grow`
/// at each of its recursive parsing functions) the red zone and segments
/// of [`grown`]: its default red zone, 128 KiB, is less than one level of
/// parsing a derived table takes between two of its checks in a debug
/// build, which overflowed a thread's stack. Process-wide, set once.
pub fn grow_sqlparser() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        recursive::set_minimum_stack_size(RED_ZONE);
        recursive::set_stack_allocation_size(SEGMENT);
    });
}

/// Runs `f` with at least `bytes` of stack, on a new segment of that size
/// if the current stack has less left (for a walk whose depth is known
/// before it starts, such as dropping a syntax tree).
pub fn with_stack<T>(bytes: usize, f: impl FnOnce() -> T) -> T {
    let bytes = bytes.max(RED_ZONE);
    stacker::maybe_grow(bytes, bytes, f)
}
