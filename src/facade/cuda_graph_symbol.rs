//! CUDA-family memcpy nodes to and from a `streamsim cc` program's device variables
//! (`cudaGraphAddMemcpyNodeToSymbol`, `cudaGraphAddMemcpyNodeFromSymbol`). A variable lives in the host bytes
//! of its device module (`cc_runtime.rs`, symbols), so the node is the 1D memcpy node that
//! `cudaGraphAddMemcpyNode1D` makes between those bytes and the other side, with `cudaMemcpyDefault` as the
//! symbol copies use. Rows and sources: `docs/semantics/graph-building.md` (GraphAddMemcpyNodeToSymbol).
#![allow(non_snake_case, reason = "the C API's names")]

use std::ffi::{c_uint, c_void};

use super::binding::{Api, contain};
use super::cc_runtime::symbol;
use super::cuda_graph_build::graph_add_memcpy_node_1d;
use super::cuda_runtime::{Error, codes};

const HOST_TO_DEVICE: c_uint = 1;
const DEVICE_TO_HOST: c_uint = 2;
const DEVICE_TO_DEVICE: c_uint = 3;
const DEFAULT: c_uint = 4;

/// The variable's bytes at `offset` if `symbol` is a variable holding `[offset, offset + count)` and `kind` is
/// one the call accepts; else `cudaErrorInvalidValue`, the one error code both calls list.
fn symbol_at(
    symbol_ptr: *const c_void,
    count: usize,
    offset: usize,
    kind: c_uint,
    other: c_uint,
) -> Result<usize, Error> {
    if kind != other && kind != DEVICE_TO_DEVICE && kind != DEFAULT {
        return Err(codes::InvalidValue);
    }
    let Some((addr, size)) = symbol(symbol_ptr) else {
        return Err(codes::InvalidValue);
    };
    match offset.checked_add(count) {
        Some(end) if end <= size => Ok(addr + offset),
        _ => Err(codes::InvalidValue),
    }
}

macro_rules! graph_symbol_calls {
    ($api:expr, $to:ident, $from:ident) => {
        /// `cudaGraphAddMemcpyNodeToSymbol` (and the MUSA twin): a memcpy node copying `count` bytes from
        /// `src` into the variable at `offset`; `kind` HostToDevice, DeviceToDevice or Default.
        ///
        /// # Safety
        /// `pGraphNode` is NULL or valid for a write; `pDependencies` holds `numDependencies` handles.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $to(
            pGraphNode: *mut *mut c_void,
            graph: *mut c_void,
            pDependencies: *const *mut c_void,
            numDependencies: usize,
            symbol: *const c_void,
            src: *const c_void,
            count: usize,
            offset: usize,
            kind: c_uint,
        ) -> Error {
            contain(codes::Unknown, || {
                match symbol_at(symbol, count, offset, kind, HOST_TO_DEVICE) {
                    // SAFETY: forwarded C contract; the destination is the variable's own bytes.
                    Ok(dst) => unsafe {
                        graph_add_memcpy_node_1d(
                            $api,
                            pGraphNode,
                            graph,
                            pDependencies,
                            numDependencies,
                            dst as *mut c_void,
                            src,
                            count,
                            DEFAULT,
                        )
                    },
                    Err(e) => e,
                }
            })
        }

        /// `cudaGraphAddMemcpyNodeFromSymbol` (and the MUSA twin): a memcpy node copying `count` bytes of the
        /// variable at `offset` into `dst`; `kind` DeviceToHost, DeviceToDevice or Default.
        ///
        /// # Safety
        /// As the `ToSymbol` form.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $from(
            pGraphNode: *mut *mut c_void,
            graph: *mut c_void,
            pDependencies: *const *mut c_void,
            numDependencies: usize,
            dst: *mut c_void,
            symbol: *const c_void,
            count: usize,
            offset: usize,
            kind: c_uint,
        ) -> Error {
            contain(codes::Unknown, || {
                match symbol_at(symbol, count, offset, kind, DEVICE_TO_HOST) {
                    // SAFETY: forwarded C contract; the source is the variable's own bytes.
                    Ok(src) => unsafe {
                        graph_add_memcpy_node_1d(
                            $api,
                            pGraphNode,
                            graph,
                            pDependencies,
                            numDependencies,
                            dst,
                            src as *const c_void,
                            count,
                            DEFAULT,
                        )
                    },
                    Err(e) => e,
                }
            })
        }
    };
}
graph_symbol_calls!(
    Api::Cuda,
    cudaGraphAddMemcpyNodeToSymbol,
    cudaGraphAddMemcpyNodeFromSymbol
);
graph_symbol_calls!(
    Api::Musa,
    musaGraphAddMemcpyNodeToSymbol,
    musaGraphAddMemcpyNodeFromSymbol
);
