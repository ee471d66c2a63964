#ifndef CPUGISHIM_H
#define CPUGISHIM_H

#include <stddef.h>

/* pugixml's document tree, for Swift: Touchégg reads its configuration with
 * pugixml, so `import` reads it with pugixml too and sees the same text.
 * Nodes and attributes are pointers into the document, valid until
 * gm_pugi_free; a NULL one is pugixml's empty node, whose name and values
 * are "" as pugixml's are. */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gm_pugi_document gm_pugi_document;
typedef const void *gm_pugi_node;
typedef const void *gm_pugi_attribute;

typedef struct {
    /* 1 when pugixml parsed the whole buffer. */
    int ok;
    /* pugixml's status (pugi::xml_parse_status) and its words for it. */
    int status;
    const char *description;
    /* Where parsing stopped, in bytes from the start of the buffer. */
    ptrdiff_t offset;
} gm_pugi_result;

/* The node types gm_pugi_type returns (pugi::xml_node_type). */
enum {
    GM_PUGI_NULL = 0, GM_PUGI_DOCUMENT, GM_PUGI_ELEMENT, GM_PUGI_PCDATA, GM_PUGI_CDATA,
    GM_PUGI_COMMENT, GM_PUGI_PI, GM_PUGI_DECLARATION, GM_PUGI_DOCTYPE
};

/* xml_document::load_buffer with pugixml's default options and encoding,
 * as xml_document::load_file reads a file. NULL only when out of memory;
 * otherwise the document, whole or as far as it parsed, and `result`. */
gm_pugi_document *gm_pugi_load(const void *bytes, size_t length, gm_pugi_result *result);
void gm_pugi_free(gm_pugi_document *document);

gm_pugi_node gm_pugi_document_node(const gm_pugi_document *document);
/* xml_document::document_element: the first element at the top level. */
gm_pugi_node gm_pugi_document_element(const gm_pugi_document *document);

gm_pugi_node gm_pugi_first_child(gm_pugi_node node);
gm_pugi_node gm_pugi_next_sibling(gm_pugi_node node);
/* xml_node::child(name): the first child element of that name. */
gm_pugi_node gm_pugi_child(gm_pugi_node node, const char *name);
int gm_pugi_type(gm_pugi_node node);
const char *gm_pugi_name(gm_pugi_node node);
/* xml_node::child_value: the text of the first PCDATA or CDATA child. */
const char *gm_pugi_child_value(gm_pugi_node node);
/* xml_node::offset_debug: bytes from the buffer's start, -1 when unknown. */
ptrdiff_t gm_pugi_offset(gm_pugi_node node);

gm_pugi_attribute gm_pugi_first_attribute(gm_pugi_node node);
gm_pugi_attribute gm_pugi_next_attribute(gm_pugi_attribute attribute);
/* xml_node::attribute(name): the first attribute of that name. */
gm_pugi_attribute gm_pugi_attribute_named(gm_pugi_node node, const char *name);
const char *gm_pugi_attribute_name(gm_pugi_attribute attribute);
const char *gm_pugi_attribute_value(gm_pugi_attribute attribute);

#ifdef __cplusplus
}
#endif

#endif
