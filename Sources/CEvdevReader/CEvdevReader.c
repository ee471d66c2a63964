#include "CEvdevReader.h"

#include <errno.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <stdlib.h>
#include <string.h>

struct gm_evdev_reader {
    struct libevdev *device;
    /* Between a SYN_DROPPED and the end of the state it brings. */
    int syncing;
    /* The last record handed out: the SYN_REPORT that ends a sync takes its time. */
    struct input_event last;
};

gm_evdev_reader *gm_evdev_reader_new(int fd, int *error) {
    gm_evdev_reader *reader = calloc(1, sizeof *reader);
    if (!reader) {
        *error = ENOMEM;
        return NULL;
    }
    int rc = libevdev_new_from_fd(fd, &reader->device);
    if (rc < 0) {
        *error = -rc;
        free(reader);
        return NULL;
    }
    return reader;
}

void gm_evdev_reader_free(gm_evdev_reader *reader) {
    if (!reader) return;
    libevdev_free(reader->device);
    free(reader);
}

static struct input_event syn_report_at(const struct input_event *model) {
    struct input_event report;
    memset(&report, 0, sizeof report);
    report.input_event_sec = model->input_event_sec;
    report.input_event_usec = model->input_event_usec;
    report.type = EV_SYN;
    report.code = SYN_REPORT;
    return report;
}

int gm_evdev_reader_read(gm_evdev_reader *reader, void *buffer, size_t capacity) {
    struct input_event *out = buffer;
    size_t count = 0;
    /* Room for one more record, and for the SYN_REPORT that may close a sync. */
    while (count + 2 <= capacity) {
        struct input_event event;
        int flag = reader->syncing ? LIBEVDEV_READ_FLAG_SYNC : LIBEVDEV_READ_FLAG_NORMAL;
        int rc = libevdev_next_event(reader->device, flag, &event);
        if (reader->syncing) {
            if (rc == -EAGAIN) {
                /* The state is the kernel's again: one SYN_REPORT ends it. */
                reader->syncing = 0;
                reader->last = syn_report_at(&reader->last);
                out[count++] = reader->last;
                continue;
            }
            if (rc < 0) return count > 0 ? (int)count : rc;
            /* libevdev may close a sync in more than one packet (touches that
             * ended first): one packet of state is what the caller is told. */
            if (event.type == EV_SYN && event.code == SYN_REPORT) continue;
            out[count++] = reader->last = event;
            continue;
        }
        if (rc == -EAGAIN) break;
        if (rc < 0) return count > 0 ? (int)count : rc;
        if (rc == LIBEVDEV_READ_STATUS_SYNC) reader->syncing = 1;
        out[count++] = reader->last = event;
    }
    return (int)count;
}

static int put(struct input_event *out, size_t capacity, size_t *count, unsigned type, unsigned code, int value) {
    if (*count >= capacity) return 0;
    memset(&out[*count], 0, sizeof out[*count]);
    out[*count].type = (unsigned short)type;
    out[*count].code = (unsigned short)code;
    out[*count].value = value;
    (*count)++;
    return 1;
}

int gm_evdev_reader_state(gm_evdev_reader *reader, void *buffer, size_t capacity) {
    struct libevdev *dev = reader->device;
    struct input_event *out = buffer;
    size_t count = 0;
    int slots = libevdev_get_num_slots(dev);
    if (slots > 0) {
        for (int slot = 0; slot < slots; slot++) {
            put(out, capacity, &count, EV_ABS, ABS_MT_SLOT, slot);
            for (unsigned code = ABS_MT_TOUCH_MAJOR; code <= ABS_MT_TOOL_Y; code++) {
                if (!libevdev_has_event_code(dev, EV_ABS, code)) continue;
                put(out, capacity, &count, EV_ABS, code, libevdev_get_slot_value(dev, (unsigned)slot, code));
            }
        }
        put(out, capacity, &count, EV_ABS, ABS_MT_SLOT, libevdev_get_current_slot(dev));
    }
    for (unsigned code = 0; code < ABS_MT_SLOT; code++) {
        if (libevdev_has_event_code(dev, EV_ABS, code)) put(out, capacity, &count, EV_ABS, code, libevdev_get_event_value(dev, EV_ABS, code));
    }
    for (unsigned code = 0; code <= KEY_MAX; code++) {
        if (libevdev_has_event_code(dev, EV_KEY, code)) put(out, capacity, &count, EV_KEY, code, libevdev_get_event_value(dev, EV_KEY, code));
    }
    return (int)count;
}

struct libevdev *gm_evdev_reader_device(gm_evdev_reader *reader) { return reader->device; }
