#ifndef GESTUREMAP_CEVDEV_H
#define GESTUREMAP_CEVDEV_H

#include <stddef.h>
#include <stdint.h>

/* One function per ioctl, so Swift never builds ioctl numbers itself. Each
 * returns 0 (or a count) on success and -errno on failure. */

/* The kernel's struct input_event size on this machine (24 bytes on 64-bit). */
size_t gm_input_event_size(void);

int gm_evdev_open(const char *path, int nonblocking);
int gm_evdev_name(int fd, char *name, size_t size);
int gm_evdev_id(int fd, uint16_t *bustype, uint16_t *vendor, uint16_t *product, uint16_t *version);
/* Bits of an event type (EV_KEY, EV_ABS...), or of the event types (type 0). */
int gm_evdev_bits(int fd, unsigned int type, uint8_t *bits, size_t size);
int gm_evdev_properties(int fd, uint8_t *bits, size_t size);
int gm_evdev_absinfo(int fd, unsigned int code, int32_t *value, int32_t *minimum, int32_t *maximum, int32_t *resolution);
int gm_evdev_grab(int fd, int grab);
int gm_evdev_clock_monotonic(int fd);
/* EVIOCGMTSLOTS: the values of `code` for `count` slots. */
int gm_evdev_mt_slots(int fd, unsigned int code, int32_t *values, size_t count);

/* The device number of an open node (for /run/udev/data/c<major>:<minor>). */
int gm_device_number(int fd, unsigned int *major, unsigned int *minor);

/* uinput: the physical path (sysfs's phys) of the device about to be made. */
int gm_uinput_set_phys(int fd, const char *phys);

/* Largest key code the kernel knows (KEY_MAX). */
unsigned int gm_key_max(void);

/* EVIOCGKEY: the keys held down now, one bit per key code. */
int gm_evdev_key_state(int fd, uint8_t *bits, size_t size);

#endif
