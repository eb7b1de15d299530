/* view.c — the view-model tree, its JSON writer and its JSON reader (cJSON). */
#include "view.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term.h"

struct view {
    unsigned char type;       /* a view_type */
    unsigned char boolean;
    uint32_t len;             /* VIEW_LIST, VIEW_MAP: items */
    union {
        double number;        /* VIEW_NUMBER */
        struct {
            char *data;       /* usually just after the node, in its block */
            size_t len;
        } str;                /* VIEW_STRING */
        struct {
            view **items;     /* a map's keys and their ownership follow in the same block */
            size_t cap;
        } c;                  /* VIEW_LIST, VIEW_MAP */
    } u;
};

/* A map's keys (pooled, see below, unless owned[i]) and which of them it owns. */
#define MAP_KEYS(m) ((const char **)(void *)((m)->u.c.items + (m)->u.c.cap))
#define MAP_OWNED(m) ((unsigned char *)(MAP_KEYS(m) + (m)->u.c.cap))

/* Map keys are interned: the process keeps one copy of each key's text, so a model with the
 * same keys in every option does not copy them again, lookups compare pointers, and a plugin
 * state given the same key pointer again finds its string in Lua's cache (keyed by address).
 * The pool is bounded: a key longer than KEY_POOL_LEN, or any new key once KEY_POOL_MAX are
 * pooled, is a private copy its map owns.  So a key's text is either always pooled or never. */
#define KEY_POOL_LEN 64
#define KEY_POOL_MAX 65536

static struct {
    char **slots;      /* open addressing; cap is a power of two, at most half full */
    size_t cap, n;
} key_pool;

static size_t key_hash(const char *s, size_t *len)
{
    size_t h = 2166136261u, n = 0;   /* FNV-1a */
    for (; s[n]; n++)
        h = (h ^ (unsigned char)s[n]) * 16777619u;
    *len = n;
    return h;
}

/* The pooled copy of key; added when add and there is room.  NULL when not pooled. */
static const char *key_pool_get(const char *key, int add)
{
    size_t len, h = key_hash(key, &len);
    if (len > KEY_POOL_LEN)
        return NULL;
    size_t mask = key_pool.cap - 1;
    for (size_t i = h & mask; key_pool.cap && key_pool.slots[i]; i = (i + 1) & mask)
        if (strcmp(key_pool.slots[i], key) == 0)
            return key_pool.slots[i];
    if (!add || key_pool.n >= KEY_POOL_MAX)
        return NULL;
    if ((key_pool.n + 1) * 2 > key_pool.cap) {
        size_t cap = key_pool.cap ? key_pool.cap * 2 : 256;
        char **slots = gw_xcalloc(cap, sizeof *slots);
        for (size_t j = 0; j < key_pool.cap; j++) {
            if (!key_pool.slots[j])
                continue;
            size_t l, k = key_hash(key_pool.slots[j], &l) & (cap - 1);
            while (slots[k])
                k = (k + 1) & (cap - 1);
            slots[k] = key_pool.slots[j];
        }
        free(key_pool.slots);
        key_pool.slots = slots;
        key_pool.cap = cap;
    }
    mask = key_pool.cap - 1;
    size_t i = h & mask;
    while (key_pool.slots[i])
        i = (i + 1) & mask;
    key_pool.n++;
    return key_pool.slots[i] = gw_xstrndup(key, len);
}

/* A new node of size bytes (zeroed up to sizeof(view)).  A view's memory is plain malloc's:
 * a command's views die one by one with view_free.  (An arena for a decision and its report,
 * freed at once, saved 2.4 M of the 30 M instructions of `gpuwise report
 * examples/vision-team.lua --format html`, 8%, and 0.3 of its 9.5 ms, 3%: less than the 10%
 * that would pay for a second way to allocate every view.) */
static view *node_alloc(size_t size)
{
    view *v = gw_xmalloc(size);
    memset(v, 0, sizeof *v);
    return v;
}

/* Index of key in map, or map->len.  pooled: key_pool_get(key, ...). */
static size_t map_find(const view *map, const char *key, const char *pooled)
{
    for (size_t i = 0; i < map->len; i++)
        if (pooled ? MAP_KEYS(map)[i] == pooled : MAP_OWNED(map)[i] && strcmp(MAP_KEYS(map)[i], key) == 0)
            return i;
    return map->len;
}

static view *view_new(view_type type)
{
    view *v = node_alloc(sizeof *v);
    v->type = type;
    return v;
}

/* Null, true and false are one node each, never freed: no view is changed once made, and
 * `gpuwise report examples/vision-team.lua --format html` made 7,800 of them, a malloc and a
 * free each (78.9 M -> 75.2 M instructions). */
