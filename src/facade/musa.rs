//! The MUSA runtime facade: `musaX` = `cudaX` with the same semantics and codes (see [`crate::cuda`]), routed to
//! the bound process or to the MUSA default machine. `kernel<<<…, stream>>>` becomes [`musasimLaunchKernel`].
#![allow(
    non_camel_case_types,
    non_upper_case_globals,
    reason = "the vendor's names"
)]

crate::facade::cuda_family::cuda_family!(musa);
