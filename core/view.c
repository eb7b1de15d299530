/* view.c — the view-model tree, its JSON writer and its JSON reader (cJSON). */
#include "view.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct view {
    view_type type;
    int boolean;
    double number;
    char *string;      /* VIEW_STRING */
    size_t string_len;
    view **items;      /* VIEW_LIST, VIEW_MAP values */
    char **keys;       /* VIEW_MAP */
    size_t len, cap;
};

static view *view_new(view_type type)
{
    view *v = gw_xcalloc(1, sizeof *v);
    v->type = type;
    return v;
}

view *view_null(void) { return view_new(VIEW_NULL); }
view *view_list(void) { return view_new(VIEW_LIST); }
view *view_map(void) { return view_new(VIEW_MAP); }

view *view_bool(int b)
{
    view *v = view_new(VIEW_BOOL);
    v->boolean = b != 0;
    return v;
}

view *view_number(double n)
{
    view *v = view_new(VIEW_NUMBER);
    v->number = n;
    return v;
}

view *view_stringn(const char *s, size_t n)
{
    if (!s)
        return view_null();
    view *v = view_new(VIEW_STRING);
    v->string = gw_xstrndup(s, n);
    v->string_len = n;
    return v;
}

view *view_string(const char *s)
{
    return s ? view_stringn(s, strlen(s)) : view_null();
}

view *view_stringf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return view_string("");
    char *s = gw_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    view *v = view_new(VIEW_STRING);
    v->string = s;
    v->string_len = (size_t)n;
    return v;
}

static void container_grow(view *v)
{
    if (v->len < v->cap)
        return;
    v->cap = v->cap ? v->cap * 2 : 8;
    v->items = gw_xrealloc(v->items, v->cap * sizeof *v->items);
    if (v->type == VIEW_MAP)
        v->keys = gw_xrealloc(v->keys, v->cap * sizeof *v->keys);
}

view *view_list_push(view *list, view *item)
{
    if (!list || list->type != VIEW_LIST) {
        view_free(item);
        return NULL;
    }
    container_grow(list);
    list->items[list->len++] = item;
    return item;
}

view *view_map_set(view *map, const char *key, view *value)
{
    if (!map || map->type != VIEW_MAP) {
        view_free(value);
        return NULL;
    }
    if (!value)
        value = view_null();
    for (size_t i = 0; i < map->len; i++) {
        if (strcmp(map->keys[i], key) == 0) {
            view_free(map->items[i]);
            map->items[i] = value;
            return value;
        }
    }
    container_grow(map);
    map->keys[map->len] = gw_xstrdup(key);
    map->items[map->len++] = value;
    return value;
}

void view_map_set_str(view *map, const char *key, const char *s) { view_map_set(map, key, view_string(s)); }
void view_map_set_bool(view *map, const char *key, int b) { view_map_set(map, key, view_bool(b)); }
void view_map_set_int(view *map, const char *key, long long n) { view_map_set(map, key, view_number((double)n)); }

void view_map_set_num(view *map, const char *key, double n)
{
    view_map_set(map, key, isfinite(n) ? view_number(n) : view_null());
}

view_type view_kind(const view *v) { return v ? v->type : VIEW_NULL; }
int view_is_null(const view *v) { return !v || v->type == VIEW_NULL; }
double view_num(const view *v) { return v && v->type == VIEW_NUMBER ? v->number : NAN; }
int view_bool_value(const view *v) { return v && v->type == VIEW_BOOL && v->boolean; }
const char *view_str(const view *v) { return v && v->type == VIEW_STRING ? v->string : NULL; }
size_t view_str_len(const view *v) { return v && v->type == VIEW_STRING ? v->string_len : 0; }

size_t view_len(const view *v)
{
    return v && (v->type == VIEW_LIST || v->type == VIEW_MAP) ? v->len : 0;
}

view *view_list_at(const view *v, size_t i)
{
    return v && v->type == VIEW_LIST && i < v->len ? v->items[i] : NULL;
}

