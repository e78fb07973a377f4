/* devload.h: storage-device parameter files by preset name or path, for
 * `bbsize device` and `bbsize bbarch` (bbsize-device(5)).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A preset NAME is devices/NAME.dev in the first of the data directories
 * (datadir.h) that has it, named relative to it in messages.
 * Both functions are src/ code: they read files and die with the
 * documented status on error. */
#ifndef BBSIZE_SRC_DEVLOAD_H
#define BBSIZE_SRC_DEVLOAD_H

#include "storage/device.h"

/* bb_device_load: the parameters of preset (a name; one with a '/' or
 * ".dev" is a file) or, when preset is NULL, of the file path.  Every
 * command that names a device (device --preset, bbarch --device/--hdd,
 * trace --device) reads it here.  An unknown preset exits 64 naming opt
 * (the option that gave it, "preset") and listing the known ones, or 66
 * when opt is NULL (a name from a file, not the command line); an
 * unreadable file 66; a bad file 65 naming file, line and field. */
void bb_device_load(const char *opt, const char *preset, const char *path, bbs_dev_params *p);

/* bb_device_presets: the preset names (without .dev) of the first data
 * directory that has any, comma-separated, sorted ("" when none); the
 * caller frees it. */
char *bb_device_presets(void);

#endif
