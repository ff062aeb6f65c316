# The Ascend multi-device guide — multi-device programming in ACL, on a machine with two devices.
#
# 1. Device selection (多Device选择): count the devices, then pick one per host thread with aclrtSetDevice;
#    streams, events and memory created afterwards belong to that device (to its default context).
# 2. Streams and events across devices (Stream和Event的行为), the seed's sample:
#      aclrtSetDevice(0); aclrtCreateStream(&s0); myKernel<<<8, nullptr, s0>>>();   // fine
#      aclrtSetDevice(1); aclrtCreateStream(&s1); myKernel<<<8, nullptr, s1>>>();   // fine
#      myKernel<<<8, nullptr, s0>>>();                                              // fails
#    and the rules after it: aclrtMemcpyAsync on s0, aclrtRecordEvent and aclrtStreamWaitEvent with event and
#    stream on different devices fail; aclrtSynchronizeEvent and aclrtQueryEvent of another device's event
#    work.
# 3. The P2P copy sample (跨Device的数据交互), call for call:
#      aclrtDeviceCanAccessPeer(&canAccessPeer, 0, 1);
#      aclrtSetDevice(0); aclrtDeviceEnablePeerAccess(1, 0); aclrtMalloc(&dev0Mem, 10, ...HUGE_FIRST_P2P);
#      aclrtSetDevice(1); aclrtDeviceEnablePeerAccess(0, 0); aclrtMalloc(&dev1Mem, 10, ...HUGE_FIRST_P2P);
#      aclrtMemcpy(dev1Mem, 10, dev0Mem, 10, ACL_MEMCPY_DEVICE_TO_DEVICE);
#      aclrtDeviceDisablePeerAccess(0); aclrtFree(dev1Mem); aclrtResetDevice(1);
#      aclrtSetDevice(0); aclrtDeviceDisablePeerAccess(1); aclrtFree(dev0Mem); aclrtResetDeviceForce(0);
#    plus the same copy once access is disabled again.
dialect acl
devices 2

# 1. Device selection.
get-device                        # no device set on this thread yet: 107002
get-device-count                  # aclrtGetDeviceCount
set-device 0
stream s0                         # on device 0
event e0
malloc buf0 4KiB
malloc-host host 4KiB
kernel myKernel on s0 20us        # fine: s0 belongs to the current context
record e0 on s0
set-device 1                      # this thread now works on device 1 (its default context)
stream s1
event e1
kernel myKernel on s1 20us        # fine
get-device

# 2. Streams and events of device 0 while device 1 is current.
kernel myKernel on s0 20us        # 107003: s0 is not in the current context
memcpy-async buf0 host on s0      # 107003
record e1 on s0                   # 107003: event on device 1, stream on device 0
wait s1 e0                        # 107003: stream on device 1, event on device 0
sync event e0                     # works: waits for device 0's kernel
query e0                          # works

# 3. The P2P copy sample.
can-access-peer 0 1
set-device 0
enable-peer-access 1              # device 0 → device 1
malloc dev0Mem 10
set-device 1
enable-peer-access 0              # device 1 → device 0
malloc dev1Mem 10
memcpy dev1Mem dev0Mem            # a direct device-to-device copy over the link
disable-peer-access 0
memcpy dev1Mem dev0Mem            # device 1 no longer has access: 107000
free dev1Mem
reset-device 1                    # device 1 was set twice (parts 1 and 3): this only drops a reference
set-device 0
disable-peer-access 1
free dev0Mem
reset-device-force 0              # frees device 0 whatever its count
reset-device 1                    # the second reset of device 1 frees it ...
reset-device 1                    # ... and a third has nothing to release: 507007
