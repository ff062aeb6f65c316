//! What a query answers.

/// Whether work is finished, as a query reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Everything the query covers has finished (or there is nothing to wait for).
    Complete,
    /// Some of it has not finished at the calling thread's virtual time.
    NotReady,
}
