/* jschema.c: check a JSON document against a schema, for tests/cli_json.sh.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: jschema SCHEMA.json DOC.json
 * Exit 0 when DOC satisfies SCHEMA; 1 with the path of the first violation
 * on stderr; 2 when a file cannot be read or parsed.
 *
 * The schemas of docs/json/ use this subset of JSON Schema (draft 2020-12),
 * and nothing else: "type" (a name or an array of names among object,
 * array, number, integer, string, boolean, null; an integer is a number
 * too), "properties", "required", "additionalProperties": false, "items"
 * (one schema for every element), "enum" (strings), "minimum", "$defs"
 * with "$ref": "#/$defs/NAME", and the annotations "description",
 * "title", "$schema", "$id", "$comment".  A keyword outside that list is
 * an error in the schema, so that a schema cannot silently promise a check
 * this program does not make. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static json_t *root_schema;

static int
type_is(const json_t *v, const char *t)
{
    if (strcmp(t, "object") == 0)
        return json_is_object(v);
    if (strcmp(t, "array") == 0)
        return json_is_array(v);
    if (strcmp(t, "number") == 0)
        return json_is_number(v);
    if (strcmp(t, "integer") == 0)
        return json_is_integer(v);
    if (strcmp(t, "string") == 0)
        return json_is_string(v);
    if (strcmp(t, "boolean") == 0)
        return json_is_boolean(v);
    if (strcmp(t, "null") == 0)
        return json_is_null(v);
    return -1;
}

static int fail(const char *path, const char *what, const char *detail)
{
    fprintf(stderr, "jschema: %s: %s%s%s\n", path[0] ? path : "(top)", what,
            detail ? " " : "", detail ? detail : "");
    return 1;
}

static int check(const json_t *s, const json_t *v, const char *path);

static int
check_type(const json_t *t, const json_t *v, const char *path)
{
    size_t i;
    json_t *e;

    if (json_is_string(t)) {
        int r = type_is(v, json_string_value(t));

        if (r < 0)
            return fail(path, "schema: unknown type", json_string_value(t));
        return r ? 0 : fail(path, "is not of type", json_string_value(t));
    }
    if (!json_is_array(t))
        return fail(path, "schema: type must be a string or an array", NULL);
    json_array_foreach(t, i, e) {
        if (!json_is_string(e))
            return fail(path, "schema: a type name must be a string", NULL);
        if (type_is(v, json_string_value(e)) > 0)
            return 0;
    }
    return fail(path, "is of none of the types allowed", NULL);
}

static int
check_object(const json_t *s, const json_t *v, const char *path)
{
    const json_t *props = json_object_get(s, "properties"), *req = json_object_get(s, "required"),
                 *add = json_object_get(s, "additionalProperties");
    const char *k;
    json_t *e;
    size_t i;
    char sub[1024];

    if (!json_is_object(v))
        return 0;   /* "type" says whether it must be one */
    if (req != NULL)
        json_array_foreach(req, i, e)
            if (json_object_get(v, json_string_value(e)) == NULL)
                return fail(path, "lacks the required key", json_string_value(e));
    json_object_foreach((json_t *)v, k, e) {
        const json_t *ps = props ? json_object_get(props, k) : NULL;

        snprintf(sub, sizeof sub, "%s.%s", path, k);
        if (ps == NULL) {
            if (json_is_false(add))
                return fail(path, "has a key the schema does not document:", k);
            continue;
        }
        if (check(ps, e, sub))
            return 1;
    }
    return 0;
}

static int
check(const json_t *s, const json_t *v, const char *path)
{
    const char *k;
    json_t *e;
    char sub[1024];

    if (!json_is_object(s))
        return fail(path, "schema: not an object", NULL);
    json_object_foreach((json_t *)s, k, e) {
        if (strcmp(k, "type") == 0) {
            if (check_type(e, v, path))
                return 1;
        } else if (strcmp(k, "properties") == 0 || strcmp(k, "required") == 0
                   || strcmp(k, "additionalProperties") == 0) {
            continue;   /* check_object */
        } else if (strcmp(k, "items") == 0) {
            size_t i;
            json_t *x;

            if (json_is_array(v))
                json_array_foreach(v, i, x) {
                    snprintf(sub, sizeof sub, "%s[%zu]", path, i);
                    if (check(e, x, sub))
                        return 1;
                }
        } else if (strcmp(k, "enum") == 0) {
            size_t i;
            json_t *x;
            int found = 0;

            json_array_foreach(e, i, x)
                found |= json_equal(x, (json_t *)v);
            if (!found)
                return fail(path, "is not one of the values the schema lists", NULL);
        } else if (strcmp(k, "minimum") == 0) {
            if (json_is_number(v) && json_number_value(v) < json_number_value(e))
                return fail(path, "is below the minimum", NULL);
        } else if (strcmp(k, "$ref") == 0) {
            const char *r = json_string_value(e);
            const json_t *t;

            if (r == NULL || strncmp(r, "#/$defs/", 8) != 0)
                return fail(path, "schema: only #/$defs/NAME references", r);
            t = json_object_get(json_object_get(root_schema, "$defs"), r + 8);
            if (t == NULL)
                return fail(path, "schema: no such definition", r);
            if (check(t, v, path))
                return 1;
        } else if (strcmp(k, "$defs") == 0 || strcmp(k, "description") == 0
                   || strcmp(k, "title") == 0 || strcmp(k, "$schema") == 0
                   || strcmp(k, "$id") == 0 || strcmp(k, "$comment") == 0) {
            continue;
        } else {
            return fail(path, "schema: keyword not supported by this checker:", k);
        }
    }
    return check_object(s, v, path);
}

int
main(int argc, char **argv)
{
    json_error_t je;
    json_t *doc;
    int rc;

    if (argc != 3) {
        fprintf(stderr, "usage: jschema SCHEMA.json DOC.json\n");
        return 2;
    }
    root_schema = json_load_file(argv[1], 0, &je);
    if (root_schema == NULL) {
        fprintf(stderr, "jschema: %s:%d: %s\n", argv[1], je.line, je.text);
        return 2;
    }
    doc = json_load_file(argv[2], 0, &je);
    if (doc == NULL) {
        fprintf(stderr, "jschema: %s:%d: %s\n", argv[2], je.line, je.text);
        json_decref(root_schema);
        return 2;
    }
    rc = check(root_schema, doc, "");
    json_decref(doc);
    json_decref(root_schema);
    return rc;
}