static view shared_null = {.type = VIEW_NULL};
static view shared_true = {.type = VIEW_BOOL, .boolean = 1};
static view shared_false = {.type = VIEW_BOOL};

static int shared(const view *v)
{
    return v == &shared_null || v == &shared_true || v == &shared_false;
}

view *view_null(void) { return &shared_null; }
view *view_list(void) { return view_new(VIEW_LIST); }
view *view_map(void) { return view_new(VIEW_MAP); }
view *view_bool(int b) { return b ? &shared_true : &shared_false; }

view *view_number(double n)
{
    view *v = view_new(VIEW_NUMBER);
    v->u.number = n;
    return v;
}

view *view_stringn(const char *s, size_t n)
{
    if (!s)
        return view_null();
    /* The text lives in the node's own block: one allocation per string, not two. */
    view *v = node_alloc(sizeof *v + n + 1);
    v->type = VIEW_STRING;
    v->u.str.data = (char *)(v + 1);
    memcpy(v->u.str.data, s, n);
    v->u.str.data[n] = '\0';
    v->u.str.len = n;
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
    view *v = view_new(VIEW_STRING);
    char *s = gw_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    v->u.str.data = s;
    v->u.str.len = (size_t)n;
    return v;
}

static void container_grow(view *v)
{
    if (v->len < v->u.c.cap)
        return;
    size_t cap = v->u.c.cap ? v->u.c.cap * 2 : 8;
    if (v->type != VIEW_MAP) {
        v->u.c.items = gw_xrealloc(v->u.c.items, cap * sizeof *v->u.c.items);
    } else {
        /* A map's values, keys and key ownership share one block (freed with items). */
        char *block = gw_xmalloc(cap * (sizeof(view *) + sizeof(const char *) + 1));
        view **items = (view **)(void *)block;
        const char **keys = (const char **)(void *)(items + cap);
        unsigned char *owned = (unsigned char *)(keys + cap);
        if (v->len) {
            memcpy(items, v->u.c.items, v->len * sizeof *items);
            memcpy(keys, MAP_KEYS(v), v->len * sizeof *keys);
            memcpy(owned, MAP_OWNED(v), v->len * sizeof *owned);
        }
        free(v->u.c.items);
        v->u.c.items = items;
    }
    v->u.c.cap = cap;
}

view *view_list_push(view *list, view *item)
{
    if (!list || list->type != VIEW_LIST) {
        view_free(item);
        return NULL;
    }
    container_grow(list);
    list->u.c.items[list->len++] = item;
    return item;
}

/* Appends key (its pooled copy, else a copy the map owns) and value to map. */
static view *map_append(view *map, const char *key, const char *pooled, view *value)
{
    container_grow(map);
    MAP_KEYS(map)[map->len] = pooled ? pooled : gw_xstrdup(key);
    MAP_OWNED(map)[map->len] = !pooled;
    map->u.c.items[map->len++] = value;
    return value;
}

view *view_map_set(view *map, const char *key, view *value)
{
    if (!map || map->type != VIEW_MAP) {
        view_free(value);
        return NULL;
    }
    if (!value)
        value = view_null();
    const char *pooled = key_pool_get(key, 1);
    size_t i = map_find(map, key, pooled);
    if (i < map->len) {
        view_free(map->u.c.items[i]);
        map->u.c.items[i] = value;
        return value;
    }
    return map_append(map, key, pooled, value);
}

view *view_map_add(view *map, const char *key, view *value)
{
    if (!map || map->type != VIEW_MAP) {
        view_free(value);
        return NULL;
    }
    return map_append(map, key, key_pool_get(key, 1), value ? value : view_null());
}

const char *view_key(const char *key)
{
    return key_pool_get(key, 1);
}

