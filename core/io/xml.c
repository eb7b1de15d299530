/* xml.c — the only file that knows libxml2.  Every parse is from memory with options that keep
 * the network, external entities and DTD loading away, and libxml2's own limits (depth 256, 10 MB
 * text nodes) switched on by never asking for XML_PARSE_HUGE.  A document that declares an
 * entity is refused (see refuse_entity_decl) and text is read without expanding entity
 * references, so what a parse costs follows the size of the text, not what it declares.
 *
 * libxml2 is opened on first use (dlopen), not linked, because linking it costs every start of
 * the program, XML or not (only inspection and HTML price tables parse any): Debian's build
 * pulls in ICU, the C++ runtime, zlib and liblzma.  Measured linked against opened (Debian 12,
 * libxml2 2.9.14; callgrind, and the fastest of 150 runs): `gpuwise kb show 3090` takes 10.3 M
 * instructions and 5.2 ms against 7.0 M and 3.6 ms (+48% and +45%); `gpuwise report
 * examples/vision-team.lua --format html` 30.7 M and 11.7 ms against 27.4 M and 9.5 ms (+12%
 * and +23%).  Both well over the 10% that pays for the mechanism. */
#include "xml.h"

#include <dlfcn.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

#ifndef GW_LIBXML2_SONAME
#define GW_LIBXML2_SONAME "libxml2.so.2"
#endif

struct xml_doc {
    xmlDocPtr doc;
};

