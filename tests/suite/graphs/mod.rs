//! Stream capture and graphs (`docs/semantics/capture-and-graphs.md`): capture rules with their codes in both
//! dialects, replay on the virtual clock, races inside and around graphs, bad handles.

mod acl_capture;
mod build;
mod build_fuzz;
mod child;
mod cuda_capture;
mod cuda_graph_api;
mod fam;
mod fuzz;
mod memory;
mod replay;
mod rows;
mod scenario;
