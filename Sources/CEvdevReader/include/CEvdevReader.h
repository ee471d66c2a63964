#ifndef GESTUREMAP_CEVDEVREADER_H
#define GESTUREMAP_CEVDEVREADER_H

#include <stddef.h>

/* A live device read through libevdev, which keeps the device's state and,
 * after SYN_DROPPED, brings the caller's state up to date from the kernel's
 * (EVIOCGMTSLOTS, EVIOCGABS, EVIOCGKEY) the way the kernel documents. */
typedef struct gm_evdev_reader gm_evdev_reader;

/* Takes over reading `fd` (which stays the caller's to close). NULL with
 * *error set to an errno value when libevdev cannot read the device. */
gm_evdev_reader *gm_evdev_reader_new(int fd, int *error);
void gm_evdev_reader_free(gm_evdev_reader *reader);

/* Fills `buffer` with up to `capacity` struct input_event records, in the
 * order the device's state changed. After SYN_DROPPED comes the SYN_DROPPED
 * record itself, then the changes that bring the state to the kernel's, then
 * one SYN_REPORT that ends them: the records between SYN_DROPPED and that
 * SYN_REPORT are the state as it is now, not motion.
 * Returns the number of records, 0 when none is pending, or -errno (-ENODEV:
 * the device is gone). */
int gm_evdev_reader_read(gm_evdev_reader *reader, void *buffer, size_t capacity);

/* The device's state as libevdev holds it now, as records: every slot's
 * ABS_MT_* values (each slot selected first, the current slot last), then the
 * other axes and the keys. Returns the number of records written. */
int gm_evdev_reader_state(gm_evdev_reader *reader, void *buffer, size_t capacity);

/* libevdev's own handle of the reader's device, which a uinput copy of the
 * device is made from (libevdev_uinput_create_from_device). The reader's: the
 * caller neither frees it nor keeps it past the reader. */
struct libevdev;
struct libevdev *gm_evdev_reader_device(gm_evdev_reader *reader);

#endif