static void xml_silent(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static xmlParserInputPtr xml_no_external(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
    (void)url;
    (void)id;
    (void)ctxt;
    return NULL; /* never load a DTD, entity or anything else from outside the text */
}

/* The libxml2 functions used here, each looked up once by name into lx.NAME, a pointer of the
 * declared function's own type. */
#define LIBXML_FUNCTIONS(X)                                                                     \
    X(xmlInitParser) X(xmlSetGenericErrorFunc) X(xmlSetExternalEntityLoader)                    \
    X(htmlNewParserCtxt) X(htmlCtxtReadMemory) X(htmlFreeParserCtxt) X(xmlNewParserCtxt)        \
    X(xmlCtxtReadMemory) X(xmlFreeParserCtxt) X(xmlCtxtGetLastError) X(xmlDocGetRootElement)    \
    X(xmlFreeDoc) X(xmlXPathNewContext) X(xmlXPathEvalExpression) X(xmlXPathFreeObject)         \
    X(xmlXPathFreeContext) X(xmlGetProp) X(xmlGetLineNo) X(xmlStopParser)

static struct {
#define DECLARE(name) __typeof__(name) *name;
    LIBXML_FUNCTIONS(DECLARE)
#undef DECLARE
    xmlFreeFunc *free_fn;   /* libxml2's xmlFree is a variable holding its deallocator */
} lx;

static int libxml_open(const char *name, gw_error *err)
{
    static int state;   /* 0: not tried, 1: open, -1: failed */
    static char why[200];
    if (state == 0) {
        void *h = dlopen(GW_LIBXML2_SONAME, RTLD_NOW | RTLD_LOCAL);
        const char *missing = NULL;
        if (h) {
#define RESOLVE(fn)                                                                             \
    if (!missing && !(*(void **)&lx.fn = dlsym(h, #fn)))                                        \
        missing = #fn;
            LIBXML_FUNCTIONS(RESOLVE)
#undef RESOLVE
            if (!missing && !(lx.free_fn = dlsym(h, "xmlFree")))
                missing = "xmlFree";
        }
        if (!h)
            snprintf(why, sizeof why, "%s", dlerror());
        else if (missing)
            snprintf(why, sizeof why, "%s has no %s", GW_LIBXML2_SONAME, missing);
        state = h && !missing ? 1 : -1;
        if (state == 1) {
            lx.xmlInitParser();
            lx.xmlSetGenericErrorFunc(NULL, xml_silent);
            lx.xmlSetExternalEntityLoader(xml_no_external);
        }
    }
    if (state < 0)
        return gw_error_set(err, GW_EUNAVAILABLE,
                            "%s: cannot parse XML: libxml2 is not usable (%s); install the "
                            "libxml2 package",
                            name, why);
    return GW_OK;
}

/* Why a parse was stopped: the first entity a document declares, and its line. */
typedef struct entity_refusal {
    char name[64];
    int line;
} entity_refusal;

/* SAX hook for <!ENTITY ...> (general or parameter, internal or external): stops the parse.
 * libxml2 2.9.14 has no amplification limit a caller can set, and an entity referenced from
 * another is expanded again at every use when text is read: ten nested declarations of ten
 * references each make a 1 kB document a 3 GB string ("billion laughs"), one 100 kB entity
 * used 10,000 times a 1 GB one.  No nvidia-smi dump and no price page declares an entity, so
 * refusing every declaration costs no real document anything. */
static void refuse_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                               const xmlChar *system_id, xmlChar *content)
{
    xmlParserCtxtPtr ctxt = ctx;
    entity_refusal *why = ctxt->_private;
    (void)type;
    (void)public_id;
    (void)system_id;
    (void)content;
    if (why && !why->name[0]) {
        const char *full = name ? (const char *)name : "?";
        snprintf(why->name, sizeof why->name, "%s", full);
        size_t n = strlen(why->name);
        if (full[n]) {   /* cut short: end on a whole UTF-8 character */
            while (n && ((unsigned char)full[n] & 0xC0) == 0x80)
                n--;
            why->name[n] = '\0';
        }
        why->line = ctxt->input ? ctxt->input->line : 0;
    }
    lx.xmlStopParser(ctxt);
}

int xml_open(gw_error *err)
{
    return libxml_open("XML", err);
}

int xml_parse(const char *text, size_t len, int html, const char *name, xml_doc **out,
              gw_error *err)
{
    xmlDocPtr doc = NULL;
    const xmlError *e = NULL;
    *out = NULL;
    if (libxml_open(name, err) != GW_OK)
        return GW_EUNAVAILABLE;
    if (len > INT_MAX)
        return gw_error_set(err, GW_EDATA, "%s: file too large to parse", name);
    if (html) {
        htmlParserCtxtPtr ctxt = lx.htmlNewParserCtxt();
        if (!ctxt)
            return gw_error_set(err, GW_ESOFTWARE, "%s: cannot create a parser", name);
        doc = lx.htmlCtxtReadMemory(ctxt, text, (int)len, name, "UTF-8",
                                 HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                     HTML_PARSE_RECOVER);
        if (!doc)
            e = lx.xmlCtxtGetLastError(ctxt);
        if (!doc)
            gw_error_set(err, GW_EDATA, "%s:%d: %s", name, e ? e->line : 0,
                         e && e->message ? e->message : "not readable as HTML\n");
        lx.htmlFreeParserCtxt(ctxt);
    } else {
        xmlParserCtxtPtr ctxt = lx.xmlNewParserCtxt();
        entity_refusal refused = {{0}, 0};
        if (!ctxt)
            return gw_error_set(err, GW_ESOFTWARE, "%s: cannot create a parser", name);
        ctxt->_private = &refused;
        ctxt->sax->entityDecl = refuse_entity_decl;
        /* Neither XML_PARSE_NOENT (substitute entities) nor XML_PARSE_DTDLOAD: no DTD is read
         * and no entity expanded, the declarations being refused above. */
        doc = lx.xmlCtxtReadMemory(ctxt, text, (int)len, name, NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                    XML_PARSE_NOCDATA);
        if (refused.name[0]) {
            if (doc)
                lx.xmlFreeDoc(doc);
            doc = NULL;
            gw_error_set(err, GW_EDATA,
                         "%s:%d: declares the entity '%s': documents that declare entities are "
                         "refused (their expansion can take gigabytes)",
                         name, refused.line, refused.name);
        } else if (!doc) {
            e = lx.xmlCtxtGetLastError(ctxt);
            gw_error_set(err, GW_EDATA, "%s:%d: %s", name, e ? e->line : 0,
                         e && e->message ? e->message : "not well-formed XML\n");
        }
        lx.xmlFreeParserCtxt(ctxt);
    }
    if (!doc) {
        /* libxml2 messages end with a newline */
        size_t n = strlen(err ? err->msg : "");
        if (err && n && err->msg[n - 1] == '\n')
            err->msg[n - 1] = '\0';
        return GW_EDATA;
    }
    if (!lx.xmlDocGetRootElement(doc)) {
        lx.xmlFreeDoc(doc);
        return gw_error_set(err, GW_EDATA, "%s: empty document", name);
    }
    xml_doc *d = gw_xmalloc(sizeof *d);
    d->doc = doc;
    *out = d;
    return GW_OK;
}

void xml_doc_free(xml_doc *doc)
{
    if (!doc)
        return;
    lx.xmlFreeDoc(doc->doc);
    free(doc);
}

xml_node *xml_doc_root(xml_doc *doc)
{
    return doc ? (xml_node *)lx.xmlDocGetRootElement(doc->doc) : NULL;
}

int xml_xpath(xml_doc *doc, xml_node *ctx, const char *expr, xml_nodeset *out, gw_error *err)
{
    out->nodes = NULL;
    out->count = 0;
    xmlXPathContextPtr xctx = lx.xmlXPathNewContext(doc->doc);
    if (!xctx)
        return gw_error_set(err, GW_ESOFTWARE, "cannot create an XPath context");
    if (ctx)
        xctx->node = (xmlNodePtr)ctx;
    xmlXPathObjectPtr res = lx.xmlXPathEvalExpression((const xmlChar *)expr, xctx);
    if (!res) {
        lx.xmlXPathFreeContext(xctx);
        return gw_error_set(err, GW_EDATA, "invalid XPath expression: %s", expr);
    }
    if (res->type == XPATH_NODESET && res->nodesetval && res->nodesetval->nodeNr > 0) {
        int n = res->nodesetval->nodeNr;
        out->nodes = gw_xcalloc((size_t)n, sizeof *out->nodes);
        /* A namespace node in a result is a copy that xmlXPathFreeObject frees below, not a
         * node of the document: it is left out.  Every other node belongs to the document. */
        for (int i = 0; i < n; i++)
            if (res->nodesetval->nodeTab[i] &&
                res->nodesetval->nodeTab[i]->type != XML_NAMESPACE_DECL)
                out->nodes[out->count++] = (xml_node *)res->nodesetval->nodeTab[i];
    }
    lx.xmlXPathFreeObject(res);
    lx.xmlXPathFreeContext(xctx);
    return GW_OK;
}

void xml_nodeset_free(xml_nodeset *set)
{
    free(set->nodes);
    set->nodes = NULL;
    set->count = 0;
}

const char *xml_node_name(const xml_node *node)
{
    const xmlNode *n = (const xmlNode *)node;
    return n && n->name ? (const char *)n->name : "";
}

static char *trim_dup(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;
    return gw_xstrndup(s, n);
}

/* Appends the text and CDATA below top in document order, walking without recursion (an HTML
 * page may nest elements deeper than the stack allows).  Entity references are not followed
 * (xmlNodeGetContent would expand them, each use again): their text is not part of the result. */
static void text_append(gw_buf *out, const xmlNode *top)
{
    const xmlNode *n = top->children;
    while (n) {
        if ((n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) && n->content)
            buf_puts(out, (const char *)n->content);
        if (n->type == XML_ELEMENT_NODE && n->children) {
            n = n->children;
            continue;
        }
        while (n != top && !n->next)
            n = n->parent;
        n = n == top ? NULL : n->next;
    }
}

char *xml_node_text(const xml_node *node)
{
    if (!node)
        return NULL;
    const xmlNode *n = (const xmlNode *)node;
    gw_buf text = GW_BUF_INIT;
    if (n->type == XML_ELEMENT_NODE || n->type == XML_ATTRIBUTE_NODE ||
        n->type == XML_DOCUMENT_NODE || n->type == XML_HTML_DOCUMENT_NODE)
        text_append(&text, n);
    else if (n->type != XML_ENTITY_REF_NODE && n->content)   /* text, CDATA, comment, PI */
        buf_puts(&text, (const char *)n->content);
    char *s = trim_dup(buf_cstr(&text));
    buf_free(&text);
    return s;
}

char *xml_node_attr(const xml_node *node, const char *name)
{
    const xmlNode *n = (const xmlNode *)node;
    if (!n || n->type != XML_ELEMENT_NODE)
        return NULL;
    xmlChar *v = lx.xmlGetProp(n, (const xmlChar *)name);
    if (!v)
        return NULL;
    char *s = gw_xstrdup((const char *)v);
    (*lx.free_fn)(v);
    return s;
}

int xml_node_line(const xml_node *node)
{
    return node ? (int)lx.xmlGetLineNo((const xmlNode *)node) : 0;
}

static const xmlNode *next_element(const xmlNode *n)
{
    while (n && n->type != XML_ELEMENT_NODE)
        n = n->next;
    return n;
}

xml_node *xml_node_first_child(const xml_node *node)
{
    return node ? (xml_node *)next_element(((const xmlNode *)node)->children) : NULL;
}

xml_node *xml_node_next(const xml_node *node)
{
    return node ? (xml_node *)next_element(((const xmlNode *)node)->next) : NULL;
}

xml_node *xml_node_child(const xml_node *node, const char *path)
{
    const xmlNode *cur = (const xmlNode *)node;
    const char *p = path;
    while (cur && *p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        const xmlNode *c = next_element(cur->children);
        for (; c; c = next_element(c->next))
            if (strlen((const char *)c->name) == n && memcmp(c->name, p, n) == 0)
                break;
        cur = c;
        p = slash ? slash + 1 : p + n;
    }
    return (xml_node *)cur;
}