const char *view_map_key_at(const view *v, size_t i)
{
    return v && v->type == VIEW_MAP && i < v->len ? v->keys[i] : NULL;
}

view *view_map_value_at(const view *v, size_t i)
{
    return v && v->type == VIEW_MAP && i < v->len ? v->items[i] : NULL;
}

view *view_map_get(const view *map, const char *key)
{
    if (!map || map->type != VIEW_MAP)
        return NULL;
    for (size_t i = 0; i < map->len; i++)
        if (strcmp(map->keys[i], key) == 0)
            return map->items[i];
    return NULL;
}

view *view_path(const view *root, const char *dotted)
{
    const view *cur = root;
    const char *p = dotted;
    while (cur && *p) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        const view *next = NULL;
        if (cur->type == VIEW_MAP) {
            for (size_t i = 0; i < cur->len; i++)
                if (strlen(cur->keys[i]) == n && memcmp(cur->keys[i], p, n) == 0) {
                    next = cur->items[i];
                    break;
                }
        }
        cur = next;
        p = dot ? dot + 1 : p + n;
    }
    return (view *)cur;
}

int view_truthy(const view *v)
{
    if (!v)
        return 0;
    switch (v->type) {
    case VIEW_NULL: return 0;
    case VIEW_BOOL: return v->boolean;
    case VIEW_NUMBER: return 1;
    case VIEW_STRING: return 1;
    case VIEW_LIST: return v->len > 0;
    case VIEW_MAP: return 1;
    }
    return 0;
}

static void json_string(gw_buf *out, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    buf_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': buf_puts(out, "\\\""); break;
        case '\\': buf_puts(out, "\\\\"); break;
        case '\n': buf_puts(out, "\\n"); break;
        case '\r': buf_puts(out, "\\r"); break;
        case '\t': buf_puts(out, "\\t"); break;
        default:
            if (c < 0x20 || c == 0x7f) {
                char esc[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
                buf_puts(out, esc);
            } else if (c == '<' || c == '>' || c == '&') {
                /* Safe to embed in an HTML <script> or attribute without a second escape. */
                char esc[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
                buf_puts(out, esc);
            } else {
                buf_putc(out, (char)c);
            }
        }
    }
    buf_putc(out, '"');
}

static void json_number(gw_buf *out, double n)
{
    if (!isfinite(n)) {
        buf_puts(out, "null");
        return;
    }
    if (n == floor(n) && fabs(n) < 1e15) {
        buf_printf(out, "%.0f", n);
        return;
    }
    /* Shortest representation that reads back to the same double. */
    char tmp[32];
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, n);
        if (strtod(tmp, NULL) == n)
            break;
    }
    buf_puts(out, tmp);
}

static void indent(gw_buf *out, int pretty, int depth)
{
    if (!pretty)
        return;
    buf_putc(out, '\n');
    for (int i = 0; i < depth; i++)
        buf_puts(out, "  ");
}

static void json_write(const view *v, gw_buf *out, int pretty, int depth)
{
    switch (view_kind(v)) {
    case VIEW_NULL: buf_puts(out, "null"); break;
    case VIEW_BOOL: buf_puts(out, v->boolean ? "true" : "false"); break;
    case VIEW_NUMBER: json_number(out, v->number); break;
    case VIEW_STRING: json_string(out, v->string, v->string_len); break;
    case VIEW_LIST:
        if (!v->len) {
            buf_puts(out, "[]");
            break;
        }
        buf_putc(out, '[');
        for (size_t i = 0; i < v->len; i++) {
            if (i)
                buf_putc(out, ',');
            indent(out, pretty, depth + 1);
            json_write(v->items[i], out, pretty, depth + 1);
        }
        indent(out, pretty, depth);
        buf_putc(out, ']');
        break;
    case VIEW_MAP:
        if (!v->len) {
            buf_puts(out, "{}");
            break;
        }
        buf_putc(out, '{');
        for (size_t i = 0; i < v->len; i++) {
            if (i)
                buf_putc(out, ',');
            indent(out, pretty, depth + 1);
            json_string(out, v->keys[i], strlen(v->keys[i]));
            buf_puts(out, pretty ? ": " : ":");
            json_write(v->items[i], out, pretty, depth + 1);
        }
        indent(out, pretty, depth);
        buf_putc(out, '}');
        break;
    }
}

