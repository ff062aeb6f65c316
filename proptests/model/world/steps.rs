//! The model's steps of a world program: what each call does (the rules are in the parent module's
//! documentation).

use streamsim::testing::BUFFER_BYTES;
use streamsim::testing::world::{WBuf, WEvent, WOp, WResult};
use streamsim::{CopyPath, OpKind, PeerProblem, SimError};

use super::{World, copy_ns, event_id};

impl World<'_> {
    pub(super) fn step(&mut self, i: usize, op: &WOp) -> WResult {
        // The implicit set_device of a call naming a stream or device is not refused by a sticky error.
        match op {
            WOp::Launch { stream: s, .. }
            | WOp::Copy { stream: s, .. }
            | WOp::Record { stream: s, .. }
            | WOp::Wait { stream: s, .. }
            | WOp::StreamSynchronize(s)
            | WOp::StreamQuery(s) => {
                self.stream(*s);
            }
            WOp::DeviceSynchronize(d)
            | WOp::EnablePeer { device: d, .. }
            | WOp::DisablePeer { device: d, .. } => self.device(*d),
            WOp::EventSynchronize(_) | WOp::EventQuery(_) => {}
        }
        self.checked(|w| w.step_checked(i, op))
    }

    fn step_checked(&mut self, i: usize, op: &WOp) -> WResult {
        let p = self.at.0;
        match op {
            WOp::Launch {
                stream,
                duration_ns,
                reads,
                writes,
                fault,
            } => {
                let key = self.stream(*stream);
                let now = self.call();
                let acc: Vec<(WBuf, bool)> = reads
                    .iter()
                    .map(|&b| (b, false))
                    .chain(writes.iter().map(|&b| (b, true)))
                    .collect();
                self.enqueue(
                    key,
                    now,
                    *duration_ns,
                    None,
                    OpKind::Kernel,
                    format!("k{i}"),
                    &acc,
                    Some(i),
                    *fault,
                );
                Ok(None)
            }
            WOp::Copy { stream, src, dst } => {
                let key = self.stream(*stream);
                let now = self.call();
                let runner = self.streams[&key].device;
                let path = if src.device == dst.device {
                    CopyPath::OnDevice
                } else {
                    let other = if runner == src.device {
                        dst.device
                    } else {
                        src.device
                    };
                    if self.peers.contains(&(p, runner, other)) {
                        CopyPath::PeerLink
                    } else {
                        CopyPath::StagedThroughHost
                    }
                };
                self.enqueue(
                    key,
                    now,
                    copy_ns(path),
                    None,
                    OpKind::Memcpy {
                        path,
                        bytes: BUFFER_BYTES,
                    },
                    "memcpy_async".into(),
                    &[(*src, false), (*dst, true)],
                    None,
                    false,
                );
                Ok(None)
            }
            WOp::Record { slot, stream } => {
                let key = self.stream(*stream);
                let now = self.call();
                let e = WEvent {
                    owner: p,
                    device: self.streams[&key].device,
                    slot: *slot,
                };
                let id = event_id(p, self.prog.devices, e);
                let op = self.enqueue(
                    key,
                    now,
                    0,
                    None,
                    OpKind::Record { event: id },
                    format!("record event {id}"),
                    &[],
                    None,
                    false,
                );
                self.events.insert((e.owner, e.device, e.slot), Some(op));
                Ok(None)
            }
            WOp::Wait { stream, event } => {
                let key = self.stream(*stream);
                let now = self.call();
                if let Some(rec) = self.latest(*event) {
                    let id = event_id(p, self.prog.devices, *event);
                    let on = &self.ops[rec].event;
                    let kind = OpKind::Wait {
                        event: id,
                        on: on.stream,
                        seq: on.seq,
                    };
                    self.enqueue(
                        key,
                        now,
                        0,
                        Some(rec),
                        kind,
                        format!("wait event {id}"),
                        &[],
                        None,
                        false,
                    );
                }
                Ok(None)
            }
            WOp::StreamSynchronize(s) => {
                let key = self.stream(*s);
                let now = self.call();
                let label = format!("stream_synchronize({})", self.streams[&key].id);
                let covered = self.covered(key);
                self.block(now, &covered, label)
            }
            WOp::EventSynchronize(e) => {
                let now = self.call();
                match self.latest(*e) {
                    Some(rec) => {
                        let label = format!(
                            "event_synchronize(event {})",
                            event_id(p, self.prog.devices, *e)
                        );
                        self.block(now, &[rec], label)
                    }
                    None => Ok(None),
                }
            }
            WOp::DeviceSynchronize(d) => self.device_synchronize(*d),
            WOp::StreamQuery(s) => {
                let key = self.stream(*s);
                let covered = self.covered(key);
                self.query_all(&covered)
            }
            WOp::EventQuery(e) => {
                let rec = self.latest(*e);
                self.query_all(&Vec::from_iter(rec))
            }
            WOp::EnablePeer { device, peer } => {
                self.call();
                if self.peers.insert((p, *device, *peer)) {
                    Ok(None)
                } else {
                    Err(SimError::PeerAccess {
                        what: "enable_peer_access",
                        device: *device,
                        peer: *peer,
                        problem: PeerProblem::AlreadyEnabled,
                    })
                }
            }
            WOp::DisablePeer { device, peer } => {
                self.call();
                if self.peers.remove(&(p, *device, *peer)) {
                    Ok(None)
                } else {
                    Err(SimError::PeerAccess {
                        what: "disable_peer_access",
                        device: *device,
                        peer: *peer,
                        problem: PeerProblem::NotEnabled,
                    })
                }
            }
        }
    }
}
