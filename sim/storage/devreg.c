/* devreg.c: the registry of device models (dev_int.h): one line per model,
 * in the order of bbs_dev_kind, and the fields of bbsize-device(5) as one
 * list (those of every model, then each model's own), for the reader.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dev_int.h"

/* A new model: its file defines bbs_dev_type_NAME; name it here, at the
 * index of its bbs_dev_kind. */
extern const bbs_dev_type bbs_dev_type_table, bbs_dev_type_hdd, bbs_dev_type_ssd;
static const bbs_dev_type *const models[] = {
    &bbs_dev_type_table,
    &bbs_dev_type_hdd,
    &bbs_dev_type_ssd,
};
#define NMODELS (sizeof models / sizeof models[0])

/* The fields every model has. */
static const bbs_dev_field common[] = {
    { "name", -1, BBS_DEV_F_STR, BBS_DEV_FIELD(name), BBS_DEV_C_POS, 0 },
    { "capacity_bytes", -1, BBS_DEV_F_DBL, BBS_DEV_FIELD(capacity_bytes), BBS_DEV_C_POS, 1 },
};
#define NCOMMON (sizeof common / sizeof common[0])

const bbs_dev_type *
bbs_dev_type_of(int k)
{
    return k >= 0 && (size_t)k < NMODELS ? models[k] : NULL;
}

int
bbs_dev_addressed(const bbs_dev_params *p)
{
    const bbs_dev_type *t = bbs_dev_type_of((int)p->kind);

    return t ? t->addressed : 0;
}

size_t
bbs_dev_nmodels(void)
{
    return NMODELS;
}

const char *
bbs_dev_kind_name(bbs_dev_kind k)
{
    const bbs_dev_type *t = bbs_dev_type_of((int)k);

    return t ? t->name : "?";
}

int
bbs_dev_model_find(const char *name, size_t len)
{
    for (size_t k = 0; k < NMODELS; k++)
        if (strlen(models[k]->name) == len && strncmp(models[k]->name, name, len) == 0)
            return (int)k;
    return -1;
}

void
bbs_dev_model_list(char *buf, size_t len, const char *sep)
{
    size_t o = 0;

    if (len > 0)
        buf[0] = '\0';
    for (size_t k = 0; k < NMODELS && o < len; k++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", k ? sep : "", models[k]->name);
}

size_t
bbs_dev_nfields(void)
{
    size_t n = NCOMMON;

    for (size_t k = 0; k < NMODELS; k++)
        n += models[k]->nfields;
    return n;
}

const bbs_dev_field *
bbs_dev_field_at(size_t i)
{
    if (i < NCOMMON)
        return &common[i];
    i -= NCOMMON;
    for (size_t k = 0; k < NMODELS; k++) {
        if (i < models[k]->nfields)
            return &models[k]->fields[i];
        i -= models[k]->nfields;
    }
    return NULL;
}
