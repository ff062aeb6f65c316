//! The CUDA runtime facade: `cudaX` functions with CUDA's names, C types and error codes, routed to the bound
//! process or to the CUDA default machine (see [`crate::facade`]). `kernel<<<…, stream>>>` becomes
//! [`cudasimLaunchKernel`]. MUSA's names are in [`crate::musa`]; the implementation is shared.
#![allow(
    non_camel_case_types,
    non_upper_case_globals,
    reason = "the vendor's names"
)]

crate::facade::cuda_family::cuda_family!(cuda);
