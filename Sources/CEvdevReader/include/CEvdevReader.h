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

/* Sets the fuzz libevdev keeps for an axis (not the kernel's): what a clone
 * made after it gets. */
void gm_evdev_reader_set_fuzz(gm_evdev_reader *reader, unsigned code, int fuzz);

/* A uinput device made like the reader's device: its name, ids, properties,
 * event codes and axes (libevdev_uinput_create_from_device), so that libinput
 * gives it the same quirks. The kernel removes it when its descriptor closes,
 * however the process ends. */
typedef struct gm_evdev_clone gm_evdev_clone;

/* Made through the uinput node at `uinput_path`, with `phys` as its physical
 * path (sysfs's phys: the original's is not copied). NULL with *error set to
 * an errno value (EACCES: no write access to the node; ENOENT: no uinput). */
gm_evdev_clone *gm_evdev_clone_new(gm_evdev_reader *reader, const char *uinput_path, const char *phys, int *error);
void gm_evdev_clone_free(gm_evdev_clone *clone);

/* The clone's /dev/input/eventN, or NULL when the kernel has not said. */
const char *gm_evdev_clone_devnode(gm_evdev_clone *clone);

/* Writes `count` struct input_event records in one write: 0, or -errno. */
int gm_evdev_clone_write(gm_evdev_clone *clone, const void *events, size_t count);

#endif
