//! The vendor layer: everything vendor-facing. The shared routing and panic containment ([`binding`]), the
//! CUDA/MUSA name table ([`cuda_family`]) and implementation ([`cuda_runtime`]) behind [`cuda`] and [`musa`],
//! the ACL facade ([`acl`]), and the C library's own calls ([`capi`]). It calls the engine; the engine never
//! calls it.

pub mod acl;
pub mod binding;
pub(crate) mod c_names;
pub mod capi;
pub(crate) mod capi_toolkit;
pub mod cuda;
pub(crate) mod cuda_device;
pub(crate) mod cuda_device_prop;
pub(crate) mod cuda_family;
pub(crate) mod cuda_graph;
pub(crate) mod cuda_host_memory;
pub(crate) mod cuda_pool;
pub(crate) mod cuda_runtime;
pub(crate) mod cuda_stream_info;
pub(crate) mod determinism_check;
pub(crate) mod exit;
pub(crate) mod kernel_ctx;
pub mod musa;
