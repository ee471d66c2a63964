#include "CPugiShim.h"

#include <new>
#include <pugixml.hpp>

struct gm_pugi_document {
    pugi::xml_document document;
};

namespace {

pugi::xml_node node(gm_pugi_node handle) {
    return pugi::xml_node(static_cast<pugi::xml_node_struct *>(const_cast<void *>(handle)));
}

pugi::xml_attribute attribute(gm_pugi_attribute handle) {
    return pugi::xml_attribute(static_cast<pugi::xml_attribute_struct *>(const_cast<void *>(handle)));
}

gm_pugi_node handle(pugi::xml_node node) { return node.internal_object(); }
gm_pugi_attribute handle(pugi::xml_attribute attribute) { return attribute.internal_object(); }

}  // namespace

extern "C" {

gm_pugi_document *gm_pugi_load(const void *bytes, size_t length, gm_pugi_result *result) {
    gm_pugi_document *document = new (std::nothrow) gm_pugi_document;
    if (document == nullptr) return nullptr;
    // load_buffer copies the bytes, as load_file reads them into its own buffer.
    pugi::xml_parse_result parsed = document->document.load_buffer(bytes, length);
    result->ok = parsed ? 1 : 0;
    result->status = static_cast<int>(parsed.status);
    result->description = parsed.description();
    result->offset = parsed.offset;
    return document;
}

void gm_pugi_free(gm_pugi_document *document) { delete document; }

gm_pugi_node gm_pugi_document_node(const gm_pugi_document *document) {
    return handle(static_cast<pugi::xml_node>(document->document));
}

gm_pugi_node gm_pugi_document_element(const gm_pugi_document *document) {
    return handle(document->document.document_element());
}

gm_pugi_node gm_pugi_first_child(gm_pugi_node n) { return handle(node(n).first_child()); }
gm_pugi_node gm_pugi_next_sibling(gm_pugi_node n) { return handle(node(n).next_sibling()); }
gm_pugi_node gm_pugi_child(gm_pugi_node n, const char *name) { return handle(node(n).child(name)); }
int gm_pugi_type(gm_pugi_node n) { return static_cast<int>(node(n).type()); }
const char *gm_pugi_name(gm_pugi_node n) { return node(n).name(); }
const char *gm_pugi_child_value(gm_pugi_node n) { return node(n).child_value(); }
ptrdiff_t gm_pugi_offset(gm_pugi_node n) { return node(n).offset_debug(); }

gm_pugi_attribute gm_pugi_first_attribute(gm_pugi_node n) { return handle(node(n).first_attribute()); }
gm_pugi_attribute gm_pugi_next_attribute(gm_pugi_attribute a) { return handle(attribute(a).next_attribute()); }
gm_pugi_attribute gm_pugi_attribute_named(gm_pugi_node n, const char *name) { return handle(node(n).attribute(name)); }
const char *gm_pugi_attribute_name(gm_pugi_attribute a) { return attribute(a).name(); }
const char *gm_pugi_attribute_value(gm_pugi_attribute a) { return attribute(a).value(); }

}  // extern "C"