view *view_map_add_key(view *map, const char *pooled, view *value)
{
    if (!map || map->type != VIEW_MAP) {
        view_free(value);
        return NULL;
    }
    return map_append(map, pooled, pooled, value ? value : view_null());
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
double view_num(const view *v) { return v && v->type == VIEW_NUMBER ? v->u.number : NAN; }
int view_bool_value(const view *v) { return v && v->type == VIEW_BOOL && v->boolean; }
const char *view_str(const view *v) { return v && v->type == VIEW_STRING ? v->u.str.data : NULL; }
size_t view_str_len(const view *v) { return v && v->type == VIEW_STRING ? v->u.str.len : 0; }

size_t view_len(const view *v)
{
    return v && (v->type == VIEW_LIST || v->type == VIEW_MAP) ? v->len : 0;
}

view *view_list_at(const view *v, size_t i)
{
    return v && v->type == VIEW_LIST && i < v->len ? v->u.c.items[i] : NULL;
}

const char *view_map_key_at(const view *v, size_t i)
{
    return v && v->type == VIEW_MAP && i < v->len ? MAP_KEYS(v)[i] : NULL;
}

view *view_map_value_at(const view *v, size_t i)
{
    return v && v->type == VIEW_MAP && i < v->len ? v->u.c.items[i] : NULL;
}

view *view_map_get(const view *map, const char *key)
{
    if (!map || map->type != VIEW_MAP || !map->len)
        return NULL;
    size_t i = map_find(map, key, key_pool_get(key, 0));
    return i < map->len ? map->u.c.items[i] : NULL;
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
                if (strlen(MAP_KEYS(cur)[i]) == n && memcmp(MAP_KEYS(cur)[i], p, n) == 0) {
                    next = cur->u.c.items[i];
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
    size_t run = 0;   /* start of the bytes that need no escape, appended in one go */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&')
            continue;
        buf_append(out, s + run, i - run);
        run = i + 1;
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
            }
        }
    }
    buf_append(out, s + run, n - run);
    buf_putc(out, '"');
}

