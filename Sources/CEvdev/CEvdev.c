#include "CEvdev.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

size_t gm_input_event_size(void) { return sizeof(struct input_event); }

static int check(int result) { return result < 0 ? -errno : result; }

int gm_evdev_open(const char *path, int nonblocking) {
    int flags = O_RDONLY | O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0);
    return check(open(path, flags));
}

int gm_evdev_name(int fd, char *name, size_t size) {
    if (size == 0) return -EINVAL;
    int n = ioctl(fd, EVIOCGNAME(size), name);
    if (n < 0) return -errno;
    name[size - 1] = 0;
    return n;
}

int gm_evdev_id(int fd, uint16_t *bustype, uint16_t *vendor, uint16_t *product, uint16_t *version) {
    struct input_id id;
    if (ioctl(fd, EVIOCGID, &id) < 0) return -errno;
    *bustype = id.bustype;
    *vendor = id.vendor;
    *product = id.product;
    *version = id.version;
    return 0;
}

int gm_evdev_bits(int fd, unsigned int type, uint8_t *bits, size_t size) {
    memset(bits, 0, size);
    return check(ioctl(fd, EVIOCGBIT(type, size), bits));
}

int gm_evdev_properties(int fd, uint8_t *bits, size_t size) {
    memset(bits, 0, size);
    return check(ioctl(fd, EVIOCGPROP(size), bits));
}

int gm_device_number(int fd, unsigned int *major_number, unsigned int *minor_number) {
    struct stat info;
    if (fstat(fd, &info) < 0) return -errno;
    if (!S_ISCHR(info.st_mode)) return -ENOTTY;
    *major_number = major(info.st_rdev);
    *minor_number = minor(info.st_rdev);
    return 0;
}

int gm_evdev_absinfo(int fd, unsigned int code, int32_t *value, int32_t *minimum, int32_t *maximum, int32_t *resolution) {
    struct input_absinfo info;
    if (ioctl(fd, EVIOCGABS(code), &info) < 0) return -errno;
    *value = info.value;
    *minimum = info.minimum;
    *maximum = info.maximum;
    *resolution = info.resolution;
    return 0;
}

int gm_evdev_grab(int fd, int grab) { return check(ioctl(fd, EVIOCGRAB, grab ? 1 : 0)); }

int gm_evdev_clock_monotonic(int fd) {
    int clock = CLOCK_MONOTONIC;
    return check(ioctl(fd, EVIOCSCLOCKID, &clock));
}

int gm_evdev_mt_slots(int fd, unsigned int code, int32_t *values, size_t count) {
    /* struct input_mt_request_layout: the code, then one value per slot. */
    size_t bytes = sizeof(int32_t) * (count + 1);
    int32_t *request = calloc(count + 1, sizeof(int32_t));
    if (!request) return -ENOMEM;
    request[0] = (int32_t)code;
    int result = ioctl(fd, EVIOCGMTSLOTS(bytes), request);
    if (result < 0) {
        result = -errno;
    } else {
        memcpy(values, request + 1, sizeof(int32_t) * count);
        result = 0;
    }
    free(request);
    return result;
}

int gm_uinput_set_phys(int fd, const char *phys) { return check(ioctl(fd, UI_SET_PHYS, phys)); }

unsigned int gm_key_max(void) { return KEY_MAX; }

int gm_evdev_key_state(int fd, uint8_t *bits, size_t size) {
    memset(bits, 0, size);
    return check(ioctl(fd, EVIOCGKEY(size), bits));
}
