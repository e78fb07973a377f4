/* bb.c: the burst-buffer platform model (bb.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"
#include "bb_error.h"
#include "bb.h"
