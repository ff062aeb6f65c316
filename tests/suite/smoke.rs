//! The quickstart, end to end.

use std::time::Duration;

use streamsim::{EventFlags, Kernel, Status, Stream};

use crate::common::cuda1;

#[test]
fn elapsed_time_is_kernel_plus_launch_gap() {
    let (_m, p) = cuda1();
    let a = p.create_event(EventFlags::DEFAULT).unwrap();
    let b = p.create_event(EventFlags::DEFAULT).unwrap();
    p.record_event(a, Stream::DEFAULT).unwrap();
    p.launch(
        Stream::DEFAULT,
        Kernel::new("k").duration(Duration::from_millis(2)),
    )
    .unwrap();
    p.record_event(b, Stream::DEFAULT).unwrap();
    assert_eq!(p.event_query(b).unwrap(), Status::NotReady);
    p.event_synchronize(b).unwrap();
    assert_eq!(p.event_query(b).unwrap(), Status::Complete);
    assert_eq!(p.event_elapsed_ms(a, b).unwrap(), 2.001);
}