void view_to_json(const view *v, gw_buf *out, int pretty)
{
    json_write(v, out, pretty, 0);
    if (pretty)
        buf_putc(out, '\n');
}

static view *from_cjson(const cJSON *j, int depth)
{
    if (depth > 256)
        return NULL;
    if (cJSON_IsNull(j))
        return view_null();
    if (cJSON_IsBool(j))
        return view_bool(cJSON_IsTrue(j));
    if (cJSON_IsNumber(j))
        return view_number(j->valuedouble);
    if (cJSON_IsString(j))
        return view_string(j->valuestring);
    if (cJSON_IsArray(j) || cJSON_IsObject(j)) {
        view *v = cJSON_IsArray(j) ? view_list() : view_map();
        for (const cJSON *c = j->child; c; c = c->next) {
            view *item = from_cjson(c, depth + 1);
            if (!item) {
                view_free(v);
                return NULL;
            }
            if (v->type == VIEW_LIST)
                view_list_push(v, item);
            else
                view_map_set(v, c->string ? c->string : "", item);
        }
        return v;
    }
    return view_null();
}

view *view_from_json(const char *text, size_t len, gw_error *err)
{
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!j) {
        const char *at = cJSON_GetErrorPtr();
        size_t line = 1, col = 1;
        if (at && at >= text && at <= text + len) {
            for (const char *p = text; p < at; p++) {
                if (*p == '\n') {
                    line++;
                    col = 1;
                } else {
                    col++;
                }
            }
        }
        gw_error_set(err, GW_EDATA, "line %zu, column %zu: malformed JSON", line, col);
        return NULL;
    }
    view *v = from_cjson(j, 0);
    cJSON_Delete(j);
    if (!v)
        gw_error_set(err, GW_EDATA, "JSON nested more than 256 levels deep");
    return v;
}

void view_format_number(gw_buf *out, double n, int decimals)
{
    char digits[64];
    if (!isfinite(n)) {
        buf_puts(out, "n/a");
        return;
    }
    snprintf(digits, sizeof digits, "%.*f", decimals < 0 ? 0 : decimals, fabs(n));
    if (n < 0 && strspn(digits, "0.") != strlen(digits))
        buf_putc(out, '-');
    const char *dot = strchr(digits, '.');
    size_t int_len = dot ? (size_t)(dot - digits) : strlen(digits);
    for (size_t i = 0; i < int_len; i++) {
        if (i && (int_len - i) % 3 == 0)
            buf_putc(out, ',');
        buf_putc(out, digits[i]);
    }
    if (dot)
        buf_puts(out, dot);
}

view *view_copy(const view *v)
{
    if (!v)
        return NULL;
    switch (v->type) {
    case VIEW_NULL: return view_null();
    case VIEW_BOOL: return view_bool(v->boolean);
    case VIEW_NUMBER: return view_number(v->number);
    case VIEW_STRING: return view_stringn(v->string, v->string_len);
    case VIEW_LIST: {
        view *c = view_list();
        for (size_t i = 0; i < v->len; i++)
            view_list_push(c, view_copy(v->items[i]));
        return c;
    }
    case VIEW_MAP: {
        view *c = view_map();
        for (size_t i = 0; i < v->len; i++)
            view_map_set(c, v->keys[i], view_copy(v->items[i]));
        return c;
    }
    }
    return NULL;
}

void view_free(view *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->len; i++) {
        view_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
    free(v);
}
