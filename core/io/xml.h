/* xml.h — libxml2 behind a small, safe interface: XML and HTML parsing from memory with no
 * network, no DTD loading, no entity expansion (a document that declares an entity is refused)
 * and libxml2's limits on depth and text size; XPath queries; text and attributes as owned C
 * strings.
 * Nothing outside xml.c sees a libxml2 type. */
#ifndef GW_XML_H
#define GW_XML_H

#include <stddef.h>

#include "base/error.h"

typedef struct xml_doc xml_doc;
typedef struct xml_node xml_node;   /* an element (or other node) inside an xml_doc */

typedef struct xml_nodeset {
    xml_node **nodes;   /* owned by the set; the nodes themselves belong to the document */
    size_t count;
} xml_nodeset;

/* Opens libxml2 now rather than at the first parse: a plugin's worker cannot open files once
 * it is confined, so the host opens it before the fork (see plugin.c).  GW_EUNAVAILABLE when
 * libxml2 is not usable. */
int xml_open(gw_error *err);

/* Parses text as XML (html = 0) or HTML (html = 1).  name is used in error messages
 * ("dump.xml:12: ...").  Returns GW_OK or GW_EDATA; *out is NULL on failure.  XML that
 * declares an entity is GW_EDATA: "dump.xml:3: declares the entity 'lol': ...". */
int xml_parse(const char *text, size_t len, int html, const char *name, xml_doc **out,
              gw_error *err);
void xml_doc_free(xml_doc *doc);

xml_node *xml_doc_root(xml_doc *doc);

/* Evaluates an XPath expression relative to ctx (NULL: the document).  Non-node results
 * (numbers, strings, booleans) give an empty set, and so are namespace nodes left out (they
 * are copies that live only as long as the XPath result).  Returns GW_OK or GW_EDATA for a bad expression. */
int xml_xpath(xml_doc *doc, xml_node *ctx, const char *expr, xml_nodeset *out, gw_error *err);
void xml_nodeset_free(xml_nodeset *set);

const char *xml_node_name(const xml_node *node);       /* owned by the document */
/* The text and CDATA of node and the elements inside it, whitespace-trimmed (caller frees);
 * a reference to an entity adds nothing (character references and the predefined entities
 * were read as characters by the parser). */
char *xml_node_text(const xml_node *node);
char *xml_node_attr(const xml_node *node, const char *name);  /* caller frees; NULL if absent */
int xml_node_line(const xml_node *node);

/* Element children, in document order. */
xml_node *xml_node_first_child(const xml_node *node);
xml_node *xml_node_next(const xml_node *node);
/* The first element child with that name; a '/'-separated path walks down ("a/b/c"). */
xml_node *xml_node_child(const xml_node *node, const char *path);

#endif