static void json_number(gw_buf *out, double n)
{
    if (!isfinite(n)) {
        buf_puts(out, "null");
        return;
    }
    if (n == floor(n) && fabs(n) < 1e15) {
        /* what "%.0f" prints, without printf's cost (most figures are whole numbers) */
        char digits[24];
        size_t i = sizeof digits;
        unsigned long long u = (unsigned long long)fabs(n);
        do {
            digits[--i] = (char)('0' + u % 10);
            u /= 10;
        } while (u);
        if (signbit(n))
            digits[--i] = '-';
        buf_append(out, digits + i, sizeof digits - i);
        return;
    }
    /* A short decimal (a price, 0.44, 1751.5) is found without printf: d decimals that give
     * back n exactly (R / 10^d is correctly rounded, as reading "R/10^d" back would be) with
     * at most 6 significant digits and an exponent %g writes plainly are what "%.6g" prints. */
    double a = fabs(n);
    if (a >= 1e-4 && a < 1e6) {
        static const double scale[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
        for (int d = 1; d <= 6; d++) {
            double r = nearbyint(a * scale[d]);
            if (r / scale[d] != a)
                continue;
            if (r >= 1e6)
                break;   /* more than 6 significant digits */
            char digits[32];
            size_t i = sizeof digits;
            unsigned long long u = (unsigned long long)r;
            for (int k = 0; k < d; k++, u /= 10)
                digits[--i] = (char)('0' + u % 10);
            digits[--i] = '.';
            do
                digits[--i] = (char)('0' + u % 10);
            while ((u /= 10) != 0);
            if (n < 0)
                digits[--i] = '-';
            buf_append(out, digits + i, sizeof digits - i);
            return;
        }
    }
    /* Anything else with 15 significant digits, all a double holds reliably: a computed figure
     * reads 22.0064, not 22.006400000000003 (the arithmetic's last bit, which no reader wants).
     * %g drops trailing zeros, so a figure that 6 digits give back exactly stays that short. */
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%.15g", n);
    buf_puts(out, tmp);
}

static void indent(gw_buf *out, int pretty, int depth)
{
    static const char spaces[] = "\n                                                                ";
    if (!pretty)
        return;
    size_t n = 1 + 2 * (size_t)depth;   /* the newline, then two spaces a level */
    buf_append(out, spaces, n < sizeof spaces - 1 ? n : sizeof spaces - 1);
    for (n = n < sizeof spaces - 1 ? 0 : n - (sizeof spaces - 1); n > 0; n--)
        buf_putc(out, ' ');
}

static void json_write(const view *v, gw_buf *out, int pretty, int depth)
{
    switch (view_kind(v)) {
    case VIEW_NULL: buf_puts(out, "null"); break;
    case VIEW_BOOL: buf_puts(out, v->boolean ? "true" : "false"); break;
    case VIEW_NUMBER: json_number(out, v->u.number); break;
    case VIEW_STRING: json_string(out, v->u.str.data, v->u.str.len); break;
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
            json_write(v->u.c.items[i], out, pretty, depth + 1);
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
            json_string(out, MAP_KEYS(v)[i], strlen(MAP_KEYS(v)[i]));
            buf_puts(out, pretty ? ": " : ":");
            json_write(v->u.c.items[i], out, pretty, depth + 1);
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

void view_json_number(gw_buf *out, double n)
{
    json_number(out, n);
}

void view_json_string(gw_buf *out, const char *s, size_t n)
{
    json_string(out, s, n);
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

/* "%.*f" of a non-negative n into digits, without printf where the answer is certain: the
 * scaled value is rounded in integers unless it lies so near a half that the rounding error
 * of the scaling could decide it (printf rounds the exact binary value; those cases, and
 * values too large for exact integers, still go through snprintf). */
static void fixed_digits(char *digits, size_t size, double n, int decimals)
{
    static const double scale[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
    double s = decimals <= 6 ? n * scale[decimals] : INFINITY;
    if (s < 1e15) {
        double whole = floor(s), frac = s - whole;
        /* the scaling is off by half a unit in the last place at most: s * 2^-53 */
        if (fabs(frac - 0.5) > s * 1e-15 + 1e-9) {
            unsigned long long r = (unsigned long long)whole + (frac > 0.5);
            unsigned long long p = (unsigned long long)scale[decimals];
            unsigned long long int_part = r / p, frac_part = r % p;
            char tmp[32];
            size_t len = 0, i = 0;
            do
                tmp[len++] = (char)('0' + int_part % 10);
            while ((int_part /= 10) != 0);
            while (len)
                digits[i++] = tmp[--len];
            if (decimals) {
                digits[i++] = '.';
                for (int d = decimals - 1; d >= 0; d--, frac_part /= 10)
                    digits[i + (size_t)d] = (char)('0' + frac_part % 10);
                i += (size_t)decimals;
            }
            digits[i] = '\0';
            return;
        }
    }
    snprintf(digits, size, "%.*f", decimals, n);
}

void view_format_fixed(gw_buf *out, double n, int decimals)
{
    char digits[400];   /* "%.6f" of the largest double takes 316 */
    if (decimals < 0)
        decimals = 6;   /* printf's default precision */
    if (!isfinite(n) || decimals > 6) {
        buf_printf(out, "%.*f", decimals, n);
        return;
    }
    if (signbit(n))
        buf_putc(out, '-');   /* printf writes "-0.0" too */
    fixed_digits(digits, sizeof digits, fabs(n), decimals);
    buf_puts(out, digits);
}

void view_format_number(gw_buf *out, double n, int decimals)
{
    char digits[64];
    if (!isfinite(n)) {
        buf_puts(out, "n/a");
        return;
    }
    fixed_digits(digits, sizeof digits, fabs(n), decimals < 0 ? 0 : decimals);
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

/* A copy of v, each string as it is or (shown) as term.h shows one field. */
static view *copy_tree(const view *v, int shown)
{
    if (!v)
        return NULL;
    switch (v->type) {
    case VIEW_NULL: return view_null();
    case VIEW_BOOL: return view_bool(v->boolean);
    case VIEW_NUMBER: return view_number(v->u.number);
    case VIEW_STRING: {
        if (!shown)
            return view_stringn(v->u.str.data, v->u.str.len);
        gw_buf b = GW_BUF_INIT;
        gw_term_text(&b, v->u.str.data, v->u.str.len, GW_TERM_FIELD);
        view *s = view_stringn(buf_cstr(&b), b.len);
        buf_free(&b);
        return s;
    }
    case VIEW_LIST: {
        view *c = view_list();
        for (size_t i = 0; i < v->len; i++)
            view_list_push(c, copy_tree(v->u.c.items[i], shown));
        return c;
    }
    case VIEW_MAP: {
        view *c = view_map();   /* v's keys are distinct already: no lookups */
        for (size_t i = 0; i < v->len; i++) {
            container_grow(c);
            MAP_KEYS(c)[i] = MAP_OWNED(v)[i] ? gw_xstrdup(MAP_KEYS(v)[i]) : MAP_KEYS(v)[i];
            MAP_OWNED(c)[i] = MAP_OWNED(v)[i];
            c->u.c.items[i] = copy_tree(v->u.c.items[i], shown);
            c->len++;
        }
        return c;
    }
    }
    return NULL;
}

view *view_copy(const view *v) { return copy_tree(v, 0); }
view *view_term_copy(const view *v) { return copy_tree(v, 1); }

void view_free(view *v)
{
    if (!v || shared(v))
        return;
    if (v->type == VIEW_LIST || v->type == VIEW_MAP) {
        for (size_t i = 0; i < v->len; i++) {
            view_free(v->u.c.items[i]);
            if (v->type == VIEW_MAP && MAP_OWNED(v)[i])
                free((char *)MAP_KEYS(v)[i]);
        }
        free(v->u.c.items);   /* a map's keys and owned flags too */
    } else if (v->type == VIEW_STRING && v->u.str.data != (char *)(v + 1)) {
        free(v->u.str.data);
    }
    free(v);
}
