//! The vendors' codes for simulator errors, by the facades' own mapping: for property tests that check the
//! exact code a vendor call would return for an answer of the engine API.

use crate::SimError;
use crate::facade::binding::{Api, code_of};

/// The `cudaError_t` that the CUDA facade returns for `e` (e.g. 719 for a kernel fault).
pub fn cuda_code(e: &SimError) -> i64 {
    code_of(Api::Cuda, e).0
}

/// The `aclError` that the ACL facade returns for `e` (e.g. 507015 for a kernel fault).
pub fn acl_code(e: &SimError) -> i64 {
    code_of(Api::Acl, e).0
}
